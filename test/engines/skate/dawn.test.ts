// The pipeline description drawn through Dawn (npm `webgpu` on SwiftShader; skipped where WebGPU
// is absent): fx_normal_mapping's lifted vertex and pixel programs, the constructed opaque raster
// permutation's state as describePipeline gives it (vertex buffers from the input layout, cull back
// with a clockwise front face, depth GreaterEqual with write into depth32float-stencil8, one colour
// target), and a 4x4 target. The expected texels come from the geometry, not from a run: the pixels
// whose centres lie inside the triangle are red and opaque with depth 0.5, the rest keep the clear
// values; the same triangle wound counter-clockwise is culled and leaves everything clear.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../../helpers/shared.js';
import { webgpuEnv, webgpuSkip } from '../../helpers/webgpu.js';

interface Texels {
  color: number[];
  depth: number[];
}
interface Result {
  depthFormat: string;
  errors: string[];
  clockwise: Texels;
  counterClockwise: Texels;
  fatal?: string;
}

/** Runs the child; SwiftShader sometimes aborts in its threads, so a run that prints nothing is retried once. */
function draw(): Result {
  for (let attempt = 0; ; attempt++) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'test/engines/skate/dawn-draw.ts')], {
      env: webgpuEnv(),
      encoding: 'utf8',
      cwd: REPO,
      timeout: 120_000,
    });
    const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
    if (line) return JSON.parse(line) as Result;
    if (attempt >= 1) assert.fail(`the Dawn child printed nothing (status ${r.status}): ${r.stderr.slice(-400)}`);
  }
}

test('the described pipeline draws fx_normal_mapping as the state says', { skip: webgpuSkip() }, () => {
  const r = draw();
  assert.equal(r.fatal, undefined, r.fatal ?? '');
  assert.deepEqual(r.errors, []);
  const SIZE = 4;
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const i = y * SIZE + x;
      const nx = -1 + (2 * x + 1) / SIZE;
      const ny = 1 - (2 * y + 1) / SIZE;
      const inside = nx + ny < 0.1;
      const [red, , , alpha] = r.clockwise.color.slice(4 * i, 4 * i + 4);
      assert.deepEqual([red, alpha, r.clockwise.depth[i]], inside ? [255, 255, 0.5] : [0, 0, 0], `pixel ${x},${y}`);
    }
  assert.ok(
    r.counterClockwise.color.every((c) => c === 0),
    'a counter-clockwise triangle is a back face, culled',
  );
  assert.ok(r.counterClockwise.depth.every((z) => z === 0));
});
