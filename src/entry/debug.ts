// iridia/debug: debug information: SPDB (/Zi PDB), SDBG, MSF, annotations; DXIL's embedded sources (SRCI, dx.source.*).
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export {
  readDebugInfo as readContainerDebugInfo,
  debugAnnotations,
  debugAnnotationResult,
  readSpdb,
  readSdbg,
  sdbgDebugInfo,
  readMsf,
  type DebugInfo as ContainerDebugInfo,
  type DebugAnnotationResult,
  type SourceFile as DebugSourceFile,
  type Scope as DebugScope,
  type Variable as DebugVariable,
  type VariableLocation as DebugVariableLocation,
  type LineInfo as DebugLineInfo,
  type Spdb,
  type Sdbg,
  type Msf,
} from '../debug/index.js';
export {
  readDxilSources,
  readSrciSources,
  moduleSources as dxilModuleSources,
  type DxilSources,
  type DxilSourceFile,
} from '../dxil/sources.js';
