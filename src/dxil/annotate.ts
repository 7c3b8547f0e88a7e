// dxc's DxcAssemblyAnnotationWriter::printInfoComment (dxcdisassembler.cpp): after an instruction,
// ` ; line:L col:C` when it has a debug location, and after a dx.op call `  ; Name(args)` from the
// operation table (with the resource properties of annotateHandle decoded).

import { dxOp } from './dxop.js';
import { Constant, Func, type Instruction, type Metadata } from './ir.js';
import { MetadataValue } from './function.js';
import type { ModulePrinter } from './printer.js';
import { flat } from './format.js';
import { resourcePropertiesText } from './resource-properties.js';

export function dxcInstructionComment(i: Instruction, _f: Func, p: ModulePrinter): string {
  let s = '';
  const callee = i.op === 'call' ? i.callee : undefined;
  const name = callee instanceof Func ? callee.name : undefined;
  const dbgKind = name === 'llvm.dbg.declare' ? 1 : name === 'llvm.dbg.value' ? 2 : 0;
  if (dbgKind !== 0) s += variableComment(i, dbgKind, p);
  else if (i.dbg && i.dbg.line !== 0) s += ` ; line:${i.dbg.line} col:${i.dbg.col}`;
  if (name === undefined || i.ops.length === 0 || !name.startsWith('dx.op.')) return s;
  const a = i.ops[0];
  if (!(a instanceof Constant) || a.ck !== 'int') return s;
  const bits = a.bits;
  // The opcode as an unsigned 32-bit number (BigInt.asUintN allocates; most opcodes are small).
  const opcode = bits >= 0n && bits < 0x100000000n ? Number(bits) : Number(BigInt.asUintN(32, bits));
  const row = dxOp(opcode);
  if (!row) return `${s}  ; invalid DXIL opcode #${opcode}`;
  let text = OP_COMMENTS.get(opcode);
  if (text === undefined) OP_COMMENTS.set(opcode, (text = flat(`  ; ${row[1]}${row[3]}`)));
  s += text;
  if (row[1] === 'AnnotateHandle') {
    const props = i.ops[2];
    if (props instanceof Constant) s += resourcePropertiesText(props);
  }
  return s;
}

/** `  ; Name(operands)` by opcode, made on first use (a listing repeats a few opcodes many times). */
const OP_COMMENTS = new Map<number, string>();

type Node = Extract<Metadata, { k: 'node' }>;

/**
 * ` ; var:"name" !DIExpression(...) func:"name"` for a debug intrinsic with a variable and an
 * expression: llvm.dbg.declare(addr, var, expr) and llvm.dbg.value(value, offset, var, expr), with
 * var at operand `at` (1 and 2).
 */
function variableComment(i: Instruction, at: number, p: ModulePrinter): string {
  const node = (v: unknown, di: string): Node | undefined => {
    if (!(v instanceof MetadataValue)) return undefined;
    const md = p.md(v.mdId);
    return md?.k === 'node' && md.di === di ? md : undefined;
  };
  const variable = node(i.ops[at], 'DILocalVariable');
  const expr = node(i.ops[at + 1], 'DIExpression');
  if (!variable || !expr) return '';
  const str = (id: number | undefined): string => {
    const md = id ? p.md(id - 1) : undefined;
    return md?.k === 'string' ? md.s : '';
  };
  let s = ` ; var:"${str(variable.record?.[3])}" ${p.mdBody(expr)}`;
  // findFunctionScope: the variable's scope, up through lexical blocks to its subprogram.
  let scope = p.md((variable.record?.[2] ?? 0) - 1);
  for (let hops = 0; hops < 1000 && scope?.k === 'node'; hops++) {
    if (scope.di === 'DISubprogram') {
      s += ` func:"${str(scope.record?.[2])}"`;
      break;
    }
    if (scope.di !== 'DILexicalBlock' && scope.di !== 'DILexicalBlockFile') break;
    scope = p.md((scope.record?.[1] ?? 0) - 1);
  }
  return s;
}
