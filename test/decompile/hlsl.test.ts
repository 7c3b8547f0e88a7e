// The HLSL printer: examples/vertex-color.dxbc reads like examples/vertex-color.hlsl (a struct in, a
// struct out, `mul` with WorldViewProj, `color * Tint`); a container whose RDEF was stripped gets
// register names; what the printer cannot write is refused by name (E603); the CLI prints it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REPO } from '../helpers/shared.js';
import { editContainer, parseContainer } from '../../src/container/container.js';
import { decompile, decompiledHlsl, DecompileRefusal } from '../../src/decompile/index.js';
import { run } from '../../src/cli/commands/decompile.js';
import { equivalence } from './harness.js';

const EXAMPLE = join(REPO, 'examples/vertex-color.dxbc');

export const VERTEX_COLOR_HLSL = `// decompiled by iridia from DXBC vs_5_0
cbuffer Transform : register(b0)
{
    float4x4 WorldViewProj;
    float4 Tint;
};

struct VSInput
{
    float3 position : POSITION0;
    float4 color : COLOR0;
    float2 texcoord : TEXCOORD0;
};

struct VSOutput
{
    float4 position : SV_Position;
    float4 color : COLOR0;
    float2 texcoord : TEXCOORD0;
};

VSOutput main(VSInput input)
{
    VSOutput output;
    output.position = mul(float4(input.position, 1.0), WorldViewProj);
    output.color = input.color * Tint;
    output.texcoord = input.texcoord;
    return output;
}
`;

test('vertex-color decompiles to HLSL that reads like its source', () => {
  assert.equal(decompiledHlsl(decompile(new Uint8Array(readFileSync(EXAMPLE)))), VERTEX_COLOR_HLSL);
});

test('a container without its RDEF: register names, read with asfloat', () => {
  const c = parseContainer(new Uint8Array(readFileSync(EXAMPLE)));
  const bytes = editContainer(c, { op: 'remove', kind: 'RDEF' });
  const d = decompile(bytes);
  const h = decompiledHlsl(d);
  assert.match(h, /cbuffer cb0_registers : register\(b0\)\n\{\n {4}uint4 cb0\[5\];/);
  assert.match(h, /dot\(float4\(input\.position, 1\.0\), asfloat\(cb0\[0\]\)\)/);
  assert.match(h, /input\.color \* asfloat\(cb0\[4\]\)/);
  assert.equal(equivalence(d.lifted, d.readable).kind, 'same');
});

test('a hull program is refused by name (E603), not printed', () => {
  const f = join(FIXTURES, 'exec/hs_fork_instanced-main-hs_5_0.dxbc');
  const d = decompile(new Uint8Array(readFileSync(f)));
  assert.throws(
    () => decompiledHlsl(d),
    (e: unknown) =>
      e instanceof DecompileRefusal && e.code === 'E603_DECOMPILE_UNSUPPORTED' && e.category === 'stage not handled',
  );
});

test('iridia decompile: HLSL to a file, WGSL to stdout, a batch with refusals counted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-decompile-cli-'));
  const writes: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => (writes.push(String(s)), true)) as typeof process.stdout.write;
  const errWrite = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    assert.equal(run([EXAMPLE, '-o', join(dir, 'vc.hlsl')]), 0);
    assert.equal(readFileSync(join(dir, 'vc.hlsl'), 'utf8'), VERTEX_COLOR_HLSL);
    assert.equal(run(['--wgsl', EXAMPLE]), 0);
    assert.match(writes.join(''), /var<uniform> transform: Transform;/);
    writes.length = 0;
    const status = run([join(FIXTURES, 'exec'), '--out-dir', join(dir, 'out'), '--root', FIXTURES, '--json']);
    const summary = JSON.parse(writes.join('')) as { written: number; refusals: Record<string, number> };
    assert.equal(status, 1, 'some exec fixtures are hull/domain/geometry programs: refused');
    assert.ok(summary.written >= 5, `${summary.written} written`);
    assert.ok((summary.refusals['decompile: stage not handled'] ?? 0) > 0);
  } finally {
    process.stdout.write = write;
    process.stderr.write = errWrite;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the README's decompile listing is the printer's output", () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const m = /\$ npx iridia decompile examples\/vertex-color\.dxbc\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, "the README's decompile example");
  assert.equal(m[1], VERTEX_COLOR_HLSL);
});

// The lifter's guards of Direct3D's float rules (NaN and infinity results of rsq, log, sqrt, exp,
// frc, sincos; a float move's denormal flush) print as the HLSL intrinsic whose meaning on Direct3D
// is that rule, not as the select tree WGSL needed.
test('guards of Direct3D float rules print as their HLSL intrinsics', () => {
  const cases: [string, string[]][] = [
    ['lift/modifiers_saturate/main-ps_5_0/shader.dxbc', ['exp2(', 'frac(', 'sqrt(']],
    ['oracle/own/debug_include/main-ps_5_0-zi/shader.dxbc', ['rsqrt(']],
    ['exec/fx_histogram-main-cs_5_0.dxbc', ['log2(']],
    ['lift/ps_call_return/main-ps_5_0/shader.dxbc', ['sin(', 'cos(']],
  ];
  for (const [path, intrinsics] of cases) {
    const hlsl = decompiledHlsl(decompile(new Uint8Array(readFileSync(join(FIXTURES, path)))));
    for (const name of intrinsics) assert.ok(hlsl.includes(name), `${path}: ${name}\n${hlsl}`);
    assert.ok(!hlsl.includes('asfloat(0x7fc00000u)'), `${path}: no NaN constant of a guard left\n${hlsl}`);
    assert.ok(!hlsl.includes('1.1754944e-38'), `${path}: no smallest-normal test of a guard left\n${hlsl}`);
  }
});

test('a conservative depth output keeps its semantic', () => {
  const path = join(FIXTURES, 'oracle/own/zi_depth_return/depthGE-ps_5_0-zi/shader.dxbc');
  const hlsl = decompiledHlsl(decompile(new Uint8Array(readFileSync(path))));
  assert.match(hlsl, / : SV_DepthGreaterEqual;/);
});
