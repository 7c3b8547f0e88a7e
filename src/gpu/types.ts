// What the WebGPU runner takes and gives back: compile requests, compute and pixel jobs with their
// bindings, and the words read back. Plain data only (typed arrays, numbers, strings), so a job can
// cross a process boundary (see wire.ts) and run the same in a browser or in Node (npm `webgpu`).

/** Tint's verdict on one WGSL module. */
export interface CompileResult {
  /** No message of type 'error' (warnings and infos do not fail a module). */
  readonly ok: boolean;
  /** Every message, as `error 3:14: text` (type, line:column, text). */
  readonly messages: string[];
  /** Set by the Node harness when the process compiling this module died twice on it. */
  readonly crashed?: boolean;
}

export interface CompileOptions {
  /** Also create a compute pipeline (layout 'auto') for every `@compute` entry point: this runs
   * Tint's backend and the driver's compiler, which catch what the front end does not. */
  readonly pipelines?: boolean;
}

/** A texture's contents: texels tightly packed row by row, layer by layer, mip level by level. */
export interface TextureSpec {
  readonly format: GPUTextureFormat;
  readonly dimension?: '1d' | '2d' | '3d';
  readonly viewDimension?: GPUTextureViewDimension;
  readonly width: number;
  readonly height?: number;
  /** Depth of a 3d texture or layer count of an array. */
  readonly depthOrLayers?: number;
  readonly mipLevels?: number;
  /** Initial contents as 32-bit words (zero when absent). */
  readonly words?: Uint32Array;
}

interface BindingAt {
  readonly group: number;
  readonly binding: number;
}

export type GpuBinding =
  | (BindingAt & { readonly type: 'uniform'; readonly words: Uint32Array })
  | (BindingAt & { readonly type: 'storage'; readonly words: Uint32Array; readonly readOnly?: boolean })
  | (BindingAt & {
      readonly type: 'texture';
      readonly texture: TextureSpec;
      /** Defaults from the format: 'uint', 'sint', 'unfilterable-float' for 32-bit floats, else 'float'. */
      readonly sampleType?: GPUTextureSampleType;
    })
  | (BindingAt & {
      readonly type: 'storage-texture';
      readonly texture: TextureSpec;
      readonly access?: GPUStorageTextureAccess;
    })
  | (BindingAt & { readonly type: 'sampler'; readonly sampler?: GPUSamplerDescriptor; readonly comparison?: boolean });

export interface ComputeJob {
  readonly code: string;
  readonly entryPoint?: string;
  /** Workgroups dispatched in x, y and z. */
  readonly workgroups: readonly [number, number, number];
  readonly bindings: readonly GpuBinding[];
}

export interface PixelJob {
  /** A module holding the fragment entry point (and the vertex one unless `vertexCode` is given). */
  readonly code: string;
  readonly fragmentEntryPoint?: string;
  /** The vertex stage's module. Absent: `code`'s vertex entry point, or when `code` has none, a
   * full-screen triangle that outputs only the position (for a fragment program with no varyings). */
  readonly vertexCode?: string;
  readonly vertexEntryPoint?: string;
  /** Vertices drawn (no vertex buffers: the vertex stage uses its vertex_index); default 3. */
  readonly vertexCount?: number;
  readonly width: number;
  readonly height: number;
  /** Colour targets, cleared to zero before the draw. */
  /** writeMask 0: a target the fragment stage has no output for (a program that writes only UAVs). */
  readonly targets: readonly { readonly format: GPUTextureFormat; readonly writeMask?: number }[];
  /** A depth target (cleared to `clear`, default 1, compare 'always'), read back when given. */
  readonly depth?: { readonly format: 'depth32float'; readonly clear?: number };
  /** Bind resources for the fragment stage only (default: vertex and fragment; writable ones are
   * always fragment-only), which lifts the vertex stage's per-stage limits off a pixel program. */
  readonly fragmentOnlyBindings?: boolean;
  readonly bindings: readonly GpuBinding[];
}

/** Failure of a job: where (compile, pipeline creation, binding or the run itself) and Dawn's words. */
export interface JobFailure {
  readonly ok: false;
  readonly stage: 'compile' | 'pipeline' | 'bind' | 'run';
  readonly messages: string[];
}

/** Words read back, by `group:binding`, for every writable storage buffer and storage texture. */
export type Readback = Record<string, Uint32Array>;

export type ComputeResult = { readonly ok: true; readonly outputs: Readback } | JobFailure;

export type PixelResult =
  | {
      readonly ok: true;
      /** Each colour target's texels, row by row (width × height × words per texel). */
      readonly targets: Uint32Array[];
      readonly depth?: Float32Array;
      readonly outputs: Readback;
    }
  | JobFailure;
