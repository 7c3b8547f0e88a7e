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
  /** Split locals into their webs (webs.ts); off: a register reused for unrelated values stays one local. */
  readonly webs?: boolean;
}

export function readableModule(m: Module, options: PassOptions = {}): Module {
  const table = new TypeTable(m);
  const functions: Function[] = m.functions.map((f) => {
    const p = promoteRegisters(m, table, f);
    return simplifyFunction(m, table, p.fn, p.types, options.fold ?? true, options.webs ?? true).fn;
  });
  return { ...m, types: table.types, functions };
}

/**
 * Pass 3, names: resources by their RDEF names (register names when the RDEF is stripped), the
 * locals that stay (values merged across control flow) as `merged<n>` / `indexed<n>` rather than
 * their registers, lets as `t<n>`. Only names change: types, bindings and statements are kept, so
 * the executor and the seeded inputs (which go by Direct3D register, src/exec/seed.ts) see the
 * same program.
 */
export function nameProgram(p: Program): Program {
  const rename = new Map<number, string>();
  for (const r of p.interface.resources)
    if (r.reflectedName) rename.set(r.global, r.reflectedName.replace(/[^A-Za-z0-9_]/g, '_'));
  const globals = p.module.globals.map((g, i) => (rename.has(i) ? { ...g, name: rename.get(i)! } : g));
  const functions = p.module.functions.map((f) => ({
    ...f,
    locals: f.locals.map((l) => ({ ...l, name: localName(l.name) })),
    lets: f.lets.map((_, i) => ({ name: `t${i}` })),
  }));
  const resources = p.interface.resources.map((r) =>
    rename.has(r.global) ? { ...r, name: rename.get(r.global)! } : r,
  );
  return {
    ...p,
    interface: { ...p.interface, resources },
    module: { ...p.module, globals, functions },
  };
}

/** A local kept for a value merged across control flow, named by what it is rather than its register. */
export function localName(n: string): string {
  // a register, and its webs and lanes: `r0_1` (webs.ts splits a register reused for unrelated
  // values), `r0_x` (fold.ts splits a register whose lanes hold different types), `r0_x_2`
  const reg = /^(r|x)(\d+)((?:_\d+|_[xyzw])*)$/.exec(n);
  if (reg) return `${reg[1] === 'x' ? 'indexed' : 'merged'}${reg[2]}${reg[3]}`;
  return n === 'v' ? 'inputs' : n === 'o' ? 'outputs' : n;
}

export function readableProgram(p: Program, options: PassOptions = {}): Program {
  return nameProgram({ ...p, module: readableModule(p.module, options) });
}
