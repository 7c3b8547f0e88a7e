// The WGSL lowering of binding arrays indexed by a computed value (src/wgsl/binding-arrays.ts), on a
// module built by hand: each use calls one helper per range and shape (a switch over the elements,
// an index past the range taking the last element), two uses of one shape share their helper, a
// use no helper can express (a 64-bit atomic) keeps the switch around its statement; and on Dawn the
// words every invocation reads and writes are those the rule gives, computed here from it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr, Function, Module, Stmt, Type } from '../../src/ir/ir.js';
import { ownExpr } from '../../src/ir/nodes.js';
import { validateModule } from '../../src/ir/validate.js';
import { mapChildren, shapeText } from '../../src/wgsl/binding-arrays.js';
import { emitModuleWgsl, lowerForWgsl } from '../../src/wgsl/index.js';
import { closeWebgpu, compileWgsl, runCompute, webgpuSkip } from '../helpers/webgpu.js';

after(() => closeWebgpu());

const INVOCATIONS = 4;
const SRC = 3; // src: 3 read-only buffers, element e holding 16 * (e + 1) words 1000 * e + w
const ACC = 2; // acc: 2 buffers of atomic words
const RW = 2; // rw: 2 read-write buffers

const types: Type[] = [
  { kind: 'scalar', scalar: 'u32' }, // 0
  { kind: 'vector', scalar: 'u32', size: 3 }, // 1
  { kind: 'array', base: 0, length: null }, // 2
  { kind: 'struct', name: 'Buf', members: [{ name: 'data', type: 2 }] }, // 3
  { kind: 'binding_array', base: 3, size: SRC }, // 4
  { kind: 'atomic', scalar: 'u32' }, // 5
  { kind: 'array', base: 5, length: null }, // 6
  { kind: 'struct', name: 'Counters', members: [{ name: 'data', type: 6 }] }, // 7
  { kind: 'binding_array', base: 7, size: ACC }, // 8
  { kind: 'binding_array', base: 3, size: RW }, // 9
  { kind: 'vector', scalar: 'u32', size: 2 }, // 10
];

/** main: for invocation i (k = i + 1, j = i), with every index computed:
 *   dst[i] = src[k].data[i]; dst[4 + i] = arrayLength(src[k].data); dst[12 + i] = src[k].data[i + 4]
 *   old = atomicAdd(acc[j].data[0], k); dst[8 + i] = old & 0; rw[j].data[i] = i + 100
 *   64-bit add of 5 to acc[j].data[1..2] (no result) */
function module(): Module {
  const e: Expr[] = [];
  const x = (v: Expr) => e.push(v) - 1;
  const u = (n: number) => x({ op: 'literal', scalar: 'u32', bits: n });
  const add = (a: number, b: number) => x({ op: 'binary', fn: 'add', left: a, right: b });
  const word = (buffer: number, index: number) =>
    x({ op: 'access', base: x({ op: 'member', base: buffer, index: 0 }), index });
  const body: Stmt[] = [];
  const i = x({ op: 'member', base: x({ op: 'arg', index: 0 }), index: 0 });
  const k = add(i, u(1));
  const src = x({ op: 'access', base: x({ op: 'global', global: 0 }), index: k });
  const dst = x({ op: 'global', global: 1 });
  body.push({ op: 'store', pointer: word(dst, i), value: x({ op: 'load', pointer: word(src, i) }) });
  const data = x({ op: 'member', base: src, index: 0 });
  body.push({ op: 'store', pointer: word(dst, add(i, u(4))), value: x({ op: 'array_length', pointer: data }) });
  body.push({
    op: 'store',
    pointer: word(dst, add(i, u(12))),
    value: x({ op: 'load', pointer: word(src, add(i, u(4))) }),
  });
  const acc = x({ op: 'access', base: x({ op: 'global', global: 2 }), index: i });
  body.push({ op: 'atomic', pointer: word(acc, u(0)), fn: 'add', value: k, result: 0 });
  const old = x({ op: 'let', let: 0 });
  body.push({
    op: 'store',
    pointer: word(dst, add(i, u(8))),
    value: x({ op: 'binary', fn: 'and', left: old, right: u(0) }),
  });
  const rw = x({ op: 'access', base: x({ op: 'global', global: 3 }), index: i });
  body.push({ op: 'store', pointer: word(rw, i), value: add(i, u(100)) });
  body.push({
    op: 'atomic64',
    low: word(acc, u(1)),
    high: word(acc, u(2)),
    fn: 'add',
    value: x({ op: 'compose', type: 10, parts: [u(5), u(0)] }),
  });
  body.push({ op: 'return' });
  const main: Function = {
    name: 'main',
    args: [{ name: 'gid', type: 1, binding: { kind: 'builtin', builtin: 'global_invocation_id' } }],
    locals: [],
    lets: [{ name: 'old' }],
    exprs: e,
    body,
  };
  return {
    types,
    constants: [],
    globals: [
      { name: 'src', space: 'storage', access: 'read', type: 4, binding: { group: 0, binding: 0 } },
      { name: 'dst', space: 'storage', access: 'read_write', type: 3, binding: { group: 0, binding: 3 } },
      { name: 'acc', space: 'storage', access: 'read_write', type: 8, binding: { group: 0, binding: 4 } },
      { name: 'rw', space: 'storage', access: 'read_write', type: 9, binding: { group: 0, binding: 6 } },
    ],
    functions: [main],
    entryPoints: [{ name: 'main', stage: 'compute', function: 0, workgroupSize: [INVOCATIONS, 1, 1] }],
  };
}

/** The element an index selects in a range of n: an index past the range takes the last one. */
const element = (index: number, n: number) => Math.min(index, n - 1);

test('binding arrays: one helper per range and shape, called once per use; a 64-bit atomic keeps its switch', () => {
  const m = module();
  assert.deepEqual(validateModule(m), []);
  const lowered = lowerForWgsl(m);
  assert.deepEqual(validateModule(lowered), []);
  // src's two loads share a helper; its array length, acc's atomic add and rw's store have their own
  assert.deepEqual(
    lowered.functions.map((f) => [f.name, f.args.length, f.result !== undefined]),
    [
      ['main', 1, false],
      ['src_load', 2, true],
      ['src_length', 1, true],
      ['acc_atomic_add', 3, true],
      ['rw_store', 3, false],
    ],
  );
  const wgsl = emitModuleWgsl(lowered);
  const main = wgsl.slice(wgsl.indexOf('fn main('), wgsl.indexOf('\n}\n', wgsl.indexOf('fn main(')));
  // one switch left at a use: the 64-bit atomic's, over acc's two elements
  assert.equal((main.match(/\bswitch\b/g) ?? []).length, 1);
  assert.match(main, /case 1u, default: \{/);
  assert.equal((main.match(/\bsrc_load\(/g) ?? []).length, 2);
  assert.match(
    main,
    /let (old\w*) = acc_atomic_add\(gid\.x, 0u, \(gid\.x \+ 1u\)\);\n {2}dst\.data\[\(gid\.x \+ 8u\)\] = \(\1 & 0u\);/,
  );
  assert.match(
    wgsl,
    /fn src_load\(index: u32, arg: u32\) -> u32 \{\n {2}switch index \{\n {4}case 0u: \{\n {6}return src_0\.data\[arg\];\n {4}\}\n {4}case 1u: \{\n {6}return src_1\.data\[arg\];\n {4}\}\n {4}case 2u, default: \{\n {6}return src_2\.data\[arg\];\n {4}\}\n {2}\}\n\}/,
  );
});

test("binding arrays: a helper key's shape text is JSON's text of the shape, for the kinds written directly", () => {
  // What the pass keys the other kinds by, and keyed these by before it wrote their text itself.
  const json = (e: Expr) => {
    let n = 0;
    return JSON.stringify(mapChildren(e, () => n++));
  };
  const direct: Expr[] = [
    { op: 'load', pointer: 7 },
    { op: 'array_length', pointer: 3 },
    { op: 'access', base: 4, index: 9 },
    { op: 'member', base: 2, index: 0 },
    { op: 'member', base: 2, index: 13 },
  ];
  for (const e of direct) {
    // as the builder makes them (each kind's constructor) and as a caller may write them
    assert.equal(shapeText(ownExpr(e)), json(ownExpr(e)), e.op);
    assert.equal(shapeText(e), json(e), e.op);
  }
  // member indices differ in the text: two members of a struct never share a helper
  assert.notEqual(shapeText(direct[3] as Expr), shapeText(direct[4] as Expr));
  // the other kinds are serialised by the region walk itself
  assert.equal(shapeText({ op: 'binary', fn: 'add', left: 1, right: 2 }), undefined);
  assert.equal(shapeText({ op: 'image_query', image: 5, query: 'size', level: 6 }), undefined);
});

test(
  'binding arrays on Dawn: every invocation reads and writes the element the rule selects',
  { skip: webgpuSkip() },
  async () => {
    const code = emitModuleWgsl(lowerForWgsl(module()));
    const [compiled] = await compileWgsl([code]);
    assert.ok(compiled?.ok, compiled?.messages.join('\n') ?? 'no result');
    const srcWords = (el: number) => Uint32Array.from({ length: 16 * (el + 1) }, (_, w) => 1000 * el + w);
    const r = await runCompute({
      code,
      workgroups: [1, 1, 1],
      bindings: [
        ...Array.from({ length: SRC }, (_, el) => ({
          group: 0,
          binding: el,
          type: 'storage' as const,
          readOnly: true,
          words: srcWords(el),
        })),
        { group: 0, binding: 3, type: 'storage', words: new Uint32Array(16) },
        ...Array.from({ length: ACC }, (_, el) => ({
          group: 0,
          binding: 4 + el,
          type: 'storage' as const,
          words: new Uint32Array(4),
        })),
        ...Array.from({ length: RW }, (_, el) => ({
          group: 0,
          binding: 6 + el,
          type: 'storage' as const,
          words: new Uint32Array(4),
        })),
      ],
    });
    assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join('\n')}`);
    // The words the rule gives, invocation by invocation
    const dst = new Uint32Array(16);
    const acc = Array.from({ length: ACC }, () => new Uint32Array(4));
    const rw = Array.from({ length: RW }, () => new Uint32Array(4));
    for (let i = 0; i < INVOCATIONS; i++) {
      const s = element(i + 1, SRC);
      dst[i] = 1000 * s + i;
      dst[4 + i] = 16 * (s + 1);
      dst[12 + i] = 1000 * s + i + 4;
      const a = acc[element(i, ACC)]!;
      a[0]! += i + 1;
      a[1]! += 5;
      rw[element(i, RW)]![i] = i + 100;
    }
    const got = r.outputs;
    assert.deepEqual([...got['0:3']!], [...dst], 'dst');
    for (let el = 0; el < ACC; el++) assert.deepEqual([...got[`0:${4 + el}`]!], [...acc[el]!], `acc_${el}`);
    for (let el = 0; el < RW; el++) assert.deepEqual([...got[`0:${6 + el}`]!], [...rw[el]!], `rw_${el}`);
    // indices 3 and 4 are past src's range and 2, 3 past acc's and rw's: the last elements took them
    assert.deepEqual([dst[2], dst[3], acc[1]![0], rw[1]![3]], [2002, 2003, 9, 103]);
  },
);
