// Joins tsc's JavaScript under dist/src (after `tsc -p tsconfig.build.json`) into the few files Node
// loads, under dist/node/: the library's entry points (index.js, the root export, and one file a
// layer subpath: container.js, dxbc.js, ...; package.json "exports" names them), the command line
// (cli.js, its main; commands/NAME.js, one a command, loaded only when it runs; worker.js, the
// --jobs threads), and chunks of the code they share (chunk-*.js). One build of every entry, so
// each module's code is in one file and the root export and its subpaths hold the same values.
// `npm run build` runs it after tsc. bin/iridia.js runs dist/node/cli.js when it is at least as new
// as dist/src/cli/main.js, and dist/src's modules otherwise (a tree that ran tsc alone).
//
// Why: Node loads an ES module graph a file at a time. `iridia disasm FILE` loads 92 modules of
// dist/src and 32 files of dist/node; importing the root export took 251 to 261 ms of CPU from
// dist/src's 218 modules, and 128 to 133 from dist/node's 48 files (docs/benchmarks.md, the sixteenth
// session; `npm run bench -- cli.bench` prints the start-up both ways). Every command is one
// process: a script that runs iridia file by file pays the loading each time.
//
// The build joins tsc's output, it does not compile the TypeScript again: the code Node runs is the
// code tsc wrote. Packages (webgpu, tsx) stay imports; the library's files import no Node module
// (test/package/exports.test.ts), and no chunk of theirs holds the command line's code.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'dist/src');
const OUT = join(ROOT, 'dist/node');

const scripts = (dir) => readdirSync(dir).filter((f) => f.endsWith('.js'));

export async function buildNode() {
  const entryPoints = {
    index: join(SRC, 'index.js'),
    cli: join(SRC, 'cli/main.js'),
    worker: join(SRC, 'cli/worker.js'),
  };
  for (const f of scripts(join(SRC, 'entry'))) entryPoints[f.slice(0, -3)] = join(SRC, 'entry', f);
  for (const f of scripts(join(SRC, 'cli/commands')))
    entryPoints[`commands/${f.slice(0, -3)}`] = join(SRC, 'cli/commands', f);
  rmSync(OUT, { recursive: true, force: true }); // no chunk of an earlier build left beside the new ones
  const result = await build({
    entryPoints,
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  // src/cli/pool.ts finds the worker as new URL('./worker.js', import.meta.url): its code must be in
  // a file of dist/node/ itself, beside worker.js (a chunk, or cli.js), not in commands/.
  const pool = join(SRC, 'cli/pool.js');
  const holders = Object.entries(result.metafile.outputs)
    .filter(([, o]) => Object.keys(o.inputs).some((i) => resolve(ROOT, i) === pool))
    .map(([f]) => resolve(ROOT, f));
  if (holders.length !== 1 || dirname(holders[0]) !== OUT) {
    throw new Error(
      `build-node: src/cli/pool.ts's code is in ${holders.map((h) => relative(ROOT, h)).join(', ') || 'no output'}, ` +
        `not in one file of dist/node/: its new URL('./worker.js', import.meta.url) would not find dist/node/worker.js`,
    );
  }
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await buildNode();
  const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
  const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
  console.log(
    `dist/node: ${outputs.length} files, ${bytes} bytes from ${Object.keys(result.metafile.inputs).length} modules`,
  );
}
