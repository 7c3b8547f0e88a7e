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

/** Decodes the container's SHEX/SHDR program; undefined when the container has none. */
export function decodeContainerProgram(c: Container): Program | undefined {
  const part = programPart(c);
  return part === undefined ? undefined : decodeProgram(part.data, part.kind);
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
