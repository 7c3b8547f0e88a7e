// Passes 2 to 4 over the promoted function, each a rebuild of the function through the arena's smart
// constructor (arena.ts), so every rebuild also applies its exact rewrites (bitcasts that cancel,
// swizzles of composes, ...):
//
//   cleanup   dead code and copy removal: a local never loaded loses its stores and its declaration;
//             a let no statement reads is dropped (expressions have no side effects); a let whose
//             value is trivial (a literal, argument, another let, or a component or bitcast of one)
//             is replaced by that value wherever it is read.
//   fold      a let read exactly once, by a statement of the same block, is inlined there when
//             moving its evaluation cannot change its value: no statement between them writes
//             memory its value reads (stores, atomics, image stores, calls, barriers), and a value
//             that takes derivatives or samples with an implicit level is not moved past a
//             statement that holds a `kill`, a barrier or a nested block.
//
// Both repeat until nothing changes.

import { letEntry, localEntry, localWith, makeFunction } from '../ir/nodes.js';
import {
  copyWithOrigin,
  joinOrigins,
  joinedOrigin,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type Module,
  type Origin,
  type PendingOrigin,
  type Scalar,
  type Stmt,
  type Type,
  type TypeId,
} from '../ir/ir.js';
import type { Resolved } from '../ir/typeof.js';
import { Arena, TypeTable } from './arena.js';
import { castOut, childrenOf, eachChild, mapChildren, stmtExprs, trivial, walkStmts } from './ssa.js';
import { splitWebs } from './webs.js';

interface Plan {
  /** Lets replaced by an expression of the old arena (their value). */
  inline: Set<number>;
  /** Let statements dropped (unused). */
  drop: Set<number>;
  /** Locals removed (never loaded): their stores go too. */
  deadLocals: Set<number>;
  /** Scalar or vector locals of u32 (a register's form) given the scalar their values are written
   * and read as: a store's value is bitcast to it, a load is bitcast back, and the arena cancels
   * those bitcasts against the ones the program had. */
  retype?: Map<number, Scalar>;
  /** Vector locals whose lanes are written and read as different scalars: one scalar local a lane
   * (`name_x` ...), so that each lane can be retyped on its own (the next round's votes). */
  split?: Set<number>;
}

/** The local a pointer expression is rooted at (through member and access), or undefined. */
function rootLocalOf(f: Function, ptr: ExprId): number | undefined {
  let e = f.exprs[ptr]!;
  while (e.op === 'member' || e.op === 'access') e = f.exprs[e.base]!;
  return e.op === 'local' ? e.local : undefined;
}

/** Whether a pointer expression is rooted at a global (through member and access): memory the IR
 * holds as words, whose loads have no type of their own. */
function rootsAtGlobal(f: Function, ptr: ExprId): boolean {
  let e = f.exprs[ptr]!;
  while (e.op === 'member' || e.op === 'access') e = f.exprs[e.base]!;
  return e.op === 'global';
}

/** Rebuilds a function with a plan applied. */
function rebuild(m: Module, table: TypeTable, f: Function, types: readonly Resolved[], plan: Plan): Typed {
  const letTypes: Resolved[] = [];
  const localMap = new Map<number, number>();
  const retype = plan.retype ?? new Map<number, Scalar>();
  const retyped = <L extends { name: string; type: TypeId }>(l: L, i: number): L => {
    const to = retype.get(i);
    if (to === undefined) return l;
    return { ...l, type: retypedType(table, l.type, to) };
  };
  const split = plan.split ?? new Set<number>();
  /** old local -> its lanes' new locals (split locals only) */
  const laneLocals = new Map<number, number[]>();
  const locals: Function['locals'][number][] = [];
  /** Each new local's old local, and its lane when it is a lane of a split one. */
  const origin: { old: number; lane?: number }[] = [];
  f.locals.forEach((l, i) => {
    if (plan.deadLocals.has(i)) return;
    const t = table.types[l.type]!;
    if (split.has(i) && t.kind === 'vector') {
      const lanes: number[] = [];
      for (let k = 0; k < t.size; k++) {
        lanes.push(locals.length);
        origin.push({ old: i, lane: k });
        const scalar = table.id({ kind: 'scalar', scalar: t.scalar });
        locals.push(localEntry(`${l.name}_${'xyzw'[k]}`, scalar, l.init));
      }
      laneLocals.set(i, lanes);
      return;
    }
    localMap.set(i, locals.length);
    origin.push({ old: i });
    locals.push(retyped(l, i));
  });
  const a = new Arena(
    table,
    m,
    f.args.map((x) => x.type),
    locals.map((l) => l.type),
    letTypes,
  );
  const lets: { name: string }[] = [];
  const letMap = new Map<number, number>();
  const letValue = new Map<number, ExprId>();
  const letOrigin = new Map<number, Origin>();
  walkStmts(f.body, (s) => {
    if (s.op !== 'let') return;
    letValue.set(s.let, s.value);
    if (s.origin !== undefined) letOrigin.set(s.let, s.origin);
  });
  // provenance (ir.ts Origin): an expression's inlined lets' origins (and theirs), which the
  // statement it is folded into takes on
  // (joined as nodes, merged once a statement takes them: ir.ts joinOrigins)
  const inlinedMemo = new Map<ExprId, PendingOrigin>();
  const inlined = (id: ExprId): PendingOrigin => {
    if (inlinedMemo.has(id)) return inlinedMemo.get(id);
    const e = f.exprs[id]!;
    let o: PendingOrigin;
    if (e.op === 'let') {
      if (plan.inline.has(e.let)) o = joinOrigins(letOrigin.get(e.let), inlined(letValue.get(e.let)!));
    } else eachChild(e, (c) => (o = joinOrigins(o, inlined(c))));
    inlinedMemo.set(id, o);
    return o;
  };
  const memo = new Map<ExprId, ExprId>();
  /** Lets bound to x where their value became bitcast<T>(x): T, applied at each read. */
  const letCast = new Map<number, Scalar>();
  const copy = (id: ExprId): ExprId => {
    const hit = memo.get(id);
    if (hit !== undefined) return hit;
    const e = f.exprs[id]!;
    let out: ExprId;
    if (e.op === 'let') {
      if (plan.inline.has(e.let)) out = copy(letValue.get(e.let)!);
      else {
        const n = letMap.get(e.let);
        if (n === undefined) throw new Error(`decompile: let ${e.let} read before it is bound`);
        const to = letCast.get(e.let);
        out = to === undefined ? a.let(n) : a.mk({ op: 'bitcast', to, value: a.let(n) });
      }
    } else if (e.op === 'local') {
      if (laneLocals.has(e.local)) throw new Error(`decompile: split local ${e.local} used whole`);
      out = a.mk({ op: 'local', local: localMap.get(e.local)! });
    } else if (e.op === 'member' && laneOf(e.base) !== undefined)
      out = a.mk({ op: 'local', local: laneLocals.get(laneOf(e.base)!)![e.index]! });
    else if (e.op === 'load' && laneOf(e.pointer) !== undefined) {
      const lanes = laneLocals.get(laneOf(e.pointer)!)!;
      const t = types[id]! as Extract<Resolved, { kind: 'value' }>;
      const vec = t.type as Extract<Type, { kind: 'vector' }>;
      out = a.mk(
        {
          op: 'compose',
          type: table.vec(vec.scalar, vec.size),
          parts: lanes.map((n) => a.mk({ op: 'load', pointer: a.mk({ op: 'local', local: n }) })),
        },
        t,
      );
    } else if (retype.size && rootsAtRetyped(id)) {
      // a pointer into a retyped local: the same pointer, to the new type
      const t = types[id]!;
      out = a.mk(mapChildren(e, copy), { ...t, type: retypedOf(table, t.type, retype.get(rootLocal(id)!)!) });
    } else if (e.op === 'load' && retype.size && rootsAtRetyped(e.pointer)) {
      const to = retype.get(rootLocal(e.pointer)!)!;
      const t = types[id]!;
      const load = a.mk({ op: 'load', pointer: copy(e.pointer) }, { ...t, type: retypedOf(table, t.type, to) });
      // read back as the local's old scalar
      const from = (t.type as Extract<Type, { kind: 'scalar' | 'vector' }>).scalar;
      out = a.mk({ op: 'bitcast', to: from, value: load }, t);
    } else out = a.mk(mapChildren(e, copy), types[id]);
    memo.set(id, out);
    return out;
  };
  const bindLet = (old: number, value: ExprId | undefined, fallback?: Resolved): number => {
    lets.push(letEntry(f.lets[old]!.name));
    letTypes.push(value !== undefined ? a.types[value]! : fallback!);
    letMap.set(old, lets.length - 1);
    return lets.length - 1;
  };
  const resultType = (old: number): Resolved => {
    for (let i = 0; i < f.exprs.length; i++) {
      const e = f.exprs[i]!;
      if (e.op === 'let' && e.let === old) return types[i]!;
    }
    return { kind: 'value', type: { kind: 'scalar', scalar: 'u32' } };
  };
  const rootLocal = (ptr: ExprId): number | undefined => rootLocalOf(f, ptr);
  /** Whether an expression of the new arena loads one of `locals`. */
  const readsLocals = (id: ExprId, locals: ReadonlySet<number>, seen = new Set<ExprId>()): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const e = a.exprs[id]!;
    if (e.op === 'local') return locals.has(e.local);
    return childrenOf(e).some((c) => readsLocals(c, locals, seen));
  };
  /** The split local an expression is (a `local` of one), or undefined. */
  function laneOf(ptr: ExprId): number | undefined {
    const e = f.exprs[ptr]!;
    return e.op === 'local' && laneLocals.has(e.local) ? e.local : undefined;
  }
  /** Whether a pointer expression (local, member or access of one) is rooted at a retyped local. */
  function rootsAtRetyped(ptr: ExprId): boolean {
    const e = f.exprs[ptr]!;
    if (e.op !== 'local' && e.op !== 'member' && e.op !== 'access') return false;
    const l = rootLocal(ptr);
    return l !== undefined && retype.has(l);
  }
  const block = (b: Block): Stmt[] => {
    const out: Stmt[] = [];
    for (const s of b) {
      const start = out.length;
      statement(s, out);
      if (out.length === start) continue;
      let joined: PendingOrigin = s.origin;
      if (letOrigin.size || joined !== undefined)
        for (const x of stmtExprs(s)) joined = joinOrigins(joined, inlined(x));
      const o = joinedOrigin(joined);
      if (o !== undefined) for (let k = start; k < out.length; k++) out[k] = copyWithOrigin(out[k]!, o);
    }
    return out;
  };
  const statement = (s: Stmt, out: Stmt[]): void => {
    switch (s.op) {
      case 'let':
        if (plan.inline.has(s.let) || plan.drop.has(s.let)) break;
        {
          // a value that became a bitcast (its local retyped): the let holds what is cast, reads cast it
          const v0 = copy(s.value);
          const cast = castOut(a, v0);
          const v = cast ? cast.value : v0;
          if (cast) letCast.set(s.let, cast.to);
          out.push({ op: 'let', let: bindLet(s.let, v), value: v });
        }
        break;
      case 'store': {
        const l = rootLocal(s.pointer);
        if (l !== undefined && plan.deadLocals.has(l)) break;
        const whole = laneOf(s.pointer);
        if (whole !== undefined) {
          const lanes = laneLocals.get(whole)!;
          let v = copy(s.value);
          // one store a lane: a value that reads these lanes (r0 = r0.yxzw) is bound first, or the
          // later lanes' stores would read the lanes stored before them
          if (readsLocals(v, new Set(lanes))) {
            lets.push(letEntry(`${f.locals[whole]!.name}_was`));
            letTypes.push(a.types[v]!);
            out.push({ op: 'let', let: lets.length - 1, value: v });
            v = a.let(lets.length - 1);
          }
          lanes.forEach((n, k) =>
            out.push({ op: 'store', pointer: a.mk({ op: 'local', local: n }), value: a.component(v, k) }),
          );
          break;
        }
        const to = l === undefined ? undefined : retype.get(l);
        const value = to === undefined ? copy(s.value) : a.mk({ op: 'bitcast', to, value: copy(s.value) });
        out.push({ op: 'store', pointer: copy(s.pointer), value });
        break;
      }
      case 'if':
        out.push({ op: 'if', cond: copy(s.cond), accept: block(s.accept), reject: block(s.reject) });
        break;
      case 'loop':
        out.push({ op: 'loop', body: block(s.body) });
        break;
      case 'switch':
        out.push({
          op: 'switch',
          selector: copy(s.selector),
          cases: s.cases.map((c) => ({ values: c.values, isDefault: c.isDefault, body: block(c.body) })),
        });
        break;
      case 'return':
        out.push(s.value === undefined ? s : { op: 'return', value: copy(s.value) });
        break;
      case 'atomic':
        out.push({
          op: 'atomic',
          pointer: copy(s.pointer),
          fn: s.fn,
          ...(s.value !== undefined ? { value: copy(s.value) } : {}),
          ...(s.compare !== undefined ? { compare: copy(s.compare) } : {}),
          ...(s.result !== undefined ? { result: bindLet(s.result, undefined, resultType(s.result)) } : {}),
        });
        break;
      case 'atomic64':
        out.push({
          ...s,
          low: copy(s.low),
          high: copy(s.high),
          value: copy(s.value),
          ...(s.compare !== undefined ? { compare: copy(s.compare) } : {}),
          ...(s.result !== undefined ? { result: bindLet(s.result, undefined, resultType(s.result)) } : {}),
        });
        break;
      case 'subgroup':
        out.push({
          op: 'subgroup',
          fn: s.fn,
          ...(s.argument !== undefined ? { argument: copy(s.argument) } : {}),
          ...(s.index !== undefined ? { index: copy(s.index) } : {}),
          ...(s.reduce !== undefined ? { reduce: s.reduce } : {}),
          result: bindLet(s.result, undefined, resultType(s.result)),
        });
        break;
      case 'call':
        out.push({
          op: 'call',
          fn: s.fn,
          args: s.args.map(copy),
          ...(s.result !== undefined ? { result: bindLet(s.result, undefined, resultType(s.result)) } : {}),
        });
        break;
      case 'image_store':
        out.push({
          op: 'image_store',
          image: copy(s.image),
          coord: copy(s.coord),
          ...(s.arrayIndex !== undefined ? { arrayIndex: copy(s.arrayIndex) } : {}),
          value: copy(s.value),
        });
        break;
      default:
        out.push(s);
    }
  };
  const body = block(f.body);
  const withInits = locals.map((l, i) => {
    if (l.init === undefined) return l;
    const { old, lane } = origin[i]!;
    const zero = f.exprs[l.init]!.op === 'zero';
    // a lane of a split local: that lane of the initial value (zero: the lane's zero)
    if (lane !== undefined)
      return localWith(l, zero ? a.mk({ op: 'zero', type: l.type }) : a.component(copy(l.init), lane));
    const to = retype.get(old);
    if (to === undefined) return localWith(l, copy(l.init));
    // a retyped local's initial value: zero of its new type, or the old one's bits
    return localWith(l, a.mk(zero ? { op: 'zero', type: l.type } : { op: 'bitcast', to, value: copy(l.init) }));
  });
  const fn = makeFunction(f.name, f.args, withInits, lets, a.exprs, body, f.result);
  return { fn, types: a.types };
}

/** Expression types of a function built by the arena (its `types` are kept alongside). */
export interface Typed {
  readonly fn: Function;
  readonly types: readonly Resolved[];
}

/** Multiplicity of each expression: how many times the statements' trees reach it. */
function multiplicity(f: Function): number[] {
  const n = new Array<number>(f.exprs.length).fill(0);
  walkStmts(f.body, (s) => {
    for (const x of stmtExprs(s)) n[x]!++;
  });
  for (const l of f.locals) if (l.init !== undefined) n[l.init]!++;
  for (let i = f.exprs.length - 1; i >= 0; i--) {
    if (n[i] === 0) continue;
    const k = n[i]!;
    eachChild(f.exprs[i]!, (c) => (n[c]! += k));
  }
  return n;
}

/** Integer operations whose result bits do not depend on signedness (two's complement). */
const AGNOSTIC: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'and', 'or', 'xor', 'shl']);

const WRITES: ReadonlySet<string> = new Set(['store', 'atomic', 'atomic64', 'image_store', 'call', 'barrier']);

function writesMemory(s: Stmt): boolean {
  let w = false;
  walkStmts([s], (x) => {
    if (WRITES.has(x.op)) w = true;
  });
  return w;
}
function blocksQuadMotion(s: Stmt): boolean {
  if (s.op === 'if' || s.op === 'loop' || s.op === 'switch') return true;
  return s.op === 'kill' || s.op === 'barrier';
}

/** Which globals' memory may change while a function runs (everything but uniform, handle, read-only storage). */
function mutableRead(
  m: Module,
  f: Function,
  id: ExprId,
  memo: Map<ExprId, { mem: boolean; quad: boolean }>,
  inlined?: { readonly lets: ReadonlySet<number>; readonly values: ReadonlyMap<number, ExprId> },
): { mem: boolean; quad: boolean } {
  const hit = memo.get(id);
  if (hit) return hit;
  const e: Expr = f.exprs[id]!;
  let mem = false;
  let quad = false;
  // a let inlined in this same round is evaluated where its reader is: what its value reads counts
  if (e.op === 'let' && inlined?.lets.has(e.let)) {
    const v = inlined.values.get(e.let);
    if (v !== undefined) {
      const r = mutableRead(m, f, v, memo, inlined);
      mem = r.mem;
      quad = r.quad;
    }
  }
  if (e.op === 'local') mem = true;
  else if (e.op === 'global') {
    const g = m.globals[e.global]!;
    mem = g.space === 'private' || g.space === 'workgroup' || (g.space === 'storage' && g.access !== 'read');
    if (g.space === 'handle') {
      const t = m.types[g.type]!;
      const img = t.kind === 'binding_array' ? m.types[t.base]! : t;
      if (img.kind === 'image' && img.class.kind === 'storage') mem = true;
    }
  } else if (e.op === 'derivative') quad = true;
  else if (e.op === 'sample' && (e.level.kind === 'auto' || e.level.kind === 'bias')) quad = true;
  eachChild(e, (c) => {
    const r = mutableRead(m, f, c, memo, inlined);
    mem ||= r.mem;
    quad ||= r.quad;
  });
  const out = { mem, quad };
  memo.set(id, out);
  return out;
}

function plan(m: Module, f: Function, a: Arena | undefined, foldSingle: boolean, typed = true): Plan {
  const n = multiplicity(f);
  const uses = new Array<number>(f.lets.length).fill(0);
  f.exprs.forEach((e, i) => {
    if (e.op === 'let') uses[e.let]! += n[i]!;
  });
  // locals that are loaded somewhere (as the root of a load's pointer)
  const loaded = new Set<number>();
  f.exprs.forEach((e, i) => {
    if (e.op !== 'load' || n[i] === 0) return;
    const l = rootLocalOf(f, e.pointer);
    if (l !== undefined) loaded.add(l);
  });
  const deadLocals = new Set<number>();
  // a local passed anywhere but a store's pointer or a load is kept (atomics, array_length...)
  const otherUse = new Set<number>();
  f.exprs.forEach((e, i) => {
    if (n[i] === 0) return;
    eachChild(e, (c) => {
      const ce = f.exprs[c]!;
      if (ce.op === 'local' && e.op !== 'member' && e.op !== 'access' && e.op !== 'load') otherUse.add(ce.local);
    });
  });
  walkStmts(f.body, (s) => {
    if (s.op === 'store') return;
    for (const x of stmtExprs(s)) {
      const l = rootLocalOf(f, x);
      if (l !== undefined) otherUse.add(l);
    }
  });
  f.locals.forEach((_, i) => {
    if (!loaded.has(i) && !otherUse.has(i)) deadLocals.add(i);
  });
  const drop = new Set<number>();
  const inline = new Set<number>();
  const letStmt = new Map<number, Stmt>();
  walkStmts(f.body, (s) => {
    if (s.op === 'let') letStmt.set(s.let, s);
  });
  for (const [l, s] of letStmt) {
    if (uses[l] === 0) drop.add(l);
    else if (s.op === 'let' && a && trivial(a, s.value)) inline.add(l);
  }
  if (foldSingle) {
    const memo = new Map<ExprId, { mem: boolean; quad: boolean }>();
    const letValues = new Map<number, ExprId>();
    const sites = letSites(f);
    for (const [l, st] of letStmt) if (st.op === 'let') letValues.set(l, st.value);
    const visit = (b: Block): void => {
      b.forEach((s, i) => {
        if (s.op === 'if') {
          visit(s.accept);
          visit(s.reject);
        } else if (s.op === 'loop') visit(s.body);
        else if (s.op === 'switch') for (const c of s.cases) visit(c.body);
        if (s.op !== 'let' || uses[s.let] !== 1 || inline.has(s.let)) return;
        // the single use: a later statement of this block that reads the let directly
        const target = findUse(sites, b, i, s.let);
        if (target < 0) return;
        const user = b[target]!;
        if (user.op === 'let' && inline.has(user.let)) return; // one step at a time
        const r = mutableRead(m, f, s.value, memo, { lets: inline, values: letValues });
        for (let k = i + 1; k < target; k++) {
          const between = b[k]!;
          if (r.mem && writesMemory(between)) return;
          if (r.quad && blocksQuadMotion(between)) return;
        }
        inline.add(s.let);
      });
    };
    visit(f.body);
  }
  // a let both dropped and inlined: dropped wins
  for (const l of drop) inline.delete(l);
  const { retype, split } =
    a && typed
      ? retypes(f, a, n, otherUse, deadLocals)
      : { retype: new Map<number, Scalar>(), split: new Set<number>() };
  return { inline, drop, deadLocals, retype, split };
}

/** A u32 type (scalar, vector, or a sized array of them) with its scalar replaced. */
function retypedOf(table: TypeTable, t: Type, to: Scalar): Type {
  if (t.kind === 'vector') return { kind: 'vector', scalar: to, size: t.size };
  if (t.kind === 'array') return { kind: 'array', base: retypedType(table, t.base, to), length: t.length };
  return { kind: 'scalar', scalar: to };
}
function retypedType(table: TypeTable, id: TypeId, to: Scalar): TypeId {
  return table.id(retypedOf(table, table.types[id]!, to));
}

/**
 * Kept locals of a register's form (u32, vector of u32) whose values are mostly written and read as
 * another scalar: each store of `bitcast<u32>(x)` with x of scalar S, and each load read through
 * `bitcast<S>` (of it or of its lanes), is a vote for S; every other load and store (but a literal's)
 * votes u32. A local whose best S outvotes u32 is retyped to S (a bitcast never changes a bit, so
 * the program's words stay the same).
 */
function retypes(
  f: Function,
  a: Arena,
  n: readonly number[],
  otherUse: ReadonlySet<number>,
  dead: ReadonlySet<number>,
): { retype: Map<number, Scalar>; split: Set<number> } {
  const root = (ptr: ExprId): number | undefined => rootLocalOf(f, ptr);
  // a local read or written whole as an array, or with an initial value that is not zero, stays
  const whole = new Set<number>();
  f.exprs.forEach((e, i) => {
    if (n[i] === 0 || e.op !== 'load') return;
    const p = f.exprs[e.pointer]!;
    if (p.op === 'local' && a.table.types[f.locals[p.local]!.type]!.kind === 'array') whole.add(p.local);
  });
  walkStmts(f.body, (s) => {
    if (s.op !== 'store') return;
    const p = f.exprs[s.pointer]!;
    if (p.op === 'local' && a.table.types[f.locals[p.local]!.type]!.kind === 'array') whole.add(p.local);
  });
  const candidate = (l: number): boolean => {
    if (otherUse.has(l) || dead.has(l) || whole.has(l)) return false;
    const local = f.locals[l]!;
    if (local.init !== undefined && f.exprs[local.init]!.op !== 'zero') return false;
    let t = a.table.types[local.type]!;
    if (t.kind === 'array' && t.length !== null) t = a.table.types[t.base]!;
    return (t.kind === 'scalar' || t.kind === 'vector') && t.scalar !== 'bool';
  };
  /** The scalar of a candidate local (or of its array's elements). */
  const scalarOfLocal = (l: number): Scalar => {
    let t = a.table.types[f.locals[l]!.type]!;
    if (t.kind === 'array') t = a.table.types[t.base]!;
    return (t as Extract<Type, { kind: 'scalar' | 'vector' }>).scalar;
  };
  /** The scalar of the local whose votes are being taken: a plain read or store votes for it. */
  let own: Scalar = 'u32';
  // votes per local and lane (a scalar or array local has one lane; a whole-vector access votes in each)
  const votes = new Map<number, Map<Scalar, number>[]>();
  const lanesOf = (l: number): number => {
    const t = a.table.types[f.locals[l]!.type]!;
    return t.kind === 'vector' ? t.size : 1;
  };
  /** A vote for the lanes a pointer names (a lane, or all), or for `only` of them. */
  const vote = (l: number, s: Scalar, k: number, ptr: ExprId, only?: readonly number[]): void => {
    const v = votes.get(l) ?? Array.from({ length: lanesOf(l) }, () => new Map<Scalar, number>());
    votes.set(l, v);
    const p = f.exprs[ptr]!;
    const lane = p.op === 'member' && f.exprs[p.base]!.op === 'local' && v.length > 1 ? p.index : -1;
    for (const [i, m] of v.entries())
      if (lane === i || (lane < 0 && (!only || only.includes(i)))) m.set(s, (m.get(s) ?? 0) + k);
  };
  // who reads each expression (each reach counted), and the lets' values
  const parents: ExprId[][] = f.exprs.map(() => []);
  f.exprs.forEach((e, i) => {
    if (n[i] === 0) return;
    eachChild(e, (c) => parents[c]!.push(i));
  });
  const letValue = new Map<number, ExprId>();
  const letReads = new Map<number, ExprId[]>();
  /** Statements reading an expression directly, but lets (their reads count instead) and stores into a candidate (copies). */
  const stmtReads = new Map<ExprId, number>();
  walkStmts(f.body, (s) => {
    if (s.op === 'let') letValue.set(s.let, s.value);
    for (const x of stmtExprs(s)) {
      if (s.op === 'let' || (s.op === 'store' && x === s.pointer)) continue;
      if (s.op === 'store') {
        const l = root(s.pointer);
        if (l !== undefined && candidate(l)) continue;
        // a word stored to memory (a buffer, groupshared): the IR's words have no type of their own
        if (l === undefined && rootsAtGlobal(f, s.pointer)) continue;
      }
      stmtReads.set(x, (stmtReads.get(x) ?? 0) + 1);
    }
  });
  f.exprs.forEach((e, i) => {
    if (e.op !== 'let' || n[i] === 0) return;
    const rs = letReads.get(e.let);
    if (rs) rs.push(i);
    else letReads.set(e.let, [i]);
  });
  // the lets bound to each value, in letValue's order
  const letsOf = new Map<ExprId, number[]>();
  for (const [l, v] of letValue) {
    const ls = letsOf.get(v);
    if (ls) ls.push(l);
    else letsOf.set(v, [l]);
  }
  const intScalar = (id: ExprId): boolean => {
    const sh = a.shape(id);
    return sh !== undefined && (sh.scalar === 'u32' || sh.scalar === 'i32');
  };
  /** Whether an integer operation gives the same bits (eq / ne the same truth) on i32 and u32. */
  const signless = (e: Expr, operand: ExprId): boolean =>
    (e.op === 'binary' &&
      (AGNOSTIC.has(e.fn) || e.fn === 'eq' || e.fn === 'ne') &&
      !(e.fn === 'shl' && e.right === operand) &&
      intScalar(e.left)) ||
    (e.op === 'unary' && intScalar(e.arg));
  /** How a value is read, as votes: through bitcast<S> for S, by a signless integer operation or a
   * copy into a candidate local or a store to memory for none, anything else for u32; a swizzle,
   * compose, select (its accepted and rejected values) or let passes its reads on. */
  const readVotes = (id: ExprId, into: Map<Scalar, number>, depth = 0): void => {
    for (const p of parents[id]!) parentVotes(p, id, into, depth);
    into.set(own, (into.get(own) ?? 0) + (stmtReads.get(id) ?? 0));
    for (const l of letsOf.get(id) ?? []) for (const r of letReads.get(l) ?? []) readVotes(r, into, depth + 1);
  };
  /** The votes of one reader `p` of `id`. */
  const parentVotes = (p: ExprId, id: ExprId, into: Map<Scalar, number>, depth: number): void => {
    const add = (sc: Scalar, w: number): void => void into.set(sc, (into.get(sc) ?? 0) + w);
    const e = f.exprs[p]!;
    if (e.op === 'bitcast' && e.to !== 'bool') add(e.to, n[p]!);
    else if (e.op === 'swizzle' || e.op === 'compose' || (e.op === 'select' && e.cond !== id)) {
      if (depth > 8) add(own, n[p]!);
      else readVotes(p, into, depth + 1);
    } else if (!signless(e, id)) add(own, n[p]!);
  };
  /** The scalar a stored value is made of: S for bitcast<u32>(x of S), none for a literal, a copy
   * of a candidate local or a word of memory, or a signless integer operation (or compose, select) of those; else u32. */
  const valueScalar = (id: ExprId, depth = 0): Scalar | 'none' => {
    const e = f.exprs[id]!;
    // a value of its own scalar (and a mix of scalars: the local's own)
    const sh = a.shape(id);
    const plain: Scalar = sh && sh.scalar !== 'bool' ? sh.scalar : own;
    if (depth > 8) return plain;
    const join = (xs: (Scalar | 'none')[]): Scalar | 'none' => {
      const some = [...new Set(xs.filter((x) => x !== 'none'))];
      return some.length === 0 ? 'none' : some.length === 1 ? some[0]! : own;
    };
    switch (e.op) {
      case 'literal':
      case 'splat':
      case 'zero':
        return e.op === 'splat' ? valueScalar(e.value, depth + 1) : 'none';
      case 'swizzle':
        return valueScalar(e.vector, depth + 1);
      case 'bitcast': {
        // of x of S: S; of a copy of a candidate, a literal, or integer work of those: none
        const inner = a.shape(e.value);
        if (!inner || inner.scalar === 'bool') return own;
        return valueScalar(e.value, depth + 1) === 'none' ? 'none' : inner.scalar;
      }
      case 'load': {
        // a candidate's copy, or a word of memory (a buffer, groupshared, constant buffer): the
        // IR's words have no type of their own, the local's other uses type it
        const l = root(e.pointer);
        if (l !== undefined) return candidate(l) ? 'none' : plain;
        return rootsAtGlobal(f, e.pointer) ? 'none' : plain;
      }
      case 'let': {
        const v = letValue.get(e.let);
        return v === undefined ? plain : valueScalar(v, depth + 1);
      }
      case 'binary':
        if (!signless(e, e.left)) return plain;
        return join(
          e.fn === 'shl'
            ? [valueScalar(e.left, depth + 1)]
            : [valueScalar(e.left, depth + 1), valueScalar(e.right, depth + 1)],
        );
      case 'unary':
        return intScalar(e.arg) ? valueScalar(e.arg, depth + 1) : plain;
      case 'compose':
        return join(e.parts.map((x) => valueScalar(x, depth + 1)));
      case 'select':
        return join([valueScalar(e.accept, depth + 1), valueScalar(e.reject, depth + 1)]);
      default:
        return plain;
    }
  };
  f.exprs.forEach((e, i) => {
    if (n[i] === 0 || e.op !== 'load') return;
    const l = root(e.pointer);
    if (l === undefined || !candidate(l)) return;
    own = scalarOfLocal(l);
    // a whole load read through a swizzle votes for the lanes it picks
    for (const p of parents[i]!) {
      const into = new Map<Scalar, number>();
      parentVotes(p, i, into, 0);
      const pe = f.exprs[p]!;
      for (const [sc, k] of into) vote(l, sc, k, e.pointer, pe.op === 'swizzle' ? pe.pattern : undefined);
    }
    const rest = new Map<Scalar, number>([[own, stmtReads.get(i) ?? 0]]);
    for (const lt of letsOf.get(i) ?? []) for (const r of letReads.get(lt) ?? []) readVotes(r, rest, 1);
    for (const [sc, k] of rest) vote(l, sc, k, e.pointer);
  });
  walkStmts(f.body, (s) => {
    if (s.op !== 'store') return;
    const l = root(s.pointer);
    if (l === undefined || !candidate(l)) return;
    own = scalarOfLocal(l);
    const sc = valueScalar(s.value);
    if (sc !== 'none') vote(l, sc, 1, s.pointer);
  });
  const out = new Map<number, Scalar>();
  const split = new Set<number>();
  // a vector local reached only through loads and stores of itself or of a lane (member)
  const laneWise = new Set<number>();
  f.locals.forEach((local, l) => {
    if (a.table.types[local.type]!.kind === 'vector' && candidate(l)) laneWise.add(l);
  });
  f.exprs.forEach((e, i) => {
    if (n[i] === 0) return;
    if (e.op === 'access') {
      const l = root(e.base);
      if (l !== undefined) laneWise.delete(l);
    }
  });
  for (const [l, lanes] of votes) {
    // each lane's scalar: the one that outvotes the local's own, else its own where anything votes for it
    const mine = scalarOfLocal(l);
    const bests = new Set<Scalar>();
    for (const v of lanes) {
      const plain = v.get(mine) ?? 0;
      let best: Scalar | undefined;
      for (const s of (['u32', 'f32', 'i32'] as const).filter((x) => x !== mine))
        if ((v.get(s) ?? 0) > Math.max(plain, best ? v.get(best)! : 0)) best = s;
      if (best) bests.add(best);
      else if (plain > 0) bests.add(mine);
    }
    const [only] = bests;
    if (bests.size === 1 && only !== mine) out.set(l, only!);
    // lanes that want different scalars go apart, each retyped on its own
    else if (bests.size > 1 && laneWise.has(l)) split.add(l);
  }
  return { retype: out, split };
}

/** Where each let is read by a statement's own expressions (not a nested block's): the first such
 * statement's block and index, in statement order. */
function letSites(f: Function): Map<number, { readonly block: Block; readonly index: number }> {
  const sites = new Map<number, { readonly block: Block; readonly index: number }>();
  const visit = (b: Block): void => {
    b.forEach((s, index) => {
      const seen = new Set<ExprId>();
      const reach = (id: ExprId): void => {
        if (seen.has(id)) return;
        seen.add(id);
        const e = f.exprs[id]!;
        if (e.op === 'let') {
          if (!sites.has(e.let)) sites.set(e.let, { block: b, index });
        } else eachChild(e, reach);
      };
      for (const x of stmtExprs(s)) reach(x);
      if (s.op === 'if') {
        visit(s.accept);
        visit(s.reject);
      } else if (s.op === 'loop') visit(s.body);
      else if (s.op === 'switch') for (const c of s.cases) visit(c.body);
    });
  };
  visit(f.body);
  return sites;
}

/** The index of the statement of `b` after `from` whose own expressions read `l` (a let read once:
 * `sites` holds its one reader), or -1 where that reader is elsewhere (a nested block, another block). */
function findUse(
  sites: ReadonlyMap<number, { readonly block: Block; readonly index: number }>,
  b: Block,
  from: number,
  l: number,
): number {
  const at = sites.get(l);
  return at && at.block === b && at.index > from ? at.index : -1;
}

/** The most rounds of plan and rebuild simplifyFunction takes; a function that takes them all went round. */
export const SIMPLIFY_ROUNDS = 64;

/** Cleanup then folding, each to a fixed point (bounded); whenever the function is clean its locals
 * are split into their webs (webs.ts), and they are typed from the first split on. Ends at a fixed
 * point or where the rounds go round (a clean function met again, a local retyped back): `rounds`. */
export function simplifyFunction(
  m: Module,
  table: TypeTable,
  f: Function,
  types: readonly Resolved[],
  fold: boolean,
  webs = true,
): Typed & { readonly rounds: number } {
  let cur: Typed = { fn: f, types };
  let typed = false;
  // The types each local was given over the rounds since the last round that changed more than
  // types (local indices hold until then). A vote can flip a local back to a type it had (f32, then
  // u32 for the bitcasts f32 brought, then f32 again): such a retype is not taken, so the rounds end.
  let given = new Map<number, Set<Scalar>>();
  const clean = new Set<string>();
  for (let round = 0; round < SIMPLIFY_ROUNDS; round++) {
    const probe = new Arena(
      table,
      m,
      cur.fn.args.map((x) => x.type),
      cur.fn.locals.map((l) => l.type),
      [],
    );
    // the probe reads expression kinds only (trivial() looks at ops and value-ness)
    (probe as unknown as { exprs: Expr[] }).exprs.push(...cur.fn.exprs);
    (probe as unknown as { types: Resolved[] }).types.push(...cur.types);
    const p = plan(m, cur.fn, probe, fold, typed);
    if (p.retype?.size && !p.inline.size && !p.drop.size && !p.deadLocals.size && !p.split?.size) {
      for (const [l, to] of p.retype) {
        const had = given.get(l) ?? new Set<Scalar>();
        given.set(l, had);
        if (had.has(to)) p.retype.delete(l);
        else had.add(to);
      }
    } else given = new Map();
    if (!p.inline.size && !p.drop.size && !p.deadLocals.size && !p.retype?.size && !p.split?.size) {
      // clean: split the locals into their webs, then type them (a lane split by type may hold webs
      // of its own: the next clean function is split again). A clean function met before is where
      // the rounds go round (split, retyped, merged, split again): it is the result.
      if (typed) {
        const key = JSON.stringify([cur.fn.locals, cur.fn.exprs, cur.fn.body]);
        if (clean.has(key)) return { fn: cur.fn, types: cur.types, rounds: round + 1 };
        clean.add(key);
      }
      const w = webs ? splitWebs(m, table, cur) : undefined;
      if (!w && typed) return { fn: cur.fn, types: cur.types, rounds: round + 1 };
      typed = true;
      if (w) cur = w;
      continue;
    }
    cur = rebuild(m, table, cur.fn, cur.types, p);
  }
  return { fn: cur.fn, types: cur.types, rounds: SIMPLIFY_ROUNDS };
}
