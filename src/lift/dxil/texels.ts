// A typed texture UAV used atomically (lift/texels.ts, the SM4/5 lifter's representation): a storage
// buffer of one word a texel behind a header of its size. TextureLoad, TextureStore, AtomicBinOp,
// AtomicCompareExchange and GetDimensions of such a view go through its words.

import { makeStmt } from '../../ir/nodes.js';
import type { ExprId } from '../../ir/ir.js';
import type { Instruction } from '../../dxil/ir.js';
import type { DxilLifter, Val } from './lifter.js';
import type { DxResource } from './resources.js';
import { texelHeader, texelWord } from '../texels.js';
import { arg, toLane, num, u32, undef } from './ops-common.js';
import { texelTuple } from './ops.js';
import { atomic64Stmt, binOp64 } from './atomic64.js';

const scalarOf = (res: DxResource): 'u32' | 'i32' => (res.scalar === 'i32' ? 'i32' : 'u32');

const multisampled = (res: DxResource): boolean => res.shape === '2dms' || res.shape === '2dmsarray';

/** The texel word the coordinate operands k, k+1, k+2 name (undef: 0), by the view's shape; a
 * multisampled view's sample is operand `sampleAt`. */
function wordAt(L: DxilLifter, c: Instruction, k: number, res: DxResource, buffer: ExprId, sampleAt?: number) {
  const at = (j: number) => (undef(L, c, k + j) ? L.u32(0) : u32(L, c, k + j));
  const x = at(0);
  const s = res.shape;
  const y = s === '2d' || s === '2darray' || s === '3d' || s === '2dms' || s === '2dmsarray' ? at(1) : L.u32(0);
  const z = s === '3d' || s === '2darray' || s === '2dmsarray' ? at(2) : s === '1darray' ? at(1) : L.u32(0);
  if (!multisampled(res)) return texelWord(L.f, buffer, scalarOf(res), x, y, z, undefined, res.wide ? 2 : 1);
  if (sampleAt === undefined) return L.invalid('a multisampled view read or written without a sample index');
  const sample = undef(L, c, sampleAt) ? L.u32(0) : u32(L, c, sampleAt);
  return texelWord(L.f, buffer, scalarOf(res), x, y, z, sample);
}

/** TextureLoad(handle, mip, c0, c1, c2, ...): (word, 0, 0, 1 in the view's type), zero outside the view. */
export function texelLoad(L: DxilLifter, c: Instruction, res: DxResource, buffer: ExprId): Val {
  const scalar = scalarOf(res);
  const { index, inRange } = wordAt(L, c, 3, res, buffer, 2);
  if (res.wide) return wideLoad(L, c, res, buffer, index, inRange);
  const slot = L.f.local('texel', L.tU32);
  const r = L.f.newLet('texel');
  const pointer = L.access(buffer, index);
  const v = L.e({ op: 'let', let: r });
  L.f.stmt({
    op: 'if',
    cond: inRange,
    accept: [
      { op: 'atomic', pointer, fn: 'load', result: r },
      makeStmt.store(L.local(slot), scalar === 'u32' ? v : L.bitcast('u32', v)),
    ],
    reject: [],
  });
  const w = L.once(L.load(L.local(slot)), 'texel');
  const one = L.u32(res.scalar === 'f32' ? 0x3f800000 : 1);
  const u4 = L.e({ op: 'compose', type: L.tVec4, parts: [w, L.u32(0), L.u32(0), L.sel(inRange, one, L.u32(0))] });
  return texelTuple(L, c, res.scalar === 'u32' ? u4 : L.bitcast(res.scalar, u4), res.scalar);
}

/** TextureStore(handle, c0, c1, c2, v0..v3, mask) and TextureStoreSample(..., mask, sample): v0 into
 * the texel's (the sample's) word, inside the view. */
export function texelStore(L: DxilLifter, c: Instruction, res: DxResource, buffer: ExprId): undefined {
  const scalar = scalarOf(res);
  const { index, inRange } = wordAt(L, c, 2, res, buffer, 10);
  if (res.wide) {
    // an R32G32_UINT texel: value0 the low word, value1 the high one
    const word = (k: number) => (undef(L, c, k) ? L.u32(0) : toLane(L, num(L, c, k), arg(L, c, k).type));
    const hi = L.once(L.bin('add', index, L.u32(1)), 'texel_hi');
    L.f.stmt({
      op: 'if',
      cond: inRange,
      accept: [
        { op: 'atomic', pointer: L.access(buffer, index), fn: 'exchange', value: word(5) },
        { op: 'atomic', pointer: L.access(buffer, hi), fn: 'exchange', value: word(6) },
      ],
      reject: [],
    });
    return undefined;
  }
  const raw = toLane(L, num(L, c, 5), arg(L, c, 5).type);
  const value = L.once(scalar === 'u32' ? raw : L.bitcast('i32', raw), 'value');
  L.f.stmt({
    op: 'if',
    cond: inRange,
    accept: [{ op: 'atomic', pointer: L.access(buffer, index), fn: 'exchange', value }],
    reject: [],
  });
  return undefined;
}

// AtomicBinOp's operations: Add And Or Xor IMin IMax UMin UMax Exchange.
const OPS = ['add', 'and', 'or', 'xor', 'min', 'max', 'min', 'max', 'exchange'] as const;

/** AtomicBinOp(handle, op, c0, c1, c2, value) / AtomicCompareExchange(handle, c0, c1, c2, cmp, value)
 * on the texel's word; the previous word (0 outside the view). A sint view's words are atomic<i32>. */
export function texelAtomic(
  L: DxilLifter,
  c: Instruction,
  res: DxResource,
  buffer: ExprId,
  cmpxchg: boolean,
): ExprId | undefined {
  const scalar = scalarOf(res);
  const is64 = c.type.kind === 'int' && c.type.width === 64;
  if (is64 !== !!res.wide) return L.invalid('a 32-bit and a 64-bit atomic on one typed view');
  if (is64) {
    const { index, inRange } = wordAt(L, c, cmpxchg ? 2 : 3, res, buffer);
    return wordsAtomic64(L, c, buffer, index, inRange, cmpxchg);
  }
  const { index, inRange } = wordAt(L, c, cmpxchg ? 2 : 3, res, buffer);
  let fn: (typeof OPS)[number] | 'compare_exchange' = 'compare_exchange';
  if (!cmpxchg) {
    const op = L.imm(arg(L, c, 2), 'an atomic operation');
    fn = OPS[op] ?? L.invalid(`atomic operation ${op}`);
    if ((scalar === 'u32' && (op === 4 || op === 5)) || (scalar === 'i32' && (op === 6 || op === 7)))
      L.note(
        `a ${op < 6 ? 'signed' : 'unsigned'} atomic min/max on a ${scalar === 'u32' ? 'uint' : 'sint'} view compares as Direct3D does only for values of one sign`,
      );
  } else L.note("compare-exchange is WGSL's weak form (it may fail spuriously)");
  const word = (k: number) => (scalar === 'u32' ? u32(L, c, k) : L.bitcast('i32', u32(L, c, k)));
  const value = word(6);
  const compare = cmpxchg ? word(5) : undefined;
  const slot = L.f.local('old', L.tU32);
  const r = L.f.newLet('old');
  const pointer = L.access(buffer, index);
  const old = L.e({ op: 'let', let: r });
  L.f.stmt({
    op: 'if',
    cond: inRange,
    accept: [
      {
        op: 'atomic',
        pointer,
        fn,
        value,
        ...(compare !== undefined ? { compare } : {}),
        result: r,
      },
      makeStmt.store(L.local(slot), scalar === 'u32' ? old : L.bitcast('u32', old)),
    ],
    reject: [],
  });
  return L.load(L.local(slot));
}

/** TextureLoad of a two-word texel: (low, high, 0, 1), zero outside the view. */
function wideLoad(L: DxilLifter, c: Instruction, res: DxResource, buffer: ExprId, index: ExprId, inRange: ExprId): Val {
  const slot = L.f.local('texel', L.tV2);
  const hi = L.once(L.bin('add', index, L.u32(1)), 'texel_hi');
  const [a, b] = [L.f.newLet('texel'), L.f.newLet('texel')];
  L.f.stmt({
    op: 'if',
    cond: inRange,
    accept: [
      { op: 'atomic', pointer: L.access(buffer, index), fn: 'load', result: a },
      { op: 'atomic', pointer: L.access(buffer, hi), fn: 'load', result: b },
      makeStmt.store(L.local(slot), L.words(L.e({ op: 'let', let: a }), L.e({ op: 'let', let: b }))),
    ],
    reject: [],
  });
  const w = L.once(L.load(L.local(slot)), 'texel');
  const u4 = L.e({
    op: 'compose',
    type: L.tVec4,
    parts: [L.swz(w, [0]), L.swz(w, [1]), L.u32(0), L.sel(inRange, L.u32(1), L.u32(0))],
  });
  return texelTuple(L, c, res.scalar === 'u32' ? u4 : L.bitcast(res.scalar, u4), res.scalar);
}

/** A 64-bit AtomicBinOp/AtomicCompareExchange on the two words at `index` (a texel of a wide texel
 * view, or an element of a wide typed buffer): the atomic64 statement inside the view; the previous
 * value (0 outside it). */
export function wordsAtomic64(
  L: DxilLifter,
  c: Instruction,
  buffer: ExprId,
  index: ExprId,
  inRange: ExprId,
  cmpxchg: boolean,
): ExprId | undefined {
  const fn = cmpxchg ? 'compare_exchange' : binOp64(L, L.imm(arg(L, c, 2), 'an atomic operation'));
  const hi = L.once(L.bin('add', index, L.u32(1)), 'texel_hi');
  const { stmt, old } = atomic64Stmt(
    L,
    L.access(buffer, index),
    L.access(buffer, hi),
    fn,
    num(L, c, 6),
    cmpxchg ? num(L, c, 5) : undefined,
  );
  if (old === undefined) {
    L.f.stmtIf(inRange, [stmt]);
    return undefined;
  }
  const slot = L.f.local('old', L.tV2);
  L.f.stmtIf(inRange, [stmt, { op: 'store', pointer: L.local(slot), value: old }]);
  return L.load(L.local(slot));
}

/** GetDimensions(handle, mip): the header's size, one level; zero past level 0 (a multisampled
 * view: its size and sample count). */
export function texelDimensions(L: DxilLifter, c: Instruction, res: DxResource, buffer: ExprId): Val {
  const [w, h, d, n] = texelHeader(L.f, buffer, scalarOf(res), multisampled(res));
  if (multisampled(res)) {
    // (width, height, layers of an array, the sample count), as a multisampled texture's
    const zero = L.u32(0);
    return { kind: 'tuple', parts: [w, h, res.shape === '2dmsarray' ? d : zero, n] };
  }
  const mip = undef(L, c, 2) ? L.u32(0) : u32(L, c, 2);
  const inRange = L.once(L.bin('eq', mip, L.u32(0)), 'in_range');
  const z = (v: ExprId) => L.sel(inRange, v, L.u32(0));
  const zero = L.u32(0);
  const s = res.shape;
  const parts =
    s === '1d'
      ? [z(w), zero, zero]
      : s === '1darray'
        ? [z(w), z(d), zero]
        : s === '2d'
          ? [z(w), z(h), zero]
          : [z(w), z(h), z(d)];
  return { kind: 'tuple', parts: [...parts, L.u32(1)] };
}

/** TextureStoreSample(handle, c0, c1, c2, v0..v3, mask, sample) of a multisampled UAV (SM6.7). */
export function textureStoreSample(L: DxilLifter, c: Instruction, res: DxResource, buffer: ExprId): undefined {
  if (!res.texels || !multisampled(res))
    return L.invalid('TextureStoreSample to a view that is not a multisampled UAV');
  return texelStore(L, c, res, buffer);
}
