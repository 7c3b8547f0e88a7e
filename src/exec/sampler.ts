// A reference sampling callback: nearest texel, clamp to edge, level 0, for any bound ExecTexture —
// what a WebGPU (or Direct3D) sampler with nearest filters and clamp-to-edge addressing returns on a
// one-level texture (gather: the 2x2 footprint in Direct3D's order). The executor itself never
// filters: real filtering is the caller's (values.ts SampleRequest).
//
// Beyond 2D (and 2D arrays, 1D as height 1), the options name what the coordinates address:
// - '3d': u, v, w all select (z from w);
// - 'cube' (and cube arrays, 6 layers a cube, face = layer % 6): the face is the direction's major
//   axis (ties: z wins over y and x, y over x, as Vulkan recommends) and the face coordinates are
//   Direct3D's and Vulkan's cube table (+X: s = -z, t = -y; -X: s = z, t = -y; +Y: s = x, t = z;
//   -Y: s = x, t = -z; +Z: s = x, t = -y; -Z: s = -x, t = -y; each divided by |major|, then
//   (c + 1) / 2). A gather footprint that leaves its face takes its texels from the neighbouring face
//   (WebGPU's cubes are seamless: the clamp address mode does not apply to them): the texel centre is
//   turned back into a direction and that direction's face and texel are used.
// Comparison (a request with depthRef): the sampler's comparison function (Direct3D's
// D3D11_COMPARISON_*, WebGPU's GPUCompareFunction; both compare the reference against the texel:
// 'less' passes when ref < texel) applied to the texel's first component, giving 1.0 or 0.0.

import type { ExecTexture, SampleCallback, SampleRequest } from './values.js';

/** How a texture's coordinates address it (default '2d': u, v and the array index). */
export type TextureView = '1d' | '2d' | '3d' | 'cube';

/** A comparison sampler's function: passes when `ref <op> texel`. */
export type CompareFunction =
  'never' | 'less' | 'equal' | 'less-equal' | 'greater' | 'not-equal' | 'greater-equal' | 'always';

export interface SamplerOptions {
  /** Per texture binding key ('group:binding' or 'group:binding:index'): its view, default '2d'. */
  readonly views?: Readonly<Record<string, TextureView>>;
  /** Per sampler binding key: the comparison function of a comparison sampler. A comparison request
   * through a sampler not named here compares with 'never' (every result 0). */
  readonly compare?: Readonly<Record<string, CompareFunction>>;
}

const PASS: Readonly<Record<CompareFunction, (ref: number, texel: number) => boolean>> = {
  never: () => false,
  less: (r, t) => r < t,
  equal: (r, t) => r === t,
  'less-equal': (r, t) => r <= t,
  greater: (r, t) => r > t,
  'not-equal': (r, t) => r !== t,
  'greater-equal': (r, t) => r >= t,
  always: () => true,
};

const ONE = 0x3f800000;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function bitsToF32(w: number): number {
  u32[0] = w;
  return f32[0]!;
}
function fround(x: number): number {
  return Math.fround(x);
}

/** The cube face (0..5: +X -X +Y -Y +Z -Z) of a direction and its face coordinates in [0, 1]. */
export function cubeFace(x: number, y: number, z: number): { face: number; s: number; t: number } {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  let face: number;
  let sc: number;
  let tc: number;
  let ma: number;
  if (az >= ax && az >= ay) {
    face = z < 0 ? 5 : 4;
    sc = z < 0 ? -x : x;
    tc = -y;
    ma = az;
  } else if (ay >= ax) {
    face = y < 0 ? 3 : 2;
    sc = x;
    tc = y < 0 ? -z : z;
    ma = ay;
  } else {
    face = x < 0 ? 1 : 0;
    sc = x < 0 ? z : -z;
    tc = -y;
    ma = ax;
  }
  // f32 arithmetic, as the GPU does it: (c / |ma|) * 0.5 + 0.5.
  const s = fround(fround(fround(sc / ma) * 0.5) + 0.5);
  const t = fround(fround(fround(tc / ma) * 0.5) + 0.5);
  return { face, s, t };
}

/** The direction through a point (sc, tc in [-1, 1] face coordinates) of a face: the table inverted. */
function cubeDirection(face: number, sc: number, tc: number): [number, number, number] {
  switch (face) {
    case 0:
      return [1, -tc, -sc];
    case 1:
      return [-1, -tc, sc];
    case 2:
      return [sc, 1, tc];
    case 3:
      return [sc, -1, -tc];
    case 4:
      return [sc, -tc, 1];
    default:
      return [-sc, -tc, -1];
  }
}

export function nearestClampSampler(
  textures: Readonly<Record<string, ExecTexture>>,
  options: SamplerOptions = {},
): SampleCallback {
  const views = options.views ?? {};
  const compare = options.compare ?? {};
  return (req: SampleRequest): number[] => {
    const tex = textures[req.texture];
    if (!tex) return [0, 0, 0, 0];
    const view = views[req.texture] ?? '2d';
    const level0 = tex.levels[0]!;
    const clampi = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
    const off = req.offset ?? [];
    const texelAt = (layer: number, x: number, y: number): number[] => {
      const i = ((layer * tex.height + y) * tex.width + x) * 4;
      return Array.from(level0.subarray(i, i + 4));
    };
    const ref = req.depthRef;
    const pass = ref !== undefined ? PASS[compare[req.sampler] ?? 'never'] : undefined;
    // The comparison result of a texel, or the texel itself.
    const result = (t: number[]): number[] => (pass ? [pass(fround(ref!), bitsToF32(t[0]!)) ? ONE : 0, 0, 0, 0] : t);
    const gatherOf = (at: (dx: number, dy: number) => number[], c: number): number[] => {
      // Direct3D's order: (0,1), (1,1), (1,0), (0,0) of the footprint.
      return [at(0, 1), at(1, 1), at(1, 0), at(0, 0)].map((t) => result(t)[pass ? 0 : c]!);
    };

    if (view === 'cube') {
      const cubes = Math.max(1, Math.floor(tex.depthOrLayers / 6));
      const cube = req.arrayIndex !== undefined ? clampi(Math.round(req.arrayIndex), cubes) : 0;
      const size = tex.width;
      const { face, s, t } = cubeFace(req.coord[0] ?? 0, req.coord[1] ?? 0, req.coord[2] ?? 0);
      // A texel of `face`, possibly off its edge: then the neighbouring face's texel there.
      const cubeTexel = (f: number, i: number, j: number): number[] => {
        if (i < 0 || j < 0 || i >= size || j >= size) {
          const d = cubeDirection(f, (2 * (i + 0.5)) / size - 1, (2 * (j + 0.5)) / size - 1);
          const n = cubeFace(d[0], d[1], d[2]);
          f = n.face;
          i = clampi(Math.floor(n.s * size), size);
          j = clampi(Math.floor(n.t * size), size);
        }
        return texelAt(cube * 6 + f, i, j);
      };
      const u = fround(s * size);
      const v = fround(t * size);
      if (req.gather !== undefined) {
        const x0 = Math.floor(u - 0.5);
        const y0 = Math.floor(v - 0.5);
        return gatherOf((dx, dy) => cubeTexel(face, x0 + dx, y0 + dy), req.gather);
      }
      return result(cubeTexel(face, clampi(Math.floor(u), size), clampi(Math.floor(v), size)));
    }

    const height = view === '1d' ? 1 : tex.height;
    let layer = 0;
    if (view === '3d') {
      const w = fround((req.coord[2] ?? 0) * tex.depthOrLayers);
      layer = clampi(Math.floor(w) + (off[2] ?? 0), tex.depthOrLayers);
    } else if (req.arrayIndex !== undefined) layer = clampi(Math.round(req.arrayIndex), tex.depthOrLayers);
    const at = (x: number, y: number): number[] => texelAt(layer, clampi(x, tex.width), clampi(y, height));
    const u = fround((req.coord[0] ?? 0) * tex.width);
    const v = view === '1d' ? 0 : fround((req.coord[1] ?? 0) * height);
    if (req.gather !== undefined) {
      const x0 = Math.floor(u - 0.5) + (off[0] ?? 0);
      const y0 = Math.floor(v - 0.5) + (off[1] ?? 0);
      return gatherOf((dx, dy) => at(x0 + dx, y0 + dy), req.gather);
    }
    return result(at(Math.floor(u) + (off[0] ?? 0), Math.floor(v) + (off[1] ?? 0)));
  };
}
