// Finding the token stream of a container and counting instructions per opcode (the decode census
// of containers.md, "Shader Model 4 and 5 token streams": coverage of real programs by opcode).

import type { Container, Part } from '../container/container.js';
import { decodeProgram } from './decode.js';
import { OPCODES } from './opcodes.js';
import type { Program } from './types.js';

/** The container's SHEX or SHDR part, if it has one. */
export function programPart(c: Container): Part | undefined {
  return c.parts.find((p) => p.kind === 'SHEX') ?? c.parts.find((p) => p.kind === 'SHDR');
}

/**
 * The last container decoded and its program: the header's reflection, the debug lines and the
 * listing of one container share one decode. One entry, not a WeakMap: ephemerons keep every young
 * program alive until a full collection, which costs more than the decode saves.
 */
let lastContainer: Container | undefined;
let lastProgram: Program | undefined;

/** Decodes the container's SHEX/SHDR program; undefined when the container has none. */
export function decodeContainerProgram(c: Container): Program | undefined {
  if (c === lastContainer && lastProgram !== undefined) return lastProgram;
  const part = programPart(c);
  if (part === undefined) return undefined;
  const p = decodeProgram(part.data, part.kind);
  lastContainer = c;
  lastProgram = p;
  return p;
}

/** Instruction counts per opcode name, and how many programs use each. */
export interface OpcodeCensus {
  programs: number;
  instructions: number;
  /** name -> [instructions, programs]. */
  readonly byOpcode: Map<string, [number, number]>;
}

export function opcodeCensus(): OpcodeCensus {
  return { programs: 0, instructions: 0, byOpcode: new Map() };
}

/** Adds one decoded program to a census. */
export function addToCensus(census: OpcodeCensus, program: Program): void {
  census.programs++;
  const seen = new Set<string>();
  for (const ins of program.instructions) {
    const name = OPCODES[ins.opcode]?.name ?? `opcode_${ins.opcode}`;
    census.instructions++;
    let row = census.byOpcode.get(name);
    if (row === undefined) census.byOpcode.set(name, (row = [0, 0]));
    row[0]++;
    if (!seen.has(name)) {
      seen.add(name);
      row[1]++;
    }
  }
}

/**
 * The `census --decode` section (the container layer's CensusSection extension point, structurally
 * typed so the decoder does not import the census): decodes each SHDR/SHEX program and counts
 * instructions per opcode; refusals are counted by error code.
 */
export function sm4OpcodeSection(options: { readonly decode?: boolean }):
  | {
      readonly name: string;
      readonly title: string;
      add(container: Container): void;
      toJSON(): unknown;
      toText(): string[];
    }
  | undefined {
  if (!options.decode) return undefined;
  const census = opcodeCensus();
  const refusals = new Map<string, number>();
  return {
    name: 'sm4Opcodes',
    title: 'Shader Model 4/5 instructions by opcode (instructions, programs)',
    add(container: Container): void {
      try {
        const p = decodeContainerProgram(container);
        if (p) addToCensus(census, p);
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        if (typeof code !== 'string') throw e;
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
      }
    },
    toJSON(): unknown {
      return {
        programs: census.programs,
        instructions: census.instructions,
        refused: Object.fromEntries(refusals),
        opcodes: Object.fromEntries(sortedRows(census).map(([k, [n, p]]) => [k, { instructions: n, programs: p }])),
      };
    },
    toText(): string[] {
      const rows = sortedRows(census);
      const lines = [`  ${census.instructions} instructions in ${census.programs} programs`];
      for (const [code, n] of refusals) lines.push(`  refused ${n} (${code})`);
      const w = Math.max(1, ...rows.map(([, [n]]) => String(n).length));
      for (const [k, [n, p]] of rows) lines.push(`  ${String(n).padStart(w)}  ${k} (${p})`);
      return lines;
    },
  };
}

function sortedRows(c: OpcodeCensus): [string, [number, number]][] {
  return [...c.byOpcode].sort((a, b) => b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1));
}
