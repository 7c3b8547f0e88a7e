// `npm run bench`: imports every bench/*.bench.ts in sorted order and runs its
// `bench(report)`, printing each line it reports. One file's failure is reported and the rest run.
// Timings are for reading, never asserted. `npm run bench` compiles src and bench with tsc
// (tsconfig.bench.json, into dist-bench/) and runs this file's JavaScript, so the figures are those
// of the code users run, not of a loader's transform; `node --import tsx bench/run.ts` still works.

import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface BenchModule {
  bench(report: (line: string) => void): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => /\.bench\.[jt]s$/.test(f) && (filters.length === 0 || filters.some((x) => f.includes(x))))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`# ${f.replace(/\.js$/, '.ts')}`);
  try {
    const mod = (await import(pathToFileURL(join(here, f)).href)) as BenchModule;
    await mod.bench((line) => console.log(`  ${line}`));
  } catch (e) {
    failed++;
    console.log(`  FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
