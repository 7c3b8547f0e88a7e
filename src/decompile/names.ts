// Names of lets from debug information (docs/decompile.md "Names"): a container built with /Zi says
// which source variable each register component holds over which instructions (SPDB S_LOCAL with its
// S_DEFRANGE_HLSL ranges, or SDBG; src/debug, `Variable.locations`). A location's range starts at
// the instruction after the one that wrote the component (the listing's `// r0.y <- pick` remark
// follows that instruction), so the writer of a location is the instruction whose end is the
// range's start, or the end of one of its gaps. A readable let bound for a register (its name hint
// is the register, `r1` or `o0`: ssa.ts binds a store's value under the register's name, and the
// lifter names a multi-lane result after its destination) and whose latest origin writing that
// register is such a writer, for every lane it writes and all of one variable, takes the variable's
// name. Only names change.

import type { Container } from '../container/container.js';
import { annotatedInstructions, readDebugInfo } from '../debug/annotations.js';
import type { Scope } from '../debug/model.js';
import { IridiaError } from '../errors.js';
import type { ExprId, Function, Module } from '../ir/ir.js';
import { originList } from '../ir/ir.js';
import { walkStmts } from './ssa.js';

/** By `instruction:register.lane` (`12:r0.1`): the source variable (and its member path) written there. */
export type DebugNames = ReadonlyMap<string, string>;

const REGISTER_TYPES: Readonly<Record<number, string>> = { 0: 'r', 2: 'o' };

/**
 * The source variables the container's debug information places in temporary and output register
 * components, by the instruction that writes each; undefined when it has none or it does not read.
 */
export function containerDebugNames(c: Container): DebugNames | undefined {
  try {
    const info = readDebugInfo(c);
    const instructions = info && annotatedInstructions(c);
    if (!info || !instructions) return undefined;
    const writer = new Map<number, number>();
    instructions.forEach((ins, i) => writer.set(ins.next, i));
    const names = new Map<string, string>();
    // an SDBG names a function's return value after the function (and its scopes after it)
    const scopeNames = new Set<string>();
    const collect = (s: Scope): void => {
      scopeNames.add(s.name);
      s.children.forEach(collect);
    };
    info.scopes.forEach(collect);
    const visit = (s: Scope): void => {
      for (const v of s.variables) {
        if (scopeNames.has(v.name)) continue;
        for (const l of v.locations) {
          const reg = REGISTER_TYPES[l.registerType];
          if (reg === undefined || l.component === undefined || l.indices.length !== 1) continue;
          const name = sourceName(v.name, l.member);
          if (name === undefined) continue;
          for (const at of [l.start, ...l.gaps.map((g) => g.end)]) {
            const i = writer.get(at);
            if (i !== undefined) names.set(`${i}:${reg}${l.indices[0]!}.${l.component}`, name);
          }
        }
      }
      for (const k of s.children) visit(k);
    };
    for (const s of info.scopes) visit(s);
    return names.size ? names : undefined;
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    return undefined;
  }
}

/**
 * A variable and the part of it a location holds as an identifier: `normal` for `normal.x`, `s_n`
 * for `s.n.y`, `lights_2_color` for `lights[2].color.z`, `basis` for `basis._m01`; undefined for
 * names that are no identifier (`<main return value>`).
 */
export function sourceName(variable: string, member: string): string | undefined {
  const path = member.replace(/\.(?:[xyzw]|_m\d\d)$/, '');
  const name = `${variable}${path}`.replace(/\[(\d+)\]/g, '_$1').replace(/\./g, '_');
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.startsWith('__') ? name : undefined;
}

/** The register lanes each instruction stores to, `r1.0`, over the lifted functions' statements. */
export function registerWrites(m: Module): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const f of m.functions)
    walkStmts(f.body, (s) => {
      if (s.op !== 'store' || s.origin === undefined) return;
      const lanes = registerLanes(m, f, s.pointer);
      for (const i of originList(s.origin))
        for (const l of lanes) {
          const set = out.get(i);
          if (set) set.add(l);
          else out.set(i, new Set([l]));
        }
    });
  return out;
}

/** The register lanes a store's pointer names: `r1` (a local) or `o[0]` (an element of the outputs), a lane or all. */
function registerLanes(m: Module, f: Function, p: ExprId): string[] {
  const constant = (id: ExprId): number | undefined => {
    const e = f.exprs[id]!;
    return e.op === 'literal' && (e.scalar === 'u32' || e.scalar === 'i32') ? e.bits : undefined;
  };
  const index = (e: { op: string; index: number | ExprId }): number | undefined =>
    e.op === 'member' ? e.index : constant(e.index);
  const register = (id: ExprId): { name: string; lanes: number } | undefined => {
    const e = f.exprs[id]!;
    if (e.op === 'local') {
      const l = f.locals[e.local]!;
      const t = m.types[l.type]!;
      return /^r\d+$/.test(l.name) && t.kind === 'vector' ? { name: l.name, lanes: t.size } : undefined;
    }
    if (e.op !== 'access' && e.op !== 'member') return undefined;
    const base = f.exprs[e.base]!;
    if (base.op !== 'local' || f.locals[base.local]!.name !== 'o') return undefined;
    const t = m.types[f.locals[base.local]!.type]!;
    const k = index(e);
    if (t.kind !== 'array' || k === undefined) return undefined;
    const el = m.types[t.base]!;
    return el.kind === 'vector' ? { name: `o${k}`, lanes: el.size } : undefined;
  };
  const whole = register(p);
  if (whole) return Array.from({ length: whole.lanes }, (_, k) => `${whole.name}.${k}`);
  const e = f.exprs[p]!;
  if (e.op !== 'access' && e.op !== 'member') return [];
  const r = register(e.base);
  const k = index(e);
  return r && k !== undefined && k < r.lanes ? [`${r.name}.${k}`] : [];
}

/**
 * The debug name of each let of a readable function, where it has one (see the file's comment):
 * `lets[i]`'s hint and the origins of the statement that binds it.
 */
export function debugLetNames(
  f: Function,
  writes: ReadonlyMap<number, ReadonlySet<string>>,
  names: DebugNames,
): Map<number, string> {
  const out = new Map<number, string>();
  walkStmts(f.body, (s) => {
    if (s.op !== 'let') return;
    const reg = f.lets[s.let]!.name;
    if (!/^[ro]\d+$/.test(reg)) return;
    const origins = originList(s.origin);
    for (let k = origins.length - 1; k >= 0; k--) {
      const i = origins[k]!;
      const lanes = [...(writes.get(i) ?? [])].filter((l) => l.startsWith(`${reg}.`));
      if (!lanes.length) continue;
      const found = new Set(lanes.map((l) => names.get(`${i}:${l}`)));
      const [name] = found;
      if (found.size === 1 && name !== undefined) out.set(s.let, name);
      return;
    }
  });
  return out;
}
