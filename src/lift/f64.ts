// 64-bit values for both lifters: every i64 and every double is an IR vec2<u32> (x the low word,
// y the high word, the words of its memory layout), so that a bit cast between i64 and double is
// free and WGSL and the executor compute the same words with u32 arithmetic only.
//
// The operations are IR helper functions, one a function, added to the module the first time a
// program uses them (`Soft64.call`). Doubles follow IEEE 754 binary64 exactly: every result is
// correctly rounded to nearest even (division included), subnormals are kept (Direct3D does not
// flush doubles), infinities and signed zeros follow the standard, an operation with a NaN operand
// returns that NaN made quiet (a NaN made of inf - inf, 0 * inf, 0 / 0 or inf / inf is
// 0x7ff8000000000000). i64 operations follow LLVM's: add, sub and mul modulo 2^64, shifts counted
// modulo 64, division rounding toward zero, and DXIL's all-ones for a division by zero (as the 32-bit
// path of the DXIL lifter gives it).
//
// The arithmetic is written with 64-bit integers as pairs of u32 lets (`P`: low, high); a double's
// significand sits with its leading bit at bit 61 of such a pair, nine bits of guard and sticky
// below its last bit, and `f64_round` rounds and packs it once (the one rounding of each result).

import { FunctionBuilder, type ModuleBuilder } from '../ir/builder.js';
import type { BinaryOp, Expr, ExprId, FunctionId, MathFn, Scalar, TypeId } from '../ir/ir.js';

/** A 64-bit integer as two u32 expressions (low, high). */
type P = readonly [ExprId, ExprId];
/** A 128-bit integer as four u32 expressions, low first. */
type Q = readonly ExprId[];

/** The helper functions by name: argument kinds (v: vec2<u32>, u: u32, i: i32, f: f32) and result. */
const SIGNATURES = {
  // i64
  i64_add: ['vv', 'v'],
  i64_sub: ['vv', 'v'],
  i64_mul: ['vv', 'v'],
  i64_udiv: ['vv', 'v'],
  i64_urem: ['vv', 'v'],
  i64_sdiv: ['vv', 'v'],
  i64_srem: ['vv', 'v'],
  i64_shl: ['vu', 'v'],
  i64_lshr: ['vu', 'v'],
  i64_ashr: ['vu', 'v'],
  i64_ult: ['vv', 'b'],
  i64_slt: ['vv', 'b'],
  // double
  f64_round: ['uiv', 'v'],
  f64_add: ['vv', 'v'],
  f64_sub: ['vv', 'v'],
  f64_mul: ['vv', 'v'],
  f64_div: ['vv', 'v'],
  f64_fma: ['vvv', 'v'],
  f64_isnan: ['v', 'b'],
  f64_eq: ['vv', 'b'],
  f64_lt: ['vv', 'b'],
  f64_le: ['vv', 'b'],
  f64_min: ['vv', 'v'],
  f64_max: ['vv', 'v'],
  f64_from_f32: ['f', 'v'],
  f64_to_f32: ['v', 'f'],
  f64_from_u32: ['u', 'v'],
  f64_from_i32: ['u', 'v'],
  f64_from_u64: ['v', 'v'],
  f64_from_i64: ['v', 'v'],
  f32_from_u64: ['v', 'f'],
  f32_from_i64: ['v', 'f'],
  f64_to_u32: ['v', 'u'],
  f64_to_i32: ['v', 'u'],
  f64_to_u64: ['v', 'v'],
  f64_to_i64: ['v', 'v'],
} as const satisfies Record<string, readonly [string, string]>;

export type Soft64Op = keyof typeof SIGNATURES;
export const SOFT64_OPS = Object.keys(SIGNATURES) as Soft64Op[];

/** The quiet NaN an invalid double operation gives. */
export const F64_DEFAULT_NAN: readonly [number, number] = [0, 0x7ff80000];

/** The 64-bit helper functions of one module, made when first called. */
export class Soft64 {
  private readonly ids = new Map<Soft64Op, FunctionId>();
  readonly tV2: TypeId;

  constructor(readonly m: ModuleBuilder) {
    this.tV2 = m.vec('u32', 2);
  }

  /** The function of `op`, added to the module on first use. */
  fn(op: Soft64Op): FunctionId {
    const known = this.ids.get(op);
    if (known !== undefined) return known;
    const [args, res] = SIGNATURES[op];
    const b = new Fn(this, `iridia_${op}`);
    for (let k = 0; k < args.length; k++) b.f.arg({ name: 'abcd'[k]!, type: this.typeOf(args[k]!) });
    BODIES[op](b);
    const id = this.m.addFunction(b.f.finish({ type: this.typeOf(res) }));
    this.ids.set(op, id);
    return id;
  }

  private typeOf(k: string): TypeId {
    const s: Scalar = k === 'f' ? 'f32' : k === 'i' ? 'i32' : k === 'b' ? 'bool' : 'u32';
    return k === 'v' ? this.tV2 : this.m.scalar(s);
  }

  /** Calls `op` from the function `f` is building: a `call` statement whose result is a let. */
  call(f: FunctionBuilder, op: Soft64Op, args: readonly ExprId[]): ExprId {
    const fn = this.fn(op);
    const result = f.newLet(op);
    f.stmt({ op: 'call', fn, args, result });
    return f.expr({ op: 'let', let: result });
  }
}

/** Expression helpers over one helper function being built. */
class Fn {
  readonly f: FunctionBuilder;
  constructor(
    readonly lib: Soft64,
    name: string,
  ) {
    this.f = new FunctionBuilder(lib.m, name);
  }
  e = (x: Expr): ExprId => this.f.expr(x);
  u = (v: number): ExprId => this.f.u32(v);
  i = (v: number): ExprId => this.f.i32(v);
  bool = (v: boolean): ExprId => this.f.bool(v);
  arg = (k: number): ExprId => this.e({ op: 'arg', index: k });
  bin = (fn: BinaryOp, left: ExprId, right: ExprId): ExprId => this.e({ op: 'binary', fn, left, right });
  add = (a: ExprId, b: ExprId) => this.bin('add', a, b);
  sub = (a: ExprId, b: ExprId) => this.bin('sub', a, b);
  and = (a: ExprId, b: ExprId) => this.bin('and', a, b);
  or = (a: ExprId, b: ExprId) => this.bin('or', a, b);
  xor = (a: ExprId, b: ExprId) => this.bin('xor', a, b);
  shl = (a: ExprId, b: ExprId) => this.bin('shl', a, b);
  shr = (a: ExprId, b: ExprId) => this.bin('shr', a, b);
  eq = (a: ExprId, b: ExprId) => this.bin('eq', a, b);
  ne = (a: ExprId, b: ExprId) => this.bin('ne', a, b);
  lt = (a: ExprId, b: ExprId) => this.bin('lt', a, b);
  le = (a: ExprId, b: ExprId) => this.bin('le', a, b);
  gt = (a: ExprId, b: ExprId) => this.bin('gt', a, b);
  ge = (a: ExprId, b: ExprId) => this.bin('ge', a, b);
  not = (a: ExprId) => this.e({ op: 'unary', fn: 'not', arg: a });
  neg = (a: ExprId) => this.e({ op: 'unary', fn: 'neg', arg: a });
  sel = (cond: ExprId, accept: ExprId, reject: ExprId) => this.e({ op: 'select', cond, accept, reject });
  math = (fn: MathFn, ...args: ExprId[]) => this.e({ op: 'math', fn, args });
  cast = (to: Scalar, value: ExprId) => this.e({ op: 'bitcast', to, value });
  /** 0 or 1 of a bool. */
  bit = (c: ExprId) => this.sel(c, this.u(1), this.u(0));
  let = (x: ExprId, name = 't'): ExprId => {
    const e = this.f.exprs[x];
    if (e && (e.op === 'literal' || e.op === 'let' || e.op === 'arg')) return x;
    return this.f.bind(name, x);
  };
  pair = (v: ExprId, name = 'p'): P => {
    const w = this.let(v, name);
    return [
      this.let(this.e({ op: 'swizzle', vector: w, pattern: [0] }), `${name}_lo`),
      this.let(this.e({ op: 'swizzle', vector: w, pattern: [1] }), `${name}_hi`),
    ];
  };
  vec = (p: P): ExprId => this.e({ op: 'compose', type: this.lib.tV2, parts: [p[0], p[1]] });
  ret = (v: ExprId): void => this.f.stmt({ op: 'return', value: v });
  /** `if (cond) { body }` */
  when = (cond: ExprId, body: () => void): void => {
    this.f.open();
    body();
    const accept = this.f.close();
    this.f.stmt({ op: 'if', cond, accept, reject: [] });
  };
  call = (op: Soft64Op, ...args: ExprId[]): ExprId => this.lib.call(this.f, op, args);
  lets = (p: P, name = 'p'): P => [this.let(p[0], `${name}_lo`), this.let(p[1], `${name}_hi`)];

  // ---- 64-bit integer pieces ----------------------------------------------------------------

  add64 = (a: P, b: P): P => {
    const lo = this.let(this.add(a[0], b[0]), 'lo');
    return [lo, this.let(this.add(this.add(a[1], b[1]), this.bit(this.lt(lo, a[0]))), 'hi')];
  };
  sub64 = (a: P, b: P): P => {
    const lo = this.let(this.sub(a[0], b[0]), 'lo');
    return [lo, this.let(this.sub(this.sub(a[1], b[1]), this.bit(this.lt(a[0], b[0]))), 'hi')];
  };
  neg64 = (a: P): P => this.sub64([this.u(0), this.u(0)], a);
  eq64 = (a: P, b: P) => this.and(this.eq(a[0], b[0]), this.eq(a[1], b[1]));
  isZero64 = (a: P) => this.eq(this.or(a[0], a[1]), this.u(0));
  ltu64 = (a: P, b: P) => this.or(this.lt(a[1], b[1]), this.and(this.eq(a[1], b[1]), this.lt(a[0], b[0])));
  sel64 = (c: ExprId, a: P, b: P): P => {
    const cc = this.let(c, 'c');
    return [this.let(this.sel(cc, a[0], b[0]), 'lo'), this.let(this.sel(cc, a[1], b[1]), 'hi')];
  };
  /** a << n for a u32 n in 0..63. */
  shl64 = (a: P, n: ExprId): P => {
    const k = this.let(this.and(n, this.u(31)), 'k');
    const big = this.let(this.ge(n, this.u(32)), 'big');
    const carry = this.sel(this.eq(k, this.u(0)), this.u(0), this.shr(a[0], this.sub(this.u(32), k)));
    const hiSmall = this.or(this.shl(a[1], k), carry);
    return [
      this.let(this.sel(big, this.u(0), this.shl(a[0], k)), 'lo'),
      this.let(this.sel(big, this.shl(a[0], k), hiSmall), 'hi'),
    ];
  };
  /** a >> n (logical) for a u32 n in 0..63. */
  shr64 = (a: P, n: ExprId): P => {
    const k = this.let(this.and(n, this.u(31)), 'k');
    const big = this.let(this.ge(n, this.u(32)), 'big');
    const carry = this.sel(this.eq(k, this.u(0)), this.u(0), this.shl(a[1], this.sub(this.u(32), k)));
    const loSmall = this.or(this.shr(a[0], k), carry);
    return [
      this.let(this.sel(big, this.shr(a[1], k), loSmall), 'lo'),
      this.let(this.sel(big, this.u(0), this.shr(a[1], k)), 'hi'),
    ];
  };
  /** a >> n for any u32 n, the bits shifted out or-ed into bit 0 (sticky). */
  shrSticky = (a: P, n: ExprId): P => {
    const nn = this.let(this.math('min', n, this.u(63)), 'n');
    const s = this.shr64(a, nn);
    const back = this.shl64(s, nn);
    const lost = this.or(this.not(this.eq64(back, a)), this.and(this.ge(n, this.u(64)), this.not(this.isZero64(a))));
    const all = this.let(this.ge(n, this.u(64)), 'all');
    return [this.let(this.or(this.sel(all, this.u(0), s[0]), this.bit(lost)), 'lo'), this.sel(all, this.u(0), s[1])];
  };
  /** Index of the highest set bit (i32, -1 for zero). */
  top64 = (a: P): ExprId =>
    this.let(
      this.sel(
        this.ne(a[1], this.u(0)),
        this.add(this.cast('i32', this.math('first_leading_bit', a[1])), this.i(32)),
        this.cast('i32', this.math('first_leading_bit', a[0])),
      ),
      'top',
    );
  /** 64-bit product of two u32s. */
  mul32 = (a: ExprId, b: ExprId): P => [
    this.let(this.bin('mul', a, b), 'lo'),
    this.let(this.math('mul_hi', a, b), 'hi'),
  ];

  // ---- 128-bit integer pieces (four u32 words, low first: fma's exact sums) -------------------

  /** Word k of a, zero past its four. */
  private qword = (a: Q, k: number): ExprId => (k >= 0 && k < 4 ? a[k]! : this.u(0));
  /** Word i + ws (or i - ws) for a u32 ws in 0..3. */
  private qpick = (a: Q, i: number, ws: ExprId, dir: 1 | -1): ExprId =>
    this.sel(
      this.eq(ws, this.u(0)),
      this.qword(a, i),
      this.sel(
        this.eq(ws, this.u(1)),
        this.qword(a, i + dir),
        this.sel(this.eq(ws, this.u(2)), this.qword(a, i + 2 * dir), this.qword(a, i + 3 * dir)),
      ),
    );
  /** a >> n (logical) for a u32 n in 0..127. */
  shrQ = (a: Q, n: ExprId): Q => {
    const ws = this.let(this.shr(n, this.u(5)), 'ws');
    const bs = this.let(this.and(n, this.u(31)), 'bs');
    const zero = this.let(this.eq(bs, this.u(0)), 'aligned');
    return [0, 1, 2, 3].map((i) => {
      const lo = this.shr(this.qpick(a, i, ws, 1), bs);
      const hi = this.sel(zero, this.u(0), this.shl(this.qpick(a, i + 1, ws, 1), this.sub(this.u(32), bs)));
      return this.let(this.or(lo, hi), 'q');
    });
  };
  /** a << n for a u32 n in 0..127. */
  shlQ = (a: Q, n: ExprId): Q => {
    const ws = this.let(this.shr(n, this.u(5)), 'ws');
    const bs = this.let(this.and(n, this.u(31)), 'bs');
    const zero = this.let(this.eq(bs, this.u(0)), 'aligned');
    return [0, 1, 2, 3].map((i) => {
      const hi = this.shl(this.qpick(a, i, ws, -1), bs);
      const lo = this.sel(zero, this.u(0), this.shr(this.qpick(a, i - 1, ws, -1), this.sub(this.u(32), bs)));
      return this.let(this.or(hi, lo), 'q');
    });
  };
  isZeroQ = (a: Q) => this.eq(this.or(this.or(a[0]!, a[1]!), this.or(a[2]!, a[3]!)), this.u(0));
  eqQ = (a: Q, b: Q) =>
    this.and(
      this.and(this.eq(a[0]!, b[0]!), this.eq(a[1]!, b[1]!)),
      this.and(this.eq(a[2]!, b[2]!), this.eq(a[3]!, b[3]!)),
    );
  /** a >> n for any u32 n, the bits shifted out or-ed into bit 0. */
  shrStickyQ = (a: Q, n: ExprId): Q => {
    const nn = this.let(this.math('min', n, this.u(127)), 'n');
    const s = this.shrQ(a, nn);
    const back = this.shlQ(s, nn);
    const all = this.let(this.ge(n, this.u(128)), 'all');
    const lost = this.or(this.not(this.eqQ(back, a)), this.and(all, this.not(this.isZeroQ(a))));
    return [
      this.let(this.or(this.sel(all, this.u(0), s[0]!), this.bit(lost)), 'q'),
      ...[1, 2, 3].map((k) => this.let(this.sel(all, this.u(0), s[k]!), 'q')),
    ];
  };
  addQ = (a: Q, b: Q): Q => {
    let carry = this.u(0);
    return [0, 1, 2, 3].map((k) => {
      const t = this.let(this.add(a[k]!, b[k]!), 't');
      const s = this.let(this.add(t, carry), 's');
      carry = this.let(this.or(this.bit(this.lt(t, a[k]!)), this.bit(this.lt(s, t))), 'carry');
      return s;
    });
  };
  subQ = (a: Q, b: Q): Q => {
    let borrow = this.u(0);
    return [0, 1, 2, 3].map((k) => {
      const t = this.let(this.sub(a[k]!, b[k]!), 't');
      const s = this.let(this.sub(t, borrow), 's');
      borrow = this.let(this.or(this.bit(this.lt(a[k]!, b[k]!)), this.bit(this.lt(t, borrow))), 'borrow');
      return s;
    });
  };
  ltQ = (a: Q, b: Q): ExprId => {
    let r = this.lt(a[0]!, b[0]!);
    for (let k = 1; k < 4; k++) r = this.or(this.lt(a[k]!, b[k]!), this.and(this.eq(a[k]!, b[k]!), r));
    return this.let(r, 'less');
  };
  /** Index of the highest set bit (i32, -1 for zero). */
  topQ = (a: Q): ExprId => {
    const flb = (k: number) => this.cast('i32', this.math('first_leading_bit', a[k]!));
    let r = flb(0);
    for (let k = 1; k < 4; k++) r = this.sel(this.ne(a[k]!, this.u(0)), this.add(flb(k), this.i(32 * k)), r);
    return this.let(r, 'top');
  };

  // ---- double pieces --------------------------------------------------------------------------

  isNaN = (a: P) => {
    const h = this.and(a[1], this.u(0x7fffffff));
    return this.or(this.gt(h, this.u(0x7ff00000)), this.and(this.eq(h, this.u(0x7ff00000)), this.ne(a[0], this.u(0))));
  };
  isInf = (a: P) => this.and(this.eq(this.and(a[1], this.u(0x7fffffff)), this.u(0x7ff00000)), this.eq(a[0], this.u(0)));
  quiet = (a: P): ExprId => this.vec([a[0], this.or(a[1], this.u(0x00080000))]);
  defaultNaN = (): ExprId => this.vec([this.u(F64_DEFAULT_NAN[0]), this.u(F64_DEFAULT_NAN[1])]);
  /** The biased exponent field (u32). */
  expOf = (a: P) => this.let(this.and(this.shr(a[1], this.u(20)), this.u(0x7ff)), 'exp');
  signOf = (a: P) => this.let(this.and(a[1], this.u(0x80000000)), 'sign');
  /** The significand with its implicit bit (53 bits; a subnormal's without). */
  mantOf = (a: P, exp: ExprId): P => [
    a[0],
    this.let(
      this.or(this.and(a[1], this.u(0xfffff)), this.sel(this.eq(exp, this.u(0)), this.u(0), this.u(0x100000))),
      'mant_hi',
    ),
  ];
  /** The significand normalized to bit 52 and its exponent (i32; below 1 for a subnormal). */
  normalized = (a: P, exp: ExprId): [P, ExprId] => {
    const m = this.mantOf(a, exp);
    const sh = this.let(this.sub(this.i(52), this.top64(m)), 'norm');
    const shift = this.let(this.sel(this.eq(exp, this.u(0)), this.cast('u32', sh), this.u(0)), 'shift');
    const mm = this.shl64(m, shift);
    const e = this.let(this.sub(this.cast('i32', this.math('max', exp, this.u(1))), this.cast('i32', shift)), 'e');
    return [mm, e];
  };
}

type Body = (b: Fn) => void;

const i64Div =
  (kind: 'udiv' | 'urem' | 'sdiv' | 'srem'): Body =>
  (b) => {
    const a0 = b.pair(b.arg(0), 'a');
    const d0 = b.pair(b.arg(1), 'b');
    const ones = b.vec([b.u(0xffffffff), b.u(0xffffffff)]);
    b.when(b.isZero64(d0), () => b.ret(ones));
    const signed = kind === 'sdiv' || kind === 'srem';
    const na = signed ? b.let(b.ne(b.and(a0[1], b.u(0x80000000)), b.u(0)), 'na') : b.bool(false);
    const nd = signed ? b.let(b.ne(b.and(d0[1], b.u(0x80000000)), b.u(0)), 'nd') : b.bool(false);
    const a = signed ? b.sel64(na, b.neg64(a0), a0) : a0;
    const d = signed ? b.sel64(nd, b.neg64(d0), d0) : d0;
    // restoring division, one quotient bit an iteration from the top
    const f = b.f;
    const tV2 = b.lib.tV2;
    const q = f.local('q', tV2);
    const r = f.local('r', tV2);
    const i = f.local('i', b.lib.m.scalar('u32'), b.u(64));
    f.open();
    b.when(b.eq(b.e({ op: 'load', pointer: b.e({ op: 'local', local: i }) }), b.u(0)), () => f.stmt({ op: 'break' }));
    const k = b.let(b.sub(b.e({ op: 'load', pointer: b.e({ op: 'local', local: i }) }), b.u(1)), 'k');
    f.stmt({ op: 'store', pointer: b.e({ op: 'local', local: i }), value: k });
    const rr = b.pair(b.e({ op: 'load', pointer: b.e({ op: 'local', local: r }) }), 'r');
    const qq = b.pair(b.e({ op: 'load', pointer: b.e({ op: 'local', local: q }) }), 'q');
    const out = b.let(b.shr(rr[1], b.u(31)), 'out');
    const abit = b.and(b.shr64(a, k)[0], b.u(1));
    const r2: P = b.lets([b.or(b.shl(rr[0], b.u(1)), abit), b.or(b.shl(rr[1], b.u(1)), b.shr(rr[0], b.u(31)))], 'r2');
    const take = b.let(b.or(b.ne(out, b.u(0)), b.not(b.ltu64(r2, d))), 'take');
    const r3 = b.sel64(take, b.sub64(r2, d), r2);
    f.stmt({ op: 'store', pointer: b.e({ op: 'local', local: r }), value: b.vec(r3) });
    const q2: P = [b.or(b.shl(qq[0], b.u(1)), b.bit(take)), b.or(b.shl(qq[1], b.u(1)), b.shr(qq[0], b.u(31)))];
    f.stmt({ op: 'store', pointer: b.e({ op: 'local', local: q }), value: b.vec(q2) });
    const body = f.close();
    f.stmt({ op: 'loop', body });
    const qf = b.pair(b.e({ op: 'load', pointer: b.e({ op: 'local', local: q }) }), 'quot');
    const rf = b.pair(b.e({ op: 'load', pointer: b.e({ op: 'local', local: r }) }), 'rem');
    if (kind === 'udiv') b.ret(b.vec(qf));
    else if (kind === 'urem') b.ret(b.vec(rf));
    else if (kind === 'sdiv') b.ret(b.vec(b.sel64(b.ne(na, nd), b.neg64(qf), qf)));
    else b.ret(b.vec(b.sel64(na, b.neg64(rf), rf)));
  };

const shift =
  (kind: 'shl' | 'lshr' | 'ashr'): Body =>
  (b) => {
    const a = b.pair(b.arg(0), 'a');
    const n = b.let(b.and(b.arg(1), b.u(63)), 'n');
    if (kind === 'shl') return b.ret(b.vec(b.shl64(a, n)));
    const s = b.shr64(a, n);
    if (kind === 'lshr') return b.ret(b.vec(s));
    // arithmetic: the vacated top n bits copy the sign
    const neg = b.ne(b.and(a[1], b.u(0x80000000)), b.u(0));
    const fill = b.shl64([b.u(0xffffffff), b.u(0xffffffff)], b.sub(b.u(63), n));
    const fill2 = b.shl64(fill, b.u(1));
    const keep = b.eq(n, b.u(0));
    const ext: P = [
      b.sel(b.and(neg, b.not(keep)), b.or(s[0], fill2[0]), s[0]),
      b.sel(b.and(neg, b.not(keep)), b.or(s[1], fill2[1]), s[1]),
    ];
    b.ret(b.vec(ext));
  };

/**
 * The first two operands of a product (mul, div, fma): a NaN among them returned quietened (a's
 * first), the product's sign, and which of them is zero or infinite.
 */
function productOperands(b: Fn) {
  const a = b.pair(b.arg(0), 'a');
  const c = b.pair(b.arg(1), 'b');
  b.when(b.isNaN(a), () => b.ret(b.quiet(a)));
  b.when(b.isNaN(c), () => b.ret(b.quiet(c)));
  return {
    a,
    c,
    sign: b.let(b.and(b.xor(a[1], c[1]), b.u(0x80000000)), 'sign'),
    za: b.let(b.isZero64([a[0], b.and(a[1], b.u(0x7fffffff))]), 'za'),
    zc: b.let(b.isZero64([c[0], b.and(c[1], b.u(0x7fffffff))]), 'zc'),
    ia: b.let(b.isInf(a), 'ia'),
    ic: b.let(b.isInf(c), 'ic'),
  };
}

/** Add or subtract (b's sign flipped first). */
const fadd =
  (sub: boolean): Body =>
  (b) => {
    const a = b.pair(b.arg(0), 'a');
    const y = b.pair(b.arg(1), 'b');
    const c: P = sub ? b.lets([y[0], b.xor(y[1], b.u(0x80000000))], 'b') : y;
    b.when(b.isNaN(a), () => b.ret(b.quiet(a)));
    b.when(b.isNaN(c), () => b.ret(b.quiet(y)));
    const sa = b.signOf(a);
    const sc = b.signOf(c);
    b.when(b.isInf(a), () => {
      b.when(b.and(b.isInf(c), b.ne(sa, sc)), () => b.ret(b.defaultNaN()));
      b.ret(b.vec(a));
    });
    b.when(b.isInf(c), () => b.ret(b.vec(c)));
    // x the larger magnitude
    const magA: P = [a[0], b.and(a[1], b.u(0x7fffffff))];
    const magC: P = [c[0], b.and(c[1], b.u(0x7fffffff))];
    const swap = b.let(b.ltu64(magA, magC), 'swap');
    const x = b.sel64(swap, c, a);
    const z = b.sel64(swap, a, c);
    const sx = b.signOf(x);
    const ex = b.expOf(x);
    const ez = b.expOf(z);
    const mx = b.shl64(b.mantOf(x, ex), b.u(9));
    const mz = b.shl64(b.mantOf(z, ez), b.u(9));
    const dx = b.let(b.sub(b.math('max', ex, b.u(1)), b.math('max', ez, b.u(1))), 'd');
    const mzs = b.shrSticky(mz, dx);
    const same = b.let(b.eq(sa, sc), 'same');
    const m = b.sel64(same, b.add64(mx, mzs), b.sub64(mx, mzs));
    b.when(b.isZero64(m), () => b.ret(b.vec([b.u(0), b.and(sa, sc)])));
    b.ret(b.call('f64_round', sx, b.cast('i32', b.math('max', ex, b.u(1))), b.vec(m)));
  };

const BODIES: Record<Soft64Op, Body> = {
  i64_add: (b) => b.ret(b.vec(b.add64(b.pair(b.arg(0), 'a'), b.pair(b.arg(1), 'b')))),
  i64_sub: (b) => b.ret(b.vec(b.sub64(b.pair(b.arg(0), 'a'), b.pair(b.arg(1), 'b')))),
  i64_mul: (b) => {
    const a = b.pair(b.arg(0), 'a');
    const c = b.pair(b.arg(1), 'b');
    const low = b.mul32(a[0], c[0]);
    const hi = b.add(b.add(low[1], b.bin('mul', a[0], c[1])), b.bin('mul', a[1], c[0]));
    b.ret(b.vec([low[0], hi]));
  },
  i64_udiv: i64Div('udiv'),
  i64_urem: i64Div('urem'),
  i64_sdiv: i64Div('sdiv'),
  i64_srem: i64Div('srem'),
  i64_shl: shift('shl'),
  i64_lshr: shift('lshr'),
  i64_ashr: shift('ashr'),
  i64_ult: (b) => b.ret(b.ltu64(b.pair(b.arg(0), 'a'), b.pair(b.arg(1), 'b'))),
  i64_slt: (b) => {
    const a = b.pair(b.arg(0), 'a');
    const c = b.pair(b.arg(1), 'b');
    const flip = b.u(0x80000000);
    b.ret(b.ltu64([a[0], b.xor(a[1], flip)], [c[0], b.xor(c[1], flip)]));
  },

  f64_round: (b) => {
    // sign (0 or 0x80000000), exponent e (i32), significand m (< 2^63): the value m * 2^(e - 1084)
    const sign = b.arg(0);
    const e = b.arg(1);
    const m = b.pair(b.arg(2), 'm');
    b.when(b.isZero64(m), () => b.ret(b.vec([b.u(0), sign])));
    const shift = b.let(b.sub(b.i(61), b.top64(m)), 'shift');
    const sh = b.let(b.math('min', shift, b.sub(e, b.i(1))), 'sh');
    const left = b.let(b.ge(sh, b.i(0)), 'left');
    const ml = b.shl64(m, b.sel(left, b.cast('u32', sh), b.u(0)));
    const right = b.math('min', b.cast('u32', b.neg(b.math('min', sh, b.i(0)))), b.u(64));
    const mr = b.shrSticky(m, right);
    const m2 = b.sel64(left, ml, mr);
    const e2 = b.let(b.sub(e, sh), 'e2');
    b.when(b.ge(e2, b.i(0x7ff)), () => b.ret(b.vec([b.u(0), b.or(sign, b.u(0x7ff00000))])));
    const q = b.shr64(m2, b.u(9));
    const r = b.let(b.and(m2[0], b.u(0x1ff)), 'r');
    const up = b.or(b.gt(r, b.u(0x100)), b.and(b.eq(r, b.u(0x100)), b.ne(b.and(q[0], b.u(1)), b.u(0))));
    const packed = b.add64(b.add64([b.u(0), b.shl(b.cast('u32', b.sub(e2, b.i(1))), b.u(20))], q), [b.bit(up), b.u(0)]);
    b.ret(b.vec([packed[0], b.or(packed[1], sign)]));
  },
  f64_add: fadd(false),
  f64_sub: fadd(true),
  f64_mul: (b) => {
    const { a, c, sign, za, zc, ia, ic } = productOperands(b);
    b.when(b.or(b.and(ia, zc), b.and(ic, za)), () => b.ret(b.defaultNaN()));
    b.when(b.or(ia, ic), () => b.ret(b.vec([b.u(0), b.or(sign, b.u(0x7ff00000))])));
    b.when(b.or(za, zc), () => b.ret(b.vec([b.u(0), sign])));
    const [ma, ea] = b.normalized(a, b.expOf(a));
    const [mc, ec] = b.normalized(c, b.expOf(c));
    // the 106-bit product in four words
    const p00 = b.mul32(ma[0], mc[0]);
    const p01 = b.mul32(ma[0], mc[1]);
    const p10 = b.mul32(ma[1], mc[0]);
    const p11 = b.mul32(ma[1], mc[1]);
    const w0 = p00[0];
    const s1 = b.add64([p00[1], b.u(0)], [p01[0], b.u(0)]);
    const s2 = b.add64(s1, [p10[0], b.u(0)]);
    const w1 = s2[0];
    const t1 = b.add64([p01[1], b.u(0)], [p10[1], b.u(0)]);
    const t2 = b.add64(t1, [p11[0], b.u(0)]);
    const t3 = b.add64(t2, [s2[1], b.u(0)]);
    const w2 = t3[0];
    const w3 = b.let(b.add(p11[1], t3[1]), 'w3');
    // >> 43, the bits below or-ed into bit 0
    const sticky = b.or(b.ne(w0, b.u(0)), b.ne(b.and(w1, b.u(0x7ff)), b.u(0)));
    const lo = b.or(b.or(b.shr(w1, b.u(11)), b.shl(w2, b.u(21))), b.bit(sticky));
    const hi = b.or(b.shr(w2, b.u(11)), b.shl(w3, b.u(21)));
    b.ret(b.call('f64_round', sign, b.sub(b.add(ea, ec), b.i(1023)), b.vec([lo, hi])));
  },
  f64_div: (b) => {
    const { a, c, sign, za, zc, ia, ic } = productOperands(b);
    b.when(b.or(b.and(ia, ic), b.and(za, zc)), () => b.ret(b.defaultNaN()));
    b.when(b.or(ia, zc), () => b.ret(b.vec([b.u(0), b.or(sign, b.u(0x7ff00000))])));
    b.when(b.or(za, ic), () => b.ret(b.vec([b.u(0), sign])));
    const [ma, ea] = b.normalized(a, b.expOf(a));
    const [mc, ec] = b.normalized(c, b.expOf(c));
    const small = b.let(b.ltu64(ma, mc), 'small');
    const r0 = b.sel64(small, b.shl64(ma, b.u(1)), ma);
    const f = b.f;
    const tV2 = b.lib.tV2;
    const q = f.local('q', tV2);
    const r = f.local('r', tV2);
    const i = f.local('i', b.lib.m.scalar('u32'), b.u(0));
    f.stmt({ op: 'store', pointer: b.e({ op: 'local', local: r }), value: b.vec(r0) });
    const ld = (l: number) => b.e({ op: 'load', pointer: b.e({ op: 'local', local: l }) });
    f.open();
    b.when(b.ge(ld(i), b.u(62)), () => f.stmt({ op: 'break' }));
    f.stmt({ op: 'store', pointer: b.e({ op: 'local', local: i }), value: b.add(ld(i), b.u(1)) });
    const rr = b.pair(ld(r), 'r');
    const qq = b.pair(ld(q), 'q');
    const take = b.let(b.not(b.ltu64(rr, mc)), 'take');
    const r2 = b.sel64(take, b.sub64(rr, mc), rr);
    f.stmt({ op: 'store', pointer: b.e({ op: 'local', local: r }), value: b.vec(b.shl64(r2, b.u(1))) });
    const q2: P = [b.or(b.shl(qq[0], b.u(1)), b.bit(take)), b.or(b.shl(qq[1], b.u(1)), b.shr(qq[0], b.u(31)))];
    f.stmt({ op: 'store', pointer: b.e({ op: 'local', local: q }), value: b.vec(q2) });
    const body = f.close();
    f.stmt({ op: 'loop', body });
    const qf = b.pair(ld(q), 'quot');
    const rf = b.pair(ld(r), 'rem');
    const m: P = [b.or(qf[0], b.bit(b.not(b.isZero64(rf)))), qf[1]];
    const e = b.sub(b.add(b.sub(ea, ec), b.i(1023)), b.sel(small, b.i(1), b.i(0)));
    b.ret(b.call('f64_round', sign, e, b.vec(m)));
  },
  f64_fma: (b) => {
    // a * b + c with one rounding: the exact product (106 bits) and c aligned in 128-bit integers
    const { a, c, sign: sp, za, zc, ia, ic } = productOperands(b);
    const z = b.pair(b.arg(2), 'c');
    b.when(b.isNaN(z), () => b.ret(b.quiet(z)));
    const sz = b.signOf(z);
    const zz = b.let(b.isZero64([z[0], b.and(z[1], b.u(0x7fffffff))]), 'zz');
    b.when(b.or(b.and(ia, zc), b.and(ic, za)), () => b.ret(b.defaultNaN()));
    b.when(b.or(ia, ic), () => {
      b.when(b.and(b.isInf(z), b.ne(sz, sp)), () => b.ret(b.defaultNaN()));
      b.ret(b.vec([b.u(0), b.or(sp, b.u(0x7ff00000))]));
    });
    b.when(b.isInf(z), () => b.ret(b.vec(z)));
    // an exact zero product: the sum is c, or a zero whose sign IEEE's addition gives
    b.when(b.or(za, zc), () => b.ret(b.call('f64_add', b.vec([b.u(0), sp]), b.vec(z))));
    // c zero: the exact product rounded (what f64_mul gives)
    b.when(zz, () => b.ret(b.call('f64_mul', b.vec(a), b.vec(c))));
    const [ma, ea] = b.normalized(a, b.expOf(a));
    const [mc, ec] = b.normalized(c, b.expOf(c));
    const [mz, ez] = b.normalized(z, b.expOf(z));
    const p00 = b.mul32(ma[0], mc[0]);
    const p01 = b.mul32(ma[0], mc[1]);
    const p10 = b.mul32(ma[1], mc[0]);
    const p11 = b.mul32(ma[1], mc[1]);
    const s1 = b.add64([p00[1], b.u(0)], [p01[0], b.u(0)]);
    const s2 = b.add64(s1, [p10[0], b.u(0)]);
    const t1 = b.add64([p01[1], b.u(0)], [p10[1], b.u(0)]);
    const t2 = b.add64(t1, [p11[0], b.u(0)]);
    const t3 = b.add64(t2, [s2[1], b.u(0)]);
    const product: Q = [p00[0], s2[0], t3[0], b.let(b.add(p11[1], t3[1]), 'w3')];
    // product << 20 (top at bit 124 or 125), bit 0 worth 2^(ea + eb - 2170); c << 72 (top at 124),
    // bit 0 worth 2^(ez - 1147)
    const X = b.shlQ(product, b.u(20));
    const Y = b.shlQ([mz[0], mz[1], b.u(0), b.u(0)], b.u(72));
    const ex = b.let(b.sub(b.add(ea, ec), b.i(2170)), 'ex');
    const ey = b.let(b.sub(ez, b.i(1147)), 'ey');
    const d = b.let(b.sub(ex, ey), 'd');
    const xBig = b.let(b.ge(d, b.i(0)), 'x_big');
    const dd = b.cast('u32', b.sel(xBig, d, b.neg(d)));
    const Ys = b.shrStickyQ(Y, dd);
    const Xs = b.shrStickyQ(X, dd);
    const hiQ = [0, 1, 2, 3].map((k) => b.let(b.sel(xBig, X[k]!, Y[k]!), 'big'));
    const loQ = [0, 1, 2, 3].map((k) => b.let(b.sel(xBig, Ys[k]!, Xs[k]!), 'small'));
    const e0 = b.let(b.sel(xBig, ex, ey), 'e0');
    const bigSign = b.let(b.sel(xBig, sp, sz), 'big_sign');
    const same = b.let(b.eq(sp, sz), 'same');
    // opposite signs: the difference, its sign the larger magnitude's
    const flip = b.let(b.and(b.not(same), b.ltQ(hiQ, loQ)), 'flip');
    const sum = b.addQ(hiQ, loQ);
    const diff = b.subQ(hiQ, loQ);
    const rdiff = b.subQ(loQ, hiQ);
    const S = [0, 1, 2, 3].map((k) => b.let(b.sel(same, sum[k]!, b.sel(flip, rdiff[k]!, diff[k]!)), 'sum'));
    const sign = b.let(b.sel(flip, b.xor(bigSign, b.u(0x80000000)), bigSign), 'sum_sign');
    b.when(b.isZeroQ(S), () => b.ret(b.vec([b.u(0), b.u(0)])));
    const top = b.topQ(S);
    const cut = b.let(b.cast('u32', b.math('max', b.sub(top, b.i(61)), b.i(0))), 'cut');
    const m = b.shrStickyQ(S, cut);
    const e = b.add(b.add(e0, b.cast('i32', cut)), b.i(1084));
    b.ret(b.call('f64_round', sign, e, b.vec([m[0]!, m[1]!])));
  },
  f64_isnan: (b) => b.ret(b.isNaN(b.pair(b.arg(0), 'a'))),
  f64_eq: (b) => {
    const a = b.pair(b.arg(0), 'a');
    const c = b.pair(b.arg(1), 'b');
    const zeros = b.isZero64([b.or(a[0], c[0]), b.and(b.or(a[1], c[1]), b.u(0x7fffffff))]);
    b.ret(b.and(b.not(b.or(b.isNaN(a), b.isNaN(c))), b.or(zeros, b.eq64(a, c))));
  },
  f64_lt: (b) => b.ret(orderedLess(b, false)),
  f64_le: (b) => b.ret(orderedLess(b, true)),
  f64_min: (b) => minMax(b, 'min'),
  f64_max: (b) => minMax(b, 'max'),
  f64_from_f32: (b) => {
    const x = b.let(b.cast('u32', b.arg(0)), 'x');
    const sign = b.let(b.and(x, b.u(0x80000000)), 'sign');
    const e = b.let(b.and(b.shr(x, b.u(23)), b.u(0xff)), 'e');
    const m = b.let(b.and(x, b.u(0x7fffff)), 'm');
    b.when(b.eq(e, b.u(0xff)), () =>
      b.ret(b.vec([b.shl(m, b.u(29)), b.or(b.or(sign, b.u(0x7ff00000)), b.shr(m, b.u(3)))])),
    );
    b.when(b.and(b.eq(e, b.u(0)), b.eq(m, b.u(0))), () => b.ret(b.vec([b.u(0), sign])));
    // a subnormal: normalized (exact: a double holds every float)
    const p = b.let(b.math('first_leading_bit', m), 'p');
    const sub = b.let(b.eq(e, b.u(0)), 'sub');
    const sh = b.let(b.sel(sub, b.sub(b.u(23), p), b.u(0)), 'sh');
    const mm = b.let(b.and(b.shl(m, sh), b.u(0x7fffff)), 'mm');
    const ed = b.sel(sub, b.sub(b.u(897), sh), b.add(e, b.u(896)));
    b.ret(b.vec([b.shl(mm, b.u(29)), b.or(b.or(sign, b.shl(ed, b.u(20))), b.shr(mm, b.u(3)))]));
  },
  f64_to_f32: (b) => {
    const a = b.pair(b.arg(0), 'a');
    const sign = b.signOf(a);
    const e = b.expOf(a);
    const f32 = (bits: ExprId) => b.cast('f32', bits);
    b.when(b.isNaN(a), () =>
      b.ret(
        f32(b.or(b.or(sign, b.u(0x7fc00000)), b.or(b.shl(b.and(a[1], b.u(0xfffff)), b.u(3)), b.shr(a[0], b.u(29))))),
      ),
    );
    // a double subnormal is below half the smallest float subnormal: zero
    b.when(b.eq(e, b.u(0)), () => b.ret(f32(sign)));
    const E = b.let(b.sub(b.cast('i32', e), b.i(896)), 'E');
    b.when(b.ge(E, b.i(0xff)), () => b.ret(f32(b.or(sign, b.u(0x7f800000)))));
    const m = b.mantOf(a, e);
    const shift = b.let(
      b.math('min', b.add(b.u(29), b.cast('u32', b.math('max', b.sub(b.i(1), E), b.i(0)))), b.u(63)),
      'shift',
    );
    const q = b.shr64(m, shift);
    const lost = b.sub64(m, b.shl64(q, shift));
    const half = b.shl64([b.u(1), b.u(0)], b.sub(shift, b.u(1)));
    const up = b.or(b.ltu64(half, lost), b.and(b.eq64(lost, half), b.ne(b.and(q[0], b.u(1)), b.u(0))));
    const ec = b.cast('u32', b.sub(b.math('max', E, b.i(1)), b.i(1)));
    b.ret(f32(b.or(b.add(b.add(b.shl(ec, b.u(23)), q[0]), b.bit(up)), sign)));
  },
  f64_from_u32: (b) => b.ret(b.call('f64_round', b.u(0), b.i(1084), b.vec([b.arg(0), b.u(0)]))),
  f64_from_i32: (b) => {
    const x = b.let(b.arg(0), 'x');
    const neg = b.ne(b.and(x, b.u(0x80000000)), b.u(0));
    const mag = b.sel(neg, b.neg(x), x);
    b.ret(b.call('f64_round', b.and(x, b.u(0x80000000)), b.i(1084), b.vec([mag, b.u(0)])));
  },
  f64_from_u64: (b) => {
    b.ret(u64ToDouble(b, b.u(0), b.pair(b.arg(0), 'a')));
  },
  f64_from_i64: (b) => {
    const a = b.pair(b.arg(0), 'a');
    const sign = b.signOf(a);
    const mag = b.sel64(b.ne(sign, b.u(0)), b.neg64(a), a);
    b.ret(u64ToDouble(b, sign, mag));
  },
  f32_from_u64: (b) => b.ret(u64ToFloat(b, b.u(0), b.pair(b.arg(0), 'a'))),
  f32_from_i64: (b) => {
    const a = b.pair(b.arg(0), 'a');
    const sign = b.signOf(a);
    b.ret(u64ToFloat(b, sign, b.sel64(b.ne(sign, b.u(0)), b.neg64(a), a)));
  },
  f64_to_u32: (b) => b.ret(toInt(b, 32, false)[0]),
  f64_to_i32: (b) => b.ret(toInt(b, 32, true)[0]),
  f64_to_u64: (b) => b.ret(b.vec(toInt(b, 64, false))),
  f64_to_i64: (b) => b.ret(b.vec(toInt(b, 64, true))),
};

/** A 64-bit magnitude as a double: f64_round takes significands below 2^63, so one at or past it is
 * halved first (its lost bit sticky, far below the rounding point). */
function u64ToDouble(b: Fn, sign: ExprId, m: P): ExprId {
  const top = b.let(b.ne(b.and(m[1], b.u(0x80000000)), b.u(0)), 'top');
  const half = b.shrSticky(m, b.u(1));
  return b.call('f64_round', sign, b.sel(top, b.i(1085), b.i(1084)), b.vec(b.sel64(top, half, m)));
}

/** A 64-bit magnitude as a float, rounded once: cut to 53 bits with the rest sticky in bit 0 (29 bits
 * below a float's rounding point), which a double holds exactly, then rounded to binary32. */
function u64ToFloat(b: Fn, sign: ExprId, m: P): ExprId {
  const top = b.top64(m);
  const cut = b.let(b.cast('u32', b.math('max', b.sub(top, b.i(52)), b.i(0))), 'cut');
  const d = b.call('f64_round', sign, b.add(b.i(1084), b.cast('i32', cut)), b.vec(b.shrSticky(m, cut)));
  return b.call('f64_to_f32', d);
}

/** a < b (or a <= b), false when either is a NaN; -0 equals +0. */
function orderedLess(b: Fn, orEqual: boolean): ExprId {
  const a = b.pair(b.arg(0), 'a');
  const c = b.pair(b.arg(1), 'b');
  const nan = b.let(b.or(b.isNaN(a), b.isNaN(c)), 'nan');
  const zeros = b.let(b.isZero64([b.or(a[0], c[0]), b.and(b.or(a[1], c[1]), b.u(0x7fffffff))]), 'zeros');
  // order keys: a negative's bits inverted, a positive's sign bit set
  const key = (x: P): P => {
    const neg = b.let(b.ne(b.and(x[1], b.u(0x80000000)), b.u(0)), 'neg');
    return b.lets([b.sel(neg, b.not(x[0]), x[0]), b.sel(neg, b.not(x[1]), b.or(x[1], b.u(0x80000000)))], 'key');
  };
  const ka = key(a);
  const kc = key(c);
  if (!orEqual) return b.and(b.not(nan), b.and(b.not(zeros), b.ltu64(ka, kc)));
  return b.and(b.not(nan), b.or(zeros, b.not(b.ltu64(kc, ka))));
}

/** Direct3D's dmin/dmax: a NaN operand gives the other operand. */
function minMax(b: Fn, fn: 'min' | 'max'): void {
  const a = b.let(b.arg(0), 'a');
  const c = b.let(b.arg(1), 'b');
  const ap = b.pair(a, 'a');
  const cp = b.pair(c, 'b');
  b.when(b.isNaN(ap), () => b.ret(c));
  b.when(b.isNaN(cp), () => b.ret(a));
  const less = fn === 'min' ? b.call('f64_lt', a, c) : b.call('f64_lt', c, a);
  b.ret(b.sel(less, a, c));
}

/** A double to an integer rounding toward zero, Direct3D's way: NaN gives 0, values past the range
 * clamp to it (an unsigned target: negatives give 0). Words (low, high). */
function toInt(b: Fn, width: 32 | 64, signed: boolean): P {
  const a = b.pair(b.arg(0), 'a');
  const e = b.expOf(a);
  const neg = b.let(b.ne(b.signOf(a), b.u(0)), 'neg');
  const E = b.let(b.sub(b.cast('i32', e), b.i(1023)), 'E');
  const m = b.mantOf(a, e);
  // |x| truncated, for E in 0..63
  const left = b.let(b.ge(E, b.i(52)), 'left');
  const shl = b.shl64(m, b.cast('u32', b.math('clamp', b.sub(E, b.i(52)), b.i(0), b.i(63))));
  const shr = b.shr64(m, b.cast('u32', b.math('clamp', b.sub(b.i(52), E), b.i(0), b.i(63))));
  const mag = b.sel64(left, shl, shr);
  const bits = signed ? width - 1 : width;
  const over = b.let(b.ge(E, b.i(bits)), 'over');
  const tiny = b.let(b.lt(E, b.i(0)), 'tiny');
  const nan = b.let(b.isNaN(a), 'nan');
  const zero: P = [b.u(0), b.u(0)];
  if (!signed) {
    const max: P = width === 32 ? [b.u(0xffffffff), b.u(0)] : [b.u(0xffffffff), b.u(0xffffffff)];
    const r = b.sel64(over, max, b.sel64(tiny, zero, mag));
    return b.sel64(b.or(nan, neg), zero, r);
  }
  const max: P = width === 32 ? [b.u(0x7fffffff), b.u(0)] : [b.u(0xffffffff), b.u(0x7fffffff)];
  const min: P = width === 32 ? [b.u(0x80000000), b.u(0xffffffff)] : [b.u(0), b.u(0x80000000)];
  const pos = b.sel64(over, max, b.sel64(tiny, zero, mag));
  const negv = b.sel64(over, min, b.sel64(tiny, zero, b.neg64(mag)));
  return b.sel64(nan, zero, b.sel64(neg, negv, pos));
}
