// LLVM 3.7 instructions of a DXIL function as IR (the conventions of lifter.ts): integer and float
// arithmetic with DXIL's rules written out (division by zero gives all ones, as Direct3D's udiv;
// shift counts are masked to the width; narrow integers wrap), casts with Direct3D's float to
// integer rule (NaN to 0, clamped to the range), comparisons (unordered ones tested for NaN on the
// bits), select, extractvalue, and memory: alloca'd arrays, static globals and groupshared memory
// are arrays of 32-bit words (each scalar one word, an i64 or double two: low, high), addressed by
// getelementptr in words. i64 and double values are vec2<u32>, their operations the helper
// functions of lift/f64.ts (LLVM's integer rules, IEEE binary64 correctly rounded).

import type { ExprId, GlobalId, LocalId } from '../../ir/ir.js';
import { Constant, GlobalVar, Instruction, type Type, type Value } from '../../dxil/ir.js';
import { ftoi, ftou, utof } from '../semantics.js';
import { type DxilLifter, type Memory, type PtrVal, type Val, type VecVal, halfToFloatBits, isExpr } from './lifter.js';
import { extractElement, hasVector, insertElement, isVector, lanewise, shuffleVector } from './vector.js';
import { atomic64Stmt, equal64, negate64 } from './atomic64.js';

// LLVM's opcodes as the bitcode numbers them.
export const BIN = {
  add: 0,
  sub: 1,
  mul: 2,
  udiv: 3,
  sdiv: 4,
  urem: 5,
  srem: 6,
  shl: 7,
  lshr: 8,
  ashr: 9,
  and: 10,
  or: 11,
  xor: 12,
};
export const CAST = {
  trunc: 0,
  zext: 1,
  sext: 2,
  fptoui: 3,
  fptosi: 4,
  uitofp: 5,
  sitofp: 6,
  fptrunc: 7,
  fpext: 8,
  ptrtoint: 9,
  inttoptr: 10,
  bitcast: 11,
  addrspacecast: 12,
};

/** Words a value of an LLVM type occupies in the lifter's memory (every scalar one word). */
export function wordsOf(L: DxilLifter, t: Type): number {
  switch (t.kind) {
    case 'int':
      if (t.width === 64) return 2;
      if (t.width > 32) return L.refuse('64-bit integers', `memory of i${t.width}`);
      return 1;
    case 'half':
    case 'float':
      return 1;
    case 'double':
      return 2;
    case 'array':
    case 'vector':
      return t.count * wordsOf(L, t.elt!);
    case 'struct':
      return t.elts.reduce((n, e) => n + wordsOf(L, e), 0);
    default:
      return L.invalid(`memory of a ${t.kind}`);
  }
}

/** A constant's words in the lifter's memory layout. */
export function constantWords(L: DxilLifter, c: Value, t: Type, out: number[]): void {
  if (!(c instanceof Constant)) return L.invalid('an initializer that is not a constant');
  const scalar = (bits: bigint, et: Type): void => {
    if (L.is64(et)) {
      const u = BigInt.asUintN(64, bits);
      out.push(Number(u & 0xffffffffn), Number(u >> 32n));
    } else if (et.kind === 'half') out.push(halfToFloatBits(Number(bits & 0xffffn)));
    else if (et.kind === 'float') out.push(Number(BigInt.asUintN(32, bits)));
    else if (et.kind === 'int')
      out.push(et.width === 1 ? (bits !== 0n ? 1 : 0) : Number(BigInt.asUintN(Math.min(32, et.width), bits)));
    else L.invalid(`a ${et.kind} initializer element`);
  };
  switch (c.ck) {
    case 'null':
    case 'undef': {
      const n = wordsOf(L, t);
      for (let k = 0; k < n; k++) out.push(0);
      return;
    }
    case 'int':
    case 'float':
      scalar(c.bits, t);
      return;
    case 'data':
      for (const d of c.data) scalar(d, t.elt!);
      return;
    case 'aggregate':
      c.ops.forEach((o, k) => constantWords(L, o, t.kind === 'struct' ? t.elts[k]! : t.elt!, out));
      return;
    default:
      return L.refuse('instruction not handled', `a ${c.ck} initializer`);
  }
}

/** The IR pointer to the word a lifted pointer names. */
export function wordPointer(L: DxilLifter, p: PtrVal): ExprId {
  const base = p.mem.local !== undefined ? L.local(p.mem.local) : L.global(p.mem.global!);
  const e = L.f.exprs[p.offset];
  if (e && e.op === 'literal') {
    if (e.bits >= p.mem.words) return L.access(base, p.offset); // out of range: reads zero, stores nothing
    return L.member(base, e.bits);
  }
  return L.access(base, p.offset);
}

function memoryArray(L: DxilLifter, words: number, atomic: boolean): number {
  const base = atomic ? L.m.type({ kind: 'atomic', scalar: 'u32' }) : L.tU32;
  return L.m.array(base, words);
}

/** A function-local array for an alloca. */
export function allocaMemory(L: DxilLifter, i: Instruction, index: number): Memory {
  const t = i.explicitType ?? L.invalid('an alloca without its type');
  const n = L.imm(i.ops[0], 'an alloca count');
  const words = wordsOf(L, t) * Math.max(1, n);
  if (words === 0 || words > 65536) L.invalid(`an alloca of ${words} words`);
  const local: LocalId = L.f.local(`x${index}`, memoryArray(L, words, false));
  return { name: `x${index}`, local, words, atomic: false, space: 'function' };
}

/** Module memory for a global variable: groupshared (address space 3) or a private static. */
export function globalMemory(L: DxilLifter, g: GlobalVar, index: number, atomic: boolean): Memory {
  const words = wordsOf(L, g.valueType);
  const shared = g.type.addrSpace === 3;
  if (shared && words * 4 > 32768) L.invalid(`groupshared memory of ${words * 4} bytes (Direct3D allows 32 KiB)`);
  if (!shared && words > 65536) L.invalid(`a static array of ${words} words`);
  const type = memoryArray(L, words, atomic);
  const name = shared ? `g${index}` : `static${index}`;
  let init: number | undefined;
  if (!shared && g.init && !(g.init instanceof Constant && (g.init.ck === 'undef' || g.init.ck === 'null'))) {
    const out: number[] = [];
    constantWords(L, g.init, g.valueType, out);
    init = L.m.addConstant({ name: `${name}_data`, type, words: out });
  }
  const global: GlobalId = L.m.addGlobal({
    name,
    space: shared ? 'workgroup' : 'private',
    type,
    ...(init !== undefined ? { init } : {}),
  });
  return { name, global, words, atomic, space: shared ? 'workgroup' : 'private' };
}

/** getelementptr: the word offset of the indexed element. */
export function gep(L: DxilLifter, base: Val, srcType: Type, indices: readonly Value[]): PtrVal {
  if (isExpr(base) || base.kind !== 'ptr')
    return L.refuse('instruction not handled', 'getelementptr of a value that is not memory');
  let offset = base.offset;
  let t = srcType;
  const add = (x: ExprId) => {
    const a = L.f.exprs[offset];
    const b = L.f.exprs[x];
    if (a?.op === 'literal' && b?.op === 'literal') offset = L.u32((a.bits + b.bits) >>> 0);
    else if (a?.op === 'literal' && a.bits === 0) offset = x;
    else if (!(b?.op === 'literal' && b.bits === 0)) offset = L.bin('add', offset, x);
  };
  const scaled = (ix: Value, words: number): ExprId => {
    if (ix instanceof Constant && ix.ck === 'int') return L.u32(Number(BigInt.asUintN(32, ix.bits * BigInt(words))));
    // LLVM truncates an index to the width of the pointer's index; DXIL's pointers are 32-bit, so an
    // i64 index (a null or computed one: a constant is above) counts its low word
    const v = L.is64(ix.type) ? L.swz(L.num(ix), [0]) : L.u(ix);
    return words === 1 ? v : L.bin('mul', v, L.u32(words));
  };
  indices.forEach((ix, k) => {
    if (k === 0) {
      add(scaled(ix, wordsOf(L, t)));
      return;
    }
    if (t.kind === 'array' || t.kind === 'vector') {
      t = t.elt!;
      add(scaled(ix, wordsOf(L, t)));
    } else if (t.kind === 'struct') {
      const field = L.imm(ix, 'a structure field index');
      if (field >= t.elts.length) L.invalid(`field ${field} of a structure of ${t.elts.length}`);
      let w = 0;
      for (let f = 0; f < field; f++) w += wordsOf(L, t.elts[f]!);
      add(L.u32(w));
      t = t.elts[field]!;
    } else L.invalid(`getelementptr into a ${t.kind}`);
  });
  return { kind: 'ptr', mem: base.mem, offset, type: t };
}

/** A loaded word as a value of `t`. */
function fromWord(L: DxilLifter, w: ExprId, t: Type): ExprId {
  const s = L.scalarOf(t);
  if (s === 'f32') return L.bitcast('f32', w);
  if (s === 'bool') return L.bin('ne', w, L.u32(0));
  return w;
}

/** A value of `t` as the word memory holds. */
function toWord(L: DxilLifter, v: ExprId, t: Type): ExprId {
  const s = L.scalarOf(t);
  if (s === 'f32') return L.bitcast('u32', v);
  if (s === 'bool') return L.sel(v, L.u32(1), L.u32(0));
  return v;
}

function ptrOf(L: DxilLifter, v: Value): PtrVal {
  const p = L.val(v);
  if (isExpr(p) || p.kind !== 'ptr')
    return L.refuse('instruction not handled', 'a load or store through a pointer that is not memory');
  return p;
}

/** The pointer to the word after the one `p` names (a 64-bit value's high word). */
function nextWord(L: DxilLifter, p: PtrVal): PtrVal {
  const e = L.f.exprs[p.offset];
  const offset = e && e.op === 'literal' ? L.u32(e.bits + 1) : L.bin('add', p.offset, L.u32(1));
  return { ...p, offset };
}

/** A plain 64-bit load of atomic memory: each word by an atomic load (as a plain load, not one step). */
function wordsAtomic(L: DxilLifter, q: PtrVal): ExprId {
  const words = [wordPointer(L, q), wordPointer(L, nextWord(L, q))].map((pointer) => {
    const r = L.f.newLet('word');
    L.f.stmt({ op: 'atomic', pointer, fn: 'load', result: r });
    return L.e({ op: 'let', let: r });
  });
  return L.words(words[0]!, words[1]!);
}

/** atomicrmw (`fn`, LLVM's operation) or cmpxchg of an i64 on memory: the atomic64 statement on
 * the value's two words; the previous value (a cmpxchg: it and whether it equalled `compare`). */
function atomicWords(
  L: DxilLifter,
  p: PtrVal,
  fn: (typeof RMW)[number] | 'cmpxchg',
  ops: readonly Value[],
): Val | undefined {
  if (!p.mem.atomic) return L.invalid('an atomic on memory the usage scan did not find atomic');
  if (fn === 'nand') return L.refuse('instruction not handled', 'atomicrmw nand');
  const at = L.once(p.offset, 'addr');
  const q = { ...p, offset: at };
  const low = wordPointer(L, q);
  const high = wordPointer(L, nextWord(L, q));
  if (fn === 'cmpxchg') {
    const compare = L.once(L.num(ops[1]!), 'compare');
    const { stmt, old } = atomic64Stmt(L, low, high, 'compare_exchange', L.num(ops[2]!), compare);
    L.f.stmt(stmt);
    return old === undefined ? undefined : { kind: 'tuple', parts: [old, equal64(L, old, compare)] };
  }
  const value = fn === 'sub' ? negate64(L, L.num(ops[1]!)) : L.num(ops[1]!);
  const op = ({ sub: 'add', max: 'max_s', min: 'min_s', umax: 'max_u', umin: 'min_u' } as const)[
    fn as 'sub' | 'max' | 'min' | 'umax' | 'umin'
  ];
  const { stmt, old } = atomic64Stmt(L, low, high, op ?? (fn as 'exchange' | 'add' | 'and' | 'or' | 'xor'), value);
  L.f.stmt(stmt);
  return old;
}

/** The pointer `words` words after the one `p` names. */
function wordsAfter(L: DxilLifter, p: PtrVal, words: number): PtrVal {
  if (words === 0) return p;
  const e = L.f.exprs[p.offset];
  const offset = e && e.op === 'literal' ? L.u32(e.bits + words) : L.bin('add', p.offset, L.u32(words));
  return { ...p, offset };
}

/** A vector's lanes from memory: lane k at `k * words of the element` words on. */
export function loadVector(L: DxilLifter, p: PtrVal, t: Type): VecVal {
  const et = L.laneType(t);
  const w = wordsOf(L, et);
  const q = { ...p, offset: L.once(p.offset, 'addr') };
  return { kind: 'vec', lanes: Array.from({ length: t.count }, (_, k) => loadFrom(L, wordsAfter(L, q, k * w), et)) };
}

export function storeVector(L: DxilLifter, p: PtrVal, t: Type, lanes: readonly ExprId[]): void {
  const et = L.laneType(t);
  const w = wordsOf(L, et);
  const q = { ...p, offset: L.once(p.offset, 'addr') };
  lanes.forEach((v, k) => storeTo(L, wordsAfter(L, q, k * w), et, v));
}

export function loadFrom(L: DxilLifter, p: PtrVal, t: Type): ExprId {
  if (t.kind === 'struct' || t.kind === 'array' || t.kind === 'vector')
    return L.refuse('vector types', `a load of a whole ${t.kind}`);
  if (L.is64(t)) {
    const at = L.once(p.offset, 'addr');
    const q = { ...p, offset: at };
    if (p.mem.atomic) return wordsAtomic(L, q);
    return L.words(L.load(wordPointer(L, q)), L.load(wordPointer(L, nextWord(L, q))));
  }
  const ptr = wordPointer(L, p);
  if (p.mem.atomic) {
    const r = L.f.newLet('word');
    L.f.stmt({ op: 'atomic', pointer: ptr, fn: 'load', result: r });
    return fromWord(L, L.e({ op: 'let', let: r }), t);
  }
  return fromWord(L, L.load(ptr), t);
}

export function storeTo(L: DxilLifter, p: PtrVal, t: Type, v: ExprId): void {
  if (t.kind === 'struct' || t.kind === 'array' || t.kind === 'vector')
    return L.refuse('vector types', `a store of a whole ${t.kind}`);
  if (L.is64(t)) {
    const at = L.once(p.offset, 'addr');
    const q = { ...p, offset: at };
    const w = L.once(v, 'stored');
    if (p.mem.atomic) {
      // a plain 64-bit store to memory a 64-bit atomic uses: each word atomically (Direct3D does not
      // make a plain store one step either)
      L.f.stmt({ op: 'atomic', pointer: wordPointer(L, q), fn: 'exchange', value: L.swz(w, [0]) });
      L.f.stmt({ op: 'atomic', pointer: wordPointer(L, nextWord(L, q)), fn: 'exchange', value: L.swz(w, [1]) });
      return;
    }
    L.f.stmt({ op: 'store', pointer: wordPointer(L, q), value: L.swz(w, [0]) });
    L.f.stmt({ op: 'store', pointer: wordPointer(L, nextWord(L, q)), value: L.swz(w, [1]) });
    return;
  }
  const ptr = wordPointer(L, p);
  const value = toWord(L, v, t);
  if (p.mem.atomic) L.f.stmt({ op: 'atomic', pointer: ptr, fn: 'exchange', value });
  else L.f.store(ptr, value);
}

// atomicrmw operations (AtomicRMWInst::BinOp).
const RMW = ['exchange', 'add', 'sub', 'and', 'nand', 'or', 'xor', 'max', 'min', 'umax', 'umin'] as const;

/** Lifts one non-terminator, non-phi instruction; returns its value (undefined: none). */
export function liftInst(L: DxilLifter, i: Instruction): Val | undefined {
  const ops = i.ops;
  if ((i.op === 'binop' || i.op === 'cast' || i.op === 'cmp' || i.op === 'select') && hasVector(i)) {
    if (i.op === 'cast' && (!isVector(i.type) || !isVector(ops[0]!.type) || i.type.count !== ops[0]!.type.count))
      return L.refuse('vector types', 'a cast between a vector and a value of another lane count');
    return lanewise(L, i, (lane) => liftInst(L, lane));
  }
  switch (i.op) {
    case 'binop':
      return binop(L, i);
    case 'cast':
      return cast(L, i);
    case 'cmp':
      return cmp(L, i);
    case 'select': {
      const c = L.val(ops[0]!);
      const a = L.val(ops[1]!);
      const b = L.val(ops[2]!);
      if (!isExpr(c)) return L.invalid('a select condition that is not a number');
      if (isExpr(a) && isExpr(b)) return L.sel(c, a, b);
      return L.refuse('handle not resolvable', `a select of ${isExpr(a) ? 'a number' : a.kind}s`);
    }
    case 'extractvalue': {
      const agg = L.val(ops[0]!);
      const k = i.indices[0] ?? 0;
      if (isExpr(agg) || agg.kind !== 'tuple' || i.indices.length !== 1)
        return L.refuse('instruction not handled', 'extractvalue of an aggregate not made by a dx.op or cmpxchg');
      const part = agg.parts[k];
      if (part === undefined) return L.invalid(`extractvalue of element ${k} of ${agg.parts.length}`);
      return part;
    }
    case 'alloca':
      return L.refuse('instruction not handled', 'an alloca outside the entry block');
    case 'gep': {
      const src = i.explicitType ?? L.invalid('a getelementptr without its type');
      return gep(L, L.val(ops[0]!), src, ops.slice(1));
    }
    case 'load': {
      const p = ptrOf(L, ops[0]!);
      if (isVector(i.type)) return loadVector(L, p, i.type);
      return loadFrom(L, p, i.type);
    }
    case 'store': {
      const p = ptrOf(L, ops[1]!);
      if (isVector(ops[0]!.type)) storeVector(L, p, ops[0]!.type, L.lanes(ops[0]!));
      else storeTo(L, p, ops[0]!.type, L.num(ops[0]!));
      return undefined;
    }
    case 'atomicrmw': {
      const p = ptrOf(L, ops[0]!);
      const fn = RMW[i.sub];
      if (L.is64(i.type))
        return fn === undefined ? L.invalid(`atomicrmw operation ${i.sub}`) : atomicWords(L, p, fn, ops);
      if (!p.mem.atomic) return L.invalid('an atomic on memory the usage scan did not find atomic');
      if (fn === undefined || fn === 'nand') return L.refuse('instruction not handled', `atomicrmw operation ${i.sub}`);
      let value = L.u(ops[1]!);
      let op: 'exchange' | 'add' | 'and' | 'or' | 'xor' | 'max' | 'min' =
        fn === 'sub' ? 'add' : fn === 'umax' ? 'max' : fn === 'umin' ? 'min' : fn;
      if (fn === 'sub') value = L.e({ op: 'unary', fn: 'neg', arg: value });
      if (fn === 'max' || fn === 'min') {
        L.note('a signed atomic min/max on groupshared memory compares as Direct3D does only for values of one sign');
        op = fn;
      }
      const r = L.f.newLet('old');
      L.f.stmt({ op: 'atomic', pointer: wordPointer(L, p), fn: op, value, result: r });
      return L.e({ op: 'let', let: r });
    }
    case 'cmpxchg': {
      const p = ptrOf(L, ops[0]!);
      if (L.is64(ops[1]!.type)) return atomicWords(L, p, 'cmpxchg', ops);
      if (!p.mem.atomic) return L.invalid('an atomic on memory the usage scan did not find atomic');
      const compare = L.once(L.u(ops[1]!), 'compare');
      const value = L.u(ops[2]!);
      L.note("compare-exchange is WGSL's weak form (it may fail spuriously)");
      const r = L.f.newLet('old');
      L.f.stmt({ op: 'atomic', pointer: wordPointer(L, p), fn: 'compare_exchange', value, compare, result: r });
      const old = L.e({ op: 'let', let: r });
      return { kind: 'tuple', parts: [old, L.bin('eq', old, compare)] };
    }
    case 'fence':
      return undefined;
    case 'extractelement':
      return extractElement(L, i);
    case 'insertelement':
      return insertElement(L, i);
    case 'shufflevector':
      return shuffleVector(L, i);
    case 'insertvalue':
      return L.refuse('vector types', `${i.op}`);
    default:
      return L.refuse('instruction not handled', i.op);
  }
}

function binop(L: DxilLifter, i: Instruction): ExprId {
  const [x, y] = i.ops as [Value, Value];
  const t = i.type;
  const a = L.num(x);
  const b = L.num(y);
  if (L.is64(t)) return binop64(L, i.sub, t, a, b);
  if (t.kind === 'half' || t.kind === 'float') {
    const fn = (['add', 'sub', 'mul', 'div', 'div', 'rem', 'rem'] as const)[i.sub];
    if (fn === undefined || i.sub === 3 || i.sub === 5) return L.invalid(`float binop ${i.sub}`);
    return L.roundHalf(L.bin(fn, a, b), t);
  }
  if (t.kind !== 'int') return L.invalid(`a binop on a ${t.kind}`);
  if (t.width === 1) {
    if (i.sub === BIN.and) return L.bin('and', a, b);
    if (i.sub === BIN.or) return L.bin('or', a, b);
    if (i.sub === BIN.xor) return L.bin('ne', a, b);
    if (i.sub === BIN.add || i.sub === BIN.sub) return L.bin('ne', a, b);
    if (i.sub === BIN.mul) return L.bin('and', a, b);
    return L.refuse('instruction not handled', `binop ${i.sub} on i1`);
  }
  L.supported(t);
  const w = t.width;
  // a shift count past the width is poison in LLVM: counted modulo the width (DXIL's widths are powers
  // of two; the IR masks a 32-bit count itself)
  const count = (v: ExprId) => L.bin('and', v, L.u32(w - 1));
  switch (i.sub) {
    case BIN.add:
      return L.wrap(L.bin('add', a, b), t);
    case BIN.sub:
      return L.wrap(L.bin('sub', a, b), t);
    case BIN.mul:
      return L.wrap(L.bin('mul', a, b), t);
    case BIN.and:
      return L.bin('and', a, b);
    case BIN.or:
      return L.bin('or', a, b);
    case BIN.xor:
      return L.bin('xor', a, b);
    case BIN.shl:
      return L.wrap(L.bin('shl', a, w === 32 ? b : count(b)), t);
    case BIN.lshr:
      return L.bin('shr', a, w === 32 ? b : count(b));
    case BIN.ashr:
      return L.wrap(L.bitcast('u32', L.bin('shr', L.signed(a, t), w === 32 ? b : count(b))), t);
    case BIN.udiv:
    case BIN.urem: {
      const d = L.once(b, 'divisor');
      const zero = L.bin('eq', d, L.u32(0));
      const r = L.bin(i.sub === BIN.udiv ? 'div' : 'rem', a, L.sel(zero, L.u32(1), d));
      return L.sel(zero, L.u32(2 ** w - 1), r);
    }
    case BIN.sdiv:
    case BIN.srem: {
      const d = L.once(b, 'divisor');
      const zero = L.bin('eq', d, L.u32(0));
      const r = L.bin(i.sub === BIN.sdiv ? 'div' : 'rem', L.signed(a, t), L.sel(zero, L.i32(1), L.signed(d, t)));
      return L.sel(zero, L.u32(2 ** w - 1), L.wrap(L.bitcast('u32', r), t));
    }
    default:
      return L.invalid(`integer binop ${i.sub}`);
  }
}

/** An i64 or double binop through the helper functions (lift/f64.ts). */
function binop64(L: DxilLifter, sub: number, t: Type, a: ExprId, b: ExprId): ExprId {
  if (t.kind === 'double') {
    const op = (['f64_add', 'f64_sub', 'f64_mul', 'f64_div', 'f64_div'] as const)[sub];
    if (sub === 6) return L.refuse('double precision', 'frem of doubles (not in the soft-double library)');
    if (op === undefined || sub === 3) return L.invalid(`float binop ${sub}`);
    return L.soft(op, a, b);
  }
  const x = L.once(a, 'lhs');
  const y = L.once(b, 'rhs');
  const bitwise = (fn: 'and' | 'or' | 'xor') => L.bin(fn, x, y);
  switch (sub) {
    case BIN.add:
      return L.soft('i64_add', x, y);
    case BIN.sub:
      return L.soft('i64_sub', x, y);
    case BIN.mul:
      return L.soft('i64_mul', x, y);
    case BIN.udiv:
      return L.soft('i64_udiv', x, y);
    case BIN.sdiv:
      return L.soft('i64_sdiv', x, y);
    case BIN.urem:
      return L.soft('i64_urem', x, y);
    case BIN.srem:
      return L.soft('i64_srem', x, y);
    case BIN.shl:
      return L.soft('i64_shl', x, L.swz(y, [0]));
    case BIN.lshr:
      return L.soft('i64_lshr', x, L.swz(y, [0]));
    case BIN.ashr:
      return L.soft('i64_ashr', x, L.swz(y, [0]));
    case BIN.and:
      return bitwise('and');
    case BIN.or:
      return bitwise('or');
    case BIN.xor:
      return bitwise('xor');
    default:
      return L.invalid(`integer binop ${sub}`);
  }
}

/** Casts to, from and between 64-bit types; undefined when neither side is 64-bit. */
function cast64(L: DxilLifter, sub: number, src: Value, from: Type, to: Type): Val | undefined {
  if (!L.is64(from) && !L.is64(to)) return undefined;
  const x = L.num(src);
  const int = (t: Type, w: number) => t.kind === 'int' && t.width === w;
  switch (sub) {
    case CAST.trunc: {
      const lo = L.swz(x, [0]);
      if (int(to, 1)) return L.bin('ne', L.bin('and', lo, L.u32(1)), L.u32(0));
      return L.wrap(lo, to);
    }
    case CAST.zext:
      if (int(from, 1)) return L.words(L.sel(x, L.u32(1), L.u32(0)), L.u32(0));
      return L.words(x, L.u32(0));
    case CAST.sext: {
      if (int(from, 1)) {
        const m = L.once(L.sel(x, L.u32(0xffffffff), L.u32(0)), 'mask');
        return L.words(m, m);
      }
      const s = L.once(L.bitcast('u32', L.signed(x, from)), 'low');
      return L.words(s, L.bitcast('u32', L.bin('shr', L.bitcast('i32', s), L.u32(31))));
    }
    case CAST.fptoui:
    case CAST.fptosi: {
      const signed = sub === CAST.fptosi;
      const d = from.kind === 'double' ? x : L.soft('f64_from_f32', x);
      if (int(to, 64)) return L.soft(signed ? 'f64_to_i64' : 'f64_to_u64', d);
      if (int(to, 1)) return L.not(L.soft('f64_eq', d, L.words64(0n)));
      return L.wrap(L.soft(signed ? 'f64_to_i32' : 'f64_to_u32', d), to);
    }
    case CAST.uitofp:
    case CAST.sitofp: {
      const signed = sub === CAST.sitofp;
      if (to.kind !== 'double') {
        // i64 to float or half: rounded once (f32_from_*64), then to half as a 32-bit value is
        if (to.kind === 'half' && L.native16) return L.refuse('double precision', 'an i64 converted to a 16-bit half');
        return L.soft(signed ? 'f32_from_i64' : 'f32_from_u64', x);
      }
      if (int(from, 64)) return L.soft(signed ? 'f64_from_i64' : 'f64_from_u64', x);
      if (int(from, 1)) return L.sel(x, L.words64(signed ? 0xbff0000000000000n : 0x3ff0000000000000n), L.words64(0n));
      if (signed) return L.soft('f64_from_i32', L.bitcast('u32', L.signed(x, from)));
      return L.soft('f64_from_u32', x);
    }
    case CAST.fptrunc:
      if (to.kind === 'half' && L.native16)
        return L.refuse('double precision', 'a double rounded to a 16-bit half (two roundings)');
      return L.soft('f64_to_f32', x);
    case CAST.fpext:
      return L.soft('f64_from_f32', x);
    case CAST.bitcast:
      if (L.is64(from) && L.is64(to)) return x;
      return L.refuse('vector types', 'a bit cast between a 64-bit scalar and another type');
    default:
      return L.refuse('instruction not handled', `cast ${sub} of a 64-bit value`);
  }
}

function cast(L: DxilLifter, i: Instruction): Val {
  const src = i.ops[0]!;
  const from = src.type;
  const to = i.type;
  if (i.sub !== CAST.bitcast || (from.kind !== 'ptr' && to.kind !== 'ptr')) {
    const v = cast64(L, i.sub, src, from, to);
    if (v !== undefined) return v;
  }
  switch (i.sub) {
    case CAST.trunc: {
      const x = L.num(src);
      if (to.kind === 'int' && to.width === 1) return L.bin('ne', L.bin('and', x, L.u32(1)), L.u32(0));
      return L.wrap(x, to);
    }
    case CAST.zext: {
      const x = L.num(src);
      if (from.kind === 'int' && from.width === 1) return L.sel(x, L.u32(1), L.u32(0));
      L.supported(to);
      return x;
    }
    case CAST.sext: {
      const x = L.num(src);
      if (from.kind === 'int' && from.width === 1) return L.sel(x, L.u32(2 ** to.width - 1), L.u32(0));
      L.supported(to);
      return L.wrap(L.bitcast('u32', L.signed(x, from)), to);
    }
    case CAST.fptoui:
    case CAST.fptosi: {
      const x = L.num(src);
      if (to.kind === 'int' && to.width === 1) return L.bin('ne', x, L.f32bits(0));
      L.supported(to);
      const v = i.sub === CAST.fptoui ? ftou(L, x, 1) : L.bitcast('u32', ftoi(L, x, 1));
      return L.wrap(v, to);
    }
    case CAST.uitofp: {
      const x = L.u(src);
      const narrow = from.kind === 'int' && from.width < 24;
      return L.roundHalf(narrow ? L.convert('f32', x) : utof(L, [x], 1), to);
    }
    case CAST.sitofp: {
      const x = L.num(src);
      const s = from.kind === 'int' && from.width === 1 ? L.sel(x, L.i32(-1), L.i32(0)) : L.signed(x, from);
      return L.roundHalf(L.convert('f32', s), to);
    }
    case CAST.fptrunc:
      return L.roundHalf(L.num(src), to);
    case CAST.fpext:
      return L.num(src);
    case CAST.bitcast: {
      const v = L.val(src);
      if (!isExpr(v)) {
        // pointer casts keep the address and change the type pointed to
        if (v.kind === 'ptr' && to.kind === 'ptr') return { ...v, type: to.elt! };
        return L.refuse('handle not resolvable', `a bitcast of a ${v.kind}`);
      }
      const fs = L.scalarOf(from);
      const ts = L.scalarOf(to);
      if (from.kind === 'half' || to.kind === 'half') return halfBitcast(L, v, from, to);
      if (fs === ts) return v;
      return L.bitcast(ts, v);
    }
    case CAST.addrspacecast: {
      const v = L.val(src);
      return v;
    }
    default:
      return L.refuse('instruction not handled', `cast ${i.sub}`);
  }
}

/** i16 <-> half bit casts: a half is held as the f32 of its value. */
function halfBitcast(L: DxilLifter, v: ExprId, from: Type, to: Type): ExprId {
  if (from.kind === 'half' && to.kind === 'int') {
    const packed = L.math('pack2x16float', L.e({ op: 'compose', type: L.m.vec('f32', 2), parts: [v, L.f32bits(0)] }));
    return L.bin('and', packed, L.u32(0xffff));
  }
  if (from.kind === 'int' && to.kind === 'half')
    return L.swz(L.math('unpack2x16float', L.bin('and', v, L.u32(0xffff))), [0]);
  return v;
}

/** A comparison of i64 or double operands (FCmpInst and ICmpInst predicates). */
function cmp64(L: DxilLifter, p: number, t: Type, x: ExprId, y: ExprId): ExprId {
  const a = L.once(x, 'lhs');
  const b = L.once(y, 'rhs');
  const not = (v: ExprId) => L.not(v);
  if (t.kind === 'double') {
    const lt = (u: ExprId, v: ExprId) => L.soft('f64_lt', u, v);
    const le = (u: ExprId, v: ExprId) => L.soft('f64_le', u, v);
    const nan = () => L.bin('or', L.soft('f64_isnan', a), L.soft('f64_isnan', b));
    // false oeq ogt oge olt ole one ord uno ueq ugt uge ult ule une true
    switch (p) {
      case 0:
        return L.bool(false);
      case 1:
        return L.soft('f64_eq', a, b);
      case 2:
        return lt(b, a);
      case 3:
        return le(b, a);
      case 4:
        return lt(a, b);
      case 5:
        return le(a, b);
      case 6:
        return L.bin('or', lt(a, b), lt(b, a));
      case 7:
        return not(nan());
      case 8:
        return nan();
      case 9:
        return not(L.bin('or', lt(a, b), lt(b, a)));
      case 10:
        return not(le(a, b));
      case 11:
        return not(lt(a, b));
      case 12:
        return not(le(b, a));
      case 13:
        return not(lt(b, a));
      case 14:
        return not(L.soft('f64_eq', a, b));
      case 15:
        return L.bool(true);
      default:
        return L.invalid(`float predicate ${p}`);
    }
  }
  const eq = () => L.bin('and', L.bin('eq', L.swz(a, [0]), L.swz(b, [0])), L.bin('eq', L.swz(a, [1]), L.swz(b, [1])));
  const less = (signed: boolean, u: ExprId, v: ExprId) => L.soft(signed ? 'i64_slt' : 'i64_ult', u, v);
  // eq ne ugt uge ult ule sgt sge slt sle
  switch (p) {
    case 32:
      return eq();
    case 33:
      return not(eq());
    case 34:
    case 38:
      return less(p === 38, b, a);
    case 35:
    case 39:
      return not(less(p === 39, a, b));
    case 36:
    case 40:
      return less(p === 40, a, b);
    case 37:
    case 41:
      return not(less(p === 41, b, a));
    default:
      return L.invalid(`integer predicate ${p}`);
  }
}

function cmp(L: DxilLifter, i: Instruction): ExprId {
  const [x, y] = i.ops as [Value, Value];
  const t = x.type;
  const p = i.sub;
  if (L.is64(t)) return cmp64(L, p, t, L.num(x), L.num(y));
  if (t.kind === 'half' || t.kind === 'float') {
    const a = L.once(L.num(x), 'lhs');
    const b = L.once(L.num(y), 'rhs');
    const nan = () => L.bin('or', L.isNaN(a), L.isNaN(b));
    const ordered = (fn: 'eq' | 'lt' | 'le' | 'gt' | 'ge') => L.bin('and', L.not(nan()), L.bin(fn, a, b));
    const unordered = (fn: 'eq' | 'lt' | 'le' | 'gt' | 'ge') => L.bin('or', nan(), L.bin(fn, a, b));
    // FCmpInst predicates 0..15: false oeq ogt oge olt ole one ord uno ueq ugt uge ult ule une true
    switch (p) {
      case 0:
        return L.bool(false);
      case 1:
        return ordered('eq');
      case 2:
        return ordered('gt');
      case 3:
        return ordered('ge');
      case 4:
        return ordered('lt');
      case 5:
        return ordered('le');
      case 6:
        return L.bin('and', L.not(nan()), L.bin('ne', a, b));
      case 7:
        return L.not(nan());
      case 8:
        return nan();
      case 9:
        return unordered('eq');
      case 10:
        return unordered('gt');
      case 11:
        return unordered('ge');
      case 12:
        return unordered('lt');
      case 13:
        return unordered('le');
      case 14:
        return L.bin('or', nan(), L.bin('ne', a, b));
      case 15:
        return L.bool(true);
      default:
        return L.invalid(`float predicate ${p}`);
    }
  }
  const a = L.num(x);
  const b = L.num(y);
  if (t.kind === 'int' && t.width === 1) {
    if (p === 32) return L.bin('eq', a, b);
    if (p === 33) return L.bin('ne', a, b);
    const au = L.sel(a, L.u32(1), L.u32(0));
    const bu = L.sel(b, L.u32(1), L.u32(0));
    return intCmp(L, p, au, bu, au, bu);
  }
  L.supported(t);
  return intCmp(L, p, a, b, L.signed(a, t), L.signed(b, t));
}

function intCmp(L: DxilLifter, p: number, a: ExprId, b: ExprId, sa: ExprId, sb: ExprId): ExprId {
  // ICmpInst predicates 32..41: eq ne ugt uge ult ule sgt sge slt sle
  const fns = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'gt', 'ge', 'lt', 'le'] as const;
  const fn = fns[p - 32];
  if (fn === undefined) return L.invalid(`integer predicate ${p}`);
  return p >= 38 ? L.bin(fn, sa, sb) : L.bin(fn, a, b);
}

export { GlobalVar, Instruction };
