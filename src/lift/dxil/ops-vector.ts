// dx.ops on LLVM vectors (Shader Model 6.9 long vectors; DXIL.rst, hctdb.py), scalarised as the
// rest of the lifter's vectors are (vector.ts):
// - RawBufferVectorLoad (303: buf, index, elementOffset, alignment -> ResRet.vNT { <N x T>, i32 })
//   and RawBufferVectorStore (304: uav, index, elementOffset, value, alignment) are RawBufferLoad /
//   RawBufferStore (139, 140) of four lanes at a time, the k-th four at 4k element sizes on (the
//   structured element offset, or the raw byte address, advanced), so every rule of those (bounds,
//   16-bit halves of words, 64-bit pairs) holds lane by lane;
// - the elementwise operations (the unary, binary and tertiary math classes, IsSpecialFloat, the
//   bit counts, derivatives, and the wave and quad operations that act on each component: Direct3D
//   computes a vector's components independently) are the scalar operation once a lane;
// - WaveMatch of a vector: the lanes whose whole vector equals this lane's, the AND of the
//   per-component masks;
// - VectorReduceAnd / VectorReduceOr (309, 310): the lanes folded with and / or;
// - FDot (311): the products of the lanes summed in lane order (each step rounded to binary16 for a
//   native half), as the scalar Dot2-4 are.
// Any other dx.op with a vector operand or result is refused by name (`vector types`).

import type { ExprId } from '../../ir/ir.js';
import { Type, type Instruction, type Value } from '../../dxil/ir.js';
import { dxOpName } from '../../dxil/dxop.js';
import { type DxilLifter, type Val, type VecVal, isExpr } from './lifter.js';
import { arg, type Handler, type OpContext } from './ops-common.js';
import { hasVector, intConstant, lanewise, release, standIn } from './vector.js';

/** Opcodes computed component by component on a vector overload. */
function elementwise(op: number): boolean {
  return (
    (op >= 6 && op <= 40) || // FAbs .. UMin: unary, IsSpecialFloat, unaryBits, binary
    (op >= 46 && op <= 53) || // FMad, Fma, IMad, UMad, Msad, Ibfe, Ubfe, Bfi
    (op >= 83 && op <= 86) || // derivatives
    op === 115 || // WaveActiveAllEqual
    (op >= 117 && op <= 123) || // WaveReadLaneAt .. QuadOp
    op === 166 // WaveMultiPrefixOp
  );
}

/** The ResRet of a four-lane RawBufferLoad of element type `et`: { T, T, T, T, i32 }. */
function resRetOf(et: Type): Type {
  const i32 = new Type('int');
  i32.width = 32;
  const t = new Type('struct');
  t.elts = [et, et, et, et, i32];
  return t;
}

/** Bytes a buffer element of `et` takes (DXIL's layout: 16-bit types 2, i64 and double 8). */
function elementBytes(L: DxilLifter, et: Type): number {
  if (L.is64(et)) return 8;
  if ((et.kind === 'int' && et.width === 16) || (et.kind === 'half' && L.native16)) return 2;
  return 4;
}

/** The (index, offset) operands of chunk `k` (4k lanes on): the offset advanced, or the raw address. */
function chunkAddress(L: DxilLifter, c: Instruction, bytes: number, made: Value[]): [Value, Value] {
  const index = arg(L, c, 2);
  const offset = arg(L, c, 3);
  if (bytes === 0) return [index, offset];
  const advance = (v: Value) => standIn(L, v.type, L.bin('add', L.u(v), L.u32(bytes)), made);
  return L.isUndef(offset) ? [advance(index), offset] : [index, advance(offset)];
}

function vectorLoad(L: DxilLifter, c: Instruction, x: OpContext, load: Handler): Val {
  const vt = c.type.kind === 'struct' ? c.type.elts[0] : undefined;
  if (!vt || vt.kind !== 'vector') return L.invalid('a RawBufferVectorLoad whose result holds no vector');
  const et = L.laneType(vt);
  const bytes = elementBytes(L, et);
  const lanes: ExprId[] = [];
  let status: ExprId | undefined;
  for (let k = 0; k < vt.count; k += 4) {
    const n = Math.min(4, vt.count - k);
    const made: Value[] = [];
    try {
      const [index, offset] = chunkAddress(L, c, k * bytes, made);
      const mask = intConstant(8, (1 << n) - 1);
      const ops = [intConstant(32, 139), arg(L, c, 1), index, offset, mask, arg(L, c, 4)];
      const r = load(L, c.withOperands(ops, resRetOf(et)), x);
      if (r === undefined || isExpr(r) || r.kind !== 'tuple') return L.invalid('a raw buffer load without lanes');
      for (let j = 0; j < n; j++) {
        const p = r.parts[j];
        if (p === undefined || !isExpr(p)) return L.invalid('a raw buffer load lane that is not a number');
        lanes.push(p);
      }
      const s = r.parts[4];
      if (status === undefined && s !== undefined && isExpr(s)) status = s;
    } finally {
      release(L, made);
    }
  }
  return { kind: 'tuple', parts: [{ kind: 'vec', lanes }, status ?? L.u32(0)] };
}

function vectorStore(L: DxilLifter, c: Instruction, x: OpContext, store: Handler): undefined {
  const value = arg(L, c, 4);
  const vt = value.type;
  const et = L.laneType(vt);
  const lanes = L.lanes(value);
  const bytes = elementBytes(L, et);
  for (let k = 0; k < vt.count; k += 4) {
    const n = Math.min(4, vt.count - k);
    const made: Value[] = [];
    try {
      const [index, offset] = chunkAddress(L, c, k * bytes, made);
      const values = [0, 1, 2, 3].map((j) => standIn(L, et, j < n ? lanes[k + j]! : (L.zeroOf(et) as ExprId), made));
      const ops = [
        intConstant(32, 140),
        arg(L, c, 1),
        index,
        offset,
        ...values,
        intConstant(8, (1 << n) - 1),
        arg(L, c, 5),
      ];
      store(L, c.withOperands(ops, c.type), x);
    } finally {
      release(L, made);
    }
  }
  return undefined;
}

/** WaveMatch of a vector: the AND of its lanes' masks (four words each). */
function waveMatch(L: DxilLifter, c: Instruction, scalar: (lane: Instruction) => Val | undefined): Val {
  const value = arg(L, c, 1);
  const lanes = L.lanes(value);
  let words: ExprId[] | undefined;
  lanes.forEach((lane) => {
    const made: Value[] = [];
    try {
      const ops = [c.ops[0]!, standIn(L, value.type.elt!, lane, made)];
      const r = scalar(c.withOperands(ops, c.type));
      if (r === undefined || isExpr(r) || r.kind !== 'tuple') return L.invalid('a WaveMatch without its mask');
      const parts = r.parts.map((p) => (isExpr(p) ? L.once(p, 'match') : L.invalid('a WaveMatch mask word')));
      words = words ? words.map((w, k) => L.bin('and', w, parts[k]!)) : parts;
    } finally {
      release(L, made);
    }
  });
  return { kind: 'tuple', parts: words ?? [] };
}

/**
 * A dx.op with a vector operand or result, or undefined when it has none (the scalar path lifts it).
 * `scalar` lifts an instruction on scalars; `table` gives the scalar handlers of 139 and 140.
 */
export function liftVectorDxOp(
  L: DxilLifter,
  c: Instruction,
  x: OpContext,
  opcode: number,
  scalar: (lane: Instruction) => Val | undefined,
  table: ReadonlyMap<number, Handler>,
): Val | undefined | 'scalar' {
  if (!hasVector(c)) return 'scalar';
  switch (opcode) {
    case 303:
      return vectorLoad(L, c, x, table.get(139)!);
    case 304:
      return vectorStore(L, c, x, table.get(140)!);
    case 309:
    case 310: {
      const lanes = L.lanes(arg(L, c, 1));
      const fn = opcode === 309 ? 'and' : 'or';
      return lanes.slice(1).reduce((acc, l) => L.bin(fn, acc, l), lanes[0]!);
    }
    case 311: {
      const a = L.lanes(arg(L, c, 1));
      const b = L.lanes(arg(L, c, 2));
      if (a.length !== b.length) return L.invalid(`FDot of ${a.length} and ${b.length} lanes`);
      let sum: ExprId | undefined;
      a.forEach((l, k) => {
        const p = L.roundHalf(L.bin('mul', l, b[k]!), c.type);
        sum = sum === undefined ? p : L.roundHalf(L.bin('add', sum, p), c.type);
      });
      return sum!;
    }
    case 165:
      return waveMatch(L, c, scalar);
    default:
      if (!elementwise(opcode))
        return L.refuse('vector types', `${dxOpName(opcode) ?? 'an operation'} (dx.op ${opcode}) on a vector`);
      return lanewise(L, c, (lane) => scalar(lane)) as VecVal | undefined;
  }
}
