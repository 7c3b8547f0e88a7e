// The executor's data: a value of n lanes (every component of every lane as a 32-bit word, component
// by component: word k of lane l at k * n + l), pointers (per lane, a memory and a word address,
// -1 when the access was out of range) and handles (per lane, the binding a texture or sampler
// expression names). Memory is Uint32Array: a buffer bound by the caller is used in place, so what
// a program writes is in the caller's array afterwards.

import type { Type } from '../ir/ir.js';
import { checkValueWords } from './budget.js';

export class V {
  readonly kind = 'value' as const;
  readonly u: Uint32Array;
  readonly i: Int32Array;
  readonly f: Float32Array;
  constructor(
    /** Lanes. */
    readonly n: number,
    /** Words per lane. */
    readonly w: number,
    u?: Uint32Array,
  ) {
    if (!u) checkValueWords(n * w);
    this.u = u ?? new Uint32Array(n * w);
    this.i = new Int32Array(this.u.buffer, this.u.byteOffset, this.u.length);
    this.f = new Float32Array(this.u.buffer, this.u.byteOffset, this.u.length);
  }

  /** The words of lane `l`, in order. */
  lane(l: number): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.w; k++) out.push(this.u[k * this.n + l]!);
    return out;
  }
}

export interface Ptr {
  readonly kind: 'ptr';
  /** The pointee's type. */
  readonly type: Type;
  /** The memory every lane points into, when they share one (else `mems`). */
  readonly mem?: Uint32Array;
  /** Per lane, the memory the pointer points into (when `mem` is absent). */
  readonly mems: readonly Uint32Array[];
  /** Per lane, the word address in that memory; -1: out of range (loads zero, stores nothing). */
  readonly addr: Int32Array;
  /** Writes through it are visible outside the invocation (storage, workgroup): masked for helpers. */
  readonly shared: boolean;
}

export interface Handle {
  readonly kind: 'handle';
  readonly type: Type;
  /** Per lane, the binding key ('group:binding' or 'group:binding:index'); '' out of range. */
  readonly keys: readonly string[];
}

export type Item = V | Ptr | Handle;

export function isV(x: Item): x is V {
  return x instanceof V;
}

/** A 2D/3D/cube/array texture or storage image: per mip level, texels of 4 words, x fastest, then
 * y, then layer (or z). Formats with fewer channels keep their channels in the first words. */
export interface ExecTexture {
  readonly width: number;
  readonly height: number;
  /** Depth of a 3D texture, or array layers (6 × cubes for a cube array). */
  readonly depthOrLayers: number;
  /** levels[m]: that level's texels, 4 words each. */
  readonly levels: Uint32Array[];
  readonly samples?: number;
}

/** What the executor asks the caller's sampling callback. */
export interface SampleRequest {
  /** The texture's and the sampler's binding keys. */
  readonly texture: string;
  readonly sampler: string;
  /** Coordinates as f32 values (array index separate). */
  readonly coord: readonly number[];
  readonly arrayIndex?: number;
  readonly offset?: readonly number[];
  readonly level:
    | { readonly kind: 'auto'; readonly ddx: readonly number[]; readonly ddy: readonly number[] }
    | { readonly kind: 'zero' }
    | { readonly kind: 'exact'; readonly level: number }
    | { readonly kind: 'bias'; readonly bias: number; readonly ddx: readonly number[]; readonly ddy: readonly number[] }
    | { readonly kind: 'gradient'; readonly ddx: readonly number[]; readonly ddy: readonly number[] };
  readonly depthRef?: number;
  readonly gather?: number;
  readonly clamp?: number;
  /** The lane asking (for callbacks that log). */
  readonly lane: number;
}

/** Returns four 32-bit words (the texel's bits, as the texture's return type has them). */
export type SampleCallback = (req: SampleRequest) => readonly number[];
