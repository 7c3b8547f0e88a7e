// Prints a module as LLVM 3.7's AsmWriter does (Module::print with dxc's annotation writer):
// datalayout and triple, the struct types in TypeFinder order, globals, functions with numbered
// values, blocks with their predecessors, instructions with dx.op comments, attribute groups, named
// metadata and the numbered metadata nodes. The order of every list follows LLVM's SlotTracker.

import {
  type Argument,
  type AttributeList,
  Block,
  Constant,
  Func,
  GlobalVar,
  Instruction,
  type Metadata,
  type Module,
  Type,
  type Value,
} from './ir.js';
import { MetadataValue } from './function.js';
import { escapeBytes, escapeString, flat, formatFP, llvmName, metadataName } from './format.js';
import { printDiNode } from './di-printer.js';
import {
  BINOPS,
  FP_BINOPS,
  CASTS,
  PREDICATES,
  RMW_OPS,
  ORDERINGS,
  LINKAGES,
  FN_INDEX,
  ccName,
  mdNodeRefs,
  sortAttachments,
  isNull,
  nullOf,
  binopFlags,
  fmfText,
  atomicText,
  attrText,
  attrString,
  groupsAt,
} from './printer-support.js';

/** Whether a type has element, member, return or parameter types (TypeFinder walks into it). */
function hasSubtypes(t: Type): boolean {
  const k = t.kind;
  return k === 'ptr' || k === 'array' || k === 'vector' || k === 'struct' || k === 'fn';
}

/** Spaces to pad block labels to their predecessors comment, by count (made once each). */
const PADDING: string[] = [];
function padding(n: number): string {
  return n <= 64 ? (PADDING[n] ??= ' '.repeat(n)) : ' '.repeat(n);
}

/** The attribute texts of one call attribute list (ModulePrinter.callAttrs). */
interface CallAttrTexts {
  /** The return value's, inline ('' for none). */
  readonly ret: string;
  /** The function's, as a group (`#N`'s body). */
  readonly fn: string;
  /** Parameter k + 1's at k, inline (undefined or '' for none). */
  readonly params: readonly string[];
}

/** The text of calls of one callee around their arguments (ModulePrinter.callText), and its key. */
interface CallText {
  readonly flags: number;
  readonly attrs: AttributeList | undefined;
  readonly fty: Type;
  readonly open: string;
  readonly close: string;
}

/** Extra text after an instruction (dxc's annotation writer: line comments and dx.op names). */
export type InstructionComment = (inst: Instruction, fn: Func, printer: ModulePrinter) => string;

export class ModulePrinter {
  private readonly m: Module;
  private readonly out: string[] = [];
  private readonly numberedTypes = new Map<Type, number>();
  private readonly namedTypes: Type[] = [];
  private readonly mdSlots = new Map<Metadata, number>();
  private readonly mdNodes: Metadata[] = [];
  private readonly attrSlots = new Map<string, number>();
  private readonly attrSets: string[] = [];
  private readonly globalSlots = new Map<Value, number>();
  /**
   * Operand text (`%3`, `%name`) of the current function's arguments, blocks and instructions,
   * made once by numberFunction: most values are printed more than once. A value's text is at its
   * `slot`, which holds only while the value at that slot is the value itself (a slot left from
   * another function or printer is passed over).
   */
  private readonly localValues: Value[] = [];
  private readonly localTexts: string[] = [];
  /**
   * Operand and typed text of constants, globals and functions, made on first use while print()
   * runs (when types and global slots are numbered, so the text can no longer change).
   */
  private readonly moduleTexts = new Map<Value, string>();
  private readonly moduleTypedTexts = new Map<Value, string>();
  private numbered = false;
  private fn: Func | undefined;
  private readonly comment: InstructionComment | undefined;
  private readonly typeNames = new Map<Type, string>();

  constructor(m: Module, comment?: InstructionComment) {
    this.m = m;
    this.comment = comment;
  }

  /** Metadata by id: module metadata, then the current function's. */
  md(id: number, f: Func | undefined = this.fn): Metadata | undefined {
    if (id < this.m.metadata.length) return this.m.metadata[id];
    return f?.localMetadata[id - this.m.metadata.length];
  }

  print(): string {
    const m = this.m;
    this.findTypes();
    this.numberModule();
    this.numbered = true;
    const o = this.out;
    if (m.datalayout) o.push(`target datalayout = "${escapeString(m.datalayout)}"\n`);
    if (m.triple) o.push(`target triple = "${escapeString(m.triple)}"\n`);
    if (this.numberedTypes.size || this.namedTypes.length) {
      o.push('\n');
      const nums = [...this.numberedTypes].sort((a, b) => a[1] - b[1]);
      for (const [t, n] of nums) o.push(`%${n} = type ${this.structBody(t)}\n`);
      for (const t of this.namedTypes) o.push(`${llvmName('%', t.name!)} = type ${this.structBody(t)}\n`);
    }
    if (m.globals.length) o.push('\n');
    for (const g of m.globals) {
      this.printGlobal(g);
      o.push('\n');
    }
    for (const f of m.functions) this.printFunction(f);
    if (this.attrSets.length) {
      o.push('\n');
      this.attrSets.forEach((s, i) => o.push(`attributes #${i} = { ${s} }\n`));
    }
    if (m.named.length) o.push('\n');
    for (const n of m.named) {
      o.push(
        `!${metadataName(n.name)} = !{${n.ops.map((id) => '!' + this.mdSlots.get(this.md(id, undefined)!)).join(', ')}}\n`,
      );
    }
    if (this.mdNodes.length) {
      o.push('\n');
      const nodes = this.mdNodes;
      for (let i = 0; i < nodes.length; i++) {
        this.fn = this.mdOwners[i];
        o.push(`!${i} = ${this.mdBody(nodes[i]!)}\n`);
      }
      this.fn = undefined;
    }
    return o.join('');
  }

  private readonly locations = new Map<string, Metadata>();
  /** The uniqued DILocation node of an instruction's debug location. */
  private location(i: Instruction): Metadata {
    const d = i.dbg!;
    const key = `${d.line},${d.col},${d.scope},${d.inlinedAt}`;
    let md = this.locations.get(key);
    if (!md) {
      md = {
        k: 'node',
        distinct: false,
        ops: [],
        di: 'DILocation',
        record: [0, d.line, d.col, d.scope - 1, d.inlinedAt],
      };
      this.locations.set(key, md);
    }
    return md;
  }

  // ---- slot numbering (SlotTracker) ----
  /** The function whose local metadata each numbered node may refer to, by slot. */
  private readonly mdOwners: (Func | undefined)[] = [];
  /** CreateMetadataSlot: a slot for the node, then its node operands in order (depth first). */
  private mdSlot(md0: Metadata | undefined, f: Func | undefined): void {
    if (!md0 || md0.k !== 'node' || this.mdSlots.has(md0)) return;
    // The open nodes' operand lists (a generic node's ops are ids + 1, 0 for null; a specialised
    // node's are diRefs' ids), as parallel lists with the next operand of each.
    const lists: (readonly number[])[] = [];
    const generic: boolean[] = [];
    const next: number[] = [];
    let top = -1;
    let md: Metadata | undefined = md0;
    for (;;) {
      if (md !== undefined) {
        this.mdSlots.set(md, this.mdNodes.length);
        this.mdNodes.push(md);
        this.mdOwners.push(f);
        top++;
        const isGeneric = md.k === 'node' && !md.di;
        lists[top] = isGeneric ? (md as Extract<Metadata, { k: 'node' }>).ops : mdNodeRefs(md);
        generic[top] = isGeneric;
        next[top] = 0;
        md = undefined;
      }
      if (top < 0) return;
      const list = lists[top]!;
      const k = next[top]!;
      if (k >= list.length) {
        top--;
        continue;
      }
      next[top] = k + 1;
      let id = list[k]!;
      if (generic[top]) {
        if (id === 0) continue;
        id--;
      }
      const op = this.md(id, f);
      if (op && op.k === 'node' && !this.mdSlots.has(op)) md = op;
    }
  }

  private numberModule(): void {
    const m = this.m;
    let next = 0;
    for (const g of m.globals) if (!g.name) this.globalSlots.set(g, next++);
    for (const n of m.named) for (const id of n.ops) this.mdSlot(this.md(id, undefined), undefined);
    for (const f of m.functions) {
      if (!f.name) this.globalSlots.set(f, next++);
      if (f.attachments.length) for (const [, id] of sortAttachments(f.attachments)) this.mdSlot(this.md(id, f), f);
      for (const bb of f.blocks)
        for (const inst of bb.insts) {
          if (inst.op === 'call' && inst.callee instanceof Func && inst.callee.name?.startsWith('llvm.'))
            for (const op of inst.ops) if (op instanceof MetadataValue) this.mdSlot(this.md(op.mdId, f), f);
          if (inst.dbg) this.mdSlot(this.location(inst), f);
          if (inst.attachments.length)
            for (const [, id] of sortAttachments(inst.attachments)) this.mdSlot(this.md(id, f), f);
        }
      const fa = this.attrs(f.attrs, FN_INDEX, true);
      if (fa) this.attrSlot(fa);
    }
  }

  /**
   * A call's attribute texts, made once per attribute list (lists are shared between calls): the
   * return's and each parameter's inline, the function's as a group.
   */
  private readonly callAttrTexts = new Map<AttributeList, CallAttrTexts>();
  private callAttrs(list: AttributeList): CallAttrTexts {
    let t = this.callAttrTexts.get(list);
    if (t === undefined) {
      // Indexed by parameter index - 1; only the parameters that have groups (a list read from a
      // malformed module may name any index, so no dense array up to the largest).
      const params: string[] = [];
      for (const g of list)
        if (g.index !== 0 && g.index !== FN_INDEX && params[g.index - 1] === undefined)
          params[g.index - 1] = flat(attrString(list, g.index, false));
      t = { ret: flat(attrString(list, 0, false)), fn: flat(attrString(list, FN_INDEX, true)), params };
      this.callAttrTexts.set(list, t);
    }
    return t;
  }

  /** attrString of one attribute list (lists are shared between calls), by index and form. */
  private readonly attrTexts = new Map<AttributeList, Map<number, string>>();
  private attrs(list: AttributeList | undefined, index: number, inGroup: boolean): string {
    if (!list) return '';
    let texts = this.attrTexts.get(list);
    if (!texts) this.attrTexts.set(list, (texts = new Map()));
    const key = index * 2 + (inGroup ? 1 : 0);
    let s = texts.get(key);
    if (s === undefined) texts.set(key, (s = flat(attrString(list, index, inGroup))));
    return s;
  }

  private attrSlot(s: string): number {
    let n = this.attrSlots.get(s);
    if (n === undefined) {
      n = this.attrSets.length;
      this.attrSlots.set(s, n);
      this.attrSets.push(s);
    }
    return n;
  }

  private numberFunction(f: Func): void {
    // SlotTracker numbers the values without a name (an empty name counts as none, yet prints as
    // `%""`); a named value prints its name.
    this.localValues.length = 0;
    this.localTexts.length = 0;
    let n = 0;
    for (const a of f.args) this.setLocal(a, a.name ? flat(llvmName('%', a.name)) : this.localText(a, n++));
    for (const bb of f.blocks) {
      this.setLocal(bb, bb.name ? flat(llvmName('%', bb.name)) : this.localText(bb, n++));
      for (const inst of bb.insts) {
        if (inst.name) this.setLocal(inst, flat(llvmName('%', inst.name)));
        else if (inst.type.kind !== 'void') this.setLocal(inst, this.localText(inst, n++));
        if (inst.op === 'call' && inst.attrs) {
          const s = this.callAttrs(inst.attrs).fn;
          if (s) this.attrSlot(s);
        }
      }
    }
  }

  private setLocal(v: Argument | Block | Instruction, text: string): void {
    v.slot = this.localValues.length;
    this.localValues.push(v);
    this.localTexts.push(text);
  }

  /** The operand text numberFunction made for a value of the current function, if it did. */
  private local(v: Value): string | undefined {
    const k = (v as Argument | Block | Instruction).slot;
    return k >= 0 && this.localValues[k] === v ? this.localTexts[k] : undefined;
  }

  /** The operand text of an unnamed (or empty-named) local value given slot n. */
  private localText(v: Value, n: number): string {
    return v.name !== undefined ? flat(llvmName('%', v.name)) : `%${n}`;
  }

  // ---- types (TypeFinder + TypePrinting) ----
  private findTypes(): void {
    const visited = new Set<Type>();
    const visitedConst = new Set<Value>();
    const visitedMd = new Set<Metadata>();
    const found: Type[] = [];
    // Only the identified (non-literal) structs are numbered or printed, and every one of them is
    // in the type table (a literal struct may be made outside it, never an identified one): once
    // the walk has found all the table's, nothing it could still find changes the listing, so it
    // stops there. A module made by hand rather than read may leave holes in its type list:
    // passed over.
    const wanted = new Set<Type>();
    for (const t of this.m.types) if (t?.kind === 'struct' && !t.literal) wanted.add(t);
    let left = wanted.size;
    if (left === 0) return;
    const work: Type[] = [];
    const type = (t0: Type): void => {
      if (!hasSubtypes(t0) || visited.has(t0)) return;
      visited.add(t0);
      work.push(t0);
      while (work.length) {
        const t = work.pop()!;
        if (t.kind === 'struct') {
          found.push(t);
          if (!t.literal && wanted.has(t)) left--;
        }
        // The subtypes (subtypes(t): the element, or the members, or the return type then the
        // parameters) pushed last first, so they are visited in order; no list made for them.
        const k = t.kind;
        if (k === 'struct' || k === 'fn') {
          const elts = t.elts;
          for (let i = elts.length - 1; i >= 0; i--) visit(elts[i]!);
        }
        if (k !== 'struct') visit(t.elt!);
      }
    };
    const visit = (s: Type): void => {
      if (hasSubtypes(s) && !visited.has(s)) {
        visited.add(s);
        work.push(s);
      }
    };
    const value = (v: Value, f: Func | undefined): void => {
      if (v instanceof MetadataValue) {
        const md = this.md(v.mdId, f);
        if (md?.k === 'node') mdNode(md, f);
        else if (md?.k === 'value' && md.v) value(md.v, f);
        return;
      }
      if (!(v instanceof Constant)) return;
      if (v.ops.length === 0 && !hasSubtypes(v.type)) return; // a scalar: nothing to find
      if (visitedConst.has(v)) return;
      visitedConst.add(v);
      type(v.type);
      for (const op of v.ops) value(op, f);
    };
    const mdNode = (md0: Metadata, f: Func | undefined): void => {
      if (visitedMd.has(md0)) return;
      visitedMd.add(md0);
      if (md0.k !== 'node') return;
      // Depth first: the open nodes and the next operand of each, as two parallel lists.
      const nodes: Extract<Metadata, { k: 'node' }>[] = [md0];
      const next: number[] = [0];
      let top = 0;
      while (top >= 0) {
        const md = nodes[top]!;
        const i = next[top]!;
        if (i >= md.ops.length) {
          top--;
          continue;
        }
        next[top] = i + 1;
        const id = md.ops[i]!;
        if (id === 0) continue;
        const op = this.md(id - 1, f);
        if (!op) continue;
        if (op.k === 'node') {
          if (!visitedMd.has(op)) {
            visitedMd.add(op);
            top++;
            nodes[top] = op;
            next[top] = 0;
          }
        } else if (op.k === 'value' && op.v instanceof Constant) value(op.v, f);
      }
    };
    const m = this.m;
    walk: {
      for (const g of m.globals) {
        type(g.type);
        if (g.init) value(g.init, undefined);
        if (left === 0) break walk;
      }
      for (const f of m.functions) {
        type(f.type);
        for (const a of f.args) value(a, f);
        if (left === 0) break walk;
        for (const bb of f.blocks)
          for (const inst of bb.insts) {
            type(inst.type);
            // Only constants and metadata operands lead to more types (value() skips the rest).
            for (const op of inst.ops) if (op.kind === 'const' || op.kind === 'md') value(op, f);
            if (inst.cases.length) for (const c of inst.cases) value(c, f);
            for (const [, id] of inst.attachments) {
              const md = this.md(id, f);
              if (md) mdNode(md, f);
            }
            if (left === 0) break walk;
          }
      }
      for (const n of m.named)
        for (const id of n.ops) {
          const md = this.md(id, undefined);
          if (md) mdNode(md, undefined);
          if (left === 0) break walk;
        }
    }
    let next = 0;
    for (const t of found) {
      if (t.literal) continue;
      if (!t.name) this.numberedTypes.set(t, next++);
      else this.namedTypes.push(t);
    }
  }

  typeName(t: Type): string {
    let s = this.typeNames.get(t);
    if (s === undefined) {
      s = this.typeNameUncached(t);
      this.typeNames.set(t, flat(s));
    }
    return s;
  }

  private typeNameUncached(t: Type): string {
    switch (t.kind) {
      case 'int':
        return `i${t.width}`;
      case 'ptr':
        return `${this.typeName(t.elt!)}${t.addrSpace ? ` addrspace(${t.addrSpace})` : ''}*`;
      case 'array':
        return `[${t.count} x ${this.typeName(t.elt!)}]`;
      case 'vector':
        return `<${t.count} x ${this.typeName(t.elt!)}>`;
      case 'struct':
        if (t.literal) return this.structBody(t);
        if (t.name) return llvmName('%', t.name);
        {
          const n = this.numberedTypes.get(t);
          return n === undefined ? '%"type 0x0"' : `%${n}`;
        }
      case 'fn': {
        const ps = t.elts.map((p) => this.typeName(p));
        if (t.vararg) ps.push('...');
        return `${this.typeName(t.elt!)} (${ps.join(', ')})`;
      }
      case 'void':
      case 'half':
      case 'float':
      case 'double':
      case 'x86_fp80':
      case 'fp128':
      case 'ppc_fp128':
      case 'label':
      case 'metadata':
      case 'x86_mmx':
        return t.kind;
    }
  }

  private structBody(t: Type): string {
    if (t.opaque) return 'opaque';
    const inner = t.elts.length ? `{ ${t.elts.map((e) => this.typeName(e)).join(', ')} }` : '{}';
    return t.packed ? `<${inner}>` : inner;
  }

  // ---- values ----
  /** WriteAsOperandInternal: the value without its type. */
  operand(v: Value): string {
    const k = v.kind;
    if (k === 'inst' || k === 'arg' || k === 'block') {
      // A named value is in localTexts only when it belongs to the function being printed.
      const s = this.local(v);
      if (s !== undefined) return s;
      return v.name !== undefined ? llvmName('%', v.name) : '%<badref>';
    }
    if (v instanceof MetadataValue) return this.mdOperand(v.mdId);
    if (!this.numbered) return this.moduleOperand(v);
    let s = this.moduleTexts.get(v);
    if (s === undefined) this.moduleTexts.set(v, (s = flat(this.moduleOperand(v))));
    return s;
  }

  /** The operand text of a constant, global, function or alias. */
  private moduleOperand(v: Value): string {
    if (v instanceof Constant) return this.constant(v);
    if (v.kind === 'global' || v.kind === 'function' || v.kind === 'alias') {
      if (v.name !== undefined) return llvmName('@', v.name);
      const n = this.globalSlots.get(v);
      return n === undefined ? '@<badref>' : `@${n}`;
    }
    if (v.name !== undefined) return llvmName('%', v.name);
    return '%<badref>';
  }

  typed(v: Value): string {
    const k = v.kind;
    if (k === 'inst' || k === 'arg' || k === 'block' || k === 'md' || !this.numbered)
      return `${this.typeName(v.type)} ${this.operand(v)}`;
    let s = this.moduleTypedTexts.get(v);
    if (s === undefined) this.moduleTypedTexts.set(v, (s = flat(`${this.typeName(v.type)} ${this.operand(v)}`)));
    return s;
  }

  constant(c: Constant): string {
    const t = c.type;
    switch (c.ck) {
      case 'int':
        return t.width === 1 ? (c.bits & 1n ? 'true' : 'false') : BigInt.asIntN(t.width, c.bits).toString();
      case 'float':
        return formatFP(t.kind as 'half' | 'float' | 'double', c.bits);
      case 'undef':
        return 'undef';
      case 'null':
        return nullOf(t);
      case 'aggregate':
        return this.aggregate(t, c.ops);
      case 'string':
      case 'cstring': {
        const bytes = c.ck === 'cstring' ? [...c.bytes, 0] : c.bytes;
        return this.dataArray(
          t,
          bytes.map((b) => BigInt(b)),
        );
      }
      case 'data':
        return this.dataArray(t, c.data);
      case 'ce-cast':
        return `${CASTS[c.sub] ?? `cast${c.sub}`} (${this.typed(c.ops[0]!)} to ${this.typeName(t)})`;
      case 'ce-gep': {
        const src = c.srcType ?? c.ops[0]!.type.elt!;
        return `getelementptr${c.sub ? ' inbounds' : ''} (${this.typeName(src)}, ${this.typedList(c.ops)})`;
      }
      case 'ce-binop': {
        const fp = c.ops[0]!.type.isFPOrFPVector();
        const name = fp ? (FP_BINOPS[c.sub] ?? `binop${c.sub}`) : (BINOPS[c.sub] ?? `binop${c.sub}`);
        return `${name}${binopFlags(name, c.flags)} (${this.typedList(c.ops)})`;
      }
      case 'ce-select':
        return `select (${this.typedList(c.ops)})`;
      case 'ce-extractelement':
        return `extractelement (${this.typedList(c.ops)})`;
      case 'ce-insertelement':
        return `insertelement (${this.typedList(c.ops)})`;
      case 'ce-shufflevector':
        return `shufflevector (${this.typedList(c.ops)})`;
      case 'ce-cmp': {
        const fp = c.ops[0]!.type.isFPOrFPVector();
        return `${fp ? 'fcmp' : 'icmp'} ${PREDICATES[c.sub] ?? c.sub} (${this.typedList(c.ops)})`;
      }
      case 'blockaddress':
      case 'inlineasm':
        return '<unsupported>';
    }
  }

  private aggregate(t: Type, ops: readonly Value[]): string {
    if (ops.length && ops.every((v) => isNull(v))) return 'zeroinitializer';
    if (ops.length && ops.every((v) => v instanceof Constant && v.ck === 'undef')) return 'undef';
    if (t.kind === 'struct') {
      const inner = ops.length ? `{ ${this.typedList(ops)} }` : '{}';
      return t.packed ? `<${inner}>` : inner;
    }
    if (
      t.kind === 'array' &&
      t.elt!.kind === 'int' &&
      t.elt!.width === 8 &&
      ops.every((v) => v instanceof Constant && v.ck === 'int')
    )
      return `c"${escapeBytes(ops.map((v) => Number((v as Constant).bits & 0xffn)))}"`;
    const body = this.typedList(ops);
    return t.kind === 'vector' ? `<${body}>` : `[${body}]`;
  }

  private dataArray(t: Type, data: readonly bigint[]): string {
    const e = t.elt!;
    if (data.every((d) => d === 0n)) return 'zeroinitializer';
    if (t.kind === 'array' && e.kind === 'int' && e.width === 8)
      return `c"${escapeBytes(data.map((d) => Number(d & 0xffn)))}"`;
    const et = this.typeName(e);
    const body = data
      .map(
        (d) =>
          `${et} ${e.kind === 'int' ? (e.width === 1 ? (d & 1n ? 'true' : 'false') : BigInt.asIntN(e.width, d).toString()) : formatFP(e.kind as 'float', d)}`,
      )
      .join(', ');
    return t.kind === 'vector' ? `<${body}>` : `[${body}]`;
  }

  // ---- metadata ----
  mdOperand(id: number): string {
    const md = this.md(id);
    if (!md) return '<badref>';
    if (md.k === 'string') return `!"${escapeString(md.s)}"`;
    if (md.k === 'value') return md.v ? this.typed(md.v) : '<badref>';
    const n = this.mdSlots.get(md);
    return n === undefined ? '<badref>' : `!${n}`;
  }

  /** A node's body as `!N = ` would be followed by (MDNode::printAsBody). */
  mdBody(md: Metadata): string {
    if (md.k !== 'node') return this.mdOperandOf(md);
    if (md.di)
      return (
        (md.distinct ? 'distinct ' : '') +
        printDiNode({ mdOperand: (id) => this.mdOperand(id), mdAt: (id) => this.md(id) }, md)
      );
    let s = md.distinct ? 'distinct !{' : '!{';
    const ops = md.ops;
    for (let k = 0; k < ops.length; k++) {
      const id = ops[k]!;
      if (k) s += ', ';
      s += id === 0 ? 'null' : this.mdOperand(id - 1);
    }
    return s + '}';
  }

  private mdOperandOf(md: Metadata): string {
    if (md.k === 'string') return `!"${escapeString(md.s)}"`;
    if (md.k === 'value') return md.v ? this.typed(md.v) : '<badref>';
    return `!${this.mdSlots.get(md)}`;
  }

  // ---- globals and functions ----
  private printGlobal(g: GlobalVar): void {
    let s = `${this.operand(g)} = `;
    if (!g.init && (g.linkage === 0 || g.linkage === 5 || g.linkage === 6 || g.linkage === 15)) s += 'external ';
    s += LINKAGES[g.linkage] ?? '';
    s += ['', 'hidden ', 'protected '][g.visibility] ?? '';
    s +=
      ['', 'thread_local ', 'thread_local(localdynamic) ', 'thread_local(initialexec) ', 'thread_local(localexec) '][
        g.tls
      ] ?? '';
    if (g.unnamedAddr) s += 'unnamed_addr ';
    if (g.type.addrSpace) s += `addrspace(${g.type.addrSpace}) `;
    if (g.externallyInitialized) s += 'externally_initialized ';
    s += g.isConstant ? 'constant ' : 'global ';
    s += this.typeName(g.valueType);
    if (g.init) s += ' ' + this.operand(g.init);
    if (g.section) s += `, section "${escapeString(this.m.sections[g.section - 1] ?? '')}"`;
    if (g.align) s += `, align ${g.align}`;
    this.out.push(s);
  }

  private printFunction(f: Func): void {
    const o = this.out;
    this.fn = f;
    o.push('\n');
    const comment = this.fnAttrsComment(f.attrs);
    if (comment) o.push(comment);
    let s = f.isProto ? 'declare ' : 'define ';
    s += LINKAGES[f.linkage] ?? '';
    s += ['', 'hidden ', 'protected '][f.visibility] ?? '';
    if (f.callingConv !== 0) s += `${ccName(f.callingConv)} `;
    const ret = this.attrs(f.attrs, 0, false);
    if (ret) s += ret + ' ';
    s += `${this.typeName(f.fnType.elt!)} ${this.operand(f)}(`;
    this.numberFunction(f);
    const params: string[] = [];
    f.fnType.elts.forEach((pt, i) => {
      let p = this.typeName(pt);
      const pa = this.attrs(f.attrs, i + 1, false);
      if (pa) p += ' ' + pa;
      if (!f.isProto) {
        const a = f.args[i]!;
        if (a.name !== undefined) p += ' ' + llvmName('%', a.name);
      }
      params.push(p);
    });
    if (f.fnType.vararg) params.push('...');
    s += params.join(', ') + ')';
    if (f.unnamedAddr) s += ' unnamed_addr';
    const fa = this.attrs(f.attrs, FN_INDEX, true);
    if (fa) s += ` #${this.attrSlot(fa)}`;
    if (f.section) s += ` section "${escapeString(this.m.sections[f.section - 1] ?? '')}"`;
    if (f.align) s += ` align ${f.align}`;
    if (f.isProto) {
      o.push(s + '\n');
      this.fn = undefined;
      return;
    }
    o.push(s + ' {');
    f.blocks.forEach((bb, i) => this.printBlock(bb, i === 0, f));
    o.push('}\n');
    this.fn = undefined;
  }

  /** `; Function Attrs: ...` of a function's attribute list ('' for none), made once per list. */
  private readonly fnAttrsComments = new Map<AttributeList, string>();
  private fnAttrsComment(list: AttributeList | undefined): string {
    if (!list) return '';
    let s = this.fnAttrsComments.get(list);
    if (s === undefined) {
      const flags = groupsAt(list, FN_INDEX)
        .filter((a) => a.kind !== 'string')
        .map((a) => attrText(a, false));
      s = flags.length ? `; Function Attrs: ${flags.join(' ')}\n` : '';
      this.fnAttrsComments.set(list, s);
    }
    return s;
  }

  private printBlock(bb: Block, entry: boolean, f: Func): void {
    const o = this.out;
    let line = '';
    if (bb.name !== undefined) line = `\n${llvmName('', bb.name)}:`;
    else if (bb.preds.length) line = `\n; <label>:${this.local(bb)?.slice(1)}`;
    if (!entry) {
      const col = line.length - 1; // after the leading newline
      line += padding(Math.max(50 - col, 1)) + ';';
      line += bb.preds.length ? ` preds = ${bb.preds.map((p) => this.operand(p)).join(', ')}` : ' No predecessors!';
    }
    o.push(line + '\n');
    for (const inst of bb.insts) o.push(this.instruction(inst, f) + '\n');
  }

  instruction(i: Instruction, f: Func): string {
    let s = '  ';
    if (i.name !== undefined) s += llvmName('%', i.name) + ' = ';
    else if (i.type.kind !== 'void') s += `${this.local(i) ?? '%undefined'} = `;
    const ops = i.ops;
    switch (i.op) {
      case 'binop': {
        const fp = ops[0]!.type.isFPOrFPVector();
        const name = fp ? (FP_BINOPS[i.sub] ?? `binop${i.sub}`) : (BINOPS[i.sub] ?? `binop${i.sub}`);
        s += name + binopFlags(name, i.flags) + this.sameTypeOperands(ops);
        break;
      }
      case 'cast':
        s += `${CASTS[i.sub] ?? `cast${i.sub}`} ${this.typed(ops[0]!)} to ${this.typeName(i.type)}`;
        break;
      case 'cmp': {
        const fp = ops[0]!.type.isFPOrFPVector();
        s += `${fp ? 'fcmp' : 'icmp'}${fp ? fmfText(i.flags) : ''} ${PREDICATES[i.sub] ?? i.sub}${this.sameTypeOperands(ops)}`;
        break;
      }
      case 'gep':
        s += `getelementptr ${i.inbounds ? 'inbounds ' : ''}${this.typeName(i.explicitType!)}, ${this.typedList(ops)}`;
        break;
      case 'select':
        s += `select ${this.typedList(ops)}`;
        break;
      case 'extractelement':
        s += 'extractelement' + this.sameTypeOperands(ops);
        break;
      case 'insertelement':
        s += 'insertelement' + this.sameTypeOperands(ops);
        break;
      case 'shufflevector':
        s += `shufflevector ${this.typedList(ops)}`;
        break;
      case 'extractvalue':
        s += `extractvalue ${this.typed(ops[0]!)}, ${i.indices.join(', ')}`;
        break;
      case 'insertvalue':
        s += `insertvalue ${this.typed(ops[0]!)}, ${this.typed(ops[1]!)}, ${i.indices.join(', ')}`;
        break;
      case 'ret':
        s += ops.length ? `ret ${this.typedList(ops)}` : 'ret void';
        break;
      case 'br': {
        const bbs = f.blocks;
        if (i.blocks.length === 1) s += `br label ${this.operand(bbs[i.blocks[0]!]!)}`;
        else
          s += `br ${this.typed(ops[0]!)}, label ${this.operand(bbs[i.blocks[0]!]!)}, label ${this.operand(bbs[i.blocks[1]!]!)}`;
        break;
      }
      case 'switch': {
        const bbs = f.blocks;
        s += `switch ${this.typed(ops[0]!)}, label ${this.operand(bbs[i.blocks[0]!]!)} [`;
        i.cases.forEach((c, k) => {
          s += `\n    ${this.typed(c)}, label ${this.operand(bbs[i.blocks[k + 1]!]!)}`;
        });
        s += '\n  ]';
        break;
      }
      case 'unreachable':
        s += 'unreachable';
        break;
      case 'phi':
        s += `phi ${this.typeName(i.type)} ${ops
          .map((v, k) => `[ ${this.operand(v)}, ${this.operand(f.blocks[i.blocks[k]!]!)} ]`)
          .join(', ')}`;
        break;
      case 'alloca': {
        s += `alloca ${this.typeName(i.explicitType!)}`;
        const n = ops[0]!;
        if (!(n instanceof Constant && n.ck === 'int' && n.bits === 1n)) s += `, ${this.typed(n)}`;
        if (i.align) s += `, align ${i.align}`;
        break;
      }
      case 'load':
        s += `load ${i.ordering ? 'atomic ' : ''}${i.volatile ? 'volatile ' : ''}${this.typeName(i.type)}, ${this.typed(ops[0]!)}`;
        if (i.ordering) s += atomicText(i.scope, i.ordering);
        if (i.align) s += `, align ${i.align}`;
        break;
      case 'store':
        s += `store ${i.ordering ? 'atomic ' : ''}${i.volatile ? 'volatile ' : ''}${this.typed(ops[0]!)}, ${this.typed(ops[1]!)}`;
        if (i.ordering) s += atomicText(i.scope, i.ordering);
        if (i.align) s += `, align ${i.align}`;
        break;
      case 'call': {
        const callee = i.callee!;
        const fty = i.explicitType!;
        const at = i.attrs ? this.callAttrs(i.attrs) : undefined;
        // The text around the arguments is the same for every call of a function with the same
        // flags, attributes and type: made once (a local callee's text is per function: not kept).
        const ck = callee.kind;
        const keep = this.numbered && ck !== 'inst' && ck !== 'arg' && ck !== 'block' && ck !== 'md';
        let ct = keep ? this.callTexts.get(callee) : undefined;
        if (ct === undefined || ct.flags !== i.flags || ct.attrs !== i.attrs || ct.fty !== fty) {
          ct = this.callText(i.flags, i.attrs, at, fty, callee);
          if (keep) this.callTexts.set(callee, ct);
        }
        s += ct.open;
        for (let k = 0; k < ops.length; k++) {
          const v = ops[k]!;
          const pa = at?.params[k];
          if (k) s += ', ';
          s += pa ? `${this.typeName(v.type)} ${pa} ${this.operand(v)}` : this.typed(v);
        }
        s += ct.close;
        break;
      }
      case 'fence':
        s += `fence${atomicText(i.scope, i.ordering)}`;
        break;
      case 'atomicrmw':
        s += `atomicrmw ${i.volatile ? 'volatile ' : ''}${RMW_OPS[i.sub] ?? i.sub} ${this.typed(ops[0]!)}, ${this.typed(ops[1]!)}${atomicText(i.scope, i.ordering)}`;
        break;
      case 'cmpxchg':
        s += `cmpxchg ${i.weak ? 'weak ' : ''}${i.volatile ? 'volatile ' : ''}${this.typedList(ops)}${atomicText(i.scope, i.ordering)} ${ORDERINGS[i.failOrdering] ?? ''}`;
        break;
      case 'vaarg':
        s += `va_arg ${this.typed(ops[0]!)}, ${this.typeName(i.type)}`;
        break;
    }
    if (i.dbg) s += `, !dbg !${this.mdSlots.get(this.location(i))}`;
    if (i.attachments.length)
      for (const [kind, id] of sortAttachments(i.attachments)) {
        s += `, !${this.kindName(kind)} ${this.mdOperand(id)}`;
      }
    if (this.comment) s += this.comment(i, f, this);
    return s;
  }

  private readonly callTexts = new Map<Value, CallText>();
  /** A call's text before its arguments (`call ... @f(`) and after them (`)`, ` #N`). */
  private callText(
    flags: number,
    attrs: AttributeList | undefined,
    at: CallAttrTexts | undefined,
    fty: Type,
    callee: Value,
  ): CallText {
    let open = flags & (1 << 14) ? 'musttail call' : flags & 1 ? 'tail call' : 'call';
    const conv = (flags & ~(1 << 14)) >>> 1;
    if (conv & 0x3ff) open += ` ${ccName(conv & 0x3ff)}`;
    if (at?.ret) open += ' ' + at.ret;
    open += ` ${this.typeName(fty.vararg ? fty : fty.elt!)} ${this.operand(callee)}(`;
    const close = at?.fn ? `) #${this.attrSlot(at.fn)}` : ')';
    return { flags, attrs, fty, open: flat(open), close: flat(close) };
  }

  private kindName(kind: number): string {
    return this.m.kinds.get(kind) ?? `<unknown kind #${kind}>`;
  }

  /** The default operand form: one type when every operand has it, else a type per operand. */
  private sameTypeOperands(ops: readonly Value[]): string {
    const n = ops.length;
    if (!n) return '';
    const t = ops[0]!.type;
    let same = true;
    for (let k = 1; k < n; k++) if (ops[k]!.type !== t) same = false;
    if (!same) return ` ${this.typedList(ops)}`;
    let s = ` ${this.typeName(t)} ${this.operand(ops[0]!)}`;
    for (let k = 1; k < n; k++) s += ', ' + this.operand(ops[k]!);
    return s;
  }

  /** Operands with their types, separated by commas. */
  private typedList(ops: readonly Value[]): string {
    let s = '';
    for (let k = 0; k < ops.length; k++) s += (k ? ', ' : '') + this.typed(ops[k]!);
    return s;
  }
}

export { Block };
