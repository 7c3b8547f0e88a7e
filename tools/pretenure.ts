// How much V8's allocation-site pretenuring costs lift + WGSL (issue 17, docs/benchmarks.md). V8
// gives each object and array literal an allocation site; a site whose objects mostly survive a young
// collection is switched, for good, to allocating them in the old generation. While a batch warms up,
// code runs slowly in the interpreter and a young collection lands inside most programs, so every
// object the program has made so far survives, and the IR's literal sites (expressions, statements,
// lets, the arenas) are switched. From then on each program's IR is allocated old, and old arrays
// hold the young objects pushed into them alive through the next young collections.
//
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/pretenure.ts [--dxil] [pairs]
//
// It runs tools/pretenure-worker.mjs in `pairs` pairs of child processes (default 3), one under
// node's default flags and one under --no-allocation-site-pretenuring, alternately, each timing five
// rounds after its warm-up over the corpus (../shared/corpus/dxbc, or with --dxil corpus/dxil), and
// prints each one's best round, the ratio of the medians, and the young collections. Then one census
// child (--allow-natives-syntax) counts how many objects of a freshly lifted IR module were allocated
// in the old generation, by their keys, and with --dxil so does one of the DXIL modules the reader
// makes. Last, a child under each kind of flags takes a sampling heap profile of three passes of lift
// and reports which functions allocated the objects that full collections freed: those that died
// old, which the census of what a program leaves cannot count. Figures only: nothing is asserted.

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusArgs } from './corpus-args.js';
import { median } from './stats.js';

interface Rate {
  readonly programs: number;
  readonly rates: readonly number[];
  readonly scavenges: number;
  readonly scavengeMs: number;
}
interface Census {
  readonly programs: number;
  readonly objects: number;
  readonly old: number;
  readonly top: readonly [string, [number, number]][];
}

const { dxil, pairs, folder, ext } = corpusArgs('pretenure', process.argv.slice(2), 0, 3);
const worker = join(dirname(fileURLToPath(import.meta.url)), 'pretenure-worker.mjs');

function run<T>(flags: readonly string[], args: readonly string[]): T {
  const r = spawnSync(process.execPath, [...flags, worker, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) {
    console.error(`pretenure: the worker failed (exit ${r.status}) under ${flags.join(' ') || 'default flags'}`);
    process.exit(3);
  }
  return JSON.parse(r.stdout) as T;
}

const kinds = [
  { name: 'default flags', flags: [] as string[], best: [] as number[], gc: [] as string[] },
  { name: '--no-allocation-site-pretenuring', flags: ['--no-allocation-site-pretenuring'], best: [], gc: [] },
];
let programs = 0;
for (let p = 0; p < pairs; p++) {
  for (const k of p % 2 ? [...kinds].reverse() : kinds) {
    const r = run<Rate>(k.flags, ['rate', '5', ext, folder]);
    programs = r.programs;
    k.best.push(Math.max(...r.rates));
    k.gc.push(`${r.scavenges} young collections, ${r.scavengeMs.toFixed(0)} ms`);
  }
}
console.log(`pretenure: ${programs} ${dxil ? 'DXIL' : 'SM4/5'} programs, lift + WGSL per CPU-second, best of 5 rounds`);
for (const k of kinds) {
  console.log(`  ${k.name}: ${k.best.map((x) => x.toFixed(0)).join(', ')} (${k.gc.join('; ')})`);
}
const [on, off] = kinds as [(typeof kinds)[0], (typeof kinds)[0]];
console.log(
  `pretenure: without pretenuring / with, median of the pairs ${(median(off.best) / median(on.best)).toFixed(2)}`,
);
const c = run<{ ir: Census; reader?: Census }>(['--allow-natives-syntax', '--expose-gc'], ['census', ext, folder]);
const report = (census: Census, what: string): void => {
  console.log(
    `pretenure: ${census.old} of ${census.objects} objects of ${census.programs} ${what} ` +
      `(${((100 * census.old) / census.objects).toFixed(0)}%) were allocated in the old generation; by keys (old, young):`,
  );
  for (const [key, [o, y]] of census.top) console.log(`  ${String(o).padStart(7)} ${String(y).padStart(7)}  ${key}`);
};
report(c.ir, 'freshly lifted IR modules');
if (c.reader) report(c.reader, 'DXIL modules as read');

// What the census cannot see: objects that die within a program. Those a full collection frees
// were old when they died, made old by a switched site or promoted because an old object held them.
interface Freed {
  readonly total: number;
  readonly top: readonly [string, number][];
}
for (const k of kinds) {
  const f = run<Freed>(k.flags, ['freed', ext, folder]);
  const mb = (b: number): string => (b / 1e6).toFixed(1);
  console.log(
    `pretenure: ${k.name}: ${mb(f.total)} MB of the objects allocated in 3 passes of lift (sampled) were ` +
      'freed by full collections; by the function that allocated them (MB):',
  );
  for (const [where, bytes] of f.top) console.log(`  ${mb(bytes).padStart(7)}  ${where}`);
}
