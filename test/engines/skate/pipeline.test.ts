// End to end on a constructed raster permutation: the binding sets, pass binding, input layout and
// render state of test/engines/skate/fixtures.ts beside a real program pair, fx_normal_mapping
// (iridia's own test program compiled by fxc; test/fixtures/skate, copied from shared/oracle/own),
// give the register map of every declaration by the spec's rule, the input-layout check, and the
// WebGPU pipeline description. The same runs over the shared copy and a DXIL program of
// ../shared/corpus when present.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { programFacts } from '../../../src/engines/skate/program.js';
import { mapProgram, candidateSource } from '../../../src/engines/skate/mapping.js';
import { checkInputLayout } from '../../../src/engines/skate/input-check.js';
import { describePipeline } from '../../../src/engines/skate/pipeline.js';
import { layoutInputLayout, formatWord } from '../../../src/engines/skate/input-layout.js';
import { lift } from '../../../src/lift/lift.js';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared } from '../../helpers/shared.js';
import * as F from './fixtures.js';

const DIR = join(FIXTURES, 'skate/fx_normal_mapping');
const VS = readBytes(join(DIR, 'vsmain-vs_5_0/shader.dxbc'));
const PS = readBytes(join(DIR, 'psmain-ps_5_0/shader.dxbc'));
const sources = () => ({ sets: [F.set0(), F.set1()] as const, pass: F.pass() });

test("the spec's rule: b0 set 1, b1 set 0, b4 pass, t bands at 0, 32 and 64, nothing for b2, b3, s and u", () => {
  const d = (registerClass: 'b' | 't' | 's' | 'u', register: number) => ({
    name: '',
    registerClass,
    register,
    count: 1,
    space: 0,
  });
  assert.deepEqual(candidateSource(d('b', 0)), { structure: 'set 1', group: 0 });
  assert.deepEqual(candidateSource(d('b', 1)), { structure: 'set 0', group: 0 });
  assert.deepEqual(candidateSource(d('b', 4)), { structure: 'pass binding', group: 0 });
  assert.deepEqual(candidateSource(d('t', 31)), { structure: 'set 1', group: 1, index: 31 });
  assert.deepEqual(candidateSource(d('t', 32)), { structure: 'set 0', group: 1, index: 0 });
  assert.deepEqual(candidateSource(d('t', 63)), { structure: 'set 0', group: 1, index: 31 });
  assert.deepEqual(candidateSource(d('t', 64)), { structure: 'pass binding', group: 1, index: 0 });
  for (const x of [d('b', 2), d('b', 3), d('s', 0), d('u', 0)]) assert.equal(candidateSource(x), null);
  const m = mapProgram(
    [
      d('b', 1),
      { ...d('b', 4), bufferSize: 20 },
      d('t', 32),
      d('t', 33),
      d('t', 64),
      d('b', 2),
      d('b', 3),
      d('s', 1),
      { ...d('t', 0), space: 1 },
    ],
    sources(),
  );
  assert.deepEqual(
    m.declarations.map((x) => x.status),
    [
      'size differs',
      'size matches',
      'entries found',
      'entries missing',
      'entries found',
      'no source',
      'no source',
      'no source',
      'not space 0',
    ],
  );
  assert.deepEqual(m.counts.unassigned, { b2: 1, b3: 1, s: 1 });
  assert.deepEqual(m.counts.resources, { declarations: 3, withEntries: 2 });
  assert.deepEqual(m.counts.b4, { declarations: 1, matching: 1 }, 'a 20-byte buffer rounds up to the group size 32');
});

test('fx_normal_mapping: every declaration mapped, the input layout checked, the pipeline described', () => {
  const vs = programFacts(VS);
  const ps = programFacts(PS);
  const vmap = mapProgram(vs.declarations, sources());
  assert.deepEqual(
    vmap.declarations.map((m) => [
      m.declaration.name,
      `${m.declaration.registerClass}${m.declaration.register}`,
      m.status,
      m.declaredSize,
    ]),
    [['Obj', 'b0', 'size matches', 160]],
  );
  const pmap = mapProgram(ps.declarations, sources());
  assert.deepEqual(
    pmap.declarations.map((m) => [
      m.declaration.name,
      `${m.declaration.registerClass}${m.declaration.register}`,
      m.status,
    ]),
    [
      ['Aniso', 's0', 'no source'],
      ['Albedo', 't0', 'entries found'],
      ['NormalMap', 't1', 'entries found'],
      ['Obj', 'b0', 'size matches'],
    ],
  );
  assert.deepEqual(pmap.counts.unassigned, { s: 1 });

  const layout = F.layout();
  const check = checkInputLayout(layout, vs.inputs, F.USAGE_NAMES);
  assert.deepEqual(
    check.inputs.map((c) => [c.input.semanticName, c.element, c.match]),
    [
      ['POSITION', 0, 'name/index and width'],
      ['NORMAL', 1, 'elimination and width'],
      ['TANGENT', 2, 'name/index and width'],
      ['TEXCOORD', 3, 'name/index and width'],
    ],
  );
  assert.deepEqual(check.counts, {
    inputs: 4,
    nameAndWidth: 3,
    eliminationAndWidth: 1,
    nameWider: 0,
    nameNarrower: 0,
    unmapped: 0,
  });

  const p = describePipeline(F.opaqueState(), { inputLayout: layout, check, vertexProgram: lift(VS) });
  assert.deepEqual(p.webgpu.primitive, {
    topology: 'triangle-list',
    frontFace: 'cw',
    cullMode: 'back',
    unclippedDepth: false,
  });
  assert.deepEqual(p.webgpu.depthStencil, {
    format: 'depth32float-stencil8',
    depthWriteEnabled: true,
    depthCompare: 'greater-equal',
    stencilReadMask: 0x08,
    stencilWriteMask: 0xfe,
    depthBias: 0,
    depthBiasSlopeScale: 0,
    depthBiasClamp: 0,
  });
  assert.deepEqual(p.webgpu.vertexBuffers, [
    {
      arrayStride: 20,
      stepMode: 'vertex',
      attributes: [
        { format: 'float32x3', offset: 0, shaderLocation: 0 },
        { format: 'snorm8x4', offset: 12, shaderLocation: 2 },
        { format: 'float16x2', offset: 16, shaderLocation: 3 },
      ],
    },
    { arrayStride: 12, stepMode: 'vertex', attributes: [{ format: 'float32x3', offset: 0, shaderLocation: 1 }] },
  ]);
  assert.equal(p.webgpu.targets.length, 8);
  assert.ok(p.webgpu.targets.every((t) => t?.writeMask === 0xf));
  // With the pixel program, only the targets it writes: fx_normal_mapping writes SV_Target0 alone.
  const withPs = describePipeline(F.opaqueState(), { pixelProgram: lift(PS) });
  assert.deepEqual(withPs.webgpu.targets, [{ writeMask: 0xf }]);
  assert.ok(
    withPs.notes.includes('7 render-target records are for targets the pixel program does not write: left out'),
  );
  assert.equal(p.d3d12.DepthStencilState['DepthFunc'], 'D3D12_COMPARISON_FUNC_GREATER_EQUAL');
  assert.equal(p.d3d12.InputLayout[1]!['SemanticName'], 'NORMAL');
  assert.equal(p.d3d12.InputLayout[2]!['Format'], 'DXGI_FORMAT_R8G8B8A8_SNORM');

  const shadow = describePipeline(F.shadowState());
  assert.equal(shadow.webgpu.depthStencil.depthBias, -10);
  assert.equal(shadow.webgpu.depthStencil.depthBiasSlopeScale, -4);
  assert.equal(shadow.webgpu.primitive.unclippedDepth, true);
  assert.ok(shadow.notes.some((n) => n.includes('depth-clip-control')));
  const distinct = describePipeline(F.distinctState());
  assert.ok(distinct.notes.some((n) => n.includes('forced sample count 4')));
  const decal = describePipeline(F.decalState());
  assert.equal(decal.webgpu.depthStencil.depthWriteEnabled, false);
  assert.ok(decal.notes.some((n) => n.startsWith('render target 0: record 030501050f')));
});

test('the input check counts a read wider than the stored format, and leaves what no rule settles unmapped', () => {
  const vs = programFacts(VS);
  const layout = layoutInputLayout([
    {
      semanticIndex: 0,
      inputSlot: 0,
      byteOffset: 0,
      slotClass: 0,
      formatWord: formatWord(F.R32G32B32_FLOAT),
      usage: 0x10,
    },
    { semanticIndex: 0, inputSlot: 0, byteOffset: 12, slotClass: 0, formatWord: formatWord(F.R16_FLOAT), usage: 0x13 },
    {
      semanticIndex: 0,
      inputSlot: 0,
      byteOffset: 14,
      slotClass: 0,
      formatWord: formatWord(F.R8G8B8A8_SNORM),
      usage: 0x40,
    },
  ]);
  const c = checkInputLayout(layout, vs.inputs, F.USAGE_NAMES);
  assert.deepEqual(
    c.inputs.map((x) => [x.input.semanticName, x.element, x.match]),
    [
      ['POSITION', 0, 'name/index and width'],
      ['NORMAL', null, null],
      ['TANGENT', 2, 'elimination and width'],
      ['TEXCOORD', 1, 'name/index, read wider than format'],
    ],
  );
  assert.equal(c.counts.unmapped, 1);
  // Without names, POSITION and NORMAL (both three wide) against two three-wide elements: elimination
  // cannot tell them apart and leaves both unmapped; TANGENT and TEXCOORD have a width of their own.
  const unnamed = checkInputLayout(F.layout(), vs.inputs);
  assert.deepEqual(
    unnamed.inputs.map((x) => [x.input.semanticName, x.element, x.match]),
    [
      ['POSITION', null, null],
      ['NORMAL', null, null],
      ['TANGENT', 2, 'elimination and width'],
      ['TEXCOORD', 3, 'elimination and width'],
    ],
  );
  assert.deepEqual(unnamed.unusedElements, [0, 1]);
});

test(
  'the same over shared/oracle/own and a DXIL program of the corpus',
  { skip: skipUnlessShared('oracle/own/fx_normal_mapping') },
  () => {
    const shared = readBytes(join(sharedPath('oracle/own/fx_normal_mapping')!, 'psmain-ps_5_0/shader.dxbc'));
    assert.deepEqual(shared, PS, 'the fixture is the shared build byte for byte');
    const dxil = sharedPath('corpus/dxil/Helios/Helios__TestVS.dxil');
    if (dxil === undefined) return;
    const facts = programFacts(readBytes(dxil));
    assert.equal(facts.bytecode, 'DXIL');
    const m = mapProgram(facts.declarations, sources());
    // b0 of 192 bytes against set 1's 160-byte group; t0 and t1 have entries in set 1 group 1, t2 not.
    assert.deepEqual(
      m.declarations.map((x) => [`${x.declaration.registerClass}${x.declaration.register}`, x.status]),
      [
        ['b0', 'size differs'],
        ['t0', 'entries found'],
        ['t1', 'entries found'],
        ['t2', 'entries missing'],
      ],
    );
  },
);
