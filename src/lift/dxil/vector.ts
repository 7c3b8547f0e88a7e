// LLVM vector values (`<N x T>`, N up to 1024 in Shader Model 6.9) in the DXIL lifter, scalarised:
// a vector is a VecVal of N IR values, one a lane (lifter.ts), and an instruction on vectors is the
// scalar instruction once a lane. `laneView` makes lane k's view of an instruction: the same
// instruction with each vector operand replaced by a stand-in value bound to its lane k and a vector
// result type replaced by the element type, which the scalar lifters (inst.ts, ops.ts) read as
// they read any instruction. On top of that:
// - extractelement of a computed index selects among the lanes by a balanced tree of index
//   comparisons (log2 N deep), and an index past the last lane gives zero; insertelement of a
//   computed index is a select in every lane, and an index past the last lane changes no lane
//   (DXIL leaves both undefined: this is the lifter's rule, docs/dxil-lift.md);
// - shufflevector takes each result lane from the concatenation of its operands by its constant
//   mask; an undef mask lane (or an index past both operands) is zero;
// - load and store of a vector in memory are its lanes' words, one after another (inst.ts's layout:
//   a scalar a word, an i64 or double two).

import type { ExprId } from '../../ir/ir.js';
import { Constant, Instruction, Type, Value } from '../../dxil/ir.js';
import { type DxilLifter, type Val, type VecVal, isExpr } from './lifter.js';

/** Whether an LLVM type is a vector. */
export const isVector = (t: Type | undefined): boolean => t?.kind === 'vector';

/** Whether an instruction has a vector result or a vector operand. */
export function hasVector(i: Instruction): boolean {
  if (isVector(i.type) || (i.type.kind === 'struct' && i.type.elts.some(isVector))) return true;
  return i.ops.some((o) => isVector(o.type));
}

/** A stand-in operand bound to a lifted value (removed again by `release`). */
export function standIn(L: DxilLifter, t: Type, v: Val, made: Value[]): Value {
  const s = new Value('arg', t);
  L.values.set(s, v);
  made.push(s);
  return s;
}

export function release(L: DxilLifter, made: readonly Value[]): void {
  for (const s of made) L.values.delete(s);
}

/** An integer constant operand (a mask, an opcode) of an instruction made by the lifter. */
export function intConstant(width: number, value: number): Constant {
  const t = new Type('int');
  t.width = width;
  const c = new Constant(t, 'int');
  c.bits = BigInt(value);
  return c;
}

/**
 * The instruction once a lane: lane k's view (vector operands by their lane k, a vector result by
 * its element type) lifted by `lift`; the lanes' results as a vector (or undefined: no result).
 */
export function lanewise(
  L: DxilLifter,
  i: Instruction,
  lift: (lane: Instruction, k: number) => Val | undefined,
): VecVal | undefined {
  const vecOps = i.ops.filter((o) => isVector(o.type));
  const shape = isVector(i.type) ? i.type : vecOps[0]?.type;
  if (!shape) return L.invalid('a lane-wise instruction without a vector');
  L.laneType(shape);
  const n = shape.count;
  for (const o of vecOps) {
    L.laneType(o.type);
    if (o.type.count !== n) return L.refuse('vector types', `operands of ${o.type.count} and ${n} lanes`);
  }
  const operandLanes = i.ops.map((o) => (isVector(o.type) ? L.lanes(o) : undefined));
  const type = isVector(i.type) ? L.laneType(i.type) : i.type;
  const out: ExprId[] = [];
  for (let k = 0; k < n; k++) {
    const made: Value[] = [];
    const ops = i.ops.map((o, j) => {
      const lanes = operandLanes[j];
      return lanes ? standIn(L, o.type.elt!, lanes[k]!, made) : o;
    });
    let r: Val | undefined;
    try {
      r = lift(i.withOperands(ops, type), k);
    } finally {
      release(L, made);
    }
    if (r === undefined) {
      if (out.length) return L.invalid(`a lane-wise ${i.op} with a result in some lanes only`);
      continue;
    }
    if (!isExpr(r)) return L.refuse('vector types', `a lane-wise ${i.op} whose lanes are ${r.kind}s`);
    if (out.length !== k) return L.invalid(`a lane-wise ${i.op} with a result in some lanes only`);
    out.push(r);
  }
  return out.length ? { kind: 'vec', lanes: out } : undefined;
}

/** A constant lane index (undef: none), or undefined when the index is computed. */
function constIndex(v: Value): number | 'undef' | undefined {
  if (v instanceof Constant && v.ck === 'int') {
    const b = BigInt.asUintN(64, v.bits);
    return b > 0xffffffffn ? 0xffffffff : Number(b);
  }
  if (v instanceof Constant && (v.ck === 'undef' || v.ck === 'null')) return v.ck === 'null' ? 0 : 'undef';
  return undefined;
}

/** The index operand as u32 (an i64 index: its low word when the high word is zero, else past every lane). */
function indexOf(L: DxilLifter, v: Value): ExprId {
  const x = L.num(v);
  if (L.is64(v.type)) {
    const w = L.once(x, 'index');
    return L.sel(L.bin('eq', L.swz(w, [1]), L.u32(0)), L.swz(w, [0]), L.u32(0xffffffff));
  }
  return L.u(v);
}

/** Lane `index` of `lanes` by a balanced select tree over [lo, hi). */
function pick(L: DxilLifter, lanes: readonly ExprId[], index: ExprId, lo: number, hi: number): ExprId {
  if (hi - lo === 1) return lanes[lo]!;
  const mid = (lo + hi) >> 1;
  return L.sel(L.bin('lt', index, L.u32(mid)), pick(L, lanes, index, lo, mid), pick(L, lanes, index, mid, hi));
}

/** Operands `n` of an instruction, each present. */
function operands(L: DxilLifter, i: Instruction, n: number): Value[] {
  if (i.ops.length < n) return L.invalid(`${i.op} with ${i.ops.length} operands`);
  return i.ops.slice(0, n);
}

export function extractElement(L: DxilLifter, i: Instruction): ExprId {
  const [vec, ix] = operands(L, i, 2) as [Value, Value];
  const lanes = L.lanes(vec);
  const zero = L.zeroOf(L.laneType(vec.type)) as ExprId;
  const k = constIndex(ix);
  if (k === 'undef') return zero;
  if (k !== undefined) return k < lanes.length ? lanes[k]! : zero;
  const index = L.once(indexOf(L, ix), 'lane');
  return L.sel(L.bin('lt', index, L.u32(lanes.length)), pick(L, lanes, index, 0, lanes.length), zero);
}

export function insertElement(L: DxilLifter, i: Instruction): VecVal {
  const [vec, value, ix] = operands(L, i, 3) as [Value, Value, Value];
  const lanes = [...L.lanes(vec)];
  const v = L.num(value);
  const k = constIndex(ix);
  if (k === 'undef') return { kind: 'vec', lanes };
  if (k !== undefined) {
    if (k < lanes.length) lanes[k] = v;
    return { kind: 'vec', lanes };
  }
  const index = L.once(indexOf(L, ix), 'lane');
  const x = L.once(v, 'inserted');
  return { kind: 'vec', lanes: lanes.map((l, j) => L.sel(L.bin('eq', index, L.u32(j)), x, l)) };
}

/** The constant mask of a shufflevector: each lane's index, or undefined for an undef lane. */
function shuffleMask(L: DxilLifter, m: Value, n: number): (number | undefined)[] {
  if (!(m instanceof Constant)) return L.invalid('a shufflevector mask that is not a constant');
  if (m.ck === 'undef') return Array.from({ length: n }, () => undefined);
  if (m.ck === 'null') return Array.from({ length: n }, () => 0);
  if (m.ck === 'data') return m.data.map((d) => Number(BigInt.asUintN(32, d)));
  if (m.ck === 'aggregate')
    return m.ops.map((o) => {
      const k = constIndex(o);
      if (k === undefined) return L.invalid('a shufflevector mask element that is not a constant');
      return k === 'undef' ? undefined : k;
    });
  return L.invalid(`a shufflevector mask of a ${m.ck} constant`);
}

export function shuffleVector(L: DxilLifter, i: Instruction): VecVal {
  const [a, b, m] = operands(L, i, 3) as [Value, Value, Value];
  L.laneType(i.type);
  const n = i.type.count;
  const from = [...L.lanes(a), ...L.lanes(b)];
  const mask = shuffleMask(L, m, n);
  if (mask.length !== n) return L.invalid(`a shufflevector mask of ${mask.length} lanes for ${n}`);
  const zero = L.zeroOf(L.laneType(i.type)) as ExprId;
  return { kind: 'vec', lanes: mask.map((k) => (k === undefined || k >= from.length ? zero : from[k]!)) };
}
