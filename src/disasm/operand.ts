// Printing one Shader Model 4/5 operand as D3DDisassemble does: register name and indices (the
// first index joined to the name, the others in brackets; vertex arrays bracket all), component
// mask, swizzle or single component, modifiers (-, |..|), minimum-precision notes and literals
// (through literal.ts).

import type { Operand, OperandIndex } from '../sm4/types.js';
import { formatDouble, formatFloatBits, formatHex, formatInt, formatUntyped, type Crt } from './literal.js';
import { MIN_PRECISION, REGISTER_NAMES, REGISTER_NAMES_51 } from './names.js';

const LANES = 'xyzw';

import type { Era } from './era.js';

export interface OperandContext {
  /** Shader Model 5.1: binding registers print with upper-case names and all their indices. */
  readonly is51: boolean;
  /** Flag 0x80: literals in hexadecimal. */
  readonly hex: boolean;
  /** The listing's era (era.ts); today's when absent. */
  readonly era?: Era;
}

/** How the literals of an operand print: `f` float, `i`/`u` integer, `d` double, `x` untyped. */
export type LiteralKind = string;

/** Suffixes by the operand token's bits 2-11 (selection mode and mask or swizzle), built on first use. */
const SUFFIXES: (string | undefined)[] = new Array<string | undefined>(1024).fill(undefined);

export function componentSuffix(op: Operand): string {
  if (op.numComponents !== 2) return '';
  const key = (op.token >>> 2) & 0x3ff;
  const cached = SUFFIXES[key];
  if (cached !== undefined) return cached;
  const s = buildSuffix(op);
  SUFFIXES[key] = s;
  return s;
}

function buildSuffix(op: Operand): string {
  if (op.selectionMode === 0) {
    if (op.mask === 0) return '';
    let s = '.';
    for (let i = 0; i < 4; i++) if (op.mask & (1 << i)) s += LANES[i];
    return s;
  }
  if (op.selectionMode === 2) return `.${LANES[op.swizzle[0]]}`;
  const w = op.swizzle;
  return `.${LANES[w[0]]}${LANES[w[1]]}${LANES[w[2]]}${LANES[w[3]]}`;
}

/** Decimal strings of small numbers (register numbers and indices). */
const SMALL: readonly string[] = Array.from({ length: 4096 }, (_, i) => String(i));

function printIndex(ix: OperandIndex, ctx: OperandContext): string {
  const imm = ix.rep === 1 || ix.rep === 4 ? ix.imm + ix.immHi * 2 ** 32 : ix.imm >>> 0;
  if (ix.rel === undefined) return SMALL[imm] ?? String(imm);
  const rel = printOperand(ix.rel, ctx, 'i');
  return `${rel} + ${imm}`;
}

/**
 * The text of registers with one immediate index below 4096 ('r12', 'v3', 'icb[5]'), by the
 * operand type (plus 64 for Shader Model 5.1's spellings) and the index, built on first use. Nine
 * register operands in ten are of this form; the table is bounded by the format (64 types, 4096
 * indices), not by the programs printed.
 */
const ONE_INDEX: ((string | undefined)[] | undefined)[] = new Array<undefined>(128).fill(undefined);

/** Register name and indices, without components or modifiers. */
export function registerText(op: Operand, ctx: OperandContext): string {
  const ix = op.indices;
  if (ix.length === 1 && op.type < 64) {
    const x = ix[0]!;
    const imm = x.rep === 1 ? x.imm + x.immHi * 2 ** 32 : x.imm >>> 0;
    if (x.rel === undefined && imm < 4096) {
      const key = ctx.is51 ? op.type + 64 : op.type;
      // Each row made whole at once (filled, not grown with holes, which would make it a dictionary).
      const row = (ONE_INDEX[key] ??= new Array<string | undefined>(4096).fill(undefined));
      return (row[imm] ??= registerTextOf(op, ctx));
    }
  }
  return registerTextOf(op, ctx);
}

function registerTextOf(op: Operand, ctx: OperandContext): string {
  const name51 = ctx.is51 ? REGISTER_NAMES_51[op.type] : undefined;
  const name = name51 ?? REGISTER_NAMES[op.type] ?? `<type${op.type}>`;
  const ix = op.indices;
  if (ix.length === 0) return name;
  // Control-point arrays, the immediate constant buffer and a two-dimensional input bracket every index.
  const bracketAll =
    op.type === 25 || op.type === 26 || op.type === 9 || op.type === 29 || (op.type === 1 && ix.length === 2);
  let s = name;
  for (let i = 0; i < ix.length; i++) {
    const x = ix[i]!;
    if (i === 0 && !bracketAll && x.rel === undefined) s += printIndex(x, ctx);
    else s += `[${printIndex(x, ctx)}]`;
  }
  return s;
}

/**
 * Texts of immediate32 literals of one or four lanes, direct-mapped by their words, the literal
 * kind, flag 0x80 and the C runtime (4,096 slots, each holding its last key; meta 0: empty):
 * literals repeat (l(0, 0, 0, 0), l(1.000000, 1.000000, 1.000000, 1.000000)) and each was made
 * lane by lane again.
 */
const LITERAL_SLOTS = 4096;
const LITERAL_WORDS = new Int32Array(LITERAL_SLOTS * 4);
const LITERAL_META = new Int32Array(LITERAL_SLOTS);
const LITERAL_TEXTS: string[] = new Array<string>(LITERAL_SLOTS).fill('');

function literalText(op: Operand, kind: LiteralKind, ctx: OperandContext): string {
  const v = op.values ?? [];
  const crt = ctx.era?.crt ?? 'ucrt';
  if (op.type === 5) {
    const parts: string[] = [];
    if (ctx.hex) return `d(${v.map(formatHex).join(', ')})`;
    for (let i = 0; i + 1 < v.length; i += 2) parts.push(`${formatDouble(v[i]!, v[i + 1]!, crt)}l`);
    return `d(${parts.join(', ')})`;
  }
  const n = v.length;
  if ((n !== 1 && n !== 4) || kind.length !== 1) return lanesText(v, kind, ctx.hex, crt);
  const meta = n | (kind.charCodeAt(0) << 3) | (ctx.hex ? 1 << 20 : 0) | (crt === 'msvcrt' ? 1 << 21 : 0);
  const a = v[0]! | 0;
  const b = n === 4 ? v[1]! | 0 : 0;
  const c = n === 4 ? v[2]! | 0 : 0;
  const d = n === 4 ? v[3]! | 0 : 0;
  const slot =
    Math.imul(a ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35) ^ Math.imul(d, 0x27d4eb2f) ^ meta, 0x9e3779b1) >>>
    20;
  const w = slot * 4;
  if (
    LITERAL_META[slot] === meta &&
    LITERAL_WORDS[w] === a &&
    LITERAL_WORDS[w + 1] === b &&
    LITERAL_WORDS[w + 2] === c &&
    LITERAL_WORDS[w + 3] === d
  )
    return LITERAL_TEXTS[slot]!;
  const text = lanesText(v, kind, ctx.hex, crt);
  LITERAL_META[slot] = meta;
  LITERAL_WORDS[w] = a;
  LITERAL_WORDS[w + 1] = b;
  LITERAL_WORDS[w + 2] = c;
  LITERAL_WORDS[w + 3] = d;
  LITERAL_TEXTS[slot] = text;
  return text;
}

/** l(...) of immediate32 lanes. */
function lanesText(v: readonly number[], kind: LiteralKind, hex: boolean, crt: Crt): string {
  // Untyped lanes join with ',' and typed ones with ', ', in hexadecimal too.
  const sep = kind === 'x' ? ',' : ', ';
  let s = 'l(';
  let text = '';
  for (let i = 0; i < v.length; i++) {
    // Nearly half the lanes repeat the one before (l(1.000000, 1.000000, ...)): its text is reused.
    if (i === 0 || v[i] !== v[i - 1]) text = laneText(v[i]!, kind, hex, crt);
    s += i ? sep + text : text;
  }
  return `${s})`;
}

/** One lane of an immediate32 literal. */
function laneText(w: number, kind: LiteralKind, hex: boolean, crt: Crt): string {
  if (hex) return formatHex(w);
  if (kind === 'x') return formatUntyped(w, crt);
  if (kind === 'f' || kind === 'd') return formatFloatBits(w, crt);
  return formatInt(w);
}

/**
 * Texts of plain register operands ('r3.xyzw', 'cb0[2].x': one immediate index below 4096, no
 * modifier, no note), alone and after ', ', in a direct-mapped cache of 16,384 slots keyed by the
 * token's bits 0-11 (components, selection, mask or swizzle), the type (plus 64 for Shader Model
 * 5.1) and the index: a line's operands are then appended without a string made per operand and
 * per separator. A slot holds its last key (-1: empty); the comma form is made on its first use.
 */
const PLAIN_SLOTS = 1 << 14;
const PLAIN_KEYS = new Int32Array(PLAIN_SLOTS).fill(-1);
const PLAIN_TEXTS: string[] = new Array<string>(PLAIN_SLOTS).fill('');
const PLAIN_COMMA_TEXTS: (string | undefined)[] = new Array<string | undefined>(PLAIN_SLOTS).fill(undefined);

/**
 * The text of a plain register operand, after ', ' when `comma`; undefined for any other operand
 * (literals, modifiers, non-uniform notes, relative or large indices), which printOperand prints.
 */
export function plainOperandText(op: Operand, ctx: OperandContext, comma: boolean): string | undefined {
  const ix = op.indices;
  if (ix.length !== 1 || op.type >= 64 || op.modifier !== 0 || op.nonUniform) return undefined;
  const x = ix[0]!;
  if (x.rep !== 0 || x.rel !== undefined || x.imm >= 4096) return undefined;
  // 12 + 7 + 12 bits: a non-negative 31-bit key.
  const key = ((op.token & 0xfff) * 128 + (ctx.is51 ? op.type + 64 : op.type)) * 4096 + x.imm;
  const slot = Math.imul(key, 0x9e3779b1) >>> 18;
  if (PLAIN_KEYS[slot] !== key) {
    PLAIN_KEYS[slot] = key;
    PLAIN_TEXTS[slot] = registerText(op, ctx) + componentSuffix(op);
    PLAIN_COMMA_TEXTS[slot] = undefined;
  }
  if (!comma) return PLAIN_TEXTS[slot]!;
  return (PLAIN_COMMA_TEXTS[slot] ??= `, ${PLAIN_TEXTS[slot]!}`);
}

/** The operand as printed, with modifiers. `kind` decides literal formatting. */
export function printOperand(op: Operand, ctx: OperandContext, kind: LiteralKind, precisionNote = ''): string {
  let s = op.type === 4 || op.type === 5 ? literalText(op, kind, ctx) : registerText(op, ctx) + componentSuffix(op);
  // The notes sit inside the modifiers: |v0.x {min16f as def32}|.
  if (op.nonUniform) s += ' { nonuniform }';
  if (precisionNote) s += ` {${precisionNote}}`;
  if (op.modifier & 2) s = `|${s}|`;
  if (op.modifier & 1) s = `-${s}`;
  return s;
}

/** The precision name of an operand ('' for default 32-bit). */
export function precisionName(op: Operand): string {
  return MIN_PRECISION[op.minPrecision] ?? '';
}
