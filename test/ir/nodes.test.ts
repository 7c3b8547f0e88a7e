// The builder's own copies of IR nodes (src/ir/nodes.ts): each kind's copy is the literal it
// replaces, field for field and in the same order, with Object.prototype; kinds whose shape
// depends on optional fields are kept as made; a statement's origin stays last.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FunctionBuilder, ModuleBuilder } from '../../src/ir/builder.js';
import { ownExpr, ownStmt, letEntry, localEntry } from '../../src/ir/nodes.js';
import type { Expr, Stmt } from '../../src/ir/ir.js';

const copied: Expr[] = [
  { op: 'literal', scalar: 'u32', bits: 7 },
  { op: 'zero', type: 3 },
  { op: 'constant', constant: 1 },
  { op: 'compose', type: 2, parts: [0, 1] },
  { op: 'splat', size: 4, value: 0 },
  { op: 'swizzle', vector: 0, pattern: [2, 1] },
  { op: 'arg', index: 1 },
  { op: 'global', global: 2 },
  { op: 'local', local: 0 },
  { op: 'let', let: 5 },
  { op: 'access', base: 0, index: 1 },
  { op: 'member', base: 0, index: 3 },
  { op: 'load', pointer: 0 },
  { op: 'unary', fn: 'neg', arg: 0 },
  { op: 'binary', fn: 'add', left: 0, right: 1 },
  { op: 'select', cond: 0, accept: 1, reject: 2 },
  { op: 'math', fn: 'abs', args: [0] },
  { op: 'bitcast', to: 'f32', value: 0 },
  { op: 'convert', to: 'i32', value: 0 },
  { op: 'derivative', axis: 'x', control: 'fine', value: 0 },
  { op: 'array_length', pointer: 0 },
];

test('every expression kind without optional fields is copied exactly', () => {
  for (const e of copied) {
    const own = ownExpr(e);
    assert.notEqual(own, e, `${e.op}: a copy`);
    assert.deepEqual(own, e);
    assert.equal(JSON.stringify(own), JSON.stringify(e), `${e.op}: the same fields in the same order`);
    assert.equal(Object.getPrototypeOf(own), Object.prototype);
  }
  // every kind of Expr is either copied or kept: the copied list names each copied kind once
  assert.equal(new Set(copied.map((e) => e.op)).size, copied.length);
});

test('expression kinds whose shape depends on optional fields are kept as made', () => {
  const kept: Expr[] = [
    { op: 'sample', image: 0, sampler: 1, coord: 2, level: { kind: 'auto' } },
    { op: 'image_load', image: 0, coord: 1, level: 2 },
    { op: 'image_query', image: 0, query: 'size' },
  ];
  for (const e of kept) assert.equal(ownExpr(e), e, e.op);
});

test('statements are copied with their origin last, or kept', () => {
  const copiedStmts: Stmt[] = [
    { op: 'let', let: 0, value: 1 },
    { op: 'store', pointer: 0, value: 1, origin: 4 },
    { op: 'if', cond: 0, accept: [], reject: [{ op: 'break' }], origin: [2, 3] },
    { op: 'loop', body: [] },
    { op: 'switch', selector: 0, cases: [{ values: [1], isDefault: true, body: [] }] },
    { op: 'barrier', workgroup: true, storage: false, texture: false, execution: true, origin: 9 },
  ];
  for (const s of copiedStmts) {
    const own = ownStmt(s);
    assert.notEqual(own, s, `${s.op}: a copy`);
    assert.equal(JSON.stringify(own), JSON.stringify(s), `${s.op}: the same fields in the same order`);
    assert.equal(Object.getPrototypeOf(own), Object.prototype);
  }
  const keptStmts: Stmt[] = [
    { op: 'return' },
    { op: 'return', value: 0 },
    { op: 'break' },
    { op: 'atomic', pointer: 0, fn: 'add', value: 1 },
    { op: 'call', fn: 1, args: [0], result: 2 },
    { op: 'emit', stream: 0 },
  ];
  for (const s of keptStmts) assert.equal(ownStmt(s), s, s.op);
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
