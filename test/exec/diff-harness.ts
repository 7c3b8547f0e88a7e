// Differential runs: one lifted compute or pixel program, random inputs and buffers from a seed, run
// on the executor and, through the emitted WGSL, on Dawn (test/helpers/webgpu.ts); every output word
// compared. Pixel programs get their varyings from a vertex shader made here (a full-screen triangle
// whose corners carry random values with the fragment inputs' interpolation); a first GPU pass
// captures what the rasterizer interpolated for every pixel and those words are the executor's
// inputs, so both sides run the same program on the same bits. Sampling is nearest with
// clamp-to-edge on one mip level on both sides (the executor's callback is src/exec/sampler.ts, told
// each texture's view and each comparison sampler's function). Depth textures with comparison
// samplers, cube textures and cube arrays, and SM5.1 binding arrays (element by element) are bound;
// multisampled textures are not.

import { emitWgsl } from '../../src/wgsl/index.js';
import { lift } from '../../src/lift/lift.js';
import type { Program } from '../../src/ir/program.js';
import type { Binding, Module, Type } from '../../src/ir/ir.js';
import {
  runCompute as execCompute,
  runPixel as execPixel,
  nearestClampSampler,
  RaceDetector,
  traceAccesses,
  type ExecTexture,
  type CompareFunction,
  type TextureView,
} from '../../src/exec/index.js';
import { runCompute as gpuCompute, runPixel as gpuPixel } from '../helpers/webgpu.js';
import type { GpuBinding, TextureSpec } from '../../src/gpu/types.js';

/** What a comparison counted: every output the program writes, each with the words compared. */
export interface Compared {
  /** Words compared, all outputs together. */
  words: number;
  /** Each output (a storage buffer or image by 'group:binding', SV_TargetN, SV_Depth) and its words. */
  outputs: Array<{ name: string; words: number }>;
  differing: number;
  /** The first differing word, named. */
  first: string;
  /** The largest difference of a differing word pair in units in the last place, read as f32 (the
   * distance of the two words on the ordered line of floats; Infinity when one is a NaN). */
  maxUlp: number;
  /** Every differing pair is +0 and -0. */
  zeroSign: boolean;
}

/** agree: every output compared, at least one word each, none differs. differ: some word differs.
 * fail: an output the program writes came back missing or short from one side, or could not be
 * compared (never an agreement). skip: the program could not be run on one side (reason). */
export type Verdict =
  | ({ kind: 'agree' } & Compared)
  | ({ kind: 'differ' } & Compared)
  | { kind: 'fail'; reason: string }
  | { kind: 'skip'; reason: string };

/** A small deterministic generator (xorshift32). */
export class Rng {
  private s: number;
  constructor(
    seed: number,
    /** Every random word and integer varying below 3 (an index into any resource range in range). */
    readonly small = false,
  ) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  int(n: number): number {
    return this.next() % n;
  }
  /** A word that is a plausible value read as u32, i32 or f32: small integers, moderate floats. */
  word(): number {
    if (this.small) return this.int(3);
    const r = this.int(10);
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    if (r < 3) return this.int(16);
    if (r < 8) f[0] = (this.int(257) - 128) / 16;
    else f[0] = ((this.next() / 0xffffffff) * 2 - 1) * 1000;
    return u[0]!;
  }
  floatWord(): number {
    const f = new Float32Array(1);
    f[0] = (this.int(257) - 128) / 32;
    return new Uint32Array(f.buffer)[0]!;
  }
  words(n: number): Uint32Array {
    const a = new Uint32Array(n);
    for (let i = 0; i < n; i++) a[i] = this.word();
    return a;
  }
}

const TEX = 8;

function typeAt(m: Module, id: number): Type {
  return m.types[id]!;
}

function wgslType(m: Module, t: Type): string {
  if (t.kind === 'scalar') return t.scalar;
  if (t.kind === 'vector') return `vec${t.size}<${t.scalar}>`;
  throw new Error(`no WGSL for a ${t.kind} varying`);
}

function widthOf(t: Type): number {
  return t.kind === 'vector' ? t.size : 1;
}

function scalarOf(t: Type): string {
  return t.kind === 'vector' || t.kind === 'scalar' ? t.scalar : 'u32';
}

function attr(b: Binding): string {
  if (b.kind === 'builtin') return `@builtin(${b.builtin})`;
  const interp = b.interpolation ? ` @interpolate(${b.interpolation}${b.sampling ? `, ${b.sampling}` : ''})` : '';
  return `@location(${b.location})${interp}`;
}

export interface Bound {
  gpu: GpuBinding[];
  buffers: Record<string, Uint32Array>;
  textures: Record<string, ExecTexture>;
  /** How the executor's sampling callback addresses each texture (cube, 3D, 1D; default 2D). */
  views: Record<string, TextureView>;
  /** Each comparison sampler's function, by the executor's key. */
  compare: Record<string, CompareFunction>;
  /** Outputs to compare: the GPU's readback key and how to read the executor's words in its layout. */
  outputs: Array<{ key: string; exec: () => Uint32Array }>;
}

/** The comparison function of every comparison sampler bound (Direct3D keeps it in the sampler state,
 * WebGPU in the sampler descriptor; the lifted WGSL does not depend on it). With depths in (0, 1) and
 * nearest filtering each result is exactly 0 or 1. */
export const COMPARE: CompareFunction = 'less-equal';

/** A random depth in (0, 1) with 24 random bits: exact in depth32float, and a reference computed by a
 * program from its inputs is unlikely to equal one exactly. */
function depthWord(rng: Rng): number {
  const f = new Float32Array(1);
  f[0] = ((rng.next() >>> 8) | 1) / 0x1000000;
  return new Uint32Array(f.buffer)[0]!;
}

/** Binds every resource of the module with random contents; a string: a resource the harness cannot
 * bind. A binding array of N elements (SM5.1 resource ranges) is N resources: on the GPU at N
 * consecutive bindings from the array's own (how the emitter's binding-arrays pass writes them as
 * separate globals), on the executor under 'group:binding:k'. */
export function bindAll(m: Module, rng: Rng): Bound | string {
  const b: Bound = { gpu: [], buffers: {}, textures: {}, views: {}, compare: {}, outputs: [] };
  for (const g of m.globals) {
    if (!g.binding) continue;
    const t = typeAt(m, g.type);
    if (t.kind === 'binding_array') {
      if (t.size === null) return `unsized binding array ${g.name}`;
      for (let k = 0; k < t.size; k++) {
        const at = { group: g.binding.group, binding: g.binding.binding + k };
        const why = bindOne(g, typeAt(m, t.base), at, `${g.binding.group}:${g.binding.binding}:${k}`, rng, b);
        if (why) return why;
      }
      continue;
    }
    const at = { group: g.binding.group, binding: g.binding.binding };
    const why = bindOne(g, t, at, `${at.group}:${at.binding}`, rng, b);
    if (why) return why;
  }
  return b;
}

/** Binds one resource of type `t` at `at` on the GPU and under `key` on the executor; a string: why not. */
function bindOne(
  g: Module['globals'][number],
  t: Type,
  at: { group: number; binding: number },
  key: string,
  rng: Rng,
  b: Bound,
): string | undefined {
  const gpuKey = `${at.group}:${at.binding}`;
  if (g.space === 'uniform') {
    const rows = t.kind === 'array' && t.length !== null ? t.length : 16;
    const words = rng.words(Math.max(4, rows * 4));
    b.buffers[key] = words;
    b.gpu.push({ ...at, type: 'uniform', words: words.slice() });
  } else if (g.space === 'storage') {
    const words = rng.words(256);
    b.buffers[key] = words;
    const readOnly = g.access !== 'read_write';
    b.gpu.push({ ...at, type: 'storage', words: words.slice(), readOnly });
    if (!readOnly) b.outputs.push({ key: gpuKey, exec: () => words });
  } else if (g.space === 'handle') {
    if (t.kind === 'sampler') {
      b.gpu.push({
        ...at,
        type: 'sampler',
        sampler: {
          magFilter: 'nearest',
          minFilter: 'nearest',
          addressModeU: 'clamp-to-edge',
          addressModeV: 'clamp-to-edge',
          addressModeW: 'clamp-to-edge',
          ...(t.comparison ? { compare: COMPARE } : {}),
        },
        ...(t.comparison ? { comparison: true } : {}),
      });
      if (t.comparison) b.compare[key] = COMPARE;
      return undefined;
    }
    if (t.kind !== 'image') return `handle ${g.name} of kind ${t.kind}`;
    if (t.class.kind !== 'storage' && t.class.multisampled) return `multisampled texture ${g.name}`;
    const cube = t.dim === 'cube';
    const layers = cube ? (t.arrayed ? 12 : 6) : t.arrayed ? 2 : t.dim === '3d' ? 4 : 1;
    const height = t.dim === '1d' ? 1 : TEX;
    const texels = TEX * height * layers;
    const dimension = t.dim === '3d' ? '3d' : t.dim === '1d' ? '1d' : '2d';
    const viewDimension: GPUTextureViewDimension = cube
      ? t.arrayed
        ? 'cube-array'
        : 'cube'
      : t.arrayed
        ? '2d-array'
        : dimension;
    if (cube) b.views[key] = 'cube';
    else if (t.dim === '3d') b.views[key] = '3d';
    else if (t.dim === '1d') b.views[key] = '1d';
    const shape = { dimension, viewDimension, width: TEX, height, depthOrLayers: layers } as const;
    if (t.class.kind === 'depth') {
      // depth32float: one word a texel on the GPU; the executor's texel keeps it in its first word.
      const words = new Uint32Array(texels).map(() => depthWord(rng));
      b.gpu.push({ ...at, type: 'texture', texture: { format: 'depth32float', ...shape, words } });
      const four = new Uint32Array(texels * 4);
      for (let i = 0; i < texels; i++) four[i * 4] = words[i]!;
      b.textures[key] = { width: TEX, height, depthOrLayers: layers, levels: [four] };
    } else if (t.class.kind === 'sampled') {
      const format = t.class.scalar === 'f32' ? 'rgba32float' : t.class.scalar === 'i32' ? 'rgba32sint' : 'rgba32uint';
      const words =
        t.class.scalar === 'f32' ? new Uint32Array(texels * 4).map(() => rng.floatWord()) : rng.words(texels * 4);
      const spec: TextureSpec = { format, ...shape, words };
      b.gpu.push({ ...at, type: 'texture', texture: spec });
      b.textures[key] = { width: TEX, height, depthOrLayers: layers, levels: [words.slice()] };
    } else {
      const format = t.class.format;
      const r32 = format.startsWith('r32');
      const per = r32 ? 1 : 4;
      if (!(r32 || format.startsWith('rgba32'))) return `storage image format ${format}`;
      if (cube) return `cube storage image ${g.name}`;
      const words = rng.words(texels * per);
      const spec: TextureSpec = { format, ...shape, words };
      const access = t.class.access === 'read' ? 'read-only' : t.class.access === 'write' ? 'write-only' : 'read-write';
      b.gpu.push({ ...at, type: 'storage-texture', texture: spec, access });
      const four = new Uint32Array(texels * 4);
      for (let i = 0; i < texels; i++) for (let k = 0; k < per; k++) four[i * 4 + k] = words[i * per + k]!;
      b.textures[key] = { width: TEX, height, depthOrLayers: layers, levels: [four] };
      if (access !== 'read-only')
        b.outputs.push({
          key: gpuKey,
          exec: () => {
            const out = new Uint32Array(texels * per);
            for (let i = 0; i < texels; i++) for (let k = 0; k < per; k++) out[i * per + k] = four[i * 4 + k]!;
            return out;
          },
        });
    }
  }
  return undefined;
}

/** Nearest, clamp-to-edge, level 0, each texture addressed as bound and each comparison sampler
 * with its function: what the GPU's samplers above do. */
function nearestSampler(b: Bound) {
  return nearestClampSampler(b.textures, { views: b.views, compare: b.compare });
}

export function isNaNWord(w: number): boolean {
  return (w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0;
}

/** The position of an f32 word on the ordered line of floats (-0 and +0 both at 0). */
function ordered(w: number): number {
  return w >= 0x80000000 ? -(w & 0x7fffffff) : w;
}

/** Units in the last place between two words read as f32; Infinity when one (not both) is a NaN. */
export function ulpDistance(a: number, b: number): number {
  if (isNaNWord(a) || isNaNWord(b)) return isNaNWord(a) && isNaNWord(b) ? 0 : Infinity;
  return Math.abs(ordered(a >>> 0) - ordered(b >>> 0));
}

function newCompared(): Compared & { problems: string[] } {
  return { words: 0, outputs: [], differing: 0, first: '', maxUlp: 0, zeroSign: true, problems: [] };
}

/** Compares one output word by word. Both sides must hold it at the same length, at least one word:
 * anything else is a problem (a missing or short output compares nothing, and is never agreement). */
function compare(
  name: string,
  exec: Uint32Array | undefined,
  gpu: Uint32Array | undefined,
  acc: Compared & { problems: string[] },
): void {
  if (exec === undefined || gpu === undefined) {
    acc.problems.push(`${name}: no output from ${exec === undefined ? 'the executor' : 'Dawn'}`);
    return;
  }
  if (exec.length !== gpu.length || exec.length === 0) {
    acc.problems.push(`${name}: ${exec.length} words from the executor, ${gpu.length} from Dawn`);
    return;
  }
  acc.outputs.push({ name, words: exec.length });
  for (let i = 0; i < exec.length; i++) {
    acc.words++;
    const a = exec[i]!;
    const g = gpu[i]!;
    if (a === g || (isNaNWord(a) && isNaNWord(g))) continue;
    acc.differing++;
    acc.maxUlp = Math.max(acc.maxUlp, ulpDistance(a, g));
    if ((a | g) >>> 0 !== 0x80000000 || (a & g) !== 0) acc.zeroSign = false;
    if (!acc.first) acc.first = `${name}[${i}]: executor 0x${a.toString(16)}, Dawn 0x${g.toString(16)}`;
  }
}

/** The verdict of a comparison: fail on a problem or when nothing was compared. */
function verdictOf(acc: Compared & { problems: string[] }): Verdict {
  if (acc.problems.length) return { kind: 'fail', reason: `outputs not compared: ${acc.problems.join('; ')}` };
  if (acc.outputs.length === 0) return { kind: 'skip', reason: 'no output to compare (the program writes none)' };
  const { problems: _, ...c } = acc;
  return c.differing ? { kind: 'differ', ...c } : { kind: 'agree', ...c };
}

/** The verdict on a list of outputs, each as the executor and Dawn gave it (undefined: missing). */
export function compareOutputs(
  outputs: ReadonlyArray<{ name: string; exec: Uint32Array | undefined; gpu: Uint32Array | undefined }>,
): Verdict {
  const acc = newCompared();
  for (const o of outputs) compare(o.name, o.exec, o.gpu, acc);
  return verdictOf(acc);
}

/** A vertex shader feeding a fragment function's location inputs (random values at the corners of a
 * full-screen triangle, same interpolation), and the capture statements writing each argument's words. */
export function pixelVertex(
  m: Module,
  f: Module['functions'][number],
  rng: Rng,
): {
  vertexCode: string;
  captures: string[];
  slots: Array<{ binding: Binding; slot: number; w: number }>;
  stride: number;
} {
  // The vertex shader: each location the fragment reads, with per-corner random values.
  const members: string[] = ['@builtin(position) pos: vec4<f32>'];
  const assigns: string[] = [];
  const captures: string[] = [];
  const slots: Array<{ binding: Binding; slot: number; w: number }> = [];
  let slot = 0;
  for (const a of f.args) {
    const t = typeAt(m, a.type);
    const b = a.binding!;
    const w = widthOf(t);
    const s = scalarOf(t);
    if (b.kind === 'location') {
      members.push(`${attr(b)} v${b.location}: ${wgslType(m, t)}`);
      const corner = (): string => {
        const vals = Array.from({ length: w }, () => {
          if (s === 'f32') return `${(rng.int(257) - 128) / 16}`;
          if (s === 'i32') return `${rng.int(64) - 32}i`;
          return `${rng.int(rng.small ? 3 : 64)}u`;
        });
        return w === 1 ? vals[0]! : `${wgslType(m, t)}(${vals.join(', ')})`;
      };
      assigns.push(`o.v${b.location} = select(select(${corner()}, ${corner()}, i == 1u), ${corner()}, i == 2u);`);
    }
    const bits = (e: string) =>
      s === 'u32' ? e : s === 'bool' ? `u32(${e})` : `bitcast<${w === 1 ? 'u32' : `vec${w}<u32>`}>(${e})`;
    const name = `a${slots.length}`;
    for (let k = 0; k < w; k++) captures.push(`cap[base + ${slot + k}u] = ${bits(name)}${w > 1 ? `[${k}]` : ''};`);
    slots.push({ binding: b, slot, w });
    slot += 4;
  }
  const stride = Math.max(4, slot);
  const vertexCode = `struct VOut { ${members.join(', ')} }
@vertex fn iridia_vs(@builtin(vertex_index) i: u32) -> VOut {
  var o: VOut;
  o.pos = vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.5, 1.0);
  ${assigns.join('\n  ')}
  return o;
}
`;
  return { vertexCode, captures, slots, stride };
}

/** Compute: one dispatch of 2 thread groups. */
export interface DiffOptions {
  /** Small words only (Rng.small): every computed resource index in range. */
  readonly small?: boolean;
}

/**
 * Class interfaces (Program.interface.classLinkage): random words in the `iface` uniform would name
 * no function table, and every fcall would call nothing. Each slot gets one of its interface's
 * tables instead, and `this` data naming a declared constant buffer (its first rows), texture 0 and
 * sampler 0, from a generator of its own (the other bindings keep their words).
 */
export function bindClassLinkage(p: Program, bound: Bound, seed: number): void {
  const l = p.interface.classLinkage;
  if (!l) return;
  const rng = new Rng(seed ^ 0x5bd1e995);
  const cbs = p.interface.resources.filter((r) => r.registerClass === 'b').map((r) => r.register);
  const words = new Uint32Array(l.slots * 8);
  for (let s = 0; s < l.slots; s++) {
    const d = l.interfaces.find((x) => x.fp <= s && s < x.fp + x.arraySize);
    const tables = d?.tables ?? [];
    words[(l.slots + s) * 4] = tables.length ? tables[rng.int(tables.length)]! : 0xffffffff;
    words[s * 4] = cbs.length ? cbs[rng.int(cbs.length)]! : 0;
    words[s * 4 + 1] = rng.int(2);
  }
  const key = `${l.group}:${l.binding}`;
  bound.buffers[key] = words;
  const at = bound.gpu.findIndex((g) => g.group === l.group && g.binding === l.binding);
  if (at >= 0) bound.gpu[at] = { group: l.group, binding: l.binding, type: 'uniform', words: words.slice() };
}

export async function diffCompute(p: Program, seed: number, options: DiffOptions = {}): Promise<Verdict> {
  const m = p.module;
  const bound = bindAll(m, new Rng(seed, options.small));
  if (typeof bound === 'string') return { kind: 'skip', reason: bound };
  bindClassLinkage(p, bound, seed);
  lastBound = bound;
  const workgroups: [number, number, number] = [2, 1, 1];
  const gpu = await gpuCompute({ code: emitWgsl(p), workgroups, bindings: bound.gpu });
  if (!gpu.ok) return { kind: 'skip', reason: `Dawn: ${gpu.stage}: ${gpu.messages[0] ?? ''}` };
  execCompute(p, {
    workgroups,
    buffers: bound.buffers,
    textures: bound.textures,
    sample: nearestSampler(bound),
    denormals: 'flush',
    budget: 1 << 18,
  });
  const acc = newCompared();
  for (const o of bound.outputs) compare(o.key, o.exec(), gpu.outputs[o.key], acc);
  return verdictOf(acc);
}

const W = 8;
const H = 8;

/**
 * The program as Dawn draws it: WebGPU has no 3-component 32-bit colour format and Dawn refuses a
 * 3-lane output into a 4-lane target, so each 3-lane colour output of the fragment function's result
 * struct is widened to 4 lanes (the struct's member a vec4, and every value built for it the vec3
 * and a zero). The harness compares its three lanes; the executor runs the program as lifted.
 * Returns the program unchanged when it has no 3-lane output.
 */
export function widenThreeLaneTargets(p: Program): Program {
  const m = p.module;
  const ep = m.entryPoints.find((e) => e.stage === 'fragment');
  if (!ep) return p;
  const f = m.functions[ep.function]!;
  if (!f.result) return p;
  const st = m.types[f.result.type]!;
  if (st.kind !== 'struct') return p;
  const wide = st.members.map((mem) => {
    const t = m.types[mem.type]!;
    return mem.binding?.kind === 'location' && t.kind === 'vector' && t.size === 3 ? t.scalar : undefined;
  });
  if (wide.every((w) => w === undefined)) return p;
  const types = [...m.types];
  const typeId = (t: Type): number => {
    const i = types.findIndex((x) => JSON.stringify(x) === JSON.stringify(t));
    if (i >= 0) return i;
    types.push(t);
    return types.length - 1;
  };
  const members = st.members.map((mem, i) =>
    wide[i] ? { ...mem, type: typeId({ kind: 'vector', scalar: wide[i], size: 4 }) } : mem,
  );
  const structId = types.length;
  types.push({ ...st, members });
  // Expressions name only earlier ones: each widened value is appended, and the returns that named
  // the old struct value name the new one.
  const exprs = [...f.exprs];
  const moved = new Map<number, number>();
  for (let e = 0; e < f.exprs.length; e++) {
    const x = f.exprs[e]!;
    if (x.op === 'zero' && x.type === f.result.type) exprs[e] = { op: 'zero', type: structId };
    if (x.op !== 'compose' || x.type !== f.result.type) continue;
    const parts = x.parts.map((part, i) => {
      const s = wide[i];
      if (!s) return part;
      exprs.push({ op: 'literal', scalar: s, bits: 0 });
      exprs.push({ op: 'compose', type: members[i]!.type, parts: [part, exprs.length - 1] });
      return exprs.length - 1;
    });
    exprs.push({ op: 'compose', type: structId, parts });
    moved.set(e, exprs.length - 1);
  }
  const remap = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(remap);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = remap(x);
    if (o['op'] === 'return' && typeof o['value'] === 'number' && moved.has(o['value']))
      out['value'] = moved.get(o['value']);
    return out;
  };
  const body = remap(f.body) as typeof f.body;
  const functions = m.functions.map((g, i) =>
    i === ep.function ? { ...g, exprs, body, result: { ...f.result!, type: structId } } : g,
  );
  return { ...p, module: { ...m, types, functions } };
}

/** Pixel: an 8x8 target, varyings from a full-screen triangle, every target word compared. */
export async function diffPixel(p: Program, seed: number, options: DiffOptions = {}): Promise<Verdict> {
  const m = p.module;
  const rng = new Rng(seed, options.small);
  const bound = bindAll(m, rng);
  if (typeof bound === 'string') return { kind: 'skip', reason: bound };
  bindClassLinkage(p, bound, seed);
  lastBound = bound;
  const ep = m.entryPoints.find((e) => e.stage === 'fragment')!;
  const f = m.functions[ep.function]!;
  const { vertexCode, captures, slots, stride } = pixelVertex(m, f, rng);
  const params = f.args.map((a, i) => `${attr(a.binding!)} a${i}: ${wgslType(m, typeAt(m, a.type))}`);
  const hasPos = f.args.some((a) => a.binding?.kind === 'builtin' && a.binding.builtin === 'position');
  const captureCode = `${vertexCode}
@group(0) @binding(0) var<storage, read_write> cap: array<u32>;
@fragment fn iridia_capture(${[...params, ...(hasPos ? [] : ['@builtin(position) iridia_pos: vec4<f32>'])].join(', ')}) -> @location(0) vec4<f32> {
  let p = ${hasPos ? `a${f.args.findIndex((a) => a.binding?.kind === 'builtin' && a.binding.builtin === 'position')}` : 'iridia_pos'};
  let base = (u32(p.y) * ${W}u + u32(p.x)) * ${stride}u;
  ${captures.join('\n  ')}
  return vec4<f32>(0.0);
}
`;
  const cap = await gpuPixel({
    code: captureCode,
    width: W,
    height: H,
    targets: [{ format: 'rgba8unorm' }],
    bindings: [{ group: 0, binding: 0, type: 'storage', words: new Uint32Array(W * H * stride) }],
  });
  if (!cap.ok) return { kind: 'skip', reason: `capture pass: ${cap.stage}: ${cap.messages[0] ?? ''}` };
  const captured = cap.outputs['0:0']!;
  const inputs: Record<number, Uint32Array> = {};
  for (const s of slots) {
    if (s.binding.kind !== 'location') continue;
    const arr = new Uint32Array(W * H * 4);
    for (let px = 0; px < W * H; px++)
      for (let k = 0; k < s.w; k++) arr[px * 4 + k] = captured[px * stride + s.slot + k]!;
    inputs[s.binding.location] = arr;
  }
  // Targets: one per output location, of the output's type.
  const res = f.result ? typeAt(m, f.result.type) : undefined;
  // w: the output's lanes; a 3-lane output is drawn into a 4-lane target (WebGPU has no 3-component
  // 32-bit format: widenThreeLaneTargets) and its three lanes compared.
  const outs: Array<{ location: number; format: GPUTextureFormat; w: number; lanes: number }> = [];
  let depth = false;
  const addOut = (t: Type, b: Binding | undefined) => {
    if (!b) return;
    if (b.kind === 'builtin') {
      if (b.builtin === 'frag_depth') depth = true;
      return;
    }
    const w = widthOf(t);
    const s = scalarOf(t);
    const base = s === 'f32' ? 'float' : s === 'i32' ? 'sint' : 'uint';
    const format = (w === 1 ? `r32${base}` : w === 2 ? `rg32${base}` : `rgba32${base}`) as GPUTextureFormat;
    outs.push({ location: b.location, format, w, lanes: w === 3 ? 4 : w });
  };
  if (res?.kind === 'struct') for (const mem of res.members) addOut(typeAt(m, mem.type), mem.binding);
  else if (res && f.result) addOut(res, f.result.binding);
  // WebGPU needs targets at consecutive slots: fill gaps with unused r32uint targets.
  const maxLoc = outs.reduce((x, o) => Math.max(x, o.location), -1);
  // A program with no colour output still needs an attachment to draw into.
  const targets = Array.from({ length: Math.max(maxLoc + 1, depth ? 0 : 1) }, (_, i) => {
    const o = outs.find((x) => x.location === i);
    if (!o) return { format: 'r32uint' as GPUTextureFormat, writeMask: 0 };
    return { format: o.format };
  });
  const gpu = await gpuPixel({
    code: emitWgsl(widenThreeLaneTargets(p)),
    vertexCode,
    width: W,
    height: H,
    targets,
    ...(depth ? { depth: { format: 'depth32float' as const } } : {}),
    fragmentOnlyBindings: true,
    bindings: bound.gpu,
  });
  if (!gpu.ok) return { kind: 'skip', reason: `Dawn: ${gpu.stage}: ${gpu.messages[0] ?? ''}` };
  const ex = execPixel(p, {
    width: W,
    height: H,
    inputs,
    buffers: bound.buffers,
    textures: bound.textures,
    sample: nearestSampler(bound),
    denormals: 'flush',
    budget: 1 << 18,
  });
  const acc = newCompared();
  /** The first `w` lanes of each texel of a target `lanes` words a texel. */
  const lanesOf = (t: Uint32Array | undefined, lanes: number, w: number): Uint32Array | undefined => {
    if (t === undefined || t.length !== W * H * lanes) return t;
    const out = new Uint32Array(W * H * w);
    for (let px = 0; px < W * H; px++) for (let k = 0; k < w; k++) out[px * w + k] = t[px * lanes + k]!;
    return out;
  };
  for (const o of outs) {
    const name = `SV_Target${o.location}`;
    compare(name, lanesOf(ex.targets[o.location], 4, o.w), lanesOf(gpu.targets[o.location], o.lanes, o.w), acc);
  }
  if (depth) {
    let d: Uint32Array | undefined;
    if (ex.depth) {
      const e = new Float32Array(W * H);
      // The depth written to a depth target is clamped to the viewport's range, [0, 1] here, by
      // Direct3D and WebGPU alike, and a denormal depth is taken as zero (the clamp is a min/max, whose
      // denormal result Direct3D's float rules allow to be flushed; SwiftShader stores 0): that is the
      // pipeline's, not the program's.
      for (let px = 0; px < W * H; px++) {
        const z = ex.written[px] ? Math.min(1, Math.max(0, ex.depth[px]!)) : 1;
        e[px] = z < 2 ** -126 ? 0 : z;
      }
      d = new Uint32Array(e.buffer);
    }
    const g = gpu.depth ? new Uint32Array(gpu.depth.buffer, gpu.depth.byteOffset, gpu.depth.length) : undefined;
    compare('SV_Depth', d, g, acc);
  }
  for (const o of bound.outputs) compare(o.key, o.exec(), gpu.outputs[o.key], acc);
  return verdictOf(acc);
}

/** Dawn's refusal of a bind group layout over the adapter's per-stage limits (SwiftShader: 12 uniform
 * buffers, 12 storage buffers, 8 storage textures, 16 samplers, 48 sampled textures per stage). */
export const OVER_LIMIT = /exceeds the maximum per-stage limit/;

/** Bindings given to an unbounded range when the lifter's default (16) is over the adapter's limits. */
export const UNBOUNDED_FALLBACK = 4;

/** One lifted program on both sides. WebGPU has no binding arrays: the emitter writes each element as a
 * binding of its own, so a program whose unbounded ranges put it over the adapter's per-stage limits
 * is lifted again from `bytes` with UNBOUNDED_FALLBACK bindings a range and run if that fits. */
export async function diffProgram(
  p: Program,
  bytes: Uint8Array,
  seed: number,
  options: DiffOptions = {},
): Promise<Verdict> {
  const run = (q: Program) => (q.stage === 'compute' ? diffCompute(q, seed, options) : diffPixel(q, seed, options));
  const v = await run(p);
  if (v.kind !== 'skip' || !OVER_LIMIT.test(v.reason)) return v;
  const v4 = await run(lift(bytes, { unboundedCount: UNBOUNDED_FALLBACK }));
  return v4.kind === 'skip' && OVER_LIMIT.test(v4.reason) ? v : v4;
}

/** One program's run as the differential tests list it: agreeing words (every output compared, at
 * least one word each), a data race, a failure (differing words, with their figures; an output not
 * compared; Dawn refusing the WGSL or a job that does not end; a throw), or a resource the harness
 * cannot bind (a harness limit, counted by `group`). */
export type Outcome =
  | { kind: 'agree'; words: number; outputs: Array<{ name: string; words: number }> }
  | { kind: 'race'; message: string; where: string }
  | {
      kind: 'fail';
      message: string;
      /** Differing words: their figures (undefined for a failure that compared nothing). */
      compared?: Compared;
      /** A figure a harness limit names (Dawn's workgroup size, a per-stage count). */
      limit?: number;
    }
  | { kind: 'unbound'; reason: string; group: string; limit?: number };

/** The memory a race's word lies in, named as the harness bound it ('buffer 0:1', 'image 3:2') or as
 * the program's own ('workgroup memory'). */
function memoryName(bound: Bound | undefined, mem: object | undefined): string {
  if (bound && mem) {
    for (const [k, v] of Object.entries(bound.buffers)) if (v === mem) return `buffer ${k}`;
    for (const [k, v] of Object.entries(bound.textures)) if (v.levels.includes(mem as Uint32Array)) return `image ${k}`;
  }
  return 'workgroup memory';
}

let lastBound: Bound | undefined;

/** The first number in a Dawn message after `text` (e.g. the workgroup size it refused). */
function numberAfter(message: string, text: RegExp): number | undefined {
  const m = text.exec(message);
  return m ? Number(m[1]) : undefined;
}

/**
 * diffProgram under the executor's access trace. A program whose threads or pixels race on memory
 * (src/exec/races.ts finds it on the executor's run, deterministically) is a race whether or not its
 * words agree this run: its result is the order the GPU happens to run them in. `where` names the
 * racing word: the memory (as bound) and the word's index.
 */
export async function diffTraced(
  p: Program,
  bytes: Uint8Array,
  seed: number,
  options: DiffOptions = {},
): Promise<Outcome> {
  const races = new RaceDetector();
  traceAccesses(races);
  lastBound = undefined;
  try {
    const v = await diffProgram(p, bytes, seed, options);
    if (races.first !== undefined && v.kind !== 'skip') {
      const verdict =
        v.kind === 'agree'
          ? `agrees this run (${v.words} words)`
          : v.kind === 'differ'
            ? `${v.differing}/${v.words} words differ`
            : v.reason;
      const where = `${memoryName(lastBound, races.firstMemory)} word ${races.firstWord}`;
      return { kind: 'race', where, message: `data race on ${where} (${races.first}); ${verdict}` };
    }
    if (v.kind === 'agree') return { kind: 'agree', words: v.words, outputs: v.outputs };
    if (v.kind === 'differ')
      return {
        kind: 'fail',
        message: `${v.differing}/${v.words} words differ (largest ${v.maxUlp} ULP${v.zeroSign ? ', all +0/-0' : ''}); first ${v.first}`,
        compared: v,
      };
    if (v.kind === 'fail') return { kind: 'fail', message: v.reason };
    const reason = v.reason.split('\n')[0]!;
    const overLimit = OVER_LIMIT.test(v.reason);
    if (!overLimit && (v.reason.startsWith('Dawn') || v.reason.startsWith('capture'))) {
      const size = /workgroup_size\((\d+), (\d+), (\d+)\) that exceeds/.exec(v.reason);
      const limit = size
        ? Number(size[1]) * Number(size[2]) * Number(size[3])
        : numberAfter(v.reason, /total number of workgroup invocations \((\d+)\)/);
      return { kind: 'fail', message: reason, ...(limit !== undefined ? { limit } : {}) };
    }
    const group = overLimit
      ? `adapter limit: ${v.reason.replace(/^.*?The number of ([a-z ]+) \(\d+\).*$/s, '$1')} per stage`
      : v.reason.replace(/ [a-z_]*\d+\b.*$/, '').slice(0, 60);
    const limit = overLimit ? numberAfter(v.reason, /The number of [a-z ]+ \((\d+)\)/) : undefined;
    return { kind: 'unbound', reason, group, ...(limit !== undefined ? { limit } : {}) };
  } catch (e) {
    return { kind: 'fail', message: `threw ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    traceAccesses(undefined);
  }
}
