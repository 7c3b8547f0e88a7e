// `iridia reflect` on DXIL containers: the text view, --json and --d3d (one file, and a folder with
// --out-dir), on committed dxc builds; the values are the ones dxc's listing of the same container
// prints (test/fixtures/dxil/NAME.ll, "Resource Bindings" and the signature tables).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REPO } from '../helpers/shared.js';

function iridia(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'test/cli/bin.ts'), ...args], {
    encoding: 'utf8',
    cwd: REPO,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const DXIL = join(FIXTURES, 'dxil');
const BLIT = join(DXIL, 'd3d12__D3D12_Blit__g_BlitFrom2DArray.dxil');

test('reflect FILE on DXIL: the program, the bindings with their spaces, the signatures', () => {
  const r = iridia('reflect', BLIT);
  assert.equal(r.status, 0, r.stderr);
  // ; SourceRegionBuffer cbuffer ... CB0 cb0,space3 / SourceSampler sampler S0 s0,space2 /
  // ; SourceTexture2DArray texture f32 2darray T0 t0,space2
  assert.match(r.stdout, /^program {3}ps_6_0$/m);
  assert.match(r.stdout, /^entry {5}BlitFrom2DArray$/m);
  assert.match(r.stdout, /^binding {3}SourceRegionBuffer: CBuffer CBuffer at cb0 count 1 space 3 id 0$/m);
  assert.match(r.stdout, /^binding {3}SourceSampler: Sampler Sampler at s0 count 1 space 2 id 0$/m);
  assert.match(r.stdout, /^binding {3}SourceTexture2DArray: SRV Texture2DArray F32 at t0 count 1 space 2 id 0$/m);
  assert.match(r.stdout, /^cbuffer {3}SourceRegionBuffer \(24 bytes, 4 variables\)$/m);
  // ; TEXCOORD 0 xy 0 / SV_Position 0 xyzw 1 / SV_Target 0 xyzw 0
  assert.match(
    r.stdout,
    /^input {5}TEXCOORD0 r0 mask 0x3\ninput {5}SV_Position0 r1 mask 0xf\noutput {4}SV_Target0 r0 mask 0xf$/m,
  );
});

test('reflect --json FILE on DXIL: the own view, with the D3D view inside', () => {
  const r = iridia('reflect', '--json', join(DXIL, 'direct3d12__D3D12_PixelShader_YUV.dxil'));
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as {
    stage: string;
    shaderModel: string;
    entryPoint: string;
    resources: { name: string; class: string; lowerBound: number; space: number }[];
    signatures: { kind: string; elements: { semanticName: string; register: number }[] }[];
    d3d: { BoundResources: { Name: string }[] };
  };
  assert.equal(j.stage, 'ps');
  assert.equal(j.shaderModel, '6.0');
  assert.equal(j.entryPoint, 'main');
  // ; Constants cb1 / theSampler s0 / theTextureY t0 / theTextureU t1 / theTextureV t2
  assert.deepEqual(
    j.resources.map((x) => [x.name, x.class, x.lowerBound, x.space]),
    [
      ['Constants', 'CBuffer', 1, 0],
      ['theSampler', 'Sampler', 0, 0],
      ['theTextureY', 'SRV', 0, 0],
      ['theTextureU', 'SRV', 1, 0],
      ['theTextureV', 'SRV', 2, 0],
    ],
  );
  assert.deepEqual(
    j.signatures.map((s) => [s.kind, s.elements.map((e) => `${e.semanticName}@${e.register}`)]),
    [
      ['ISG1', ['SV_Position@0', 'TEXCOORD@1', 'COLOR@2']],
      ['OSG1', ['SV_Target@0']],
    ],
  );
  assert.deepEqual(
    j.d3d.BoundResources.map((b) => b.Name),
    ['Constants', 'theSampler', 'theTextureY', 'theTextureU', 'theTextureV'],
  );
});

test('reflect --d3d FILE on DXIL prints D3DReflect-shaped JSON', () => {
  const r = iridia('reflect', '--d3d', BLIT);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { BoundResources: { Name: string; BindPoint: number; Space: number }[] };
  assert.deepEqual(
    j.BoundResources.map((b) => [b.Name, b.BindPoint, b.Space]),
    [
      ['SourceRegionBuffer', 0, 3],
      ['SourceSampler', 0, 2],
      ['SourceTexture2DArray', 0, 2],
    ],
  );
});

test('reflect --d3d FOLDER --out-dir: DXIL shaders written; a library and a root signature refused by name', () => {
  const out = mkdtempSync(join(tmpdir(), 'iridia-reflect-dxil-'));
  try {
    const r = iridia('reflect', '--d3d', DXIL, '--out-dir', out, '--root', DXIL);
    assert.equal(r.status, 1, 'two inputs have no shader view');
    assert.match(r.stdout, /^6 of 8 reflected into /m);
    assert.match(
      r.stderr,
      /runtime-tests__test_910b3693\.dxil: part DXIL: a DXIL library has no D3DReflect shader view/,
    );
    assert.match(r.stderr, /direct3d12__D3D12_RootSig_Texture\.dxil: .*there is no program to reflect/);
    const yuv = JSON.parse(readFileSync(join(out, 'direct3d12__D3D12_PixelShader_YUV.json'), 'utf8')) as {
      BoundResources: { Name: string; BindPoint: number }[];
    };
    assert.deepEqual(
      yuv.BoundResources.map((b) => `${b.Name}@${b.BindPoint}`),
      ['Constants@1', 'theSampler@0', 'theTextureY@0', 'theTextureU@1', 'theTextureV@2'],
    );
    assert.equal(existsSync(join(out, 'runtime-tests__test_910b3693.json')), false);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
