// The measuring half of tools/ab-lift.ts, in plain JavaScript so that it runs under plain `node`:
// under tsx the tree in the checkout is loaded through tsx's hooks and the other tree is not, and
// that alone made identical code measure 10 to 13% apart (an A/A run, 2026-12-05).
//
//   node tools/ab-lift-worker.mjs BASE_ROOT NEW_ROOT ORDER ROUNDS EVERY EXT MIN MAX ONLY FOLDER...
//
// ORDER: `base-first` or `new-first`, which tree is imported first (the one imported second measured
// about 4% faster in A/A runs either way; ab-lift.ts runs both orders and takes their geometric
// mean); or `base-only` / `new-only` (ab-lift.ts --apart): only that tree is loaded and timed, with
// no comparison, so that its collector's work is its own (two trees in one process share one heap,
// and a change that leaves less for the young collector speeds up both). EXT: the ending of the files read (`.dxbc`, or `.dxil` for the DXIL lifter). MIN, MAX: only
// programs of at least MIN and under MAX instructions are compared and timed (0 and Infinity for all). ONLY: `all`, or
// `barriers` for the programs with a group barrier (a function the WGSL passes split into lanes). Prints one JSON
// object: programs compared, those that differ, and each round's rate per CPU-second of each tree.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sortedFiles } from './worker-common.mjs';

const [baseRoot, newRoot, order, roundsArg, everyArg, ext, minArg, maxArg, only, ...folders] = process.argv.slice(2);

async function load(root) {
  const url = (p) => pathToFileURL(resolve(root, 'dist/src', p)).href;
  const container = await import(url('container/container.js'));
  const lift = await import(url('lift/lift.js'));
  const wgsl = await import(url('wgsl/index.js'));
  const ir = await import(url('ir/ir.js'));
  const barrier = (program) => program.module.functions.some((f) => ir.blockHolds(f.body, ir.HOLDS_BARRIER));
  return { parse: container.parseContainer, lift: lift.liftContainer, emit: wgsl.emitWgsl, barrier };
}

let base;
let next;
const alone = order === 'base-only' ? baseRoot : order === 'new-only' ? newRoot : undefined;
if (alone !== undefined) {
  base = await load(alone);
  next = base;
} else if (order === 'new-first') {
  next = await load(newRoot);
  base = await load(baseRoot);
} else {
  base = await load(baseRoot);
  next = await load(newRoot);
}

const files = folders.flatMap((f) => sortedFiles(f, ext));

const inputs = [];
const different = [];
let identical = 0;
let seen = 0;
for (const path of files) {
  const b = readFileSync(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  let a;
  try {
    const program = base.lift(base.parse(bytes));
    const size = program.provenance.instructions;
    if (size < Number(minArg) || size >= Number(maxArg)) continue; // outside the sizes asked for
    if (only === 'barriers' && !base.barrier(program)) continue; // no group barrier
    a = base.emit(program);
  } catch {
    continue; // refused by the base: not timed
  }
  let n = a;
  if (alone === undefined)
    try {
      n = next.emit(next.lift(next.parse(bytes)));
    } catch (e) {
      n = `refused: ${String(e)}`;
    }
  if (a === n) identical++;
  else different.push(path);
  if (seen++ % Number(everyArg) === 0) inputs.push(bytes);
}

// A round times both trees over every input in slices of 32, the two back to back on each slice and
// in turns which goes first, so a change of the machine's speed within a round falls on both alike.
const SLICE = 32;
const cpuNow = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const round = () => {
  if (alone !== undefined) {
    const c0 = cpuNow();
    for (const bytes of inputs) base.emit(base.lift(base.parse(bytes)));
    const rate = inputs.length / ((cpuNow() - c0) / 1e6);
    return [rate, rate];
  }
  let ta = 0;
  let tb = 0;
  for (let k = 0, turn = 0; k < inputs.length; k += SLICE, turn++) {
    const slice = inputs.slice(k, k + SLICE);
    for (const which of turn % 2 === 0 ? [0, 1] : [1, 0]) {
      const t = which === 0 ? base : next;
      const c0 = cpuNow();
      for (const bytes of slice) t.emit(t.lift(t.parse(bytes)));
      const c = cpuNow() - c0;
      if (which === 0) ta += c;
      else tb += c;
    }
  }
  return [inputs.length / (ta / 1e6), inputs.length / (tb / 1e6)];
};
const rates = { base: [], next: [] };
if (different.length === 0 && inputs.length > 0 && Number(roundsArg) > 0) {
  round(); // warm-up
  for (let r = 0; r < Number(roundsArg); r++) {
    const [a, b] = round();
    rates.base.push(a);
    rates.next.push(b);
  }
}
console.log(JSON.stringify({ identical, different, programs: inputs.length, ...rates }));
