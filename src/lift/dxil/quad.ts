// Derivatives in compute programs (Shader Model 6.6: DerivCoarseX/Y, DerivFineX/Y, CalculateLOD and
// the implicit-level Sample family). Direct3D forms quads from the thread group: a 1D group
// (numthreads(X, 1, 1), X a multiple of 4) takes four consecutive flattened thread indices, quad lanes
// 0, 1 over 2, 3; a 2D or 3D group (X and Y multiples of 2) takes 2x2 threads of one (x, y) plane,
// lane (x & 1) + 2 (y & 1). WGSL has no derivatives outside fragment programs, and its quad
// operations follow subgroup lanes, whose mapping to thread indices WGSL does not promise, so the
// quad is formed through workgroup memory: each thread writes the value's bits at its flattened
// index of `iridia_quad` (array<vec4<u32>, threads>) between two barriers and reads its quad's
// neighbours — fine: the lane's own row (x) or column (y); coarse: the quad's top-left lane against
// its right (x) or lower (y) neighbour. The barriers need uniform control flow, so a derivative
// inside a branch or a loop, or after a conditional return, is refused by name.

import type { ExprId } from '../../ir/ir.js';
import type { DxilLifter } from './lifter.js';
import { builtinArg, type OpContext } from './ops-common.js';

const GROUPS = new WeakMap<DxilLifter, readonly [number, number, number]>();
const BUFFERS = new WeakMap<DxilLifter, number>();

/** The compute program's thread group (lift.ts sets it before the body is lifted). */
export function setThreadGroup(L: DxilLifter, group: readonly [number, number, number]): void {
  GROUPS.set(L, group);
}

export const QUAD_NOTE =
  'derivatives of a compute program are taken across its quads (Shader Model 6.6: 4 consecutive threads of a 1D group, 2x2 threads of a 2D one) through the workgroup array iridia_quad';

function exchangeBuffer(L: DxilLifter, threads: number): number {
  const known = BUFFERS.get(L);
  if (known !== undefined) return known;
  const g = L.m.addGlobal({ name: 'iridia_quad', space: 'workgroup', type: L.m.array(L.tVec4, threads) });
  BUFFERS.set(L, g);
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
  if (L.stage !== 'compute')
    return L.refuse('dx.op not handled', `${what} in a ${L.stage} program (derivatives: pixel and compute only)`);
  const group = GROUPS.get(L) ?? L.invalid('a compute program without its thread group');
  const [gx, gy, gz] = group;
  const flat = gy === 1 && gz === 1;
  if (flat ? gx % 4 !== 0 : gx % 2 !== 0 || gy % 2 !== 0)
    return L.refuse(
      'dx.op not handled',
      `${what} in a thread group of ${gx}x${gy}x${gz} (Direct3D's compute quads need X a multiple of 4, or X and Y even)`,
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
  if (flat) {
    qx = L.bin('and', index, L.u32(1));
    qy = L.bin('and', L.bin('shr', index, L.u32(1)), L.u32(1));
    stride = 2;
  } else {
    const id = builtinArg(L, x, 'local_invocation_id');
    qx = L.bin('and', L.swz(id, [0]), L.u32(1));
    qy = L.bin('and', L.swz(id, [1]), L.u32(1));
    stride = gx;
  }
  const bits = Array.from({ length: 4 }, (_, k) =>
    k < n ? L.bitcast('u32', n === 1 ? value : L.swz(value, [k])) : L.u32(0),
  );
  const barrier = { op: 'barrier', workgroup: true, storage: false, texture: false, execution: true } as const;
  L.f.stmt(barrier);
  L.f.stmt({
    op: 'store',
    pointer: L.access(buffer, index),
    value: L.e({ op: 'compose', type: L.tVec4, parts: bits }),
  });
  L.f.stmt(barrier);
  // the pair of lanes the derivative differences: (a, b), b to the right of or below a
  const row = L.bin('mul', qy, L.u32(stride));
  const a =
    control === 'coarse'
      ? L.bin('sub', L.bin('sub', index, qx), row)
      : axis === 'x'
        ? L.bin('sub', index, qx)
        : L.bin('sub', index, row);
  const at = L.once(a, 'quad_lane');
  const b = L.bin('add', at, L.u32(axis === 'x' ? 1 : stride));
  const lanes = [0, 1, 2, 3].slice(0, n);
  const read = (i: ExprId) => L.bitcast('f32', L.swz(L.load(L.access(buffer, i)), lanes));
  return L.once(L.bin('sub', read(b), read(at)), `d${axis}`);
}
