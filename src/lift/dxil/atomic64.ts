// Shader Model 6.6's 64-bit atomics (DXIL: AtomicBinOp.i64 and AtomicCompareExchange.i64 on raw
// and structured UAVs, atomicrmw and cmpxchg of i64 on groupshared memory): the IR's `atomic64`
// statement (ir.ts) on the value's two words, low first, each an atomic<u32> word of the lifter's
// memory. The executor runs it as one step; WGSL has 32-bit atomics only, so emitWgsl writes add,
// and, or and xor with an unused previous value as word atomics (exact final memory) and refuses
// the rest by name (src/wgsl/emit.ts atomic64Refusal): such programs lift and run on the executor.

import type { Atomic64Fn, ExprId, Stmt } from '../../ir/ir.js';
import type { Value } from '../../dxil/ir.js';
import type { DxilLifter } from './lifter.js';

export const ATOMIC64_NOTE =
  'a 64-bit atomic is one atomic step on its two words (the executor runs it so); WGSL has 32-bit atomics only: add, and, or and xor whose previous value is unused are written as two word atomics (the final memory is exact), the rest refuse WGSL emission';

// AtomicBinOp's operations: Add And Or Xor IMin IMax UMin UMax Exchange.
const BIN_OPS: readonly Atomic64Fn[] = ['add', 'and', 'or', 'xor', 'min_s', 'max_s', 'min_u', 'max_u', 'exchange'];

/** AtomicBinOp's operation code as an atomic64 function. */
export function binOp64(L: DxilLifter, op: number): Atomic64Fn {
  return BIN_OPS[op] ?? L.invalid(`atomic operation ${op}`);
}

/** The two's complement negation of a 64-bit value (vec2<u32>): ~v + 1, the carry into the high word. */
export function negate64(L: DxilLifter, v: ExprId): ExprId {
  const w = L.once(v, 'value');
  const lo = L.swz(w, [0]);
  const hi = L.swz(w, [1]);
  const carry = L.sel(L.bin('eq', lo, L.u32(0)), L.u32(1), L.u32(0));
  return L.words(
    L.e({ op: 'unary', fn: 'neg', arg: lo }),
    L.bin('add', L.e({ op: 'unary', fn: 'not', arg: hi }), carry),
  );
}

/** The LLVM values some instruction of the function uses (lift.ts sets it before the body is lifted). */
export function setUsedValues(L: DxilLifter, used: ReadonlySet<Value>): void {
  L.usedValues = used;
}

/** The atomic64 statement on the words `low` and `high` (pointers to atomic<u32>); its previous
 * value, undefined when the instruction's value is unused (the statement then names no result, so
 * that WGSL can write the commutative operations). */
export function atomic64Stmt(
  L: DxilLifter,
  low: ExprId,
  high: ExprId,
  fn: Atomic64Fn,
  value: ExprId,
  compare?: ExprId,
): { stmt: Stmt; old: ExprId | undefined } {
  L.note(ATOMIC64_NOTE);
  const used = L.usedValues ?? L.invalid("a 64-bit atomic lifted without the function's used values");
  const r = L.ins && used.has(L.ins) ? L.f.newLet('old') : undefined;
  const stmt: Stmt = {
    op: 'atomic64',
    low,
    high,
    fn,
    value,
    ...(compare !== undefined ? { compare } : {}),
    ...(r !== undefined ? { result: r } : {}),
  };
  return { stmt, old: r !== undefined ? L.e({ op: 'let', let: r }) : undefined };
}

/** Whether two 64-bit values (vec2<u32>) are equal in both words. */
export function equal64(L: DxilLifter, a: ExprId, b: ExprId): ExprId {
  return L.math('all', L.bin('eq', a, b));
}
