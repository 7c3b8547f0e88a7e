// The IR validator (ir.ts, "Semantics"): every handle in range, expression trees acyclic and typed,
// lets bound once and used only in scope, statements well typed (stores, conditions, switch
// selectors and case values, returns, atomics, image stores), break/continue inside a loop or
// switch, resource bindings unique, entry points' interfaces bound. Returns every problem found
// as a line naming the function and the expression or statement; an empty list means valid.

import {
  ATOMIC64_FNS,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type Module,
  type Stmt,
  type Type,
} from './ir.js';
import { IrTypeError, describe, resolveFunction, sameType, scalarOf, type Resolved } from './typeof.js';

export function validateModule(m: Module): string[] {
  const problems: string[] = [];
  m.types.forEach((t, i) => checkType(m, t, i, problems));
  const bindings = new Map<string, string>();
  m.globals.forEach((g, i) => {
    const t = m.types[g.type];
    if (!t) {
      problems.push(`global ${g.name}: type ${g.type} out of range`);
      return;
    }
    const isHandle = t.kind === 'image' || t.kind === 'sampler' || (t.kind === 'binding_array' && isHandleType(m, t));
    if (isHandle !== (g.space === 'handle')) problems.push(`global ${g.name}: ${describe(t)} in space ${g.space}`);
    if ((g.space === 'uniform' || g.space === 'storage' || g.space === 'handle') !== (g.binding !== undefined))
      problems.push(`global ${g.name}: space ${g.space} ${g.binding ? 'has' : 'lacks'} a binding`);
    if (g.binding) {
      const key = `${g.binding.group}:${g.binding.binding}`;
      const other = bindings.get(key);
      if (other !== undefined)
        problems.push(`global ${g.name}: binding @group(${key.replace(':', ') @binding(')}) also used by ${other}`);
      bindings.set(key, g.name);
    }
    if (g.space === 'storage' && g.access === undefined) problems.push(`global ${g.name}: storage without access`);
    if (g.init !== undefined && !m.constants[g.init]) problems.push(`global ${g.name}: init constant out of range`);
    void i;
  });
  m.constants.forEach((c) => {
    if (!m.types[c.type]) problems.push(`constant ${c.name}: type out of range`);
  });
  m.functions.forEach((f) => validateFunction(m, f, problems));
  for (const ep of m.entryPoints) {
    const f = m.functions[ep.function];
    if (!f) {
      problems.push(`entry point ${ep.name}: function ${ep.function} out of range`);
      continue;
    }
    f.args.forEach((a) => {
      const t = m.types[a.type];
      if (!a.binding && !(t && t.kind === 'struct' && t.members.every((mm) => mm.binding)))
        problems.push(`entry point ${ep.name}: argument ${a.name} has no binding`);
    });
    if (f.result) {
      const t = m.types[f.result.type];
      if (!f.result.binding && !(t && t.kind === 'struct' && t.members.every((mm) => mm.binding)))
        problems.push(`entry point ${ep.name}: result has no binding`);
    }
    if (ep.stage === 'compute' && !ep.workgroupSize)
      problems.push(`entry point ${ep.name}: compute without workgroup size`);
    if (ep.stage === 'vertex') {
      const t = f.result ? m.types[f.result.type] : undefined;
      const hasPos =
        f.result?.binding?.kind === 'builtin' ||
        (t?.kind === 'struct' &&
          t.members.some((mm) => mm.binding?.kind === 'builtin' && mm.binding.builtin === 'position'));
      if (!hasPos) problems.push(`entry point ${ep.name}: vertex entry point without a position output`);
      // WGSL: subgroups only in compute and fragment programs (ir.ts "Subgroups")
      if (f.args.some((a) => a.binding?.kind === 'builtin' && a.binding.builtin.startsWith('subgroup_')))
        problems.push(`entry point ${ep.name}: a subgroup builtin in a vertex entry point`);
      if (usesSubgroups(f.body)) problems.push(`entry point ${ep.name}: a subgroup operation in a vertex entry point`);
    }
  }
  return problems;
}

const ATOMIC64_FN_SET: ReadonlySet<string> = new Set<string>(ATOMIC64_FNS);

function usesSubgroups(b: Block): boolean {
  return b.some(
    (s) =>
      s.op === 'subgroup' ||
      (s.op === 'if' && (usesSubgroups(s.accept) || usesSubgroups(s.reject))) ||
      (s.op === 'loop' && usesSubgroups(s.body)) ||
      (s.op === 'switch' && s.cases.some((c) => usesSubgroups(c.body))),
  );
}

/** The operand rules of a subgroup statement (ir.ts "Subgroups"); undefined when it is well typed. */
function subgroupProblem(ctx: Ctx, s: Extract<Stmt, { op: 'subgroup' }>): string | undefined {
  const a = s.argument === undefined ? undefined : valueType(ctx, s.argument);
  if (s.fn === 'elect') return s.argument === undefined ? undefined : 'elect takes no operand';
  if (!a || (a.kind !== 'scalar' && a.kind !== 'vector')) return `${s.fn} of a non-value`;
  if (s.fn === 'all' || s.fn === 'any' || s.fn === 'ballot')
    return a.kind === 'scalar' && a.scalar === 'bool' ? undefined : `${s.fn} of a non-bool`;
  if (a.scalar === 'bool') return `${s.fn} of a bool (WGSL takes numbers)`;
  if ((s.fn === 'shuffle' || s.fn === 'quad_broadcast') !== (s.index !== undefined)) return `${s.fn} index`;
  if (s.index !== undefined) {
    const t = valueType(ctx, s.index);
    if (!t || t.kind !== 'scalar' || t.scalar !== 'u32') return `${s.fn} index is not u32`;
    const lit = ctx.f.exprs[s.index];
    if (s.fn === 'quad_broadcast' && (lit?.op !== 'literal' || lit.bits > 3))
      return 'quad_broadcast index is not a literal 0..3';
  }
  const folds = s.fn === 'reduce' || s.fn === 'exclusive_scan' || s.fn === 'inclusive_scan';
  if (folds !== (s.reduce !== undefined)) return `${s.fn} fold`;
  if (s.reduce !== undefined) {
    if (s.fn !== 'reduce' && s.reduce !== 'add' && s.reduce !== 'mul') return `a ${s.reduce} scan (add and mul only)`;
    if ((s.reduce === 'and' || s.reduce === 'or' || s.reduce === 'xor') && a.scalar === 'f32')
      return `${s.reduce} of f32`;
  }
  return undefined;
}

function isHandleType(m: Module, t: Type): boolean {
  if (t.kind === 'image' || t.kind === 'sampler') return true;
  if (t.kind === 'binding_array') {
    const b = m.types[t.base];
    return b !== undefined && isHandleType(m, b);
  }
  return false;
}

function checkType(m: Module, t: Type, i: number, problems: string[]): void {
  const ref = (id: number, what: string) => {
    if (!(id >= 0 && id < i)) problems.push(`type #${i}: ${what} refers to #${id}, not an earlier type`);
  };
  switch (t.kind) {
    case 'vector':
      if (![2, 3, 4].includes(t.size)) problems.push(`type #${i}: vector of ${t.size}`);
      break;
    case 'array':
      ref(t.base, 'element');
      if (t.length !== null && !(Number.isInteger(t.length) && t.length >= 1))
        problems.push(`type #${i}: array length ${t.length}`);
      break;
    case 'binding_array':
      ref(t.base, 'element');
      break;
    case 'struct':
      t.members.forEach((mm) => ref(mm.type, `member ${mm.name}`));
      if (t.members.length === 0) problems.push(`type #${i}: empty struct ${t.name}`);
      break;
    case 'scalar':
    case 'atomic':
    case 'image':
    case 'sampler':
      break;
  }
  void m;
}

interface Ctx {
  readonly m: Module;
  readonly f: Function;
  readonly types: Resolved[];
  readonly problems: string[];
  readonly bound: Set<number>;
}

function validateFunction(m: Module, f: Function, problems: string[]): void {
  let types: Resolved[];
  try {
    types = resolveFunction(m, f);
  } catch (e) {
    if (e instanceof IrTypeError) {
      problems.push(e.message);
      return;
    }
    throw e;
  }
  f.locals.forEach((l, k) => {
    const t = m.types[l.type];
    if (!t) problems.push(`function ${f.name}: local ${k} type out of range`);
    if (l.init !== undefined) {
      const r = types[l.init];
      if (!r || r.kind !== 'value' || !t || !sameType(r.type, t))
        problems.push(`function ${f.name}: local ${l.name} init mistyped`);
    }
  });
  const ctx: Ctx = { m, f, types, problems, bound: new Set() };
  block(ctx, f.body, new Set(), 0, 0);
}

/** A statement's result let (atomic, atomic64, subgroup, call): bound once, visible after it. */
function bindResult(ctx: Ctx, where: string, visible: Set<number>, result: number): void {
  if (ctx.bound.has(result)) say(ctx, where, `let ${result} bound twice`);
  ctx.bound.add(result);
  visible.add(result);
}

function say(ctx: Ctx, where: string, why: string): void {
  ctx.problems.push(`function ${ctx.f.name}, ${where}: ${why}`);
}

/** Checks that every let an expression tree reads is visible. */
function checkScope(ctx: Ctx, root: ExprId, visible: ReadonlySet<number>, where: string): void {
  const stack = [root];
  const seen = new Set<number>();
  while (stack.length) {
    const h = stack.pop() as number;
    if (seen.has(h)) continue;
    seen.add(h);
    const e = ctx.f.exprs[h];
    if (!e) {
      say(ctx, where, `expression %${h} out of range`);
      continue;
    }
    if (e.op === 'let' && !visible.has(e.let))
      say(ctx, where, `let ${e.let} (${ctx.f.lets[e.let]?.name ?? '?'}) used out of its scope`);
    for (const c of children(e)) stack.push(c);
  }
}

export function children(e: Expr): ExprId[] {
  switch (e.op) {
    case 'literal':
    case 'zero':
    case 'constant':
    case 'arg':
    case 'global':
    case 'local':
    case 'let':
      return [];
    case 'compose':
      return [...e.parts];
    case 'splat':
      return [e.value];
    case 'swizzle':
      return [e.vector];
    case 'access':
      return [e.base, e.index];
    case 'member':
      return [e.base];
    case 'load':
      return [e.pointer];
    case 'unary':
      return [e.arg];
    case 'binary':
      return [e.left, e.right];
    case 'select':
      return [e.cond, e.accept, e.reject];
    case 'math':
      return [...e.args];
    case 'bitcast':
    case 'convert':
    case 'derivative':
      return [e.value];
    case 'sample': {
      const out = [e.image, e.sampler, e.coord];
      for (const x of [e.arrayIndex, e.offset, e.depthRef, e.clamp]) if (x !== undefined) out.push(x);
      const l = e.level;
      if (l.kind === 'exact') out.push(l.level);
      else if (l.kind === 'bias') out.push(l.bias);
      else if (l.kind === 'gradient') out.push(l.x, l.y);
      return out;
    }
    case 'image_load': {
      const out = [e.image, e.coord];
      for (const x of [e.arrayIndex, e.sample, e.level]) if (x !== undefined) out.push(x);
      return out;
    }
    case 'image_query':
      return e.level === undefined ? [e.image] : [e.image, e.level];
    case 'array_length':
      return [e.pointer];
  }
}

function valueType(ctx: Ctx, h: ExprId): Type | undefined {
  const r = ctx.types[h];
  return r && r.kind === 'value' ? r.type : undefined;
}

/** What is wrong with a statement's origin (ir.ts Origin), if anything. */
function originProblem(o: unknown): string | undefined {
  if (typeof o === 'number')
    return Number.isSafeInteger(o) && o >= 0 ? undefined : `origin ${o} is not an instruction index`;
  if (!Array.isArray(o) || o.length === 0) return 'origin is neither an instruction index nor a list of them';
  for (let k = 0; k < o.length; k++) {
    const v: unknown = o[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      return `origin ${String(v)} is not an instruction index`;
    if (k > 0 && v <= (o[k - 1] as number)) return 'origin list not ascending once each';
  }
  return undefined;
}

function block(ctx: Ctx, b: Block, outer: ReadonlySet<number>, loops: number, breakables: number): void {
  const visible = new Set(outer);
  b.forEach((s, k) => {
    const where = `statement ${k} (${s.op})`;
    const use = (h: ExprId) => checkScope(ctx, h, visible, where);
    if (s.origin !== undefined) {
      const why = originProblem(s.origin);
      if (why) say(ctx, where, why);
    }
    switch (s.op) {
      case 'let':
        use(s.value);
        if (ctx.bound.has(s.let)) say(ctx, where, `let ${s.let} bound twice`);
        ctx.bound.add(s.let);
        if (!valueType(ctx, s.value)) say(ctx, where, 'let of a non-value');
        visible.add(s.let);
        break;
      case 'store': {
        use(s.pointer);
        use(s.value);
        const p = ctx.types[s.pointer];
        const v = valueType(ctx, s.value);
        if (!p || p.kind !== 'pointer') say(ctx, where, 'store through a non-pointer');
        else if (p.type.kind === 'atomic') say(ctx, where, 'plain store to an atomic');
        else if (!v || !sameType(p.type, v))
          say(ctx, where, `store of ${v ? describe(v) : '?'} to ${describe(p.type)}`);
        else if (p.space === 'uniform' || (p.space === 'storage' && !isWritable(ctx, s.pointer)))
          say(ctx, where, 'store to read-only memory');
        break;
      }
      case 'if': {
        use(s.cond);
        const c = valueType(ctx, s.cond);
        if (!c || c.kind !== 'scalar' || c.scalar !== 'bool') say(ctx, where, 'if condition is not a bool scalar');
        block(ctx, s.accept, visible, loops, breakables);
        block(ctx, s.reject, visible, loops, breakables);
        break;
      }
      case 'loop':
        block(ctx, s.body, visible, loops + 1, breakables + 1);
        break;
      case 'switch': {
        use(s.selector);
        const t = valueType(ctx, s.selector);
        if (!t || t.kind !== 'scalar' || (t.scalar !== 'i32' && t.scalar !== 'u32'))
          say(ctx, where, 'switch selector is not i32/u32');
        const values = new Set<number>();
        let defaults = 0;
        for (const c of s.cases) {
          if (c.isDefault) defaults++;
          for (const v of c.values) {
            if (values.has(v >>> 0)) say(ctx, where, `case value ${v} repeated`);
            values.add(v >>> 0);
          }
          block(ctx, c.body, visible, loops, breakables + 1);
        }
        if (defaults !== 1) say(ctx, where, `switch with ${defaults} default cases`);
        break;
      }
      case 'break':
        if (breakables === 0) say(ctx, where, 'break outside a loop or switch');
        break;
      case 'continue':
        if (loops === 0) say(ctx, where, 'continue outside a loop');
        break;
      case 'return': {
        const want = ctx.f.result ? ctx.m.types[ctx.f.result.type] : undefined;
        if (s.value === undefined) {
          if (want) say(ctx, where, 'return without the function result');
        } else {
          use(s.value);
          const v = valueType(ctx, s.value);
          if (!want || !v || !sameType(want, v)) say(ctx, where, 'return value of the wrong type');
        }
        break;
      }
      case 'kill':
        break;
      case 'emit':
      case 'cut':
        if (!Number.isInteger(s.stream) || s.stream < 0 || s.stream > 3) say(ctx, where, `stream ${s.stream} (0 to 3)`);
        break;
      case 'barrier':
        break;
      case 'atomic': {
        use(s.pointer);
        const p = ctx.types[s.pointer];
        if (!p || p.kind !== 'pointer' || p.type.kind !== 'atomic') {
          say(ctx, where, 'atomic on a non-atomic');
          break;
        }
        const sc = p.type.scalar;
        for (const x of [s.value, s.compare]) {
          if (x === undefined) continue;
          use(x);
          const v = valueType(ctx, x);
          if (!v || v.kind !== 'scalar' || v.scalar !== sc) say(ctx, where, `atomic operand is not ${sc}`);
        }
        if ((s.fn === 'load') !== (s.value === undefined)) say(ctx, where, 'atomic operand count');
        if ((s.fn === 'compare_exchange') !== (s.compare !== undefined)) say(ctx, where, 'compare operand');
        if (s.result !== undefined) {
          bindResult(ctx, where, visible, s.result);
        }
        break;
      }
      case 'atomic64': {
        for (const w of [s.low, s.high]) {
          use(w);
          const p = ctx.types[w];
          if (!p || p.kind !== 'pointer' || p.type.kind !== 'atomic' || p.type.scalar !== 'u32')
            say(ctx, where, 'atomic64 on a word that is not atomic<u32>');
        }
        for (const x of [s.value, s.compare]) {
          if (x === undefined) continue;
          use(x);
          const v = valueType(ctx, x);
          if (!v || v.kind !== 'vector' || v.scalar !== 'u32' || v.size !== 2)
            say(ctx, where, 'atomic64 operand is not vec2<u32>');
        }
        if (!ATOMIC64_FN_SET.has(s.fn)) say(ctx, where, `atomic64 function ${String(s.fn)}`);
        if ((s.fn === 'compare_exchange') !== (s.compare !== undefined)) say(ctx, where, 'compare operand');
        if (s.result !== undefined) {
          bindResult(ctx, where, visible, s.result);
        }
        break;
      }
      case 'subgroup': {
        if (s.argument !== undefined) use(s.argument);
        if (s.index !== undefined) use(s.index);
        const why = subgroupProblem(ctx, s);
        if (why) say(ctx, where, why);
        bindResult(ctx, where, visible, s.result);
        break;
      }
      case 'image_store': {
        use(s.image);
        use(s.coord);
        use(s.value);
        if (s.arrayIndex !== undefined) use(s.arrayIndex);
        const img = ctx.types[s.image];
        if (!img || img.kind !== 'handle' || img.type.kind !== 'image' || img.type.class.kind !== 'storage')
          say(ctx, where, 'image store to a non-storage image');
        else if (img.type.class.access === 'read') say(ctx, where, 'image store to a read-only storage image');
        const v = valueType(ctx, s.value);
        if (!v || v.kind !== 'vector' || v.size !== 4) say(ctx, where, 'image store of a non-vec4');
        break;
      }
      case 'call': {
        s.args.forEach(use);
        const callee = ctx.m.functions[s.fn];
        if (!callee) {
          say(ctx, where, 'call of a function out of range');
          break;
        }
        if (ctx.m.entryPoints.some((ep) => ep.function === s.fn)) say(ctx, where, 'call of an entry point');
        if (s.args.length !== callee.args.length)
          say(ctx, where, `call of ${callee.name} with ${s.args.length} arguments (it takes ${callee.args.length})`);
        s.args.forEach((a, k) => {
          const want = callee.args[k] ? ctx.m.types[callee.args[k].type] : undefined;
          const v = valueType(ctx, a);
          if (want && (!v || !sameType(want, v))) say(ctx, where, `argument ${k} of ${callee.name} mistyped`);
        });
        if (s.result !== undefined) {
          if (!callee.result) say(ctx, where, `a call result of ${callee.name}, which returns nothing`);
          bindResult(ctx, where, visible, s.result);
        }
        break;
      }
    }
  });
}

function isWritable(ctx: Ctx, pointer: ExprId): boolean {
  let h = pointer;
  for (;;) {
    const e = ctx.f.exprs[h];
    if (!e) return false;
    if (e.op === 'access' || e.op === 'member') h = e.base;
    else if (e.op === 'global') return ctx.m.globals[e.global]?.access === 'read_write';
    else return true;
  }
}

export { scalarOf };
