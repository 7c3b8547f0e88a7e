// Direct3D 11's float rules, one function per rule (D3D11.3 functional specification, 3.1 "Floating
// point rules" and the per-instruction pages). Values are IEEE binary32 carried as JS numbers that are
// always exactly representable in binary32 (Math.fround), or as their 32-bit patterns.
//
// - Denormals: D3D flushes float32 denormal inputs and results of arithmetic to zero of the same sign
//   (3.1.3.3); moves and bitwise operations keep the bits. flush() is that rule.
// - min/max: if exactly one operand is NaN the other is returned; both NaN: NaN (3.1.3.5). -0 < +0.
// - ftoi/ftou: round toward zero; NaN gives 0; out of range saturates (ftoi: to INT_MIN/INT_MAX,
//   ftou: to 0/UINT_MAX) (22.11.x ftoi, ftou).
// - rcp(±0) = ±inf, rcp(±inf) = ±0; rsq(-x) = NaN, rsq(±0) = +inf... (22.10 rcp, rsq); exp(-inf) = 0,
//   log(0) = -inf, log(-x) = NaN, log(+inf) = +inf.
// - Integer division by zero (udiv): quotient and remainder 0xffffffff (22.12.x udiv).

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);

export function bitsToF32(bits: number): number {
  u32buf[0] = bits;
  return f32buf[0]!;
}

export function f32ToBits(x: number): number {
  f32buf[0] = x;
  return u32buf[0]!;
}

const MIN_NORMAL = 1.1754943508222875e-38; // 2^-126

/** Denormal to zero of the same sign; everything else unchanged (x is a binary32 value). */
export function flush(x: number): number {
  return x !== 0 && Math.abs(x) < MIN_NORMAL ? (x < 0 ? -0 : 0) : x;
}

/** Rounds to binary32 and flushes a denormal result. */
export function f32(x: number): number {
  return flush(Math.fround(x));
}

/** D3D min: a NaN operand loses to a number; -0 is less than +0. */
export function d3dMin(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  if (a === 0 && b === 0) return Object.is(a, -0) || Object.is(b, -0) ? -0 : 0;
  return a < b ? a : b;
}

/** D3D max: a NaN operand loses to a number; +0 is greater than -0. */
export function d3dMax(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  if (a === 0 && b === 0) return Object.is(a, 0) || Object.is(b, 0) ? 0 : -0;
  return a > b ? a : b;
}

/** D3D saturate (mov_sat): NaN gives 0, else clamp to [0, 1]. */
export function saturate(x: number): number {
  if (x !== x) return 0;
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** ftoi: toward zero, NaN -> 0, saturating to the i32 range. */
export function ftoi(x: number): number {
  if (x !== x) return 0;
  if (x >= 2147483648) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  return Math.trunc(x) | 0;
}

/** ftou: toward zero, NaN -> 0, saturating to the u32 range. */
export function ftou(x: number): number {
  if (x !== x) return 0;
  if (x >= 4294967296) return 4294967295;
  if (x <= 0) return 0;
  return Math.trunc(x) >>> 0;
}

/** rcp: 1/x with rcp(±0) = ±inf and rcp(±inf) = ±0. */
export function rcp(x: number): number {
  return f32(1 / flush(x));
}

/** rsq: 1/sqrt(x); rsq(±0) = +inf... D3D: rsq(-0) = -inf, rsq(+0) = +inf, negative -> NaN. */
export function rsq(x: number): number {
  const v = flush(x);
  if (v === 0) return Object.is(v, -0) ? -Infinity : Infinity;
  return f32(1 / Math.sqrt(v));
}

/** exp: 2^x. */
export function exp2(x: number): number {
  return f32(Math.pow(2, flush(x)));
}

/** log: log2(x); log(±0) = -inf, negative -> NaN. */
export function log2(x: number): number {
  return f32(Math.log2(flush(x)));
}

/** round_ne: round half to even. */
export function roundEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  // Math.round rounds half up; fix the halves that should go down to the even neighbour.
  if (Math.abs(x - Math.trunc(x)) === 0.5) {
    const t = Math.trunc(x);
    const r2 = t % 2 === 0 ? t : t + Math.sign(x);
    return r2 === 0 ? (x < 0 ? -0 : 0) : r2;
  }
  return r === 0 && x < 0 ? -0 : r;
}

/** frc: x - floor(x), in [0, 1). */
export function fract(x: number): number {
  return f32(x - Math.floor(x));
}

/** binary32 -> binary16 bits, round to nearest even (f32tof16); NaN stays NaN, overflow -> inf. */
export function f32ToF16Bits(x: number): number {
  const bits = f32ToBits(x);
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 | (mant >>> 13) : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rest > half || (rest === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa moves into the exponent, up to infinity: the bits stay right.
  if (rest > 0x1000 || (rest === 0x1000 && h & 1)) h++;
  return sign | h;
}

/** binary16 bits -> binary32 value (f16tof32), exact. */
export function f16BitsToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}
