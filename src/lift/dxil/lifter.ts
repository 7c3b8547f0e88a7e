// The DXIL lifter's state: the IR module and function being built, the LLVM values already lifted,
// and how an LLVM value becomes an IR expression (conventions in lift.ts). LLVM types map to IR
// scalars: i1 -> bool; i8, i16, i32 -> u32 (a narrow integer held zero-extended, its wrap written
// out after each operation); half and float -> f32 (a half is rounded to binary16 after each
// operation when the module uses native 16-bit types, and is a 32-bit min-precision value
// otherwise); i64 and double -> vec2<u32> (low word, high word), computed by the helper functions of
// lift/f64.ts (`soft`).

import { plainConstructor } from '../../binary/lists.js';
import { FunctionBuilder, ModuleBuilder } from '../../ir/builder.js';
import type { BinaryOp, Expr, ExprId, GlobalId, LocalId, MathFn, Scalar, TypeId } from '../../ir/ir.js';
import type { Stage } from '../../ir/program.js';
import { IridiaError } from '../../errors.js';
import { Constant, GlobalVar, Instruction, type Block, type Func, type Type, type Value } from '../../dxil/ir.js';
import { LiftRefusal, type RefusalReason } from '../refuse.js';
import type { ExprOps } from '../semantics.js';
import type { DxResource } from './resources.js';
import { Soft64, type Soft64Op } from '../f64.js';

/** A lifted pointer: word `offset` of a memory array (function local, private or workgroup global). */
export interface Memory {
  readonly name: string;
  readonly local?: LocalId;
  readonly global?: GlobalId;
  readonly words: number;
  readonly atomic: boolean;
  readonly space: 'function' | 'private' | 'workgroup';
}
export interface PtrVal {
  readonly kind: 'ptr';
  readonly mem: Memory;
  readonly offset: ExprId;
  /** The LLVM type pointed to. */
  readonly type: Type;
}
export interface HandleVal {
  readonly kind: 'handle';
  readonly res: DxResource;
  /** The element of a binding array (u32, relative to the range's start); undefined: not an array. */
  readonly index: ExprId | undefined;
  readonly nonUniform: boolean;
}
export interface TupleVal {
  readonly kind: 'tuple';
  /** A struct's members: numbers, or (a ResRet of a Shader Model 6.9 vector) a vector. */
  readonly parts: readonly (ExprId | VecVal)[];
}
/** An LLVM vector `<N x T>`, scalarised: one IR value a lane (lanes: the vector's element count). */
export interface VecVal {
  readonly kind: 'vec';
  readonly lanes: readonly ExprId[];
}
export type Val = ExprId | PtrVal | HandleVal | TupleVal | VecVal;

// The vector and tuple values define() keeps for the rest of the program are made by constructors,
// not literals: a literal's site may be switched to the old generation (binary/lists.ts), and old
// records would keep their young lane lists alive.
const KeptVec = plainConstructor(function (this: Record<string, unknown>, lanes: unknown) {
  this.kind = 'vec';
  this.lanes = lanes;
});
const KeptTuple = plainConstructor(function (this: Record<string, unknown>, parts: unknown) {
  this.kind = 'tuple';
  this.parts = parts;
});

/**
 * The most lanes an LLVM vector may have: Shader Model 6.9's long vectors hold up to 1024 elements
 * (DXIL.rst, "Long vectors"); the lanes are IR values, so a vector type with more is refused.
 */
export const MAX_VECTOR_LANES = 1024;
/** Lanes of vector types the lifter may meet in one program (a bound on its work: 2^22). */
export const MAX_VECTOR_WORK = 1 << 22;

export const isExpr = (v: Val): v is ExprId => typeof v === 'number';

const F32 = new DataView(new ArrayBuffer(4));

/** binary16 bits to the binary32 bits of the same value. */
export function halfToFloatBits(h: number): number {
  const s = (h & 0x8000) << 16;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0x1f) return (s | 0x7f800000 | (m << 13)) >>> 0;
  if (e !== 0) return (s | ((e - 15 + 127) << 23) | (m << 13)) >>> 0;
  if (m === 0) return s >>> 0;
  F32.setFloat32(0, m * 2 ** -24, true);
  return (s | F32.getUint32(0, true)) >>> 0;
}

export class DxilLifter implements ExprOps {
  readonly m = new ModuleBuilder();
  f: FunctionBuilder;
  readonly notes: string[] = [];
  /** ops.ts's answers of the dx.op signature check for this module (made at the first call). */
  signatureCache: unknown;
  /** The instruction being lifted (for errors and provenance). */
  ins: Instruction | undefined;
  private index = -1;
  /** Function-wide instruction index of `ins`. Setting it also sets the origin (ir.ts Origin) of
   * the statements made from now on: `originBase` + the index, the instruction's index in the
   * listing's order (-1: none). */
  get insIndex(): number {
    return this.index;
  }
  set insIndex(k: number) {
    this.index = k;
    this.f.origin = k < 0 ? undefined : this.originBase + k;
  }
  /** Each function body's first instruction in the listing's order (listingBases). */
  originBases: ReadonlyMap<Func, number> = new Map();
  /** The listing-order index of the first instruction of the function being lifted. */
  originBase = 0;
  readonly values = new Map<Value, Val>();
  /** Instructions whose value is used outside the IR block that holds its definition. */
  crossScope = new Set<Instruction>();
  readonly tU32: TypeId;
  readonly tF32: TypeId;
  readonly tBool: TypeId;
  readonly tVec4: TypeId;
  /** An i64 or double: vec2<u32>, x the low word. */
  readonly tV2: TypeId;
  private soft64: Soft64 | undefined;
  /** Half values are rounded to binary16 (native 16-bit types); else min precision (32-bit). */
  native16 = false;
  readonly memories = new Map<Value, Memory>();
  fnName = 'main';
  /** Lanes of the vector types met so far (bounded by MAX_VECTOR_WORK). */
  vectorWork = 0;
  /** The functions being inlined (calls.ts), innermost last. */
  readonly callStack: Func[] = [];
  /** LLVM instructions lifted through inlining so far (bounded by calls.ts MAX_INLINED). */
  inlined = 0;
  // Per-lift state the modules beside this one keep (fields rather than WeakMaps keyed by the
  // lifter: an entry of a WeakMap is slow to add, and every program set several).
  /** pipeline.ts: the lift options rasterizerSampleCount, startVertexLocation and startInstanceLocation. */
  rasterizerSamples: number | undefined = undefined;
  drawStart: { startVertexLocation?: number; startInstanceLocation?: number } | undefined = undefined;
  /** atomic64.ts: the LLVM values some instruction of the function uses (lift.ts sets them). */
  usedValues: ReadonlySet<Value> | undefined = undefined;
  /** quad.ts: the compute-like program's thread group and shader model, and its quad exchange array. */
  threadGroup: { group: readonly [number, number, number]; sm66: boolean } | undefined = undefined;
  quadBuffer: number | undefined = undefined;
  /** ops-misc.ts: the private table of the standard sample positions. */
  samplePositions: number | undefined = undefined;

  constructor(
    readonly stage: Stage,
    /** The part read, and its byte offset in the container (errors name both). */
    readonly part: string,
    readonly partOffset: number,
  ) {
    this.tU32 = this.m.scalar('u32');
    this.tF32 = this.m.scalar('f32');
    this.tBool = this.m.scalar('bool');
    this.tVec4 = this.m.vec('u32', 4);
    this.tV2 = this.m.vec('u32', 2);
    this.f = new FunctionBuilder(this.m, 'main');
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** Where the lifter is: the function, the instruction index and what it is. */
  where(): string {
    const i = this.ins;
    if (!i) return '';
    const what = i.op === 'call' ? `call @${i.callee?.name ?? '?'}` : i.op;
    return ` (function @${this.fnName}, instruction ${this.insIndex}: ${what})`;
  }

  refuse(category: RefusalReason, detail: string): never {
    throw new LiftRefusal(category, `${detail}${this.where()}`, undefined, this.part, {
      offset: this.partOffset,
      ...(this.ins ? { instruction: this.insIndex } : {}),
    });
  }

  invalid(detail: string): never {
    throw new IridiaError('E602_LIFT_INVALID', `${detail}${this.where()}`, {
      part: this.part,
      offset: this.partOffset,
      ...(this.ins ? { instruction: this.insIndex } : {}),
    });
  }

  // ---- expression helpers (ExprOps) ---------------------------------------------------------

  // methods, not arrow fields: a lifter is made for each program, and as fields these were
  // seventeen closures made with it
  e(x: Expr): ExprId {
    return this.f.expr(x);
  }
  u32(v: number): ExprId {
    return this.f.u32(v);
  }
  i32(v: number): ExprId {
    return this.f.i32(v);
  }
  f32bits(b: number): ExprId {
    return this.f.f32bits(b);
  }
  bool(b: boolean): ExprId {
    return this.f.bool(b);
  }
  bin(fn: BinaryOp, left: ExprId, right: ExprId): ExprId {
    return this.f.binary(fn, left, right);
  }
  sel(cond: ExprId, accept: ExprId, reject: ExprId): ExprId {
    return this.f.select(cond, accept, reject);
  }
  bitcast(to: Scalar, value: ExprId): ExprId {
    return this.f.bitcast(to, value);
  }
  convert(to: Scalar, value: ExprId): ExprId {
    return this.f.convert(to, value);
  }
  math(fn: MathFn, ...args: ExprId[]): ExprId {
    return this.f.math(fn, args);
  }
  load(pointer: ExprId): ExprId {
    return this.f.load(pointer);
  }
  member(base: ExprId, index: number): ExprId {
    return this.f.member(base, index);
  }
  access(base: ExprId, index: ExprId): ExprId {
    return this.f.access(base, index);
  }
  local(local: LocalId): ExprId {
    return this.e({ op: 'local', local });
  }
  global(global: GlobalId): ExprId {
    return this.e({ op: 'global', global });
  }
  not(b: ExprId): ExprId {
    return this.f.unary('not', b);
  }
  swz(vector: ExprId, pattern: number[]): ExprId {
    return this.f.swizzle(vector, pattern);
  }

  splat(scalar: Scalar, bits: number, n: number): ExprId {
    const one = this.f.literal(scalar, bits >>> 0);
    return n === 1 ? one : this.e({ op: 'splat', size: n as 2 | 3 | 4, value: one });
  }

  /** The value bound to a let unless it is already cheap to repeat (a literal, let, argument). */
  once(v: ExprId, name = 'value'): ExprId {
    const e = this.f.exprs[v];
    if (!e || e.op === 'literal' || e.op === 'let' || e.op === 'arg' || e.op === 'zero') return v;
    return this.f.bind(name, v);
  }

  /** Whether the bits of an f32 are a NaN (tested on the bits: WGSL comparisons may be ordered). */
  isNaN(x: ExprId): ExprId {
    return this.bin('gt', this.bin('and', this.bitcast('u32', x), this.u32(0x7fffffff)), this.u32(0x7f800000));
  }

  /** Calls a 64-bit helper (lift/f64.ts) from the function being lifted; its result. */
  soft(op: Soft64Op, ...args: ExprId[]): ExprId {
    this.soft64 ??= new Soft64(this.m);
    return this.soft64.call(this.f, op, args);
  }

  /** A vec2<u32> of two words (low, high). */
  words(lo: ExprId, hi: ExprId): ExprId {
    return this.e({ op: 'compose', type: this.tV2, parts: [lo, hi] });
  }

  // ---- types --------------------------------------------------------------------------------

  /** Whether an LLVM type is a 64-bit scalar (i64 or double), held as vec2<u32>. */
  is64(t: Type): boolean {
    return (t.kind === 'int' && t.width === 64) || t.kind === 'double';
  }

  /** The IR scalar an LLVM first-class scalar type is held in. */
  scalarOf(t: Type): Scalar {
    switch (t.kind) {
      case 'int':
        if (t.width === 1) return 'bool';
        if (t.width <= 32) return 'u32';
        return this.refuse('64-bit integers', `an i${t.width} value`);
      case 'half':
      case 'float':
        return 'f32';
      case 'double':
        return this.refuse('double precision', 'a double value');
      case 'vector':
        return this.refuse('vector types', 'an LLVM vector value where a scalar is needed');
      default:
        return this.invalid(`a ${t.kind} value where a number is needed`);
    }
  }

  /** Refuses a type the lifter does not hold (i64, double, vectors) by name; a no-op otherwise. */
  supported(t: Type): void {
    this.scalarOf(t);
  }

  irType(t: Type): TypeId {
    if (this.is64(t)) return this.tV2;
    return this.m.scalar(this.scalarOf(t));
  }

  /** Bits of an integer type below 32 (its wrap mask), 0 for i32 and i1. */
  narrow(t: Type): number {
    return t.kind === 'int' && t.width > 1 && t.width < 32 ? t.width : 0;
  }

  /** Keeps the low `width` bits of a narrow integer (its canonical, zero-extended form). */
  wrap(x: ExprId, t: Type): ExprId {
    const w = this.narrow(t);
    return w ? this.bin('and', x, this.u32(2 ** w - 1)) : x;
  }

  /** A narrow or 32-bit integer as i32 (sign-extended from its width). */
  signed(x: ExprId, t: Type): ExprId {
    const w = this.narrow(t);
    const s = this.bitcast('i32', x);
    if (!w) return s;
    const k = this.u32(32 - w);
    return this.bin('shr', this.bin('shl', s, k), k);
  }

  /** A half result rounded to binary16 when the module computes in native 16-bit types. */
  roundHalf(x: ExprId, t: Type): ExprId {
    if (t.kind !== 'half' || !this.native16) return x;
    const packed = this.math(
      'pack2x16float',
      this.e({ op: 'compose', type: this.m.vec('f32', 2), parts: [x, this.f32bits(0)] }),
    );
    return this.swz(this.math('unpack2x16float', packed), [0]);
  }

  // ---- values -------------------------------------------------------------------------------

  /** An LLVM value as a lifted value. */
  val(v: Value): Val {
    const known = this.values.get(v);
    if (known !== undefined) return known;
    if (v instanceof Constant) return this.constant(v);
    if (v instanceof GlobalVar) {
      const mem = this.memories.get(v);
      if (mem) return { kind: 'ptr', mem, offset: this.u32(0), type: v.valueType };
      return this.refuse('instruction not handled', `the global @${v.name ?? '?'} is used as a value`);
    }
    if (v instanceof Instruction) return this.invalid(`%${v.name ?? '?'} is used before its definition`);
    return this.refuse('instruction not handled', `a ${v.kind} operand`);
  }

  /** A value that must be a number (scalar). */
  num(v: Value): ExprId {
    const x = this.val(v);
    if (!isExpr(x)) {
      if (x.kind === 'vec') return this.refuse('vector types', 'an LLVM vector value where a scalar is needed');
      return this.invalid(`a ${x.kind} where a number is needed`);
    }
    return x;
  }

  /** The element type of an LLVM vector type (its lane count checked against MAX_VECTOR_LANES). */
  laneType(t: Type): Type {
    if (t.kind !== 'vector' || !t.elt) return this.invalid(`a ${t.kind} where a vector is needed`);
    if (t.count < 1 || t.count > MAX_VECTOR_LANES)
      return this.refuse('vector types', `a vector of ${t.count} lanes (at most ${MAX_VECTOR_LANES})`);
    if (t.elt.kind === 'vector' || t.elt.kind === 'ptr') return this.invalid(`a vector of ${t.elt.kind}s`);
    this.vectorWork += t.count;
    if (this.vectorWork > MAX_VECTOR_WORK)
      return this.refuse('vector types', `vectors of more than ${MAX_VECTOR_WORK} lanes in all`);
    return t.elt;
  }

  /** A value of an LLVM vector type: its lanes (as many as the type has). */
  lanes(v: Value): readonly ExprId[] {
    this.laneType(v.type);
    const n = v.type.count;
    const x = this.val(v);
    if (isExpr(x) || x.kind !== 'vec')
      return this.invalid(`a ${isExpr(x) ? 'number' : x.kind} where a vector is needed`);
    if (x.lanes.length !== n) return this.invalid(`a vector of ${x.lanes.length} lanes where ${n} are needed`);
    return x.lanes;
  }

  /** An operand as u32 (i1 as 0/1). */
  u(v: Value): ExprId {
    const x = this.num(v);
    return v.type.kind === 'int' && v.type.width === 1 ? this.sel(x, this.u32(1), this.u32(0)) : x;
  }

  /** A constant integer operand's value. */
  imm(v: Value | undefined, what: string): number {
    if (v instanceof Constant && v.ck === 'int') return Number(BigInt.asUintN(32, v.bits));
    if (v instanceof Constant && (v.ck === 'undef' || v.ck === 'null')) return 0;
    return this.invalid(`${what} is not a constant`);
  }

  isUndef(v: Value | undefined): boolean {
    return v instanceof Constant && v.ck === 'undef';
  }

  constant(c: Constant): Val {
    const t = c.type;
    switch (c.ck) {
      case 'int': {
        if (t.width === 1) return this.bool(c.bits !== 0n);
        if (t.width === 64) return this.words64(c.bits);
        if (t.width > 32) return this.refuse('64-bit integers', `an i${t.width} constant`);
        return this.u32(Number(BigInt.asUintN(t.width, c.bits)));
      }
      case 'float':
        if (t.kind === 'half') return this.f32bits(halfToFloatBits(Number(c.bits)));
        if (t.kind === 'float') return this.f32bits(Number(c.bits));
        return this.words64(c.bits);
      case 'undef':
      case 'null':
        if (t.kind === 'ptr') return this.invalid('a null pointer');
        return this.zeroOf(t);
      case 'data':
      case 'aggregate':
        if (t.kind === 'vector') return this.vectorConstant(c);
        return this.refuse('instruction not handled', `a ${c.ck} constant used as a value`);
      case 'ce-gep':
      case 'ce-cast':
        return this.constantPointer(c);
      default:
        return this.refuse('instruction not handled', `a ${c.ck} constant used as a value`);
    }
  }

  /** A 64-bit constant's words. */
  words64(bits: bigint): ExprId {
    const u = BigInt.asUintN(64, bits);
    return this.words(this.u32(Number(u & 0xffffffffn)), this.u32(Number(u >> 32n)));
  }

  /** A ConstantDataVector (`data`: raw element bits) or ConstantVector (`aggregate`: undef lanes allowed). */
  private vectorConstant(c: Constant): Val {
    const et = this.laneType(c.type);
    const n = c.type.count;
    const count = c.ck === 'data' ? c.data.length : c.ops.length;
    if (count !== n) return this.invalid(`a vector constant of ${count} elements for ${n} lanes`);
    const lanes: ExprId[] = [];
    for (let k = 0; k < n; k++) {
      if (c.ck === 'aggregate') {
        const o = c.ops[k];
        if (!(o instanceof Constant) || o.type !== et) return this.invalid('a vector constant element of another type');
        lanes.push(this.num(o));
        continue;
      }
      const bits = c.data[k]!;
      if (et.kind === 'int') {
        const w = et.width;
        if (w === 1) lanes.push(this.bool((bits & 1n) !== 0n));
        else if (w === 64) lanes.push(this.words64(bits));
        else if (w > 32) return this.refuse('64-bit integers', `an i${w} constant`);
        else lanes.push(this.u32(Number(BigInt.asUintN(w, bits))));
      } else if (et.kind === 'half') lanes.push(this.f32bits(halfToFloatBits(Number(bits & 0xffffn))));
      else if (et.kind === 'float') lanes.push(this.f32bits(Number(BigInt.asUintN(32, bits))));
      else if (et.kind === 'double') lanes.push(this.words64(bits));
      else return this.invalid(`a vector constant of ${et.kind}`);
    }
    return { kind: 'vec', lanes };
  }

  zeroOf(t: Type): Val {
    if (t.kind === 'struct') return { kind: 'tuple', parts: t.elts.map((e) => this.zeroOf(e) as ExprId | VecVal) };
    if (t.kind === 'vector') {
      const z = this.zeroOf(this.laneType(t)) as ExprId;
      return { kind: 'vec', lanes: Array.from({ length: t.count }, () => z) };
    }
    if (this.is64(t)) return this.words64(0n);
    const s = this.scalarOf(t);
    return this.f.literal(s, 0);
  }

  /**
   * Hook: constant GEPs and casts of globals (lift.ts installs it). A function shared by every
   * lifter, called with the lifter as `this`, never a closure made per lifter: a closure that
   * captures the lifter, stored in the lifter's field after it was made, kept the whole lift alive
   * through V8's young-generation collections until the next full one (docs/benchmarks.md, issue
   * 17's sixth session; test/lift/young-collections.test.ts).
   */
  constantPointer: (this: DxilLifter, c: Constant) => Val = refuseConstantPointer;

  /** Binds an instruction's result: a let, or a local when it is used outside the defining block. */
  define(i: Instruction, v: Val, name: string): void {
    const cross = this.crossScope.has(i);
    if (isExpr(v)) this.values.set(i, this.keepAs(cross, v, name, this.irType(i.type)));
    else if (v.kind === 'vec') this.values.set(i, this.keepVec(cross, v, name, i.type));
    else if (v.kind === 'tuple') {
      const elts = i.type.kind === 'struct' ? i.type.elts : [];
      const parts = v.parts.map((p, k) => {
        const t = elts[k];
        if (!isExpr(p)) return this.keepVec(cross, p, `${name}_${k}`, t);
        return this.keepAs(cross, p, `${name}_${k}`, t ? this.irType(t) : this.tU32);
      });
      this.values.set(i, new KeptTuple(parts) as unknown as TupleVal);
    } else if (v.kind === 'ptr')
      this.values.set(i, { ...v, offset: this.keepAs(cross, v.offset, `${name}_addr`, this.tU32) });
    else
      this.values.set(
        i,
        v.index === undefined ? v : { ...v, index: this.keepAs(cross, v.index, `${name}_index`, this.tU32) },
      );
  }

  /** define's value of one expression: a let, or (`cross`: used outside its IR block) a local's load. */
  private keepAs(cross: boolean, x: ExprId, hint: string, t: TypeId): ExprId {
    if (!cross) return this.once(x, hint);
    const e = this.f.exprs[x];
    if (e && e.op === 'literal') return x;
    const l = this.f.local(hint, t);
    this.f.store(this.local(l), x);
    return this.load(this.local(l));
  }

  /** define's value of a vector's lanes. */
  private keepVec(cross: boolean, x: VecVal, hint: string, t: Type | undefined): VecVal {
    const lt = t?.kind === 'vector' ? this.irType(this.laneType(t)) : this.tU32;
    return new KeptVec(x.lanes.map((l, k) => this.keepAs(cross, l, `${hint}_${k}`, lt))) as unknown as VecVal;
  }
}

export type { Block, Func };

/** constantPointer before lift.ts installs its own: no constant expression on memory is read. */
function refuseConstantPointer(this: DxilLifter, c: Constant): Val {
  return this.refuse('instruction not handled', `a constant ${c.ck} expression`);
}

/**
 * Where each function body's instructions start in the order the DXIL listing prints them
 * (src/dxil/printer.ts: the module's functions in order, a body's blocks in order, every
 * instruction one line): the DXIL origins of ir.ts count over it.
 */
export function listingBases(functions: readonly Func[]): Map<Func, number> {
  const out = new Map<Func, number>();
  let n = 0;
  for (const f of functions) {
    if (f.isProto) continue;
    out.set(f, n);
    for (const b of f.blocks) n += b.insts.length;
  }
  return out;
}

/** A value type as LLVM spells the simple ones (i32, float, <4 x float>), for errors. */
export function valueTypeName(t: Type): string {
  if (t.kind === 'int') return `i${t.width}`;
  if (t.kind === 'vector' && t.elt) return `<${t.count} x ${valueTypeName(t.elt)}>`;
  if (t.kind === 'array' && t.elt) return `[${t.count} x ${valueTypeName(t.elt)}]`;
  if (t.kind === 'ptr') return t.elt ? `${valueTypeName(t.elt)}*` : 'ptr';
  if (t.kind === 'struct') return t.name !== undefined ? `%${t.name}` : 'a literal struct';
  return t.kind;
}
