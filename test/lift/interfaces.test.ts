// SM5.0 class interfaces (src/lift/interfaces.ts): every function body lifted, each fcall a switch on
// the function table the caller binds to the slot through the `iface` uniform, as Direct3D's
// ClassLinkage binds class instances. Real programs (our own HLSL, test/fixtures/lift):
// - ifce_unused/csmain-cs_5_0: result[id] = filter.Apply(float4(id, 0, 0, 1)) + noise.Sample(float2(id,
//   1)) with filter one of Gain (c * k), Invert (1 - c), Offset (c + bias), noise Flat (0.5); the
//   instances are the IFCE part's (in $Globals, cb0).
// - ifce_multi/csmain-cs_5_0: Out[id] = float4(fog.Apply(brdf.Diffuse(...), id), 1) with instances
//   the application makes (CreateClassInstance): their data is in a buffer the program does not
//   declare, read from `cbi`.
// - ifce_resources/main-ps_5_0: classes with texture and sampler members (t[r1.x + n], s[r1.y]), each
//   such sample lifted once per declared texture and sampler in a switch on the instance's index.
// Each binding runs on the executor and, when WebGPU is here, on Dawn; both must give the words
// worked out here from the HLSL (Math.fround for each f32 operation, in the program's order).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { closeWebgpu, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { classLinkageWords } from '../../src/lift/interfaces.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runCompute, runPixel } from '../../src/exec/index.js';
import type { Program } from '../../src/ir/program.js';

after(() => closeWebgpu());

const program = (): Program => lift(readBytes(join(FIXTURES, 'lift/ifce_unused/csmain-cs_5_0/shader.dxbc')));

const f32 = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const fr = Math.fround;

const key = (p: Program, cls: string, reg: number): [number, number] => {
  const r = p.interface.resources.find((x) => x.registerClass === cls && x.register === reg);
  assert.ok(r, `the program has ${cls}${reg}`);
  return [r.group, r.binding];
};

// $Globals (cb0): gainA.k, gainB.k, off.bias, hash.seed, one row each (IFCE: bufferRegister 0..3)
const K_A = [1.5, -2, 3.25, 0.75];
const K_B = [-0.5, 4, 8, 2.5];
const BIAS = 0.375;
function globals(): Uint32Array {
  const w = new Uint32Array(16);
  K_A.forEach((x, i) => (w[i] = f32(x)));
  K_B.forEach((x, i) => (w[4 + i] = f32(x)));
  w[8] = f32(BIAS);
  w[12] = 7;
  return w;
}

/** result[id] for thread `id` with `filter` bound (noise: Flat). */
function reference(filter: string, id: number): number[] {
  const x = fr(id);
  let c: number[];
  if (filter === 'gainA' || filter === 'gainB') {
    const k = filter === 'gainA' ? K_A : K_B;
    // fxc folds c.y * k.y and c.z * k.z (c.y = c.z = 0) to 0
    c = [fr(x * k[0]!), 0, 0, fr(1 * k[3]!)];
  } else if (filter === 'inv') c = [fr(1 - x), 1, 1, 0];
  else c = [fr(x + BIAS), fr(0 + BIAS), fr(0 + BIAS), fr(1 + BIAS)];
  return c.map((v) => f32(fr(0.5 + v)));
}

const FILTERS = ['gainA', 'gainB', 'inv', 'off'] as const;

/** The iface rows for `filter` in slot 0 and Flat in slot 1. */
function iface(p: Program, filter: string): Uint32Array {
  const linkage = p.interface.classLinkage;
  assert.ok(linkage, 'the program describes its class linkage');
  // Invert and Flat have no data: no instance in the IFCE part, bound by class type
  return classLinkageWords(linkage, [
    filter === 'inv' ? { classType: 'Invert' } : { instance: filter },
    { classType: 'Flat' },
  ]);
}

function want(filter: string): Uint32Array {
  const out = new Uint32Array(16 * 4);
  for (let id = 0; id < 16; id++) out.set(reference(filter, id), id * 4);
  return out;
}

test('the interface is described: two slots, the tables of each, the IFCE instances', () => {
  const p = program();
  const l = p.interface.classLinkage;
  assert.ok(l);
  assert.equal(l.slots, 2);
  assert.deepEqual(
    l.interfaces.map((d) => [d.fp, d.arraySize, d.callSites, d.tables]),
    [
      [0, 1, 1, [0, 1, 2]],
      [1, 1, 1, [3, 4]],
    ],
  );
  assert.deepEqual(
    l.ifce?.instances.map((x) => x.name),
    ['gainA', 'gainB', 'off', 'hash'],
  );
  assert.deepEqual(key(p, 'this', 0), [l.group, l.binding]);
  // gainB: table 2 (Gain), this = (cb0, row 1, -, -); Flat in slot 1: table 3
  const w = iface(p, 'gainB');
  assert.deepEqual(
    [...w],
    [0, 1, 0, 0, 0, 0, 0, 0, 2, 0xffffffff, 0xffffffff, 0xffffffff, 3, 0xffffffff, 0xffffffff, 0xffffffff],
  );
  assert.match(emitWgsl(p), /switch iface\[/);
});

test('the executor dispatches on the bound class: each filter gives its reference', () => {
  const p = program();
  for (const filter of FILTERS) {
    const out = new Uint32Array(16 * 4);
    runCompute(p, {
      workgroups: [1, 1, 1],
      buffers: {
        [key(p, 'b', 0).join(':')]: globals(),
        [key(p, 'this', 0).join(':')]: iface(p, filter),
        [key(p, 'this', 1).join(':')]: new Uint32Array(4096 * 4),
        [key(p, 'u', 0).join(':')]: out,
      },
    });
    assert.deepEqual([...out], [...want(filter)], filter);
  }
});

test('Dawn dispatches the same way', { skip: webgpuSkip() }, async () => {
  const p = program();
  const code = emitWgsl(p);
  for (const filter of FILTERS) {
    const [cg, cb] = key(p, 'b', 0);
    const [ig, ib] = key(p, 'this', 0);
    const [dg, db] = key(p, 'this', 1);
    const [ug, ub] = key(p, 'u', 0);
    const r = await gpuCompute({
      code,
      workgroups: [1, 1, 1],
      bindings: [
        { group: cg, binding: cb, type: 'uniform', words: globals() },
        { group: ig, binding: ib, type: 'uniform', words: iface(p, filter) },
        { group: dg, binding: db, type: 'uniform', words: new Uint32Array(4096 * 4) },
        { group: ug, binding: ub, type: 'storage', words: new Uint32Array(16 * 4) },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join(' | ')}`);
    assert.deepEqual([...(r.outputs[`${ug}:${ub}`] ?? [])], [...want(filter)], filter);
  }
});

// ---- ifce_multi: instances made by the application, data in cbi ----

const multi = (): Program => lift(readBytes(join(FIXTURES, 'lift/ifce_multi/csmain-cs_5_0/shader.dxbc')));
const ALBEDO = [0.25, 0.5, 2];
const FOG = { color: [4, -8, 1.5], start: 0, end: 16 };

/** cbi rows (register 5, which the program does not declare): Lambert's albedo at row 0, LinearFog's
 * color/start at row 1 and end at row 2. */
function instanceData(): Uint32Array {
  const w = new Uint32Array(4096 * 4);
  ALBEDO.forEach((x, i) => (w[i] = f32(x)));
  FOG.color.forEach((x, i) => (w[4 + i] = f32(x)));
  w[7] = f32(FOG.start);
  w[8] = f32(FOG.end);
  return w;
}

function multiWant(fog: boolean): Uint32Array {
  const out = new Uint32Array(8 * 4);
  for (let id = 0; id < 8; id++) {
    // Diffuse(n = (0, 0, 1), l = (0, id, 1)) = albedo * saturate(1): fxc folds it to albedo
    let c = [...ALBEDO];
    if (fog) {
      const t = Math.min(1, Math.max(0, fr(fr(id - FOG.start) / fr(FOG.end - FOG.start))));
      // lerp(c, color, t) as fxc writes it: mad(t, color - c, c) (every product here is exact)
      c = c.map((x, i) => fr(fr(t * fr(FOG.color[i]! - x)) + x));
    }
    out.set([...c.map(f32), f32(1)], id * 4);
  }
  return out;
}

function multiBindings(p: Program, fog: boolean) {
  const linkage = p.interface.classLinkage;
  assert.ok(linkage?.instanceBuffer, 'the program reads instance data from cbi');
  const ifaceWords = classLinkageWords(linkage, [
    { classType: 'Lambert', cb: 5, row: 0 },
    fog ? { classType: 'LinearFog', cb: 5, row: 1 } : { classType: 'NoFog' },
  ]);
  return { ifaceWords, data: instanceData() };
}

test('instance data in a buffer the program does not declare: the executor reads it from cbi', () => {
  const p = multi();
  for (const fog of [false, true]) {
    const { ifaceWords, data } = multiBindings(p, fog);
    const out = new Uint32Array(8 * 4);
    runCompute(p, {
      workgroups: [1, 1, 1],
      buffers: {
        [key(p, 'this', 0).join(':')]: ifaceWords,
        [key(p, 'this', 1).join(':')]: data,
        [key(p, 'u', 0).join(':')]: out,
      },
    });
    assert.deepEqual([...out], [...multiWant(fog)], fog ? 'LinearFog' : 'NoFog');
  }
});

test('instance data in cbi on Dawn', { skip: webgpuSkip() }, async () => {
  const p = multi();
  const code = emitWgsl(p);
  for (const fog of [false, true]) {
    const { ifaceWords, data } = multiBindings(p, fog);
    const [ig, ib] = key(p, 'this', 0);
    const [dg, db] = key(p, 'this', 1);
    const [ug, ub] = key(p, 'u', 0);
    const r = await gpuCompute({
      code,
      workgroups: [1, 1, 1],
      bindings: [
        { group: ig, binding: ib, type: 'uniform', words: ifaceWords },
        { group: dg, binding: db, type: 'uniform', words: data },
        { group: ug, binding: ub, type: 'storage', words: new Uint32Array(8 * 4) },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join(' | ')}`);
    assert.deepEqual([...(r.outputs[`${ug}:${ub}`] ?? [])], [...multiWant(fog)], fog ? 'LinearFog' : 'NoFog');
  }
});

// ---- ifce_resources: class texture and sampler members ----

test("class texture and sampler members: the executor samples the bound instance's textures", () => {
  const p = lift(readBytes(join(FIXTURES, 'lift/ifce_resources/main-ps_5_0/shader.dxbc')));
  const linkage = p.interface.classLinkage;
  assert.ok(linkage);
  const k = (cls: string, reg: number) => key(p, cls, reg).join(':');
  // each texture returns its own texel (t0: 1,2,4,8; t1: 3..; t2: 0.5..), whatever the sampler
  const texel: Record<string, number[]> = {
    [k('t', 0)]: [1, 2, 4, 8],
    [k('t', 1)]: [3, 5, 7, 9],
    [k('t', 2)]: [0.5, 0.25, 2, 4],
  };
  const uv = new Float32Array(2 * 2 * 4);
  for (let i = 0; i < 4; i++) uv.set([0.125 * (i + 1), 0.75, 0, 0], i * 4);
  const run = (bound: Parameters<typeof classLinkageWords>[1]) => {
    const seen = new Set<string>();
    const res = runPixel(p, {
      width: 2,
      height: 2,
      inputs: { 0: new Uint32Array(uv.buffer) },
      buffers: { [k('this', 0)]: classLinkageWords(linkage, bound) },
      sample: (req) => {
        seen.add(`${req.texture}|${req.sampler}`);
        return (texel[req.texture] ?? [0, 0, 0, 0]).map(f32);
      },
    });
    return { seen: [...seen].sort(), out: [...new Float32Array(res.targets[0]!.buffer).subarray(0, 4)] };
  };
  // TexSampler g_ts: t0 with s0
  const ts = run([{ instance: 'g_ts' }]);
  assert.deepEqual(ts.seen, [`${k('t', 0)}|${k('s', 0)}`]);
  assert.deepEqual(ts.out, texel[k('t', 0)]);
  // TwoTex g_tt: a = t1, b = t2, both with s1; a * b
  const tt = run([{ instance: 'g_tt' }]);
  assert.deepEqual(tt.seen, [`${k('t', 1)}|${k('s', 1)}`, `${k('t', 2)}|${k('s', 1)}`]);
  assert.deepEqual(
    tt.out,
    texel[k('t', 1)]!.map((a, i) => fr(a * texel[k('t', 2)]![i]!)),
  );
  // Constant (no data): float4(uv, 0, 1), nothing sampled
  const c = run([{ classType: 'Constant' }]);
  assert.deepEqual(c.seen, []);
  assert.deepEqual(c.out, [0.125, 0.75, 0, 1]);
});
