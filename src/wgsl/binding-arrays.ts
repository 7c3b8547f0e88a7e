// Pass: binding arrays to separate globals (passes.ts). WebGPU's WGSL has no binding arrays, so a
// range global G of N elements (an unbounded one gets `unboundedCount`) becomes globals G_0..G_N-1
// with consecutive bindings from G's. A constant index picks its global directly.
//
// A computed index goes through a helper function, one per binding array and shape of use, written
// once per module: `fn t0_sample(index: u32, arg: vec2<f32>) -> vec4<f32> { switch index { case 0u:
// { return textureSample(t0_0, s0, arg); } ... case N-1u, default: { return ...(t0_N-1...); } } }`
// (an index past the range takes the last element, as WGSL's robust access would clamp). The use is
// - an expression of a plain value whose operands reach the indexed element only through handles
//   and pointers (a texture load, sample, gather or query, a load through a buffer element, an
//   array length): it becomes a `call` bound to a fresh let just before its statement, and the
//   statement reads the let (expressions are pure: evaluating the operands there is the same);
// - a store, atomic or image store whose pointer or image reaches the element: the statement
//   becomes the call (an atomic's result let is the call's).
// The helper's arguments are the indices (one switch each, nested when a use indexes two ranges:
// a texture and a sampler) and the use's other plain operands; a sample's constant offset stays in
// the helper (WGSL requires a constant expression there). A use the helper cannot express (an
// operand that is a local or let pointer, a 64-bit atomic, a value WGSL cannot pass) keeps the
// per-use form: `switch (index) { case 0: S[G_0] ... case N-1, default: S[G_N-1] }` around its
// statement, a let bound by that statement becoming a local variable (its scope would otherwise
// end inside the switch). The expression arena is rebuilt in order, so operands stay earlier.

import type {
  Block,
  Expr,
  ExprId,
  Function,
  FunctionArgument,
  FunctionId,
  Global,
  LetInfo,
  LocalVariable,
  Module,
  Stmt,
  SwitchCase,
  Type,
  TypeId,
} from '../ir/ir.js';
import { withOrigin } from '../ir/ir.js';
import {
  copyExpr,
  functionWith,
  globalWith,
  letEntry,
  localEntry,
  localWith,
  makeFunction,
  makeStmt,
  moduleWith,
  ownArg,
  ownBlock,
  ownExpr,
  ownStmt,
} from '../ir/nodes.js';
import { objectList } from '../binary/lists.js';
import { children } from '../ir/validate.js';
import { resolveFunction, typeKey, type Resolved } from '../ir/typeof.js';

interface Expanded {
  readonly first: number;
  readonly count: number;
}

/** The helper functions of one module, by the key of the use they stand for. */
class Helpers {
  readonly functions: Function[] = [];
  private readonly byKey = new Map<string, FunctionId>();

  constructor(private readonly base: number) {}

  get(key: string, make: () => Function): FunctionId {
    let id = this.byKey.get(key);
    if (id === undefined) {
      id = this.base + this.functions.length;
      this.functions.push(make());
      this.byKey.set(key, id);
    }
    return id;
  }
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
    // Each element made as every global is (globalWith), not by a spread: a spread followed by a key
    // its source lacks (`{ ...rest, binding }`) takes V8's slow path, about 0.7 µs an object, which
    // was an eighth of this pass on ranges of 16 to 64.
    const { binding } = g;
    for (let k = 0; k < count; k++)
      globals.push(
        globalWith(g, {
          name: `${g.name}_${k}`,
          type: t.base,
          binding: binding && { group: binding.group, binding: binding.binding + k },
        }),
      );
    arrays.set(i, { first, count });
    remapGlobal[i] = first;
  });
  if (arrays.size === 0) return m;
  const types = [...m.types];
  // Type texts by type object, each made once: resolved types are shared objects (typeof.ts), and a
  // JSON text for every helper argument and region was 5% of this pass on the binding-array twins.
  const keys = new Map<Type, string>();
  const keyOf = (t: Type): string => {
    let key = keys.get(t);
    if (key === undefined) keys.set(t, (key = typeKey(t)));
    return key;
  };
  const ids = new Map<string, TypeId>();
  types.forEach((t, i) => {
    const key = keyOf(t);
    if (!ids.has(key)) ids.set(key, i);
  });
  const typeId = (t: Type): TypeId => {
    const key = keyOf(t);
    const k = ids.get(key);
    if (k !== undefined) return k;
    types.push(t);
    ids.set(key, types.length - 1);
    return types.length - 1;
  };
  const helpers = new Helpers(m.functions.length);
  const ctx: Rewrite = { m, arrays, remapGlobal, typeId, keyOf, helpers };
  const functions = m.functions.map((f) => new FunctionRewrite(ctx, f).run());
  return moduleWith(m, { types, globals, functions: [...functions, ...helpers.functions] });
}

interface Rewrite {
  readonly m: Module;
  readonly arrays: Map<number, Expanded>;
  readonly remapGlobal: number[];
  readonly typeId: (t: Type) => TypeId;
  /** typeKey(t), made once a type object. */
  readonly keyOf: (t: Type) => string;
  readonly helpers: Helpers;
}

/** A use of indexed elements that a helper function expresses: what it takes and its key. */
interface Region {
  /** Helper key: the shape of the use, the ranges indexed and the argument types. */
  readonly key: string;
  /** The dynamic accesses (old expressions), one switch each: the helper's first arguments. */
  readonly selectors: readonly ExprId[];
  /** The use's plain operands (old expressions): the helper's next arguments. */
  readonly params: readonly ExprId[];
  readonly argTypes: readonly TypeId[];
  /** The name hint of the helper: the first range's name and the operation. */
  readonly name: string;
  /** The old expressions the call passes: the selectors' index expressions, then the params. */
  readonly operands: readonly ExprId[];
}

/** How one statement's dynamic accesses are rewritten. */
interface Plan {
  /** Value uses (old expressions, ascending) called before the statement; their regions. */
  readonly hoist: readonly ExprId[];
  /** The statement itself as a call (store, atomic, image store). */
  readonly stmt?: Region;
  /** Dynamic accesses are left for the per-use switch. */
  readonly fallback: boolean;
}

/** Expressions a constant offset may hold (WGSL: a const-expression). */
const CONST_OPS: ReadonlySet<string> = new Set([
  'literal',
  'zero',
  'constant',
  'compose',
  'splat',
  'swizzle',
  'unary',
  'binary',
  'bitcast',
  'convert',
]);

/**
 * Marks and values by old expression for one round at a time (a walk, a substitution, a helper's
 * choice of elements): a new round forgets the last one's by its number, where a Set or Map was
 * made for each round. `value` is read only where `has` holds.
 */
class Rounds {
  private readonly stamps: Int32Array;
  private readonly values: Int32Array;
  private round = 0;

  constructor(n: number) {
    this.stamps = new Int32Array(n);
    this.values = new Int32Array(n);
  }

  start(): void {
    this.round++;
  }

  has(x: ExprId): boolean {
    return this.stamps[x] === this.round;
  }

  value(x: ExprId): ExprId {
    return this.values[x] as ExprId;
  }

  set(x: ExprId, value = 0): void {
    this.stamps[x] = this.round;
    this.values[x] = value;
  }
}

const NO_ROUNDS = new Rounds(0);
/** The substitutions of a statement that uses no dynamic access (read only: expr() and mapStmt). */
const NO_SUBST: ReadonlyMap<number, ExprId> = new Map();

class FunctionRewrite {
  private readonly exprs: Expr[] = [];
  private readonly remap: number[] = [];
  /** Old expression -> the binding array it selects dynamically and its (old) index expression. */
  private readonly dynamic = new Map<number, { array: number; index: ExprId }>();
  private readonly locals: LocalVariable[];
  private readonly lets: LetInfo[];
  private readonly demoted = new Map<number, number>();
  /** Old expression -> true when its tree holds a dynamic access (undefined: none). */
  private readonly dynIn: (true | undefined)[] = [];
  /** Old pointer or handle expression -> whether it reaches a dynamic access through pointers and handles only. */
  private readonly dynPath: boolean[] = [];
  private types: Resolved[] = [];
  /** The plans made of statements that use a dynamic access (one without needs none: see plan). */
  private readonly plans = new Map<Stmt, Plan>();
  /** Old value expression -> its helper region (hoisted uses), once analysed. */
  private readonly regions = new Map<number, Region | undefined>();
  /** The expressions a walk has reached (plan, reachableDynamic), a round a walk. */
  private walked = NO_ROUNDS;
  /** Old expression -> its new expression, a round for each expr() call under substitutions and for
   * each choice of a helper's elements (HelperBody.select): the two never run at once. */
  memo = NO_ROUNDS;
  private readonly m: Module;

  constructor(
    private readonly ctx: Rewrite,
    private readonly f: Function,
  ) {
    this.m = ctx.m;
    this.locals = [...f.locals];
    this.lets = [...f.lets];
  }

  private push(e: Expr): ExprId {
    this.exprs.push(ownExpr(e));
    return this.exprs.length - 1;
  }

  run(): Function {
    const f = this.f;
    const old = f.exprs;
    const dynOld = new Set<number>();
    old.forEach((e, i) => {
      if (e.op === 'access') {
        const b = old[e.base];
        if (b?.op === 'global' && this.ctx.arrays.has(b.global)) {
          dynOld.add(i);
          this.dynamic.set(i, { array: b.global, index: e.index });
        }
      }
    });
    // No computed index: the arena keeps its handles, globals renumbered and constant elements named.
    if (dynOld.size === 0) return functionWith(f, { exprs: old.map((e) => ownExpr(this.renumbered(e))) });
    // Whether each expression tree holds a dynamic access (children come first in the arena).
    old.forEach((e, i) => {
      if (dynOld.has(i) || children(e).some((c) => this.dynIn[c] === true)) this.dynIn[i] = true;
    });
    this.types = resolveFunction(this.m, f);
    this.walked = new Rounds(old.length);
    this.memo = new Rounds(old.length);
    old.forEach((e, i) => {
      if (this.dynIn[i] === undefined || this.isValue(i)) return;
      this.dynPath[i] = dynOld.has(i) || children(e).some((c) => !this.isValue(c) && this.dynPath[c] === true);
    });
    // Lets bound by a statement left to the per-use switch become locals.
    const walk = (b: Block) => {
      for (const s of b) {
        if ((s.op === 'let' || s.op === 'atomic') && this.plan(s)?.fallback === true) {
          const id = s.op === 'let' ? s.let : s.result;
          if (id !== undefined) {
            const t = s.op === 'let' ? this.types[s.value] : undefined;
            const type = t && t.kind === 'value' ? this.ctx.typeId(t.type) : this.u32Type();
            this.locals.push(localEntry(this.lets[id]?.name ?? 'value', type, undefined));
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
    // Expressions are copied when a statement first uses them (see copied), so that a let's value,
    // rebuilt around a helper call at its statement, comes before every expression reading the let.
    const locals = this.locals.map((l) => (l.init !== undefined ? localWith(l, this.copied(l.init)) : l));
    const body = this.block(f.body);
    return functionWith(f, { exprs: this.exprs, locals, lets: this.lets, body: ownBlock(body) });
  }

  private u32Type(): TypeId {
    return this.ctx.typeId({ kind: 'scalar', scalar: 'u32' });
  }

  private isValue(h: ExprId): boolean {
    return this.types[h]?.kind === 'value';
  }

  /** The rewrite of statement `s` (undefined: it uses no dynamic access). */
  private plan(s: Stmt): Plan | undefined {
    const roots = stmtExprs(s);
    // Most statements use no dynamic access: that is found again each time rather than kept, as a
    // look-up and an entry in a map keyed by the statement cost more.
    if (!roots.some((h) => this.dynIn[h] !== undefined)) return undefined;
    let plan = this.plans.get(s);
    if (plan === undefined) {
      // The value uses: values with an operand that reaches a dynamic access through pointers and
      // handles. Found in one walk, then taken inner ones first (an operand's use is an earlier
      // expression): only the uses are sorted, not every expression the walk met (a statement of
      // vkd3d-proton's robustness programs meets hundreds, and sorting them was a quarter of its plan).
      const walked = this.walked;
      walked.start();
      const uses: number[] = [];
      const stack = roots.filter((h) => this.dynIn[h] !== undefined);
      while (stack.length) {
        const x = stack.pop() as number;
        if (walked.has(x)) continue;
        walked.set(x);
        const kids = children(this.f.exprs[x] as Expr);
        if (this.isValue(x) && kids.some((c) => !this.isValue(c) && this.dynPath[c] === true)) uses.push(x);
        for (const c of kids) if (this.dynIn[c] !== undefined) stack.push(c);
      }
      if (uses.length > 1) uses.sort((a, b) => a - b);
      const hoisted = new Set<number>();
      for (const x of uses) {
        const r = this.valueRegion(x);
        if (r && this.clean(r.operands, hoisted)) hoisted.add(x);
      }
      // added in ascending order (a Set keeps its order)
      const hoist = [...hoisted];
      const sr = this.stmtRegion(s);
      const stmt = sr && this.clean(sr.operands, hoisted) ? sr : undefined;
      // Two literals, not a spread of `{ stmt }`: a spread that adds a key is V8's slow path.
      plan = stmt ? { hoist, stmt, fallback: false } : { hoist, fallback: !this.clean(roots, hoisted) };
      this.plans.set(s, plan);
    }
    return plan;
  }

  /** The (old) index expression of dynamic access d. */
  indexOf(d: ExprId): ExprId {
    return (this.dynamic.get(d) as { index: ExprId }).index;
  }

  /** Whether no dynamic access is reachable from `roots` but through the expressions of `stop`. */
  private clean(roots: readonly ExprId[], stop: ReadonlySet<number> | ReadonlyMap<number, unknown>): boolean {
    // the walk ends at the first access found: no list of them to make and sort
    return this.reachableDynamic(roots, stop, 1).length === 0;
  }

  /** The dynamic accesses reachable from `roots` without passing through an expression of `stop`,
   * ascending; the walk stops once `limit` are found (then they are the first found, not the least). */
  private reachableDynamic(
    roots: readonly ExprId[],
    stop: ReadonlySet<number> | ReadonlyMap<number, unknown>,
    limit = Infinity,
  ): number[] {
    const out: number[] = [];
    const walked = this.walked;
    walked.start();
    const stack = roots.slice();
    while (stack.length) {
      const x = stack.pop() as number;
      if (walked.has(x) || stop.has(x) || this.dynIn[x] === undefined) continue;
      walked.set(x);
      if (this.dynamic.has(x) && out.push(x) >= limit) break;
      for (const c of children(this.f.exprs[x] as Expr)) stack.push(c);
    }
    return out.sort((a, b) => a - b);
  }

  /** The helper region of value use x (undefined: a helper cannot express it). */
  private valueRegion(x: ExprId): Region | undefined {
    if (this.regions.has(x)) return this.regions.get(x);
    const t = this.types[x];
    let r: Region | undefined;
    if (t?.kind === 'value' && this.passable(t.type)) {
      const w = new RegionWalk(this);
      const key = w.node(x, true);
      if (key !== undefined) r = w.region(`${key}->${this.ctx.keyOf(t.type)}`, this.useName(this.f.exprs[x] as Expr));
    }
    this.regions.set(x, r);
    return r;
  }

  /** The helper region of a store, atomic or image store through a dynamic access. */
  private stmtRegion(s: Stmt): Region | undefined {
    const at =
      s.op === 'store' ? s.pointer : s.op === 'atomic' ? s.pointer : s.op === 'image_store' ? s.image : undefined;
    if (at === undefined || this.dynPath[at] !== true) return undefined;
    if (s.op === 'atomic' && s.result !== undefined && this.atomicResult(s) === undefined) return undefined;
    const w = new RegionWalk(this);
    const parts: string[] = [];
    const shape = mapStmtChildren(s, (c) => {
      parts.push(w.child(c, false) ?? '!');
      return parts.length - 1;
    });
    if (parts.includes('!')) return undefined;
    // The shape is a fresh object (mapStmtChildren copies a store, atomic or image store): its origin
    // is left out of the key by making it undefined (JSON skips such a key) and an atomic's result let
    // is written as 0, in place. A rest pattern and a spread here took V8's slow paths for objects.
    const keyed = shape as { origin?: unknown; result?: unknown };
    if (keyed.origin !== undefined) keyed.origin = undefined;
    if (s.op === 'atomic' && s.result !== undefined) keyed.result = 0;
    const head = JSON.stringify(keyed);
    const name = s.op === 'atomic' ? `atomic_${s.fn}` : 'store';
    return w.region(`${head}(${parts.join(',')})`, name);
  }

  /** The scalar type an atomic's result has (undefined: not an atomic pointer). */
  atomicResult(s: Extract<Stmt, { op: 'atomic' }>): Type | undefined {
    const p = this.types[s.pointer];
    if (p?.kind !== 'pointer' || p.type.kind !== 'atomic') return undefined;
    return { kind: 'scalar', scalar: p.type.scalar };
  }

  private useName(e: Expr): string {
    switch (e.op) {
      case 'sample':
        return e.gather !== undefined ? 'gather' : 'sample';
      case 'image_query':
        return e.query;
      case 'array_length':
        return 'length';
      default:
        return 'load';
    }
  }

  /** Whether WGSL can pass and return a value of type t (constructible: no atomics, no runtime arrays). */
  passable(t: Type | undefined): boolean {
    if (!t) return false;
    switch (t.kind) {
      case 'scalar':
      case 'vector':
        return true;
      case 'array':
        return t.length !== null && this.passable(this.m.types[t.base]);
      case 'struct':
        return t.members.every((mm) => this.passable(this.m.types[mm.type]));
      default:
        return false;
    }
  }

  /** Old expression h (and below: its resolved type, whether it is a dynamic access, its range). */
  expr0(h: ExprId): Expr {
    return this.f.exprs[h] as Expr;
  }
  typeOf(h: ExprId): Resolved | undefined {
    return this.types[h];
  }
  isDynamic(h: ExprId): boolean {
    return this.dynamic.has(h);
  }
  arrayOf(h: ExprId): number {
    return (this.dynamic.get(h) as { array: number }).array;
  }
  get rewrite(): Rewrite {
    return this.ctx;
  }
  /** The new global a non-dynamic global or constant element of a range names (undefined: another expression). */
  fixedGlobal(e: Expr): number | undefined {
    if (e.op === 'global') return this.ctx.arrays.has(e.global) ? undefined : this.ctx.remapGlobal[e.global];
    if (e.op !== 'member') return undefined;
    const b = this.f.exprs[e.base];
    const a = b?.op === 'global' ? this.ctx.arrays.get(b.global) : undefined;
    return a ? a.first + Math.min(e.index, a.count - 1) : undefined;
  }

  /** The copy of old expression h in the new arena, made (children first) when first asked for. */
  private copied(h: ExprId): ExprId {
    const have = this.remap[h];
    if (have !== undefined) return have;
    const stack = [h];
    while (stack.length) {
      const x = stack[stack.length - 1] as number;
      if (this.remap[x] !== undefined) {
        stack.pop();
        continue;
      }
      const e = this.f.exprs[x] as Expr;
      let ready = true;
      for (const c of children(e))
        if (this.remap[c] === undefined) {
          stack.push(c);
          ready = false;
        }
      if (!ready) continue;
      stack.pop();
      this.remap[x] = this.copy(e);
    }
    return this.remap[h] as ExprId;
  }

  /** Old expression e in a function without dynamic accesses: its globals renumbered, a constant
   * element of a range as that element's global (its base, the range, is then read by nothing). */
  private renumbered(e: Expr): Expr {
    if (e.op === 'global') {
      const g = this.ctx.remapGlobal[e.global] ?? e.global;
      return g === e.global ? e : { op: 'global', global: g };
    }
    const fixed = e.op === 'member' ? this.fixedGlobal(e) : undefined;
    return fixed !== undefined ? { op: 'global', global: fixed } : e;
  }

  /** Copies an old expression into the new arena (children already copied). */
  private copy(e: Expr): ExprId {
    const r = (h: ExprId) => this.remap[h] as ExprId;
    if (e.op === 'global') return this.push({ op: 'global', global: this.ctx.remapGlobal[e.global] ?? e.global });
    if (e.op === 'member' || e.op === 'access') {
      const b = this.f.exprs[e.base];
      const a = b?.op === 'global' ? this.ctx.arrays.get(b.global) : undefined;
      if (a && b?.op === 'global') {
        if (e.op === 'member') return this.push({ op: 'global', global: a.first + Math.min(e.index, a.count - 1) });
        // A dynamic access: a placeholder, never read (each statement using it is rewritten).
        return this.push({ op: 'global', global: a.first });
      }
      return pushMapped(this.exprs, e, r);
    }
    if (e.op === 'let') {
      const local = this.demoted.get(e.let);
      if (local === undefined) return this.push(e);
      return this.push({ op: 'load', pointer: this.push({ op: 'local', local }) });
    }
    return pushMapped(this.exprs, e, r);
  }

  private block(b: Block): Stmt[] {
    const out: Stmt[] = [];
    for (const s of b) {
      const plan = this.plan(s);
      if (!plan) {
        out.push(this.mapStmt(s, NO_SUBST));
        continue;
      }
      const subst = new Map<number, ExprId>();
      for (const x of plan.hoist) out.push(this.hoist(x, subst, s));
      if (plan.stmt) out.push(this.stmtCall(s, plan.stmt, subst));
      else out.push(...this.stmt(s, subst));
    }
    return out;
  }

  /** The call of value use x's helper, bound to a fresh let that `subst` gives for x from now on. */
  private hoist(x: ExprId, subst: Map<number, ExprId>, s: Stmt): Stmt {
    const r = this.regions.get(x) as Region;
    const fn = this.helper(r, (b) => [{ op: 'return', value: b.region(x) }], this.types[x] as Resolved);
    this.lets.push(letEntry(r.name));
    const result = this.lets.length - 1;
    const args = this.args(r, subst);
    subst.set(x, this.push({ op: 'let', let: result }));
    return withOrigin({ op: 'call', fn, args, result }, s);
  }

  /** A store, atomic or image store as the call of its helper. */
  private stmtCall(s: Stmt, r: Region, subst: Map<number, ExprId>): Stmt {
    let result: Resolved | undefined;
    if (s.op === 'atomic' && s.result !== undefined) result = { kind: 'value', type: this.atomicResult(s) as Type };
    const fn = this.helper(
      r,
      (b) => {
        const leaf = b.stmt(s);
        if (leaf.op !== 'atomic' || s.op !== 'atomic' || s.result === undefined) return [leaf];
        const id = b.let('old');
        return [
          Object.assign({}, leaf, { result: id }), // (a spread adding a key is V8's slow path: ir.ts copyWithOrigin)
          { op: 'return', value: b.push({ op: 'let', let: id }) },
        ];
      },
      result,
    );
    const args = this.args(r, subst);
    const res = s.op === 'atomic' && s.result !== undefined ? { result: s.result } : {};
    return withOrigin({ op: 'call', fn, args, ...res }, s);
  }

  private args(r: Region, subst: Map<number, ExprId>): ExprId[] {
    return r.operands.map((h) => this.expr(h, subst));
  }

  /** The helper function of region r (made once per module): nested switches over its indices. */
  private helper(r: Region, leaf: (b: HelperBody, combo: readonly number[]) => Stmt[], result?: Resolved): FunctionId {
    return this.ctx.helpers.get(r.key, () => {
      const b = new HelperBody(this, r);
      // The elements chosen so far, one per switch around (a leaf reads it while it is made). Each
      // block is made of the builder's own statements as it is built (ownBlock would copy the whole
      // tree again: most of a helper of a range of 64 is its cases).
      const combo: number[] = [];
      const nest = (j: number): Stmt[] => {
        const out = objectList<Stmt>();
        if (j === r.selectors.length) {
          b.select(combo);
          for (const s of leaf(b, combo)) out.push(ownStmt(s));
          return out;
        }
        const a = this.ctx.arrays.get(this.arrayOf(r.selectors[j] as ExprId)) as Expanded;
        const cases: SwitchCase[] = [];
        for (let k = 0; k < a.count; k++) {
          combo[j] = k;
          cases.push({ values: [k], isDefault: k === a.count - 1, body: nest(j + 1) });
        }
        out.push(makeStmt.switch(b.arg(j), cases));
        return out;
      };
      const body = nest(0);
      const args: FunctionArgument[] = r.argTypes.map((type, k) =>
        ownArg({ name: k < r.selectors.length ? 'index' : 'arg', type }),
      );
      const value = result && result.kind === 'value' ? { type: this.ctx.typeId(result.type) } : undefined;
      return makeFunction(r.name, args, [], b.lets, b.exprs, body, value);
    });
  }

  /** Maps one statement left to the per-use switch; `subst` holds old expressions already replaced. */
  private stmt(s: Stmt, subst: Map<number, ExprId>): Stmt[] {
    const pending = this.reachableDynamic(stmtExprs(s), subst);
    if (pending.length === 0) return [this.mapStmt(s, subst)];
    const target = pending[0] as number;
    const { array, index } = this.dynamic.get(target) as { array: number; index: ExprId };
    const a = this.ctx.arrays.get(array) as Expanded;
    const selector = this.expr(index, subst);
    const cases = [];
    for (let k = 0; k < a.count; k++) {
      const next = new Map(subst);
      next.set(target, this.push({ op: 'global', global: a.first + k }));
      const last = k === a.count - 1;
      cases.push({ values: [k], isDefault: last, body: this.stmt(s, next) });
    }
    return [withOrigin({ op: 'switch', selector, cases }, s)];
  }

  /** The new expression for old expression h under substitutions of old expressions. */
  private expr(h: ExprId, subst: ReadonlyMap<number, ExprId>): ExprId {
    if (subst.size === 0) return this.copied(h);
    const memo = this.memo;
    memo.start();
    const rec = (x: ExprId): ExprId => {
      if (memo.has(x)) return memo.value(x);
      let out: ExprId;
      const s = subst.get(x);
      if (s !== undefined) out = s;
      else if (this.dynIn[x] === undefined) out = this.copied(x);
      else {
        const e = this.f.exprs[x] as Expr;
        // the children made first, in children()'s order (the new arena's order), then put in place
        const kids = children(e);
        const made = kids.map(rec);
        out = pushMapped(this.exprs, e, (c) => made[kids.indexOf(c)] as ExprId);
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
    this.lets.push(letEntry(this.lets[result]?.name ?? 'old'));
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

  private mapStmt(s: Stmt, subst: ReadonlyMap<number, ExprId>): Stmt {
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
        return this.demoteResult(mapOperands(s, x) as typeof s, s.result);
      default:
        return mapOperands(s, x);
    }
  }
}

/**
 * A store, atomic, atomic64, image store, call, subgroup or return statement with each expression
 * operand mapped by `r` (in the order of its fields, optional ones as they are given), the other
 * fields as they are; a statement of another kind as it is (its caller maps those).
 */
export function mapOperands(s: Stmt, r: (h: ExprId) => ExprId): Stmt {
  switch (s.op) {
    case 'store':
      return { ...s, pointer: r(s.pointer), value: r(s.value) };
    case 'atomic':
      return {
        ...s,
        pointer: r(s.pointer),
        ...(s.value !== undefined ? { value: r(s.value) } : {}),
        ...(s.compare !== undefined ? { compare: r(s.compare) } : {}),
      };
    case 'return':
      return s.value === undefined ? s : { ...s, value: r(s.value) };
    case 'atomic64':
      return {
        ...s,
        low: r(s.low),
        high: r(s.high),
        value: r(s.value),
        ...(s.compare !== undefined ? { compare: r(s.compare) } : {}),
      };
    case 'image_store':
      return {
        ...s,
        image: r(s.image),
        coord: r(s.coord),
        value: r(s.value),
        ...(s.arrayIndex !== undefined ? { arrayIndex: r(s.arrayIndex) } : {}),
      };
    case 'call':
      return { ...s, args: s.args.map(r) };
    case 'subgroup':
      return {
        ...s,
        ...(s.argument !== undefined ? { argument: r(s.argument) } : {}),
        ...(s.index !== undefined ? { index: r(s.index) } : {}),
      };
    default:
      return s;
  }
}

/** Walks the region of one use: the use, the pointers and handles below it, and its operands. */
class RegionWalk {
  private readonly selectors: ExprId[] = [];
  private readonly params: ExprId[] = [];
  private readonly sel = new Map<number, number>();
  private readonly par = new Map<number, number>();

  constructor(private readonly fr: FunctionRewrite) {}

  /** The key of region node x (the use itself when `root`); undefined when a helper cannot hold it. */
  node(x: ExprId, root = false): string | undefined {
    const fr = this.fr;
    if (fr.isDynamic(x)) {
      let j = this.sel.get(x);
      if (j === undefined) {
        j = this.selectors.length;
        this.selectors.push(x);
        this.sel.set(x, j);
      }
      return `S${j}`;
    }
    const e = fr.expr0(x);
    const fixed = fr.fixedGlobal(e);
    if (fixed !== undefined) return `G${fixed}`;
    if (e.op === 'global' || e.op === 'local' || e.op === 'let' || e.op === 'arg') return undefined;
    if (!root && fr.typeOf(x)?.kind === 'value') return undefined;
    // A pointer chain and its load, the commonest nodes: their shape's text (shapeText) without
    // making the shape, each child walked as below.
    if (e.op === 'load' || e.op === 'array_length' || e.op === 'member') {
      const k = this.child(e.op === 'member' ? e.base : e.pointer, false);
      return k === undefined ? undefined : `${shapeText(e) as string}(${k})`;
    }
    if (e.op === 'access') {
      const b = this.child(e.base, false);
      const i = this.child(e.index, false);
      return b === undefined || i === undefined ? undefined : `${shapeText(e) as string}(${b},${i})`;
    }
    const offset = e.op === 'sample' ? e.offset : undefined;
    const parts: string[] = [];
    let ok = true;
    const shape = mapChildren(e, (c) => {
      const k = c === offset ? this.constant(c) : this.child(c, false);
      if (k === undefined) ok = false;
      parts.push(k ?? '');
      return parts.length - 1;
    });
    return ok ? `${JSON.stringify(shape)}(${parts.join(',')})` : undefined;
  }

  /** The key of an operand of a region node: a plain value is an argument, a pointer or handle is region. */
  child(c: ExprId, _root: boolean): string | undefined {
    const t = this.fr.typeOf(c);
    if (t?.kind !== 'value') return this.node(c);
    if (!this.fr.passable(t.type)) return undefined;
    let k = this.par.get(c);
    if (k === undefined) {
      k = this.params.length;
      this.params.push(c);
      this.par.set(c, k);
    }
    return `P${k}`;
  }

  /** The key of a constant operand kept in the helper (a sample's offset). */
  private constant(c: ExprId): string | undefined {
    const e = this.fr.expr0(c);
    if (!CONST_OPS.has(e.op)) return undefined;
    const parts: string[] = [];
    let ok = true;
    const shape = mapChildren(e, (k) => {
      const s = this.constant(k);
      if (s === undefined) ok = false;
      parts.push(s ?? '');
      return parts.length - 1;
    });
    return ok ? `${JSON.stringify(shape)}(${parts.join(',')})` : undefined;
  }

  /** The region walked, under `key` (the use's shape); undefined without a dynamic access. */
  region(key: string, op: string): Region | undefined {
    const fr = this.fr;
    const ctx = fr.rewrite;
    const first = this.selectors[0];
    if (first === undefined) return undefined;
    const operands: ExprId[] = [];
    for (const d of this.selectors) operands.push(fr.indexOf(d));
    for (const p of this.params) operands.push(p);
    const argTypes: TypeId[] = [];
    for (const h of operands) {
      const t = fr.typeOf(h);
      if (t?.kind !== 'value') return undefined;
      argTypes.push(ctx.typeId(t.type));
    }
    const ranges = this.selectors.map((d) => fr.arrayOf(d)).join(',');
    return {
      key: `${key}|${ranges}|${argTypes.join(',')}`,
      selectors: this.selectors,
      params: this.params,
      argTypes,
      name: `${ctx.m.globals[fr.arrayOf(first)]?.name ?? 'range'}_${op}`,
      operands,
    };
  }
}

/** The expressions of one helper function, built from a use's region for one choice of elements. */
class HelperBody {
  readonly exprs: Expr[] = [];
  readonly lets: LetInfo[] = [];
  private readonly argExprs: ExprId[];
  private readonly sel: Map<number, number>;
  private readonly par: Map<number, number>;
  private combo: readonly number[] = [];
  private readonly constMemo = new Map<number, ExprId>();

  constructor(
    private readonly fr: FunctionRewrite,
    r: Region,
  ) {
    this.argExprs = r.argTypes.map((_, k) => this.push({ op: 'arg', index: k }));
    this.sel = new Map(r.selectors.map((d, j) => [d, j]));
    this.par = new Map(r.params.map((p, k) => [p, r.selectors.length + k]));
  }

  push(e: Expr): ExprId {
    this.exprs.push(ownExpr(e));
    return this.exprs.length - 1;
  }

  arg(k: number): ExprId {
    return this.argExprs[k] as ExprId;
  }

  let(name: string): number {
    this.lets.push(letEntry(name));
    return this.lets.length - 1;
  }

  /** The elements chosen (one per index) for the region built next. */
  select(combo: readonly number[]): void {
    this.combo = combo;
    this.fr.memo.start();
  }

  /** Region node x with the chosen elements. */
  region(x: ExprId): ExprId {
    const memo = this.fr.memo;
    if (memo.has(x)) return memo.value(x);
    const ctx = this.fr.rewrite;
    let out: ExprId;
    const j = this.sel.get(x);
    const e = this.fr.expr0(x);
    const fixed = this.fr.fixedGlobal(e);
    if (j !== undefined) {
      const a = ctx.arrays.get(this.fr.arrayOf(x)) as Expanded;
      out = this.push({ op: 'global', global: a.first + (this.combo[j] as number) });
    } else if (fixed !== undefined) out = this.push({ op: 'global', global: fixed });
    else {
      const offset = e.op === 'sample' ? e.offset : undefined;
      out = pushMapped(this.exprs, e, (c) => (c === offset ? this.constant(c) : this.child(c)));
    }
    memo.set(x, out);
    return out;
  }

  private child(c: ExprId): ExprId {
    if (this.fr.typeOf(c)?.kind === 'value') return this.arg(this.par.get(c) as number);
    return this.region(c);
  }

  private constant(c: ExprId): ExprId {
    const known = this.constMemo.get(c);
    if (known !== undefined) return known;
    const out = pushMapped(this.exprs, this.fr.expr0(c), (k) => this.constant(k));
    this.constMemo.set(c, out);
    return out;
  }

  /** Statement s (a store, atomic or image store) with the chosen elements, without origin or result. */
  stmt(s: Stmt): Stmt {
    const mapped = mapStmtChildren(s, (c) => this.child(c)) as Stmt & { origin?: unknown; result?: unknown };
    const { origin: _origin, result: _result, ...rest } = mapped;
    return rest as Stmt;
  }
}

/**
 * Pushes `e` with each operand mapped by `r` (in mapChildren's order) onto an arena; its index. Made
 * once by its kind's constructor (copyExpr), where a spread (V8's clone path) and then ownExpr's
 * copy made it twice; the kinds with optional fields as before.
 */
function pushMapped(exprs: Expr[], e: Expr, r: (h: ExprId) => ExprId): ExprId {
  exprs.push(copyExpr(e, r) ?? ownExpr(mapChildren(e, r)));
  return exprs.length - 1;
}

/**
 * The text of a load's, array length's, member's or access's shape in a helper's key, as
 * JSON.stringify writes `e` with its children numbered in the order mapChildren maps them (the text
 * RegionWalk.node makes of the other kinds): a region's pointer chain, where making and serialising
 * the shape was most of a region walk in vkd3d-proton's robustness programs. Undefined for the
 * other kinds. test/lift/binding-arrays.test.ts holds each to JSON's text.
 */
export function shapeText(e: Expr): string | undefined {
  switch (e.op) {
    case 'load':
      return '{"op":"load","pointer":0}';
    case 'array_length':
      return '{"op":"array_length","pointer":0}';
    case 'access':
      return '{"op":"access","base":0,"index":1}';
    case 'member':
      return `{"op":"member","base":0,"index":${JSON.stringify(e.index)}}`;
    default:
      return undefined;
  }
}

/** A store, atomic or image store with each expression mapped (other statements as they are); an
 * image store's array index before its value. */
function mapStmtChildren(s: Stmt, r: (h: ExprId) => ExprId): Stmt {
  if (s.op === 'store' || s.op === 'atomic') return mapOperands(s, r);
  if (s.op !== 'image_store') return s;
  return {
    ...s,
    image: r(s.image),
    coord: r(s.coord),
    ...(s.arrayIndex !== undefined ? { arrayIndex: r(s.arrayIndex) } : {}),
    value: r(s.value),
  };
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
