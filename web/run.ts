// The inspector's Run view: a lifted compute or pixel program run with the seeded inputs of
// `iridia run --seed S` (src/exec/seed.ts: every resource and varying from the seed and its register)
// on the CPU executor (src/exec), and on the browser's WebGPU (src/gpu's openGpu over navigator.gpu,
// the bindings seededGpuBindings and, for a pixel program, the render job seededPixelJob give the
// CLI's --gpu), word by word beside the executor's, differences marked. Without WebGPU the page says
// so and shows the executor's result.

import type { LiftedProgram } from '../src/index.js';
import { runCompute, runPixel, nearestClampSampler, seedBindings, seedVaryings } from '../src/exec/index.js';
import { openGpu } from '../src/gpu/session.js';
import { colourOutputs, seededGpuBindings, seededPixelJob, targetComponents } from '../src/gpu/seeded.js';
import { emitWgsl } from '../src/wgsl/index.js';

/** The size of a seeded run, as `iridia run --seed` defaults it (SEEDED_DEFAULTS). */
export const RUN_SIZE = { workgroups: [1, 1, 1] as [number, number, number], width: 8, height: 8 };

/** Each output of a run: its name (the Direct3D register, or `target N`: the output's components a pixel) and its words. */
export type RunOutputs = Record<string, Uint32Array>;

/** What the executor gives for a seeded run: each writable resource, and a pixel program's targets. */
export function executorRun(p: LiftedProgram, seed: number): RunOutputs {
  const b = seedBindings(p, seed);
  const base = {
    buffers: b.buffers,
    textures: b.textures,
    sample: nearestClampSampler(b.textures, { views: b.views, compare: b.compare }),
  };
  const out: RunOutputs = {};
  if (p.stage === 'compute') runCompute(p, { ...base, workgroups: RUN_SIZE.workgroups });
  else if (p.stage === 'pixel') {
    const { width, height } = RUN_SIZE;
    const r = runPixel(p, { ...base, width, height, inputs: seedVaryings(p, seed, width * height, false) });
    // As `iridia run --seed` prints them: the output's components of each pixel.
    for (const c of colourOutputs(p)) {
      const four = r.targets[c.location];
      if (four) out[`target ${c.location}`] = targetComponents(four, c.width);
    }
  } else throw new Error(`the page runs compute and pixel programs, not ${p.stage} ones`);
  for (const r of b.resources) {
    if (!r.writable) continue;
    if (r.kind === 'storage') out[r.name] = b.buffers[r.key]!;
    else if (b.textures[r.key]) out[r.name] = b.textures[r.key]!.levels[0]!;
  }
  return out;
}

/**
 * The same seeded run on WebGPU; undefined (with why) when the browser has no WebGPU. A compute
 * program's storage buffers (a storage texture's readback is shaped by its format, not the
 * executor's four words), a pixel program's colour targets: the 8x8 target drawn as one full-screen
 * triangle with the run's constant varyings, read back texel by texel, and its storage buffers.
 */
export async function webgpuRun(
  p: LiftedProgram,
  seed: number,
  gpu: GPU | undefined,
): Promise<{ outputs: RunOutputs } | { why: string }> {
  if (p.stage !== 'compute' && p.stage !== 'pixel')
    return { why: `WebGPU runs compute and pixel programs here, not ${p.stage} ones` };
  if (!gpu) return { why: 'this browser has no WebGPU (navigator.gpu): the executor runs alone' };
  let session;
  try {
    session = await openGpu(gpu);
  } catch (e) {
    return { why: `${e instanceof Error ? e.message : String(e)}: the executor runs alone` };
  }
  try {
    const b = seedBindings(p, seed);
    const bindings = seededGpuBindings(b, (name, format) => {
      throw new Error(`${name} is a ${format} storage texture; WebGPU runs r32 and rgba32 formats only`);
    });
    const code = emitWgsl(p);
    let written: Record<string, Uint32Array>;
    const outputs: RunOutputs = {};
    if (p.stage === 'compute') {
      const r = await session.runCompute({ code, workgroups: RUN_SIZE.workgroups, bindings });
      if (!r.ok) return { why: `WebGPU ${r.stage}: ${r.messages.join('; ')}` };
      written = r.outputs;
    } else {
      const inputs = seedVaryings(p, seed, 1, false);
      const { job, outputs: colours } = seededPixelJob(
        p,
        code,
        bindings,
        RUN_SIZE,
        (location) => inputs[location],
        (why) => {
          throw new Error(why);
        },
      );
      const r = await session.runPixel(job);
      if (!r.ok) return { why: `WebGPU ${r.stage}: ${r.messages.join('; ')}` };
      for (const c of colours) outputs[`target ${c.location}`] = r.targets[c.location]!;
      written = r.outputs;
    }
    for (const res of b.resources)
      if (res.writable && res.kind === 'storage') {
        const words = written[`${res.group}:${res.binding}`];
        if (words) outputs[res.name] = words;
      }
    return { outputs };
  } catch (e) {
    return { why: e instanceof Error ? e.message : String(e) };
  } finally {
    session.destroy();
  }
}

/** Words shown per output (the rest are counted, not shown). */
export const SHOWN_WORDS = 256;
