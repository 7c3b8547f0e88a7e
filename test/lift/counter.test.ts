// UAV hidden counters (lift/counter.ts, ir/program.ts HiddenCounter): imm_atomic_alloc gives the
// counter before its increment and imm_atomic_consume the counter after its decrement (SM4/5), as
// BufferUpdateCounter +1 / -1 does (DXIL). Proven by running real programs on the executor (and on
// Dawn where WebGPU is present) from counters the test sets, against what Direct3D's definition
// gives: the set of values handed out (which invocation gets which is the hardware's order) and the
// counter left behind. Fixtures: test/fixtures/lift/counters (dxc's own test programs built by fxc,
// test/fixtures/README.md); the DXBC/DXIL twins of ../shared/corpus/pairs when it is present.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { closeWebgpu, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runCompute, runPixel } from '../../src/exec/index.js';
import { seedBindings, SEED_COUNTER } from '../../src/exec/seed.js';
import { COUNTER_BINDING_OFFSET, type Program } from '../../src/ir/program.js';
import type { GpuBinding } from '../../src/gpu/types.js';

after(closeWebgpu);

const fixture = (p: string) => readBytes(join(FIXTURES, 'lift/counters', p, 'shader.dxbc'));
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const f32 = (w: number): number => ((U32[0] = w), F32[0]!);
const range = (from: number, n: number, step = 1): number[] =>
  Array.from({ length: n }, (_, i) => (from + step * i) >>> 0);
const sorted = (xs: Iterable<number>): number[] => [...xs].sort((a, b) => a - b);

function counterOf(p: Program, name: string) {
  const r = p.interface.resources.find((x) => x.name === name);
  assert.ok(r?.counter, `${name} has a counter`);
  return r.counter;
}

test('a counter is an atomic<u32> at its UAV binding + 512, in the interface and the WGSL', () => {
  const p = lift(fixture('CodeGenSPIRV.method.rw-structured-buffer.counter/main-ps_5_0'));
  assert.deepEqual(validateModule(p.module), []);
  for (const [name, binding] of [
    ['u1', 1],
    ['u2', 2],
  ] as const) {
    const c = counterOf(p, name);
    assert.deepEqual(c, {
      name: `${name}_counter`,
      global: c.global,
      group: 3,
      binding: COUNTER_BINDING_OFFSET + binding,
    });
  }
  assert.equal(
    p.interface.resources.find((x) => x.name === 'u3')?.counter,
    undefined,
    'u3 is never counted: no counter',
  );
  const w = emitWgsl(p);
  assert.match(w, /@group\(3\) @binding\(513\) var<storage, read_write> u1_counter: atomic<u32>;/);
  assert.match(w, /atomicAdd\(&u1_counter, 1u\)/);
  assert.match(w, /atomicAdd\(&u2_counter, 4294967295u\)/);
  assert.ok(p.notes.some((n) => n.includes('u1_counter') && n.includes('caller sets')));
});

test('append/consume in a pixel program: alloc hands out c, c+1, ...; consume c-1, c-2, ...', () => {
  // o0 = (float(alloc of u1), float(consume of u2), 0, 0) + u3[0]
  const p = lift(fixture('CodeGenSPIRV.method.rw-structured-buffer.counter/main-ps_5_0'));
  const c1 = Uint32Array.of(100);
  const c2 = Uint32Array.of(50);
  const u3 = new Uint32Array(64);
  const r = runPixel(p, {
    width: 4,
    height: 2,
    buffers: { '3:1': new Uint32Array(64), '3:2': new Uint32Array(64), '3:3': u3, '3:513': c1, '3:514': c2 },
  });
  const t = r.targets[0]!;
  const red = range(0, 8).map((i) => f32(t[i * 4]!));
  const green = range(0, 8).map((i) => f32(t[i * 4 + 1]!));
  assert.deepEqual(sorted(red), range(100, 8));
  assert.deepEqual(sorted(green), range(42, 8));
  assert.equal(c1[0], 108);
  assert.equal(c2[0], 42);
});

test('a counter wraps: a consume of an empty buffer gives 0xffffffff', () => {
  const p = lift(fixture('CodeGenSPIRV.method.rw-structured-buffer.counter/main-ps_5_0'));
  const c2 = Uint32Array.of(0);
  const r = runPixel(p, {
    width: 1,
    height: 1,
    buffers: {
      '3:1': new Uint32Array(4),
      '3:2': new Uint32Array(4),
      '3:3': new Uint32Array(4),
      '3:513': Uint32Array.of(0),
      '3:514': c2,
    },
  });
  assert.equal(f32(r.targets[0]![1]!), Math.fround(0xffffffff));
  assert.equal(c2[0], 0xffffffff);
});

test('64 threads of one group take 64 increments (executor and Dawn)', async (t) => {
  const p = lift(fixture('CodeGenSPIRV.type.rwstructured-buffer.array.counter.struct/main-cs_5_0'));
  const c = counterOf(p, 'u0');
  const key = `${c.group}:${c.binding}`;
  const counter = Uint32Array.of(7);
  runCompute(p, { workgroups: [2, 1, 1], buffers: { '3:0': new Uint32Array(4), [key]: counter } });
  assert.equal(counter[0], 7 + 128);
  const skip = webgpuSkip();
  if (skip) return t.skip(skip);
  const bindings: GpuBinding[] = [
    { group: 3, binding: 0, type: 'storage', words: new Uint32Array(4) },
    { group: c.group, binding: c.binding, type: 'storage', words: Uint32Array.of(7) },
  ];
  const g = await gpuCompute({ code: emitWgsl(p), workgroups: [2, 1, 1], bindings });
  assert.ok(g.ok, g.ok ? '' : g.messages.join('\n'));
  if (g.ok) assert.deepEqual(Array.from(g.outputs[key]!), [7 + 128]);
});

test('seeded runs start every counter at SEED_COUNTER and read it back as "<view>.counter"', () => {
  const p = lift(fixture('CodeGenSPIRV.method.rw-structured-buffer.counter/main-ps_5_0'));
  const b = seedBindings(p, 1);
  const names = b.resources.filter((r) => r.name.endsWith('.counter')).map((r) => [r.name, r.key, r.words?.[0]]);
  assert.deepEqual(names, [
    ['u1.counter', '3:513', SEED_COUNTER],
    ['u2.counter', '3:514', SEED_COUNTER],
  ]);
});

// descriptors__uav_counters_null_behavior: four counted UAVs U0[0:3]; thread group g takes
// U0[g >> 2]'s counter and stores the value + 64 at element g & 3 of that UAV.
const PAIR = 'corpus/pairs/vkd3d-proton/descriptors__uav_counters_null_behavior';

for (const ext of ['dxbc', 'dxil'] as const) {
  test(`uav_counters_null_behavior.${ext}: a range of counters, one per UAV (executor and Dawn)`, async (t) => {
    const skip = skipUnlessShared(`${PAIR}.${ext}`);
    if (skip) return t.skip(skip);
    const p = lift(readBytes(sharedPath(`${PAIR}.${ext}`)!));
    assert.deepEqual(validateModule(p.module), []);
    const c = counterOf(p, 'u0');
    const start = [10, 20, 30, 40];
    const views = range(0, 4).map(() => new Uint32Array(4));
    const counters = start.map((s) => Uint32Array.of(s));
    const buffers: Record<string, Uint32Array> = {};
    views.forEach((v, k) => (buffers[`3:0:${k}`] = v));
    counters.forEach((w, k) => (buffers[`${c.group}:${c.binding}:${k}`] = w));
    runCompute(p, { workgroups: [16, 1, 1], buffers });
    const check = (words: (k: number) => Uint32Array, count: (k: number) => number, where: string) => {
      for (let k = 0; k < 4; k++) {
        assert.deepEqual(sorted(words(k)), range(start[k]! + 64, 4), `${where}: U0[${k}]`);
        assert.equal(count(k), start[k]! + 4, `${where}: U0[${k}]'s counter`);
      }
    };
    check(
      (k) => views[k]!,
      (k) => counters[k]![0]!,
      'executor',
    );
    const gskip = webgpuSkip();
    if (gskip) return t.skip(gskip);
    const bindings: GpuBinding[] = [
      ...range(0, 4).map((k): GpuBinding => ({ group: 3, binding: k, type: 'storage', words: new Uint32Array(4) })),
      ...start.map((s, k): GpuBinding => ({
        group: c.group,
        binding: c.binding + k,
        type: 'storage',
        words: Uint32Array.of(s),
      })),
    ];
    const g = await gpuCompute({ code: emitWgsl(p), workgroups: [16, 1, 1], bindings });
    assert.ok(g.ok, g.ok ? '' : g.messages.join('\n'));
    if (!g.ok) return;
    check(
      (k) => g.outputs[`3:${k}`]!,
      (k) => g.outputs[`${c.group}:${c.binding + k}`]![0]!,
      'Dawn',
    );
  });
}
