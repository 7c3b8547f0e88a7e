// The part readers on committed real containers: the layouts the spec records (signature record
// sizes, the three RDEF layouts, STAT word counts, SFI0 names, IFCE and Aon9 tables) and the
// Sekiro member-offset reading.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSignature } from '../../src/parts/signature.js';
import { readRdef, memberOffsetBase, typeSize, type RdefVariable } from '../../src/parts/rdef.js';
import { readStat } from '../../src/parts/stat.js';
import { readSfi0 } from '../../src/parts/sfi0.js';
import { readIfce } from '../../src/parts/ifce.js';
import { readAon9 } from '../../src/parts/aon9.js';
import { reflect } from '../../src/reflect/reflection.js';
import { fixture, partData } from './helpers.js';

test('signatures: 24-byte ISGN/OSGN/PCSG, 28-byte OSG5 with streams, 32-byte ISG1/OSG1/PSG1 with minimum precision', () => {
  const vs = fixture('oracle/own/vs_basic/main-vs_5_0/shader.dxbc');
  const isgn = readSignature('ISGN', partData(vs, 'ISGN'));
  assert.deepEqual(
    isgn.elements.map((e) => e.semanticName),
    ['POSITION', 'COLOR', 'TEXCOORD'],
  );
  const gs = fixture('oracle/own/gs_triangle/main-gs_5_0/shader.dxbc');
  const osg5 = readSignature('OSG5', partData(gs, 'OSG5'));
  assert.ok(osg5.elements.length > 0 && osg5.elements.every((e) => e.stream === 0));
  const hs = fixture('reflect/own/hs_minprec/main-hs_5_0/shader.dxbc');
  const psg1 = readSignature('PSG1', partData(hs, 'PSG1'));
  const pcdata = psg1.elements.find((e) => e.semanticName === 'PCDATA');
  assert.equal(pcdata?.minPrecision, 1, 'min16float patch constant: code 1');
  assert.ok(
    psg1.elements.some((e) => e.minPrecision === 0),
    'other elements: 0',
  );
  assert.equal(readSfi0(partData(hs, 'SFI0')).low, 0x10);
});

test('RDEF: 4.0, 5.0 (RD11) and 5.1 (0x25441313) layouts, 40-byte 5.1 bindings with space and id, unbounded ranges', () => {
  const r40 = readRdef(partData(fixture('oracle/own/rdef_types/main-ps_4_0/shader.dxbc'), 'RDEF'));
  const r50 = readRdef(partData(fixture('oracle/own/rdef_types/main-ps_5_0/shader.dxbc'), 'RDEF'));
  const r51 = readRdef(partData(fixture('oracle/own/rdef_types/main-ps_5_1/shader.dxbc'), 'RDEF'));
  assert.deepEqual([r40.layout, r50.layout, r51.layout], ['4.0', '5.0', '5.1']);
  assert.equal(r40.target >>> 0, 0xffff0400);
  assert.equal(r50.creator, 'Microsoft (R) HLSL Shader Compiler 10.1');
  // 4.x types carry no names; 5.x name them.
  const outer40 = r40.constantBuffers[0]!.variables.find((v) => v.name === 'outer')!;
  const outer50 = r50.constantBuffers[0]!.variables.find((v) => v.name === 'outer')!;
  assert.equal(outer40.type.name, undefined);
  assert.equal(outer50.type.name, 'Outer');
  assert.deepEqual(
    outer50.type.members.map((m) => m.name),
    ['i', 'm', 'flags', 'arr'],
  );
  const arrays = readRdef(
    partData(fixture('reflect/own/sm51_resource_arrays/main-ps_5_1-unbounded/shader.dxbc'), 'RDEF'),
  );
  assert.equal(arrays.layout, '5.1');
  assert.ok(
    arrays.bindings.some((b) => b.bindCount === 0),
    'an unbounded range has count 0',
  );
  assert.ok(arrays.bindings.every((b) => b.id !== undefined));
  assert.ok(arrays.bindings.some((b) => b.space !== 0 || b.id !== b.bindPoint));
});

test('typeSize equals the stored size of every numeric constant-buffer variable in the fixtures', () => {
  let n = 0;
  for (const path of [
    'oracle/own/rdef_types/main-ps_4_0/shader.dxbc',
    'oracle/own/rdef_types/main-ps_5_0/shader.dxbc',
    'oracle/own/vs_skinning/main-vs_5_0/shader.dxbc',
    'oracle/own/fx_ssao/main-ps_5_0/shader.dxbc',
  ]) {
    for (const cb of readRdef(partData(fixture(path), 'RDEF')).constantBuffers) {
      if (cb.type === 3) continue; // structured elements are packed tightly
      for (const v of cb.variables) {
        if (v.type.class > 3) continue;
        assert.equal(typeSize(v.type), v.size, `${path} ${v.name}`);
        n++;
      }
    }
  }
  assert.ok(n > 30);
});

test("Sekiro's member-offset quirk: both readings are tried and the one that fits the struct is named", () => {
  const rdef = readRdef(partData(fixture('oracle/own/rdef_types/main-ps_5_0/shader.dxbc'), 'RDEF'));
  const outer = rdef.constantBuffers[0]!.variables.find((v) => v.name === 'outer')!;
  assert.ok(outer.startOffset > 0);
  assert.equal(memberOffsetBase(outer), 'struct');
  // The same variable with its members' offsets counted from the buffer, as Sekiro's hull programs store them.
  const shifted: RdefVariable = {
    ...outer,
    type: { ...outer.type, members: outer.type.members.map((m) => ({ ...m, offset: m.offset + outer.startOffset })) },
  };
  assert.equal(memberOffsetBase(shifted), 'buffer');
});

test('STAT: 29 words for 4.x, 37 for 5.0, named by the D3D11_SHADER_DESC fields', () => {
  const s40 = readStat(partData(fixture('oracle/own/vs_basic/main-vs_4_0/shader.dxbc'), 'STAT'));
  const s50 = readStat(partData(fixture('oracle/own/vs_basic/main-vs_5_0/shader.dxbc'), 'STAT'));
  assert.equal(s40.wordCount, 29);
  assert.equal(s50.wordCount, 37);
  assert.equal(s40.get('cControlPoints'), 0, 'a 5.0 word is 0 in a 4.x part');
  const hs = readStat(partData(fixture('oracle/own/tess_tri/main-hs_5_0-integer-triangle_cw/shader.dxbc'), 'STAT'));
  assert.deepEqual(
    [hs.get('TessellatorDomain'), hs.get('HSPartitioning'), hs.get('HSOutputPrimitive'), hs.get('cControlPoints')],
    [2, 1, 3, 3],
  );
});

test('SFI0, IFCE and Aon9 tables', () => {
  const sfi = readSfi0(partData(fixture('oracle/own/rdef_types/main-ps_5_0/shader.dxbc'), 'SFI0'));
  assert.deepEqual(sfi.names, ['Double-precision floating point']);
  const ifce = readIfce(partData(fixture('oracle/own/ifce_basic/main-ps_5_0/shader.dxbc'), 'IFCE'));
  assert.deepEqual(
    ifce.classTypes.map((c) => c.name),
    ['PointLight', 'DirectionalLight', 'AmbientLight'],
  );
  assert.deepEqual(
    ifce.instances.map((i) => [i.name, i.classType, i.bufferRegister]),
    [
      ['g_ambient', 2, 0],
      ['g_sun', 1, 1],
      ['g_lamp', 0, 3],
    ],
  );
  assert.equal(ifce.interfaceSlotCount, 1);
  assert.deepEqual(ifce.slotRecords[0]?.functionTables, [0, 1, 2]);
  const l9 = fixture('oracle/own/ps_level9_consts/vsmain-vs_4_0_level_9_3-zi-gec/shader.dxbc');
  const aon9 = readAon9(partData(l9, 'Aon9'));
  assert.equal(aon9.version >>> 0, 0xfffe0200);
  assert.equal(aon9.programVersion >>> 0, 0xfffe0201, 'a vs_2_x program: feature level 9_3');
  // The tables' values, from Microsoft's listing of the build (listing.asm, "Constant buffer to DX9
  // shader constant mappings"): i0 <- cb1 register 0 component 0; c1 <- cb0 from 0, 2 registers
  // (FLT x4); c3 <- cb1 from 1, 1 register (BOOL, FLT, FLT, FLT); c4 <- cb2 from 1, 1 register; and
  // the runtime constant c0, the vertex shader position offset.
  assert.deepEqual(aon9.intRows, [{ buffer: 1, register: 0, component: 0, target: 0 }]);
  const FLT = 0;
  const BOOL = 1;
  assert.deepEqual(aon9.constantRanges, [
    { buffer: 0, firstRegister: 0, registerCount: 2, target: 1, conversion: [FLT, FLT, FLT, FLT] },
    { buffer: 1, firstRegister: 1, registerCount: 1, target: 3, conversion: [BOOL, FLT, FLT, FLT] },
    { buffer: 2, firstRegister: 1, registerCount: 1, target: 4, conversion: [FLT, FLT, FLT, FLT] },
  ]);
  assert.deepEqual(aon9.runtime, [{ kind: 0, target: 0 }]);
  assert.deepEqual(aon9.boolRows, []);
  assert.equal(reflect(l9).minFeatureLevel, 0x9300);
});

test('a container whose RDEF was stripped reflects from its signatures alone', () => {
  const c = fixture('reflect/corpus/DebugEffect_PSHemiAmbient.dxbc');
  const r = reflect(c);
  assert.equal(r.rdef, undefined);
  assert.equal(r.desc.Creator, null);
  // D3DReflect's answers for the file (DebugEffect_PSHemiAmbient.ms.json beside it)
  assert.deepEqual(
    r.inputs.map((p) => [p.semanticName, p.semanticIndex]),
    [
      ['TEXCOORD', 0],
      ['TEXCOORD', 1],
      ['TEXCOORD', 2],
      ['COLOR', 0],
    ],
  );
  assert.deepEqual(
    r.outputs.map((p) => [p.semanticName, p.semanticIndex]),
    [['SV_Target', 0]],
  );
});
