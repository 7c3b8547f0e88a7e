// Bundles the command line (tsc's JavaScript under dist/src/cli, after `tsc -p tsconfig.build.json`)
// into dist/cli/: main.js, worker.js (the --jobs threads) and commands/NAME.js (one a command, loaded
// on demand as before), with the code they share in a few chunks beside them. bin/iridia.js runs
// dist/cli/main.js when it is at least as new as dist/src/cli/main.js, and dist/src's modules
// otherwise (a tree that ran tsc alone). `npm run build` runs it after tsc.
//
// Why: Node loads an ES module graph a file at a time. `iridia disasm FILE` loaded 92 modules of
// dist/src, 110 to 140 ms of CPU before any work, and 19 files of dist/cli; the whole command took
// 186 ms of CPU against 228, `lift --wgsl` 214 against 271 (`npm run bench -- cli.bench`,
// docs/cli.md). Every command is one process: scripts that run iridia file by file pay it each time.
//
// The bundle is tsc's output joined, not recompiled from TypeScript: the code users run is the code
// `npm run build` compiles, as before. Packages (webgpu, tsx) stay imports.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'dist/src/cli');
const OUT = join(ROOT, 'dist/cli');

export async function buildCli() {
  const entryPoints = { main: join(SRC, 'main.js'), worker: join(SRC, 'worker.js') };
  for (const f of readdirSync(join(SRC, 'commands'))) {
    if (f.endsWith('.js')) entryPoints[`commands/${f.slice(0, -3)}`] = join(SRC, 'commands', f);
  }
  rmSync(OUT, { recursive: true, force: true }); // no chunk of an earlier build left beside the new ones
  const result = await build({
    entryPoints,
    outdir: OUT,
    bundle: true,
    splitting: true,
    // chunks beside main.js and worker.js: src/cli/pool.ts finds the worker as new URL('./worker.js',
    // import.meta.url), checked below
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  // The worker's path is relative to the file that holds pool.ts's code: it must sit in dist/cli/.
  const pool = join(SRC, 'pool.js');
  const holders = Object.entries(result.metafile.outputs)
    .filter(([, o]) => Object.keys(o.inputs).some((i) => resolve(ROOT, i) === pool))
    .map(([f]) => resolve(ROOT, f));
  if (holders.length !== 1 || dirname(holders[0]) !== OUT) {
    throw new Error(
      `build-cli: src/cli/pool.ts's code is in ${holders.map((h) => relative(ROOT, h)).join(', ') || 'no output'}, ` +
        `not in one file of dist/cli/: its new URL('./worker.js', import.meta.url) would not find dist/cli/worker.js`,
    );
  }
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await buildCli();
  const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
  const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
  console.log(
    `dist/cli: ${outputs.length} files, ${bytes} bytes from ${Object.keys(result.metafile.inputs).length} modules`,
  );
}
