// Pass: registers split into lanes, in functions that hold a barrier (passes.ts). Tint's uniformity
// analysis tracks a variable as a whole: once one lane of r0 holds a per-invocation value, every
// later read of r0 counts as non-uniform, and a barrier under a loop whose counter sits in another
// lane of r0 is refused. With each vec4<u32> local split into four u32 locals (r0_x .. r0_w), and
// lane reads taken from the lane's local only, the analysis sees what Direct3D's program does.

import { objectList } from '../binary/lists.js';
import {
  copyExpr,
  functionWith,
  letEntry,
  localEntry,
  localWith,
  makeExpr,
  makeStmt,
  moduleWith,
  ownExpr,
  ownStmt,
} from '../ir/nodes.js';
import {
  blockHolds,
  HOLDS_BARRIER,
  originated,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type LetInfo,
  type LocalVariable,
  type Module,
  type Stmt,
  type TypeId,
} from '../ir/ir.js';
import { mapChildren, mapOperands } from './binding-arrays.js';

export function scalarizeBarrierFunctions(m: Module): Module {
  const vec4 = m.types.findIndex((t) => t.kind === 'vector' && t.size === 4 && t.scalar === 'u32');
  const u32 = m.types.findIndex((t) => t.kind === 'scalar' && t.scalar === 'u32');
  if (vec4 < 0 || u32 < 0) return m;
  let changed = false;
  const types = [...m.types];
  const vecType = (n: number): TypeId => {
    const k = types.findIndex((t) => t.kind === 'vector' && t.size === n && t.scalar === 'u32');
    if (k >= 0) return k;
    types.push({ kind: 'vector', scalar: 'u32', size: n as 2 | 3 | 4 });
    return types.length - 1;
  };
  const functions = m.functions.map((f) => {
    if (!blockHolds(f.body, HOLDS_BARRIER)) return f;
    changed = true;
    return new Scalarize(f, vec4, u32, vecType).run();
  });
  return changed ? moduleWith(m, { types, functions }) : m;
}

class Scalarize {
  private readonly exprs: Expr[] = [];
  private readonly remap: ExprId[] = [];
  private readonly locals: LocalVariable[];
  private readonly lets: LetInfo[];
  /** Old local -> its four lane locals. */
  private readonly lanes = new Map<number, number[]>();

  constructor(
    private readonly f: Function,
    private readonly vec4: TypeId,
    private readonly u32: TypeId,
    private readonly vecType: (n: number) => TypeId,
  ) {
    this.locals = [...f.locals];
    this.lets = [...f.lets];
  }

  /** Adds an expression made by the builder's constructors (nodes.ts: makeExpr, copyExpr, ownExpr). */
  private push(e: Expr): ExprId {
    this.exprs.push(e);
    return this.exprs.length - 1;
  }

  private laneLoad(local: number, k: number): ExprId {
    const l = (this.lanes.get(local) as number[])[k] as number;
    return this.push(makeExpr.load(this.push(makeExpr.local(l))));
  }

  /** The scalarized local a `load` reads, if it reads one whole. */
  private loadedLocal(h: ExprId): number | undefined {
    const e = this.f.exprs[h];
    if (e?.op !== 'load') return undefined;
    const p = this.f.exprs[e.pointer];
    return p?.op === 'local' && this.lanes.has(p.local) ? p.local : undefined;
  }

  run(): Function {
    const f = this.f;
    f.locals.forEach((l, i) => {
      if (l.type !== this.vec4 || l.init !== undefined) return;
      const ids: number[] = [];
      for (const c of 'xyzw') {
        this.locals.push(localEntry(`${l.name}_${c}`, this.u32, undefined));
        ids.push(this.locals.length - 1);
      }
      this.lanes.set(i, ids);
    });
    const locals = this.locals.map((l) => (l.init !== undefined ? localWith(l, this.x(l.init)) : l));
    return functionWith(f, { exprs: this.exprs, locals, lets: this.lets, body: this.block(f.body) });
  }

  /**
   * The copy of expression h, made on first use (operands before their users, as in the input): an
   * expression no statement reads is not copied. Copying every expression made a register load
   * read only through a swizzle into nine expressions nothing read (four lane locals, four loads and
   * their compose), and the emitter then resolved the types of all of them.
   */
  private readonly x = (h: ExprId): ExprId => {
    const known = this.remap[h];
    if (known !== undefined) return known;
    const e = this.f.exprs[h];
    if (e === undefined) return -1; // not an expression of f: still none in the copy
    const id = this.copy(e);
    this.remap[h] = id;
    return id;
  };

  private copy(e: Expr): ExprId {
    const r = this.x;
    if (e.op === 'member') {
      const b = this.f.exprs[e.base];
      if (b?.op === 'local' && this.lanes.has(b.local))
        return this.push(makeExpr.local((this.lanes.get(b.local) as number[])[e.index] as number));
    }
    if (e.op === 'load') {
      const p = this.f.exprs[e.pointer];
      if (p?.op === 'local' && this.lanes.has(p.local)) {
        const parts = [0, 1, 2, 3].map((k) => this.laneLoad(p.local, k));
        return this.push(makeExpr.compose(this.vec4, parts));
      }
    }
    if (e.op === 'swizzle') {
      const local = this.loadedLocal(e.vector);
      if (local !== undefined) {
        const parts = e.pattern.map((k) => this.laneLoad(local, k));
        if (parts.length === 1) return parts[0] as ExprId;
        return this.push(makeExpr.compose(this.vecType(parts.length), parts));
      }
    }
    return this.push(copyExpr(e, r) ?? ownExpr(mapChildren(e, r)));
  }

  /** Block b's copy, made of the builder's statements (as ownBlock makes them) as it is copied. */
  private block(b: Block): Stmt[] {
    const out: Stmt[] = objectList();
    for (const s of b) this.stmt(s, out);
    return out;
  }

  /** Appends the copy of statement s (a store to a split register: a let and a store per lane). */
  private stmt(s: Stmt, out: Stmt[]): void {
    const x = this.x;
    switch (s.op) {
      case 'store': {
        const p = this.f.exprs[s.pointer];
        if (p?.op === 'local' && this.lanes.has(p.local)) {
          // the value first: a let's reads come after the expression it binds
          const value = x(s.value);
          this.lets.push(letEntry('lanes'));
          const id = this.lets.length - 1;
          const read = this.push(makeExpr.let(id));
          out.push(originated(makeStmt.let(id, value), s.origin));
          const ids = this.lanes.get(p.local) as number[];
          ids.forEach((l, k) => {
            const pointer = this.push(makeExpr.local(l));
            const lane = this.push(makeExpr.swizzle(read, [k]));
            out.push(originated(makeStmt.store(pointer, lane), s.origin));
          });
          return;
        }
        out.push(originated(makeStmt.store(x(s.pointer), x(s.value)), s.origin));
        return;
      }
      case 'let':
        out.push(originated(makeStmt.let(s.let, x(s.value)), s.origin));
        return;
      case 'if':
        // (arguments are evaluated in order: the condition's expressions are copied first)
        out.push(originated(makeStmt.if(x(s.cond), this.block(s.accept), this.block(s.reject)), s.origin));
        return;
      case 'loop':
        out.push(originated(makeStmt.loop(this.block(s.body)), s.origin));
        return;
      case 'switch': {
        const selector = x(s.selector);
        const cases = s.cases.map((c) => ({ values: c.values, isDefault: c.isDefault, body: this.block(c.body) }));
        out.push(originated(makeStmt.switch(selector, cases), s.origin));
        return;
      }
      default:
        // the other kinds, their optional fields kept as they are
        out.push(ownStmt(mapOperands(s, x)));
    }
  }
}
