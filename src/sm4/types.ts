// The lossless decoded form of a Shader Model 4/5/5.1 token stream (containers.md, "Shader Model 4
// and 5 token streams"; field names after Microsoft's d3d12TokenizedProgramFormat.hpp). Every raw
// bit a printer needs is kept: the opcode token, extended tokens, operand tokens, index words and
// immediate bit patterns. This file is the decoder's stable API: other layers (reflection header,
// debug annotations, lifter) read these types.

/** The version token: program type (0 ps, 1 vs, 2 gs, 3 hs, 4 ds, 5 cs), major and minor. */
export interface ProgramVersion {
  readonly type: number;
  /** 'ps', 'vs', 'gs', 'hs', 'ds', 'cs'. */
  readonly stage: string;
  readonly major: number;
  readonly minor: number;
}

/** One index of an operand: D3D10_SB_OPERAND_INDEX_REPRESENTATION and its data. */
export interface OperandIndex {
  /** 0 imm32, 1 imm64, 2 relative, 3 imm32 + relative, 4 imm64 + relative. */
  readonly rep: number;
  /** The immediate part (imm32, or the low word of imm64); 0 when there is none. */
  readonly imm: number;
  /** The high word of an imm64 part (0 otherwise). */
  readonly immHi: number;
  /** The register the index is relative to (rep 2, 3, 4). */
  readonly rel?: Operand;
}

/** One operand: the operand token's fields, its extended tokens, its indices and immediates. */
export interface Operand {
  /** The raw operand token. */
  readonly token: number;
  /** D3D10_SB_OPERAND_TYPE (0 r#, 1 v#, 2 o#, 4 immediate32, 7 t#, 8 cb#, ...). */
  readonly type: number;
  /** Bits 0-1: 0 no component, 1 one component, 2 four components, 3 N. */
  readonly numComponents: number;
  /** Bits 2-3 (four-component operands): 0 mask, 1 swizzle, 2 select one. */
  readonly selectionMode: number;
  /** Mask mode: bits 4-7 (bit 0 x .. bit 3 w). */
  readonly mask: number;
  /** Swizzle mode: four 2-bit selectors; select-one mode: the one selector four times. */
  readonly swizzle: readonly [number, number, number, number];
  /** 0 none, 1 negate, 2 absolute value, 3 both (the extended operand token's modifier). */
  readonly modifier: number;
  /** The extended operand token's minimum precision (bits 14-16), 0 when none. */
  readonly minPrecision: number;
  /** The extended operand token's non-uniform bit (17). */
  readonly nonUniform: boolean;
  /** The raw extended operand tokens, in order. */
  readonly extended: readonly number[];
  readonly indices: readonly OperandIndex[];
  /** Immediate operands: the raw 32-bit words (1 or 4 for immediate32, 2 or 4 for immediate64); undefined for registers. */
  readonly values: readonly number[] | undefined;
  /** Word offset of the operand token in the program. */
  readonly word: number;
}

/** An extended opcode token (D3D10_SB_EXTENDED_OPCODE_TYPE) with its decoded fields. */
export interface ExtendedOpcode {
  readonly token: number;
  /** 1 sample controls, 2 resource dimension, 3 resource return type. */
  readonly type: number;
}

/** Customdata block (opcode 0x35): class and payload words (after the two header words). */
export interface CustomData {
  /** 0 comment, 1 debug info, 2 opaque, 3 immediate constant buffer, 4 shader message, 5 clip-plane mappings. */
  readonly dataClass: number;
  readonly words: Uint32Array;
}

export interface Instruction {
  /** Position in the program's instruction list (declarations included). */
  readonly index: number;
  /** Word offset of the opcode token, counted from the version token (word 0). */
  readonly word: number;
  /** Length in words, the opcode token included. */
  readonly length: number;
  /** The raw opcode number (bits 0-10). */
  readonly opcode: number;
  /** The raw opcode token (bits 11-23 are opcode-specific controls: saturate, test, precise mask, sync flags, return types, dimensions). */
  readonly token: number;
  readonly extended: readonly ExtendedOpcode[];
  readonly operands: readonly Operand[];
  /** Words of a declaration or instruction that are not operands, in stream order (counts, names, strides, spaces, return-type tokens, ...). */
  readonly values: readonly number[];
  readonly customData?: CustomData;
}

export interface Program {
  readonly version: ProgramVersion;
  /** The token stream's words (version and length words included). */
  readonly words: Uint32Array;
  /** The length word: the program's size in words. */
  readonly lengthWords: number;
  readonly instructions: readonly Instruction[];
}
