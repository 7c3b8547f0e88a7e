// Arithmetic, logic and conversion instructions of SM4/5 (one table row per opcode), with
// Direct3D's results written out (lifter-dxbc.md, "D3dModes::ALL"): min/max return the other
// operand when one is NaN; _sat and saturate send NaN to 0; ftoi/ftou send NaN to 0 and clamp;
// udiv by zero gives 0xffffffff for quotient and remainder; shift counts use their low 5 bits;
// firstbit_* count as Direct3D does; bit-field extracts/inserts follow the D3D11 definitions.

import type { ExprId, Scalar } from '../ir/ir.js';
import type { Instruction, Operand } from '../sm4/types.js';
import type { Lifter } from './state.js';
import {
  F32_INF,
  F32_MIN_NORMAL,
  F32_NAN,
  ftoi,
  ftou,
  guardedExp2,
  guardedFrc,
  guardedLog2,
  guardedRsq,
  guardedSqrt,
  msad,
  udivBy,
  utof,
} from './semantics.js';

export type Handler = (L: Lifter, ins: Instruction) => void;

const op = (ins: Instruction, k: number): Operand => {
  const o = ins.operands[k];
  if (!o) throw new Error(`operand ${k} missing after decode`);
  return o;
};
const sat = (ins: Instruction): boolean => ((ins.token >>> 13) & 1) === 1;

/** dst = fn(src...) component-wise in `type`. */
function nary(type: Scalar, fn: (L: Lifter, args: ExprId[], n: number) => ExprId, outType: Scalar = type): Handler {
  return (L, ins) => {
    const d = op(ins, 0);
    const lanes = L.lanes(d);
    const args = ins.operands.slice(1).map((s) => L.src(s, type, lanes));
    L.write(d, fn(L, args, lanes.length), outType, lanes, sat(ins));
  };
}

const a0 = (args: ExprId[]): ExprId => args[0] as ExprId;
const a1 = (args: ExprId[]): ExprId => args[1] as ExprId;
const a2 = (args: ExprId[]): ExprId => args[2] as ExprId;

function nanMinMax(fn: 'min' | 'max'): Handler {
  return nary('f32', (L, [a, b]) => {
    const x = L.once(a as ExprId);
    const y = L.once(b as ExprId);
    // Direct3D: a NaN operand yields the other operand (both NaN: NaN).
    return L.sel(L.bin('ne', x, x), y, L.sel(L.bin('ne', y, y), x, L.math(fn, x, y)));
  });
}

function compare(type: Scalar, fn: 'eq' | 'ne' | 'lt' | 'ge'): Handler {
  return nary(type, (L, args, n) => L.d3dBool(L.bin(fn, a0(args), a1(args)), n), 'u32');
}

function shift(type: 'u32' | 'i32', fn: 'shl' | 'shr'): Handler {
  return (L, ins) => {
    const d = op(ins, 0);
    const lanes = L.lanes(d);
    const x = L.src(op(ins, 1), type, lanes);
    const count = L.bin('and', L.src(op(ins, 2), 'u32', lanes), L.splat('u32', 31, lanes.length));
    L.write(d, L.bin(fn, x, count), type, lanes);
  };
}

function dot(n: number): Handler {
  return (L, ins) => {
    const d = op(ins, 0);
    const lanes = L.lanes(d);
    const src = [0, 1, 2, 3].slice(0, n);
    const r = L.math('dot', L.src(op(ins, 1), 'f32', src), L.src(op(ins, 2), 'f32', src));
    L.write(
      d,
      lanes.length === 1 ? r : L.e({ op: 'splat', size: lanes.length as 2 | 3 | 4, value: r }),
      'f32',
      lanes,
      sat(ins),
    );
  };
}

/** Per-lane scalar function, composed back into a vector. */
function perLane(type: Scalar, outType: Scalar, fn: (L: Lifter, x: ExprId[]) => ExprId): Handler {
  return (L, ins) => {
    const d = op(ins, 0);
    const lanes = L.lanes(d);
    const parts = lanes.map((l) =>
      fn(
        L,
        ins.operands.slice(1).map((s) => L.src(s, type, [l])),
      ),
    );
    const v =
      parts.length === 1 ? (parts[0] as ExprId) : L.e({ op: 'compose', type: L.m.vec(outType, parts.length), parts });
    L.write(d, v, outType, lanes, sat(ins));
  };
}

/** Two-destination instructions: each destination (when not null) under its own mask. */
function twoDest(
  type: Scalar,
  first: (L: Lifter, a: ExprId[], n: number) => ExprId,
  second: (L: Lifter, a: ExprId[], n: number) => ExprId,
  outType: Scalar = type,
): Handler {
  return (L, ins) => {
    [first, second].forEach((fn, k) => {
      const d = op(ins, k);
      if (d.type === 13) return;
      const lanes = L.lanes(d);
      const args = ins.operands.slice(2).map((s) => L.src(s, type, lanes));
      L.write(d, fn(L, args, lanes.length), outType, lanes, k === 0 && sat(ins));
    });
  };
}

function ubfe(signed: boolean): Handler {
  return (L, ins) => {
    const d = op(ins, 0);
    const lanes = L.lanes(d);
    const n = lanes.length;
    const w = L.bin('and', L.src(op(ins, 1), 'u32', lanes), L.splat('u32', 31, n));
    const o = L.bin('and', L.src(op(ins, 2), 'u32', lanes), L.splat('u32', 31, n));
    const x = L.src(op(ins, 3), 'u32', lanes);
    const wo = L.bin('add', w, o);
    const up = L.bin('shl', x, L.bin('sub', L.splat('u32', 32, n), wo));
    const t: Scalar = signed ? 'i32' : 'u32';
    const cast = (v: ExprId) => (signed ? L.bitcast('i32', v) : v);
    const inRange = L.bin('shr', cast(up), L.bin('sub', L.splat('u32', 32, n), w));
    const past = L.bin('shr', cast(x), o);
    const r = L.sel(
      L.bin('eq', w, L.splat('u32', 0, n)),
      L.splat(t, 0, n),
      L.sel(L.bin('lt', wo, L.splat('u32', 32, n)), inRange, past),
    );
    L.write(d, r, t, lanes);
  };
}

const bfi: Handler = (L, ins) => {
  const d = op(ins, 0);
  const lanes = L.lanes(d);
  const n = lanes.length;
  const w = L.bin('and', L.src(op(ins, 1), 'u32', lanes), L.splat('u32', 31, n));
  const o = L.bin('and', L.src(op(ins, 2), 'u32', lanes), L.splat('u32', 31, n));
  const ins_ = L.src(op(ins, 3), 'u32', lanes);
  const base = L.src(op(ins, 4), 'u32', lanes);
  const mask = L.bin('shl', L.bin('sub', L.bin('shl', L.splat('u32', 1, n), w), L.splat('u32', 1, n)), o);
  const r = L.bin(
    'or',
    L.bin('and', L.bin('shl', ins_, o), mask),
    L.bin('and', base, L.e({ op: 'unary', fn: 'not', arg: mask })),
  );
  L.write(d, r, 'u32', lanes);
};

// A source modifier makes a move a float operation, and Direct3D flushes denormals on the input and
// output of float operations (only data movement that does not manipulate the data keeps them): -x
// and |x| of a denormal are the zero of the result's sign. WGSL lets an implementation keep them
// (SwiftShader keeps |x|), so a modified move source is flushed explicitly; arithmetic needs no such
// guard here, as its consumers' rounding is the implementation's anyway.
function modifiedSource(L: Lifter, s: Operand, lanes: number[]): ExprId {
  const x = L.once(L.src(s, 'f32', lanes), 'mod');
  const n = lanes.length;
  const tiny = L.bin('lt', L.math('abs', x), L.splat('f32', F32_MIN_NORMAL, n));
  const zero = L.bitcast('f32', L.bin('and', L.bitcast('u32', x), L.splat('u32', 0x80000000, n)));
  return L.sel(tiny, zero, x);
}

const mov: Handler = (L, ins) => {
  const d = op(ins, 0);
  const s = op(ins, 1);
  const lanes = L.lanes(d);
  // A plain mov copies raw bits; modifiers or _sat make it a float move.
  const float = s.modifier !== 0 || sat(ins);
  const v = s.modifier !== 0 ? modifiedSource(L, s, lanes) : L.src(s, float ? 'f32' : 'u32', lanes);
  L.write(d, v, float ? 'f32' : 'u32', lanes, sat(ins));
};

const movc: Handler = (L, ins) => {
  const d = op(ins, 0);
  const lanes = L.lanes(d);
  const n = lanes.length;
  const float = sat(ins) || op(ins, 2).modifier !== 0 || op(ins, 3).modifier !== 0;
  const t: Scalar = float ? 'f32' : 'u32';
  const c = L.bin('ne', L.src(op(ins, 1), 'u32', lanes), L.splat('u32', 0, n));
  const arm = (s: Operand): ExprId => (s.modifier !== 0 ? modifiedSource(L, s, lanes) : L.src(s, t, lanes));
  L.write(d, L.sel(c, arm(op(ins, 2)), arm(op(ins, 3))), t, lanes, sat(ins));
};

const swapc: Handler = (L, ins) => {
  for (const k of [0, 1]) {
    const d = op(ins, k);
    if (d.type === 13) continue;
    const lanes = L.lanes(d);
    const n = lanes.length;
    const c = L.bin('ne', L.src(op(ins, 2), 'u32', lanes), L.splat('u32', 0, n));
    const a = L.src(op(ins, 3), 'u32', lanes);
    const b = L.src(op(ins, 4), 'u32', lanes);
    L.write(d, k === 0 ? L.sel(c, b, a) : L.sel(c, a, b), 'u32', lanes);
  }
};

// sin and cos of ±inf (and NaN) are NaN in Direct3D; WGSL leaves them indeterminate. Both results are
// computed before either is written (the source may be one of the destinations).
const sincos: Handler = (L, ins) => {
  const results = (['sin', 'cos'] as const).map((fn, k) => {
    const d = op(ins, k);
    if (d.type === 13) return undefined;
    const lanes = L.lanes(d);
    const n = lanes.length;
    const x = L.once(L.src(op(ins, 2), 'f32', lanes));
    const finite = L.bin('lt', L.math('abs', x), L.splat('f32', F32_INF, n));
    const value = L.once(L.sel(finite, L.math(fn, x), L.splat('f32', F32_NAN, n)));
    return { d, lanes, value };
  });
  for (const r of results) if (r) L.write(r.d, r.value, 'f32', r.lanes, sat(ins));
};

const unary = (type: Scalar, fn: Parameters<Lifter['math']>[0]): Handler =>
  nary(type, (L, args) => L.math(fn, a0(args)));
const deriv = (axis: 'x' | 'y', control: 'coarse' | 'fine' | 'none'): Handler =>
  nary('f32', (L, args) => L.e({ op: 'derivative', axis, control, value: a0(args) }));

export const ALU: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [0x00, nary('f32', (L, a) => L.bin('add', a0(a), a1(a)))],
  [0x01, nary('u32', (L, a) => L.bin('and', a0(a), a1(a)))],
  [0x0b, deriv('x', 'none')],
  [0x0c, deriv('y', 'none')],
  [0x0e, nary('f32', (L, a) => L.bin('div', a0(a), a1(a)))],
  [0x0f, dot(2)],
  [0x10, dot(3)],
  [0x11, dot(4)],
  [0x18, compare('f32', 'eq')],
  [0x19, nary('f32', guardedExp2)],
  [0x1a, nary('f32', guardedFrc)],
  [0x1b, nary('f32', (L, a, n) => ftoi(L, a0(a), n), 'i32')],
  [0x1c, nary('f32', (L, a, n) => ftou(L, a0(a), n), 'u32')],
  [0x1d, compare('f32', 'ge')],
  [0x1e, nary('u32', (L, a) => L.bin('add', a0(a), a1(a)))],
  [0x20, compare('u32', 'eq')],
  [0x21, compare('i32', 'ge')],
  [0x22, compare('i32', 'lt')],
  [0x23, nary('u32', (L, a) => L.bin('add', L.bin('mul', a0(a), a1(a)), a2(a)))],
  [0x24, nary('i32', (L, a) => L.math('max', a0(a), a1(a)))],
  [0x25, nary('i32', (L, a) => L.math('min', a0(a), a1(a)))],
  [
    0x26,
    twoDest(
      'i32',
      (L, a) => L.math('mul_hi', a0(a), a1(a)),
      (L, a) => L.bin('mul', a0(a), a1(a)),
    ),
  ],
  [0x27, compare('u32', 'ne')],
  [0x28, nary('u32', (L, a, n) => L.bin('sub', L.splat('u32', 0, n), a0(a)))],
  [0x29, shift('u32', 'shl')],
  [0x2a, shift('i32', 'shr')],
  [0x2b, nary('i32', (L, a) => L.e({ op: 'convert', to: 'f32', value: a0(a) }), 'f32')],
  [0x2f, nary('f32', guardedLog2)],
  [0x31, compare('f32', 'lt')],
  [0x32, nary('f32', (L, a) => L.bin('add', L.bin('mul', a0(a), a1(a)), a2(a)))],
  [0x33, nanMinMax('min')],
  [0x34, nanMinMax('max')],
  [0x36, mov],
  [0x37, movc],
  [0x38, nary('f32', (L, a) => L.bin('mul', a0(a), a1(a)))],
  [0x39, compare('f32', 'ne')],
  [0x3b, nary('u32', (L, a) => L.e({ op: 'unary', fn: 'not', arg: a0(a) }))],
  [0x3c, nary('u32', (L, a) => L.bin('or', a0(a), a1(a)))],
  [0x40, unary('f32', 'round')],
  [0x41, unary('f32', 'floor')],
  [0x42, unary('f32', 'ceil')],
  [0x43, unary('f32', 'trunc')],
  [0x44, nary('f32', guardedRsq)],
  [0x4b, nary('f32', guardedSqrt)],
  [0x4d, sincos],
  [
    0x4e,
    twoDest(
      'u32',
      (L, a, n) => udivBy(L, a0(a), a1(a), n, 'div'),
      (L, a, n) => udivBy(L, a0(a), a1(a), n, 'rem'),
    ),
  ],
  [0x4f, compare('u32', 'lt')],
  [0x50, compare('u32', 'ge')],
  [
    0x51,
    twoDest(
      'u32',
      (L, a) => L.math('mul_hi', a0(a), a1(a)),
      (L, a) => L.bin('mul', a0(a), a1(a)),
    ),
  ],
  [0x52, nary('u32', (L, a) => L.bin('add', L.bin('mul', a0(a), a1(a)), a2(a)))],
  [0x53, nary('u32', (L, a) => L.math('max', a0(a), a1(a)))],
  [0x54, nary('u32', (L, a) => L.math('min', a0(a), a1(a)))],
  [0x55, shift('u32', 'shr')],
  [0x56, nary('u32', utof, 'f32')],
  [0x57, nary('u32', (L, a) => L.bin('xor', a0(a), a1(a)))],
  [0x7a, deriv('x', 'coarse')],
  [0x7b, deriv('x', 'fine')],
  [0x7c, deriv('y', 'coarse')],
  [0x7d, deriv('y', 'fine')],
  [0x81, nary('f32', (L, a, n) => L.bin('div', L.splat('f32', 0x3f800000, n), a0(a)))],
  [
    0x82,
    perLane('f32', 'u32', (L, [x]) =>
      L.bin(
        'and',
        L.math('pack2x16float', L.e({ op: 'compose', type: L.m.vec('f32', 2), parts: [x as ExprId, L.f.f32(0)] })),
        L.u32(0xffff),
      ),
    ),
  ],
  [
    0x83,
    perLane('u32', 'f32', (L, [x]) => L.swz(L.math('unpack2x16float', L.bin('and', x as ExprId, L.u32(0xffff))), [0])),
  ],
  [
    0x84,
    twoDest(
      'u32',
      (L, a) => L.bin('add', a0(a), a1(a)),
      (L, a, n) => L.sel(L.bin('lt', L.bin('add', a0(a), a1(a)), a0(a)), L.splat('u32', 1, n), L.splat('u32', 0, n)),
    ),
  ],
  [
    0x85,
    twoDest(
      'u32',
      (L, a) => L.bin('sub', a0(a), a1(a)),
      (L, a, n) => L.sel(L.bin('lt', a0(a), a1(a)), L.splat('u32', 1, n), L.splat('u32', 0, n)),
    ),
  ],
  [0x86, unary('u32', 'count_one_bits')],
  [
    0x87,
    nary('u32', (L, a, n) => {
      const x = a0(a);
      return L.sel(
        L.bin('eq', x, L.splat('u32', 0, n)),
        L.splat('u32', 0xffffffff, n),
        L.bin('sub', L.splat('u32', 31, n), L.math('first_leading_bit', x)),
      );
    }),
  ],
  [0x88, unary('u32', 'first_trailing_bit')],
  [
    0x89,
    nary(
      'i32',
      (L, a, n) => {
        const r = L.bitcast('u32', L.math('first_leading_bit', a0(a)));
        return L.sel(
          L.bin('eq', r, L.splat('u32', 0xffffffff, n)),
          L.splat('u32', 0xffffffff, n),
          L.bin('sub', L.splat('u32', 31, n), r),
        );
      },
      'u32',
    ),
  ],
  [0x8a, ubfe(false)],
  [0x8b, ubfe(true)],
  [0x8c, bfi],
  [0x8d, unary('u32', 'reverse_bits')],
  [0x8e, swapc],
  [0xd5, nary('u32', msad)],
]);
