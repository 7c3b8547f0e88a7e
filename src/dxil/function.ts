// Reads one FUNCTION_BLOCK (LLVM 3.7's parseFunctionBody): DECLAREBLOCKS, the instruction records
// with relative value ids (an operand is InstNum - field, unsigned 32-bit; a forward reference
// carries its type), the function's constants, metadata, attachments and value symbol table, and
// debug locations. Operands are resolved once the block is read; one that never resolves is E405.

import { BLOCK, type RecordCursor, END } from './bitstream.js';
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

/** A FUNCTION_BLOCK, entered: read to its end into `f`. */
export function readFunctionBody(mr: ModuleReader, f: Func, c: RecordCursor): void {
  new BodyReader(mr, f).read(c);
}

/**
 * The state of one function body being read, with one method per kind of record: a class rather
 * than closures in one long function, so that V8 compiles each part on its own (the long function
 * took about 0.2 s of TurboFan's time a compile, and was compiled two or three times in a batch)
 * and no closure is made per body read.
 */
class BodyReader {
  private readonly m: ModuleReader['m'];
  private readonly values: Value[];
  private readonly base: number;
  private readonly mdBase: number;
  private readonly consts: Constant[] = objectList();
  /** Every instruction, for attachments. */
  private readonly insts: Instruction[] = objectList();
  /** Instructions with a Forward operand, callee or case value, in reading order. */
  private readonly unresolved: Instruction[] = objectList();
  private forwards = 0;
  /** USELIST_CODE_BB records' operands (a permutation, then a block index), used once the body is read. */
  private readonly useLists: number[][] = [];
  private blocks: Block[] = objectList();
  private cur = 0;
  private last: Instruction | undefined = undefined;
  private lastLoc: Instruction['dbg'] = undefined;
  // The record being read: its code, operands and the index of the next operand.
  private code = 0;
  private o: readonly number[] = [];
  private ai = 0;
  private readonly ptrs = new Map<Type, Type>();
  private i1T: Type | undefined = undefined;
  /** The first void type of the table (types are only appended, so the first stays the first). */
  private voidT: Type | undefined = undefined;

  constructor(
    private readonly mr: ModuleReader,
    private readonly f: Func,
  ) {
    this.m = mr.m;
    this.values = this.m.values;
    this.base = this.values.length;
    this.mdBase = this.m.metadata.length;
    for (const a of f.args) this.values.push(a);
  }

  private fail(code: Parameters<ModuleReader['fail']>[0], reason: string): ReturnType<ModuleReader['fail']> {
    return this.mr.fail(code, reason);
  }

  /** A relative operand with its type (getValueTypePair). */
  private valueTypePair(): Operand {
    const o = this.o;
    const values = this.values;
    if (this.ai >= o.length)
      throw this.fail('E404_BITCODE_RECORD', `instruction record ${this.code} is missing an operand`);
    const id = (values.length - o[this.ai++]!) >>> 0;
    if (id < values.length) return values[id]!;
    if (this.ai >= o.length)
      throw this.fail('E404_BITCODE_RECORD', `instruction record ${this.code} is missing a forward operand's type`);
    this.forwards++;
    return new Forward(id, this.mr.type(o[this.ai++]!), false);
  }

  /** A relative operand of a known type (getValue / popValue); metadata for a metadata type. */
  private value(type: Type | undefined): Operand {
    const o = this.o;
    const values = this.values;
    if (this.ai >= o.length)
      throw this.fail('E404_BITCODE_RECORD', `instruction record ${this.code} is missing an operand`);
    const id = (values.length - o[this.ai++]!) >>> 0;
    if (type !== undefined && type.kind === 'metadata') {
      if (this.m.metadata[id] !== undefined) return new MetadataValue(type, id);
      this.forwards++;
      return new Forward(id, type, true);
    }
    if (id < values.length) return this.typed(values[id]!, type);
    this.forwards++;
    return new Forward(id, type, false);
  }

  /** LLVM's getValueFwdRef: a value read with a known type must have that type ("Invalid record"). */
  private typed(v: Value, type: Type | undefined): Value {
    if (type !== undefined && v.type !== type)
      throw this.fail(
        'E404_BITCODE_RECORD',
        `instruction record ${this.code} reads a ${typeWords(v.type)} value where its type says ${typeWords(type)}`,
      );
    return v;
  }

  /** An absolute value id (phi incoming values, alloca sizes, switch cases). */
  private absolute(id: number, type: Type | undefined): Operand {
    if (id < this.values.length) return this.typed(this.values[id]!, type);
    this.forwards++;
    return new Forward(id, type, false);
  }

  /** PHI operands are signed VBR: decoded, then relative. */
  private signedValue(raw: number): number {
    const d = raw & 1 ? -Math.floor(raw / 2) : Math.floor(raw / 2);
    return this.values.length - d;
  }

  private block(id: number): number {
    if (id >= this.blocks.length)
      throw this.fail('E405_BITCODE_FORWARD_REF', `block ${id} of ${this.blocks.length} is not declared`);
    return id;
  }

  private findType(pred: (t: Type) => boolean, make: () => Type): Type {
    for (const t of this.m.types) if (pred(t)) return t;
    const t = make();
    this.m.types.push(t);
    return t;
  }

  private ptrTo(t: Type, as = 0): Type {
    const hit = as === 0 ? this.ptrs.get(t) : undefined;
    if (hit) return hit;
    const p = this.findType(
      (x) => x.kind === 'ptr' && x.elt === t && x.addrSpace === as,
      () => {
        const p = new Type('ptr');
        p.elt = t;
        p.addrSpace = as;
        return p;
      },
    );
    if (as === 0) this.ptrs.set(t, p);
    return p;
  }

  private i1Like(t: Type | undefined): Type {
    const i1 = (this.i1T ??= this.findType(
      (x) => x.kind === 'int' && x.width === 1,
      () => {
        const x = new Type('int');
        x.width = 1;
        return x;
      },
    ));
    if (t && t.kind === 'vector')
      return this.findType(
        (x) => x.kind === 'vector' && x.count === t.count && x.elt === i1,
        () => {
          const x = new Type('vector');
          x.count = t.count;
          x.elt = i1;
          return x;
        },
      );
    return i1;
  }

  private voidType(): Type {
    return (this.voidT ??= this.findType(
      (x) => x.kind === 'void',
      () => new Type('void'),
    ));
  }

  private member(t: Type, idx: number): Type {
    if (t.kind === 'struct') {
      const e = t.elts[idx];
      if (!e) throw this.fail('E404_BITCODE_RECORD', `struct index ${idx} is out of range`);
      return e;
    }
    if (t.kind === 'array' || t.kind === 'vector') return t.elt!;
    throw this.fail('E404_BITCODE_RECORD', `cannot index into a ${t.kind}`);
  }

  private expect(ok: boolean, what: string): void {
    if (!ok) throw this.fail('E404_BITCODE_RECORD', what);
  }

  private add(inst: Instruction): void {
    const bb = this.blocks[this.cur];
    if (!bb) throw this.fail('E404_BITCODE_RECORD', 'an instruction outside any declared block');
    bb.insts.push(inst);
    this.insts.push(inst);
    if (inst.type.kind !== 'void') this.values.push(inst);
    this.last = inst;
    if (isTerminator(inst.op)) this.cur++;
  }

  read(c: RecordCursor): void {
    for (let s = c.next(); s !== END; s = c.next()) {
      if (s === BLOCK) {
        this.subBlock(c);
        continue;
      }
      this.code = c.code;
      this.o = c.ops;
      this.ai = 0;
      const forwards0 = this.forwards;
      // The records left in the block bound the blocks DECLAREBLOCKS may declare.
      const inst = this.record(this.code === FN.DECLAREBLOCKS ? c.recordsLeft() + 1 : 0);
      if (inst === undefined) continue;
      this.add(inst);
      if (this.forwards !== forwards0) this.unresolved.push(inst);
    }
    if (this.blocks.length === 0) throw this.fail('E404_BITCODE_RECORD', 'a function body without DECLAREBLOCKS');
    if (this.cur !== this.blocks.length)
      throw this.fail('E404_BITCODE_RECORD', `a function body ends inside block ${this.cur} of ${this.blocks.length}`);
    this.finish();
  }

  /** A block met in the body: constants, metadata, attachments, symbols, use lists; any other is read through and dropped. */
  private subBlock(c: RecordCursor): void {
    switch (c.blockId) {
      case 11:
        c.enter();
        this.mr.readConstants(c, this.values, this.consts);
        return;
      case 14:
        c.enter();
        this.mr.readSymtab(c, this.values, this.blocks);
        return;
      case 15:
        c.enter();
        readMetadataBlock(this.mr, c, this.m.metadata, this.values);
        return;
      case 16:
        c.enter();
        this.attachments(c);
        return;
      case 18:
        c.enter();
        while (c.nextRecord()) if (c.code === 2 && c.ops.length >= 3) this.useLists.push(c.ops);
        return;
      default:
        c.drain();
    }
  }

  /** METADATA_ATTACHMENT: an instruction's attachments (odd length) or the function's. */
  private attachments(c: RecordCursor): void {
    while (c.nextRecord()) {
      if (c.code !== 11) continue;
      const o = c.ops;
      if (o.length & 1) {
        const inst = this.insts[o[0]!];
        if (!inst)
          throw this.fail('E405_BITCODE_FORWARD_REF', `a metadata attachment names instruction ${o[0]}, not read`);
        const list: [number, number][] = [...inst.attachments];
        for (let i = 1; i + 1 < o.length; i += 2) list.push([o[i]!, o[i + 1]!]);
        inst.attachments = list;
      } else for (let i = 0; i + 1 < o.length; i += 2) this.f.attachments.push([o[i]!, o[i + 1]!]);
    }
  }

  /** The instruction of the current record, or undefined for a record that makes none (the
   * block count, debug locations). `records` (read for DECLAREBLOCKS only): at most how many records
   * the body holds from this one on, which bounds the blocks it may declare. */
  private record(records: number): Instruction | undefined {
    const o = this.o;
    switch (this.code) {
      case FN.DECLAREBLOCKS: {
        const n = o[0] ?? 0;
        if (n === 0 || n > records) throw this.fail('E404_BITCODE_RECORD', `a function declares ${n} blocks`);
        const label = this.mr.label();
        const blocks: Block[] = objectList();
        for (let i = 0; i < n; i++) blocks.push(new Block(label, i));
        this.blocks = blocks;
        this.f.blocks = blocks;
        return undefined;
      }
      case FN.DEBUG_LOC: {
        if (!this.last || o.length < 4)
          throw this.fail('E404_BITCODE_RECORD', 'a debug location without an instruction');
        this.lastLoc = { line: o[0]!, col: o[1]!, scope: o[2]!, inlinedAt: o[3]! };
        this.last.dbg = this.lastLoc;
        return undefined;
      }
      case FN.DEBUG_LOC_AGAIN:
        if (!this.last) throw this.fail('E404_BITCODE_RECORD', 'a debug location without an instruction');
        this.last.dbg = this.lastLoc;
        return undefined;
      case FN.BINOP:
        return this.binop();
      case FN.CAST:
        return this.cast();
      case FN.GEP:
      case FN.GEP_OLD:
      case FN.INBOUNDS_GEP_OLD:
        return this.gep();
      case FN.EXTRACTVAL:
        return this.extractValue();
      case FN.INSERTVAL: {
        const agg = this.valueTypePair();
        const v = this.valueTypePair();
        const inst = new Instruction('insertvalue', agg.type!);
        inst.indices = o.slice(this.ai);
        inst.ops = operands(objects2(agg, v));
        return inst;
      }
      case FN.SELECT:
      case FN.VSELECT:
        return this.select();
      case FN.EXTRACTELT: {
        const v = this.valueTypePair();
        const i = this.valueTypePair();
        this.expect(isVector(v.type), 'an extractelement on a non-vector');
        const inst = new Instruction('extractelement', v.type!.elt!);
        inst.ops = operands(objects2(v, i));
        return inst;
      }
      case FN.INSERTELT: {
        const v = this.valueTypePair();
        this.expect(isVector(v.type), 'an insertelement on a non-vector');
        const e = this.value(v.type!.elt);
        const i = this.valueTypePair();
        const inst = new Instruction('insertelement', v.type!);
        inst.ops = operands(objects3(v, e, i));
        return inst;
      }
      case FN.SHUFFLEVEC:
        return this.shuffle();
      case FN.CMP:
      case FN.CMP2: {
        const l = this.valueTypePair();
        const rr = this.value(l.type);
        if (this.ai >= o.length) throw this.fail('E404_BITCODE_RECORD', 'a compare without its predicate');
        const inst = new Instruction('cmp', this.i1Like(l.type));
        inst.sub = o[this.ai++]!;
        inst.flags = o[this.ai] ?? 0;
        inst.ops = operands(objects2(l, rr));
        return inst;
      }
      case FN.RET: {
        const inst = new Instruction('ret', this.voidType());
        if (this.ai < o.length) {
          const ops: Operand[] = objectList();
          while (this.ai < o.length) ops.push(this.valueTypePair());
          inst.ops = operands(ops);
        }
        return inst;
      }
      case FN.BR:
        return this.br();
      case FN.SWITCH:
        return this.switchInst();
      case FN.UNREACHABLE:
        return new Instruction('unreachable', this.voidType());
      case FN.PHI:
        return this.phi();
      case FN.ALLOCA:
        return this.alloca();
      case FN.LOAD:
      case FN.LOADATOMIC:
        return this.load();
      case FN.STORE:
      case FN.STOREATOMIC:
        return this.store();
      case FN.CALL:
        return this.call();
      case FN.FENCE: {
        const inst = new Instruction('fence', this.voidType());
        inst.ordering = o[0] ?? 0;
        inst.scope = o[1] ?? 1;
        return inst;
      }
      case FN.ATOMICRMW:
        return this.atomicRmw();
      case FN.CMPXCHG:
        return this.cmpxchg();
      default:
        throw this.fail('E408_BITCODE_UNSUPPORTED', `instruction record code ${this.code} is not supported`);
    }
  }

  private binop(): Instruction {
    const o = this.o;
    const lhs = this.valueTypePair();
    const rhs = this.value(lhs.type);
    if (this.ai >= o.length) throw this.fail('E404_BITCODE_RECORD', 'a binop without its opcode');
    const lt = lhs.type!;
    this.expect(
      lt.kind === 'int' || lt.isFP() || (isVector(lt) && (lt.elt!.kind === 'int' || lt.elt!.isFP())),
      'a binop on a non-arithmetic type',
    );
    // LLVM's getDecodedBinaryOpcode: udiv, urem, the shifts and the bitwise operations have no
    // floating-point form, and no opcode follows xor (12).
    const sub = o[this.ai]!;
    if (sub > 12 || (lt.isFPOrFPVector() && ((FP_BINOPS >>> sub) & 1) === 0))
      throw this.fail('E404_BITCODE_RECORD', `binop opcode ${sub} does not apply to a ${typeWords(lt)}`);
    const inst = new Instruction('binop', lt);
    inst.sub = o[this.ai++]!;
    inst.flags = o[this.ai] ?? 0;
    inst.ops = operands(objects2(lhs, rhs));
    return inst;
  }

  private cast(): Instruction {
    const o = this.o;
    const v = this.valueTypePair();
    const ai = this.ai;
    if (ai + 2 > o.length) throw this.fail('E404_BITCODE_RECORD', 'a cast without its type and opcode');
    const to = this.mr.type(o[ai]!);
    if (!castIsValid(o[ai + 1]!, v.type!, to))
      throw this.fail('E404_BITCODE_RECORD', `cast opcode ${o[ai + 1]} from ${typeWords(v.type!)} to ${typeWords(to)}`);
    const inst = new Instruction('cast', to);
    inst.sub = o[ai + 1]!;
    inst.ops = operands(objects1(v));
    return inst;
  }

  private gep(): Instruction {
    const o = this.o;
    let src: Type | undefined;
    let inb = this.code === FN.INBOUNDS_GEP_OLD;
    if (this.code === FN.GEP) {
      if (o.length < 2) throw this.fail('E404_BITCODE_RECORD', 'a getelementptr without its operands');
      inb = o[0] !== 0;
      src = this.mr.type(o[1]!);
      this.ai = 2;
    }
    const ops: Operand[] = objectList();
    while (this.ai < o.length) ops.push(this.valueTypePair());
    if (!ops.length) throw this.fail('E404_BITCODE_RECORD', 'a getelementptr without a pointer');
    const baseT = ops[0]!.type!;
    this.expect(isPtr(baseT), 'a getelementptr on a non-pointer');
    src ??= baseT.elt;
    if (!src) throw this.fail('E404_BITCODE_RECORD', 'a getelementptr on a non-pointer');
    // LLVM's verifier: "GEP indexes must be integers" (the 3.7 reader takes any type there)
    for (let k = 1; k < ops.length; k++)
      this.expect(ops[k]!.type?.kind === 'int', 'a getelementptr index that is not an integer');
    let t = src;
    for (let k = 2; k < ops.length; k++) {
      const cv = ops[k]!;
      const n = cv instanceof Constant && cv.ck === 'int' ? Number(cv.bits) : 0;
      t = this.member(t, n);
    }
    const inst = new Instruction('gep', this.ptrTo(t, baseT.kind === 'ptr' ? baseT.addrSpace : 0));
    inst.explicitType = src;
    inst.inbounds = inb;
    inst.ops = operands(ops);
    return inst;
  }

  private extractValue(): Instruction {
    const v = this.valueTypePair();
    let t = v.type!;
    const idx = this.o.slice(this.ai);
    if (!idx.length) throw this.fail('E404_BITCODE_RECORD', 'an extractvalue without indices');
    for (const k of idx) t = this.member(t, k);
    const inst = new Instruction('extractvalue', t);
    inst.indices = idx;
    inst.ops = operands(objects1(v));
    return inst;
  }

  private select(): Instruction {
    const t = this.valueTypePair();
    const fv = this.value(t.type);
    const c = this.code === FN.VSELECT ? this.valueTypePair() : this.value(this.i1Like(undefined));
    // SelectInst::areInvalidOperands: an i1 condition, or a vector of i1 as long as the values
    const ct = c.type;
    const condOk =
      ct?.kind === 'vector'
        ? ct.elt?.kind === 'int' && ct.elt.width === 1 && t.type?.kind === 'vector' && t.type.count === ct.count
        : ct === undefined || (ct.kind === 'int' && ct.width === 1);
    this.expect(condOk, `a select whose condition is a ${ct ? typeWords(ct) : 'value of no type'}`);
    const inst = new Instruction('select', t.type!);
    inst.ops = operands(objects3(c, t, fv));
    return inst;
  }

  private shuffle(): Instruction {
    const v1 = this.valueTypePair();
    const v2 = this.value(v1.type);
    const mask = this.valueTypePair();
    this.expect(isVector(v1.type) && isVector(mask.type), 'a shufflevector on non-vectors');
    const rt = this.findType(
      (x) => x.kind === 'vector' && x.elt === v1.type!.elt && x.count === mask.type!.count,
      () => {
        const x = new Type('vector');
        x.elt = v1.type!.elt;
        x.count = mask.type!.count;
        return x;
      },
    );
    const inst = new Instruction('shufflevector', rt);
    inst.ops = operands(objects3(v1, v2, mask));
    return inst;
  }

  private br(): Instruction {
    const o = this.o;
    const inst = new Instruction('br', this.voidType());
    if (o.length === 1) inst.blocks = [this.block(o[0]!)];
    else if (o.length === 3) {
      inst.blocks = [this.block(o[0]!), this.block(o[1]!)];
      this.ai = 2;
      inst.ops = operands(objects1(this.value(this.i1Like(undefined))));
    } else throw this.fail('E404_BITCODE_RECORD', `a br record has ${o.length} operands`);
    return inst;
  }

  private switchInst(): Instruction {
    const o = this.o;
    if (o.length < 3 || (o.length & 1) === 0)
      throw this.fail('E404_BITCODE_RECORD', `a switch record has ${o.length} operands`);
    const t = this.mr.type(o[0]!);
    this.ai = 1;
    const inst = new Instruction('switch', this.voidType());
    inst.ops = operands(objects1(this.value(t)));
    const targets = [this.block(o[2]!)];
    const caseIds: number[] = [];
    for (let k = 3; k + 1 < o.length; k += 2) {
      caseIds.push(o[k]!);
      targets.push(this.block(o[k + 1]!));
    }
    inst.blocks = targets;
    inst.caseIds = caseIds;
    if (caseIds.length) inst.cases = operands(caseIds.map((id) => this.absolute(id, undefined)));
    return inst;
  }

  private phi(): Instruction {
    const o = this.o;
    if (o.length < 1 || (o.length - 1) % 2)
      throw this.fail('E404_BITCODE_RECORD', `a phi record has ${o.length} operands`);
    const t = this.mr.type(o[0]!);
    const inst = new Instruction('phi', t);
    const incoming: Operand[] = objectList();
    const from: number[] = [];
    for (let k = 1; k + 1 < o.length; k += 2) {
      incoming.push(this.absolute(this.signedValue(o[k]!) >>> 0, t));
      from.push(this.block(o[k + 1]!));
    }
    inst.ops = operands(incoming);
    inst.blocks = from;
    return inst;
  }

  private alloca(): Instruction {
    const o = this.o;
    if (o.length !== 4) throw this.fail('E404_BITCODE_RECORD', `an alloca record has ${o.length} operands`);
    const a = o[3]!;
    let t = this.mr.type(o[0]!);
    if ((a & 64) === 0) {
      this.expect(isPtr(t), 'an old-style alloca without a pointer type');
      t = t.elt!;
    }
    const inst = new Instruction('alloca', this.ptrTo(t));
    inst.explicitType = t;
    inst.ops = operands(objects1(this.absolute(o[2]!, this.mr.type(o[1]!))));
    inst.align = alignOf(a & 31);
    return inst;
  }

  private load(): Instruction {
    const o = this.o;
    const p = this.valueTypePair();
    const extra = this.code === FN.LOAD ? 2 : 4;
    let t: Type | undefined;
    if (this.ai + extra + 1 === o.length) t = this.mr.type(o[this.ai++]!);
    else if (this.ai + extra !== o.length)
      throw this.fail('E404_BITCODE_RECORD', `a load record has ${o.length} operands`);
    this.expect(isPtr(p.type), 'a load from a non-pointer');
    t ??= p.type!.elt;
    const ai = this.ai;
    const inst = new Instruction('load', t!);
    inst.explicitType = t;
    inst.align = alignOf(o[ai]!);
    inst.volatile = o[ai + 1] !== 0;
    if (this.code === FN.LOADATOMIC) {
      inst.ordering = o[ai + 2]!;
      inst.scope = o[ai + 3]!;
    }
    inst.ops = operands(objects1(p));
    return inst;
  }

  private store(): Instruction {
    const o = this.o;
    const p = this.valueTypePair();
    const v = this.valueTypePair();
    this.expect(isPtr(p.type), 'a store to a non-pointer');
    const ai = this.ai;
    if (ai + (this.code === FN.STORE ? 2 : 4) !== o.length)
      throw this.fail('E404_BITCODE_RECORD', `a store record has ${o.length} operands`);
    const inst = new Instruction('store', this.voidType());
    inst.align = alignOf(o[ai]!);
    inst.volatile = o[ai + 1] !== 0;
    if (this.code === FN.STOREATOMIC) {
      inst.ordering = o[ai + 2]!;
      inst.scope = o[ai + 3]!;
    }
    inst.ops = operands(objects2(v, p));
    return inst;
  }

  private call(): Instruction {
    const o = this.o;
    if (o.length < 3) throw this.fail('E404_BITCODE_RECORD', `a call record has ${o.length} operands`);
    const attrs = this.mr.attributes(o[0]!);
    const cc = o[1]!;
    this.ai = 2;
    let fty: Type | undefined;
    if ((cc >>> 15) & 1) fty = this.mr.type(o[this.ai++]!);
    const callee = this.valueTypePair();
    fty ??= callee.type?.elt;
    if (!fty || fty.kind !== 'fn') throw this.fail('E404_BITCODE_RECORD', 'a call whose callee is not a function');
    const params = fty.elts;
    if (o.length - this.ai < params.length)
      throw this.fail('E404_BITCODE_RECORD', `a call passes ${o.length - this.ai} of ${params.length} arguments`);
    const inst = new Instruction('call', fty.elt!);
    const args: Operand[] = objectList();
    for (let k = 0; k < params.length; k++) args.push(this.value(params[k]));
    if (fty.vararg) while (this.ai < o.length) args.push(this.valueTypePair());
    else if (this.ai !== o.length)
      throw this.fail('E404_BITCODE_RECORD', `a call passes ${o.length - 3} operands for ${params.length} parameters`);
    inst.ops = operands(args);
    inst.callee = callee as Value;
    inst.explicitType = fty;
    inst.flags = cc;
    inst.attrs = attrs;
    return inst;
  }

  private atomicRmw(): Instruction {
    const o = this.o;
    const p = this.valueTypePair();
    this.expect(isPtr(p.type), 'an atomicrmw on a non-pointer');
    const v = this.value(p.type!.elt);
    const ai = this.ai;
    if (ai + 4 !== o.length) throw this.fail('E404_BITCODE_RECORD', `an atomicrmw record has ${o.length} operands`);
    const inst = new Instruction('atomicrmw', p.type!.elt!);
    inst.sub = o[ai]!;
    inst.volatile = o[ai + 1] !== 0;
    inst.ordering = o[ai + 2]!;
    inst.scope = o[ai + 3]!;
    inst.ops = operands(objects2(p, v));
    return inst;
  }

  private cmpxchg(): Instruction {
    const o = this.o;
    const p = this.valueTypePair();
    this.expect(isPtr(p.type), 'a cmpxchg on a non-pointer');
    const c = this.valueTypePair();
    const n = this.value(c.type);
    const ai = this.ai;
    if (o.length < ai + 3) throw this.fail('E404_BITCODE_RECORD', `a cmpxchg record has ${o.length} operands`);
    const st = this.findType(
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
        x.elts = [c.type!, this.i1Like(undefined)];
        return x;
      },
    );
    const inst = new Instruction('cmpxchg', st);
    inst.volatile = o[ai] !== 0;
    inst.ordering = o[ai + 1]!;
    inst.scope = o[ai + 2]!;
    inst.failOrdering = o[ai + 3] ?? inst.ordering;
    inst.weak = (o[ai + 4] ?? 0) !== 0;
    inst.ops = operands(objects3(p, c, n));
    return inst;
  }

  /** Resolves a forward operand now that the whole body is read. */
  private resolve(p: Operand): Value {
    if (!(p instanceof Forward)) return p;
    if (p.metadata) {
      const md = this.m.metadata[p.id];
      if (!md) throw this.fail('E405_BITCODE_FORWARD_REF', `a metadata operand ${p.id} never resolves`);
      return mdValue(this.mr, p.id, p.type!);
    }
    const values = this.values;
    const v = values[p.id];
    if (!v)
      throw this.fail(
        'E405_BITCODE_FORWARD_REF',
        `value ${p.id} is referenced but never defined (${values.length} values)`,
      );
    if (p.type !== undefined && v.type !== p.type)
      throw this.fail(
        'E404_BITCODE_RECORD',
        `a forward reference to value ${p.id} expects a ${typeWords(p.type)}, the value is a ${typeWords(v.type)}`,
      );
    return v;
  }

  /** After the body: forward operands, constants, metadata values, predecessors and their order. */
  private finish(): void {
    const f = this.f;
    const mr = this.mr;
    const m = this.m;
    const values = this.values;
    const blocks = this.blocks;
    for (const c of this.consts) mr.resolveConstant(c, values);
    mr.checkAcyclic(this.consts);
    for (let k = this.mdBase; k < m.metadata.length; k++) mr.resolveMetadataValue(m.metadata[k]!, values);
    const resolve = (p: Operand): Value => this.resolve(p);
    for (const inst of this.unresolved) {
      inst.ops = inst.ops.map(resolve);
      if (inst.callee) inst.callee = resolve(inst.callee);
      if (inst.cases.length) inst.cases = inst.cases.map(resolve);
    }
    for (const bb of blocks)
      for (const inst of bb.insts)
        if (inst.op === 'br' || inst.op === 'switch') for (const t of inst.blocks) blocks[t]!.preds.unshift(bb);
    // USELIST_BLOCK: a block's use-list order (USELIST_CODE_BB: a permutation, then the block index)
    // decides the order its predecessors print in. Value use lists change nothing printed.
    for (const o of this.useLists) {
      const bb = blocks[o[o.length - 1]!];
      if (!bb)
        throw this.fail('E405_BITCODE_FORWARD_REF', `a use-list order names block ${o[o.length - 1]}, not declared`);
      const keys = o.slice(0, -1);
      // LLVM gives up on a list whose length differs (lazy materialisation, upgraded values).
      if (keys.length !== bb.preds.length) continue;
      const order = bb.preds.map((p, i) => [keys[i]!, i, p] as const);
      order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      bb.preds = order.map((x) => x[2]);
    }
    f.localMetadata = m.metadata.slice(this.mdBase);
    m.metadata.length = this.mdBase;
    values.length = this.base;
  }
}

const isVector = (t: Type | undefined): t is Type => t !== undefined && t.kind === 'vector';
const isPtr = (t: Type | undefined): t is Type => t !== undefined && t.kind === 'ptr';
/** Operands as read: resolved now or, when some are forward, once the body is read. */
const operands = (list: Operand[]): Value[] => list as Value[];

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
