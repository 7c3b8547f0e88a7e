// dxc's DxcAssemblyAnnotationWriter::printInfoComment (dxcdisassembler.cpp): after an instruction,
// ` ; line:L col:C` when it has a debug location, and after a dx.op call `  ; Name(args)` from the
// operation table (with the resource properties of annotateHandle decoded).

import { dxOp } from './dxop.js';
import { Constant, Func, type Instruction } from './ir.js';
import { resourcePropertiesText } from './resource-properties.js';

export function dxcInstructionComment(i: Instruction): string {
  let s = '';
  const callee = i.op === 'call' ? i.callee : undefined;
  const isDbg = callee instanceof Func && (callee.name === 'llvm.dbg.value' || callee.name === 'llvm.dbg.declare');
  if (!isDbg && i.dbg && i.dbg.line !== 0) s += ` ; line:${i.dbg.line} col:${i.dbg.col}`;
  if (!(callee instanceof Func) || i.ops.length === 0 || !callee.name?.startsWith('dx.op.')) return s;
  const a = i.ops[0];
  if (!(a instanceof Constant) || a.ck !== 'int') return s;
  const opcode = Number(BigInt.asUintN(32, a.bits));
  const row = dxOp(opcode);
  if (!row) return `${s}  ; invalid DXIL opcode #${opcode}`;
  s += `  ; ${row[1]}${row[3]}`;
  if (row[1] === 'AnnotateHandle') {
    const props = i.ops[2];
    if (props instanceof Constant) s += resourcePropertiesText(props);
  }
  return s;
}
