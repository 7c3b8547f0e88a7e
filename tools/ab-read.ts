// A/B of the DXIL module read (the bench's "DXIL module read": the container parsed and its DXIL
// part's module read) between two compiled trees (issue 17, docs/benchmarks.md, the twenty-second
// session).
//
// Why in one process: a whole process here moves by half (one tree's least pass 60 µs a container in
// one process, 96 in the next), and tools/ab-listing.ts, whose trees run in processes of their own,
// read one change as 0.875 and then 1.060 of its base. Loaded into one process, with their passes
// taken in turns, the two trees move together. Their code is apart (each its own modules, so its own
// type feedback and allocation sites); only the heap is shared, which a reader that keeps nothing
// between modules does not feel.
//
// The process (tools/ab-read-worker.mjs, under plain node) runs twice: base imported first, then
// this tree first. tools/ab-lift.ts found the tree imported second about 4% faster in one process,
// and the geometric mean of the two orders cancels that. (The bitstream alone, timed in one process,
// is not a fair measure: two copies of one tree read 1.198 and 0.855 of each other, as V8 happened to
// compile each. It is left out.)
//
//   git worktree add /tmp/base HEAD~1 && (cd /tmp/base && npm install && npx tsc -p tsconfig.build.json)
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/ab-read.ts /tmp/base [rounds]
//
// The corpus is ../shared/corpus/dxil (the containers with a DXIL part that both trees read). After
// five untimed rounds, each round times one pass of each tree over the corpus, the order swapped
// every round (default 30 rounds). Printed, for each order of import: each tree's least and median
// CPU microseconds a container, and the ratios (this tree / base); then the geometric means of the
// two orders' ratios. Figures only: nothing is asserted.

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { dxilAbArgs } from './corpus-args.js';
import { median } from './stats.js';

const { base: baseRoot, count: rounds, folder } = dxilAbArgs('ab-read', process.argv.slice(2), 'rounds', 30);
const WORKER = resolve(import.meta.dirname, 'ab-read-worker.mjs');
const base = resolve(baseRoot);
const head = resolve('.');

/** One worker process, `first` imported first: containers, and each tree's CPU ms a pass by round. */
function run(first: string, second: string): { containers: number; times: [number[], number[]] } {
  const r = spawnSync(process.execPath, [WORKER, String(rounds), folder, first, second], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) {
    console.error(`ab-read: the worker failed (exit ${r.status})`);
    process.exit(1);
  }
  return JSON.parse(r.stdout) as { containers: number; times: [number[], number[]] };
}

const least = (xs: readonly number[]): number => Math.min(...xs);
const ratios: { least: number; median: number }[] = [];
for (const baseFirst of [true, false]) {
  const r = run(baseFirst ? base : head, baseFirst ? head : base);
  const [b, h] = baseFirst ? r.times : [r.times[1], r.times[0]];
  const us = (ms: number): string => ((ms * 1000) / r.containers).toFixed(2);
  ratios.push({ least: least(h) / least(b), median: median(h) / median(b) });
  console.log(
    `ab-read: ${baseFirst ? 'base' : 'this tree'} imported first, ${r.containers} containers, ${rounds} rounds in turns: ` +
      `base ${us(least(b))} µs least, ${us(median(b))} median; this tree ${us(least(h))} least, ` +
      `${us(median(h))} median; this / base ${ratios.at(-1)!.least.toFixed(3)} least, ` +
      `${ratios.at(-1)!.median.toFixed(3)} median`,
  );
}
const geo = (k: 'least' | 'median'): string => Math.sqrt(ratios[0]![k] * ratios[1]![k]).toFixed(3);
console.log(
  `ab-read: module read, this tree / base, the two orders' geometric mean: ${geo('least')} least, ${geo('median')} median (lower is faster)`,
);
