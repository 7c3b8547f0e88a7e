// WGSL-only rewrites of the IR, run before the emitter so it stays a direct printer (after Tint's
// `raise/`). Each pass takes a module and returns a new one; the input is never changed.
// - expandBindingArrays: WGSL (WebGPU 1) has no binding arrays: a range of N resources becomes N
//   globals with consecutive bindings; a use that indexes the range with a computed index calls a
//   helper function (one per range and shape of use) that switches over the index (index past the
//   range: the last element, as WGSL's robust access would clamp); a use no helper expresses keeps
//   a switch around its statement with one copy of it per element.

// - lowerGeometry: `emit`/`cut` become calls of generated functions recording the vertices.
// - scalarizeBarrierFunctions: in a function with a barrier, each vec4<u32> register is split
//   into four u32 locals, so Tint's per-variable uniformity analysis sees lanes apart.

import type { Module } from '../ir/ir.js';
import { expandBindingArrays } from './binding-arrays.js';
import { lowerGeometry } from './geometry.js';
import { scalarizeBarrierFunctions } from './scalarize.js';

export interface LowerOptions {
  /** Bindings given to an unbounded range (as the lifter's LiftOptions.unboundedCount). */
  readonly unboundedCount?: number;
  /** A geometry program's maximum vertex count (dcl_maxout). */
  readonly maxVertices?: number;
}

export function lowerForWgsl(m: Module, options: LowerOptions = {}): Module {
  return scalarizeBarrierFunctions(
    lowerGeometry(expandBindingArrays(m, options.unboundedCount), options.maxVertices ?? 1),
  );
}
