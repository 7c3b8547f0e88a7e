// The SM4/5 lifter's double-precision instructions (src/lift/double.ts over lift/f64.ts): small
// cs_5_0 programs assembled with test/exec/asm.ts read their operands from cb0 (rows of two doubles,
// or of 32-bit lanes) and store results to u0, run on the executor against JavaScript's float64
// (IEEE binary64, round to nearest even) and Direct3D's rules: two doubles per instruction (.xyzw),
// one (.xy or .zw), source modifiers on the sign bit, _sat, the lane rules of dtof (the mask's first
// lane from the first double) and ftod (.zw from the source's second lane), immediate64 operands,
// dmovc, and the conversions' NaN and range rules. Tint compiles every program.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { runCompute } from '../../src/exec/index.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import type { Program } from '../../src/ir/program.js';
import { compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { cb, computeProgram, ins, imm, r, rs, storeRaw, type Operand } from '../exec/asm.js';
import { rng } from '../helpers/rng.js';

const D = {
  dadd: 0xbf,
  dmax: 0xc0,
  dmin: 0xc1,
  dmul: 0xc2,
  deq: 0xc3,
  dge: 0xc4,
  dlt: 0xc5,
  dne: 0xc6,
  dmov: 0xc7,
  dmovc: 0xc8,
  dtof: 0xc9,
  ftod: 0xca,
  ddiv: 0xd2,
  dfma: 0xd3,
  drcp: 0xd4,
  dtoi: 0xd6,
  dtou: 0xd7,
  itod: 0xd8,
  utod: 0xd9,
};

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
const f32 = (x: number): number => {
  DV.setFloat32(0, x, true);
  return DV.getUint32(0, true);
};
const wordsOfBits = (lo: number, hi: number) => [lo >>> 0, hi >>> 0];

const programs: Program[] = [];

/** Runs a body over cb0 (32 words); u0's first 8 words. */
function run(body: number[][], cb0: readonly number[]): number[] {
  const p = lift(computeProgram(body, { threads: 1 }));
  assert.deepEqual(validateModule(p.module), []);
  if (programs.length < 200) programs.push(p);
  const res = (cls: string) => {
    const x = p.interface.resources.find((v) => v.registerClass === cls && v.register === 0)!;
    return `${x.group}:${x.binding}`;
  };
  const c = new Uint32Array(32);
  c.set(cb0.map((w) => w >>> 0));
  const out = new Uint32Array(8);
  runCompute(p, { workgroups: [1, 1, 1], buffers: { [res('b')]: c, [res('u')]: out } });
  return [...out];
}

/** Quiet NaN of the first NaN operand, else the IEEE result's words (the library's NaN rule). */
function want(x: number, ...ops: [number, number][]): number[] {
  for (const o of ops) if (Number.isNaN(double(...o))) return [o[0] >>> 0, (o[1] | 0x80000) >>> 0];
  return Number.isNaN(x) ? [0, 0x7ff80000] : words(x);
}

const SPECIAL: [number, number][] = [
  [0, 0],
  [0, 0x80000000],
  [1, 0],
  [0xffffffff, 0x000fffff],
  [0, 0x3ff00000],
  [0, 0xbff80000],
  [0, 0x3ca00000],
  [0xffffffff, 0x7fefffff],
  [0, 0x7ff00000],
  [0, 0xfff00000],
  [0, 0x7ff80000],
];
function operands(n: number, seed: number): [number, number][] {
  const rr = rng(seed);
  const out = [...SPECIAL];
  while (out.length < n) out.push([rr(), (rr() & 0x800fffff) | ((rr() % 2047) << 20)]);
  return out;
}

const dmin = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a < b ? a : b);
const dmax = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : b < a ? a : b);

test('dadd, dmul, ddiv, dmin, dmax, drcp on two doubles a register: IEEE binary64 words', () => {
  const xs = operands(40, 1);
  const ys = operands(40, 2).reverse();
  const ops: [number, (a: number, b: number) => number][] = [
    [D.dadd, (a, b) => a + b],
    [D.dmul, (a, b) => a * b],
    [D.ddiv, (a, b) => a / b],
  ];
  const bad: string[] = [];
  for (let k = 0; k + 1 < xs.length; k += 2) {
    const cb0 = [...xs[k]!, ...xs[k + 1]!, ...ys[k]!, ...ys[k + 1]!];
    for (const [opc, fn] of ops) {
      const got = run([ins(opc, [r(1), cb(0, 0), cb(0, 1)]), storeRaw(imm(0), rs(1))], cb0);
      const w = [0, 1].flatMap((j) => want(fn(double(...xs[k + j]!), double(...ys[k + j]!)), xs[k + j]!, ys[k + j]!));
      if (got.slice(0, 4).join() !== w.join())
        bad.push(`op ${opc.toString(16)} ${cb0.map((x) => x.toString(16))}: ${got.slice(0, 4)} want ${w}`);
    }
    for (const [opc, fn] of [
      [D.dmin, dmin],
      [D.dmax, dmax],
    ] as const) {
      const got = run([ins(opc, [r(1), cb(0, 0), cb(0, 1)]), storeRaw(imm(0), rs(1))], cb0);
      const w = [0, 1].flatMap((j) => {
        const a = xs[k + j]!;
        const b = ys[k + j]!;
        if (Number.isNaN(double(...a))) return wordsOfBits(...b);
        if (Number.isNaN(double(...b))) return wordsOfBits(...a);
        return words(fn(double(...a), double(...b)));
      });
      if (got.slice(0, 4).join() !== w.join()) bad.push(`op ${opc.toString(16)} ${cb0}: ${got.slice(0, 4)} want ${w}`);
    }
    const rcp = run([ins(D.drcp, [r(1), cb(0, 0)]), storeRaw(imm(0), rs(1))], cb0);
    const wr = [0, 1].flatMap((j) => want(1 / double(...xs[k + j]!), xs[k + j]!));
    if (rcp.slice(0, 4).join() !== wr.join()) bad.push(`drcp ${cb0}: ${rcp.slice(0, 4)} want ${wr}`);
  }
  assert.deepEqual(bad, []);
});

test('one double (.xy or .zw), swizzled sources, - and |x| on the sign bit, _sat', () => {
  const a = words(1.25);
  const b = words(-3.5);
  const cb0 = [...a, ...b]; // cb0[0] = (1.25, -3.5)
  // r1.zw = -(cb0[0].zw) + |cb0[0].xy| = 3.5 + 1.25; r1.xy untouched (0)
  const got = run(
    [
      ins(0x36, [r(1), imm(0, 0, 0, 0)]), // mov r1, 0
      ins(D.dadd, [r(1, 'zw'), cb(0, 0, 'zwzw', { neg: true }), cb(0, 0, 'xyxy', { abs: true })]),
      storeRaw(imm(0), rs(1)),
    ],
    cb0,
  );
  assert.deepEqual(got.slice(0, 4), [0, 0, ...words(4.75)]);
  // _sat: 1.25 * -3.5 -> 0; 1.25 * 0.5 (an immediate64) -> 0.625; NaN -> 0
  const sat = run(
    [
      ins(D.dmul, [r(1, 'xy'), cb(0, 0, 'xyxy'), cb(0, 0, 'zwzw')], 0, true),
      ins(D.dmul, [r(1, 'zw'), cb(0, 0, 'xyxy'), imm64(0.5, 0.5)], 0, true),
      ins(D.dadd, [r(2, 'xy'), cb(0, 1, 'xyxy'), cb(0, 1, 'xyxy')], 0, true),
      storeRaw(imm(0), rs(1)),
      storeRaw(imm(16), rs(2)),
    ],
    [...cb0, 0, 0x7ff80000, 0, 0],
  );
  assert.deepEqual(sat.slice(0, 6), [0, 0, ...words(0.625), 0, 0]);
});

test("deq, dge, dlt, dne write the mask's lanes in order from the first and second double", () => {
  const cases: [number, number][] = [
    [1, 1],
    [-0, 0],
    [1, 2],
    [2, 1],
    [NaN, 1],
    [-Infinity, 5e-324],
  ];
  const bad: string[] = [];
  for (let k = 0; k + 1 < cases.length; k += 2) {
    const [[a0, b0], [a1, b1]] = [cases[k]!, cases[k + 1]!];
    const cb0 = [...words(a0), ...words(a1), ...words(b0), ...words(b1)];
    for (const [opc, fn] of [
      [D.deq, (x: number, y: number) => x === y],
      [D.dge, (x: number, y: number) => x >= y],
      [D.dlt, (x: number, y: number) => x < y],
      [D.dne, (x: number, y: number) => x !== y],
    ] as const) {
      // r1.yw: y from the first double, w from the second
      const got = run(
        [ins(0x36, [r(1), imm(7, 7, 7, 7)]), ins(opc, [r(1, 'yw'), cb(0, 0), cb(0, 1)]), storeRaw(imm(0), rs(1))],
        cb0,
      );
      const t = (v: boolean) => (v ? 0xffffffff : 0);
      const w = [7, t(fn(a0, b0)), 7, t(fn(a1, b1))];
      if (got.slice(0, 4).join() !== w.join())
        bad.push(`${opc.toString(16)} ${a0},${b0} ${a1},${b1}: ${got.slice(0, 4)}`);
    }
  }
  assert.deepEqual(bad, []);
});

test("dtof (rounded once, to the mask's lanes in order), ftod (.zw from the second lane), dtoi, dtou, itod, utod, dmovc", () => {
  const big = 3.4028235677973366e38; // just past float's largest finite by less than half an ulp
  const tie = 1 + 2 ** -24; // a tie between 1 and 1 + 2^-23: to even, 1
  const cb0 = [...words(big), ...words(tie), ...words(-2147483648.9), ...words(4294967296.5)];
  const got = run(
    [
      ins(0x36, [r(1), imm(7, 7, 7, 7)]),
      ins(D.dtof, [r(1, 'xz'), cb(0, 0)]),
      ins(D.dtoi, [r(2, 'x'), cb(0, 1)]),
      ins(D.dtou, [r(2, 'y'), cb(0, 1, 'zwzw')]),
      ins(D.dtou, [r(2, 'z'), cb(0, 1, 'xyxy', { neg: true })]),
      ins(D.dtoi, [r(2, 'w'), cb(0, 0, 'zwzw', { neg: true })]),
      storeRaw(imm(0), rs(1)),
      storeRaw(imm(16), rs(2)),
    ],
    cb0,
  );
  // dtoi of -2147483648.9 truncates to -2^31; dtou of 2^32 + 0.5 clamps; dtou of +2147483648.9: 2^31; dtoi of -1.0000000596: -1
  assert.deepEqual(got, [f32(Math.fround(big)), 7, f32(1), 7, 0x80000000, 0xffffffff, 0x80000000, 0xffffffff]);
  const cb1 = [f(1.5), f(-0.1), 0xfffffffe, 0x80000000];
  const conv = run(
    [
      ins(D.ftod, [r(1, 'zw'), cb(0, 0, 'xyzw')]),
      ins(D.ftod, [r(1, 'xy'), cb(0, 0, 'xyzw')]),
      ins(D.itod, [r(2), cb(0, 0, 'zwzw')]),
      storeRaw(imm(0), rs(1)),
      storeRaw(imm(16), rs(2)),
    ],
    cb1,
  );
  assert.deepEqual(conv, [...words(1.5), ...words(Math.fround(-0.1)), ...words(-2), ...words(-2147483648)]);
  const u = run([ins(D.utod, [r(1), cb(0, 0, 'zwzw')]), storeRaw(imm(0), rs(1))], cb1);
  assert.deepEqual(u.slice(0, 4), [...words(4294967294), ...words(2147483648)]);
  // dmovc: double j takes condition lane j (.xy: x, .zw: y)
  const mc = run(
    [
      ins(D.dmovc, [r(1), cb(0, 2, 'xyxx'), cb(0, 0), cb(0, 1)]),
      ins(D.dmov, [r(2, 'zw'), cb(0, 0, 'xyxy', { neg: true })]),
      ins(D.dmov, [r(2, 'xy'), cb(0, 1, 'zwzw', { abs: true })]),
      storeRaw(imm(0), rs(1)),
      storeRaw(imm(16), rs(2)),
    ],
    [...words(1), ...words(2), ...words(3), ...words(-4), 0, 5, 0, 0],
  );
  assert.deepEqual(mc, [...words(3), ...words(2), ...words(4), ...words(-1)]);
});

test('dfma rounds once: (1 + 2^-52)(1 - 2^-52) - 1 is -2^-104, not the 0 of a rounded product', () => {
  const cb0 = [...words(1 + 2 ** -52), ...words(1 - 2 ** -52), ...words(-1), 0, 0];
  const got = run(
    [ins(D.dfma, [r(1, 'xy'), cb(0, 0, 'xyxy'), cb(0, 0, 'zwzw'), cb(0, 1, 'xyxy')]), storeRaw(imm(0), rs(1))],
    cb0,
  );
  assert.deepEqual(got.slice(0, 2), words(-(2 ** -104)));
});

test('Tint compiles the double-precision programs', { skip: webgpuSkip() }, async () => {
  const results = await compileWgsl(programs.map((p) => emitWgsl(p)));
  const bad = results.flatMap((x, k) => (x.ok ? [] : [`#${k}: ${x.messages.join('; ')}`]));
  assert.deepEqual(bad, []);
  assert.ok(programs.length > 50);
});

function f(x: number): number {
  return f32(x);
}

/** A four-component immediate64 operand: two doubles. */
function imm64(a: number, b: number): Operand {
  return [((5 << 12) | 2) >>> 0, ...words(a), ...words(b)]; // operand type 5: immediate64
}
