// The WebGPU bindings of a seeded run (src/exec/seed.ts): the same words the executor is given,
// samplers nearest with clamp-to-edge (the executor's nearestClampSampler). Used by `iridia run --seed
// --gpu` and by the twins test's Dawn half.

import type { Program } from '../ir/program.js';
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

/**
 * WGSL of a vertex program for a full-screen triangle whose varyings are constant: each location the
 * pixel program reads gets `wordsAt(location)` (zeros when undefined), bit for bit, at every corner.
 * A GPU run cannot be handed per-pixel values, so the executor is given the same constants.
 */
export function constantVaryings(p: Program, wordsAt: (location: number) => Uint32Array | undefined): string {
  const m = p.module;
  const fn = m.functions[m.entryPoints.find((e) => e.stage === 'fragment')!.function]!;
  const members = ['@builtin(position) pos: vec4<f32>'];
  const sets: string[] = [];
  for (const a of fn.args) {
    const b = a.binding;
    const t = m.types[a.type];
    if (!b || b.kind !== 'location' || !t || (t.kind !== 'vector' && t.kind !== 'scalar')) continue;
    const w = t.kind === 'vector' ? t.size : 1;
    const ty = w === 1 ? t.scalar : `vec${w}<${t.scalar}>`;
    const interp = b.interpolation ? ` @interpolate(${b.interpolation}${b.sampling ? `, ${b.sampling}` : ''})` : '';
    members.push(`@location(${b.location})${interp} v${b.location}: ${ty}`);
    const ws = wordsAt(b.location) ?? new Uint32Array(4);
    const lits = Array.from({ length: w }, (_, k) => `${ws[k] ?? 0}u`);
    sets.push(`o.v${b.location} = bitcast<${ty}>(${w === 1 ? lits[0]! : `vec${w}<u32>(${lits.join(', ')})`});`);
  }
  return `struct VOut { ${members.join(', ')} }
@vertex fn iridia_vs(@builtin(vertex_index) i: u32) -> VOut {
  var o: VOut;
  o.pos = vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.5, 1.0);
  ${sets.join('\n  ')}
  return o;
}
`;
}
