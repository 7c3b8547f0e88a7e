// The IR layer's public face: types (ir.ts), lifted programs (program.ts), builders, type
// resolution, the validator and the printer.

export type * from './ir.js';
export { originList, mergeOrigins, withOrigin } from './ir.js';
export type * from './program.js';
export { ModuleBuilder, FunctionBuilder } from './builder.js';
export { resolveFunction, IrTypeError, describe, scalarOf, widthOf, sameType, type Resolved } from './typeof.js';
export { validateModule, children } from './validate.js';
export { printModule, printFunction, typeName, literalText } from './print.js';
