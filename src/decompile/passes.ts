// The decompiler's IR→IR chain (docs/decompile.md): registers to values (ssa.ts), then cleanup and
// folding with the arena's exact rewrites (fold.ts, arena.ts). The result is an IR module the
// executor runs and the WGSL emitter prints; its globals, arguments and results are the lifted
// module's, so the same bindings and inputs drive both.

import type { Function, Module } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import { TypeTable } from './arena.js';
import { promoteRegisters } from './ssa.js';
import { simplifyFunction } from './fold.js';

export interface PassOptions {
  /** Inline single-use lets (pass 4); off: values stay one let per definition. */
  readonly fold?: boolean;
}

export function readableModule(m: Module, options: PassOptions = {}): Module {
  const table = new TypeTable(m);
  const functions: Function[] = m.functions.map((f) => {
    const p = promoteRegisters(m, table, f);
    return simplifyFunction(m, table, p.fn, p.types, options.fold ?? true).fn;
  });
  return { ...m, types: table.types, functions };
}

export function readableProgram(p: Program, options: PassOptions = {}): Program {
  return { ...p, module: readableModule(p.module, options) };
}
