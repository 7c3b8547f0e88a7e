// Pass: registers split into lanes, in functions that hold a barrier (passes.ts). Tint's uniformity
// analysis tracks a variable as a whole: once one lane of r0 holds a per-invocation value, every
// later read of r0 counts as non-uniform, and a barrier under a loop whose counter sits in another
// lane of r0 is refused. With each vec4<u32> local split into four u32 locals (r0_x .. r0_w), and
// lane reads taken from the lane's local only, the analysis sees what Direct3D's program does.

import { functionWith, letEntry, localEntry, localWith, moduleWith, ownBlock, ownExpr } from '../ir/nodes.js';
import {
  blockHolds,
  HOLDS_BARRIER,
  withOrigin,
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
import { mapChildren } from './binding-arrays.js';

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

  private push(e: Expr): ExprId {
    this.exprs.push(ownExpr(e));
    return this.exprs.length - 1;
  }

  private laneLoad(local: number, k: number): ExprId {
    const l = (this.lanes.get(local) as number[])[k] as number;
    return this.push({ op: 'load', pointer: this.push({ op: 'local', local: l }) });
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
    return functionWith(f, { exprs: this.exprs, locals, lets: this.lets, body: ownBlock(this.block(f.body)) });
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
        return this.push({ op: 'local', local: (this.lanes.get(b.local) as number[])[e.index] as number });
    }
    if (e.op === 'load') {
      const p = this.f.exprs[e.pointer];
      if (p?.op === 'local' && this.lanes.has(p.local)) {
        const parts = [0, 1, 2, 3].map((k) => this.laneLoad(p.local, k));
        return this.push({ op: 'compose', type: this.vec4, parts });
      }
    }
    if (e.op === 'swizzle') {
      const local = this.loadedLocal(e.vector);
      if (local !== undefined) {
        const parts = e.pattern.map((k) => this.laneLoad(local, k));
        if (parts.length === 1) return parts[0] as ExprId;
        return this.push({ op: 'compose', type: this.vecType(parts.length), parts });
      }
    }
    return this.push(mapChildren(e, r));
  }

  private block(b: Block): Stmt[] {
    const out: Stmt[] = [];
    for (const s of b) out.push(...this.stmt(s));
    return out;
  }

  private stmt(s: Stmt): Stmt[] {
    const x = this.x;
    switch (s.op) {
      case 'store': {
        const p = this.f.exprs[s.pointer];
        if (p?.op === 'local' && this.lanes.has(p.local)) {
          // the value first: a let's reads come after the expression it binds
          const value = x(s.value);
          this.lets.push(letEntry('lanes'));
          const id = this.lets.length - 1;
          const read = this.push({ op: 'let', let: id });
          const ids = this.lanes.get(p.local) as number[];
          return [
            withOrigin({ op: 'let', let: id, value }, s),
            ...ids.map((l, k): Stmt =>
              withOrigin(
                {
                  op: 'store',
                  pointer: this.push({ op: 'local', local: l }),
                  value: this.push({ op: 'swizzle', vector: read, pattern: [k] }),
                },
                s,
              ),
            ),
          ];
        }
        return [{ ...s, pointer: x(s.pointer), value: x(s.value) }];
      }
      case 'let':
        return [{ ...s, value: x(s.value) }];
      case 'if':
        return [{ ...s, cond: x(s.cond), accept: this.block(s.accept), reject: this.block(s.reject) }];
      case 'loop':
        return [{ ...s, body: this.block(s.body) }];
      case 'switch':
        return [{ ...s, selector: x(s.selector), cases: s.cases.map((c) => ({ ...c, body: this.block(c.body) })) }];
      case 'return':
        return [s.value === undefined ? s : { ...s, value: x(s.value) }];
      case 'atomic':
        return [
          {
            ...s,
            pointer: x(s.pointer),
            ...(s.value !== undefined ? { value: x(s.value) } : {}),
            ...(s.compare !== undefined ? { compare: x(s.compare) } : {}),
          },
        ];
      case 'atomic64':
        return [
          {
            ...s,
            low: x(s.low),
            high: x(s.high),
            value: x(s.value),
            ...(s.compare !== undefined ? { compare: x(s.compare) } : {}),
          },
        ];
      case 'image_store':
        return [
          {
            ...s,
            image: x(s.image),
            coord: x(s.coord),
            value: x(s.value),
            ...(s.arrayIndex !== undefined ? { arrayIndex: x(s.arrayIndex) } : {}),
          },
        ];
      case 'call':
        return [{ ...s, args: s.args.map(x) }];
      case 'subgroup':
        return [
          {
            ...s,
            ...(s.argument !== undefined ? { argument: x(s.argument) } : {}),
            ...(s.index !== undefined ? { index: x(s.index) } : {}),
          },
        ];
      case 'break':
      case 'continue':
      case 'kill':
      case 'barrier':
      case 'emit':
      case 'cut':
        return [s];
    }
  }
}
