// The in-memory LLVM 3.7 module a DXIL part holds, as the module reader (module.ts) fills it and
// the printer (printer.ts) prints it: types, values (globals, functions, constants, arguments,
// instructions), basic blocks, metadata and attribute sets. Operands are resolved to objects once a
// function is read, so the printer never sees raw value ids.

import { objectList } from '../binary/lists.js';

export type TypeKind =
  | 'void'
  | 'half'
  | 'float'
  | 'double'
  | 'x86_fp80'
  | 'fp128'
  | 'ppc_fp128'
  | 'label'
  | 'metadata'
  | 'x86_mmx'
  | 'int'
  | 'ptr'
  | 'array'
  | 'vector'
  | 'struct'
  | 'fn';

export class Type {
  kind: TypeKind;
  /** int: bit width. */
  width = 0;
  /** array/vector: element count. */
  count = 0;
  /** ptr, array, vector: the element type; fn: the return type. */
  elt: Type | undefined;
  /** struct: element types; fn: parameter types. */
  elts: Type[] = objectList();
  /** ptr: address space. */
  addrSpace = 0;
  /** struct: name (identified structs), undefined for literal structs. */
  name: string | undefined;
  literal = false;
  packed = false;
  opaque = false;
  vararg = false;
  constructor(kind: TypeKind) {
    this.kind = kind;
  }
  isFP(): boolean {
    return this.kind === 'half' || this.kind === 'float' || this.kind === 'double';
  }
  /** FP or a vector of FP (selects fadd over add). */
  isFPOrFPVector(): boolean {
    return this.isFP() || (this.kind === 'vector' && this.elt!.isFP());
  }
}

/**
 * Whether two value types are alike (a module's types are one object each, unless a malformed type
 * table repeats one): kind, width, count, address space, and what a vector, array or pointer holds.
 * A named struct is compared by its name: LLVM's recursive types go through named structs, so no
 * walk goes round a cycle.
 */
export function sameType(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.width !== b.width || a.count !== b.count || a.addrSpace !== b.addrSpace) return false;
  if (a.kind === 'struct') {
    if (a.name !== undefined || b.name !== undefined) return a.name === b.name;
    return a.elts.length === b.elts.length && a.elts.every((e, k) => sameType(e, b.elts[k]!));
  }
  return a.elt === b.elt || (a.elt !== undefined && b.elt !== undefined && sameType(a.elt, b.elt));
}

export type ConstKind =
  | 'null'
  | 'undef'
  | 'int'
  | 'float'
  | 'aggregate'
  | 'string'
  | 'cstring'
  | 'data'
  | 'ce-binop'
  | 'ce-cast'
  | 'ce-gep'
  | 'ce-select'
  | 'ce-extractelement'
  | 'ce-insertelement'
  | 'ce-shufflevector'
  | 'ce-cmp'
  | 'blockaddress'
  | 'inlineasm';

export type ValueKind = 'global' | 'function' | 'alias' | 'const' | 'arg' | 'inst' | 'md' | 'block';

/** Shared empty lists: these lists are replaced, never pushed to, so one can be shared. */
const NONE: never[] = [];

export class Value {
  declare kind: ValueKind;
  declare type: Type;
  declare name: string | undefined;
  constructor(kind: ValueKind, type: Type) {
    this.kind = kind;
    this.type = type;
    this.name = undefined;
  }
}

export class Constant extends Value {
  declare ck: ConstKind;
  /** int: the value as a signed bigint; float: the bit pattern. */
  declare bits: bigint;
  /** aggregate / ce operands, resolved. */
  declare ops: Value[];
  /** raw value ids of the operands (absolute), before resolution. */
  declare opIds: number[];
  /** data: the element values (raw bit patterns). */
  declare data: bigint[];
  /** string/cstring bytes. */
  declare bytes: number[];
  /** ce-binop/ce-cast/ce-cmp: the sub-opcode or predicate; ce-gep: 1 when inbounds. */
  declare sub: number;
  declare flags: number;
  /** ce-gep: the source element type. */
  declare srcType: Type | undefined;
  /** ce operand types where the record gives them. */
  declare opTypes: (Type | undefined)[];
  constructor(type: Type, ck: ConstKind) {
    super('const', type);
    this.ck = ck;
    this.bits = 0n;
    this.ops = NONE;
    this.opIds = NONE;
    this.data = NONE;
    this.bytes = NONE;
    this.sub = 0;
    this.flags = 0;
    this.srcType = undefined;
    this.opTypes = NONE;
  }
}

export interface AttributeEntry {
  /** 'enum' flag (name), 'int' with a value, 'string' key with optional value. */
  readonly kind: 'enum' | 'int' | 'string';
  readonly key: string;
  readonly value?: string | undefined;
  readonly int?: number | undefined;
}

/** An attribute as the reader makes it: one shape for every kind (see MetadataString on why). */
export class Attribute implements AttributeEntry {
  readonly kind: 'enum' | 'int' | 'string';
  readonly key: string;
  readonly value: string | undefined;
  readonly int: number | undefined;
  constructor(kind: 'enum' | 'int' | 'string', key: string, value?: string, int?: number) {
    this.kind = kind;
    this.key = key;
    this.value = value;
    this.int = int;
  }
}

/** One attribute group: its index (0 return, 0xffffffff function, i parameter i) and entries. */
export interface AttributeGroup {
  readonly id: number;
  readonly index: number;
  readonly attrs: readonly AttributeEntry[];
}

/** An attribute group as the reader makes it (see MetadataString on why a class). */
export class Group implements AttributeGroup {
  readonly id: number;
  readonly index: number;
  readonly attrs: readonly AttributeEntry[];
  constructor(id: number, index: number, attrs: readonly AttributeEntry[]) {
    this.id = id;
    this.index = index;
    this.attrs = attrs;
  }
}

/** A PARAMATTR entry: the groups that make one function's or call's attribute list. */
export type AttributeList = readonly AttributeGroup[];

export class GlobalVar extends Value {
  valueType: Type;
  isConstant = false;
  linkage = 0;
  align = 0;
  section = 0;
  visibility = 0;
  tls = 0;
  unnamedAddr = false;
  externallyInitialized = false;
  dllStorage = 0;
  initId = 0; // value id + 1, 0 for none
  init: Value | undefined;
  constructor(ptrType: Type, valueType: Type) {
    super('global', ptrType);
    this.valueType = valueType;
  }
}

export interface DebugLoc {
  readonly line: number;
  readonly col: number;
  readonly scope: number; // metadata id + 1, 0 for none
  readonly inlinedAt: number;
}

export type InstOp =
  | 'binop'
  | 'cast'
  | 'gep'
  | 'select'
  | 'extractelement'
  | 'insertelement'
  | 'shufflevector'
  | 'cmp'
  | 'ret'
  | 'br'
  | 'switch'
  | 'unreachable'
  | 'phi'
  | 'alloca'
  | 'load'
  | 'store'
  | 'extractvalue'
  | 'insertvalue'
  | 'call'
  | 'fence'
  | 'cmpxchg'
  | 'atomicrmw'
  | 'vaarg';

export class Instruction extends Value {
  declare op: InstOp;
  /** Operands in LLVM's order (for call: the arguments; the callee is apart). */
  declare ops: Value[];
  /** Block operands (br, switch, phi incoming blocks) as block indices. */
  declare blocks: number[];
  /** binop/cast opcode, cmp predicate, atomicrmw operation. */
  declare sub: number;
  /** binop flags (nuw/nsw/exact/fast-math), call calling convention info. */
  declare flags: number;
  /** extractvalue/insertvalue indices. */
  declare indices: number[];
  /** switch case values (constants). */
  declare cases: Value[];
  declare caseIds: number[];
  /** load/store/alloca/cmpxchg alignment in bytes. */
  declare align: number;
  declare volatile: boolean;
  declare ordering: number;
  declare failOrdering: number;
  declare scope: number;
  declare weak: boolean;
  declare inbounds: boolean;
  /** gep source type, alloca allocated type, load type, call function type. */
  declare explicitType: Type | undefined;
  declare callee: Value | undefined;
  declare attrs: AttributeList | undefined;
  declare dbg: DebugLoc | undefined;
  /** Metadata attachments: [kind id, metadata id]. */
  declare attachments: [number, number][];
  /** A number a pass keeps on the instruction, valid only while the pass's own table holds the
   * instruction at that number: the printer's operand text (printer.ts numberFunction, as for Block
   * and Argument), the DXIL lifter's numbering (lift/dxil/lift.ts liftBody). */
  declare slot: number;
  constructor(op: InstOp, type: Type) {
    super('inst', type);
    this.op = op;
    this.ops = NONE;
    this.blocks = NONE;
    this.sub = 0;
    this.flags = 0;
    this.indices = NONE;
    this.cases = NONE;
    this.caseIds = NONE;
    this.align = 0;
    this.volatile = false;
    this.ordering = 0;
    this.failOrdering = 0;
    this.scope = 1;
    this.weak = false;
    this.inbounds = false;
    this.explicitType = undefined;
    this.callee = undefined;
    this.attrs = undefined;
    this.dbg = undefined;
    this.attachments = NONE;
    this.slot = -1;
  }

  /**
   * A copy with other operands and result type (the DXIL lifter's view of one lane of a vector
   * instruction): made by the constructor and every field set after, in the constructor's order,
   * so that the copy has the hidden class of the instructions the reader makes (Object.create and
   * Object.assign gave copies a class of their own: a fifth of lifting a long-vector program, and
   * polymorphic reads in the lifters). A field added above is copied here too.
   */
  withOperands(ops: Value[], type: Type): Instruction {
    const c = new Instruction(this.op, type);
    c.name = this.name;
    c.ops = ops;
    c.blocks = this.blocks;
    c.sub = this.sub;
    c.flags = this.flags;
    c.indices = this.indices;
    c.cases = this.cases;
    c.caseIds = this.caseIds;
    c.align = this.align;
    c.volatile = this.volatile;
    c.ordering = this.ordering;
    c.failOrdering = this.failOrdering;
    c.scope = this.scope;
    c.weak = this.weak;
    c.inbounds = this.inbounds;
    c.explicitType = this.explicitType;
    c.callee = this.callee;
    c.attrs = this.attrs;
    c.dbg = this.dbg;
    c.attachments = this.attachments;
    c.slot = this.slot;
    return c;
  }
}

export class Block extends Value {
  index: number;
  insts: Instruction[] = objectList();
  /** Predecessor uses, most recent first (LLVM's use-list order). */
  preds: Block[] = objectList();
  slot = -1;
  constructor(label: Type, index: number) {
    super('block', label);
    this.index = index;
  }
}

export class Argument extends Value {
  index: number;
  slot = -1;
  constructor(type: Type, index: number) {
    super('arg', type);
    this.index = index;
  }
}

export class Func extends Value {
  fnType: Type;
  callingConv = 0;
  isProto = false;
  linkage = 0;
  attrs: AttributeList | undefined;
  align = 0;
  section = 0;
  visibility = 0;
  unnamedAddr = false;
  dllStorage = 0;
  args: Argument[] = objectList();
  blocks: Block[] = objectList();
  /** Function-level metadata attachments. */
  attachments: [number, number][] = objectList();
  /** Function-local metadata (ids from the module's count on). */
  localMetadata: Metadata[] = objectList();
  constructor(ptrType: Type, fnType: Type) {
    super('function', ptrType);
    this.fnType = fnType;
  }
}

/** Metadata: strings and values print inline; nodes get slots. */
export type Metadata =
  | { readonly k: 'string'; readonly s: string }
  | { readonly k: 'value'; readonly type: Type; readonly id: number; v?: Value | undefined }
  | {
      readonly k: 'node';
      readonly distinct: boolean;
      /** Operand metadata ids + 1 (0 = null). */
      readonly ops: readonly number[];
      /** Specialised node name (DILocation...), undefined for a generic node. */
      readonly di?: string | undefined;
      /** Raw record operands of a specialised node. */
      readonly record?: readonly number[] | undefined;
    };

export interface NamedMetadata {
  readonly name: string;
  readonly ops: readonly number[]; // metadata ids
}

// The reader's metadata, attribute groups and module are made by these constructors, not by object
// literals (issue 17, docs/benchmarks.md, the nineteenth session). V8 gives each literal an
// allocation site and may switch a site, for good, to allocating in the old generation. A batch
// that keeps the modules it reads switches these: each old record then holds the young values,
// types and operand lists it points at through every young collection, so the whole of each next
// module was copied and promoted, and reading one took 3.4 times as long. An instance of a class has
// no allocation site: it is made young. Each kind keeps one shape (a node's debug-info fields are
// always there, undefined for a generic node).

export class MetadataString {
  readonly k = 'string';
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
}

export class MetadataValue {
  readonly k = 'value';
  readonly type: Type;
  readonly id: number;
  /** The value, once the table it names is read (ModuleReader.resolveMetadataValue). */
  v: Value | undefined = undefined;
  constructor(type: Type, id: number) {
    this.type = type;
    this.id = id;
  }
}

export class MetadataNode {
  readonly k = 'node';
  readonly distinct: boolean;
  readonly ops: readonly number[];
  readonly di: string | undefined;
  readonly record: readonly number[] | undefined;
  constructor(distinct: boolean, ops: readonly number[], di?: string, record?: readonly number[]) {
    this.distinct = distinct;
    this.ops = ops;
    this.di = di;
    this.record = record;
  }
}

export class NamedNode implements NamedMetadata {
  readonly name: string;
  readonly ops: readonly number[];
  constructor(name: string, ops: readonly number[]) {
    this.name = name;
    this.ops = ops;
  }
}

export interface Module {
  triple: string;
  datalayout: string;
  types: Type[];
  globals: GlobalVar[];
  functions: Func[];
  /** The module-level value table (globals, functions, aliases, module constants). */
  values: Value[];
  metadata: Metadata[];
  named: NamedMetadata[];
  /** Metadata kind names by id. */
  kinds: Map<number, string>;
  attributeGroups: Map<number, AttributeGroup>;
  attributeLists: AttributeList[];
  sections: string[];
  identification: string | undefined;
  version: number;
}

/** A module as the reader makes it, every list empty (see MetadataString on why a class). */
export class ModuleData implements Module {
  triple = '';
  datalayout = '';
  types: Type[] = objectList();
  globals: GlobalVar[] = objectList();
  functions: Func[] = objectList();
  values: Value[] = objectList();
  metadata: Metadata[] = objectList();
  named: NamedMetadata[] = objectList();
  kinds = new Map<number, string>();
  attributeGroups = new Map<number, AttributeGroup>();
  attributeLists: AttributeList[] = objectList();
  sections: string[] = [];
  identification: string | undefined = undefined;
  version = 0;
}
