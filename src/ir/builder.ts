// Builders for the IR (ir.ts): a module builder that interns types (structurally equal types share
// one TypeId, so a TypeId comparison is a type comparison) and a function builder with an
// expression arena, lets, locals and a stack of open blocks.

import { objectList } from '../binary/lists.js';
import { ScratchList } from './scratch.js';
import { typeKey } from './typeof.js';
import {
  letEntry,
  localEntry,
  makeExpr,
  makeFunction,
  makeModule,
  makeStmt,
  ownArg,
  ownExpr,
  ownGlobal,
  ownStmt,
} from './nodes.js';
import type {
  Binding,
  BinaryOp,
  Block,
  Constant,
  EntryPoint,
  Expr,
  ExprId,
  Function,
  FunctionArgument,
  FunctionId,
  Global,
  GlobalId,
  LetId,
  LocalId,
  LocalVariable,
  MathFn,
  Module,
  Scalar,
  Stmt,
  Type,
  TypeId,
  UnaryOp,
  VecSize,
} from './ir.js';

/** A scalar's index (f32, i32, u32, bool) in per-scalar tables (a comparison, not a keyed read). */
function scalarIndex(s: Scalar): number {
  return s === 'f32' ? 0 : s === 'i32' ? 1 : s === 'u32' ? 2 : s === 'bool' ? 3 : -1;
}
const F32_BITS = new DataView(new ArrayBuffer(4));

export class ModuleBuilder {
  readonly types: Type[] = objectList();
  readonly constants: Constant[] = objectList();
  readonly globals: Global[] = objectList();
  readonly functions: Function[] = objectList();
  readonly entryPoints: EntryPoint[] = objectList();
  private readonly typeKeys = new Map<string, TypeId>();

  /** Struct types by name: their ids (one, in practice). */
  private readonly structsByName = new Map<string, TypeId[]>();

  type(t: Type): TypeId {
    // Structs are nominal (their name is part of the key); everything else is structural.
    if (t.kind === 'struct') return this.struct(t);
    const key = typeKey(t);
    const known = this.typeKeys.get(key);
    if (known !== undefined) return known;
    const id = this.types.length;
    this.types.push(t);
    this.typeKeys.set(key, id);
    return id;
  }

  /**
   * A struct type's id: the one of an equal struct made before (as a key of the whole struct's JSON
   * would find it), else a new one. Found by name first: a lifter names every struct it makes apart
   * (input, output, constant buffer), and the JSON of a struct of many members was half of building
   * a small program's outputs. Only structs of the same name are compared whole.
   */
  private struct(t: Extract<Type, { kind: 'struct' }>): TypeId {
    const ids = this.structsByName.get(t.name);
    if (ids !== undefined) {
      const text = JSON.stringify(t);
      for (const id of ids) if (JSON.stringify(this.types[id]) === text) return id;
    }
    const id = this.types.length;
    this.types.push(t);
    if (ids === undefined) this.structsByName.set(t.name, [id]);
    else ids.push(id);
    return id;
  }

  /** Scalar and vector types by `scalar * 5 + size` (size 1: the scalar), the lifter's hot path. */
  private readonly small: (TypeId | undefined)[] = [];

  scalar(s: Scalar): TypeId {
    return this.vec(s, 1);
  }

  vec(s: Scalar, size: number): TypeId {
    const key = scalarIndex(s) * 5 + size;
    const hit = this.small[key];
    if (hit !== undefined) return hit;
    const id =
      size === 1
        ? this.type({ kind: 'scalar', scalar: s })
        : this.type({ kind: 'vector', scalar: s, size: size as VecSize });
    this.small[key] = id;
    return id;
  }

  array(base: TypeId, length: number | null): TypeId {
    return this.type({ kind: 'array', base, length });
  }

  addGlobal(g: Global): GlobalId {
    this.globals.push(ownGlobal(g));
    return this.globals.length - 1;
  }

  addConstant(c: Constant): number {
    this.constants.push(c);
    return this.constants.length - 1;
  }

  addFunction(f: Function): FunctionId {
    this.functions.push(f);
    return this.functions.length - 1;
  }

  finish(): Module {
    return makeModule(this.types, this.constants, this.globals, this.functions, this.entryPoints);
  }
}

/**
 * The list that the next FunctionBuilder builds its expression arena in: one list kept and lent again
 * (src/ir/scratch.ts), and a copy of exactly the function's expressions made at finish(). Why (issue
 * 17, docs/benchmarks.md, the twenty-fourth session): an arena grown by push past 16K entries (128
 * KiB) is a new list in V8's large-object space at each growth, on pages mapped for it alone, and
 * every page is a page fault when first written. A function of 62,683 expressions took 366 faults
 * so, and takes 124 for the one copy. A list made when none is kept is an objectList(), as the arenas
 * were: its elements are objects from the first, and it is always made young (binary/lists.ts).
 */
const ARENAS = new ScratchList<Expr>(1 << 18, () => objectList());

export class FunctionBuilder {
  // The lists below, the blocks and the literal cache are objectList()s, not literals
  // (binary/lists.ts); the expression arena is lent by ARENAS and copied by slice() at finish(),
  // which makes it young as objectList() does. The nodes in them are the builder's own copies:
  // nodes.ts.
  /** The expression arena: until finish(), a list lent by ARENAS, of which the first `count`
   * entries are this function's expressions and the rest undefined; from finish(), the function's. */
  private arena = ARENAS.take(0) as Expr[];
  private count = 0;
  private lent = true;
  get exprs(): readonly Expr[] {
    return this.arena;
  }
  readonly locals: LocalVariable[] = objectList();
  readonly lets: { name: string }[] = objectList();
  readonly args: FunctionArgument[] = objectList();
  private readonly blocks: Stmt[][] = objectList();
  /** The depth (blocks.length) of the outermost block opened where control could not reach: it
   * and every block inside it are dead, their statements dropped with the statement that would
   * hold them. Infinity while no dead block is open. */
  private deadFrom = Infinity;
  /** Literal expressions by scalar (scalarIndex) and bit pattern, as an int32 (`bits | 0`: a small
   * integer for V8 where the u32 of a pattern from 2^31 up is a heap number, made and hashed as a
   * double at each look-up). */
  private readonly literalCache: Map<number, ExprId>[] = objectList();

  constructor(
    readonly m: ModuleBuilder,
    readonly name: string,
  ) {
    this.blocks.push(objectList());
    this.literalCache.push(new Map(), new Map(), new Map(), new Map());
  }

  /** The origin (ir.ts Origin) given to each statement appended from now on that has none of its
   * own: the lifter sets it to the instruction it lifts, undefined while it adds statements of its
   * own. */
  origin: number | undefined = undefined;

  /** Adds an expression to the arena (or finds the shared one: below) and returns its id. The
   * arena holds the builder's own copy of `e` (nodes.ts), field for field: `e` itself is not kept. */
  expr(e: Expr): ExprId {
    // Literals and the names of variables (and constant-indexed parts of them) are shared: they are
    // pure, the same wherever they are read, and every reader of the IR walks expressions as trees,
    // so one node read by many parents means what copies of it would.
    switch (e.op) {
      case 'literal': {
        const cache = this.literalCache[scalarIndex(e.scalar)];
        const hit = cache?.get(e.bits | 0);
        if (hit !== undefined) return hit;
        const h = this.add(ownExpr(e));
        cache?.set(e.bits | 0, h);
        return h;
      }
      case 'local':
        return this.named(this.localRefs, e.local, e);
      case 'global':
        return this.named(this.globalRefs, e.global, e);
      case 'member':
        if (this.isName(e.base)) return this.part(e.base, e.index, e);
        break;
      default:
        break;
    }
    return this.add(ownExpr(e));
  }

  // The lifters' most made kinds, made here directly: no literal for expr() to copy (nodes.ts).
  binary(fn: BinaryOp, left: ExprId, right: ExprId): ExprId {
    return this.add(makeExpr.binary(fn, left, right));
  }
  select(cond: ExprId, accept: ExprId, reject: ExprId): ExprId {
    return this.add(makeExpr.select(cond, accept, reject));
  }
  unary(fn: UnaryOp, arg: ExprId): ExprId {
    return this.add(makeExpr.unary(fn, arg));
  }
  bitcast(to: Scalar, value: ExprId): ExprId {
    return this.add(makeExpr.bitcast(to, value));
  }
  convert(to: Scalar, value: ExprId): ExprId {
    return this.add(makeExpr.convert(to, value));
  }
  math(fn: MathFn, args: readonly ExprId[]): ExprId {
    return this.add(makeExpr.math(fn, args));
  }
  load(pointer: ExprId): ExprId {
    return this.add(makeExpr.load(pointer));
  }
  access(base: ExprId, index: ExprId): ExprId {
    return this.add(makeExpr.access(base, index));
  }
  swizzle(vector: ExprId, pattern: readonly number[]): ExprId {
    return this.add(makeExpr.swizzle(vector, pattern));
  }
  /** A member (as expr() would: shared when `base` is a name). */
  member(base: ExprId, index: number): ExprId {
    if (this.isName(base)) return this.part(base, index, { op: 'member', base, index });
    return this.add(makeExpr.member(base, index));
  }

  private add(e: Expr): ExprId {
    const h = this.count++;
    this.arena[h] = e;
    return h;
  }

  /** Expressions that name a variable, by its index. */
  private readonly localRefs: (ExprId | undefined)[] = [];
  private readonly globalRefs: (ExprId | undefined)[] = [];
  /** Shared parts of names, by the name's ExprId, then the constant index. */
  private readonly parts = new Map<ExprId, (ExprId | undefined)[]>();

  /**
   * Whether expression `h` is a shared name: every `local` and `global` of this arena is one (expr()
   * makes no other), and so is a `member` of a name (a `member` of anything else is never shared).
   */
  private isName(h: ExprId): boolean {
    const e = this.exprs[h];
    if (e === undefined) return false;
    if (e.op === 'local' || e.op === 'global') return true;
    return e.op === 'member' && this.isName(e.base);
  }

  private named(refs: (ExprId | undefined)[], index: number, e: Expr): ExprId {
    const hit = refs[index];
    if (hit !== undefined) return hit;
    const h = this.add(ownExpr(e));
    refs[index] = h;
    return h;
  }

  private part(base: ExprId, index: number, e: Expr): ExprId {
    let byIndex = this.parts.get(base);
    if (byIndex === undefined) {
      byIndex = [];
      this.parts.set(base, byIndex);
    }
    return this.named(byIndex, index, e);
  }

  /** The shared literal of `scalar` with this bit pattern (no object made when it exists). */
  literal(scalar: Scalar, bits: number): ExprId {
    const hit = this.literalCache[scalarIndex(scalar)]?.get(bits | 0);
    return hit ?? this.expr({ op: 'literal', scalar, bits });
  }

  u32(v: number): ExprId {
    return this.literal('u32', v >>> 0);
  }
  i32(v: number): ExprId {
    return this.literal('i32', v >>> 0);
  }
  f32(v: number): ExprId {
    F32_BITS.setFloat32(0, v, true);
    return this.literal('f32', F32_BITS.getUint32(0, true));
  }
  f32bits(bits: number): ExprId {
    return this.literal('f32', bits >>> 0);
  }
  bool(v: boolean): ExprId {
    return this.literal('bool', v ? 1 : 0);
  }

  arg(a: FunctionArgument): number {
    this.args.push(ownArg(a));
    return this.args.length - 1;
  }

  local(name: string, type: TypeId, init?: ExprId): LocalId {
    this.locals.push(localEntry(name, type, init));
    return this.locals.length - 1;
  }

  /**
   * Appends a statement to the innermost open block, with the builder's `origin` when it has none
   * of its own. A statement after one that control cannot pass (a `return`, `break` or `continue`,
   * or an `if`/`loop`/`switch` every path of which leaves) can never run and is dropped (WGSL warns
   * on unreachable code). The block holds the builder's own copy of `s` (nodes.ts): `s` itself is
   * neither kept nor stamped.
   */
  stmt(s: Stmt): void {
    if (!this.unreachable()) this.put(ownStmt(s));
  }

  /** Appends the builder's own statement (nodes.ts) to the innermost open block, stamped in place
   * with the builder's origin. */
  private put(own: Stmt): void {
    const top = this.blocks[this.blocks.length - 1];
    if (!top) throw new Error('FunctionBuilder: no open block');
    if (this.origin !== undefined && own.origin === undefined) (own as { origin?: number }).origin = this.origin;
    top.push(own);
  }

  /** Appends `if (cond) { ...body }`; the body's statements are kept as given (no origin stamped:
   * they are the if's), in the builder's own copies. */
  stmtIf(cond: ExprId, body: readonly Stmt[]): void {
    const accept = objectList<Stmt>();
    for (const s of body) accept.push(ownStmt(s));
    this.stmt({ op: 'if', cond, accept, reject: objectList() });
  }

  /** Appends `*pointer = value` (as stmt() would). */
  store(pointer: ExprId, value: ExprId): void {
    if (!this.unreachable()) this.put(makeStmt.store(pointer, value));
  }

  /** Whether control can no longer reach the end of the innermost open block. */
  unreachable(): boolean {
    if (this.blocks.length >= this.deadFrom) return true;
    const top = this.blocks[this.blocks.length - 1] ?? [];
    const last = top[top.length - 1];
    return last !== undefined && (last.op === 'break' || last.op === 'continue' || !fallsThrough(top));
  }

  /** Binds a value to a fresh let and returns the expression that reads it. */
  bind(name: string, value: ExprId): ExprId {
    if (this.unreachable()) return value; // the statement would be dropped: no let to read
    const id: LetId = this.lets.length;
    this.lets.push(letEntry(name));
    this.put(makeStmt.let(id, value));
    return this.add(makeExpr.let(id));
  }

  newLet(name: string): LetId {
    this.lets.push(letEntry(name));
    return this.lets.length - 1;
  }

  open(): void {
    // a block opened after a statement control cannot pass will be dropped with its statement:
    // nothing in it may bind a let that a kept expression reads
    if (this.deadFrom === Infinity && this.unreachable()) this.deadFrom = this.blocks.length + 1;
    this.blocks.push(objectList());
  }

  close(): Block {
    if (this.blocks.length <= 1) throw new Error('FunctionBuilder: close without open');
    if (this.blocks.length === this.deadFrom) this.deadFrom = Infinity;
    return this.blocks.pop() ?? [];
  }

  /** Statements in the innermost open block so far. */
  openLength(): number {
    return this.blocks[this.blocks.length - 1]?.length ?? 0;
  }

  /** The innermost open block's statements so far. */
  openBlock(): readonly Stmt[] {
    return this.blocks[this.blocks.length - 1] ?? [];
  }

  /** The innermost open block's last statement. */
  lastStatement(): Stmt | undefined {
    const top = this.blocks[this.blocks.length - 1];
    return top?.[top.length - 1];
  }

  depth(): number {
    return this.blocks.length;
  }

  finish(result?: { type: TypeId; binding?: Binding }): Function {
    if (this.blocks.length !== 1) throw new Error('FunctionBuilder: unclosed block');
    // Made by its constructor (nodes.ts), not a literal: the function points at the young arenas,
    // and a literal's site may allocate it old (binary/lists.ts), keeping them alive.
    if (this.lent) {
      const lent = this.arena;
      this.arena = lent.slice(0, this.count);
      this.lent = false;
      ARENAS.give(lent, this.count);
    }
    return makeFunction(this.name, this.args, this.locals, this.lets, this.arena, this.blocks[0] ?? [], result);
  }
}

/** Whether control can reach the end of a block (WGSL warns on a statement after one that cannot). */
export function fallsThrough(b: readonly Stmt[]): boolean {
  const last = b[b.length - 1];
  if (!last) return true;
  if (last.op === 'return') return false;
  if (last.op === 'if') return fallsThrough(last.accept) || fallsThrough(last.reject);
  if (last.op === 'loop') return breaksOut(last.body, 0);
  if (last.op === 'switch') return last.cases.some((c) => fallsThrough(c.body) || breaksOut(c.body, 0));
  return true;
}

/** Whether a `break` in this block leaves the loop or switch it belongs to (depth 0). */
function breaksOut(b: readonly Stmt[], depth: number): boolean {
  return b.some((s) => {
    if (s.op === 'break') return depth === 0;
    if (s.op === 'if') return breaksOut(s.accept, depth) || breaksOut(s.reject, depth);
    if (s.op === 'loop') return breaksOut(s.body, depth + 1);
    if (s.op === 'switch') return s.cases.some((c) => breaksOut(c.body, depth + 1));
    return false;
  });
}
