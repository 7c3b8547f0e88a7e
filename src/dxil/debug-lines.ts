// The source location of each instruction of a DXIL module with debug information (a /Zi build's
// ILDB part, or a DXIL part that keeps its debug info): the instruction's debug location (LLVM 3.7's
// FUNC_CODE_DEBUG_LOC, read by function.ts into Instruction.dbg: line, column, scope) and the file
// its scope names: a DISubprogram's `file` (record operand 4), a DILexicalBlock's,
// DILexicalBlockFile's or DINamespace's (operand 2), a DIFile itself, each DIFile's `filename`
// (operand 1; operands are metadata ids + 1). And how a debug module's instructions map to those of
// the module dxc stripped of its debug info (the container's DXIL part): the same instructions in
// the same order, less the calls of llvm.dbg.* (declare, value), checked instruction by instruction.

import { Func, type Instruction, type Module } from './ir.js';
import { latin1Utf8 } from './sources.js';

/** Where an instruction came from: the file its scope names (as the DIFile spells it), line and column (1-based). */
export interface DxilSourceLocation {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** Record operand holding the scope's file, by specialised node. */
const FILE_OPERAND: Readonly<Record<string, number>> = {
  DISubprogram: 4,
  DILexicalBlock: 2,
  DILexicalBlockFile: 2,
  DINamespace: 2,
};

/** The instructions of a module's function bodies, in the order the listing prints them. */
export function moduleInstructions(m: Module): Instruction[] {
  const out: Instruction[] = [];
  for (const f of m.functions) if (!f.isProto) for (const b of f.blocks) out.push(...b.insts);
  return out;
}

/** The file a scope (metadata id) names, undefined when it names none. */
function scopeFile(m: Module, id: number): string | undefined {
  const md = m.metadata[id];
  if (md?.k !== 'node' || !md.di) return undefined;
  const r = md.record ?? [];
  const file = md.di === 'DIFile' ? md : m.metadata[(r[FILE_OPERAND[md.di] ?? -1] ?? 0) - 1];
  if (file?.k !== 'node' || file.di !== 'DIFile') return undefined;
  const name = m.metadata[(file.record?.[1] ?? 0) - 1];
  return name?.k === 'string' ? latin1Utf8(name.s) : undefined;
}

/**
 * Each instruction's source location (moduleInstructions' order): undefined for one without a debug
 * location, with line 0 (dxc's compiler-made code), or whose scope names no file.
 */
export function instructionLocations(m: Module): (DxilSourceLocation | undefined)[] {
  const files = new Map<number, string | undefined>();
  return moduleInstructions(m).map((i) => {
    const d = i.dbg;
    if (!d || d.line === 0 || d.scope === 0) return undefined;
    if (!files.has(d.scope)) files.set(d.scope, scopeFile(m, d.scope - 1));
    const file = files.get(d.scope);
    return file === undefined ? undefined : { file, line: d.line, col: d.col };
  });
}

const calleeName = (i: Instruction): string =>
  i.op === 'call' && i.callee instanceof Func ? (i.callee.name ?? '') : '';
const isDebugCall = (i: Instruction): boolean => calleeName(i).startsWith('llvm.dbg.');

/**
 * For each instruction of a debug module (moduleInstructions' order), the index of the same
 * instruction in the stripped module: the debug module's instructions less its llvm.dbg.* calls
 * must be the stripped module's, one for one (the same operation, operand count, callee and kind of type); undefined for
 * the llvm.dbg.* calls. Undefined as a whole when the two modules do not match so.
 */
export function strippedIndices(debug: Module, stripped: Module): (number | undefined)[] | undefined {
  const a = moduleInstructions(debug);
  const b = moduleInstructions(stripped);
  const out: (number | undefined)[] = [];
  let k = 0;
  for (const i of a) {
    if (isDebugCall(i)) {
      out.push(undefined);
      continue;
    }
    const j = b[k];
    const same =
      j !== undefined &&
      j.op === i.op &&
      j.sub === i.sub &&
      j.ops.length === i.ops.length &&
      calleeName(j) === calleeName(i) &&
      j.type.kind === i.type.kind &&
      j.type.width === i.type.width;
    if (!same) return undefined;
    out.push(k++);
  }
  return k === b.length ? out : undefined;
}
