// Mesh and amplification programs (ms_6_5+, as_6_5+) lifted from DXIL as stage functions
// (src/lift/dxil/mesh.ts, ops-mesh.ts) and run on the executor (src/exec/mesh.ts). Every one of
// ../shared/corpus/dxil lifts, validates, carries its MS/AS state and is refused by emitWgsl by name;
// four real programs (vkd3d-proton's tests) run one thread group each, with the expected words worked
// out by hand from their LLVM (quoted beside each test). Those containers are LGPL-2.1-or-later
// (corpus/dxil/README.md), so none is committed: without ../shared those tests skip. On a fresh
// clone a mesh program is made here from the committed compute fixture DXIL__FillTexture (Zlib):
// its module read, its shader kind, entry properties and signatures rewritten in memory to an MS
// state, and its body replaced by mesh dx.ops; that one is lifted, run, and its malformed variants
// are refused as invalid (E602). `iridia run --seed` on a mesh and an amplification program.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { FIXTURES, REPO, readBytes, readManifest, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Block, Constant, Func, Instruction, type Metadata, type Module, Type, type Value } from '../../src/dxil/ir.js';
import { IridiaError } from '../../src/errors.js';
import { runAmplification, runMesh } from '../../src/exec/mesh.js';
import { seededWords } from '../../src/exec/seed.js';
import { FILE_WORDS } from '../../src/exec/stages.js';
import { FunctionBuilder, ModuleBuilder } from '../../src/ir/builder.js';
import type { Program } from '../../src/ir/program.js';
import { validateModule } from '../../src/ir/validate.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { lift } from '../../src/lift/lift.js';
import { LiftRefusal } from '../../src/lift/refuse.js';
import { emitWgsl } from '../../src/wgsl/index.js';

const ROOT = 'corpus/dxil';
const dir = sharedPath(ROOT);
const skip = skipUnlessShared(ROOT);
/** Mesh and amplification programs of the corpus (its README's model x stage table: 41 + 1 ms, 9 as). */
const EXPECTED = 51;

const f32 = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const floats = (u: Uint32Array): number[] => Array.from(new Float32Array(u.slice().buffer));

function program(name: string): Program {
  return lift(readBytes(join(dir!, 'vkd3d-proton', `${name}.dxil`)));
}

/** A vertex's or primitive's register r (four words). */
const reg = (file: Uint32Array, item: number, r: number): Uint32Array =>
  file.slice(item * FILE_WORDS + r * 4, item * FILE_WORDS + r * 4 + 4);

test('emitWgsl refuses a mesh or amplification program by name (WGSL has no mesh pipeline)', () => {
  for (const stage of ['mesh', 'amplification'] as const) {
    const m = new ModuleBuilder();
    const f = new FunctionBuilder(m, 'main');
    f.stmt({ op: 'return' });
    const main = m.addFunction(f.finish());
    const p: Program = {
      stage,
      interface: { inputs: [], outputs: [], patchConstants: [], resources: [] },
      provenance: { target: stage === 'mesh' ? 'ms_6_5' : 'as_6_5', bytecode: 'DXIL', part: 'DXIL', instructions: 1 },
      notes: [],
      module: m.finish(),
      stageFunctions: { main, patchConstant: [], threadGroup: [1, 1, 1], payloadBytes: 0 },
    };
    assert.throws(
      () => emitWgsl(p),
      (e: unknown) =>
        e instanceof LiftRefusal &&
        e.category === 'mesh and amplification' &&
        e.code === 'E601_LIFT_UNSUPPORTED' &&
        e.message.includes(p.provenance.target),
    );
  }
});

test(`every mesh and amplification program of ../shared/${ROOT} lifts as stage functions`, { skip }, () => {
  const files: string[] = [];
  for (const f of walk(dir!)) {
    if (!f.endsWith('MANIFEST.tsv')) continue;
    for (const row of readManifest(f))
      if ((row['stage'] === 'ms' || row['stage'] === 'as') && row['path']) files.push(row['path']);
  }
  assert.equal(files.length, EXPECTED, 'the corpus manifests list 51 ms and as programs');
  const counts = { mesh: 0, amplification: 0 };
  for (const rel of files) {
    const path = join(dir!, '..', rel);
    const name = relative(dir!, path);
    const p = lift(readBytes(path));
    assert.ok(p.stage === 'mesh' || p.stage === 'amplification', `${name}: stage ${p.stage}`);
    counts[p.stage]++;
    assert.deepEqual(validateModule(p.module), [], `${name}: the IR validates`);
    const sf = p.stageFunctions;
    assert.ok(sf?.threadGroup, `${name}: a thread group`);
    const [x, y, z] = sf.threadGroup;
    assert.ok(x * y * z >= 1 && x * y * z <= 128, `${name}: ${x}x${y}x${z} threads`);
    assert.equal(p.module.entryPoints.length, 0, `${name}: no WGSL entry point`);
    if (p.stage === 'mesh') {
      assert.ok(sf.outputTopology === 'triangle' || sf.outputTopology === 'line', name);
      assert.ok((sf.maxVertexCount ?? -1) >= 0 && (sf.maxPrimitiveCount ?? -1) >= 0, name);
      assert.ok(p.interface.outputs.length > 0 || sf.maxVertexCount === 0, `${name}: vertex outputs`);
    }
    assert.throws(
      () => emitWgsl(p),
      (e: unknown) => e instanceof LiftRefusal && e.category === 'mesh and amplification',
    );
  }
  console.log(
    `mesh/amplification: ${files.length} programs, ${counts.mesh} mesh and ${counts.amplification} amplification lift`,
  );
  assert.deepEqual(counts, { mesh: 42, amplification: 9 });
});

// tests__d3d12_mesh_shader__ms_simple (numthreads(4,1,1), 4 vertices, 2 triangles):
//   i = FlattenedThreadIdInGroup; SetMeshOutputCounts(4, 2)
//   SV_Position[i] = ((i & 1) * 2 - 1, (i & 2) - 1, 0, 1)
//   if (i < 2) EmitIndices(i, i, (i << 1) | 1, 2)
test('ms_simple: four threads write a quad of two triangles', { skip }, () => {
  const p = program('tests__d3d12_mesh_shader__ms_simple');
  assert.equal(p.stage, 'mesh');
  assert.deepEqual(p.stageFunctions?.threadGroup, [4, 1, 1]);
  assert.equal(p.stageFunctions?.maxVertexCount, 4);
  assert.equal(p.stageFunctions?.maxPrimitiveCount, 2);
  assert.equal(p.stageFunctions?.outputTopology, 'triangle');
  assert.deepEqual(
    p.interface.outputs.map((v) => [v.semantic, v.register, v.mask, v.systemValue]),
    [['SV_Position', 0, 0xf, 1]],
  );
  const r = runMesh(p);
  assert.equal(r.vertexCount, 4);
  assert.equal(r.primitiveCount, 2);
  assert.deepEqual(Array.from(r.indices), [0, 1, 2, 1, 3, 2]);
  const expected = [
    [-1, -1, 0, 1],
    [1, -1, 0, 1],
    [-1, 1, 0, 1],
    [1, 1, 0, 1],
  ];
  for (let v = 0; v < 4; v++) assert.deepEqual(floats(reg(r.vertices, v, 0)), expected[v], `vertex ${v}`);
  assert.equal(r.vertices.length, 4 * FILE_WORDS);
});

// mesh_shader__ms_payload (numthreads(1,1,1), 3 vertices, 1 triangle, a 16-byte payload):
//   SetMeshOutputCounts(3, 1); SV_Position: (-1,-1,0,1), (3,-1,0,1), (-1,3,0,1); EmitIndices(0, 0, 1, 2)
//   primitive 0's UV_COLOR (row 0, columns 0..3) = the payload's four floats
test('ms_payload: the payload read through GetMeshPayload becomes a primitive output', { skip }, () => {
  const p = program('mesh_shader__ms_payload');
  assert.equal(p.stageFunctions?.payloadBytes, 16);
  assert.deepEqual(
    p.interface.patchConstants.map((v) => [v.semantic, v.register, v.mask]),
    [['UV_COLOR', 0, 0xf]],
  );
  const payload = new Uint32Array([f32(0.25), f32(-2), f32(7), f32(1.5)]);
  const r = runMesh(p, { payload });
  assert.equal(r.vertexCount, 3);
  assert.equal(r.primitiveCount, 1);
  assert.deepEqual(Array.from(r.indices), [0, 1, 2]);
  assert.deepEqual(floats(reg(r.vertices, 0, 0)), [-1, -1, 0, 1]);
  assert.deepEqual(floats(reg(r.vertices, 1, 0)), [3, -1, 0, 1]);
  assert.deepEqual(floats(reg(r.vertices, 2, 0)), [-1, 3, 0, 1]);
  assert.deepEqual(Array.from(reg(r.primitives, 0, 0)), Array.from(payload));
});

// tests__d3d12_mesh_shader__ms_culling (numthreads(32,1,1), 3 vertices, up to 32 triangles; t0 a
// StructuredBuffer<uint>; groupshared primitive_count):
//   thread 0: primitive_count = 0; barrier
//   mask = t0[SV_GroupID.x]; if (mask & (1 << (i & 31))) k = InterlockedAdd(primitive_count, 1)
//   barrier; SetMeshOutputCounts(3, primitive_count)
//   if primitive_count != 0: threads 0..2 write SV_Position ((i&1)*4-1, (i&2)*2-1, 0, 1);
//     a thread with k: EmitIndices(k, 0, 1, 2), UV_PRIMITIVE_ID[k] = SV_DispatchThreadID.x
test('ms_culling: groupshared atomics and barriers pick the primitives of one group', { skip }, () => {
  const p = program('tests__d3d12_mesh_shader__ms_culling');
  assert.deepEqual(p.stageFunctions?.threadGroup, [32, 1, 1]);
  // SRV t0 is bound at group 1, binding 0 (the lifter's resource table)
  const t0 = new Uint32Array([0b1010, (1 << 0) | (1 << 2) | (1 << 31)]);
  const r = runMesh(p, { group: [1, 0, 0], groups: [2, 1, 1], buffers: { '1:0': t0 } });
  assert.equal(r.vertexCount, 3);
  assert.equal(r.primitiveCount, 3, 'three bits of t0[1]');
  assert.deepEqual(Array.from(r.indices), [0, 1, 2, 0, 1, 2, 0, 1, 2]);
  assert.deepEqual(floats(reg(r.vertices, 0, 0)), [-1, -1, 0, 1]);
  assert.deepEqual(floats(reg(r.vertices, 1, 0)), [3, -1, 0, 1]);
  assert.deepEqual(floats(reg(r.vertices, 2, 0)), [-1, 3, 0, 1]);
  // which thread gets which slot is the atomic's order (Direct3D leaves it open): compare the set
  const ids = [0, 1, 2].map((k) => reg(r.primitives, k, 0)[0]!).sort((a, b) => a - b);
  assert.deepEqual(ids, [32, 34, 63], 'SV_DispatchThreadID.x of threads 0, 2 and 31 of group 1');
  // group 0: bits 1 and 3
  const r0 = runMesh(p, { buffers: { '1:0': t0 } });
  assert.equal(r0.primitiveCount, 2);
  assert.deepEqual(
    [0, 1].map((k) => reg(r0.primitives, k, 0)[0]!).sort((a, b) => a - b),
    [1, 3],
  );
  // no bit set: no primitive, and the vertices are not written
  const none = runMesh(p, { buffers: { '1:0': new Uint32Array([0]) } });
  assert.equal(none.primitiveCount, 0);
  assert.deepEqual(floats(reg(none.vertices, 0, 0)), [0, 0, 0, 0]);
});

// mesh_shader__as_simple (numthreads(1,1,1), a 16-byte payload):
//   payload = { 0.0, 1.0, 0.0, 1.0 } (an alloca); DispatchMesh(1, 1, 1, payload)
test('as_simple: DispatchMesh passes its group counts and payload', { skip }, () => {
  const p = program('mesh_shader__as_simple');
  assert.equal(p.stage, 'amplification');
  assert.deepEqual(p.stageFunctions?.threadGroup, [1, 1, 1]);
  assert.equal(p.stageFunctions?.payloadBytes, 16);
  const r = runAmplification(p);
  assert.deepEqual(r.dispatch, [1, 1, 1]);
  assert.deepEqual(Array.from(r.payload), [0, f32(1), 0, f32(1)]);
});

// ---- a mesh program made from a committed compute fixture ------------------------------------

const FIXTURE = join(FIXTURES, 'dxil/DXIL__FillTexture.comp_232c51f1.dxil');

interface Made {
  kind?: string;
  /** The MS state's operands after numthreads; undefined: no tag 9 (the compute tag 4 is kept). */
  state?: number[] | undefined;
  threads?: [number, number, number];
}

/**
 * FillTexture's module as a mesh program, numthreads(8,8,1), lines:
 *   i = FlattenedThreadIdInGroup; SetMeshOutputCounts(64, 32)
 *   SV_Position[i] = (float(i), 1, -, 1)   (column 2 never written)
 *   EmitIndices(i, 2i, 2i + 1); PRIM_ID[i] = i   (threads 32..63 are past the 32 primitives)
 */
function madeMesh(o: Made = {}): Module {
  const m = readPartModule(parseContainer(readBytes(FIXTURE)), 'DXIL')!;
  const md = m.metadata;
  const find = (pred: (t: Type) => boolean) => m.types.find(pred) ?? assert.fail('a type the fixture lacks');
  const i32 = find((t) => t.kind === 'int' && t.width === 32);
  const f32 = find((t) => t.kind === 'float');
  const voidT = find((t) => t.kind === 'void');
  const label = m.types.find((t) => t.kind === 'label') ?? new Type('label');
  const i8 = new Type('int');
  i8.width = 8;
  const int = (n: number, t: Type = i32): Constant => {
    const c = new Constant(t, 'int');
    c.bits = BigInt(n);
    return c;
  };
  const float = (x: number): Constant => {
    const c = new Constant(f32, 'float');
    c.bits = BigInt(new Uint32Array(new Float32Array([x]).buffer)[0]!);
    return c;
  };
  // metadata: ids + 1 in node operands (0 is null)
  const add = (x: Metadata): number => md.push(x);
  const val = (n: number) => add({ k: 'value', type: i32, id: -1, v: int(n) });
  const str = (s: string) => add({ k: 'string', s });
  const node = (ops: number[]) => add({ k: 'node', distinct: false, ops });
  const named = (n: string) => m.named.find((x) => x.name === n) ?? assert.fail(`no ${n}`);
  const sm = named('dx.shaderModel').ops[0]!;
  const smNode = md[sm] as Extract<Metadata, { k: 'node' }>;
  md[sm] = { ...smNode, ops: [str(o.kind ?? 'ms'), ...smNode.ops.slice(1)] };
  const ep = named('dx.entryPoints').ops[0]!;
  const epNode = md[ep] as Extract<Metadata, { k: 'node' }>;
  const element = (id: number, name: string, comp: number, kind: number, interp: number, cols: number) =>
    node([val(id), str(name), val(comp), val(kind), node([val(0)]), val(interp), val(1), val(cols), val(0), val(0), 0]);
  const sigs = node([0, node([element(0, 'SV_Position', 9, 3, 4, 4)]), node([element(0, 'PRIM_ID', 5, 0, 1, 1)])]);
  const threads = node((o.threads ?? [8, 8, 1]).map(val));
  const state = 'state' in o ? o.state : [64, 32, 1, 0];
  const props = state ? node([val(9), node([threads, ...state.map(val)])]) : epNode.ops[4]!;
  md[ep] = { ...epNode, ops: [epNode.ops[0]!, epNode.ops[1]!, sigs, epNode.ops[3]!, props] };

  const decl = (name: string, ret: Type, params: Type[]): Func => {
    const ft = new Type('fn');
    ft.elt = ret;
    ft.elts = params;
    const pt = new Type('ptr');
    pt.elt = ft;
    const f = new Func(pt, ft);
    f.name = name;
    f.isProto = true;
    return f;
  };
  const block = new Block(label, 0);
  const emit = (i: Instruction): Instruction => (block.insts.push(i), i);
  const call = (f: Func, args: Value[]) => {
    const i = new Instruction('call', f.fnType.elt!);
    i.callee = f;
    i.explicitType = f.fnType;
    i.ops = args;
    return emit(i);
  };
  const bin = (sub: number, a: Value, b: Value) => {
    const i = new Instruction('binop', i32);
    i.sub = sub;
    i.ops = [a, b];
    return emit(i);
  };
  const flat = decl('dx.op.flattenedThreadIdInGroup.i32', i32, [i32]);
  const counts = decl('dx.op.setMeshOutputCounts', voidT, [i32, i32, i32]);
  const vtx = decl('dx.op.storeVertexOutput.f32', voidT, [i32, i32, i32, i8, f32, i32]);
  const idx = decl('dx.op.emitIndices', voidT, [i32, i32, i32, i32, i32]);
  const prim = decl('dx.op.storePrimitiveOutput.i32', voidT, [i32, i32, i32, i8, i32, i32]);
  const i = call(flat, [int(96)]);
  call(counts, [int(168), int(64), int(32)]);
  const f = new Instruction('cast', f32);
  f.sub = 5; // uitofp
  f.ops = [i];
  emit(f);
  call(vtx, [int(171), int(0), int(0), int(0, i8), f, i]);
  call(vtx, [int(171), int(0), int(0), int(1, i8), float(1), i]);
  call(vtx, [int(171), int(0), int(0), int(3, i8), float(1), i]);
  const a = bin(7, i, int(1)); // shl
  const b = bin(0, a, int(1)); // add
  call(idx, [int(169), i, a, b, new Constant(i32, 'undef')]);
  call(prim, [int(172), int(0), int(0), int(0, i8), i, i]);
  emit(new Instruction('ret', voidT));
  const main = m.functions.find((x) => x.name === 'main') ?? assert.fail('no main');
  main.blocks = [block];
  return m;
}

const invalid = (re: RegExp) => (e: unknown) =>
  e instanceof IridiaError && e.code === 'E602_LIFT_INVALID' && re.test(e.message);

test('a mesh program made from a compute fixture: 64 threads write 64 vertices and 32 lines', () => {
  const p = liftModule(madeMesh(), 'DXIL', 0);
  assert.equal(p.stage, 'mesh');
  assert.deepEqual(validateModule(p.module), []);
  const sf = p.stageFunctions!;
  assert.deepEqual(
    [sf.threadGroup, sf.maxVertexCount, sf.maxPrimitiveCount, sf.outputTopology, sf.payloadBytes],
    [[8, 8, 1], 64, 32, 'line', 0],
  );
  assert.deepEqual(
    p.interface.outputs.map((v) => [v.semantic, v.register, v.mask, v.systemValue, v.componentType]),
    [['SV_Position', 0, 0xf, 1, 3]],
  );
  assert.deepEqual(
    p.interface.patchConstants.map((v) => [v.semantic, v.register, v.mask, v.componentType]),
    [['PRIM_ID', 0, 0x1, 1]],
  );
  assert.throws(
    () => emitWgsl(p),
    (e: unknown) => e instanceof LiftRefusal && e.category === 'mesh and amplification',
  );
  const r = runMesh(p);
  assert.equal(r.topology, 'line');
  assert.equal(r.vertexCount, 64);
  assert.equal(r.primitiveCount, 32);
  for (let v = 0; v < 64; v++) assert.deepEqual(floats(reg(r.vertices, v, 0)), [v, 1, 0, 1], `vertex ${v}`);
  assert.deepEqual(
    Array.from(r.indices),
    Array.from({ length: 64 }, (_, k) => k),
    'line p is (2p, 2p + 1)',
  );
  for (let q = 0; q < 32; q++) assert.deepEqual(Array.from(reg(r.primitives, q, 0)), [q, 0, 0, 0], `primitive ${q}`);
  assert.equal(r.primitives.length, 32 * FILE_WORDS, 'threads 32..63 wrote past the 32 primitives: nothing');
});

test('malformed mesh programs are invalid (E602), not crashes', () => {
  assert.throws(() => liftModule(madeMesh({ state: [300, 32, 1, 0] }), 'DXIL', 0), invalid(/300 vertices/));
  assert.throws(() => liftModule(madeMesh({ state: [64, 32, 3, 0] }), 'DXIL', 0), invalid(/output topology 3/));
  assert.throws(() => liftModule(madeMesh({ state: [64, 32, 1, 6] }), 'DXIL', 0), invalid(/a payload of 6 bytes/));
  assert.throws(() => liftModule(madeMesh({ threads: [16, 16, 1] }), 'DXIL', 0), invalid(/thread group 16x16x1/));
  assert.throws(() => liftModule(madeMesh({ state: undefined }), 'DXIL', 0), invalid(/without its state \(tag 9\)/));
  // the mesh dx.ops in a compute program
  assert.throws(
    () => liftModule(madeMesh({ kind: 'cs', state: undefined }), 'DXIL', 0),
    invalid(/SetMeshOutputCounts outside a mesh program/),
  );
});

// ---- iridia run --seed ------------------------------------------------------------------------

function iridia(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'test/cli/bin.ts'), ...args], {
    encoding: 'utf8',
    cwd: REPO,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test(
  'iridia run --seed: a mesh program prints its outputs by element, an amplification one its dispatch',
  { skip },
  () => {
    const ms = iridia('run', '--seed', '5', '--json', join(dir!, 'vkd3d-proton/mesh_shader__ms_payload.dxil'));
    assert.equal(ms.status, 0, ms.stderr);
    const r = JSON.parse(ms.stdout) as Record<string, unknown>;
    // ms_payload copies the payload (the seed's `payload` stream) to primitive 0's UV_COLOR
    const payload = Array.from(seededWords(5, 'payload', 4));
    assert.deepEqual(r['threadGroup'], [1, 1, 1]);
    assert.deepEqual(r['payload'], payload);
    assert.deepEqual(r['meshCounts'], [3, 1]);
    assert.deepEqual(r['indices'], [0, 1, 2]);
    assert.deepEqual(r['primitiveOutputs'], { UV_COLOR0: payload });
    assert.deepEqual(r['stageOutputs'], {
      SV_POSITION0: [-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1].map(f32),
    });
    const as = iridia('run', '--seed', '5', join(dir!, 'vkd3d-proton/mesh_shader__as_simple.dxil'));
    assert.equal(as.status, 0, as.stderr);
    assert.match(
      as.stdout,
      /^as_6_5 \(amplification\) on the executor, seed 5, one thread group of 1 x 1 x 1 threads$/m,
    );
    assert.match(as.stdout, /^dispatch 1 x 1 x 1 mesh thread groups$/m);
    assert.match(as.stdout, /^payload \(4 words\)\n {7}0 {2}00000000 3f800000 00000000 3f800000$/m);
  },
);
