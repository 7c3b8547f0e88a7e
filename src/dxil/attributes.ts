// LLVM 3.7 attributes as dxc writes them (PARAMATTR_GROUP_BLOCK and PARAMATTR_BLOCK): the bitcode's
// attribute kind codes (LLVMBitCodes.h), the order dxc's Attribute::AttrKind sorts a set in, and
// the readers of attribute groups and lists.

import { type RecordCursor } from './bitstream.js';
import { Attribute, type AttributeEntry, type AttributeList, Group } from './ir.js';
import type { ModuleReader } from './module.js';
import { objectList } from '../binary/lists.js';

export const ATTRIBUTE_NAMES: readonly string[] = [
  '',
  'align',
  'alwaysinline',
  'byval',
  'inlinehint',
  'inreg',
  'minsize',
  'naked',
  'nest',
  'noalias',
  'nobuiltin',
  'nocapture',
  'noduplicate',
  'noimplicitfloat',
  'noinline',
  'nonlazybind',
  'noredzone',
  'noreturn',
  'nounwind',
  'optsize',
  'readnone',
  'readonly',
  'returned',
  'returns_twice',
  'signext',
  'alignstack',
  'ssp',
  'sspreq',
  'sspstrong',
  'sret',
  'sanitize_address',
  'sanitize_thread',
  'sanitize_memory',
  'uwtable',
  'zeroext',
  'builtin',
  'cold',
  'optnone',
  'inalloca',
  'nonnull',
  'jumptable',
  'dereferenceable',
  'dereferenceable_or_null',
  'convergent',
  'safestack',
  'argmemonly',
];

/** dxc's Attribute::AttrKind order (its LLVM 3.7 Attributes.h), which sorts an attribute set. */
const ATTRIBUTE_ORDER: readonly string[] = [
  'align',
  'alwaysinline',
  'builtin',
  'byval',
  'inalloca',
  'cold',
  'convergent',
  'inlinehint',
  'inreg',
  'jumptable',
  'minsize',
  'naked',
  'nest',
  'noalias',
  'nobuiltin',
  'nocapture',
  'noduplicate',
  'noimplicitfloat',
  'noinline',
  'nonlazybind',
  'nonnull',
  'dereferenceable',
  'dereferenceable_or_null',
  'noredzone',
  'noreturn',
  'nounwind',
  'optsize',
  'optnone',
  'readnone',
  'readonly',
  'argmemonly',
  'returned',
  'returns_twice',
  'signext',
  'alignstack',
  'ssp',
  'sspreq',
  'sspstrong',
  'safestack',
  'sret',
  'sanitize_address',
  'sanitize_thread',
  'sanitize_memory',
  'uwtable',
  'zeroext',
];

/** AttributeImpl::operator<: flags by kind, then integer attributes by kind, then strings by key, value. */
function rank(x: AttributeEntry): number {
  return x.kind === 'enum' ? 0 : x.kind === 'int' ? 1 : 2;
}

function compareAttributes(a: AttributeEntry, b: AttributeEntry): number {
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a.kind !== 'string') return ATTRIBUTE_ORDER.indexOf(a.key) - ATTRIBUTE_ORDER.indexOf(b.key);
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  const av = a.value ?? '';
  const bv = b.value ?? '';
  return av < bv ? -1 : av > bv ? 1 : 0;
}

/** PARAMATTR_GROUP_BLOCK: groups of enum, integer and string attributes, sorted as dxc sorts them. */
export function readAttributeGroups(mr: ModuleReader, c: RecordCursor): void {
  while (c.nextRecord()) {
    if (c.code !== 3) continue;
    const o = c.ops;
    if (o.length < 2) throw mr.fail('E404_BITCODE_RECORD', 'an attribute group record has fewer than 2 operands');
    const attrs = objectList<AttributeEntry>();
    let i = 2;
    while (i < o.length) {
      const kind = o[i++]!;
      if (kind === 0) {
        attrs.push(new Attribute('enum', ATTRIBUTE_NAMES[o[i++]!] ?? `attr${o[i - 1]}`));
      } else if (kind === 1) {
        const key = ATTRIBUTE_NAMES[o[i++]!] ?? `attr${o[i - 1]}`;
        attrs.push(new Attribute('int', key, undefined, o[i++] ?? 0));
      } else if (kind === 3 || kind === 4) {
        let key = '';
        while (i < o.length && o[i] !== 0) key += String.fromCharCode(o[i++]!);
        i++;
        if (kind === 4) {
          let value = '';
          while (i < o.length && o[i] !== 0) value += String.fromCharCode(o[i++]!);
          i++;
          attrs.push(new Attribute('string', key, value));
        } else attrs.push(new Attribute('string', key));
      } else throw mr.fail('E404_BITCODE_RECORD', `attribute kind ${kind} is not known`);
    }
    attrs.sort(compareAttributes);
    const g = new Group(o[0]!, o[1]!, attrs);
    mr.m.attributeGroups.set(g.id, g);
  }
}

/** PARAMATTR_BLOCK: each entry the groups of one attribute list. */
export function readAttributeLists(mr: ModuleReader, c: RecordCursor): void {
  while (c.nextRecord()) {
    if (c.code !== 2) continue;
    mr.m.attributeLists.push(
      c.ops.map((id) => {
        const g = mr.m.attributeGroups.get(id);
        if (!g) throw mr.fail('E405_BITCODE_FORWARD_REF', `attribute group ${id} is not defined`);
        return g;
      }),
    );
  }
}

/** The attribute list of a record field (1-based; 0 for none). */
export function attributeList(mr: ModuleReader, i: number): AttributeList | undefined {
  if (i === 0) return undefined;
  const l = mr.m.attributeLists[i - 1];
  if (!l) throw mr.fail('E405_BITCODE_FORWARD_REF', `attribute list ${i} is not defined`);
  return l;
}
