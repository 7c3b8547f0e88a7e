// iridia/decompile: readable programs (src/decompile): the lifted program made readable, printed as
// HLSL or readable WGSL. A subpath export of the package (package.json "exports"); the same names as
// the root export (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export {
  decompile,
  decompiledHlsl,
  decompiledHlslWithMap,
  decompiledWgsl,
  decompiledWgslWithMap,
  readableProgram,
  readableModule,
  printHlsl,
  printHlslWithMap,
  DecompileRefusal,
  containerSourceLines,
  type Decompiled,
  type SourceLines,
} from '../decompile/index.js';
