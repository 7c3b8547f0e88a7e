// iridia/lift: the IR and the lifters (DXBC and DXIL) to it.
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export * as ir from '../ir/index.js';
export { validateModule, printModule, originList, mergeOrigins } from '../ir/index.js';
export type { Module as IrModule } from '../ir/ir.js';
export type {
  Program as LiftedProgram,
  LiftOptions,
  Interface as LiftedInterface,
  Resource as LiftedResource,
  Varying,
  Stage,
  StageFunctions,
} from '../ir/program.js';
export { lift, liftContainer } from '../lift/lift.js';
export { LiftRefusal, type RefusalReason } from '../lift/refuse.js';
