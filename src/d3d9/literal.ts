// Literal formatting for Direct3D 9 listings: D3DDisassemble prints def values with the Microsoft C runtime's
// "%.9g" (nine significant digits, trailing zeros dropped, at least three exponent digits: 1e+010,
// 9.99999975e-006) and -0 for negative zero; defi values as signed decimals; defb as true or false.

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

export function floatFromBits(bits: number): number {
  U32[0] = bits >>> 0;
  return F32[0]!;
}

/**
 * Texts of recent patterns, direct-mapped by a hash of the bits (1,024 slots, each holding its last
 * pattern; '' marks an empty one): def values repeat across programs (0, 1, 0.5, ...), and each text
 * is otherwise an exponential form, a fixed form and two regular expressions.
 */
const SLOTS = 1024;
const KEYS = new Int32Array(SLOTS);
const TEXTS: string[] = new Array<string>(SLOTS).fill('');

/** The Microsoft C runtime's printf("%.9g") of a float given by its bit pattern. */
export function formatFloat9g(bits: number): string {
  const key = bits | 0;
  const slot = Math.imul(key, 0x9e3779b1) >>> 22;
  if (KEYS[slot] === key) {
    const hit = TEXTS[slot]!;
    if (hit !== '') return hit;
  }
  const s = float9g(bits);
  KEYS[slot] = key;
  TEXTS[slot] = s;
  return s;
}

function float9g(bits: number): string {
  const v = floatFromBits(bits);
  if (Number.isNaN(v)) return (bits & 0x80000000 ? '-' : '') + (bits & 0x00400000 ? '1.#QNAN' : '1.#SNAN');
  if (v === Infinity) return '1.#INF';
  if (v === -Infinity) return '-1.#INF';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  return formatG(v, 9);
}

/** C's %.{precision}g with the exponent written as Microsoft's runtime writes it (sign and three digits). */
export function formatG(v: number, precision: number): string {
  const exp = Number.parseInt(v.toExponential(precision - 1).split('e')[1]!, 10);
  if (exp < -4 || exp >= precision) {
    const [mant, e] = v.toExponential(precision - 1).split('e') as [string, string];
    const n = Number.parseInt(e, 10);
    const digits = String(Math.abs(n)).padStart(3, '0');
    return `${stripZeros(mant)}e${n < 0 ? '-' : '+'}${digits}`;
  }
  return stripZeros(v.toFixed(Math.max(0, precision - 1 - exp)));
}

function stripZeros(s: string): string {
  if (!s.includes('.')) return s;
  return s.replace(/0+$/, '').replace(/\.$/, '');
}
