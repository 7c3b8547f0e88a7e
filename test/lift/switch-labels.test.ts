// The SM4/5 lifter's switch labels (src/lift/flow.ts): each case value once and one default a switch
// (the IR's switch, like WGSL's), labels with no statement between them one case, and a switch of
// thousands of cases lifted case for case. The checks of the labels were a walk of every label before
// at each label (a switch of 16,000 cases took 36 s to lift); they are one look-up a label now, and
// these tests hold what they refuse and what they keep.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lift } from '../../src/lift/lift.js';
import { isIridiaError } from '../../src/errors.js';
import { runCompute } from '../../src/exec/index.js';
import type { Stmt } from '../../src/ir/ir.js';
import type { Program } from '../../src/ir/program.js';
import { OP, cb, computeProgram, imm, ins, r, rs, storeRaw } from '../exec/asm.js';

/** switch (cb0[0].x) { labels and bodies }, then u0[0] = r1.x. */
function program(cases: readonly number[][]): Uint8Array {
  return computeProgram([
    ins(OP.mov, [r(1, 'x'), imm(999)]),
    ins(OP.switch, [cb(0, 0, 'x')]),
    ...cases,
    ins(OP.endswitch),
    storeRaw(imm(0), rs(1, 'x'), 'x'),
  ]);
}

const body = (v: number): number[][] => [ins(OP.mov, [r(1, 'x'), imm(v)]), ins(OP.break)];

function theSwitch(p: Program): Extract<Stmt, { op: 'switch' }> {
  const f = p.module.functions[p.module.entryPoints[0]!.function]!;
  const found: Extract<Stmt, { op: 'switch' }>[] = [];
  const walk = (b: readonly Stmt[]): void => {
    for (const s of b) {
      if (s.op === 'switch') found.push(s);
      if (s.op === 'if') {
        walk(s.accept);
        walk(s.reject);
      }
      if (s.op === 'loop') walk(s.body);
    }
  };
  walk(f.body);
  assert.equal(found.length, 1);
  return found[0]!;
}

/** What the program stores for selector `sel` (the CPU executor). */
function result(p: Program, sel: number): number {
  const cbw = new Uint32Array(32);
  cbw[0] = sel;
  const out = new Uint32Array(4);
  runCompute(p, { workgroups: [1, 1, 1], buffers: { '0:0': cbw, '3:0': out }, budget: 1 << 24 });
  return out[0]!;
}

function refusedWith(bytes: Uint8Array, text: string): void {
  assert.throws(
    () => lift(bytes),
    (e: unknown) => isIridiaError(e) && e.code === 'E602_LIFT_INVALID' && e.message.includes(text),
  );
}

test('a case value twice in one switch is refused, in another case or under the same body', () => {
  refusedWith(
    program([ins(OP.case, [imm(1)]), ...body(10), ins(OP.case, [imm(1)]), ...body(20)]),
    'case 1 appears twice',
  );
  refusedWith(program([ins(OP.case, [imm(7)]), ins(OP.case, [imm(7)]), ...body(10)]), 'case 7 appears twice');
  // the same values in two switches one after the other are two switches' own
  const two = computeProgram([
    ins(OP.switch, [cb(0, 0, 'x')]),
    ins(OP.case, [imm(1)]),
    ...body(10),
    ins(OP.endswitch),
    ins(OP.switch, [cb(0, 0, 'x')]),
    ins(OP.case, [imm(1)]),
    ...body(20),
    ins(OP.endswitch),
    storeRaw(imm(0), rs(1, 'x'), 'x'),
  ]);
  assert.equal(result(lift(two), 1), 20);
});

test('a second default in one switch is refused', () => {
  refusedWith(program([ins(OP.default), ...body(10), ins(OP.default), ...body(20)]), 'two defaults');
  refusedWith(program([ins(OP.default), ins(OP.case, [imm(2)]), ins(OP.default), ...body(10)]), 'two defaults');
});

test('labels with no statement between them are one case; a switch without a default gets an empty one', () => {
  const p = lift(
    program([ins(OP.case, [imm(2)]), ins(OP.case, [imm(3)]), ...body(20), ins(OP.case, [imm(5)]), ...body(50)]),
  );
  const s = theSwitch(p);
  assert.deepEqual(
    s.cases.map((c) => [c.values, c.isDefault, c.body.length > 0]),
    [
      [[2, 3], false, true],
      [[5], false, true],
      [[], true, false],
    ],
  );
  assert.deepEqual(
    [2, 3, 5, 4].map((sel) => result(p, sel)),
    [20, 20, 50, 999],
  );
});

test('a switch of 4,000 cases keeps every case with its own value and body, in order', () => {
  const n = 4000;
  const cases: number[][] = [];
  for (let k = 0; k < n; k++) cases.push(ins(OP.case, [imm(k * 3)]), ...body(k));
  cases.push(ins(OP.default), ...body(123456));
  const p = lift(program(cases));
  const s = theSwitch(p);
  assert.equal(s.cases.length, n + 1);
  s.cases.slice(0, n).forEach((c, k) => assert.deepEqual([c.values, c.isDefault], [[k * 3], false], `case ${k}`));
  assert.equal(s.cases[n]!.isDefault, true);
  for (const k of [0, 1, 1999, n - 1]) assert.equal(result(p, k * 3), k);
  assert.equal(result(p, 1), 123456);
});
