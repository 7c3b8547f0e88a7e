// Reads a METADATA_BLOCK (LLVM 3.7 metadata records): strings, values, generic and distinct nodes,
// named metadata (NAME then NAMED_NODE), kinds, and the specialised debug-info nodes, which are kept
// as their raw records (DILocation, DISubprogram...) and printed from them.

import { BLOCK, type RecordCursor, END } from './bitstream.js';
import { type Metadata, MetadataNode, MetadataString, MetadataValue, NamedNode, type Value } from './ir.js';
import { chars, latin, type ModuleReader } from './module.js';

/** The operands of a specialised node, which keeps its record instead (never pushed to). */
const NO_OPS: readonly number[] = [];

/** Record codes of LLVM 3.7's specialised debug-info nodes and the names the printer gives them. */
export const DI_NODES: Readonly<Record<number, string>> = {
  7: 'DILocation',
  12: 'GenericDINode',
  13: 'DISubrange',
  14: 'DIEnumerator',
  15: 'DIBasicType',
  16: 'DIFile',
  17: 'DIDerivedType',
  18: 'DICompositeType',
  19: 'DISubroutineType',
  20: 'DICompileUnit',
  21: 'DISubprogram',
  22: 'DILexicalBlock',
  23: 'DILexicalBlockFile',
  24: 'DINamespace',
  25: 'DITemplateTypeParameter',
  26: 'DITemplateValueParameter',
  27: 'DIGlobalVariable',
  28: 'DILocalVariable',
  29: 'DIExpression',
  30: 'DIObjCProperty',
  31: 'DIImportedEntity',
  32: 'DIModule',
};

/** A METADATA_BLOCK, entered: its records in order (a sub-block is read through and dropped). */
export function readMetadataBlock(
  mr: ModuleReader,
  c: RecordCursor,
  list: Metadata[],
  _values: readonly Value[],
): void {
  // Entries and named nodes before these were checked when their own block ended, against a list
  // no longer than this one is now (it only grows while they are in it): only this block's are.
  const listStart = list.length;
  const namedStart = mr.m.named.length;
  // A NAME record's name, waiting for the NAMED_NODE that must come next.
  let name: string | undefined;
  for (let s = c.next(); s !== END; s = c.next()) {
    if (name !== undefined && (s === BLOCK || c.code !== 10))
      throw mr.fail('E404_BITCODE_RECORD', 'a metadata name is not followed by its named node');
    if (s === BLOCK) {
      c.drain();
      continue;
    }
    const it = c;
    const o = it.ops;
    switch (it.code) {
      case 1: // STRING
        list.push(new MetadataString(it.blob ? latin(it.blob) : chars(o)));
        break;
      case 2: // VALUE [ty, val]
        if (o.length !== 2) throw mr.fail('E404_BITCODE_RECORD', `a metadata value record has ${o.length} operands`);
        list.push(new MetadataValue(mr.type(o[0]!), o[1]!));
        break;
      case 3: // NODE
      case 5: // DISTINCT_NODE
        list.push(new MetadataNode(it.code === 5, o));
        break;
      case 4: // NAME, then NAMED_NODE
        name = chars(o);
        break;
      case 6: // KIND [id, name...]
        if (o.length < 1) throw mr.fail('E404_BITCODE_RECORD', 'a metadata kind record is empty');
        mr.m.kinds.set(o[0]!, chars(o, 1));
        break;
      case 10:
        if (name === undefined) throw mr.fail('E404_BITCODE_RECORD', 'a named node without its name');
        mr.m.named.push(new NamedNode(name, o));
        name = undefined;
        break;
      default: {
        const di = DI_NODES[it.code];
        if (!di) throw mr.fail('E408_BITCODE_UNSUPPORTED', `metadata record code ${it.code} is not supported`);
        list.push(new MetadataNode((o[0] ?? 0) !== 0, NO_OPS, di, o));
        break;
      }
    }
  }
  if (name !== undefined) throw mr.fail('E404_BITCODE_RECORD', 'a metadata name is not followed by its named node');
  // Node operands must name metadata read by now (the writer orders operands first, or forward
  // within the block); check them so the printer never meets a dangling id.
  const n = list.length;
  for (let k = listStart; k < n; k++) {
    const md = list[k]!;
    if (md.k !== 'node') continue;
    const ops = md.ops;
    for (let j = 0; j < ops.length; j++) {
      const id = ops[j]!;
      if (id - 1 >= n)
        throw mr.fail('E405_BITCODE_FORWARD_REF', `a metadata node refers to metadata ${id - 1}, never defined`);
    }
  }
  const named = mr.m.named;
  for (let k = namedStart; k < named.length; k++) {
    const nm = named[k]!;
    for (const id of nm.ops)
      if (id >= n)
        throw mr.fail('E405_BITCODE_FORWARD_REF', `named metadata !${nm.name} refers to metadata ${id}, never defined`);
  }
}
