// Lookups over the DXIL operation table (dxop-table.ts) and the census of dx.op calls in a module:
// how many calls each opcode has, by number and name (dxc's OP::GetOpCodeName spelling).

import { DX_OPS, type DxOpRow } from './dxop-table.js';
import { Constant, Func, type Module } from './ir.js';

const BY_OPCODE = new Map<number, DxOpRow>(DX_OPS.map((r) => [r[0], r]));

export function dxOp(opcode: number): DxOpRow | undefined {
  return BY_OPCODE.get(opcode);
}

export function dxOpName(opcode: number): string | undefined {
  return BY_OPCODE.get(opcode)?.[1];
}

export interface DxOpCount {
  readonly opcode: number;
  readonly name: string;
  readonly count: number;
}

/** Calls to dx.op.* functions in a module, by opcode (first argument), most used first. */
export function dxOpCensus(m: Module): DxOpCount[] {
  const counts = new Map<number, number>();
  for (const f of m.functions)
    for (const bb of f.blocks)
      for (const i of bb.insts) {
        if (i.op !== 'call' || !(i.callee instanceof Func) || !i.callee.name?.startsWith('dx.op.')) continue;
        const a = i.ops[0];
        if (!(a instanceof Constant) || a.ck !== 'int') continue;
        const op = Number(a.bits);
        counts.set(op, (counts.get(op) ?? 0) + 1);
      }
  return [...counts]
    .map(([opcode, count]) => ({ opcode, name: dxOpName(opcode) ?? `opcode${opcode}`, count }))
    .sort((a, b) => b.count - a.count || a.opcode - b.opcode);
}
