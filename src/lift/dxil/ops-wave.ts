// Wave (subgroup) and quad dx.ops (DXIL.rst, hctdb.py: WaveIsFirstLane 110 ... QuadVote 222) as the
// IR's `subgroup` statements (ir.ts "Subgroups": active lanes, helpers, the executor's 32-lane
// waves). Operands by DXIL's numbering (0 is the opcode); the sub-operation enums are DXIL's:
// WaveOpKind (0 Sum, 1 Product, 2 Min, 3 Max), SignedOpKind (0 signed or float, 1 unsigned),
// WaveBitOpKind (0 And, 1 Or, 2 Xor), QuadOpKind (0 ReadAcrossX, 1 ReadAcrossY, 2 ReadAcrossDiagonal),
// QuadVoteOpKind (0 Any, 1 All).
//
// Written out from WGSL's subgroup functions:
// - WaveActiveAllEqual(x): all(x == broadcast_first(x)), compared as the overload's values (f32
//   ordered equality: a NaN is equal to nothing, +0 equals -0).
// - WaveActiveCountBits(x): the ballot's set bits; WavePrefixCountBits(x): an exclusive add scan of
//   x as 0/1.
// - QuadReadLaneAt with a computed lane: the four quad broadcasts selected by lane & 3 (WGSL's
//   quadBroadcast takes a constant; Direct3D leaves a lane past 3 undefined).
// - QuadAny/QuadAll: the lane's operand with its three neighbours' (quadSwapX/Y/Diagonal), as dxc
//   lowers them for targets without QuadVote.
// - WaveMatch(x): loop { f = broadcast_first(bits of x); if (bits == f) { m = ballot(true); break; } }:
//   each pass the lanes holding the first remaining lane's value are the active ones that ballot.
// - WaveMultiPrefixOp/BitCount(x, mask): a loop over the wave's lanes j < subgroup_size reading
//   each one's x with a shuffle and folding (Sum, Product, And, Or, Xor; BitCount adds x as 0/1)
//   those with j below the lane's id whose bit is set in the lane's mask and in ballot(true) (the
//   active lanes), which is Direct3D's per-lane definition whatever the masks.
// Refused by name (WGSL has nothing exact): WavePrefixOp with Min or Max (WGSL scans add and mul only), and every
// wave operation outside pixel and compute programs (WGSL has subgroups only in fragment and
// compute entry points). i1 operands travel as u32 0/1 where WGSL takes numbers; narrow integers
// are folded as i32 (signed min/max) or u32 and wrapped after; half results are rounded.

import type { ExprId, Scalar, SubgroupFn, SubgroupReduce } from '../../ir/ir.js';
import { Constant, type Instruction, type Type } from '../../dxil/ir.js';
import { dxOpName } from '../../dxil/dxop.js';
import type { DxilLifter } from './lifter.js';
import { arg, builtinArg, num, u32, vec, type Handler, type OpContext } from './ops-common.js';
import { quadExchange, threadIdQuads } from './quad.js';

const SUBGROUPS_NOTE =
  "wave operations: the WGSL enables subgroups (the WebGPU device needs the 'subgroups' feature); " +
  "lane ids, lane counts, ballots and lane reads depend on the device's subgroup size (the executor's waves are 32 lanes), and helper pixels take no part in wave operations";

/** Checks the stage and notes the feature; the name says which operation (for refusals). */
function enter(L: DxilLifter, c: Instruction): void {
  if (L.stage !== 'pixel' && L.stage !== 'compute')
    L.refuse(
      'wave operations',
      `${opName(L, c)} in a ${L.stage} program (WGSL has subgroups only in fragment and compute programs)`,
    );
  L.note(SUBGROUPS_NOTE);
}

function opName(L: DxilLifter, c: Instruction): string {
  const code = L.imm(c.ops[0], 'a dx.op opcode');
  return `${dxOpName(code) ?? 'a wave operation'} (dx.op ${code})`;
}

/** A subgroup statement; its result read back (a zero of `zeroScalar` when the code is unreachable). */
function sub(
  L: DxilLifter,
  fn: SubgroupFn,
  opts: { argument?: ExprId; index?: ExprId; reduce?: SubgroupReduce },
  zero: Scalar | 'ballot',
): ExprId {
  if (L.f.unreachable()) return zero === 'ballot' ? L.splat('u32', 0, 4) : L.f.literal(zero, 0);
  const result = L.f.newLet(`wave_${fn}`);
  L.f.stmt({ op: 'subgroup', fn, ...opts, result });
  return L.e({ op: 'let', let: result });
}

/** An operand as WGSL's subgroup functions take it: bound to a let (so later passes never split the
 * statement), i1 as u32 0/1. */
function operand(L: DxilLifter, c: Instruction, k: number): { e: ExprId; t: Type; s: Scalar } {
  const v = arg(L, c, k);
  const t = v.type;
  const s = L.scalarOf(t);
  const x = num(L, c, k);
  const e = s === 'bool' ? L.sel(x, L.u32(1), L.u32(0)) : x;
  return { e: L.f.bind('wave_value', e), t, s: s === 'bool' ? 'u32' : s };
}

/** A lane value of the operand's type back from the u32/f32 the statement gives. */
function back(L: DxilLifter, r: ExprId, t: Type): ExprId {
  const s = L.scalarOf(t);
  if (s === 'bool') return L.bin('ne', r, L.u32(0));
  return r;
}

function cond(L: DxilLifter, c: Instruction, k: number): ExprId {
  const v = arg(L, c, k);
  const x = num(L, c, k);
  if (v.type.kind === 'int' && v.type.width === 1) return L.f.bind('wave_cond', x);
  return L.f.bind('wave_cond', L.bin('ne', u32(L, c, k), L.u32(0)));
}

/** Reduce or scan of the operand with DXIL's op kinds; narrow signed integers sign-extended first. */
function fold(L: DxilLifter, c: Instruction, fn: 'reduce' | 'exclusive_scan', kind: SubgroupReduce, signed: boolean) {
  const v = arg(L, c, 1);
  const t = v.type;
  const s = L.scalarOf(t);
  if (s === 'bool') return L.refuse('wave operations', `${opName(L, c)} of an i1 value`);
  const x = num(L, c, 1);
  const asSigned = s === 'u32' && signed && (kind === 'min' || kind === 'max');
  const e = L.f.bind('wave_value', asSigned ? L.signed(x, t) : x);
  const r = sub(L, fn, { argument: e, reduce: kind }, asSigned ? 'i32' : s);
  if (asSigned) return L.wrap(L.bitcast('u32', r), t);
  if (s === 'u32') return L.wrap(r, t);
  return L.roundHalf(r, t);
}

const WAVE_OP: readonly SubgroupReduce[] = ['add', 'mul', 'min', 'max'];
const MULTI_OP: readonly ('add' | 'and' | 'or' | 'xor' | 'mul')[] = ['add', 'and', 'or', 'xor', 'mul'];

/** The multi-prefix fold (operands 2..5 the lane's partition mask): over the wave's lanes j in
 * order, each read with a shuffle, folding those below this lane that are active (a ballot) and in
 * its mask; the loop runs subgroup_size times in every active lane. */
function multiPrefix(
  L: DxilLifter,
  c: Instruction,
  x: OpContext,
  value: ExprId,
  s: Scalar,
  kind: 'add' | 'and' | 'or' | 'xor' | 'mul',
): ExprId {
  if (L.f.unreachable()) return L.f.literal(s, 0);
  const t = L.m.scalar(s);
  const mask = L.f.bind(
    'wave_partition',
    L.bin(
      'and',
      vec(
        L,
        'u32',
        [2, 3, 4, 5].map((k) => u32(L, c, k)),
      ),
      sub(L, 'ballot', { argument: L.bool(true) }, 'ballot'),
    ),
  );
  const id = builtinArg(L, x, 'subgroup_invocation_id');
  const size = builtinArg(L, x, 'subgroup_size');
  const identity =
    kind === 'mul'
      ? s === 'f32'
        ? L.f32bits(0x3f800000)
        : L.u32(1)
      : kind === 'and'
        ? L.u32(0xffffffff)
        : L.f.literal(s, 0);
  const acc = L.f.local('wave_prefix', t);
  const j = L.f.local('wave_lane', L.tU32);
  L.f.stmt({ op: 'store', pointer: L.local(acc), value: identity });
  L.f.stmt({ op: 'store', pointer: L.local(j), value: L.u32(0) });
  L.f.open();
  const lane = L.f.bind('lane', L.load(L.local(j)));
  L.f.open();
  L.f.stmt({ op: 'break' });
  const leave = L.f.close();
  L.f.stmt({ op: 'if', cond: L.bin('ge', lane, size), accept: leave, reject: [] });
  const other = sub(L, 'shuffle', { argument: value, index: lane }, s);
  const word = L.access(mask, L.bin('shr', lane, L.u32(5)));
  const inMask = L.bin('ne', L.bin('and', L.bin('shr', word, L.bin('and', lane, L.u32(31))), L.u32(1)), L.u32(0));
  L.f.open();
  L.f.stmt({ op: 'store', pointer: L.local(acc), value: L.bin(kind, L.load(L.local(acc)), other) });
  const fold = L.f.close();
  L.f.stmt({ op: 'if', cond: L.bin('and', L.bin('lt', lane, id), inMask), accept: fold, reject: [] });
  L.f.stmt({ op: 'store', pointer: L.local(j), value: L.bin('add', lane, L.u32(1)) });
  L.f.stmt({ op: 'loop', body: L.f.close() });
  return L.once(L.load(L.local(acc)), 'prefix');
}
const BIT_OP: readonly SubgroupReduce[] = ['and', 'or', 'xor'];

function kindOf<T>(L: DxilLifter, c: Instruction, k: number, table: readonly T[], what: string): T {
  const i = L.imm(c.ops[k], what);
  return table[i] ?? L.invalid(`${what} ${i} is not one of DXIL's`);
}

const laneRead =
  (fn: 'broadcast_first' | 'shuffle'): Handler =>
  (L, c) => {
    enter(L, c);
    const { e, t, s } = operand(L, c, 1);
    const index = fn === 'shuffle' ? L.f.bind('wave_lane', u32(L, c, 2)) : undefined;
    return back(L, sub(L, fn, { argument: e, ...(index !== undefined ? { index } : {}) }, s), t);
  };

export const WAVE_OPS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  // WaveIsFirstLane
  [
    110,
    (L, c) => {
      enter(L, c);
      return sub(L, 'elect', {}, 'bool');
    },
  ],
  // WaveGetLaneIndex, WaveGetLaneCount: builtins of the entry point
  [
    111,
    (L, c, x) => {
      enter(L, c);
      return builtinArg(L, x, 'subgroup_invocation_id');
    },
  ],
  [
    112,
    (L, c, x) => {
      enter(L, c);
      return builtinArg(L, x, 'subgroup_size');
    },
  ],
  // WaveAnyTrue, WaveAllTrue
  [
    113,
    (L, c) => {
      enter(L, c);
      return sub(L, 'any', { argument: cond(L, c, 1) }, 'bool');
    },
  ],
  [
    114,
    (L, c) => {
      enter(L, c);
      return sub(L, 'all', { argument: cond(L, c, 1) }, 'bool');
    },
  ],
  // WaveActiveAllEqual: all(x == broadcast_first(x))
  [
    115,
    (L, c) => {
      enter(L, c);
      const { e, s } = operand(L, c, 1);
      const first = sub(L, 'broadcast_first', { argument: e }, s);
      return sub(L, 'all', { argument: L.f.bind('wave_same', L.bin('eq', e, first)) }, 'bool');
    },
  ],
  // WaveActiveBallot: %dx.types.fouri32
  [
    116,
    (L, c) => {
      enter(L, c);
      const b = L.once(sub(L, 'ballot', { argument: cond(L, c, 1) }, 'ballot'), 'ballot');
      return { kind: 'tuple', parts: [0, 1, 2, 3].map((k) => L.swz(b, [k])) };
    },
  ],
  // WaveReadLaneAt, WaveReadLaneFirst
  [117, laneRead('shuffle')],
  [118, laneRead('broadcast_first')],
  // WaveActiveOp(value, op, sop)
  [
    119,
    (L, c) => {
      enter(L, c);
      const kind = kindOf(L, c, 2, WAVE_OP, 'WaveOpKind');
      return fold(L, c, 'reduce', kind, L.imm(c.ops[3], 'SignedOpKind') === 0);
    },
  ],
  // WaveActiveBit(value, op)
  [
    120,
    (L, c) => {
      enter(L, c);
      return fold(L, c, 'reduce', kindOf(L, c, 2, BIT_OP, 'WaveBitOpKind'), false);
    },
  ],
  // WavePrefixOp(value, op, sop): exclusive
  [
    121,
    (L, c) => {
      enter(L, c);
      const kind = kindOf(L, c, 2, WAVE_OP, 'WaveOpKind');
      if (kind === 'min' || kind === 'max')
        return L.refuse('wave operations', `${opName(L, c)} ${kind}: WGSL has exclusive scans of add and mul only`);
      return fold(L, c, 'exclusive_scan', kind, false);
    },
  ],
  // QuadReadLaneAt(value, quadLane)
  [
    122,
    (L, c, x) => {
      enter(L, c);
      if (threadIdQuads(L)) {
        const q = exchange(L, c, x);
        return q.back(q.read(L.bin('and', u32(L, c, 2), L.u32(3))));
      }
      const { e, t, s } = operand(L, c, 1);
      const lane = arg(L, c, 2);
      const read = (k: number): ExprId => sub(L, 'quad_broadcast', { argument: e, index: L.u32(k) }, s);
      if (lane.type.kind === 'int' && isConstant(c, 2)) return back(L, read(L.imm(lane, 'the quad lane') & 3), t);
      const k = L.once(L.bin('and', u32(L, c, 2), L.u32(3)), 'quad_lane');
      const r = [0, 1, 2, 3].map(read);
      const pick = L.sel(
        L.bin('eq', k, L.u32(0)),
        r[0]!,
        L.sel(L.bin('eq', k, L.u32(1)), r[1]!, L.sel(L.bin('eq', k, L.u32(2)), r[2]!, r[3]!)),
      );
      return back(L, pick, t);
    },
  ],
  // QuadOp(value, op)
  [
    123,
    (L, c, x) => {
      enter(L, c);
      const fn = kindOf(L, c, 2, ['quad_swap_x', 'quad_swap_y', 'quad_swap_diagonal'] as const, 'QuadOpKind');
      if (threadIdQuads(L)) {
        const q = exchange(L, c, x);
        const flip = { quad_swap_x: 1, quad_swap_y: 2, quad_swap_diagonal: 3 }[fn];
        return q.back(q.read(L.bin('xor', q.lane, L.u32(flip))));
      }
      const { e, t, s } = operand(L, c, 1);
      return back(L, sub(L, fn, { argument: e }, s), t);
    },
  ],
  // WaveAllBitCount: set bits of the ballot
  [
    135,
    (L, c) => {
      enter(L, c);
      const b = L.once(sub(L, 'ballot', { argument: cond(L, c, 1) }, 'ballot'), 'ballot');
      const n = (k: number): ExprId => L.math('count_one_bits', L.swz(b, [k]));
      return L.bin('add', L.bin('add', n(0), n(1)), L.bin('add', n(2), n(3)));
    },
  ],
  // WavePrefixBitCount: exclusive add of 0/1
  [
    136,
    (L, c) => {
      enter(L, c);
      const one = L.f.bind('wave_value', L.sel(cond(L, c, 1), L.u32(1), L.u32(0)));
      return sub(L, 'exclusive_scan', { argument: one, reduce: 'add' }, 'u32');
    },
  ],
  // WaveMatch: a loop taking the first remaining lane's value, whose holders ballot and leave
  [
    165,
    (L, c) => {
      enter(L, c);
      const { e, s } = operand(L, c, 1);
      const zero = { kind: 'tuple' as const, parts: [0, 1, 2, 3].map(() => L.u32(0)) };
      if (L.f.unreachable()) return zero;
      // compared as bit patterns: a NaN matches itself (an ordered == would never leave the loop)
      const bits = s === 'f32' ? L.f.bind('wave_bits', L.bitcast('u32', e)) : e;
      const mask = L.f.local('wave_match', L.m.vec('u32', 4));
      L.f.open();
      const first = sub(L, 'broadcast_first', { argument: bits }, 'u32');
      L.f.open();
      L.f.stmt({ op: 'store', pointer: L.local(mask), value: sub(L, 'ballot', { argument: L.bool(true) }, 'ballot') });
      L.f.stmt({ op: 'break' });
      const accept = L.f.close();
      L.f.stmt({ op: 'if', cond: L.bin('eq', bits, first), accept, reject: [] });
      L.f.stmt({ op: 'loop', body: L.f.close() });
      const m = L.once(L.load(L.local(mask)), 'match');
      return { kind: 'tuple', parts: [0, 1, 2, 3].map((k) => L.swz(m, [k])) };
    },
  ],
  // WaveMultiPrefixOp(value, mask0..3, op, sop), WaveMultiPrefixBitCount(value, mask0..3)
  [
    166,
    (L, c, x) => {
      enter(L, c);
      const kind = kindOf(L, c, 6, MULTI_OP, 'WaveMultiPrefixOpKind');
      const v = arg(L, c, 1);
      const s = L.scalarOf(v.type);
      if (s === 'bool') return L.refuse('wave operations', `${opName(L, c)} of an i1 value`);
      if (s === 'f32' && kind !== 'add' && kind !== 'mul')
        return L.invalid(`${opName(L, c)}: a bitwise ${kind} of a float`);
      const r = multiPrefix(L, c, x, L.f.bind('wave_value', num(L, c, 1)), s, kind);
      return s === 'f32' ? L.roundHalf(r, v.type) : L.wrap(r, v.type);
    },
  ],
  [
    167,
    (L, c, x) => {
      enter(L, c);
      const one = L.f.bind('wave_value', L.sel(cond(L, c, 1), L.u32(1), L.u32(0)));
      return multiPrefix(L, c, x, one, 'u32', 'add');
    },
  ],
  // QuadVote(cond, op): the lane's operand with its three neighbours'
  [
    222,
    (L, c, ctx) => {
      enter(L, c);
      const all = kindOf(L, c, 2, [false, true], 'QuadVoteOpKind');
      const u = L.f.bind('wave_value', L.sel(cond(L, c, 1), L.u32(1), L.u32(0)));
      if (threadIdQuads(L)) {
        const q = quadExchange(L, ctx, u, 1, opName(L, c));
        const [a, b, d, e] = [0, 1, 2, 3].map((k) => q.read(L.u32(k)));
        const op = all ? 'and' : 'or';
        return L.bin('ne', L.bin(op, L.bin(op, a!, b!), L.bin(op, d!, e!)), L.u32(0));
      }
      const [x, y, d] = (['quad_swap_x', 'quad_swap_y', 'quad_swap_diagonal'] as const).map((fn) =>
        sub(L, fn, { argument: u }, 'u32'),
      );
      const op = all ? 'and' : 'or';
      return L.bin('ne', L.bin(op, L.bin(op, u, x!), L.bin(op, y!, d!)), L.u32(0));
    },
  ],
]);

/** The operand (1) of a quad read through the thread-id quad exchange (quad.ts): its reader, and
 * the value of the operand's type back from a read's bits. */
function exchange(L: DxilLifter, c: Instruction, x: OpContext) {
  const v = arg(L, c, 1);
  const s = L.scalarOf(v.type);
  const e = num(L, c, 1);
  const bits = s === 'bool' ? L.sel(e, L.u32(1), L.u32(0)) : s === 'f32' ? L.bitcast('u32', e) : e;
  const q = quadExchange(L, x, bits, 1, opName(L, c));
  return {
    lane: q.lane,
    read: q.read,
    back: (r: ExprId): ExprId => (s === 'bool' ? L.bin('ne', r, L.u32(0)) : s === 'f32' ? L.bitcast('f32', r) : r),
  };
}

function isConstant(c: Instruction, k: number): boolean {
  const v = c.ops[k];
  return v instanceof Constant && v.ck === 'int';
}
