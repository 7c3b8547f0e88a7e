// Shader Model 6.7's programmable texel offsets: a Sample* or SampleCmp* whose offset operands are
// not immediates. Direct3D uses each offset's low four bits as a signed integer (-8..7; D3D12's
// programmable offset rule, as vkd3d-proton's test_sm67_dynamic_texture_offset computes its
// expectation with sext4(offset) and applies it per sampled level). WGSL takes only constant sample
// offsets, so a sample is a switch over the 16 offsets per axis (256 of a 2D texture, 16 of a 1D
// one), each case sampling with its constant offset. A 3D texture's computed sample offsets (4,096
// cases) are refused by name, and so is an implicit-level or biased sample of a pixel program with
// them (WGSL's textureSample needs uniform control flow, which the switch's selector is not), and a
// TextureLoad's or gather's computed offsets stay as ops.ts lifts them. A cube texture ignores
// offsets (Direct3D does too).

import { makeStmt } from '../../ir/nodes.js';
import type { ExprId, Expr, SwitchCase } from '../../ir/ir.js';
import { Constant, type Instruction } from '../../dxil/ir.js';
import type { DxilLifter } from './lifter.js';
import type { DxResource } from './resources.js';
import { u32, undef, vec } from './ops-common.js';

export const COMPUTED_OFFSET_NOTE =
  "a computed texel offset takes its low four bits, signed (Direct3D's programmable offsets): a sample switches over the 16 constant offsets an axis can take";

/** Whether offset operands k..k+n-1 are all immediates (or undef). */
export function constantOffsets(L: DxilLifter, c: Instruction, k: number, n: number): boolean {
  for (let j = 0; j < n; j++) {
    const v = c.ops[k + j];
    if (!(v === undefined || L.isUndef(v) || v instanceof Constant)) return false;
  }
  return true;
}

/** How many offset axes a view's shape takes (a 1D texture's second lane stays 0). */
function axes(res: DxResource): number {
  return res.shape === '3d' ? 3 : res.shape.startsWith('1d') ? 1 : 2;
}

/** A sample with computed offsets k..: a switch over the constant offsets, each case storing the
 * sample `at(offset)` made with that offset into a local of type `type`; its value. */
export function switchedSample(
  L: DxilLifter,
  c: Instruction,
  k: number,
  res: DxResource,
  type: number,
  implicit: boolean,
  at: (offset: ExprId | undefined) => Expr,
): ExprId {
  if (res.shape === 'cube' || res.shape === 'cubearray') {
    L.note('a texel offset on a cube texture is ignored (Direct3D ignores it too)');
    return L.e(at(undefined));
  }
  if (res.shape === '3d')
    return L.refuse('computed texel offset', 'a computed offset of a 3D texture sample (4,096 constant offsets)');
  if (implicit)
    return L.refuse(
      'computed texel offset',
      "an implicit-level or biased sample with a computed offset in a pixel program (WGSL's textureSample needs uniform control flow)",
    );
  L.note(COMPUTED_OFFSET_NOTE);
  const n = axes(res);
  const nibble = (j: number): ExprId => (undef(L, c, k + j) ? L.u32(0) : L.bin('and', u32(L, c, k + j), L.u32(15)));
  const selector = L.once(
    n === 1 ? nibble(0) : L.bin('or', nibble(0), L.bin('shl', nibble(1), L.u32(4))),
    'offset_case',
  );
  const slot = L.f.local('offset_sample', type);
  const cases: SwitchCase[] = [];
  for (let sel = 0; sel < 16 ** n; sel++) {
    const signed = (v: number) => ((v & 15) << 28) >> 28;
    const offset = vec(L, 'i32', [L.i32(signed(sel)), L.i32(n === 1 ? 0 : signed(sel >> 4))]);
    cases.push({
      // the zero offset is the default (the selector is masked: nothing else reaches it)
      values: sel === 0 ? [] : [sel],
      isDefault: sel === 0,
      body: [makeStmt.store(L.local(slot), L.e(at(sel === 0 ? undefined : offset)))],
    });
  }
  L.f.stmt({ op: 'switch', selector, cases });
  return L.once(L.load(L.local(slot)), 'texel');
}
