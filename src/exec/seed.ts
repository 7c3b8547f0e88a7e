// Seeded inputs for a lifted program (`iridia run --seed S`): every resource the program declares,
// and its varyings, filled with words derived from a 32-bit seed and the resource's Direct3D
// identity — register class, register, space — never from the order of declarations or the WGSL
// binding numbers, so that a DXBC and a DXIL build of one HLSL source (which declare the same
// registers) are given the same bytes. docs/exec.md ("Seeded runs") describes the generator.
//
// The generator is counter-based: word i of the stream named N (a resource's identity, e.g.
// "u0,space0") under seed S is a function of (S, N, i) alone, so a resource's first words do not
// depend on its size (a constant buffer that one build declares with 3 rows and the other with 4
// shares its first 12 words), and the stream can be recomputed word by word by anyone:
//
//   h(x)     = the "lowbias32" integer hash: x ^= x >>> 16; x *= 0x7feb352d; x ^= x >>> 15;
//              x *= 0x846ca68b; x ^= x >>> 16 (32-bit wrapping multiplies)
//   fnv(N)   = FNV-1a (32-bit) of N's UTF-16 code units (ASCII here)
//   base     = h(h(S) ^ fnv(N))
//   raw(n)   = h((base + n) mod 2^32)
//   word i   = from raw(2i) (the choice) and raw(2i + 1) (the value v), by the stream's distribution
//              (the f32 of a value: the value rounded to the nearest float, as its bits):
//     'word'  : raw(2i) mod 10 < 3: v mod 16; < 8: the f32 (v mod 257 - 128) / 16; else
//               v / 2^32 * 2000 - 1000 computed in doubles, rounded to f32 — a word plausible as
//               u32, i32 and f32 alike
//     'float' : the f32 (v mod 257 - 128) / 32 (sampled float textures, float varyings)
//     'small' : v mod 16 (integer varyings)
//     'depth' : the f32 ((v >>> 8) | 1) / 2^24, in (0, 1) (depth textures)

import type { HiddenCounter, Program, Resource, Varying } from '../ir/program.js';
import type { Module, Type } from '../ir/ir.js';
import type { ExecTexture } from './values.js';
import type { CompareFunction, TextureView } from './sampler.js';

/** Texture width and height (a 1D texture is SEED_TEXTURE_SIZE x 1). */
export const SEED_TEXTURE_SIZE = 8;
/** Words given to every storage buffer (SRV and UAV buffers: typed, raw and structured). */
export const SEED_BUFFER_WORDS = 256;
/** Rows given to a constant buffer whose declared size is unknown. */
export const SEED_CONSTANT_ROWS = 16;
/** The domain points a domain program is run at: (u, v, w) — a tri's barycentrics, a quad's or an
 * isoline's (u, v) with w unused: the centre-ish point and the three corners. */
export const SEED_DOMAIN_POINTS: readonly (readonly [number, number, number])[] = [
  [0.25, 0.5, 0.25],
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
/** The value every UAV's hidden counter starts at (ir/program.ts HiddenCounter): an append from it
 * writes element 16 on, a consume reads element 15 down (both inside SEED_BUFFER_WORDS for the
 * strides of the corpus's counters). */
export const SEED_COUNTER = 16;
/** The comparison function of every comparison sampler (D3D keeps it in the sampler state). */
export const SEED_COMPARE: CompareFunction = 'less-equal';

export type SeedDistribution = 'word' | 'float' | 'small' | 'depth';

function h(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

function fnv(s: string): number {
  let x = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 0x01000193);
  return x >>> 0;
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const bits = (f: number): number => {
  F32[0] = f;
  return U32[0]!;
};

/** Words [from, from + count) of the stream `name` under `seed` (see the header for the definition). */
export function seededWords(
  seed: number,
  name: string,
  count: number,
  distribution: SeedDistribution = 'word',
  from = 0,
): Uint32Array {
  const base = h(h(seed >>> 0) ^ fnv(name));
  const raw = (n: number): number => h((base + n) >>> 0);
  const out = new Uint32Array(count);
  for (let j = 0; j < count; j++) {
    const i = from + j;
    const v = raw(2 * i + 1);
    switch (distribution) {
      case 'word': {
        const r = raw(2 * i) % 10;
        out[j] = r < 3 ? v % 16 : r < 8 ? bits(((v % 257) - 128) / 16) : bits((v / 0x100000000) * 2000 - 1000);
        break;
      }
      case 'float':
        out[j] = bits(((v % 257) - 128) / 32);
        break;
      case 'small':
        out[j] = v % 16;
        break;
      case 'depth':
        out[j] = bits(((v >>> 8) | 1) / 0x1000000);
        break;
    }
  }
  return out;
}

/** A resource's Direct3D name: register class and register, and the space when it is not 0 ("u0", "t3,space1"). */
export function d3dResourceName(r: Pick<Resource, 'registerClass' | 'register' | 'space'>, element = 0): string {
  const cls = r.registerClass === 'b' ? 'cb' : r.registerClass;
  return `${cls}${r.register + element}${r.space ? `,space${r.space}` : ''}`;
}

/** The stream a resource's words come from: its register class, register (plus the element of a range) and space. */
export function resourceStream(r: Pick<Resource, 'registerClass' | 'register' | 'space'>, element = 0): string {
  return `${r.registerClass}${r.register + element},space${r.space}`;
}

/** One bound resource (one element of a range): what `seedBindings` gave it, for the CPU and the GPU. */
export interface SeededResource {
  /** d3dResourceName: "cb0", "t1", "u2,space1". */
  readonly name: string;
  readonly resource: Resource;
  /** The element of a range (0 for a single resource). */
  readonly element: number;
  /** The executor's key: 'group:binding', or 'group:binding:element' in a binding array. */
  readonly key: string;
  /** The WGSL binding (a range's elements at consecutive bindings, as the emitter writes them). */
  readonly group: number;
  readonly binding: number;
  readonly kind: 'uniform' | 'storage' | 'texture' | 'storage-texture' | 'sampler';
  /** Uniform and storage buffers: the words; textures: the texels' words, `perTexel` a texel. */
  readonly words?: Uint32Array;
  readonly writable: boolean;
  readonly readOnly?: boolean;
  readonly comparison?: boolean;
  readonly texture?: {
    readonly image: Extract<Type, { kind: 'image' }>;
    readonly width: number;
    readonly height: number;
    readonly layers: number;
    readonly perTexel: number;
    readonly view: TextureView;
  };
}

export interface SeededBindings {
  /** The executor's buffers and textures, by key (written in place by a run). */
  readonly buffers: Record<string, Uint32Array>;
  readonly textures: Record<string, ExecTexture>;
  /** For nearestClampSampler: how each texture is addressed, and each comparison sampler's function. */
  readonly views: Record<string, TextureView>;
  readonly compare: Record<string, CompareFunction>;
  /** Every resource bound, sorted by space, register class and register. */
  readonly resources: readonly SeededResource[];
  /** Resources that could not be bound, each with why (the run goes on without them). */
  readonly unbound: readonly string[];
}

const CLASS_ORDER = ['b', 't', 's', 'u'];

/** Binds every resource `p` declares with seeded contents (the header's generator). */
export function seedBindings(p: Program, seed: number): SeededBindings {
  const m: Module = p.module;
  const out: SeededResource[] = [];
  const unbound: string[] = [];
  const buffers: Record<string, Uint32Array> = {};
  const textures: Record<string, ExecTexture> = {};
  const views: Record<string, TextureView> = {};
  const compare: Record<string, CompareFunction> = {};
  for (const r of p.interface.resources) {
    if (r.kind.kind === 'groupshared') continue;
    const g = m.globals[r.global];
    if (!g?.binding) continue;
    const gt = m.types[g.type]!;
    const range = gt.kind === 'binding_array';
    const count = range ? gt.size : 1;
    if (count === null) {
      unbound.push(`${d3dResourceName(r)}: an unbounded range`);
      continue;
    }
    const t = range ? m.types[gt.base]! : gt;
    for (let k = 0; k < count; k++) {
      const name = d3dResourceName(r, k);
      const stream = resourceStream(r, k);
      const key = range ? `${g.binding.group}:${g.binding.binding}:${k}` : `${g.binding.group}:${g.binding.binding}`;
      const at = { name, resource: r, element: k, key, group: g.binding.group, binding: g.binding.binding + k };
      if (g.space === 'uniform') {
        const rows =
          t.kind === 'array' && t.length !== null
            ? t.length
            : r.kind.kind === 'constantBuffer'
              ? r.kind.rows
              : SEED_CONSTANT_ROWS;
        const words = seededWords(seed, stream, Math.max(4, rows * 4));
        buffers[key] = words;
        out.push({ ...at, kind: 'uniform', words, writable: false });
      } else if (g.space === 'storage') {
        const words =
          r.kind.kind === 'uav' && r.kind.texels
            ? seededTexelWords(seed, stream, r.kind.dimension, r.kind.samples, r.kind.elementWords)
            : seededWords(seed, stream, SEED_BUFFER_WORDS);
        buffers[key] = words;
        const writable = g.access === 'read_write';
        out.push({ ...at, kind: 'storage', words, writable, readOnly: !writable });
        const hidden: HiddenCounter | undefined = r.counter;
        if (hidden) {
          // the hidden counter: one word, SEED_COUNTER, read back as "<view>.counter"
          const ckey = range ? `${hidden.group}:${hidden.binding}:${k}` : `${hidden.group}:${hidden.binding}`;
          const cwords = Uint32Array.of(SEED_COUNTER);
          buffers[ckey] = cwords;
          out.push({
            ...at,
            name: `${name}.counter`,
            key: ckey,
            group: hidden.group,
            binding: hidden.binding + k,
            kind: 'storage',
            words: cwords,
            writable: true,
            readOnly: false,
          });
        }
      } else if (t.kind === 'sampler') {
        if (t.comparison) compare[key] = SEED_COMPARE;
        out.push({ ...at, kind: 'sampler', writable: false, comparison: t.comparison });
      } else if (t.kind === 'image') {
        if (t.class.kind !== 'storage' && t.class.multisampled) {
          unbound.push(`${name}: a multisampled texture`);
          continue;
        }
        const cube = t.dim === 'cube';
        const layers = cube ? (t.arrayed ? 12 : 6) : t.arrayed ? 2 : t.dim === '3d' ? 4 : 1;
        const width = SEED_TEXTURE_SIZE;
        const height = t.dim === '1d' ? 1 : SEED_TEXTURE_SIZE;
        const texels = width * height * layers;
        const view: TextureView = cube ? 'cube' : t.dim === '3d' ? '3d' : t.dim === '1d' ? '1d' : '2d';
        views[key] = view;
        const storage = t.class.kind === 'storage';
        const perTexel = storage && t.class.kind === 'storage' && t.class.format.startsWith('r32') ? 1 : 4;
        const distribution: SeedDistribution =
          t.class.kind === 'depth'
            ? 'depth'
            : t.class.kind === 'sampled' && t.class.scalar === 'f32'
              ? 'float'
              : 'word';
        // A depth texture is one word a texel (depth32float); the executor reads it from the texel's first word.
        const per = t.class.kind === 'depth' ? 1 : perTexel;
        const words = seededWords(seed, stream, texels * per, distribution);
        const four = new Uint32Array(texels * 4);
        for (let i = 0; i < texels; i++) for (let c = 0; c < per; c++) four[i * 4 + c] = words[i * per + c]!;
        textures[key] = { width, height, depthOrLayers: layers, levels: [four] };
        const writable = storage && t.class.kind === 'storage' && t.class.access !== 'read';
        out.push({
          ...at,
          kind: storage ? 'storage-texture' : 'texture',
          words,
          writable,
          texture: { image: t, width, height, layers, perTexel: per, view },
        });
      } else unbound.push(`${name}: a ${t.kind} handle`);
    }
  }
  const order = (x: SeededResource): [number, number, number] => [
    x.resource.space,
    CLASS_ORDER.indexOf(x.resource.registerClass),
    x.resource.register + x.element,
  ];
  out.sort((a, b) => {
    const [p0, p1, p2] = order(a);
    const [q0, q1, q2] = order(b);
    return p0 - q0 || p1 - q1 || p2 - q2;
  });
  return { buffers, textures, views, compare, resources: out, unbound };
}

/** A typed texture view held as words (lift/texels.ts): the header (width, height, depth-or-layers,
 * and 0 or a multisampled view's sample count) of a SEED_TEXTURE_SIZE texture as seedBindings sizes
 * textures (1D: height 1; arrays 2 layers; 3D 4 deep), then its texels (samples; `texelWords` words
 * each) from the stream, word 4 on being the stream's first word. */
function seededTexelWords(
  seed: number,
  stream: string,
  dimension: string,
  samples?: number,
  texelWords = 1,
): Uint32Array {
  const width = SEED_TEXTURE_SIZE;
  const height = dimension === '1d' || dimension === '1darray' ? 1 : SEED_TEXTURE_SIZE;
  const depth = dimension === '3d' ? 4 : dimension.endsWith('array') ? 2 : 1;
  const texels = width * height * depth * (samples ?? 1) * texelWords;
  const out = new Uint32Array(4 + texels);
  out.set([width, height, depth, samples ?? 0]);
  out.set(seededWords(seed, stream, texels), 4);
  return out;
}

/** The stream of a varying: its semantic and index ("in:TEXCOORD0"), not its register or location. */
export function varyingStream(v: Pick<Varying, 'semantic' | 'semanticIndex'>): string {
  return `in:${v.semantic.toUpperCase()}${v.semanticIndex}`;
}

/**
 * Seeded varyings by WGSL location, 4 words an item (pixel or vertex): float elements from the
 * 'float' distribution, integer ones from 'small'. `perItem` false: every item the same 4 words (the
 * stream's first four), as a pixel program's GPU run can only give constant varyings; true: item n
 * has words 4n..4n+3 of the stream.
 */
export function seedVaryings(p: Program, seed: number, items: number, perItem: boolean): Record<number, Uint32Array> {
  const out: Record<number, Uint32Array> = {};
  for (const v of p.interface.inputs) {
    if (v.location === undefined || v.builtin !== undefined) continue;
    const dist: SeedDistribution = v.componentType === 3 ? 'float' : 'small';
    const words = seededWords(seed, varyingStream(v), perItem ? items * 4 : 4, dist);
    const all = new Uint32Array(items * 4);
    for (let n = 0; n < items; n++) all.set(perItem ? words.subarray(n * 4, n * 4 + 4) : words, n * 4);
    out[v.location] = all;
  }
  return out;
}

/** Words in one register file (32 registers of 4 words), as stages.ts's FILE_WORDS. */
const FILE = 128;

/** An element's components (mask bits), lowest first. */
const componentsOf = (mask: number): number[] => [0, 1, 2, 3].filter((c) => mask & (1 << c));

/**
 * Seeded register files for the stages lifted as functions (geometry, hull and domain): `items`
 * files of 32 registers x 4 words (vertices of a primitive, control points of a patch), each element
 * of `varyings` written into its register's masked components from the stream of its semantic
 * (`prefix`:SEMANTICn — "in" for inputs, "pc" for patch constants): item n's k-th component is word
 * 4n + k of the stream, so the words follow the element, not the register it was packed into.
 */
export function seedRegisterFiles(
  varyings: readonly Varying[],
  seed: number,
  items: number,
  prefix = 'in',
): Uint32Array {
  const out = new Uint32Array(items * FILE);
  for (const v of varyings) {
    if (v.register < 0 || v.register >= 32) continue;
    const dist: SeedDistribution = v.componentType === 3 ? 'float' : 'small';
    const words = seededWords(seed, `${prefix}:${v.semantic.toUpperCase()}${v.semanticIndex}`, items * 4, dist);
    const comps = componentsOf(v.mask);
    for (let n = 0; n < items; n++) comps.forEach((c, k) => (out[n * FILE + v.register * 4 + c] = words[n * 4 + k]!));
  }
  return out;
}

/**
 * Register files read back by element: SEMANTICn (capitals) to the element's components of each
 * item in turn (its mask's components, lowest first), so that two builds that pack an element into
 * different registers or lanes print the same words. The first element of a name wins.
 */
export function elementWords(
  varyings: readonly Varying[],
  files: Uint32Array,
  items: number,
): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const v of varyings) {
    const name = `${v.semantic.toUpperCase()}${v.semanticIndex}`;
    if (name in out || v.register < 0 || v.register >= 32) continue;
    const comps = componentsOf(v.mask);
    const words: number[] = [];
    for (let n = 0; n < items; n++) for (const c of comps) words.push(files[n * FILE + v.register * 4 + c]!);
    out[name] = words;
  }
  return out;
}
