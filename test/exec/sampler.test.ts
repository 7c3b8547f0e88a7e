// The reference sampling callback (src/exec/sampler.ts): cube face selection and face coordinates from
// Direct3D's and Vulkan's cube table, seamless gathers across a face edge, comparison sampling, 3D
// slices. Worked by hand from the tables; no GPU or shared data needed (diff.test.ts compares the same
// callback with Dawn on the oracle's programs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cubeFace, nearestClampSampler, type ExecTexture, type SampleRequest } from '../../src/exec/index.js';

const f32 = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;

/** A texture whose texel (layer, x, y) holds layer * 100 + y * 10 + x in its first word. */
function labelled(size: number, layers: number): ExecTexture {
  const words = new Uint32Array(size * size * layers * 4);
  for (let l = 0; l < layers; l++)
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) words[((l * size + y) * size + x) * 4] = l * 100 + y * 10 + x;
  return { width: size, height: size, depthOrLayers: layers, levels: [words] };
}

function req(coord: number[], extra: Partial<SampleRequest> = {}): SampleRequest {
  return { texture: 't', sampler: 's', coord, level: { kind: 'zero' }, lane: 0, ...extra };
}

test('cube faces and face coordinates follow the cube table', () => {
  assert.deepEqual(cubeFace(1, 0, 0), { face: 0, s: 0.5, t: 0.5 });
  assert.deepEqual(cubeFace(-1, 0.5, 0), { face: 1, s: 0.5, t: 0.25 }); // -X: s = z, t = -y
  assert.deepEqual(cubeFace(0.5, 1, -0.5), { face: 2, s: 0.75, t: 0.25 }); // +Y: s = x, t = z
  assert.deepEqual(cubeFace(0.5, -1, -0.5), { face: 3, s: 0.75, t: 0.75 }); // -Y: s = x, t = -z
  assert.deepEqual(cubeFace(0.5, 0.5, 1), { face: 4, s: 0.75, t: 0.25 }); // +Z: s = x, t = -y
  assert.deepEqual(cubeFace(0.5, 0.5, -1), { face: 5, s: 0.25, t: 0.25 }); // -Z: s = -x, t = -y
  assert.deepEqual(cubeFace(2, 0, -1), { face: 0, s: 0.75, t: 0.5 }); // +X: s = -z, divided by |x|
  // Ties: z wins over x and y, y over x.
  assert.equal(cubeFace(1, 1, 1).face, 4);
  assert.equal(cubeFace(1, -1, 0).face, 3);
});

test('cube sampling picks the face layer (6 a cube) and the nearest texel', () => {
  const sample = nearestClampSampler({ t: labelled(8, 12) }, { views: { t: 'cube' } });
  // +Y face, s = 0.75 -> x 6, t = 0.25 -> y 2.
  assert.equal(sample(req([0.5, 1, -0.5]))[0], 200 + 26);
  // The second cube of an array: layers 6..11.
  assert.equal(sample(req([0.5, 1, -0.5], { arrayIndex: 1 }))[0], 800 + 26);
  // An array index past the end is clamped to the last cube.
  assert.equal(sample(req([-1, 0, 0], { arrayIndex: 7 }))[0], 700 + 44);
});

test('a cube gather over a face edge takes the neighbouring face texels', () => {
  const sample = nearestClampSampler({ t: labelled(8, 6) }, { views: { t: 'cube' } });
  // +X face at s = (1 - 0.99) / 2 = 0.005 (u = 0.04), t = 0.5: the footprint's left column is off the
  // face, on +Z's right column (x 7); rows 3 and 4 on both faces.
  const g = sample(req([1, 0, 0.99], { gather: 0 }));
  assert.deepEqual(g, [400 + 47, 0 + 40, 0 + 30, 400 + 37]);
});

test('comparison sampling compares the reference with the texel through the sampler function', () => {
  const words = new Uint32Array(4 * 4 * 4);
  for (let i = 0; i < 16; i++) words[i * 4] = f32(i / 16);
  const tex: ExecTexture = { width: 4, height: 4, depthOrLayers: 1, levels: [words] };
  const one = f32(1);
  const lessEqual = nearestClampSampler({ t: tex }, { compare: { s: 'less-equal' } });
  // Texel (1, 2) holds 9/16.
  const at = [1.5 / 4, 2.5 / 4];
  assert.equal(lessEqual(req(at, { depthRef: 0.5 }))[0], one);
  assert.equal(lessEqual(req(at, { depthRef: 9 / 16 }))[0], one);
  assert.equal(lessEqual(req(at, { depthRef: 0.6 }))[0], 0);
  const greater = nearestClampSampler({ t: tex }, { compare: { s: 'greater' } });
  assert.equal(greater(req(at, { depthRef: 0.6 }))[0], one);
  // A sampler with no function named: 'never'.
  assert.equal(nearestClampSampler({ t: tex })(req(at, { depthRef: 0.5 }))[0], 0);
  // A comparison gather: each texel of the footprint compared, in Direct3D's order.
  const g = lessEqual(req([0.5, 0.5], { depthRef: 6 / 16, gather: 0 }));
  // Footprint x 1..2, y 1..2: (1,2)=9/16, (2,2)=10/16, (2,1)=6/16, (1,1)=5/16.
  assert.deepEqual(g, [one, one, one, 0]);
});

test('3D sampling selects the slice from the third coordinate', () => {
  const sample = nearestClampSampler({ t: labelled(4, 4) }, { views: { t: '3d' } });
  assert.equal(sample(req([0.3, 0.6, 0.8]))[0], 300 + 21);
  // Without the view, the texture reads as 2D (slice 0).
  assert.equal(nearestClampSampler({ t: labelled(4, 4) })(req([0.3, 0.6, 0.8]))[0], 21);
});
