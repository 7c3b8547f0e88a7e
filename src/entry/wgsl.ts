// iridia/wgsl: the WGSL emitter.
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export {
  emitWgsl,
  emitWgslWithMap,
  emitModuleWgsl,
  emitModuleWgslWithMap,
  lowerForWgsl,
  Namer,
  WGSL_RESERVED,
  type WgslWithMap,
} from '../wgsl/index.js';
