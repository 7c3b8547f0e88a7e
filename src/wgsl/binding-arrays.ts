// Pass: binding arrays to separate globals (passes.ts). WebGPU's WGSL has no binding arrays, so a
// range global G of N elements (an unbounded one gets `unboundedCount`) becomes globals G_0..G_N-1
// with consecutive bindings from G's. A constant index picks its global directly. A statement that
// indexes G with a computed index becomes `switch (index) { case 0: S[G_0] ... case N-1, default:
// S[G_N-1] }`; a let bound by such a statement becomes a local variable (its scope would otherwise
// end inside the switch). The expression arena is rebuilt in order, so operands stay earlier.

import type {
  Block,
  Expr,
  ExprId,
  Function,
  Global,
  LetInfo,
  LocalVariable,
  Module,
  Stmt,
  Type,
  TypeId,
} from '../ir/ir.js';
import { withOrigin } from '../ir/ir.js';
import { children } from '../ir/validate.js';
import { resolveFunction } from '../ir/typeof.js';

interface Expanded {
  readonly first: number;
  readonly count: number;
}

export function expandBindingArrays(m: Module, unboundedCount = 16): Module {
  const arrays = new Map<number, Expanded>();
  const globals: Global[] = [];
  const remapGlobal: number[] = [];
  m.globals.forEach((g, i) => {
    const t = m.types[g.type];
    if (t?.kind !== 'binding_array') {
      remapGlobal[i] = globals.length;
      globals.push(g);
      return;
    }
    const count = t.size ?? unboundedCount;
    const first = globals.length;
    for (let k = 0; k < count; k++) {
      const { binding, ...rest } = g;
      globals.push({
        ...rest,
        name: `${g.name}_${k}`,
        type: t.base,
        ...(binding ? { binding: { group: binding.group, binding: binding.binding + k } } : {}),
      });
    }
    arrays.set(i, { first, count });
    remapGlobal[i] = first;
  });
  if (arrays.size === 0) return m;
  const types = [...m.types];
  const typeId = (t: Type): TypeId => {
    const key = JSON.stringify(t);
    const k = types.findIndex((x) => JSON.stringify(x) === key);
    if (k >= 0) return k;
    types.push(t);
    return types.length - 1;
  };
  const functions = m.functions.map((f) => new FunctionRewrite(m, f, arrays, remapGlobal, typeId).run());
  return { ...m, types, globals, functions };
}

class FunctionRewrite {
  private readonly exprs: Expr[] = [];
  private readonly remap: number[] = [];
  /** Old expression -> the binding array and (new) index expression it selects dynamically. */
  private readonly dynamic = new Map<number, { array: number; index: ExprId }>();
  private readonly locals: LocalVariable[];
  private readonly lets: LetInfo[];
  private readonly demoted = new Map<number, number>();
  /** Old expression -> the dynamic accesses its tree holds (undefined: none). */
  private readonly dynIn: (number[] | undefined)[] = [];

  constructor(
    private readonly m: Module,
    private readonly f: Function,
    private readonly arrays: Map<number, Expanded>,
    private readonly remapGlobal: number[],
    private readonly typeId: (t: Type) => TypeId,
  ) {
    this.locals = [...f.locals];
    this.lets = [...f.lets];
  }

  private push(e: Expr): ExprId {
    this.exprs.push(e);
    return this.exprs.length - 1;
  }

  run(): Function {
    const f = this.f;
    const old = f.exprs;
    // Lets bound by a statement with a dynamic access become locals.
    const dynOld = new Set<number>();
    old.forEach((e, i) => {
      if (e.op === 'access') {
        const b = old[e.base];
        if (b?.op === 'global' && this.arrays.has(b.global)) dynOld.add(i);
      }
    });
    // The dynamic accesses each expression tree holds (children come first in the arena).
    old.forEach((e, i) => {
      let list: number[] | undefined = dynOld.has(i) ? [i] : undefined;
      for (const c of children(e)) {
        const l = this.dynIn[c];
        if (!l) continue;
        list = list ? [...new Set([...list, ...l])] : l;
      }
      this.dynIn[i] = list;
    });
    const types = dynOld.size ? resolveFunction(this.m, f) : [];
    const walk = (b: Block) => {
      for (const s of b) {
        if ((s.op === 'let' || s.op === 'atomic') && this.stmtHasDynamic(s, dynOld)) {
          const id = s.op === 'let' ? s.let : s.result;
          if (id !== undefined) {
            const t = s.op === 'let' ? types[s.value] : undefined;
            const type = t && t.kind === 'value' ? this.typeId(t.type) : this.u32Type();
            this.locals.push({ name: this.lets[id]?.name ?? 'value', type });
            this.demoted.set(id, this.locals.length - 1);
          }
        }
        if (s.op === 'if') {
          walk(s.accept);
          walk(s.reject);
        } else if (s.op === 'loop') walk(s.body);
        else if (s.op === 'switch') for (const c of s.cases) walk(c.body);
      }
    };
    walk(f.body);
    old.forEach((e, i) => {
      this.remap[i] = this.copy(e, i);
    });
    const locals = this.locals.map((l) => (l.init !== undefined ? { ...l, init: this.remap[l.init] as number } : l));
    const body = this.block(f.body);
    return { ...f, exprs: this.exprs, locals, lets: this.lets, body };
  }

  private u32Type(): TypeId {
    return this.typeId({ kind: 'scalar', scalar: 'u32' });
  }

  private stmtHasDynamic(s: Stmt, _dyn: Set<number>): boolean {
    return stmtExprs(s).some((h) => this.dynIn[h] !== undefined);
  }

  private treeHas(h: ExprId, set: ReadonlySet<number> | ReadonlyMap<number, unknown>): boolean {
    const stack = [h];
    const seen = new Set<number>();
    while (stack.length) {
      const x = stack.pop() as number;
      if (seen.has(x)) continue;
      seen.add(x);
      if (set.has(x)) return true;
      const e = this.f.exprs[x];
      if (e) stack.push(...children(e));
    }
    return false;
  }

  /** Copies old expression i into the new arena (children already copied). */
  private copy(e: Expr, i: number): ExprId {
    const r = (h: ExprId) => this.remap[h] as ExprId;
    if (e.op === 'global') return this.push({ op: 'global', global: this.remapGlobal[e.global] ?? e.global });
    if (e.op === 'member' || e.op === 'access') {
      const b = this.f.exprs[e.base];
      const a = b?.op === 'global' ? this.arrays.get(b.global) : undefined;
      if (a && b?.op === 'global') {
        if (e.op === 'member') return this.push({ op: 'global', global: a.first + Math.min(e.index, a.count - 1) });
        const id = this.push({ op: 'global', global: a.first });
        this.dynamic.set(i, { array: b.global, index: r(e.index) });
        return id;
      }
      return this.push(mapChildren(e, r));
    }
    if (e.op === 'let') {
      const local = this.demoted.get(e.let);
      if (local === undefined) return this.push(e);
      return this.push({ op: 'load', pointer: this.push({ op: 'local', local }) });
    }
    return this.push(mapChildren(e, r));
  }

  private block(b: Block): Stmt[] {
    const out: Stmt[] = [];
    for (const s of b) out.push(...this.stmt(s, new Map()));
    return out;
  }

  /** Maps one statement; `subst` holds old expressions already specialised (outer switches). */
  private stmt(s: Stmt, subst: Map<number, ExprId>): Stmt[] {
    const roots = stmtExprs(s);
    const pending = [...this.dynamic.keys()].filter(
      (d) => !subst.has(d) && roots.some((h) => this.dynIn[h]?.includes(d) === true),
    );
    if (pending.length === 0) return [this.mapStmt(s, subst)];
    const target = pending[0] as number;
    const { array, index } = this.dynamic.get(target) as { array: number; index: ExprId };
    const a = this.arrays.get(array) as Expanded;
    const cases = [];
    for (let k = 0; k < a.count; k++) {
      const next = new Map(subst);
      next.set(target, this.push({ op: 'global', global: a.first + k }));
      const last = k === a.count - 1;
      cases.push({ values: [k], isDefault: last, body: this.stmt(s, next) });
    }
    const selector = subst.size ? this.withSubst(index, subst) : index;
    return [withOrigin({ op: 'switch', selector, cases }, s)];
  }

  /** The new expression for old expression h under substitutions of dynamic accesses. */
  private expr(h: ExprId, subst: Map<number, ExprId>): ExprId {
    if (subst.size === 0) return this.remap[h] as ExprId;
    const memo = new Map<number, ExprId>();
    const rec = (x: ExprId): ExprId => {
      const m = memo.get(x);
      if (m !== undefined) return m;
      let out: ExprId;
      const s = subst.get(x);
      if (s !== undefined) out = s;
      else if (!(this.dynIn[x] ?? []).some((d) => subst.has(d))) out = this.remap[x] as ExprId;
      else {
        const e = this.f.exprs[x] as Expr;
        const kids = new Map<number, ExprId>();
        for (const c of children(e)) kids.set(c, rec(c));
        out = this.push(mapChildren(e, (c) => kids.get(c) as ExprId));
      }
      memo.set(x, out);
      return out;
    };
    return rec(h);
  }

  /** An atomic whose result let is demoted: a fresh let per copy, stored to the demoted local. */
  private demoteResult(mapped: Extract<Stmt, { op: 'atomic' | 'atomic64' }>, result: number | undefined): Stmt {
    const local = result !== undefined ? this.demoted.get(result) : undefined;
    if (local === undefined || result === undefined) return mapped;
    this.lets.push({ name: this.lets[result]?.name ?? 'old' });
    const fresh = this.lets.length - 1;
    const read = this.push({ op: 'let', let: fresh });
    return withOrigin(
      {
        op: 'if',
        cond: this.push({ op: 'literal', scalar: 'bool', bits: 1 }),
        accept: [
          { ...mapped, result: fresh } as Stmt,
          withOrigin({ op: 'store', pointer: this.push({ op: 'local', local }), value: read }, mapped),
        ],
        reject: [],
      },
      mapped,
    );
  }

  private withSubst(newIndex: ExprId, _subst: Map<number, ExprId>): ExprId {
    return newIndex;
  }

  private mapStmt(s: Stmt, subst: Map<number, ExprId>): Stmt {
    const x = (h: ExprId) => this.expr(h, subst);
    switch (s.op) {
      case 'let': {
        const local = this.demoted.get(s.let);
        if (local === undefined) return { ...s, value: x(s.value) };
        return withOrigin({ op: 'store', pointer: this.push({ op: 'local', local }), value: x(s.value) }, s);
      }
      case 'store':
        return { ...s, pointer: x(s.pointer), value: x(s.value) };
      case 'if':
        return { ...s, cond: x(s.cond), accept: this.block(s.accept), reject: this.block(s.reject) };
      case 'loop':
        return { ...s, body: this.block(s.body) };
      case 'switch':
        return { ...s, selector: x(s.selector), cases: s.cases.map((c) => ({ ...c, body: this.block(c.body) })) };
      case 'return':
        return s.value === undefined ? s : { ...s, value: x(s.value) };
      case 'atomic': {
        const mapped: Stmt = {
          op: 'atomic',
          pointer: x(s.pointer),
          fn: s.fn,
          ...(s.value !== undefined ? { value: x(s.value) } : {}),
          ...(s.compare !== undefined ? { compare: x(s.compare) } : {}),
          ...(s.result !== undefined ? { result: s.result } : {}),
          ...(s.origin !== undefined ? { origin: s.origin } : {}),
        };
        return this.demoteResult(mapped, s.result);
      }
      case 'atomic64':
        return this.demoteResult(
          {
            ...s,
            low: x(s.low),
            high: x(s.high),
            value: x(s.value),
            ...(s.compare !== undefined ? { compare: x(s.compare) } : {}),
          },
          s.result,
        );
      case 'image_store':
        return {
          ...s,
          image: x(s.image),
          coord: x(s.coord),
          value: x(s.value),
          ...(s.arrayIndex !== undefined ? { arrayIndex: x(s.arrayIndex) } : {}),
        };
      case 'call':
        return { ...s, args: s.args.map(x) };
      case 'subgroup':
        return {
          ...s,
          ...(s.argument !== undefined ? { argument: x(s.argument) } : {}),
          ...(s.index !== undefined ? { index: x(s.index) } : {}),
        };
      case 'break':
      case 'continue':
      case 'kill':
      case 'barrier':
      case 'emit':
      case 'cut':
        return s;
    }
  }
}

/** The expressions a statement uses directly (not those of nested blocks). */
export function stmtExprs(s: Stmt): ExprId[] {
  switch (s.op) {
    case 'let':
      return [s.value];
    case 'store':
      return [s.pointer, s.value];
    case 'if':
      return [s.cond];
    case 'switch':
      return [s.selector];
    case 'return':
      return s.value === undefined ? [] : [s.value];
    case 'atomic':
      return [s.pointer, ...(s.value !== undefined ? [s.value] : []), ...(s.compare !== undefined ? [s.compare] : [])];
    case 'atomic64':
      return [s.low, s.high, s.value, ...(s.compare !== undefined ? [s.compare] : [])];
    case 'image_store':
      return [s.image, s.coord, s.value, ...(s.arrayIndex !== undefined ? [s.arrayIndex] : [])];
    case 'call':
      return [...s.args];
    case 'subgroup':
      return [...(s.argument !== undefined ? [s.argument] : []), ...(s.index !== undefined ? [s.index] : [])];
    case 'loop':
    case 'break':
    case 'continue':
    case 'kill':
    case 'barrier':
    case 'emit':
    case 'cut':
      return [];
  }
}

/** A copy of `e` with each child handle mapped. */
export function mapChildren(e: Expr, r: (h: ExprId) => ExprId): Expr {
  switch (e.op) {
    case 'literal':
    case 'zero':
    case 'constant':
    case 'arg':
    case 'global':
    case 'local':
    case 'let':
      return e;
    case 'compose':
      return { ...e, parts: e.parts.map(r) };
    case 'splat':
    case 'bitcast':
    case 'convert':
    case 'derivative':
      return { ...e, value: r(e.value) };
    case 'swizzle':
      return { ...e, vector: r(e.vector) };
    case 'access':
      return { ...e, base: r(e.base), index: r(e.index) };
    case 'member':
      return { ...e, base: r(e.base) };
    case 'load':
      return { ...e, pointer: r(e.pointer) };
    case 'unary':
      return { ...e, arg: r(e.arg) };
    case 'binary':
      return { ...e, left: r(e.left), right: r(e.right) };
    case 'select':
      return { ...e, cond: r(e.cond), accept: r(e.accept), reject: r(e.reject) };
    case 'math':
      return { ...e, args: e.args.map(r) };
    case 'sample': {
      const l = e.level;
      const level =
        l.kind === 'exact'
          ? { kind: 'exact' as const, level: r(l.level) }
          : l.kind === 'bias'
            ? { kind: 'bias' as const, bias: r(l.bias) }
            : l.kind === 'gradient'
              ? { kind: 'gradient' as const, x: r(l.x), y: r(l.y) }
              : l;
      return {
        ...e,
        image: r(e.image),
        sampler: r(e.sampler),
        coord: r(e.coord),
        level,
        ...(e.arrayIndex !== undefined ? { arrayIndex: r(e.arrayIndex) } : {}),
        ...(e.offset !== undefined ? { offset: r(e.offset) } : {}),
        ...(e.depthRef !== undefined ? { depthRef: r(e.depthRef) } : {}),
        ...(e.clamp !== undefined ? { clamp: r(e.clamp) } : {}),
      };
    }
    case 'image_load':
      return {
        ...e,
        image: r(e.image),
        coord: r(e.coord),
        ...(e.arrayIndex !== undefined ? { arrayIndex: r(e.arrayIndex) } : {}),
        ...(e.sample !== undefined ? { sample: r(e.sample) } : {}),
        ...(e.level !== undefined ? { level: r(e.level) } : {}),
      };
    case 'image_query':
      return { ...e, image: r(e.image), ...(e.level !== undefined ? { level: r(e.level) } : {}) };
    case 'array_length':
      return { ...e, pointer: r(e.pointer) };
  }
}
