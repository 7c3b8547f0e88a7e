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

/** Screen pixels a target texel takes in the Run pane's images. */
export const IMAGE_SCALE = 16;

/**
 * A pixel program's target as opaque RGB8 for display (the alpha component stays in the words): a
 * float output's first three components clamped to [0, 1] and scaled to 0..255, rounded (NaN 0); an
 * integer output's low 8 bits; absent components 0. Undefined for an output that is not a colour target.
 */
export function targetRgba8(
  p: LiftedProgram,
  name: string,
  words: Uint32Array,
): Uint8ClampedArray<ArrayBuffer> | undefined {
  const c = colourOutputs(p).find((x) => `target ${x.location}` === name);
  if (!c || words.length !== RUN_SIZE.width * RUN_SIZE.height * c.width) return undefined;
  const f = new Float32Array(words.buffer, words.byteOffset, words.length);
  const out = new Uint8ClampedArray(RUN_SIZE.width * RUN_SIZE.height * 4);
  for (let i = 0; i < RUN_SIZE.width * RUN_SIZE.height; i++)
    for (let k = 0; k < 4; k++) {
      if (k === 3) out[i * 4 + k] = 255;
      else if (k >= c.width) out[i * 4 + k] = 0;
      else if (c.scalar === 'f32') {
        const v = f[i * c.width + k]!;
        out[i * 4 + k] = Number.isNaN(v) ? 0 : Math.round(Math.min(1, Math.max(0, v)) * 255);
      } else out[i * 4 + k] = words[i * c.width + k]! & 0xff;
    }
  return out;
}

/** The target as an image (a canvas of 8x8 texels, each IMAGE_SCALE pixels), labelled with who drew it. */
export function targetImage(p: LiftedProgram, name: string, words: Uint32Array, by: string): HTMLElement | undefined {
  const rgba = targetRgba8(p, name, words);
  if (!rgba) return undefined;
  const { width, height } = RUN_SIZE;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.dataset['by'] = by;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${name} drawn by the ${by}`);
  canvas.style.width = `${width * IMAGE_SCALE}px`;
  canvas.style.height = `${height * IMAGE_SCALE}px`;
  canvas.style.imageRendering = 'pixelated';
  canvas.getContext('2d')?.putImageData(new ImageData(rgba, width, height), 0, 0);
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  caption.textContent = `${name}, ${by}`;
  figure.append(canvas, caption);
  return figure;
}
