// The 64-bit helper library (src/lift/f64.ts) against an independent reference: JavaScript's
// float64 arithmetic (IEEE 754 binary64, round to nearest even) for the doubles and BigInt for the
// i64 operations. Each operation is one compute program (a call of the helper per thread, operands
// and results as words of storage buffers), run on the executor over the edge cases (signed zeros,
// subnormals and their boundary, infinities, NaNs, rounding ties, carries across the word boundary,
// overflow and underflow) and seeded random operands; Tint compiles every program, and Dawn runs a
// few of them on the same operands (slow here: kept to a handful).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ModuleBuilder, FunctionBuilder } from '../../src/ir/builder.js';
import type { ExprId, Module } from '../../src/ir/ir.js';
import { validateModule } from '../../src/ir/validate.js';
import { runCompute } from '../../src/exec/index.js';
import { emitModuleWgsl, lowerForWgsl } from '../../src/wgsl/index.js';
import { F64_DEFAULT_NAN, SOFT64_OPS, Soft64, type Soft64Op } from '../../src/lift/f64.js';
import { closeWebgpu, compileWgsl, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';
import { rng } from '../helpers/rng.js';

after(() => closeWebgpu());

// ---- operands and the reference -----------------------------------------------------------

const DV = new DataView(new ArrayBuffer(8));
const words = (x: number): [number, number] => {
  DV.setFloat64(0, x, true);
  return [DV.getUint32(0, true), DV.getUint32(4, true)];
};
const double = (lo: number, hi: number): number => {
  DV.setUint32(0, lo >>> 0, true);
  DV.setUint32(4, hi >>> 0, true);
  return DV.getFloat64(0, true);
};
const f32bits = (x: number): number => {
  DV.setFloat32(0, x, true);
  return DV.getUint32(0, true);
};
const f32of = (bits: number): number => {
  DV.setUint32(0, bits >>> 0, true);
  return DV.getFloat32(0, true);
};
const big = (lo: number, hi: number): bigint => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
const wordsOfBig = (v: bigint): [number, number] => {
  const u = BigInt.asUintN(64, v);
  return [Number(u & 0xffffffffn), Number(u >> 32n)];
};

/** Words of edge doubles: zeros, subnormals and the normal boundary, ones, ties, extremes, NaNs. */
const EDGE_DOUBLES: [number, number][] = [
  [0, 0],
  [0, 0x80000000],
  [1, 0], // smallest subnormal
  [1, 0x80000000],
  [0xffffffff, 0x000fffff], // largest subnormal
  [0, 0x00100000], // smallest normal
  [1, 0x00100000],
  [0, 0x00200000],
  [0, 0x3ff00000], // 1
  [1, 0x3ff00000], // 1 + ulp
  [0xffffffff, 0x3fefffff], // 1 - ulp/2
  [0, 0xbff00000], // -1
  [0, 0x40000000], // 2
  [0, 0x3ca00000], // 2^-53 (half an ulp of 1)
  [0, 0x3cb00000], // 2^-52
  [0, 0x3fe00000], // 0.5
  [0x55555555, 0x3fd55555], // ~1/3
  [0xffffffff, 0x7fefffff], // largest finite
  [0xffffffff, 0xffefffff],
  [0, 0x7ff00000], // inf
  [0, 0xfff00000],
  [0, 0x7ff80000], // quiet NaN
  [1, 0x7ff00000], // signalling NaN
  [0x12345678, 0xfff80000], // negative NaN with payload
  [0, 0x41e00000], // 2^31
  [0, 0xc1e00000], // -2^31
  [0, 0x41f00000], // 2^32
  [0, 0x43e00000], // 2^63
  [0, 0x43f00000], // 2^64
  [0xffffffff, 0x41efffff], // just below 2^32
  [0, 0x36a00000], // 2^-149 (float's smallest subnormal)
  [0, 0x36900000], // 2^-150 (half of it: a tie)
  [1, 0x36900000],
  [0, 0x38100000], // 2^-126
  [0xe0000000, 0x47efffff], // float's largest finite
  [0xf0000000, 0x47efffff], // halfway past it
];

/** Random doubles: raw 64-bit patterns, and patterns with exponents near the subnormal boundary. */
function randomDouble(r: () => number): [number, number] {
  const kind = r() % 4;
  const lo = r();
  const hi = r();
  if (kind === 0) return [lo, hi];
  if (kind === 1) return [lo, (hi & 0x800fffff) | ((r() % 80) << 20)]; // tiny and subnormal
  if (kind === 2) return [lo, (hi & 0x800fffff) | ((1023 - 40 + (r() % 80)) << 20)]; // near 1
  return [lo & ~((1 << (r() % 32)) - 1), (hi & 0x800fffff) | ((r() % 2047) << 20)]; // short significands
}

/** Pairs: every two edges, and random pairs (some made to cancel or to land near the boundaries). */
function doublePairs(seed: number, n: number): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  for (const a of EDGE_DOUBLES) for (const b of EDGE_DOUBLES) out.push([...a, ...b]);
  const r = rng(seed);
  while (out.length < EDGE_DOUBLES.length ** 2 + n) {
    const a = randomDouble(r);
    let b = randomDouble(r);
    const k = r() % 4;
    if (k === 0) b = [a[0] ^ (r() & 0xff), a[1] ^ 0x80000000 ^ (r() & 1 ? 0 : 0x00100000)]; // cancellation
    if (k === 1) b = [r(), ((2046 - ((a[1] >>> 20) & 0x7ff) - 1023 + (r() % 120) - 60 + 1023) & 0x7ff) << 20]; // product near 1 or past the range
    out.push([...a, ...b]);
  }
  return out;
}

const isNaN64 = (lo: number, hi: number) => Number.isNaN(double(lo, hi));
const quiet = (lo: number, hi: number): [number, number] => [lo >>> 0, (hi | 0x00080000) >>> 0];

/** A double result's words: NaN rules of the library (the first NaN operand made quiet, else the default NaN). */
function dres(x: number, a: [number, number], b?: [number, number]): [number, number] {
  if (isNaN64(...a)) return quiet(...a);
  if (b && isNaN64(...b)) return quiet(...b);
  if (Number.isNaN(x)) return [...F64_DEFAULT_NAN];
  return words(x);
}

const dxMin = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a < b ? a : b);
const dxMax = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : b < a ? a : b);

/** Direct3D's float to integer: NaN 0, truncated, clamped. */
function toInt(x: number, width: 32 | 64, signed: boolean): bigint {
  if (Number.isNaN(x)) return 0n;
  const lo = signed ? -(2n ** BigInt(width - 1)) : 0n;
  const hi = signed ? 2n ** BigInt(width - 1) - 1n : 2n ** BigInt(width) - 1n;
  if (x === Infinity) return hi;
  if (x === -Infinity) return lo;
  const t = BigInt(Math.trunc(x));
  return t < lo ? lo : t > hi ? hi : t;
}

/** An integer rounded once to binary32, nearest even (Math.fround(Number(v)) would round twice). */
function bigToF32(v: bigint): number {
  if (v < 0n) return -bigToF32(-v);
  const n = v.toString(2).length;
  if (n <= 24) return Number(v);
  const shift = BigInt(n - 24);
  let q = v >> shift;
  const rest = v - (q << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  return Number(q) * 2 ** Number(shift); // exact: at most 25 bits
}

/** Triples for fma: edges, random, and addends near minus the product (cancellation, ties). */
function doubleTriples(seed: number, n: number): number[][] {
  const r = rng(seed);
  const out: number[][] = [];
  const edges = EDGE_DOUBLES.filter((_, k) => k % 3 === 0);
  for (const a of edges) for (const b of edges) for (const c of edges.slice(0, 6)) out.push([...a, ...b, ...c]);
  while (out.length < edges.length ** 2 * 6 + n) {
    const a = randomDouble(r);
    const b = randomDouble(r);
    let c = randomDouble(r);
    const k = r() % 4;
    const p = double(...a) * double(...b);
    if (k === 0 && Number.isFinite(p)) c = words(-p); // the product's rounding error is the result
    if (k === 1 && Number.isFinite(p)) {
      const w = words(-p);
      c = [(w[0] + (r() % 5) - 2) >>> 0, w[1]]; // a few ulps off
    }
    if (k === 2)
      c = [
        r(),
        (r() & 0x800fffff) |
          (((((a[1] >>> 20) & 0x7ff) + ((b[1] >>> 20) & 0x7ff) - 1023 + (r() % 110) - 55) & 0x7ff) << 20),
      ];
    out.push([...a, ...b, ...c]);
  }
  return out;
}

/** A double's value times 2^1074, exactly (finite operands). */
function scaled(lo: number, hi: number): bigint {
  const e = (hi >>> 20) & 0x7ff;
  const m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo >>> 0);
  const mag = e === 0 ? m : (m | (1n << 52n)) << BigInt(e - 1);
  return hi & 0x80000000 ? -mag : mag;
}

/** The double nearest S * 2^-k (ties to even), S an exact integer. */
function roundScaled(S: bigint, k: number): number {
  if (S === 0n) return 0;
  const neg = S < 0n;
  const mag = neg ? -S : S;
  const n = mag.toString(2).length;
  const q = Math.max(n - 1 - k - 52, -1074); // the result's ulp, 2^q
  const shift = q + k;
  let r: bigint;
  if (shift <= 0) r = mag << BigInt(-shift);
  else {
    r = mag >> BigInt(shift);
    const rest = mag - (r << BigInt(shift));
    const half = 1n << BigInt(shift - 1);
    if (rest > half || (rest === half && (r & 1n) === 1n)) r += 1n;
  }
  const v = Number(r) * 2 ** q; // exact (r has at most 54 bits, a power of two apart), or the overflow to inf
  return neg ? -v : v;
}

/** IEEE fma: a * b + c exactly (BigInt), rounded once; the library's NaN rule. */
function fmaRef(a: [number, number], b: [number, number], c: [number, number]): [number, number] {
  for (const o of [a, b, c]) if (isNaN64(...o)) return quiet(...o);
  const x = double(...a);
  const y = double(...b);
  const z = double(...c);
  const inf = (v: number) => !Number.isFinite(v);
  if ((inf(x) && y === 0) || (inf(y) && x === 0)) return [...F64_DEFAULT_NAN];
  if (inf(x) || inf(y)) {
    const p = x * y;
    return inf(z) && z !== p ? [...F64_DEFAULT_NAN] : words(p);
  }
  if (inf(z)) return words(z);
  if (x === 0 || y === 0) return words(x * y + z);
  if (z === 0) return words(x * y);
  return words(roundScaled(scaled(...a) * scaled(...b) + (scaled(...c) << 1074n), 2148));
}

interface Case {
  /** Four operand words. */
  readonly input: readonly number[];
  /** Two result words. */
  readonly want: readonly [number, number];
}

type Ref = (a: [number, number], b: [number, number], c: [number, number]) => [number, number];
const d2 =
  (fn: (x: number, y: number) => number): Ref =>
  (a, b) =>
    dres(fn(double(...a), double(...b)), a, b);
const cmpRef =
  (fn: (x: number, y: number) => boolean): Ref =>
  (a, b) => [fn(double(...a), double(...b)) ? 1 : 0, 0];
const i2 =
  (fn: (x: bigint, y: bigint) => bigint): Ref =>
  (a, b) =>
    wordsOfBig(fn(big(...a), big(...b)));
const s64 = (v: bigint) => BigInt.asIntN(64, v);
const ONES = 2n ** 64n - 1n;

/** Every operation but f64_round (tested through the others): its reference and its operands. */
const REFS: Partial<Record<Soft64Op, { ref: Ref; operands: 'doubles' | 'ints' | 'f32' | 'u32' | 'triples' }>> = {
  f64_fma: { ref: fmaRef, operands: 'triples' },
  f64_add: { ref: d2((x, y) => x + y), operands: 'doubles' },
  f64_sub: { ref: d2((x, y) => x - y), operands: 'doubles' },
  f64_mul: { ref: d2((x, y) => x * y), operands: 'doubles' },
  f64_div: { ref: d2((x, y) => x / y), operands: 'doubles' },
  f64_min: {
    ref: (a, b) => (isNaN64(...a) ? b : isNaN64(...b) ? a : words(dxMin(double(...a), double(...b)))),
    operands: 'doubles',
  },
  f64_max: {
    ref: (a, b) => (isNaN64(...a) ? b : isNaN64(...b) ? a : words(dxMax(double(...a), double(...b)))),
    operands: 'doubles',
  },
  f64_eq: { ref: cmpRef((x, y) => x === y), operands: 'doubles' },
  f64_lt: { ref: cmpRef((x, y) => x < y), operands: 'doubles' },
  f64_le: { ref: cmpRef((x, y) => x <= y), operands: 'doubles' },
  f64_isnan: { ref: (a) => [isNaN64(...a) ? 1 : 0, 0], operands: 'doubles' },
  f64_to_f32: {
    ref: (a) => {
      if (isNaN64(...a)) return [((a[1] & 0x80000000) | 0x7fc00000 | ((a[1] & 0xfffff) << 3) | (a[0] >>> 29)) >>> 0, 0];
      return [f32bits(Math.fround(double(...a))), 0];
    },
    operands: 'doubles',
  },
  f64_from_f32: {
    ref: (a) => {
      const x = f32of(a[0]);
      if (Number.isNaN(x)) {
        const m = a[0] & 0x7fffff;
        return [(m << 29) >>> 0, ((a[0] & 0x80000000) | 0x7ff00000 | (m >>> 3)) >>> 0];
      }
      return words(x);
    },
    operands: 'f32',
  },
  f64_from_u32: { ref: (a) => words(a[0] >>> 0), operands: 'u32' },
  f64_from_i32: { ref: (a) => words(a[0] | 0), operands: 'u32' },
  f64_from_u64: { ref: (a) => words(Number(big(...a))), operands: 'ints' },
  f64_from_i64: { ref: (a) => words(Number(s64(big(...a)))), operands: 'ints' },
  f32_from_u64: { ref: (a) => [f32bits(bigToF32(big(...a))), 0], operands: 'ints' },
  f32_from_i64: { ref: (a) => [f32bits(bigToF32(s64(big(...a)))), 0], operands: 'ints' },
  f64_to_u32: { ref: (a) => [Number(toInt(double(...a), 32, false)), 0], operands: 'doubles' },
  f64_to_i32: { ref: (a) => [Number(BigInt.asUintN(32, toInt(double(...a), 32, true))), 0], operands: 'doubles' },
  f64_to_u64: { ref: (a) => wordsOfBig(toInt(double(...a), 64, false)), operands: 'doubles' },
  f64_to_i64: { ref: (a) => wordsOfBig(toInt(double(...a), 64, true)), operands: 'doubles' },
  i64_add: { ref: i2((x, y) => x + y), operands: 'ints' },
  i64_sub: { ref: i2((x, y) => x - y), operands: 'ints' },
  i64_mul: { ref: i2((x, y) => x * y), operands: 'ints' },
  i64_udiv: { ref: i2((x, y) => (y === 0n ? ONES : x / y)), operands: 'ints' },
  i64_urem: { ref: i2((x, y) => (y === 0n ? ONES : x % y)), operands: 'ints' },
  i64_sdiv: { ref: i2((x, y) => (y === 0n ? ONES : s64(x) / s64(y))), operands: 'ints' },
  i64_srem: { ref: i2((x, y) => (y === 0n ? ONES : s64(x) % s64(y))), operands: 'ints' },
  i64_shl: { ref: (a, b) => wordsOfBig(big(...a) << BigInt(b[0] & 63)), operands: 'ints' },
  i64_lshr: { ref: (a, b) => wordsOfBig(big(...a) >> BigInt(b[0] & 63)), operands: 'ints' },
  i64_ashr: { ref: (a, b) => wordsOfBig(s64(big(...a)) >> BigInt(b[0] & 63)), operands: 'ints' },
  i64_ult: { ref: (a, b) => [big(...a) < big(...b) ? 1 : 0, 0], operands: 'ints' },
  i64_slt: { ref: (a, b) => [s64(big(...a)) < s64(big(...b)) ? 1 : 0, 0], operands: 'ints' },
};

/** Edge 64-bit integers: carries and borrows across the word boundary, signs, extremes. */
const EDGE_INTS: [number, number][] = [
  [0, 0],
  [1, 0],
  [0xffffffff, 0],
  [0, 1],
  [0xffffffff, 0xffffffff],
  [0xfffffffe, 0xffffffff],
  [0, 0x80000000],
  [0xffffffff, 0x7fffffff],
  [1, 0x80000000],
  [0x80000000, 0],
  [7, 0],
  [0xfffffff9, 0xffffffff], // -7
  [63, 0],
  [32, 0],
  [31, 0],
  [64, 0],
  [0x89abcdef, 0x01234567],
];

function operandWords(kind: 'doubles' | 'ints' | 'f32' | 'u32' | 'triples', seed: number, n: number): number[][] {
  if (kind === 'doubles') return doublePairs(seed, n);
  if (kind === 'triples') return doubleTriples(seed, n);
  const r = rng(seed);
  const out: number[][] = [];
  if (kind === 'f32') {
    const edges = [
      0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x3f800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
      0xffc12345,
    ];
    for (const e of edges) out.push([e, 0, 0, 0]);
    while (out.length < n) out.push([r() & (r() & 1 ? 0x807fffff : 0xffffffff), 0, 0, 0]);
    return out;
  }
  for (const a of EDGE_INTS) for (const b of EDGE_INTS) out.push([...a, ...b]);
  while (out.length < EDGE_INTS.length ** 2 + n) {
    const k = r() % 3;
    const a = [r(), k === 0 ? r() % 4 : r()];
    const b = k === 1 ? [r() % 70, 0] : [r() >>> (r() % 32), k === 2 ? r() >>> (r() % 32) : r()];
    out.push([...a, ...b]);
  }
  return out;
}

// ---- the programs -----------------------------------------------------------------------

const GROUP = 64;

/** A compute program calling `op` once per thread: operands at words 8i.., result at words 2i... */
function program(op: Soft64Op): Module {
  const m = new ModuleBuilder();
  const lib = new Soft64(m);
  const u32 = m.scalar('u32');
  const arr = m.array(u32, null);
  const input = m.addGlobal({
    name: 'operands',
    space: 'storage',
    access: 'read',
    type: arr,
    binding: { group: 0, binding: 0 },
  });
  const output = m.addGlobal({
    name: 'results',
    space: 'storage',
    access: 'read_write',
    type: arr,
    binding: { group: 0, binding: 1 },
  });
  const f = new FunctionBuilder(m, 'main');
  f.arg({ name: 'id', type: m.vec('u32', 3), binding: { kind: 'builtin', builtin: 'global_invocation_id' } });
  const i = f.bind('i', f.expr({ op: 'swizzle', vector: f.expr({ op: 'arg', index: 0 }), pattern: [0] }));
  const word = (k: number): ExprId =>
    f.expr({
      op: 'load',
      pointer: f.expr({
        op: 'access',
        base: f.expr({ op: 'global', global: input }),
        index: f.expr({
          op: 'binary',
          fn: 'add',
          left: f.expr({ op: 'binary', fn: 'mul', left: i, right: f.u32(8) }),
          right: f.u32(k),
        }),
      }),
    });
  const v2 = (k: number): ExprId => f.expr({ op: 'compose', type: lib.tV2, parts: [word(k), word(k + 1)] });
  const fn = m.functions[lib.fn(op)]!;
  const args = fn.args.map((a, k) => {
    const t = m.types[a.type]!;
    if (t.kind === 'vector') return v2(2 * k);
    if (t.kind === 'scalar' && t.scalar === 'f32') return f.expr({ op: 'bitcast', to: 'f32', value: word(2 * k) });
    if (t.kind === 'scalar' && t.scalar === 'i32') return f.expr({ op: 'bitcast', to: 'i32', value: word(2 * k) });
    return word(2 * k);
  });
  const r = lib.call(f, op, args);
  const rt = m.types[fn.result!.type]!;
  let lo: ExprId;
  let hi: ExprId = f.u32(0);
  if (rt.kind === 'vector') {
    lo = f.expr({ op: 'swizzle', vector: r, pattern: [0] });
    hi = f.expr({ op: 'swizzle', vector: r, pattern: [1] });
  } else if (rt.kind === 'scalar' && rt.scalar === 'bool')
    lo = f.expr({ op: 'select', cond: r, accept: f.u32(1), reject: f.u32(0) });
  else if (rt.kind === 'scalar' && rt.scalar === 'f32') lo = f.expr({ op: 'bitcast', to: 'u32', value: r });
  else lo = r;
  const out = (k: number, v: ExprId) =>
    f.stmt({
      op: 'store',
      pointer: f.expr({
        op: 'access',
        base: f.expr({ op: 'global', global: output }),
        index: f.expr({
          op: 'binary',
          fn: 'add',
          left: f.expr({ op: 'binary', fn: 'mul', left: i, right: f.u32(2) }),
          right: f.u32(k),
        }),
      }),
      value: v,
    });
  out(0, lo);
  out(1, hi);
  const id = m.addFunction(f.finish());
  m.entryPoints.push({ name: 'main', stage: 'compute', function: id, workgroupSize: [GROUP, 1, 1] });
  return m.finish();
}

function casesOf(op: Soft64Op, n: number): Case[] {
  const spec = REFS[op]!;
  return operandWords(spec.operands, 0x5eed + op.length * 7919 + op.charCodeAt(4), n).map((w) => {
    const a: [number, number] = [w[0]! >>> 0, w[1]! >>> 0];
    const b: [number, number] = [w[2]! >>> 0, w[3]! >>> 0];
    const c: [number, number] = [(w[4] ?? 0) >>> 0, (w[5] ?? 0) >>> 0];
    return { input: [...a, ...b, ...c], want: spec.ref(a, b, c) };
  });
}

function packInput(cases: readonly Case[]): Uint32Array {
  const groups = Math.ceil(cases.length / GROUP);
  const w = new Uint32Array(groups * GROUP * 8);
  cases.forEach((c, k) => w.set(c.input, 8 * k));
  return w;
}

const hex = (w: readonly number[]) => w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(':');

/** The first cases whose result words differ from the reference. */
function mismatches(cases: readonly Case[], got: Uint32Array): string[] {
  const bad: string[] = [];
  cases.forEach((c, k) => {
    if (got[2 * k] !== c.want[0] >>> 0 || got[2 * k + 1] !== c.want[1] >>> 0)
      bad.push(`operands ${hex(c.input)}: got ${hex([got[2 * k]!, got[2 * k + 1]!])}, want ${hex(c.want)}`);
  });
  return bad;
}

const OPS = SOFT64_OPS.filter((op) => REFS[op]);
const RANDOM = 1500;

test('every 64-bit helper but f64_round has a reference here (f64_round is reached through the others)', () => {
  assert.deepEqual(
    SOFT64_OPS.filter((op) => !REFS[op]),
    ['f64_round'],
  );
});

for (const op of OPS) {
  test(`${op}: the executor gives the reference's words on edge and random operands`, () => {
    const m = program(op);
    assert.deepEqual(validateModule(m), []);
    const cases = casesOf(op, RANDOM);
    const input = packInput(cases);
    const out = new Uint32Array(input.length / 4);
    runCompute(m, {
      workgroups: [input.length / 8 / GROUP, 1, 1],
      buffers: { '0:0': input, '0:1': out },
      denormals: 'preserve',
    });
    const bad = mismatches(cases, out);
    assert.deepEqual(bad.slice(0, 8), [], `${bad.length} of ${cases.length} differ`);
  });
}

test('a double NaN operand comes back quiet, and invalid operations give the default NaN', () => {
  // the reference above encodes the rule; these pin it down on words
  const cases = casesOf('f64_add', 0).filter((c) => hex(c.input.slice(0, 4)) === hex([0, 0x7ff00000, 0, 0xfff00000]));
  assert.deepEqual(cases[0]?.want, [0, 0x7ff80000]);
  const snan = casesOf('f64_mul', 0).find((c) => hex(c.input.slice(0, 4)) === hex([1, 0x7ff00000, 0, 0x3ff00000]));
  assert.deepEqual(snan?.want, [1, 0x7ff80000]);
});

const skip = webgpuSkip();

test('Tint compiles every helper program', { skip }, async () => {
  const sources = OPS.map((op) => emitModuleWgsl(lowerForWgsl(program(op), { maxVertices: 1 }), {}));
  const results = await compileWgsl(sources);
  const bad = results.flatMap((r, k) => (r.ok ? [] : [`${OPS[k]}: ${r.messages.join('; ')}`]));
  assert.deepEqual(bad, []);
});

// Dawn (SwiftShader) runs a few of the programs: the same words as the executor and the reference.
const ON_DAWN: Soft64Op[] = ['f64_add', 'f64_mul', 'f64_div', 'f64_fma', 'f64_to_f32', 'i64_mul', 'i64_sdiv'];
for (const op of ON_DAWN) {
  test(`${op} on Dawn gives the reference's words`, { skip }, async () => {
    const cases = casesOf(op, 300);
    const input = packInput(cases);
    const code = emitModuleWgsl(lowerForWgsl(program(op), { maxVertices: 1 }), {});
    const r = await gpuCompute({
      code,
      workgroups: [input.length / 8 / GROUP, 1, 1],
      bindings: [
        { group: 0, binding: 0, type: 'storage', words: input, readOnly: true },
        { group: 0, binding: 1, type: 'storage', words: new Uint32Array(input.length / 4) },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join('; ')}`);
    const got = r.outputs['0:1']!;
    const bad = mismatches(cases, got);
    assert.deepEqual(bad.slice(0, 8), [], `${bad.length} of ${cases.length} differ`);
  });
}
