// SM5 double-precision instructions (dadd, dmul, ddiv, dfma, drcp, dmin, dmax, dmov, dmovc, deq, dge,
// dlt, dne, dtof, ftod, dtoi, dtou, itod, utod) through the soft-double helpers of f64.ts: a double is two
// 32-bit lanes of a register (x low, y high; z low, w high), read as a vec2<u32>.
//
// Lanes: a double destination's mask is .xy (double 0), .zw (double 1) or .xyzw (both); double j of
// a source is its swizzle's lanes 2j and 2j+1 (an immediate64 holds the two doubles' words in that
// order). A 32-bit destination (comparisons, dtof, dtoi, dtou) writes its mask's first lane from
// double 0 and its second from double 1 (dtof's rule in the reference); a 32-bit source of ftod,
// itod, utod and dmovc's condition give double j (.xy 0, .zw 1) their swizzle's lane j (ftod's rule:
// .xy receives the first conversion, of src.x, and .zw the second, of src.y). `-` and
// `|x|` on a double source flip and clear its sign bit; _sat on a double result is Direct3D's
// saturate (NaN to 0, clamped to [0, 1]). Results are correctly rounded (ddiv's 0.5 ULP and drcp's
// 1 ULP bounds are met: drcp is 1 / x divided exactly; dfma rounds once); dmin/dmax give the other operand of a NaN;
// dtoi/dtou send NaN to 0 and clamp; comparisons give 0xffffffff or 0, false with a NaN operand but
// for dne.

import type { ExprId } from '../ir/ir.js';
import type { Instruction, Operand } from '../sm4/types.js';
import { Soft64, type Soft64Op } from './f64.js';
import { OT, type Lifter } from './state.js';

export type DoubleHandler = (L: Lifter, ins: Instruction) => void;

function soft(L: Lifter, op: Soft64Op, ...args: ExprId[]): ExprId {
  const lib = (L.soft64 ??= new Soft64(L.m));
  return lib.call(L.f, op, args);
}

const operand = (L: Lifter, ins: Instruction, k: number): Operand =>
  ins.operands[k] ?? L.invalid(`operand ${k} of a double-precision instruction is missing`);
const sat = (ins: Instruction): boolean => ((ins.token >>> 13) & 1) === 1;

function v2(L: Lifter, lo: ExprId, hi: ExprId): ExprId {
  return L.e({ op: 'compose', type: L.m.vec('u32', 2), parts: [lo, hi] });
}

/** Double j (0 or 1) of a source operand as vec2<u32>, its modifiers applied to the sign bit. */
function double(L: Lifter, op: Operand, j: number): ExprId {
  let lo: ExprId;
  let hi: ExprId;
  if (op.type === OT.imm64) {
    const w = op.values ?? [];
    const at = w.length === 2 ? 0 : 2 * j;
    lo = L.u32(w[at] ?? 0);
    hi = L.u32(w[at + 1] ?? 0);
  } else if (op.type === OT.imm32) {
    return L.invalid('a 32-bit immediate where a double is read');
  } else {
    const raw = L.once(L.src({ ...op, modifier: 0 }, 'u32', [2 * j, 2 * j + 1]), 'double');
    lo = L.swz(raw, [0]);
    hi = L.swz(raw, [1]);
  }
  if (op.modifier & 2) hi = L.bin('and', hi, L.u32(0x7fffffff));
  if (op.modifier & 1) hi = L.bin('xor', hi, L.u32(0x80000000));
  return v2(L, lo, hi);
}

/** The doubles a destination mask names: .xy -> [0], .zw -> [1], .xyzw -> [0, 1]. */
function doublesOf(L: Lifter, d: Operand): number[] {
  const lanes = L.lanes(d);
  const key = lanes.join('');
  if (key === '01') return [0];
  if (key === '23') return [1];
  if (key === '0123') return [0, 1];
  return L.invalid(`a double destination with mask .${lanes.map((l) => 'xyzw'[l]).join('')}`);
}

/** Saturate of a double: NaN to 0, clamped to [0, 1]. */
function saturate64(L: Lifter, x: ExprId): ExprId {
  const v = L.f.bind('sat', x);
  const zero = v2(L, L.u32(0), L.u32(0));
  const one = v2(L, L.u32(0), L.u32(0x3ff00000));
  const low = L.bin('or', soft(L, 'f64_isnan', v), soft(L, 'f64_lt', v, zero));
  return L.sel(low, zero, L.sel(soft(L, 'f64_lt', one, v), one, v));
}

/** Writes one vec2<u32> per double of the destination. */
function writeDoubles(L: Lifter, ins: Instruction, fn: (j: number) => ExprId): void {
  const d = operand(L, ins, 0);
  if (d.type === OT.null) return;
  const js = doublesOf(L, d);
  const results = js.map((j) => {
    const r = L.f.bind('double', fn(j));
    return sat(ins) ? L.f.bind('double', saturate64(L, r)) : r;
  });
  const lanes = L.lanes(d);
  const parts = results.flatMap((r) => [L.swz(r, [0]), L.swz(r, [1])]);
  L.write(d, L.e({ op: 'compose', type: L.m.vec('u32', parts.length), parts }), 'u32', lanes);
}

/** Writes one 32-bit lane per destination lane: the mask's first lane from double 0, its second
 * (if any) from double 1 (dtof's rule in the D3D11 reference, which the comparisons share). */
function writeLanes(L: Lifter, ins: Instruction, type: 'u32' | 'f32', fn: (j: number) => ExprId): void {
  const d = operand(L, ins, 0);
  if (d.type === OT.null) return;
  const lanes = L.lanes(d);
  if (lanes.length > 2) L.invalid(`a ${lanes.length}-lane destination read from doubles (two at most)`);
  const parts = lanes.map((_, n) => fn(n));
  const value = parts.length === 1 ? parts[0]! : L.e({ op: 'compose', type: L.m.vec(type, parts.length), parts });
  L.write(d, value, type, lanes, sat(ins) && type === 'f32');
}

const binary =
  (op: Soft64Op): DoubleHandler =>
  (L, ins) =>
    writeDoubles(L, ins, (j) => soft(L, op, double(L, operand(L, ins, 1), j), double(L, operand(L, ins, 2), j)));

const compare =
  (fn: (L: Lifter, a: ExprId, b: ExprId) => ExprId): DoubleHandler =>
  (L, ins) =>
    writeLanes(L, ins, 'u32', (j) => {
      const a = L.f.bind('lhs', double(L, operand(L, ins, 1), j));
      const b = L.f.bind('rhs', double(L, operand(L, ins, 2), j));
      return L.sel(fn(L, a, b), L.u32(0xffffffff), L.u32(0));
    });

const ONE = (L: Lifter) => v2(L, L.u32(0), L.u32(0x3ff00000));

export const DOUBLE_OPS = new Map<number, DoubleHandler>([
  [0xbf, binary('f64_add')],
  [0xc0, binary('f64_max')],
  [0xc1, binary('f64_min')],
  [0xc2, binary('f64_mul')],
  [0xd2, binary('f64_div')],
  [0xd4, (L, ins) => writeDoubles(L, ins, (j) => soft(L, 'f64_div', ONE(L), double(L, operand(L, ins, 1), j)))],
  [0xc3, compare((L, a, b) => soft(L, 'f64_eq', a, b))],
  [0xc4, compare((L, a, b) => soft(L, 'f64_le', b, a))],
  [0xc5, compare((L, a, b) => soft(L, 'f64_lt', a, b))],
  [0xc6, compare((L, a, b) => L.e({ op: 'unary', fn: 'not', arg: soft(L, 'f64_eq', a, b) }))],
  [0xc7, (L, ins) => writeDoubles(L, ins, (j) => double(L, operand(L, ins, 1), j))],
  [
    0xc8,
    (L, ins) =>
      writeDoubles(L, ins, (j) => {
        const cond = L.bin('ne', L.src(operand(L, ins, 1), 'u32', [j]), L.u32(0));
        return L.sel(cond, double(L, operand(L, ins, 2), j), double(L, operand(L, ins, 3), j));
      }),
  ],
  [0xc9, (L, ins) => writeLanes(L, ins, 'f32', (j) => soft(L, 'f64_to_f32', double(L, operand(L, ins, 1), j)))],
  [0xd6, (L, ins) => writeLanes(L, ins, 'u32', (j) => soft(L, 'f64_to_i32', double(L, operand(L, ins, 1), j)))],
  [0xd7, (L, ins) => writeLanes(L, ins, 'u32', (j) => soft(L, 'f64_to_u32', double(L, operand(L, ins, 1), j)))],
  [0xca, (L, ins) => writeDoubles(L, ins, (j) => soft(L, 'f64_from_f32', L.src(operand(L, ins, 1), 'f32', [j])))],
  [0xd8, (L, ins) => writeDoubles(L, ins, (j) => soft(L, 'f64_from_i32', L.src(operand(L, ins, 1), 'u32', [j])))],
  [0xd9, (L, ins) => writeDoubles(L, ins, (j) => soft(L, 'f64_from_u32', L.src(operand(L, ins, 1), 'u32', [j])))],
  [
    0xd3,
    (L, ins) =>
      writeDoubles(L, ins, (j) =>
        soft(
          L,
          'f64_fma',
          double(L, operand(L, ins, 1), j),
          double(L, operand(L, ins, 2), j),
          double(L, operand(L, ins, 3), j),
        ),
      ),
  ],
]);
