// Operands as the disassembler prints them (src/disasm/operand.ts), read back into their tokens:
// the register name (the printer's own tables, names.ts, inverted), indices (the first joined to
// the name, the others and every relative one in brackets: `r0.x + 3`), the component suffix (a
// write mask, a four-lane swizzle or one selected lane), the modifiers `-` and `|..|`, the notes
// `{ nonuniform }` and `{min16f as def32}`, and the literals l(..) and d(..).
//
// What the text does not spell, the slot does: a destination's suffix is a mask, a source's one
// lane a selection and four a swizzle; a register printed without a suffix has no components, or
// one for the one-lane registers (facts of every program of ../shared, docs/assemble.md); a
// relative index with offset 0 is written relative only (representation 2), with another offset
// immediate plus relative (3), as fxc writes them.

import { MIN_PRECISION, REGISTER_NAMES, REGISTER_NAMES_51 } from '../disasm/names.js';
import { Cursor, doubleWords, laneBits } from './text.js';

export interface IndexText {
  /** The immediate part (0 when the index is relative only). */
  readonly imm: number;
  readonly rel?: OperandText;
}

export interface OperandText {
  /** The column (0-based, in the statement) where the operand starts. */
  readonly at: number;
  readonly type: number;
  /** 'reg', or an immediate: 'l' (32-bit lanes) or 'd' (doubles). */
  readonly form: 'reg' | 'l' | 'd';
  readonly indices: IndexText[];
  /** The suffix's lanes (`xyzw`), '' when none is printed. */
  readonly lanes: string;
  readonly values: number[];
  readonly modifier: number;
  readonly minPrecision: number;
  readonly nonUniform: boolean;
}

/** Register names to operand types: both spellings of the binding registers (t0 and 5.1's T0). */
const REGISTERS = new Map<string, number>();
REGISTER_NAMES.forEach((n, t) => n !== undefined && REGISTERS.set(n, t));
REGISTER_NAMES_51.forEach((n, t) => n !== undefined && REGISTERS.set(n, t));

/** Precision names (min16f ..) to the extended operand token's field; def32 is 0. */
const PRECISIONS = new Map<string, number>([['def32', 0]]);
MIN_PRECISION.forEach((n, i) => n !== '' && !PRECISIONS.has(n) && PRECISIONS.set(n, i));

/** Register types first defined in Shader Model 5.0 (interfaces, hull and domain registers, coverage, depth tests, stencil reference). */
const SM5_REGISTERS: ReadonlySet<number> = new Set([
  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 35, 37, 38, 39, 40, 41, 42,
]);

/** Reads the register name at the cursor: an operand type, or an error naming the text. */
export function registerType(c: Cursor, major: number): number {
  const at = c.i;
  const name = c.word(/[A-Za-z]/);
  const type = REGISTERS.get(name);
  if (type === undefined)
    throw c.fail(
      'E903_ASM_REGISTER',
      name === '' ? `expected an operand, found ${c.found()}` : `no register ${name}`,
      at,
    );
  if (major < 5 && SM5_REGISTERS.has(type))
    throw c.fail('E903_ASM_REGISTER', `register ${name} does not exist before Shader Model 5.0`, at);
  return type;
}

/** One operand at the cursor (stops before the ',' or the end). */
export function readOperand(c: Cursor, major: number, untyped = false): OperandText {
  const at = c.i;
  let modifier = 0;
  if (c.eat('-')) modifier |= 1;
  const abs = c.eat('|');
  if (abs) modifier |= 2;
  let form: OperandText['form'] = 'reg';
  let type: number;
  const values: number[] = [];
  const indices: IndexText[] = [];
  let lanes = '';
  if (c.startsWith('l(') || c.startsWith('d(')) {
    form = c.peek() as 'l' | 'd';
    type = form === 'l' ? 4 : 5;
    c.i += 2;
    readLanes(c, form, values, untyped, at);
  } else {
    type = registerType(c, major);
    if (/[0-9]/.test(c.peek())) indices.push({ imm: c.count('an index') });
    while (c.peek() === '[') indices.push(readIndex(c, major));
    if (c.peek() === '.') {
      c.i++;
      lanes = c.word(/[xyzw]/);
      if (lanes === '' || lanes.length > 4)
        throw c.fail('E905_ASM_MASK', 'a component suffix has one to four of x, y, z, w');
    }
  }
  let nonUniform = false;
  let minPrecision = 0;
  if (c.startsWith(' { nonuniform }')) {
    c.i += ' { nonuniform }'.length;
    nonUniform = true;
  }
  if (c.startsWith(' {')) {
    c.i += 2;
    const p = c.i;
    const own = c.word(/[a-z0-9_]/);
    const n = PRECISIONS.get(own);
    if (n === undefined) throw c.fail('E901_ASM_SYNTAX', `no minimum precision ${JSON.stringify(own)}`, p);
    minPrecision = n;
    // `{min16f as def32}`: the operand's own precision, then the one it is converted to (printed, not stored).
    if (c.eat(' as ')) {
      const q = c.i;
      if (!PRECISIONS.has(c.word(/[a-z0-9_]/))) throw c.fail('E901_ASM_SYNTAX', 'no minimum precision after "as"', q);
    }
    c.expect('}');
  }
  if (abs) c.expect('|', 'the closing "|"');
  return { at, type, form, indices, lanes, values, modifier, minPrecision, nonUniform };
}

function readIndex(c: Cursor, major: number): IndexText {
  c.expect('[');
  let index: IndexText;
  if (/[0-9]/.test(c.peek())) index = { imm: c.count('an index') };
  else {
    const rel = readOperand(c, major);
    c.expect(' + ', '" + " and the offset of a relative index');
    index = { imm: c.count('an index offset'), rel };
  }
  c.expect(']');
  return index;
}

function readLanes(c: Cursor, form: 'l' | 'd', out: number[], untyped: boolean, start: number): void {
  for (;;) {
    c.ws();
    const at = c.i;
    const t = c.word(/[^,)\s]/);
    if (t === '') throw c.fail('E906_ASM_LITERAL', `expected a literal, found ${c.found()}`);
    if (form === 'd' && !t.startsWith('0x')) out.push(...doubleWords(t, c, at));
    else out.push(laneBits(t, c, at, untyped));
    if (c.eat(')')) break;
    c.expect(',', '"," or ")" in a literal');
  }
  const n = out.length;
  const ok = form === 'l' ? n === 1 || n === 4 : n === 2 || n === 4;
  if (!ok)
    throw c.fail(
      'E906_ASM_LITERAL',
      `a literal has 1 or 4 lanes (a double literal one or two doubles), not ${n} words`,
      start,
    );
}

/** How the slot reads a suffix: a write mask, a source's selection or swizzle, a relative index's lane. */
export type SlotKind = 'mask' | 'source' | 'declaration';

/** One-lane registers printed without a suffix in instructions: vPrim, oDepth, oMask, vOutputControlPointID, oDepthGE/LE, oStencilRef. */
const ONE_LANE_INSTRUCTION: ReadonlySet<number> = new Set([11, 12, 15, 22, 38, 39, 41]);
/** ... and in declarations: oDepth, vCoverage, oDepthGE/LE, oStencilRef, vInnerCoverage (oMask is declared with none). */
const ONE_LANE_DECLARATION: ReadonlySet<number> = new Set([12, 35, 38, 39, 41, 42]);

const LANE = { x: 0, y: 1, z: 2, w: 3 } as Readonly<Record<string, number>>;

/**
 * The operand token's bits 0-11 (components, selection mode, mask or swizzle). `swizzled`: a
 * register declared with the identity swizzle it never prints (constant buffers; 5.1 bindings).
 */
function components(c: Cursor, op: OperandText, slot: SlotKind, swizzled: boolean): number {
  if (op.form !== 'reg') return op.values.length === (op.form === 'l' ? 1 : 2) ? 1 : 2;
  const l = op.lanes;
  if (l === '') {
    if (swizzled) return 2 | (1 << 2) | (0xe4 << 4);
    const one = slot === 'declaration' ? ONE_LANE_DECLARATION : ONE_LANE_INSTRUCTION;
    return one.has(op.type) ? 1 : 0;
  }
  if (slot === 'source' && (l.length === 1 || l.length === 4)) {
    if (l.length === 1) return 2 | (2 << 2) | (LANE[l]! << 4);
    let sw = 0;
    for (let i = 0; i < 4; i++) sw |= LANE[l[i]!]! << (2 * i);
    return 2 | (1 << 2) | (sw << 4);
  }
  if (slot === 'source')
    throw c.fail('E905_ASM_MASK', `a source selects one lane or swizzles four, not a mask .${l}`, op.at);
  let mask = 0;
  let last = -1;
  for (const ch of l) {
    const k = LANE[ch]!;
    if (k <= last)
      throw c.fail('E905_ASM_MASK', `.${l} is no write mask (its lanes are in the order x, y, z, w)`, op.at);
    last = k;
    mask |= 1 << k;
  }
  return 2 | (mask << 4);
}

/** Writes the operand's words (token, extended token, immediates, indices). */
export function encodeOperand(c: Cursor, op: OperandText, slot: SlotKind, out: number[], swizzled = false): void {
  const reps: number[] = [];
  for (const ix of op.indices) reps.push(ix.rel === undefined ? 0 : ix.imm === 0 ? 2 : 3);
  if (op.indices.length > 3) throw c.fail('E903_ASM_REGISTER', 'an operand has at most three indices', op.at);
  const ext = op.modifier !== 0 || op.minPrecision !== 0 || op.nonUniform;
  let token = components(c, op, slot, swizzled) | (op.type << 12) | (op.indices.length << 20);
  reps.forEach((r, d) => (token |= r << (22 + 3 * d)));
  if (ext) token |= 0x80000000;
  out.push(token >>> 0);
  if (ext) out.push((1 | (op.modifier << 6) | (op.minPrecision << 14) | (op.nonUniform ? 1 << 17 : 0)) >>> 0);
  for (const v of op.values) out.push(v >>> 0);
  for (const ix of op.indices) {
    if (ix.rel === undefined || ix.imm !== 0) out.push(ix.imm >>> 0);
    if (ix.rel !== undefined) encodeOperand(c, ix.rel, 'source', out);
  }
}
