// Shader Model 6.6's 64-bit atomics (src/lift/dxil/atomic64.ts, the IR's atomic64): vkd3d-proton's
// test_shader_sm66_64bit_atomics programs (cs_64bit_atomics: AtomicBinOp.i64 and
// AtomicCompareExchange.i64 on structured UAVs; cs_64bit_atomics_shared: atomicrmw and cmpxchg of
// i64 on groupshared memory; cs_64bit_atomics_typed: on R32G32_UINT typed views) run on the
// executor with the test's inputs {1<<40, 3<<31, 3<<29,
// 1<<63} against its expected values (run_64bit_atomics_test in tests/d3d12_sm_advanced.c: the
// sum, the and of the complements, the or, umax, umin, smax, smin, the xor with ~0; the exchanges'
// and compare-exchanges' results one of the inputs); each refuses WGSL emission by name (WGSL has
// 32-bit atomics only). The atomic64 statement itself against a BigInt model of every function,
// signed and unsigned edges included, and the WGSL the emitter writes for the four it can (add,
// and, or, xor with no result) on the executor and, when WebGPU is here, compiled by Tint and run
// on Dawn against the same model. The corpus programs are vkd3d-proton's (LGPL), read from
// ../shared (the test skips without it).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Block, Constant, Func, Instruction, Type } from '../../src/dxil/ir.js';
import { validateModule } from '../../src/ir/validate.js';
import { runCompute } from '../../src/exec/index.js';
import { emitModuleWgsl, emitWgsl } from '../../src/wgsl/index.js';
import { IridiaError } from '../../src/errors.js';
import { FunctionBuilder, ModuleBuilder } from '../../src/ir/builder.js';
import { ATOMIC64_FNS, type Atomic64Fn, type Module } from '../../src/ir/ir.js';
import { closeWebgpu, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';

after(() => closeWebgpu());

const DIR = 'corpus/dxil/vkd3d-proton';
const skip = skipUnlessShared(DIR);

const INPUTS = [1n << 40n, 3n << 31n, 3n << 29n, 1n << 63n];
const M64 = (1n << 64n) - 1n;
const EXPECTED = [
  INPUTS.reduce((a, b) => (a + b) & M64),
  INPUTS.reduce((a, b) => a & (~b & M64), M64),
  INPUTS.reduce((a, b) => a | b),
  INPUTS[3]!,
  INPUTS[2]!,
  INPUTS[0]!,
  INPUTS[3]!,
  INPUTS.reduce((a, b) => a ^ b, M64),
];

const toWords = (v: readonly bigint[]): Uint32Array =>
  Uint32Array.from(v.flatMap((x) => [Number(x & 0xffffffffn), Number(x >> 32n)]));
const fromWords = (w: Uint32Array): bigint[] =>
  Array.from({ length: w.length / 2 }, (_, i) => BigInt(w[2 * i]!) | (BigInt(w[2 * i + 1]!) << 32n));

for (const name of [
  'sm_advanced__cs_64bit_atomics.dxil',
  'sm_advanced__cs_64bit_atomics_shared.dxil',
  'tests__d3d12_sm_advanced__cs_code_64bit_atomic.dxil',
  'tests__d3d12_sm_advanced__cs_code_64bit_atomic_shared.dxil',
]) {
  test(`${name}: vkd3d-proton's expected 64-bit atomic results on the executor`, { skip }, () => {
    const p = lift(readBytes(join(sharedPath(DIR)!, name)));
    assert.deepEqual(validateModule(p.module), []);
    const input = toWords(INPUTS);
    const output = new Uint32Array(22); // 11 values; u0 and u1 both view it (the test's root UAVs)
    runCompute(p, { workgroups: [1, 1, 1], buffers: { '1:0': input, '3:0': output, '3:1': output } });
    const got = fromWords(output);
    for (let i = 0; i < 8; i++) assert.equal(got[i], EXPECTED[i], `value ${i}`);
    for (let i = 8; i < 11; i++) assert.ok(INPUTS.includes(got[i]!), `value ${i} = ${got[i]!.toString(16)}: an input`);
    assert.throws(
      () => emitWgsl(p),
      (e: unknown) => e instanceof IridiaError && /^64-bit integers: a 64-bit atomic/.test(e.reason),
    );
  });
}

// The groupshared program with a call of a defined function (a body of one `ret void`, lifted
// inline, calls.ts) before its first instruction, and the first atomic's previous value stored to a
// local variable (an alloca): the callee's lift left the lifter's record of which values are read
// set to the callee's, so the atomic after the call took its result for unread, kept none, and the
// store read a value never defined.
test('a 64-bit atomic after an inlined call keeps its result (vkd3d-proton cs_64bit_atomics_shared)', { skip }, () => {
  const bytes = readBytes(join(sharedPath(DIR)!, 'sm_advanced__cs_64bit_atomics_shared.dxil'));
  const m = readPartModule(parseContainer(bytes), 'DXIL')!;
  const main = m.functions.find((f) => !f.isProto)!;
  const type = (kind: string, width = 0) => m.types.find((t) => t?.kind === kind && t.width === width)!;
  const voidT = type('void');
  const fnT = new Type('fn');
  fnT.elt = voidT;
  const helper = new Func(new Type('ptr'), fnT);
  helper.name = 'helper';
  const body = new Block(new Type('label'), 0);
  body.insts = [new Instruction('ret', voidT)];
  helper.blocks = [body];
  const call = new Instruction('call', voidT);
  call.callee = helper;
  call.explicitType = fnT;
  const i64 = type('int', 64);
  const ptr = new Type('ptr');
  ptr.elt = i64;
  const one = new Constant(type('int', 32), 'int');
  one.bits = 1n;
  const slot = new Instruction('alloca', ptr);
  slot.explicitType = i64;
  slot.ops = [one];
  main.blocks[0]!.insts.unshift(call, slot);
  const block = main.blocks.find((b) => b.insts.some((i) => i.op === 'atomicrmw'))!;
  const at = block.insts.findIndex((i) => i.op === 'atomicrmw');
  const keep = new Instruction('store', voidT);
  keep.ops = [block.insts[at]!, slot];
  block.insts.splice(at + 1, 0, keep);
  const p = liftModule(m, 'DXIL', 0);
  assert.deepEqual(validateModule(p.module), []);
  const output = new Uint32Array(22);
  runCompute(p, { workgroups: [1, 1, 1], buffers: { '1:0': toWords(INPUTS), '3:0': output, '3:1': output } });
  const got = fromWords(output);
  for (let i = 0; i < 8; i++) assert.equal(got[i], EXPECTED[i], `value ${i}`);
  for (let i = 8; i < 11; i++) assert.ok(INPUTS.includes(got[i]!), `value ${i} = ${got[i]!.toString(16)}: an input`);
});

// cs_64bit_atomics_typed: the same operations on an 11x11 R32G32_UINT RWTexture2D (texel (i, i)
// holds value i; a texel view of two words a texel, lift/texels.ts) and values 5 and 6 on an
// R32G32_UINT RWBuffer (two words an element), as run_64bit_atomics_test reads them back
for (const name of [
  'sm_advanced__cs_64bit_atomics_typed.dxil',
  'tests__d3d12_sm_advanced__cs_code_64bit_atomic_typed.dxil',
]) {
  test(`${name}: vkd3d-proton's expected 64-bit atomic results on typed views on the executor`, { skip }, () => {
    const p = lift(readBytes(join(sharedPath(DIR)!, name)));
    assert.deepEqual(validateModule(p.module), []);
    assert.deepEqual(
      p.interface.resources
        .filter((r) => r.registerClass === 'u')
        .map((r) => r.kind.kind === 'uav' && r.kind.elementWords),
      [2, 2],
    );
    const texture = new Uint32Array(4 + 2 * 121);
    texture.set([11, 11, 1, 0]);
    const buffer = new Uint32Array(22);
    runCompute(p, { workgroups: [1, 1, 1], buffers: { '1:0': toWords(INPUTS), '3:0': texture, '3:1': buffer } });
    const texel = (i: number) => fromWords(texture.subarray(4 + 2 * (i * 11 + i), 6 + 2 * (i * 11 + i)))[0]!;
    const element = fromWords(buffer);
    for (let i = 0; i < 8; i++) assert.equal(i === 5 || i === 6 ? element[i] : texel(i), EXPECTED[i], `value ${i}`);
    for (let i = 8; i < 11; i++) assert.ok(INPUTS.includes(texel(i)), `texel ${i}: an input`);
    assert.throws(
      () => emitWgsl(p),
      (e: unknown) => e instanceof IridiaError && /^64-bit integers: a 64-bit atomic/.test(e.reason),
    );
  });
}

const FNS: readonly Atomic64Fn[] = ATOMIC64_FNS;

function model(fn: Atomic64Fn, old: bigint, v: bigint, c: bigint): bigint {
  const s = (x: bigint) => BigInt.asIntN(64, x);
  switch (fn) {
    case 'add':
      return (old + v) & M64;
    case 'and':
      return old & v;
    case 'or':
      return old | v;
    case 'xor':
      return old ^ v;
    case 'min_s':
      return s(v) < s(old) ? v : old;
    case 'max_s':
      return s(v) > s(old) ? v : old;
    case 'min_u':
      return v < old ? v : old;
    case 'max_u':
      return v > old ? v : old;
    case 'exchange':
      return v;
    case 'compare_exchange':
      return old === c ? v : old;
  }
}

/** A compute program of one thread per case: words 2i, 2i+1 of buffer 0 (atomic) hold case i's
 * memory (`shared`: every thread acts on words 0, 1), buffer 1 its operand (words 2i, 2i+1) and
 * compare value (2n + 2i, +1); with `result`, the previous value goes to buffer 2. */
function atomicModule(fn: Atomic64Fn, n: number, result: boolean, shared = false): Module {
  const m = new ModuleBuilder();
  const u32 = m.scalar('u32');
  const v2 = m.vec('u32', 2);
  const storage = (name: string, binding: number, type: number, access: 'read' | 'read_write') =>
    m.addGlobal({ name, space: 'storage', access, type: m.array(type, null), binding: { group: 0, binding } });
  const mem = storage('mem', 0, m.type({ kind: 'atomic', scalar: 'u32' }), 'read_write');
  const ops = storage('ops', 1, u32, 'read');
  const out = result ? storage('out', 2, u32, 'read_write') : -1;
  const f = new FunctionBuilder(m, 'main');
  f.arg({ name: 'id', type: m.vec('u32', 3), binding: { kind: 'builtin', builtin: 'global_invocation_id' } });
  const i = f.bind('i', f.expr({ op: 'swizzle', vector: f.expr({ op: 'arg', index: 0 }), pattern: [0] }));
  const bin = (fn: 'add' | 'mul', a: number, b: number) => f.expr({ op: 'binary', fn, left: a, right: b });
  const at = (g: number, index: number) => f.expr({ op: 'access', base: f.expr({ op: 'global', global: g }), index });
  const word = (g: number, k: number, one = false) =>
    at(g, one ? f.u32(k) : bin('add', bin('mul', i, f.u32(2)), f.u32(k)));
  const pair = (k: number) =>
    f.expr({
      op: 'compose',
      type: v2,
      parts: [f.expr({ op: 'load', pointer: word(ops, k) }), f.expr({ op: 'load', pointer: word(ops, k + 1) })],
    });
  const r = result ? f.newLet('old') : undefined;
  f.stmt({
    op: 'atomic64',
    low: word(mem, 0, shared),
    high: word(mem, 1, shared),
    fn,
    value: pair(0),
    ...(fn === 'compare_exchange' ? { compare: pair(2 * n) } : {}),
    ...(r !== undefined ? { result: r } : {}),
  });
  if (r !== undefined) {
    const old = f.expr({ op: 'let', let: r });
    for (const k of [0, 1])
      f.stmt({ op: 'store', pointer: word(out, k), value: f.expr({ op: 'swizzle', vector: old, pattern: [k] }) });
  }
  f.stmt({ op: 'return' });
  m.entryPoints.push({ name: 'main', stage: 'compute', function: m.addFunction(f.finish()), workgroupSize: [n, 1, 1] });
  return m.finish();
}

// signed and unsigned edges: 0, 1, -1, INT64_MIN, INT64_MAX, carries across the word boundary
const EDGES = [0n, 1n, M64, 1n << 63n, (1n << 63n) - 1n, 0xffffffffn, 1n << 32n, 0x1_0000_0001n, 0xfffffffe_ffffffffn];
const CASES: [bigint, bigint, bigint][] = [];
for (const a of EDGES) for (const b of EDGES) CASES.push([a, b, a]);
for (const a of EDGES) CASES.push([a, 5n, a ^ 1n]); // compare-exchange that fails

test('the atomic64 statement on the executor: every function against a BigInt model, signed and unsigned edges', () => {
  for (const fn of FNS) {
    const m = atomicModule(fn, CASES.length, true);
    assert.deepEqual(validateModule(m), [], fn);
    const mem = toWords(CASES.map((c) => c[0]));
    const ops = toWords([...CASES.map((c) => c[1]), ...CASES.map((c) => c[2])]);
    const out = new Uint32Array(2 * CASES.length);
    runCompute(m, { workgroups: [1, 1, 1], buffers: { '0:0': mem, '0:1': ops, '0:2': out } });
    const after = fromWords(mem);
    const old = fromWords(out);
    CASES.forEach(([a, b, c], k) => {
      assert.equal(after[k], model(fn, a, b, c), `${fn}(${a.toString(16)}, ${b.toString(16)})`);
      assert.equal(old[k], a, `${fn}: previous value`);
    });
  }
});

test('emitWgsl writes add, and, or and xor without a result as word atomics; refuses the rest by name', () => {
  for (const fn of FNS)
    for (const result of [false, true]) {
      const m = atomicModule(fn, 4, result);
      const can = !result && (fn === 'add' || fn === 'and' || fn === 'or' || fn === 'xor');
      if (can) assert.match(emitModuleWgsl(m), /atomic(Add|And|Or|Xor)\(/);
      else
        assert.throws(
          () => emitModuleWgsl(m),
          (e: unknown) => e instanceof IridiaError && e.reason.startsWith(`64-bit integers: a 64-bit atomic ${fn}`),
          `${fn}${result ? ' with its result' : ''}`,
        );
    }
});

test('the atomic64 statement: 64 threads on one 64-bit word end with the operations folded in any order', () => {
  const n = 64;
  const operands = Array.from({ length: n }, (_, k) => (0xffffffffn * BigInt(k + 1) + (BigInt(k) << 40n)) & M64);
  for (const fn of FNS) {
    const mem = toWords([0xfffffff0n]);
    runCompute(atomicModule(fn, n, false, true), {
      workgroups: [1, 1, 1],
      buffers: { '0:0': mem, '0:1': toWords([...operands, ...operands]) },
    });
    const want = operands.reduce((a, v) => model(fn, a, v, a), 0xfffffff0n);
    if (fn !== 'exchange' && fn !== 'compare_exchange') assert.equal(fromWords(mem)[0], want, fn);
  }
});

test(
  "Tint compiles, and Dawn runs, the word atomics' WGSL: 64 threads on one 64-bit word end with the model's value",
  { skip: webgpuSkip() },
  async () => {
    const n = 64;
    const operands = Array.from({ length: n }, (_, k) => (0xffffffffn * BigInt(k + 1) + (BigInt(k) << 40n)) & M64);
    for (const fn of ['add', 'and', 'or', 'xor'] as const) {
      const code = emitModuleWgsl(atomicModule(fn, n, false, true));
      const r = await gpuCompute({
        code,
        workgroups: [1, 1, 1],
        bindings: [
          { group: 0, binding: 0, type: 'storage', words: toWords([0xfffffff0n]) },
          { group: 0, binding: 1, type: 'storage', words: toWords([...operands, ...operands]), readOnly: true },
        ],
      });
      assert.ok(r.ok, r.ok ? '' : `${fn}: ${r.stage}: ${r.messages.join('; ')}`);
      const want = operands.reduce((a, v) => model(fn, a, v, a), 0xfffffff0n);
      assert.equal(fromWords(r.outputs['0:0']!)[0], want, fn);
    }
  },
);
