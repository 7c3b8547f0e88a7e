// The differential's verdicts and list checks on made-up outputs (no GPU needed): agreement compares
// at least one word of every output and says how many; a missing or short output, or none at all, is
// never agreement; each list reason's claim fails when its figure does not hold.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareOutputs, ulpDistance, type Outcome } from './diff-harness.js';
import { diffCheck, type DiffFailure } from './diff-lists.js';
import type { KnownEntry } from '../helpers/known.js';

const w = (...x: number[]): Uint32Array => Uint32Array.from(x);
const f32 = (x: number): number => new Uint32Array(Float32Array.of(x).buffer)[0]!;

test('agreement counts every word of every output', () => {
  const v = compareOutputs([
    { name: '3:0', exec: w(1, 2, 3), gpu: w(1, 2, 3) },
    { name: 'SV_Target0', exec: w(0x7fc00000), gpu: w(0x7fc00001) }, // two NaNs agree
  ]);
  assert.equal(v.kind, 'agree');
  assert.ok(v.kind === 'agree');
  assert.equal(v.words, 4);
  assert.deepEqual(v.outputs, [
    { name: '3:0', words: 3 },
    { name: 'SV_Target0', words: 1 },
  ]);
});

test('a missing, short or empty output is never agreement; no output at all is not run', () => {
  const missing = compareOutputs([
    { name: '3:0', exec: w(1), gpu: w(1) },
    { name: 'SV_Depth', exec: w(1), gpu: undefined },
  ]);
  assert.deepEqual(missing, { kind: 'fail', reason: 'outputs not compared: SV_Depth: no output from Dawn' });
  const short = compareOutputs([{ name: '3:0', exec: w(1, 2), gpu: w(1) }]);
  assert.equal(short.kind, 'fail');
  const empty = compareOutputs([{ name: '3:0', exec: w(), gpu: w() }]);
  assert.equal(empty.kind, 'fail');
  assert.equal(compareOutputs([]).kind, 'skip');
});

test('differences are measured: the largest ULP distance, and whether all are the sign of zero', () => {
  assert.equal(ulpDistance(f32(1), f32(1)), 0);
  assert.equal(ulpDistance(0x3f800000, 0x3f800001), 1);
  assert.equal(ulpDistance(0x00000001, 0x80000001), 2); // across zero
  assert.equal(ulpDistance(0x80000000, 0), 0);
  assert.equal(ulpDistance(0x7fc00000, 0x3f800000), Infinity);
  const v = compareOutputs([{ name: 'o', exec: w(0x3f800000, 0x80000000, 5), gpu: w(0x3f800003, 0, 5) }]);
  assert.ok(v.kind === 'differ');
  assert.equal(v.differing, 2);
  assert.equal(v.maxUlp, 3);
  assert.equal(v.zeroSign, false);
  const z = compareOutputs([{ name: 'o', exec: w(0x80000000, 0), gpu: w(0, 0x80000000) }]);
  assert.ok(z.kind === 'differ' && z.zeroSign && z.maxUlp === 0);
});

const entry = (reason: string, bound?: string): KnownEntry => ({ name: 'x', reason, bound, line: 1 });
const failing = (o: Outcome & { smallVerdict?: string }): DiffFailure => ({
  message: 'message' in o ? o.message : '',
  result: o,
});
const differ = (maxUlp: number, differing = 1, zeroSign = false, smallVerdict?: string): DiffFailure => {
  const compared = { words: 256, outputs: [{ name: 'o', words: 256 }], differing, first: '', maxUlp, zeroSign };
  return failing({ kind: 'fail', message: 'differ', compared, ...(smallVerdict ? { smallVerdict } : {}) });
};

test('list reasons: each claim is checked with its bound', () => {
  assert.equal(diffCheck(entry('precision', '4872'), differ(4872)), undefined);
  assert.match(diffCheck(entry('precision', '4872'), differ(4873))!, /past its bound/);
  assert.match(diffCheck(entry('precision'), differ(1))!, /needs its bound/);
  assert.match(diffCheck(entry('precision', '9'), failing({ kind: 'fail', message: 'threw' }))!, /no differing/);
  const race: DiffFailure = failing({ kind: 'race', message: 'r', where: 'buffer 3:0 word 4' });
  assert.equal(diffCheck(entry('race', 'buffer 3:0 word 4'), race), undefined);
  assert.match(diffCheck(entry('race', 'buffer 3:0 word 5'), race)!, /not its bound/);
  assert.match(diffCheck(entry('race', 'buffer 3:0 word 4'), differ(1))!, /is none/);
  assert.equal(diffCheck(entry('zero-sign', '59'), differ(0, 59, true)), undefined);
  assert.match(diffCheck(entry('zero-sign', '59'), differ(0, 59, false))!, /more than that/);
  assert.equal(diffCheck(entry('descriptor-range'), differ(1e9, 3, false, 'agree (256 words)')), undefined);
  assert.match(diffCheck(entry('descriptor-range'), differ(1e9, 3, false, 'differ'))!, /does not agree/);
  const wg = failing({ kind: 'fail', message: 'Dawn: pipeline: ...', limit: 1024 });
  assert.equal(diffCheck(entry('workgroup-limit', '1024'), wg), undefined);
  assert.match(diffCheck(entry('workgroup-limit', '768'), wg)!, /not its bound/);
  const dawn = failing({ kind: 'fail', message: "Dawn: compile: error 1:2: 'workgroupBarrier' must only be called" });
  assert.equal(diffCheck(entry('dawn', 'must only be called'), dawn), undefined);
  assert.match(diffCheck(entry('dawn', 'exceeds'), dawn)!, /did not refuse/);
  assert.match(diffCheck(entry('speed', '1'), dawn)!, /none the differential checks/);
});
