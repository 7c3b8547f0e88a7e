// Geometry programs writing several streams (emit_stream/cut_stream m1..m3; DXIL EmitStream and
// CutStream with a stream id): every stream lifts, each emitted vertex carries its stream, each
// stream's outputs are in the interface with their stream, and Tint compiles the WGSL. Proven by
// running dxc's multiStreamGS test program (fxc build, test/fixtures/lift/streams) against the
// words its listing gives, and the DXIL builds of ../shared's vkd3d-proton gs_mismatch_so programs
// when ../shared is present.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { closeWebgpu, compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runGeometry, FILE_WORDS } from '../../src/exec/index.js';

after(closeWebgpu);

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const bits = (f: number): number => ((F32[0] = f), U32[0]!);
const GS = join(FIXTURES, 'lift/streams/DXILValidation.multiStreamGS/main-gs_5_0/shader.dxbc');

test('multiStreamGS: the outputs of streams 0, 1 and 2 are in the interface with their stream', () => {
  const p = lift(readBytes(GS));
  assert.deepEqual(validateModule(p.module), []);
  assert.deepEqual(
    p.interface.outputs.map((v) => [v.semantic, v.semanticIndex, v.register, v.mask, v.stream ?? 0]),
    [
      ['SV_Position', 0, 0, 0xf, 0],
      ['AAA', 0, 1, 0x3, 0],
      ['XXX', 0, 0, 0x7, 1],
      ['PPP', 0, 1, 0xf, 1],
      ['PPP', 1, 2, 0xf, 1],
      ['PPP', 2, 3, 0xf, 1],
      ['YYY', 0, 4, 0x7, 1],
      ['SV_Position', 0, 0, 0xf, 2],
      ['AAA', 0, 1, 0x3, 2],
    ],
  );
  assert.ok(p.notes.some((n) => n.includes('writes streams 0, 1, 2') && n.includes('RasterizedStream')));
});

// The listing: with cb0[0].x set, stream 0 gets (v, v.xy) and is cut, then r0.w = ftou(v.x);
// otherwise r0.w = ftou(v.w) and stream 1 gets one vertex. Then, either way, stream 1 gets
// o0.xyz = (r0.w, ftou(v.y), ftou(v.z)), o1 = o2 = 0, o3 = 44 v, o4.xyz = ftou(v.xyz), and
// stream 2 gets (v, v.xy).
for (const flag of [1, 0]) {
  test(`multiStreamGS with cb0[0].x = ${flag}: each vertex of its stream, with the listing's words`, () => {
    const p = lift(readBytes(GS));
    const v = [1.5, 2.5, 3, 7];
    const inputs = new Uint32Array(FILE_WORDS);
    inputs.set(v.map(bits));
    const r = runGeometry(p, { primitives: 1, inputs, buffers: { '0:0': Uint32Array.of(flag, 0, 0, 0) } });
    // each vertex's words as its stream's elements place them (registers after an emit are undefined)
    const elementWords = (stream: number, r: Uint32Array): number[] =>
      stream === 1
        ? [...r.subarray(0, 3), ...r.subarray(4, 16), ...r.subarray(16, 19)]
        : [...r.subarray(0, 4), ...r.subarray(4, 6)];
    const s1 = (w: number) => [w, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, ...v.map((x) => bits(44 * x)), 1, 2, 3];
    const s02 = [...v.map(bits), bits(1.5), bits(2.5)];
    const want = flag
      ? [
          [0, 0, s02],
          [1, 0, s1(1)],
          [2, 0, s02],
        ]
      : [
          [1, 0, s1(7)],
          [1, 1, s1(7)],
          [2, 0, s02],
        ];
    assert.deepEqual(
      r.vertices.map((x) => [x.stream, x.strip, elementWords(x.stream, x.registers)]),
      want,
    );
  });
}

test('multiStreamGS: the WGSL records each vertex with its stream, and Tint compiles it', async (t) => {
  const w = emitWgsl(lift(readBytes(GS)));
  for (const f of ['iridia_emit', 'iridia_emit_stream1', 'iridia_emit_stream2', 'iridia_cut_stream1'])
    assert.match(w, new RegExp(`fn ${f}\\(\\)`));
  assert.match(w, /iridia_gs_vertex_stream\[/);
  const skip = webgpuSkip();
  if (skip) return t.skip(skip);
  const [r] = await compileWgsl([w]);
  assert.ok(r?.ok, JSON.stringify(r));
});

for (const name of ['pso__gs_mismatch_so_1', 'pso__gs_mismatch_so_2']) {
  test(`${name}.dxil: a stream-1 output and EmitStream 1 lift and run`, (t) => {
    const path = `corpus/dxil/vkd3d-proton/${name}.dxil`;
    const skip = skipUnlessShared(path);
    if (skip) return t.skip(skip);
    const p = lift(readBytes(sharedPath(path)!));
    assert.deepEqual(validateModule(p.module), []);
    assert.ok(p.interface.outputs.some((e) => e.stream === 1));
    const main = p.module.functions[p.stageFunctions!.main]!;
    const vIn = main.args.find((a) => a.name === 'v_in')!;
    const vt = p.module.types[vIn.type]!;
    const n = vt.kind === 'array' && vt.length !== null ? vt.length : 1;
    const r = runGeometry(p, { primitives: 1, inputs: new Uint32Array(n * FILE_WORDS) });
    assert.ok(r.vertices.some((x) => x.stream === 1));
    assert.ok(r.vertices.some((x) => x.stream === 0));
  });
}
