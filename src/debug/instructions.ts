// What debug annotations need of a program's instructions, and which of them are declarations (no
// remarks follow them; the first instruction that is not one gets the initial locations). Follows
// the SM4/5 opcode table (src/sm4/opcodes.ts): dcl_* rows, the hull-shader phase starts and
// customdata (the immediate constant buffer) are declarations here; a shader message (printf, errorf) is not.

import { OPCODES, OPCODE_CUSTOMDATA } from '../sm4/opcodes.js';

/** One instruction of the token stream (declarations included), in stream order. */
export interface AnnotatedInstruction {
  /** Byte offset of the opcode token from the version token. */
  readonly offset: number;
  /** Byte offset of the next instruction (or the program's end). */
  readonly next: number;
  readonly opcode: number;
  /** customdata's data class (4: a shader message, printf/errorf, an instruction), when it is customdata. */
  readonly dataClass?: number;
}

/** hs_decls, hs_control_point_phase, hs_fork_phase, hs_join_phase. */
export const PHASE_OPCODES: ReadonlySet<number> = new Set([0x71, 0x72, 0x73, 0x74]);

/** A shader message (printf/errorf) is an instruction: the initial locations come before it. */
const CUSTOMDATA_SHADER_MESSAGE = 4;

export function isDeclaration(opcode: number, dataClass?: number): boolean {
  if (opcode === OPCODE_CUSTOMDATA) return dataClass !== CUSTOMDATA_SHADER_MESSAGE;
  return OPCODES[opcode]?.decl === true || PHASE_OPCODES.has(opcode);
}
