// A/B of lift + WGSL between two compiled trees in one process (issue 17): this machine's speed moves
// by up to two times between runs minutes apart, so a before/after figure is only worth its noise
// when the two builds run side by side, pass for pass, over the same bytes. Both trees must be built
// first (`npx tsc -p tsconfig.build.json` in each, giving dist/); the base is usually a worktree of
// the commit before the change:
//
//   git worktree add /tmp/base HEAD~1 && (cd /tmp/base && npm install && npx tsc -p tsconfig.build.json)
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/ab-lift.ts /tmp/base [rounds] [every]
//
// It prints how many corpus programs (../shared/corpus/dxbc and dxbc-sm51) give byte-identical WGSL
// under both trees (a speed change must leave them all identical), then the lift + WGSL rate per
// CPU-second of each tree for `rounds` alternating passes (default 6) over every `every`-th program
// that lifts (default 3), their medians and the ratio new / base. Where any program differs it lists
// them and exits 1 without timing.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedPath, walk } from '../test/helpers/shared.js';

interface Tree {
  readonly parse: (bytes: Uint8Array) => unknown;
  readonly lift: (c: unknown) => unknown;
  readonly emit: (p: unknown) => string;
}

async function load(root: string): Promise<Tree> {
  const url = (p: string): string => pathToFileURL(resolve(root, 'dist/src', p)).href;
  const container = (await import(url('container/container.js'))) as { parseContainer: Tree['parse'] };
  const lift = (await import(url('lift/lift.js'))) as { liftContainer: Tree['lift'] };
  const wgsl = (await import(url('wgsl/index.js'))) as { emitWgsl: Tree['emit'] };
  return { parse: container.parseContainer, lift: lift.liftContainer, emit: wgsl.emitWgsl };
}

const [baseRoot, roundsArg, everyArg] = process.argv.slice(2);
if (baseRoot === undefined) {
  console.error('usage: node --import tsx tools/ab-lift.ts BASE_TREE [rounds] [every]');
  process.exit(2);
}
const count = (arg: string | undefined, fallback: number, what: string): number => {
  const n = arg === undefined ? fallback : Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`ab-lift: ${what} must be a positive integer, not ${arg}`);
    process.exit(2);
  }
  return n;
};
const rounds = count(roundsArg, 6, 'rounds');
const every = count(everyArg, 3, 'every');
const base = await load(baseRoot);
const next = await load('.');
const inputs: Uint8Array[] = [];
let identical = 0;
const different: string[] = [];
let seen = 0;
const folders = ['corpus/dxbc', 'corpus/dxbc-sm51'].map((f) => sharedPath(f));
if (folders.every((d) => d === undefined)) {
  console.error('ab-lift: ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)');
  process.exit(2);
}
for (const dir of folders) {
  if (dir === undefined) continue;
  for (const path of walk(dir)) {
    if (!path.endsWith('.dxbc')) continue;
    const b = readFileSync(path);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    let a: string;
    try {
      a = base.emit(base.lift(base.parse(bytes)));
    } catch {
      continue; // refused by the base: not timed
    }
    let n: string;
    try {
      n = next.emit(next.lift(next.parse(bytes)));
    } catch (e) {
      n = `refused: ${String(e)}`;
    }
    if (a === n) identical++;
    else different.push(path);
    if (seen++ % every === 0) inputs.push(bytes);
  }
}
console.log(`ab-lift: ${identical} programs give identical WGSL, ${different.length} differ`);
for (const p of different.slice(0, 20)) console.log(`  differs: ${p}`);
// Timing builds whose outputs differ compares different work (and the new one may refuse some).
if (different.length > 0) process.exit(1);
if (inputs.length === 0) {
  console.error('ab-lift: the base lifts none of the corpus programs: nothing to time');
  process.exit(2);
}

const pass = (t: Tree): number => {
  const c0 = process.cpuUsage();
  for (const bytes of inputs) t.emit(t.lift(t.parse(bytes)));
  const c = process.cpuUsage(c0);
  return inputs.length / ((c.user + c.system) / 1e6);
};
pass(base);
pass(next);
const a: number[] = [];
const b: number[] = [];
for (let r = 0; r < rounds; r++) {
  a.push(pass(base));
  b.push(pass(next));
}
const median = (x: readonly number[]): number => [...x].sort((p, q) => p - q)[x.length >> 1]!;
const list = (x: readonly number[]): string => x.map((v) => v.toFixed(0)).join(' ');
console.log(`ab-lift: ${inputs.length} programs a pass, lift + WGSL per CPU-second, alternating passes`);
console.log(`  base ${list(a)}: median ${median(a).toFixed(0)}`);
console.log(`  new  ${list(b)}: median ${median(b).toFixed(0)}; new / base ${(median(b) / median(a)).toFixed(3)}`);
