// The DXIL lifter's i64 and double instructions (src/lift/dxil/inst.ts: binops, casts, comparisons,
// select, memory of two words; lift/f64.ts computes them): each case is a small compute program made
// by editing a real dxc program (test/fixtures/dxil/DXIL__FillTexture, which stores four lanes to
// RWTexture2D u0 at the thread id) so that its lanes are the result's words, lifted and run on the
// executor, against BigInt (LLVM's integer rules, DXIL's all-ones for a division by zero) and
// JavaScript's float64 (IEEE binary64) as the reference. The operands go through the thread id
// (x + zext(tid) with tid 0 in the thread read), so nothing is folded. Tint compiles every program.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Block, Constant, Instruction, Type, type Module, type Value } from '../../src/dxil/ir.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { runCompute } from '../../src/exec/index.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import type { Program } from '../../src/ir/program.js';
import { LiftRefusal } from '../../src/lift/refuse.js';
import { BIN, CAST } from '../../src/lift/dxil/inst.js';
import { BINOPS, CASTS } from '../../src/dxil/printer-support.js';
import { declaredCall } from './dxil-build.js';

const FILL = join(FIXTURES, 'dxil/DXIL__FillTexture.comp_232c51f1.dxil');
const wgsl: string[] = [];

class Body {
  readonly out: Instruction[] = [];
  readonly types = new Map<string, Type>();
  constructor(
    readonly m: Module,
    readonly tid: Value,
  ) {}
  type(kind: Type['kind'], width = 0): Type {
    const key = `${kind}${width}`;
    let t = this.types.get(key) ?? this.m.types.find((x) => x.kind === kind && x.width === width);
    if (!t) {
      t = new Type(kind);
      t.width = width;
      this.m.types.push(t);
    }
    this.types.set(key, t);
    return t;
  }
  get i64() {
    return this.type('int', 64);
  }
  get i32() {
    return this.type('int', 32);
  }
  get f64() {
    return this.type('double');
  }
  get f32() {
    return this.type('float');
  }
  int(n: bigint, t: Type): Constant {
    const c = new Constant(t, 'int');
    c.bits = BigInt.asUintN(t.width, n);
    return c;
  }
  fp(bits: bigint, t: Type): Constant {
    const c = new Constant(t, 'float');
    c.bits = bits;
    return c;
  }
  inst(op: string, t: Type, sub: number, ops: Value[]): Instruction {
    const i = new Instruction(op as Instruction['op'], t);
    i.sub = sub;
    i.ops = ops;
    this.out.push(i);
    return i;
  }
  /** A call of a dx.op function (declared on first use). */
  call(name: string, ret: Type, args: Value[]): Instruction {
    const i = declaredCall(name, ret, args);
    this.out.push(i);
    return i;
  }
  bin(sub: number, a: Value, b: Value): Instruction {
    return this.inst('binop', a.type, sub, [a, b]);
  }
  cast(sub: number, v: Value, to: Type): Instruction {
    return this.inst('cast', to, sub, [v]);
  }
  /** An operand through the thread id (0 in the thread read): x + zext(tid), or for a double its
   * bits so made and bit cast. */
  live(v: Constant): Value {
    if (v.type.kind === 'double') return this.cast(CAST.bitcast, this.live(this.int(v.bits, this.i64)), this.f64);
    if (v.type.kind === 'float')
      return this.cast(CAST.bitcast, this.bin(BIN.add, this.int(v.bits, this.i32), this.tid), this.f32);
    const t = v.type;
    const tid = t.width === 32 ? this.tid : this.cast(t.width > 32 ? CAST.zext : CAST.trunc, this.tid, t);
    return this.bin(BIN.add, v, tid);
  }
  /** The low and high words of a 64-bit value, or a 32-bit (or narrower, or i1) value and 0. */
  lanes(v: Value): Value[] {
    let x = v;
    if (x.type.kind === 'double') x = this.cast(CAST.bitcast, x, this.i64);
    if (x.type.kind === 'float') x = this.cast(CAST.bitcast, x, this.i32);
    if (x.type.kind === 'int' && x.type.width === 64) {
      const lo = this.cast(CAST.trunc, x, this.i32);
      const hi = this.cast(CAST.trunc, this.bin(BIN.lshr, x, this.int(32n, this.i64)), this.i32);
      return [lo, hi];
    }
    if (x.type.kind === 'int' && x.type.width < 32) x = this.cast(CAST.zext, x, this.i32);
    return [x, this.int(0n, this.i32)];
  }
}

/** FillTexture storing the words of `build`'s value in its first two lanes; the words thread 0 stores. */
function runCase(build: (b: Body) => Value): [number, number] {
  const c = parseContainer(readBytes(FILL));
  const m = readPartModule(c, 'DXIL')!;
  const main = m.functions.find((f) => f.name === 'main')!;
  const insts = main.blocks[0]!.insts;
  const store = insts.findIndex((i) => i.op === 'call' && i.callee?.name === 'dx.op.textureStore.f32');
  const st = insts[store]!;
  const b = new Body(m, st.ops[2]!);
  const [lo, hi] = b.lanes(build(b));
  const asF = (v: Value) => b.cast(CAST.bitcast, v, b.f32);
  const lanes = [asF(lo!), asF(hi!), st.ops[7]!, st.ops[8]!];
  st.ops = [...st.ops.slice(0, 5), ...lanes, st.ops[9]!];
  insts.splice(store, 0, ...b.out);
  const p: Program = liftModule(m, 'DXIL', 0);
  assert.deepEqual(validateModule(p.module), []);
  if (wgsl.length < 400) wgsl.push(emitWgsl(p));
  const levels = [new Uint32Array(8 * 8 * 4)];
  runCompute(p, { workgroups: [1, 1, 1], textures: { '3:0': { width: 8, height: 8, depthOrLayers: 1, levels } } });
  return [levels[0]![0]!, levels[0]![1]!];
}

const split = (v: bigint): [number, number] => {
  const u = BigInt.asUintN(64, v);
  return [Number(u & 0xffffffffn), Number(u >> 32n)];
};
const s64 = (v: bigint) => BigInt.asIntN(64, v);
const u64 = (v: bigint) => BigInt.asUintN(64, v);
const ONES = 2n ** 64n - 1n;
const DV = new DataView(new ArrayBuffer(8));
const bitsOf = (x: number): bigint => {
  DV.setFloat64(0, x, true);
  return DV.getBigUint64(0, true);
};
const f32Bits = (x: number): number => {
  DV.setFloat32(0, x, true);
  return DV.getUint32(0, true);
};

const INTS = [
  0n,
  1n,
  7n,
  0xffffffffn,
  0x100000000n,
  0x7fffffffffffffffn,
  0x8000000000000000n,
  ONES,
  u64(-7n),
  0x0123456789abcdefn,
];

test("the lifter's LLVM opcode numbers are the listing printer's (checked against dxc's listings)", () => {
  // The programs below are built with the lifter's tables; this ties them to the printer's, so a
  // wrong number in either cannot make both sides agree silently.
  assert.deepEqual(
    Object.entries(BIN),
    BINOPS.map((name, i) => [name, i]),
  );
  assert.deepEqual(
    Object.entries(CAST),
    CASTS.map((name, i) => [name, i]),
  );
});

test('i64 binops: add, sub, mul, division (by zero: all ones), shifts (counts modulo 64), and, or, xor', () => {
  const ref: Record<keyof typeof BIN, (a: bigint, b: bigint) => bigint> = {
    add: (a, b) => a + b,
    sub: (a, b) => a - b,
    mul: (a, b) => a * b,
    udiv: (a, b) => (b === 0n ? ONES : a / b),
    sdiv: (a, b) => (b === 0n ? ONES : s64(a) / s64(b)),
    urem: (a, b) => (b === 0n ? ONES : a % b),
    srem: (a, b) => (b === 0n ? ONES : s64(a) % s64(b)),
    shl: (a, b) => a << (b & 63n),
    lshr: (a, b) => a >> (b & 63n),
    ashr: (a, b) => s64(a) >> (b & 63n),
    and: (a, b) => a & b,
    or: (a, b) => a | b,
    xor: (a, b) => a ^ b,
  };
  const pairs: [bigint, bigint][] = [];
  for (const a of [INTS[3]!, INTS[5]!, INTS[6]!, INTS[8]!, INTS[9]!])
    for (const b of [0n, 1n, 7n, 33n, 63n, 64n + 5n, ONES, u64(-7n), 0x100000000n]) pairs.push([a, b]);
  const bad: string[] = [];
  for (const [name, sub] of Object.entries(BIN) as [keyof typeof BIN, number][])
    for (const [a, b] of pairs) {
      const got = runCase((x) => x.bin(sub, x.live(x.int(a, x.i64)), x.live(x.int(b, x.i64))));
      const want = split(ref[name](a, b));
      if (got[0] !== want[0] || got[1] !== want[1]) bad.push(`${name} ${a} ${b}: ${got} want ${want}`);
    }
  assert.deepEqual(bad, []);
});

test('icmp on i64: the ten predicates, signed and unsigned, across the word boundary', () => {
  const ref = [
    (a: bigint, b: bigint) => a === b,
    (a: bigint, b: bigint) => a !== b,
    (a: bigint, b: bigint) => a > b,
    (a: bigint, b: bigint) => a >= b,
    (a: bigint, b: bigint) => a < b,
    (a: bigint, b: bigint) => a <= b,
    (a: bigint, b: bigint) => s64(a) > s64(b),
    (a: bigint, b: bigint) => s64(a) >= s64(b),
    (a: bigint, b: bigint) => s64(a) < s64(b),
    (a: bigint, b: bigint) => s64(a) <= s64(b),
  ];
  const vals = [0n, 1n, 0xffffffffn, 0x100000000n, 0x8000000000000000n, ONES];
  const bad: string[] = [];
  ref.forEach((fn, k) => {
    for (const a of vals)
      for (const b of vals) {
        const got = runCase((x) =>
          x.inst('cmp', x.type('int', 1), 32 + k, [x.live(x.int(a, x.i64)), x.live(x.int(b, x.i64))]),
        );
        if (got[0] !== (fn(a, b) ? 1 : 0)) bad.push(`predicate ${32 + k} ${a} ${b}: ${got[0]}`);
      }
  });
  assert.deepEqual(bad, []);
});

const DOUBLES = [
  0,
  -0,
  1,
  -1.5,
  0.1,
  3,
  2 ** -1074,
  2 ** -1022,
  1.7976931348623157e308,
  Infinity,
  -Infinity,
  NaN,
  1e-310,
  123456789.123,
];

test('double binops and fcmp: IEEE binary64 against JavaScript, the sixteen predicates with NaN', () => {
  const bad: string[] = [];
  const ops: [number, (a: number, b: number) => number][] = [
    [0, (a, b) => a + b],
    [1, (a, b) => a - b],
    [2, (a, b) => a * b],
    [4, (a, b) => a / b],
  ];
  for (const a of DOUBLES)
    for (const b of DOUBLES.slice(0, 9)) {
      for (const [sub, fn] of ops) {
        const got = runCase((x) => x.bin(sub, x.live(x.fp(bitsOf(a), x.f64)), x.live(x.fp(bitsOf(b), x.f64))));
        const r = fn(a, b);
        const want = Number.isNaN(r) ? null : split(bitsOf(r));
        const isNan = (got[1] & 0x7ff00000) === 0x7ff00000 && ((got[1] & 0xfffff) !== 0 || got[0] !== 0);
        if (want === null ? !isNan : got[0] !== want[0] || got[1] !== want[1])
          bad.push(`binop ${sub} ${a} ${b}: ${got}`);
      }
    }
  // false oeq ogt oge olt ole one ord uno ueq ugt uge ult ule une true
  const cmp = (p: number, a: number, b: number): boolean => {
    const uno = Number.isNaN(a) || Number.isNaN(b);
    const rel = [false, a === b, a > b, a >= b, a < b, a <= b, a !== b && !uno, !uno][p & 7]!;
    if (p === 0 || p === 15) return p === 15;
    if (p === 7) return !uno;
    if (p === 8) return uno;
    if (p < 8) return rel;
    return uno || [false, a === b, a > b, a >= b, a < b, a <= b, a !== b][p - 8]!;
  };
  for (let p = 0; p < 16; p++)
    for (const a of [0, -0, 1, NaN, -Infinity])
      for (const b of [0, 1, NaN, 2 ** -1074]) {
        const got = runCase((x) =>
          x.inst('cmp', x.type('int', 1), p, [x.live(x.fp(bitsOf(a), x.f64)), x.live(x.fp(bitsOf(b), x.f64))]),
        );
        if (got[0] !== (cmp(p, a, b) ? 1 : 0)) bad.push(`fcmp ${p} ${a} ${b}: ${got[0]}`);
      }
  assert.deepEqual(bad, []);
});

test('casts: trunc, zext and sext between i64 and i1/i16/i32; int <-> double and float; fptrunc, fpext; bitcast', () => {
  const bad: string[] = [];
  const check = (what: string, got: [number, number], want: [number, number]) => {
    if (got[0] !== want[0] >>> 0 || got[1] !== want[1] >>> 0) bad.push(`${what}: ${got} want ${want}`);
  };
  for (const v of INTS) {
    check(
      `trunc i32 ${v}`,
      runCase((x) => x.cast(CAST.trunc, x.live(x.int(v, x.i64)), x.i32)),
      [Number(v & 0xffffffffn), 0],
    );
    check(
      `trunc i16 ${v}`,
      runCase((x) => x.cast(CAST.trunc, x.live(x.int(v, x.i64)), x.type('int', 16))),
      [Number(v & 0xffffn), 0],
    );
    check(
      `trunc i1 ${v}`,
      runCase((x) => x.cast(CAST.trunc, x.live(x.int(v, x.i64)), x.type('int', 1))),
      [Number(v & 1n), 0],
    );
    check(
      `uitofp ${v}`,
      runCase((x) => x.cast(CAST.uitofp, x.live(x.int(v, x.i64)), x.f64)),
      split(bitsOf(Number(v))),
    );
    check(
      `sitofp ${v}`,
      runCase((x) => x.cast(CAST.sitofp, x.live(x.int(v, x.i64)), x.f64)),
      split(bitsOf(Number(s64(v)))),
    );
    check(
      `bitcast ${v}`,
      runCase((x) => x.cast(CAST.bitcast, x.cast(CAST.bitcast, x.live(x.int(v, x.i64)), x.f64), x.i64)),
      split(v),
    );
  }
  for (const v of [0n, 5n, 0x7fffffffn, 0x80000000n, 0xffffffffn]) {
    check(
      `zext ${v}`,
      runCase((x) => x.cast(CAST.zext, x.live(x.int(v, x.i32)), x.i64)),
      split(v),
    );
    check(
      `sext ${v}`,
      runCase((x) => x.cast(CAST.sext, x.live(x.int(v, x.i32)), x.i64)),
      split(BigInt.asIntN(32, v)),
    );
    check(
      `sext i16 ${v}`,
      runCase((x) => x.cast(CAST.sext, x.live(x.int(v & 0xffffn, x.type('int', 16))), x.i64)),
      split(BigInt.asIntN(16, v & 0xffffn)),
    );
    check(
      `uitofp i32 ${v}`,
      runCase((x) => x.cast(CAST.uitofp, x.live(x.int(v, x.i32)), x.f64)),
      split(bitsOf(Number(v))),
    );
    check(
      `sitofp i32 ${v}`,
      runCase((x) => x.cast(CAST.sitofp, x.live(x.int(v, x.i32)), x.f64)),
      split(bitsOf(Number(BigInt.asIntN(32, v)))),
    );
  }
  check(
    'sext i1',
    runCase((x) => x.cast(CAST.sext, x.inst('cmp', x.type('int', 1), 32, [x.tid, x.tid]), x.i64)),
    [0xffffffff, 0xffffffff],
  );
  check(
    'zext i1',
    runCase((x) => x.cast(CAST.zext, x.inst('cmp', x.type('int', 1), 32, [x.tid, x.tid]), x.i64)),
    [1, 0],
  );
  // Direct3D's float to integer: NaN 0, truncated toward zero, clamped
  const toI = (d: number, signed: boolean, w: number): bigint => {
    if (Number.isNaN(d)) return 0n;
    const lo = signed ? -(2n ** BigInt(w - 1)) : 0n;
    const hi = signed ? 2n ** BigInt(w - 1) - 1n : 2n ** BigInt(w) - 1n;
    if (d === Infinity) return hi;
    if (d === -Infinity) return lo;
    const t = BigInt(Math.trunc(d));
    return t < lo ? lo : t > hi ? hi : t;
  };
  for (const d of [...DOUBLES, -3.99, 2 ** 63, -(2 ** 63), 2 ** 64, 4294967295.5, -2147483648.7]) {
    const live = (x: Body) => x.live(x.fp(bitsOf(d), x.f64));
    check(
      `fptosi i64 ${d}`,
      runCase((x) => x.cast(CAST.fptosi, live(x), x.i64)),
      split(toI(d, true, 64)),
    );
    check(
      `fptoui i64 ${d}`,
      runCase((x) => x.cast(CAST.fptoui, live(x), x.i64)),
      split(toI(d, false, 64)),
    );
    check(
      `fptosi i32 ${d}`,
      runCase((x) => x.cast(CAST.fptosi, live(x), x.i32)),
      [Number(BigInt.asUintN(32, toI(d, true, 32))), 0],
    );
    check(
      `fptoui i32 ${d}`,
      runCase((x) => x.cast(CAST.fptoui, live(x), x.i32)),
      [Number(toI(d, false, 32)), 0],
    );
    const f = Math.fround(d);
    check(
      `fptrunc ${d}`,
      runCase((x) => x.cast(CAST.fptrunc, live(x), x.f32)),
      [Number.isNaN(f) ? 0x7fc00000 : f32Bits(f), 0],
    );
    if (!Number.isNaN(f))
      check(
        `fpext ${f}`,
        runCase((x) => x.cast(CAST.fpext, x.live(x.fp(BigInt(f32Bits(f)), x.f32)), x.f64)),
        split(bitsOf(f)),
      );
  }
  check(
    'uitofp i64 to float (one rounding)',
    runCase((x) => x.cast(CAST.uitofp, x.live(x.int(0x0100000100000001n, x.i64)), x.f32)),
    // 2^56 + 2^32 + 1: float's ulp there is 2^33, so it is just past half an ulp above 2^56 + 2^32's
    // neighbour 2^56 and rounds up to 2^56 + 2^33 (0x5b800001); rounded to a double first it would
    // lose the 1 (a double's ulp there is 16), tie, and round to even, 2^56 (0x5b800000)
    [0x5b800001, 0],
  );
  assert.deepEqual(bad, []);
});

test('select of i64, and i64 and double memory (an alloca of two words each): stored and loaded whole', () => {
  const got = runCase((x) => {
    const c = x.inst('cmp', x.type('int', 1), 32, [x.tid, x.tid]);
    return x.inst('select', x.i64, 0, [c, x.live(x.int(0x1122334455667788n, x.i64)), x.int(5n, x.i64)]);
  });
  assert.deepEqual(got, [0x55667788, 0x11223344]);
  const viaMemory = (t: 'i64' | 'f64', v: bigint): [number, number] =>
    runCase((x) => {
      const ty = t === 'i64' ? x.i64 : x.f64;
      const arr = new Type('array');
      arr.count = 2;
      arr.elt = ty;
      const ptr = new Type('ptr');
      ptr.elt = arr;
      const ep = new Type('ptr');
      ep.elt = ty;
      const a = x.inst('alloca', ptr, 0, [x.int(1n, x.i32)]);
      a.explicitType = arr;
      x.out.pop();
      x.out.unshift(a);
      const g = x.inst('gep', ep, 0, [a, x.int(0n, x.i32), x.bin(BIN.add, x.int(1n, x.i32), x.tid)]);
      g.explicitType = arr;
      const val = t === 'i64' ? x.live(x.int(v, x.i64)) : x.live(x.fp(v, x.f64));
      x.inst('store', x.type('void'), 0, [val, g]);
      return x.inst('load', ty, 0, [g]);
    });
  assert.deepEqual(viaMemory('i64', 0xdeadbeef01234567n), [0x01234567, 0xdeadbeef]);
  assert.deepEqual(viaMemory('f64', bitsOf(-2.5)), split(bitsOf(-2.5)));
});

test('dx.op Fma, FMin, FMax, FAbs, Saturate, MakeDouble/SplitDouble and the legacy conversions of doubles', () => {
  const d = (x: number) => (b: Body) => b.live(b.fp(bitsOf(x), b.f64));
  const op = (code: number, name: string, args: ((b: Body) => Value)[], ret?: 'f32' | 'i32') => (b: Body) =>
    b.call(name, ret === 'f32' ? b.f32 : ret === 'i32' ? b.i32 : b.f64, [
      b.int(BigInt(code), b.i32),
      ...args.map((a) => a(b)),
    ]);
  const bad: string[] = [];
  const check = (what: string, build: (b: Body) => Value, want: [number, number]) => {
    const got = runCase(build);
    if (got[0] !== want[0] >>> 0 || got[1] !== want[1] >>> 0) bad.push(`${what}: ${got} want ${want}`);
  };
  // one rounding: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104 exactly (a rounded product would give 0)
  check('Fma', op(47, 'dx.op.tertiary.f64', [d(1 + 2 ** -52), d(1 - 2 ** -52), d(-1)]), split(bitsOf(-(2 ** -104))));
  check('FMin NaN', op(36, 'dx.op.binary.f64', [d(NaN), d(-2)]), split(bitsOf(-2)));
  check('FMax', op(35, 'dx.op.binary.f64', [d(-0.5), d(0.25)]), split(bitsOf(0.25)));
  check('FAbs', op(6, 'dx.op.unary.f64', [d(-7.5)]), split(bitsOf(7.5)));
  check('Saturate NaN', op(7, 'dx.op.unary.f64', [d(NaN)]), [0, 0]);
  check('Saturate 1.5', op(7, 'dx.op.unary.f64', [d(1.5)]), split(bitsOf(1)));
  check('Saturate 0.3', op(7, 'dx.op.unary.f64', [d(0.3)]), split(bitsOf(0.3)));
  check('LegacyDoubleToFloat', op(132, 'dx.op.legacyDoubleToFloat', [d(0.1)], 'f32'), [f32Bits(Math.fround(0.1)), 0]);
  check('LegacyDoubleToSInt32', op(133, 'dx.op.legacyDoubleToSInt32', [d(-1e12)], 'i32'), [0x80000000, 0]);
  check('LegacyDoubleToUInt32', op(134, 'dx.op.legacyDoubleToUInt32', [d(7.9)], 'i32'), [7, 0]);
  const made = (b: Body) => {
    const m = b.call('dx.op.makeDouble.f64', b.f64, [
      b.int(101n, b.i32),
      b.live(b.int(0x89abcdefn, b.i32)),
      b.int(0x01234567n, b.i32),
    ]);
    const t = new Type('struct');
    t.elts = [b.i32, b.i32];
    t.name = 'dx.types.splitdouble';
    const sp = b.call('dx.op.splitDouble.f64', t, [b.int(102n, b.i32), m]);
    const hi = new Instruction('extractvalue', b.i32);
    hi.ops = [sp];
    hi.indices = [1];
    b.out.push(hi);
    return hi;
  };
  check('MakeDouble then SplitDouble', made, [0x01234567, 0]);
  assert.deepEqual(bad, []);
});

/** A switch on an i64 (the selector through the thread id): the case taken, its number (cases in
 * order, the default `values.length`), as thread 0 stores it. */
function runSwitch(selector: bigint, values: readonly bigint[]): number {
  const c = parseContainer(readBytes(FILL));
  const m = readPartModule(c, 'DXIL')!;
  const main = m.functions.find((f) => f.name === 'main')!;
  const entry = main.blocks[0]!;
  const store = entry.insts.findIndex((i) => i.op === 'call' && i.callee?.name === 'dx.op.textureStore.f32');
  const tail = entry.insts.splice(store);
  const st = tail[0]!;
  const b = new Body(m, st.ops[2]!);
  const sel = b.live(b.int(selector, b.i64));
  entry.insts.push(...b.out);
  const label = entry.type;
  const voidT = tail[tail.length - 1]!.type;
  const blocks = values.map((_, k) => new Block(label, k + 1));
  const def = new Block(label, values.length + 1);
  const join = new Block(label, values.length + 2);
  const sw = new Instruction('switch', voidT);
  sw.ops = [sel];
  sw.blocks = [def.index, ...blocks.map((x) => x.index)];
  sw.cases = values.map((v) => b.int(v, b.i64));
  entry.insts.push(sw);
  for (const x of [...blocks, def]) {
    const br = new Instruction('br', voidT);
    br.blocks = [join.index];
    x.insts.push(br);
  }
  const phi = new Instruction('phi', b.i32);
  phi.ops = [...values.map((_, k) => b.int(BigInt(k), b.i32)), b.int(BigInt(values.length), b.i32)];
  phi.blocks = [...blocks.map((x) => x.index), def.index];
  const asF = new Instruction('cast', b.f32);
  asF.sub = CAST.bitcast;
  asF.ops = [phi];
  st.ops = [...st.ops.slice(0, 5), asF, ...st.ops.slice(6)];
  join.insts.push(phi, asF, ...tail);
  main.blocks = [entry, ...blocks, def, join];
  const p = liftModule(m, 'DXIL', 0);
  assert.deepEqual(validateModule(p.module), []);
  wgsl.push(emitWgsl(p));
  const levels = [new Uint32Array(8 * 8 * 4)];
  runCompute(p, { workgroups: [1, 1, 1], textures: { '3:0': { width: 8, height: 8, depthOrLayers: 1, levels } } });
  return levels[0]![0]!;
}

test('switch on an i64: the case whose 64-bit value equals the selector (both words), else the default', () => {
  const values = [0x100000005n, 5n, ONES, 0x8000000000000000n];
  for (const [sel, want] of [
    [5n, 1],
    [0x100000005n, 0],
    [0x200000005n, 4],
    [ONES, 2],
    [0xffffffffn, 4],
    [0x8000000000000000n, 3],
    [0n, 4],
  ] as const)
    assert.equal(runSwitch(sel, values), want, `selector 0x${sel.toString(16)}`);
});

test('frem of doubles is refused by name', () => {
  assert.throws(
    () => runCase((x) => x.bin(6, x.live(x.fp(bitsOf(1), x.f64)), x.live(x.fp(bitsOf(3), x.f64)))),
    (e: unknown) => e instanceof LiftRefusal && /double precision/.test(String(e.message)),
  );
});

test('Tint compiles the i64 and double programs', { skip: webgpuSkip() }, async () => {
  const results = await compileWgsl(wgsl);
  const bad = results.flatMap((r, k) => (r.ok ? [] : [`#${k}: ${r.messages.join('; ')}`]));
  assert.deepEqual(bad.slice(0, 5), []);
  assert.ok(wgsl.length > 100);
});
