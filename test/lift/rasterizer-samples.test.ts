// The rasterizer's sample count and pattern (sampleinfo/samplepos of `rasterizer`; DXIL's
// RenderTargetGetSampleCount/RenderTargetGetSamplePosition): the pipeline's, which a program does not
// carry, so the caller gives it to the lift (LiftOptions.rasterizerSampleCount, default 1) and the
// positions are Direct3D's standard pattern for that count. Proven on our own ps_sample_count_forms
// (test/fixtures/lift) against the D3D11 standard sample positions, with an 8-sample texture beside.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { IridiaError } from '../../src/errors.js';
import { validateModule } from '../../src/ir/validate.js';
import { runPixel } from '../../src/exec/index.js';

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const f32 = (w: number): number => ((U32[0] = w), F32[0]!);
const bytes = () => readBytes(join(FIXTURES, 'lift/ps_sample_count_forms/main-ps_5_0/shader.dxbc'));

// Direct3D's standard positions in 1/16 pixel: 4 samples, then 8 samples (D3D11 "standard
// multisample quality levels").
const FOUR = [
  [-2, -6],
  [6, -2],
  [-6, 2],
  [2, 6],
];
const EIGHT = [
  [1, -3],
  [-1, 3],
  [5, 1],
  [-3, -5],
  [-5, 5],
  [-7, -1],
  [3, 7],
  [7, -7],
];

// o0 = (rasterizer position i + MS8 position i+1, sample count + 8, sample count as float)
function run(options: { rasterizerSampleCount?: number }, i: number): number[] {
  const p = lift(bytes(), options);
  assert.deepEqual(validateModule(p.module), []);
  const loc = p.interface.inputs.find((v) => v.semantic === 'I')!.location!;
  const texels = new Uint32Array(4 * 4);
  const r = runPixel(p, {
    width: 1,
    height: 1,
    inputs: { [loc]: Uint32Array.of(i, 0, 0, 0) },
    textures: { '1:0': { width: 2, height: 2, depthOrLayers: 1, levels: [texels], samples: 8 } },
  });
  return [...r.targets[0]!].map(f32);
}

for (const i of [0, 1, 3]) {
  test(`rasterizerSampleCount 4, sample ${i}: the standard 4-sample position, count 4`, () => {
    const [qx, qy] = FOUR[i]!;
    const [px, py] = EIGHT[i + 1]!;
    assert.deepEqual(run({ rasterizerSampleCount: 4 }, i), [(qx! + px!) / 16, (qy! + py!) / 16, 12, 4]);
  });
}

test('by default the rasterizer has one sample at the centre; a sample past the count is at (0, 0)', () => {
  const [px, py] = EIGHT[1]!;
  assert.deepEqual(run({}, 0), [px! / 16, py! / 16, 9, 1]);
  const [sx, sy] = EIGHT[3]!;
  assert.deepEqual(run({}, 2), [sx! / 16, sy! / 16, 9, 1]);
  assert.ok(lift(bytes()).notes.some((n) => n.includes("the rasterizer's sample count is 1")));
});

test('a rasterizer sample count Direct3D has no standard pattern for is refused as invalid', () => {
  assert.throws(
    () => lift(bytes(), { rasterizerSampleCount: 3 }),
    (e: unknown) => e instanceof IridiaError && /rasterizerSampleCount option is 3/.test(e.message),
  );
});

const DXIL = 'corpus/dxil/vkd3d-proton/tests__d3d12_shaders__ps_code_dxil_d01924b6_3.dxil';
test('DXIL: RenderTargetGetSampleCount is the option', (t) => {
  const skip = skipUnlessShared(DXIL);
  if (skip) return t.skip(skip);
  const p = lift(readBytes(sharedPath(DXIL)!), { rasterizerSampleCount: 8 });
  assert.deepEqual(validateModule(p.module), []);
  assert.ok(p.notes.some((n) => n.includes("the rasterizer's sample count is 8 (the lift option")));
});
