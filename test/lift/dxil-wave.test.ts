// Wave (subgroup) and quad operations: the IR's `subgroup` statement on the executor (ir.ts
// "Subgroups": 32-lane waves in batch order, helper pixels outside wave operations, quads of 4
// lanes) and the DXIL lifter's wave dx.ops (src/lift/dxil/ops-wave.ts), every expected word worked
// out by hand below. Two hand-built modules need nothing outside the repository: a compute group of
// 40 lanes (a full wave and one of 8 lanes) and a 3x2 pixel target (two quads, two helper pixels
// and one discarded). Four vkd3d-proton DXIL programs of ../shared/corpus/dxil (skipped without it)
// run on the executor: a wave-wide exclusive prefix sum and lane count, a loop that splits the wave
// by value (WaveReadLaneFirst, WaveActiveSum in divergent flow), QuadAny/QuadAll, WaveMatch and the
// multi-prefix operations; the refusal by name of a wave operation in a vertex program is checked. When
// WebGPU is here (Dawn: SwiftShader's adapter offers the 'subgroups' feature, which
// src/gpu/session.ts requests), Tint compiles every module's WGSL with its compute pipelines, and
// Dawn runs the 40-lane module, QuadAny/QuadAll, WaveMatch and the multi-prefix program: the executor, given the device's
// subgroup size (SwiftShader's is 4), prints the same words except where ir.ts leaves the result
// unspecified.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ModuleBuilder, FunctionBuilder } from '../../src/ir/builder.js';
import type { ExprId, Module, Stmt, SubgroupFn, SubgroupReduce } from '../../src/ir/ir.js';
import { validateModule } from '../../src/ir/validate.js';
import { printModule } from '../../src/ir/print.js';
import type { Program } from '../../src/ir/program.js';
import { runCompute, runPixel } from '../../src/exec/run.js';
import { lift } from '../../src/lift/lift.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { emitModuleWgsl } from '../../src/wgsl/emit.js';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';
import { compileWgsl, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';

const F = new DataView(new ArrayBuffer(4));
const f32bits = (x: number): number => (F.setFloat32(0, x, true), F.getUint32(0, true));

/** Every WGSL module these tests make, for Tint at the end. */
const wgsl: { name: string; code: string }[] = [];

interface Sub {
  fn: SubgroupFn;
  argument?: ExprId;
  index?: ExprId;
  reduce?: SubgroupReduce;
}

function subgroup(f: FunctionBuilder, s: Sub): ExprId {
  const result = f.newLet(`r_${s.fn}`);
  f.stmt({ op: 'subgroup', ...s, result } as Stmt);
  return f.expr({ op: 'let', let: result });
}

// ---- a compute group of 40 lanes: waves 0..31 and 32..39 ---------------------------------------

const SLOTS = 16;

function computeModule(): Module {
  const m = new ModuleBuilder();
  const u32 = m.scalar('u32');
  const out = m.addGlobal({
    name: 'out',
    space: 'storage',
    access: 'read_write',
    type: m.array(u32, null),
    binding: { group: 0, binding: 0 },
  });
  const f = new FunctionBuilder(m, 'main');
  const arg = (name: string, builtin: 'local_invocation_index' | 'subgroup_invocation_id' | 'subgroup_size') =>
    f.expr({ op: 'arg', index: f.arg({ name, type: u32, binding: { kind: 'builtin', builtin } }) });
  const lane = f.bind('lane', arg('lane', 'local_invocation_index'));
  const id = arg('sgid', 'subgroup_invocation_id');
  const size = arg('sgsize', 'subgroup_size');
  const bin = (fn: 'add' | 'mul' | 'rem' | 'eq' | 'ne' | 'lt' | 'and' | 'shl' | 'sub' | 'xor', l: ExprId, r: ExprId) =>
    f.expr({ op: 'binary', fn, left: l, right: r });
  const u = (v: number) => f.u32(v);
  const b2u = (b: ExprId) => f.expr({ op: 'select', cond: b, accept: u(1), reject: u(0) });
  const put = (slot: number, v: ExprId) =>
    f.stmt({
      op: 'store',
      pointer: f.expr({
        op: 'access',
        base: f.expr({ op: 'global', global: out }),
        index: bin('add', bin('mul', lane, u(SLOTS)), u(slot)),
      }),
      value: v,
    });
  put(0, b2u(subgroup(f, { fn: 'elect' })));
  put(1, id);
  put(2, size);
  put(3, subgroup(f, { fn: 'reduce', reduce: 'add', argument: lane }));
  put(4, subgroup(f, { fn: 'exclusive_scan', reduce: 'add', argument: lane }));
  put(5, subgroup(f, { fn: 'inclusive_scan', reduce: 'mul', argument: bin('add', bin('and', lane, u(3)), u(1)) }));
  const odd = f.bind('odd', bin('eq', bin('and', lane, u(1)), u(1)));
  put(6, f.expr({ op: 'swizzle', vector: subgroup(f, { fn: 'ballot', argument: odd }), pattern: [0] }));
  put(7, subgroup(f, { fn: 'shuffle', argument: bin('mul', lane, u(10)), index: bin('add', id, u(1)) }));
  put(8, subgroup(f, { fn: 'quad_swap_diagonal', argument: lane }));
  put(9, subgroup(f, { fn: 'quad_broadcast', argument: lane, index: u(2) }));
  // divergent: lanes with lane % 3 == 1 only
  f.open();
  put(10, subgroup(f, { fn: 'broadcast_first', argument: bin('add', lane, u(100)) }));
  const signed = f.expr({ op: 'bitcast', to: 'i32', value: bin('sub', lane, u(20)) });
  put(11, f.expr({ op: 'bitcast', to: 'u32', value: subgroup(f, { fn: 'reduce', reduce: 'min', argument: signed }) }));
  const accept = f.close();
  f.stmt({ op: 'if', cond: bin('eq', bin('rem', lane, u(3)), u(1)), accept, reject: [] });
  put(12, b2u(subgroup(f, { fn: 'any', argument: bin('eq', lane, u(5)) })));
  put(13, b2u(subgroup(f, { fn: 'all', argument: bin('ne', lane, u(35)) })));
  const half = f.expr({
    op: 'binary',
    fn: 'mul',
    left: f.expr({ op: 'convert', to: 'f32', value: lane }),
    right: f.f32(0.5),
  });
  put(14, f.expr({ op: 'bitcast', to: 'u32', value: subgroup(f, { fn: 'reduce', reduce: 'add', argument: half }) }));
  put(15, subgroup(f, { fn: 'reduce', reduce: 'or', argument: bin('shl', u(1), bin('rem', lane, u(31))) }));
  f.stmt({ op: 'return' });
  const fid = m.addFunction(f.finish());
  m.entryPoints.push({ name: 'main', stage: 'compute', function: fid, workgroupSize: [40, 1, 1] });
  return m.finish();
}

test('executor: wave operations over a 40-lane group (waves of 32 and 8 lanes), worked by hand', () => {
  const m = computeModule();
  assert.deepEqual(validateModule(m), []);
  assert.match(printModule(m), /let %r_reduce\.\d+ = subgroup_reduce_add\(%lane/);
  const out = new Uint32Array(40 * SLOTS);
  runCompute(m, { workgroups: [1, 1, 1], buffers: { '0:0': out } });
  const at = (l: number, s: number) => out[l * SLOTS + s];
  const sum = (a: number, b: number) => (((b - a) * (a + b - 1)) / 2) | 0; // a + ... + (b - 1)
  for (let l = 0; l < 40; l++) {
    const w = l >> 5;
    const base = w * 32;
    const j = l - base;
    assert.equal(at(l, 0), j === 0 ? 1 : 0, `elect ${l}`);
    assert.equal(at(l, 1), j, `lane id ${l}`);
    assert.equal(at(l, 2), 32, `size ${l}`);
    assert.equal(at(l, 3), w === 0 ? 496 : 284, `sum ${l}`); // 0+..+31; 32+..+39
    assert.equal(at(l, 4), sum(base, l), `exclusive sum ${l}`);
    assert.equal(at(l, 6), w === 0 ? 0xaaaaaaaa : 0xaa, `ballot of odd lanes ${l}`);
    // lane id + 1: lane 31 and lane 39 read a lane past their wave (unspecified, the executor's zero)
    assert.equal(at(l, 7), l === 31 || l === 39 ? 0 : (l + 1) * 10, `shuffle ${l}`);
    assert.equal(at(l, 8), l ^ 3, `quad diagonal ${l}`);
    assert.equal(at(l, 9), (l & ~3) | 2, `quad broadcast 2 ${l}`);
    const inBranch = l % 3 === 1;
    // first active lane: 1 in wave 0 (lanes 1, 4, ... 31), 34 in wave 1 (34, 37)
    assert.equal(at(l, 10), inBranch ? (w === 0 ? 101 : 134) : 0, `broadcast first ${l}`);
    assert.equal(at(l, 11), inBranch ? (w === 0 ? (1 - 20) >>> 0 : 14) : 0, `signed min ${l}`);
    assert.equal(at(l, 12), w === 0 ? 1 : 0, `any(lane == 5) ${l}`);
    assert.equal(at(l, 13), w === 0 ? 1 : 0, `all(lane != 35) ${l}`);
    assert.equal(at(l, 14), f32bits(w === 0 ? 248 : 142), `f32 sum ${l}`);
    // 1 << (lane % 31): wave 0 sets bits 0..30 (lane 31 bit 0 again), wave 1 bits 1..8
    assert.equal(at(l, 15), w === 0 ? 0x7fffffff : 0x1fe, `or ${l}`);
  }
  // inclusive product of (lane & 3) + 1: 1, 2, 6, 24, 24, 48, 144, 576 ... from each wave's start
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map((l) => at(l, 5)),
    [1, 2, 6, 24, 24, 48, 144, 576],
  );
  assert.deepEqual(
    [32, 33, 34, 35, 36].map((l) => at(l, 5)),
    [1, 2, 6, 24, 24],
  );
  const code = emitModuleWgsl(m);
  assert.match(code, /^enable subgroups;\ndiagnostic\(off, subgroup_uniformity\);/m);
  for (const fn of [
    'subgroupElect()',
    'subgroupAdd(',
    'subgroupExclusiveAdd(',
    'subgroupInclusiveMul(',
    'subgroupBallot(',
    'subgroupShuffle(',
    'quadSwapDiagonal(',
    'quadBroadcast(',
    'subgroupBroadcastFirst(',
    'subgroupMin(',
    'subgroupAny(',
    'subgroupAll(',
    'subgroupOr(',
    '@builtin(subgroup_invocation_id)',
    '@builtin(subgroup_size)',
  ])
    assert.ok(code.includes(fn), fn);
  wgsl.push({ name: 'compute 40 lanes', code });
});

// ---- a 3x2 pixel target: quads (0,0)-(1,1) and (2,0)-(3,1), x = 3 outside --------------------

function pixelModule(): Module {
  const m = new ModuleBuilder();
  const u32 = m.scalar('u32');
  const v4 = m.vec('u32', 4);
  const f = new FunctionBuilder(m, 'main');
  const id = f.expr({
    op: 'arg',
    index: f.arg({ name: 'sgid', type: u32, binding: { kind: 'builtin', builtin: 'subgroup_invocation_id' } }),
  });
  const bin = (fn: 'mul' | 'eq', l: ExprId, r: ExprId) => f.expr({ op: 'binary', fn, left: l, right: r });
  f.open();
  f.stmt({ op: 'kill' });
  const kill = f.close();
  f.stmt({ op: 'if', cond: bin('eq', id, f.u32(2)), accept: kill, reject: [] });
  const ballot = subgroup(f, { fn: 'ballot', argument: f.bool(true) });
  const x = f.expr({ op: 'swizzle', vector: ballot, pattern: [0] });
  const y = subgroup(f, { fn: 'reduce', reduce: 'add', argument: id });
  const z = subgroup(f, { fn: 'quad_broadcast', argument: bin('mul', id, f.u32(10)), index: f.u32(2) });
  const w = subgroup(f, { fn: 'quad_swap_x', argument: id });
  f.stmt({ op: 'return', value: f.expr({ op: 'compose', type: v4, parts: [x, y, z, w] }) });
  const fid = m.addFunction(f.finish({ type: v4, binding: { kind: 'location', location: 0 } }));
  m.entryPoints.push({ name: 'main', stage: 'fragment', function: fid });
  return m.finish();
}

test('executor: helper and discarded pixels take no part in wave operations, quad reads still see them', () => {
  const m = pixelModule();
  assert.deepEqual(validateModule(m), []);
  const r = runPixel(m, { width: 3, height: 2 });
  // Lanes: quad 0 = pixels (0,0) (1,0) (0,1) (1,1) = lanes 0..3, quad 1 = (2,0) (3,0) (2,1) (3,1) =
  // lanes 4..7; lanes 5 and 7 are outside the target (helpers), lane 2 (pixel (0,1)) discards.
  // Active: 0, 1, 3, 4, 6 -> ballot 0b1011011 = 0x5b, sum of ids 14.
  const px = (x: number, y: number) => [...r.targets[0]!.subarray((y * 3 + x) * 4, (y * 3 + x) * 4 + 4)];
  assert.deepEqual(px(0, 0), [0x5b, 14, 20, 1]); // quad lane 2 is the discarded lane 2: 2 * 10
  assert.deepEqual(px(1, 0), [0x5b, 14, 20, 0]);
  assert.deepEqual(px(1, 1), [0x5b, 14, 20, 2]);
  assert.deepEqual(px(2, 0), [0x5b, 14, 60, 5]); // its horizontal neighbour is helper lane 5
  assert.deepEqual(px(2, 1), [0x5b, 14, 60, 7]);
  assert.equal(r.written[1 * 3 + 0], 0, 'pixel (0,1) discarded');
  wgsl.push({ name: 'pixel 3x2', code: emitModuleWgsl(m) });
});

test('validator: subgroup operand rules', () => {
  const bad = (mutate: (f: FunctionBuilder, u32: number) => void): string[] => {
    const m = new ModuleBuilder();
    const u32 = m.scalar('u32');
    const f = new FunctionBuilder(m, 'main');
    f.arg({ name: 'i', type: u32, binding: { kind: 'builtin', builtin: 'local_invocation_index' } });
    mutate(f, u32);
    f.stmt({ op: 'return' });
    m.entryPoints.push({
      name: 'main',
      stage: 'compute',
      function: m.addFunction(f.finish()),
      workgroupSize: [4, 1, 1],
    });
    return validateModule(m.finish());
  };
  const i = (f: FunctionBuilder) => f.expr({ op: 'arg', index: 0 });
  assert.deepEqual(
    bad((f) => void subgroup(f, { fn: 'reduce', reduce: 'add', argument: i(f) })),
    [],
  );
  assert.match(bad((f) => void subgroup(f, { fn: 'ballot', argument: i(f) })).join(), /ballot of a non-bool/);
  assert.match(bad((f) => void subgroup(f, { fn: 'broadcast_first', argument: f.bool(true) })).join(), /of a bool/);
  assert.match(
    bad((f) => void subgroup(f, { fn: 'exclusive_scan', reduce: 'max', argument: i(f) })).join(),
    /max scan/,
  );
  assert.match(
    bad((f) => void subgroup(f, { fn: 'quad_broadcast', argument: i(f), index: i(f) })).join(),
    /literal 0..3/,
  );
  assert.match(bad((f) => void subgroup(f, { fn: 'reduce', argument: i(f) })).join(), /reduce fold/);
});

// ---- DXIL programs of the corpus -----------------------------------------------------------------

const CORPUS = 'corpus/dxil/vkd3d-proton';
const skip = needs(skipUnlessShared(CORPUS));

function liftCorpus(name: string): Program {
  const p = lift(readBytes(join(sharedPath(CORPUS)!, `${name}.dxil`)));
  assert.deepEqual(validateModule(p.module), [], name);
  assert.ok(
    p.notes.some((n) => n.includes("'subgroups' feature")),
    `${name}: the note on the subgroups feature`,
  );
  wgsl.push({ name, code: emitWgsl(p) });
  return p;
}

function key(p: Program, cls: string, reg: number): string {
  const r = p.interface.resources.find((x) => x.registerClass === cls && x.register === reg);
  assert.ok(r, `${cls}${reg}`);
  return `${r.group}:${r.binding}`;
}

test('DXIL cs_wave_size_wave32: WavePrefixSum and WaveGetLaneCount over 128 lanes', { skip }, () => {
  // u0[i] = WavePrefixSum(t0[i]), u0[128 + i] = WaveGetLaneCount(); t0[i] = i
  const p = liftCorpus('sm_advanced__cs_wave_size_wave32');
  const t0 = Uint32Array.from({ length: 128 }, (_, i) => i);
  const u0 = new Uint32Array(256);
  runCompute(p, { workgroups: [1, 1, 1], buffers: { [key(p, 't', 0)]: t0, [key(p, 'u', 0)]: u0 } });
  // lane j of wave w: (32w) + ... + (32w + j - 1) = 32wj + j(j - 1)/2
  const want = Array.from({ length: 128 }, (_, i) => {
    const w = i >> 5;
    const j = i & 31;
    return 32 * w * j + (j * (j - 1)) / 2;
  });
  assert.deepEqual([...u0.subarray(0, 128)], want);
  assert.deepEqual([...u0.subarray(128)], new Array<number>(128).fill(32));
  assert.equal(u0[40], 32 * 8 + 28, 'lane 8 of wave 1 worked out: 32+..+39');
});

test('DXIL nonconvergence: a loop splitting the wave by WaveReadLaneFirst, WaveActiveSum per value', { skip }, () => {
  // loop { if (v == WaveReadLaneFirst(v)) { s = WaveActiveSum(v); break; } } u0[i] = s
  const p = liftCorpus('tests__d3d12_sm_advanced__nonconvergence_dxil');
  // 16 lanes, v = i % 3: 0 in lanes 0,3,..,15 (6 lanes), 1 in 1,4,..,13 (5), 2 in 2,5,..,14 (5)
  const t0 = Uint32Array.from({ length: 20 }, (_, i) => i % 3);
  const u0 = new Uint32Array(16);
  runCompute(p, { workgroups: [1, 1, 1], buffers: { [key(p, 't', 0)]: t0, [key(p, 'u', 0)]: u0 } });
  assert.deepEqual(
    [...u0],
    Array.from({ length: 16 }, (_, i) => [0, 5, 10][i % 3]),
  );
});

test('DXIL cs_quad_vote: QuadAny and QuadAll, also inside a branch the whole quad takes', { skip }, () => {
  // c = (v & 2) != 0; u0[i] = (QuadAny(c), QuadAll(c), v & 1 ? QuadAny(c) : -1, v & 1 ? QuadAll(c) : -1)
  const p = liftCorpus('sm_advanced__cs_quad_vote');
  const run = (v: number[]) => {
    const u0 = new Uint32Array(16);
    runCompute(p, { workgroups: [1, 1, 1], buffers: { [key(p, 't', 0)]: Uint32Array.from(v), [key(p, 'u', 0)]: u0 } });
    return [...u0];
  };
  const each = (q: number[]) => [...q, ...q, ...q, ...q];
  assert.deepEqual(run([1, 3, 1, 1]), each([1, 0, 1, 0])); // c only in lane 1
  assert.deepEqual(run([3, 3, 3, 3]), each([1, 1, 1, 1]));
  assert.deepEqual(run([1, 1, 1, 1]), each([0, 0, 0, 0]));
  const none = 0xffffffff;
  assert.deepEqual(run([0, 2, 0, 2]), each([1, 0, none, none])); // no lane takes the branch
});

/** cs_wave_match: u0[i] = WaveMatch(t0[i]).x, lanes by WaveGetLaneIndex; 16 lanes. */
function waveMatch(p: Program, t0: Uint32Array, waveSize?: number): Uint32Array {
  const u0 = new Uint32Array(16);
  runCompute(p, {
    workgroups: [1, 1, 1],
    buffers: { [key(p, 't', 0)]: t0, [key(p, 'u', 0)]: u0 },
    ...(waveSize ? { waveSize } : {}),
  });
  return u0;
}

test('DXIL cs_wave_match: WaveMatch as a loop of first-value ballots', { skip }, () => {
  const p = liftCorpus('sm_advanced__cs_wave_match');
  // t0 = i % 3: value 0 in lanes 0,3,..,15 (bits 0x9249), 1 in 1,4,..,13 (0x2492), 2 in 2,5,..,14 (0x4924)
  const u0 = waveMatch(
    p,
    Uint32Array.from({ length: 16 }, (_, i) => i % 3),
  );
  assert.deepEqual(
    [...u0],
    Array.from({ length: 16 }, (_, i) => [0x9249, 0x2492, 0x4924][i % 3]),
  );
  // all equal: every lane; all different: itself
  assert.deepEqual([...waveMatch(p, new Uint32Array(16).fill(7))], new Array<number>(16).fill(0xffff));
  assert.deepEqual(
    [
      ...waveMatch(
        p,
        Uint32Array.from({ length: 16 }, (_, i) => i),
      ),
    ],
    Array.from({ length: 16 }, (_, i) => 1 << i),
  );
});

/** cs_wave_multi_prefix: value = lane + 1, mask = t0[lane]; u0[i], u0[16 + i] ... u0[80 + i] = the
 * multi-prefix Sum, Product, CountBits((t0 & 0xaaaa) != 0), And, Or, Xor; 16 lanes. */
function multiPrefix(p: Program, t0: Uint32Array, waveSize?: number): Uint32Array {
  const u0 = new Uint32Array(96);
  runCompute(p, {
    workgroups: [1, 1, 1],
    buffers: { [key(p, 't', 0)]: t0, [key(p, 'u', 0)]: u0 },
    ...(waveSize ? { waveSize } : {}),
  });
  return u0;
}

const PARITY = Uint32Array.from({ length: 16 }, (_, i) => (i % 2 ? 0xaaaa : 0x5555));

test('DXIL cs_wave_multi_prefix: partitioned prefix sum, product, bit count, and, or, xor', { skip }, () => {
  const p = liftCorpus('sm_advanced__cs_wave_multi_prefix');
  // two partitions, even lanes (mask 0x5555, values 1, 3, 5, ...) and odd lanes (0xaaaa: 2, 4, 6, ...)
  const u0 = multiPrefix(p, PARITY);
  const fact = (k: number, odd: boolean) => {
    let r = 1;
    for (let m = 0; m < k; m++) r *= odd ? 2 * m + 2 : 2 * m + 1;
    return r;
  };
  for (let i = 0; i < 16; i++) {
    const k = i >> 1;
    const odd = i % 2 === 1;
    assert.equal(u0[i], odd ? k * (k + 1) : k * k, `sum ${i}`); // 1+3+..+(2k-1) = k^2; 2+..+2k = k(k+1)
    assert.equal(u0[16 + i], fact(k, odd), `product ${i}`);
    // (mask & 0xaaaa) != 0 holds in the odd lanes only: k of them below an odd lane
    assert.equal(u0[32 + i], odd ? k : 0, `bit count ${i}`);
  }
  // and / or / xor of the lower partition lanes' values, by hand
  const at = (base: number, lanes: number[]) => lanes.map((l) => u0[base + l]);
  assert.deepEqual(at(48, [0, 1, 4, 5, 6, 7]), [0xffffffff, 0xffffffff, 1, 0, 1, 0]); // 1&3, 2&4, 1&3&5, 2&4&6
  assert.deepEqual(at(64, [0, 1, 4, 5, 6, 7]), [0, 0, 3, 6, 7, 6]);
  assert.deepEqual(at(80, [0, 1, 4, 5, 6, 7]), [0, 0, 2, 6, 7, 0]);
});

test(
  'DXIL: a wave operation in a vertex program is refused by name (WGSL has subgroups only in fragment and compute)',
  { skip },
  () => {
    const refusal = (name: string): string => {
      try {
        lift(readBytes(join(sharedPath(CORPUS)!, `${name}.dxil`)));
      } catch (e) {
        return (e as Error).message;
      }
      return 'lifted';
    };
    assert.match(
      refusal('sm_advanced__vs_instance_input_nonuniform_workarounds'),
      /wave operations: WaveReadLaneFirst \(dx\.op 118\) in a vertex program/,
    );
  },
);

test('DXIL pixel programs with ballots, scans and quad reads lift and validate', { skip }, () => {
  for (const name of [
    'tests__d3d12_sm_advanced__ps_code_default',
    'sm_advanced__helper_lane_only_wave_ops_sm67',
    'pso__ps_sample_mask',
    'sm_advanced__cs_quad_swap_2d_sm66',
  ])
    liftCorpus(name);
});

test(
  'Tint compiles the WGSL of every module above with the subgroups extension',
  { skip: needs(webgpuSkip()) },
  async () => {
    assert.ok(wgsl.length >= 2);
    const rs = await compileWgsl(
      wgsl.map((w) => w.code),
      { pipelines: true },
    );
    const failed = rs.flatMap((r, k) => (r.ok ? [] : [`${wgsl[k]!.name}: ${r.messages.join(' | ')}`]));
    assert.deepEqual(failed, []);
  },
);

/** The device's subgroup size (Dawn), from a one-wave probe. */
async function deviceWaveSize(): Promise<number> {
  const code = `enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main(@builtin(subgroup_size) n: u32) { o[0] = n; }`;
  const r = await gpuCompute({
    code,
    workgroups: [1, 1, 1],
    bindings: [{ group: 0, binding: 0, type: 'storage', words: new Uint32Array(1) }],
  });
  assert.ok(r.ok, r.ok ? '' : r.messages.join(' | '));
  return r.outputs['0:0']![0]!;
}

test(
  "Dawn prints the executor's words for the 40-lane module at the device's wave size",
  { skip: needs(webgpuSkip()) },
  async () => {
    const size = await deviceWaveSize();
    const m = computeModule();
    const out = new Uint32Array(40 * SLOTS);
    runCompute(m, { workgroups: [1, 1, 1], buffers: { '0:0': out }, waveSize: size });
    const r = await gpuCompute({
      code: emitModuleWgsl(m),
      workgroups: [1, 1, 1],
      bindings: [{ group: 0, binding: 0, type: 'storage', words: new Uint32Array(40 * SLOTS) }],
    });
    assert.ok(r.ok, r.ok ? '' : r.messages.join(' | '));
    const gpu = r.outputs['0:0']!;
    let compared = 0;
    for (let l = 0; l < 40; l++)
      for (let k = 0; k < SLOTS; k++) {
        // a shuffle from the wave's last lane reads past the wave: unspecified
        if (k === 7 && l % size === size - 1) continue;
        assert.equal(gpu[l * SLOTS + k], out[l * SLOTS + k], `lane ${l} slot ${k} (wave size ${size})`);
        compared++;
      }
    assert.ok(compared > 600);
  },
);

test("Dawn prints the executor's words for DXIL cs_quad_vote", { skip: needs(skip || webgpuSkip()) }, async () => {
  const p = liftCorpus('sm_advanced__cs_quad_vote');
  for (const v of [
    [1, 3, 1, 1],
    [3, 3, 3, 3],
    [0, 2, 0, 2],
  ]) {
    const t0 = Uint32Array.from(v);
    const u0 = new Uint32Array(16);
    runCompute(p, { workgroups: [1, 1, 1], buffers: { [key(p, 't', 0)]: t0, [key(p, 'u', 0)]: u0 } });
    const [tg, tb] = key(p, 't', 0).split(':').map(Number);
    const [ug, ub] = key(p, 'u', 0).split(':').map(Number);
    const r = await gpuCompute({
      code: emitWgsl(p),
      workgroups: [1, 1, 1],
      bindings: [
        { group: tg!, binding: tb!, type: 'storage', words: t0, readOnly: true },
        { group: ug!, binding: ub!, type: 'storage', words: new Uint32Array(16) },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : r.messages.join(' | '));
    assert.deepEqual([...r.outputs[key(p, 'u', 0)]!], [...u0], `t0 = ${v.join(',')}`);
  }
});

test(
  "Dawn prints the executor's words for DXIL cs_wave_match at the device's wave size",
  { skip: needs(skip || webgpuSkip()) },
  async () => {
    const size = await deviceWaveSize();
    const p = liftCorpus('sm_advanced__cs_wave_match');
    const t0 = Uint32Array.from({ length: 16 }, (_, i) => [5, 9, 5, 5, 9, 1, 1, 5][i % 8]!);
    const want = waveMatch(p, t0, size);
    const [tg, tb] = key(p, 't', 0).split(':').map(Number);
    const [ug, ub] = key(p, 'u', 0).split(':').map(Number);
    const r = await gpuCompute({
      code: emitWgsl(p),
      workgroups: [1, 1, 1],
      bindings: [
        { group: tg!, binding: tb!, type: 'storage', words: t0, readOnly: true },
        { group: ug!, binding: ub!, type: 'storage', words: new Uint32Array(16) },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : r.messages.join(' | '));
    assert.deepEqual([...r.outputs[key(p, 'u', 0)]!], [...want], `wave size ${size}`);
  },
);

test(
  "Dawn prints the executor's words for DXIL cs_wave_multi_prefix at the device's wave size",
  { skip: needs(skip || webgpuSkip()) },
  async () => {
    const size = await deviceWaveSize();
    const p = liftCorpus('sm_advanced__cs_wave_multi_prefix');
    for (const t0 of [PARITY, Uint32Array.from({ length: 16 }, (_, i) => (i < 8 ? 0x00ff : 0xff00) | 0x8001)]) {
      const want = multiPrefix(p, t0, size);
      const [tg, tb] = key(p, 't', 0).split(':').map(Number);
      const [ug, ub] = key(p, 'u', 0).split(':').map(Number);
      const r = await gpuCompute({
        code: emitWgsl(p),
        workgroups: [1, 1, 1],
        bindings: [
          { group: tg!, binding: tb!, type: 'storage', words: t0, readOnly: true },
          { group: ug!, binding: ub!, type: 'storage', words: new Uint32Array(96) },
        ],
      });
      assert.ok(r.ok, r.ok ? '' : r.messages.join(' | '));
      assert.deepEqual([...r.outputs[key(p, 'u', 0)]!], [...want], `wave size ${size}`);
    }
  },
);
