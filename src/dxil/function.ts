// Reads one FUNCTION_BLOCK (LLVM 3.7's parseFunctionBody): DECLAREBLOCKS, the instruction records
// with relative value ids (an operand is InstNum - field, unsigned 32-bit; a forward reference
// carries its type), the function's constants, metadata, attachments and value symbol table, and
// debug locations. Operands are resolved once the block is read; one that never resolves is E405.

import { type BitBlock, isBlock } from './bitstream.js';
import { Argument, Block, Constant, type Func, Instruction, type InstOp, Type, type Value } from './ir.js';
import { objectList, objects1, objects2, objects3 } from '../binary/lists.js';
import { readMetadataBlock } from './metadata.js';
import { alignOf, type ModuleReader } from './module.js';

const FN = {
  DECLAREBLOCKS: 1,
  BINOP: 2,
  CAST: 3,
  GEP_OLD: 4,
  SELECT: 5,
  EXTRACTELT: 6,
  INSERTELT: 7,
  SHUFFLEVEC: 8,
  CMP: 9,
  RET: 10,
  BR: 11,
  SWITCH: 12,
  UNREACHABLE: 15,
  PHI: 16,
  ALLOCA: 19,
  LOAD: 20,
  VAARG: 23,
  EXTRACTVAL: 26,
  INSERTVAL: 27,
  CMP2: 28,
  VSELECT: 29,
  INBOUNDS_GEP_OLD: 30,
  DEBUG_LOC_AGAIN: 33,
  CALL: 34,
  DEBUG_LOC: 35,
  FENCE: 36,
  ATOMICRMW: 38,
  LOADATOMIC: 41,
  GEP: 43,
  STORE: 44,
  STOREATOMIC: 45,
  CMPXCHG: 46,
} as const;

/** Binop opcodes with a floating-point form (add, sub, mul, sdiv, srem: 0, 1, 2, 4, 6) as bits. */
const FP_BINOPS = 0b1010111;

/**
 * An operand whose value is not defined yet when its instruction is read (a forward reference, or
 * metadata not read yet): resolved once the whole body is read. Every other operand is resolved
 * as it is read, since the value table only grows.
 */
class Forward {
  readonly id: number;
  readonly type: Type | undefined;
  readonly metadata: boolean;
  constructor(id: number, type: Type | undefined, metadata: boolean) {
    this.id = id;
    this.type = type;
    this.metadata = metadata;
  }
}
type Operand = Value | Forward;

export function readFunctionBody(mr: ModuleReader, f: Func, b: BitBlock): void {
  const m = mr.m;
  const values = m.values;
  const base = values.length;
  const mdBase = m.metadata.length;
  for (const a of f.args) values.push(a);
  const consts: Constant[] = objectList();
  const insts: Instruction[] = objectList(); // every instruction, for attachments
  /** Instructions with a Forward operand, callee or case value, in reading order. */
  const unresolved: Instruction[] = objectList();
  let forwards = 0;
  const useLists: BitBlock[] = [];
  let blocks: Block[] = objectList();
  let cur = 0;
  let last: Instruction | undefined;
  let lastLoc: Instruction['dbg'];
  const fail = mr.fail.bind(mr);

  // The record being read: its code, operands and the index of the next operand.
  let code = 0;
  let o: readonly number[] = [];
  let ai = 0;

  /** A relative operand with its type (getValueTypePair). */
  const valueTypePair = (): Operand => {
    if (ai >= o.length) throw fail('E404_BITCODE_RECORD', `instruction record ${code} is missing an operand`);
    const id = (values.length - o[ai++]!) >>> 0;
    if (id < values.length) return values[id]!;
    if (ai >= o.length)
      throw fail('E404_BITCODE_RECORD', `instruction record ${code} is missing a forward operand's type`);
    forwards++;
    return new Forward(id, mr.type(o[ai++]!), false);
  };
  /** A relative operand of a known type (getValue / popValue); metadata for a metadata type. */
  const value = (type: Type | undefined): Operand => {
    if (ai >= o.length) throw fail('E404_BITCODE_RECORD', `instruction record ${code} is missing an operand`);
    const id = (values.length - o[ai++]!) >>> 0;
    if (type !== undefined && type.kind === 'metadata') {
      if (m.metadata[id] !== undefined) return new MetadataValue(type, id);
      forwards++;
      return new Forward(id, type, true);
    }
    if (id < values.length) return typed(values[id]!, type);
    forwards++;
    return new Forward(id, type, false);
  };
  /** LLVM's getValueFwdRef: a value read with a known type must have that type ("Invalid record"). */
  const typed = (v: Value, type: Type | undefined): Value => {
    if (type !== undefined && v.type !== type)
      throw fail(
        'E404_BITCODE_RECORD',
        `instruction record ${code} reads a ${typeWords(v.type)} value where its type says ${typeWords(type)}`,
      );
    return v;
  };
  /** An absolute value id (phi incoming values, alloca sizes, switch cases). */
  const absolute = (id: number, type: Type | undefined): Operand => {
    if (id < values.length) return typed(values[id]!, type);
    forwards++;
    return new Forward(id, type, false);
  };
  const signedValue = (raw: number): number => {
    // PHI operands are signed VBR: decode, then relative.
    const d = raw & 1 ? -Math.floor(raw / 2) : Math.floor(raw / 2);
    return values.length - d;
  };
  const block = (id: number): number => {
    if (id >= blocks.length) throw fail('E405_BITCODE_FORWARD_REF', `block ${id} of ${blocks.length} is not declared`);
    return id;
  };
  const findType = (pred: (t: Type) => boolean, make: () => Type): Type => {
    for (const t of m.types) if (pred(t)) return t;
    const t = make();
    m.types.push(t);
    return t;
  };
  const ptrs = new Map<Type, Type>();
  const ptrTo = (t: Type, as = 0): Type => {
    const hit = as === 0 ? ptrs.get(t) : undefined;
    if (hit) return hit;
    const p = findType(
      (x) => x.kind === 'ptr' && x.elt === t && x.addrSpace === as,
      () => {
        const p = new Type('ptr');
        p.elt = t;
        p.addrSpace = as;
        return p;
      },
    );
    if (as === 0) ptrs.set(t, p);
    return p;
  };
  let i1T: Type | undefined;
  const i1Like = (t: Type | undefined): Type => {
    const i1 = (i1T ??= findType(
      (x) => x.kind === 'int' && x.width === 1,
      () => {
        const x = new Type('int');
        x.width = 1;
        return x;
      },
    ));
    if (t && t.kind === 'vector')
      return findType(
        (x) => x.kind === 'vector' && x.count === t.count && x.elt === i1,
        () => {
          const x = new Type('vector');
          x.count = t.count;
          x.elt = i1;
          return x;
        },
      );
    return i1;
  };
  // The first void type of the table (types are only appended, so the first stays the first).
  let voidT: Type | undefined;
  const voidType = (): Type =>
    (voidT ??= findType(
      (x) => x.kind === 'void',
      () => new Type('void'),
    ));
  const member = (t: Type, idx: number): Type => {
    if (t.kind === 'struct') {
      const e = t.elts[idx];
      if (!e) throw fail('E404_BITCODE_RECORD', `struct index ${idx} is out of range`);
      return e;
    }
    if (t.kind === 'array' || t.kind === 'vector') return t.elt!;
    throw fail('E404_BITCODE_RECORD', `cannot index into a ${t.kind}`);
  };

  const expect = (ok: boolean, what: string): void => {
    if (!ok) throw fail('E404_BITCODE_RECORD', what);
  };
  const isVector = (t: Type | undefined): t is Type => t !== undefined && t.kind === 'vector';
  const isPtr = (t: Type | undefined): t is Type => t !== undefined && t.kind === 'ptr';
  const add = (inst: Instruction): void => {
    const bb = blocks[cur];
    if (!bb) throw fail('E404_BITCODE_RECORD', 'an instruction outside any declared block');
    bb.insts.push(inst);
    insts.push(inst);
    if (inst.type.kind !== 'void') values.push(inst);
    last = inst;
    if (isTerminator(inst.op)) cur++;
  };
  /** Operands as read: resolved now or, when some are forward, once the body is read. */
  const operands = (list: Operand[]): Value[] => list as Value[];

  const items = b.items;
  for (let n = 0; n < items.length; n++) {
    const it = items[n]!;
    if (isBlock(it)) {
      if (it.id === 11) mr.readConstants(it, values, consts);
      else if (it.id === 15) readMetadataBlock(mr, it, m.metadata, values);
      else if (it.id === 16) {
        for (const a of it.items) {
          if (isBlock(a) || a.code !== 11) continue;
          const o = a.ops;
          if (o.length & 1) {
            const inst = insts[o[0]!];
            if (!inst)
              throw fail('E405_BITCODE_FORWARD_REF', `a metadata attachment names instruction ${o[0]}, not read`);
            const list: [number, number][] = [...inst.attachments];
            for (let i = 1; i + 1 < o.length; i += 2) list.push([o[i]!, o[i + 1]!]);
            inst.attachments = list;
          } else for (let i = 0; i + 1 < o.length; i += 2) f.attachments.push([o[i]!, o[i + 1]!]);
        }
      } else if (it.id === 14) mr.readSymtab(it, values, blocks);
      else if (it.id === 18) useLists.push(it);
      continue;
    }
    code = it.code;
    o = it.ops;
    ai = 0;
    const forwards0 = forwards;
    let inst: Instruction;
    switch (code) {
      case FN.DECLAREBLOCKS: {
        const n = o[0] ?? 0;
        if (n === 0 || n > items.length) throw fail('E404_BITCODE_RECORD', `a function declares ${n} blocks`);
        const label = mr.label();
        blocks = objectList();
        for (let i = 0; i < n; i++) blocks.push(new Block(label, i));
        f.blocks = blocks;
        continue;
      }
      case FN.DEBUG_LOC: {
        if (!last || o.length < 4) throw fail('E404_BITCODE_RECORD', 'a debug location without an instruction');
        lastLoc = { line: o[0]!, col: o[1]!, scope: o[2]!, inlinedAt: o[3]! };
        last.dbg = lastLoc;
        continue;
      }
      case FN.DEBUG_LOC_AGAIN:
        if (!last) throw fail('E404_BITCODE_RECORD', 'a debug location without an instruction');
        last.dbg = lastLoc;
        continue;
      case FN.BINOP: {
        const lhs = valueTypePair();
        const rhs = value(lhs.type);
        if (ai >= o.length) throw fail('E404_BITCODE_RECORD', 'a binop without its opcode');
        const lt = lhs.type!;
        expect(
          lt.kind === 'int' || lt.isFP() || (isVector(lt) && (lt.elt!.kind === 'int' || lt.elt!.isFP())),
          'a binop on a non-arithmetic type',
        );
        // LLVM's getDecodedBinaryOpcode: udiv, urem, the shifts and the bitwise operations have no
        // floating-point form, and no opcode follows xor (12).
        const sub = o[ai]!;
        if (sub > 12 || (lt.isFPOrFPVector() && ((FP_BINOPS >>> sub) & 1) === 0))
          throw fail('E404_BITCODE_RECORD', `binop opcode ${sub} does not apply to a ${typeWords(lt)}`);
        inst = new Instruction('binop', lt);
        inst.sub = o[ai++]!;
        inst.flags = o[ai] ?? 0;
        inst.ops = operands(objects2(lhs, rhs));
        break;
      }
      case FN.CAST: {
        const v = valueTypePair();
        if (ai + 2 > o.length) throw fail('E404_BITCODE_RECORD', 'a cast without its type and opcode');
        const to = mr.type(o[ai]!);
        if (!castIsValid(o[ai + 1]!, v.type!, to))
          throw fail('E404_BITCODE_RECORD', `cast opcode ${o[ai + 1]} from ${typeWords(v.type!)} to ${typeWords(to)}`);
        inst = new Instruction('cast', to);
        inst.sub = o[ai + 1]!;
        inst.ops = operands(objects1(v));
        break;
      }
      case FN.GEP:
      case FN.GEP_OLD:
      case FN.INBOUNDS_GEP_OLD: {
        let src: Type | undefined;
        let inb = code === FN.INBOUNDS_GEP_OLD;
        if (code === FN.GEP) {
          if (o.length < 2) throw fail('E404_BITCODE_RECORD', 'a getelementptr without its operands');
          inb = o[0] !== 0;
          src = mr.type(o[1]!);
          ai = 2;
        }
        const ops: Operand[] = objectList();
        while (ai < o.length) ops.push(valueTypePair());
        if (!ops.length) throw fail('E404_BITCODE_RECORD', 'a getelementptr without a pointer');
        const baseT = ops[0]!.type!;
        expect(isPtr(baseT), 'a getelementptr on a non-pointer');
        src ??= baseT.elt;
        if (!src) throw fail('E404_BITCODE_RECORD', 'a getelementptr on a non-pointer');
        // LLVM's verifier: "GEP indexes must be integers" (the 3.7 reader takes any type there)
        for (let k = 1; k < ops.length; k++)
          expect(ops[k]!.type?.kind === 'int', 'a getelementptr index that is not an integer');
        let t = src;
        for (let k = 2; k < ops.length; k++) {
          const cv = ops[k]!;
          const n = cv instanceof Constant && cv.ck === 'int' ? Number(cv.bits) : 0;
          t = member(t, n);
        }
        inst = new Instruction('gep', ptrTo(t, baseT.kind === 'ptr' ? baseT.addrSpace : 0));
        inst.explicitType = src;
        inst.inbounds = inb;
        inst.ops = operands(ops);
        break;
      }
      case FN.EXTRACTVAL: {
        const v = valueTypePair();
        let t = v.type!;
        const idx = o.slice(ai);
        if (!idx.length) throw fail('E404_BITCODE_RECORD', 'an extractvalue without indices');
        for (const k of idx) t = member(t, k);
        inst = new Instruction('extractvalue', t);
        inst.indices = idx;
        inst.ops = operands(objects1(v));
        break;
      }
      case FN.INSERTVAL: {
        const agg = valueTypePair();
        const v = valueTypePair();
        inst = new Instruction('insertvalue', agg.type!);
        inst.indices = o.slice(ai);
        inst.ops = operands(objects2(agg, v));
        break;
      }
      case FN.SELECT:
      case FN.VSELECT: {
        const t = valueTypePair();
        const fv = value(t.type);
        const c = code === FN.VSELECT ? valueTypePair() : value(i1Like(undefined));
        // SelectInst::areInvalidOperands: an i1 condition, or a vector of i1 as long as the values
        const ct = c.type;
        const condOk =
          ct?.kind === 'vector'
            ? ct.elt?.kind === 'int' && ct.elt.width === 1 && t.type?.kind === 'vector' && t.type.count === ct.count
            : ct === undefined || (ct.kind === 'int' && ct.width === 1);
        expect(condOk, `a select whose condition is a ${ct ? typeWords(ct) : 'value of no type'}`);
        inst = new Instruction('select', t.type!);
        inst.ops = operands(objects3(c, t, fv));
        break;
      }
      case FN.EXTRACTELT: {
        const v = valueTypePair();
        const i = valueTypePair();
        expect(isVector(v.type), 'an extractelement on a non-vector');
        inst = new Instruction('extractelement', v.type!.elt!);
        inst.ops = operands(objects2(v, i));
        break;
      }
      case FN.INSERTELT: {
        const v = valueTypePair();
        expect(isVector(v.type), 'an insertelement on a non-vector');
        const e = value(v.type!.elt);
        const i = valueTypePair();
        inst = new Instruction('insertelement', v.type!);
        inst.ops = operands(objects3(v, e, i));
        break;
      }
      case FN.SHUFFLEVEC: {
        const v1 = valueTypePair();
        const v2 = value(v1.type);
        const mask = valueTypePair();
        expect(isVector(v1.type) && isVector(mask.type), 'a shufflevector on non-vectors');
        const rt = findType(
          (x) => x.kind === 'vector' && x.elt === v1.type!.elt && x.count === mask.type!.count,
          () => {
            const x = new Type('vector');
            x.elt = v1.type!.elt;
            x.count = mask.type!.count;
            return x;
          },
        );
        inst = new Instruction('shufflevector', rt);
        inst.ops = operands(objects3(v1, v2, mask));
        break;
      }
      case FN.CMP:
      case FN.CMP2: {
        const l = valueTypePair();
        const rr = value(l.type);
        if (ai >= o.length) throw fail('E404_BITCODE_RECORD', 'a compare without its predicate');
        inst = new Instruction('cmp', i1Like(l.type));
        inst.sub = o[ai++]!;
        inst.flags = o[ai] ?? 0;
        inst.ops = operands(objects2(l, rr));
        break;
      }
      case FN.RET:
        inst = new Instruction('ret', voidType());
        if (ai < o.length) {
          const ops: Operand[] = objectList();
          while (ai < o.length) ops.push(valueTypePair());
          inst.ops = operands(ops);
        }
        break;
      case FN.BR:
        inst = new Instruction('br', voidType());
        if (o.length === 1) inst.blocks = [block(o[0]!)];
        else if (o.length === 3) {
          inst.blocks = [block(o[0]!), block(o[1]!)];
          ai = 2;
          inst.ops = operands(objects1(value(i1Like(undefined))));
        } else throw fail('E404_BITCODE_RECORD', `a br record has ${o.length} operands`);
        break;
      case FN.SWITCH: {
        if (o.length < 3 || (o.length & 1) === 0)
          throw fail('E404_BITCODE_RECORD', `a switch record has ${o.length} operands`);
        const t = mr.type(o[0]!);
        ai = 1;
        inst = new Instruction('switch', voidType());
        inst.ops = operands(objects1(value(t)));
        const targets = [block(o[2]!)];
        const caseIds: number[] = [];
        for (let k = 3; k + 1 < o.length; k += 2) {
          caseIds.push(o[k]!);
          targets.push(block(o[k + 1]!));
        }
        inst.blocks = targets;
        inst.caseIds = caseIds;
        if (caseIds.length) inst.cases = operands(caseIds.map((id) => absolute(id, undefined)));
        break;
      }
      case FN.UNREACHABLE:
        inst = new Instruction('unreachable', voidType());
        break;
      case FN.PHI: {
        if (o.length < 1 || (o.length - 1) % 2)
          throw fail('E404_BITCODE_RECORD', `a phi record has ${o.length} operands`);
        const t = mr.type(o[0]!);
        inst = new Instruction('phi', t);
        const incoming: Operand[] = objectList();
        const from: number[] = [];
        for (let k = 1; k + 1 < o.length; k += 2) {
          incoming.push(absolute(signedValue(o[k]!) >>> 0, t));
          from.push(block(o[k + 1]!));
        }
        inst.ops = operands(incoming);
        inst.blocks = from;
        break;
      }
      case FN.ALLOCA: {
        if (o.length !== 4) throw fail('E404_BITCODE_RECORD', `an alloca record has ${o.length} operands`);
        const a = o[3]!;
        let t = mr.type(o[0]!);
        if ((a & 64) === 0) {
          expect(isPtr(t), 'an old-style alloca without a pointer type');
          t = t.elt!;
        }
        inst = new Instruction('alloca', ptrTo(t));
        inst.explicitType = t;
        inst.ops = operands(objects1(absolute(o[2]!, mr.type(o[1]!))));
        inst.align = alignOf(a & 31);
        break;
      }
      case FN.LOAD:
      case FN.LOADATOMIC: {
        const p = valueTypePair();
        const extra = code === FN.LOAD ? 2 : 4;
        let t: Type | undefined;
        if (ai + extra + 1 === o.length) t = mr.type(o[ai++]!);
        else if (ai + extra !== o.length) throw fail('E404_BITCODE_RECORD', `a load record has ${o.length} operands`);
        expect(isPtr(p.type), 'a load from a non-pointer');
        t ??= p.type!.elt;
        inst = new Instruction('load', t!);
        inst.explicitType = t;
        inst.align = alignOf(o[ai]!);
        inst.volatile = o[ai + 1] !== 0;
        if (code === FN.LOADATOMIC) {
          inst.ordering = o[ai + 2]!;
          inst.scope = o[ai + 3]!;
        }
        inst.ops = operands(objects1(p));
        break;
      }
      case FN.STORE:
      case FN.STOREATOMIC: {
        const p = valueTypePair();
        const v = valueTypePair();
        expect(isPtr(p.type), 'a store to a non-pointer');
        if (ai + (code === FN.STORE ? 2 : 4) !== o.length)
          throw fail('E404_BITCODE_RECORD', `a store record has ${o.length} operands`);
        inst = new Instruction('store', voidType());
        inst.align = alignOf(o[ai]!);
        inst.volatile = o[ai + 1] !== 0;
        if (code === FN.STOREATOMIC) {
          inst.ordering = o[ai + 2]!;
          inst.scope = o[ai + 3]!;
        }
        inst.ops = operands(objects2(v, p));
        break;
      }
      case FN.CALL: {
        if (o.length < 3) throw fail('E404_BITCODE_RECORD', `a call record has ${o.length} operands`);
        const attrs = mr.attributes(o[0]!);
        const cc = o[1]!;
        ai = 2;
        let fty: Type | undefined;
        if ((cc >>> 15) & 1) fty = mr.type(o[ai++]!);
        const callee = valueTypePair();
        fty ??= callee.type?.elt;
        if (!fty || fty.kind !== 'fn') throw fail('E404_BITCODE_RECORD', 'a call whose callee is not a function');
        const params = fty.elts;
        if (o.length - ai < params.length)
          throw fail('E404_BITCODE_RECORD', `a call passes ${o.length - ai} of ${params.length} arguments`);
        inst = new Instruction('call', fty.elt!);
        const args: Operand[] = objectList();
        for (let k = 0; k < params.length; k++) args.push(value(params[k]));
        if (fty.vararg) while (ai < o.length) args.push(valueTypePair());
        else if (ai !== o.length)
          throw fail('E404_BITCODE_RECORD', `a call passes ${o.length - 3} operands for ${params.length} parameters`);
        inst.ops = operands(args);
        inst.callee = callee as Value;
        inst.explicitType = fty;
        inst.flags = cc;
        inst.attrs = attrs;
        break;
      }
      case FN.FENCE:
        inst = new Instruction('fence', voidType());
        inst.ordering = o[0] ?? 0;
        inst.scope = o[1] ?? 1;
        break;
      case FN.ATOMICRMW: {
        const p = valueTypePair();
        expect(isPtr(p.type), 'an atomicrmw on a non-pointer');
        const v = value(p.type!.elt);
        if (ai + 4 !== o.length) throw fail('E404_BITCODE_RECORD', `an atomicrmw record has ${o.length} operands`);
        inst = new Instruction('atomicrmw', p.type!.elt!);
        inst.sub = o[ai]!;
        inst.volatile = o[ai + 1] !== 0;
        inst.ordering = o[ai + 2]!;
        inst.scope = o[ai + 3]!;
        inst.ops = operands(objects2(p, v));
        break;
      }
      case FN.CMPXCHG: {
        const p = valueTypePair();
        expect(isPtr(p.type), 'a cmpxchg on a non-pointer');
        const c = valueTypePair();
        const n = value(c.type);
        if (o.length < ai + 3) throw fail('E404_BITCODE_RECORD', `a cmpxchg record has ${o.length} operands`);
        const st = findType(
          (x) =>
            x.kind === 'struct' &&
            x.literal &&
            !x.packed &&
            x.elts.length === 2 &&
            x.elts[0] === c.type &&
            x.elts[1]!.kind === 'int' &&
            x.elts[1]!.width === 1,
          () => {
            const x = new Type('struct');
            x.literal = true;
            x.elts = [c.type!, i1Like(undefined)];
            return x;
          },
        );
        inst = new Instruction('cmpxchg', st);
        inst.volatile = o[ai] !== 0;
        inst.ordering = o[ai + 1]!;
        inst.scope = o[ai + 2]!;
        inst.failOrdering = o[ai + 3] ?? inst.ordering;
        inst.weak = (o[ai + 4] ?? 0) !== 0;
        inst.ops = operands(objects3(p, c, n));
        break;
      }
      default:
        throw fail('E408_BITCODE_UNSUPPORTED', `instruction record code ${code} is not supported`);
    }
    add(inst);
    if (forwards !== forwards0) unresolved.push(inst);
  }
  if (blocks.length === 0) throw fail('E404_BITCODE_RECORD', 'a function body without DECLAREBLOCKS');
  if (cur !== blocks.length)
    throw fail('E404_BITCODE_RECORD', `a function body ends inside block ${cur} of ${blocks.length}`);

  // Resolve the forward operands now that the whole body is read.
  const resolve = (p: Operand): Value => {
    if (!(p instanceof Forward)) return p;
    if (p.metadata) {
      const md = m.metadata[p.id];
      if (!md) throw fail('E405_BITCODE_FORWARD_REF', `a metadata operand ${p.id} never resolves`);
      return mdValue(mr, p.id, p.type!);
    }
    const v = values[p.id];
    if (!v)
      throw fail('E405_BITCODE_FORWARD_REF', `value ${p.id} is referenced but never defined (${values.length} values)`);
    if (p.type !== undefined && v.type !== p.type)
      throw fail(
        'E404_BITCODE_RECORD',
        `a forward reference to value ${p.id} expects a ${typeWords(p.type)}, the value is a ${typeWords(v.type)}`,
      );
    return v;
  };
  for (const c of consts) mr.resolveConstant(c, values);
  mr.checkAcyclic(consts);
  for (let k = mdBase; k < m.metadata.length; k++) mr.resolveMetadataValue(m.metadata[k]!, values);
  for (const inst of unresolved) {
    inst.ops = inst.ops.map(resolve);
    if (inst.callee) inst.callee = resolve(inst.callee);
    if (inst.cases.length) inst.cases = inst.cases.map(resolve);
  }
  for (const bb of blocks)
    for (const inst of bb.insts)
      if (inst.op === 'br' || inst.op === 'switch') for (const t of inst.blocks) blocks[t]!.preds.unshift(bb);
  // USELIST_BLOCK: a block's use-list order (USELIST_CODE_BB: a permutation, then the block index)
  // decides the order its predecessors print in. Value use lists change nothing printed.
  for (const ul of useLists)
    for (const r of ul.items) {
      if (isBlock(r) || r.code !== 2 || r.ops.length < 3) continue;
      const bb = blocks[r.ops[r.ops.length - 1]!];
      if (!bb)
        throw fail('E405_BITCODE_FORWARD_REF', `a use-list order names block ${r.ops[r.ops.length - 1]}, not declared`);
      const keys = r.ops.slice(0, -1);
      // LLVM gives up on a list whose length differs (lazy materialisation, upgraded values).
      if (keys.length !== bb.preds.length) continue;
      const order = bb.preds.map((p, i) => [keys[i]!, i, p] as const);
      order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      bb.preds = order.map((x) => x[2]);
    }
  f.localMetadata = m.metadata.slice(mdBase);
  m.metadata.length = mdBase;
  values.length = base;
}

/** Bits of a first-class non-aggregate type (0 for what has no size: pointers, aggregates). */
function primitiveBits(t: Type): number {
  if (t.kind === 'int') return t.width;
  if (t.kind === 'half') return 16;
  if (t.kind === 'float') return 32;
  if (t.kind === 'double') return 64;
  if (t.kind === 'vector' && t.elt) return t.count * primitiveBits(t.elt);
  return 0;
}

/** LLVM 3.7's CastInst::castIsValid (the bitcode reader's "Invalid cast"): the cast opcode (trunc 0,
 * zext, sext, fptoui, fptosi, uitofp, sitofp, fptrunc, fpext, ptrtoint, inttoptr, bitcast,
 * addrspacecast 12) applies to its source and destination types, lane for lane. */
function castIsValid(op: number, from: Type, to: Type): boolean {
  const lanes = (t: Type): number => (t.kind === 'vector' ? t.count : 1);
  const scalar = (t: Type): Type => (t.kind === 'vector' && t.elt ? t.elt : t);
  const s = scalar(from);
  const d = scalar(to);
  if (lanes(from) !== lanes(to) && op !== 11) return false;
  const bits = (t: Type): number => primitiveBits(t);
  switch (op) {
    case 0:
      return s.kind === 'int' && d.kind === 'int' && s.width > d.width;
    case 1:
    case 2:
      return s.kind === 'int' && d.kind === 'int' && s.width < d.width;
    case 3:
    case 4:
      return s.isFP() && d.kind === 'int';
    case 5:
    case 6:
      return s.kind === 'int' && d.isFP();
    case 7:
      return s.isFP() && d.isFP() && bits(s) > bits(d);
    case 8:
      return s.isFP() && d.isFP() && bits(s) < bits(d);
    case 9:
      return s.kind === 'ptr' && d.kind === 'int';
    case 10:
      return s.kind === 'int' && d.kind === 'ptr';
    case 11:
      if (from.kind === 'ptr' || to.kind === 'ptr')
        return from.kind === 'ptr' && to.kind === 'ptr' && from.addrSpace === to.addrSpace;
      return bits(from) > 0 && bits(from) === bits(to);
    case 12:
      return from.kind === 'ptr' && to.kind === 'ptr' && from.addrSpace !== to.addrSpace;
    default:
      return false;
  }
}

/** A type in a few words, for messages (i32, float, <4 x float>, ptr, struct %name). */
function typeWords(t: Type): string {
  switch (t.kind) {
    case 'int':
      return `i${t.width}`;
    case 'vector':
      return `<${t.count} x ${t.elt ? typeWords(t.elt) : '?'}>`;
    case 'array':
      return `[${t.count} x ${t.elt ? typeWords(t.elt) : '?'}]`;
    case 'struct':
      return t.name !== undefined ? `struct %${t.name}` : 'struct';
    default:
      return t.kind;
  }
}

function isTerminator(op: InstOp): boolean {
  return op === 'ret' || op === 'br' || op === 'switch' || op === 'unreachable';
}

/** A metadata-as-value operand (a call's `metadata !N` argument). */
export class MetadataValue extends Argument {
  readonly mdId: number;
  constructor(type: Type, id: number) {
    super(type, -1);
    this.kind = 'md';
    this.mdId = id;
  }
}

function mdValue(_mr: ModuleReader, id: number, t: Type): Value {
  return new MetadataValue(t, id);
}
