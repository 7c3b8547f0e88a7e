// A typed texture UAV used atomically, as both lifters hold it: WebGPU has no texture atomics, so the
// view is a storage buffer of 32-bit words (array<atomic<u32>>, array<atomic<i32>> for a sint view)
// that every load, store, atomic and size query of the view goes through, so they stay coherent.
// Direct3D allows atomics only on R32_UINT / R32_SINT views (and exchange on R32_FLOAT), one word a
// texel. The layout, a caller's obligation written in the interface (ResourceKind `texels`):
//
//   word 0, 1, 2   the view's width, height and depth-or-layers (a 1D view: height 1; a 1D array:
//                  height 1, its layers in word 2; a 2D view: depth 1); word 3 is 0, or for a
//                  multisampled view (RWTexture2DMS[Array], one word a sample) its sample count
//   word 4 + x + width * (y + height * z)
//                  texel (x, y, z): 1D (x, 0, 0), 1D array (x, 0, layer), 2D (x, y, 0),
//                  2D array (x, y, layer), 3D (x, y, z) — rows of `width` words, slices (array
//                  layers or depth slices) of width * height words, one mip level
//   word 4 + x + width * (y + height * (s + samples * layer))
//                  sample s of texel (x, y) of a multisampled view's layer: each sample a slice
//
// A texel outside the header's size reads zero and is not written, as Direct3D's typed loads and
// stores out of range; the header must fit the buffer (a texel past the buffer's end is out of range too).

import type { ExprId } from '../ir/ir.js';
import type { FunctionBuilder } from '../ir/builder.js';

export const TEXEL_HEADER_WORDS = 4;

export const TEXELS_NOTE = (name: string): string =>
  `${name}: a typed texture view used atomically is a storage buffer of one 32-bit word a texel (WebGPU has no texture atomics): words 0-2 hold its width, height and depth-or-layers, which the caller writes, texel (x, y, z) is word 4 + x + width * (y + height * z); its loads, stores and size queries read the same words`;

export const TEXELS64_NOTE = (name: string): string =>
  `${name}: a typed texture view a 64-bit atomic uses is a storage buffer of two 32-bit words a texel (an R32G32_UINT format, the low word first; WebGPU has no texture atomics): words 0-2 hold its width, height and depth-or-layers, which the caller writes, texel (x, y, z) is words 4 + 2 (x + width * (y + height * z)) and the next; its loads, stores and size queries read the same words`;

export const TEXELS_MS_NOTE = (name: string): string =>
  `${name}: a multisampled UAV (WebGPU has no multisampled storage texture) is a storage buffer of one 32-bit word a sample: words 0-3 hold its width, height, layers and sample count, which the caller writes, sample s of texel (x, y) of layer z is word 4 + x + width * (y + height * (s + samples * z)); its loads, stores and size queries read the same words`;

/** The header words (width, height, depth-or-layers, and with `samples` the sample count), read atomically. */
export function texelHeader(
  f: FunctionBuilder,
  buffer: ExprId,
  scalar: 'u32' | 'i32',
  samples = false,
): [ExprId, ExprId, ExprId, ExprId] {
  const words = [0, 1, 2, 3].slice(0, samples ? 4 : 3).map((k) => {
    const r = f.newLet(['width', 'height', 'depth', 'samples'][k]!);
    f.stmt({ op: 'atomic', pointer: f.expr({ op: 'member', base: buffer, index: k }), fn: 'load', result: r });
    const v = f.expr({ op: 'let', let: r });
    return scalar === 'u32' ? v : f.expr({ op: 'bitcast', to: 'u32', value: v });
  });
  if (!samples) words.push(f.u32(1));
  return words as [ExprId, ExprId, ExprId, ExprId];
}

/** The word index of texel (x, y, z) — or of sample `sample` of texel (x, y) of layer z of a
 * multisampled view — (u32 expressions) and whether it is inside the view and the buffer. */
export function texelWord(
  f: FunctionBuilder,
  buffer: ExprId,
  scalar: 'u32' | 'i32',
  x: ExprId,
  y: ExprId,
  z: ExprId,
  sample?: ExprId,
  texelWords: 1 | 2 = 1,
): { index: ExprId; inRange: ExprId } {
  const [w, h, d, n] = texelHeader(f, buffer, scalar, sample !== undefined);
  const bin = (fn: 'add' | 'mul' | 'lt' | 'and', left: ExprId, right: ExprId) =>
    f.expr({ op: 'binary', fn, left, right });
  const slice = sample === undefined ? z : bin('add', sample, bin('mul', n, z));
  const texel = bin('add', x, bin('mul', w, bin('add', y, bin('mul', h, slice))));
  const index = f.bind(
    'texel',
    bin('add', f.u32(TEXEL_HEADER_WORDS), texelWords === 1 ? texel : bin('mul', texel, f.u32(texelWords))),
  );
  const length = f.expr({ op: 'array_length', pointer: buffer });
  let inside = bin('and', bin('and', bin('lt', x, w), bin('lt', y, h)), bin('lt', z, d));
  if (sample !== undefined) inside = bin('and', inside, bin('lt', sample, n));
  // the texel's last word inside the buffer (a two-word texel: its high word too)
  let fits = bin('lt', index, length);
  if (texelWords === 2) fits = bin('and', fits, bin('lt', bin('add', index, f.u32(1)), length));
  return { index, inRange: f.bind('in_range', bin('and', inside, fits)) };
}
