// dxc's "Subobjects" section (src/dxil/subobjects.ts) on hand-made RDAT subobjects: every kind, flag
// words with valid, several and unknown bits, name order and a repeated name. The expected lines are
// written from dxc's PrintSubobjects (dxcdisassembler.cpp) and its FileCheck tests of subobjects
// (e.g. `; HitGroup trHitGt = { HitGroupType = Triangle, Anyhit = "a", Closesthit = "b",
// Intersection = "" };`), not from the printer's own output.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subobjectsText } from '../../src/dxil/subobjects.js';
import type { RdatSubobject } from '../../src/dxil/rdat.js';

const so = (kind: number, name: string, words: number[], extra: Partial<RdatSubobject> = {}): RdatSubobject => ({
  kind,
  name,
  words: [words[0] ?? 0, words[1] ?? 0, words[2] ?? 0, words[3] ?? 0],
  ...extra,
});

test('no subobjects: no section', () => {
  assert.equal(subobjectsText([]), '');
});

test('every subobject kind, in name order, as dxc prints it', () => {
  const text = subobjectsText([
    so(11, 'trHitGt', [0], { strings: ['a', 'b', ''] }),
    so(0, 'soc', [1 | 4]),
    so(1, 'grs', [], { bytes: new Uint8Array(48) }),
    so(2, 'lrs', [], { bytes: new Uint8Array(20) }),
    so(8, 'sea', [], { strings: ['grs'], exports: ['a', 'b', 'foo'] }),
    so(9, 'rsc', [128, 64]),
    so(10, 'rpc', [32]),
    so(12, 'rpc1', [32, 0x100 | 0x200]),
    so(11, 'ppHitGt', [1], { strings: ['a', 'b', 'c'] }),
  ]);
  assert.equal(
    text,
    [
      ';',
      '; Subobjects:',
      ';',
      ';  GlobalRootSignature grs = { <48 bytes> };',
      ';  LocalRootSignature lrs = { <20 bytes> };',
      ';  HitGroup ppHitGt = { HitGroupType = ProceduralPrimitive, Anyhit = "a", Closesthit = "b", Intersection = "c" };',
      ';  RaytracingPipelineConfig rpc = { MaxTraceRecursionDepth = 32 };',
      ';  RaytracingPipelineConfig1 rpc1 = { MaxTraceRecursionDepth = 32, Flags = RAYTRACING_PIPELINE_FLAG_SKIP_TRIANGLES | RAYTRACING_PIPELINE_FLAG_SKIP_PROCEDURAL_PRIMITIVES };',
      ';  RaytracingShaderConfig rsc = { MaxPayloadSizeInBytes = 128, MaxAttributeSizeInBytes = 64 };',
      ';  SubobjectToExportsAssociation sea = { "grs", { "a", "b", "foo" }  };',
      ';  StateObjectConfig soc = { STATE_OBJECT_FLAG_ALLOW_LOCAL_DEPENDENCIES_ON_EXTERNAL_DEFINITIONS | STATE_OBJECT_FLAG_ALLOW_STATE_OBJECT_ADDITIONS };',
      ';  HitGroup trHitGt = { HitGroupType = Triangle, Anyhit = "a", Closesthit = "b", Intersection = "" };',
      ';',
      '',
    ].join('\n'),
  );
});

test('zero flags print 0, unknown bits and kinds are named invalid, a repeated name is printed once', () => {
  const text = subobjectsText([
    so(0, 'b', [0]),
    so(0, 'a', [2 | 8]),
    so(12, 'c', [1, 0x400 | 0x1]),
    so(11, 'd', [7], { strings: ['x', 'y', 'z'] }),
    so(5, 'e', [1, 2, 3, 4]),
    so(10, 'a', [99]), // the second 'a': dxc's std::map keeps the first
  ]);
  assert.equal(
    text,
    [
      ';',
      '; Subobjects:',
      ';',
      ';  StateObjectConfig a = { STATE_OBJECT_FLAG_ALLOW_EXTERNAL_DEPENDENCIES_ON_LOCAL_DEFINITIONS | <invalid StateObjectFlag> };',
      ';  StateObjectConfig b = { 0 };',
      ';  RaytracingPipelineConfig1 c = { MaxTraceRecursionDepth = 1, Flags = <invalid RaytracingPipelineFlags> | RAYTRACING_PIPELINE_FLAG_ALLOW_OPACITY_MICROMAPS };',
      ';  HitGroup d = { HitGroupType = <invalid HitGroupType>, Anyhit = "x", Closesthit = "y", Intersection = "z" };',
      ';  <invalid kind> e = {  };',
      ';',
      '',
    ].join('\n'),
  );
});
