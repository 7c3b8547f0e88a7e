// The Direct3D 9 token stream decoder (Shader Models 1.1 to 3.0): version token, instruction tokens with their
// lengths, destination and source parameters with modifiers, swizzles, masks, relative addressing and
// predication, dcl/def/defi/defb, comments and the end token. The layout is d3d9types.h's (D3DSI_*, D3DSP_*):
//   instruction token: bits 0-15 opcode, 16-23 controls, 24-27 length in tokens after this one (Shader Model 2
//   and up; Shader Model 1 has none, so its lengths come from the opcode table), 28 predicated, 30 co-issue;
//   comment token: opcode 0xFFFE, bits 16-30 its length in words; end token 0x0000FFFF.
// Strict and bounded: every read is checked against the program's end and every length against the words left;
// bad input is an IridiaError (E501 truncated, E502 unknown opcode, E51x the rest) naming the byte offset and
// the instruction.

import { ByteReader, fourccToString } from '../binary/reader.js';
import { IridiaError, hex, type ErrorCode } from '../errors.js';
import { OPCODES, OPCODE_COMMENT, OPCODE_END, OPCODE_DCL, type OpcodeInfo } from './opcodes.js';
import { REG, isRegisterType } from './registers.js';

export interface D3D9Version {
  readonly stage: 'vs' | 'ps';
  readonly major: number;
  readonly minor: number;
  readonly token: number;
  /** A level-9 program of a library function (version word 0x4C56xxxx 'LV' or 0x4C50xxxx 'LP'). */
  readonly library?: true;
}

/** The register a relative address reads: a0.x (with its component) or aL. */
export interface D3D9RelAddr {
  readonly type: number;
  readonly num: number;
  /** Component 0-3 (x-w) of the address register. */
  readonly component: number;
}

export interface D3D9Dst {
  readonly type: number;
  readonly num: number;
  /** Write mask, bits 0-3 for x-w. */
  readonly mask: number;
  /** Result modifier bits: 1 saturate, 2 partial precision, 4 centroid. */
  readonly modifiers: number;
  /** Shift scale, a signed 4-bit count kept raw (1 = _x2, 15 = _d2). */
  readonly shift: number;
  readonly rel: D3D9RelAddr | undefined;
  readonly token: number;
}

export interface D3D9Src {
  readonly type: number;
  readonly num: number;
  /** Swizzle byte: 2 bits per lane, x in bits 0-1. */
  readonly swizzle: number;
  /** Source modifier 0-13 (D3DSHADER_PARAM_SRCMOD_TYPE). */
  readonly modifier: number;
  readonly rel: D3D9RelAddr | undefined;
  readonly token: number;
}

export interface D3D9Dcl {
  /** Usage (D3DDECLUSAGE) and usage index; meaningful for inputs and vs_3_0 outputs. */
  readonly usage: number;
  readonly usageIndex: number;
  /** Sampler texture type (2 2d, 3 cube, 4 volume); meaningful for samplers. */
  readonly samplerType: number;
  readonly token: number;
}

export interface D3D9Instruction {
  readonly kind: 'instruction';
  /** Byte offset of the instruction token from the version token. */
  readonly offset: number;
  readonly opcode: number;
  readonly info: OpcodeInfo;
  /** Bits 16-23: comparison, texld variant (1 texldp, 2 texldb), sincos/texld specifics. */
  readonly controls: number;
  readonly predicated: boolean;
  readonly coissue: boolean;
  /** Words taken, the instruction token included. */
  readonly words: number;
  readonly dst: D3D9Dst | undefined;
  readonly predicate: D3D9Src | undefined;
  readonly srcs: readonly D3D9Src[];
  readonly dcl: D3D9Dcl | undefined;
  /** def, defi, defb: the raw value words. */
  readonly values: readonly number[];
}

export interface D3D9Comment {
  readonly kind: 'comment';
  readonly offset: number;
  /** The first word as text when it is a FourCC (CTAB, DBUG); '' when the comment is empty. */
  readonly fourcc: string;
  /** The comment's words after the comment token (the FourCC included), as a view. */
  readonly data: Uint8Array;
}

export type D3D9Record = D3D9Instruction | D3D9Comment;

export interface D3D9Program {
  readonly version: D3D9Version;
  /** Instructions and comments in stream order (the end token excluded). */
  readonly records: readonly D3D9Record[];
  /** Byte offset of the end token. */
  readonly endOffset: number;
  readonly bytes: Uint8Array;
}

/** Is this a Direct3D 9 program (its first word a vs or ps version token)? */
export function isD3D9Program(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 4) return false;
  const hi = bytes[2]! | (bytes[3]! << 8);
  return (hi === 0xfffe || hi === 0xffff) && bytes[1]! >= 1 && bytes[1]! <= 3;
}

export function decodeVersion(token: number, offset = 0): D3D9Version {
  const hi = token >>> 16;
  const major = (token >>> 8) & 0xff;
  const minor = token & 0xff;
  const library = hi === LIBRARY_VS || hi === LIBRARY_PS;
  const stage = hi === 0xfffe || hi === LIBRARY_VS ? 'vs' : hi === 0xffff || hi === LIBRARY_PS ? 'ps' : undefined;
  const known = stage === 'vs' ? VS_VERSIONS : PS_VERSIONS;
  if (stage === undefined || !known.has(token & 0xffff))
    throw new IridiaError(
      'E510_D3D9_VERSION',
      `version token ${hex(token)} is not a vs_1_1-vs_3_0 or ps_1_0-ps_3_0 version`,
      { offset },
    );
  return library ? { stage, major, minor, token, library } : { stage, major, minor, token };
}

/** The version word's high half in a library function's level-9 programs (fxc lib_4_0_level_9_x). */
const LIBRARY_VS = 0x4c56;
const LIBRARY_PS = 0x4c50;

/** Known versions; minor 0xFF is a software program (vs_2_sw, ps_3_sw), which has the layout of its model. */
const VS_VERSIONS = new Set([0x0101, 0x0200, 0x0201, 0x02ff, 0x0300, 0x03ff]);
const PS_VERSIONS = new Set([0x0100, 0x0101, 0x0102, 0x0103, 0x0104, 0x0200, 0x0201, 0x02ff, 0x0300, 0x03ff]);

/** Decodes a whole Direct3D 9 program. */
export function decodeD3D9(bytes: Uint8Array): D3D9Program {
  const reader = new ByteReader(bytes, { code: 'E501_D3D9_TRUNCATED' });
  const version = decodeVersion(reader.u32At(0, 'the version token'));
  const records: D3D9Record[] = [];
  const words = Math.floor(bytes.byteLength / 4);
  let w = 1;
  for (;;) {
    if (w >= words)
      throw new IridiaError(
        'E501_D3D9_TRUNCATED',
        `the program ends at ${hex(bytes.byteLength)} without an end token (0x0000ffff)`,
        { offset: w * 4, instruction: records.length },
      );
    const token = reader.u32At(w * 4);
    const opcode = token & 0xffff;
    if (token === OPCODE_END) return { version, records, endOffset: w * 4, bytes };
    if (opcode === OPCODE_COMMENT) {
      const size = (token >>> 16) & 0x7fff;
      if (size > words - w - 1)
        throw new IridiaError(
          'E512_D3D9_COMMENT',
          `a comment of ${size} words at ${hex(w * 4)} runs past the program's end at ${hex(words * 4)}`,
          { offset: w * 4, instruction: records.length },
        );
      const data = bytes.subarray((w + 1) * 4, (w + 1 + size) * 4);
      records.push({
        kind: 'comment',
        offset: w * 4,
        fourcc: size > 0 ? fourccToString(reader.u32At(w * 4 + 4)) : '',
        data,
      });
      w += 1 + size;
      continue;
    }
    const ins = decodeInstruction(reader, w, words, version, records.length);
    records.push(ins);
    w += ins.words;
  }
}

/** An operand's name in errors: a number n is source n (named only when an error is thrown). */
function operandName(what: string | number): string {
  return typeof what === 'number' ? `source ${what}` : what;
}

function fail(code: ErrorCode, reason: string, w: number, index: number): IridiaError {
  return new IridiaError(code, reason, { offset: w * 4, instruction: index, word: w });
}

function decodeInstruction(
  reader: ByteReader,
  w: number,
  words: number,
  version: D3D9Version,
  index: number,
): D3D9Instruction {
  const token = reader.u32At(w * 4);
  const opcode = token & 0xffff;
  const info = OPCODES.get(opcode);
  if (info === undefined)
    throw fail('E502_D3D9_OPCODE', `unknown opcode ${hex(opcode)} (token ${hex(token)})`, w, index);
  if (token & 0x80000000) throw fail('E513_D3D9_OPERAND', `instruction token ${hex(token)} has bit 31 set`, w, index);
  const sm1 = version.major < 2;
  let length: number;
  if (sm1) {
    length = sm1Length(info, opcode, version, reader, w, words, index);
  } else {
    length = (token >>> 24) & 0xf;
  }
  if (length > words - w - 1)
    throw fail(
      'E511_D3D9_LENGTH',
      `${info.name} at ${hex(w * 4)} is ${length} tokens long, past the program's end at ${hex(words * 4)}`,
      w,
      index,
    );
  const end = w + 1 + length;
  let p = w + 1;
  const next = (what: string | number): number => {
    if (p >= end)
      throw fail(
        'E511_D3D9_LENGTH',
        `${info.name} at ${hex(w * 4)} is too short for its ${operandName(what)}`,
        w,
        index,
      );
    return reader.u32At(4 * p++);
  };
  const param = (what: string | number): number => {
    const t = next(what);
    if (!(t & 0x80000000))
      throw fail(
        'E513_D3D9_OPERAND',
        `${info.name} at ${hex(w * 4)}: ${operandName(what)} token ${hex(t)} lacks bit 31`,
        w,
        index,
      );
    const type = regType(t);
    if (!isRegisterType(type))
      throw fail(
        'E513_D3D9_OPERAND',
        `${info.name} at ${hex(w * 4)}: ${operandName(what)} has register type ${type}`,
        w,
        index,
      );
    return t;
  };
  const relAddr = (t: number, what: string | number): D3D9RelAddr | undefined => {
    if (!(t & 0x2000)) return undefined;
    if (sm1) return { type: REG.addrOrTexture, num: 0, component: 0 };
    const a = param(`${operandName(what)}'s relative address`);
    return { type: regType(a), num: a & 0x7ff, component: (a >>> 16) & 3 };
  };
  const src = (what: string | number): D3D9Src => {
    const t = param(what);
    return {
      type: regType(t),
      num: t & 0x7ff,
      swizzle: (t >>> 16) & 0xff,
      modifier: (t >>> 24) & 0xf,
      rel: relAddr(t, what),
      token: t,
    };
  };
  let dcl: D3D9Dcl | undefined;
  let dst: D3D9Dst | undefined;
  let predicate: D3D9Src | undefined;
  const srcs: D3D9Src[] = [];
  const values: number[] = [];
  if (opcode === OPCODE_DCL) {
    const t = next('usage token');
    dcl = { usage: t & 0x1f, usageIndex: (t >>> 16) & 0xf, samplerType: (t >>> 27) & 0xf, token: t };
  }
  if (info.dst) {
    const t = param('destination');
    dst = {
      type: regType(t),
      num: t & 0x7ff,
      mask: (t >>> 16) & 0xf,
      modifiers: (t >>> 20) & 0xf,
      shift: (t >>> 24) & 0xf,
      rel: relAddr(t, 'destination'),
      token: t,
    };
  }
  if (info.shape === 'def' || info.shape === 'defi' || info.shape === 'defb') {
    const n = info.shape === 'defb' ? 1 : 4;
    for (let i = 0; i < n; i++) values.push(next('value'));
  } else if (info.shape === 'regular') {
    if (token & 0x10000000) predicate = src('predicate');
    if (sm1) for (let i = 0; i < sm1Sources(info, opcode, version); i++) srcs.push(src(i));
    else while (p < end) srcs.push(src(srcs.length));
  }
  const minSources = opcode === 34 || opcode === 37 ? 1 : info.src; // sgn and sincos take 1 source from vs_3_0
  if (info.shape === 'regular' && srcs.length < minSources)
    throw fail(
      'E511_D3D9_LENGTH',
      `${info.name} at ${hex(w * 4)} has ${srcs.length} sources where it needs ${minSources}`,
      w,
      index,
    );
  if (p !== end)
    throw fail(
      'E511_D3D9_LENGTH',
      `${info.name} at ${hex(w * 4)} is ${length} tokens long but its operands take ${p - w - 1}`,
      w,
      index,
    );
  return {
    kind: 'instruction',
    offset: w * 4,
    opcode,
    info,
    controls: (token >>> 16) & 0xff,
    predicated: (token & 0x10000000) !== 0,
    coissue: (token & 0x40000000) !== 0,
    words: 1 + length,
    dst,
    predicate,
    srcs,
    dcl,
    values,
  };
}

function regType(t: number): number {
  return ((t >>> 28) & 7) | ((t >>> 8) & 0x18);
}

/** Shader Model 1 sources: the table's count, except ps_1_4's texcrd and texld, which read one. */
function sm1Sources(info: OpcodeInfo, opcode: number, version: D3D9Version): number {
  if ((opcode === 64 || opcode === 66) && version.stage === 'ps' && version.minor >= 4) return 1;
  return info.src;
}

/** Shader Model 1 has no length field: the length follows from the operands (one word each, vs_1_1 has no
 *  relative-address token), checked against the words left. */
function sm1Length(
  info: OpcodeInfo,
  opcode: number,
  version: D3D9Version,
  reader: ByteReader,
  w: number,
  words: number,
  index: number,
): number {
  let n: number;
  switch (info.shape) {
    case 'dcl':
      n = 2;
      break;
    case 'def':
    case 'defi':
      n = 5;
      break;
    case 'defb':
      n = 2;
      break;
    case 'regular':
      n = (info.dst ? 1 : 0) + sm1Sources(info, opcode, version);
      if (reader.u32At(w * 4) & 0x10000000) n += 1;
      break;
  }
  if (n > words - w - 1)
    throw fail('E511_D3D9_LENGTH', `${info.name} at ${hex(w * 4)} needs ${n} tokens past the program's end`, w, index);
  return n;
}
