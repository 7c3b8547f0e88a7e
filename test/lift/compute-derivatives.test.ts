// Shader Model 6.6 derivatives in compute programs (src/lift/dxil/quad.ts): DerivFineX/Y,
// CalculateLOD and an implicit-level Sample over the thread group's quads (1D: four consecutive
// threads; 2D: 2x2 threads), through workgroup memory and barriers. Proven on vkd3d-proton's
// cs_derivative programs of ../shared (LGPL, so not committed: the test skips without ../shared):
// each thread's coordinates are its (remapped) thread id / 32, so every fine derivative is exactly
// 1/32 and the level of detail of an 8x8 texture log2(8 / 32) = -2; the executor's words must be
// those, and Dawn's the executor's. The 8x9 group (neither layout) is refused by name.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { closeWebgpu, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { LiftRefusal } from '../../src/lift/refuse.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runMesh } from '../../src/exec/mesh.js';
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
    assert.ok(p.notes.some((n) => n.startsWith('derivatives of a compute program are taken across its quads')));
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

test('a compute thread group that is neither a 1D nor a 2D quad layout is refused by name (8x9x1)', (t) => {
  const path = `${DIR}/sm_advanced__cs_derivative_2d_unaligned.dxil`;
  const skip = skipUnlessShared(path);
  if (skip) return t.skip(skip);
  assert.throws(
    () => lift(readBytes(sharedPath(path)!)),
    (e: unknown) =>
      e instanceof LiftRefusal &&
      e.category === 'dx.op not handled' &&
      /in a thread group of 8x9x1 \(Direct3D's compute quads need X a multiple of 4, or X and Y even\)/.test(e.message),
  );
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
