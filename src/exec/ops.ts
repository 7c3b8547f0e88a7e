// Arithmetic of the executor: the IR's unary, binary, math, bitcast and convert operations on values
// of n lanes, component by component, with Direct3D 11's float rules (float.ts): f32 results rounded
// to binary32 and denormals flushed on arithmetic (never on copies or bitcasts, which keep the bits;
// f32 neg and abs, the float source modifiers, flip or clear the sign and flush a denormal: the
// modifiers make an operation a float one, so mov -|x| of a denormal is a signed zero), min/max returning the number when one operand is NaN, saturate(NaN) = 0, conversions
// toward zero saturating with NaN -> 0. Integer rules are the IR's (ir.ts, "Arithmetic").

import type { BinaryOp, MathFn, Scalar, UnaryOp } from '../ir/ir.js';
import { IridiaError } from '../errors.js';
import { V } from './values.js';
import {
  d3dMax,
  d3dMin,
  exp2,
  f16BitsToF32,
  f32ToF16Bits,
  flush,
  fract,
  ftoi,
  ftou,
  log2,
  roundEven,
  rsq,
  saturate,
} from './float.js';

// Denormal handling of the run in progress: Direct3D's flush by default; 'preserve' keeps them (as
// Vulkan drivers such as SwiftShader do), for comparing with a WebGPU run word for word.
const FLUSH = flush;
let fl: (x: number) => number = FLUSH;

/** Runs `f` with denormals flushed (Direct3D) or preserved, restoring the previous mode after. */
export function withDenormals<T>(mode: 'flush' | 'preserve', f: () => T): T {
  const prev = fl;
  fl = mode === 'flush' ? FLUSH : (x) => x;
  try {
    return f();
  } finally {
    fl = prev;
  }
}

function r32(x: number): number {
  return fl(Math.fround(x));
}

function err(why: string): never {
  throw new IridiaError('E701_EXEC_ERROR', why);
}

export function unary(fn: UnaryOp, s: Scalar, a: V): V {
  const o = new V(a.n, a.w);
  const len = a.u.length;
  if (fn === 'not') {
    if (s === 'bool') for (let k = 0; k < len; k++) o.u[k] = a.u[k] ? 0 : 1;
    else for (let k = 0; k < len; k++) o.u[k] = ~a.u[k]!;
  } else {
    if (s === 'f32') for (let k = 0; k < len; k++) o.u[k] = flushBits(a.u[k]! ^ 0x80000000);
    else for (let k = 0; k < len; k++) o.i[k] = -a.i[k]! | 0;
  }
  return o;
}

/** A binary32 word with a denormal flushed to the zero of its sign when the run flushes (the float
 * source modifiers: D3D11.3 §3.1.3.3 flushes the inputs and outputs of float operations, and mov's
 * modifiers "assume the data is floating point"); NaN and every other word unchanged. */
function flushBits(w: number): number {
  return fl === FLUSH && (w & 0x7f800000) === 0 && (w & 0x7fffff) !== 0 ? w & 0x80000000 : w;
}

/** abs: f32 clears the sign bit (NaN stays NaN; a denormal flushed to +0); i32 wraps (abs(INT_MIN) is
 * INT_MIN). */
function abs(s: Scalar, a: V): V {
  const o = new V(a.n, a.w);
  const len = a.u.length;
  if (s === 'f32') for (let k = 0; k < len; k++) o.u[k] = flushBits(a.u[k]! & 0x7fffffff);
  else if (s === 'i32') for (let k = 0; k < len; k++) o.i[k] = Math.abs(a.i[k]!) | 0;
  else o.u.set(a.u);
  return o;
}

const CMP = new Set<BinaryOp>(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);

const CMP_FN: Partial<Record<BinaryOp, (x: number, y: number) => boolean>> = {
  eq: (x, y) => x === y,
  ne: (x, y) => x !== y,
  lt: (x, y) => x < y,
  le: (x, y) => x <= y,
  gt: (x, y) => x > y,
  ge: (x, y) => x >= y,
};

function cmp(fn: BinaryOp, x: number, y: number): boolean {
  return CMP_FN[fn]!(x, y);
}

export function binary(fn: BinaryOp, s: Scalar, a: V, b: V): V {
  const o = new V(a.n, a.w);
  const len = a.u.length;
  if (CMP.has(fn)) {
    if (s === 'f32') for (let k = 0; k < len; k++) o.u[k] = cmp(fn, fl(a.f[k]!), fl(b.f[k]!)) ? 1 : 0;
    else if (s === 'i32') for (let k = 0; k < len; k++) o.u[k] = cmp(fn, a.i[k]!, b.i[k]!) ? 1 : 0;
    else for (let k = 0; k < len; k++) o.u[k] = cmp(fn, a.u[k]!, b.u[k]!) ? 1 : 0;
    return o;
  }
  const bits = BITWISE[fn];
  if (bits) {
    if (fn === 'shr' && s === 'i32') for (let k = 0; k < len; k++) o.i[k] = a.i[k]! >> (b.u[k]! & 31);
    else for (let k = 0; k < len; k++) o.u[k] = bits(a.u[k]!, b.u[k]!);
    return o;
  }
  if (s === 'f32') {
    const g = table(FARITH, fn, s);
    for (let k = 0; k < len; k++) o.f[k] = g(fl(a.f[k]!), fl(b.f[k]!));
  } else if (s === 'i32') {
    const g = table(IARITH, fn, s);
    for (let k = 0; k < len; k++) o.i[k] = g(a.i[k]!, b.i[k]!);
  } else if (s === 'u32') {
    const g = table(UARITH, fn, s);
    for (let k = 0; k < len; k++) o.u[k] = g(a.u[k]!, b.u[k]!);
  } else err(`${fn} on bool`);
  return o;
}

const BITWISE: Partial<Record<BinaryOp, (x: number, y: number) => number>> = {
  and: (x, y) => x & y,
  or: (x, y) => x | y,
  xor: (x, y) => x ^ y,
  shl: (x, y) => x << (y & 31),
  shr: (x, y) => x >>> (y & 31),
};

const FARITH: Partial<Record<BinaryOp, (x: number, y: number) => number>> = {
  add: (x, y) => r32(x + y),
  sub: (x, y) => r32(x - y),
  mul: (x, y) => r32(x * y),
  div: (x, y) => r32(x / y),
  // x - y * trunc(x / y), each step in binary32 (WGSL's definition).
  rem: (x, y) => r32(x - Math.fround(y * Math.trunc(Math.fround(x / y)))),
};

const IARITH: Partial<Record<BinaryOp, (x: number, y: number) => number>> = {
  add: (x, y) => (x + y) | 0,
  sub: (x, y) => (x - y) | 0,
  mul: (x, y) => Math.imul(x, y),
  div: (x, y) => (y === 0 || (x === -2147483648 && y === -1) ? x : (x / y) | 0),
  rem: (x, y) => (y === 0 || (x === -2147483648 && y === -1) ? 0 : (x % y) | 0),
};

const UARITH: Partial<Record<BinaryOp, (x: number, y: number) => number>> = {
  add: (x, y) => (x + y) >>> 0,
  sub: (x, y) => (x - y) >>> 0,
  mul: (x, y) => Math.imul(x, y) >>> 0,
  div: (x, y) => (y === 0 ? x : Math.floor(x / y) >>> 0),
  rem: (x, y) => (y === 0 ? 0 : (x % y) >>> 0),
};

function table(t: Partial<Record<BinaryOp, (x: number, y: number) => number>>, fn: BinaryOp, s: Scalar) {
  const g = t[fn];
  if (!g) return err(`${s} ${fn}`);
  return g;
}

export function bitcast(a: V): V {
  return new V(a.n, a.w, a.u);
}

export function convert(from: Scalar, to: Scalar, a: V): V {
  const o = new V(a.n, a.w);
  const len = a.u.length;
  for (let k = 0; k < len; k++) {
    let x: number;
    if (from === 'f32') x = a.f[k]!;
    else if (from === 'i32') x = a.i[k]!;
    else x = a.u[k]!;
    switch (to) {
      case 'bool':
        o.u[k] = from === 'f32' ? (x !== 0 ? 1 : 0) : a.u[k] !== 0 ? 1 : 0;
        break;
      case 'f32':
        o.f[k] = from === 'f32' ? x : Math.fround(x);
        break;
      case 'i32':
        o.i[k] = from === 'f32' ? ftoi(fl(x)) : x | 0;
        break;
      case 'u32':
        o.u[k] = from === 'f32' ? ftou(fl(x)) : x >>> 0;
        break;
    }
  }
  return o;
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function reverseBits(x: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) r = (r << 1) | ((x >>> i) & 1);
  return r >>> 0;
}

function mulHi(s: Scalar, x: number, y: number): number {
  if (s === 'i32') return Number((BigInt(x | 0) * BigInt(y | 0)) >> 32n) | 0;
  return Number((BigInt(x >>> 0) * BigInt(y >>> 0)) >> 32n) >>> 0;
}

/** A math function; `s` is the scalar of the first argument, `outW` the result's words per lane. */
export function math(fn: MathFn, s: Scalar, args: readonly V[], outW: number): V {
  const a = args[0]!;
  const n = a.n;
  const o = new V(n, outW);
  const len = a.u.length;
  const b = args[1];
  const c = args[2];
  const f1 = (g: (x: number) => number): V => {
    for (let k = 0; k < len; k++) o.f[k] = g(fl(a.f[k]!));
    return o;
  };
  switch (fn) {
    case 'min':
    case 'max': {
      const B = b!;
      if (s === 'f32')
        for (let k = 0; k < len; k++) o.f[k] = (fn === 'min' ? d3dMin : d3dMax)(fl(a.f[k]!), fl(B.f[k]!));
      else if (s === 'i32')
        for (let k = 0; k < len; k++) o.i[k] = fn === 'min' ? Math.min(a.i[k]!, B.i[k]!) : Math.max(a.i[k]!, B.i[k]!);
      else
        for (let k = 0; k < len; k++) o.u[k] = fn === 'min' ? Math.min(a.u[k]!, B.u[k]!) : Math.max(a.u[k]!, B.u[k]!);
      return o;
    }
    case 'clamp':
      return math('min', s, [math('max', s, [a, b!], outW), c!], outW);
    case 'saturate':
      return f1(saturate);
    case 'floor':
      return f1(Math.floor);
    case 'ceil':
      return f1(Math.ceil);
    case 'trunc':
      return f1(Math.trunc);
    case 'round':
      return f1(roundEven);
    case 'fract':
      return f1(fract);
    case 'sqrt':
      return f1((x) => r32(Math.sqrt(x)));
    case 'inverse_sqrt':
      return f1(rsq);
    case 'exp2':
      return f1(exp2);
    case 'log2':
      return f1(log2);
    case 'sin':
      return f1((x) => r32(Math.sin(x)));
    case 'cos':
      return f1((x) => r32(Math.cos(x)));
    case 'tan':
      return f1((x) => r32(Math.tan(x)));
    case 'asin':
      return f1((x) => r32(Math.asin(x)));
    case 'acos':
      return f1((x) => r32(Math.acos(x)));
    case 'atan':
      return f1((x) => r32(Math.atan(x)));
    case 'sinh':
      return f1((x) => r32(Math.sinh(x)));
    case 'cosh':
      return f1((x) => r32(Math.cosh(x)));
    case 'tanh':
      return f1((x) => r32(Math.tanh(x)));
    case 'fma':
      for (let k = 0; k < len; k++) o.f[k] = r32(fl(a.f[k]!) * fl(b!.f[k]!) + fl(c!.f[k]!));
      return o;
    case 'dot': {
      const w = a.w;
      for (let l = 0; l < n; l++) {
        let sum = 0;
        for (let k = 0; k < w; k++) {
          const i = k * n + l;
          if (s === 'f32') sum = r32(sum + r32(fl(a.f[i]!) * fl(b!.f[i]!)));
          else sum = (sum + Math.imul(a.u[i]!, b!.u[i]!)) | 0;
        }
        if (s === 'f32') o.f[l] = sum;
        else o.i[l] = sum;
      }
      return o;
    }
    case 'mul_hi':
      for (let k = 0; k < len; k++) o.u[k] = mulHi(s, a.u[k]!, b!.u[k]!);
      return o;
    case 'count_one_bits':
      for (let k = 0; k < len; k++) o.u[k] = popcount(a.u[k]!);
      return o;
    case 'reverse_bits':
      for (let k = 0; k < len; k++) o.u[k] = reverseBits(a.u[k]!);
      return o;
    case 'first_leading_bit':
      for (let k = 0; k < len; k++) {
        let x = a.u[k]!;
        if (s === 'i32' && x & 0x80000000) x = ~x >>> 0;
        o.u[k] = x === 0 ? 0xffffffff : 31 - Math.clz32(x);
      }
      return o;
    case 'first_trailing_bit':
      for (let k = 0; k < len; k++) {
        const x = a.u[k]!;
        o.u[k] = x === 0 ? 0xffffffff : 31 - Math.clz32(x & -x);
      }
      return o;
    case 'extract_bits':
      for (let k = 0; k < len; k++) {
        const l = k % n;
        const off = Math.min(b!.u[l]!, 32);
        const cnt = Math.min(c!.u[l]!, 32 - off);
        if (cnt === 0) o.u[k] = 0;
        else if (s === 'i32') o.i[k] = (a.i[k]! << (32 - off - cnt)) >> (32 - cnt);
        else o.u[k] = (a.u[k]! << (32 - off - cnt)) >>> (32 - cnt);
      }
      return o;
    case 'insert_bits': {
      const d = args[3]!;
      for (let k = 0; k < len; k++) {
        const l = k % n;
        const off = Math.min(c!.u[l]!, 32);
        const cnt = Math.min(d.u[l]!, 32 - off);
        if (cnt === 0) {
          o.u[k] = a.u[k]!;
          continue;
        }
        const mask = (cnt === 32 ? 0xffffffff : ((1 << cnt) - 1) << off) >>> 0;
        o.u[k] = ((a.u[k]! & ~mask) | ((b!.u[k]! << off) & mask)) >>> 0;
      }
      return o;
    }
    case 'pack2x16float':
      for (let l = 0; l < n; l++) o.u[l] = (f32ToF16Bits(a.f[l]!) | (f32ToF16Bits(a.f[n + l]!) << 16)) >>> 0;
      return o;
    case 'unpack2x16float':
      for (let l = 0; l < n; l++) {
        o.f[l] = f16BitsToF32(a.u[l]! & 0xffff);
        o.f[n + l] = f16BitsToF32(a.u[l]! >>> 16);
      }
      return o;
    case 'all':
    case 'any':
      for (let l = 0; l < n; l++) {
        let r = fn === 'all';
        for (let k = 0; k < a.w; k++) {
          const bit = a.u[k * n + l] !== 0;
          r = fn === 'all' ? r && bit : r || bit;
        }
        o.u[l] = r ? 1 : 0;
      }
      return o;
    case 'abs':
      return abs(s, a);
  }
}
