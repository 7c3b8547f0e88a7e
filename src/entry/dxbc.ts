// iridia/dxbc: Shader Model 4/5/5.1: the token-stream decoder and the D3DDisassemble listing (disassembleAny takes every kind).
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export {
  disassemble,
  DISASM_ENABLE_INSTRUCTION_NUMBERING,
  DISASM_DISABLE_DEBUG_INFO,
  DISASM_ENABLE_INSTRUCTION_OFFSET,
  DISASM_INSTRUCTION_ONLY,
  DISASM_PRINT_HEX_LITERALS,
  type DisassembleOptions,
} from '../disasm/disassemble.js';
export { disassembleAny } from '../disasm/any.js';
export { listingHeader, headerOf } from '../disasm/header.js';
export {
  decodeProgram,
  decodeContainerProgram,
  programPart,
  opcodeCensus,
  addToCensus,
  sm4OpcodeSection,
  OPCODES as SM4_OPCODES,
  type Program as Sm4Program,
  type ProgramVersion as Sm4ProgramVersion,
  type Instruction as Sm4Instruction,
  type Operand as Sm4Operand,
  type OperandIndex as Sm4OperandIndex,
  type ExtendedOpcode as Sm4ExtendedOpcode,
  type CustomData as Sm4CustomData,
  type OpcodeInfo as Sm4OpcodeInfo,
  type OpcodeCensus as Sm4OpcodeCensus,
} from '../sm4/index.js';
export { programListing, listingHooks } from '../disasm/disassemble.js';
export type { ListingAnnotations, AnnotationProvider } from '../disasm/annotations.js';
export { ERAS, eraOfCreator, type Era, type EraName } from '../disasm/era.js';
export { isBareEffect, bareEffectListing } from '../disasm/effect.js';
export { libraryListing, isLibrary } from '../disasm/library.js';
export {
  assemble,
  assembleProgram,
  checkProgram,
  AsmError,
  type AssembleOptions,
  type AssembleResult,
  type AssembledProgram,
} from '../asm/index.js';
