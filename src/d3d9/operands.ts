// Instruction text of a Direct3D 9 listing, as D3DDisassemble spells it: the mnemonic with its comparison,
// texld variant, shift and result modifiers (mul_x2_sat_pp), the destination with its write mask (r0.xy), the
// sources with modifiers, relative addresses and swizzles (-c0[a0.x].y, r1_abs.w; a replicate swizzle prints
// one letter, any other non-identity swizzle four), dcl's usage and sampler type, and def/defi/defb values.

import type { D3D9Dst, D3D9Instruction, D3D9RelAddr, D3D9Src, D3D9Version } from './decode.js';
import { COMPARISONS, SAMPLER_TYPES, SHIFTS, SOURCE_MODIFIERS, USAGES } from './opcodes.js';
import { REG, registerName } from './registers.js';
import { formatFloat9g } from './literal.js';

const LANES = 'xyzw';

export interface InstructionTextOptions {
  /** Flag 0x80: def values as hexadecimal bit patterns. */
  readonly hexLiterals: boolean;
}

/** The instruction's text without indentation ("texld r0, t0, s0"). */
export function instructionText(ins: D3D9Instruction, version: D3D9Version, opts: InstructionTextOptions): string {
  const pred = ins.predicate === undefined ? '' : `(${srcText(ins.predicate, version)}) `;
  const co = ins.coissue ? '+' : '';
  const name = mnemonic(ins, version);
  const operands: string[] = [];
  if (ins.dst !== undefined) operands.push(dstText(ins.dst, version));
  if (ins.info.shape === 'def') {
    for (const v of ins.values) operands.push(opts.hexLiterals ? hex8(v) : formatFloat9g(v));
  } else if (ins.info.shape === 'defi') {
    for (const v of ins.values) operands.push(String(v | 0));
  } else if (ins.info.shape === 'defb') {
    operands.push(ins.values[0] ? 'true' : 'false');
  }
  for (const s of ins.srcs) operands.push(srcText(s, version));
  return `${pred}${co}${name}${operands.length ? ' ' + operands.join(', ') : ''}`;
}

function hex8(v: number): string {
  return `0x${(v >>> 0).toString(16).padStart(8, '0')}`;
}

function mnemonic(ins: D3D9Instruction, version: D3D9Version): string {
  let name = ins.info.name;
  if (ins.opcode === 31) return dclMnemonic(ins, version);
  if (ins.opcode === 66 && version.stage === 'ps') {
    if (version.major >= 2) name = ins.controls === 1 ? 'texldp' : ins.controls === 2 ? 'texldb' : 'texld';
    else if (version.minor >= 4) name = 'texld';
  }
  if (ins.opcode === 64 && version.stage === 'ps' && version.minor >= 4 && version.major === 1) name = 'texcrd';
  if (ins.info.comparison) name += `_${COMPARISONS[ins.controls & 7] ?? `cmp${ins.controls & 7}`}`;
  if (ins.dst !== undefined) name += resultModifiers(ins.dst);
  return name;
}

function resultModifiers(dst: D3D9Dst): string {
  let s = SHIFTS.get(dst.shift) ?? '';
  if (dst.modifiers & 1) s += '_sat';
  if (dst.modifiers & 2) s += '_pp';
  if (dst.modifiers & 4) s += '_centroid';
  return s;
}

/** dcl's mnemonic: dcl_2d for samplers; dcl_<usage><index> for vertex inputs and Shader Model 3 registers;
 *  plain dcl for ps_2_x's t# and v#; then _pp and _centroid. */
function dclMnemonic(ins: D3D9Instruction, version: D3D9Version): string {
  const dcl = ins.dcl!;
  const dst = ins.dst!;
  let name = 'dcl';
  if (dst.type === REG.sampler) {
    name += `_${SAMPLER_TYPES[dcl.samplerType] ?? `type${dcl.samplerType}`}`;
  } else if (
    dst.type !== REG.misc &&
    (version.stage === 'vs' || version.major >= 3) &&
    (dst.type === REG.input || dst.type === REG.texcrdOut)
  ) {
    name += `_${USAGES[dcl.usage] ?? `usage${dcl.usage}`}${dcl.usageIndex ? dcl.usageIndex : ''}`;
  }
  let mods = '';
  if (dst.modifiers & 1) mods += '_sat';
  if (dst.modifiers & 2) mods += '_pp';
  if (dst.modifiers & 4) mods += '_centroid';
  return name + mods;
}

function relText(rel: D3D9RelAddr, version: D3D9Version): string {
  if (rel.type === REG.loop) return 'aL';
  return `${registerName(rel.type, rel.num, version)}.${LANES[rel.component]}`;
}

/**
 * Texts of operands without a relative address, direct-mapped by their parameter token (which
 * holds everything they print) and what of the version the register names depend on (vs, model
 * 3, source or destination): 4,096 slots, each holding its last key (a token 0 never occurs:
 * parameter tokens have bit 31 set).
 */
const TEXT_SLOTS = 4096;
const TEXT_KEYS = new Int32Array(TEXT_SLOTS);
const TEXT_VARIANTS = new Uint8Array(TEXT_SLOTS);
const TEXTS: string[] = new Array<string>(TEXT_SLOTS).fill('');

function cachedText<T extends { readonly token: number }>(
  operand: T,
  version: D3D9Version,
  destination: boolean,
  make: (operand: T, version: D3D9Version) => string,
): string {
  const key = operand.token | 0;
  const variant = (version.stage === 'vs' ? 1 : 0) | (version.major >= 3 ? 2 : 0) | (destination ? 4 : 0);
  const slot = Math.imul(key ^ variant, 0x9e3779b1) >>> 20;
  if (TEXT_KEYS[slot] === key && TEXT_VARIANTS[slot] === variant && key !== 0) return TEXTS[slot]!;
  const text = make(operand, version);
  TEXT_KEYS[slot] = key;
  TEXT_VARIANTS[slot] = variant;
  TEXTS[slot] = text;
  return text;
}

export function dstText(dst: D3D9Dst, version: D3D9Version): string {
  return dst.rel === undefined ? cachedText(dst, version, true, makeDstText) : makeDstText(dst, version);
}

function makeDstText(dst: D3D9Dst, version: D3D9Version): string {
  const rel = dst.rel === undefined ? '' : `[${relText(dst.rel, version)}]`;
  return `${registerName(dst.type, dst.num, version)}${rel}${maskText(dst.mask)}${precisionText(dst.token)}`;
}

/** Minimum precision (bits 14-15 of a parameter, D3DSP_MIN_PRECISION: 1 16-bit, 2 10-bit), as level-9
 *  programs of min16float code carry it: " {min16f}" after the operand. */
const MIN_PRECISION: readonly string[] = ['', ' {min16f}', ' {min2_8f}', ' {min?}'];

function precisionText(token: number): string {
  return MIN_PRECISION[(token >>> 14) & 3]!;
}

export function maskText(mask: number): string {
  if (mask === 0xf) return '';
  let s = '.';
  for (let i = 0; i < 4; i++) if (mask & (1 << i)) s += LANES[i];
  return s;
}

export function srcText(src: D3D9Src, version: D3D9Version): string {
  return src.rel === undefined ? cachedText(src, version, false, makeSrcText) : makeSrcText(src, version);
}

function makeSrcText(src: D3D9Src, version: D3D9Version): string {
  const [pre, post] = SOURCE_MODIFIERS[src.modifier] ?? ['', `_mod${src.modifier}`];
  const rel = src.rel === undefined ? '' : `[${relText(src.rel, version)}]`;
  return `${pre}${registerName(src.type, src.num, version)}${rel}${post}${swizzleText(src.swizzle)}${precisionText(src.token)}`;
}

export function swizzleText(swizzle: number): string {
  if (swizzle === 0xe4) return '';
  const l = [0, 2, 4, 6].map((s) => LANES[(swizzle >>> s) & 3]!);
  if (l[0] === l[1] && l[1] === l[2] && l[2] === l[3]) return `.${l[0]}`;
  return `.${l.join('')}`;
}
