// Statement origins given to copies and fresh statements (src/ir/ir.ts copyWithOrigin, originated):
// the same object a spread would give, key for key and in order, and made without V8's slow path for
// a spread that adds a key, which builds a new hidden class for every copy (docs/benchmarks.md,
// the seventh session). The hidden classes are compared with V8's own %HaveSameMap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { copyWithOrigin, originated, type Stmt } from '../../src/ir/ir.js';

setFlagsFromString('--allow-natives-syntax');
// (V8's natives syntax parses only in code made after the flag is set)
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** A statement as a pass copies it: a clone by spread, its origin not set. */
const cloned = (k: number): Stmt => ({ ...{ op: 'let' as const, let: k, value: k + 1 } });

test('copyWithOrigin: the spread it replaces, key for key and in order; the source unchanged', () => {
  const s: Stmt = { op: 'store', pointer: 1, value: 2 };
  const c = copyWithOrigin(s, [3, 5]);
  assert.deepEqual(c, { ...s, origin: [3, 5] });
  assert.deepEqual(Object.keys(c), ['op', 'pointer', 'value', 'origin']);
  assert.equal('origin' in s, false);
  const o: Stmt = { op: 'store', pointer: 1, origin: 4, value: 2 };
  const r = copyWithOrigin(o, 9);
  assert.deepEqual(Object.keys(r), ['op', 'pointer', 'origin', 'value'], 'a present origin keeps its place');
  assert.equal(r.origin, 9);
  assert.equal(o.origin, 4);
});

test('originated stamps a fresh statement in place, and leaves it for no origin', () => {
  const s: Stmt = { op: 'let', let: 1, value: 2 };
  assert.equal(originated(s, undefined), s);
  assert.equal('origin' in s, false);
  assert.equal(originated(s, 7), s);
  assert.equal(s.origin, 7);
});

/** Whether `copy`, run long enough for V8's inline caches and compiler to settle, still gives its
 * last two results one hidden class (a spread that adds a key does, at first, and not once warm). */
function settledOnOneClass(copy: (k: number) => object): boolean {
  let a: object = {};
  let b: object = {};
  for (let k = 0; k < 5000; k++) {
    a = b;
    b = copy(k);
  }
  return haveSameMap(a, b);
}

test('copies given an origin share one hidden class, where a spread adding the key makes one each', () => {
  // what this guards against, on this V8 (informative: a later V8 may share the class)
  const spread = settledOnOneClass((k) => ({ ...cloned(k), origin: k }));
  console.log(`  a spread adding origin, warm: ${spread ? 'one hidden class' : 'a new hidden class each copy'}`);
  assert.ok(
    settledOnOneClass((k) => copyWithOrigin(cloned(k), k)),
    'copyWithOrigin',
  );
  assert.ok(
    settledOnOneClass((k) => originated({ op: 'let', let: k, value: k + 1 }, k)),
    'originated',
  );
});
