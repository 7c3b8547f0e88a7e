// reflectDxil and the DXIL census section on the fixtures: resources, signatures and entry
// properties from the module's metadata and PSV0; shader models, DXIL versions and dx.op counts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { Census, BUILTIN_SECTIONS } from '../../src/container/census.js';
import { reflectDxil } from '../../src/dxil/reflect.js';
import { dxilCensusSection } from '../../src/dxil/census.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const load = (name: string) => parseContainer(readBytes(join(FIXTURES, 'dxil', name)));

test('reflectDxil: a vertex program (FidelityFX) — signatures and bindings', () => {
  const r = reflectDxil(load('dx12__FrameInterpolationSwapchainUiCompositionPremulVS.dxil'))!;
  assert.equal(r.stage, 'vs');
  assert.equal(r.shaderModel, '6.0');
  assert.equal(r.entryPoint, 'mainVS');
  assert.deepEqual(
    r.inputs.map((e) => [e.name, e.indices, e.semanticKind]),
    [['SV_VertexID', [0], 1]],
  );
  assert.deepEqual(
    r.outputs.map((e) => [e.name, e.interpolationMode]),
    [['SV_Position', 4]], // as dxc's listing of it prints: noperspective
  );
  assert.equal(r.numThreads, undefined);
});

test('reflectDxil: a compute program (onnxruntime) — UAVs, cbuffer, thread group', () => {
  const r = reflectDxil(load('GeneratedShaders__bluestein_chirp_fp16.dxil'))!;
  assert.equal(r.stage, 'cs');
  assert.deepEqual(
    r.resources.map((x) => [x.class, x.kind, x.lowerBound, x.count, x.stride ?? x.size]),
    [
      ['CBuffer', 'CBuffer', 0, 1, 16],
      ['UAV', 'StructuredBuffer', 0, 1, 2],
      ['UAV', 'StructuredBuffer', 1, 1, 2],
    ],
  );
  assert.equal(r.numThreads?.length, 3);
  assert.ok(r.numThreads![0] > 0);
});

test('reflectDxil: a 6.8 library — RDAT functions', () => {
  const r = reflectDxil(load('runtime-tests__test_910b3693.dxil'))!;
  assert.equal(r.stage, 'lib');
  assert.deepEqual(
    r.libraryFunctions.map((f) => f.name),
    ['entry', 'node1', 'node2'],
  );
  assert.deepEqual(
    r.resources.map((x) => [x.name, x.class, x.kind]),
    [
      ['RWBuf0', 'UAV', 'StructuredBuffer'],
      ['RWBuf1', 'UAV', 'StructuredBuffer'],
    ],
  );
});

test('reflectDxil: a root signature alone has no program', () => {
  assert.equal(reflectDxil(load('direct3d12__D3D12_RootSig_Texture.dxil')), undefined);
});

test('census: the DXIL section counts models, versions and dx.op calls under --decode', () => {
  const census = new Census([...BUILTIN_SECTIONS, dxilCensusSection], { decode: true });
  for (const f of [
    'gpu__color.frag.sm60.dxil',
    'DXIL__FillTexture.comp_232c51f1.dxil',
    'runtime-tests__test_910b3693.dxil',
  ])
    census.add(readBytes(join(FIXTURES, 'dxil', f)), f);
  const j = census.toJSON()['dxil'] as {
    shaderModels: Record<string, number>;
    dxilVersions: Record<string, number>;
    dxOps: Record<string, number>;
    dxOpCalls: number;
  };
  assert.deepEqual(j.shaderModels, { cs_6_0: 1, lib_6_8: 1, ps_6_0: 1 });
  assert.deepEqual(j.dxilVersions, { '1.0': 2, '1.8': 1 });
  assert.ok(j.dxOps[' 93 ThreadId']! >= 1);
  assert.equal(
    Object.values(j.dxOps).reduce((a, b) => a + b, 0),
    j.dxOpCalls,
  );
  assert.match(census.toText(), /DXIL programs/);
});
