// The IR's nodes as the function builder keeps them: each expression and statement it takes is
// copied by one constructor per kind (issue 17: docs/benchmarks.md, the fifth session).
//
// Why a copy. V8 gives each object literal an allocation site, and may switch a site for good to
// allocating in the old generation when its objects survived young collections during a batch's
// warm-up. A lifted program's IR is garbage once it is emitted, but old IR is freed only by a full
// collection, and until then it keeps every young object it points at alive through each young
// collection. The lifters make nodes at hundreds of literal sites; a node made by `new` has no
// allocation site and is always young. The literal a lifter passes to the builder dies at once (no
// site of those is ever switched), and every node of one kind in an arena has one shape whichever
// site made it, so the readers' field loads see one map a kind.
//
// Each constructor's prototype is Object.prototype and it sets the kind's fields in the order of
// its type in ir.ts: a copy is indistinguishable from the literal (deepStrictEqual, JSON, spreads
// and `in` see the same object). Kinds with optional fields other than a statement's origin
// (sample, image_load, image_query, return, atomic, atomic64, image_store, subgroup, call) are kept
// as they were made: their shape depends on which fields the site gave.

import { plainConstructor as plain } from '../binary/lists.js';
import type { Expr, ExprId, LetId, LocalVariable, Scalar, Stmt, TypeId } from './ir.js';

type Fields = Record<string, unknown>;

const Literal = plain(function (this: Fields, scalar: unknown, bits: unknown) {
  this.op = 'literal';
  this.scalar = scalar;
  this.bits = bits;
});
const Zero = plain(function (this: Fields, type: unknown) {
  this.op = 'zero';
  this.type = type;
});
const ConstantRead = plain(function (this: Fields, constant: unknown) {
  this.op = 'constant';
  this.constant = constant;
});
const Compose = plain(function (this: Fields, type: unknown, parts: unknown) {
  this.op = 'compose';
  this.type = type;
  this.parts = parts;
});
const Splat = plain(function (this: Fields, size: unknown, value: unknown) {
  this.op = 'splat';
  this.size = size;
  this.value = value;
});
const Swizzle = plain(function (this: Fields, vector: unknown, pattern: unknown) {
  this.op = 'swizzle';
  this.vector = vector;
  this.pattern = pattern;
});
const Arg = plain(function (this: Fields, index: unknown) {
  this.op = 'arg';
  this.index = index;
});
const GlobalRead = plain(function (this: Fields, global: unknown) {
  this.op = 'global';
  this.global = global;
});
const LocalRead = plain(function (this: Fields, local: unknown) {
  this.op = 'local';
  this.local = local;
});
const LetRead = plain(function (this: Fields, id: unknown) {
  this.op = 'let';
  this.let = id;
});
const Access = plain(function (this: Fields, base: unknown, index: unknown) {
  this.op = 'access';
  this.base = base;
  this.index = index;
});
const Member = plain(function (this: Fields, base: unknown, index: unknown) {
  this.op = 'member';
  this.base = base;
  this.index = index;
});
const Load = plain(function (this: Fields, pointer: unknown) {
  this.op = 'load';
  this.pointer = pointer;
});
const Unary = plain(function (this: Fields, fn: unknown, arg: unknown) {
  this.op = 'unary';
  this.fn = fn;
  this.arg = arg;
});
const Binary = plain(function (this: Fields, fn: unknown, left: unknown, right: unknown) {
  this.op = 'binary';
  this.fn = fn;
  this.left = left;
  this.right = right;
});
const Select = plain(function (this: Fields, cond: unknown, accept: unknown, reject: unknown) {
  this.op = 'select';
  this.cond = cond;
  this.accept = accept;
  this.reject = reject;
});
const MathCall = plain(function (this: Fields, fn: unknown, args: unknown) {
  this.op = 'math';
  this.fn = fn;
  this.args = args;
});
const Bitcast = plain(function (this: Fields, to: unknown, value: unknown) {
  this.op = 'bitcast';
  this.to = to;
  this.value = value;
});
const Convert = plain(function (this: Fields, to: unknown, value: unknown) {
  this.op = 'convert';
  this.to = to;
  this.value = value;
});
const Derivative = plain(function (this: Fields, axis: unknown, control: unknown, value: unknown) {
  this.op = 'derivative';
  this.axis = axis;
  this.control = control;
  this.value = value;
});
const ArrayLength = plain(function (this: Fields, pointer: unknown) {
  this.op = 'array_length';
  this.pointer = pointer;
});

type ExprOf<K extends Expr['op']> = Extract<Expr, { op: K }>;

/** New expressions of the kinds the lifters make most, for FunctionBuilder's direct makers. */
export const makeExpr = {
  binary: (fn: ExprOf<'binary'>['fn'], left: ExprId, right: ExprId): Expr =>
    new Binary(fn, left, right) as unknown as Expr,
  select: (cond: ExprId, accept: ExprId, reject: ExprId): Expr => new Select(cond, accept, reject) as unknown as Expr,
  unary: (fn: ExprOf<'unary'>['fn'], arg: ExprId): Expr => new Unary(fn, arg) as unknown as Expr,
  bitcast: (to: Scalar, value: ExprId): Expr => new Bitcast(to, value) as unknown as Expr,
  convert: (to: Scalar, value: ExprId): Expr => new Convert(to, value) as unknown as Expr,
  math: (fn: ExprOf<'math'>['fn'], args: readonly ExprId[]): Expr => new MathCall(fn, args) as unknown as Expr,
  load: (pointer: ExprId): Expr => new Load(pointer) as unknown as Expr,
  access: (base: ExprId, index: ExprId): Expr => new Access(base, index) as unknown as Expr,
  member: (base: ExprId, index: number): Expr => new Member(base, index) as unknown as Expr,
  swizzle: (vector: ExprId, pattern: readonly number[]): Expr => new Swizzle(vector, pattern) as unknown as Expr,
  let: (id: LetId): Expr => new LetRead(id) as unknown as Expr,
};

/**
 * The builder's own copy of a new expression (see the top of this file): the same fields in the
 * same order, made by its kind's constructor; a kind with optional fields is returned as it is.
 */
export function ownExpr(e: Expr): Expr {
  let n: Fields;
  switch (e.op) {
    case 'literal':
      n = new Literal(e.scalar, e.bits);
      break;
    case 'zero':
      n = new Zero(e.type);
      break;
    case 'constant':
      n = new ConstantRead(e.constant);
      break;
    case 'compose':
      n = new Compose(e.type, e.parts);
      break;
    case 'splat':
      n = new Splat(e.size, e.value);
      break;
    case 'swizzle':
      n = new Swizzle(e.vector, e.pattern);
      break;
    case 'arg':
      n = new Arg(e.index);
      break;
    case 'global':
      n = new GlobalRead(e.global);
      break;
    case 'local':
      n = new LocalRead(e.local);
      break;
    case 'let':
      n = new LetRead(e.let);
      break;
    case 'access':
      n = new Access(e.base, e.index);
      break;
    case 'member':
      n = new Member(e.base, e.index);
      break;
    case 'load':
      n = new Load(e.pointer);
      break;
    case 'unary':
      n = new Unary(e.fn, e.arg);
      break;
    case 'binary':
      n = new Binary(e.fn, e.left, e.right);
      break;
    case 'select':
      n = new Select(e.cond, e.accept, e.reject);
      break;
    case 'math':
      n = new MathCall(e.fn, e.args);
      break;
    case 'bitcast':
      n = new Bitcast(e.to, e.value);
      break;
    case 'convert':
      n = new Convert(e.to, e.value);
      break;
    case 'derivative':
      n = new Derivative(e.axis, e.control, e.value);
      break;
    case 'array_length':
      n = new ArrayLength(e.pointer);
      break;
    default:
      return e;
  }
  return n as unknown as Expr;
}

const LetStmt = plain(function (this: Fields, id: unknown, value: unknown) {
  this.op = 'let';
  this.let = id;
  this.value = value;
});
const Store = plain(function (this: Fields, pointer: unknown, value: unknown) {
  this.op = 'store';
  this.pointer = pointer;
  this.value = value;
});
const If = plain(function (this: Fields, cond: unknown, accept: unknown, reject: unknown) {
  this.op = 'if';
  this.cond = cond;
  this.accept = accept;
  this.reject = reject;
});
const Loop = plain(function (this: Fields, body: unknown) {
  this.op = 'loop';
  this.body = body;
});
const Switch = plain(function (this: Fields, selector: unknown, cases: unknown) {
  this.op = 'switch';
  this.selector = selector;
  this.cases = cases;
});
const Barrier = plain(function (
  this: Fields,
  workgroup: unknown,
  storage: unknown,
  texture: unknown,
  execution: unknown,
) {
  this.op = 'barrier';
  this.workgroup = workgroup;
  this.storage = storage;
  this.texture = texture;
  this.execution = execution;
});

/** New statements of the kinds the lifters make most, for FunctionBuilder's direct makers. */
export const makeStmt = {
  let: (id: LetId, value: ExprId): Stmt => new LetStmt(id, value) as unknown as Stmt,
  store: (pointer: ExprId, value: ExprId): Stmt => new Store(pointer, value) as unknown as Stmt,
};

/**
 * The builder's own copy of a new statement (see ownExpr), its origin last when it has one; the
 * kinds with optional fields of their own are returned as they are.
 */
export function ownStmt(s: Stmt): Stmt {
  let n: Fields;
  switch (s.op) {
    case 'let':
      n = new LetStmt(s.let, s.value);
      break;
    case 'store':
      n = new Store(s.pointer, s.value);
      break;
    case 'if':
      n = new If(s.cond, s.accept, s.reject);
      break;
    case 'loop':
      n = new Loop(s.body);
      break;
    case 'switch':
      n = new Switch(s.selector, s.cases);
      break;
    case 'barrier':
      n = new Barrier(s.workgroup, s.storage, s.texture, s.execution);
      break;
    default:
      return s;
  }
  if (s.origin !== undefined) n.origin = s.origin;
  return n as unknown as Stmt;
}

const LetName = plain(function (this: Fields, name: unknown) {
  this.name = name;
});
const Local = plain(function (this: Fields, name: unknown, type: unknown) {
  this.name = name;
  this.type = type;
});
const LocalInit = plain(function (this: Fields, name: unknown, type: unknown, init: unknown) {
  this.name = name;
  this.type = type;
  this.init = init;
});

/** A let's entry in Function.lets. */
export function letEntry(name: string): { name: string } {
  return new LetName(name) as unknown as { name: string };
}

/** A local variable's entry in Function.locals. */
export function localEntry(name: string, type: TypeId, init: number | undefined): LocalVariable {
  return (init === undefined ? new Local(name, type) : new LocalInit(name, type, init)) as unknown as LocalVariable;
}
