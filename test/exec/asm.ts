// A small Shader Model 4/5 token assembler for the executor's analytic tests: programs are written
// as instructions here, wrapped in a container (with ISGN/OSGN when the program has varyings) and
// lifted like any other. Token layouts are the D3D10/11 shader bytecode's (d3d11TokenizedProgramFormat):
// opcode token bits 0-10 opcode, 13 saturate, 24-30 length; operand token bits 0-1 component count,
// 2-3 selection mode, 4-11 mask/swizzle/select, 12-19 type, 20-21 index dimension, 22-30 index
// representations, 31 extended (modifier token: bits 6 neg, 7 abs).

import { serializeContainer } from '../../src/container/container.js';

export const OP = {
  add: 0,
  and: 1,
  break: 2,
  breakc: 3,
  call: 4,
  case: 6,
  continue: 7,
  continuec: 8,
  default: 10,
  deriv_rtx: 11,
  deriv_rty: 12,
  discard: 13,
  div: 14,
  dp2: 15,
  dp3: 16,
  dp4: 17,
  else: 18,
  endif: 21,
  endloop: 22,
  endswitch: 23,
  eq: 24,
  exp: 25,
  frc: 26,
  ftoi: 27,
  ftou: 28,
  ge: 29,
  iadd: 30,
  if: 31,
  ieq: 32,
  ige: 33,
  ilt: 34,
  imad: 35,
  imax: 36,
  imin: 37,
  imul: 38,
  ine: 39,
  ineg: 40,
  ishl: 41,
  ishr: 42,
  itof: 43,
  label: 44,
  ld: 45,
  log: 47,
  loop: 48,
  lt: 49,
  mad: 50,
  min: 51,
  max: 52,
  mov: 54,
  movc: 55,
  mul: 56,
  ne: 57,
  nop: 58,
  not: 59,
  or: 60,
  resinfo: 61,
  ret: 62,
  retc: 63,
  round_ne: 64,
  round_ni: 65,
  round_pi: 66,
  round_z: 67,
  rsq: 68,
  sample: 69,
  sample_l: 72,
  sample_d: 73,
  sample_b: 74,
  sqrt: 75,
  switch: 76,
  sincos: 77,
  udiv: 78,
  ult: 79,
  uge: 80,
  umul: 81,
  umad: 82,
  umax: 83,
  umin: 84,
  ushr: 85,
  utof: 86,
  xor: 87,
  dcl_resource: 88,
  dcl_constant_buffer: 89,
  dcl_sampler: 90,
  dcl_input: 95,
  dcl_input_ps: 98,
  dcl_input_ps_siv: 100,
  dcl_output: 101,
  dcl_temps: 104,
  dcl_indexable_temp: 105,
  dcl_global_flags: 106,
  gather4: 109,
  deriv_rtx_coarse: 122,
  deriv_rtx_fine: 123,
  deriv_rty_coarse: 124,
  deriv_rty_fine: 125,
  rcp: 129,
  f32tof16: 130,
  f16tof32: 131,
  uaddc: 132,
  usubb: 133,
  countbits: 134,
  firstbit_hi: 135,
  firstbit_lo: 136,
  firstbit_shi: 137,
  ubfe: 138,
  ibfe: 139,
  bfi: 140,
  bfrev: 141,
  swapc: 142,
  dcl_thread_group: 155,
  dcl_uav_typed: 156,
  dcl_uav_raw: 157,
  dcl_tgsm_raw: 159,
  ld_raw: 165,
  store_raw: 166,
  atomic_iadd: 173,
  imm_atomic_iadd: 180,
  imm_atomic_exch: 184,
  imm_atomic_cmp_exch: 185,
  imm_atomic_umax: 188,
  sync: 190,
} as const;

export const T = {
  temp: 0,
  input: 1,
  output: 2,
  indexable: 3,
  imm32: 4,
  sampler: 6,
  resource: 7,
  cb: 8,
  null: 13,
  uav: 30,
  tgsm: 31,
  threadId: 32,
  groupId: 33,
  threadIdInGroup: 34,
  flattenedIndex: 36,
} as const;

export type Operand = number[];

const COMP = { x: 0, y: 1, z: 2, w: 3 } as const;

function maskBits(mask: string): number {
  let m = 0;
  for (const c of mask) m |= 1 << COMP[c as keyof typeof COMP];
  return m;
}

function swizzleBits(sw: string): number {
  const s = sw.length === 1 ? sw.repeat(4) : sw;
  let b = 0;
  for (let i = 0; i < 4; i++) b |= COMP[s[i] as keyof typeof COMP] << (2 * i);
  return b;
}

/** An index: a number, or [register operand (1 component), offset] for relative addressing. */
export type Index = number | [Operand, number];

export function operand(
  type: number,
  indices: readonly Index[],
  sel: { mode: 'mask'; mask: string } | { mode: 'swizzle'; sw: string } | { mode: 'none' },
  mods: { neg?: boolean; abs?: boolean } = {},
): Operand {
  let tok = type << 12;
  if (sel.mode === 'none') tok |= 0;
  else {
    tok |= 2;
    if (sel.mode === 'mask') tok |= maskBits(sel.mask) << 4;
    else tok |= (1 << 2) | (swizzleBits(sel.sw) << 4);
  }
  tok |= indices.length << 20;
  const tail: number[] = [];
  indices.forEach((ix, k) => {
    if (typeof ix === 'number') tail.push(ix >>> 0);
    else {
      // relative (2) with an immediate part (3 = imm32 + relative)
      tok |= 3 << (22 + 3 * k);
      tail.push(ix[1] >>> 0, ...ix[0]);
    }
  });
  const ext = mods.neg || mods.abs;
  if (ext) tok |= 0x80000000;
  const words = [tok >>> 0];
  if (ext) words.push(1 | ((mods.neg ? 1 : 0) << 6) | ((mods.abs ? 1 : 0) << 7));
  return [...words, ...tail];
}

/** Destination register with a write mask, e.g. dst(T.temp, [0], 'xy'). */
export function dst(type: number, indices: readonly Index[], mask = 'xyzw'): Operand {
  return operand(type, indices, { mode: 'mask', mask });
}

/** Source register with a swizzle, e.g. src(T.temp, [0], 'xxyy', { neg: true }). */
export function src(
  type: number,
  indices: readonly Index[],
  sw = 'xyzw',
  mods: { neg?: boolean; abs?: boolean } = {},
): Operand {
  return operand(type, indices, { mode: 'swizzle', sw }, mods);
}

export const r = (i: number, mask = 'xyzw') => dst(T.temp, [i], mask);
export const rs = (i: number, sw = 'xyzw', mods: { neg?: boolean; abs?: boolean } = {}) => src(T.temp, [i], sw, mods);
/** A register used as a relative index: one component selected. */
export const ri = (i: number, c: keyof typeof COMP): Operand => [
  ((T.temp << 12) | 2 | (2 << 2) | (COMP[c] << 4) | (1 << 20)) >>> 0,
  i,
];
export const cb = (slot: number, row: Index, sw = 'xyzw', mods: { neg?: boolean; abs?: boolean } = {}) =>
  src(T.cb, [slot, row], sw, mods);

/** 4-component 32-bit immediate (numbers are bit patterns; use f() for floats). */
export function imm(...v: number[]): Operand {
  if (v.length === 1) return [((T.imm32 << 12) | 1) >>> 0, v[0]! >>> 0];
  const w = [v[0]!, v[1] ?? 0, v[2] ?? 0, v[3] ?? 0];
  return [((T.imm32 << 12) | 2) >>> 0, ...w.map((x) => x >>> 0)];
}

/** A float's bit pattern. */
export function f(x: number): number {
  return new Uint32Array(new Float32Array([x]).buffer)[0]!;
}

/** The float a bit pattern holds. */
export function bitsF(u: number): number {
  return new Float32Array(new Uint32Array([u]).buffer)[0]!;
}

/** One instruction: opcode, operands, extra control bits (bits 11-23 of the opcode token), saturate. */
export function ins(opcode: number, operands: readonly Operand[] = [], controls = 0, sat = false): number[] {
  const body = operands.flat();
  const len = 1 + body.length;
  return [(opcode | (controls << 11) | (sat ? 1 << 13 : 0) | (len << 24)) >>> 0, ...body];
}

/** Like ins() for instructions whose test is on non-zero (if, breakc, continuec, retc, discard, movc is not). */
export function insNZ(opcode: number, operands: readonly Operand[]): number[] {
  return ins(opcode, operands, 1 << 7);
}

export const STAGE = { ps: 0, vs: 1, gs: 2, hs: 3, ds: 4, cs: 5 } as const;

/** A SHEX part: version token, length, then the instructions. */
export function shex(stage: keyof typeof STAGE, major: number, minor: number, body: readonly number[][]): Uint8Array {
  const words = [((STAGE[stage] << 16) | (major << 4) | minor) >>> 0, 0, ...body.flat()];
  words[1] = words.length;
  return new Uint8Array(new Uint32Array(words).buffer);
}

export interface SigElement {
  readonly name: string;
  readonly index?: number;
  readonly systemValue?: number;
  /** 1 uint, 2 sint, 3 float. */
  readonly componentType: number;
  readonly register: number;
  readonly mask: number;
  readonly rwMask?: number;
}

/** An ISGN/OSGN part: count, 8, then 24-byte elements, then the names. */
export function signature(elements: readonly SigElement[]): Uint8Array {
  const head = 8 + 24 * elements.length;
  const names: number[] = [];
  const offsets: number[] = [];
  for (const e of elements) {
    offsets.push(head + names.length);
    for (const ch of e.name) names.push(ch.charCodeAt(0));
    names.push(0);
  }
  while (names.length % 4) names.push(0xab);
  const out = new Uint8Array(head + names.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, elements.length, true);
  dv.setUint32(4, 8, true);
  elements.forEach((e, i) => {
    const o = 8 + 24 * i;
    dv.setUint32(o, offsets[i]!, true);
    dv.setUint32(o + 4, e.index ?? 0, true);
    dv.setUint32(o + 8, e.systemValue ?? 0, true);
    dv.setUint32(o + 12, e.componentType, true);
    dv.setUint32(o + 16, e.register, true);
    out[o + 20] = e.mask;
    out[o + 21] = e.rwMask ?? e.mask;
  });
  out.set(names, head);
  return out;
}

/** A container holding the program and, when given, its signatures. */
export function container(
  program: Uint8Array,
  sigs: { isgn?: readonly SigElement[]; osgn?: readonly SigElement[] } = {},
): Uint8Array {
  const parts = [
    { kind: 'ISGN', data: signature(sigs.isgn ?? []) },
    { kind: 'OSGN', data: signature(sigs.osgn ?? []) },
    { kind: 'SHEX', data: program },
  ];
  return serializeContainer(parts);
}

/**
 * A cs_5_0 program of one thread group of `threads` threads: cb0 of `rows` rows (dynamically
 * indexable), u0 a raw UAV, `temps` temporaries, vThreadIDInGroupFlattened declared; `body` is the
 * code (ending in ret is added).
 */
export function computeProgram(
  body: readonly number[][],
  opts: { rows?: number; temps?: number; threads?: number } = {},
): Uint8Array {
  const rows = opts.rows ?? 8;
  const decls = [
    ins(OP.dcl_global_flags, [], 1), // refactoringAllowed
    ins(OP.dcl_constant_buffer, [src(T.cb, [0, rows])], 1), // dynamicIndexed
    ins(OP.dcl_uav_raw, [operand(T.uav, [0], { mode: 'none' })]),
    ins(OP.dcl_input, [
      operand(T.flattenedIndex, [], { mode: 'mask', mask: 'x' }).map((w, i) => (i === 0 ? w & ~(3 << 20) : w)),
    ]),
    ins(OP.dcl_temps, [[opts.temps ?? 8]]),
    [(OP.dcl_thread_group | (4 << 24)) >>> 0, opts.threads ?? 1, 1, 1],
  ];
  return container(shex('cs', 5, 0, [...decls, ...body, ins(OP.ret)]));
}

/** store_raw u0.<mask>, byteAddress, value */
export function storeRaw(byteAddress: Operand, value: Operand, mask = 'xyzw'): number[] {
  return ins(OP.store_raw, [dst(T.uav, [0], mask), byteAddress, value]);
}

export const uavOperand = (mask = 'x') => dst(T.uav, [0], mask);
export const threadIndex = (): Operand =>
  operand(T.flattenedIndex, [], { mode: 'swizzle', sw: 'xxxx' }).map((w, i) => (i === 0 ? w & ~(3 << 20) : w));
