// The words a listing cannot show, taken back from the --like container.
//
// fxc writes samplepos and sample_l_s .. sample_c_cl_s (opcodes 0x6e, 0xe4-0xe9) with or without one
// word after their operands: 0 mostly, 0x2000 after one sample_d_cl_s of vkd3d-proton's tests. No
// rule of the program decides which (the same instruction appears with and without it in programs
// of the same compiler), the decoder keeps it as the instruction's value, and D3DDisassemble prints
// nothing for it under any flag word. So a listing alone gives the form without it; with --like the
// word comes from the original program's instruction of the same words. Matching is by content, not
// by place: the k-th instruction of a given encoding in the listing takes the word of the k-th
// instruction of that encoding in the --like program, so an edit elsewhere keeps every one, and an
// edited sample (other operands) gets none, which is the form every other compiler writes.

import type { Program } from '../sm4/types.js';
import { PADDED_OPCODES } from '../sm4/decode.js';

export { PADDED_OPCODES };

const LENGTH_MASK = 0x7f000000;

/** The instruction's words with the length field cleared and the padding word left out, as text. */
function keyOf(words: Uint32Array, at: number, length: number): string {
  let key = String((words[at]! & ~LENGTH_MASK) >>> 0);
  for (let i = 1; i < length; i++) key += ',' + words[at + i]!;
  return key;
}

export interface CarriedPadding {
  /** The token stream with the carried words in place (a copy when any was carried). */
  readonly words: Uint32Array;
  /** How many words were carried. */
  readonly carried: number;
}

/**
 * Puts back into `program` (the assembled stream, decoded) the padding words `like` carries after
 * the same instructions. Returns the stream unchanged when there is none to carry.
 */
export function carryPadding(program: Program, like: Program): CarriedPadding {
  const queues = new Map<string, number[]>();
  for (const ins of like.instructions) {
    if (!PADDED_OPCODES.has(ins.opcode) || ins.customData !== undefined) continue;
    const padded = ins.values.length === 1;
    const key = keyOf(like.words, ins.word, padded ? ins.length - 1 : ins.length);
    let q = queues.get(key);
    if (!q) queues.set(key, (q = []));
    // -1 marks an instruction of this encoding written without the word
    q.push(padded ? ins.values[0]! : -1);
  }
  const inserts = new Map<number, number>();
  for (const ins of program.instructions) {
    if (!PADDED_OPCODES.has(ins.opcode) || ins.customData !== undefined || ins.values.length !== 0) continue;
    const q = queues.get(keyOf(program.words, ins.word, ins.length));
    const word = q?.shift();
    if (word !== undefined && word >= 0) inserts.set(ins.word, word);
  }
  if (inserts.size === 0) return { words: program.words, carried: 0 };
  const src = program.words.subarray(0, program.lengthWords);
  let covered = 2;
  for (const ins of program.instructions) covered += ins.length;
  if (covered !== src.length) return { words: program.words, carried: 0 };
  const out = new Uint32Array(src.length + inserts.size);
  out.set(src.subarray(0, 2));
  let o = 2;
  for (const ins of program.instructions) {
    const extra = inserts.get(ins.word);
    out.set(src.subarray(ins.word, ins.word + ins.length), o);
    if (extra !== undefined) {
      out[o] = ((out[o]! & ~LENGTH_MASK) | ((ins.length + 1) << 24)) >>> 0;
      out[o + ins.length] = extra;
    }
    o += ins.length + (extra !== undefined ? 1 : 0);
  }
  out[1] = out.length;
  return { words: out, carried: inserts.size };
}
