// A/B of lift + WGSL between two compiled trees, each in processes of its own (issue 17). A change
// to what V8 allocates where (docs/benchmarks.md, the fourth and fifth sessions) cannot be measured
// in one process holding both trees, as tools/ab-lift.ts does: the trees share one heap, and which
// allocation sites V8 moves to the old generation depends on everything the process ran. Here each
// tree runs its own tools/pretenure-worker.mjs (`rate`: a warm-up pass over the corpus, then five
// timed rounds) in a fresh child process, the two trees alternately, base first in even pairs.
//
//   git worktree add /tmp/base HEAD~1 && (cd /tmp/base && npm install && npx tsc -p tsconfig.build.json)
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/ab-process.ts /tmp/base [pairs] [--dxil]
//
// The corpus is ../shared/corpus/dxbc, or with --dxil corpus/dxil. Both trees need the worker
// (b12bf7c and later). Printed: each pair's best rounds (programs per CPU-second, all threads),
// their ratio (this tree / base) and the median of the ratios. Figures only: nothing is asserted.

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { corpusArgs } from './corpus-args.js';

const {
  leading: [baseRoot],
  dxil,
  pairs,
  folder,
  ext,
} = corpusArgs('ab-process', process.argv.slice(2), 1, 4);
if (baseRoot === undefined) {
  console.error('usage: node --import tsx tools/ab-process.ts BASE_TREE [pairs] [--dxil]');
  process.exit(2);
}

/** One child process of `tree`: its best round, programs per CPU-second. */
function best(tree: string): { rate: number; programs: number } {
  const r = spawnSync(process.execPath, ['tools/pretenure-worker.mjs', 'rate', '5', ext, folder], {
    cwd: tree,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) {
    console.error(`ab-process: the worker of ${tree} failed (exit ${r.status}); is its dist/ built?`);
    process.exit(3);
  }
  const out = JSON.parse(r.stdout) as { programs: number; rates: number[] };
  return { rate: Math.max(...out.rates), programs: out.programs };
}

const base = resolve(baseRoot);
const here = resolve('.');
const ratios: number[] = [];
for (let p = 0; p < pairs; p++) {
  const order = p % 2 === 0 ? [base, here] : [here, base];
  const got = new Map(order.map((t) => [t, best(t)]));
  const b = got.get(base)!;
  const n = got.get(here)!;
  if (b.programs !== n.programs) console.log(`ab-process: the trees lift ${b.programs} and ${n.programs} programs`);
  ratios.push(n.rate / b.rate);
  console.log(
    `ab-process: pair ${p + 1}: base ${b.rate.toFixed(0)}, this tree ${n.rate.toFixed(0)} per CPU-second, ` +
      `ratio ${(n.rate / b.rate).toFixed(2)}`,
  );
}
const sorted = [...ratios].sort((x, y) => x - y);
console.log(
  `ab-process: ${dxil ? 'DXIL' : 'SM4/5'} lift + WGSL, this tree / base, median of ${pairs} pairs ` +
    `${sorted[sorted.length >> 1]!.toFixed(2)} (${sorted.map((x) => x.toFixed(2)).join(', ')})`,
);
