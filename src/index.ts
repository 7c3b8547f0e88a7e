// iridia's public API. The core (everything exported here) uses no Node API and runs in browsers.

export { IridiaError, UnsupportedError, isIridiaError, type ErrorCode, type ErrorLocation } from './errors.js';
export { ByteReader } from './binary/reader.js';
export {
  parseContainer,
  serializeContainer,
  rewriteContainer,
  signContainer,
  editContainer,
  digestState,
  findPart,
  hasContainerMagic,
  type Container,
  type Part,
  type PartInput,
  type Finding,
  type FindingKind,
  type DigestState,
} from './container/container.js';
export { containerDigest, containerDigestOf } from './container/digest.js';
export { programInfo, type ProgramInfo, type ContainerKind } from './container/program.js';
export {
  readSignature,
  isSignatureKind,
  SIGNATURE_LAYOUTS,
  type Signature,
  type SignatureElement,
  type SignatureKind,
} from './parts/signature.js';
export {
  readRdef,
  typeSize,
  memberOffsetBase,
  type Rdef,
  type RdefLayout,
  type RdefType,
  type RdefMember,
  type RdefVariable,
  type RdefConstantBuffer,
  type RdefBinding,
} from './parts/rdef.js';
export { readStat, STAT_WORDS, type Stat, type StatWord } from './parts/stat.js';
export { readSfi0, SFI0_BITS, type FeatureInfo } from './parts/sfi0.js';
export { readIfce, type Ifce, type IfceInstance, type IfceClassType, type IfceSlotRecord } from './parts/ifce.js';
export {
  readAon9,
  type Aon9,
  type Aon9ConstantRange,
  type Aon9ScalarRow,
  type Aon9SamplerRow,
  type Aon9RuntimeRow,
} from './parts/aon9.js';
export {
  reflect,
  minFeatureLevel,
  type Reflection,
  type ShaderDesc,
  type ReflectedParameter,
} from './reflect/reflection.js';
export { d3dReflectJson, type Json } from './reflect/d3d.js';
export {
  decodeD3D9,
  isD3D9Program,
  type D3D9Program,
  type D3D9Record,
  type D3D9Instruction,
  type D3D9Comment,
  type D3D9Version,
  type D3D9Dst,
  type D3D9Src,
  type D3D9Dcl,
  type D3D9RelAddr,
} from './d3d9/decode.js';
export { disassembleD3D9, printD3D9, D3D9_FLAGS, type D3D9ListingOptions } from './d3d9/disasm.js';
export { readConstantTable, type ConstantTable, type CtabConstant, type CtabType } from './d3d9/ctab.js';
export { readDebugInfo, type DebugInfo, type DbugLine, type DbugVariable, type DbugLocation } from './d3d9/dbug.js';
export { level9Listing } from './disasm/level9.js';
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
} from './debug/index.js';
export {
  readDxilSources,
  readSrciSources,
  moduleSources as dxilModuleSources,
  type DxilSources,
  type DxilSourceFile,
} from './dxil/sources.js';
export { printableKind } from './container/container.js';
export {
  disassemble,
  DISASM_ENABLE_INSTRUCTION_NUMBERING,
  DISASM_DISABLE_DEBUG_INFO,
  DISASM_ENABLE_INSTRUCTION_OFFSET,
  DISASM_INSTRUCTION_ONLY,
  DISASM_PRINT_HEX_LITERALS,
  type DisassembleOptions,
} from './disasm/disassemble.js';
export { disassembleAny } from './disasm/any.js';
export { ERAS, eraOfCreator, type Era, type EraName } from './disasm/era.js';
export { isBareEffect, bareEffectListing } from './disasm/effect.js';
export { libraryListing, isLibrary } from './disasm/library.js';
export { readLibh, readLfs0, type LibraryHeader, type LibraryParameter } from './parts/library.js';
export { reflectionJson, reflectionText } from './reflect/view.js';
export { readDeclarations, type Declarations } from './reflect/declarations.js';
export { listingHeader, headerOf } from './disasm/header.js';
// The IR, the SM4/5 lifter and the WGSL emitter (lifter-dxbc.md).
export * as ir from './ir/index.js';
export { validateModule, printModule, originList, mergeOrigins } from './ir/index.js';
export type { Module as IrModule } from './ir/ir.js';
export type {
  Program as LiftedProgram,
  LiftOptions,
  Interface as LiftedInterface,
  Resource as LiftedResource,
  Varying,
  Stage,
  StageFunctions,
} from './ir/program.js';
export { lift, liftContainer } from './lift/lift.js';
export {
  assemble,
  assembleProgram,
  checkProgram,
  AsmError,
  type AssembleOptions,
  type AssembleResult,
  type AssembledProgram,
  assembleD3D9,
  isD3D9Listing,
  d3d9Losses,
  type AssembleD3D9Options,
  type AssembleD3D9Result,
} from './asm/index.js';
export { LiftRefusal, type RefusalReason } from './lift/refuse.js';
export {
  emitWgsl,
  emitWgslWithMap,
  emitModuleWgsl,
  emitModuleWgslWithMap,
  lowerForWgsl,
  Namer,
  WGSL_RESERVED,
  type WgslWithMap,
} from './wgsl/index.js';
// The Shader Model 4/5/5.1 token-stream decoder (lossless program, opcode table, census).
export {
  decodeProgram,
  decodeContainerProgram,
  programPart,
  opcodeCensus,
  addToCensus,
  sm4OpcodeSection,
  OPCODES as SM4_OPCODES,
  type Program as Sm4Program,
  type ProgramVersion as Sm4ProgramVersion,
  type Instruction as Sm4Instruction,
  type Operand as Sm4Operand,
  type OperandIndex as Sm4OperandIndex,
  type ExtendedOpcode as Sm4ExtendedOpcode,
  type CustomData as Sm4CustomData,
  type OpcodeInfo as Sm4OpcodeInfo,
  type OpcodeCensus as Sm4OpcodeCensus,
} from './sm4/index.js';
export { programListing, listingHooks } from './disasm/disassemble.js';
export type { ListingAnnotations, AnnotationProvider } from './disasm/annotations.js';
// DXIL (Shader Model 6): parts, the LLVM 3.7 bitcode module, dxc's /Fc disassembly, reflection.
export { disassembleDxil, readPartModule, moduleIdent } from './dxil/disassemble.js';
export {
  reflectDxil,
  type DxilReflection,
  type DxilReflectedResource,
  type DxilReflectedElement,
} from './dxil/reflect.js';
export { readDxilContainer, type DxilContainer, type DxilProgram } from './dxil/dxil-container.js';
export { readModule as readDxilModule } from './dxil/module.js';
export { ModulePrinter as DxilModulePrinter } from './dxil/printer.js';
export { dxcInstructionComment } from './dxil/annotate.js';
export { readDxilInfo, type DxilInfo } from './dxil/dxil-metadata.js';
export { readBitcode, BitstreamReader, type BitBlock, type BitRecord } from './dxil/bitstream.js';
export { readProgramHeader, type DxilProgramHeader } from './dxil/program-header.js';
export { readPsv0, type Psv0 } from './dxil/psv0.js';
export { readRts0, type RootSignature } from './dxil/rts0.js';
export { readRdat, type Rdat } from './dxil/rdat.js';
export { readIldn, readHash, readVers, readSrci } from './dxil/parts.js';
export { dxOp, dxOpName, dxOpCensus, type DxOpCount } from './dxil/dxop.js';
export { dxilCensusSection } from './dxil/census.js';
export type { Module as DxilModule } from './dxil/ir.js';
export {
  runCompute,
  runPixel,
  runVertex,
  runGeometry,
  runHull,
  runDomain,
  runMesh,
  runAmplification,
  hullPhaseInstances,
  nearestClampSampler,
  d3dFloat,
  type ExecBindings,
  type ExecTexture,
  type SampleRequest,
  type SampleCallback,
} from './exec/index.js';
export { openGpu, type GpuSession } from './gpu/index.js';
export type { CompileResult, ComputeJob, PixelJob, GpuBinding } from './gpu/index.js';
export * as skate from './engines/skate/index.js';
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
} from './decompile/index.js';
