// Refusals of the SM4/5 lifter (lifter-dxbc.md, "Guarantees"): a program iridia does not carry is
// an UnsupportedError (E601) naming the reason (a stable key the corpus census counts by), the
// instruction's index, word offset and raw opcode token; a program that is malformed in a way the
// decoder cannot see (a register used but never declared) is an IridiaError E602.

import { IridiaError, UnsupportedError, hex, type ErrorLocation } from '../errors.js';
import type { Instruction } from '../sm4/types.js';
import { OPCODES } from '../sm4/opcodes.js';

/** Stable reasons, one per kind of refusal (the census counts these). */
export type RefusalReason =
  | 'double precision'
  | 'mono sampler'
  | 'append/consume counter'
  | 'geometry stream other than 0'
  | 'partial-mask store through a view'
  | 'opcode not handled'
  | 'subroutines'
  | 'interfaces'
  | 'switch fall-through'
  | 'register type not handled'
  | 'resource kind not handled'
  | 'texture atomics'
  | 'computed texel offset'
  | 'system value not handled'
  | 'no program'
  // DXIL (dxil/): what its lifter does not carry yet, by kind.
  | '64-bit integers'
  | 'dx.op not handled'
  | 'instruction not handled'
  | 'irreducible control flow'
  | 'function calls'
  | 'wave operations'
  | 'raytracing'
  | 'mesh and amplification'
  | 'shader library'
  | 'work graphs'
  | 'vector types'
  | 'handle not resolvable'
  | 'stage not handled';

export class LiftRefusal extends UnsupportedError {
  readonly category: RefusalReason;
  constructor(category: RefusalReason, detail: string, ins?: Instruction, part?: string, where?: ErrorLocation) {
    const what = ins ? describeInstruction(ins) : '';
    super('E601_LIFT_UNSUPPORTED', `${category}: ${detail}${what}`, {
      ...(part !== undefined ? { part } : {}),
      ...(ins ? { instruction: ins.index, word: ins.word } : {}),
      ...where,
    });
    this.category = category;
  }
}

export function describeInstruction(ins: Instruction): string {
  const name = OPCODES[ins.opcode]?.name ?? `opcode ${ins.opcode}`;
  return ` (${name}, instruction word ${hex(ins.token >>> 0)})`;
}

export function refuse(category: RefusalReason, detail: string, ins?: Instruction, part?: string): never {
  throw new LiftRefusal(category, detail, ins, part);
}

export function invalid(detail: string, ins?: Instruction, part?: string): never {
  throw new IridiaError('E602_LIFT_INVALID', `${detail}${ins ? describeInstruction(ins) : ''}`, {
    ...(part !== undefined ? { part } : {}),
    ...(ins ? { instruction: ins.index, word: ins.word } : {}),
  });
}
