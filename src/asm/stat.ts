// STAT after an edit: the words that are plain counts of the token stream are recomputed from the
// new instructions, the others (the instruction-slot estimate, fxc's per-class counts) are kept
// from the container given with --like, and the result says which were kept. A word is recomputed
// only when its rule gives back the word fxc wrote for every program of ../shared (test/asm/stat.test.ts
// checks each rule over them).

import type { Program } from '../sm4/types.js';
import { STAT_WORDS, type StatWord } from '../parts/stat.js';

/** Counts of instructions by opcode. */
const counting =
  (...opcodes: number[]) =>
  (p: Program): number => {
    let n = 0;
    for (const ins of p.instructions) if (ins.customData === undefined && opcodes.includes(ins.opcode)) n++;
    return n;
  };

/** The control bits 11.. of the first declaration with this opcode (0 when none). */
const declared =
  (opcode: number, width: number) =>
  (p: Program): number => {
    const ins = p.instructions.find((i) => i.customData === undefined && i.opcode === opcode);
    return ins === undefined ? 0 : (ins.token >>> 11) & ((1 << width) - 1);
  };

/** The first word after the opcode token of the first declaration with this opcode (0 when none). */
const declaredWord =
  (opcode: number) =>
  (p: Program): number => {
    const ins = p.instructions.find((i) => i.customData === undefined && i.opcode === opcode);
    return ins?.values[0] ?? 0;
  };

/** Rules of the STAT words that are counts of the token stream. */
export const STAT_RULES: Partial<Record<StatWord, (p: Program) => number>> = {
  TempRegisterCount: (p) => {
    // the largest dcl_temps (a hull shader declares one per phase)
    let n = 0;
    for (const ins of p.instructions)
      if (ins.customData === undefined && ins.opcode === 0x68) n = Math.max(n, ins.values[0] ?? 0);
    return n;
  },
  CutInstructionCount: counting(0x09, 0x14, 0x76, 0x77),
  EmitInstructionCount: counting(0x13, 0x14, 0x75, 0x77),
  GSOutputTopology: declared(0x5c, 7),
  GSMaxOutputVertexCount: declaredWord(0x5e),
  cGSInstanceCount: declaredWord(0xce),
  HSOutputPrimitive: declared(0x97, 3),
  HSPartitioning: declared(0x96, 3),
  TessellatorDomain: declared(0x95, 2),
  cBarrierInstructions: counting(0xbe),
  cInterlockedInstructions: counting(...Array.from({ length: 0xbd - 0xa9 + 1 }, (_, i) => 0xa9 + i)),
};

export interface StatUpdate {
  readonly data: Uint8Array;
  /** Words that changed (recomputed), by name. */
  readonly changed: readonly string[];
}

/** STAT with its count words recomputed from `program`; every other word as it was. */
export function updateStat(stat: Uint8Array, program: Program): StatUpdate {
  const out = stat.slice();
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const changed: string[] = [];
  const n = Math.min(out.byteLength >>> 2, STAT_WORDS.length);
  for (let i = 0; i < n; i++) {
    const name = STAT_WORDS[i]!;
    const rule = STAT_RULES[name];
    if (rule === undefined) continue;
    const w = rule(program) >>> 0;
    if (v.getUint32(i * 4, true) !== w) {
      v.setUint32(i * 4, w, true);
      changed.push(name);
    }
  }
  return { data: out, changed };
}
