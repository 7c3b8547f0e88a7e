// The spelling tables and small helpers of LLVM 3.7's AsmWriter that printer.ts uses: opcode,
// cast, predicate, ordering, linkage and calling-convention names; the null value of a type;
// optimisation flags; attribute text as a group (`align=4`) or inline (`align 4`).

import { diRefs } from './di-printer.js';
import { type AttributeEntry, type AttributeList, Constant, type Metadata, type Type, type Value } from './ir.js';

export const BINOPS = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor'];
export const FP_BINOPS: Readonly<Record<number, string>> = { 0: 'fadd', 1: 'fsub', 2: 'fmul', 4: 'fdiv', 6: 'frem' };
export const CASTS = [
  'trunc',
  'zext',
  'sext',
  'fptoui',
  'fptosi',
  'uitofp',
  'sitofp',
  'fptrunc',
  'fpext',
  'ptrtoint',
  'inttoptr',
  'bitcast',
  'addrspacecast',
];
export const PREDICATES: Readonly<Record<number, string>> = {
  0: 'false',
  1: 'oeq',
  2: 'ogt',
  3: 'oge',
  4: 'olt',
  5: 'ole',
  6: 'one',
  7: 'ord',
  8: 'uno',
  9: 'ueq',
  10: 'ugt',
  11: 'uge',
  12: 'ult',
  13: 'ule',
  14: 'une',
  15: 'true',
  32: 'eq',
  33: 'ne',
  34: 'ugt',
  35: 'uge',
  36: 'ult',
  37: 'ule',
  38: 'sgt',
  39: 'sge',
  40: 'slt',
  41: 'sle',
};
export const RMW_OPS = ['xchg', 'add', 'sub', 'and', 'nand', 'or', 'xor', 'max', 'min', 'umax', 'umin'];
export const ORDERINGS = ['', 'unordered', 'monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'];
export const LINKAGES: Readonly<Record<number, string>> = {
  0: '',
  1: 'weak ',
  2: 'appending ',
  3: 'internal ',
  4: 'linkonce ',
  5: '',
  6: '',
  7: 'extern_weak ',
  8: 'common ',
  9: 'private ',
  10: 'weak_odr ',
  11: 'linkonce_odr ',
  12: 'available_externally ',
  13: 'private ',
  14: 'private ',
  15: '',
  16: 'weak ',
  17: 'weak_odr ',
  18: 'linkonce ',
  19: 'linkonce_odr ',
};
export const FN_INDEX = 0xffffffff;
/** PrintCallingConv's names; others print as ccN. */
export const CALLING_CONVENTIONS: Readonly<Record<number, string>> = {
  8: 'fastcc',
  9: 'coldcc',
  10: 'ghccc',
  12: 'webkit_jscc',
  13: 'anyregcc',
  14: 'preserve_mostcc',
  15: 'preserve_allcc',
  64: 'x86_stdcallcc',
  65: 'x86_fastcallcc',
  66: 'arm_apcscc',
  67: 'arm_aapcscc',
  68: 'arm_aapcs_vfpcc',
  69: 'msp430_intrcc',
  70: 'x86_thiscallcc',
  71: 'ptx_kernel',
  72: 'ptx_device',
  75: 'spir_func',
  76: 'spir_kernel',
  77: 'intel_ocl_bicc',
  78: 'x86_64_sysvcc',
  79: 'x86_64_win64cc',
  80: 'x86_vectorcallcc',
};
export const ccName = (cc: number): string => CALLING_CONVENTIONS[cc] ?? `cc${cc}`;

/** Ids of the metadata a node refers to (for slot numbering), in operand order. */
export function mdNodeRefs(md: Metadata): number[] {
  if (md.k !== 'node') return [];
  if (md.di) return diRefs(md);
  const out: number[] = [];
  for (const id of md.ops) if (id !== 0) out.push(id - 1);
  return out;
}

export function sortAttachments(a: readonly [number, number][]): readonly [number, number][] {
  return a.length < 2 ? a : [...a].sort((x, y) => x[0] - y[0]);
}

export function isNull(v: Value): boolean {
  if (!(v instanceof Constant)) return false;
  if (v.ck === 'null') return true;
  if (v.ck === 'int') return v.bits === 0n;
  if (v.ck === 'float') return v.bits === 0n;
  if (v.ck === 'aggregate') return v.ops.length > 0 && v.ops.every(isNull);
  if (v.ck === 'data') return v.data.every((d) => d === 0n);
  return false;
}

export function nullOf(t: Type): string {
  const k = t.kind;
  if (k === 'int') return t.width === 1 ? 'false' : '0';
  if (k === 'half') return '0xH0000';
  if (k === 'float' || k === 'double') return '0.000000e+00';
  if (k === 'ptr') return 'null';
  return 'zeroinitializer';
}

export function binopFlags(name: string, flags: number): string {
  if (name === 'add' || name === 'sub' || name === 'mul' || name === 'shl') {
    return (flags & 1 ? ' nuw' : '') + (flags & 2 ? ' nsw' : '');
  }
  if (name === 'udiv' || name === 'sdiv' || name === 'lshr' || name === 'ashr') return flags & 1 ? ' exact' : '';
  if (name.startsWith('f')) return fmfText(flags);
  return '';
}

export function fmfText(flags: number): string {
  if (flags & 1) return ' fast';
  let s = '';
  if (flags & 2) s += ' nnan';
  if (flags & 4) s += ' ninf';
  if (flags & 8) s += ' nsz';
  if (flags & 16) s += ' arcp';
  return s;
}

export function atomicText(scope: number, ordering: number): string {
  return `${scope === 0 ? ' singlethread' : ''} ${ORDERINGS[ordering] ?? ordering}`;
}

export function groupsAt(list: AttributeList | undefined, index: number): readonly AttributeEntry[] {
  if (!list) return [];
  const out: AttributeEntry[] = [];
  for (const g of list) if (g.index === index) out.push(...g.attrs);
  return out;
}

export function attrText(a: AttributeEntry, inGroup: boolean): string {
  if (a.kind === 'enum') return a.key;
  if (a.kind === 'int') {
    if (a.key === 'align') return inGroup ? `align=${a.int}` : `align ${a.int}`;
    if (a.key === 'alignstack') return inGroup ? `alignstack=${a.int}` : `alignstack(${a.int})`;
    return `${a.key}(${a.int})`;
  }
  return a.value ? `"${a.key}"="${a.value}"` : `"${a.key}"`;
}

export function attrString(list: AttributeList | undefined, index: number, inGroup: boolean): string {
  return groupsAt(list, index)
    .map((a) => attrText(a, inGroup))
    .join(' ');
}
