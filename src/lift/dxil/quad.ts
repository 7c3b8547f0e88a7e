// Derivatives and quad operations in compute programs (Shader Model 6.6: DerivCoarseX/Y,
// DerivFineX/Y, CalculateLOD and the implicit-level Sample family; QuadReadLaneAt, QuadOp and
// QuadVote, also in mesh and amplification programs). Direct3D forms quads from the thread group
// (DXC's rule, DxilValidation.cpp: a group is valid for derivatives when it is 1D, numthreads(X, 1, 1)
// with X a multiple of 4, or X and Y are both even):
// - 2D: X and Y even and the group not 1D: 2x2 threads of one (x, y) plane of SV_GroupThreadID,
//   quad lane (x & 1) + 2 (y & 1);
// - linear: otherwise, when the group's thread count is a multiple of 4 (a 1D group's X; an
//   unaligned group such as 8x9x1, which DXC's validator warns about but vkd3d-proton's
//   cs_derivative_2d_unaligned and cs_quad_swap_2d_unaligned run: "6.6+ it depends on the group
//   size. If X and Y align with 2, we get 2D semantics based on GroupThreadID.xy, otherwise ...
//   based on [the flattened index]", Vulkan's DerivativeGroupLinear, which needs the count a
//   multiple of 4): four consecutive flattened indices (SV_GroupIndex), quad lanes 0, 1 over 2, 3;
// - none otherwise: refused by name.
// WGSL has no derivatives outside fragment programs, and its quad operations follow subgroup
// lanes, whose mapping to thread indices WGSL does not promise, so the quad is formed through
// workgroup memory: each thread writes the value's bits at its flattened index of `iridia_quad`
// (array<vec4<u32>, threads>) between two barriers and reads its quad's lanes — a derivative, fine:
// the lane's own row (x) or column (y); coarse: the quad's top-left lane against its right (x) or
// lower (y) neighbour. Quad operations of Shader Model 6.6+ compute-like programs with 2D quads go
// the same way (ops-wave.ts; a linear group's quad operations stay the IR's subgroup quads, which
// the IR defines as four consecutive local_invocation_index values in a compute program, and
// before 6.6 quads follow wave lanes). The barriers need uniform control flow, so an exchange
// inside a branch or a loop, or after a conditional return, is refused by name.

import type { ExprId } from '../../ir/ir.js';
import type { DxilLifter } from './lifter.js';
import { builtinArg, type OpContext } from './ops-common.js';

/** The compute-like program's thread group and shader model (lift.ts and mesh.ts set them before
 * the body is lifted). */
export function setThreadGroup(
  L: DxilLifter,
  group: readonly [number, number, number],
  shaderModel: readonly [number, number],
): void {
  L.threadGroup = { group, sm66: shaderModel[0] > 6 || (shaderModel[0] === 6 && shaderModel[1] >= 6) };
}

export const QUAD_NOTE =
  'derivatives (and Shader Model 6.6 quad operations of 2D quads) of a compute program are taken across its quads (2x2 threads of a group whose X and Y are even; otherwise 4 consecutive flattened thread indices, the thread count a multiple of 4) through the workgroup array iridia_quad';

/** How Direct3D forms the program's quads (the header): '2d', 'linear', or undefined (none). */
export function quadLayout(L: DxilLifter): '2d' | 'linear' | undefined {
  const known = L.threadGroup ?? L.invalid('a compute program without its thread group');
  const [gx, gy, gz] = known.group;
  const oneD = gy === 1 && gz === 1;
  if (!oneD && gx % 2 === 0 && gy % 2 === 0) return '2d';
  return (gx * gy * gz) % 4 === 0 ? 'linear' : undefined;
}

/** Whether quad operations follow thread ids in 2D quads (Shader Model 6.6+, a 2D group). */
export function threadIdQuads(L: DxilLifter): boolean {
  return L.stage === 'compute' && (L.threadGroup?.sm66 ?? false) && quadLayout(L) === '2d';
}

function exchangeBuffer(L: DxilLifter, threads: number): number {
  const known = L.quadBuffer;
  if (known !== undefined) return known;
  const g = L.m.addGlobal({ name: 'iridia_quad', space: 'workgroup', type: L.m.array(L.tVec4, threads) });
  L.quadBuffer = g;
  L.note(QUAD_NOTE);
  return g;
}

/** Whether statements added now run in uniform control flow: the function's top block, after no
 * statement that can leave it early. */
function uniformHere(L: DxilLifter): boolean {
  if (L.f.depth() !== 1) return false;
  const leaves = (b: readonly import('../../ir/ir.js').Stmt[]): boolean =>
    b.some(
      (s) =>
        s.op === 'return' ||
        s.op === 'kill' ||
        s.op === 'break' ||
        s.op === 'continue' ||
        (s.op === 'if' && (leaves(s.accept) || leaves(s.reject))) ||
        (s.op === 'loop' && leaves(s.body)) ||
        (s.op === 'switch' && s.cases.some((c) => leaves(c.body))),
    );
  return !leaves(L.f.openBlock());
}

/** A quad exchange: `read(k)` is the value's bits (u32, `n` lanes) in quad lane k (a u32 0..3) of
 * this thread's quad; `lane` this thread's quad lane. */
export interface QuadExchange {
  readonly lane: ExprId;
  read(k: ExprId): ExprId;
}

/** Writes `bits` (u32, `n` lanes, n <= 4) into the exchange between two barriers, as the header says. */
export function quadExchange(L: DxilLifter, x: OpContext, bits: ExprId, n: number, what: string): QuadExchange {
  if (L.stage !== 'compute')
    return L.refuse('dx.op not handled', `${what} in a ${L.stage} program (derivatives: pixel and compute only)`);
  const [gx, gy, gz] = (L.threadGroup ?? L.invalid('a compute program without its thread group')).group;
  const layout = quadLayout(L);
  if (layout === undefined)
    return L.refuse(
      'dx.op not handled',
      `${what} in a thread group of ${gx}x${gy}x${gz} (Direct3D's compute quads need X and Y even, or a thread count that is a multiple of 4)`,
    );
  if (!uniformHere(L))
    return L.refuse(
      'dx.op not handled',
      `${what} in non-uniform control flow of a compute program (its quad exchange needs a barrier)`,
    );
  const buffer = L.global(exchangeBuffer(L, gx * gy * gz));
  const index = builtinArg(L, x, 'local_invocation_index');
  let qx: ExprId;
  let qy: ExprId;
  let stride: number;
  if (layout === 'linear') {
    qx = L.bin('and', index, L.u32(1));
    qy = L.bin('and', L.bin('shr', index, L.u32(1)), L.u32(1));
    stride = 2;
  } else {
    const id = builtinArg(L, x, 'local_invocation_id');
    qx = L.bin('and', L.swz(id, [0]), L.u32(1));
    qy = L.bin('and', L.swz(id, [1]), L.u32(1));
    stride = gx;
  }
  const words = Array.from({ length: 4 }, (_, k) => (k < n ? (n === 1 ? bits : L.swz(bits, [k])) : L.u32(0)));
  const barrier = { op: 'barrier', workgroup: true, storage: false, texture: false, execution: true } as const;
  L.f.stmt(barrier);
  L.f.stmt({
    op: 'store',
    pointer: L.access(buffer, index),
    value: L.e({ op: 'compose', type: L.tVec4, parts: words }),
  });
  L.f.stmt(barrier);
  // the quad's lane 0 (top-left); lane k is (k & 1) to its right and (k >> 1) rows below
  const base = L.once(L.bin('sub', L.bin('sub', index, qx), L.bin('mul', qy, L.u32(stride))), 'quad_base');
  const lanes = [0, 1, 2, 3].slice(0, n);
  return {
    lane: L.once(L.bin('add', qx, L.bin('mul', qy, L.u32(2))), 'quad_lane'),
    read: (k) => {
      const at = L.bin(
        'add',
        base,
        L.bin('add', L.bin('and', k, L.u32(1)), L.bin('mul', L.bin('shr', k, L.u32(1)), L.u32(stride))),
      );
      return L.swz(L.load(L.access(buffer, at)), lanes);
    },
  };
}

/** The derivative of `value` (f32, `n` lanes) along `axis` in a compute program, as the header says. */
export function computeDerivative(
  L: DxilLifter,
  x: OpContext,
  value: ExprId,
  n: number,
  axis: 'x' | 'y',
  control: 'coarse' | 'fine',
  what: string,
): ExprId {
  const bits = L.bitcast('u32', value);
  const q = quadExchange(L, x, bits, n, what);
  // the pair of lanes the derivative differences: (a, b), b to the right of or below a
  const a =
    control === 'coarse' ? L.u32(0) : axis === 'x' ? L.bin('and', q.lane, L.u32(2)) : L.bin('and', q.lane, L.u32(1));
  const at = L.once(a, 'quad_lane');
  const b = L.bin('add', at, L.u32(axis === 'x' ? 1 : 2));
  const read = (k: ExprId) => L.bitcast('f32', q.read(k));
  return L.once(L.bin('sub', read(b), read(at)), `d${axis}`);
}
