// The draw's start vertex and instance (LiftOptions.startVertexLocation/startInstanceLocation):
// Direct3D's SV_VertexID and SV_InstanceID exclude them, WGSL's vertex_index and instance_index
// include them, so both lifters give SV_* as vertex_index - start and instance_index - start, and
// Shader Model 6.8's StartVertexLocation()/StartInstanceLocation() the option's constants.
// vkd3d-proton's test_shader_sm68_draw_parameters program (vs_draw_args: each vertex sets bit
// vertex_id + instance_id * vertex_count of out_args[draw_id] when the start locations it reads
// equal the draw's) run on the executor for the test's four DrawInstanced calls, each lifted with
// its draw's starts and run with them as WebGPU would draw (firstVertex, firstInstance included in
// the ids): the expected mask (2 << (vertex_count * instance_count - 1)) - 1. vkd3d-proton's program
// (LGPL) is read from ../shared (the test skips without it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { runVertex } from '../../src/exec/index.js';
import type { Program } from '../../src/ir/program.js';

const PATH = 'corpus/dxil/vkd3d-proton/sm_advanced__vs_draw_args.dxil';

// { draw_id, vertex_count, instance_count, base_vertex, base_instance }, the test's draws
const DRAWS = [
  [0, 3, 1, 0, 0],
  [1, 3, 1, 4, 2],
  [2, 1, 5, 2, 8],
  [3, 4, 8, 7, 9],
] as const;

/** The vertex program lifted as a stage function (it writes a UAV), given a vertex entry point. */
function asEntry(p: Program): Program {
  const sf = p.stageFunctions!;
  return { ...p, module: { ...p.module, entryPoints: [{ name: 'main', stage: 'vertex', function: sf.main }] } };
}

function draw(bytes: Uint8Array, starts: boolean): Uint32Array {
  const args = new Uint32Array(DRAWS.flat());
  const out = new Uint32Array(4);
  for (const [id, vc, ic, bv, bi] of DRAWS) {
    const p = lift(bytes, starts ? { startVertexLocation: bv, startInstanceLocation: bi } : {});
    assert.deepEqual(validateModule(p.module), []);
    if (starts)
      assert.ok(p.notes.some((n) => n.startsWith(`the draw's start vertex is ${bv} and its start instance ${bi}`)));
    for (let i = 0; i < ic; i++)
      runVertex(asEntry(p), {
        vertexCount: vc,
        firstVertex: bv,
        instanceIndex: bi + i,
        buffers: { '0:0': Uint32Array.of(id, 0, 0, 0), '1:0': args, '3:0': out },
      });
  }
  return out;
}

test("vs_draw_args: SV_VertexID/SV_InstanceID and SM6.8's start locations per draw (vkd3d-proton's masks)", (t) => {
  const skip = skipUnlessShared(PATH);
  if (skip) return t.skip(skip);
  const bytes = readBytes(sharedPath(PATH)!);
  const want = DRAWS.map(([, vc, ic]) => ((2 << (vc * ic - 1)) - 1) >>> 0);
  assert.deepEqual([...draw(bytes, true)], want);
  // lifted without the starts, only the draw whose starts are 0 matches
  assert.deepEqual([...draw(bytes, false)], [want[0], 0, 0, 0]);
});

// The SM4/5 lifter's SV_VertexID likewise: a program lifted with startVertexLocation 5 and drawn
// with firstVertex 5 computes what the one lifted without it computes drawn from 0.
test('an SM4/5 vertex program reading SV_VertexID: vertex_index less the start vertex', () => {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'era/angle_buffertotexture11_vs__0941b27f.dxbc')));
  const cb = new Uint32Array(16).map((_, k) => (k * 2654435761) >>> 0);
  const run = (p: Program, firstVertex: number) =>
    runVertex(p, { vertexCount: 8, firstVertex, instanceIndex: 3, buffers: { '0:0': cb } }).outputs;
  const plain = lift(bytes);
  const started = lift(bytes, { startVertexLocation: 5, startInstanceLocation: 3 });
  assert.ok(started.notes.some((n) => n.startsWith("the draw's start vertex is 5 and its start instance 3")));
  assert.ok(!plain.notes.some((n) => n.startsWith("the draw's start vertex")));
  assert.deepEqual(run(started, 5), run(plain, 0));
  assert.notDeepEqual(run(plain, 5), run(plain, 0));
});
