// ScratchList (src/ir/scratch.ts): the lists by expression that the WGSL emitter lends for one
// function and takes back, kept for the next function instead of made anew (issue 17: a new list
// of over 16K entries is in V8's large-object space, and its first writes fault its pages in). The
// list must come back empty, never be lent twice at once, and never hold on to what a function made;
// and a program's WGSL must not depend on which programs were emitted before it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScratchList } from '../../src/ir/scratch.js';
import { UnsupportedError } from '../../src/errors.js';
import { lift } from '../../src/lift/lift.js';
import { emitWgsl } from '../../src/wgsl/index.js';

test('a list comes back cleared, is lent to one taker at a time, and is kept only within its bound', () => {
  const pool = new ScratchList<string>(100);
  const a = pool.take(10);
  assert.ok(a.length >= 10);
  for (let i = 0; i < 10; i++) assert.equal(a[i], undefined);
  a.fill('x', 0, 10);
  const b = pool.take(10);
  assert.notEqual(b, a, 'a second taker while the first holds it gets its own list');
  b.fill('y', 0, 10);
  pool.give(a, 10);
  pool.give(b, 10);
  assert.deepStrictEqual([...b].slice(0, 10), new Array(10).fill(undefined), 'a list not kept is cleared too');
  const c = pool.take(5);
  assert.equal(c, a, 'the list given back first is kept (the second is no longer)');
  assert.deepStrictEqual([...c], new Array(10).fill(undefined), 'every entry the function wrote is cleared');
  assert.notEqual(pool.take(5), c, 'while lent it is not lent again');
  pool.give(c, 5);
  const longer = pool.take(20);
  assert.notEqual(longer, c, 'a list too short for the taker is not lent');
  pool.give(longer, 20);
  assert.equal(pool.take(15), longer, 'the longest list given back is the one kept');

  const huge = pool.take(101);
  huge.fill('z', 0, 101);
  pool.give(huge, 101);
  assert.ok(
    huge.every((x) => x === undefined),
    'a list over the bound is cleared, though not kept',
  );
  assert.notEqual(pool.take(101), huge, 'a list over the bound is not kept');
});

test("a program's WGSL is the same whichever programs were emitted before it", () => {
  const root = join(import.meta.dirname, '..', 'fixtures', 'lift');
  const files: string[] = [];
  const first: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name === 'shader.dxbc') {
        let text: string;
        try {
          text = emitWgsl(lift(new Uint8Array(readFileSync(path))));
        } catch (e) {
          if (e instanceof UnsupportedError) continue; // a refusal (tested elsewhere); anything else fails
          throw e;
        }
        files.push(path);
        first.push(text);
      }
    }
  };
  visit(root);
  assert.ok(files.length >= 15, `fixtures that lift: ${files.length}`);
  // Emitted first in the order of their paths; then largest first and smallest first, so that each
  // function is lent the lists that a larger, then a smaller, function gave back.
  const order = files.map((_, i) => i).sort((x, y) => first[y]!.length - first[x]!.length);
  for (const i of [...order, ...order.reverse()]) {
    const file = files[i]!;
    assert.equal(emitWgsl(lift(new Uint8Array(readFileSync(file)))), first[i], file);
  }
});
