// The WebGPU bindings of a seeded run (src/exec/seed.ts): the same words the executor is given,
// samplers nearest with clamp-to-edge (the executor's nearestClampSampler); and a pixel program's
// render job (its colour targets' formats, a full-screen triangle with constant varyings). Used by
// `iridia run --seed --gpu`, the web page's Run pane and the twins test's Dawn half. No Node API.

import type { Binding, Type } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import type { SeededBindings } from '../exec/index.js';
import type { GpuBinding, PixelJob } from './types.js';

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

/** A colour output of a pixel program: its location, component count and scalar type. */
export interface ColourOutput {
  readonly location: number;
  readonly width: number;
  readonly scalar: string;
}

/** Each colour output of a pixel program, by location (none for a program of another stage). */
export function colourOutputs(p: Program): ColourOutput[] {
  const ep = p.module.entryPoints.find((e) => e.stage === 'fragment');
  if (!ep) return [];
  const fn = p.module.functions[ep.function]!;
  const res = fn.result ? p.module.types[fn.result.type] : undefined;
  const out: ColourOutput[] = [];
  const add = (t: Type | undefined, b: Binding | undefined): void => {
    if (!t || !b || b.kind !== 'location') return;
    out.push({
      location: b.location,
      width: t.kind === 'vector' ? t.size : 1,
      scalar: t.kind === 'vector' || t.kind === 'scalar' ? t.scalar : 'u32',
    });
  };
  if (res?.kind === 'struct') for (const m of res.members) add(p.module.types[m.type], m.binding);
  else add(res, fn.result?.binding);
  return out.sort((a, b) => a.location - b.location);
}

/** The output's components of each pixel, from the executor's four words a pixel. */
export function targetComponents(four: Uint32Array, width: number): Uint32Array {
  const pixels = four.length / 4;
  const out = new Uint32Array(pixels * width);
  for (let i = 0; i < pixels; i++) for (let k = 0; k < width; k++) out[i * width + k] = four[i * 4 + k]!;
  return out;
}

/**
 * The WebGPU job of a pixel program drawn as one full-screen triangle over a width x height target,
 * its varyings constant (`wordsAt(location)`, as constantVaryings), one target a colour output (r32,
 * rg32 or rgba32 of its scalar type; a location between them a masked r32uint): `outputs` gives each
 * output's index in the job's targets. The readback of target i holds the output's components a pixel.
 */
export function seededPixelJob(
  p: Program,
  code: string,
  bindings: readonly GpuBinding[],
  size: { readonly width: number; readonly height: number },
  wordsAt: (location: number) => Uint32Array | undefined,
  /** Throws: a colour output with no WebGPU target format (three components). */
  unsupported: (why: string) => never,
): { job: PixelJob; outputs: ColourOutput[] } {
  const outputs = colourOutputs(p);
  const formats = new Map<number, GPUTextureFormat>();
  for (const c of outputs) {
    if (c.width === 3) unsupported(`colour output ${c.location} has 3 components, which no WebGPU target format has`);
    const base = c.scalar === 'f32' ? 'float' : c.scalar === 'i32' ? 'sint' : 'uint';
    formats.set(c.location, `${c.width === 1 ? 'r' : c.width === 2 ? 'rg' : 'rgba'}32${base}` as GPUTextureFormat);
  }
  const max = outputs.reduce((x, c) => Math.max(x, c.location), -1);
  const targets = Array.from({ length: Math.max(1, max + 1) }, (_, i) => {
    const format = formats.get(i);
    return format ? { format } : { format: 'r32uint' as GPUTextureFormat, writeMask: 0 };
  });
  const job: PixelJob = {
    code,
    vertexCode: constantVaryings(p, wordsAt),
    width: size.width,
    height: size.height,
    targets,
    bindings,
    fragmentOnlyBindings: true,
  };
  return { job, outputs };
}
