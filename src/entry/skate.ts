// iridia/skate: skate.'s engine structures beside its programs (src/engines/skate: binding sets, pass
// bindings, input layouts, render state, the register map and the pipeline description).
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export * as skate from '../engines/skate/index.js';
