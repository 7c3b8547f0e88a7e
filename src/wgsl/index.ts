// WGSL output of a lifted program: the WGSL-only IR→IR passes (passes.ts), then the direct
// emitter (emit.ts). emitWgsl(program) is the public entry.

import type { Module } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import { emitModuleWgsl, emitModuleWgslWithMap, type WgslOptions, type WgslWithMap } from './emit.js';
import { lowerForWgsl } from './passes.js';
import { LiftRefusal } from '../lift/refuse.js';

export {
  emitModuleWgsl,
  emitModuleWgslWithMap,
  f32Text,
  retryingViews,
  ViewMiss,
  type GlobalView,
  type WgslWithMap,
} from './emit.js';
export { Namer, WGSL_RESERVED } from './namer.js';
export { lowerForWgsl } from './passes.js';

/** The program as one WGSL module (entry point `main`, or plain functions for stage functions).
 * `readable`: the decompiler's readable mode (WgslOptions.shapes, and `views`: globals the caller
 * declares and reads, emit.ts GlobalView, readable WGSL's structs); without it, the lifter's text. */
export function emitWgsl(program: Program, readable: Readable = {}): string {
  const { module, options } = prepare(program);
  return emitModuleWgsl(module, { ...options, ...readable });
}

/** The options of the decompiler's readable WGSL (emit.ts WgslOptions). */
export type Readable = Pick<WgslOptions, 'shapes' | 'views'>;

/** emitWgsl's text, byte for byte, with the origins of each of its lines (emit.ts WgslWithMap): the
 * instructions each WGSL line came from. */
export function emitWgslWithMap(program: Program, readable: Readable = {}): WgslWithMap {
  const { module, options } = prepare(program);
  return emitModuleWgslWithMap(module, { ...options, ...readable });
}

function prepare(program: Program): { module: Module; options: WgslOptions } {
  // A stage function with no WGSL counterpart at all (hull, domain and geometry ones are written as
  // plain functions, as before).
  if (program.stage === 'mesh' || program.stage === 'amplification')
    throw new LiftRefusal(
      'mesh and amplification',
      `${program.provenance.target}: WGSL has no mesh pipeline (the executor runs the ${program.stage} program: runMesh, runAmplification)`,
    );
  const header = [
    `lifted by iridia from ${program.provenance.bytecode} ${program.provenance.target} (${program.provenance.part}, ${program.provenance.instructions} instructions)`,
    ...program.notes.map((n) => `note: ${n}`),
  ];
  const module = lowerForWgsl(program.module, { maxVertices: program.stageFunctions?.maxVertexCount ?? 1 });
  return { module, options: { header } };
}
