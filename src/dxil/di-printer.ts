// Prints LLVM 3.7's specialised debug-info nodes (DILocation and the DI* records kept raw by the
// metadata reader) in AsmWriter's `!DIName(field: value, ...)` form. Only DILocation is spelled
// field by field; the other kinds print their raw record (see docs/dxil.md: debug modules are not
// yet reproduced byte for byte).

import type { Metadata } from './ir.js';

export interface MdOperandPrinter {
  mdOperand(id: number): string;
}

export function printDiNode(p: MdOperandPrinter, md: Extract<Metadata, { k: 'node' }>): string {
  const r = md.record ?? [];
  if (md.di === 'DILocation') {
    // [distinct, line, column, scope, inlinedAt + 1]
    let s = `!DILocation(line: ${r[1]}, column: ${r[2]}, scope: ${p.mdOperand(r[3]!)}`;
    if (r[4]) s += `, inlinedAt: ${p.mdOperand(r[4] - 1)}`;
    return s + ')';
  }
  return `!${md.di}(${r.slice(1).join(', ')})`;
}

/** Metadata ids a specialised node refers to, for slot numbering. */
export function diRefs(md: Extract<Metadata, { k: 'node' }>): number[] {
  const r = md.record ?? [];
  if (md.di === 'DILocation') return r[4] ? [r[3]!, r[4] - 1] : [r[3]!];
  return [];
}
