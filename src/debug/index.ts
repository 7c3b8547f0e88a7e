// The debug-information layer's public API (containers.md, "Debug information in Shader Model 4 and
// 5 (SPDB)"): read a container's SPDB or SDBG into files, lines and variables, and the listing
// annotations the disassembler prints from them.

export {
  readDebugInfo,
  debugAnnotations,
  debugAnnotationResult,
  annotatedInstructions,
  spdbAnnotations,
  type DebugAnnotationResult,
} from './annotations.js';
export { isDeclaration, type AnnotatedInstruction } from './instructions.js';
export type { DebugInfo, SourceFile, Scope, Variable, VariableLocation, LineInfo } from './model.js';
export { readSpdb, type Spdb } from './spdb.js';
export {
  readSdbg,
  sdbgDebugInfo,
  sdbgAnnotations,
  type Sdbg,
  type SdbgInstruction,
  type SdbgVariable,
} from './sdbg.js';
export { readMsf, isMsf, type Msf } from './msf.js';
export { readPdbInfo, readStringTable, type PdbInfo, type StringTable } from './pdbinfo.js';
export { readTypeStream, type TypeStream, type Leaf } from './tpi.js';
export { readDbi, type Dbi, type DbiModule } from './dbi.js';
export {
  readSymbols,
  readBinaryAnnotations,
  type ScopeSymbol,
  type LocalSymbol,
  type DefRange,
  type AnnotationRow,
} from './symbols.js';
export { readC13, type C13, type FileChecksum, type LineEntry, type InlineeLine } from './c13.js';
