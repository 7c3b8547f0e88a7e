// The statement origins of a lifted or readable program (src/ir/ir.ts Origin): every instruction
// index some statement of its functions carries, nested blocks included.

import { originList, type Block } from '../../src/ir/ir.js';
import type { Program } from '../../src/ir/program.js';

export function statementOrigins(p: Program): Set<number> {
  const out = new Set<number>();
  const walk = (b: Block): void => {
    for (const s of b) {
      for (const k of originList(s.origin)) out.add(k);
      if (s.op === 'if') {
        walk(s.accept);
        walk(s.reject);
      } else if (s.op === 'loop') walk(s.body);
      else if (s.op === 'switch') for (const c of s.cases) walk(c.body);
    }
  };
  for (const f of p.module.functions) walk(f.body);
  return out;
}
