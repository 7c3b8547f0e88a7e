// The Direct3D 9 (Shader Model 1 to 3) opcode table: one row per raw opcode (D3DSHADER_INSTRUCTION_OPCODE_TYPE,
// d3d9types.h) with Microsoft's mnemonic, the operand shape and what the instruction does to the listing's
// indentation. Facts from Microsoft's d3d9types.h and the Direct3D 9 assembly reference; the mnemonics are
// D3DDisassemble's spellings. Instruction slot costs live in slots.ts.

/** How an instruction's operands are laid out after the instruction token. */
export type OperandShape =
  /** Destination (when `dst`), then `src` sources. */
  | 'regular'
  /** dcl: a usage/sampler-type token, then the destination. */
  | 'dcl'
  /** def: destination, then four float bit patterns. */
  | 'def'
  /** defi: destination, then four signed integers. */
  | 'defi'
  /** defb: destination, then one boolean word. */
  | 'defb';

export interface OpcodeInfo {
  readonly name: string;
  readonly shape: OperandShape;
  /** Has a destination parameter. */
  readonly dst: boolean;
  /** Source count in Shader Model 1 streams (where there is no length field). */
  readonly src: number;
  /** Indentation: +1 opens a block (if, loop, rep), -1 closes one, 'else' does both around itself. */
  readonly block?: 'open' | 'close' | 'else';
  /** The instruction's control bits 16-23 are a comparison (ifc, breakc, setp). */
  readonly comparison?: boolean;
}

const r = (name: string, dst: boolean, src: number, extra: Partial<OpcodeInfo> = {}): OpcodeInfo => ({
  name,
  shape: 'regular',
  dst,
  src,
  ...extra,
});

/** Raw opcode (bits 0-15 of the instruction token) → its row. */
export const OPCODES: ReadonlyMap<number, OpcodeInfo> = new Map<number, OpcodeInfo>([
  [0, r('nop', false, 0)],
  [1, r('mov', true, 1)],
  [2, r('add', true, 2)],
  [3, r('sub', true, 2)],
  [4, r('mad', true, 3)],
  [5, r('mul', true, 2)],
  [6, r('rcp', true, 1)],
  [7, r('rsq', true, 1)],
  [8, r('dp3', true, 2)],
  [9, r('dp4', true, 2)],
  [10, r('min', true, 2)],
  [11, r('max', true, 2)],
  [12, r('slt', true, 2)],
  [13, r('sge', true, 2)],
  [14, r('exp', true, 1)],
  [15, r('log', true, 1)],
  [16, r('lit', true, 1)],
  [17, r('dst', true, 2)],
  [18, r('lrp', true, 3)],
  [19, r('frc', true, 1)],
  [20, r('m4x4', true, 2)],
  [21, r('m4x3', true, 2)],
  [22, r('m3x4', true, 2)],
  [23, r('m3x3', true, 2)],
  [24, r('m3x2', true, 2)],
  [25, r('call', false, 1)],
  [26, r('callnz', false, 2)],
  [27, r('loop', false, 2, { block: 'open' })],
  [28, r('ret', false, 0)],
  [29, r('endloop', false, 0, { block: 'close' })],
  [30, r('label', false, 1)],
  [31, { name: 'dcl', shape: 'dcl', dst: true, src: 0 }],
  [32, r('pow', true, 2)],
  [33, r('crs', true, 2)],
  [34, r('sgn', true, 3)],
  [35, r('abs', true, 1)],
  [36, r('nrm', true, 1)],
  [37, r('sincos', true, 3)],
  [38, r('rep', false, 1, { block: 'open' })],
  [39, r('endrep', false, 0, { block: 'close' })],
  [40, r('if', false, 1, { block: 'open' })],
  [41, r('if', false, 2, { block: 'open', comparison: true })],
  [42, r('else', false, 0, { block: 'else' })],
  [43, r('endif', false, 0, { block: 'close' })],
  [44, r('break', false, 0)],
  [45, r('break', false, 2, { comparison: true })],
  [46, r('mova', true, 1)],
  [47, { name: 'defb', shape: 'defb', dst: true, src: 0 }],
  [48, { name: 'defi', shape: 'defi', dst: true, src: 0 }],
  [64, r('texcoord', true, 0)],
  [65, r('texkill', true, 0)],
  [66, r('tex', true, 0)],
  [67, r('texbem', true, 1)],
  [68, r('texbeml', true, 1)],
  [69, r('texreg2ar', true, 1)],
  [70, r('texreg2gb', true, 1)],
  [71, r('texm3x2pad', true, 1)],
  [72, r('texm3x2tex', true, 1)],
  [73, r('texm3x3pad', true, 1)],
  [74, r('texm3x3tex', true, 1)],
  [75, r('texm3x3diff', true, 1)],
  [76, r('texm3x3spec', true, 2)],
  [77, r('texm3x3vspec', true, 1)],
  [78, r('expp', true, 1)],
  [79, r('logp', true, 1)],
  [80, r('cnd', true, 3)],
  [81, { name: 'def', shape: 'def', dst: true, src: 0 }],
  [82, r('texreg2rgb', true, 1)],
  [83, r('texdp3tex', true, 1)],
  [84, r('texm3x2depth', true, 1)],
  [85, r('texdp3', true, 1)],
  [86, r('texm3x3', true, 1)],
  [87, r('texdepth', true, 0)],
  [88, r('cmp', true, 3)],
  [89, r('bem', true, 2)],
  [90, r('dp2add', true, 3)],
  [91, r('dsx', true, 1)],
  [92, r('dsy', true, 1)],
  [93, r('texldd', true, 4)],
  [94, r('setp', true, 2, { comparison: true })],
  [95, r('texldl', true, 2)],
  [96, r('breakp', false, 1)],
  [0xfffd, r('phase', false, 0)],
]);

export const OPCODE_COMMENT = 0xfffe;
export const OPCODE_END = 0xffff;
export const OPCODE_DCL = 31;
export const OPCODE_TEXCOORD = 64;
export const OPCODE_TEX = 66;
export const OPCODE_SINCOS = 37;

/** Comparison codes (D3DSHADER_COMPARISON, bits 16-18 of ifc, breakc and setp). */
export const COMPARISONS: readonly (string | undefined)[] = [undefined, 'gt', 'eq', 'ge', 'lt', 'ne', 'le'];

/** dcl usages (D3DDECLUSAGE), as dcl_<usage> spells them. */
export const USAGES: readonly string[] = [
  'position',
  'blendweight',
  'blendindices',
  'normal',
  'psize',
  'texcoord',
  'tangent',
  'binormal',
  'tessfactor',
  'positiont',
  'color',
  'fog',
  'depth',
  'sample',
];

/** Sampler texture types (D3DSAMPLER_TEXTURE_TYPE, bits 27-30 of a sampler's dcl token). */
export const SAMPLER_TYPES: readonly (string | undefined)[] = [undefined, undefined, '2d', 'cube', 'volume'];

/** Source modifiers (bits 24-27 of a source parameter): text before and after the register. */
export const SOURCE_MODIFIERS: readonly (readonly [string, string] | undefined)[] = [
  ['', ''], // none
  ['-', ''], // negate
  ['', '_bias'],
  ['-', '_bias'],
  ['', '_bx2'], // sign
  ['-', '_bx2'],
  ['1 - ', ''], // complement
  ['', '_x2'],
  ['-', '_x2'],
  ['', '_dz'],
  ['', '_dw'],
  ['', '_abs'],
  ['-', '_abs'],
  ['!', ''], // not (predicates and booleans)
];

/** Result shift scale (bits 24-27 of a destination, a signed 4-bit count): the mnemonic suffix. */
export const SHIFTS: ReadonlyMap<number, string> = new Map([
  [1, '_x2'],
  [2, '_x4'],
  [3, '_x8'],
  [15, '_d2'],
  [14, '_d4'],
  [13, '_d8'],
]);
