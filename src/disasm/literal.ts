// The one literal formatter of the Shader Model 4/5 listing: Microsoft's rules for immediates as
// D3DDisassemble (d3dcompiler_47 10.0.19041.685) prints them (corpus README, "Floating-point
// text"). Floats are printf's %f of the exact binary value with the Universal CRT's rounding: exact
// decimal expansion, ties to even, every digit of large values. Integers print in decimal within
// ±10000 and as 0x%08x beyond. An untyped operand (mov, movc, store_*) guesses per lane: a
// zero, denormal, infinite or NaN bit pattern prints as an integer, anything else as a float;
// -0.0 prints as a float.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Reinterprets a 32-bit pattern as a float. */
export function bitsToFloat(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0]!;
}

/**
 * Which C runtime's printf: `ucrt` (today's: exact digits, ties to even) or `msvcrt` (the compilers
 * before 10.x: 17 significant digits and zeros after them, ties away from zero at the last decimal:
 * -649211347377382870000000000000000.000000, 0.007813 for 0.0078125).
 */
export type Crt = 'ucrt' | 'msvcrt';

/** The old runtime's %.6f of |v|: 17 significant digits at most, the rest zeros. */
function msvcrtFixed(a: number, digits: number): string {
  const e = a === 0 ? 0 : Math.floor(Math.log10(a));
  if (e + 1 + digits <= 17) return a.toFixed(digits);
  const [m, x] = a.toExponential(16).split('e') as [string, string];
  const d = m.replace('.', '');
  const exp = Number(x);
  const int = exp >= 0 ? (d.slice(0, exp + 1) + '0'.repeat(Math.max(0, exp + 1 - d.length))).replace(/^$/, '0') : '0';
  const frac = exp >= 0 ? d.slice(exp + 1) : '0'.repeat(-exp - 1) + d;
  return `${int}.${(frac + '0'.repeat(digits)).slice(0, digits)}`;
}

/** printf("%f") of a finite double, with the UCRT's exact, ties-to-even rounding (or msvcrt's). */
export function formatFixed(v: number, digits = 6, crt: Crt = 'ucrt'): string {
  // Infinities and NaNs in the old CRT's spelling, as the DLL prints them.
  if (Number.isNaN(v)) return '1.#QNAN0';
  if (!Number.isFinite(v)) return v < 0 ? '-1.#INF00' : '1.#INF00';
  const neg = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  let s: string;
  if (crt === 'msvcrt') s = msvcrtFixed(a, digits);
  else if (a >= 1e21) {
    // Every double this large is an integer: print all its digits exactly.
    s = `${BigInt(a).toString()}.${'0'.repeat(digits)}`;
  } else {
    // toFixed is exact except that it rounds ties away from zero; a tie at 6 decimals needs a
    // binary fraction of exactly 7 bits (a * 2^7 odd), where half-even may pick the lower digit.
    s = a.toFixed(digits);
    if (digits === 6) {
      const t = a * 128;
      if (Number.isInteger(t) && t % 2 === 1 && !Number.isInteger(a * 64)) {
        const last = s.charCodeAt(s.length - 1) - 48;
        if (last % 2 === 1) s = s.slice(0, -1) + String.fromCharCode(48 + last - 1);
      }
    }
  }
  return neg ? `-${s}` : s;
}

/** A 32-bit integer literal: decimal within ±10000, else 0x%08x. */
export function formatInt(bits: number): string {
  const i = bits | 0;
  if (i > 10000 || i < -10000) return formatHex(bits);
  return String(i);
}

export function formatHex(bits: number): string {
  return `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * Today's texts of recent float patterns, direct-mapped by a hash of the bits (4,096 slots, a slot
 * holding its last pattern): programs repeat their constants (1.000000, 0.500000, ...) and each
 * text is otherwise a toFixed and a tie check. '' marks an empty slot.
 */
const FLOAT_SLOTS = 4096;
const FLOAT_KEYS = new Int32Array(FLOAT_SLOTS);
const FLOAT_TEXTS: string[] = new Array<string>(FLOAT_SLOTS).fill('');

/** A float literal from its bits (%f). */
export function formatFloatBits(bits: number, crt: Crt = 'ucrt'): string {
  if (crt !== 'ucrt') return formatFixed(bitsToFloat(bits), 6, crt);
  const key = bits | 0;
  const slot = Math.imul(key, 0x9e3779b1) >>> 20;
  if (FLOAT_KEYS[slot] === key) {
    const hit = FLOAT_TEXTS[slot]!;
    if (hit !== '') return hit;
  }
  const s = formatFixed(bitsToFloat(bits), 6, 'ucrt');
  FLOAT_KEYS[slot] = key;
  FLOAT_TEXTS[slot] = s;
  return s;
}

/** An untyped lane: integers where the pattern is zero, denormal, infinite or NaN (-0 excepted). */
export function formatUntyped(bits: number, crt: Crt = 'ucrt'): string {
  const exp = bits & 0x7f800000;
  if ((exp === 0 || exp === 0x7f800000) && bits >>> 0 !== 0x80000000) return formatInt(bits);
  return formatFloatBits(bits, crt);
}

/** A double from two words (low word first). */
export function formatDouble(lo: number, hi: number, crt: Crt = 'ucrt'): string {
  const b = new DataView(new ArrayBuffer(8));
  b.setUint32(0, lo >>> 0, true);
  b.setUint32(4, hi >>> 0, true);
  return formatFixed(b.getFloat64(0, true), 6, crt);
}
