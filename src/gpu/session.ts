// The WebGPU runner: opens a device from any `GPU` (navigator.gpu in a browser, npm `webgpu`'s
// create() in Node), asks Tint to compile WGSL modules, and runs compute and render pipelines with
// buffers and textures bound, reading back every writable resource. No Node API: it runs in browsers.
// Errors are caught with error scopes so nothing is left to the device's uncaptured-error handler.

import type {
  CompileOptions,
  CompileResult,
  ComputeJob,
  ComputeResult,
  GpuBinding,
  JobFailure,
  PixelJob,
  PixelResult,
  Readback,
  TextureSpec,
} from './types.js';
import { defaultSampleType, texelBytes } from './formats.js';

// WebGPU's flag values (the spec's constants; the globals GPUBufferUsage etc. are not always installed).
const BUF_MAP_READ = 0x1;
const BUF_COPY_SRC = 0x4;
const BUF_COPY_DST = 0x8;
const BUF_UNIFORM = 0x40;
const BUF_STORAGE = 0x80;
const TEX_COPY_SRC = 0x1;
const TEX_COPY_DST = 0x2;
const TEX_BINDING = 0x4;
const TEX_STORAGE = 0x8;
const TEX_RENDER = 0x10;
const MAP_READ = 0x1;
const STAGE_VERTEX = 0x1;
const STAGE_FRAGMENT = 0x2;
const STAGE_COMPUTE = 0x4;

/** A full-screen triangle with no varyings, used when a pixel job has no vertex stage of its own. */
export const FULLSCREEN_VERTEX_WGSL = `@vertex fn iridia_fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
  let x = f32(i & 1u) * 4.0 - 1.0;
  let y = f32(i >> 1u) * 4.0 - 1.0;
  return vec4<f32>(x, y, 0.5, 1.0);
}
`;

function formatMessage(m: GPUCompilationMessage): string {
  return `${m.type} ${m.lineNum}:${m.linePos}: ${m.message}`;
}

/** The entry points of a WGSL module with the given stage attribute (a textual scan, for tests). */
export function entryPoints(code: string, stage: 'compute' | 'vertex' | 'fragment'): string[] {
  const re = new RegExp(`@${stage}\\b[^{;]*?\\bfn\\s+([A-Za-z_][A-Za-z0-9_]*)`, 'g');
  return [...code.matchAll(re)].map((m) => m[1]!);
}

const LIMITS = [
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBuffersPerShaderStage',
  'maxStorageTexturesPerShaderStage',
  'maxSampledTexturesPerShaderStage',
  'maxSamplersPerShaderStage',
  'maxUniformBuffersPerShaderStage',
  'maxBindGroups',
  'maxBindingsPerBindGroup',
  'maxColorAttachments',
  'maxColorAttachmentBytesPerSample',
  'maxInterStageShaderVariables',
  'maxStorageBufferBindingSize',
  'maxUniformBufferBindingSize',
];

export interface GpuSession {
  readonly device: GPUDevice;
  readonly adapterInfo: string;
  compile(sources: readonly string[], options?: CompileOptions): Promise<CompileResult[]>;
  runCompute(job: ComputeJob): Promise<ComputeResult>;
  runPixel(job: PixelJob): Promise<PixelResult>;
  destroy(): void;
}

/** Opens an adapter and a device; throws an Error saying why when there is none. */
export async function openGpu(gpu: GPU, adapterOptions: GPURequestAdapterOptions = {}): Promise<GpuSession> {
  const adapter = await gpu.requestAdapter(adapterOptions);
  if (!adapter) throw new Error('WebGPU: no adapter (no GPU and no software driver found)');
  // Ask for the adapter's own limits: lifted programs use Direct3D's (1024 threads a group, up to
  // eight UAVs), above WebGPU's defaults.
  const requiredLimits: Record<string, number> = {};
  for (const k of LIMITS) {
    const v = (adapter.limits as unknown as Record<string, number | undefined>)[k];
    if (typeof v === 'number') requiredLimits[k] = v;
  }
  // Lifted wave operations need WGSL's subgroups extension: asked for where the adapter has it.
  const requiredFeatures: GPUFeatureName[] = adapter.features.has('subgroups') ? ['subgroups' as GPUFeatureName] : [];
  const device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
  const info = adapter.info;
  const adapterInfo = [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(' ');
  return new Session(device, adapterInfo, [gpu, adapter]);
}

async function scoped<T>(device: GPUDevice, f: () => T): Promise<{ value: T; errors: string[] }> {
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let value: T | undefined;
  let thrown: string | undefined;
  try {
    value = f();
  } catch (e) {
    // A descriptor Dawn refuses outright throws; the scopes are popped all the same.
    thrown = e instanceof Error ? e.message : String(e);
  }
  const errors: string[] = [];
  for (let i = 0; i < 3; i++) {
    const e = await device.popErrorScope();
    if (e) errors.push(e.message);
  }
  if (thrown !== undefined) errors.push(thrown);
  return { value: value as T, errors };
}

function fail(stage: JobFailure['stage'], messages: string[]): JobFailure {
  return { ok: false, stage, messages };
}

function key(b: { group: number; binding: number }): string {
  return `${b.group}:${b.binding}`;
}

interface Bound {
  readonly layouts: GPUBindGroupLayout[];
  readonly groups: GPUBindGroup[];
  /** Copies resources into mappable buffers; returns the readers to call after submission. */
  readonly readbacks: Array<{ key: string; encode(enc: GPUCommandEncoder): void; read(): Promise<Uint32Array> }>;
  readonly destroy: Array<{ destroy(): void }>;
}

class Session implements GpuSession {
  constructor(
    readonly device: GPUDevice,
    readonly adapterInfo: string,
    // The GPU and adapter objects are kept alive with the device: in Dawn's Node binding, collecting
    // them frees the native instance under the device, and SwiftShader then aborts mid-draw.
    private readonly keepAlive: readonly unknown[],
  ) {}

  destroy(): void {
    this.device.destroy();
  }

  async compile(sources: readonly string[], options: CompileOptions = {}): Promise<CompileResult[]> {
    const out: CompileResult[] = [];
    for (const code of sources) out.push(await this.compileOne(code, options));
    return out;
  }

  private async compileOne(code: string, options: CompileOptions): Promise<CompileResult> {
    const { value: module, errors } = await scoped(this.device, () => this.device.createShaderModule({ code }));
    const info = await module.getCompilationInfo();
    const messages = info.messages.map(formatMessage);
    let ok = !info.messages.some((m) => m.type === 'error');
    if (ok && errors.length) {
      messages.push(...errors.map((e) => `error 0:0: ${e}`));
      ok = false;
    }
    if (ok && options.pipelines) {
      for (const entryPoint of entryPoints(code, 'compute')) {
        const r = await scoped(this.device, () =>
          this.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint } }),
        );
        if (r.errors.length) {
          ok = false;
          messages.push(...r.errors.map((e) => `error 0:0: pipeline ${entryPoint}: ${e}`));
        }
      }
    }
    return { ok, messages };
  }

  private async module(code: string): Promise<GPUShaderModule | JobFailure> {
    const r = await this.compileOne(code, {});
    if (!r.ok) return fail('compile', r.messages);
    return this.device.createShaderModule({ code });
  }

  private texture(spec: TextureSpec, usage: number): GPUTexture {
    const size: GPUExtent3DDict = {
      width: spec.width,
      height: spec.height ?? 1,
      depthOrArrayLayers: spec.depthOrLayers ?? 1,
    };
    const depth = spec.format.startsWith('depth');
    const tex = this.device.createTexture({
      size,
      format: spec.format,
      dimension: spec.dimension ?? '2d',
      mipLevelCount: spec.mipLevels ?? 1,
      // A depth texture is filled by drawing (WebGPU copies nothing into depth32float).
      usage: depth && spec.words ? usage | TEX_RENDER : usage,
    });
    if (depth && spec.words) this.fillDepth(tex, spec, spec.words);
    else if (spec.words) {
      const bpt = texelBytes(spec.format);
      if (bpt === undefined) throw new Error(`WebGPU runner: cannot upload texels of format ${spec.format}`);
      const bytes = new Uint8Array(spec.words.buffer, spec.words.byteOffset, spec.words.byteLength);
      let offset = 0;
      for (let level = 0; level < (spec.mipLevels ?? 1); level++) {
        const w = Math.max(1, size.width >> level);
        const h = spec.dimension === '1d' ? 1 : Math.max(1, (size.height ?? 1) >> level);
        const d =
          spec.dimension === '3d'
            ? Math.max(1, (size.depthOrArrayLayers ?? 1) >> level)
            : (size.depthOrArrayLayers ?? 1);
        const n = w * h * d * bpt;
        if (offset + n > bytes.length) break;
        this.device.queue.writeTexture(
          { texture: tex, mipLevel: level },
          bytes.subarray(offset, offset + n),
          { bytesPerRow: w * bpt, rowsPerImage: h },
          { width: w, height: h, depthOrArrayLayers: d },
        );
        offset += n;
      }
    }
    return tex;
  }

  /** Fills level 0 of a depth32float texture, layer by layer, with the given depths (one f32 word a
   * texel, row by row): WebGPU allows no copy into depth32float, so each layer is drawn with a
   * full-screen triangle whose fragments write their texel's word as frag_depth (depth test 'always').
   * The values must lie in [0, 1], the viewport's depth range, to be stored unchanged. */
  private fillDepth(tex: GPUTexture, spec: TextureSpec, words: Uint32Array): void {
    const d = this.device;
    const width = spec.width;
    const height = spec.height ?? 1;
    const layers = spec.depthOrLayers ?? 1;
    const module = d.createShaderModule({
      code: `${FULLSCREEN_VERTEX_WGSL}
@group(0) @binding(0) var<storage, read> depths: array<f32>;
@group(0) @binding(1) var<uniform> at: vec4<u32>;
@fragment fn iridia_fill_depth(@builtin(position) p: vec4<f32>) -> @builtin(frag_depth) f32 {
  return depths[at.x + u32(p.y) * at.y + u32(p.x)];
}
`,
    });
    const pipeline = d.createRenderPipeline({
      layout: 'auto',
      vertex: { module, entryPoint: 'iridia_fullscreen' },
      fragment: { module, entryPoint: 'iridia_fill_depth', targets: [] },
      primitive: { topology: 'triangle-list' },
      depthStencil: { format: spec.format, depthWriteEnabled: true, depthCompare: 'always' },
    });
    const texels = width * height * layers;
    const src = d.createBuffer({ size: Math.max(16, texels * 4), usage: BUF_STORAGE | BUF_COPY_DST });
    d.queue.writeBuffer(src, 0, words.buffer, words.byteOffset, Math.min(words.byteLength, texels * 4));
    const enc = d.createCommandEncoder();
    const temps: Array<{ destroy(): void }> = [src];
    for (let layer = 0; layer < layers; layer++) {
      const at = d.createBuffer({ size: 16, usage: BUF_UNIFORM | BUF_COPY_DST });
      d.queue.writeBuffer(at, 0, new Uint32Array([layer * width * height, width, 0, 0]));
      temps.push(at);
      const group = d.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: src } },
          { binding: 1, resource: { buffer: at } },
        ],
      });
      const pass = enc.beginRenderPass({
        colorAttachments: [],
        depthStencilAttachment: {
          view: tex.createView({ dimension: '2d', baseArrayLayer: layer, arrayLayerCount: 1 }),
          depthLoadOp: 'clear',
          depthStoreOp: 'store',
          depthClearValue: 0,
        },
      });
      pass.setViewport(0, 0, width, height, 0, 1);
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.draw(3);
      pass.end();
    }
    d.queue.submit([enc.finish()]);
    // Destroying a buffer after submit is allowed: WebGPU keeps it alive until the work is done.
    for (const t of temps) t.destroy();
  }

  /** Reads a texture's level 0 back as words, tightly packed. */
  private textureReader(
    tex: GPUTexture,
    spec: { format: GPUTextureFormat; width: number; height: number; layers: number },
  ) {
    const bpt = texelBytes(spec.format);
    if (bpt === undefined) throw new Error(`WebGPU runner: cannot read back texels of format ${spec.format}`);
    const row = spec.width * bpt;
    const padded = Math.ceil(row / 256) * 256;
    const buf = this.device.createBuffer({
      size: padded * spec.height * spec.layers,
      usage: BUF_MAP_READ | BUF_COPY_DST,
    });
    return {
      buffer: buf,
      encode: (enc: GPUCommandEncoder) =>
        enc.copyTextureToBuffer(
          { texture: tex, aspect: spec.format.startsWith('depth') ? 'depth-only' : 'all' },
          { buffer: buf, bytesPerRow: padded, rowsPerImage: spec.height },
          { width: spec.width, height: spec.height, depthOrArrayLayers: spec.layers },
        ),
      read: async (): Promise<Uint32Array> => {
        await buf.mapAsync(MAP_READ);
        const src = new Uint8Array(buf.getMappedRange());
        const out = new Uint8Array(row * spec.height * spec.layers);
        for (let r = 0; r < spec.height * spec.layers; r++)
          out.set(src.subarray(r * padded, r * padded + row), r * row);
        buf.unmap();
        buf.destroy();
        return new Uint32Array(out.buffer, 0, out.byteLength >> 2);
      },
    };
  }

  private bind(bindings: readonly GpuBinding[], visibility: number): Bound {
    const d = this.device;
    const maxGroup = bindings.reduce((m, b) => Math.max(m, b.group), -1);
    const entries: GPUBindGroupLayoutEntry[][] = Array.from({ length: maxGroup + 1 }, () => []);
    const resources: GPUBindGroupEntry[][] = Array.from({ length: maxGroup + 1 }, () => []);
    const readbacks: Bound['readbacks'] = [];
    const destroy: Bound['destroy'] = [];
    for (const b of bindings) {
      // Writable storage is not allowed in a vertex stage: such bindings are seen by the others only.
      const writable =
        (b.type === 'storage' && !b.readOnly) || (b.type === 'storage-texture' && b.access !== 'read-only');
      const le: GPUBindGroupLayoutEntry = {
        binding: b.binding,
        visibility: writable ? visibility & ~STAGE_VERTEX : visibility,
      };
      let resource: GPUBindingResource;
      switch (b.type) {
        case 'uniform':
        case 'storage': {
          const size = Math.max(16, Math.ceil(b.words.byteLength / 16) * 16);
          const writable = b.type === 'storage' && !b.readOnly;
          const buf = d.createBuffer({
            size,
            usage: (b.type === 'uniform' ? BUF_UNIFORM : BUF_STORAGE) | BUF_COPY_DST | BUF_COPY_SRC,
          });
          d.queue.writeBuffer(buf, 0, b.words.buffer, b.words.byteOffset, b.words.byteLength);
          destroy.push(buf);
          le.buffer = { type: b.type === 'uniform' ? 'uniform' : b.readOnly ? 'read-only-storage' : 'storage' };
          resource = { buffer: buf };
          if (writable) {
            const rb = d.createBuffer({ size, usage: BUF_MAP_READ | BUF_COPY_DST });
            const n = b.words.length;
            readbacks.push({
              key: key(b),
              encode: (enc) => enc.copyBufferToBuffer(buf, 0, rb, 0, size),
              read: async () => {
                await rb.mapAsync(MAP_READ);
                const words = new Uint32Array(rb.getMappedRange().slice(0, n * 4));
                rb.unmap();
                rb.destroy();
                return words;
              },
            });
          }
          break;
        }
        case 'texture': {
          const tex = this.texture(b.texture, TEX_BINDING | TEX_COPY_DST);
          destroy.push(tex);
          le.texture = {
            sampleType: b.sampleType ?? defaultSampleType(b.texture.format),
            viewDimension: b.texture.viewDimension ?? b.texture.dimension ?? '2d',
          };
          resource = tex.createView({ dimension: b.texture.viewDimension ?? b.texture.dimension ?? '2d' });
          break;
        }
        case 'storage-texture': {
          const tex = this.texture(b.texture, TEX_STORAGE | TEX_COPY_DST | TEX_COPY_SRC);
          destroy.push(tex);
          const dim = b.texture.viewDimension ?? b.texture.dimension ?? '2d';
          le.storageTexture = { access: b.access ?? 'write-only', format: b.texture.format, viewDimension: dim };
          resource = tex.createView({ dimension: dim });
          if (b.access !== 'read-only') {
            const r = this.textureReader(tex, {
              format: b.texture.format,
              width: b.texture.width,
              height: b.texture.dimension === '1d' ? 1 : (b.texture.height ?? 1),
              layers: b.texture.depthOrLayers ?? 1,
            });
            readbacks.push({ key: key(b), encode: r.encode, read: r.read });
          }
          break;
        }
        case 'sampler': {
          const desc = b.sampler ?? {};
          const filtering =
            desc.magFilter === 'linear' || desc.minFilter === 'linear' || desc.mipmapFilter === 'linear';
          le.sampler = { type: b.comparison ? 'comparison' : filtering ? 'filtering' : 'non-filtering' };
          resource = d.createSampler(desc);
          break;
        }
      }
      entries[b.group]!.push(le);
      resources[b.group]!.push({ binding: b.binding, resource });
    }
    const layouts = entries.map((e) => d.createBindGroupLayout({ entries: e }));
    const groups = layouts.map((layout, i) => d.createBindGroup({ layout, entries: resources[i]! }));
    return { layouts, groups, readbacks, destroy };
  }

  async runCompute(job: ComputeJob): Promise<ComputeResult> {
    const d = this.device;
    const module = await this.module(job.code);
    if (!('getCompilationInfo' in module)) return module;
    const bound = await scoped(d, () => this.bind(job.bindings, STAGE_COMPUTE));
    if (bound.errors.length) return fail('bind', bound.errors);
    const { layouts, groups, readbacks, destroy } = bound.value;
    const entryPoint = job.entryPoint ?? entryPoints(job.code, 'compute')[0];
    if (entryPoint === undefined) return fail('pipeline', ['no @compute entry point']);
    const pipe = await scoped(d, () =>
      d.createComputePipeline({
        layout: d.createPipelineLayout({ bindGroupLayouts: layouts }),
        compute: { module, entryPoint },
      }),
    );
    if (pipe.errors.length) return fail('pipeline', pipe.errors);
    const run = await scoped(d, () => {
      const enc = d.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipe.value);
      groups.forEach((g, i) => pass.setBindGroup(i, g));
      pass.dispatchWorkgroups(job.workgroups[0], job.workgroups[1], job.workgroups[2]);
      pass.end();
      for (const r of readbacks) r.encode(enc);
      d.queue.submit([enc.finish()]);
    });
    if (run.errors.length) return fail('run', run.errors);
    const outputs: Readback = {};
    for (const r of readbacks) outputs[r.key] = await r.read();
    for (const x of destroy) x.destroy();
    return { ok: true, outputs };
  }

  async runPixel(job: PixelJob): Promise<PixelResult> {
    const d = this.device;
    const fmodule = await this.module(job.code);
    if (!('getCompilationInfo' in fmodule)) return fmodule;
    const fragmentEntry = job.fragmentEntryPoint ?? entryPoints(job.code, 'fragment')[0];
    if (fragmentEntry === undefined) return fail('pipeline', ['no @fragment entry point']);
    let vmodule: GPUShaderModule;
    let vertexEntry: string | undefined;
    if (job.vertexCode !== undefined) {
      const m = await this.module(job.vertexCode);
      if (!('getCompilationInfo' in m)) return m;
      vmodule = m;
      vertexEntry = job.vertexEntryPoint ?? entryPoints(job.vertexCode, 'vertex')[0];
    } else if (job.vertexEntryPoint !== undefined || entryPoints(job.code, 'vertex').length > 0) {
      vmodule = fmodule;
      vertexEntry = job.vertexEntryPoint ?? entryPoints(job.code, 'vertex')[0];
    } else {
      vmodule = d.createShaderModule({ code: FULLSCREEN_VERTEX_WGSL });
      vertexEntry = 'iridia_fullscreen';
    }
    if (vertexEntry === undefined) return fail('pipeline', ['no @vertex entry point']);
    const bound = await scoped(d, () =>
      this.bind(job.bindings, job.fragmentOnlyBindings ? STAGE_FRAGMENT : STAGE_VERTEX | STAGE_FRAGMENT),
    );
    if (bound.errors.length) return fail('bind', bound.errors);
    const { layouts, groups, readbacks, destroy } = bound.value;
    const pipe = await scoped(d, () =>
      d.createRenderPipeline({
        layout: d.createPipelineLayout({ bindGroupLayouts: layouts }),
        vertex: { module: vmodule, entryPoint: vertexEntry },
        fragment: {
          module: fmodule,
          entryPoint: fragmentEntry,
          targets: job.targets.map((t) => ({
            format: t.format,
            ...(t.writeMask !== undefined ? { writeMask: t.writeMask } : {}),
          })),
        },
        primitive: { topology: 'triangle-list' },
        ...(job.depth
          ? { depthStencil: { format: job.depth.format, depthWriteEnabled: true, depthCompare: 'always' as const } }
          : {}),
      }),
    );
    if (pipe.errors.length) return fail('pipeline', pipe.errors);
    const size = { width: job.width, height: job.height, layers: 1 };
    const targets = job.targets.map((t) => {
      const tex = d.createTexture({
        size: [job.width, job.height],
        format: t.format,
        usage: TEX_RENDER | TEX_COPY_SRC,
      });
      destroy.push(tex);
      return { tex, reader: this.textureReader(tex, { format: t.format, ...size }) };
    });
    const depth = job.depth
      ? (() => {
          const tex = d.createTexture({
            size: [job.width, job.height],
            format: job.depth.format,
            usage: TEX_RENDER | TEX_COPY_SRC,
          });
          destroy.push(tex);
          return { tex, reader: this.textureReader(tex, { format: job.depth.format, ...size }) };
        })()
      : undefined;
    const run = await scoped(d, () => {
      const enc = d.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: targets.map((t) => ({
          view: t.tex.createView(),
          loadOp: 'clear' as const,
          storeOp: 'store' as const,
          clearValue: { r: 0, g: 0, b: 0, a: 0 },
        })),
        ...(depth && job.depth
          ? {
              depthStencilAttachment: {
                view: depth.tex.createView(),
                depthLoadOp: 'clear' as const,
                depthStoreOp: 'store' as const,
                depthClearValue: job.depth.clear ?? 1,
              },
            }
          : {}),
      });
      pass.setPipeline(pipe.value);
      groups.forEach((g, i) => pass.setBindGroup(i, g));
      pass.draw(job.vertexCount ?? 3);
      pass.end();
      for (const t of targets) t.reader.encode(enc);
      if (depth) depth.reader.encode(enc);
      for (const r of readbacks) r.encode(enc);
      d.queue.submit([enc.finish()]);
    });
    if (run.errors.length) return fail('run', run.errors);
    const out: Uint32Array[] = [];
    for (const t of targets) out.push(await t.reader.read());
    const depthWords = depth ? await depth.reader.read() : undefined;
    const outputs: Readback = {};
    for (const r of readbacks) outputs[r.key] = await r.read();
    for (const x of destroy) x.destroy();
    return {
      ok: true,
      targets: out,
      outputs,
      ...(depthWords ? { depth: new Float32Array(depthWords.buffer, depthWords.byteOffset, depthWords.length) } : {}),
    };
  }
}
