// Reads the LLVM 3.7 module of a DXIL part from its bitstream blocks (LLVM's BitcodeReader as of
// 3.7, which dxc writes): identification, module records (triple, datalayout, global variables,
// functions), the type table, constants, metadata (strings, values, nodes, names, kinds), attribute
// groups, value symbol tables and function bodies with relative value ids. Every value id is
// checked when resolved; one that never resolves is E405.

import { IridiaError, type ErrorCode } from '../errors.js';
import { BLOCK as STEP_BLOCK, type RecordCursor, type BitRecord, END, bitCursor } from './bitstream.js';
import {
  Argument,
  type AttributeList,
  Block,
  Constant,
  Func,
  GlobalVar,
  type Metadata,
  type Module,
  ModuleData,
  Type,
  type TypeKind,
  Value,
} from './ir.js';
import { readMetadataBlock } from './metadata.js';
import { attributeList, readAttributeGroups, readAttributeLists } from './attributes.js';
import { checkAcyclic, readConstants, resolveConstant } from './constants.js';
// The function body reader lives apart (function.ts); the two import each other, used only at run time.
import { readFunctionBody } from './function.js';

const BLOCK = {
  MODULE: 8,
  PARAMATTR: 9,
  PARAMATTR_GROUP: 10,
  CONSTANTS: 11,
  FUNCTION: 12,
  IDENTIFICATION: 13,
  VALUE_SYMTAB: 14,
  METADATA: 15,
  METADATA_ATTACHMENT: 16,
  TYPE: 17,
  USELIST: 18,
} as const;

/** Context for errors: the part and the byte offset of the bitcode in the container. */
export interface ReadContext {
  readonly part: string;
  readonly offset: number;
}

export class ModuleReader {
  readonly m: Module;
  private readonly ctx: ReadContext;
  private nextType = 0;
  private pendingStructName: string | undefined;
  /** Module constants waiting for their operands. */
  private readonly constants: Constant[] = [];
  private readonly bodies: Func[] = [];
  private labelType: Type | undefined;
  private metadataType: Type | undefined;
  /** Number of module-level metadata entries (function metadata is numbered after). */
  moduleMetadataCount = 0;

  constructor(ctx: ReadContext) {
    this.ctx = ctx;
    this.m = new ModuleData();
  }

  fail(code: ErrorCode, reason: string): IridiaError {
    return new IridiaError(code, `bitcode: ${reason}`, { part: this.ctx.part, offset: this.ctx.offset });
  }

  need(r: BitRecord, n: number, what: string): void {
    if (r.ops.length < n)
      throw this.fail('E404_BITCODE_RECORD', `${what} record has ${r.ops.length} operands, needs ${n}`);
  }

  type(id: number): Type {
    const t = this.m.types[id];
    if (t) return t;
    if (
      !this.typesRead &&
      id >= this.m.types.length &&
      id >= this.nextType &&
      id < 1 << 20 &&
      this.declaredTypes > id
    ) {
      // A forward reference inside the type table: an identified struct filled in later.
      const s = new Type('struct');
      this.m.types[id] = s;
      return s;
    }
    throw this.fail('E405_BITCODE_FORWARD_REF', `type id ${id} is not defined (${this.m.types.length} types)`);
  }
  private declaredTypes = 0;
  /** The type table is read and checked: a type id past it is an error, not a forward reference
   * (a function body's record naming one left a hole in the table, campaign dxil-sources mutant 120204). */
  private typesRead = false;

  label(): Type {
    return (this.labelType ??= new Type('label'));
  }
  metaType(): Type {
    return (this.metadataType ??= new Type('metadata'));
  }

  /** Reads the stream's top-level blocks: the identification and the module, each as it comes. */
  read(c: RecordCursor): Module {
    while (c.nextTop() === STEP_BLOCK) {
      if (c.blockId === BLOCK.IDENTIFICATION) {
        c.enter();
        this.readIdentification(c);
      } else if (c.blockId === BLOCK.MODULE) {
        c.enter();
        this.readModule(c);
      } else c.drain();
    }
    return this.m;
  }

  private readIdentification(c: RecordCursor): void {
    while (c.nextRecord()) if (c.code === 1) this.m.identification = chars(c.ops);
  }

  /** The module block, entered: its blocks and records in stream order. */
  private readModule(c: RecordCursor): void {
    for (let s = c.next(); s !== END; s = c.next()) {
      if (s === STEP_BLOCK) {
        this.readModuleBlock(c);
        continue;
      }
      const r = c;
      switch (r.code) {
        case 1:
          this.m.version = r.ops[0] ?? 0;
          break;
        case 2:
          this.m.triple = chars(r.ops);
          break;
        case 3:
          this.m.datalayout = chars(r.ops);
          break;
        case 5:
          this.m.sections.push(chars(r.ops));
          break;
        case 7:
          this.readGlobalVar(r);
          break;
        case 8:
          this.readFunctionRecord(r);
          break;
        default:
          break;
      }
    }
    this.resolveModuleConstants();
    for (const g of this.m.globals) {
      if (g.initId) {
        const v = this.m.values[g.initId - 1];
        if (!v) throw this.fail('E405_BITCODE_FORWARD_REF', `a global's initializer id ${g.initId - 1} never resolves`);
        g.init = v;
      }
    }
    for (const md of this.m.metadata) this.resolveMetadataValue(md, this.m.values);
  }

  /**
   * A block met in the module block: entered and read into the module, or read through and dropped
   * (USELIST, OPERAND_BUNDLE_TAGS: nothing to print).
   */
  private readModuleBlock(c: RecordCursor): void {
    switch (c.blockId) {
      case BLOCK.TYPE:
        c.enter();
        this.readTypes(c);
        this.checkTypes();
        this.typesRead = true;
        return;
      case BLOCK.PARAMATTR_GROUP:
        c.enter();
        readAttributeGroups(this, c);
        return;
      case BLOCK.PARAMATTR:
        c.enter();
        readAttributeLists(this, c);
        return;
      case BLOCK.CONSTANTS:
        c.enter();
        this.readConstants(c, this.m.values, this.constants);
        return;
      case BLOCK.METADATA:
        c.enter();
        readMetadataBlock(this, c, this.m.metadata, this.m.values);
        this.moduleMetadataCount = this.m.metadata.length;
        return;
      case BLOCK.VALUE_SYMTAB:
        c.enter();
        this.readSymtab(c, this.m.values, undefined);
        return;
      case BLOCK.FUNCTION:
        c.enter();
        this.resolveModuleConstants();
        this.readFunction(c);
        return;
      default:
        c.drain();
    }
  }

  resolveMetadataValue(md: Metadata, values: readonly Value[]): void {
    if (md.k === 'value' && md.v === undefined) {
      const v = values[md.id];
      if (!v) throw this.fail('E405_BITCODE_FORWARD_REF', `a metadata value refers to value ${md.id}, never defined`);
      if (v.type !== md.type)
        throw this.fail('E404_BITCODE_RECORD', `a metadata value's type is not that of value ${md.id}`);
      md.v = v;
    }
  }

  private resolvedModuleConstants = 0;
  private resolveModuleConstants(): void {
    const from = this.resolvedModuleConstants;
    for (; this.resolvedModuleConstants < this.constants.length; this.resolvedModuleConstants++)
      this.resolveConstant(this.constants[this.resolvedModuleConstants]!, this.m.values);
    this.checkAcyclic(this.constants.slice(from));
  }

  checkAcyclic(list: readonly Constant[]): void {
    checkAcyclic(this, list);
  }

  resolveConstant(c: Constant, values: readonly Value[]): void {
    resolveConstant(this, c, values);
  }

  // ---- types ----
  private readTypes(c: RecordCursor): void {
    const T = (k: TypeKind): Type => new Type(k);
    while (c.nextRecord()) {
      const r = c;
      if (r.code === 1) {
        this.declaredTypes = r.ops[0] ?? 0;
        continue;
      }
      if (r.code === 19) {
        this.pendingStructName = chars(r.ops);
        continue;
      }
      let t: Type;
      const at = this.nextType;
      const existing = this.m.types[at];
      switch (r.code) {
        case 2:
          t = T('void');
          break;
        case 3:
          t = T('float');
          break;
        case 4:
          t = T('double');
          break;
        case 5:
          t = this.label();
          break;
        case 6: // OPAQUE
          t = existing ?? T('struct');
          t.opaque = true;
          t.name = this.pendingStructName ?? '';
          this.pendingStructName = undefined;
          break;
        case 7:
          this.need(r, 1, 'an integer type');
          t = T('int');
          t.width = r.ops[0]!;
          break;
        case 8:
          this.need(r, 1, 'a pointer type');
          t = T('ptr');
          t.elt = this.type(r.ops[0]!);
          t.addrSpace = r.ops[1] ?? 0;
          break;
        case 10:
          t = T('half');
          break;
        case 11:
        case 12:
          this.need(r, 2, 'an array or vector type');
          t = T(r.code === 11 ? 'array' : 'vector');
          t.count = r.ops[0]!;
          t.elt = this.type(r.ops[1]!);
          break;
        case 13:
          t = T('x86_fp80');
          break;
        case 14:
          t = T('fp128');
          break;
        case 15:
          t = T('ppc_fp128');
          break;
        case 16:
          t = this.metaType();
          break;
        case 17:
          t = T('x86_mmx');
          break;
        case 18: // STRUCT_ANON
        case 20: // STRUCT_NAMED
          this.need(r, 1, 'a struct type');
          t = r.code === 20 && existing ? existing : T('struct');
          t.packed = r.ops[0] !== 0;
          t.elts = r.ops.slice(1).map((i) => this.type(i));
          t.opaque = false;
          if (r.code === 18) t.literal = true;
          else {
            t.name = this.pendingStructName ?? '';
            this.pendingStructName = undefined;
          }
          break;
        case 21: // FUNCTION: [vararg, retty, paramty...]
          this.need(r, 2, 'a function type');
          t = T('fn');
          t.vararg = r.ops[0] !== 0;
          t.elt = this.type(r.ops[1]!);
          t.elts = r.ops.slice(2).map((i) => this.type(i));
          break;
        default:
          throw this.fail('E408_BITCODE_UNSUPPORTED', `type record code ${r.code} is not supported`);
      }
      if (existing && existing !== t) {
        throw this.fail('E404_BITCODE_RECORD', `type ${at} was forward-referenced as a struct but is a ${t.kind}`);
      }
      this.m.types[at] = t;
      this.nextType++;
    }
  }

  attributes(i: number): AttributeList | undefined {
    return attributeList(this, i);
  }

  // ---- globals and functions ----
  private readGlobalVar(r: BitRecord): void {
    this.need(r, 6, 'a global variable');
    let t = this.type(r.ops[0]!);
    const explicit = (r.ops[1]! & 2) !== 0;
    let addrSpace: number;
    if (explicit) addrSpace = r.ops[1]! >>> 2;
    else {
      if (t.kind !== 'ptr') throw this.fail('E404_BITCODE_RECORD', 'a global variable without a pointer type');
      addrSpace = t.addrSpace;
      t = t.elt!;
    }
    const ptr = new Type('ptr');
    ptr.elt = t;
    ptr.addrSpace = addrSpace;
    const g = new GlobalVar(this.internPtr(ptr), t);
    g.isConstant = (r.ops[1]! & 1) !== 0;
    g.initId = r.ops[2]!;
    g.linkage = r.ops[3]!;
    g.align = alignOf(r.ops[4]!);
    g.section = r.ops[5]!;
    g.visibility = r.ops[6] ?? 0;
    g.tls = r.ops[7] ?? 0;
    g.unnamedAddr = (r.ops[8] ?? 0) !== 0;
    g.externallyInitialized = (r.ops[9] ?? 0) !== 0;
    g.dllStorage = r.ops[10] ?? 0;
    this.m.globals.push(g);
    this.m.values.push(g);
  }

  private ptrTypes = new Map<Type, Type[]>();
  /** One pointer type object per (element, address space), as LLVM uniques them. */
  internPtr(p: Type): Type {
    for (const t of this.m.types) if (t.kind === 'ptr' && t.elt === p.elt && t.addrSpace === p.addrSpace) return t;
    let l = this.ptrTypes.get(p.elt!);
    if (!l) this.ptrTypes.set(p.elt!, (l = []));
    const f = l.find((x) => x.addrSpace === p.addrSpace);
    if (f) return f;
    l.push(p);
    return p;
  }

  private readFunctionRecord(r: BitRecord): void {
    this.need(r, 8, 'a function');
    let t = this.type(r.ops[0]!);
    if (t.kind === 'ptr') t = t.elt!;
    if (t.kind !== 'fn') throw this.fail('E404_BITCODE_RECORD', 'a function whose type is not a function type');
    const ptr = new Type('ptr');
    ptr.elt = t;
    const f = new Func(this.internPtr(ptr), t);
    f.callingConv = r.ops[1]!;
    f.isProto = r.ops[2] !== 0;
    f.linkage = r.ops[3]!;
    f.attrs = this.attributes(r.ops[4]!);
    f.align = alignOf(r.ops[5]!);
    f.section = r.ops[6]!;
    f.visibility = r.ops[7]!;
    f.unnamedAddr = (r.ops[9] ?? 0) !== 0;
    f.dllStorage = r.ops[11] ?? 0;
    f.args = t.elts.map((pt, i) => new Argument(pt, i));
    this.m.functions.push(f);
    this.m.values.push(f);
    if (!f.isProto) this.bodies.push(f);
  }

  // ---- value symbol tables ----
  readSymtab(c: RecordCursor, values: readonly Value[], blocks: readonly Block[] | undefined): void {
    while (c.nextRecord()) {
      const it = c;
      if (it.code === 1 || it.code === 3) {
        // ENTRY [valueid, name...] / FNENTRY [valueid, offset, name...]
        const skip = it.code === 3 ? 2 : 1;
        const v = values[it.ops[0]!];
        if (!v) throw this.fail('E405_BITCODE_FORWARD_REF', `a symbol names value ${it.ops[0]}, never defined`);
        v.name = it.blob ? latin(it.blob) : chars(it.ops, skip);
      } else if (it.code === 2 && blocks) {
        const bb = blocks[it.ops[0]!];
        if (!bb) throw this.fail('E405_BITCODE_FORWARD_REF', `a symbol names block ${it.ops[0]}, never defined`);
        bb.name = chars(it.ops, 1);
      }
    }
  }

  readConstants(c: RecordCursor, values: Value[], pending: Constant[]): void {
    readConstants(this, c, values, pending);
  }

  /** Checks the type table once read: every entry defined, no forward reference left open. */
  private checkTypes(): void {
    const n = this.m.types.length;
    for (let i = 0; i < n; i++) {
      const t = this.m.types[i];
      if (!t) throw this.fail('E405_BITCODE_FORWARD_REF', `type ${i} is never defined`);
      if (i >= this.nextType) throw this.fail('E405_BITCODE_FORWARD_REF', `type ${i} is referenced but never defined`);
    }
  }

  // ---- functions ----
  private fnIndex = 0;
  private readFunction(c: RecordCursor): void {
    const f = this.bodies[this.fnIndex++];
    if (!f) throw this.fail('E404_BITCODE_RECORD', 'a function body without a function record to hold it');
    readFunctionBody(this, f, c);
  }
}

export function alignOf(v: number): number {
  return v === 0 ? 0 : 2 ** (v - 1);
}

/** Characters of at most this many bytes are made by one String.fromCharCode call. */
const CHUNK = 4096;
const fromCode = String.fromCharCode;

/**
 * The low byte of each operand from `from` on, as Latin-1 characters. Operand lists hold doubles
 * (one large operand anywhere turns the reader's lists to double elements), which
 * String.fromCharCode.apply takes slowly: eight characters a call instead.
 */
export function chars(o: readonly number[], from = 0): string {
  let s = '';
  let i = from;
  const n = o.length;
  for (; i + 8 <= n; i += 8)
    s += fromCode(
      o[i]! & 0xff,
      o[i + 1]! & 0xff,
      o[i + 2]! & 0xff,
      o[i + 3]! & 0xff,
      o[i + 4]! & 0xff,
      o[i + 5]! & 0xff,
      o[i + 6]! & 0xff,
      o[i + 7]! & 0xff,
    );
  // The last one to seven characters, one call each.
  for (; i < n; i++) s += fromCode(o[i]! & 0xff);
  return s;
}

export function latin(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += CHUNK)
    s += String.fromCharCode.apply(null, b.subarray(i, i + CHUNK) as unknown as number[]);
  return s;
}

export function signRotated(v: bigint): bigint {
  if ((v & 1n) === 0n) return v >> 1n;
  if (v !== 1n) return -(v >> 1n);
  return -(1n << 63n);
}

/** Reads the module of a bitcode stream (the bytes at the DXIL program header's bitcode offset). */
export function readModule(bitcode: Uint8Array, ctx: ReadContext): Module {
  return new ModuleReader(ctx).read(bitCursor(bitcode, ctx.offset, ctx.part));
}

const FUNCTION_BLOCKS: ReadonlySet<number> = new Set([BLOCK.FUNCTION]);

/**
 * The module without its function bodies (skipped by their block lengths): types, globals,
 * function declarations, constants and metadata, which is all the reflection module (STAT) is read
 * for. Functions with bodies are left without blocks.
 */
export function readModuleDeclarations(bitcode: Uint8Array, ctx: ReadContext): Module {
  return new ModuleReader(ctx).read(bitCursor(bitcode, ctx.offset, ctx.part, FUNCTION_BLOCKS));
}
