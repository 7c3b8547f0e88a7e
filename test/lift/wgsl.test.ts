// Tint (Dawn's WGSL compiler, npm `webgpu`) compiles the WGSL of every committed fixture that lifts.
// Runs whenever the WebGPU package and a driver are present (SwiftShader without a GPU).

import { after, test } from 'node:test';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { FIXTURES, readBytes, walk } from '../helpers/shared.js';
import { closeWebgpu, compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { diffCompute } from '../exec/diff-harness.js';
import { lift } from '../../src/lift/lift.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { IridiaError } from '../../src/errors.js';

after(() => closeWebgpu());

test('Tint compiles the WGSL of every lifted fixture', { skip: webgpuSkip() }, async () => {
  const modules: { name: string; code: string }[] = [];
  for (const f of walk(FIXTURES)) {
    if (!f.endsWith('.dxbc')) continue;
    const bytes = readBytes(f);
    if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'DXBC') continue;
    try {
      modules.push({ name: f, code: emitWgsl(lift(bytes)) });
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
    }
  }
  assert.ok(modules.length > 30);
  const results = await compileWgsl(modules.map((m) => m.code));
  const failed = results
    .map((r, i) => (r.ok ? undefined : `${modules[i]!.name}: ${r.messages.join(' | ')}`))
    .filter((x): x is string => x !== undefined);
  assert.deepEqual(failed, []);
  console.log(`Tint compiled ${results.length} fixture modules`);
});

// Dawn prints its compilation logs on the worker's stdout, between the protocol's reply lines: a module
// with a warning (unreachable code) must not break the batch, and a module Tint refuses is reported as
// that module's failure, in every shard, while the modules around it compile.
test(
  'Dawn log text between replies: warnings and a bad module among good ones, sharded',
  { skip: webgpuSkip() },
  async () => {
    const GOOD = `@group(0) @binding(0) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3u) { b[g.x] = g.x; }`;
    const WARN = `@group(0) @binding(0) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3u) { return; b[g.x] = 1u; }`;
    const BAD = `@compute @workgroup_size(1) fn main() { let x: i32 = 1u; }`;
    const sources = [GOOD, WARN, BAD, WARN, GOOD, BAD, WARN, GOOD];
    const rs = await compileWgsl(sources, { shards: 2, shardSize: 2, pipelines: true });
    assert.deepEqual(
      rs.map((r) => [r.ok, r.crashed === true]),
      sources.map((s) => [s !== BAD, false]),
    );
    for (const [i, r] of rs.entries()) {
      if (sources[i] === BAD) assert.match(r.messages[0]!, /^error 1:\d+: .*'i32'.*'u32'/);
      if (sources[i] === WARN) assert.ok(r.messages.some((m) => /^warning 2:\d+: code is unreachable/.test(m)));
      if (sources[i] === GOOD)
        assert.deepEqual(
          r.messages.filter((m) => !m.startsWith('log: ')),
          [],
        );
    }
    // the log text Dawn printed is kept with the module that caused it
    assert.ok(rs[1]!.messages.some((m) => m.startsWith('log: ') && m.includes('code is unreachable')));
  },
);

// A 16x16 thread group loading an 8x8 texture (the diff harness's size): Direct3D and the executor read
// zero past the edge; the lifted WGSL must too, whatever the implementation's textureLoad returns there.
test(
  'an ld past the texture edge reads zero on Dawn as on the executor (fx_histogram)',
  { skip: webgpuSkip() },
  async () => {
    const p = lift(readBytes(join(FIXTURES, 'exec', 'fx_histogram-main-cs_5_0.dxbc')));
    const v = await diffCompute(p, 12345);
    assert.equal(v.kind, 'agree', JSON.stringify(v));
  },
);
