// Equivalence of a decompiled program: the lifted module and the readable module run on the
// executor with the same seeded inputs (src/exec/seed.ts, as `iridia run --seed`), through the
// twins harness's runner, and every output word must be identical (NaN payloads included: the
// readable IR computes the same operations, so even the NaN a lane holds is the same).

import type { Program } from '../../src/ir/program.js';
import { HarnessLimit, runOnExecutor, type Outputs } from '../lift/twins-harness.js';
import { vertexEntry } from '../../src/decompile/stages.js';

export const SEEDS = [1, 7];

export type Verdict =
  { kind: 'same'; words: number } | { kind: 'limit'; why: string } | { kind: 'differs'; first: string };

function compare(a: Outputs, b: Outputs): { words: number; first: string } {
  let words = 0;
  for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const x = a[name];
    const y = b[name];
    if (!x || !y || x.length !== y.length) return { words, first: `${name}: shapes differ` };
    for (let i = 0; i < x.length; i++) {
      words++;
      if (x[i] !== y[i])
        return { words, first: `${name}[${i}]: lifted 0x${x[i]!.toString(16)}, readable 0x${y[i]!.toString(16)}` };
    }
  }
  return { words, first: '' };
}

/** Runs both modules on every seed; a run the harness cannot make is a limit (named), not a pass. A
 * vertex program lifted as a stage function runs as the vertex entry point it is (vertexEntry: its
 * arguments and results bound as the interface's varyings). */
export function equivalence(liftedProgram: Program, readableProgram: Program, seeds = SEEDS): Verdict {
  const lifted = vertexEntry(liftedProgram);
  const readable = vertexEntry(readableProgram);
  let words = 0;
  for (const seed of seeds) {
    let a: Outputs;
    try {
      a = runOnExecutor(lifted, seed).outputs;
    } catch (e) {
      if (e instanceof HarnessLimit) return { kind: 'limit', why: e.message };
      return { kind: 'limit', why: `the lifted program does not run: ${(e as Error).message}` };
    }
    const b = runOnExecutor(readable, seed).outputs;
    const c = compare(a, b);
    if (c.first) return { kind: 'differs', first: `seed ${seed}: ${c.first}` };
    words += c.words;
  }
  return { kind: 'same', words };
}
