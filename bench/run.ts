// `npm run bench`: runs every bench/*.bench.ts in sorted order, each in a child process of its own,
// and prints each line its `bench(report)` reports. One file's failure is reported and the rest run.
// Timings are for reading, never asserted. `npm run bench` compiles src and bench with tsc
// (tsconfig.bench.json, into dist-bench/) and runs this file's JavaScript, so the figures are those
// of the code users run, not of a loader's transform; `node --import tsx bench/run.ts` still works.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TARGET } from './targets.js';

interface BenchModule {
  bench(report: (line: string) => void): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);

// `--one FILE`: the child's part, one bench file in this process.
if (args[0] === '--one' && args[1] !== undefined) {
  const mod = (await import(pathToFileURL(join(here, args[1])).href)) as BenchModule;
  await mod.bench((line) => console.log(`  ${line}`));
} else {
  // Each bench file runs in a process of its own: in one shared process a file's figures depended on
  // the files before it (the DXIL module read measured 4,237 per CPU-second after dxil-lift.bench's
  // lifting and heap checks, 15,852 to 17,163 run alone, 2026-12-05).
  const filters = args;
  const files = readdirSync(here)
    .filter((f) => /\.bench\.[jt]s$/.test(f) && (filters.length === 0 || filters.some((x) => f.includes(x))))
    .sort();
  let failed = 0;
  const targets: string[] = [];
  for (const f of files) {
    console.log(`# ${f.replace(/\.js$/, '.ts')}`);
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--one', f], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    process.stdout.write(r.stdout ?? '');
    for (const line of (r.stdout ?? '').split('\n')) {
      const at = line.indexOf(TARGET);
      if (at >= 0) targets.push(line.slice(at + TARGET.length));
    }
    if (r.status !== 0) {
      failed++;
      console.log(`  FAILED (exit ${r.status ?? r.signal}): ${(r.stderr ?? '').trim()}`);
    } else if (r.stderr) process.stderr.write(r.stderr);
  }
  // Issue 17's targets the files measured (bench/targets.ts), as a table (docs/benchmarks.md copies it).
  if (targets.length) {
    console.log('# targets (issue 17)');
    console.log('| target | figure | aim | met? |');
    console.log('| --- | --- | --- | --- |');
    for (const t of targets) console.log(`| ${t} |`);
  }
  process.exitCode = failed > 0 ? 1 : 0;
}
