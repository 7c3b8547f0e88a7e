// Direct3D's results of the operations WGSL leaves open, written as IR expressions over a small
// builder interface (ExprOps), so the SM4/5 lifter (alu.ts) and the DXIL lifter (dxil/) write the
// same guards: log, rsq, sqrt, exp, frc of special values, utof rounding, ftoi/ftou clamps and
// NaN, udiv by zero, msad.

import type { ExprId, Scalar } from '../ir/ir.js';
import type { FunctionBuilder } from '../ir/builder.js';

/** What the helpers need of a lifter: its expression builders (Lifter in state.ts has them all). */
export interface ExprOps {
  readonly f: FunctionBuilder;
  once(v: ExprId, name?: string): ExprId;
  splat(scalar: Scalar, bits: number, n: number): ExprId;
  sel(cond: ExprId, accept: ExprId, reject: ExprId): ExprId;
  bin(fn: import('../ir/ir.js').BinaryOp, l: ExprId, r: ExprId): ExprId;
  math(fn: import('../ir/ir.js').MathFn, ...args: ExprId[]): ExprId;
  e(x: import('../ir/ir.js').Expr): ExprId;
  bitcast(to: Scalar, value: ExprId): ExprId;
}

// Direct3D defines the results WGSL leaves indeterminate (D3D11.3 §22: log, rsq, sqrt, exp; denormal
// inputs flushed to signed zero first): log2(±0 or a denormal) = -inf, log2(negative) = NaN;
// rsq(±0 or a denormal) = ±inf, rsq(negative) = NaN; sqrt(negative) = NaN (a negative denormal flushes
// to -0, whose root is -0); exp2(x >= 128) = +inf. Bit patterns of the constants:
export const F32_MIN_NORMAL = 0x00800000;
export const F32_NEG_MIN_NORMAL = 0x80800000;
export const F32_INF = 0x7f800000;
export const F32_NEG_INF = 0xff800000;
export const F32_NAN = 0x7fc00000;
export const F32_128 = 0x43000000;
export const F32_256 = 0x43800000;

export function guardedLog2(L: ExprOps, [a]: ExprId[], n: number): ExprId {
  const x = L.once(a as ExprId);
  const zeroOrNeg = L.sel(
    L.bin('gt', x, L.splat('f32', F32_NEG_MIN_NORMAL, n)),
    L.splat('f32', F32_NEG_INF, n),
    L.splat('f32', F32_NAN, n),
  );
  return L.sel(L.bin('ge', x, L.splat('f32', F32_MIN_NORMAL, n)), L.math('log2', x), zeroOrNeg);
}

export function guardedRsq(L: ExprOps, [a]: ExprId[], n: number): ExprId {
  const x = L.once(a as ExprId);
  // ±inf carrying the sign of a (flushed) zero
  const signedInf = L.bitcast(
    'f32',
    L.bin('or', L.bin('and', L.bitcast('u32', x), L.splat('u32', 0x80000000, n)), L.splat('u32', F32_INF, n)),
  );
  const zeroOrNeg = L.sel(L.bin('gt', x, L.splat('f32', F32_NEG_MIN_NORMAL, n)), signedInf, L.splat('f32', F32_NAN, n));
  return L.sel(L.bin('ge', x, L.splat('f32', F32_MIN_NORMAL, n)), L.math('inverse_sqrt', x), zeroOrNeg);
}

export function guardedSqrt(L: ExprOps, [a]: ExprId[], n: number): ExprId {
  const x = L.once(a as ExprId);
  return L.sel(L.bin('le', x, L.splat('f32', F32_NEG_MIN_NORMAL, n)), L.splat('f32', F32_NAN, n), L.math('sqrt', x));
}

export function guardedExp2(L: ExprOps, [a]: ExprId[], n: number): ExprId {
  const x = L.once(a as ExprId);
  const big = L.sel(L.bin('ge', x, L.splat('f32', F32_128, n)), L.splat('f32', F32_INF, n), L.math('exp2', x));
  // NaN tested on the bits: a float comparison may be ordered (false for NaN) in a WGSL implementation.
  const nan = L.bin('gt', L.bin('and', L.bitcast('u32', x), L.splat('u32', 0x7fffffff, n)), L.splat('u32', F32_INF, n));
  return L.sel(nan, L.splat('f32', F32_NAN, n), big);
}

// utof rounds to nearest even (Direct3D); WGSL lets an implementation take either neighbour of a u32
// that f32 cannot hold (SwiftShader truncates from 2^31 up). The high 24 bits and the low 8 bits
// convert exactly, times 256 is exact, and the one rounding left is the add's, to nearest even.
export function utof(L: ExprOps, [a]: ExprId[], n: number): ExprId {
  const x = L.once(a as ExprId);
  const hi = L.e({ op: 'convert', to: 'f32', value: L.bin('shr', x, L.splat('u32', 8, n)) });
  const lo = L.e({ op: 'convert', to: 'f32', value: L.bin('and', x, L.splat('u32', 0xff, n)) });
  return L.bin('add', L.bin('mul', hi, L.splat('f32', F32_256, n)), lo);
}

// frc(±inf) is NaN in Direct3D; WGSL's fract of an infinity is indeterminate.
export function guardedFrc(L: ExprOps, [a]: ExprId[], n: number): ExprId {
  const x = L.once(a as ExprId);
  const finite = L.bin('lt', L.math('abs', x), L.splat('f32', F32_INF, n));
  return L.sel(finite, L.math('fract', x), L.splat('f32', F32_NAN, n));
}

export function ftoi(L: ExprOps, value: ExprId, n: number): ExprId {
  const x = L.once(value);
  const clamped = L.math('clamp', x, L.splat('f32', 0xcf000000, n), L.splat('f32', 0x4effffff, n));
  const conv = L.e({ op: 'convert', to: 'i32', value: clamped });
  const big = L.sel(L.bin('ge', x, L.splat('f32', 0x4f000000, n)), L.splat('i32', 0x7fffffff, n), conv);
  return L.sel(L.bin('ne', x, x), L.splat('i32', 0, n), big);
}

export function ftou(L: ExprOps, value: ExprId, n: number): ExprId {
  const x = L.once(value);
  const clamped = L.math('clamp', x, L.splat('f32', 0, n), L.splat('f32', 0x4f7fffff, n));
  const conv = L.e({ op: 'convert', to: 'u32', value: clamped });
  const big = L.sel(L.bin('ge', x, L.splat('f32', 0x4f800000, n)), L.splat('u32', 0xffffffff, n), conv);
  return L.sel(L.bin('ne', x, x), L.splat('u32', 0, n), big);
}

export function udivBy(L: ExprOps, a: ExprId, divisor: ExprId, n: number, fn: 'div' | 'rem'): ExprId {
  const b = L.once(divisor, 'divisor');
  const zero = L.bin('eq', b, L.splat('u32', 0, n));
  const safe = L.sel(zero, L.splat('u32', 1, n), b);
  return L.sel(zero, L.splat('u32', 0xffffffff, n), L.bin(fn, a, safe));
}

// msad (SM5, 11.1 extensions; D3D11.3 §22 "msad"): per component, the four bytes of src0 (the
// reference) against the four bytes of src1 (the source), a byte pair skipped where the reference
// byte is 0, |ref - src| added to src2 (the accumulator), modulo 2^32 (Direct3D only promises sums up
// to 65535 exactly; past that the wrap is this lifter's and the executor's, and WGSL's u32 add).
export function msad(L: ExprOps, [ref, source, accum]: ExprId[], n: number): ExprId {
  const r0 = L.once(ref as ExprId, 'msad_ref');
  const s0 = L.once(source as ExprId, 'msad_src');
  let sum = accum as ExprId;
  for (let j = 0; j < 4; j++) {
    const byte = (x: ExprId) =>
      L.bin('and', j === 0 ? x : L.bin('shr', x, L.splat('u32', 8 * j, n)), L.splat('u32', 0xff, n));
    const r = L.once(byte(r0), 'msad_r');
    const s = L.once(byte(s0), 'msad_s');
    const diff = L.bin('sub', L.math('max', r, s), L.math('min', r, s));
    sum = L.bin('add', sum, L.sel(L.bin('eq', r, L.splat('u32', 0, n)), L.splat('u32', 0, n), diff));
  }
  return sum;
}
