// LLVM 3.7's specialised debug-info nodes, kept as their bitcode records (BitcodeWriter's
// WriteDI*: `distinct` first, metadata operands as id + 1, DILocation's scope as the id itself):
// the order of their metadata operands as MDNode operands (which SlotTracker numbers depth first),
// and AsmWriter's `!DIName(field: value, ...)` spelling through MDFieldPrinter's rules (strings
// and metadata skipped when empty or null unless always printed, zero integers skipped, DWARF
// enumerations by name, DIFlags joined by " | ").

import { escapeString } from './format.js';
import type { Metadata } from './ir.js';

type Node = Extract<Metadata, { k: 'node' }>;

export interface DiContext {
  /** `!N`, `!"string"` or a typed value for the metadata with this id. */
  mdOperand(id: number): string;
  /** The metadata with this id. */
  mdAt(id: number): Metadata | undefined;
}

/** Record indices of metadata operands (id + 1) in MDNode operand order, per node kind. */
const NODE_OPERANDS: Readonly<Record<string, readonly number[]>> = {
  DIDerivedType: [3, 5, 2, 6, 11],
  DICompositeType: [3, 5, 2, 6, 11, 13, 14, 15],
  DISubroutineType: [2],
  DICompileUnit: [2, 3, 5, 7, 9, 10, 11, 12, 13],
  DISubprogram: [4, 1, 2, 2, 3, 6, 10, 15, 16, 17, 18],
  DILexicalBlock: [2, 1],
  DILexicalBlockFile: [2, 1],
  DINamespace: [2, 1, 3],
  DITemplateTypeParameter: [1, 2],
  DITemplateValueParameter: [2, 3, 4],
  DIGlobalVariable: [1, 2, 4, 6, 2, 3, 9, 10],
  DILocalVariable: [2, 3, 4, 6],
  DIImportedEntity: [2, 3, 5],
  DIEnumerator: [2],
  DIBasicType: [2],
  DIFile: [1, 2],
  DIObjCProperty: [1, 2, 4, 5, 7],
};

/** Metadata ids a specialised node refers to, in MDNode operand order (for slot numbering). */
export function diRefs(md: Node): number[] {
  const r = md.record ?? [];
  if (md.di === 'DILocation') return r[4] ? [r[3]!, r[4] - 1] : [r[3]!];
  if (md.di === 'GenericDINode' || md.di === 'DIModule') {
    const from = md.di === 'GenericDINode' ? 3 : 1;
    return r
      .slice(from)
      .filter((x) => x !== 0)
      .map((x) => x - 1);
  }
  const idx = NODE_OPERANDS[md.di ?? ''] ?? [];
  const out: number[] = [];
  for (const i of idx) if (r[i]) out.push(r[i] - 1);
  return out;
}

const TAGS: Readonly<Record<number, string>> = {
  0x01: 'DW_TAG_array_type',
  0x02: 'DW_TAG_class_type',
  0x04: 'DW_TAG_enumeration_type',
  0x05: 'DW_TAG_formal_parameter',
  0x08: 'DW_TAG_imported_declaration',
  0x0b: 'DW_TAG_lexical_block',
  0x0d: 'DW_TAG_member',
  0x0f: 'DW_TAG_pointer_type',
  0x10: 'DW_TAG_reference_type',
  0x11: 'DW_TAG_compile_unit',
  0x13: 'DW_TAG_structure_type',
  0x15: 'DW_TAG_subroutine_type',
  0x16: 'DW_TAG_typedef',
  0x17: 'DW_TAG_union_type',
  0x1c: 'DW_TAG_inheritance',
  0x1f: 'DW_TAG_ptr_to_member_type',
  0x21: 'DW_TAG_subrange_type',
  0x24: 'DW_TAG_base_type',
  0x26: 'DW_TAG_const_type',
  0x28: 'DW_TAG_enumerator',
  0x29: 'DW_TAG_file_type',
  0x2a: 'DW_TAG_friend',
  0x2e: 'DW_TAG_subprogram',
  0x2f: 'DW_TAG_template_type_parameter',
  0x30: 'DW_TAG_template_value_parameter',
  0x34: 'DW_TAG_variable',
  0x35: 'DW_TAG_volatile_type',
  0x37: 'DW_TAG_restrict_type',
  0x39: 'DW_TAG_namespace',
  0x3a: 'DW_TAG_imported_module',
  0x3b: 'DW_TAG_unspecified_type',
  0x42: 'DW_TAG_rvalue_reference_type',
  0x100: 'DW_TAG_auto_variable',
  0x101: 'DW_TAG_arg_variable',
};
const LANGUAGES: Readonly<Record<number, string>> = {
  1: 'DW_LANG_C89',
  2: 'DW_LANG_C',
  4: 'DW_LANG_C_plus_plus',
  0xc: 'DW_LANG_C99',
  0x19: 'DW_LANG_C_plus_plus_03',
  0x1a: 'DW_LANG_C_plus_plus_11',
  0x1d: 'DW_LANG_C11',
  0x21: 'DW_LANG_C_plus_plus_14',
};
const ENCODINGS: Readonly<Record<number, string>> = {
  1: 'DW_ATE_address',
  2: 'DW_ATE_boolean',
  3: 'DW_ATE_complex_float',
  4: 'DW_ATE_float',
  5: 'DW_ATE_signed',
  6: 'DW_ATE_signed_char',
  7: 'DW_ATE_unsigned',
  8: 'DW_ATE_unsigned_char',
  0x10: 'DW_ATE_UTF',
};
const VIRTUALITY: Readonly<Record<number, string>> = { 1: 'DW_VIRTUALITY_virtual', 2: 'DW_VIRTUALITY_pure_virtual' };
const FLAGS: readonly [number, string][] = [
  [4, 'DIFlagFwdDecl'],
  [8, 'DIFlagAppleBlock'],
  [16, 'DIFlagBlockByrefStruct'],
  [32, 'DIFlagVirtual'],
  [64, 'DIFlagArtificial'],
  [128, 'DIFlagExplicit'],
  [256, 'DIFlagPrototyped'],
  [512, 'DIFlagObjcClassComplete'],
  [1024, 'DIFlagObjectPointer'],
  [2048, 'DIFlagVector'],
  [4096, 'DIFlagStaticMember'],
  [8192, 'DIFlagLValueReference'],
  [16384, 'DIFlagRValueReference'],
];
const ACCESS = ['', 'DIFlagPrivate', 'DIFlagProtected', 'DIFlagPublic'];

class Fields {
  readonly parts: string[] = [];
  private readonly c: DiContext;
  private readonly r: readonly number[];
  constructor(c: DiContext, r: readonly number[]) {
    this.c = c;
    this.r = r;
  }
  private str(i: number): string {
    const id = this.r[i] ?? 0;
    const md = id ? this.c.mdAt(id - 1) : undefined;
    return md?.k === 'string' ? md.s : '';
  }
  string(name: string, i: number, skipEmpty = true): void {
    const s = this.str(i);
    if (skipEmpty && s === '') return;
    this.parts.push(`${name}: "${escapeString(s)}"`);
  }
  md(name: string, i: number, skipNull = true): void {
    const id = this.r[i] ?? 0;
    if (skipNull && !id) return;
    this.parts.push(`${name}: ${id ? this.c.mdOperand(id - 1) : 'null'}`);
  }
  int(name: string, v: number | bigint, skipZero = true): void {
    if (skipZero && (v === 0 || v === 0n)) return;
    this.parts.push(`${name}: ${v}`);
  }
  bool(name: string, i: number): void {
    this.parts.push(`${name}: ${this.r[i] ? 'true' : 'false'}`);
  }
  dwarf(name: string, v: number, table: Readonly<Record<number, string>>): void {
    if (!v) return;
    this.parts.push(`${name}: ${table[v] ?? v}`);
  }
  tag(i: number): void {
    const t = this.r[i] ?? 0;
    this.parts.push(`tag: ${TAGS[t] ?? t}`);
  }
  flags(name: string, v: number): void {
    if (!v) return;
    const out: string[] = [];
    let rest = v;
    if (ACCESS[rest & 3]) {
      out.push(ACCESS[rest & 3]!);
      rest &= ~3;
    }
    for (const [bit, n] of FLAGS)
      if (rest & bit) {
        out.push(n);
        rest &= ~bit;
      }
    if (rest || out.length === 0) out.push(String(rest));
    this.parts.push(`${name}: ${out.join(' | ')}`);
  }
  text(kind: string): string {
    return `!${kind}(${this.parts.join(', ')})`;
  }
}

const signed = (v: number): bigint => {
  const b = BigInt(v);
  return b & 1n ? -(b >> 1n) : b >> 1n;
};

/** `!DIName(...)` as AsmWriter 3.7 prints a specialised node (without `distinct `). */
export function printDiNode(c: DiContext, md: Node): string {
  const r = md.record ?? [];
  const f = new Fields(c, r);
  const u = (i: number): number => r[i] ?? 0;
  switch (md.di ?? '') {
    case 'DILocation':
      f.int('line', u(1), false);
      f.int('column', u(2));
      f.parts.push(`scope: ${c.mdOperand(u(3))}`);
      f.md('inlinedAt', 4);
      break;
    case 'GenericDINode':
      f.tag(1);
      f.string('header', 3);
      if (r.length > 4)
        f.parts.push(
          `operands: {${r
            .slice(4)
            .map((x) => (x ? c.mdOperand(x - 1) : 'null'))
            .join(', ')}}`,
        );
      break;
    case 'DISubrange':
      f.int('count', u(1), false);
      f.int('lowerBound', signed(u(2)));
      break;
    case 'DIEnumerator':
      f.string('name', 2, false);
      f.int('value', signed(u(1)), false);
      break;
    case 'DIBasicType':
      if (u(1) !== 0x24) f.tag(1);
      f.string('name', 2);
      f.int('size', u(3));
      f.int('align', u(4));
      f.dwarf('encoding', u(5), ENCODINGS);
      break;
    case 'DIDerivedType':
      f.tag(1);
      f.string('name', 2);
      f.md('scope', 5);
      f.md('file', 3);
      f.int('line', u(4));
      f.md('baseType', 6, false);
      f.int('size', u(7));
      f.int('align', u(8));
      f.int('offset', u(9));
      f.flags('flags', u(10));
      f.md('extraData', 11);
      break;
    case 'DICompositeType':
      f.tag(1);
      f.string('name', 2);
      f.md('scope', 5);
      f.md('file', 3);
      f.int('line', u(4));
      f.md('baseType', 6);
      f.int('size', u(7));
      f.int('align', u(8));
      f.int('offset', u(9));
      f.flags('flags', u(10));
      f.md('elements', 11);
      f.dwarf('runtimeLang', u(12), LANGUAGES);
      f.md('vtableHolder', 13);
      f.md('templateParams', 14);
      f.string('identifier', 15);
      break;
    case 'DISubroutineType':
      f.flags('flags', u(1));
      f.md('types', 2, false);
      break;
    case 'DIFile':
      f.string('filename', 1, false);
      f.string('directory', 2, false);
      break;
    case 'DICompileUnit':
      // printDwarfEnum skips zero whatever it is told.
      f.dwarf('language', u(1), LANGUAGES);
      f.md('file', 2, false);
      f.string('producer', 3);
      f.bool('isOptimized', 4);
      f.string('flags', 5);
      f.int('runtimeVersion', u(6), false);
      f.string('splitDebugFilename', 7);
      f.int('emissionKind', u(8), false);
      f.md('enums', 9);
      f.md('retainedTypes', 10);
      f.md('subprograms', 11);
      f.md('globals', 12);
      f.md('imports', 13);
      f.int('dwoId', u(14));
      break;
    case 'DISubprogram':
      f.string('name', 2);
      f.string('linkageName', 3);
      f.md('scope', 1, false);
      f.md('file', 4);
      f.int('line', u(5));
      f.md('type', 6);
      f.bool('isLocal', 7);
      f.bool('isDefinition', 8);
      f.int('scopeLine', u(9));
      f.md('containingType', 10);
      f.dwarf('virtuality', u(11), VIRTUALITY);
      f.int('virtualIndex', u(12));
      f.flags('flags', u(13));
      f.bool('isOptimized', 14);
      f.md('function', 15);
      f.md('templateParams', 16);
      f.md('declaration', 17);
      f.md('variables', 18);
      break;
    case 'DILexicalBlock':
      f.md('scope', 1, false);
      f.md('file', 2);
      f.int('line', u(3));
      f.int('column', u(4));
      break;
    case 'DILexicalBlockFile':
      f.md('scope', 1, false);
      f.md('file', 2);
      f.int('discriminator', u(3), false);
      break;
    case 'DINamespace':
      f.string('name', 3);
      f.md('scope', 1, false);
      f.md('file', 2);
      f.int('line', u(4));
      break;
    case 'DITemplateTypeParameter':
      f.string('name', 1);
      f.md('type', 2, false);
      break;
    case 'DITemplateValueParameter':
      if (u(1) !== 0x30) f.tag(1);
      f.string('name', 2);
      f.md('type', 3);
      f.md('value', 4, false);
      break;
    case 'DIGlobalVariable':
      f.string('name', 2);
      f.string('linkageName', 3);
      f.md('scope', 1, false);
      f.md('file', 4);
      f.int('line', u(5));
      f.md('type', 6);
      f.bool('isLocal', 7);
      f.bool('isDefinition', 8);
      f.md('variable', 9);
      f.md('declaration', 10);
      break;
    case 'DILocalVariable':
      f.tag(1);
      f.string('name', 3);
      f.int('arg', u(7), u(1) === 0x100);
      f.md('scope', 2, false);
      f.md('file', 4);
      f.int('line', u(5));
      f.md('type', 6);
      f.flags('flags', u(8));
      break;
    case 'DIExpression':
      return `!DIExpression(${expression(r.slice(1))})`;
    case 'DIImportedEntity':
      f.tag(1);
      f.string('name', 5);
      f.md('scope', 2, false);
      f.md('entity', 3);
      f.int('line', u(4));
      break;
    default:
      return `!${md.di}(${r.slice(1).join(', ')})`;
  }
  return f.text(md.di ?? '');
}

/** DIExpression: known operations by name (deref, plus N, bit_piece O S last), else raw numbers. */
function expression(e: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < e.length;) {
    const op = e[i]!;
    if (op === 0x06) {
      out.push('DW_OP_deref');
      i += 1;
    } else if (op === 0x22 && i + 1 < e.length) {
      out.push('DW_OP_plus', String(e[i + 1]));
      i += 2;
    } else if (op === 0x9d && i + 3 === e.length) {
      out.push('DW_OP_bit_piece', String(e[i + 1]), String(e[i + 2]));
      i += 3;
    } else return e.join(', ');
  }
  return out.join(', ');
}
