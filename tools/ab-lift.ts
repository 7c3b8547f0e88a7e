// A/B of lift + WGSL between two compiled trees (issue 17): this machine's speed moves by up to two
// times between runs minutes apart, so a before/after figure is only worth its noise when the two
// builds run side by side over the same bytes. Both trees must be built first (`npx tsc -p
// tsconfig.build.json` in each, giving dist/); the base is usually a worktree of the commit before
// the change:
//
//   git worktree add /tmp/base HEAD~1 && (cd /tmp/base && npm install && npx tsc -p tsconfig.build.json)
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/ab-lift.ts /tmp/base [rounds] [every] [--dxil | --twins] [--min-instructions N] [--max-instructions N] [--barriers] [--apart]
//
// It runs tools/ab-lift-worker.mjs twice under plain node, once importing the base first and once the
// new tree first: in one process the tree imported second measured about 4% faster in A/A runs (the
// same build twice), and under tsx the checkout's tree (loaded through tsx's hooks) 10 to 13% faster,
// so earlier figures of this tool, made in one tsx process, carry that bias. Each worker checks that
// every corpus program (../shared/corpus/dxbc and dxbc-sm51; with --dxil the DXIL lifter's: the .dxil
// files of ../shared/corpus/dxil and corpus/pairs; with --twins those of corpus/pairs only, the DXIL
// twins that the bench compares with vkd3d-shader) gives byte-identical WGSL under both
// trees (where any differs it lists them and exits 1 without timing), then times `rounds` rounds
// (default 6) over every `every`-th program that lifts (default 3; with --min-instructions N, of those
// programs only the ones of at least N instructions, and with --max-instructions N only those of
// fewer than N; with --barriers, only those with a group barrier,
// whose functions the WGSL passes split into lanes), the two trees interleaved in
// slices of 32 within a round. Printed: each order's rates and its median ratio of the rounds
// (new / base), and their geometric mean, in which an order bias cancels.
//
// --apart: after the same check, each tree is timed in processes of its own, four of each, started
// in turns (base, new, base, ...): `rounds` rounds after a warm-up in each, its best round kept.
// Printed: each pair's ratio (new / base) and their median. Two trees in one process share one heap,
// so a change that leaves the young collector less to copy speeds both up alike and the interleaved
// figure misses it; apart, each pays for its own collections, at the price of more noise.

import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedPath } from '../test/helpers/shared.js';
import { positiveArg, takeOption } from './corpus-args.js';
import { median } from './stats.js';

interface Result {
  readonly identical: number;
  readonly different: readonly string[];
  readonly programs: number;
  readonly base: readonly number[];
  readonly next: readonly number[];
}

const { value: minArg = '0', rest: afterMin } = takeOption(process.argv.slice(2), '--min-instructions');
const { value: maxArg = 'Infinity', rest: argv } = takeOption(afterMin, '--max-instructions');
const twins = argv.includes('--twins');
const dxil = twins || argv.includes('--dxil');
const barriers = argv.includes('--barriers');
const apart = argv.includes('--apart');
const flags = new Set(['--dxil', '--twins', '--barriers', '--apart']);
const [baseRoot, roundsArg, everyArg] = argv.filter((a) => !flags.has(a));
if (baseRoot === undefined || !/^\d+$/.test(minArg) || !/^(\d+|Infinity)$/.test(maxArg)) {
  console.error(
    'usage: node --import tsx tools/ab-lift.ts BASE_TREE [rounds] [every] [--dxil | --twins] [--min-instructions N] [--max-instructions N] [--barriers] [--apart]',
  );
  process.exit(2);
}
const rounds = positiveArg('ab-lift', 'rounds', roundsArg, 6);
const every = positiveArg('ab-lift', 'every', everyArg, 3);
const folders = (
  twins ? ['corpus/pairs'] : dxil ? ['corpus/dxil', 'corpus/pairs'] : ['corpus/dxbc', 'corpus/dxbc-sm51']
).flatMap((f) => sharedPath(f) ?? []);
if (folders.length === 0) {
  console.error('ab-lift: ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)');
  process.exit(2);
}
const worker = join(dirname(fileURLToPath(import.meta.url)), 'ab-lift-worker.mjs');
const here = resolve('.');

const list = (x: readonly number[]): string => x.map((v) => v.toFixed(0)).join(' ');
const ratios: number[] = [];
/** One worker process: `order` as ab-lift-worker.mjs reads it, `n` rounds. */
const run = (order: string, n: number): Result => {
  const r = spawnSync(
    process.execPath,
    [
      worker,
      resolve(baseRoot),
      here,
      order,
      String(n),
      String(every),
      dxil ? '.dxil' : '.dxbc',
      minArg!,
      maxArg!,
      barriers ? 'barriers' : 'all',
      ...folders,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (r.status !== 0) {
    console.error(`ab-lift: the worker failed (exit ${r.status})`);
    process.exit(3);
  }
  return JSON.parse(r.stdout) as Result;
};
for (const order of ['base-first', 'new-first']) {
  const res = run(order, apart ? 0 : rounds);
  if (order === 'base-first') {
    console.log(`ab-lift: ${res.identical} programs give identical WGSL, ${res.different.length} differ`);
    for (const p of res.different.slice(0, 20)) console.log(`  differs: ${p}`);
    // Timing builds whose outputs differ compares different work (and the new one may refuse some).
    if (res.different.length > 0) process.exit(1);
    if (res.programs === 0) {
      console.error('ab-lift: the base lifts none of the corpus programs: nothing to time');
      process.exit(2);
    }
    if (apart) break;
    console.log(
      `ab-lift: ${res.programs} programs a round, lift + WGSL per CPU-second, the trees interleaved by slices of 32`,
    );
  }
  const byRound = res.base.map((x, k) => (res.next[k] as number) / x);
  const m = median(byRound);
  ratios.push(m);
  console.log(`  ${order}: base ${list(res.base)}; new ${list(res.next)}`);
  console.log(`  ${order}: new / base by round ${byRound.map((x) => x.toFixed(3)).join(' ')}: median ${m.toFixed(3)}`);
}
if (apart) {
  const best = (x: readonly number[]): number => Math.max(...x);
  const pairs: number[] = [];
  for (let k = 0; k < 4; k++) {
    const b = best(run('base-only', rounds).base);
    const n = best(run('new-only', rounds).base);
    pairs.push(n / b);
    console.log(`  pair ${k + 1}: base ${b.toFixed(0)}, new ${n.toFixed(0)} per CPU-second: ${(n / b).toFixed(3)}`);
  }
  const sorted = [...pairs].sort((p, q) => p - q);
  console.log(
    `ab-lift --apart: new / base ${((sorted[1]! + sorted[2]!) / 2).toFixed(3)} (the median of four pairs of processes)`,
  );
} else
  console.log(
    `ab-lift: new / base ${Math.sqrt((ratios[0] as number) * (ratios[1] as number)).toFixed(3)} ` +
      "(the geometric mean of the two orders' medians)",
  );
