// The lifter on committed fixtures (test/fixtures/lift, from our own HLSL in shared/oracle/own), in
// the spirit of the spec's tests/lift.rs: the interface (one argument or member per signature
// element, registers and lanes in provenance), the constant-buffer layout with reflection's names,
// the Direct3D guards in the WGSL, SM5.1 ranges, stage functions, refusals by name, bound sizes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { LiftRefusal } from '../../src/lift/refuse.js';
import { validateModule } from '../../src/ir/validate.js';
import { printModule } from '../../src/ir/print.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { IridiaError } from '../../src/errors.js';

const fixture = (p: string) => readBytes(join(FIXTURES, 'lift', p, 'shader.dxbc'));

test('interface: one entry argument or result member per signature element, register and lanes kept', () => {
  const p = lift(fixture('ps_uint_ops/main-ps_5_0'));
  assert.equal(p.stage, 'pixel');
  assert.equal(p.provenance.target, 'ps_5_0');
  assert.deepEqual(
    p.interface.inputs.map((v) => [v.semantic, v.semanticIndex, v.register, v.mask, v.componentType, v.location]),
    [
      ['V', 0, 0, 0xf, 1, 0],
      ['F', 0, 1, 0xf, 3, 1],
    ],
  );
  assert.deepEqual(
    p.interface.outputs.map((v) => [v.semantic, v.register, v.mask, v.location]),
    [['SV_Target', 0, 0xf, 0]],
  );
  const w = emitWgsl(p);
  assert.match(
    w,
    /@fragment\nfn main\(@location\(0\) @interpolate\(flat\) V0: vec4<u32>, @location\(1\) F0: vec4<f32>\) -> pixel_out/,
  );
  assert.match(w, /@location\(0\) SV_Target0: vec4<u32>,/);
});

test('interface: a packed register gives one argument per element (TEXCOORD .xy, MAT .x)', () => {
  const p = lift(fixture('sm51_resource_arrays/main-ps_5_1'));
  assert.deepEqual(
    p.interface.inputs.map((v) => [v.name, v.register, v.mask]),
    [
      ['TEXCOORD0', 0, 0x3],
      ['MAT0', 1, 0x1],
    ],
  );
});

test('constant buffer layout carries the names reflection gives', () => {
  const p = lift(fixture('ps_int_ops/main-ps_5_0'));
  const cb = p.interface.resources[0]!;
  assert.equal(cb.name, 'cb0');
  assert.equal(cb.reflectedName, 'C');
  assert.deepEqual([cb.registerClass, cb.register, cb.space, cb.group, cb.binding], ['b', 0, 0, 0, 0]);
  assert.equal(cb.kind.kind, 'constantBuffer');
  if (cb.kind.kind !== 'constantBuffer') return;
  assert.deepEqual(
    cb.kind.layout.constants.map((c) => [c.name, c.offset]),
    [
      ['a', 0],
      ['b', 16],
      ['s', 32],
    ],
  );
  assert.match(emitWgsl(p), /@group\(0\) @binding\(0\) var<uniform> cb0: array<vec4<u32>, 3>;/);
});

test('Direct3D guards are written out in the WGSL: udiv by zero, shift counts, ftou', () => {
  const w = emitWgsl(lift(fixture('ps_uint_ops/main-ps_5_0')));
  // udiv: the divisor is made safe, and a zero divisor gives 0xffffffff for quotient and remainder.
  assert.match(
    w,
    /select\(\(v\[0\] \/ select\(cb0\[1\], vec4<u32>\(1u\), \(cb0\[1\] == vec4<u32>\(0u\)\)\)\), vec4<u32>\(4294967295u\), \(cb0\[1\] == vec4<u32>\(0u\)\)\)/,
  );
  assert.match(w, /select\(\(v\[0\] % select\(cb0\[0\]/);
  // ushr: the count's low five bits.
  assert.match(w, /\(v\[0\] >> \(cb0\[2\]\.xxxx & vec4<u32>\(31u\)\)\)/);
  // ftou: NaN gives 0, 2^32 and above give 0xffffffff, the rest is clamped before converting.
  // (4294967040 and 2^32 print as the shortest decimals that read back as those floats.)
  assert.match(
    w,
    /select\(select\(vec4<u32>\(clamp\(bitcast<vec4<f32>>\(v\[1\]\), vec4<f32>\(0\.0f\), vec4<f32>\(4\.294967e9f\)\)\), vec4<u32>\(4294967295u\), \(bitcast<vec4<f32>>\(v\[1\]\) >= vec4<f32>\(4\.2949673e9f\)\)\), vec4<u32>\(0u\), \(bitcast<vec4<f32>>\(v\[1\]\) != bitcast<vec4<f32>>\(v\[1\]\)\)\)/,
  );
});

test('Direct3D guards: ftoi saturates and sends NaN to 0', () => {
  const w = emitWgsl(lift(fixture('ps_int_ops/main-ps_5_0')));
  // -2^31 and 2147483520 (the largest float below 2^31) bound the conversion; 2^31 and above give INT_MAX.
  assert.match(
    w,
    /select\(select\(vec4<i32>\(clamp\(bitcast<vec4<f32>>\(v\[1\]\), vec4<f32>\(-2\.1474836e9f\), vec4<f32>\(2\.1474835e9f\)\)\), vec4<i32>\(2147483647i\), \(bitcast<vec4<f32>>\(v\[1\]\) >= vec4<f32>\(2\.1474836e9f\)\)\), vec4<i32>\(0i\), \(bitcast<vec4<f32>>\(v\[1\]\) != bitcast<vec4<f32>>\(v\[1\]\)\)\)/,
  );
});

test('Direct3D guards: _sat sends NaN to 0; min/max return the other operand when one is NaN', () => {
  const p = lift(fixture('modifiers_saturate/main-ps_5_0'));
  const w = emitWgsl(p);
  assert.match(
    w,
    /select\(clamp\(([^;]+), vec4<f32>\(0\.0f\), vec4<f32>\(1\.0f\)\), vec4<f32>\(0\.0f\), \(\1 != \1\)\)/,
  );
  assert.match(w, /select\(select\(min\(/);
  assert.match(w, /select\(select\(max\(/);
  const ir = printModule(p.module);
  assert.match(ir, /select\(ne\(/);
});

test('SM5.1 ranges: bindings by declaration, never colliding; computed indices call a switch helper; non-uniform noted', () => {
  const p = lift(fixture('sm51_resource_arrays/main-ps_5_1-unbounded'));
  const rows = p.interface.resources.map((r) => [
    r.name,
    r.registerClass,
    r.register,
    r.count,
    r.space,
    r.group,
    r.binding,
  ]);
  assert.deepEqual(rows, [
    ['cb0', 'b', 0, 1, 0, 0, 0],
    ['s0', 's', 0, 4, 0, 2, 0],
    ['t0', 't', 2, 8, 0, 1, 0],
    ['t1', 't', 10, 3, 0, 1, 8],
    ['t2', 't', 0, null, 1, 1, 11],
  ]);
  assert.ok(p.notes.some((n) => /t2: the unbounded range t0\.\. \(space 1\) is given 16 bindings/.test(n)));
  assert.ok(p.notes.some((n) => /indexed by a non-uniform value/.test(n)));
  assert.deepEqual(validateModule(p.module), []);
  const w = emitWgsl(p);
  assert.match(w, /@group\(1\) @binding\(26\) var t2_15: texture_2d<f32>;/);
  assert.match(w, /@group\(1\) @binding\(7\) var t0_7: texture_2d<f32>;/);
  // Tex[idx] with Samp[r0.x]: register r0.y + 2 names t2..t9, so the range's element is (r0.y + 2) - 2;
  // the sample is one call of a helper written once: a switch over t0's elements, in each one over s0's
  assert.match(
    w,
    /let (t0_sample\w*) = t0_sample\(\(\(r0\.y \+ 2u\) - 2u\), r0\.x, [^;]+\);\n {2}r0 = bitcast<vec4<u32>>\(\1\);/,
  );
  assert.match(
    w,
    /\nfn t0_sample\(index: u32, index_1: u32, arg: vec2<f32>\) -> vec4<f32> \{\n {2}switch index \{\n {4}case 0u: \{\n {6}switch index_1 \{\n {8}case 0u: \{\n {10}return textureSample\(t0_0, s0_0, arg\);/,
  );
  // an index past the range takes the last element (WGSL's robust access would clamp)
  assert.match(w, /case 7u, default: \{\n {6}switch index_1 \{/);
  assert.match(w, /case 3u, default: \{\n {10}return textureSample\(t0_7, s0_3, arg\);/);
  const main = w.slice(w.indexOf('fn main('), w.indexOf('\n}\n', w.indexOf('fn main(')));
  assert.doesNotMatch(main, /\bswitch\b/, 'the switches are in the helpers, not at the uses');
  const bindings = [...w.matchAll(/@group\((\d+)\) @binding\((\d+)\)/g)].map((m) => `${m[1]}:${m[2]}`);
  assert.equal(new Set(bindings).size, bindings.length, 'no two globals share a binding');
});

test('lift_with-style bound sizes: a constant buffer bound larger than declared', () => {
  const p = lift(fixture('ps_int_ops/main-ps_5_0'), { boundSizes: { 0: 8 } });
  assert.match(emitWgsl(p), /var<uniform> cb0: array<vec4<u32>, 8>;/);
  assert.ok(p.notes.includes('cb0 is bound with 8 rows (declared 3)'));
});

test('geometry, hull and domain programs lift as stage functions', () => {
  const gs = lift(fixture('gs_point_out/main-gs_5_0'));
  assert.equal(gs.stage, 'geometry');
  assert.equal(gs.module.entryPoints.length, 0);
  assert.ok(gs.stageFunctions && gs.stageFunctions.maxVertexCount! > 0);
  assert.match(printModule(gs.module), /\n\s+emit stream 0\n/);
  assert.match(emitWgsl(gs), /iridia_emit\(\);/);
  const hs = lift(fixture('ds_isoline_point/main-hs_5_0'));
  assert.equal(hs.stage, 'hull');
  assert.ok(hs.stageFunctions!.patchConstant.length > 0);
  assert.ok(hs.interface.patchConstants.length > 0);
  const ds = lift(fixture('ds_isoline_point/dsmain-ds_5_0'));
  assert.equal(ds.stage, 'domain');
  assert.equal(ds.stageFunctions!.domain, 'isoline');
  for (const p of [gs, hs, ds]) assert.deepEqual(validateModule(p.module), []);
});

test('a refusal names the reason, the instruction and its word', () => {
  const bytes = readBytes(join(FIXTURES, 'oracle/own/ps_abort_printf/csmain-cs_5_0/shader.dxbc'));
  assert.throws(
    () => lift(bytes),
    (e: unknown) => {
      assert.ok(e instanceof LiftRefusal);
      assert.equal(e.code, 'E601_LIFT_UNSUPPORTED');
      assert.equal(e.category, 'opcode not handled');
      assert.equal(e.part, 'SHEX');
      assert.equal(e.instruction, 8);
      assert.match(
        e.message,
        /^part SHEX, instruction 8, word 39: opcode not handled: .*\(abort, instruction word 0x10000cf\)$/,
      );
      return true;
    },
  );
});

test('every committed SM4/5 fixture lifts (and validates) or is refused by name', () => {
  let lifted = 0;
  let refused = 0;
  for (const f of walk(FIXTURES).filter((p) => p.endsWith('shader.dxbc') || p.endsWith('.dxbc'))) {
    const bytes = readBytes(f);
    if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'DXBC') continue;
    try {
      const p = lift(bytes);
      assert.deepEqual(validateModule(p.module), [], f);
      assert.match(emitWgsl(p), /^\/\/ lifted by iridia from (DXBC|DXIL) [a-z]s_\d_\d/, f);
      lifted++;
    } catch (e) {
      assert.ok(e instanceof IridiaError, `${f}: ${String(e)}`);
      if (e instanceof LiftRefusal) refused++;
    }
  }
  console.log(`fixtures: ${lifted} lifted, ${refused} refused by name`);
  // The committed fixtures as of this count: a fixture that stops lifting changes it. Refused: the
  // two ps_abort_printf builds with `abort`, the two fx_4_x effects and the three shader libraries (no
  // program part); the 4 with doubles lift since the soft-double helpers (src/lift/double.ts), the
  // class-interface builds since interfaces do (lift/ifce_unused, lift/ifce_multi and
  // lift/ifce_resources are there for test/lift/interfaces.test.ts). Lifted: 7 of them are the DXBC
  // twins in dxil-lift/ (test/lift/dxil-stages.test.ts), 5 the era listings' containers
  // (test/fixtures/era), 2 the fx_normal_mapping pair of skate/ (test/engines/skate), 10 the 9.29
  // /Zi builds of test/fixtures/era-sdbg (test/debug/sdbg-era.test.ts).
  assert.equal(lifted, 156, `lifted ${lifted}`);
  assert.equal(refused, 7, `refused ${refused}`);
});

test('a compute program with barriers: registers split into lanes for Tint, thread-group memory as a workgroup array', () => {
  const p = lift(fixture('cs_prefix_sum/main-cs_5_0-zi-od'));
  assert.equal(p.stage, 'compute');
  assert.deepEqual(p.module.entryPoints[0]?.workgroupSize, [256, 1, 1]);
  const w = emitWgsl(p);
  assert.match(w, /var<workgroup> g0: array<u32, 512>;/);
  assert.match(w, /var r0_x: u32;/);
  assert.match(w, /workgroupBarrier\(\);/);
  assert.doesNotMatch(w, /r0\.x/);
  // The IR itself keeps Direct3D's registers: the split is a WGSL-only pass.
  assert.match(printModule(p.module), /var r0: vec4<u32>/);
});

test('Direct3D guards: ld out of range reads zero (coordinates against the level size, level against the level count)', () => {
  // fx_histogram: Src.Load(int3(dt.xy, 0)) from a 16x16 thread group over any texture size
  const w = emitWgsl(lift(readBytes(join(FIXTURES, 'exec', 'fx_histogram-main-cs_5_0.dxbc'))));
  const load = w.split('\n').find((l) => l.includes('textureLoad('));
  assert.ok(load, 'the program has a textureLoad');
  assert.match(load, /select\(vec4<f32>\(\), textureLoad\(/);
  assert.match(load, /< textureNumLevels\(t0\)/);
  assert.match(load, /all\(\(bitcast<vec2<u32>>\(.*< textureDimensions\(t0, select\(0i, /);
});

test('Direct3D guards: log2, rsq, sqrt and exp2 give Direct3D results where WGSL leaves them indeterminate', () => {
  const wgsl = (f: string) => emitWgsl(lift(readBytes(join(FIXTURES, f))));
  const NAN = 'bitcast<f32>(iridia_rt_u32(2143289344u))';
  const NEG_INF = 'bitcast<f32>(iridia_rt_u32(4286578688u))';
  const INF = 'bitcast<f32>(iridia_rt_u32(2139095040u))';
  // log2: x >= 2^-126 -> log2(x); otherwise -inf above -2^-126 (zeros and denormals flush), else NaN
  const x = 'bitcast<f32>(r0_x)';
  assert.ok(
    wgsl('exec/fx_histogram-main-cs_5_0.dxbc').includes(
      `select(select(${NAN}, ${NEG_INF}, (${x} > -1.1754944e-38f)), log2(${x}), (${x} >= 1.1754944e-38f))`,
    ),
  );
  // sqrt: NaN at or below -2^-126; exp2: +inf from 128 up
  const sat = wgsl('lift/modifiers_saturate/main-ps_5_0/shader.dxbc');
  assert.ok(sat.includes(`select(sqrt(value_3), vec4<f32>(${NAN}), (value_3 <= vec4<f32>(-1.1754944e-38f)))`));
  const v0 = 'bitcast<vec4<f32>>(v[0])';
  assert.ok(sat.includes(`select(exp2(${v0}), vec4<f32>(${INF}), (${v0} >= vec4<f32>(128.0f)))`));
  // rsq: ±inf with the sign of a flushed zero, NaN below
  const w = 'bitcast<f32>(r0.w)';
  assert.ok(
    wgsl('debug/corpus/BasicHLSLVS.dxbc').includes(
      `select(select(${NAN}, bitcast<f32>(((bitcast<u32>(${w}) & 2147483648u) | 2139095040u)), (${w} > -1.1754944e-38f)), inverseSqrt(${w}), (${w} >= 1.1754944e-38f))`,
    ),
  );
});

test(
  'Direct3D guards: sincos and frc give NaN for ±inf; both sincos results are computed before either is written',
  { skip: skipUnlessShared('oracle/own/ps_float_intrinsics') },
  () => {
    // sincos r2.xyzw, r4.xyzw, v0.xyzw
    const w = emitWgsl(lift(readBytes(join(sharedPath('oracle/own')!, 'ps_float_intrinsics/main-ps_5_0/shader.dxbc'))));
    const v0 = 'bitcast<vec4<f32>>(v[0])';
    const guard = (fn: string) =>
      `select(vec4<f32>(bitcast<f32>(iridia_rt_u32(2143289344u))), ${fn}(${v0}), (abs(${v0}) < vec4<f32>(bitcast<f32>(iridia_rt_u32(2139095040u)))))`;
    const lines = w.split('\n').map((l) => l.trim());
    const sin = lines.findIndex((l) => l.includes(guard('sin')));
    const cos = lines.findIndex((l) => l.includes(guard('cos')));
    const firstWrite = lines.findIndex((l, i) => i > sin && l.startsWith('r2 = '));
    assert.ok(sin >= 0 && cos >= 0, 'both guarded');
    assert.ok(cos < firstWrite, 'cos is computed before sin is written');
    // frc r4.xyzw, v0.xyzw: NaN for ±inf too
    assert.ok(w.includes(guard('fract')), 'frc guarded');
  },
);

test('subroutines, lod, msad and eval_* lift from fxc builds: calls inlined, notes for what is computed', () => {
  // ps_call_return: a [call] switch whose case 0 returns early from inside an if of its subroutine.
  const calls = lift(fixture('ps_call_return/main-ps_5_0'));
  const ir = printModule(calls.module);
  assert.doesNotMatch(ir, /\bcall\b/, 'no call statement is left: each call site is inlined');
  assert.equal(calls.module.functions.length, 1);
  // the subroutine with the early ret is wrapped in a loop the ret breaks out of
  assert.match(emitWgsl(calls), /case 0u: \{\n\s+loop \{/);
  assert.deepEqual(calls.notes, []);
  // lod: computed, and said so
  const lod = lift(fixture('ps_lod/main-ps_4_1'));
  assert.ok(lod.notes.some((n) => n.startsWith('lod is computed')));
  assert.match(emitWgsl(lod), /textureNumLevels\(t0\)/);
  const cube = lift(fixture('tex_cube_ops/main41-ps_4_1'));
  assert.ok(cube.notes.some((n) => n.startsWith('lod is computed')));
  // msad: exact, no note
  const msad = lift(fixture('ps_msad/main-ps_5_0'));
  assert.deepEqual(msad.notes, []);
  // eval_*: the single-sample assumption and the derivative step are notes
  const ev = lift(fixture('ps_eval/main-ps_5_0'));
  assert.equal(ev.notes.length, 2);
  assert.match(emitWgsl(ev), /dpdxFine/);
  for (const p of [calls, lod, cube, msad, ev]) assert.deepEqual(validateModule(p.module), []);
});
