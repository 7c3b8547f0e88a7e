// The readable WGSL (the WGSL emitter over the decompiled module, with the container's names) of
// every fixture program that lifts compiles with Tint (Dawn, npm `webgpu`, on SwiftShader).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, REPO, readBytes, walk } from '../helpers/shared.js';
import { closeWebgpu, compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decompile, decompiledWgsl } from '../../src/decompile/index.js';
import { IridiaError } from '../../src/errors.js';

after(() => closeWebgpu());

test('Tint compiles the readable WGSL of every fixture program that lifts', { skip: webgpuSkip() }, async (t) => {
  const modules: { name: string; code: string }[] = [];
  for (const f of walk(FIXTURES)) {
    if (!f.endsWith('.dxbc')) continue;
    const bytes = readBytes(f);
    if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'DXBC') continue;
    try {
      modules.push({ name: f, code: decompiledWgsl(decompile(bytes)) });
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
    }
  }
  assert.ok(modules.length > 50);
  const results = await compileWgsl(modules.map((m) => m.code));
  const failed = results
    .map((r, i) => (r.ok ? undefined : `${modules[i]!.name}: ${r.messages.join(' | ')}`))
    .filter((x): x is string => x !== undefined);
  assert.deepEqual(failed, []);
  const uniforms = modules.flatMap((m) => [...m.code.matchAll(/var<uniform> \w+: ([^;]+);/g)].map((u) => u[1]!));
  const structs = uniforms.filter((u) => !u.startsWith('array<')).length;
  t.diagnostic(`Tint compiled ${results.length} readable fixture modules`);
  t.diagnostic(
    `${uniforms.length} constant buffers: ${structs} as structs, ${uniforms.length - structs} register arrays`,
  );
});

test(
  'vertex-color: the constant buffer is struct Transform, read by member, and Tint compiles it',
  { skip: webgpuSkip() },
  async () => {
    const wgsl = decompiledWgsl(decompile(new Uint8Array(readFileSync(join(REPO, 'examples/vertex-color.dxbc')))));
    // cbuffer Transform { float4x4 WorldViewProj; float4 Tint; } (examples/vertex-color.hlsl)
    assert.match(wgsl, /^struct Transform \{\n {2}WorldViewProj: mat4x4<f32>,\n {2}Tint: vec4<f32>,\n\}$/m);
    assert.match(wgsl, /^@group\(0\) @binding\(0\) var<uniform> transform: Transform;$/m);
    // mul(float4(pos, 1), WorldViewProj): column j is register j; `i.color * Tint`
    assert.match(wgsl, /dot\(vec4<f32>\(POSITION0, 1\.0f\), transform\.WorldViewProj\[3\]\)/);
    assert.match(wgsl, /\(COLOR0 \* transform\.Tint\)/);
    assert.doesNotMatch(wgsl, /bitcast|array<vec4<u32>/);
    const [r] = await compileWgsl([wgsl]);
    assert.ok(r!.ok, r!.messages.join(' | '));
  },
);

test('a buffer read by a computed register, or of types WGSL cannot lay out as HLSL does, keeps its register array', () => {
  const own = (p: string): string =>
    decompiledWgsl(decompile(readBytes(join(FIXTURES, 'oracle/own', p, 'shader.dxbc'))));
  // vs_skinning: `float4x3 BoneMatrices[64]` indexed by the blend indices; Camera's ViewProj by constant registers
  const skinning = own('vs_skinning/main-vs_4_0');
  assert.match(skinning, /^@group\(0\) @binding\(1\) var<uniform> Bones: array<vec4<u32>, 192>;$/m);
  assert.match(skinning, /^struct Camera \{\n {2}ViewProj: mat4x4<f32>,\n\}$/m);
  assert.match(skinning, /dot\(vec4<f32>\(t1, 1\.0f\), camera\.ViewProj\[0\]\)/);
  // rdef_types: bool, float2x2 (columns 8 bytes apart in WGSL, 16 in HLSL), float arrf[3]
  assert.match(own('rdef_types/main-ps_5_0'), /var<uniform> Types: array<vec4<u32>, \d+>;/);
});
