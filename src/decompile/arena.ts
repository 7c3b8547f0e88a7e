// The decompiler's expression arena: a new function's expressions, built through one smart
// constructor (`mk`) that interns structurally equal expressions (an IR handle may be shared: it is
// re-evaluated where each statement uses it, so sharing never changes a value) and applies exact
// rewrites, each an identity of the IR's semantics (src/ir/ir.ts):
//
//   bitcast<T>(x)                    x, when x is already of scalar T (a bitcast never changes a bit)
//   bitcast<T>(bitcast<U>(x))        bitcast<T>(x)
//   bitcast<T>(literal)              the literal of scalar T with the same bits (T not bool)
//   bitcast<T>(compose(...))         compose of the parts bitcast to T
//   bitcast<T>(swizzle(v, p))        swizzle(bitcast<T>(v), p), when the inner bitcast vanishes
//                                    or v is itself a bitcast (two become one)
//   bitcast<T>(op(a, b))             op(bitcast<T> a, bitcast<T> b) for a signless integer op
//                                    (add sub mul and or xor shl, neg not), T and the op's scalar
//                                    integers, when both inner bitcasts vanish (two's complement)
//   op(bitcast<U>(a), bitcast<U>(b)) bitcast<U>(op(a, b)) for the same ops (a, b integers of one
//                                    scalar; an integer constant may stand for either); eq / ne
//                                    the same, with no bitcast back (never on float bits)
//   compose / select of bitcasts     one bitcast of the compose / select, when every part is a
//                                    bitcast from one scalar (a compose may hold constants; a
//                                    float one only where it reads as a decimal)
//   bitcast<T>(select(c, a, b))      select(c, bitcast a, bitcast b), when both inner bitcasts vanish
//   member(vector value, k)          swizzle(v, [k])
//   swizzle(swizzle(v, p), q)        swizzle(v, p∘q)
//   swizzle(v, identity of v)        v
//   swizzle(compose(...), p)         the picked parts (composed again when more than one)
//   swizzle(splat(s), [k])           s
//   compose(T, [v.a, v.b, ...])      runs of consecutive components of one vector merged into one
//                                    swizzle; a single part of type T is that part
//
// Types: `types[id]` is the Resolved type of each expression; expressions copied from a lifted
// function keep that function's resolved type (every rewrite here keeps the type it rewrites).

import type { Expr, ExprId, Module, Scalar, Type, TypeId, VecSize } from '../ir/ir.js';
import type { Resolved } from '../ir/typeof.js';
import { scalarOf, widthOf, typeKey } from '../ir/typeof.js';

/** The module's type arena, extendable (new vector types for compose/zero). */
export class TypeTable {
  readonly types: Type[];
  private readonly keys = new Map<string, TypeId>();
  constructor(m: Module) {
    this.types = [...m.types];
    this.types.forEach((t, i) => {
      const k = typeKey(t);
      if (!this.keys.has(k)) this.keys.set(k, i);
    });
  }
  id(t: Type): TypeId {
    const k = typeKey(t);
    const hit = this.keys.get(k);
    if (hit !== undefined) return hit;
    this.types.push(t);
    this.keys.set(k, this.types.length - 1);
    return this.types.length - 1;
  }
  vec(s: Scalar, n: number): TypeId {
    return this.id(n === 1 ? { kind: 'scalar', scalar: s } : { kind: 'vector', scalar: s, size: n as VecSize });
  }
}

const vt = (s: Scalar, n: number): Type =>
  n === 1 ? { kind: 'scalar', scalar: s } : { kind: 'vector', scalar: s, size: n as VecSize };
const val = (type: Type): Resolved => ({ kind: 'value', type });
/** A float's bits that read as a decimal literal: zero, or normal and finite. */
const plainFloat = (bits: number): boolean => {
  const exp = (bits >>> 23) & 0xff;
  return (bits & 0x7fffffff) === 0 || (exp !== 0 && exp !== 0xff);
};
const isInt = (s: Scalar): boolean => s === 'i32' || s === 'u32';
/** Integer operations whose result bits do not depend on signedness (two's complement). */
const AGNOSTIC: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'and', 'or', 'xor', 'shl']);

/** Whether a value type is a scalar or vector (and so can be bitcast, swizzled, composed). */
function numeric(r: Resolved | undefined): { scalar: Scalar; width: number } | undefined {
  if (!r || r.kind !== 'value') return undefined;
  if (r.type.kind !== 'scalar' && r.type.kind !== 'vector') return undefined;
  return { scalar: scalarOf(r.type)!, width: widthOf(r.type) };
}

export class Arena {
  readonly exprs: Expr[] = [];
  readonly types: Resolved[] = [];
  private readonly keys = new Map<string, ExprId>();

  constructor(
    readonly table: TypeTable,
    readonly module: Module,
    /** Types of the function's arguments and locals, for `arg` and `local`. */
    readonly argTypes: readonly TypeId[],
    readonly localTypes: TypeId[],
    /** Types of lets, filled as lets are bound. */
    readonly letTypes: Resolved[],
  ) {}

  /** The numeric shape of an expression (scalar and width), when it is a scalar or vector value. */
  shape(id: ExprId): { scalar: Scalar; width: number } | undefined {
    return numeric(this.types[id]);
  }

  private intern(e: Expr, t: Resolved): ExprId {
    const k = JSON.stringify(e);
    const hit = this.keys.get(k);
    if (hit !== undefined) return hit;
    this.exprs.push(e);
    this.types.push(t);
    this.keys.set(k, this.exprs.length - 1);
    return this.exprs.length - 1;
  }

  literal(scalar: Scalar, bits: number): ExprId {
    return this.intern({ op: 'literal', scalar, bits: bits >>> 0 }, val(vt(scalar, 1)));
  }

  let(id: number): ExprId {
    return this.intern({ op: 'let', let: id }, this.letTypes[id]!);
  }

  /** One component of a scalar or vector value. */
  component(v: ExprId, k: number): ExprId {
    const s = this.shape(v);
    if (s && s.width === 1 && k === 0) return v;
    return this.mk({ op: 'swizzle', vector: v, pattern: [k] });
  }

  /** The smart constructor (see the header). `hint`: the type when the caller knows it (a copied expression). */
  mk(e: Expr, hint?: Resolved): ExprId {
    switch (e.op) {
      case 'bitcast': {
        const s = this.shape(e.value);
        if (s && s.scalar === e.to) return e.value;
        const inner = this.exprs[e.value]!;
        if (inner.op === 'bitcast') return this.mk({ op: 'bitcast', to: e.to, value: inner.value });
        if (inner.op === 'literal' && e.to !== 'bool' && inner.scalar !== 'bool') return this.literal(e.to, inner.bits);
        // all bits zero is the zero of every 32-bit scalar
        if (inner.op === 'zero' && s && e.to !== 'bool' && s.scalar !== 'bool')
          return this.mk({ op: 'zero', type: this.table.vec(e.to, s.width) });
        if (s && e.to !== 'bool' && s.scalar !== 'bool') {
          if (inner.op === 'compose') {
            const parts = inner.parts.map((p) => this.mk({ op: 'bitcast', to: e.to, value: p }));
            // parts that all stay bitcasts of one scalar: the bitcast stays outside (compose below)
            if (this.castsFrom(parts) === undefined)
              return this.mk({ op: 'compose', type: this.table.vec(e.to, s.width), parts });
          }
          if (inner.op === 'swizzle') {
            // pushed in when the inner bitcast vanishes, or meets a bitcast there (two become one)
            const under = this.exprs[inner.vector]!.op === 'bitcast';
            const b = this.mk({ op: 'bitcast', to: e.to, value: inner.vector });
            if (under || this.exprs[b]!.op !== 'bitcast')
              return this.mk({ op: 'swizzle', vector: b, pattern: inner.pattern });
          }
          // two's complement: these give the same bits on i32 and u32 (a shift's count stays u32)
          if (isInt(e.to) && isInt(s.scalar) && inner.op === 'binary' && AGNOSTIC.has(inner.fn)) {
            const l = this.mk({ op: 'bitcast', to: e.to, value: inner.left });
            const r = inner.fn === 'shl' ? inner.right : this.mk({ op: 'bitcast', to: e.to, value: inner.right });
            if (this.exprs[l]!.op !== 'bitcast' && this.exprs[r]!.op !== 'bitcast')
              return this.mk({ op: 'binary', fn: inner.fn, left: l, right: r }, val(vt(e.to, s.width)));
          }
          if (isInt(e.to) && isInt(s.scalar) && inner.op === 'unary') {
            const x = this.mk({ op: 'bitcast', to: e.to, value: inner.arg });
            if (this.exprs[x]!.op !== 'bitcast')
              return this.mk({ op: 'unary', fn: inner.fn, arg: x }, val(vt(e.to, s.width)));
          }
          if (inner.op === 'select') {
            const a = this.mk({ op: 'bitcast', to: e.to, value: inner.accept });
            const r = this.mk({ op: 'bitcast', to: e.to, value: inner.reject });
            if (this.exprs[a]!.op !== 'bitcast' && this.exprs[r]!.op !== 'bitcast')
              return this.mk({ op: 'select', cond: inner.cond, accept: a, reject: r });
          }
        }
        return this.intern(e, s ? val(vt(e.to, s.width)) : hint!);
      }
      case 'member': {
        const b = this.types[e.base];
        if (b?.kind === 'value' && b.type.kind === 'vector')
          return this.mk({ op: 'swizzle', vector: e.base, pattern: [e.index] });
        if (b?.kind === 'pointer' && !hint) {
          const t = b.type;
          const inner =
            t.kind === 'vector'
              ? vt(t.scalar, 1)
              : t.kind === 'array'
                ? this.table.types[t.base]!
                : t.kind === 'struct'
                  ? this.table.types[t.members[e.index]!.type]!
                  : undefined;
          if (inner) return this.intern(e, { kind: 'pointer', type: inner, space: b.space });
        }
        return this.intern(e, hint!);
      }
      case 'swizzle': {
        const s = this.shape(e.vector)!;
        const inner = this.exprs[e.vector]!;
        if (inner.op === 'swizzle')
          return this.mk({ op: 'swizzle', vector: inner.vector, pattern: e.pattern.map((k) => inner.pattern[k]!) });
        if (e.pattern.length === s.width && e.pattern.every((k, i) => k === i)) return e.vector;
        if (inner.op === 'splat' && e.pattern.length === 1) return inner.value;
        if (inner.op === 'compose') {
          const comps = this.components(e.vector);
          if (comps) {
            const picked = e.pattern.map((k) => comps[k]!);
            if (picked.length === 1) return picked[0]!;
            return this.mk({ op: 'compose', type: this.table.vec(s.scalar, picked.length), parts: picked });
          }
        }
        return this.intern(e, val(vt(s.scalar, e.pattern.length)));
      }
      case 'compose': {
        const t = this.table.types[e.type]!;
        // parts that are all bitcasts from one scalar S (or constants): one bitcast of a compose of S
        const from = t.kind === 'vector' ? this.castsFrom(e.parts) : undefined;
        if (t.kind === 'vector' && from !== undefined) {
          const parts = e.parts.map((p) => this.mk({ op: 'bitcast', to: from, value: p }));
          const inner = this.mk({ op: 'compose', type: this.table.vec(from, t.size), parts });
          return this.mk({ op: 'bitcast', to: t.scalar, value: inner });
        }
        if (t.kind === 'vector') {
          const parts = this.mergeRuns(e.parts);
          if (parts.length === 1 && this.shape(parts[0]!)?.width === t.size) return parts[0]!;
          return this.intern({ op: 'compose', type: e.type, parts }, val(t));
        }
        return this.intern(e, val(t));
      }
      case 'splat': {
        const s = this.shape(e.value)!;
        return this.intern(e, val(vt(s.scalar, e.size)));
      }
      case 'load': {
        const p = this.types[e.pointer];
        return this.intern(e, p && p.kind === 'pointer' ? val(p.type) : hint!);
      }
      case 'local':
        return this.intern(e, {
          kind: 'pointer',
          type: this.table.types[this.localTypes[e.local]!]!,
          space: 'private',
        });
      case 'arg':
        return this.intern(e, val(this.table.types[this.argTypes[e.index]!]!));
      case 'let':
        return this.let(e.let);
      case 'literal':
        return this.literal(e.scalar, e.bits);
      case 'zero':
        return this.intern(e, val(this.table.types[e.type]!));
      case 'binary': {
        const l = this.exprs[e.left]!;
        const r = this.exprs[e.right]!;
        const int = (x: Expr): x is Extract<Expr, { op: 'literal' }> =>
          x.op === 'literal' && (x.scalar === 'u32' || x.scalar === 'i32');
        // a comparison of a constant with itself: ordered and not NaN, it is known (f32 NaN: ne is true)
        if (e.left === e.right && (e.fn === 'eq' || e.fn === 'ne') && this.constant(e.left)) {
          const s = this.shape(e.left)!;
          const c = this.constant(e.left)!;
          const nan = s.scalar === 'f32' && ((c >>> 23) & 0xff) === 0xff && (c & 0x7fffff) !== 0;
          const truth = e.fn === 'eq' ? !nan : nan;
          const lit = this.literal('bool', truth ? 1 : 0);
          return s.width === 1 ? lit : this.mk({ op: 'splat', size: s.width as VecSize, value: lit });
        }
        // the same operation on the integers both operands are bitcasts of (same bits; eq and ne on
        // integers compare bits): `asuint(a) + asuint(b)` is `asuint(a + b)`
        const under = this.integerUnder(e);
        if (under) return under;
        if (int(l) && int(r)) {
          const folded = foldInteger(e.fn, l.scalar, l.bits, r.bits);
          if (folded !== undefined) return this.literal(folded.scalar, folded.bits);
        }
        // the same on vectors of one integer constant (component-wise, so the same in each lane)
        const ls = this.shape(e.left);
        const rs = this.shape(e.right);
        const lc = this.constant(e.left);
        const rc = this.constant(e.right);
        if (
          ls &&
          rs &&
          ls.width > 1 &&
          lc !== undefined &&
          rc !== undefined &&
          (ls.scalar === 'u32' || ls.scalar === 'i32') &&
          (rs.scalar === 'u32' || rs.scalar === 'i32')
        ) {
          const folded = foldInteger(e.fn, ls.scalar, lc, rc);
          if (folded !== undefined)
            return this.mk({ op: 'splat', size: ls.width as VecSize, value: this.literal(folded.scalar, folded.bits) });
        }
        // integer identities (exact: f32 is left alone, x + 0 is not x for x = -0)
        if (
          int(r) &&
          r.bits === 0 &&
          (e.fn === 'add' || e.fn === 'sub' || e.fn === 'or' || e.fn === 'xor' || e.fn === 'shl' || e.fn === 'shr')
        )
          return e.left;
        if (int(l) && l.bits === 0 && (e.fn === 'add' || e.fn === 'or' || e.fn === 'xor')) return e.right;
        if (int(r) && r.bits === 1 && (e.fn === 'mul' || e.fn === 'div')) return e.left;
        // a Direct3D boolean (a select of all ones and zero, a comparison's result) and-ed with x is
        // the select of x and zero, lane by lane: ~0 & x is x, 0 & x is 0
        if (e.fn === 'and')
          for (const [m, x] of [
            [e.left, e.right],
            [e.right, e.left],
          ] as const) {
            const b = this.exprs[m]!;
            if (b.op !== 'select' || !isInt(this.shape(m)?.scalar ?? 'bool')) continue;
            const [on, off] = [this.constant(b.accept), this.constant(b.reject)];
            if (on === 0xffffffff && off === 0)
              return this.mk({ op: 'select', cond: b.cond, accept: x, reject: b.reject });
            if (on === 0 && off === 0xffffffff)
              return this.mk({ op: 'select', cond: b.cond, accept: b.accept, reject: x });
          }
        return this.intern(e, hint!);
      }
      case 'select': {
        if (e.accept === e.reject) return e.accept;
        const c = this.constant(e.cond);
        if (c !== undefined) return c ? e.accept : e.reject;
        // both sides bitcasts from one scalar S (or one of them zero, which is zero in S too): one
        // bitcast of a select of S
        const isCast = (x: ExprId): boolean => this.exprs[x]!.op === 'bitcast';
        const side = (x: ExprId): boolean => isCast(x) || this.constant(x) === 0;
        const from =
          side(e.accept) && side(e.reject) && (isCast(e.accept) || isCast(e.reject))
            ? this.castsFrom([e.accept, e.reject])
            : undefined;
        const own = this.shape(e.accept);
        if (from !== undefined && own) {
          const cast = (x: ExprId): ExprId => this.mk({ op: 'bitcast', to: from, value: x });
          const inner = this.mk({ op: 'select', cond: e.cond, accept: cast(e.accept), reject: cast(e.reject) });
          return this.mk({ op: 'bitcast', to: own.scalar, value: inner });
        }
        return this.intern(e, this.types[e.accept]!);
      }
      default:
        return this.intern(e, hint!);
    }
  }

  /**
   * A sign-agnostic integer operation (or eq / ne) whose operands are bitcasts from one other
   * integer scalar S (or integer constants, one bitcast at least), done on S: the result is the
   * same bits (a comparison the same truth), bitcast back for an arithmetic one.
   */
  private integerUnder(e: Extract<Expr, { op: 'binary' }>): ExprId | undefined {
    const compare = e.fn === 'eq' || e.fn === 'ne';
    if (!compare && !AGNOSTIC.has(e.fn)) return undefined;
    const ls = this.shape(e.left);
    if (!ls || !isInt(ls.scalar)) return undefined;
    const operands = e.fn === 'shl' ? [e.left] : [e.left, e.right];
    let from: Scalar | undefined;
    for (const o of operands) {
      const x = this.exprs[o]!;
      if (x.op !== 'bitcast') continue;
      const xs = this.shape(x.value);
      if (!xs || !isInt(xs.scalar) || (from !== undefined && from !== xs.scalar)) return undefined;
      from = xs.scalar;
    }
    if (from === undefined || from === ls.scalar) return undefined;
    const to = from;
    for (const o of operands) if (this.exprs[o]!.op !== 'bitcast' && this.constant(o) === undefined) return undefined;
    const cast = (o: ExprId): ExprId => this.mk({ op: 'bitcast', to, value: o });
    const done = this.mk(
      { op: 'binary', fn: e.fn, left: cast(e.left), right: e.fn === 'shl' ? e.right : cast(e.right) },
      compare ? val(vt('bool', ls.width)) : val(vt(to, ls.width)),
    );
    return compare ? done : this.mk({ op: 'bitcast', to: ls.scalar, value: done });
  }

  /** The scalar S when every part is a bitcast from S (at least one) or a constant, S and the parts' scalar not bool. */
  private castsFrom(parts: readonly ExprId[]): Scalar | undefined {
    let from: Scalar | undefined;
    for (const p of parts) {
      const x = this.exprs[p]!;
      const own = this.shape(p);
      if (!own || own.scalar === 'bool') return undefined;
      if (x.op === 'bitcast') {
        const xs = this.shape(x.value);
        if (!xs || xs.scalar === 'bool' || (from !== undefined && from !== xs.scalar)) return undefined;
        from = xs.scalar;
      } else if (this.constant(p) === undefined) return undefined;
    }
    // a constant of S that is a float literal only as bits (infinity, NaN, denormal) stays where it is
    if (from === 'f32')
      for (const p of parts) {
        const c = this.exprs[p]!.op === 'bitcast' ? undefined : this.constant(p);
        if (c !== undefined && !plainFloat(c)) return undefined;
      }
    return from;
  }

  /** The bits every component of a constant has (a literal, or a splat or compose of one literal), or undefined. */
  constant(id: ExprId): number | undefined {
    const e = this.exprs[id]!;
    if (e.op === 'literal') return e.bits;
    if (e.op === 'zero') return this.shape(id) ? 0 : undefined;
    if (e.op === 'splat') return this.constant(e.value);
    if (e.op === 'compose') {
      const bits = e.parts.map((p) => this.constant(p));
      return bits.every((b) => b !== undefined && b === bits[0]) && this.shape(id)?.width === bits.length
        ? bits[0]
        : undefined;
    }
    return undefined;
  }

  /** The scalar components of a vector built by compose (parts flattened), or undefined. */
  components(v: ExprId): ExprId[] | undefined {
    const e = this.exprs[v]!;
    if (e.op !== 'compose') return undefined;
    const out: ExprId[] = [];
    for (const p of e.parts) {
      const s = this.shape(p);
      if (!s) return undefined;
      for (let k = 0; k < s.width; k++) out.push(this.component(p, k));
    }
    return out;
  }

  /** Compose parts with runs of consecutive components of one vector merged into one swizzle. */
  private mergeRuns(parts: readonly ExprId[]): ExprId[] {
    // flatten first: a part that is itself a compose contributes its components
    const flat: ExprId[] = [];
    for (const p of parts) {
      const comps = this.components(p);
      if (comps) flat.push(...comps);
      else flat.push(p);
    }
    const out: ExprId[] = [];
    let i = 0;
    while (i < flat.length) {
      const src = this.source(flat[i]!);
      if (!src) {
        out.push(flat[i]!);
        i++;
        continue;
      }
      const pattern = [...src.pattern];
      let j = i + 1;
      while (j < flat.length && pattern.length < 4) {
        const n = this.source(flat[j]!);
        if (!n || n.vector !== src.vector) break;
        pattern.push(...n.pattern);
        j++;
      }
      out.push(j === i + 1 ? flat[i]! : this.mk({ op: 'swizzle', vector: src.vector, pattern }));
      i = j;
    }
    return out;
  }

  /** A part read as components of a vector: `v.p`. */
  private source(p: ExprId): { vector: ExprId; pattern: readonly number[] } | undefined {
    const e = this.exprs[p]!;
    if (e.op === 'swizzle') return { vector: e.vector, pattern: e.pattern };
    return undefined;
  }
}

/** An integer operation on two literals, by the IR's definitions (ir.ts), or undefined (left as it is). */
function foldInteger(
  fn: string,
  scalar: 'u32' | 'i32' | string,
  a: number,
  b: number,
): { scalar: Scalar; bits: number } | undefined {
  const s = scalar as Scalar;
  const cmp = (x: boolean): { scalar: Scalar; bits: number } => ({ scalar: 'bool', bits: x ? 1 : 0 });
  const sa = a | 0;
  const sb = b | 0;
  switch (fn) {
    case 'add':
      return { scalar: s, bits: (a + b) >>> 0 };
    case 'sub':
      return { scalar: s, bits: (a - b) >>> 0 };
    case 'mul':
      return { scalar: s, bits: Math.imul(a, b) >>> 0 };
    case 'and':
      return { scalar: s, bits: (a & b) >>> 0 };
    case 'or':
      return { scalar: s, bits: (a | b) >>> 0 };
    case 'xor':
      return { scalar: s, bits: (a ^ b) >>> 0 };
    case 'shl':
      return { scalar: s, bits: (a << (b & 31)) >>> 0 };
    case 'shr':
      return { scalar: s, bits: (s === 'i32' ? sa >> (b & 31) : a >>> (b & 31)) >>> 0 };
    case 'eq':
      return cmp(a === b);
    case 'ne':
      return cmp(a !== b);
    case 'lt':
      return cmp(s === 'i32' ? sa < sb : a < b);
    case 'le':
      return cmp(s === 'i32' ? sa <= sb : a <= b);
    case 'gt':
      return cmp(s === 'i32' ? sa > sb : a > b);
    case 'ge':
      return cmp(s === 'i32' ? sa >= sb : a >= b);
    default:
      return undefined;
  }
}
