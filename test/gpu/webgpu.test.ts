// The WebGPU harness itself: Tint tells a good module from a bad one, a crash-free batch is sharded,
// and a tiny compute and render pipeline run and read back what they wrote.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { closeWebgpu, compileWgsl, runCompute, runPixel, webgpuSkip } from '../helpers/webgpu.js';

const skip = webgpuSkip();
after(() => closeWebgpu());

const GOOD = `@group(0) @binding(0) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3u) { b[g.x] = g.x * 3u + 1u; }`;
const BAD = `@compute @workgroup_size(1) fn main() { let x: i32 = 1u; }`;

test('Tint tells a known-good WGSL module from a known-bad one', { skip }, async () => {
  const [good, bad] = await compileWgsl([GOOD, BAD]);
  assert.equal(good!.ok, true, good!.messages.join('\n'));
  assert.equal(bad!.ok, false);
  assert.match(bad!.messages.join('\n'), /^error 1:\d+: .*'i32'.*'u32'/m);
});

test('a batch split into shards answers every module in order', { skip }, async () => {
  const sources = Array.from({ length: 9 }, (_, i) => (i % 3 === 2 ? BAD : GOOD));
  const rs = await compileWgsl(sources, { shards: 2, shardSize: 2, pipelines: true });
  assert.deepEqual(
    rs.map((r) => r.ok),
    sources.map((s) => s === GOOD),
  );
});

test(
  'a shard whose process dies is restarted; the module it died on twice is reported as a crash',
  { skip },
  async () => {
    const DIE = `${GOOD}\n// iridia-webgpu-worker: die`;
    const rs = await compileWgsl([GOOD, BAD, DIE, GOOD, BAD], { shards: 1 });
    assert.deepEqual(
      rs.map((r) => [r.ok, r.crashed === true]),
      [
        [true, false],
        [false, false],
        [false, true],
        [true, false],
        [false, false],
      ],
    );
    assert.match(rs[2]!.messages[0]!, /died \(status 134/);
  },
);

test('a compute pipeline runs and its storage buffer reads back', { skip }, async () => {
  const r = await runCompute({
    code: `@group(0) @binding(0) var<uniform> k: vec4u;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3u) { b[g.x] = b[g.x] + g.x * k.x; }`,
    workgroups: [2, 1, 1],
    bindings: [
      { group: 0, binding: 0, type: 'uniform', words: new Uint32Array([10, 0, 0, 0]) },
      { group: 0, binding: 1, type: 'storage', words: new Uint32Array([1, 1, 1, 1, 1, 1, 1, 1, 5]) },
    ],
  });
  assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join('\n')}`);
  assert.deepEqual([...r.outputs['0:1']!], [1, 11, 21, 31, 41, 51, 61, 71, 5]);
});

test('a pixel program draws over a small target and the target reads back', { skip }, async () => {
  const r = await runPixel({
    code: `@group(0) @binding(0) var t: texture_2d<u32>;
@fragment fn ps(@builtin(position) p: vec4f) -> @location(0) vec4u {
  let c = vec2u(p.xy);
  return vec4u(c.x, c.y, textureLoad(t, c, 0).x, u32(p.x * 2.0));
}`,
    width: 4,
    height: 2,
    targets: [{ format: 'rgba32uint' }],
    bindings: [
      {
        group: 0,
        binding: 0,
        type: 'texture',
        texture: { format: 'r32uint', width: 4, height: 2, words: new Uint32Array([7, 6, 5, 4, 3, 2, 1, 0]) },
      },
    ],
  });
  assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join('\n')}`);
  const t = r.targets[0]!;
  // pixel (x, y) at centre (x + 0.5, y + 0.5): (x, y, texel, 2x + 1)
  const want: number[] = [];
  for (let y = 0; y < 2; y++) for (let x = 0; x < 4; x++) want.push(x, y, 7 - (y * 4 + x), 2 * x + 1);
  assert.deepEqual([...t], want);
});

test('a job whose WGSL does not compile fails at the compile stage with Tint`s message', { skip }, async () => {
  const r = await runCompute({ code: BAD, workgroups: [1, 1, 1], bindings: [] });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.stage, 'compile');
});
