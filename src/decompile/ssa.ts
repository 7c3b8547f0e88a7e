// Pass 1, registers to values: the lifter's register files (`var r0: vec4<u32>`, the `v`/`o` arrays
// indexed by constants) become one value per definition. Each lane of a register is tracked while
// the pass walks the body in order: a store binds its value to a `let` (or keeps it when it is a
// literal, argument or component of another value) and records, per lane, the expression that
// holds it; a load reads those expressions instead of the local. The local keeps a lane's value
// only where control flow merges it:
//
//   - before an `if`, `loop` or `switch`, every lane the construct writes (anywhere inside) is
//     stored to its local ("flushed"); inside, those lanes are read from the local;
//   - at the end of each of its blocks, and before a `break` or `continue` that leaves to it, the
//     construct's lanes known as values are stored again; after it, they are read from the local;
//   - lanes the construct does not write keep their values (lets bound before it are in scope
//     inside and after it).
//
// A local takes part only when every use of it is a load or store through `local`, `member` with a
// constant or an `access` with a literal index in range: a computed index, an atomic or a whole
// array store keeps it as it is. Locals start at their init (read from memory) or zero (known as
// zero literals). Loads of everything else (globals, other locals) are copied as they are, and a
// store's value that reads memory is always bound to a let at the store, so it is evaluated there.

import { letEntry, localWith, makeFunction } from '../ir/nodes.js';
import {
  joinOrigins,
  joinedOrigin,
  originated,
  type PendingOrigin,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type LocalId,
  type Module,
  type Origin,
  type Scalar,
  type Stmt,
  type Type,
} from '../ir/ir.js';
import { resolveFunction, scalarOf, widthOf, type Resolved } from '../ir/typeof.js';
import { Arena, TypeTable } from './arena.js';

interface Path {
  local: LocalId;
  /** Element of an array local (-1: the local is the register itself). */
  elem: number;
  /** Lane (-1: the whole register). */
  lane: number;
}

interface Slot {
  /** Per lane: the value, or null when the local holds it. */
  lanes: (ExprId | null)[];
  /** Per lane: the origins (ir.ts Origin) a statement reading the lane's value takes on, because
   * the value is written into it and not named by a let: the store that wrote it and what that
   * store read; absent: none. */
  from?: PendingOrigin[];
  /** Per lane: the origins of the store that wrote the value (and what it read), which a store
   * of the lane to its local (a flush before a construct) carries; absent: none. */
  wrote?: PendingOrigin[];
}

type State = Map<string, Slot>;

/** Whether an expression is cheap and stable enough to be read more than once without a let. */
export function trivial(a: Arena, id: ExprId): boolean {
  const e = a.exprs[id]!;
  switch (e.op) {
    case 'literal':
    case 'zero':
    case 'constant':
    case 'let':
    case 'arg':
      return true;
    case 'swizzle':
      return trivial(a, e.vector);
    case 'bitcast':
      return trivial(a, e.value);
    case 'member':
      return a.types[e.base]?.kind === 'value' && trivial(a, e.base);
    case 'load':
      return uniformRegister(a, e.pointer);
    default:
      return false;
  }
}

/** A value that is a bitcast of a non-trivial value (bitcast<T>(x), or lanes of one:
 * swizzle(bitcast<T>(x), p)): a let holds x (or x's lanes) in x's own type and the bitcast moves
 * to its reads, where the arena cancels it against the reads' own bitcasts back. A swizzle and a
 * bitcast commute: neither changes a bit. */
export function castOut(a: Arena, v: ExprId): { value: ExprId; to: Scalar } | undefined {
  const inner = a.exprs[v]!;
  if (inner.op === 'bitcast' && !trivial(a, inner.value)) return { value: inner.value, to: inner.to };
  if (inner.op === 'swizzle') {
    const under = a.exprs[inner.vector]!;
    if (under.op === 'bitcast' && !trivial(a, under.value))
      return { value: a.mk({ op: 'swizzle', vector: under.value, pattern: inner.pattern }), to: under.to };
  }
  return undefined;
}

/** A constant-buffer register at a literal index: uniform memory, which no invocation writes. */
function uniformRegister(a: Arena, ptr: ExprId): boolean {
  const e = a.exprs[ptr]!;
  if (e.op !== 'member' && e.op !== 'access') return false;
  if (e.op === 'access' && a.exprs[e.index]!.op !== 'literal') return false;
  const g = a.exprs[e.base]!;
  return g.op === 'global' && a.module.globals[g.global]?.space === 'uniform';
}

export function promoteRegisters(
  m: Module,
  table: TypeTable,
  f: Function,
): { fn: Function; types: readonly Resolved[] } {
  const old = resolveFunction(m, f);
  const registerType = (t: Type): { lanes: number; scalar: string } | undefined =>
    t.kind === 'vector' || t.kind === 'scalar' ? { lanes: widthOf(t), scalar: scalarOf(t)! } : undefined;

  // Which locals take part: every use through a constant path ending in a load or store.
  const promotable = f.locals.map((l) => {
    const t = m.types[l.type]!;
    if (registerType(t)) return true;
    return t.kind === 'array' && t.length !== null && registerType(m.types[t.base]!) !== undefined;
  });
  const pathOf = (id: ExprId): Path | undefined => {
    const e = f.exprs[id]!;
    if (e.op === 'local') {
      const t = m.types[f.locals[e.local]!.type]!;
      return t.kind === 'array' ? { local: e.local, elem: -2, lane: -1 } : { local: e.local, elem: -1, lane: -1 };
    }
    if (e.op !== 'member' && e.op !== 'access') return undefined;
    const base = pathOf(e.base);
    if (!base) return undefined;
    let k: number;
    if (e.op === 'member') k = e.index;
    else {
      const ix = f.exprs[e.index]!;
      if (ix.op !== 'literal' || (ix.scalar !== 'u32' && ix.scalar !== 'i32')) return undefined;
      k = ix.bits;
    }
    if (base.elem === -2) {
      const t = m.types[f.locals[base.local]!.type]!;
      if (t.kind !== 'array' || t.length === null || k >= t.length) return undefined;
      return { local: base.local, elem: k, lane: -1 };
    }
    if (base.lane !== -1) return undefined;
    const rt = registerType(elemType(base));
    if (!rt || rt.lanes === 1 || k >= rt.lanes) return undefined;
    return { ...base, lane: k };
  };
  const elemType = (p: Path): Type => {
    const t = m.types[f.locals[p.local]!.type]!;
    return p.elem >= 0 && t.kind === 'array' ? m.types[t.base]! : t;
  };
  // parents: a local-derived pointer may only be the base of a path, a load's pointer or a store's pointer
  const stmtPointers = new Set<ExprId>();
  walkStmts(f.body, (s) => {
    if (s.op === 'store') stmtPointers.add(s.pointer);
  });
  const derived = new Map<ExprId, LocalId>();
  for (let i = 0; i < f.exprs.length; i++) {
    const e = f.exprs[i]!;
    if (e.op === 'local') derived.set(i, e.local);
    else if ((e.op === 'member' || e.op === 'access') && derived.has(e.base)) {
      derived.set(i, derived.get(e.base)!);
      if (!pathOf(i)) promotable[derived.get(e.base)!] = false;
    }
    if (e.op === 'access' && derived.has(e.index)) promotable[derived.get(e.index)!] = false;
    eachChild(e, (c) => {
      if (!derived.has(c)) return;
      const ok = e.op === 'load' || ((e.op === 'member' || e.op === 'access') && c === (e as { base: number }).base);
      if (!ok) promotable[derived.get(c)!] = false;
      if (e.op === 'load' && pathOf(c)?.elem === -2) promotable[derived.get(c)!] = false;
    });
  }
  walkStmts(f.body, (s) => {
    for (const x of stmtExprs(s)) {
      if (derived.has(x) && !(s.op === 'store' && x === s.pointer)) promotable[derived.get(x)!] = false;
    }
    if (s.op === 'store' && derived.has(s.pointer) && pathOf(s.pointer)?.elem === -2)
      promotable[derived.get(s.pointer)!] = false;
  });

  const letTypes: Resolved[] = [];
  const a = new Arena(
    table,
    m,
    f.args.map((x) => x.type),
    f.locals.map((l) => l.type),
    letTypes,
  );
  const lets: { name: string }[] = [];
  const letMap = new Map<number, number>();
  const newLet = (name: string, t: Resolved): number => {
    lets.push(letEntry(name));
    letTypes.push(t);
    return lets.length - 1;
  };
  const key = (p: Path): string => `${p.local}:${p.elem}`;

  const slotOf = (st: State, p: Path): Slot => {
    const k = key(p);
    let s = st.get(k);
    if (!s) {
      const rt = registerType(elemType(p))!;
      const init = f.locals[p.local]!.init;
      const zero = init === undefined ? a.literal(rt.scalar as 'u32', 0) : null;
      s = { lanes: Array.from({ length: rt.lanes }, () => zero) };
      st.set(k, s);
    }
    return s;
  };
  const pointerOf = (p: Path, lane = -1): ExprId => {
    let ptr = a.mk({ op: 'local', local: p.local });
    if (p.elem >= 0) ptr = a.mk({ op: 'member', base: ptr, index: p.elem });
    if (lane >= 0) ptr = a.mk({ op: 'member', base: ptr, index: lane });
    return ptr;
  };

  // provenance (ir.ts Origin): the statement being rewritten's origin, and the origins of the
  // promoted lanes it has read so far (their values are inlined into it); a statement made for it
  // carries both (own)
  let current: Origin | undefined;
  let reads: PendingOrigin;
  const own = (x: Stmt): Stmt => originated(x, joinedOrigin(joinOrigins(current, reads)));

  // rewriting one statement's expressions against the state
  const rw = (st: State, id: ExprId, memo: Map<ExprId, ExprId>): ExprId => {
    const hit = memo.get(id);
    if (hit !== undefined) return hit;
    const e = f.exprs[id]!;
    let out: ExprId;
    const ptr = e.op === 'load' ? pathOf(e.pointer) : undefined;
    if (e.op === 'load' && ptr && promotable[ptr.local]) {
      const slot = slotOf(st, ptr);
      const rt = registerType(elemType(ptr))!;
      const laneValue = (k: number): ExprId => {
        reads = joinOrigins(reads, slot.from?.[k]);
        return slot.lanes[k] ?? a.component(a.mk({ op: 'load', pointer: pointerOf(ptr) }), k);
      };
      if (ptr.lane >= 0) out = laneValue(ptr.lane);
      else if (rt.lanes === 1) out = laneValue(0);
      else {
        const parts = slot.lanes.map((_, k) => laneValue(k));
        out = a.mk({ op: 'compose', type: table.vec(rt.scalar as 'u32', rt.lanes), parts });
      }
    } else if (e.op === 'let') {
      const n = letMap.get(e.let);
      if (n === undefined) throw new Error(`decompile: let ${e.let} read before it is bound`);
      const to = letCast.get(e.let);
      out = to === undefined ? a.let(n) : a.mk({ op: 'bitcast', to, value: a.let(n) });
    } else {
      out = a.mk(
        mapChildren(e, (c) => rw(st, c, memo)),
        old[id],
      );
    }
    memo.set(id, out);
    return out;
  };

  // lanes written inside each statement (by slot key)
  const writes = new Map<Stmt, Set<string>>();
  const writesOf = (s: Stmt): Set<string> => {
    let w = writes.get(s);
    if (w) return w;
    w = new Set();
    const set = w;
    walkStmts([s], (x) => {
      if (x.op !== 'store') return;
      const p = pathOf(x.pointer);
      if (p && promotable[p.local]) set.add(key(p));
    });
    writes.set(s, w);
    return w;
  };

  const flush = (st: State, keys: Set<string>, out: Stmt[]): void => {
    for (const k of keys) {
      const slot = st.get(k);
      if (!slot) continue;
      const [local, elem] = k.split(':').map(Number) as [number, number];
      const p: Path = { local, elem, lane: -1 };
      const rt = registerType(elemType(p))!;
      // a flushed store carries the origins of the lanes it stores (their writers')
      const from = (lanes: readonly number[]): Origin | undefined =>
        joinedOrigin(lanes.reduce<PendingOrigin>((o, k) => joinOrigins(o, slot.wrote?.[k]), undefined));
      if (slot.lanes.every((x) => x !== null) && rt.lanes > 1) {
        const v = a.mk({ op: 'compose', type: table.vec(rt.scalar as 'u32', rt.lanes), parts: slot.lanes as ExprId[] });
        out.push(originated({ op: 'store', pointer: pointerOf(p), value: v }, from(slot.lanes.map((_, k) => k))));
      } else
        slot.lanes.forEach((x, lane) => {
          if (x !== null)
            out.push(
              originated(
                { op: 'store', pointer: rt.lanes === 1 ? pointerOf(p) : pointerOf(p, lane), value: x },
                from([lane]),
              ),
            );
        });
    }
  };
  const forget = (st: State, keys: Set<string>): void => {
    for (const k of keys) {
      const [local, elem] = k.split(':').map(Number) as [number, number];
      const slot = slotOf(st, { local, elem, lane: -1 });
      slot.lanes = slot.lanes.map(() => null);
      delete slot.from;
      delete slot.wrote;
    }
  };
  const copyState = (st: State): State =>
    new Map(
      [...st].map(([k, v]) => [
        k,
        {
          lanes: [...v.lanes],
          ...(v.from ? { from: [...v.from] } : {}),
          ...(v.wrote ? { wrote: [...v.wrote] } : {}),
        },
      ]),
    );

  /** Lets of the lifted function bound to x where their value was bitcast<T>(x): T, applied at each read. */
  const letCast = new Map<number, Scalar>();

  const bindValue = (v: ExprId, out: Stmt[], name: string): ExprId => {
    if (trivial(a, v)) return v;
    // a vector built of trivial parts (an input copied to a register, a literal lane): no let
    const comps = a.components(v);
    if (comps && comps.every((c) => trivial(a, c))) return v;
    const cast = castOut(a, v);
    if (cast) {
      const id = newLet(name, a.types[cast.value]!);
      out.push(own({ op: 'let', let: id, value: cast.value }));
      return a.mk({ op: 'bitcast', to: cast.to, value: a.let(id) });
    }
    const id = newLet(name, a.types[v]!);
    out.push(own({ op: 'let', let: id, value: v }));
    return a.let(id);
  };

  // targets: break/continue flush the lanes of the construct they leave to
  interface Frame {
    kind: 'loop' | 'switch';
    keys: Set<string>;
  }
  const block = (b: Block, st: State, frames: Frame[], mine: Set<string> | undefined): Stmt[] => {
    const out: Stmt[] = [];
    let ended = false;
    const outer = { current, reads };
    for (const s of b) {
      current = s.origin;
      reads = undefined;
      const memo = new Map<ExprId, ExprId>();
      const x = (id: ExprId): ExprId => rw(st, id, memo);
      switch (s.op) {
        case 'let': {
          const v0 = x(s.value);
          const cast = castOut(a, v0);
          const v = cast ? cast.value : v0;
          const id = newLet(f.lets[s.let]!.name, a.types[v]!);
          out.push(own({ op: 'let', let: id, value: v }));
          letMap.set(s.let, id);
          if (cast) letCast.set(s.let, cast.to);
          break;
        }
        case 'store': {
          const p = pathOf(s.pointer);
          const v = x(s.value);
          if (p && promotable[p.local]) {
            const slot = slotOf(st, p);
            const rt = registerType(elemType(p))!;
            const name = regName(f, p);
            const before = out.length;
            const held = bindValue(v, out, name);
            // a value bound to a let, or read from one, is read by the let's name (the let carries
            // the origins); one that is not is inlined where it is read, and its origins go with it
            const w = joinOrigins(current, reads);
            const o = out.length > before || readsLet(a, held) ? undefined : w;
            const from = (slot.from ??= slot.lanes.map(() => undefined));
            const wrote = (slot.wrote ??= slot.lanes.map(() => undefined));
            if (p.lane >= 0 || rt.lanes === 1) {
              const k = Math.max(p.lane, 0);
              slot.lanes[k] = held;
              from[k] = o;
              wrote[k] = w;
            } else {
              slot.lanes = slot.lanes.map((_, k) => a.component(held, k));
              from.fill(o);
              wrote.fill(w);
            }
          } else out.push(own({ op: 'store', pointer: x(s.pointer), value: v }));
          break;
        }
        case 'if': {
          const cond = x(s.cond);
          const w = writesOf(s);
          flush(st, w, out);
          forget(st, w);
          const accept = block(s.accept, copyState(st), frames, w);
          const reject = block(s.reject, copyState(st), frames, w);
          out.push(own({ op: 'if', cond, accept, reject }));
          break;
        }
        case 'loop': {
          const w = writesOf(s);
          flush(st, w, out);
          forget(st, w);
          const body = block(s.body, copyState(st), [...frames, { kind: 'loop', keys: w }], w);
          out.push(own({ op: 'loop', body }));
          break;
        }
        case 'switch': {
          const selector = x(s.selector);
          const w = writesOf(s);
          flush(st, w, out);
          forget(st, w);
          const cases = s.cases.map((c) => ({
            values: c.values,
            isDefault: c.isDefault,
            body: block(c.body, copyState(st), [...frames, { kind: 'switch' as const, keys: w }], w),
          }));
          out.push(own({ op: 'switch', selector, cases }));
          break;
        }
        case 'break':
        case 'continue': {
          const target =
            s.op === 'break' ? frames[frames.length - 1] : [...frames].reverse().find((t) => t.kind === 'loop');
          if (target) flush(st, target.keys, out);
          out.push(s);
          ended = true;
          break;
        }
        case 'return':
          out.push(s.value === undefined ? s : own({ op: 'return', value: x(s.value) }));
          ended = true;
          break;
        case 'atomic': {
          const r: Stmt = {
            op: 'atomic',
            pointer: x(s.pointer),
            fn: s.fn,
            ...(s.value !== undefined ? { value: x(s.value) } : {}),
            ...(s.compare !== undefined ? { compare: x(s.compare) } : {}),
            ...(s.result !== undefined ? { result: mapResult(s.result, old, f, s) } : {}),
          };
          out.push(own(r));
          break;
        }
        case 'atomic64':
          out.push(
            own({
              ...s,
              low: x(s.low),
              high: x(s.high),
              value: x(s.value),
              ...(s.compare !== undefined ? { compare: x(s.compare) } : {}),
              ...(s.result !== undefined ? { result: mapResult(s.result, old, f, s) } : {}),
            }),
          );
          break;
        case 'subgroup': {
          const r: Stmt = {
            op: 'subgroup',
            fn: s.fn,
            ...(s.argument !== undefined ? { argument: x(s.argument) } : {}),
            ...(s.index !== undefined ? { index: x(s.index) } : {}),
            ...(s.reduce !== undefined ? { reduce: s.reduce } : {}),
            result: mapResult(s.result, old, f, s),
          };
          out.push(own(r));
          break;
        }
        case 'call': {
          const args = s.args.map(x);
          out.push(
            own({
              op: 'call',
              fn: s.fn,
              args,
              ...(s.result !== undefined ? { result: mapResult(s.result, old, f, s) } : {}),
            }),
          );
          break;
        }
        case 'image_store':
          out.push(
            own({
              op: 'image_store',
              image: x(s.image),
              coord: x(s.coord),
              ...(s.arrayIndex !== undefined ? { arrayIndex: x(s.arrayIndex) } : {}),
              value: x(s.value),
            }),
          );
          break;
        default:
          out.push(s);
      }
      if (ended) break;
    }
    ({ current, reads } = outer);
    if (!ended && mine) flush(st, mine, out);
    return out;
  };

  // a statement's result let (atomic, subgroup, call): its type from the lifted function's let reads
  function mapResult(oldLet: number, types: Resolved[], fn: Function, _s: Stmt): number {
    let t: Resolved | undefined;
    for (let i = 0; i < fn.exprs.length; i++) {
      const e = fn.exprs[i]!;
      if (e.op === 'let' && e.let === oldLet) {
        t = types[i];
        break;
      }
    }
    const id = newLet(fn.lets[oldLet]!.name, t ?? { kind: 'value', type: { kind: 'scalar', scalar: 'u32' } });
    letMap.set(oldLet, id);
    return id;
  }

  const body = block(f.body, new Map(), [], undefined);
  const locals = f.locals.map((l) => {
    if (l.init === undefined) return l;
    const copy = (id: ExprId): ExprId => a.mk(mapChildren(f.exprs[id]!, copy), old[id]);
    return localWith(l, copy(l.init));
  });
  const fn = makeFunction(f.name, f.args, locals, lets, a.exprs, body, f.result);
  return { fn, types: a.types };
}

function regName(f: Function, p: Path): string {
  const n = f.locals[p.local]!.name;
  return p.elem >= 0 ? `${n}${p.elem}` : n;
}

export function walkStmts(b: Block, visit: (s: Stmt) => void): void {
  for (const s of b) {
    visit(s);
    if (s.op === 'if') {
      walkStmts(s.accept, visit);
      walkStmts(s.reject, visit);
    } else if (s.op === 'loop') walkStmts(s.body, visit);
    else if (s.op === 'switch') for (const c of s.cases) walkStmts(c.body, visit);
  }
}

/** The expressions a statement reads directly (not those of its nested blocks). */
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
      return [s.image, s.coord, ...(s.arrayIndex !== undefined ? [s.arrayIndex] : []), s.value];
    case 'subgroup':
      return [...(s.argument !== undefined ? [s.argument] : []), ...(s.index !== undefined ? [s.index] : [])];
    case 'call':
      return [...s.args];
    default:
      return [];
  }
}

export function childrenOf(e: Expr): ExprId[] {
  const out: ExprId[] = [];
  eachChild(e, (c) => out.push(c));
  return out;
}

/** Each operand handle of an expression, in mapChildren's order, without copying the expression. */
export function eachChild(e: Expr, f: (c: ExprId) => void): void {
  switch (e.op) {
    case 'literal':
    case 'zero':
    case 'constant':
    case 'arg':
    case 'global':
    case 'local':
    case 'let':
      return;
    case 'compose':
      for (const c of e.parts) f(c);
      return;
    case 'math':
      for (const c of e.args) f(c);
      return;
    case 'splat':
    case 'bitcast':
    case 'convert':
    case 'derivative':
      f(e.value);
      return;
    case 'swizzle':
      f(e.vector);
      return;
    case 'access':
      f(e.base);
      f(e.index);
      return;
    case 'member':
      f(e.base);
      return;
    case 'load':
    case 'array_length':
      f(e.pointer);
      return;
    case 'unary':
      f(e.arg);
      return;
    case 'binary':
      f(e.left);
      f(e.right);
      return;
    case 'select':
      f(e.cond);
      f(e.accept);
      f(e.reject);
      return;
    case 'sample': {
      // mapChildren maps the level's operands before the others
      const l = e.level;
      if (l.kind === 'exact') f(l.level);
      else if (l.kind === 'bias') f(l.bias);
      else if (l.kind === 'gradient') {
        f(l.x);
        f(l.y);
      }
      f(e.image);
      f(e.sampler);
      f(e.coord);
      if (e.arrayIndex !== undefined) f(e.arrayIndex);
      if (e.offset !== undefined) f(e.offset);
      if (e.depthRef !== undefined) f(e.depthRef);
      if (e.clamp !== undefined) f(e.clamp);
      return;
    }
    case 'image_load':
      f(e.image);
      f(e.coord);
      if (e.arrayIndex !== undefined) f(e.arrayIndex);
      if (e.sample !== undefined) f(e.sample);
      if (e.level !== undefined) f(e.level);
      return;
    case 'image_query':
      f(e.image);
      if (e.level !== undefined) f(e.level);
      return;
  }
}

/** A copy of an expression with each operand handle mapped. */
export function mapChildren(e: Expr, f: (c: ExprId) => ExprId): Expr {
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
      return { ...e, parts: e.parts.map(f) };
    case 'splat':
      return { ...e, value: f(e.value) };
    case 'swizzle':
      return { ...e, vector: f(e.vector) };
    case 'access':
      return { ...e, base: f(e.base), index: f(e.index) };
    case 'member':
      return { ...e, base: f(e.base) };
    case 'load':
      return { ...e, pointer: f(e.pointer) };
    case 'unary':
      return { ...e, arg: f(e.arg) };
    case 'binary':
      return { ...e, left: f(e.left), right: f(e.right) };
    case 'select':
      return { ...e, cond: f(e.cond), accept: f(e.accept), reject: f(e.reject) };
    case 'math':
      return { ...e, args: e.args.map(f) };
    case 'bitcast':
    case 'convert':
    case 'derivative':
      return { ...e, value: f(e.value) };
    case 'sample': {
      const l = e.level;
      const level =
        l.kind === 'exact'
          ? { kind: 'exact' as const, level: f(l.level) }
          : l.kind === 'bias'
            ? { kind: 'bias' as const, bias: f(l.bias) }
            : l.kind === 'gradient'
              ? { kind: 'gradient' as const, x: f(l.x), y: f(l.y) }
              : l;
      return {
        op: 'sample',
        image: f(e.image),
        sampler: f(e.sampler),
        coord: f(e.coord),
        ...(e.arrayIndex !== undefined ? { arrayIndex: f(e.arrayIndex) } : {}),
        ...(e.offset !== undefined ? { offset: f(e.offset) } : {}),
        level,
        ...(e.depthRef !== undefined ? { depthRef: f(e.depthRef) } : {}),
        ...(e.gather !== undefined ? { gather: e.gather } : {}),
        ...(e.clamp !== undefined ? { clamp: f(e.clamp) } : {}),
      };
    }
    case 'image_load':
      return {
        op: 'image_load',
        image: f(e.image),
        coord: f(e.coord),
        ...(e.arrayIndex !== undefined ? { arrayIndex: f(e.arrayIndex) } : {}),
        ...(e.sample !== undefined ? { sample: f(e.sample) } : {}),
        ...(e.level !== undefined ? { level: f(e.level) } : {}),
      };
    case 'image_query':
      return { ...e, image: f(e.image), ...(e.level !== undefined ? { level: f(e.level) } : {}) };
    case 'array_length':
      return { ...e, pointer: f(e.pointer) };
  }
}

/** Whether an expression reads a let (through swizzles, bitcasts, composes...). */
function readsLet(a: Arena, id: ExprId): boolean {
  const e = a.exprs[id]!;
  return e.op === 'let' || childrenOf(e).some((c) => readsLet(a, c));
}
