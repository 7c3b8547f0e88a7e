// Pipeline state a DXIL program does not carry but a lift option gives (LiftOptions), by lifter:
// the rasterizer's sample count (RenderTargetGetSampleCount / RenderTargetGetSamplePosition).

import type { DxilLifter } from './lifter.js';

const RASTERIZER = new WeakMap<DxilLifter, number | undefined>();

/** lift.ts: the option rasterizerSampleCount of this lift. */
export function setRasterizerSampleCount(L: DxilLifter, n: number | undefined): void {
  RASTERIZER.set(L, n);
}

export function rasterizerSampleCount(L: DxilLifter): number | undefined {
  return RASTERIZER.get(L);
}
