// Fuzz findings of the executor target (npm run fuzz -- exec), each from its shrunk reproducer. Before
// the fixes a declaration sized an allocation: `dcl_input v16777217` (7 GB of typed arrays), `dcl_output
// o4294967295` (a typed array of 51,539,607,552 elements), a fork phase of 3,000,089,011 instances;
// now the lifter refuses each where it is read, and the executor checks its budgets before it allocates.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lift } from '../../src/lift/lift.js';
import { IridiaError } from '../../src/errors.js';
import { runCompute } from '../../src/exec/index.js';
import type { Module } from '../../src/ir/ir.js';
import { FunctionBuilder, ModuleBuilder } from '../../src/ir/builder.js';
import { validateModule } from '../../src/ir/validate.js';
import { mutant, refuses, typedOnly } from './repro.js';

const cases: { name: string; seed: string; ops: Parameters<typeof mutant>[2]; reason: RegExp }[] = [
  {
    name: 'an input register past 32 (dcl_input v16777217)',
    seed: 'test/fixtures/oracle/own/vs_basic/main-vs_4_1/shader.dxbc',
    ops: [{ op: 'flip', part: 3, r: 2860935219, bits: 1 }],
    reason: /register 16777217 declared, past Direct3D's 32 registers \(dcl_input/,
  },
  {
    name: 'an output register past 32 (dcl_output_siv o4294967295)',
    seed: 'test/fixtures/oracle/own/vs_basic/main-vs_4_1/shader.dxbc',
    ops: [{ op: 'add', part: 5, r: 3351682590, delta: -1 }],
    reason: /register 4294967295 declared, past Direct3D's 32 registers \(dcl_output_siv/,
  },
  {
    name: 'a fork phase of 3000089011 instances',
    seed: 'test/fixtures/exec/hs_fork_instanced-main-hs_5_0.dxbc',
    ops: [{ op: 'word', part: 6, r: 4035205547, value: 3000089011 }],
    reason: /a hull phase of 3000089011 instances \(iridia reads 1 to 128\)/,
  },
];

for (const c of cases)
  test(`exec: ${c.name} is refused by the lifter (E602)`, () => {
    const b = mutant('exec', c.seed, c.ops);
    refuses(() => lift(b), 'E602_LIFT_INVALID', c.reason);
    typedOnly('exec', b);
  });

test('exec: a vertex program lifted as stage functions is not a seeded-run failure', () => {
  typedOnly(
    'exec',
    mutant('exec', 'test/fixtures/oracle/own/vs_basic/main-vs_4_1/shader.dxbc', [
      { op: 'byte', part: 2, r: 2246604942, value: 3279721646 },
    ]),
  );
});

test('exec: a ret in the middle of a /Od program leaves no let unbound (IR: let 3 is never bound)', () => {
  // a nop became ret at the top level: the code after it is dead, and a let bound inside a dead
  // block was dropped with the block while its expression stayed in the arena
  const b = mutant('exec', 'test/fixtures/oracle/own/debug_inline/main-ps_5_0-zi-od/shader.dxbc', [
    { op: 'flip', part: 3, r: 3538751852, bits: 4 },
  ]);
  const p = lift(b);
  assert.deepEqual(validateModule(p.module), []);
  typedOnly('exec', b);
});

test('a let bound in a block opened after a return is not bound at all', () => {
  const m = new ModuleBuilder();
  const f = new FunctionBuilder(m, 'main');
  f.stmt({ op: 'return' });
  f.open();
  const v = f.bind('dead', f.u32(1));
  assert.equal(f.unreachable(), true, 'inside a dead block');
  f.stmt({ op: 'let', let: f.newLet('x'), value: v });
  const body = f.close();
  assert.deepEqual(body, [], 'nothing kept in the dead block');
  f.open();
  f.close();
  const g = f.finish();
  assert.equal(g.lets.filter((l) => l.name === 'dead').length, 0);
  assert.equal(g.body.length, 1);
});

/** A compute module: one local of `length` vec4<u32>, a group of `size` threads, an endless loop when
 * asked. It validates: the budgets, not the IR, refuse it. */
function computeModule(length: number, size: [number, number, number], loop = false): Module {
  const m = new ModuleBuilder();
  const f = new FunctionBuilder(m, 'main');
  f.local('big', m.array(m.vec('u32', 4), length));
  if (loop) f.stmt({ op: 'loop', body: [] });
  const id = m.addFunction(f.finish());
  m.entryPoints.push({ name: 'main', stage: 'compute', function: id, workgroupSize: size });
  const out = m.finish();
  assert.deepEqual(validateModule(out), []);
  return out;
}

function budgetError(f: () => unknown, budget: RegExp): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof IridiaError, String(e));
    assert.equal(e.code, 'E702_EXEC_BUDGET', e.message);
    assert.match(e.message, budget);
    return true;
  });
}

test('the executor checks its memory budget before it allocates a declared size', () => {
  // 2^26 vec4 over 64 lanes: 64 GiB of locals, refused before any of it is allocated
  budgetError(
    () => runCompute(computeModule(1 << 26, [64, 1, 1]), { workgroups: [1, 1, 1] }),
    /the locals of function main over 64 lanes needs 68719476736 bytes.*memory budget \(ExecBindings\.memoryBudget\)/,
  );
  budgetError(
    () => runCompute(computeModule(1024, [64, 1, 1]), { workgroups: [1, 1, 1], memoryBudget: (1 << 20) - 1 }),
    /memory budget/,
  );
  // 1024 vec4<u32> over 64 lanes is 1 MiB: a budget of 1 MiB takes it
  runCompute(computeModule(1024, [64, 1, 1]), { workgroups: [1, 1, 1], memoryBudget: 1 << 20 });
});

test('the executor checks its dispatch budget before the run starts', () => {
  budgetError(
    () => runCompute(computeModule(1, [1024, 1, 1]), { workgroups: [65535, 65535, 1] }),
    /a dispatch of 65535 × 65535 × 1 groups of 1024 threads is 4397912294400 lanes.*dispatch budget \(ExecBindings\.dispatchBudget\)/,
  );
  budgetError(
    () => runCompute(computeModule(1, [8, 1, 1]), { workgroups: [4, 1, 1], dispatchBudget: 16 }),
    /32 lanes, more than 16/,
  );
});

test('a run that does not end stops at its statement budget, named', () => {
  budgetError(
    () => runCompute(computeModule(1, [1, 1, 1], true), { workgroups: [1, 1, 1], budget: 1000 }),
    /statement budget \(ExecBindings\.budget\)/,
  );
});
