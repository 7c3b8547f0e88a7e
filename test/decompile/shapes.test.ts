// Loop and branch shapes (src/decompile/shapes.ts): which loops print as `for` and `while`, which
// else blocks as `else if`, and conditions as their comparisons. What a printed shape means is
// checked by running it: each shape is desugared back into IR by the languages' own rules (`while
// (c) B` is `loop { if (!c) break; B }`; `for (I; c; U) B` is `I; loop { if (!c) break; B; U }` with
// U before every `continue` of B; a counter declared in its header holds junk before and after)
// and that module must write the same words as the readable one on the executor. Hand-built loops
// show each refusal; the real fixtures and ../shared/oracle/own show the counts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { ModuleBuilder, FunctionBuilder } from '../../src/ir/builder.js';
import type { Block, Expr, ExprId, Function, LocalId, Module, Stmt } from '../../src/ir/ir.js';
import type { Program } from '../../src/ir/program.js';
import { resolveFunction } from '../../src/ir/typeof.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitModuleWgsl } from '../../src/wgsl/index.js';
import { functionShapes, type Condition, type LoopShape } from '../../src/decompile/shapes.js';
import { decompile, decompiledHlsl, decompiledWgsl, type Decompiled } from '../../src/decompile/index.js';
import { IridiaError } from '../../src/errors.js';
import { equivalence } from './harness.js';

// ---- hand-built loops: fn f(n: u32) { var i: u32; var acc: u32; i = 0u; loop { if (i >= n) { break; } BODY } AFTER }

interface Built {
  m: Module;
  f: Function;
  loop: Stmt;
}

type Parts = {
  b: FunctionBuilder;
  i: LocalId;
  acc: LocalId;
  iPtr: ExprId;
  accPtr: ExprId;
  n: ExprId;
  read: (p: ExprId) => ExprId;
  update: () => Stmt;
};

function build(body: (p: Parts) => Stmt[], after: (p: Parts) => Stmt[] = () => [], init?: (p: Parts) => Stmt[]): Built {
  const mb = new ModuleBuilder();
  const u32 = mb.scalar('u32');
  const b = new FunctionBuilder(mb, 'f');
  b.arg({ name: 'n', type: u32 });
  const n = b.expr({ op: 'arg', index: 0 });
  const i = b.local('i', u32);
  const acc = b.local('acc', u32);
  const iPtr = b.expr({ op: 'local', local: i });
  const accPtr = b.expr({ op: 'local', local: acc });
  const read = (p: ExprId): ExprId => b.expr({ op: 'load', pointer: p });
  const iRead = read(iPtr);
  const next = b.expr({ op: 'binary', fn: 'add', left: iRead, right: b.u32(1) });
  const parts: Parts = {
    b,
    i,
    acc,
    iPtr,
    accPtr,
    n,
    read: (p) => (p === iPtr ? iRead : read(p)),
    update: () => ({ op: 'store', pointer: iPtr, value: next }),
  };
  for (const s of init?.(parts) ?? [{ op: 'store', pointer: iPtr, value: b.u32(0) } as Stmt]) b.stmt(s);
  const cond = b.expr({ op: 'binary', fn: 'ge', left: iRead, right: n });
  const loop: Stmt = {
    op: 'loop',
    body: [{ op: 'if', cond, accept: [{ op: 'break' }], reject: [] }, ...body(parts)],
  };
  b.stmt(loop);
  for (const s of after(parts)) b.stmt(s);
  const f = b.finish();
  mb.addFunction(f);
  const m = mb.finish();
  assert.deepEqual(validateModule(m), []);
  return { m, f: m.functions[0]!, loop: m.functions[0]!.body.find((s) => s.op === 'loop')! };
}

function shapeOf(x: Built): LoopShape | undefined {
  return functionShapes(x.m, x.f, resolveFunction(x.m, x.f)).loop(x.loop);
}
const wgsl = (x: Built): string => emitModuleWgsl(x.m, { shapes: functionShapes });

/** acc = acc + i */
const accumulate = (p: Parts): Stmt => ({
  op: 'store',
  pointer: p.accPtr,
  value: p.b.expr({ op: 'binary', fn: 'add', left: p.read(p.accPtr), right: p.read(p.iPtr) }),
});

test('a counted loop prints as for, its counter declared in the header', () => {
  const x = build((p) => [accumulate(p), p.update()]);
  const s = shapeOf(x);
  assert.equal(s?.kind, 'for');
  assert.ok(s?.kind === 'for' && s.declare && s.increment);
  const text = wgsl(x);
  assert.match(text, /for \(var i: u32 = 0u; \(i < n\); i\+\+\) \{/);
  assert.doesNotMatch(text, /var i: u32;/, 'not declared before the loop');
  assert.doesNotMatch(text, /loop \{|i = \(i \+ 1u\)/, text);
});

test('a continue after the update: the for runs the update on continue, so the copy is dropped', () => {
  const x = build((p) => [
    { op: 'if', cond: p.b.bool(true), accept: [p.update(), { op: 'continue' }], reject: [] },
    accumulate(p),
    p.update(),
  ]);
  assert.equal(shapeOf(x)?.kind, 'for');
  const text = wgsl(x);
  assert.match(text, /if true \{\n\s*continue;\n\s*\}/, text);
  assert.doesNotMatch(text, /i = \(i \+ 1u\)/, text);
});

test('refusals keep the loop a while: a continue past the update, the counter changed in the body, a bound the body changes', () => {
  const continuing = build((p) => [
    { op: 'if', cond: p.b.bool(true), accept: [{ op: 'continue' }], reject: [] },
    accumulate(p),
    p.update(),
  ]);
  const changed = build((p) => [p.update(), accumulate(p), p.update()]);
  const bound = build((p) => [
    accumulate(p),
    {
      op: 'store',
      pointer: p.iPtr,
      value: p.b.expr({ op: 'binary', fn: 'add', left: p.read(p.iPtr), right: p.read(p.accPtr) }),
    },
  ]);
  const noInit = build(
    (p) => [accumulate(p), p.update()],
    () => [],
    () => [],
  );
  for (const [name, x] of [
    ['continue without the update', continuing],
    ['counter changed in the body', changed],
    ['a step the body changes', bound],
    ['no store to the counter before the loop', noInit],
  ] as const) {
    assert.equal(shapeOf(x)?.kind, 'while', name);
    const text = wgsl(x);
    assert.match(text, /while \(i < n\) \{/, `${name}: ${text}`);
    assert.doesNotMatch(text, /for \(/, name);
  }
});

test('an init that reads a store between it and the loop: no for; past a store it does not read, it moves', () => {
  // i = acc; acc = 5u; loop: moving `i = acc` past `acc = 5u` would change it
  const reads = build(
    (p) => [accumulate(p), p.update()],
    () => [],
    (p) => [
      { op: 'store', pointer: p.iPtr, value: p.read(p.accPtr) },
      { op: 'store', pointer: p.accPtr, value: p.b.u32(5) },
    ],
  );
  assert.equal(shapeOf(reads)?.kind, 'while');
  // past a store it does not read, it moves
  const past = build(
    (p) => [accumulate(p), p.update()],
    () => [],
    (p) => [
      { op: 'store', pointer: p.iPtr, value: p.b.u32(3) },
      { op: 'store', pointer: p.accPtr, value: p.b.u32(5) },
    ],
  );
  assert.equal(shapeOf(past)?.kind, 'for');
  assert.match(wgsl(past), /acc = 5u;\n\s*for \(var i: u32 = 3u;/);
});

test('a counter read after the loop is declared before it, and the for assigns it', () => {
  const x = build(
    (p) => [accumulate(p), p.update()],
    (p) => [{ op: 'store', pointer: p.accPtr, value: p.read(p.iPtr) }],
  );
  const s = shapeOf(x);
  assert.ok(s?.kind === 'for' && !s.declare);
  const text = wgsl(x);
  assert.match(text, /var i: u32;/);
  assert.match(text, /for \(i = 0u; \(i < n\); i\+\+\) \{/);
});

/** fn f(n: u32) { var acc: u32; ... } with `set(v)`, the statement acc = v. */
function branches(): { mb: ModuleBuilder; b: FunctionBuilder; n: ExprId; set: (v: number) => Stmt } {
  const mb = new ModuleBuilder();
  const u32 = mb.scalar('u32');
  const b = new FunctionBuilder(mb, 'f');
  b.arg({ name: 'n', type: u32 });
  const n = b.expr({ op: 'arg', index: 0 });
  const p = b.expr({ op: 'local', local: b.local('acc', u32) });
  return { mb, b, n, set: (v) => ({ op: 'store', pointer: p, value: b.u32(v) }) };
}

test('an else block that is one if prints as else if; a Direct3D boolean tested against 0 as its comparison', () => {
  const { mb, b, n, set } = branches();
  const mask = (fn: 'lt' | 'eq', k: number): ExprId =>
    b.expr({
      op: 'binary',
      fn: 'ne',
      left: b.expr({
        op: 'select',
        cond: b.expr({ op: 'binary', fn, left: n, right: b.u32(k) }),
        accept: b.u32(0xffffffff),
        reject: b.u32(0),
      }),
      right: b.u32(0),
    });
  b.stmt({
    op: 'if',
    cond: mask('lt', 4),
    accept: [set(1)],
    reject: [{ op: 'if', cond: mask('eq', 7), accept: [set(2)], reject: [set(3)] }],
  });
  mb.addFunction(b.finish());
  const m = mb.finish();
  const text = emitModuleWgsl(m, { shapes: functionShapes });
  assert.match(
    text,
    /if \(n < 4u\) \{\n\s*acc = 1u;\n\s*\} else if \(n == 7u\) \{\n\s*acc = 2u;\n\s*\} else \{\n\s*acc = 3u;\n\s*\}/,
    text,
  );
  // the lifter's WGSL (no readable mode) keeps the nested else and the select
  const lifted = emitModuleWgsl(m);
  assert.match(lifted, /\} else \{\n\s*if \(select/, lifted);
});

test('an if/else-if chain of tests of one integer against constants prints as a switch, but not where an arm breaks', () => {
  const { mb, b, n, set } = branches();
  const is = (k: number): ExprId => b.expr({ op: 'binary', fn: 'eq', left: n, right: b.u32(k) });
  const chain = (first: Stmt[]): Stmt => ({
    op: 'if',
    cond: is(1),
    accept: first,
    reject: [{ op: 'if', cond: is(2), accept: [set(2)], reject: [set(3)] }],
  });
  b.stmt(chain([set(1)]));
  b.stmt({ op: 'loop', body: [chain([set(1), { op: 'break' }]), { op: 'break' }] });
  mb.addFunction(b.finish());
  const m = mb.finish();
  assert.deepEqual(validateModule(m), []);
  const text = emitModuleWgsl(m, { shapes: functionShapes });
  assert.match(
    text,
    /switch n \{\n\s*case 1u: \{\n\s*acc = 1u;\n\s*\}\n\s*case 2u: \{\n\s*acc = 2u;\n\s*\}\n\s*case default: \{\n\s*acc = 3u;\n\s*\}/,
    text,
  );
  assert.match(text, /loop \{\n\s*if \(n == 1u\) \{\n\s*acc = 1u;\n\s*break;\n\s*\} else if \(n == 2u\)/, text);
});

// ---- what a shape means, run: the desugared module against the readable one

/** The function with its shapes desugared, and whether any shape changed it. */
function desugarFunction(m: Module, f: Function): [Function, boolean] {
  let changed = false;
  const types = resolveFunction(m, f);
  const sh = functionShapes(m, f, types);
  const exprs: Expr[] = [...f.exprs];
  const add = (e: Expr): ExprId => exprs.push(e) - 1;
  const truth = (c: Condition, was?: ExprId): ExprId => {
    if (c.kind !== 'expr' || c.expr !== was) changed = true;
    return c.kind === 'expr'
      ? c.expr
      : c.kind === 'not'
        ? add({ op: 'unary', fn: 'not', arg: c.expr })
        : add({ op: 'binary', fn: c.fn, left: c.left, right: c.right });
  };
  /** A store of junk to a counter declared in a header (nothing outside its loop may read it). */
  const junk = (s: Extract<LoopShape, { kind: 'for' }>): Stmt => {
    const t = m.types[f.locals[s.counter]!.type]!;
    assert.equal(t.kind, 'scalar');
    return {
      op: 'store',
      pointer: s.init.pointer,
      value: add({ op: 'literal', scalar: t.kind === 'scalar' ? t.scalar : 'u32', bits: 0x5a5a5a5b }),
    };
  };
  const declared: Stmt[] = [];
  const block = (b: Block, update: Stmt | undefined): Stmt[] => {
    const out: Stmt[] = [];
    for (const s of b) {
      if (sh.skipped(s)) continue;
      const sw = s.op === 'if' ? sh.switchOf(s) : undefined;
      if (sw) {
        changed = true;
        out.push({ ...sw, cases: sw.cases.map((c) => ({ ...c, body: block(c.body, update) })) });
      } else if (s.op === 'if')
        out.push({
          ...s,
          cond: truth(sh.condition(s.cond), s.cond),
          accept: block(s.accept, update),
          reject: block(s.reject, update),
        });
      else if (s.op === 'switch')
        out.push({ ...s, cases: s.cases.map((c) => ({ ...c, body: block(c.body, update) })) });
      else if (s.op === 'continue') out.push(...(update ? [update] : []), s);
      else if (s.op === 'loop') {
        const shape = sh.loop(s);
        if (!shape) {
          out.push({ ...s, body: block(s.body, undefined) });
          continue;
        }
        changed = true;
        const head: Stmt = {
          op: 'if',
          cond: add({ op: 'unary', fn: 'not', arg: truth(shape.cond) }),
          accept: [{ op: 'break' }],
          reject: [],
        };
        if (shape.kind === 'while') out.push({ ...s, body: [head, ...block(s.body, undefined)] });
        else {
          // UPDATE as the header writes it: i = NEXT
          const update: Stmt = { op: 'store', pointer: shape.update.pointer, value: shape.next };
          out.push(shape.init, { ...s, body: [head, ...block(s.body, update), update] });
          if (shape.declare) {
            declared.push(junk(shape));
            out.push(junk(shape));
          }
        }
      } else out.push(s);
    }
    return out;
  };
  const body = block(f.body, undefined);
  return [{ ...f, exprs, body: [...declared, ...body] }, changed];
}

/** The program with its shapes desugared; undefined where no shape changes it. */
function desugared(p: Program): Program | undefined {
  const m = p.module;
  const fns = m.functions.map((f) => desugarFunction(m, f));
  if (!fns.some(([, changed]) => changed)) return undefined;
  return { ...p, module: { ...m, functions: fns.map(([f]) => f) } };
}

interface Counts {
  programs: number;
  shaped: number;
  same: number;
  limits: string[];
  differ: string[];
  hlslFor: number;
  hlslWhile: number;
  hlslElseIf: number;
  wgslFor: number;
  wgslWhile: number;
  wgslElseIf: number;
}

function survey(paths: readonly string[], run: boolean, seeds: number[]): Counts {
  const c: Counts = {
    programs: 0,
    shaped: 0,
    same: 0,
    limits: [],
    differ: [],
    hlslFor: 0,
    hlslWhile: 0,
    hlslElseIf: 0,
    wgslFor: 0,
    wgslWhile: 0,
    wgslElseIf: 0,
  };
  for (const path of paths) {
    let d: Decompiled;
    try {
      d = decompile(readBytes(path));
    } catch (e) {
      if (e instanceof IridiaError) continue;
      throw e;
    }
    c.programs++;
    let hlsl: string | undefined;
    try {
      hlsl = decompiledHlsl(d);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
    }
    if (hlsl !== undefined) {
      if (/\[loop\] for \((?!;;)/.test(hlsl)) c.hlslFor++;
      if (/\[loop\] while \(/.test(hlsl)) c.hlslWhile++;
      if (/^\s*else if \(.*\)$/m.test(hlsl)) c.hlslElseIf++; // not the view helpers' one-line else ifs
    }
    let w: string | undefined;
    try {
      w = decompiledWgsl(d);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
    }
    if (w !== undefined) {
      if (/^\s*for \(/m.test(w)) c.wgslFor++;
      if (/^\s*while /m.test(w)) c.wgslWhile++;
      if (/\} else if /.test(w)) c.wgslElseIf++;
    }
    if (!run) continue;
    const s = desugared(d.readable);
    if (!s) continue;
    const problems = validateModule(s.module);
    if (problems.length) {
      c.differ.push(`${path}: the desugared module does not validate: ${problems[0]}`);
      continue;
    }
    c.shaped++;
    const v = equivalence(d.readable, s, seeds);
    if (v.kind === 'same') c.same++;
    else if (v.kind === 'limit') c.limits.push(`${path}: ${v.why}`);
    else c.differ.push(`${path}: ${v.first}`);
  }
  return c;
}

const describe = (label: string, c: Counts): string =>
  `${label}: ${c.programs} programs decompile; HLSL with a for ${c.hlslFor}, a while ${c.hlslWhile}, an else if ${c.hlslElseIf}; ` +
  `readable WGSL with a for ${c.wgslFor}, a while ${c.wgslWhile}, an else if ${c.wgslElseIf}` +
  (c.shaped
    ? `; desugared shapes run: ${c.shaped} programs, ${c.same} the same words, ${c.limits.length} the harness cannot run, ${c.differ.length} differ`
    : '');

const dxbc = (dir: string): string[] => walk(dir).filter((f) => f.endsWith('.dxbc'));

test('ps_flow_loops: the counted loop prints as written, for (int i = 0; i < n; i++), the bounded loop as while', () => {
  const d = decompile(readBytes(`${FIXTURES}/oracle/own/ps_flow_loops/main-ps_5_0/shader.dxbc`));
  const hlsl = decompiledHlsl(d);
  assert.match(hlsl, /\[loop\] for \(int (\w+) = 0; \1 < n; \1\+\+\)/, hlsl);
  assert.match(hlsl, /\[loop\] while \(\w+ < m\)/, hlsl);
  const w = decompiledWgsl(d);
  // the bound is the constant buffer's member (readable WGSL's struct view, wgsl-structs.ts)
  assert.match(w, /for \(var (\w+): i32 = 0i; \(\1 < c\.n\); \1\+\+\) \{/, w);
});

test('fixtures: every shape, desugared, writes the same words as the readable module', (t) => {
  const c = survey(dxbc(FIXTURES), true, [1]);
  t.diagnostic(describe('test/fixtures', c));
  for (const l of c.limits) t.diagnostic(`limit: ${l}`);
  assert.deepEqual(c.differ, []);
  assert.ok(c.hlslFor >= 5 && c.wgslFor >= 5, `${c.hlslFor} HLSL programs with a for`);
  assert.ok(c.wgslElseIf >= 1 && c.hlslWhile >= 1);
  assert.ok(c.same >= 30, `${c.same} shaped programs run the same`);
});

const every = Number(process.env['IRIDIA_DECOMPILE_EVERY'] ?? '6');

test(
  "../shared/oracle/own: the shapes printed (all builds), and every Nth build's shapes desugared run the same (IRIDIA_DECOMPILE_EVERY=N)",
  { skip: skipUnlessShared('oracle/own') },
  (t) => {
    const all = dxbc(sharedPath('oracle/own')!);
    const printed = survey(all, false, []);
    t.diagnostic(describe('../shared/oracle/own', printed));
    const run = survey(
      all.filter((_, i) => i % every === 0),
      true,
      [1],
    );
    t.diagnostic(describe(`../shared/oracle/own, every ${every}th build`, run));
    for (const l of run.limits) t.diagnostic(`limit: ${l}`);
    assert.deepEqual(run.differ, []);
    assert.ok(printed.hlslFor >= 15 && printed.wgslFor >= 30, `${printed.hlslFor} programs print a for`);
  },
);
