// Type resolution for IR expressions (ir.ts): the type of every expression of a function, computed
// in arena order (an expression only refers to smaller handles). Used by the validator, the
// printer, the WGSL emitter and the executor. A mistyped expression is an IrTypeError naming it.

import type { Block, Expr, Function, Module, Scalar, Stmt, Type, TypeId, AddressSpace } from './ir.js';

export type Resolved =
  | { readonly kind: 'value'; readonly type: Type }
  | { readonly kind: 'pointer'; readonly type: Type; readonly space: AddressSpace }
  /** A texture or sampler (a handle global, or an element of a binding array of them). */
  | { readonly kind: 'handle'; readonly type: Type };

export class IrTypeError extends Error {
  override readonly name = 'IrTypeError';
  constructor(
    readonly fn: string,
    readonly expr: number,
    reason: string,
  ) {
    super(`function ${fn}, expression %${expr}: ${reason}`);
  }
}

export function scalarOf(t: Type): Scalar | undefined {
  if (t.kind === 'scalar' || t.kind === 'vector') return t.scalar;
  if (t.kind === 'atomic') return t.scalar;
  return undefined;
}

export function widthOf(t: Type): number {
  return t.kind === 'vector' ? t.size : 1;
}

/**
 * A type's key, equal for equal types and different for different ones (the builder's interning,
 * the passes' and the decompiler's type tables, sameType of images). Short keys for the kinds every
 * program makes, JSON for the rest: a lifter makes a resource's image or sampler type again at each
 * use, and the JSON of an image, its class nested, took about seven times as long as its short key.
 * Each short key starts with a letter no JSON text (`{`) and no other kind's key starts with, and
 * names every field of its kind.
 */
export function typeKey(t: Type): string {
  switch (t.kind) {
    case 'scalar':
      return `s${t.scalar}`;
    case 'vector':
      return `v${t.scalar}${t.size}`;
    case 'array':
      return `a${t.base},${t.length}`;
    case 'sampler':
      return t.comparison ? 'S1' : 'S0';
    case 'image': {
      const c = t.class;
      const head = `i${t.dim},${t.arrayed ? 1 : 0},`;
      if (c.kind === 'sampled') return `${head}s${c.scalar},${c.multisampled ? 1 : 0}`;
      if (c.kind === 'depth') return `${head}d${c.multisampled ? 1 : 0}`;
      return `${head}w${c.format},${c.access}`;
    }
    default:
      return JSON.stringify(t);
  }
}

// Resolved records of scalar and vector types (nearly all of them: type resolution runs for every
// function the emitter, printer and executor see) come from one table, made once. A value, pointer
// or handle of another type of a module (an array, a struct, an image: about six a program) is a
// new record each time it is asked for. These were kept in WeakMaps keyed by the types until the
// eleventh session (docs/benchmarks.md): such a map lives in the old generation, and V8's young
// collector keeps alive whatever an old object points to, garbage or not, so every program's types,
// with what they reach (an output struct's members), were copied into the old generation, which
// took page faults and full collections to free them (`tools/survivors.ts --only
// clearfloat11_fl9ps`: 13.7 MB promoted over 20,000 lifts with the maps, 0.1 MB without).
const SCALARS: readonly Scalar[] = ['f32', 'i32', 'u32', 'bool'];
/** Scalar and vector types (f32, i32, u32, bool; sizes 1 to 4) by vtIndex, and their value records. */
const VT: readonly Type[] = SCALARS.flatMap((s) =>
  [1, 2, 3, 4].map((n): Type =>
    n === 1 ? { kind: 'scalar', scalar: s } : { kind: 'vector', scalar: s, size: n as 2 | 3 | 4 },
  ),
);
/** The index of a scalar or vector type in VT, or -1 (not a scalar, or a size outside 1..4). */
function vtIndex(s: Scalar, size: number): number {
  if (!(size >= 1 && size <= 4)) return -1;
  const k = s === 'f32' ? 0 : s === 'i32' ? 4 : s === 'u32' ? 8 : s === 'bool' ? 12 : -1;
  return k < 0 ? -1 : k + size - 1;
}

const VT_VALUES: readonly Resolved[] = VT.map((type): Resolved => ({ kind: 'value', type }));
/** The value record of a scalar or vector type (the record val(vt(s, n)) gives, from a table). */
function vtValue(scalar: Scalar, size: number): Resolved {
  const k = vtIndex(scalar, size);
  return k >= 0 ? (VT_VALUES[k] as Resolved) : val(vt(scalar, size));
}

/** The index of `type` in VT when it is the table's own object (most types resolved), else -1. */
function tableIndex(type: Type): number {
  if (type.kind !== 'scalar' && type.kind !== 'vector') return -1;
  const k = vtIndex(type.scalar, type.kind === 'scalar' ? 1 : type.size);
  return k >= 0 && VT[k] === type ? k : -1;
}

function val(type: Type): Resolved {
  // The table's own types from the table, without hashing.
  const k = tableIndex(type);
  if (k >= 0) return VT_VALUES[k] as Resolved;
  return { kind: 'value', type };
}

/** Pointers to the table's types by address space and VT index (filled by pointer() as met). */
const VT_POINTERS: Resolved[][] = [[], [], [], [], []];
const SPACES: readonly AddressSpace[] = ['private', 'workgroup', 'uniform', 'storage', 'handle'];

function handle(type: Type): Resolved {
  return { kind: 'handle', type };
}

function pointer(type: Type, space: AddressSpace): Resolved {
  // Pointers to the table's own types from VT_POINTERS, made the first time and kept.
  const k = tableIndex(type);
  const row = k >= 0 ? VT_POINTERS[SPACES.indexOf(space)] : undefined;
  if (row === undefined) return { kind: 'pointer', type, space };
  return (row[k] ??= { kind: 'pointer', type, space });
}

/** Structural type equality (resolved types are often fresh objects, not interned handles). */
export function sameType(a: Type, b: Type): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'scalar':
      return b.kind === 'scalar' && a.scalar === b.scalar;
    case 'vector':
      return b.kind === 'vector' && a.scalar === b.scalar && a.size === b.size;
    case 'atomic':
      return b.kind === 'atomic' && a.scalar === b.scalar;
    case 'sampler':
      return b.kind === 'sampler' && a.comparison === b.comparison;
    case 'array':
      return b.kind === 'array' && a.base === b.base && a.length === b.length;
    case 'binding_array':
      return b.kind === 'binding_array' && a.base === b.base && a.size === b.size;
    case 'struct':
    case 'image':
      return a.kind === b.kind && typeKey(a) === typeKey(b);
  }
}

function vt(scalar: Scalar, size: number): Type {
  const k = vtIndex(scalar, size);
  return k >= 0 ? (VT[k] as Type) : { kind: 'vector', scalar, size: size as 2 | 3 | 4 };
}

/** Resolves every expression of `f`; throws IrTypeError at the first one that does not type. */
export function resolveFunction(m: Module, f: Function): Resolved[] {
  // Filled in order, one record per expression (made at its size: no growing as it fills).
  return resolveFunctionInto(m, f, new Array<Resolved>(f.exprs.length));
}

/**
 * resolveFunction, written into `out` (entry h for expression h) and returned: a list lent for the
 * function (scratch.ts), at least as long as its expressions. Entries past them are left as they are.
 */
export function resolveFunctionInto(m: Module, f: Function, out: (Resolved | undefined)[]): Resolved[] {
  const letValues: number[] = [];
  const subgroupLets: Extract<Stmt, { op: 'subgroup' }>[] = [];
  /** Lets bound by a call: the function called (its result type is the let's). */
  const callLets: number[] = [];
  /** Lets bound by an atomic64: the previous 64-bit value, vec2<u32>. */
  const atomic64Lets: boolean[] = [];
  // (`op` read once a statement and once an expression below: statements and expressions come in
  // many shapes, so each read of one of their fields is a lookup by shape, not a load at an offset)
  const walk = (b: Block): void => {
    for (let k = 0; k < b.length; k++) {
      const s = b[k] as Stmt;
      switch (s.op) {
        case 'let':
          letValues[s.let] = s.value;
          break;
        case 'atomic':
          if (s.result !== undefined) letValues[s.result] = -1 - s.pointer;
          break;
        case 'subgroup':
          subgroupLets[s.result] = s;
          break;
        case 'call':
          if (s.result !== undefined) callLets[s.result] = s.fn;
          break;
        case 'atomic64':
          if (s.result !== undefined) atomic64Lets[s.result] = true;
          break;
        case 'if':
          walk(s.accept);
          walk(s.reject);
          break;
        case 'loop':
          walk(s.body);
          break;
        case 'switch':
          for (const c of s.cases) walk(c.body);
          break;
        default:
          break;
      }
    }
  };
  walk(f.body);
  const ty = (id: TypeId, at: number): Type => {
    const t = m.types[id];
    if (!t) throw new IrTypeError(f.name, at, `type handle ${id} out of range`);
    return canonical(t);
  };
  // The helpers read the index of the expression being resolved (closures made once, not per expression).
  let i = 0;
  const get = (h: number): Resolved => {
    if (!(h >= 0 && h < i)) throw new IrTypeError(f.name, i, `operand %${h} is not an earlier expression`);
    return out[h] as Resolved;
  };
  const value = (h: number): Type => {
    const r = get(h);
    if (r.kind !== 'value') throw new IrTypeError(f.name, i, `operand %${h} is a ${r.kind}, not a value`);
    return r.type;
  };
  const fail = (why: string): never => {
    throw new IrTypeError(f.name, i, why);
  };
  const localRecords: Resolved[] = [];
  const exprs = f.exprs;
  for (i = 0; i < exprs.length; i++) {
    const e = exprs[i] as Expr;
    const op = e.op;
    if (op !== 'let' && op !== 'local') {
      out[i] = resolveOne(m, f, e, i, get, value, ty, fail);
      continue;
    }
    if (e.op === 'let') {
      const id = e.let;
      const s = subgroupLets[id];
      if (s !== undefined) {
        // A subgroup statement's result (ir.ts "Subgroups"): bool, a ballot's vec4<u32>, or the operand's type.
        if (s.fn === 'elect' || s.fn === 'all' || s.fn === 'any') out[i] = vtValue('bool', 1);
        else if (s.fn === 'ballot') out[i] = vtValue('u32', 4);
        else if (s.argument === undefined) fail(`subgroup ${s.fn} without an operand`);
        else out[i] = val(value(s.argument));
        continue;
      }
      if (atomic64Lets[id] === true) {
        out[i] = val(vt('u32', 2));
        continue;
      }
      const byCall = callLets[id];
      if (byCall !== undefined) {
        const callee = m.functions[byCall];
        if (!callee?.result) fail(`let ${id} is bound by a call of a function without a result`);
        else out[i] = val(ty(callee.result.type, i));
        continue;
      }
      const v = letValues[id];
      if (v === undefined) fail(`let ${id} is never bound`);
      else if (v >= 0) {
        value(v);
        out[i] = out[v] as Resolved;
        continue;
      } else {
        // An atomic's result: the scalar of the atomic it acts on.
        const p = get(-1 - v);
        if (p.kind !== 'pointer' || p.type.kind !== 'atomic') fail('atomic result of a non-atomic');
        out[i] = vtValue((p.type as { scalar: Scalar }).scalar, 1);
        continue;
      }
    }
    if (e.op === 'local') {
      // One record per local (locals are read and written through a fresh expression each time).
      const r = (localRecords[e.local] ??= resolveOne(m, f, e, i, get, value, ty, fail));
      out[i] = r;
      continue;
    }
    out[i] = resolveOne(m, f, e, i, get, value, ty, fail);
  }
  return out as Resolved[];
}

const COMPARISONS: ReadonlySet<string> = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);
const ARITHMETIC: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'div', 'rem']);

function resolveOne(
  m: Module,
  f: Function,
  e: Expr,
  i: number,
  get: (h: number) => Resolved,
  value: (h: number) => Type,
  ty: (id: TypeId, at: number) => Type,
  fail: (why: string) => never,
): Resolved {
  // A switch on strings tests its cases in order: the kinds the lifters make most come first
  // (`tools/phase-times.ts --census`: swizzles, loads, bitcasts and binaries are most of a program).
  switch (e.op) {
    case 'swizzle': {
      const t = value(e.vector);
      if (t.kind !== 'vector') return fail('swizzle of a non-vector');
      if (e.pattern.length < 1 || e.pattern.length > 4) fail('swizzle of 0 or more than 4 components');
      for (let k = 0; k < e.pattern.length; k++) {
        const c = e.pattern[k] as number;
        if (!(c >= 0 && c < t.size)) fail(`swizzle component ${c} out of vec${t.size}`);
      }
      return vtValue(t.scalar, e.pattern.length);
    }
    case 'load': {
      const p = get(e.pointer);
      if (p.kind !== 'pointer') return fail('load of a non-pointer');
      if (p.type.kind === 'atomic') fail('plain load of an atomic (use an atomic load)');
      return val(p.type);
    }
    case 'bitcast': {
      const t = value(e.value);
      const s = scalarOf(t);
      if (s === undefined || s === 'bool' || e.to === 'bool' || (t.kind !== 'scalar' && t.kind !== 'vector'))
        fail('bitcast must be between 32-bit numeric types');
      return vtValue(e.to, widthOf(t));
    }
    case 'binary': {
      const l = value(e.left);
      const r = value(e.right);
      if ((l.kind !== 'scalar' && l.kind !== 'vector') || (r.kind !== 'scalar' && r.kind !== 'vector'))
        fail('binary operator on a composite');
      const ls = scalarOf(l) as Scalar;
      const rs = scalarOf(r) as Scalar;
      if (widthOf(l) !== widthOf(r)) fail(`binary ${e.fn} of widths ${widthOf(l)} and ${widthOf(r)}`);
      if (e.fn === 'shl' || e.fn === 'shr') {
        if (ls === 'f32' || ls === 'bool' || rs !== 'u32') fail(`shift of ${ls} by ${rs}`);
        return get(e.left);
      }
      if (ls !== rs) fail(`binary ${e.fn} of ${ls} and ${rs}`);
      if (COMPARISONS.has(e.fn)) {
        if (ls === 'bool' && e.fn !== 'eq' && e.fn !== 'ne') fail('ordered comparison of bools');
        return vtValue('bool', widthOf(l));
      }
      if ((e.fn === 'and' || e.fn === 'or' || e.fn === 'xor') && ls === 'f32') fail(`${e.fn} on f32`);
      if (ARITHMETIC.has(e.fn) && ls === 'bool') fail(`${e.fn} on bool`);
      return get(e.left);
    }
    case 'access':
    case 'member': {
      const b = get(e.base);
      // A lane of a vector (the lifter's register writes and reads): from the tables.
      if (e.op === 'member' && b.type.kind === 'vector' && e.index >= 0 && e.index < b.type.size) {
        if (b.kind === 'pointer') return pointer(vt(b.type.scalar, 1), b.space);
        if (b.kind === 'value') return vtValue(b.type.scalar, 1);
      }
      if (e.op === 'access') {
        const it = value(e.index);
        if (it.kind !== 'scalar' || (it.scalar !== 'u32' && it.scalar !== 'i32'))
          fail('index is not an i32/u32 scalar');
      }
      const inner = elementOf(m, b.type, e.op === 'member' ? e.index : undefined, fail);
      if (b.kind === 'handle') {
        if (b.type.kind !== 'binding_array') fail('access into a handle that is not a binding array');
        return handle(inner);
      }
      if (b.type.kind === 'binding_array') {
        // A binding array of buffers: its element is the buffer (a pointer).
        if (b.kind !== 'pointer') fail('binding array value');
        return pointer(inner, (b as { space: AddressSpace }).space);
      }
      if (b.kind === 'pointer') return pointer(inner, b.space);
      return val(inner);
    }
    case 'literal':
      if (!(e.bits >= 0 && e.bits <= 0xffffffff && Number.isInteger(e.bits))) fail('literal bits not a 32-bit pattern');
      if (e.scalar === 'bool' && e.bits > 1) fail('bool literal not 0 or 1');
      return vtValue(e.scalar, 1);
    case 'splat': {
      const t = value(e.value);
      if (t.kind !== 'scalar') fail('splat of a non-scalar');
      return vtValue((t as { scalar: Scalar }).scalar, e.size);
    }
    case 'compose': {
      const t = ty(e.type, i);
      if (t.kind === 'vector') {
        let n = 0;
        for (let k = 0; k < e.parts.length; k++) {
          const pt = value(e.parts[k] as number);
          if (scalarOf(pt) !== t.scalar || (pt.kind !== 'scalar' && pt.kind !== 'vector'))
            fail(`compose of ${t.scalar} vector from ${describe(pt)}`);
          n += widthOf(pt);
        }
        if (n !== t.size) fail(`compose of vec${t.size} from ${n} components`);
      } else if (t.kind === 'struct') {
        if (e.parts.length !== t.members.length) fail(`compose of struct ${t.name} with ${e.parts.length} parts`);
        for (let k = 0; k < e.parts.length; k++) {
          const p = e.parts[k] as number;
          const want = ty((t.members[k] as { type: number }).type, i);
          if (!sameTypeLoose(value(p), want)) fail(`struct member ${k} given ${describe(value(p))}`);
        }
      } else if (t.kind === 'array') {
        if (t.length === null || e.parts.length !== t.length) fail('compose of array with wrong count');
        const want = ty(t.base, i);
        for (const p of e.parts) if (!sameTypeLoose(value(p), want)) fail('array element of wrong type');
      } else fail(`compose of ${t.kind}`);
      return val(t);
    }
    case 'select': {
      const c = value(e.cond);
      const a = value(e.accept);
      const r = value(e.reject);
      if (scalarOf(c) !== 'bool') fail('select condition is not bool');
      if (!sameType(a, r)) fail(`select of ${describe(a)} and ${describe(r)}`);
      if (c.kind === 'vector' && widthOf(c) !== widthOf(a)) fail('select condition width differs');
      return get(e.accept);
    }
    case 'math':
      return val(resolveMath(e.fn, e.args.map(value), fail));
    case 'local': {
      const l = f.locals[e.local];
      if (!l) return fail(`local ${e.local} out of range`);
      return pointer(ty(l.type, i), 'private');
    }
    case 'let':
      // A let's type is its value's; the validator fills it in statement order (see validate.ts).
      return fail('let type must be resolved by the validator');
    case 'unary': {
      const t = value(e.arg);
      const s = scalarOf(t);
      if (t.kind !== 'scalar' && t.kind !== 'vector') fail('unary operator on a composite');
      if (e.fn === 'not' && s === 'f32') fail('not on f32');
      if (e.fn === 'neg' && s === 'bool') fail(`${e.fn} on bool`);
      return get(e.arg);
    }
    case 'convert': {
      const t = value(e.value);
      if (t.kind !== 'scalar' && t.kind !== 'vector') fail('convert of a composite');
      return vtValue(e.to, widthOf(t));
    }
    case 'zero':
      return val(ty(e.type, i));
    case 'constant': {
      const c = m.constants[e.constant];
      if (!c) return fail(`constant ${e.constant} out of range`);
      return val(ty(c.type, i));
    }
    case 'global': {
      const g = m.globals[e.global];
      if (!g) return fail(`global ${e.global} out of range`);
      const t = ty(g.type, i);
      if (g.space === 'handle') return handle(t);
      return pointer(t, g.space);
    }
    case 'arg': {
      const a = f.args[e.index];
      if (!a) return fail(`argument ${e.index} out of range`);
      return val(ty(a.type, i));
    }
    case 'derivative': {
      const t = value(e.value);
      if (scalarOf(t) !== 'f32') fail('derivative of a non-f32 value');
      return get(e.value);
    }
    case 'sample': {
      const img = get(e.image);
      const smp = get(e.sampler);
      if (img.kind !== 'handle' || img.type.kind !== 'image') return fail('sample of a non-image');
      if (smp.kind !== 'handle' || smp.type.kind !== 'sampler') return fail('sample with a non-sampler');
      if (img.type.class.kind === 'storage') fail('sample of a storage image');
      const c = value(e.coord);
      if (scalarOf(c) !== 'f32') fail('sample coordinates are not f32');
      if (e.depthRef !== undefined && !smp.type.comparison) fail('comparison with a non-comparison sampler');
      if (e.depthRef === undefined && smp.type.comparison) fail('comparison sampler without a reference');
      if (img.type.class.kind === 'depth' && e.depthRef === undefined && e.gather === undefined)
        return vtValue('f32', 1);
      if (e.depthRef !== undefined && e.gather === undefined) return vtValue('f32', 1);
      const s = img.type.class.kind === 'sampled' ? img.type.class.scalar : 'f32';
      return vtValue(s, 4);
    }
    case 'image_load': {
      const img = get(e.image);
      if (img.kind !== 'handle' || img.type.kind !== 'image') return fail('load of a non-image');
      const cls = img.type.class;
      if (cls.kind === 'depth') return vtValue('f32', 1);
      if (cls.kind === 'sampled') return vtValue(cls.scalar, 4);
      return vtValue(storageScalar(cls.format), 4);
    }
    case 'image_query': {
      const img = get(e.image);
      if (img.kind !== 'handle' || img.type.kind !== 'image') return fail('query of a non-image');
      if (e.query !== 'size') return vtValue('u32', 1);
      const d = img.type.dim;
      return vtValue('u32', d === '1d' ? 1 : d === '3d' ? 3 : 2);
    }
    case 'array_length': {
      const p = get(e.pointer);
      if (p.kind !== 'pointer' || p.type.kind !== 'array' || p.type.length !== null)
        fail('array length of something other than a runtime-sized array');
      return vtValue('u32', 1);
    }
  }
}

export function storageScalar(format: string): 'f32' | 'i32' | 'u32' {
  if (format.endsWith('uint')) return 'u32';
  if (format.endsWith('sint')) return 'i32';
  return 'f32';
}

function elementOf(m: Module, t: Type, constIndex: number | undefined, fail: (w: string) => never): Type {
  switch (t.kind) {
    case 'vector':
      if (constIndex !== undefined && constIndex >= t.size) fail(`member ${constIndex} of vec${t.size}`);
      return vt(t.scalar, 1);
    case 'array':
      if (constIndex !== undefined && t.length !== null && constIndex >= t.length)
        fail(`member ${constIndex} of an array of ${t.length}`);
      return typeAt(m, t.base, fail);
    case 'binding_array':
      return typeAt(m, t.base, fail);
    case 'struct': {
      if (constIndex === undefined) return fail('computed index into a struct');
      const mem = t.members[constIndex];
      if (!mem) return fail(`member ${constIndex} of struct ${t.name}`);
      return typeAt(m, mem.type, fail);
    }
    case 'scalar':
    case 'atomic':
    case 'image':
    case 'sampler':
      return fail(`index into a ${t.kind}`);
  }
}

function typeAt(m: Module, id: TypeId, fail: (w: string) => never): Type {
  return canonical(m.types[id] ?? fail(`type ${id} out of range`));
}

/**
 * A module's scalar or vector type as the table's own object (VT), structurally the same: the
 * records made of it (val, pointer) then come from the tables by index rather than from the
 * WeakMaps, which every load of a register (a vec4<u32> local) otherwise paid for. Other types
 * are themselves.
 */
function canonical(t: Type): Type {
  if (t.kind !== 'scalar' && t.kind !== 'vector') return t;
  const k = vtIndex(t.scalar, t.kind === 'scalar' ? 1 : t.size);
  return k >= 0 ? (VT[k] as Type) : t;
}

/** Structural equality (types built by one ModuleBuilder are interned, but lets resolve inline). */
function sameTypeLoose(a: Type, b: Type): boolean {
  return sameType(a, b);
}

const ARITY: Readonly<Record<string, number>> = {
  min: 2,
  max: 2,
  clamp: 3,
  fma: 3,
  dot: 2,
  mul_hi: 2,
  extract_bits: 3,
  insert_bits: 4,
};

function sameAsFirstOperand(fn: string, args: readonly Type[], k: number, fail: (w: string) => never): void {
  const t = args[k] as Type;
  const a0 = args[0] as Type;
  if (!sameType(t, a0)) fail(`${fn} operand ${k} is ${describe(t)}, not ${describe(a0)}`);
}

function u32ScalarOperand(fn: string, args: readonly Type[], k: number, fail: (w: string) => never): void {
  const t = args[k] as Type;
  if (t.kind !== 'scalar' || t.scalar !== 'u32') fail(`${fn} operand ${k} must be a u32 scalar`);
}

function resolveMath(fn: string, args: Type[], fail: (w: string) => never): Type {
  const a0 = args[0] ?? fail(`${fn} without operands`);
  const s = scalarOf(a0);
  const numeric = a0.kind === 'scalar' || a0.kind === 'vector';
  if (!numeric) fail(`${fn} of a composite`);
  const n = ARITY[fn] ?? 1;
  if (args.length !== n) fail(`${fn} takes ${n} operands, given ${args.length}`);
  switch (fn) {
    case 'min':
    case 'max':
    case 'clamp':
    case 'fma':
    case 'mul_hi':
      for (let k = 1; k < n; k++) sameAsFirstOperand(fn, args, k, fail);
      if (s === 'bool') fail(`${fn} of bool`);
      if (fn === 'fma' && s !== 'f32') fail('fma of integers');
      if (fn === 'mul_hi' && s === 'f32') fail('mul_hi of f32');
      return a0;
    case 'dot':
      sameAsFirstOperand(fn, args, 1, fail);
      if (s !== 'f32') fail('dot of non-f32');
      return vt('f32', 1);
    case 'all':
    case 'any':
      if (s !== 'bool') fail(`${fn} of non-bool`);
      return vt('bool', 1);
    case 'pack2x16float':
      if (a0.kind !== 'vector' || a0.size !== 2 || s !== 'f32') fail('pack2x16float takes vec2<f32>');
      return vt('u32', 1);
    case 'unpack2x16float':
      if (a0.kind !== 'scalar' || s !== 'u32') fail('unpack2x16float takes u32');
      return vt('f32', 2);
    case 'count_one_bits':
    case 'reverse_bits':
    case 'first_leading_bit':
    case 'first_trailing_bit':
      if (s !== 'u32' && s !== 'i32') fail(`${fn} of ${s}`);
      return a0;
    case 'extract_bits':
      if (s !== 'u32' && s !== 'i32') fail(`${fn} of ${s}`);
      u32ScalarOperand(fn, args, 1, fail);
      u32ScalarOperand(fn, args, 2, fail);
      return a0;
    case 'insert_bits':
      if (s !== 'u32' && s !== 'i32') fail(`${fn} of ${s}`);
      sameAsFirstOperand(fn, args, 1, fail);
      u32ScalarOperand(fn, args, 2, fail);
      u32ScalarOperand(fn, args, 3, fail);
      return a0;
    case 'abs':
      if (s === 'bool') fail('abs of bool');
      return a0;
    default:
      if (s !== 'f32') fail(`${fn} of ${s}`);
      return a0;
  }
}

export function describe(t: Type): string {
  switch (t.kind) {
    case 'scalar':
      return t.scalar;
    case 'vector':
      return `vec${t.size}<${t.scalar}>`;
    case 'array':
      return `array<#${t.base}${t.length === null ? '' : `, ${t.length}`}>`;
    case 'struct':
      return t.name;
    case 'atomic':
      return `atomic<${t.scalar}>`;
    case 'image':
      return `image_${t.dim}${t.arrayed ? '_array' : ''}<${t.class.kind}>`;
    case 'sampler':
      return t.comparison ? 'sampler_comparison' : 'sampler';
    case 'binding_array':
      return `binding_array<#${t.base}${t.size === null ? '' : `, ${t.size}`}>`;
  }
}
