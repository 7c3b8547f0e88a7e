// Modules, functions, globals, locals and arguments made by one constructor per kind
// (src/ir/nodes.ts: makeModule, makeFunction, ownGlobal, ...), whoever makes them: the builder, or a
// WGSL or decompiler pass that rebuilds one with some fields changed. Each is the literal it replaces, field for
// field, with Object.prototype; and the lifted and lowered modules of real programs hold one hidden
// class of module, one of function for each presence of a result, and one of global for each set of
// optional fields (V8's %HaveSameMap). Made as literals and spreads, lowered DXIL modules held
// functions of eight hidden classes and globals of nine, which made every `f.exprs` read in type
// resolution and the emitter a megamorphic load (docs/benchmarks.md, the eighth session).

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
  localWith,
  makeFunction,
  makeModule,
  moduleWith,
  ownArg,
  ownGlobal,
} from '../../src/ir/nodes.js';
import type { Function, Module } from '../../src/ir/ir.js';
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

test('lifted, lowered and decompiled modules of the fixtures: one hidden class of module, of function a result presence, of global a key set', () => {
  const modules: Module[] = [];
  const names: string[] = [];
  const readable: Module[] = [];
  for (const { name, bytes } of fixtures()) {
    let lifted: Module;
    try {
      lifted = liftContainer(parseContainer(bytes)).module;
    } catch {
      continue; // a fixture the lifter refuses (tested as such elsewhere)
    }
    modules.push(lifted, lowerForWgsl(lifted));
    names.push(name);
    try {
      readable.push(decompile(bytes).readable.module);
    } catch {
      // a program the decompiler refuses
    }
  }
  assert.ok(modules.length >= 50, `${modules.length / 2} fixtures lifted`);
  // lowering rebuilt some of them (a geometry shader's emits, resource arrays' helpers)
  assert.ok(
    modules.some((m, i) => i % 2 === 1 && m !== modules[i - 1]),
    `some lowered module is a new one (${names.length} fixtures)`,
  );
  const classes = new Map<string, object[]>();
  const put = (kind: string, o: object): void => {
    const seen = classes.get(kind) ?? [];
    if (!seen.some((x) => haveSameMap(x, o))) seen.push(o);
    classes.set(kind, seen);
  };
  assert.ok(readable.length >= 20, `${readable.length} fixtures decompiled`);
  for (const m of [...modules, ...readable]) {
    put('module', m);
    for (const f of m.functions as Function[]) {
      put(`function${f.result ? ' with a result' : ''}`, f);
      for (const a of f.args) put(`argument ${Object.keys(a).join(',')}`, a);
      for (const l of f.locals) put(`local ${Object.keys(l).join(',')}`, l);
    }
    for (const g of m.globals) put(`global ${Object.keys(g).join(',')}`, g);
  }
  for (const [kind, seen] of classes) assert.equal(seen.length, 1, `${kind}: ${seen.length} hidden classes`);
  assert.ok(classes.has('function with a result') && classes.has('function'), [...classes.keys()].join('; '));
});
