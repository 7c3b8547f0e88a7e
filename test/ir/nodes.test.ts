// The builder's own copies of IR nodes (src/ir/nodes.ts): each kind's copy is the literal it
// replaces, field for field and in the same order, with Object.prototype; kinds whose shape
// depends on optional fields are kept as made; a statement's origin stays last.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FunctionBuilder, ModuleBuilder } from '../../src/ir/builder.js';
import { copyExpr, ownExpr, ownStmt, letEntry, localEntry } from '../../src/ir/nodes.js';
import { mapChildren } from '../../src/wgsl/binding-arrays.js';
import type { Expr, Stmt } from '../../src/ir/ir.js';

// One sample of every kind: the mapped types make tsc refuse the file when ir.ts gains a kind
// these tables lack, so each kind is tested as either copied or kept.
const exprs: { [K in Expr['op']]: Extract<Expr, { op: K }> } = {
  literal: { op: 'literal', scalar: 'u32', bits: 7 },
  zero: { op: 'zero', type: 3 },
  constant: { op: 'constant', constant: 1 },
  compose: { op: 'compose', type: 2, parts: [0, 1] },
  splat: { op: 'splat', size: 4, value: 0 },
  swizzle: { op: 'swizzle', vector: 0, pattern: [2, 1] },
  arg: { op: 'arg', index: 1 },
  global: { op: 'global', global: 2 },
  local: { op: 'local', local: 0 },
  let: { op: 'let', let: 5 },
  access: { op: 'access', base: 0, index: 1 },
  member: { op: 'member', base: 0, index: 3 },
  load: { op: 'load', pointer: 0 },
  unary: { op: 'unary', fn: 'neg', arg: 0 },
  binary: { op: 'binary', fn: 'add', left: 0, right: 1 },
  select: { op: 'select', cond: 0, accept: 1, reject: 2 },
  math: { op: 'math', fn: 'abs', args: [0] },
  bitcast: { op: 'bitcast', to: 'f32', value: 0 },
  convert: { op: 'convert', to: 'i32', value: 0 },
  derivative: { op: 'derivative', axis: 'x', control: 'fine', value: 0 },
  sample: { op: 'sample', image: 0, sampler: 1, coord: 2, level: { kind: 'auto' } },
  image_load: { op: 'image_load', image: 0, coord: 1, level: 2 },
  image_query: { op: 'image_query', image: 0, query: 'size' },
  array_length: { op: 'array_length', pointer: 0 },
};
/** The kinds whose shape depends on optional fields: kept as made. */
const keptExprs = new Set<Expr['op']>(['sample', 'image_load', 'image_query']);

const stmts: { [K in Stmt['op']]: Extract<Stmt, { op: K }> } = {
  let: { op: 'let', let: 0, value: 1 },
  store: { op: 'store', pointer: 0, value: 1, origin: 4 },
  if: { op: 'if', cond: 0, accept: [], reject: [{ op: 'break' }], origin: [2, 3] },
  loop: { op: 'loop', body: [] },
  switch: { op: 'switch', selector: 0, cases: [{ values: [1], isDefault: true, body: [] }] },
  break: { op: 'break' },
  continue: { op: 'continue', origin: 1 },
  return: { op: 'return', value: 0 },
  kill: { op: 'kill' },
  barrier: { op: 'barrier', workgroup: true, storage: false, texture: false, execution: true, origin: 9 },
  atomic: { op: 'atomic', pointer: 0, fn: 'add', value: 1 },
  atomic64: { op: 'atomic64', low: 0, high: 1, fn: 'or', value: 2 },
  image_store: { op: 'image_store', image: 0, coord: 1, value: 2 },
  subgroup: { op: 'subgroup', fn: 'elect', result: 0 },
  call: { op: 'call', fn: 1, args: [0], result: 2 },
  emit: { op: 'emit', stream: 0 },
  cut: { op: 'cut', stream: 0 },
};
/** The statement kinds copied (the others are kept as made: their own optional fields, or no
 * fields at all to copy). */
const copiedStmts = new Set<Stmt['op']>(['let', 'store', 'if', 'loop', 'switch', 'barrier']);

/** A copy is the node: the same fields in the same order, Object.prototype, another object. */
function assertCopy(own: object, node: { op: string }): void {
  assert.notEqual(own, node, `${node.op}: a copy`);
  assert.deepEqual(own, node);
  assert.equal(JSON.stringify(own), JSON.stringify(node), `${node.op}: the same fields in the same order`);
  assert.equal(Object.getPrototypeOf(own), Object.prototype);
}

test('every expression kind is copied exactly, or kept as made when its shape has optional fields', () => {
  for (const e of Object.values(exprs) as Expr[]) {
    if (keptExprs.has(e.op)) assert.equal(ownExpr(e), e, `${e.op}: kept`);
    else assertCopy(ownExpr(e), e);
  }
});

test("copyExpr maps each operand in mapChildren's order and makes the node ownExpr makes, in one step", () => {
  for (const e of Object.values(exprs) as Expr[]) {
    const seen: number[] = [];
    const copy = copyExpr(e, (h) => (seen.push(h), h + 10));
    if (keptExprs.has(e.op)) {
      assert.equal(copy, undefined, `${e.op}: left to the caller`);
      assert.deepEqual(seen, [], `${e.op}: nothing mapped`);
      continue;
    }
    const order: number[] = [];
    const mapped = mapChildren(e, (h) => (order.push(h), h + 10));
    assert.ok(copy !== undefined, `${e.op}: copied`);
    assert.deepEqual(seen, order, `${e.op}: operands mapped in the same order`);
    assertCopy(copy, ownExpr(mapped));
  }
});

test('statements are copied with their origin last, or kept', () => {
  for (const s of Object.values(stmts) as Stmt[]) {
    if (copiedStmts.has(s.op)) assertCopy(ownStmt(s), s);
    else assert.equal(ownStmt(s), s, `${s.op}: kept`);
  }
  // a copied kind without its origin has none
  const plainStore: Stmt = { op: 'store', pointer: 0, value: 1 };
  assertCopy(ownStmt(plainStore), plainStore);
});

test('the builder keeps its own copies, stamped with its origin', () => {
  const m = new ModuleBuilder();
  const f = new FunctionBuilder(m, 'main');
  const x = f.local('x', m.scalar('u32'), f.u32(1));
  const e: Expr = { op: 'binary', fn: 'mul', left: f.u32(2), right: f.u32(3) };
  const h = f.expr(e);
  assert.notEqual(f.exprs[h], e);
  assert.deepEqual(f.exprs[h], e);
  f.origin = 12;
  const s: Stmt = { op: 'store', pointer: f.expr({ op: 'local', local: x }), value: h };
  f.stmt(s);
  assert.equal(s.origin, undefined, "the caller's statement is not changed");
  const fn = f.finish();
  assert.equal(JSON.stringify(fn.body), JSON.stringify([{ op: 'store', pointer: 4, value: 3, origin: 12 }]));
  assert.deepEqual(fn.locals, [{ name: 'x', type: 0, init: 0 }]);
  assert.deepEqual(localEntry('y', 1, undefined), { name: 'y', type: 1 });
  assert.deepEqual(letEntry('t'), { name: 't' });
});
