// The decompiler's IR→IR passes (src/decompile): the readable module validates, keeps no register
// locals in a straight-line program, has fewer bitcasts than the lifted one, and computes the same
// words on the executor (test/decompile/harness.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { REPO, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { readableProgram } from '../../src/decompile/passes.js';
import { printModule } from '../../src/ir/print.js';
import { equivalence } from './harness.js';

const example = (): Uint8Array => new Uint8Array(readFileSync(join(REPO, 'examples/vertex-color.dxbc')));
const count = (text: string, word: string): number => text.split(word).length - 1;

test('vertex-color: registers become values, bitcasts of inputs vanish, outputs are the same words', () => {
  const p = lift(example());
  const r = readableProgram(p);
  assert.deepEqual(validateModule(r.module), []);
  const fn = r.module.functions[0]!;
  assert.deepEqual(
    fn.locals.map((l) => l.name),
    [],
    'r0, v and o are all values',
  );
  const before = printModule(p.module);
  const after = printModule(r.module);
  assert.ok(count(after, 'bitcast') < count(before, 'bitcast'), after);
  assert.ok(!after.includes('bitcast<u32>(POSITION0)'), after);
  const v = equivalence(p, r);
  assert.equal(v.kind, 'same', JSON.stringify(v));
});

test('without folding each definition is one let, and the words are still the same', () => {
  const p = lift(example());
  const r = readableProgram(p, { fold: false });
  assert.deepEqual(validateModule(r.module), []);
  const lets = r.module.functions[0]!.body.filter((s) => s.op === 'let').length;
  assert.ok(lets >= 4, `the four dot products stay lets: ${lets}`);
  assert.equal(equivalence(p, r).kind, 'same');
});

// A let inlined into another let in the same round is evaluated where that one is read: what it
// reads counts there (a load of a local that an `if` in between writes must not move past it).
test(
  'folding does not move a load past a write through another let folded the same round',
  { skip: skipUnlessShared('oracle/own/rdef_tbuffer') },
  () => {
    const f = join(sharedPath('oracle/own/rdef_tbuffer')!, 'main-ps_5_0/shader.dxbc');
    const p = lift(new Uint8Array(readFileSync(f)));
    assert.equal(equivalence(p, readableProgram(p), [1]).kind, 'same');
  },
);

const fixture = (path: string): Uint8Array => new Uint8Array(readFileSync(join(REPO, 'test/fixtures', path)));

// Type recovery: a value the lifter binds as bitcast<u32>(x) is bound as x (the bitcast moves to its
// reads and cancels against the reads' own), a kept local mostly written and read as floats is a
// float local, and a register whose lanes hold different types is split into a local a lane; none
// changes a word.
test('a let of bitcast<u32>(x) holds x, and a local of float values is a float local (same words)', () => {
  const p = lift(fixture('oracle/own/ps_flow_loops/main-ps_5_0/shader.dxbc'));
  const r = readableProgram(p);
  assert.deepEqual(validateModule(r.module), []);
  const fn = r.module.functions[0]!;
  const castLets = fn.body.filter((s) => {
    if (s.op !== 'let') return false;
    const e = fn.exprs[s.value]!;
    return e.op === 'bitcast' && fn.exprs[e.value]!.op !== 'let' && fn.exprs[e.value]!.op !== 'arg';
  });
  assert.deepEqual(castLets, [], 'no let is bound to a bitcast of a computed value');
  const localTypes = fn.locals.map((l) => r.module.types[l.type]!);
  assert.ok(
    localTypes.some((t) => t.kind === 'vector' && t.scalar === 'f32'),
    `a merged register of float values is a float local: ${JSON.stringify(localTypes)}`,
  );
  // r0 holds a uint counter and an int one: its lanes are split, each a scalar local of its own
  const lanes = fn.locals.filter((l) => /^merged0_[xyzw]$/.test(l.name));
  assert.ok(lanes.length >= 2, `the counter register's lanes: ${fn.locals.map((l) => l.name).join(', ')}`);
  assert.ok(lanes.every((l) => r.module.types[l.type]!.kind === 'scalar'));
  assert.equal(equivalence(p, r, [1, 2]).kind, 'same');
});
