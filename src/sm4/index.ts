// The Shader Model 4/5/5.1 token-stream decoder's public API (stable; other layers import it):
// decodeProgram (SHDR/SHEX payload -> Program), decodeContainerProgram (a Container's SHEX or SHDR
// part), the opcode table, and the per-opcode census.

export type {
  Program,
  ProgramVersion,
  Instruction,
  Operand,
  OperandIndex,
  ExtendedOpcode,
  CustomData,
} from './types.js';
export { decodeProgram } from './decode.js';
export { OPCODES, SLOT_REGISTER_TYPES, OPCODE_CUSTOMDATA, type OpcodeInfo } from './opcodes.js';
export {
  decodeContainerProgram,
  programPart,
  opcodeCensus,
  addToCensus,
  sm4OpcodeSection,
  type OpcodeCensus,
} from './census.js';
