// The decompiler's IR→IR chain (docs/decompile.md): registers to values (ssa.ts), then cleanup and
// folding with the arena's exact rewrites (fold.ts, arena.ts). The result is an IR module the
// executor runs and the WGSL emitter prints; its globals, arguments and results are the lifted
// module's, so the same bindings and inputs drive both.

import { withinStack } from './refuse.js';
import { functionWith, globalWith, letEntry, localEntry, moduleWith } from '../ir/nodes.js';
import type { Function, Module } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import { TypeTable } from './arena.js';
import { promoteRegisters } from './ssa.js';
import { simplifyFunction } from './fold.js';
import { debugLetNames, registerWrites, type DebugNames } from './names.js';
import { RESERVED as HLSL_RESERVED } from './hlsl.js';
import { WGSL_RESERVED } from '../wgsl/namer.js';

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
  return moduleWith(m, { types: table.types, functions });
}

/**
 * Pass 3, names: resources by their RDEF names (register names when the RDEF is stripped), the
 * locals that stay (values merged across control flow) as `merged<n>` / `indexed<n>` rather than
 * their registers, lets as `t<n>`, or as the source variable they hold where the debug information
 * says so (`debug`: names.ts; the lifted module, whose stores say which register lanes each
 * instruction writes). Only names change: types, bindings and statements are kept, so the executor
 * and the seeded inputs (which go by Direct3D register, src/exec/seed.ts) see the same program.
 */
export function nameProgram(p: Program, debug?: { names: DebugNames; lifted: Module }): Program {
  const rename = new Map<number, string>();
  for (const r of p.interface.resources)
    if (r.reflectedName) rename.set(r.global, r.reflectedName.replace(/[^A-Za-z0-9_]/g, '_'));
  const globals = p.module.globals.map((g, i) => (rename.has(i) ? globalWith(g, { name: rename.get(i)! }) : g));
  const writes = debug && registerWrites(debug.lifted);
  const functions = p.module.functions.map((f) => {
    const locals = f.locals.map((l) => localEntry(localName(l.name), l.type, l.init));
    const lets = f.lets.map((_, i) => letEntry(`t${i}`));
    const named = debug && writes ? debugLetNames(f, writes, debug.names) : undefined;
    if (named?.size) {
      // unique in both languages: no keyword, no other name of the program, `name`, `name_1`, ...
      const taken = new Set<string>([...HLSL_RESERVED, ...WGSL_RESERVED, ...lets.map((l) => l.name)]);
      for (const x of [...globals, ...p.module.functions, ...f.args, ...locals]) taken.add(x.name);
      const used = (n: string): boolean => taken.has(n) || taken.has(n.toLowerCase());
      for (const [i, source] of [...named].sort((a, b) => a[0] - b[0])) {
        // the HLSL printer numbers register-like hints (`t3`, `r0`) as its own lets
        const want = /^(?:r|v|o|x|cb|t|u)\d/.test(source) ? `_${source}` : source;
        let n = want;
        for (let k = 1; used(n); k++) n = `${want}_${k}`;
        taken.add(n);
        lets[i] = letEntry(n);
      }
    }
    return functionWith(f, { locals, lets });
  });
  const resources = p.interface.resources.map((r) =>
    rename.has(r.global) ? { ...r, name: rename.get(r.global)! } : r,
  );
  return {
    ...p,
    interface: { ...p.interface, resources },
    module: moduleWith(p.module, { globals, functions }),
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

/** `debugNames`: the source variables of a /Zi build's registers (names.ts containerDebugNames). */
export function readableProgram(p: Program, options: PassOptions = {}, debugNames?: DebugNames): Program {
  const readable = { ...p, module: withinStack('the readable module', () => readableModule(p.module, options)) };
  return nameProgram(readable, debugNames && { names: debugNames, lifted: p.module });
}
