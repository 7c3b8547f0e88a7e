// Typed errors for bad input. Every refusal names a stable code, the byte offset and the part
// (and, for token streams, the instruction), so a user and the corpus census can tell what broke.
// Codes are numbered in blocks per layer: container 1xx, parts 2xx, SM4/5 token stream 3xx,
// DXIL bitcode 4xx, Direct3D 9 and debug information 5xx, lifter 6xx, executor 7xx, engine
// structures beside the containers (src/engines) 8xx, the assembler (src/asm) 9xx.

export type ErrorCode =
  // binary / container
  | 'E101_TRUNCATED'
  | 'E102_BAD_MAGIC'
  | 'E103_SIZE_MISMATCH'
  | 'E104_PART_COUNT'
  | 'E105_PART_OFFSET'
  | 'E106_PART_SIZE'
  | 'E107_PART_OVERLAP'
  | 'E108_PART_MISSING'
  | 'E109_BAD_ARGUMENT'
  // part readers
  | 'E201_PART_TRUNCATED'
  | 'E202_PART_BAD_OFFSET'
  | 'E203_PART_BAD_COUNT'
  | 'E204_PART_BAD_STRING'
  | 'E205_PART_LOOP'
  | 'E206_PART_TOO_DEEP'
  | 'E207_PART_BAD_VALUE'
  | 'E208_PART_UNSUPPORTED'
  // SM4/5 token stream
  | 'E301_TOKENS_TRUNCATED'
  | 'E302_INSTRUCTION_LENGTH'
  | 'E303_UNKNOWN_OPCODE'
  | 'E304_OPERAND_COUNT'
  | 'E305_OPERAND_TYPE'
  | 'E306_INDEX_REPRESENTATION'
  | 'E307_CUSTOMDATA'
  | 'E308_OPERAND_SLOT'
  | 'E309_BAD_VERSION'
  | 'E310_BAD_DECLARATION'
  // DXIL bitcode
  | 'E401_BITCODE_TRUNCATED'
  | 'E402_BITCODE_ABBREV'
  | 'E403_BITCODE_VBR'
  | 'E404_BITCODE_RECORD'
  | 'E405_BITCODE_FORWARD_REF'
  | 'E406_BITCODE_NESTING'
  | 'E407_BITCODE_MAGIC'
  | 'E408_BITCODE_UNSUPPORTED'
  // Direct3D 9 and debug information
  | 'E501_D3D9_TRUNCATED'
  | 'E502_D3D9_OPCODE'
  | 'E503_MSF_BAD'
  | 'E504_DEBUG_BAD'
  // Direct3D 9 programs (src/d3d9): E510-E519
  | 'E510_D3D9_VERSION'
  | 'E511_D3D9_LENGTH'
  | 'E512_D3D9_COMMENT'
  | 'E513_D3D9_OPERAND'
  | 'E514_D3D9_CTAB'
  | 'E515_D3D9_DBUG'
  | 'E516_D3D9_AON9'
  // lifter / executor
  | 'E601_LIFT_UNSUPPORTED'
  | 'E602_LIFT_INVALID'
  // decompiler (src/decompile): a program the passes or printers cannot yet make readable
  | 'E603_DECOMPILE_UNSUPPORTED'
  | 'E701_EXEC_ERROR'
  | 'E702_EXEC_BUDGET'
  // engine structures (src/engines/skate): E801-E809
  | 'E801_SKATE_TRUNCATED'
  | 'E802_SKATE_BAD_OFFSET'
  | 'E803_SKATE_BAD_COUNT'
  | 'E804_SKATE_BAD_VALUE'
  // assembler (src/asm): a listing line it cannot put back into tokens, E901-E909
  | 'E901_ASM_SYNTAX'
  | 'E902_ASM_MNEMONIC'
  | 'E903_ASM_REGISTER'
  | 'E904_ASM_OPERAND_COUNT'
  | 'E905_ASM_MASK'
  | 'E906_ASM_LITERAL'
  | 'E907_ASM_PROGRAM';

export interface ErrorLocation {
  /** Byte offset in the container (or the blob being read) where the problem was found. */
  readonly offset?: number;
  /** The part kind (FourCC) being read, when the problem is inside a part. */
  readonly part?: string;
  /** Index of the instruction in the token stream, when the problem is in an instruction. */
  readonly instruction?: number;
  /** Word offset of that instruction in the token stream. */
  readonly word?: number;
}

/** An input could not be read: a typed error naming where and why. Never a bug in iridia. */
export class IridiaError extends Error {
  override readonly name = 'IridiaError';
  readonly code: ErrorCode;
  readonly offset: number | undefined;
  readonly part: string | undefined;
  readonly instruction: number | undefined;
  readonly word: number | undefined;
  /** The reason without the location prefix. */
  readonly reason: string;

  constructor(code: ErrorCode, reason: string, where: ErrorLocation = {}) {
    super(`${formatLocation(where)}${reason}`);
    this.code = code;
    this.reason = reason;
    this.offset = where.offset;
    this.part = where.part;
    this.instruction = where.instruction;
    this.word = where.word;
  }
}

/** Something valid that iridia does not handle yet (kept apart from invalid input). */
export class UnsupportedError extends IridiaError {}

function formatLocation(where: ErrorLocation): string {
  const bits: string[] = [];
  if (where.part !== undefined) bits.push(`part ${where.part}`);
  if (where.instruction !== undefined) bits.push(`instruction ${where.instruction}`);
  if (where.word !== undefined) bits.push(`word ${where.word}`);
  if (where.offset !== undefined) bits.push(`offset ${hex(where.offset)}`);
  return bits.length ? `${bits.join(', ')}: ` : '';
}

export function hex(n: number): string {
  return `0x${n.toString(16)}`;
}

export function isIridiaError(e: unknown): e is IridiaError {
  return e instanceof IridiaError;
}
