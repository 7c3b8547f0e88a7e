// The WebGPU bindings of a seeded run (src/exec/seed.ts): the same words the executor is given,
// samplers nearest with clamp-to-edge (the executor's nearestClampSampler). Used by `iridia run --seed
// --gpu` and by the twins test's Dawn half.

import type { SeededBindings } from '../exec/index.js';
import type { GpuBinding } from './types.js';

export function seededGpuBindings(
  b: SeededBindings,
  /** Throws: a storage texture of a format WebGPU does not run. */
  unsupported: (name: string, format: string) => never,
): GpuBinding[] {
  const out: GpuBinding[] = [];
  for (const r of b.resources) {
    const at = { group: r.group, binding: r.binding };
    if (r.kind === 'uniform') out.push({ ...at, type: 'uniform', words: r.words!.slice() });
    else if (r.kind === 'storage') out.push({ ...at, type: 'storage', words: r.words!.slice(), readOnly: !r.writable });
    else if (r.kind === 'sampler')
      out.push({
        ...at,
        type: 'sampler',
        sampler: {
          magFilter: 'nearest',
          minFilter: 'nearest',
          addressModeU: 'clamp-to-edge',
          addressModeV: 'clamp-to-edge',
          addressModeW: 'clamp-to-edge',
          ...(r.comparison ? { compare: b.compare[r.key] } : {}),
        },
        ...(r.comparison ? { comparison: true } : {}),
      });
    else {
      const t = r.texture!;
      const img = t.image;
      const dimension = img.dim === '3d' ? '3d' : img.dim === '1d' ? '1d' : '2d';
      const viewDimension: GPUTextureViewDimension =
        img.dim === 'cube' ? (img.arrayed ? 'cube-array' : 'cube') : img.arrayed ? '2d-array' : dimension;
      const shape = { dimension, viewDimension, width: t.width, height: t.height, depthOrLayers: t.layers } as const;
      if (img.class.kind === 'storage') {
        const format = img.class.format;
        if (!(format.startsWith('r32') || format.startsWith('rgba32'))) unsupported(r.name, format);
        const access =
          img.class.access === 'read' ? 'read-only' : img.class.access === 'write' ? 'write-only' : 'read-write';
        out.push({ ...at, type: 'storage-texture', texture: { format, ...shape, words: r.words!.slice() }, access });
      } else {
        const format: GPUTextureFormat =
          img.class.kind === 'depth'
            ? 'depth32float'
            : img.class.scalar === 'f32'
              ? 'rgba32float'
              : img.class.scalar === 'i32'
                ? 'rgba32sint'
                : 'rgba32uint';
        out.push({ ...at, type: 'texture', texture: { format, ...shape, words: r.words!.slice() } });
      }
    }
  }
  return out;
}
