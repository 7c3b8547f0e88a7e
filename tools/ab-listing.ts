// A/B of the DXIL /Fc listing (disassembleDxil, dxc's /Fc text) between two compiled trees, each in
// processes of its own, the two trees alternately, base first in even pairs (issue 17: the listing's
// target in `npm run bench` moves by up to half between runs, too much to see a change of a few
// percent). Each process (tools/ab-listing-worker.mjs, this tree's, run in the tree measured so that
// it loads that tree's dist/) warms up, then takes the best of its rounds: the whole listing a
// container, the module printer alone, and the module read as the bench's "DXIL module read" (the
// container parsed and its DXIL part's module read).
//
//   git worktree add /tmp/base HEAD~1 && (cd /tmp/base && npm install && npx tsc -p tsconfig.build.json)
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/ab-listing.ts /tmp/base [pairs]
//
// The corpus is ../shared/corpus/dxil. Printed: each process's best CPU microseconds a container,
// whole, printer alone and module read, and the ratios (this tree / base) of their medians. Figures only: nothing
// is asserted.

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { dxilAbArgs } from './corpus-args.js';
import { median } from './stats.js';

const { base: baseRoot, count: pairs, folder } = dxilAbArgs('ab-listing', process.argv.slice(2), 'pairs', 4);
const ROUNDS = 8;

const WORKER = resolve(import.meta.dirname, 'ab-listing-worker.mjs');

/** One child process of `tree`: containers, best whole-listing, printer-only and module-read µs a container. */
function run(tree: string): { n: number; whole: number; print: number; read: number } {
  const r = spawnSync(process.execPath, [WORKER, String(ROUNDS), folder], {
    cwd: tree,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const figures = r.stdout.trim().split(' ').map(Number);
  const [n, whole, print, read] = figures;
  if (r.status !== 0 || figures.length !== 4 || !(n! > 0)) {
    console.error(`ab-listing: the worker in ${tree} failed (status ${r.status})`);
    process.exit(1);
  }
  return { n: n!, whole: whole!, print: print!, read: read! };
}

const base = { whole: [] as number[], print: [] as number[], read: [] as number[] };
const head = { whole: [] as number[], print: [] as number[], read: [] as number[] };
for (let k = 0; k < pairs; k++) {
  const order: [string, typeof base][] =
    k % 2 === 0
      ? [
          [resolve(baseRoot), base],
          ['.', head],
        ]
      : [
          ['.', head],
          [resolve(baseRoot), base],
        ];
  for (const [tree, into] of order) {
    const r = run(tree);
    into.whole.push(r.whole);
    into.print.push(r.print);
    into.read.push(r.read);
    console.log(
      `pair ${k} ${into === base ? 'base' : 'this'}: ${r.n} containers, ${r.whole} µs whole, ${r.print} µs printer, ${r.read} µs module read`,
    );
  }
}
const ratio = (a: number[], b: number[]): string => (median(a) / median(b)).toFixed(3);
console.log(
  `ab-listing: this tree / base, CPU a container (lower is faster): whole ${ratio(head.whole, base.whole)}, printer ${ratio(head.print, base.print)}, module read ${ratio(head.read, base.read)}`,
);
