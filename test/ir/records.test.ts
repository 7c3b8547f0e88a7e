// Modules, functions, globals, locals and arguments made by one constructor per kind
// (src/ir/nodes.ts: makeModule, makeFunction, ownGlobal, ...), whoever makes them: the builder, or a
// WGSL or decompiler pass that rebuilds one with some fields changed. Each is the literal it
// replaces, field for field, with Object.prototype; and the lifted, lowered and decompiled modules of
// real programs hold one hidden class of module, one of function for each presence of a result, and
// one of global for each set of optional fields (V8's %HaveSameMap). The WGSL passes' expressions
// and statements are the builder's own too (ownExpr, ownBlock): one hidden class a kind. Made as
// literals and spreads, lowered DXIL modules held functions of eight hidden classes, globals of nine
// and stores of nine, which made every `f.exprs` or `s.pointer` read in type resolution and the
// emitter a megamorphic load (docs/benchmarks.md, the eighth session).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { parseContainer } from '../../src/container/container.js';
import { liftContainer } from '../../src/lift/lift.js';
import { lowerForWgsl } from '../../src/wgsl/passes.js';
import { decompile } from '../../src/decompile/index.js';
import {
  functionWith,
  globalWith,
  localWith,
  makeFunction,
  makeModule,
  moduleWith,
  ownArg,
  ownGlobal,
} from '../../src/ir/nodes.js';
import type { Function, Module } from '../../src/ir/ir.js';
import { walkStmts } from '../../src/decompile/ssa.js';
import { readBytes, walk } from '../helpers/shared.js';

setFlagsFromString('--allow-natives-syntax');
// (V8's natives syntax parses only in code made after the flag is set)
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

test('each record is the literal it replaces, with Object.prototype; the source is unchanged', () => {
  const f = makeFunction('main', [], [], [{ name: 'x' }], [{ op: 'arg', index: 0 }], [], { type: 1 });
  assert.deepStrictEqual(f, {
    name: 'main',
    args: [],
    locals: [],
    lets: [{ name: 'x' }],
    exprs: [{ op: 'arg', index: 0 }],
    body: [],
    result: { type: 1 },
  });
  assert.equal(Object.getPrototypeOf(f), Object.prototype);
  assert.equal('result' in makeFunction('f', [], [], [], [], []), false, 'no result key without a result');
  const g = functionWith(f, { body: [{ op: 'return' }] });
  assert.deepStrictEqual(g, { ...f, body: [{ op: 'return' }] });
  assert.deepStrictEqual(f.body, [], 'functionWith leaves its source as it was');

  const m = makeModule([], [], [], [f], []);
  assert.deepStrictEqual(m, { types: [], constants: [], globals: [], functions: [f], entryPoints: [] });
  assert.deepStrictEqual(moduleWith(m, { functions: [] }), { ...m, functions: [] });

  const full = {
    name: 'b',
    space: 'storage' as const,
    access: 'read' as const,
    type: 2,
    binding: { group: 0, binding: 3 },
  };
  assert.deepStrictEqual(ownGlobal(full), full);
  const element = globalWith(full, { name: 'b_1', type: 5, binding: { group: 0, binding: 4 } });
  assert.deepStrictEqual(element, { ...full, name: 'b_1', type: 5, binding: { group: 0, binding: 4 } });
  assert.ok(haveSameMap(element, ownGlobal(full)), 'a changed copy shares the hidden class of an own copy');
  assert.deepStrictEqual(globalWith(full, { binding: undefined }), full, 'no binding given keeps the old one');
  assert.deepStrictEqual(Object.keys(ownGlobal({ name: 'p', space: 'private', type: 1, init: 0 })), [
    'name',
    'space',
    'type',
    'init',
  ]);
  assert.deepStrictEqual(ownArg({ name: 'a', type: 1 }), { name: 'a', type: 1 });
  assert.deepStrictEqual(ownArg({ name: 'a', type: 1, binding: { kind: 'builtin', builtin: 'position' } }), {
    name: 'a',
    type: 1,
    binding: { kind: 'builtin', builtin: 'position' },
  });
  assert.deepStrictEqual(localWith({ name: 'l', type: 1 }, 4), { name: 'l', type: 1, init: 4 });
});

test('globals given with their optional fields in any order share one hidden class', () => {
  const a = ownGlobal({ name: 'a', space: 'storage', access: 'read', type: 1, binding: { group: 0, binding: 0 } });
  const b = ownGlobal({ name: 'b', space: 'storage', type: 2, binding: { group: 0, binding: 1 }, access: 'read' });
  assert.ok(haveSameMap(a, b));
  assert.ok(!haveSameMap(a, ownGlobal({ name: 'c', space: 'private', type: 1 })), 'the probe can tell two apart');
});

/** The containers of the committed lifter fixtures: SM4/5 (a geometry shader, resource arrays) and DXIL. */
function fixtures(): { name: string; bytes: Uint8Array }[] {
  const dxbc = walk(join(FIXTURES, 'lift')).filter((p) => p.endsWith('shader.dxbc'));
  const dxil = walk(join(FIXTURES, 'dxil-lift')).filter((p) => p.endsWith('.dxil'));
  return [...dxbc, ...dxil].map((p) => ({ name: p, bytes: readBytes(p) }));
}

/** Every fixture lifted, lowered and decompiled (what the lifter or decompiler refuses left out). */
function liftAll(): { modules: Module[]; readable: Module[]; fixtures: number } {
  const modules: Module[] = [];
  const readable: Module[] = [];
  let fixtureCount = 0;
  for (const { bytes } of fixtures()) {
    let lifted: Module;
    try {
      lifted = liftContainer(parseContainer(bytes)).module;
    } catch {
      continue; // a fixture the lifter refuses (tested as such elsewhere)
    }
    modules.push(lifted, lowerForWgsl(lifted));
    fixtureCount++;
    try {
      readable.push(decompile(bytes).readable.module);
    } catch {
      // a program the decompiler refuses
    }
  }
  return { modules, readable, fixtures: fixtureCount };
}

/** Objects by kind, each kind's distinct hidden classes (a representative of each). */
class Classes {
  readonly seen = new Map<string, object[]>();
  put(kind: string, o: object): void {
    const list = this.seen.get(kind) ?? [];
    if (!list.some((x) => haveSameMap(x, o))) list.push(o);
    this.seen.set(kind, list);
  }
  /** The kinds with more than one hidden class, and how many. */
  mixed(): string[] {
    return [...this.seen].filter(([, l]) => l.length > 1).map(([k, l]) => `${k}: ${l.length} hidden classes`);
  }
}

// Lifted once before the census: V8 widens a field's representation the first time it holds a value
// of another kind (a literal's bits from 2^31 up are heap numbers) and then gives new objects a new
// hidden class, so objects made before and after that moment differ. A batch sees that once.
liftAll();
const lifted = liftAll();

test('lifted, lowered and decompiled modules of the fixtures: one hidden class of module, of function a result presence, of global a key set', () => {
  const { modules, readable } = lifted;
  assert.ok(lifted.fixtures >= 30, `${lifted.fixtures} fixtures lifted`);
  // lowering rebuilt some of them (a geometry shader's emits, resource arrays' helpers)
  assert.ok(
    modules.some((m, i) => i % 2 === 1 && m !== modules[i - 1]),
    'some lowered module is a new one',
  );
  assert.ok(readable.length >= 20, `${readable.length} fixtures decompiled`);
  const classes = new Classes();
  for (const m of [...modules, ...readable]) {
    classes.put('module', m);
    for (const f of m.functions as Function[]) {
      classes.put(`function${f.result ? ' with a result' : ''}`, f);
      for (const a of f.args) classes.put(`argument ${Object.keys(a).join(',')}`, a);
      for (const l of f.locals) classes.put(`local ${Object.keys(l).join(',')}`, l);
      for (const l of f.lets) classes.put('let', l);
    }
    for (const g of m.globals) classes.put(`global ${Object.keys(g).join(',')}`, g);
  }
  assert.deepEqual(classes.mixed(), []);
  assert.ok(
    classes.seen.has('function with a result') && classes.seen.has('function'),
    [...classes.seen.keys()].join('; '),
  );
});

/** The kinds the builder makes by a constructor of their own (nodes.ts; the rest are kept as made). */
const KEPT_EXPRS = new Set(['sample', 'image_load', 'image_query']);
const OWN_STMTS = new Set(['let', 'store', 'if', 'loop', 'switch', 'barrier']);

test('lifted and lowered modules of the fixtures: one hidden class for each kind of expression and statement the builder makes', () => {
  const classes = new Classes();

  let lowered = 0;
  lifted.modules.forEach((m, i) => {
    if (i % 2 === 1 && m !== lifted.modules[i - 1]) lowered++;
    for (const f of m.functions) {
      for (const e of f.exprs)
        if (!KEPT_EXPRS.has(e.op)) classes.put(`expression ${e.op} {${Object.keys(e).join(',')}}`, e);
      walkStmts(f.body, (s) => {
        if (OWN_STMTS.has(s.op)) classes.put(`statement ${s.op} {${Object.keys(s).join(',')}}`, s);
      });
    }
  });
  assert.ok(lowered >= 3, `${lowered} modules rebuilt by lowering`);
  assert.deepEqual(classes.mixed(), []);
});
