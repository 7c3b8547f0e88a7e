// The in-memory LLVM 3.7 module a DXIL part holds, as the module reader (module.ts) fills it and
// the printer (printer.ts) prints it: types, values (globals, functions, constants, arguments,
// instructions), basic blocks, metadata and attribute sets. Operands are resolved to objects once a
// function is read, so the printer never sees raw value ids.

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
  elts: Type[] = [];
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

export class Value {
  kind: ValueKind;
  type: Type;
  name: string | undefined;
  constructor(kind: ValueKind, type: Type) {
    this.kind = kind;
    this.type = type;
  }
}

export class Constant extends Value {
  ck: ConstKind;
  /** int: the value as a signed bigint; float: the bit pattern. */
  bits = 0n;
  /** aggregate / ce operands, resolved. */
  ops: Value[] = [];
  /** raw value ids of the operands (absolute), before resolution. */
  opIds: number[] = [];
  /** data: the element values (raw bit patterns). */
  data: bigint[] = [];
  /** string/cstring bytes. */
  bytes: number[] = [];
  /** ce-binop/ce-cast/ce-cmp: the sub-opcode or predicate; ce-gep: 1 when inbounds. */
  sub = 0;
  flags = 0;
  /** ce-gep: the source element type. */
  srcType: Type | undefined;
  /** ce operand types where the record gives them. */
  opTypes: (Type | undefined)[] = [];
  constructor(type: Type, ck: ConstKind) {
    super('const', type);
    this.ck = ck;
  }
}

export interface AttributeEntry {
  /** 'enum' flag (name), 'int' with a value, 'string' key with optional value. */
  readonly kind: 'enum' | 'int' | 'string';
  readonly key: string;
  readonly value?: string;
  readonly int?: number;
}

/** One attribute group: its index (0 return, 0xffffffff function, i parameter i) and entries. */
export interface AttributeGroup {
  readonly id: number;
  readonly index: number;
  readonly attrs: readonly AttributeEntry[];
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

/** An operand before resolution: a value id, or a metadata id for metadata-typed call arguments. */
export interface PendingOperand {
  readonly id: number;
  readonly type: Type | undefined;
  readonly metadata: boolean;
}

export class Instruction extends Value {
  op: InstOp;
  /** Operands in LLVM's order (for call: the arguments, then the callee last is NOT included; see callee). */
  ops: Value[] = [];
  pending: PendingOperand[] = [];
  /** Block operands (br, switch, phi incoming blocks) as block indices. */
  blocks: number[] = [];
  /** binop/cast opcode, cmp predicate, atomicrmw operation. */
  sub = 0;
  /** binop flags (nuw/nsw/exact/fast-math), call calling convention info. */
  flags = 0;
  /** extractvalue/insertvalue indices. */
  indices: number[] = [];
  /** switch case values (constants). */
  cases: Value[] = [];
  caseIds: number[] = [];
  /** load/store/alloca/cmpxchg alignment in bytes. */
  align = 0;
  volatile = false;
  ordering = 0;
  failOrdering = 0;
  scope = 1;
  weak = false;
  inbounds = false;
  /** gep source type, alloca allocated type, load type, call function type. */
  explicitType: Type | undefined;
  callee: Value | undefined;
  calleeId: PendingOperand | undefined;
  attrs: AttributeList | undefined;
  dbg: DebugLoc | undefined;
  /** Metadata attachments: [kind id, metadata id]. */
  attachments: [number, number][] = [];
  /** The slot in the function's value numbering (printer), -1 if none. */
  slot = -1;
  constructor(op: InstOp, type: Type) {
    super('inst', type);
    this.op = op;
  }
}

export class Block extends Value {
  index: number;
  insts: Instruction[] = [];
  /** Predecessor uses, most recent first (LLVM's use-list order). */
  preds: Block[] = [];
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
  args: Argument[] = [];
  blocks: Block[] = [];
  /** Function-level metadata attachments. */
  attachments: [number, number][] = [];
  /** Function-local metadata (ids from the module's count on). */
  localMetadata: Metadata[] = [];
  constructor(ptrType: Type, fnType: Type) {
    super('function', ptrType);
    this.fnType = fnType;
  }
}

/** Metadata: strings and values print inline; nodes get slots. */
export type Metadata =
  | { readonly k: 'string'; readonly s: string }
  | { readonly k: 'value'; readonly type: Type; readonly id: number; v?: Value }
  | {
      readonly k: 'node';
      readonly distinct: boolean;
      /** Operand metadata ids + 1 (0 = null). */
      readonly ops: readonly number[];
      /** Specialised node name (DILocation...), undefined for a generic node. */
      readonly di?: string;
      /** Raw record operands of a specialised node. */
      readonly record?: readonly number[];
    };

export interface NamedMetadata {
  readonly name: string;
  readonly ops: readonly number[]; // metadata ids
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
