// Live ranges ("webs") of the locals that stay: a register lane the compiler reused for unrelated
// values (a loop counter, then a colour; a comparison's mask, then a sample) is one local in the
// register form, so one type and a bitcast at every read of the other kind. Reaching definitions
// over the structured body (if / loop / switch, break, continue, return) join every store of a lane
// with the loads it can reach; the stores and loads that reach each other form one web, and a lane
// with more than one web becomes one scalar local a web (`r0_x`, `r0_x1`, ...), each then typed on
// its own by fold.ts. A web no load reaches is a local never loaded, which cleanup removes (dead
// stores). Every load reads the local of the stores that can reach it, so every value is the same.
//
// A local takes part when it is a scalar or vector reached only by loads and stores of itself or of
// a lane (`member`); anything else (an indexed array, an atomic, `access`) keeps it as it is.

import { functionWith, localEntry, localWith } from '../ir/nodes.js';
import type { Block, Expr, ExprId, Function, Module, Stmt } from '../ir/ir.js';
import type { Resolved } from '../ir/typeof.js';
import { Arena, TypeTable } from './arena.js';
import { childrenOf, eachChild, mapChildren, stmtExprs, walkStmts } from './ssa.js';
import type { Typed } from './fold.js';

/**
 * The definitions (stores, or a local's initial value) that may reach a point for one local: one
 * definition (`def`, a leaf), or all that `a` or `b` holds. Never changed once made, so states share
 * them: a branch or a loop round copies a map of one node a local, not a set of definitions (a set a
 * local and a copy at each branch made a long run of ifs or cases quadratic: 2,501 instructions of
 * if/else took 5 s to decompile, 24,001 of ifs 41 s).
 */
class Reach {
  constructor(
    readonly def: number,
    readonly a: Reach | undefined,
    readonly b: Reach | undefined,
    /** the highest definition it holds */
    readonly max: number,
    /** one definition it holds */
    readonly any: number,
  ) {}
}

/** What reaches along either of two paths. */
function either(x: Reach, y: Reach): Reach {
  return x === y ? x : new Reach(-1, x, y, Math.max(x.max, y.max), x.any);
}

/** The definitions numbered `floor` or more that `r` holds (nodes holding none below are not walked). */
function defsFrom(r: Reach, floor: number): Set<number> {
  const out = new Set<number>();
  const seen = new Set<Reach>();
  const stack = [r];
  while (stack.length) {
    const x = stack.pop()!;
    if (x.max < floor || seen.has(x)) continue;
    seen.add(x);
    if (x.a === undefined) out.add(x.def);
    else {
      stack.push(x.a);
      if (x.b) stack.push(x.b);
    }
  }
  return out;
}

/** Per local, what may reach; null: the point is unreachable. */
type State = Map<number, Reach> | null;

/** The expression fields of statements (handles into `exprs`), mapped by `mapStmtExprs`. */
const EXPR_FIELDS = [
  'value',
  'pointer',
  'cond',
  'selector',
  'compare',
  'low',
  'high',
  'image',
  'coord',
  'arrayIndex',
  'argument',
  'index',
] as const;

/** A statement with each expression it reads directly mapped (nested blocks are left to the caller). */
function mapStmtExprs(s: Stmt, f: (id: ExprId) => ExprId): Stmt {
  const out: Record<string, unknown> = { ...s };
  for (const k of EXPR_FIELDS) if (typeof out[k] === 'number') out[k] = f(out[k] as number);
  if (s.op === 'call') out['args'] = s.args.map(f);
  return out as unknown as Stmt;
}

class UnionFind {
  private readonly parent: number[] = [];
  add(): number {
    this.parent.push(this.parent.length);
    return this.parent.length - 1;
  }
  find(x: number): number {
    while (this.parent[x] !== x) {
      this.parent[x] = this.parent[this.parent[x]!]!;
      x = this.parent[x]!;
    }
    return x;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

/** The locals that take part: scalar or vector, reached only as `local` or `member(local, k)` under a load or a store's pointer (lanes of each). */
function eligibleLocals(f: Function, table: TypeTable): Map<number, number> {
  const lanes = new Map<number, number>();
  f.locals.forEach((l, i) => {
    const t = table.types[l.type]!;
    if (t.kind === 'scalar') lanes.set(i, 1);
    else if (t.kind === 'vector') lanes.set(i, t.size);
  });
  const pointers = new Set<ExprId>(); // expressions in a pointer's place: a load's, a store's
  f.exprs.forEach((e) => {
    if (e.op === 'load') pointers.add(e.pointer);
  });
  walkStmts(f.body, (s) => {
    if (s.op === 'store') pointers.add(s.pointer);
  });
  const localOf = (id: ExprId): number | undefined => {
    const e = f.exprs[id]!;
    if (e.op === 'local') return e.local;
    const b = e.op === 'member' ? f.exprs[e.base]! : undefined;
    return b?.op === 'local' ? b.local : undefined;
  };
  f.exprs.forEach((e, i) => {
    eachChild(e, (c) => {
      const l = localOf(c);
      if (l === undefined) return;
      const direct = f.exprs[c]!.op === 'local';
      // allowed: load(local), load(member(local)), member(local) in a pointer's place
      const ok = e.op === 'load' || (direct && e.op === 'member' && pointers.has(i));
      if (!ok) lanes.delete(l);
    });
  });
  walkStmts(f.body, (s) => {
    for (const x of stmtExprs(s)) {
      if (s.op === 'store' && x === s.pointer) continue;
      const l = localOf(x);
      if (l !== undefined) lanes.delete(l);
    }
  });
  return lanes;
}

/** The local a pointer names (`local`, or `member` of one for a lane) when it takes part, and whether it is all of it. */
function slotOf(f: Function, eligible: Set<number>, ptr: ExprId): { local: number; whole: boolean } | undefined {
  const e = f.exprs[ptr]!;
  if (e.op === 'local') return eligible.has(e.local) ? { local: e.local, whole: true } : undefined;
  if (e.op === 'member') {
    const b = f.exprs[e.base]!;
    if (b.op === 'local' && eligible.has(b.local)) return { local: b.local, whole: false };
  }
  return undefined;
}

/**
 * Splits locals that hold more than one web into one local a web, or returns undefined when none
 * does. A store of the whole local ends what reaches; a store of a lane adds to it (the other lanes
 * still hold what reached), so every web is a set of stores whose values one local can hold.
 */
export function splitWebs(m: Module, table: TypeTable, cur: Typed): Typed | undefined {
  const f = cur.fn;
  const eligible = new Set(eligibleLocals(f, table).keys());
  if (eligible.size === 0) return undefined;
  const uf = new UnionFind();
  /** definitions: the entry of each local (its initial value), then one per store */
  const entryDef = new Map<number, number>();
  const defLocal: number[] = [];
  for (const l of eligible) {
    entryDef.set(l, uf.add());
    defLocal.push(l);
  }
  const storeDef = new Map<Stmt, number>();
  /** each definition's leaf of what reaches (one object a definition, so that unchanged paths stay `===`) */
  const leaves: Reach[] = [];
  const leafOf = (d: number): Reach => (leaves[d] ??= new Reach(d, undefined, undefined, d, d));
  /** per statement, what may reach each local its loads read: one entry a loop round that saw another */
  const reads = new Map<Stmt, Map<number, Reach[]>>();

  /** The locals a statement's own expressions load. */
  const loadedOf = new Map<Stmt, number[]>();
  const loaded = (s: Stmt): number[] => {
    let hit = loadedOf.get(s);
    if (hit) return hit;
    const out = new Set<number>();
    const seen = new Set<ExprId>();
    const visit = (id: ExprId): void => {
      if (seen.has(id)) return;
      seen.add(id);
      const e = f.exprs[id]!;
      if (e.op === 'load') {
        const slot = slotOf(f, eligible, e.pointer);
        if (slot) out.add(slot.local);
      }
      eachChild(e, visit);
    };
    for (const x of stmtExprs(s)) visit(x);
    hit = [...out];
    loadedOf.set(s, hit);
    return hit;
  };

  const copyState = (st: State): State => (st ? new Map(st) : null);
  const join = (states: State[]): State => {
    let out: Map<number, Reach> | null = null;
    for (const s of states) {
      if (!s) continue;
      if (!out) {
        out = new Map(s);
        continue;
      }
      for (const [k, v] of s) {
        const o = out.get(k);
        out.set(k, o === undefined ? v : either(o, v));
      }
    }
    return out;
  };
  /** Whether `next` (a loop's entry joined with what its body leaves) reaches no more than `entry`:
   * `next` holds all `entry` does, and any definition it adds is one the loop's body makes, numbered
   * `floor` or more, so the definitions from `floor` on are all that are compared. */
  const same = (next: State, entry: State, floor: number): boolean => {
    if (!next || !entry) return next === entry;
    if (next.size !== entry.size) return false;
    for (const [k, v] of next) {
      const o = entry.get(k);
      if (o === undefined) return false;
      if (o !== v && defsFrom(v, floor).size !== defsFrom(o, floor).size) return false;
    }
    return true;
  };
  /** the number of definitions when each loop was first met: its body's own are numbered from there on */
  const loopFloor = new Map<Stmt, number>();

  interface Frame {
    kind: 'loop' | 'switch';
    breaks: State[];
    continues: State[];
  }
  const record = (s: Stmt, st: Map<number, Reach>): void => {
    const ls = loaded(s);
    if (!ls.length) return;
    let r = reads.get(s);
    if (!r) reads.set(s, (r = new Map()));
    for (const l of ls) {
      let list = r.get(l);
      if (!list) r.set(l, (list = []));
      const now = st.get(l);
      if (now !== undefined && !list.includes(now)) list.push(now);
    }
  };
  const innermostLoop = (frames: Frame[]): Frame | undefined => [...frames].reverse().find((x) => x.kind === 'loop');
  const flow = (b: Block, st: State, frames: Frame[]): State => {
    for (const s of b) {
      if (!st) return null;
      record(s, st);
      switch (s.op) {
        case 'store': {
          const slot = slotOf(f, eligible, s.pointer);
          if (!slot) break;
          let d = storeDef.get(s);
          if (d === undefined) {
            d = uf.add();
            defLocal.push(slot.local);
            storeDef.set(s, d);
          }
          st.set(slot.local, slot.whole ? leafOf(d) : either(st.get(slot.local)!, leafOf(d)));
          break;
        }
        case 'if':
          st = join([flow(s.accept, copyState(st), frames), flow(s.reject, copyState(st), frames)]);
          break;
        case 'loop': {
          let floor = loopFloor.get(s);
          if (floor === undefined) loopFloor.set(s, (floor = defLocal.length));
          let entry: State = st;
          for (let round = 0; ; round++) {
            const frame: Frame = { kind: 'loop', breaks: [], continues: [] };
            const end = flow(s.body, copyState(entry), [...frames, frame]);
            const next = join([entry, end, ...frame.continues]);
            // the sets only grow, so this ends; the bound is a guard
            if (same(next, entry, floor) || round > 4096) {
              st = join(frame.breaks);
              break;
            }
            entry = next;
          }
          break;
        }
        case 'switch': {
          const frame: Frame = { kind: 'switch', breaks: [], continues: [] };
          const ends = s.cases.map((c) => flow(c.body, copyState(st), [...frames, frame]));
          // a switch without a default case may run none of its cases
          const none = s.cases.some((c) => c.isDefault) ? [] : [st];
          st = join([...ends, ...frame.breaks, ...none]);
          innermostLoop(frames)?.continues.push(...frame.continues);
          break;
        }
        case 'break':
          frames[frames.length - 1]?.breaks.push(st);
          return null;
        case 'continue':
          innermostLoop(frames)?.continues.push(st);
          return null;
        case 'return':
          return null;
        default:
      }
    }
    return st;
  };
  flow(f.body, new Map([...entryDef].map(([l, d]) => [l, leafOf(d)])), []);

  // The definitions one load may read are one web. Each node of what reaches is walked once: one met
  // again has all its definitions in one web already, the web of its `any`.
  const live = new Set<number>();
  const walked = new Set<Reach>();
  const stack: Reach[] = [];
  for (const r of reads.values())
    for (const list of r.values()) {
      const first = list[0];
      if (first === undefined) continue;
      for (const top of list) stack.push(top);
      while (stack.length) {
        const x = stack.pop()!;
        uf.union(first.any, x.any);
        if (walked.has(x)) continue;
        walked.add(x);
        if (x.a) stack.push(x.a);
        if (x.b) stack.push(x.b);
      }
      live.add(first.any);
    }
  const liveRoot = new Set([...live].map((d) => uf.find(d)));
  // webs per local: those some load reads first (in order of their first definition), then the dead ones
  const websOf = new Map<number, number[]>();
  for (let d = 0; d < defLocal.length; d++) {
    const list = websOf.get(defLocal[d]!) ?? [];
    websOf.set(defLocal[d]!, list);
    const root = uf.find(d);
    if (!list.includes(root)) list.push(root);
  }
  for (const list of websOf.values()) list.sort((x, y) => Number(liveRoot.has(y)) - Number(liveRoot.has(x)) || x - y);
  const split = new Set([...websOf].filter(([, w]) => w.length > 1).map(([l]) => l));
  if (!split.size) return undefined;

  const locals: Function['locals'][number][] = [];
  const localMap = new Map<number, number>();
  const webLocal = new Map<number, number>(); // web root -> new local
  // a web's name: the local's, then `<base>_<k>` with the first k not taken (`r0_1`, `r0_2`, ...)
  const taken = new Set(f.locals.map((l) => l.name));
  const webName = (name: string): string => {
    const base = name.replace(/_\d+$/, '');
    let k = 1;
    while (taken.has(`${base}_${k}`)) k++;
    taken.add(`${base}_${k}`);
    return `${base}_${k}`;
  };
  f.locals.forEach((l, i) => {
    if (!split.has(i)) {
      localMap.set(i, locals.length);
      locals.push(l);
      return;
    }
    const entry = uf.find(entryDef.get(i)!);
    websOf.get(i)!.forEach((root, w) => {
      webLocal.set(root, locals.length);
      const name = w === 0 ? l.name : webName(l.name);
      // the initial value is read only by the web of the entry definition
      locals.push(localEntry(name, l.type, root === entry ? l.init : undefined));
    });
  });
  const letTypes: Resolved[] = [];
  f.exprs.forEach((e, i) => {
    if (e.op === 'let') letTypes[e.let] = cur.types[i]!;
  });
  walkStmts(f.body, (s) => {
    if (s.op === 'let' && letTypes[s.let] === undefined) letTypes[s.let] = cur.types[s.value]!;
  });
  const a = new Arena(
    table,
    m,
    f.args.map((x) => x.type),
    locals.map((l) => l.type),
    letTypes,
  );
  /** The local of the web a definition belongs to. */
  const localOfDef = (d: number | undefined, old: number): number =>
    d === undefined ? webLocal.get(websOf.get(old)![0]!)! : webLocal.get(uf.find(d))!;

  // expressions that reach a load of a split local are copied per statement (each reads its own webs)
  const touches: boolean[] = [];
  f.exprs.forEach((e, i) => {
    const slot = e.op === 'load' ? slotOf(f, eligible, e.pointer) : undefined;
    touches[i] = (slot !== undefined && split.has(slot.local)) || childrenOf(e).some((c) => touches[c]);
  });
  /** A pointer into a split local, to the local `to` instead. */
  const pointerTo = (ptr: ExprId, to: number): ExprId => {
    const e = f.exprs[ptr]!;
    const local = a.mk({ op: 'local', local: to });
    return e.op === 'local' ? local : a.mk({ ...e, base: local } as Expr, cur.types[ptr]);
  };
  const shared = new Map<ExprId, ExprId>();
  const copier = (s: Stmt | undefined): ((id: ExprId) => ExprId) => {
    const memo = new Map<ExprId, ExprId>();
    const reach = s ? reads.get(s) : undefined;
    const copy = (id: ExprId): ExprId => {
      const own = touches[id] ? memo : shared;
      const hit = own.get(id);
      if (hit !== undefined) return hit;
      const e: Expr = f.exprs[id]!;
      const slot = e.op === 'load' ? slotOf(f, eligible, e.pointer) : undefined;
      let out: ExprId;
      if (e.op === 'load' && slot && split.has(slot.local)) {
        // one definition of what reaches the load: all of it is one web
        const d = reach?.get(slot.local)?.[0]?.any;
        out = a.mk({ op: 'load', pointer: pointerTo(e.pointer, localOfDef(d, slot.local)) }, cur.types[id]);
      } else if (e.op === 'local') out = a.mk({ op: 'local', local: localMap.get(e.local)! });
      else out = a.mk(mapChildren(e, copy), cur.types[id]);
      own.set(id, out);
      return out;
    };
    return copy;
  };
  const block = (b: Block): Stmt[] =>
    b.map((s) => {
      const copy = copier(s);
      const slot = s.op === 'store' ? slotOf(f, eligible, s.pointer) : undefined;
      if (s.op === 'store' && slot && split.has(slot.local))
        return { ...s, pointer: pointerTo(s.pointer, localOfDef(storeDef.get(s), slot.local)), value: copy(s.value) };
      const t = mapStmtExprs(s, copy);
      if (t.op === 'if' && s.op === 'if') return { ...t, accept: block(s.accept), reject: block(s.reject) };
      if (t.op === 'loop' && s.op === 'loop') return { ...t, body: block(s.body) };
      if (t.op === 'switch' && s.op === 'switch')
        return { ...t, cases: s.cases.map((c) => ({ ...c, body: block(c.body) })) };
      return t;
    });
  const body = block(f.body);
  const init = copier(undefined);
  return {
    fn: functionWith(f, {
      locals: locals.map((l) => (l.init === undefined ? l : localWith(l, init(l.init)))),
      exprs: a.exprs,
      body,
    }),
    types: a.types,
  };
}
