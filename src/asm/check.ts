// The Direct3D validator's register rules an edited program must keep (D3D11.3 functional spec,
// "Shader Model 5 register counts"; the D3D10/11 bytecode validator's checks): every temp r# used
// is below its phase's dcl_temps, every indexable x#[i] is declared (an immediate index within its
// size), input and output registers v#/o# are below 32, dcl_temps is at most 4096, and a compute program's
// dcl_thread_group stays within 1024 threads (768 for cs_4_x) with x, y <= 1024 and z <= 64 (fxc
// writes cs_4_x groups with z up to 4 though the spec says 1: the rule is the compiler's).
// assemble() reports what it finds as notes; it does not refuse (the listing is the user's).

import type { Operand, Program } from '../sm4/types.js';

/** The problems found, each a sentence naming the instruction index. */
export function checkProgram(p: Program): string[] {
  const found = new Set<string>();
  const problems = { push: (s: string): void => void found.add(s) };
  let temps = 0;
  const indexable = new Map<number, number>();
  const cs4 = p.version.type === 5 && p.version.major === 4;
  const visit = (op: Operand, at: number): void => {
    const first = op.indices[0];
    if (op.type === 0 && first !== undefined && first.rel === undefined && first.imm >= temps)
      problems.push(`instruction ${at}: r${first.imm} is past dcl_temps ${temps}`);
    if (op.type === 3 && first !== undefined) {
      const size = indexable.get(first.imm);
      const ix = op.indices[1];
      if (size === undefined) problems.push(`instruction ${at}: x${first.imm} is not declared (dcl_indexableTemp)`);
      else if (ix !== undefined && ix.rel === undefined && ix.imm >= size)
        problems.push(`instruction ${at}: x${first.imm}[${ix.imm}] is past its size ${size}`);
    }
    if ((op.type === 1 || op.type === 2) && op.indices.length === 1 && first!.rel === undefined && first!.imm >= 32)
      problems.push(`instruction ${at}: ${op.type === 1 ? 'v' : 'o'}${first!.imm} is past the 32 registers`);
    for (const ix of op.indices) if (ix.rel) visit(ix.rel, at);
  };
  for (const ins of p.instructions) {
    if (ins.customData) continue;
    if (ins.opcode >= 0x72 && ins.opcode <= 0x74) {
      // each hull-shader phase declares its own temps
      temps = 0;
      indexable.clear();
    }
    if (ins.opcode === 0x68) {
      temps = ins.values[0] ?? 0;
      if (temps > 4096) problems.push(`instruction ${ins.index}: dcl_temps ${temps} is over 4096`);
    } else if (ins.opcode === 0x69) indexable.set(ins.values[0] ?? 0, ins.values[1] ?? 0);
    else if (ins.opcode === 0x9b) {
      const [x = 0, y = 0, z = 0] = ins.values;
      const max = cs4 ? 768 : 1024;
      if (x * y * z > max || x > 1024 || y > 1024 || z > 64 || x * y * z === 0)
        problems.push(
          `instruction ${ins.index}: dcl_thread_group ${x}, ${y}, ${z} is outside ${cs4 ? 'cs_4_x' : 'cs_5_0'}'s limits (x, y <= 1024, z <= 64, at most ${max} threads)`,
        );
    }
    for (const op of ins.operands) visit(op, ins.index);
  }
  return [...found];
}
