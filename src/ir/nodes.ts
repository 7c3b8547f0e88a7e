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

import { objectList, plainConstructor as plain } from '../binary/lists.js';
import type {
  Block,
  Constant,
  EntryPoint,
  Expr,
  ExprId,
  Function,
  FunctionArgument,
  Global,
  LetId,
  LetInfo,
  LocalVariable,
  Module,
  Scalar,
  Stmt,
  Type,
  TypeId,
} from './ir.js';

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
  local: (local: number): Expr => new LocalRead(local) as unknown as Expr,
  compose: (type: TypeId, parts: readonly ExprId[]): Expr => new Compose(type, parts) as unknown as Expr,
};

/**
 * The builder's own copy of a new expression (see the top of this file): the same fields in the
 * same order, made by its kind's constructor; a kind with optional fields is returned as it is.
 */
export function ownExpr(e: Expr): Expr {
  return made(e, undefined) ?? e;
}

/**
 * Expression e with each operand handle mapped by `r` (in the order of its fields), made by its
 * kind's constructor as ownExpr makes it: one allocation, where a spread and then ownExpr made two
 * and the spread took V8's clone path. The kinds with optional fields (sample, image_load,
 * image_query) give undefined: the caller maps those itself.
 */
export function copyExpr(e: Expr, r: (h: ExprId) => ExprId): Expr | undefined {
  return made(e, r);
}

/** e made again by its kind's constructor, each operand mapped by `r` when given (ownExpr, copyExpr);
 * undefined for the kinds kept as made. */
function made(e: Expr, r: ((h: ExprId) => ExprId) | undefined): Expr | undefined {
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
      n = new Compose(e.type, r ? e.parts.map(r) : e.parts);
      break;
    case 'splat':
      n = new Splat(e.size, r ? r(e.value) : e.value);
      break;
    case 'swizzle':
      n = new Swizzle(r ? r(e.vector) : e.vector, e.pattern);
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
      n = new Access(r ? r(e.base) : e.base, r ? r(e.index) : e.index);
      break;
    case 'member':
      n = new Member(r ? r(e.base) : e.base, e.index);
      break;
    case 'load':
      n = new Load(r ? r(e.pointer) : e.pointer);
      break;
    case 'unary':
      n = new Unary(e.fn, r ? r(e.arg) : e.arg);
      break;
    case 'binary':
      n = new Binary(e.fn, r ? r(e.left) : e.left, r ? r(e.right) : e.right);
      break;
    case 'select':
      n = new Select(r ? r(e.cond) : e.cond, r ? r(e.accept) : e.accept, r ? r(e.reject) : e.reject);
      break;
    case 'math':
      n = new MathCall(e.fn, r ? e.args.map(r) : e.args);
      break;
    case 'bitcast':
      n = new Bitcast(e.to, r ? r(e.value) : e.value);
      break;
    case 'convert':
      n = new Convert(e.to, r ? r(e.value) : e.value);
      break;
    case 'derivative':
      n = new Derivative(e.axis, e.control, r ? r(e.value) : e.value);
      break;
    case 'array_length':
      n = new ArrayLength(r ? r(e.pointer) : e.pointer);
      break;
    default:
      return undefined;
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

/** New statements of the kinds the lifters make most, for FunctionBuilder's direct makers, and the
 * structured ones for passes that copy a function's blocks (each as ownBlock would make it again). */
export const makeStmt = {
  let: (id: LetId, value: ExprId): Stmt => new LetStmt(id, value) as unknown as Stmt,
  store: (pointer: ExprId, value: ExprId): Stmt => new Store(pointer, value) as unknown as Stmt,
  if: (cond: ExprId, accept: Block, reject: Block): Stmt => new If(cond, accept, reject) as unknown as Stmt,
  loop: (body: Block): Stmt => new Loop(body) as unknown as Stmt,
  switch: (selector: ExprId, cases: Extract<Stmt, { op: 'switch' }>['cases']): Stmt =>
    new Switch(selector, cases) as unknown as Stmt,
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

/**
 * A block made again of the builder's own statements (ownStmt), nested blocks included: for a pass
 * that rebuilt a function's statements as literals and spreads, so that the lowered function's
 * statements have the builder's hidden classes (test/ir/records.test.ts).
 */
export function ownBlock(b: Block): Stmt[] {
  const out: Stmt[] = objectList();
  for (const s of b) out.push(ownTree(s));
  return out;
}

function ownTree(s: Stmt): Stmt {
  let n: Fields;
  switch (s.op) {
    case 'if':
      n = new If(s.cond, ownBlock(s.accept), ownBlock(s.reject));
      break;
    case 'loop':
      n = new Loop(ownBlock(s.body));
      break;
    case 'switch':
      n = new Switch(
        s.selector,
        s.cases.map((c) => ({ values: c.values, isDefault: c.isDefault, body: ownBlock(c.body) })),
      );
      break;
    default:
      return ownStmt(s);
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

// Modules, functions, globals and arguments (and locals and lets, above), each made by one
// constructor whoever makes it: the builder, or a WGSL or decompiler pass that rebuilds one with some
// fields changed; the optional fields are set after, in one order. Made as literals and spreads at
// two dozen sites, lowered DXIL modules held functions of eight hidden classes and globals of nine
// (the same keys, from different roots), so every read of `f.exprs` or `g.space` in type resolution
// and the emitter was a megamorphic load (test/ir/records.test.ts).

const ModuleRecord = plain(function (
  this: Fields,
  types: unknown,
  constants: unknown,
  globals: unknown,
  functions: unknown,
  entryPoints: unknown,
) {
  this.types = types;
  this.constants = constants;
  this.globals = globals;
  this.functions = functions;
  this.entryPoints = entryPoints;
});

const FunctionRecord = plain(function (
  this: Fields,
  name: unknown,
  args: unknown,
  locals: unknown,
  lets: unknown,
  exprs: unknown,
  body: unknown,
) {
  this.name = name;
  this.args = args;
  this.locals = locals;
  this.lets = lets;
  this.exprs = exprs;
  this.body = body;
});

const GlobalRecord = plain(function (this: Fields, name: unknown, space: unknown, type: unknown) {
  this.name = name;
  this.space = space;
  this.type = type;
});

const ArgRecord = plain(function (this: Fields, name: unknown, type: unknown) {
  this.name = name;
  this.type = type;
});

/** A module of these parts. */
export function makeModule(
  types: readonly Type[],
  constants: readonly Constant[],
  globals: readonly Global[],
  functions: readonly Function[],
  entryPoints: readonly EntryPoint[],
): Module {
  return new ModuleRecord(types, constants, globals, functions, entryPoints) as unknown as Module;
}

/** `m` with the parts `change` gives replaced (a new module; `m` is left as it is). */
export function moduleWith(m: Module, change: Partial<Module>): Module {
  return makeModule(
    change.types ?? m.types,
    change.constants ?? m.constants,
    change.globals ?? m.globals,
    change.functions ?? m.functions,
    change.entryPoints ?? m.entryPoints,
  );
}

/** A function of these fields (its result only where it has one). */
export function makeFunction(
  name: string,
  args: readonly FunctionArgument[],
  locals: readonly LocalVariable[],
  lets: readonly LetInfo[],
  exprs: readonly Expr[],
  body: Block,
  result?: Function['result'],
): Function {
  const n = new FunctionRecord(name, args, locals, lets, exprs, body);
  if (result !== undefined) n.result = result;
  return n as unknown as Function;
}

/** `f` with the fields `change` gives replaced (a new function; `f` is left as it is). */
export function functionWith(
  f: Function,
  change: Partial<Pick<Function, 'locals' | 'lets' | 'exprs' | 'body'>>,
): Function {
  return makeFunction(
    f.name,
    f.args,
    change.locals ?? f.locals,
    change.lets ?? f.lets,
    change.exprs ?? f.exprs,
    change.body ?? f.body,
    f.result,
  );
}

/** The module's own copy of a global: its fields, the optional ones where given, in one order. */
export function ownGlobal(g: Global): Global {
  return globalWith(g, {});
}

/** `g` with the fields `change` gives replaced, made as ownGlobal makes one (`g` is left as it is). */
export function globalWith(
  g: Global,
  change: { readonly name?: string; readonly type?: TypeId; readonly binding?: Global['binding'] | undefined },
): Global {
  const n = new GlobalRecord(change.name ?? g.name, g.space, change.type ?? g.type);
  if (g.access !== undefined) n.access = g.access;
  const binding = change.binding ?? g.binding;
  if (binding !== undefined) n.binding = binding;
  if (g.init !== undefined) n.init = g.init;
  return n as unknown as Global;
}

/** A function's own copy of an argument (its binding where it has one). */
export function ownArg(a: FunctionArgument): FunctionArgument {
  const n = new ArgRecord(a.name, a.type);
  if (a.binding !== undefined) n.binding = a.binding;
  return n as unknown as FunctionArgument;
}

/** `l` with initialiser `init` (a new entry made as localEntry makes one). */
export function localWith(l: LocalVariable, init: ExprId | undefined): LocalVariable {
  return localEntry(l.name, l.type, init);
}
