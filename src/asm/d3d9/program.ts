// A Direct3D 9 (vs_1_1 .. vs_3_0, ps_1_1 .. ps_3_0, and the level-9 lib_4_0_ forms) listing, as
// D3DDisassemble prints it (src/d3d9/disasm.ts) under any flag word, read back into its token stream: the
// version token, each instruction token (with its length in bits 24-27 from Shader Model 2 on, none before)
// and its parameter tokens, and the end token. The comment header (printed from CTAB), the #line directives
// and variable remarks (printed from DBUG), the 0x04 numbers, the 0x20 offsets and the slot-count footer are
// skipped: they are read from the comments, which index.ts takes from a `like` program.
//
// Every spelling is operands.ts's read backwards: the mnemonic with its comparison, texld variant, shift and
// result modifiers (if_gt, texldp, mul_x2_sat_pp), dcl with its usage and index or sampler type
// (dcl_texcoord1, dcl_2d), the predicate `(p0.x)` or `(!p0.x)`, co-issue `+`, destinations with masks and
// relative addresses (o[aL] is printed o0[aL]), sources with modifiers (-, 1 - , !, _bias, _bx2, _x2, _dz,
// _dw, _abs), relative addresses (c5[a0.x], c0[aL]) and swizzles (one letter replicated, four letters),
// def values (%.9g or 0x%08x), defi integers and defb true/false, and the level-9 precision marks
// ({min16f}).

import { AsmError, Cursor, decimalToFloatBits, statementOf } from '../text.js';
import { OPCODES, COMPARISONS, SAMPLER_TYPES, SOURCE_MODIFIERS, USAGES, SHIFTS } from '../../d3d9/opcodes.js';
import { REG } from '../../d3d9/registers.js';

export interface D3D9AssembledProgram {
  readonly stage: 'vs' | 'ps';
  readonly major: number;
  readonly minor: number;
  readonly library: boolean;
  /** The token stream: version token, instructions, end token (no comments). */
  readonly words: Uint32Array;
  /** Word index of each instruction token in `words`, in stream order. */
  readonly starts: readonly number[];
  /** Listing line (1-based) of each instruction. */
  readonly lines: readonly number[];
}

export interface Version {
  readonly stage: 'vs' | 'ps';
  readonly major: number;
  readonly minor: number;
  /** A level-9 library function's program (lib_4_0_ps_2_0): its pixel program writes its results to oT#. */
  readonly library: boolean;
}

/** The version line: vs_1_1 .. ps_3_0, _x (minor 1) and _sw (minor 0xff), with lib_4_0_ for a level-9 library function's program. */
const VERSION_LINE = /^(lib_4_0_)?(vs|ps)_([1-3])_([0-4]|x|sw)$/;
const VS_MINORS = new Set([0x0101, 0x0200, 0x0201, 0x02ff, 0x0300, 0x03ff]);
const PS_MINORS = new Set([0x0100, 0x0101, 0x0102, 0x0103, 0x0104, 0x0200, 0x0201, 0x02ff, 0x0300, 0x03ff]);

/** SM4/5 version lines, and the lib_M_N line of a library: a listing with one is not a Direct3D 9 listing
 *  (a level-9 container's listing prints its Direct3D 9 programs first, then its own program). */
const SM4_VERSION_LINE = /^(?:(?:ps|vs|gs|hs|ds|cs)_[4-6]_[0-9]|lib_[0-9]_[0-9])$/;

/** Is this a Direct3D 9 listing: its first statement a Direct3D 9 version line, and no SM4/5 version line after? */
export function isD3D9Listing(listing: string): boolean {
  let first = true;
  for (const raw of listing.split('\n')) {
    const s = statementOf(raw)?.s.trimEnd();
    if (s === undefined) continue;
    if (first) {
      if (!VERSION_LINE.test(s)) return false;
      first = false;
    } else if (SM4_VERSION_LINE.test(s)) return false;
  }
  return !first;
}

const LANES = 'xyzw';

/** Reads a Direct3D 9 listing into its token stream. AsmError (E9xx) at the first line it cannot read. */
export function assembleD3D9Program(listing: string): D3D9AssembledProgram {
  const raw = listing.split('\n');
  let version: Version | undefined;
  const words: number[] = [0];
  const starts: number[] = [];
  const lines: number[] = [];
  for (let n = 0; n < raw.length; n++) {
    const statement = statementOf(raw[n]!);
    if (statement === undefined) continue;
    const { text, base } = statement;
    let s = statement.s;
    const cut = s.indexOf('//');
    if (cut >= 0) s = s.slice(0, cut);
    s = s.trimEnd();
    if (version === undefined) {
      const m = VERSION_LINE.exec(s);
      if (!m)
        throw new AsmError(
          'E907_ASM_PROGRAM',
          `expected the Direct3D 9 version line (vs_1_1 .. vs_3_0, ps_1_1 .. ps_3_0), found ${JSON.stringify(s.slice(0, 20))}`,
          n + 1,
          base + 1,
          text,
        );
      const stage = m[2] as 'vs' | 'ps';
      const major = Number(m[3]);
      const minor = m[4] === 'sw' ? 0xff : m[4] === 'x' ? (major === 2 ? 1 : -1) : Number(m[4]);
      const known = stage === 'vs' ? VS_MINORS : PS_MINORS;
      // ps_2_1 and vs_2_1 print as _2_x; a literal _2_1 is no version the printer writes
      if (minor < 0 || !known.has((major << 8) | minor) || (major === 2 && m[4] === '1'))
        throw new AsmError('E907_ASM_PROGRAM', `${s} is no Direct3D 9 version`, n + 1, base + 1, text);
      const library = m[1] !== undefined;
      const hi = library ? (stage === 'vs' ? 0x4c56 : 0x4c50) : stage === 'vs' ? 0xfffe : 0xffff;
      version = { stage, major, minor, library };
      words[0] = ((hi << 16) | (major << 8) | minor) >>> 0;
      continue;
    }
    lines.push(n + 1);
    starts.push(words.length);
    instruction(new Cursor(s, n + 1, base, text), version, words);
  }
  if (version === undefined)
    throw new AsmError('E907_ASM_PROGRAM', 'the listing has no Direct3D 9 version line', raw.length, 1, '');
  words.push(0x0000ffff);
  return { ...version, words: Uint32Array.from(words, (w) => w >>> 0), starts, lines };
}

/** What a mnemonic names: the opcode, its control bits, result modifiers and shift. */
interface Mnemonic {
  readonly opcode: number;
  readonly controls: number;
  readonly modifiers: number;
  readonly shift: number;
  /** dcl: the usage word's text (texcoord1, 2d) or '' when the printer writes none. */
  readonly dclPart: string;
}

/** Mnemonic base name → raw opcode, for this version (tex/texld/texcrd/texcoord change with it). */
function opcodeOf(name: string, v: Version): { opcode: number; controls: number } | undefined {
  const ps = v.stage === 'ps';
  switch (name) {
    case 'tex':
      return !ps || v.major === 1 ? (ps && v.minor >= 4 ? undefined : { opcode: 66, controls: 0 }) : undefined;
    case 'texld':
      return ps && (v.major >= 2 || v.minor >= 4) ? { opcode: 66, controls: 0 } : undefined;
    case 'texldp':
    case 'texldb':
      return ps && v.major >= 2 ? { opcode: 66, controls: name === 'texldp' ? 1 : 2 } : undefined;
    case 'texcrd':
      return ps && v.major === 1 && v.minor >= 4 ? { opcode: 64, controls: 0 } : undefined;
    case 'texcoord':
      return ps && v.major === 1 && v.minor >= 4 ? undefined : { opcode: 64, controls: 0 };
    case 'if':
      return { opcode: 40, controls: 0 };
    case 'break':
      return { opcode: 44, controls: 0 };
    case 'setp':
      return { opcode: 94, controls: 0 };
  }
  const opcode = BY_NAME.get(name);
  return opcode === undefined ? undefined : { opcode, controls: 0 };
}

const BY_NAME = new Map<string, number>();
for (const [op, info] of OPCODES) if (!info.comparison && op !== 66 && op !== 64) BY_NAME.set(info.name, op);

const SHIFT_BY_NAME = new Map([...SHIFTS].map(([k, v]) => [v.slice(1), k]));
const RESULT_MODIFIERS: Readonly<Record<string, number>> = { sat: 1, pp: 2, centroid: 4 };

function mnemonic(c: Cursor, v: Version): Mnemonic {
  const start = c.i;
  const word = c.word(/[A-Za-z0-9_]/);
  if (word === '') throw c.fail('E901_ASM_SYNTAX', `expected an instruction, found ${c.found()}`);
  const parts = word.split('_');
  const name = parts[0]!;
  let k = 1;
  let dclPart = '';
  let op: { opcode: number; controls: number } | undefined;
  if (name === 'dcl') {
    op = { opcode: 31, controls: 0 };
    if (k < parts.length && !(parts[k]! in RESULT_MODIFIERS)) dclPart = parts[k++]!;
  } else {
    op = opcodeOf(name, v);
    if (op === undefined)
      throw c.fail(
        'E902_ASM_MNEMONIC',
        `${JSON.stringify(name)} is no Direct3D 9 instruction of ${versionName(v)}`,
        start,
      );
    // if_gt, break_ne, setp_ge: the comparison in the control bits (opcode 41/45 for if/break)
    const cmp = parts[k] === undefined ? -1 : comparison(parts[k]!);
    if (name === 'setp') {
      if (cmp < 0) throw c.fail('E902_ASM_MNEMONIC', 'setp takes a comparison (setp_gt, setp_eq, ...)', start);
      op = { opcode: 94, controls: cmp };
      k++;
    } else if ((name === 'if' || name === 'break') && cmp >= 0) {
      op = { opcode: name === 'if' ? 41 : 45, controls: cmp };
      k++;
    }
  }
  let shift = 0;
  let modifiers = 0;
  for (; k < parts.length; k++) {
    const p = parts[k]!;
    const sh = SHIFT_BY_NAME.get(p);
    const m = RESULT_MODIFIERS[p];
    if (sh !== undefined && shift === 0 && modifiers === 0 && name !== 'dcl') shift = sh;
    else if (m !== undefined && !(modifiers & m)) modifiers |= m;
    else
      throw c.fail(
        'E902_ASM_MNEMONIC',
        `${JSON.stringify(word)}: ${JSON.stringify('_' + p)} is no modifier here`,
        start,
      );
  }
  return { ...op, modifiers, shift, dclPart };
}

function comparison(p: string): number {
  const i = COMPARISONS.indexOf(p);
  if (i > 0) return i;
  const m = /^cmp([0-7])$/.exec(p);
  return m ? Number(m[1]) : -1;
}

function versionName(v: Version): string {
  const minor = v.minor === 0xff ? 'sw' : v.major === 2 && v.minor === 1 ? 'x' : String(v.minor);
  return `${v.stage}_${v.major}_${minor}`;
}

/** The number of sources an instruction takes in this version. */
export function sourceCount(opcode: number, v: Version): number {
  const info = OPCODES.get(opcode)!;
  if (v.major < 2) return (opcode === 64 || opcode === 66) && v.stage === 'ps' && v.minor >= 4 ? 1 : info.src;
  if (opcode === 66) return 2; // texld r0, t0, s0
  if (opcode === 34 || opcode === 37) return v.major >= 3 ? 1 : 3; // sgn, sincos: 1 source from 3.0
  return info.src;
}

function instruction(c: Cursor, v: Version, out: number[]): void {
  let predicate: number[] | undefined;
  if (c.eat('(')) {
    predicate = [];
    source(c, v, predicate);
    c.expect(')');
    c.expect(' ');
  }
  const coissue = c.eat('+');
  const mn = mnemonic(c, v);
  const info = OPCODES.get(mn.opcode)!;
  const params: number[] = [];
  // the printer separates the mnemonic from its operands by one space and the operands by ", "
  let texts: { text: string; at: number }[] = [];
  if (c.eat(' ')) texts = splitOperands(c, c.i);
  else if (!c.done) throw c.fail('E901_ASM_SYNTAX', `unexpected ${c.found()} after the mnemonic`);
  const nsrc = info.shape === 'regular' ? sourceCount(mn.opcode, v) : 0;
  const nvalues = info.shape === 'def' || info.shape === 'defi' ? 4 : info.shape === 'defb' ? 1 : 0;
  const want = (info.dst ? 1 : 0) + nsrc + nvalues;
  if (texts.length !== want)
    throw c.fail(
      'E904_ASM_OPERAND_COUNT',
      `${info.name} takes ${want} operand${want === 1 ? '' : 's'} in ${versionName(v)}, found ${texts.length}`,
      texts.length > want ? texts[want]!.at : c.s.length,
    );
  if (predicate !== undefined && info.shape !== 'regular')
    throw c.fail('E901_ASM_SYNTAX', `${info.name} cannot be predicated`, 0);
  let dclWord = 0;
  let dst: Dst | undefined;
  if (info.dst) {
    const t = texts[0]!;
    const sub = new Cursor(t.text, c.line, c.base + t.at, c.text);
    dst = destination(sub, v);
    sub.end();
  }
  if (mn.opcode === 31) dclWord = dclToken(c, mn.dclPart, dst!, v);
  else if (mn.dclPart !== '') throw c.fail('E902_ASM_MNEMONIC', 'only dcl takes a usage', 0);
  if (dst !== undefined) {
    if (mn.opcode === 31 && mn.shift !== 0) throw c.fail('E902_ASM_MNEMONIC', 'dcl takes no shift', 0);
    params.push(dstToken(dst, mn.modifiers, mn.shift));
    if (dst.rel !== undefined) relToken(dst.rel, v, params, c);
  }
  // the predicate's token follows the destination's
  if (predicate !== undefined) params.push(...predicate);
  const rest = texts.slice(info.dst ? 1 : 0);
  if (info.shape === 'def' || info.shape === 'defi' || info.shape === 'defb') {
    for (const t of rest) params.push(value(new Cursor(t.text, c.line, c.base + t.at, c.text), info.shape));
  } else {
    for (const t of rest) {
      const sub = new Cursor(t.text, c.line, c.base + t.at, c.text);
      source(sub, v, params);
      sub.end();
    }
  }
  if (mn.opcode === 31) params.unshift(dclWord);
  const length = v.major >= 2 ? params.length : 0;
  if (length > 15) throw c.fail('E904_ASM_OPERAND_COUNT', `${info.name} takes ${length} tokens, past 15`, 0);
  out.push(
    (mn.opcode |
      (mn.controls << 16) |
      (length << 24) |
      (predicate !== undefined ? 0x10000000 : 0) |
      (coissue ? 0x40000000 : 0)) >>>
      0,
    ...params,
  );
}

function splitOperands(c: Cursor, from: number): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let at = from;
  for (;;) {
    const next = c.s.indexOf(', ', at);
    const end = next < 0 ? c.s.length : next;
    if (end === at) throw c.fail('E901_ASM_SYNTAX', 'an empty operand', at);
    out.push({ text: c.s.slice(at, end), at });
    if (next < 0) return out;
    at = next + 2;
  }
}

export interface Register {
  readonly type: number;
  readonly num: number;
}

interface Dst extends Register {
  readonly mask: number;
  readonly rel: Rel | undefined;
  readonly precision: number;
}

interface Rel extends Register {
  readonly component: number;
  readonly at: number;
}

const CONST_FILES: readonly (readonly [number, number])[] = [
  [REG.const, 0],
  [REG.const2, 2048],
  [REG.const3, 4096],
  [REG.const4, 6144],
];

const PLAIN_NAMES: Readonly<Record<string, number>> = {
  r: REG.temp,
  v: REG.input,
  i: REG.constInt,
  oC: REG.colorOut,
  oD: REG.attrOut,
  s: REG.sampler,
  b: REG.constBool,
  half: REG.tempFloat16,
  l: REG.label,
  p: REG.predicate,
  oRast: REG.rastOut,
  vMisc: REG.misc,
};
const NAMED: Readonly<Record<string, Register>> = {
  oPos: { type: REG.rastOut, num: 0 },
  oFog: { type: REG.rastOut, num: 1 },
  oPts: { type: REG.rastOut, num: 2 },
  vPos: { type: REG.misc, num: 0 },
  vFace: { type: REG.misc, num: 1 },
  oDepth: { type: REG.depthOut, num: 0 },
  aL: { type: REG.loop, num: 0 },
};

/** A register name with its number, as registerName (src/d3d9/registers.ts) prints it, checked against the version. */
function register(c: Cursor, v: Version): Register {
  const start = c.i;
  let reg: Register;
  if (c.eat('?')) {
    const type = c.count('a register type', 31);
    c.expect('_');
    reg = { type, num: c.count('a register number', 0x7ff) };
  } else {
    const name = c.word(/[A-Za-z]/);
    const named = NAMED[name];
    const digits = /[0-9]/.test(c.peek());
    if (named !== undefined && !digits) reg = named;
    else {
      if (!digits)
        throw c.fail('E903_ASM_REGISTER', `${JSON.stringify(name || c.found())} is no Direct3D 9 register`, start);
      const num = c.count('a register number', 0xffff);
      let type: number | undefined = PLAIN_NAMES[name];
      let n = num;
      if (name === 'c') {
        const file = [...CONST_FILES].reverse().find(([, b]) => num >= b)!;
        type = file[0];
        n = num - file[1];
      } else if (name === 'a' || name === 't') {
        type = (name === 'a') === (v.stage === 'vs') ? REG.addrOrTexture : undefined;
      } else if (name === 'oT' || name === 'o') {
        type = (name === 'o') === (v.stage === 'vs' && v.major >= 3) ? REG.texcrdOut : undefined;
      }
      if (type === undefined)
        throw c.fail('E903_ASM_REGISTER', `${name}${num} is no register of ${versionName(v)}`, start);
      if (n > 0x7ff || (name === 'c' && num >= 8192))
        throw c.fail('E906_ASM_LITERAL', `register number ${num} is past the 11-bit field`, start);
      reg = { type, num: n };
    }
  }
  const why = unavailable(reg, v);
  if (why !== undefined) throw c.fail('E903_ASM_REGISTER', `${c.s.slice(start, c.i)} ${why}`, start);
  return reg;
}

/**
 * Is the register one of this version's (the Direct3D 9 assembly reference's register tables)? Register files
 * and temp counts; undefined when it is. The software versions (_sw) and unnamed types (?N_M) are not checked.
 */
export function unavailable(reg: Register, v: Version): string | undefined {
  if (v.minor === 0xff || reg.type > REG.predicate) return undefined;
  const vs = v.stage === 'vs';
  const m = v.major;
  const sm2x = m > 2 || (m === 2 && v.minor >= 1);
  let ok: boolean;
  switch (reg.type) {
    case REG.rastOut:
    case REG.attrOut:
      ok = vs && m < 3;
      break;
    case REG.texcrdOut:
      ok = vs || v.library;
      break;
    case REG.colorOut:
    case REG.depthOut:
      ok = !vs && m >= 2;
      break;
    case REG.constInt:
    case REG.constBool:
    case REG.label:
      ok = m >= 2 && (vs || sm2x);
      break;
    case REG.loop:
      ok = m >= 2 && (vs || m >= 3);
      break;
    case REG.predicate:
      ok = sm2x;
      break;
    case REG.sampler:
      ok = vs ? m >= 3 : m >= 2;
      break;
    case REG.misc:
      ok = !vs && m >= 3;
      break;
    case REG.tempFloat16:
      ok = false;
      break;
    default:
      ok = true;
  }
  if (!ok) return `does not exist in ${versionName(v)}`;
  if (reg.type === REG.temp) {
    const temps = vs ? (sm2x ? 32 : 12) : m === 1 ? (v.minor >= 4 ? 6 : 2) : sm2x ? 32 : 12;
    if (reg.num >= temps) return `is past the ${temps} temporary registers of ${versionName(v)}`;
  }
  return undefined;
}

function relAddress(c: Cursor, v: Version): Rel | undefined {
  if (!c.eat('[')) return undefined;
  const at = c.i;
  const reg = register(c, v);
  let component = 0;
  if (reg.type !== REG.loop) {
    c.expect('.', 'the address component (.x)');
    component = LANES.indexOf(c.peek());
    if (component < 0) throw c.fail('E901_ASM_SYNTAX', `expected x, y, z or w, found ${c.found()}`);
    c.i++;
  }
  c.expect(']');
  return { ...reg, component, at };
}

const PRECISIONS: readonly string[] = ['', ' {min16f}', ' {min2_8f}', ' {min?}'];

function precision(c: Cursor): number {
  for (let p = PRECISIONS.length - 1; p > 0; p--) if (c.eat(PRECISIONS[p]!)) return p;
  return 0;
}

function lanes(c: Cursor): string {
  if (!c.eat('.')) return '';
  return c.word(/[xyzw]/);
}

function destination(c: Cursor, v: Version): Dst {
  const reg = register(c, v);
  const rel = relAddress(c, v);
  let mask = 0xf;
  const at = c.i;
  if (c.peek() === '.') {
    const l = lanes(c);
    mask = 0;
    let last = -1;
    for (const ch of l) {
      const i = LANES.indexOf(ch);
      if (i <= last)
        throw c.fail(
          'E905_ASM_MASK',
          `${JSON.stringify('.' + l)} is a swizzle, not a write mask (x, y, z, w in order)`,
          at,
        );
      last = i;
      mask |= 1 << i;
    }
  }
  return { ...reg, mask, rel, precision: precision(c) };
}

function typeBits(type: number): number {
  return ((type & 7) << 28) | ((type & 0x18) << 8);
}

function dstToken(d: Dst, modifiers: number, shift: number): number {
  return (
    (0x80000000 |
      typeBits(d.type) |
      d.num |
      (d.rel !== undefined ? 0x2000 : 0) |
      (d.precision << 14) |
      (d.mask << 16) |
      (modifiers << 20) |
      (shift << 24)) >>>
    0
  );
}

/** The address token (Shader Model 2 and up): a0 with its component replicated, or aL with the identity swizzle. */
function relToken(rel: Rel, v: Version, out: number[], c: Cursor): void {
  if (v.major < 2) {
    // vs_1_1 addresses through a0.x only, with no token
    if (rel.type !== REG.addrOrTexture || rel.num !== 0 || rel.component !== 0)
      throw c.fail('E903_ASM_REGISTER', `${versionName(v)} addresses relatively through a0.x only`, rel.at);
    return;
  }
  out.push(addressToken(rel));
}

/** The address token the assembler writes (and fxc does): a0 with its component replicated, aL with the identity swizzle. */
export function addressToken(rel: Register & { readonly component: number }): number {
  const swizzle = rel.type === REG.loop ? 0xe4 : rel.component * 0x55;
  return (0x80000000 | typeBits(rel.type) | rel.num | (swizzle << 16)) >>> 0;
}

/** Source modifier spellings: prefix, suffix → D3DSHADER_PARAM_SRCMOD_TYPE. */
const MOD_BY_TEXT = new Map<string, number>();
SOURCE_MODIFIERS.forEach((m, i) => {
  if (m !== undefined) MOD_BY_TEXT.set(`${m[0]}|${m[1]}`, i);
});
const SUFFIXES = ['_bias', '_bx2', '_x2', '_dz', '_dw', '_abs'];

function source(c: Cursor, v: Version, out: number[]): void {
  const start = c.i;
  let pre = '';
  if (c.eat('1 - ')) pre = '1 - ';
  else if (c.eat('-')) pre = '-';
  else if (c.eat('!')) pre = '!';
  const reg = register(c, v);
  const rel = relAddress(c, v);
  let post = '';
  for (const s of SUFFIXES)
    if (c.startsWith(s)) {
      post = s;
      c.i += s.length;
      break;
    }
  if (post === '' && c.startsWith('_mod')) {
    c.i += 4;
    post = `_mod${c.count('a source modifier', 15)}`;
  }
  const modifier = post.startsWith('_mod') ? Number(post.slice(4)) : MOD_BY_TEXT.get(`${pre}|${post}`);
  if (modifier === undefined || (post.startsWith('_mod') && pre !== ''))
    throw c.fail('E901_ASM_SYNTAX', `${JSON.stringify(pre + '…' + post)} is no source modifier`, start);
  let swizzle = 0xe4;
  const at = c.i;
  if (c.peek() === '.') {
    const l = lanes(c);
    if (l.length === 1) swizzle = LANES.indexOf(l) * 0x55;
    else if (l.length === 4) swizzle = [...l].reduce((s, ch, i) => s | (LANES.indexOf(ch) << (2 * i)), 0);
    else
      throw c.fail(
        'E905_ASM_MASK',
        `${JSON.stringify('.' + l)} on a source: a source takes a swizzle (one lane or four), not a mask`,
        at,
      );
  }
  const prec = precision(c);
  out.push(
    (0x80000000 |
      typeBits(reg.type) |
      reg.num |
      (rel !== undefined ? 0x2000 : 0) |
      (prec << 14) |
      (swizzle << 16) |
      (modifier << 24)) >>>
      0,
  );
  if (rel !== undefined) relToken(rel, v, out, c);
}

/** def (%.9g or 0x%08x), defi (a signed decimal) and defb (true, false) values. */
function value(c: Cursor, shape: 'def' | 'defi' | 'defb'): number {
  const t = c.s;
  if (shape === 'defb') {
    if (t === 'true') return 1;
    if (t === 'false') return 0;
    throw c.fail('E906_ASM_LITERAL', `defb takes true or false, found ${JSON.stringify(t)}`);
  }
  if (shape === 'defi') {
    if (!/^-?[0-9]+$/.test(t))
      throw c.fail('E906_ASM_LITERAL', `defi takes decimal integers, found ${JSON.stringify(t)}`);
    const n = Number(t);
    if (n < -0x80000000 || n > 0x7fffffff)
      throw c.fail('E906_ASM_LITERAL', `${t} does not fit a signed 32-bit integer`);
    return n >>> 0;
  }
  const special = SPECIAL_FLOATS[t];
  if (special !== undefined) return special;
  if (/^0x[0-9a-fA-F]{8}$/.test(t)) return parseInt(t.slice(2), 16) >>> 0;
  if (/^-?[0-9]+(\.[0-9]+)?(e[+-][0-9]{3})?$/.test(t)) {
    const bits = decimalToFloatBits(t);
    if ((bits & 0x7f800000) === 0x7f800000)
      throw c.fail('E906_ASM_LITERAL', `${t} is past the largest float (3.40282347e+038)`);
    return bits;
  }
  throw c.fail('E906_ASM_LITERAL', `${JSON.stringify(t)} is no def value (%.9g or 0x%08x)`);
}

/** %.9g's spellings of infinities and NaNs (the payload of a NaN is not printed: the quiet or signalling default). */
const SPECIAL_FLOATS: Readonly<Record<string, number>> = {
  '1.#INF': 0x7f800000,
  '-1.#INF': 0xff800000,
  '1.#QNAN': 0x7fc00000,
  '-1.#QNAN': 0xffc00000,
  '1.#SNAN': 0x7f800001,
  '-1.#SNAN': 0xff800001,
};

/** Does the printer write a usage for this dcl (operands.ts's dclMnemonic)? */
export function printsUsage(type: number, v: Version): boolean {
  return (v.stage === 'vs' || v.major >= 3) && (type === REG.input || type === REG.texcrdOut);
}

/** dcl's usage token: bit 31, the usage and index (bits 0-4, 16-19) or the sampler type (27-30); 0 where the printer writes neither. */
function dclToken(c: Cursor, part: string, dst: Dst, v: Version): number {
  if (dst.type === REG.sampler) {
    const i = SAMPLER_TYPES.indexOf(part);
    const m = /^type([0-9]+)$/.exec(part);
    const type = i > 0 ? i : m ? Number(m[1]) : -1;
    if (type < 0 || type > 15)
      throw c.fail('E902_ASM_MNEMONIC', `a sampler's dcl takes its texture type (dcl_2d, dcl_cube, dcl_volume)`, 0);
    return (0x80000000 | (type << 27)) >>> 0;
  }
  if (!printsUsage(dst.type, v)) {
    if (part !== '') throw c.fail('E902_ASM_MNEMONIC', `this register's dcl takes no usage in ${versionName(v)}`, 0);
    return 0x80000000;
  }
  const m = /^([a-z]+)([0-9]*)$/.exec(part);
  let usage = m ? USAGES.indexOf(m[1]!) : -1;
  let digits = m?.[2] ?? '';
  if (m && m[1] === 'usage' && digits !== '') {
    // usage${u}${index} for a usage without a name (14-31): two digits of usage, the rest the index
    usage = Number(digits.slice(0, 2));
    digits = digits.slice(2);
    if (usage < USAGES.length || usage > 31) usage = -1;
  }
  if (usage < 0)
    throw c.fail('E902_ASM_MNEMONIC', `${JSON.stringify(part)} is no dcl usage (position, texcoord1, ...)`, 0);
  if (digits.startsWith('0') || (digits !== '' && Number(digits) > 15))
    throw c.fail('E906_ASM_LITERAL', `usage index ${digits} is not 1-15 (index 0 is printed without a number)`, 0);
  return (0x80000000 | usage | (Number(digits || '0') << 16)) >>> 0;
}
