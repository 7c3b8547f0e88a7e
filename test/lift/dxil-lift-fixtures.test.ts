// The DXIL lifter on a fresh clone (no ../shared): seven real dxc builds committed under
// test/fixtures/dxil-lift (SDL, SDL_gpu_examples: Zlib; FidelityFX-SDK: MIT; origins in
// test/fixtures/README.md) — two compute programs that write a texture at their thread ids, a
// compute program from one structured buffer to another, three pixel programs (an interpolated colour,
// a sampled texture, a constant buffer) and a vertex program. Each lifts, validates (also after the
// WGSL passes) and, when WebGPU is here, Tint compiles its WGSL; the compute and pixel programs run
// on the executor, and for four of them every word is checked against values worked out by hand
// from their dxc listing (`iridia disasm FILE`). A few seconds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl, lowerForWgsl } from '../../src/wgsl/index.js';
import type { Program } from '../../src/ir/program.js';
import { nearestClampSampler, runCompute, runPixel, seedBindings, type SeededBindings } from '../../src/exec/index.js';

const FILES = [
  'DXIL__FillTexture.comp.dxil',
  'DXIL__GradientTexture.comp.dxil',
  'DXIL__SpriteBatch.comp.dxil',
  'gpu__color.frag.sm60.dxil',
  'DXIL__TexturedQuad.frag.dxil',
  'dx12__FrameInterpolationSwapchainDebugPacingPS.dxil',
  'dx12__FrameInterpolationSwapchainDebugPacingVS.dxil',
];

const load = (name: string): Program => lift(readBytes(join(FIXTURES, 'dxil-lift', name)));
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const bits = (f: number): number => {
  F32[0] = f;
  return U32[0]!;
};
const float = (w: number): number => {
  U32[0] = w;
  return F32[0]!;
};
/** The key and contents of a seeded resource, by Direct3D name. */
const keyOf = (b: SeededBindings, name: string): string => {
  const r = b.resources.find((x) => x.name === name);
  assert.ok(r, `${name} is bound (have ${b.resources.map((x) => x.name).join(', ')})`);
  return r.key;
};

test('every DXIL fixture lifts to a module that validates, also after the WGSL passes', () => {
  const stages: string[] = [];
  for (const f of FILES) {
    const p = load(f);
    assert.equal(p.provenance.bytecode, 'DXIL', f);
    assert.deepEqual(validateModule(p.module), [], f);
    assert.deepEqual(validateModule(lowerForWgsl(p.module, { maxVertices: 1 })), [], f);
    assert.match(emitWgsl(p), /^\/\/ lifted by iridia from DXIL /, f);
    stages.push(p.stage);
  }
  assert.deepEqual(stages, ['compute', 'compute', 'compute', 'pixel', 'pixel', 'pixel', 'vertex']);
});

test('Tint compiles the WGSL of every DXIL fixture', { skip: webgpuSkip() }, async () => {
  const results = await compileWgsl(FILES.map((f) => emitWgsl(load(f))));
  results.forEach((r, i) => assert.ok(r.ok, `${FILES[i]}: ${r.messages.join('\n')}`));
});

test('FillTexture.comp: every thread of the 8x8 group stores (1, 1, 0, 1) at its thread id', () => {
  // textureStore(outImage, (tid.x, tid.y), 1.0, 1.0, 0.0, 1.0) with numthreads(8, 8, 1)
  const p = load('DXIL__FillTexture.comp.dxil');
  const b = seedBindings(p, 7);
  const tex = b.textures[keyOf(b, 'u0,space1')]!;
  assert.deepEqual([tex.width, tex.height], [8, 8]);
  tex.levels[0]!.fill(0xdeadbeef);
  runCompute(p, { buffers: b.buffers, textures: b.textures, workgroups: [1, 1, 1] });
  const one = bits(1);
  for (let i = 0; i < 64; i++)
    assert.deepEqual([...tex.levels[0]!.subarray(i * 4, i * 4 + 4)], [one, one, 0, one], `texel ${i}`);
});

test('GradientTexture.comp: the texel at each thread id is cos(t + x/w, t + 2 + y/h, t + x/w + 4) / 2 + 1/2, alpha 1', () => {
  // dxc's listing: %16 = t + x/w; %18 = (t + 2) + y/h; %19 = %16 + 4; rgb = cos(...) * 0.5 + 0.5;
  // textureStore at (x, y) with alpha 1.0; w, h from GetDimensions (the harness's 8x8 texture), t the
  // first float of cb0 (space2).
  const p = load('DXIL__GradientTexture.comp.dxil');
  const b = seedBindings(p, 7);
  const t = 0.75;
  b.buffers[keyOf(b, 'cb0,space2')]![0] = bits(t);
  const tex = b.textures[keyOf(b, 'u0,space1')]!;
  runCompute(p, { buffers: b.buffers, textures: b.textures, workgroups: [1, 1, 1] });
  const f = Math.fround;
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) {
      const a16 = f(t + f(x / 8));
      const a18 = f(f(t + 2) + f(y / 8));
      const a19 = f(a16 + 4);
      const want = [a16, a18, a19].map((a) => f(f(f(Math.cos(a)) * 0.5) + 0.5));
      const got = tex.levels[0]!.subarray((y * 8 + x) * 4, (y * 8 + x) * 4 + 4);
      for (let k = 0; k < 3; k++)
        assert.ok(
          Math.abs(float(got[k]!) - want[k]!) <= 2e-7,
          `texel ${x},${y}[${k}]: ${float(got[k]!)} vs ${want[k]}`,
        );
      assert.equal(got[3], bits(1), `texel ${x},${y} alpha`);
    }
});

test('color.frag: each pixel outputs its interpolated TEXCOORD0, word for word', () => {
  const p = load('gpu__color.frag.sm60.dxil');
  const n = 4 * 2;
  const input = new Uint32Array(n * 4).map((_, i) => bits((i - 13) / 8));
  const r = runPixel(p, { width: 4, height: 2, inputs: { 0: input } });
  assert.deepEqual([...r.targets[0]!], [...input]);
  assert.deepEqual([...r.written], new Array(n).fill(1));
});

test('TexturedQuad.frag: a pixel whose uv is its texel centre gets that texel (nearest, one level)', () => {
  // Texture.Sample(Sampler, uv) with uv = ((x + 0.5) / 8, (y + 0.5) / 8) on an 8x8 texture
  const p = load('DXIL__TexturedQuad.frag.dxil');
  const b = seedBindings(p, 7);
  const key = keyOf(b, 't0,space2');
  const texels = b.textures[key]!.levels[0]!;
  const uv = new Uint32Array(64 * 4);
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) uv.set([bits((x + 0.5) / 8), bits((y + 0.5) / 8)], (y * 8 + x) * 4);
  const r = runPixel(p, {
    width: 8,
    height: 8,
    inputs: { 0: uv },
    textures: b.textures,
    sample: nearestClampSampler(b.textures, { views: b.views, compare: b.compare }),
  });
  assert.deepEqual([...r.targets[0]!], [...texels]);
});

test('SpriteBatch.comp and DebugPacingPS run on the executor on seeded inputs', () => {
  for (const f of ['DXIL__SpriteBatch.comp.dxil', 'dx12__FrameInterpolationSwapchainDebugPacingPS.dxil']) {
    const p = load(f);
    const b = seedBindings(p, 3);
    const base = {
      buffers: b.buffers,
      textures: b.textures,
      sample: nearestClampSampler(b.textures, { views: b.views, compare: b.compare }),
    };
    if (p.stage === 'compute') {
      const r = runCompute(p, { ...base, workgroups: [1, 1, 1] });
      assert.equal(r.lanes, 64, f);
    } else {
      const r = runPixel(p, { ...base, width: 8, height: 8 });
      assert.equal(r.targets[0]?.length, 256, f);
    }
  }
});
