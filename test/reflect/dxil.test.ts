// Reflection of DXIL containers (src/reflect/dxil.ts): D3DReflect's JSON shape, the own JSON and the
// text view, on committed dxc builds. Every expected value is read by hand from dxc's own listing of
// the same container (test/fixtures/dxil/NAME.ll, the comment block before the module: "Resource
// Bindings", "Buffer Definitions", the signature tables), with the D3D enumerations written out:
// D3D_SIT_CBUFFER 0, D3D_SIT_TEXTURE 2, D3D_SIT_SAMPLER 3, D3D_SIT_UAV_RWSTRUCTURED 6;
// D3D_SRV_DIMENSION_TEXTURE2D 4, TEXTURE2DARRAY 5, BUFFER 1; D3D_RETURN_TYPE_FLOAT 5, MIXED 6;
// D3D_NAME_POSITION 1, D3D_NAME_TARGET 64; D3D_REGISTER_COMPONENT_FLOAT32 3; masks x=1 ... xyzw=15.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer, serializeContainer } from '../../src/container/container.js';
import { IridiaError, UnsupportedError } from '../../src/errors.js';
import {
  d3dReflectAnyJson,
  d3dReflectDxilJson,
  dxilReflectionText,
  isDxilContainer,
  reflectDxilProgram,
  reflectionAnyJson,
} from '../../src/reflect/dxil.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const load = (name: string) => parseContainer(readBytes(join(FIXTURES, 'dxil', name)));

interface D3d {
  Desc: Record<string, unknown>;
  ThreadGroupSize: number[];
  MinFeatureLevel: number;
  ConstantBuffers: {
    Name: string;
    Type: number;
    Size: number;
    VariableList: { Name: string; StartOffset: number }[];
  }[];
  BoundResources: Record<string, unknown>[];
  InputParameters: Record<string, unknown>[];
  OutputParameters: Record<string, unknown>[];
}
const d3d = (name: string): D3d => d3dReflectAnyJson(load(name)) as unknown as D3d;
const pick = (o: Record<string, unknown>, keys: string[]): unknown[] => keys.map((k) => o[k]);
const BINDING = ['Name', 'Type', 'BindPoint', 'BindCount', 'Space', 'uID', 'Dimension', 'ReturnType'];
const PARAM = [
  'SemanticName',
  'SemanticIndex',
  'Register',
  'SystemValueType',
  'ComponentType',
  'Mask',
  'ReadWriteMask',
];

test('BlitFrom2DArray (SDL, ps_6_0): bindings in spaces 2 and 3, the cbuffer layout, the signatures', () => {
  const j = d3d('d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil');
  // ; SourceRegionBuffer  cbuffer  NA  NA       CB0  cb0,space3  1
  // ; SourceSampler       sampler  NA  NA       S0   s0,space2   1
  // ; SourceTexture2DArray texture f32 2darray  T0   t0,space2   1
  assert.deepEqual(
    j.BoundResources.map((b) => pick(b, BINDING)),
    [
      ['SourceRegionBuffer', 0, 0, 1, 3, 0, 0, 0],
      ['SourceSampler', 3, 0, 1, 2, 0, 0, 0],
      ['SourceTexture2DArray', 2, 0, 1, 2, 0, 5, 5],
    ],
  );
  // float4 return type: D3D_SIF_TEXTURE_COMPONENTS (0xc); a texture's NumSamples is -1.
  assert.equal(j.BoundResources[2]!['uFlags'], 0xc);
  assert.equal(j.BoundResources[2]!['NumSamples'], 0xffffffff);
  // ; cbuffer SourceRegionBuffer { float2 UVLeftTop; Offset 0 / float2 UVDimensions; 8 / uint MipLevel; 16 /
  // ; float LayerOrDepth; 20 } Size: 24
  assert.deepEqual(
    j.ConstantBuffers.map((cb) => [cb.Name, cb.Type, cb.Size]),
    [['SourceRegionBuffer', 0, 24]],
  );
  assert.deepEqual(
    j.ConstantBuffers[0]!.VariableList.map((v) => [v.Name, v.StartOffset]),
    [
      ['UVLeftTop', 0],
      ['UVDimensions', 8],
      ['MipLevel', 16],
      ['LayerOrDepth', 20],
    ],
  );
  // ; TEXCOORD     0  xy    0  NONE  float  xy
  // ; SV_Position  0  xyzw  1  POS   float  (unused)
  assert.deepEqual(
    j.InputParameters.map((p) => pick(p, PARAM)),
    [
      ['TEXCOORD', 0, 0, 0, 3, 3, 3],
      ['SV_POSITION', 0, 1, 1, 3, 15, 0],
    ],
  );
  // ; SV_Target 0 xyzw 0 TARGET float xyzw: every component written, so D3D's "never written" mask is 0.
  assert.deepEqual(
    j.OutputParameters.map((p) => pick(p, PARAM)),
    [['SV_TARGET', 0, 0, 64, 3, 15, 0]],
  );
  assert.equal(j.Desc['Version'], 0x60, 'ps_6_0: type 0 << 16 | 6 << 4 | 0');
  assert.equal(j.Desc['BoundResources'], 3);
  assert.equal(j.Desc['InputParameters'], 2);
  assert.equal(j.MinFeatureLevel, 0xc000);
});

test('PixelShader_YUV (SDL, ps_6_0): three textures t0..t2, the cbuffer at b1', () => {
  const j = d3d('direct3d12__D3D12_PixelShader_YUV.dxil');
  // ; Constants    cbuffer NA  NA  CB0  cb1  1
  // ; theSampler   sampler NA  NA  S0   s0   1
  // ; theTextureY  texture f32 2d  T0   t0   1   (U: T1 t1, V: T2 t2)
  assert.deepEqual(
    j.BoundResources.map((b) => pick(b, BINDING)),
    [
      ['Constants', 0, 1, 1, 0, 0, 0, 0],
      ['theSampler', 3, 0, 1, 0, 0, 0, 0],
      ['theTextureY', 2, 0, 1, 0, 0, 4, 5],
      ['theTextureU', 2, 1, 1, 0, 1, 4, 5],
      ['theTextureV', 2, 2, 1, 0, 2, 4, 5],
    ],
  );
  assert.deepEqual(
    j.ConstantBuffers[0]!.VariableList.map((v) => [v.Name, v.StartOffset]),
    [
      ['scRGB_output', 0],
      ['color_scale', 4],
      ['unused1', 8],
      ['unused2', 12],
      ['Yoffset', 16],
      ['Rcoeff', 32],
      ['Gcoeff', 48],
      ['Bcoeff', 64],
    ],
  );
  assert.equal(j.ConstantBuffers[0]!.Size, 80);
  // ; SV_Position 0 xyzw 0 POS float (unused) / TEXCOORD 0 xy 1 NONE float xy / COLOR 0 xyzw 2 NONE float xyzw
  assert.deepEqual(
    j.InputParameters.map((p) => pick(p, PARAM)),
    [
      ['SV_POSITION', 0, 0, 1, 3, 15, 0],
      ['TEXCOORD', 0, 1, 0, 3, 3, 3],
      ['COLOR', 0, 2, 0, 3, 15, 15],
    ],
  );
});

test('bluestein_chirp_fp16 (onnxruntime, cs_6_2): two structured UAVs and the thread group', () => {
  const j = d3d('GeneratedShaders__bluestein_chirp_fp16.dxil');
  // ;  cbuffer NA NA  CB0 cb0 1 / UAV struct r/w U0 u0 1 / UAV struct r/w U1 u1 1  (no names: "")
  assert.deepEqual(
    j.BoundResources.map((b) => pick(b, [...BINDING, 'NumSamples'])),
    [
      ['', 0, 0, 1, 0, 0, 0, 0, 0],
      ['', 6, 0, 1, 0, 0, 1, 6, 2],
      ['', 6, 1, 1, 0, 1, 1, 6, 2],
    ],
  );
  // ; cbuffer { [16 x i8] }, Resource bind info { [2 x i8] } twice: one cbuffer and two bind-info buffers.
  assert.deepEqual(
    j.ConstantBuffers.map((cb) => [cb.Type, cb.Size]),
    [
      [0, 16],
      [3, 2],
      [3, 2],
    ],
  );
  // !12 = !{i32 64, i32 1, i32 1} (the entry's numthreads)
  assert.deepEqual(j.ThreadGroupSize, [64, 1, 1]);
  assert.equal(j.Desc['Version'], 0x50062, 'cs_6_2: type 5 << 16 | 6 << 4 | 2');
  assert.deepEqual(j.InputParameters, []);
});

test('the vertex program: SV_VertexID in, SV_Position out (FidelityFX, vs_6_0)', () => {
  const j = d3d('dx12__FrameInterpolationSwapchainUiCompositionPremulVS.dxil');
  // ; SV_VertexID 0 x 0 VERTID uint x   (D3D_NAME_VERTEX_ID 6, D3D_REGISTER_COMPONENT_UINT32 1)
  assert.deepEqual(
    j.InputParameters.map((p) => pick(p, PARAM)),
    [['SV_VERTEXID', 0, 0, 6, 1, 1, 1]],
  );
  // ; SV_Position 0 xyzw 0 POS float xyzw
  assert.deepEqual(
    j.OutputParameters.map((p) => pick(p, PARAM)),
    [['SV_POSITION', 0, 0, 1, 3, 15, 0]],
  );
  assert.deepEqual(j.BoundResources, []);
  assert.equal(j.Desc['Version'], 0x10060);
});

test('dispatch: DXIL containers go to the DXIL reflection, DXBC ones do not', () => {
  assert.equal(isDxilContainer(load('gpu__color.frag.sm60.dxil')), true);
  const dxbc = parseContainer(readBytes(join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/shader.dxbc')));
  assert.equal(isDxilContainer(dxbc), false);
  assert.equal((d3dReflectAnyJson(dxbc)['Desc'] as { Version: number }).Version, 0x10050);
});

test('a library has no D3DReflect shader view (E208), but the own JSON and text list its functions', () => {
  const c = load('runtime-tests__test_910b3693.dxil');
  const r = reflectDxilProgram(c);
  assert.throws(
    () => d3dReflectDxilJson(r),
    (e: unknown) => e instanceof UnsupportedError && e.code === 'E208_PART_UNSUPPORTED',
  );
  const j = reflectionAnyJson(c);
  assert.equal(j['d3d'], null);
  assert.equal(j['stage'], 'lib');
  assert.match(dxilReflectionText(r), /^function {2}node1$/m);
  assert.match(dxilReflectionText(r), /^binding {3}RWBuf0: UAV StructuredBuffer /m);
});

test('a root signature alone has nothing to reflect: E108, named as such', () => {
  assert.throws(
    () => d3dReflectAnyJson(load('direct3d12__D3D12_RootSig_Texture.dxil')),
    (e: unknown) =>
      e instanceof IridiaError && e.code === 'E108_PART_MISSING' && /root signature alone \(RTS0\)/.test(e.message),
  );
});

test('without signature parts (ILDB-only builds), the parameters come from the metadata as dxc reflects them', () => {
  const c = load('direct3d12__D3D12_PixelShader_YUV.dxil');
  const stripped = parseContainer(serializeContainer(c.parts.filter((p) => p.kind !== 'ISG1' && p.kind !== 'OSG1')));
  const j = d3dReflectAnyJson(stripped) as unknown as D3d;
  // The same registers, masks, system values and types as the listing's tables (and the parts);
  // the read/write masks as dxc's reflection computes them: an input read has its whole mask, an
  // output written has no never-written component.
  assert.deepEqual(
    j.InputParameters.map((p) => pick(p, PARAM)),
    [
      ['SV_POSITION', 0, 0, 1, 3, 15, 0],
      ['TEXCOORD', 0, 1, 0, 3, 3, 3],
      ['COLOR', 0, 2, 0, 3, 15, 15],
    ],
  );
  assert.deepEqual(
    j.OutputParameters.map((p) => pick(p, PARAM)),
    [['SV_TARGET', 0, 0, 64, 3, 15, 0]],
  );
});
