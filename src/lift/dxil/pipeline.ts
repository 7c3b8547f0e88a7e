// Pipeline state a DXIL program does not carry but a lift option gives (LiftOptions), by lifter:
// the rasterizer's sample count (RenderTargetGetSampleCount / RenderTargetGetSamplePosition), and
// the draw's start vertex and instance (SV_VertexID, SV_InstanceID, StartVertexLocation,
// StartInstanceLocation: LiftOptions.startVertexLocation / startInstanceLocation).

import type { DxilLifter } from './lifter.js';
import { drawStartNote } from '../io.js';

/** lift.ts: the option rasterizerSampleCount of this lift. */
export function setRasterizerSampleCount(L: DxilLifter, n: number | undefined): void {
  L.rasterizerSamples = n;
}

export function rasterizerSampleCount(L: DxilLifter): number | undefined {
  return L.rasterizerSamples;
}

/** lift.ts: the options startVertexLocation and startInstanceLocation of this lift. */
export function setDrawStart(L: DxilLifter, vertex: number | undefined, instance: number | undefined): void {
  for (const [name, v] of [
    ['startVertexLocation', vertex],
    ['startInstanceLocation', instance],
  ] as const)
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= 0xffffffff))
      L.invalid(`the ${name} option is ${v} (a 32-bit unsigned integer)`);
  L.drawStart = {
    ...(vertex !== undefined ? { startVertexLocation: vertex } : {}),
    ...(instance !== undefined ? { startInstanceLocation: instance } : {}),
  };
}

/** The lift's start vertex and instance options, as given. */
export function drawOptions(L: DxilLifter): { startVertexLocation?: number; startInstanceLocation?: number } {
  return L.drawStart ?? {};
}

/** StartVertexLocation()/StartInstanceLocation(): the draw's start this lift assumes, noted (the
 * caller draws with it). */
export function drawStart(L: DxilLifter): { vertex: number; instance: number } {
  const d = drawOptions(L);
  const vertex = d.startVertexLocation ?? 0;
  const instance = d.startInstanceLocation ?? 0;
  L.note(drawStartNote(vertex, instance, d.startVertexLocation !== undefined || d.startInstanceLocation !== undefined));
  return { vertex, instance };
}
