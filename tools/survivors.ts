// What of lift + WGSL outlives V8's young collections, and by which function it was allocated (issue
// 17, docs/benchmarks.md, the eleventh session). An object that survives a young collection is
// copied, then moved to the old generation, whose new pages the benchmark machine faults in at 10 to
// 20 µs each, and which only a full collection frees. Most of a program's objects die young; what
// survives is either alive when a collection lands (the program being lifted) or kept by something
// older: an old object that points at it, garbage or not, such as a module-level WeakMap keyed by a
// program's types, which is how this tool found one.
//
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/survivors.ts [max-instructions] [passes] [--dxil] [--only TEXT]
//
// Lifts and emits the programs of ../shared/corpus/dxbc and dxbc-sm51 (corpus/dxil with --dxil) of
// fewer than max-instructions instructions (default 64), and with --only those whose path holds
// TEXT (`--only clearfloat11_fl9ps`), with the compiled tree (dist/): two passes and at least 2,000
// programs to warm up, then `passes` passes (default 4) timed: CPU a program, young and full
// collections, the collector's time, the bytes the young ones promoted, and the page faults. Then
// as many passes again as the warm-up under V8's sampling heap profiler, counting only allocations
// no young collection freed: bytes a program, by allocating function. Figures only: nothing is
// asserted.

import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { sharedPath } from '../test/helpers/shared.js';
import { positiveArg, takeOption } from './corpus-args.js';

const { value: only = '-', rest: argv } = takeOption(process.argv.slice(2), '--only');
if (only === '') {
  console.error('survivors: --only needs the text a path must hold');
  process.exit(2);
}
const dxil = argv.includes('--dxil');
const [maxArg, passesArg] = argv.filter((a) => a !== '--dxil');
const max = positiveArg('survivors', 'max-instructions', maxArg, 64);
const passes = positiveArg('survivors', 'passes', passesArg, 4);
const folders = (dxil ? ['corpus/dxil'] : ['corpus/dxbc', 'corpus/dxbc-sm51']).flatMap((f) => sharedPath(f) ?? []);
if (folders.length === 0) {
  console.error('survivors: ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)');
  process.exit(2);
}

// The measuring is tools/pretenure-worker.mjs's `survivors` mode, under plain node on dist/.
const root = resolve(import.meta.dirname, '..');
const worker = join(root, 'tools/pretenure-worker.mjs');
const run = spawnSync(
  process.execPath,
  [worker, 'survivors', String(max), String(passes), only, dxil ? '.dxil' : '.dxbc', ...folders],
  { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] },
);
if (run.status !== 0) {
  console.error(`survivors: the worker failed (exit ${run.status})`);
  process.exit(3);
}
const r = JSON.parse(run.stdout) as {
  readonly programs: number;
  readonly cpuMs: number;
  readonly young: number;
  readonly full: number;
  readonly collectorMs: number;
  readonly promoted: number;
  readonly faults: number;
  readonly sampled: number;
  readonly total: number;
  readonly top: readonly [string, number][];
};
if (r.programs === 0) {
  console.error(
    `survivors: no program of fewer than ${max} instructions${only === '-' ? '' : ` whose path holds ${only}`} lifts`,
  );
  process.exit(2);
}
const n = r.programs * passes;
console.log(
  `survivors: ${r.programs} programs of ${dxil ? 'corpus/dxil' : 'corpus/dxbc and dxbc-sm51'} under ${max} instructions, ${passes} passes after a warm-up`,
);
console.log(
  `  ${((r.cpuMs * 1000) / n).toFixed(0)} µs of CPU a program; ${r.young} young and ${r.full} full collections, ` +
    `${r.collectorMs.toFixed(0)} ms in the collector, ${(r.promoted / 2 ** 20).toFixed(1)} MB promoted by the young ones; ` +
    `${r.faults} page faults (${(r.faults / n).toFixed(2)} a program)`,
);
console.log(
  `  sampled allocations no young collection freed: ${(r.total / r.sampled).toFixed(0)} bytes a program (${r.sampled} programs); by allocating function:`,
);
for (const [where, bytes] of r.top)
  console.log(
    `    ${(bytes / r.sampled).toFixed(0).padStart(6)} B  ${((100 * bytes) / r.total).toFixed(1).padStart(5)}%  ${where}`,
  );
