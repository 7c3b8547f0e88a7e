// The IR on hand-built modules: the validator refuses each kind of mistake it promises to catch,
// the printer shows literals exactly, and the WGSL emitter's rules (namer, literals, constant
// expressions, temporaries) hold.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FunctionBuilder, ModuleBuilder } from '../../src/ir/builder.js';
import { validateModule } from '../../src/ir/validate.js';
import { printModule } from '../../src/ir/print.js';
import { emitModuleWgsl, emitModuleWgslWithMap, f32Text } from '../../src/wgsl/emit.js';
import { Namer } from '../../src/wgsl/namer.js';
import { exposedGc, youngGrowth } from '../helpers/young.js';
import {
  blockHolds,
  forgetBlockHolds,
  HOLDS_BARRIER,
  HOLDS_EMIT,
  HOLDS_SUBGROUP,
  type Block,
  type Module,
} from '../../src/ir/ir.js';

/** A compute entry point `main` with one u32 local `x`, built by `body`. */
function computeModule(body: (f: FunctionBuilder, m: ModuleBuilder, x: number) => void): Module {
  const m = new ModuleBuilder();
  const f = new FunctionBuilder(m, 'main');
  const x = f.local('x', m.scalar('u32'));
  body(f, m, x);
  const id = m.addFunction(f.finish());
  m.entryPoints.push({ name: 'main', stage: 'compute', function: id, workgroupSize: [1, 1, 1] });
  return m.finish();
}

test('a well-formed module validates and prints', () => {
  const m = computeModule((f, _m, x) => {
    const p = f.expr({ op: 'local', local: x });
    const v = f.bind('sum', f.expr({ op: 'binary', fn: 'add', left: f.u32(1), right: f.u32(2) }));
    f.stmt({ op: 'store', pointer: p, value: v });
  });
  assert.deepEqual(validateModule(m), []);
  const text = printModule(m);
  assert.match(text, /let %sum\.0 = add\(1u, 2u\)/);
  assert.match(text, /store x = %sum\.0/);
});

test('origins: the builder stamps them, the validator checks them, the printer shows them only when asked, the WGSL map carries them', () => {
  const m = computeModule((f, _m, x) => {
    const p = f.expr({ op: 'local', local: x });
    f.origin = 7;
    const v = f.bind('sum', f.expr({ op: 'binary', fn: 'add', left: f.u32(1), right: f.u32(2) }));
    f.origin = 8;
    f.open();
    f.stmt({ op: 'store', pointer: p, value: v });
    f.stmt({ op: 'break', origin: [3, 9] }); // its own origin wins
    f.origin = undefined;
    f.stmt({ op: 'loop', body: f.close(), origin: 2 });
  });
  assert.deepEqual(validateModule(m), []);
  const body = m.functions[0]!.body;
  assert.deepEqual(
    body.map((s) => s.origin),
    [7, 2],
  );
  const plain = printModule(m);
  assert.doesNotMatch(plain, /@\d/);
  const shown = printModule(m, { origins: true });
  assert.match(shown, /let %sum\.0 = add\(1u, 2u\) @7/);
  assert.match(shown, /loop \{ @2\n\s+store x = %sum\.0 @8\n\s+break @3,9/);
  assert.equal(shown.replace(/ @[\d,]+/g, ''), plain);
  const { text, origins } = emitModuleWgslWithMap(m);
  assert.equal(text, emitModuleWgsl(m));
  const lines = text.split('\n');
  const at = (re: RegExp): readonly number[] => origins[lines.findIndex((l) => re.test(l))]!;
  assert.deepEqual(at(/let sum/), [7]);
  assert.deepEqual(at(/^\s*loop \{/), [2]);
  assert.deepEqual(at(/x = sum/), [8]);
  assert.deepEqual(at(/break;/), [3, 9]);
  assert.deepEqual(at(/^fn main/), []);
  // Bad origins are refused by name.
  for (const bad of [-1, 1.5, [], [4, 4], [5, 2]] as const) {
    const mm = computeModule((f) => f.stmt({ op: 'kill', origin: bad as unknown as number }));
    assert.match(validateModule(mm).join('\n'), /origin/, JSON.stringify(bad));
  }
});

test('the validator refuses a let used outside its block', () => {
  const m = computeModule((f, _m, x) => {
    f.open();
    const v = f.bind('inner', f.u32(5));
    const inner = f.close();
    f.stmt({ op: 'if', cond: f.bool(true), accept: inner, reject: [] });
    f.stmt({ op: 'store', pointer: f.expr({ op: 'local', local: x }), value: v });
  });
  const problems = validateModule(m);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /let 0 \(inner\) used out of its scope/);
});

test('the validator refuses a mistyped store, a non-bool condition and a stray break', () => {
  const m = computeModule((f, _m, x) => {
    f.stmt({ op: 'store', pointer: f.expr({ op: 'local', local: x }), value: f.f32(1) });
    f.stmt({ op: 'if', cond: f.u32(1), accept: [], reject: [] });
    f.stmt({ op: 'break' });
  });
  const problems = validateModule(m).join('\n');
  assert.match(problems, /store of f32 to u32/);
  assert.match(problems, /if condition is not a bool scalar/);
  assert.match(problems, /break outside a loop or switch/);
});

test('the validator refuses an operand that is not an earlier expression, and a binding used twice', () => {
  const m = new ModuleBuilder();
  const t = m.type({ kind: 'sampler', comparison: false });
  m.addGlobal({ name: 's0', space: 'handle', type: t, binding: { group: 2, binding: 0 } });
  m.addGlobal({ name: 's1', space: 'handle', type: t, binding: { group: 2, binding: 0 } });
  const f = new FunctionBuilder(m, 'f');
  assert.equal(f.binary('add', 1, 1), 0); // an operand the builder does not check
  assert.equal(f.u32(0), 1);
  f.stmt({ op: 'let', let: f.newLet('bad'), value: 0 });
  m.addFunction(f.finish());
  const problems = validateModule(m.finish()).join('\n');
  assert.match(problems, /s1: binding @group\(2\) @binding\(0\) also used by s0/);
  assert.match(problems, /operand %1 is not an earlier expression/);
});

test('the validator refuses a switch without exactly one default and repeated case values', () => {
  const m = computeModule((f) => {
    f.stmt({
      op: 'switch',
      selector: f.u32(3),
      cases: [
        { values: [1, 2], isDefault: false, body: [] },
        { values: [2], isDefault: false, body: [] },
      ],
    });
  });
  const problems = validateModule(m).join('\n');
  assert.match(problems, /case value 2 repeated/);
  assert.match(problems, /switch with 0 default cases/);
});

test('f32 literals print as the shortest decimal that reads back exactly', () => {
  assert.equal(f32Text(0x3f800000), '1.0f');
  assert.equal(f32Text(0x80000000), '-0.0f');
  assert.equal(f32Text(0x3dcccccd), '0.1f');
  assert.equal(f32Text(0x00000001), '1.0e-45f'); // the smallest denormal
  assert.equal(f32Text(0x7f7fffff), '3.4028235e38f');
  assert.equal(f32Text(0x7f800000), undefined);
  assert.equal(f32Text(0x7fc00000), undefined);
  for (const bits of [0x3f800001, 0x4b000001, 0x00800000, 0x12345678, 0xc2f6e979]) {
    const text = f32Text(bits) as string;
    const dv = new DataView(new ArrayBuffer(4));
    dv.setFloat32(0, Number(text.replace(/f$/, '')), true);
    assert.equal(dv.getUint32(0, true), bits, `${text} reads back as ${bits.toString(16)}`);
  }
});

test('WGSL: constant operations go through the identity helper; infinities and i32 MIN never appear as constants', () => {
  const m = computeModule((f, mb, x) => {
    const inf = f.f32bits(0x7f800000);
    const div = f.expr({ op: 'binary', fn: 'div', left: f.f32(1), right: f.f32(0) });
    const sum = f.expr({ op: 'binary', fn: 'add', left: inf, right: div });
    const min = f.i32(0x80000000);
    const asU = f.expr({ op: 'bitcast', to: 'u32', value: f.expr({ op: 'convert', to: 'i32', value: sum }) });
    const both = f.expr({
      op: 'binary',
      fn: 'add',
      left: asU,
      right: f.expr({ op: 'bitcast', to: 'u32', value: min }),
    });
    f.stmt({ op: 'store', pointer: f.expr({ op: 'local', local: x }), value: both });
    void mb;
  });
  assert.deepEqual(validateModule(m), []);
  const w = emitModuleWgsl(m);
  assert.match(w, /bitcast<f32>\(iridia_rt_u32\(2139095040u\)\)/);
  assert.match(w, /\(iridia_rt_f32\(1\.0f\) \/ iridia_rt_f32\(0\.0f\)\)/);
  assert.match(w, /bitcast<i32>\(2147483648u\)/);
  assert.match(w, /fn iridia_rt_f32\(x: f32\) -> f32/);
  assert.doesNotMatch(w, /-2147483648i/);
});

test('the namer never gives a reserved word and keeps names unique', () => {
  const n = new Namer();
  assert.equal(n.name('loop'), 'loop_');
  assert.equal(n.name('min'), 'min_');
  assert.equal(n.name('texture'), 'texture');
  assert.equal(n.name('x'), 'x');
  assert.equal(n.name('x'), 'x_1');
  assert.equal(n.name('0bad'), 'v_0bad');
  assert.equal(n.name('__a'), 'u__a');
  const child = n.child();
  assert.equal(child.name('x'), 'x_2');
  // A suffix already taken as a name of its own is passed over, and the next one continues after it.
  assert.equal(n.name('y_1'), 'y_1');
  assert.equal(n.name('y'), 'y');
  assert.equal(n.name('y'), 'y_2');
  assert.equal(child.name('y'), 'y_3');
  assert.equal(child.name('y_4'), 'y_4');
  assert.equal(child.name('y'), 'y_5');
});

test('WGSL: a let is the only temporary, and binary operations are parenthesised', () => {
  const m = computeModule((f, _m, x) => {
    const a = f.bind('a', f.expr({ op: 'load', pointer: f.expr({ op: 'local', local: x }) }));
    const e = f.expr({
      op: 'binary',
      fn: 'shl',
      left: a,
      right: f.expr({ op: 'binary', fn: 'and', left: a, right: f.u32(31) }),
    });
    f.stmt({ op: 'store', pointer: f.expr({ op: 'local', local: x }), value: e });
  });
  const w = emitModuleWgsl(m);
  assert.match(w, /let a = x;\n {2}x = \(a << \(a & 31u\)\);/);
  assert.equal((w.match(/\blet\b/g) ?? []).length, 1);
});

test('the builder shares a variable and its constant-indexed parts, and nothing under a computed index', () => {
  const m = new ModuleBuilder();
  const f = new FunctionBuilder(m, 'f');
  const r = f.local('r', m.vec('u32', 4));
  const a = f.local('a', m.array(m.vec('u32', 4), 4));
  const x = f.expr({ op: 'local', local: r });
  assert.equal(f.expr({ op: 'local', local: r }), x);
  const lane = f.expr({ op: 'member', base: x, index: 1 });
  assert.equal(f.expr({ op: 'member', base: x, index: 1 }), lane);
  assert.notEqual(f.expr({ op: 'member', base: x, index: 2 }), lane);
  const arr = f.expr({ op: 'local', local: a });
  const row = f.expr({ op: 'member', base: arr, index: 3 });
  assert.equal(f.expr({ op: 'member', base: f.expr({ op: 'local', local: a }), index: 3 }), row);
  assert.equal(f.expr({ op: 'member', base: row, index: 0 }), f.expr({ op: 'member', base: row, index: 0 }));
  // a part of a computed element is its own expression each time (the index is read when evaluated)
  const at = f.expr({ op: 'access', base: arr, index: f.u32(1) });
  assert.notEqual(f.expr({ op: 'access', base: arr, index: f.u32(1) }), at);
  assert.notEqual(f.expr({ op: 'member', base: at, index: 0 }), f.expr({ op: 'member', base: at, index: 0 }));
  // loads are never shared: each reads the variable when its statement runs
  assert.notEqual(f.expr({ op: 'load', pointer: x }), f.expr({ op: 'load', pointer: x }));
});

test('blockHolds finds barriers, subgroup operations and emits at any depth, and nothing else', () => {
  const deep: Block = [
    {
      op: 'if',
      cond: 0,
      accept: [],
      reject: [
        { op: 'loop', body: [{ op: 'barrier', workgroup: true, storage: false, texture: false, execution: true }] },
      ],
    },
  ];
  assert.equal(blockHolds(deep, HOLDS_BARRIER), true);
  assert.equal(blockHolds(deep, HOLDS_SUBGROUP | HOLDS_EMIT), false);
  const sw: Block = [
    { op: 'switch', selector: 0, cases: [{ values: [1], isDefault: true, body: [{ op: 'emit', stream: 0 }] }] },
  ];
  assert.equal(blockHolds(sw, HOLDS_EMIT), true);
  assert.equal(blockHolds(sw, HOLDS_BARRIER), false);
  assert.equal(blockHolds([], HOLDS_BARRIER | HOLDS_SUBGROUP | HOLDS_EMIT), false);
});

test('blockHolds answers right for more blocks than it remembers, asked in turns, and after forgetting them', () => {
  // 1,030 bodies (more than its table holds: it is emptied when full), each holding one kind (or
  // none), asked round after round: no answer may come from another block's entry.
  const kinds = Array.from(
    { length: 1030 },
    (_, i) => [HOLDS_BARRIER, HOLDS_SUBGROUP, HOLDS_EMIT, 0, HOLDS_BARRIER, 0][i % 6]!,
  );
  const stmt = (kind: number): Block[number] | undefined =>
    kind === HOLDS_BARRIER
      ? { op: 'barrier', workgroup: true, storage: false, texture: false, execution: true }
      : kind === HOLDS_EMIT
        ? { op: 'emit', stream: 0 }
        : kind === HOLDS_SUBGROUP
          ? { op: 'subgroup', fn: 'elect', result: 0 }
          : undefined;
  const bodies: Block[] = kinds.map((k) => {
    const s = stmt(k);
    return [{ op: 'if', cond: 0, accept: s ? [s] : [], reject: [] }];
  });
  for (let round = 0; round < 3; round++) {
    if (round === 2) forgetBlockHolds();
    bodies.forEach((b, i) => {
      for (const mask of [HOLDS_BARRIER, HOLDS_SUBGROUP, HOLDS_EMIT])
        assert.equal(blockHolds(b, mask), (kinds[i]! & mask) !== 0, `round ${round}, body ${i}, mask ${mask}`);
    });
  }
});

test('a body blockHolds has forgotten is not kept alive by its table through young collections', () => {
  // The table lives in the old generation, and V8's young collector takes every old slot that points
  // into the young generation as a root. Map.clear() left the old table's entries as they were, so a
  // forgotten body stayed alive and was promoted (docs/benchmarks.md, the twenty-first session: about
  // 295 KB promoted for this body of 5,000 statements, 21 KB once the slots are overwritten). A
  // young collection that lands while the body is in use promotes it too, so the least of three
  // rounds is the figure.
  const gc = exposedGc();
  const rounds: number[] = [];
  for (let attempt = 0; attempt < 10 && rounds.length < 3; attempt++) {
    forgetBlockHolds();
    // a few bodies asked of, then full collections: the table, with room to spare, is in the old generation
    for (const b of [[], [], []] as Block[]) blockHolds(b, HOLDS_EMIT);
    gc();
    gc();
    const grown = youngGrowth(() => {
      gc({ type: 'minor' }); // an empty young generation: no collection while the body is made
      const body: Block = Array.from({ length: 5_000 }, (_, i) => ({ op: 'store' as const, pointer: i, value: i }));
      assert.equal(blockHolds(body, HOLDS_EMIT), false);
      forgetBlockHolds();
    });
    if (grown !== undefined) rounds.push(grown); // undefined: a full collection ran meanwhile
  }
  assert.equal(rounds.length, 3, 'every batch ran a full collection: nothing was measured');
  const least = Math.min(...rounds);
  assert.ok(
    least < 128 * 1024,
    `${rounds.map((g) => (g / 1024).toFixed(0)).join(', ')} KB promoted by two young collections (limit 128 KB)`,
  );
});

test('the module builder interns a struct type whole: an equal struct shares its id, a struct differing in name, a member or a binding does not', () => {
  const m = new ModuleBuilder();
  const f32 = m.scalar('f32');
  const v4 = m.vec('f32', 4);
  const members = [
    { name: 'pos', type: v4, binding: { kind: 'builtin' as const, builtin: 'position' as const } },
    { name: 'uv', type: f32, binding: { kind: 'location' as const, location: 0 } },
  ];
  const out = m.type({ kind: 'struct', name: 'Output', members });
  // a new object with the same fields (as a lifter building its outputs again would make)
  assert.equal(m.type({ kind: 'struct', name: 'Output', members: members.map((x) => ({ ...x })) }), out);
  const other = [
    m.type({ kind: 'struct', name: 'Input', members }),
    m.type({ kind: 'struct', name: 'Output', members: members.slice(0, 1) }),
    m.type({ kind: 'struct', name: 'Output', members: [members[0]!, { ...members[1]!, type: v4 }] }),
    m.type({
      kind: 'struct',
      name: 'Output',
      members: [members[0]!, { ...members[1]!, binding: { kind: 'location', location: 1 } }],
    }),
  ];
  assert.equal(new Set([out, ...other]).size, 5, `ids ${[out, ...other].join(', ')}`);
  // each of those is found again, the second struct named Output among several
  assert.equal(m.type({ kind: 'struct', name: 'Output', members: members.slice(0, 1) }), other[1]);
  assert.equal(m.type({ kind: 'struct', name: 'Input', members }), other[0]);
  assert.equal(m.finish().types.filter((t) => t.kind === 'struct').length, 5);
});

test("a function's expression arena is its own: the builders' kept list is never shared with a finished function", () => {
  // FunctionBuilder builds its arena in a list lent from one kept list (ir/builder.ts ARENAS) and
  // copies it at finish(): two builders open at once, finished in either order, and builders made
  // after, must each end with exactly their own expressions, and a finished function must not see
  // what a later builder writes.
  const m = new ModuleBuilder();
  const made = (f: FunctionBuilder, base: number, n: number): void => {
    for (let i = 0; i < n; i++) f.u32(base + i);
  };
  const bits = (fn: { exprs: readonly unknown[] }): number[] =>
    fn.exprs.map((e) => (e as { op: string; bits: number }).bits);
  const range = (base: number, n: number): number[] => Array.from({ length: n }, (_, i) => base + i);

  const outer = new FunctionBuilder(m, 'outer');
  made(outer, 1000, 40);
  const inner = new FunctionBuilder(m, 'inner'); // opened while outer holds the kept list
  made(inner, 2000, 5);
  const innerFn = inner.finish();
  made(outer, 1040, 10);
  const outerFn = outer.finish();
  assert.deepStrictEqual(bits(innerFn), range(2000, 5));
  assert.deepStrictEqual(bits(outerFn), range(1000, 50));

  // The next builder takes the kept list back: it starts empty, and the finished functions keep theirs.
  const next = new FunctionBuilder(m, 'next');
  assert.equal(next.exprs[0], undefined, 'the lent list comes cleared');
  made(next, 3000, 3);
  assert.deepStrictEqual(bits(next.finish()), range(3000, 3));
  assert.deepStrictEqual(bits(outerFn), range(1000, 50), 'a later builder does not write into a finished arena');
  assert.deepStrictEqual(bits(innerFn), range(2000, 5));

  // finish() twice gives the same arena, and does not hand the function's own list back for reuse.
  const twice = new FunctionBuilder(m, 'twice');
  made(twice, 4000, 4);
  const a = twice.finish();
  const b = twice.finish();
  assert.equal(a.exprs, b.exprs);
  const after = new FunctionBuilder(m, 'after');
  made(after, 5000, 4);
  after.finish();
  assert.deepStrictEqual(bits(a), range(4000, 4));
});
