// Shader Model 6.6 derivatives in compute programs (src/lift/dxil/quad.ts): DerivFineX/Y,
// CalculateLOD and an implicit-level Sample over the thread group's quads (1D: four consecutive
// threads; 2D: 2x2 threads), through workgroup memory and barriers. Proven on vkd3d-proton's
// cs_derivative programs of ../shared (LGPL, so not committed: the test skips without ../shared):
// each thread's coordinates are its (remapped) thread id / 32, so every fine derivative is exactly
// 1/32 and the level of detail of an 8x8 texture log2(8 / 32) = -2; the executor's words must be
// those, and Dawn's the executor's. An 8x9 group (not 2D-aligned, 72 threads) takes linear quads,
// run with vkd3d-proton's mip chain against its expected texels; and Shader Model 6.6 quad
// operations follow the same quads (vkd3d-proton's quad-op semantics test).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { closeWebgpu, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runMesh } from '../../src/exec/mesh.js';
import { runCompute, type ExecTexture, type SampleCallback } from '../../src/exec/index.js';
import { FILE_WORDS } from '../../src/exec/stages.js';
import { runOnDawn, runOnExecutor, compareOutputs } from './twins-harness.js';

after(closeWebgpu);

const DIR = 'corpus/dxil/vkd3d-proton';
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const f32 = (w: number): number => ((U32[0] = w), F32[0]!);

// The texels each program writes in the seeded 8x8 u0: the 1D group of 64 threads stores at
// (tid.x, 0), so row 0; the 8x8 group every texel.
for (const [name, texels] of [
  ['sm_advanced__cs_derivative_1d', 8],
  ['sm_advanced__cs_derivative_2d_aligned', 64],
] as const) {
  test(`${name}: fine derivatives 1/32, the level of detail -2, on the executor and Dawn`, async (t) => {
    const path = `${DIR}/${name}.dxil`;
    const skip = skipUnlessShared(path);
    if (skip) return t.skip(skip);
    const p = lift(readBytes(sharedPath(path)!));
    assert.deepEqual(validateModule(p.module), []);
    assert.match(emitWgsl(p), /var<workgroup> iridia_quad: array<vec4<u32>, 64>;/);
    assert.ok(
      p.notes.some((n) =>
        n.startsWith(
          'derivatives (and Shader Model 6.6 quad operations of 2D quads) of a compute program are taken across its quads',
        ),
      ),
    );
    const cpu = runOnExecutor(p, 1).outputs;
    const u0 = cpu['u0']!;
    for (let i = 0; i < texels; i++) {
      const px = [1, 2, 3].map((k) => f32(u0[i * 4 + k]!));
      assert.deepEqual(px, [1 / 32, 1 / 32, -2], `texel ${i}: ddx_fine, ddy_fine, CalculateLevelOfDetailUnclamped`);
    }
    const skipGpu = webgpuSkip();
    if (skipGpu) return t.skip(skipGpu);
    const gpu = await runOnDawn(p, 1);
    const c = compareOutputs(cpu, gpu);
    assert.deepEqual(c.shape, []);
    assert.equal(c.differing, 0, c.first);
  });
}

/** A point-filtered, clamped sampler over a texture's levels (MIN_MAG_MIP_POINT: the level of
 * detail from the derivatives, Direct3D's log2 of the longer footprint axis, to the nearest level). */
function mipPointSampler(tex: ExecTexture): SampleCallback {
  return (req) => {
    const l = req.level;
    let lod = 0;
    if (l.kind === 'exact') lod = l.level;
    else if (l.kind !== 'zero') {
      const len = (d: readonly number[]) => Math.hypot((d[0] ?? 0) * tex.width, (d[1] ?? 0) * tex.height);
      lod = Math.log2(Math.max(len(l.ddx), len(l.ddy))) + (l.kind === 'bias' ? l.bias : 0);
    }
    const m = Math.min(tex.levels.length - 1, Math.max(0, Math.floor(lod + 0.5)));
    const w = Math.max(1, tex.width >> m);
    const h = Math.max(1, tex.height >> m);
    const clamp = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
    const x = clamp(Math.floor(Math.fround((req.coord[0] ?? 0) * w)), w);
    const y = clamp(Math.floor(Math.fround((req.coord[1] ?? 0) * h)), h);
    const i = (y * w + x) * 4;
    return Array.from(tex.levels[m]!.subarray(i, i + 4));
  };
}

const f32bits = (v: number): number => ((F32[0] = v), U32[0]!);

// vkd3d-proton's test_shader_sm66_compute_derivatives: a 128x128 R8_UNORM texture of 8 levels,
// level i filled with i + 1; 2x2 groups of 8x9 threads whose ids the program remaps into linear
// quads (4 consecutive flattened indices: the group is not 2D-aligned, its 72 threads a multiple of
// 4); every texel of the 16x16 result is (3, 1/32, 1/32, 2): level 2 sampled, fine derivatives 1/32.
for (const name of [
  'sm_advanced__cs_derivative_2d_unaligned',
  'tests__d3d12_sm_advanced__cs_derivative_2d_unaligned_dxil',
])
  test(`${name}: an 8x9 group takes linear quads; vkd3d-proton's (3, 1/32, 1/32, 2) at every texel; Dawn agrees`, async (t) => {
    const path = `${DIR}/${name}.dxil`;
    const skip = skipUnlessShared(path);
    if (skip) return t.skip(skip);
    const p = lift(readBytes(sharedPath(path)!));
    assert.deepEqual(validateModule(p.module), []);
    assert.match(emitWgsl(p), /var<workgroup> iridia_quad: array<vec4<u32>, 72>;/);
    const levels = Array.from({ length: 8 }, (_, i) => {
      const w = 128 >> i;
      const words = new Uint32Array(w * w * 4);
      for (let k = 0; k < w * w; k++) {
        words[4 * k] = f32bits(Math.fround((i + 1) / 255));
        words[4 * k + 3] = f32bits(1);
      }
      return words;
    });
    const input: ExecTexture = { width: 128, height: 128, depthOrLayers: 1, levels };
    const out: ExecTexture = { width: 16, height: 16, depthOrLayers: 1, levels: [new Uint32Array(16 * 16 * 4)] };
    runCompute(p, { workgroups: [2, 2, 1], textures: { '1:0': input, '3:0': out }, sample: mipPointSampler(input) });
    const got = out.levels[0]!;
    for (let i = 0; i < 256; i++)
      assert.deepEqual(
        [0, 1, 2, 3].map((k) => f32(got[4 * i + k]!)),
        [3, 1 / 32, 1 / 32, 2],
        `texel (${i % 16}, ${i >> 4})`,
      );
    // on Dawn: a seeded run's words equal the executor's
    const skipGpu = webgpuSkip();
    if (skipGpu) return t.skip(skipGpu);
    const c = compareOutputs(runOnExecutor(p, 1).outputs, await runOnDawn(p, 1));
    assert.deepEqual(c.shape, []);
    assert.equal(c.differing, 0, c.first);
  });

// vkd3d-proton's test_shader_sm66_quad_op_semantics: a 16x16 R32_FLOAT texture of 1 + 16y + x;
// each thread writes (v, QuadReadAcrossX, QuadReadAcrossY, QuadReadAcrossDiagonal) of its texel. A
// Shader Model 6.6 8x8 group takes 2D quads (thread-id quads through iridia_quad): the neighbours
// are x ^ 1, y ^ 1 and both; an 8x9 group linear ones: x ^ 1, x ^ 2, x ^ 3 in the row.
for (const [name, twoD] of [
  ['sm_advanced__cs_quad_swap_2d_sm66', true],
  ['tests__d3d12_sm_advanced__cs_quad_swap_2d_sm66_dxil', true],
  ['sm_advanced__cs_quad_swap_2d_unaligned', false],
] as const)
  test(`${name}: vkd3d-proton's ${twoD ? '2D' : 'linear'} quad reads on the executor${twoD ? ', a seeded run on Dawn too' : ''}`, async (t) => {
    const path = `${DIR}/${name}.dxil`;
    const skip = skipUnlessShared(path);
    if (skip) return t.skip(skip);
    const p = lift(readBytes(sharedPath(path)!));
    assert.deepEqual(validateModule(p.module), []);
    assert.equal(/iridia_quad/.test(emitWgsl(p)), twoD);
    const words = new Uint32Array(16 * 16 * 4);
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) words[4 * (16 * y + x)] = f32bits(1 + 16 * y + x);
    const input: ExecTexture = { width: 16, height: 16, depthOrLayers: 1, levels: [words] };
    const out: ExecTexture = { width: 16, height: 16, depthOrLayers: 1, levels: [new Uint32Array(16 * 16 * 4)] };
    runCompute(p, { workgroups: [2, 2, 1], textures: { '1:0': input, '3:0': out } });
    const got = out.levels[0]!;
    const at = (x: number, y: number) => 1 + 16 * y + x;
    for (let y = 0; y < 16; y++)
      for (let x = 0; x < 16; x++) {
        const want = twoD
          ? [at(x, y), at(x ^ 1, y), at(x, y ^ 1), at(x ^ 1, y ^ 1)]
          : [at(x, y), at(x ^ 1, y), at(x ^ 2, y), at(x ^ 3, y)];
        const i = 4 * (16 * y + x);
        assert.deepEqual(
          [0, 1, 2, 3].map((k) => f32(got[i + k]!)),
          want,
          `texel (${x}, ${y})`,
        );
      }
    // the exchange's WGSL (2D quads) on Dawn: a seeded run's words equal the executor's
    if (!twoD) return;
    const skipGpu = webgpuSkip();
    if (skipGpu) return t.skip(skipGpu);
    const c = compareOutputs(runOnExecutor(p, 1).outputs, await runOnDawn(p, 1));
    assert.deepEqual(c.shape, []);
    assert.equal(c.differing, 0, c.first);
  });

// mesh_shader__ms_derivatives (numthreads(16, 8, 1), a 2D quad layout): vertex y * 16 + x gets
// (|ddx_fine a|, |ddy_fine a|, |ddx_fine b|, |ddy_fine b|) with a = x * c1, b = y * c2 in its second
// row; the fine derivative of a is the f32 difference of the right and left lanes' products.
test('mesh_shader__ms_derivatives: fine derivatives across the 2x2 quads of a mesh thread group', (t) => {
  const path = `${DIR}/mesh_shader__ms_derivatives.dxil`;
  const skip = skipUnlessShared(path);
  if (skip) return t.skip(skip);
  const p = lift(readBytes(sharedPath(path)!));
  assert.deepEqual(validateModule(p.module), []);
  const r = runMesh(p);
  const c1 = f32(0x3d888889); // 0x3FB1111120000000 as f32
  const c2 = f32(0x3e124925); // 0x3FC24924A0000000 as f32
  const fr = Math.fround;
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 16; x++) {
      const v = y * 16 + x;
      const row = r.vertices.subarray(v * FILE_WORDS + 4, v * FILE_WORDS + 8);
      const x0 = x & ~1;
      const y0 = y & ~1;
      const want = [fr(fr((x0 + 1) * c1) - fr(x0 * c1)), 0, 0, fr(fr((y0 + 1) * c2) - fr(y0 * c2))];
      assert.deepEqual([...row].map(f32), want, `vertex ${v}`);
    }
});
