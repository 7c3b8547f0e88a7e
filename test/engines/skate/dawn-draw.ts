// A child process (run by dawn.test.ts with webgpuEnv()): draws fx_normal_mapping's lifted vertex
// and pixel programs through Dawn with the pipeline describePipeline gives for the constructed
// opaque raster permutation (its primitive, depth-stencil, colour-target and vertex-buffer state,
// unchanged), and prints one JSON line: the colour and depth texels of a 4x4 target after a front-
// facing triangle (clockwise: the state's front face is clockwise and it culls back faces) and after
// the same triangle wound the other way.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lift } from '../../../src/lift/lift.js';
import { emitWgsl } from '../../../src/wgsl/index.js';
import { programFacts } from '../../../src/engines/skate/program.js';
import { checkInputLayout } from '../../../src/engines/skate/input-check.js';
import { describePipeline } from '../../../src/engines/skate/pipeline.js';
import { REPO } from '../../helpers/shared.js';
import * as F from './fixtures.js';

const BUF_MAP_READ = 0x1;
const BUF_COPY_DST = 0x8;
const BUF_VERTEX = 0x20;
const BUF_UNIFORM = 0x40;
const TEX_COPY_SRC = 0x1;
const TEX_COPY_DST = 0x2;
const TEX_BINDING = 0x4;
const TEX_RENDER = 0x10;
const MAP_READ = 0x1;
const SIZE = 4;

const dir = join(REPO, 'test/fixtures/skate/fx_normal_mapping');
const vsBytes = new Uint8Array(readFileSync(join(dir, 'vsmain-vs_5_0/shader.dxbc')));
const psBytes = new Uint8Array(readFileSync(join(dir, 'psmain-ps_5_0/shader.dxbc')));
const vs = lift(vsBytes);
const ps = lift(psBytes);
const layout = F.layout();
const check = checkInputLayout(layout, programFacts(vsBytes).inputs, F.USAGE_NAMES);
const desc = describePipeline(F.opaqueState(), { inputLayout: layout, check, vertexProgram: vs, pixelProgram: ps });

/** Slot 0: POSITION float32x3 at 0, TANGENT snorm8x4 at 12, TEXCOORD float16x2 at 16 (stride 20);
 * slot 1: NORMAL float32x3 (stride 12). A triangle covering NDC x + y < 0.1 at depth 0.5, its
 * vertices clockwise or counter-clockwise in normalised device coordinates (y up). */
function vertexData(clockwise: boolean): { slot0: Uint8Array; slot1: Uint8Array } {
  const pts = clockwise
    ? [
        [-1, -1],
        [-1, 1.1],
        [1.1, -1],
      ]
    : [
        [-1, -1],
        [1.1, -1],
        [-1, 1.1],
      ];
  const slot0 = new Uint8Array(60);
  const slot1 = new Uint8Array(36);
  const v0 = new DataView(slot0.buffer);
  const v1 = new DataView(slot1.buffer);
  pts.forEach(([x, y], i) => {
    v0.setFloat32(i * 20, x!, true);
    v0.setFloat32(i * 20 + 4, y!, true);
    v0.setFloat32(i * 20 + 8, 0.5, true);
    v0.setInt8(i * 20 + 12, 127); // tangent (1, 0, 0, 1)
    v0.setInt8(i * 20 + 15, 127);
    v0.setUint16(i * 20 + 16, 0x3800, true); // texcoord (0.5, 0.5) as f16
    v0.setUint16(i * 20 + 18, 0x3800, true);
    v1.setFloat32(i * 12 + 8, 1, true); // normal (0, 0, 1)
  });
  return { slot0, slot1 };
}

async function main(): Promise<void> {
  const webgpu = (await import('webgpu')) as { create(options: string[]): GPU };
  const gpu = webgpu.create([]);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('no adapter');
  const features = (['depth32float-stencil8'] as GPUFeatureName[]).filter((f) => adapter.features.has(f));
  const depthFormat = features.includes('depth32float-stencil8' as GPUFeatureName)
    ? desc.webgpu.depthStencil.format
    : 'depth32float';
  const d = await adapter.requestDevice({ requiredFeatures: features });
  const errors: string[] = [];
  d.pushErrorScope('validation');
  const vmodule = d.createShaderModule({ code: emitWgsl(vs) });
  const fmodule = d.createShaderModule({ code: emitWgsl(ps) });
  const pipeline = d.createRenderPipeline({
    layout: 'auto',
    vertex: {
      module: vmodule,
      entryPoint: 'main',
      buffers: desc.webgpu.vertexBuffers.map((b) => ({
        arrayStride: b.arrayStride,
        stepMode: b.stepMode,
        attributes: b.attributes.map((a) => ({ ...a, format: a.format as GPUVertexFormat })),
      })),
    },
    fragment: {
      module: fmodule,
      entryPoint: 'main',
      targets: desc.webgpu.targets.map((t) => (t ? { format: 'rgba8unorm' as const, writeMask: t.writeMask } : null)),
    },
    primitive: {
      topology: desc.webgpu.primitive.topology,
      frontFace: desc.webgpu.primitive.frontFace,
      cullMode: desc.webgpu.primitive.cullMode as GPUCullMode,
    },
    depthStencil: {
      ...desc.webgpu.depthStencil,
      format: depthFormat as GPUTextureFormat,
      depthCompare: desc.webgpu.depthStencil.depthCompare as GPUCompareFunction,
    },
  });
  // Obj: World and WVP the identity, LightDir (0, 0, -1), Eye (0, 0, -1).
  const cb = new Float32Array(40);
  for (let i = 0; i < 4; i++) {
    cb[i * 5] = 1;
    cb[16 + i * 5] = 1;
  }
  cb[34] = -1;
  cb[38] = -1;
  const cbuf = d.createBuffer({ size: cb.byteLength, usage: BUF_UNIFORM | BUF_COPY_DST });
  d.queue.writeBuffer(cbuf, 0, cb);
  const texture = (rgba: number[]): GPUTexture => {
    const t = d.createTexture({ size: [1, 1], format: 'rgba8unorm', usage: TEX_BINDING | TEX_COPY_DST });
    d.queue.writeTexture({ texture: t }, new Uint8Array(rgba), { bytesPerRow: 4 }, [1, 1]);
    return t;
  };
  const albedo = texture([255, 0, 0, 255]);
  const normal = texture([128, 128, 255, 255]);
  const groups = [
    d.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: cbuf } }],
    }),
    d.createBindGroup({
      layout: pipeline.getBindGroupLayout(1),
      entries: [
        { binding: 0, resource: albedo.createView() },
        { binding: 1, resource: normal.createView() },
      ],
    }),
    d.createBindGroup({
      layout: pipeline.getBindGroupLayout(2),
      entries: [{ binding: 0, resource: d.createSampler() }],
    }),
  ];
  const draw = async (clockwise: boolean): Promise<{ color: number[]; depth: number[] }> => {
    const color = d.createTexture({ size: [SIZE, SIZE], format: 'rgba8unorm', usage: TEX_RENDER | TEX_COPY_SRC });
    const depth = d.createTexture({
      size: [SIZE, SIZE],
      format: depthFormat as GPUTextureFormat,
      usage: TEX_RENDER | TEX_COPY_SRC,
    });
    const { slot0, slot1 } = vertexData(clockwise);
    const vb = [slot0, slot1].map((data) => {
      const b = d.createBuffer({ size: data.byteLength, usage: BUF_VERTEX | BUF_COPY_DST });
      d.queue.writeBuffer(b, 0, data);
      return b;
    });
    const enc = d.createCommandEncoder();
    const pass = enc.beginRenderPass({
      colorAttachments: [{ view: color.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }],
      depthStencilAttachment: {
        view: depth.createView(),
        depthLoadOp: 'clear',
        depthStoreOp: 'store',
        depthClearValue: 0,
        ...(depthFormat === 'depth32float'
          ? {}
          : { stencilLoadOp: 'clear', stencilStoreOp: 'store', stencilClearValue: 0 }),
      },
    });
    pass.setPipeline(pipeline);
    groups.forEach((g, i) => pass.setBindGroup(i, g));
    vb.forEach((b, i) => pass.setVertexBuffer(i, b));
    pass.draw(3);
    pass.end();
    const colorOut = d.createBuffer({ size: 256 * SIZE, usage: BUF_COPY_DST | BUF_MAP_READ });
    const depthOut = d.createBuffer({ size: 256 * SIZE, usage: BUF_COPY_DST | BUF_MAP_READ });
    enc.copyTextureToBuffer({ texture: color }, { buffer: colorOut, bytesPerRow: 256 }, [SIZE, SIZE]);
    enc.copyTextureToBuffer({ texture: depth, aspect: 'depth-only' }, { buffer: depthOut, bytesPerRow: 256 }, [
      SIZE,
      SIZE,
    ]);
    d.queue.submit([enc.finish()]);
    await colorOut.mapAsync(MAP_READ);
    await depthOut.mapAsync(MAP_READ);
    const c = new Uint8Array(colorOut.getMappedRange());
    const z = new Float32Array(depthOut.getMappedRange());
    const colorTexels: number[] = [];
    const depthTexels: number[] = [];
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) {
        colorTexels.push(...c.subarray(y * 256 + x * 4, y * 256 + x * 4 + 4));
        depthTexels.push(z[y * 64 + x]!);
      }
    return { color: colorTexels, depth: depthTexels };
  };
  const clockwise = await draw(true);
  const counterClockwise = await draw(false);
  const err = await d.popErrorScope();
  if (err) errors.push(err.message);
  process.stdout.write(`${JSON.stringify({ depthFormat, errors, clockwise, counterClockwise, notes: desc.notes })}\n`);
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stdout.write(`${JSON.stringify({ fatal: e instanceof Error ? e.message : String(e) })}\n`);
  process.exit(0);
});
