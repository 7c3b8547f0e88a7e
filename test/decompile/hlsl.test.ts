// The HLSL printer: examples/vertex-color.dxbc reads like examples/vertex-color.hlsl (a struct in, a
// struct out, `mul` with WorldViewProj, `color * Tint`); a container whose RDEF was stripped gets
// register names; what the printer cannot write is refused by name (E603); the CLI prints it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REPO, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { editContainer, parseContainer } from '../../src/container/container.js';
import { decompile, decompiledHlsl, DecompileRefusal } from '../../src/decompile/index.js';
import { run } from '../../src/cli/commands/decompile.js';
import { equivalence } from './harness.js';
import { glslang, glslangFailures } from './census.js';

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

// Stages lifted as stage functions (stages.ts): the HLSL has the shape of the source beside the
// build (test/fixtures/oracle/own and ../shared/oracle/own), the readable module is equivalent on
// the executor, and glslang accepts the text for its stage.
const tool = glslang();

function stageHlsl(path: string): string {
  const d = decompile(new Uint8Array(readFileSync(path)));
  const h = decompiledHlsl(d);
  assert.equal(equivalence(d.lifted, d.readable).kind, 'same', `${path}: equivalent`);
  if (tool) assert.deepEqual(glslangFailures(tool, [{ path, d, hlsl: h }]).failures, [], h);
  return h;
}

test('a vertex program lifted as a stage function (it feeds a tessellator) prints as a vertex entry point', () => {
  const h = stageHlsl(join(FIXTURES, 'oracle/own/sm51_all_stages/vsmain-vs_5_1/shader.dxbc'));
  assert.match(h, /\nVSOutput main\(VSInput input\)\n/);
  assert.match(h, /float4 position : POSITION0;/);
  assert.match(h, /output\.texcoord = input\.texcoord;/);
});

test('a geometry program: [maxvertexcount], its input primitive, a stream, Append from its output fields', () => {
  // gs_point_out: `[maxvertexcount(3)] void main(triangle V t[3], inout PointStream<V> s)`
  const h = stageHlsl(join(FIXTURES, 'exec/gs_point_out-main-gs_5_0.dxbc'));
  assert.match(
    h,
    /\[maxvertexcount\(3\)\]\nvoid main\(triangle GSInput input\[3\], inout PointStream<GSOutput> stream/,
  );
  assert.match(h, /output\.position = input\[min\(merged0\.x, 2u\)\]\.position;/);
  assert.match(h, /output\.weight = input\[min\(merged0\.x, 2u\)\]\.weight;\n\s+stream\.Append\(output\);/);
  const t = stageHlsl(join(FIXTURES, 'oracle/own/sm51_all_stages/gsmain-gs_5_1/shader.dxbc'));
  assert.match(t, /inout TriangleStream<GSOutput> stream/);
  assert.ok(!/\bo\[|v_in/.test(h + t), 'no register file left');
});

test('a domain program: [domain], the patch constants as a struct with its factor arrays, the control points', () => {
  const h = stageHlsl(join(FIXTURES, 'era-sdbg/ds-ds_5_0.dxbc'));
  assert.match(h, /\[domain\("tri"\)\]\nDSOutput main\(DSPatchConstants patch, float3 domain : SV_DomainLocation/);
  assert.match(h, /float edges\[3\] : SV_TessFactor;\n {4}float inside : SV_InsideTessFactor;/);
  assert.match(h, /const OutputPatch<DSControlPoint, 3> cp\)/);
  assert.match(h, /cp\[2\]\.position \* t0\.zzzz/);
  assert.match(h, /return output;/);
});

test('a hull program: its attributes, the fork phases called in order by the patch-constant function, an instanced phase in a loop', () => {
  const h = stageHlsl(join(FIXTURES, 'era-sdbg/hs-hs_5_0.dxbc'));
  for (const a of [
    '[domain("tri")]',
    '[partitioning("fractional_odd")]',
    '[outputtopology("triangle_cw")]',
    '[outputcontrolpoints(3)]',
    '[patchconstantfunc("patch_constants")]',
  ])
    assert.ok(h.includes(a), `${a}\n${h}`);
  assert.match(h, /HSOutput main\(InputPatch<HSInput, 3> ip, uint control_point_id : SV_OutputControlPointID/);
  assert.match(
    h,
    /for \(uint instance_id = 0u; instance_id < 3u; instance_id\+\+\)\n {8}fork_0\(patch, ip, op, instance_id, primitive_id\);\n {4}fork_1\(patch, ip, op, 0u, primitive_id\);/,
  );
  assert.match(h, /patch\.edges\[instance_id\] = /);
  assert.match(h, /patch\.inside = tess \+ tess;/);
  // no control-point phase: the control points pass through; a join phase reads an array of the patch
  const f = stageHlsl(join(FIXTURES, 'exec/hs_fork_instanced-main-hs_5_0.dxbc'));
  assert.match(f, /output\.position = ip\[control_point_id\]\.position;/);
  assert.match(f, /float4 mid\[3\] : MID;/);
  assert.match(f, /patch\.mid\[instance_id\]\.x = t0;/);
  assert.match(f, /patch\.mid\[min\(instance_id \+ 4u, 31u\) - 4u\]/);
});

test('a geometry program writing several streams is refused by name (E603), not printed', () => {
  const f = join(FIXTURES, 'lift/streams/DXILValidation.multiStreamGS/main-gs_5_0/shader.dxbc');
  const d = decompile(new Uint8Array(readFileSync(f)));
  assert.throws(
    () => decompiledHlsl(d),
    (e: unknown) =>
      e instanceof DecompileRefusal &&
      e.code === 'E603_DECOMPILE_UNSUPPORTED' &&
      e.category === 'stage not handled' &&
      /several streams/.test(e.message),
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
    const status = run([
      join(FIXTURES, 'exec'),
      join(FIXTURES, 'lift/streams'),
      '--out-dir',
      join(dir, 'out'),
      '--root',
      FIXTURES,
      '--json',
    ]);
    const summary = JSON.parse(writes.join('')) as { written: number; refusals: Record<string, number> };
    assert.equal(status, 1, 'a geometry program of several streams (lift/streams): refused');
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

// ---- constant buffers read with a computed index, bool constants, the register form

/** The HLSL of a container, its readable module equivalent to the lifted one, and glslang's verdict. */
function checked(path: string, strip = false, loopsOnSeeds = false): string {
  let bytes: Uint8Array = new Uint8Array(readFileSync(path));
  if (strip) bytes = editContainer(parseContainer(bytes), { op: 'remove', kind: 'RDEF' });
  const d = decompile(bytes);
  const h = decompiledHlsl(d);
  // a loop whose trip count is a seeded word can pass the run's statement budget (a named limit)
  const kind = equivalence(d.lifted, d.readable).kind;
  if (loopsOnSeeds) assert.ok(kind === 'same' || kind === 'limit', kind);
  else assert.equal(kind, 'same');
  const tool = glslang();
  if (tool) assert.deepEqual(glslangFailures(tool, [{ path, d, hlsl: h }]).failures, []);
  return h;
}

test('an array of matrices read with a computed index prints as the element, and mul of it', () => {
  // vs_skinning: float4x3 BoneMatrices[64] read as cb1[r1.y + 0..2] with r1 = indices * 3
  const h = checked(join(FIXTURES, 'oracle/own/vs_skinning/main-vs_4_0/shader.dxbc'));
  assert.match(h, /cbuffer Bones : register\(b1\)\n\{\n {4}float4x3 BoneMatrices\[64\];\n\};/);
  for (const c of 'xyzw')
    assert.ok(h.includes(`mul(float4(input.position, 1.0), BoneMatrices[input.blendindices.${c}])`), c);
  assert.ok(h.includes('mul(input.normal, (float3x3)BoneMatrices[input.blendindices.w])'));
  assert.doesNotMatch(h, /_registers|asfloat|min\(/);
});

test('without its RDEF, a computed read is the register it reads (Direct3D reads zero past the rows)', () => {
  const h = checked(join(FIXTURES, 'oracle/own/vs_skinning/main-vs_4_0/shader.dxbc'), true);
  assert.match(h, /uint4 cb1\[192\];/);
  assert.match(h, /uint4 (\w+) = input\.blendindices \* \(\(uint4\)3u\);[\s\S]*asfloat\(cb1\[\1\.w \+ 2u\]\)/);
  assert.doesNotMatch(h, /192u/); // no guard: the declared rows are HLSL's own bound
});

test('bool constants are declared as the uint words the program reads', () => {
  // rdef_types: bool, bool2, bool3x3 and a struct's bool[2] (refused as "a bool constant read as uint" before)
  const h = checked(join(FIXTURES, 'oracle/own/rdef_types/main-ps_4_0/shader.dxbc'));
  assert.match(h, /\n {4}uint vb; \/\/ bool\n/);
  assert.match(h, /\n {4}uint3x3 bm33; \/\/ bool\n/);
  assert.match(h, /\n {4}uint flags\[2\]; \/\/ bool\n/);
});

const own = sharedPath('oracle/own');

test('an array of structs read in a loop prints as Lights[i].member', { skip: skipUnlessShared('oracle/own') }, () => {
  // ps_cb_dynamic: `lights[i].pos` for i the loop counter, whose product with the stride (3 registers)
  // is a let: the let prints as the element index
  const h = checked(join(own!, 'ps_cb_dynamic/main-ps_5_0/shader.dxbc'), false, true);
  assert.match(h, /struct Light\n\{\n {4}float4 pos;\n {4}float4 color;\n {4}float range;\n\};/);
  assert.match(h, /cbuffer Lights : register\(b2\)\n\{\n {4}Light lights\[16\];\n {4}uint count;\n\};/);
  const m = /uint (t\d+) = (\w+);\n/.exec(h);
  assert.ok(m, h);
  for (const member of ['pos.xyz', 'range', 'color']) assert.ok(h.includes(`lights[${m[1]}].${member}`), member);
  assert.ok(h.includes('mul(float4(input.position, 1.0), mats[input.mat])'));
  assert.doesNotMatch(h, /_registers|asfloat/);
});

test(
  'an index with an offset into a later member, and a register form with its variables named',
  { skip: skipUnlessShared('oracle/own') },
  () => {
    // cb_large_arrays: cbuffer Big { float4 Pad[1024]; float4 Data[3071]; float4 Last; }, Data[i] = cb0[i + 1024]
    const h = checked(join(own!, 'cb_large_arrays/main-vs_5_0/shader.dxbc'));
    assert.match(h, /Data\[input\.index\] \+ Pad\[t\d+\] \+ Last \+ Data\[t\d+\]/);
    // l9_vs_indexed at level 9: int indices, Bones[(int)idx.x]
    const l9 = checked(join(own!, 'l9_vs_indexed/main-vs_4_0_level_9_3/shader.dxbc'));
    assert.ok(l9.includes('mul(input.position, Bones[((int2)input.blendindices.xy).x])'));
    // cs_minprec: min-precision members are declared through their registers, named in comments
    const mp = checked(join(own!, 'cs_minprec/main-cs_5_0/shader.dxbc'));
    assert.match(mp, /cbuffer C : register\(b0\)\n\{\n {4}(uint|float)4 C_registers\[\d+\];\n {4}\/\/ /);
  },
);
