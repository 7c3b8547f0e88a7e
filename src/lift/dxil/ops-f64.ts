// dx.ops on 64-bit values (i64 and double, each a vec2<u32> of its low and high word; lift/f64.ts):
// MakeDouble and SplitDouble, the legacy double conversions, the double overloads of FAbs,
// Saturate, FMin and FMax, and the 64-bit forms of the constant buffer loads (DXIL's layout: a
// 64-bit member is two consecutive 32-bit words, low first, 8-byte aligned in its row), of raw
// and structured buffer loads and stores (component k at byte address + 8k) and of TextureGatherRaw
// (an R32G32_UINT texel: red is the low word, green the high word).

import type { ExprId } from '../../ir/ir.js';
import type { Instruction } from '../../dxil/ir.js';
import type { DxilLifter, Val } from './lifter.js';
import type { DxResource } from './resources.js';
import { arg, num, type Handler } from './ops-common.js';

const words = (L: DxilLifter, v: ExprId): [ExprId, ExprId] => {
  const w = L.once(v, 'double');
  return [L.swz(w, [0]), L.swz(w, [1])];
};

/** FAbs of a double: the sign bit cleared. */
export function fabs64(L: DxilLifter, x: ExprId): ExprId {
  const [lo, hi] = words(L, x);
  return L.words(lo, L.bin('and', hi, L.u32(0x7fffffff)));
}

/** Saturate of a double: NaN gives 0, else clamped to [0, 1]. */
export function saturate64(L: DxilLifter, x: ExprId): ExprId {
  const v = L.once(x, 'sat');
  const zero = L.words64(0n);
  const one = L.words64(0x3ff0000000000000n);
  const low = L.bin('or', L.soft('f64_isnan', v), L.soft('f64_lt', v, zero));
  return L.sel(low, zero, L.sel(L.soft('f64_lt', one, v), one, v));
}

/** FMin/FMax of doubles: Direct3D's rule, a NaN operand gives the other operand. */
export function minMax64(L: DxilLifter, c: Instruction, fn: 'min' | 'max'): ExprId {
  return L.soft(fn === 'min' ? 'f64_min' : 'f64_max', num(L, c, 1), num(L, c, 2));
}

/** CBufferLoadLegacy of a 64-bit overload: the row's two 64-bit halves. */
export function cbufferRow64(L: DxilLifter, row: ExprId): Val {
  const r = L.once(row, 'row');
  const lane = (k: number) => L.swz(r, [k]);
  return { kind: 'tuple', parts: [L.words(lane(0), lane(1)), L.words(lane(2), lane(3))] };
}

/** CBufferLoad of a 64-bit value at `byte` (8-byte aligned): two words of one row. */
export function cbufferLoad64(L: DxilLifter, byte: ExprId, readRow: (row: ExprId) => ExprId): ExprId {
  const word = L.once(L.bin('shr', byte, L.u32(2)), 'word');
  const row = L.once(readRow(L.bin('shr', word, L.u32(2))), 'row');
  const k = L.once(L.bin('and', word, L.u32(3)), 'lane');
  const lo = L.access(row, k);
  const hi = L.access(row, L.math('min', L.bin('add', k, L.u32(1)), L.u32(3)));
  return L.words(lo, hi);
}

/** Raw/structured loads of 64-bit components: component k at word `base` + 2k (zero out of range). */
export function loadWords64(L: DxilLifter, base: ExprId, mask: number, read: (word: ExprId) => ExprId): Val {
  const b = L.once(base, 'word');
  const parts = [0, 1, 2, 3].map((k) => {
    if (!(mask & (1 << k))) return L.words64(0n);
    const at = (j: number) => (k === 0 && j === 0 ? b : L.bin('add', b, L.u32(2 * k + j)));
    return L.words(read(at(0)), read(at(1)));
  });
  return { kind: 'tuple', parts: [...parts, L.u32(0)] };
}

/** Raw/structured stores of 64-bit components (operands 4..7 of RawBufferStore or BufferStore). */
export function storeWords64(
  L: DxilLifter,
  c: Instruction,
  base: ExprId,
  mask: number,
  write: (word: ExprId, value: ExprId) => void,
): void {
  const b = L.once(base, 'word');
  for (let k = 0; k < 4; k++) {
    if (!(mask & (1 << k))) continue;
    const [lo, hi] = words(L, num(L, c, 4 + k));
    write(k === 0 ? b : L.bin('add', b, L.u32(2 * k)), lo);
    write(L.bin('add', b, L.u32(2 * k + 1)), hi);
  }
}

/** TextureGatherRaw of a 64-bit texture: red (low words) and green (high words) gathered. */
export function gatherRaw64(L: DxilLifter, res: DxResource, gather: (component: number) => ExprId): Val {
  const lo = L.once(gather(0), 'gathered_lo');
  const hi = L.once(gather(1), 'gathered_hi');
  const asU = (v: ExprId) => (res.scalar === 'u32' ? v : L.bitcast('u32', v));
  const parts = [0, 1, 2, 3].map((k) => L.words(asU(L.swz(lo, [k])), asU(L.swz(hi, [k]))));
  return { kind: 'tuple', parts: [...parts, L.u32(0)] };
}

export const F64_OPS = new Map<number, Handler>([
  // MakeDouble(lo, hi), SplitDouble(value)
  [101, (L, c) => L.words(L.u(arg(L, c, 1)), L.u(arg(L, c, 2)))],
  [
    102,
    (L, c) => {
      const [lo, hi] = words(L, num(L, c, 1));
      return { kind: 'tuple', parts: [lo, hi] };
    },
  ],
  // LegacyDoubleToFloat, LegacyDoubleToSInt32, LegacyDoubleToUInt32 (Direct3D's dtof, dtoi, dtou)
  [132, (L, c) => L.soft('f64_to_f32', num(L, c, 1))],
  [133, (L, c) => L.soft('f64_to_i32', num(L, c, 1))],
  [134, (L, c) => L.soft('f64_to_u32', num(L, c, 1))],
]);
