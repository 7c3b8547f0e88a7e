// Analytic tests of the executor: programs written as SM4/5 tokens (asm.ts), lifted, and run on the
// executor; every expected word is worked out by hand from Direct3D 11's definition of the
// instruction (D3D11.3 functional specification, chapter 22, and its float rules in 3.1). Nothing is
// read from data. Each program runs in one thread group; inputs come from cb0, results are stored
// with store_raw to u0 (r1 at byte 0, r2 at byte 16). Pixel and geometry programs (lod, eval_*, a
// subroutine that emits) run on runPixel/runGeometry. When WebGPU is here, Tint compiles every
// program lifted here, and the subroutine programs also run on Dawn against the executor.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { lift } from '../../src/lift/lift.js';
import { isIridiaError } from '../../src/errors.js';
import { LiftRefusal } from '../../src/lift/refuse.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { closeWebgpu, compileWgsl, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';
import { diffCompute } from './diff-harness.js';
import {
  FILE_WORDS,
  RaceDetector,
  nearestClampSampler,
  runCompute,
  runGeometry,
  runPixel,
} from '../../src/exec/index.js';
import type { Program } from '../../src/ir/program.js';
import {
  OP,
  T,
  bitsF,
  cb,
  computeProgram,
  container,
  dst,
  f,
  imm,
  ins,
  insNZ,
  operand,
  r,
  ri,
  rs,
  shex,
  src,
  storeRaw,
  threadIndex,
} from './asm.js';

after(() => closeWebgpu());

const NAN = 'nan' as const;
/** msad's opcode (D3D11_SB_OPCODE_MSAD, 0xd5): asm.ts's table does not carry it. */
const MSAD = 0xd5;
/** lod's opcode (D3D10_1_SB_OPCODE_LOD, 0x6c). */
const LOD = 0x6c;
/** eval_snapped, eval_sample_index, eval_centroid (D3D11_SB_OPCODE_EVAL_*). */
const EVAL_SNAPPED = 0xcb;
const EVAL_SAMPLE_INDEX = 0xcc;
const EVAL_CENTROID = 0xcd;
/** The label operand type (D3D10_SB_OPERAND_TYPE_LABEL). */
const T_LABEL = 10;
type Want = number | typeof NAN;
const INF = 0x7f800000;
const NINF = 0xff800000;
const QNAN = 0x7fc00000;

function resourceKey(p: Program, cls: string, reg: number): string {
  const res = p.interface.resources.find((x) => x.registerClass === cls && x.register === reg);
  assert.ok(res, `the program has ${cls}${reg}`);
  return `${res.group}:${res.binding}`;
}

const refused: string[] = [];
/** Every program these tests lift, for Tint to compile at the end (when WebGPU is here). */
const lifted: { name: string; program: Program }[] = [];

/** Lifts and runs; returns u0's words, or undefined when the lifter refuses the program (recorded). */
function run(
  name: string,
  body: number[][],
  cbWords: number[],
  opts: { threads?: number; out?: number } = {},
): Uint32Array | undefined {
  let p: Program;
  try {
    p = lift(computeProgram(body, { threads: opts.threads ?? 1 }));
  } catch (e) {
    if (isIridiaError(e) && e.code === 'E601_LIFT_UNSUPPORTED') {
      refused.push(`${name}: ${e.message}`);
      return undefined;
    }
    throw e;
  }
  lifted.push({ name, program: p });
  const cbData = new Uint32Array(32);
  cbData.set(cbWords.map((w) => w >>> 0));
  const out = new Uint32Array(opts.out ?? 8);
  runCompute(p, {
    workgroups: [1, 1, 1],
    buffers: { [resourceKey(p, 'b', 0)]: cbData, [resourceKey(p, 'u', 0)]: out },
  });
  return out;
}

function check(name: string, got: Uint32Array | undefined, want: readonly Want[]): void {
  // A refused program checks nothing: it fails here rather than passing with no word compared.
  assert.ok(got, `${name}: the lifter refused it (${refused.find((r) => r.startsWith(`${name}:`)) ?? ''})`);
  want.forEach((w, i) => {
    const g = got[i]!;
    if (w === NAN)
      assert.ok(
        (g & 0x7f800000) === 0x7f800000 && (g & 0x7fffff) !== 0,
        `${name}[${i}]: want NaN, got 0x${g.toString(16)}`,
      );
    else assert.equal(g, w >>> 0, `${name}[${i}]: want 0x${(w >>> 0).toString(16)}, got 0x${g.toString(16)}`);
  });
}

const STORE = [storeRaw(imm(0), rs(1)), storeRaw(imm(16), rs(2))];

interface Case {
  readonly name: string;
  readonly code: number[][];
  readonly cb: number[];
  readonly want: readonly Want[];
}

const c0 = cb(0, 0);
const c1 = cb(0, 1);
const c2 = cb(0, 2);

/** One instruction r1 = op(c0, c1[, c2]). */
function op(name: string, opcode: number, nsrc: number, cbw: number[], want: readonly Want[], sat = false): Case {
  return { name, code: [ins(opcode, [r(1), ...[c0, c1, c2].slice(0, nsrc)], 0, sat)], cb: cbw, want };
}

const FLOAT_CASES: Case[] = [
  op(
    'add: rounding, +0 from x + -x, inf - inf',
    OP.add,
    2,
    [f(1.5), f(-2), INF, f(1e30), f(2.25), f(2), NINF, f(1e30)],
    [f(3.75), 0, NAN, f(2e30)],
  ),
  op('mul: 0 * inf is NaN', OP.mul, 2, [f(3), f(-0.5), 0, INF, f(4), f(4), INF, 0], [f(12), f(-2), NAN, NAN]),
  op(
    'div: x / 0 is a signed infinity, 0 / 0 NaN',
    OP.div,
    2,
    [f(1), f(-1), 0, f(6), 0, 0, 0, f(4)],
    [INF, NINF, NAN, f(1.5)],
  ),
  op(
    'mad',
    OP.mad,
    3,
    [f(2), f(-2), f(0.5), 0, f(3), f(3), f(4), f(7), f(1), f(1), f(-2), f(-0.25)],
    [f(7), f(-5), 0, f(-0.25)],
  ),
  op('dp2', OP.dp2, 2, [f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8)], [f(17), f(17), f(17), f(17)]),
  op('dp3', OP.dp3, 2, [f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8)], [f(38), f(38), f(38), f(38)]),
  op('dp4', OP.dp4, 2, [f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8)], [f(70), f(70), f(70), f(70)]),
  op(
    'min: a NaN operand gives the other',
    OP.min,
    2,
    [QNAN, f(1), f(-3), f(5), f(2), QNAN, f(-4), f(5)],
    [f(2), f(1), f(-4), f(5)],
  ),
  op(
    'max: a NaN operand gives the other',
    OP.max,
    2,
    [QNAN, f(1), f(-3), f(5), f(2), QNAN, f(-4), f(5)],
    [f(2), f(1), f(-3), f(5)],
  ),
  op('frc: x - floor(x)', OP.frc, 1, [f(-1.25), f(2.75), 0, f(-3)], [f(0.75), f(0.75), 0, 0]),
  op('round_ne: halves to even', OP.round_ne, 1, [f(2.5), f(-2.5), f(3.5), f(0.4)], [f(2), f(-2), f(4), 0]),
  op('round_ni: toward -inf', OP.round_ni, 1, [f(-1.5), f(1.5), f(-0.1), f(2)], [f(-2), f(1), f(-1), f(2)]),
  op('round_pi: toward +inf', OP.round_pi, 1, [f(-1.5), f(1.5), f(0.1), f(2)], [f(-1), f(2), f(1), f(2)]),
  op('round_z: toward zero', OP.round_z, 1, [f(-1.7), f(1.7), f(0.2), f(2.9)], [f(-1), f(1), 0, f(2)]),
  op('sqrt: of a negative is NaN', OP.sqrt, 1, [f(4), 0, f(-1), INF], [f(2), 0, NAN, INF]),
  op('rsq: rsq(0) = inf, negative NaN', OP.rsq, 1, [f(4), f(0.25), 0, f(-1)], [f(0.5), f(2), INF, NAN]),
  op('rcp: rcp(±0) = ±inf, rcp(inf) = 0', OP.rcp, 1, [f(2), 0, 0x80000000, INF], [f(0.5), INF, NINF, 0]),
  op('exp: 2^x, exp(-inf) = 0', OP.exp, 1, [f(3), f(-1), NINF, 0], [f(8), f(0.5), 0, f(1)]),
  op('log: log2, log(0) = -inf, negative NaN', OP.log, 1, [f(8), f(1), 0, f(-1)], [f(3), 0, NINF, NAN]),
  op('mov_sat: NaN saturates to 0', OP.mov, 1, [QNAN, f(2), f(-1), f(0.5)], [0, f(1), 0, f(0.5)], true),
  op('add_sat', OP.add, 2, [f(0.75), f(-3), INF, f(0.25), f(0.5), f(1), NINF, f(0.25)], [f(1), 0, 0, f(0.5)], true),
  {
    name: 'neg and abs source modifiers act on the bits (-|x|)',
    code: [ins(OP.mov, [r(1), cb(0, 0, 'xyzw', { neg: true, abs: true })])],
    cb: [f(-2), f(3), 0, f(-0.5)],
    want: [f(-2), f(-3), 0x80000000, f(-0.5)],
  },
  {
    name: 'sincos: sin and cos of 0',
    code: [ins(OP.sincos, [r(1, 'x'), r(2, 'x'), c0])],
    cb: [0, 0, 0, 0],
    want: [0, 0, 0, 0, f(1)],
  },
  op('ftoi: toward zero, NaN 0, saturating', OP.ftoi, 1, [f(1.9), f(-1.9), QNAN, f(3e9)], [1, -1, 0, 0x7fffffff]),
  op(
    'ftoi: below the range saturates to INT_MIN',
    OP.ftoi,
    1,
    [f(-3e9), NINF, f(-0.5), INF],
    [0x80000000, 0x80000000, 0, 0x7fffffff],
  ),
  op(
    'ftou: toward zero, negative and NaN 0, saturating',
    OP.ftou,
    1,
    [f(1.9), f(-1), QNAN, f(5e9)],
    [1, 0, 0, 0xffffffff],
  ),
  op('itof: nearest even', OP.itof, 1, [-3, 0x7fffffff, 16777217, 0], [f(-3), f(2147483648), f(16777216), 0]),
  op('utof: nearest even', OP.utof, 1, [0xffffffff, 3, 16777219, 0], [f(4294967296), f(3), f(16777220), 0]),
  op('eq: NaN is unequal to itself', OP.eq, 2, [QNAN, f(1), 0, f(2), QNAN, f(1), 0x80000000, f(3)], [0, ~0, ~0, 0]),
  op('ne: NaN is unequal to itself', OP.ne, 2, [QNAN, f(1), 0, f(2), QNAN, f(1), 0x80000000, f(3)], [~0, 0, 0, ~0]),
  op('lt', OP.lt, 2, [f(1), f(2), QNAN, NINF, f(2), f(2), f(1), f(0)], [~0, 0, 0, ~0]),
  op('ge', OP.ge, 2, [f(1), f(2), QNAN, INF, f(2), f(2), f(1), INF], [0, ~0, 0, ~0]),
  op(
    'f32tof16: nearest even, overflow to infinity',
    OP.f32tof16,
    1,
    [f(1), f(65520), f(-2), f(1 + 2 ** -11)],
    [0x3c00, 0x7c00, 0xc000, 0x3c00],
  ),
  op(
    'f16tof32: exact, f16 denormals and infinities',
    OP.f16tof32,
    1,
    [0x3c00, 0x0001, 0xfc00, 0x7bff],
    [f(1), f(2 ** -24), NINF, f(65504)],
  ),
];

const INT_CASES: Case[] = [
  op('iadd wraps', OP.iadd, 2, [0x7fffffff, -1, 5, 0, 1, 1, -7, 0], [0x80000000, 0, -2, 0]),
  op('imad', OP.imad, 3, [2, -2, 0x10000, 0, 3, 3, 0x10000, 0, 4, 1, 5, 9], [10, -5, 5, 9]),
  op('umad wraps', OP.umad, 3, [0xffffffff, 2, 0, 0, 2, 3, 0, 0, 3, 1, 0, 0], [1, 7, 0, 0]),
  op('imax', OP.imax, 2, [-5, 7, 0x80000000, 0, 3, -7, 0x7fffffff, 0], [3, 7, 0x7fffffff, 0]),
  op('imin', OP.imin, 2, [-5, 7, 0x80000000, 0, 3, -7, 0x7fffffff, 0], [-5, -7, 0x80000000, 0]),
  op('umax', OP.umax, 2, [0xffffffff, 1, 0, 5, 1, 2, 0, 5], [0xffffffff, 2, 0, 5]),
  op('umin', OP.umin, 2, [0xffffffff, 1, 0, 5, 1, 2, 0, 5], [1, 1, 0, 5]),
  op('ineg: INT_MIN stays INT_MIN', OP.ineg, 1, [5, 0x80000000, 0, -1], [-5, 0x80000000, 0, 1]),
  op('ishl: the count is masked to 5 bits', OP.ishl, 2, [1, 1, 3, 1, 33, 31, 0, 32], [2, 0x80000000, 3, 1]),
  op('ishr: arithmetic, masked count', OP.ishr, 2, [-8, -1, 0x80000000, 64, 1, 31, 32, 3], [-4, -1, 0x80000000, 8]),
  op(
    'ushr: logical, masked count',
    OP.ushr,
    2,
    [0x80000000, 0x80000000, 0xffffffff, 64, 31, 32, 4, 35],
    [1, 0x80000000, 0x0fffffff, 8],
  ),
  op(
    'and',
    OP.and,
    2,
    [0xff00ff00, 0xffffffff, 0, 0x1234, 0x0ff00ff0, 0x5, 0xffffffff, 0xff],
    [0x0f000f00, 5, 0, 0x34],
  ),
  op('or', OP.or, 2, [0xff00ff00, 0, 0, 0x1200, 0x0ff00ff0, 5, 0, 0x34], [0xfff0fff0, 5, 0, 0x1234]),
  op('xor', OP.xor, 2, [0xff00ff00, 5, 0, 0xffffffff, 0x0ff00ff0, 5, 0, 1], [0xf0f0f0f0, 0, 0, 0xfffffffe]),
  op('not', OP.not, 1, [0, 0xffffffff, 0x0f0f0f0f, 1], [0xffffffff, 0, 0xf0f0f0f0, 0xfffffffe]),
  op('ieq', OP.ieq, 2, [1, -1, 0, 5, 1, 0xffffffff, 1, 6], [~0, ~0, 0, 0]),
  op('ine', OP.ine, 2, [1, -1, 0, 5, 1, 0xffffffff, 1, 6], [0, 0, ~0, ~0]),
  op('ige: signed', OP.ige, 2, [-1, 0, 5, 0x80000000, 0, 0, 6, 0x7fffffff], [0, ~0, 0, 0]),
  op('ilt: signed', OP.ilt, 2, [-1, 0, 5, 0x80000000, 0, 0, 6, 0x7fffffff], [~0, 0, ~0, ~0]),
  op('ult: unsigned', OP.ult, 2, [0xffffffff, 0, 5, 1, 0, 0, 6, 0x80000000], [0, 0, ~0, ~0]),
  op('uge: unsigned', OP.uge, 2, [0xffffffff, 0, 5, 1, 0, 0, 6, 0x80000000], [~0, ~0, 0, 0]),
  op('countbits', OP.countbits, 1, [0, 0xffffffff, 0xf0, 1], [0, 32, 4, 1]),
  op(
    'firstbit_hi: counted from the top bit, none is ~0',
    OP.firstbit_hi,
    1,
    [0x80000000, 1, 0, 0x00010000],
    [0, 31, ~0, 15],
  ),
  op('firstbit_lo', OP.firstbit_lo, 1, [8, 0, 0x80000000, 1], [3, ~0, 31, 0]),
  op(
    'firstbit_shi: first bit differing from the sign, from the top',
    OP.firstbit_shi,
    1,
    [-1, 1, -2, 0x40000000],
    [~0, 31, 31, 1],
  ),
  op('bfrev', OP.bfrev, 1, [1, 0x80000000, 0xf0, 0], [0x80000000, 1, 0x0f000000, 0]),
  op(
    'ubfe: width, offset; width 0 gives 0; past bit 31 shifts',
    OP.ubfe,
    3,
    [4, 0, 32, 8, 4, 4, 0, 28, 0x1234, 0x1234, 0x89abcdef, 0xf0000000],
    [3, 0, 0, 0xf],
  ),
  op('ibfe: sign-extends', OP.ibfe, 3, [4, 4, 0, 8, 4, 0, 0, 24, 0xf0, 0x7, 0xffffffff, 0x80000000], [-1, 7, 0, -128]),
  {
    name: 'bfi: width, offset (masked to 5 bits: 32 is 0, keeping the base), inserted bits, base',
    code: [ins(OP.bfi, [r(1), c0, c1, c2, cb(0, 3)])],
    cb: [8, 0, 32, 4, 8, 4, 0, 28, 0xab, 0xff, 0x1, 0xf, 0x12345678, 0, 0xffffffff, 0],
    want: [0x1234ab78, 0, 0xffffffff, 0xf0000000],
  },
  {
    name: 'udiv: quotient and remainder; by zero both ~0',
    code: [ins(OP.udiv, [r(1), r(2), c0, c1])],
    cb: [7, 7, 0xffffffff, 0, 2, 0, 16, 0],
    want: [3, 0xffffffff, 0x0fffffff, 0xffffffff, 1, 0xffffffff, 15, 0xffffffff],
  },
  {
    name: 'umul: high and low words',
    code: [ins(OP.umul, [r(1), r(2), c0, c1])],
    cb: [0xffffffff, 0x10000, 3, 0, 2, 0x10000, 5, 7],
    want: [1, 1, 0, 0, 0xfffffffe, 0, 15, 0],
  },
  {
    name: 'imul: signed high and low words',
    code: [ins(OP.imul, [r(1), r(2), c0, c1])],
    cb: [-1, 0x10000, -3, 0, 2, 0x10000, 5, 7],
    want: [-1, 1, -1, 0, -2, 0, -15, 0],
  },
  {
    name: 'uaddc: sum and carry',
    code: [ins(OP.uaddc, [r(1), r(2), c0, c1])],
    cb: [0xffffffff, 1, 0x80000000, 0, 2, 1, 0x80000000, 0],
    want: [1, 2, 0, 0, 1, 0, 1, 0],
  },
  {
    name: 'usubb: difference and borrow',
    code: [ins(OP.usubb, [r(1), r(2), c0, c1])],
    cb: [1, 5, 0, 0, 2, 3, 1, 0],
    want: [0xffffffff, 2, 0xffffffff, 0, 1, 0, 1, 0],
  },
  {
    name: 'movc: a non-zero condition selects the first',
    code: [ins(OP.movc, [r(1), c0, c1, c2])],
    cb: [1, 0, 0x80000000, 0, 10, 11, 12, 13, 20, 21, 22, 23],
    want: [10, 21, 12, 23],
  },
  // msad, lane by lane: x: ref bytes (low first) 05 0a ff 00 against 07 03 20 10: |5-7| + |10-3| +
  // |255-32| = 2 + 7 + 223 = 232, the zero ref byte skipped, + 100 = 332; y: a zero reference adds
  // nothing (7); z: |1-255| four times = 1016, + 5 = 1021; w: equal bytes add 0 (9).
  op(
    'msad: masked sum of absolute byte differences',
    MSAD,
    3,
    [0x00ff0a05, 0, 0x01010101, 0x80808080, 0x10200307, 0xffffffff, 0xffffffff, 0x80808080, 100, 7, 5, 9],
    [332, 7, 1021, 9],
  ),
  {
    name: 'swapc: both orders',
    code: [ins(OP.swapc, [r(1), r(2), c0, c1, c2])],
    cb: [1, 0, 5, 0, 10, 11, 12, 13, 20, 21, 22, 23],
    want: [20, 11, 22, 13, 10, 21, 12, 23],
  },
];

test('every float instruction gives the value Direct3D defines', () => {
  for (const c of FLOAT_CASES) check(c.name, run(c.name, [...c.code, ...STORE], c.cb), c.want);
});

test('every integer and bit instruction gives the value Direct3D defines', () => {
  for (const c of INT_CASES) check(c.name, run(c.name, [...c.code, ...STORE], c.cb), c.want);
});

test('loop with breakc: sum of 0..9, counter ends at 10', () => {
  const code = [
    ins(OP.mov, [r(1, 'x'), imm(0)]),
    ins(OP.mov, [r(2, 'x'), imm(0)]),
    ins(OP.loop),
    ins(OP.uge, [r(3, 'x'), rs(2, 'x'), imm(10)]),
    insNZ(OP.breakc, [rs(3, 'x')]),
    ins(OP.iadd, [r(1, 'x'), rs(1, 'x'), rs(2, 'x')]),
    ins(OP.iadd, [r(2, 'x'), rs(2, 'x'), imm(1)]),
    ins(OP.endloop),
  ];
  check('loop', run('loop', [...code, ...STORE], []), [45, 0, 0, 0, 10]);
});

test('continuec skips odd numbers; if/else picks per thread', () => {
  const code = [
    ins(OP.mov, [r(1, 'x'), imm(0)]),
    ins(OP.mov, [r(2, 'x'), imm(0)]),
    ins(OP.loop),
    ins(OP.uge, [r(3, 'x'), rs(2, 'x'), imm(10)]),
    insNZ(OP.breakc, [rs(3, 'x')]),
    ins(OP.iadd, [r(2, 'x'), rs(2, 'x'), imm(1)]),
    ins(OP.and, [r(3, 'x'), rs(2, 'x'), imm(1)]),
    insNZ(OP.continuec, [rs(3, 'x')]),
    ins(OP.iadd, [r(1, 'x'), rs(1, 'x'), rs(2, 'x')]),
    ins(OP.endloop),
    // if (sum == 30) r1.y = 1 else r1.y = 2
    ins(OP.ieq, [r(3, 'x'), rs(1, 'x'), imm(30)]),
    insNZ(OP.if, [rs(3, 'x')]),
    ins(OP.mov, [r(1, 'y'), imm(1)]),
    ins(OP.else),
    ins(OP.mov, [r(1, 'y'), imm(2)]),
    ins(OP.endif),
  ];
  // 2 + 4 + 6 + 8 + 10 = 30
  check('continuec', run('continuec', [...code, ...STORE], []), [30, 1]);
});

test('switch per thread, with cb0 indexed by the thread (relative constant-buffer addressing)', () => {
  // r0.x = thread; r1.x = switch (cb0[thread + 1].x) { 1: 10; 2, 3: 20; default: 30 }; u0[thread] = r1.x
  const code = [
    ins(OP.mov, [r(0, 'x'), threadIndex()]),
    ins(OP.mov, [r(4, 'x'), src(T.cb, [0, [ri(0, 'x'), 1]], 'xxxx')]),
    ins(OP.switch, [rs(4, 'x')]),
    ins(OP.case, [imm(1)]),
    ins(OP.mov, [r(1, 'x'), imm(10)]),
    ins(OP.break),
    ins(OP.case, [imm(2)]),
    ins(OP.case, [imm(3)]),
    ins(OP.mov, [r(1, 'x'), imm(20)]),
    ins(OP.break),
    ins(OP.default),
    ins(OP.mov, [r(1, 'x'), imm(30)]),
    ins(OP.break),
    ins(OP.endswitch),
    ins(OP.ishl, [r(5, 'x'), rs(0, 'x'), imm(2)]),
    storeRaw(rs(5, 'x'), rs(1, 'x'), 'x'),
  ];
  // rows 1..4 hold the selectors 1, 2, 3, 7 in .x
  const cbw = [0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 7, 0, 0, 0];
  check('switch', run('switch', code, cbw, { threads: 4, out: 4 }), [10, 20, 20, 30]);
});

test('a relative constant-buffer index past the declared rows reads zero', () => {
  // cb0 has 8 rows; cb0[r0.x + 6] with r0.x = 3 is row 9.
  const code = [ins(OP.mov, [r(0, 'x'), imm(3)]), ins(OP.mov, [r(1), src(T.cb, [0, [ri(0, 'x'), 6]])])];
  const cbw = Array.from({ length: 32 }, (_, i) => i + 1);
  check('cb out of range', run('cb out of range', [...code, ...STORE], cbw), [0, 0, 0, 0]);
  // and in range: r0.x = 1 -> row 7 = words 28..31
  const code2 = [ins(OP.mov, [r(0, 'x'), imm(1)]), ins(OP.mov, [r(1), src(T.cb, [0, [ri(0, 'x'), 6]])])];
  check('cb in range', run('cb in range', [...code2, ...STORE], cbw), [29, 30, 31, 32]);
});

// Subroutines (D3D11.3 §22 call/callc/label/ret): a subroutine shares every register with its caller;
// its `ret` returns to the instruction after the call. computeProgram appends a `ret` after the body,
// so the last label's body ends `ret ret` (the second never runs).
const label = (n: number): number[] => ins(OP.label, [[((T_LABEL << 12) | (1 << 20)) >>> 0, n]]);
const call = (n: number): number[] => ins(OP.call, [[((T_LABEL << 12) | (1 << 20)) >>> 0, n]]);
const callNZ = (cond: number[], n: number): number[] =>
  insNZ(OP.call + 1, [cond, [((T_LABEL << 12) | (1 << 20)) >>> 0, n]]);
const retNZ = (cond: number[]): number[] => insNZ(OP.retc, [cond]);

test('call: the subroutine works on the caller’s registers; calls nest; callc tests its lane', () => {
  const code = [
    ins(OP.mov, [r(1), imm(1, 0, 0, 0)]),
    ins(OP.mov, [r(2), imm(0, 0, 0, 0)]),
    call(0), // r1.x = 2
    call(0), // r1.x = 4
    call(1), // l1 calls l0: r1.x = 8, then r1.y = r1.x + 1 = 9
    ins(OP.mov, [r(3, 'x'), imm(0)]),
    callNZ(rs(3, 'x'), 0), // not taken
    ins(OP.mov, [r(3, 'x'), imm(7)]),
    callNZ(rs(3, 'x'), 2), // taken: r1.z = 7
    ...STORE,
    ins(OP.ret),
    label(0),
    ins(OP.iadd, [r(1, 'x'), rs(1, 'x'), rs(1, 'x')]),
    ins(OP.ret),
    label(1),
    call(0),
    ins(OP.iadd, [r(1, 'y'), rs(1, 'x'), imm(1)]),
    ins(OP.ret),
    label(2),
    ins(OP.mov, [r(1, 'z'), rs(3, 'x')]),
  ];
  const got = run('call', code, []);
  assert.ok(got, 'the lifter takes subroutines');
  check('call', got, [8, 9, 7, 0]);
});

test('ret returns from the subroutine only: in an if, in a loop, in a switch, and again after a loop', () => {
  const code = [
    ins(OP.mov, [r(1), imm(0, 0, 0, 0)]),
    ins(OP.mov, [r(2), imm(0, 0, 0, 0)]),
    // l0: r1.x = 1; if (cb0[0].x) ret; r1.x = 2 — with cb0[0].x = 1 the early ret leaves r1.x = 1
    call(0),
    // l1: loop { r1.y += 1; if (r1.y == 5) ret } — returns from inside the loop with r1.y = 5
    call(1),
    // the caller goes on: r1.z = r1.y + 100
    ins(OP.iadd, [r(1, 'z'), rs(1, 'y'), imm(100)]),
    // l2: switch (cb0[0].y = 2) { case 2: ret } r1.w = 99 — the ret inside the switch skips r1.w
    call(2),
    // l3, called from one call site in a loop that runs twice: loop { r2.x += 1; retc r2.w; break }
    // r2.y += 1. First with r2.w = 1 (returns from the loop), then with r2.w = 0 (leaves the loop by
    // break: the first run's return must not carry over), so r2.x = 2, r2.y = 1.
    ins(OP.mov, [r(2, 'w'), imm(1)]),
    ins(OP.mov, [r(3, 'y'), imm(0)]),
    ins(OP.loop),
    ins(OP.uge, [r(3, 'z'), rs(3, 'y'), imm(2)]),
    insNZ(OP.breakc, [rs(3, 'z')]),
    call(3),
    ins(OP.mov, [r(2, 'w'), imm(0)]),
    ins(OP.iadd, [r(3, 'y'), rs(3, 'y'), imm(1)]),
    ins(OP.endloop),
    ...STORE,
    ins(OP.ret),
    label(0),
    ins(OP.mov, [r(1, 'x'), imm(1)]),
    retNZ(cb(0, 0, 'xxxx')),
    ins(OP.mov, [r(1, 'x'), imm(2)]),
    ins(OP.ret),
    label(1),
    ins(OP.loop),
    ins(OP.iadd, [r(1, 'y'), rs(1, 'y'), imm(1)]),
    ins(OP.ieq, [r(3, 'x'), rs(1, 'y'), imm(5)]),
    insNZ(OP.if, [rs(3, 'x')]),
    ins(OP.ret),
    ins(OP.endif),
    ins(OP.endloop),
    ins(OP.ret),
    label(2),
    ins(OP.switch, [cb(0, 0, 'yyyy')]),
    ins(OP.case, [imm(2)]),
    ins(OP.ret),
    ins(OP.default),
    ins(OP.break),
    ins(OP.endswitch),
    ins(OP.mov, [r(1, 'w'), imm(99)]),
    ins(OP.ret),
    label(3),
    ins(OP.loop),
    ins(OP.iadd, [r(2, 'x'), rs(2, 'x'), imm(1)]),
    retNZ(rs(2, 'w')),
    ins(OP.break),
    ins(OP.endloop),
    ins(OP.iadd, [r(2, 'y'), rs(2, 'y'), imm(1)]),
  ];
  const got = run('ret', code, [1, 2, 0, 0]);
  assert.ok(got, 'the lifter takes subroutines');
  check('ret', got, [1, 5, 105, 0, 2, 1, 0, 0]);
});

// A geometry program (a stage function) calls a subroutine that emits: the same inlining, with
// emit/cut lifted inside the body. l0: o0 = v[0][0]; emit; if (v[0][0].w != 0) ret; o0.x += 100;
// emit. A point with w = 0 gives two vertices, x and x + 100; one with w = 1 gives one.
test('call in a geometry program: emit inside the subroutine, an early ret skips the second', () => {
  const v00 = (sw: string) => src(T.input, [0, 0], sw);
  const body = [
    ins(0x5d, [], 1), // dcl_inputprimitive point
    ins(0x5c, [], 1), // dcl_outputtopology pointlist
    ins(0x5e, [[2]]), // dcl_maxout 2
    ins(OP.dcl_input, [dst(T.input, [1, 0])]),
    ins(OP.dcl_output, [dst(T.output, [0])]),
    ins(OP.dcl_temps, [[1]]),
    call(0),
    ins(OP.ret),
    label(0),
    ins(OP.mov, [dst(T.output, [0]), v00('xyzw')]),
    ins(0x13), // emit
    ins(OP.ine, [r(0, 'x'), v00('wwww'), imm(0)]),
    retNZ(rs(0, 'x')),
    ins(OP.add, [dst(T.output, [0], 'x'), v00('xxxx'), imm(f(100))]),
    ins(0x13),
    ins(OP.ret),
  ];
  const p = lift(container(shex('gs', 4, 0, body)));
  lifted.push({ name: 'geometry call', program: p });
  assert.equal(p.stage, 'geometry');
  for (const w of [0, 1]) {
    const inputs = new Uint32Array(FILE_WORDS);
    inputs.set([f(5), f(6), f(7), f(w)]);
    const { vertices } = runGeometry(p, { primitives: 1, inputs });
    const xs = vertices.map((v) => bitsF(v.registers[0]!));
    assert.deepEqual(xs, w === 0 ? [5, 105] : [5], `w = ${w}`);
  }
});

test('recursion is refused by name (Direct3D forbids it; calls nest at most 32 deep)', () => {
  const code = [call(0), ins(OP.ret), label(0), call(0)];
  assert.throws(
    () => lift(computeProgram(code)),
    (e: unknown) => e instanceof LiftRefusal && e.category === 'subroutines' && /deeper than 32/.test(e.message),
  );
});

// lod (D3D11.3 §22 "lod"): (clamped, unclamped, 0, 0), swizzled by the resource operand. The level is
// log2 of the longer axis of the footprint (the coordinates' screen derivatives times the size of
// level 0, in texels), clamped to [0, levels - 1]. A ps_4_1 program over a 4x2 grid of pixels, one
// TEXCOORD0 input (x, y, z, w per pixel) and one output per lod:
//   o0 = lod(v0.xy, t0 (8x8, 2 levels)); o1 = lod(v0.xy, t0.yxzw) (the swizzle); o2 = lod(v0.xyz,
//   t1 (a 4x4x4 3D texture, 3 levels)); o3 = lod(v0.xyz, t2 (a 16x16 cube, 5 levels)); o4 = lod of the
//   same cube at the direction (2 + 0.5 px, 0, 1); o5 = lod(v0.x, t3 (a 1D texture of 8 texels, 4
//   levels)).
const PS_T = { input: 1, output: 2, sampler: 6, resource: 7 } as const;
const noSel = (type: number, i: number): number[] => [((type << 12) | (1 << 20)) >>> 0, i];

function lodProgram(): Uint8Array {
  const dclResource = (dim: number, i: number) => [
    (OP.dcl_resource | (dim << 11) | (4 << 24)) >>> 0,
    ...noSel(PS_T.resource, i),
    0x5555,
  ];
  const body: number[][] = [
    [(OP.dcl_sampler | (3 << 24)) >>> 0, ...noSel(PS_T.sampler, 0)],
    dclResource(3, 0), // texture2d
    dclResource(5, 1), // texture3d
    dclResource(6, 2), // texturecube
    dclResource(2, 3), // texture1d
    ins(OP.dcl_input_ps, [dst(PS_T.input, [0], 'xyzw')], 2), // linear
    ...[0, 1, 2, 3, 4, 5].map((o) => ins(OP.dcl_output, [dst(PS_T.output, [o])])),
    ins(OP.dcl_temps, [[1]]),
    ins(LOD, [dst(PS_T.output, [0]), src(PS_T.input, [0], 'xyxx'), src(PS_T.resource, [0]), noSel(PS_T.sampler, 0)]),
    ins(LOD, [
      dst(PS_T.output, [1]),
      src(PS_T.input, [0], 'xyxx'),
      src(PS_T.resource, [0], 'yxzw'),
      noSel(PS_T.sampler, 0),
    ]),
    ins(LOD, [dst(PS_T.output, [2]), src(PS_T.input, [0], 'xyzx'), src(PS_T.resource, [1]), noSel(PS_T.sampler, 0)]),
    ins(LOD, [dst(PS_T.output, [3]), src(PS_T.input, [0], 'xyzx'), src(PS_T.resource, [2]), noSel(PS_T.sampler, 0)]),
    // r0 = (2 + 0.5 * px, 0, 1) with px = 4 * v0.x
    ins(OP.mad, [r(0, 'x'), src(PS_T.input, [0], 'xxxx'), imm(f(2)), imm(f(2))]),
    ins(OP.mov, [r(0, 'yz'), imm(0, 0, f(1), 0)]),
    ins(LOD, [dst(PS_T.output, [4]), rs(0, 'xyzx'), src(PS_T.resource, [2]), noSel(PS_T.sampler, 0)]),
    ins(LOD, [dst(PS_T.output, [5]), src(PS_T.input, [0], 'xxxx'), src(PS_T.resource, [3]), noSel(PS_T.sampler, 0)]),
    ins(OP.ret),
  ];
  return container(shex('ps', 4, 1, body), {
    isgn: [{ name: 'TEXCOORD', componentType: 3, register: 0, mask: 0xf }],
    osgn: [0, 1, 2, 3, 4, 5].map((o) => ({ name: 'SV_Target', index: o, componentType: 3, register: o, mask: 0xf })),
  });
}

test('lod: clamped and unclamped levels of 1D, 2D, 3D and cube textures from the footprint, swizzled', () => {
  const p = lift(lodProgram());
  lifted.push({ name: 'lod', program: p });
  assert.ok(
    p.notes.some((n) => n.startsWith('lod is computed')),
    'the program says its level of detail is computed',
  );
  const key = (reg: number) => resourceKey(p, 't', reg);
  const level = (w: number, h: number, d: number) => new Uint32Array(w * h * d * 4);
  const textures = {
    [key(0)]: { width: 8, height: 8, depthOrLayers: 1, levels: [level(8, 8, 1), level(4, 4, 1)] },
    [key(1)]: { width: 4, height: 4, depthOrLayers: 4, levels: [level(4, 4, 4), level(2, 2, 2), level(1, 1, 1)] },
    [key(2)]: { width: 16, height: 16, depthOrLayers: 6, levels: [16, 8, 4, 2, 1].map((n) => level(n, n, 6)) },
    [key(3)]: { width: 8, height: 1, depthOrLayers: 1, levels: [8, 4, 2, 1].map((n) => level(n, 1, 1)) },
  };
  const W = 4;
  const H = 2;
  // v0 = (0.25 px, 0.5 py, 0.5, 0): the derivatives are d/dx = (0.25, 0, 0), d/dy = (0, 0.5, 0).
  const inp = new Float32Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) inp.set([0.25 * x, 0.5 * y, 0.5, 0], (y * W + x) * 4);
  const res = runPixel(p, { width: W, height: H, inputs: { 0: new Uint32Array(inp.buffer) }, textures });
  const out = (o: number, px: number, py: number) => {
    const at = (py * W + px) * 4;
    return [...new Float32Array(res.targets[o]!.slice(at, at + 4).buffer)];
  };
  for (let py = 0; py < H; py++)
    for (let px = 0; px < W; px++) {
      const at = `pixel ${px},${py}`;
      // t0, 8 texels: the axes are 0.25 * 8 = 2 and 0.5 * 8 = 4 texels: log2(4) = 2, clamped to 1
      assert.deepEqual(out(0, px, py), [1, 2, 0, 0], `2D ${at}`);
      assert.deepEqual(out(1, px, py), [2, 1, 0, 0], `2D swizzled ${at}`);
      // t1, 4 texels: axes 1 and 2 texels: level 1 (within 0..2)
      assert.deepEqual(out(2, px, py), [1, 1, 0, 0], `3D ${at}`);
      // t2: the direction (0.25 px, 0.5 py, 0.5) has +z major (|z| >= |x|, |y| for px <= 2; x major
      // at px = 3, where |x| = 0.75): z major: face coordinates x / 0.5 and y / 0.5 change by 0.5 and 1
      // per pixel, times half the face (8): 4 and 8 texels: log2(8) = 3.
      if (px < 2) assert.deepEqual(out(3, px, py), [3, 3, 0, 0], `cube ${at}`);
      // (2 + 0.5 px, 0, 1): x major, s = z / x = 1 / m, m = 2 + 0.5 px; d/dx of s is -0.5 / m^2 (the
      // quotient rule: dm = 0.5 across the quad), 4 / m^2 texels: log2(4 / m^2) = 2 - 2 log2(m); the
      // clamped level is 0 (m >= 2).
      const m = 2 + 0.5 * px;
      const want = 2 - 2 * Math.log2(m);
      const [c, u, z, w] = out(4, px, py);
      assert.ok(Math.abs(u! - want) <= 1e-6 * Math.max(1, Math.abs(want)), `cube x major ${at}: ${u} vs ${want}`);
      assert.deepEqual([c, z, w], [0, 0, 0], `cube x major ${at}`);
      // t3, a 1D texture of 8 texels: u changes by 0.25 a pixel: 2 texels, level 1 (within 0..3)
      assert.deepEqual(out(5, px, py), [1, 1, 0, 0], `1D ${at}`);
    }
});

// Pull-model interpolation (D3D11.3 §22 eval_*), lifted as at one sample per pixel (the notes say so):
// eval_centroid and eval_sample_index give the input at the pixel centre; eval_snapped(v, offset)
// gives v at the centre moved by the low four bits of offset.x and .y (signed sixteenths of a pixel).
// The input is a plane, u = 2x + 3y + 1, v = -x + 0.5y (noperspective), so its value at an offset is
// exact: offset (0x13, -4) is (3/16, -4/16) pixel: u - 0.375 (2 * 3/16 - 3 * 4/16), v - 0.3125.
function evalProgram(): Uint8Array {
  const body: number[][] = [
    ins(OP.dcl_input_ps, [dst(PS_T.input, [0], 'xy')], 4), // linear noperspective
    ins(OP.dcl_input_ps, [dst(PS_T.input, [1], 'xy')], 1), // constant
    ...[0, 1, 2].map((o) => ins(OP.dcl_output, [dst(PS_T.output, [o], 'xy')])),
    ins(EVAL_SNAPPED, [dst(PS_T.output, [0], 'xy'), src(PS_T.input, [0], 'xyxx'), src(PS_T.input, [1], 'xyxx')]),
    ins(EVAL_CENTROID, [dst(PS_T.output, [1], 'xy'), src(PS_T.input, [0], 'xyxx')]),
    ins(EVAL_SAMPLE_INDEX, [dst(PS_T.output, [2], 'xy'), src(PS_T.input, [0], 'xyxx'), imm(3)]),
    ins(OP.ret),
  ];
  return container(shex('ps', 5, 0, body), {
    isgn: [
      { name: 'TEXCOORD', componentType: 3, register: 0, mask: 0x3 },
      { name: 'OFFSET', componentType: 2, register: 1, mask: 0x3 },
    ],
    osgn: [0, 1, 2].map((o) => ({ name: 'SV_Target', index: o, componentType: 3, register: o, mask: 0x3 })),
  });
}

test('eval_snapped, eval_centroid, eval_sample_index on a plane, with notes naming the single-sample assumption', () => {
  const p = lift(evalProgram());
  lifted.push({ name: 'eval', program: p });
  assert.ok(p.notes.some((n) => n.startsWith('eval_centroid and eval_sample_index read the input')));
  assert.ok(p.notes.some((n) => n.startsWith('eval_snapped steps from the pixel centre')));
  const W = 4;
  const H = 2;
  const plane = (x: number, y: number) => [2 * x + 3 * y + 1, -x + 0.5 * y];
  const uv = new Float32Array(W * H * 4);
  const offsets = new Int32Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      uv.set(plane(x, y), (y * W + x) * 4);
      offsets.set([0x13, -4], (y * W + x) * 4);
    }
  const location = (name: string) => p.interface.inputs.find((v) => v.semantic === name)!.location!;
  const res = runPixel(p, {
    width: W,
    height: H,
    inputs: {
      [location('TEXCOORD')]: new Uint32Array(uv.buffer),
      [location('OFFSET')]: new Uint32Array(offsets.buffer),
    },
  });
  const out = (o: number, x: number, y: number) => {
    const at = (y * W + x) * 4;
    return [...new Float32Array(res.targets[o]!.slice(at, at + 2).buffer)];
  };
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const [u, v] = plane(x, y) as [number, number];
      assert.deepEqual(out(0, x, y), [u - 0.375, v - 0.3125], `eval_snapped at ${x},${y}`);
      assert.deepEqual(out(1, x, y), [u, v], `eval_centroid at ${x},${y}`);
      assert.deepEqual(out(2, x, y), [u, v], `eval_sample_index at ${x},${y}`);
    }
});

test('Tint compiles the WGSL of every program these tests lift', { skip: webgpuSkip() }, async () => {
  assert.ok(lifted.length > 60, `${lifted.length} programs`);
  const results = await compileWgsl(lifted.map((l) => emitWgsl(l.program)));
  const failed = results
    .map((r, i) => (r.ok ? undefined : `${lifted[i]!.name}: ${r.messages.join(' | ')}`))
    .filter((x): x is string => x !== undefined);
  assert.deepEqual(failed, []);
});

// Beyond the hand-worked values: the subroutine programs on Dawn (through the emitted WGSL, its loop
// wrappers and flags) against the executor, on seeded random cb0 words, small so that the
// conditions and the switch take each way.
test('the subroutine programs agree with Dawn word for word on random constants', { skip: webgpuSkip() }, async () => {
  for (const name of ['call', 'ret']) {
    const p = lifted.find((l) => l.name === name)?.program;
    assert.ok(p, `${name} was lifted`);
    for (const seed of [1, 2, 3, 4]) {
      const v = await diffCompute(p, seed, { small: true });
      assert.equal(v.kind, 'agree', `${name}, seed ${seed}: ${JSON.stringify(v)}`);
      assert.ok(v.kind === 'agree' && v.words >= 8, `${name}: ${JSON.stringify(v)}`);
    }
  }
});

test('instructions the lifter refuses are listed (not silently passed)', () => {
  if (refused.length)
    console.log(`analytic: the lifter refused ${refused.length} programs:\n  ${refused.join('\n  ')}`);
  assert.deepEqual(refused, [], 'every analytic program lifts');
});

// D3D11.3 §3.1.3.3: float32 denormals are flushed to the zero of their sign on the input and output
// of float operations, and mov's source modifiers "assume the data is floating point" (the absence of
// modifiers moves the bits): -x and |x| of a denormal are signed zeros, a plain mov keeps the denormal.
// (oracle/public vkd3d/abs/03: mov o0, -|cb0[0]| with a denormal word; Dawn gives -0.)
test('neg and abs source modifiers of a denormal are a float move: flushed to the zero of the sign', () => {
  const DEN = 0x0000000f;
  const NDEN = 0x8000000f;
  const MAXDEN = 0x007fffff;
  const name = 'mov -x, mov |x| and mov -|x| of denormals';
  const code = [
    ins(OP.mov, [r(1), cb(0, 0, 'xyzw', { neg: true })]),
    ins(OP.mov, [r(2, 'xy'), cb(0, 1, 'xyzw', { abs: true })]),
    ins(OP.mov, [r(2, 'zw'), cb(0, 1, 'xyzw', { neg: true, abs: true })]),
    ...STORE,
  ];
  const cbw = [DEN, NDEN, MAXDEN, f(1.5), NDEN, f(-2), DEN, f(-3)];
  check(name, run(name, code, cbw), [0x80000000, 0, 0x80000000, f(-1.5), 0, f(2), 0x80000000, f(-3)]);
  const plain = 'plain mov keeps a denormal word';
  check(plain, run(plain, [ins(OP.mov, [r(1), c0]), ins(OP.mov, [r(2), c1]), ...STORE], cbw), [...cbw]);
});

// The executor's access trace (src/exec/races.ts): D3D11.3 leaves the order of two threads' accesses
// to one UAV word unordered unless a barrier of their group separates them (sync_*_t), so a write
// another thread reads or overwrites with a different value is a race; equal writes and commutative
// atomics whose results go unused are not. Two threads a group, u0 raw, zero at the start.
test('races: unordered conflicting accesses of two threads are found; barriers, equal writes, commutative atomics are not races', () => {
  const SYNC_UGLOBAL_T = 1 | 8; // D3D11_SB_SYNC_THREADS_IN_GROUP | D3D11_SB_SYNC_UAV_MEMORY_GLOBAL (>> 11)
  const load = ins(OP.ld_raw, [r(1, 'x'), imm(0), src(T.uav, [0], 'xxxx')]);
  const storeOwn = [ins(OP.ishl, [r(2, 'x'), threadIndex(), imm(2)]), storeRaw(rs(2, 'x'), rs(1, 'x'), 'x')];
  const byThread0 = (body: number[][]) => [insNZ(OP.if, [threadIndex()]), ins(OP.else), ...body, ins(OP.endif)];
  const cases: Array<{ name: string; code: number[][]; race: boolean }> = [
    { name: 'both threads store their index at word 0', code: [storeRaw(imm(0), threadIndex(), 'x')], race: true },
    { name: 'both threads store 7 at word 0', code: [storeRaw(imm(0), imm(7), 'x')], race: false },
    {
      name: 'thread 0 stores 5 at word 1, both read it without a barrier',
      code: [
        ...byThread0([storeRaw(imm(4), imm(5), 'x')]),
        ins(OP.ld_raw, [r(1, 'x'), imm(4), src(T.uav, [0], 'xxxx')]),
      ],
      race: true,
    },
    {
      name: 'the same with sync_uglobal_t between',
      code: [
        ...byThread0([storeRaw(imm(4), imm(5), 'x')]),
        ins(OP.sync, [], SYNC_UGLOBAL_T),
        ins(OP.ld_raw, [r(1, 'x'), imm(4), src(T.uav, [0], 'xxxx')]),
      ],
      race: false,
    },
    {
      name: 'atomic_iadd from both, results unused',
      code: [ins(OP.atomic_iadd, [dst(T.uav, [0], 'x'), imm(0), imm(3)])],
      race: false,
    },
    {
      name: 'imm_atomic_iadd from both: each result depends on the order',
      code: [ins(OP.imm_atomic_iadd, [r(1, 'x'), dst(T.uav, [0], 'x'), imm(0), imm(3)]), ...storeOwn],
      race: true,
    },
    { name: 'each thread reads word 0 and writes its own word', code: [load, ...storeOwn.map((s) => s)], race: false },
  ];
  for (const c of cases) {
    const p = lift(computeProgram(c.code, { threads: 2 }));
    const races = new RaceDetector();
    runCompute(p, {
      workgroups: [1, 1, 1],
      buffers: { [resourceKey(p, 'b', 0)]: new Uint32Array(32), [resourceKey(p, 'u', 0)]: new Uint32Array(8) },
      trace: races,
    });
    assert.equal(races.raced, c.race, `${c.name}: ${races.first ?? 'no race'}`);
  }
  // Two thread groups are never ordered (no barrier spans them): one thread a group. Equal stores
  // are benign; an atomic whose result each group stores is a race even with one thread a group.
  const groups = (code: number[][]): RaceDetector => {
    const q = lift(computeProgram(code, { threads: 1 }));
    const d = new RaceDetector();
    const buffers = { [resourceKey(q, 'b', 0)]: new Uint32Array(32), [resourceKey(q, 'u', 0)]: new Uint32Array(8) };
    runCompute(q, { workgroups: [2, 1, 1], buffers, trace: d });
    return d;
  };
  assert.equal(groups([storeRaw(imm(0), imm(7), 'x')]).raced, false, 'two groups store 7');
  const atomic = groups([
    ins(OP.imm_atomic_iadd, [r(1, 'x'), dst(T.uav, [0], 'x'), imm(0), imm(3)]),
    storeRaw(imm(4), rs(1, 'x'), 'x'),
  ]);
  assert.equal(atomic.raced, true, 'two groups: imm_atomic_iadd, result stored');
});

/** Runs a one-thread compute program written as tokens on Dawn, cb0 bound to `cbw` and u0 to eight
 * zero words, and returns u0's words (the Dawn halves of the tests below; `run` is the executor's). */
async function onDawn(code: number[][], cbw: Uint32Array): Promise<Uint32Array> {
  const p = lift(computeProgram(code));
  const [cbGroup, cbBinding] = resourceKey(p, 'b', 0).split(':').map(Number) as [number, number];
  const [uGroup, uBinding] = resourceKey(p, 'u', 0).split(':').map(Number) as [number, number];
  const res = await gpuCompute({
    code: emitWgsl(p),
    workgroups: [1, 1, 1],
    bindings: [
      { group: cbGroup, binding: cbBinding, type: 'uniform', words: cbw },
      { group: uGroup, binding: uBinding, type: 'storage', words: new Uint32Array(8) },
    ],
  });
  assert.ok(res.ok, JSON.stringify(res));
  return res.outputs[`${uGroup}:${uBinding}`]!;
}

// The lifter side of the same rule: WGSL lets an implementation keep a denormal through abs and
// negation (SwiftShader keeps |x|), so a move with a source modifier flushes its source explicitly
// (src/lift/alu.ts, modifiedSource). Run on Dawn with hand-picked words: -x, |x|, -|x| of denormals
// are signed zeros (D3D11's floating-point rules: denormals flushed on input and output of float
// operations), normal values and NaN pass, and movc's modified arms are flushed too.
test('Dawn: mov and movc with source modifiers flush denormals as Direct3D does', { skip: webgpuSkip() }, async () => {
  const DEN = 0x0000000f;
  const NDEN = 0x8000000f;
  const code = [
    ins(OP.mov, [r(1, 'xy'), cb(0, 0, 'xyzw', { abs: true })]),
    ins(OP.mov, [r(1, 'zw'), cb(0, 0, 'xyzw', { neg: true, abs: true })]),
    ins(OP.movc, [r(2), cb(0, 2), cb(0, 1, 'xyzw', { neg: true }), cb(0, 1, 'xyzw', { abs: true })]),
    ...STORE,
  ];
  const cbw = new Uint32Array(32);
  // row 0: DEN, f(-1.5), NDEN, QNAN; row 1: NDEN, DEN, f(2), f(-3); row 2 (movc test): 1, 0, 1, 0
  cbw.set([DEN, f(-1.5), NDEN, QNAN, NDEN, DEN, f(2), f(-3), 1, 0, 1, 0]);
  const got = await onDawn(code, cbw);
  // r1 = |DEN|, |-1.5|, -|NDEN|, -|NaN|; r2 = movc(1, 0, 1, 0; -NDEN, -DEN, -2, 3 ; |NDEN|, |DEN|, 2, 3)
  check('Dawn mov/movc modifiers', got, [0, f(1.5), 0x80000000, NAN, 0, 0, f(-2), f(3)]);
  // The executor gives the same words.
  check('executor mov/movc modifiers', run('mov/movc modifiers', code, [...cbw]), [
    0,
    f(1.5),
    0x80000000,
    NAN,
    0,
    0,
    f(-2),
    f(3),
  ]);
});

// gather4 of a texture the program also reads through a comparison sampler (so lifted as a depth
// texture): comparison filtering takes only single-channel formats (R32_FLOAT, R24_UNORM_X8,
// R16_UNORM), whose missing green and blue read 0 and alpha 1 (D3D11's defaults for absent
// components), so gathering green or blue gives four zeros and alpha four ones; red gathers the depths.
// Every texel is 0.25 here, so the red gather is four 0.25s, and sample_c_lz at 0.5 with less-equal
// (pass when the reference is <= the texel) fails: 0.
test('gather4 of a comparison-read texture: green and blue zeros, alpha ones, red the depth', async () => {
  const SAMPLE_C_LZ = 0x47;
  const body: number[][] = [
    [(OP.dcl_sampler | (3 << 24)) >>> 0, ...noSel(PS_T.sampler, 0)],
    [(OP.dcl_sampler | (1 << 11) | (3 << 24)) >>> 0, ...noSel(PS_T.sampler, 1)], // mode_comparison
    [(OP.dcl_resource | (3 << 11) | (4 << 24)) >>> 0, ...noSel(PS_T.resource, 0), 0x5555], // texture2d float
    ins(OP.dcl_input_ps, [dst(PS_T.input, [0], 'xy')], 2), // linear
    ...[0, 1, 2, 3, 4].map((o) => ins(OP.dcl_output, [dst(PS_T.output, [o])])),
    ins(SAMPLE_C_LZ, [
      dst(PS_T.output, [0]),
      src(PS_T.input, [0], 'xyxx'),
      src(PS_T.resource, [0], 'xxxx'),
      noSel(PS_T.sampler, 1),
      imm(f(0.5)),
    ]),
    ...(['xxxx', 'yyyy', 'zzzz', 'wwww'] as const).map((sw, k) =>
      ins(OP.gather4, [
        dst(PS_T.output, [k + 1]),
        src(PS_T.input, [0], 'xyxx'),
        src(PS_T.resource, [0]),
        src(PS_T.sampler, [0], sw),
      ]),
    ),
    ins(OP.ret),
  ];
  const bytes = container(shex('ps', 5, 0, body), {
    isgn: [{ name: 'TEXCOORD', componentType: 3, register: 0, mask: 0x3 }],
    osgn: [0, 1, 2, 3, 4].map((o) => ({ name: 'SV_Target', index: o, componentType: 3, register: o, mask: 0xf })),
  });
  const p = lift(bytes);
  assert.ok(
    p.notes.some((n) => n.startsWith('a gather of a depth texture for green or blue gives zeros')),
    'the program says what a non-red gather of a depth texture gives',
  );
  const key = resourceKey(p, 't', 0);
  const texels = new Uint32Array(8 * 8 * 4);
  for (let i = 0; i < 64; i++) texels[i * 4] = f(0.25);
  const textures = { [key]: { width: 8, height: 8, depthOrLayers: 1, levels: [texels] } };
  const samplerKey = resourceKey(p, 's', 1);
  const inp = new Float32Array(2 * 2 * 4);
  for (let i = 0; i < 4; i++) inp.set([0.3 + 0.1 * i, 0.6, 0, 0], i * 4);
  const res = runPixel(p, {
    width: 2,
    height: 2,
    inputs: { 0: new Uint32Array(inp.buffer) },
    textures,
    sample: nearestClampSampler(textures, { compare: { [samplerKey]: 'less-equal' } }),
  });
  const want = [
    [0, 0, 0, 0],
    [0.25, 0.25, 0.25, 0.25],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [1, 1, 1, 1],
  ];
  for (let o = 0; o < 5; o++)
    for (let px = 0; px < 4; px++)
      assert.deepEqual(
        [...new Float32Array(res.targets[o]!.slice(px * 4, px * 4 + 4).buffer)],
        want[o],
        `o${o}, pixel ${px}`,
      );
  if (!webgpuSkip()) {
    const [verdict] = await compileWgsl([emitWgsl(p)]);
    assert.ok(verdict?.ok, `Tint: ${verdict?.messages.join('; ')}`);
  }
});

// exp of NaN is NaN (D3D11's floating-point rules: NaN (any op) any value = NaN), and exp(x >= 128)
// overflows to +inf. WGSL leaves exp2 of NaN indeterminate and SwiftShader gives +inf for it, and a
// float comparison x != x may be ordered there (false for NaN), so the lifter tests NaN on the bits.
// Run on Dawn and on the executor with hand-picked words: +NaN, -NaN, 3, 200.
test('Dawn: exp of NaN is NaN, of 3 is 8, of 200 is +inf', { skip: webgpuSkip() }, async () => {
  const code = [ins(OP.exp, [r(1), c0]), ...STORE];
  const cbw = new Uint32Array(32);
  cbw.set([QNAN, 0xffc00000, f(3), f(200)]);
  const got = await onDawn(code, cbw);
  const want: Want[] = [NAN, NAN, f(8), INF];
  check('Dawn exp', got, want);
  check('executor exp', run('exp NaN', code, [...cbw]), want);
});

// utof rounds to nearest even (D3D11: integer to float conversions round to nearest even); f32 has 24
// bits, so from 2^31 up the spacing is 256 and the low byte decides: 0x42 and 0x4d round down, 0x82
// and 0xbe up; 2^31 + 128 (a tie) goes to the even 2^31, 2^31 + 384 (a tie) to the even 2^31 + 512,
// 2^32 - 1 up to 2^32. On Dawn (SwiftShader's plain conversion took the other neighbour of the first
// four, and of 39 in 256 random words from 2^31 up) and on the executor.
test('Dawn: utof rounds to nearest even from 2^31 up', { skip: webgpuSkip() }, async () => {
  const code = [ins(OP.utof, [r(1), c0]), ins(OP.utof, [r(2), c1]), ...STORE];
  const cbw = new Uint32Array(32);
  cbw.set([0xcce3ab42, 0xfff70d4d, 0xcd0bc082, 0xcf8ae6be, 0x80000081, 0x80000080, 0x80000180, 0xffffffff]);
  const got = await onDawn(code, cbw);
  const want: Want[] = [0x4f4ce3ab, 0x4f7ff70d, 0x4f4d0bc1, 0x4f4f8ae7, 0x4f000001, 0x4f000000, 0x4f000002, 0x4f800000];
  check('Dawn utof', got, want);
  check('executor utof', run('utof rounding', code, [...cbw]), want);
});

// A one-word typed UAV buffer element loaded as four lanes: Direct3D fills the components the R32
// format lacks with 0, 0 and 1 (1.0f in a float view), and an element past the end reads 0 in every
// component (the buffer holds two elements: index 1 is in range, index 7 is not).
test('ld_uav_typed of an R32_FLOAT buffer: (x, 0, 0, 1.0f) in range, all zero past the end', () => {
  const decls = [
    ins(OP.dcl_uav_raw, [operand(T.uav, [0], { mode: 'none' })]),
    ins(OP.dcl_uav_typed, [operand(T.uav, [1], { mode: 'none' }), [0x5555]], 1), // buffer of float
    ins(OP.dcl_temps, [[2]]),
    [(OP.dcl_thread_group | (4 << 24)) >>> 0, 1, 1, 1],
  ];
  const LD_UAV_TYPED = 0xa3;
  const body = [7, 1].flatMap((index, k) => [
    ins(OP.mov, [r(1, 'x'), imm(index)]),
    ins(LD_UAV_TYPED, [r(0), rs(1, 'xxxx'), src(T.uav, [1], 'xyzw')]),
    ins(OP.store_raw, [dst(T.uav, [0], 'xyzw'), imm(16 * k), rs(0)]),
  ]);
  const p = lift(container(shex('cs', 5, 0, [...decls, ...body, ins(OP.ret)])));
  const out = new Uint32Array(8).fill(0xdeadbeef);
  const typed = new Uint32Array([f(2.5), f(-3)]);
  runCompute(p, { workgroups: [1, 1, 1], buffers: { [resourceKey(p, 'u', 0)]: out, [resourceKey(p, 'u', 1)]: typed } });
  assert.deepEqual(Array.from(out), [0, 0, 0, 0, f(-3), 0, 0, f(1)]);
});
