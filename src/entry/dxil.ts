// iridia/dxil: DXIL (Shader Model 6): parts, bitcode module, dxc /Fc text, reflection, root signatures.
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export { disassembleDxil, readPartModule, moduleIdent } from '../dxil/disassemble.js';
export {
  reflectDxil,
  type DxilReflection,
  type DxilReflectedResource,
  type DxilReflectedElement,
} from '../dxil/reflect.js';
export { readDxilContainer, type DxilContainer, type DxilProgram } from '../dxil/dxil-container.js';
export { readModule as readDxilModule } from '../dxil/module.js';
export { ModulePrinter as DxilModulePrinter } from '../dxil/printer.js';
export { dxcInstructionComment } from '../dxil/annotate.js';
export { readDxilInfo, type DxilInfo } from '../dxil/dxil-metadata.js';
export { readBitcode, BitstreamReader, type BitBlock, type BitRecord } from '../dxil/bitstream.js';
export { readProgramHeader, type DxilProgramHeader } from '../dxil/program-header.js';
export { readPsv0, type Psv0 } from '../dxil/psv0.js';
export { readRts0, type RootSignature } from '../dxil/rts0.js';
export { readRdat, type Rdat } from '../dxil/rdat.js';
export { readIldn, readHash, readVers, readSrci } from '../dxil/parts.js';
export { dxOp, dxOpName, dxOpCensus, type DxOpCount } from '../dxil/dxop.js';
export { dxilCensusSection } from '../dxil/census.js';
export type { Module as DxilModule } from '../dxil/ir.js';
