// A reference sampling callback: nearest texel, clamp to edge, level 0, for any bound ExecTexture —
// what a WebGPU sampler with nearest filters and clamp-to-edge addressing returns on a one-level
// texture (gather: the 2x2 footprint in Direct3D's order). The executor itself never filters: real
// filtering is the caller's (values.ts SampleRequest).

import type { ExecTexture, SampleCallback, SampleRequest } from './values.js';

export function nearestClampSampler(textures: Readonly<Record<string, ExecTexture>>): SampleCallback {
  return (req: SampleRequest): number[] => {
    const tex = textures[req.texture];
    if (!tex) return [0, 0, 0, 0];
    const clampi = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
    const off = req.offset ?? [];
    const layer = req.arrayIndex !== undefined ? clampi(Math.round(req.arrayIndex), tex.depthOrLayers) : 0;
    const at = (x: number, y: number): number[] => {
      const i = ((layer * tex.height + clampi(y, tex.height)) * tex.width + clampi(x, tex.width)) * 4;
      return Array.from(tex.levels[0]!.subarray(i, i + 4));
    };
    const u = (req.coord[0] ?? 0) * tex.width;
    const v = (req.coord[1] ?? 0) * tex.height;
    if (req.gather !== undefined) {
      const x0 = Math.floor(u - 0.5) + (off[0] ?? 0);
      const y0 = Math.floor(v - 0.5) + (off[1] ?? 0);
      const c = req.gather;
      return [at(x0, y0 + 1)[c]!, at(x0 + 1, y0 + 1)[c]!, at(x0 + 1, y0)[c]!, at(x0, y0)[c]!];
    }
    return at(Math.floor(u) + (off[0] ?? 0), Math.floor(v) + (off[1] ?? 0));
  };
}
