// The assembler's view of one listing line: a cursor over the statement's text that knows where
// the text sits in the listing (line, column, the line itself), so that every refusal points at
// the place it found. Literal spellings are read here too: the decimal, hexadecimal and %f forms
// the disassembler's literal.ts writes, each put back into the exact bit pattern it names, or, for
// a float printed with fewer digits than it needs, into the nearest float of the printed decimal.

import { IridiaError, type ErrorCode } from '../errors.js';

/** A listing line the assembler cannot put back: the code, the place (1-based) and the line's text. */
export class AsmError extends IridiaError {
  readonly line: number;
  readonly column: number;
  readonly text: string;
  constructor(code: ErrorCode, reason: string, line: number, column: number, text: string) {
    super(code, `line ${line}, column ${column}: ${reason}\n  ${text}\n  ${' '.repeat(Math.max(0, column - 1))}^`);
    this.line = line;
    this.column = column;
    this.text = text;
    // The reason alone, as every IridiaError carries it (the message adds the place and the caret).
    Object.defineProperty(this, 'reason', { value: reason });
  }
}

/** The flag-word prefixes: `   3: `, `   3  0x0000001C: `, `      0x0000001C: `, `0x0000001C: ` and 0x04's six spaces. */
const PREFIX = /^ *(?:[0-9]+(?:: | {2}))?(?:0x[0-9A-Fa-f]{8}: )? */;

/** One listing line as a statement: the line (without its \r), the column its statement starts at (after the
 *  0x04/0x20 prefix and the indentation) and the statement; undefined for a comment, a blank or a #line line. */
export function statementOf(raw: string): { text: string; base: number; s: string } | undefined {
  // the comment header, the most lines of a listing, is skipped before any other look
  if (raw.charCodeAt(0) === 0x2f && raw.charCodeAt(1) === 0x2f) return undefined;
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const base = PREFIX.exec(text)![0].length;
  const s = text.slice(base);
  if (s === '' || s.startsWith('//') || s.startsWith('#line')) return undefined;
  return { text, base, s };
}

/** A sticky regular expression matching a run of each character class word() is asked for. */
const RUNS = new Map<string, RegExp>();

/** The statement being read: `s` is the line's text from `base` (its column offset) on. */
export class Cursor {
  i = 0;
  constructor(
    readonly s: string,
    readonly line: number,
    readonly base: number,
    readonly text: string,
  ) {}

  fail(code: ErrorCode, reason: string, at = this.i): AsmError {
    return new AsmError(code, reason, this.line, this.base + at + 1, this.text);
  }
  get done(): boolean {
    return this.i >= this.s.length;
  }
  peek(n = 0): string {
    return this.s[this.i + n] ?? '';
  }
  ws(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }
  startsWith(t: string): boolean {
    return this.s.startsWith(t, this.i);
  }
  eat(t: string): boolean {
    if (!this.s.startsWith(t, this.i)) return false;
    this.i += t.length;
    return true;
  }
  expect(t: string, what = JSON.stringify(t)): void {
    if (!this.eat(t)) throw this.fail('E901_ASM_SYNTAX', `expected ${what}, found ${this.found()}`);
  }
  /** A word of the given characters (a one-character class; letters by default). */
  word(re = /[A-Za-z_]/): string {
    // keyed by the class's text: a literal in a function body is a new RegExp each time it runs
    let run = RUNS.get(re.source);
    if (run === undefined) RUNS.set(re.source, (run = new RegExp(`${re.source}*`, 'y')));
    run.lastIndex = this.i;
    run.test(this.s);
    const start = this.i;
    this.i = run.lastIndex;
    return this.s.slice(start, this.i);
  }
  /** What stands at the cursor, for messages. */
  found(): string {
    if (this.done) return 'the end of the line';
    return JSON.stringify(this.s.slice(this.i, this.i + 12));
  }
  /** An unsigned decimal count (register numbers, counts, strides), at most 2^32 - 1 unless `max` says. */
  count(what: string, max = 0xffffffff): number {
    const start = this.i;
    const d = this.word(/[0-9]/);
    if (d === '') throw this.fail('E901_ASM_SYNTAX', `expected ${what}, found ${this.found()}`);
    const n = Number(d);
    if (n > max) throw this.fail('E906_ASM_LITERAL', `${what} ${d} is past ${max}`, start);
    return n;
  }
  end(): void {
    this.ws();
    if (!this.done) throw this.fail('E901_ASM_SYNTAX', `unexpected ${this.found()} after the statement`);
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new Uint32Array(f64.buffer);

/** The bits of a float. */
export function floatBits(x: number): number {
  f32[0] = x;
  return u32[0]!;
}

/** The sign of (decimal text - m), exactly (text: digits with an optional point, no sign). */
function compareDecimal(text: string, m: number): number {
  const [int = '', frac = ''] = text.split('.');
  const num = BigInt(int + frac || '0');
  const den = 10n ** BigInt(frac.length);
  // m = mantissa * 2^exp exactly (a double).
  let exp = 0;
  let mant = m;
  while (!Number.isInteger(mant)) {
    mant *= 2;
    exp--;
  }
  let lhs = num;
  const rhs = BigInt(mant) * den;
  if (exp < 0) lhs <<= BigInt(-exp);
  return lhs > rhs ? 1 : lhs < rhs ? -1 : 0;
}

/** The float nearest the decimal `text` (ties to even), as bits: one rounding, not two. */
export function decimalToFloatBits(text: string): number {
  const neg = text.startsWith('-');
  const abs = neg || text.startsWith('+') ? text.slice(1) : text;
  const d = Number(abs);
  let f = Math.fround(d);
  if (f !== d && Number.isFinite(f)) {
    // Decimal to double to float rounds twice; only a double exactly halfway between two floats
    // can make that differ from the decimal's own nearest float: decide it on the exact decimal.
    const g = nextFloat(f, d > f);
    const mid = (f + g) / 2;
    if (d === mid) {
      const cmp = compareDecimal(abs, mid);
      const lo = Math.min(f, g);
      const hi = Math.max(f, g);
      if (cmp > 0) f = hi;
      else if (cmp < 0) f = lo;
      else f = (floatBits(lo) & 1) === 0 ? lo : hi;
    }
  }
  return (floatBits(f) | (neg ? 0x80000000 : 0)) >>> 0;
}

/** The float after (or before) f, toward `up`. */
function nextFloat(f: number, up: boolean): number {
  const b = floatBits(f);
  const positive = f > 0 || (f === 0 && up);
  f32[0] = 0;
  u32[0] = f === 0 ? (up ? 1 : 0x80000001) : up === positive ? b + 1 : b - 1;
  return f32[0]!;
}

/** Special %f spellings of the old C runtime that literal.ts writes for infinities and NaNs. */
const SPECIAL_FLOATS: Readonly<Record<string, number>> = {
  '1.#INF00': 0x7f800000,
  '-1.#INF00': 0xff800000,
  '1.#QNAN0': 0x7fc00000,
  '-1.#QNAN0': 0xffc00000,
};

const FLOAT_TEXT = /^-?[0-9]+\.[0-9]+$/;
const INT_TEXT = /^-?[0-9]+$/;
const HEX_TEXT = /^0x[0-9a-fA-F]{1,8}$/;

/**
 * One 32-bit lane as the listing prints it: a float (%f, with a point), a decimal integer or
 * 0x%08x. `c` and `at` place an error; `untyped`: a lane the printer guesses (mov, movc, stores,
 * the immediate constant buffer). Returns the bits.
 */
export function laneBits(t: string, c: Cursor, at: number, untyped = false): number {
  const special = SPECIAL_FLOATS[t];
  if (special !== undefined) return special;
  // An untyped lane prints a zero pattern as the integer 0, so its 0.000000 is a float too small
  // for six decimals: the smallest normal float, which prints the same.
  if (untyped && t === '0.000000') return 0x00800000;
  if (FLOAT_TEXT.test(t)) return decimalToFloatBits(t);
  if (HEX_TEXT.test(t)) return parseInt(t.slice(2), 16) >>> 0;
  if (INT_TEXT.test(t)) {
    const n = Number(t);
    if (n < -0x80000000 || n > 0xffffffff)
      throw c.fail('E906_ASM_LITERAL', `the integer ${t} does not fit 32 bits`, at);
    return n >>> 0;
  }
  throw c.fail('E906_ASM_LITERAL', `${JSON.stringify(t)} is no literal (a float, a decimal or 0x%08x)`, at);
}

/** A double lane (`1.500000l`): its low and high words. */
export function doubleWords(t: string, c: Cursor, at: number): [number, number] {
  const body = t.endsWith('l') ? t.slice(0, -1) : t;
  let v: number;
  if (body === '1.#INF00') v = Infinity;
  else if (body === '-1.#INF00') v = -Infinity;
  else if (body === '1.#QNAN0' || body === '-1.#QNAN0') v = NaN;
  else if (FLOAT_TEXT.test(body) || INT_TEXT.test(body)) v = Number(body);
  else throw c.fail('E906_ASM_LITERAL', `${JSON.stringify(t)} is no double literal (%fl)`, at);
  f64[0] = v;
  if (body.startsWith('-') && v === 0) f64[0] = -0;
  return [u64[0]!, u64[1]!];
}
