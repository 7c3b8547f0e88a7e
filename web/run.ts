// The inspector's Run view: a lifted compute or pixel program run with the seeded inputs of
// `iridia run --seed S` (src/exec/seed.ts: every resource and varying from the seed and its register),
// some of them edited in the page (RunInputs: a constant buffer's words, a texture's texels from a
// picked image), on the CPU executor (src/exec) and on the browser's WebGPU (src/gpu's openGpu over
// navigator.gpu, the bindings seededGpuBindings and, for a pixel program, the render job
// seededPixelJob give the CLI's --gpu), word by word beside the executor's, differences marked; both
// are given the same bindings (runBindings). Without WebGPU the page says so and shows the
// executor's result.

import type { LiftedProgram } from '../src/index.js';
import {
  runCompute,
  runPixel,
  nearestClampSampler,
  seedBindings,
  seedVaryings,
  type SeededBindings,
  type SeededResource,
} from '../src/exec/index.js';
import { openGpu } from '../src/gpu/session.js';
import { colourOutputs, seededGpuBindings, seededPixelJob, targetComponents } from '../src/gpu/seeded.js';
import { emitWgsl } from '../src/wgsl/index.js';

/** The size of a seeded run, as `iridia run --seed` defaults it (SEEDED_DEFAULTS). */
export const RUN_SIZE = { workgroups: [1, 1, 1] as [number, number, number], width: 8, height: 8 };

/** Each output of a run: its name (the Direct3D register, or `target N`: the output's components a pixel) and its words. */
export type RunOutputs = Record<string, Uint32Array>;

/** An image picked for a texture: its texels row by row, 4 bytes (R, G, B, A) each. */
export interface PickedImage {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array | Uint8ClampedArray;
}

/** The inputs of a run: the seed, and what the page edited over the seeded ones. */
export interface RunInputs {
  readonly seed: number;
  /** A constant buffer's words by Direct3D name ("cb0"), in place of its seeded words (as many). */
  readonly constants?: Readonly<Record<string, Uint32Array>>;
  /** A 2D texture's texels by Direct3D name ("t0", "u1"), from a picked image (sized as the image). */
  readonly images?: Readonly<Record<string, PickedImage>>;
}

/** The most texels a picked image may have (1024 x 1024): its words are allocated from its size. */
export const MAX_IMAGE_TEXELS = 1 << 20;

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const f32Bits = (x: number): number => {
  F32[0] = x;
  return U32[0]!;
};

/** Whether a picked image can stand for this resource: a 2D texture of one layer (sampled, depth or storage). */
export function takesImage(r: SeededResource): boolean {
  return (r.kind === 'texture' || r.kind === 'storage-texture') && r.texture!.view === '2d' && r.texture!.layers === 1;
}

/**
 * An image's texels as a texture's words, in its view's format: a float view (sampled f32,
 * rgba32float / r32float storage) the channels' unorm values c / 255 as f32; an integer view the
 * channel bytes 0..255; a depth texture (depth32float) the red channel's c / 255. `perTexel` words a
 * texel (1: red only); `four` also gives the executor's 4 words a texel.
 */
export function imageWords(r: SeededResource, img: PickedImage): { words: Uint32Array; four: Uint32Array } {
  const t = r.texture!;
  const texels = img.width * img.height;
  if (!Number.isInteger(img.width) || !Number.isInteger(img.height) || img.width < 1 || img.height < 1)
    throw new RangeError(`an image of ${img.width} x ${img.height} texels`);
  if (texels > MAX_IMAGE_TEXELS)
    throw new RangeError(`${r.name}: the image has ${texels} texels, more than ${MAX_IMAGE_TEXELS}`);
  if (img.rgba.length !== texels * 4) throw new RangeError(`${r.name}: ${img.rgba.length} bytes for ${texels} texels`);
  const c = t.image.class;
  const float =
    c.kind === 'depth' ||
    (c.kind === 'sampled' && c.scalar === 'f32') ||
    (c.kind === 'storage' && c.format.endsWith('float'));
  const per = t.perTexel;
  const words = new Uint32Array(texels * per);
  const four = new Uint32Array(texels * 4);
  for (let i = 0; i < texels; i++)
    for (let k = 0; k < per; k++) {
      const b = img.rgba[i * 4 + k]!;
      const w = float ? f32Bits(b / 255) : b;
      words[i * per + k] = w;
      four[i * 4 + k] = w;
    }
  return { words, four };
}

/**
 * The bindings of a run: seedBindings(p, seed), then each edited constant buffer's words and each
 * picked image's texels in place of the seeded ones. The executor and WebGPU are both given these.
 */
export function runBindings(p: LiftedProgram, inputs: RunInputs): SeededBindings {
  const b = seedBindings(p, inputs.seed);
  const constants = inputs.constants ?? {};
  const images = inputs.images ?? {};
  for (const name of [...Object.keys(constants), ...Object.keys(images)])
    if (!b.resources.some((r) => r.name === name)) throw new RangeError(`the program binds no ${name}`);
  const resources = b.resources.map((r): SeededResource => {
    const words = constants[r.name];
    if (words && r.kind === 'uniform') {
      if (words.length !== r.words!.length)
        throw new RangeError(`${r.name} holds ${r.words!.length} words, not ${words.length}`);
      const copy = words.slice();
      b.buffers[r.key] = copy;
      return { ...r, words: copy };
    }
    if (words) throw new RangeError(`${r.name} is not a constant buffer`);
    const img = images[r.name];
    if (!img) return r;
    if (!takesImage(r))
      throw new RangeError(`${r.name} is not a 2D texture of one layer: an image cannot stand for it`);
    const w = imageWords(r, img);
    b.textures[r.key] = { width: img.width, height: img.height, depthOrLayers: 1, levels: [w.four] };
    return { ...r, words: w.words, texture: { ...r.texture!, width: img.width, height: img.height } };
  });
  return { ...b, resources };
}

/** A writable resource's words after the executor's run: a storage texture's `perTexel` words of each texel (as the CLI prints them). */
function writtenWords(b: SeededBindings, r: SeededResource): Uint32Array | undefined {
  if (r.kind === 'storage') return b.buffers[r.key];
  const four = b.textures[r.key]?.levels[0];
  if (!four) return undefined;
  const per = r.texture!.perTexel;
  const out = new Uint32Array((four.length / 4) * per);
  for (let i = 0; i < four.length / 4; i++) for (let k = 0; k < per; k++) out[i * per + k] = four[i * 4 + k]!;
  return out;
}

/** What the executor gives for a run: each writable resource, and a pixel program's targets. */
export function executorRun(p: LiftedProgram, inputs: RunInputs): RunOutputs {
  const b = runBindings(p, inputs);
  const base = {
    buffers: b.buffers,
    textures: b.textures,
    sample: nearestClampSampler(b.textures, { views: b.views, compare: b.compare }),
  };
  const out: RunOutputs = {};
  if (p.stage === 'compute') runCompute(p, { ...base, workgroups: RUN_SIZE.workgroups });
  else if (p.stage === 'pixel') {
    const { width, height } = RUN_SIZE;
    const r = runPixel(p, { ...base, width, height, inputs: seedVaryings(p, inputs.seed, width * height, false) });
    // As `iridia run --seed` prints them: the output's components of each pixel.
    for (const c of colourOutputs(p)) {
      const four = r.targets[c.location];
      if (four) out[`target ${c.location}`] = targetComponents(four, c.width);
    }
  } else throw new Error(`the page runs compute and pixel programs, not ${p.stage} ones`);
  for (const r of b.resources) {
    if (!r.writable) continue;
    const words = writtenWords(b, r);
    if (words) out[r.name] = words;
  }
  return out;
}

/**
 * The same run on WebGPU; undefined (with why) when the browser has no WebGPU. A compute program's
 * storage buffers and storage textures (the format's words a texel), a pixel program's colour
 * targets: the 8x8 target drawn as one full-screen triangle with the run's constant varyings, read
 * back texel by texel, and its storage buffers and textures.
 */
export async function webgpuRun(
  p: LiftedProgram,
  inputs: RunInputs,
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
    const b = runBindings(p, inputs);
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
      const varyings = seedVaryings(p, inputs.seed, 1, false);
      const { job, outputs: colours } = seededPixelJob(
        p,
        code,
        bindings,
        RUN_SIZE,
        (location) => varyings[location],
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
      if (res.writable && (res.kind === 'storage' || res.kind === 'storage-texture')) {
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

/** Screen pixels a texel takes in the Run pane's images (a larger image is drawn at most IMAGE_MAX_PX wide). */
export const IMAGE_SCALE = 16;
export const IMAGE_MAX_PX = 256;

/** How an output's words make an image: its size, words a texel and whether they are floats. */
export interface ImageShape {
  readonly width: number;
  readonly height: number;
  readonly per: number;
  readonly float: boolean;
}

/**
 * The outputs of a run that are images: a pixel program's colour targets (RUN_SIZE, the output's
 * components a pixel) and each writable 2D storage texture (its size, its format's words a texel;
 * an array's first layer), by output name.
 */
export function imageShapes(p: LiftedProgram, inputs: RunInputs): Record<string, ImageShape> {
  const out: Record<string, ImageShape> = {};
  for (const c of colourOutputs(p))
    out[`target ${c.location}`] = { ...RUN_SIZE, per: c.width, float: c.scalar === 'f32' };
  for (const r of runBindings(p, inputs).resources) {
    const t = r.texture;
    if (r.kind !== 'storage-texture' || !r.writable || !t || t.view !== '2d' || t.image.class.kind !== 'storage')
      continue;
    out[r.name] = { width: t.width, height: t.height, per: t.perTexel, float: t.image.class.format.endsWith('float') };
  }
  return out;
}

/**
 * An image output as opaque RGB8 for display (the alpha component stays in the words): float words'
 * first three components clamped to [0, 1] and scaled to 0..255, rounded (NaN 0); integer words' low
 * 8 bits; absent components 0. Undefined when the words are too few for the shape.
 */
export function imageRgba8(shape: ImageShape, words: Uint32Array): Uint8ClampedArray<ArrayBuffer> | undefined {
  const { width, height, per } = shape;
  const texels = width * height;
  if (words.length < texels * per) return undefined;
  const f = new Float32Array(words.buffer, words.byteOffset, words.length);
  const out = new Uint8ClampedArray(texels * 4);
  for (let i = 0; i < texels; i++)
    for (let k = 0; k < 4; k++) {
      if (k === 3) out[i * 4 + k] = 255;
      else if (k >= per) out[i * 4 + k] = 0;
      else if (shape.float) {
        const v = f[i * per + k]!;
        out[i * 4 + k] = Number.isNaN(v) ? 0 : Math.round(Math.min(1, Math.max(0, v)) * 255);
      } else out[i * 4 + k] = words[i * per + k]! & 0xff;
    }
  return out;
}

/** An image output (a canvas of its texels, each IMAGE_SCALE pixels at most), labelled with who drew it. */
export function outputImage(shape: ImageShape, name: string, words: Uint32Array, by: string): HTMLElement | undefined {
  const rgba = imageRgba8(shape, words);
  if (!rgba) return undefined;
  const { width, height } = shape;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.dataset['by'] = by;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${name} drawn by the ${by}`);
  const scale = Math.max(1, Math.min(IMAGE_SCALE, Math.floor(IMAGE_MAX_PX / Math.max(width, height))));
  canvas.style.width = `${width * scale}px`;
  canvas.style.height = `${height * scale}px`;
  canvas.style.imageRendering = 'pixelated';
  canvas.getContext('2d')?.putImageData(new ImageData(rgba, width, height), 0, 0);
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  caption.textContent = `${name}, ${by}`;
  figure.append(canvas, caption);
  return figure;
}
