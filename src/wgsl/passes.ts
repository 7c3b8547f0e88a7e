// WGSL-only rewrites of the IR, run before the emitter so it stays a direct printer (after Tint's
// `raise/`). Each pass takes a module and returns a new one; the input is never changed.
// - expandBindingArrays: WGSL (WebGPU 1) has no binding arrays: a range of N resources becomes N
//   globals with consecutive bindings; a statement that indexes the range with a computed index
//   becomes a switch over the index with one copy of the statement per element (index past the
//   range: the last element's copy, as WGSL's robust access would clamp).

import type { Module } from '../ir/ir.js';
import { expandBindingArrays } from './binding-arrays.js';

export function lowerForWgsl(m: Module): Module {
  return expandBindingArrays(m);
}
