// Reflection of DXIL (Shader Model 6) containers in the views `iridia reflect` prints for DXBC:
// D3DReflect's JSON shape (d3d.ts's keys and order), iridia's own JSON and a short text summary,
// from reflectDxil (src/dxil/reflect.ts). D3DReflect on a DXIL container is dxcompiler's
// DxilShaderReflection; the values below follow what it reports, field by field, and docs/reflect.md
// ("DXIL") lists where they come from and what differs.

import type { Container } from '../container/container.js';
import { IridiaError, UnsupportedError } from '../errors.js';
import {
  reflectDxil,
  type DxilReflectedElement,
  type DxilReflectedResource,
  type DxilReflection,
} from '../dxil/reflect.js';
import { COMPONENT_TYPES } from '../dxil/resource-properties.js';
import type { SignatureElement } from '../parts/signature.js';
import { d3dReflectJson, type Json } from './d3d.js';
import { reflect } from './reflection.js';
import { reflectionJson, reflectionText } from './view.js';

/** Whether a container holds a DXIL program (DXIL or, when that is all there is, ILDB) and no SM4/5 program. */
export function isDxilContainer(c: Container): boolean {
  const kinds = new Set(c.parts.map((p) => p.kind));
  return !kinds.has('SHEX') && !kinds.has('SHDR') && (kinds.has('DXIL') || kinds.has('ILDB'));
}

/** reflectDxil, or E108 when the container holds no program (a root signature alone). */
export function reflectDxilProgram(c: Container): DxilReflection {
  const r = reflectDxil(c);
  if (r === undefined)
    throw new IridiaError(
      'E108_PART_MISSING',
      'the container has no DXIL or ILDB part: there is no program to reflect',
    );
  return r;
}

// D3D_SHADER_INPUT_TYPE, D3D_SRV_DIMENSION and D3D_RESOURCE_RETURN_TYPE values.
const SIT = { cbuffer: 0, tbuffer: 1, texture: 2, sampler: 3, uavTyped: 4, structured: 5, uavStructured: 6 } as const;
const SIT_BYTEADDRESS = 7;
const SIT_UAV_BYTEADDRESS = 8;
const SIT_UAV_STRUCTURED_WITH_COUNTER = 11;
const SIT_RTACCELERATIONSTRUCTURE = 12;
const SIT_UAV_FEEDBACKTEXTURE = 13;

/** DXIL::ResourceKind (by name) to D3D_SRV_DIMENSION. */
const DIMENSION: Readonly<Record<string, number>> = {
  TypedBuffer: 1,
  StructuredBuffer: 1,
  RawBuffer: 1,
  TBuffer: 1,
  Texture1D: 2,
  Texture1DArray: 3,
  Texture2D: 4,
  Texture2DArray: 5,
  Texture2DMS: 6,
  Texture2DMSArray: 7,
  Texture3D: 8,
  TextureCube: 9,
  TextureCubeArray: 10,
};

function inputType(r: DxilReflectedResource): number {
  const uav = r.class === 'UAV';
  switch (r.kind) {
    case 'CBuffer':
      return SIT.cbuffer;
    case 'Sampler':
      return SIT.sampler;
    case 'RawBuffer':
      return uav ? SIT_UAV_BYTEADDRESS : SIT_BYTEADDRESS;
    case 'StructuredBuffer':
      return !uav ? SIT.structured : r.hasCounter ? SIT_UAV_STRUCTURED_WITH_COUNTER : SIT.uavStructured;
    case 'RTAccelerationStructure':
      return SIT_RTACCELERATIONSTRUCTURE;
    case 'FeedbackTexture2D':
    case 'FeedbackTexture2DArray':
      return SIT_UAV_FEEDBACKTEXTURE;
    default:
      return uav ? SIT.uavTyped : r.kind === 'TBuffer' ? SIT.tbuffer : SIT.texture;
  }
}

/** D3D_RESOURCE_RETURN_TYPE of an SRV or UAV from its DXIL component type (0 for buffers and samplers). */
function returnType(r: DxilReflectedResource): number {
  if (r.class !== 'SRV' && r.class !== 'UAV') return 0;
  const t = COMPONENT_TYPES[r.componentType ?? 0] ?? '';
  if (t === 'F64') return 7;
  if (t.startsWith('UNorm')) return 1;
  if (t.startsWith('SNorm')) return 2;
  if (t === 'I16' || t === 'I32' || t === 'I64') return 3;
  if (t === 'U16' || t === 'U32' || t === 'U64') return 4;
  if (t === 'F16' || t === 'F32') return 5;
  return 6; // mixed: raw and structured buffers
}

function flags(r: DxilReflectedResource): number {
  let f = 0;
  const n = r.components;
  if (n === 4) f |= 0xc;
  else if (n === 3) f |= 0x8;
  else if (n === 2) f |= 0x4;
  if (r.class === 'Sampler' && r.samplerKind === 1) f |= 0x2; // D3D_SIF_COMPARISON_SAMPLER
  return f;
}

function numSamples(r: DxilReflectedResource): number {
  if (r.class !== 'SRV' && r.class !== 'UAV') return 0;
  if (r.sampleCount) return r.sampleCount;
  if (r.kind === 'StructuredBuffer') return r.stride ?? 0;
  if (r.kind === 'RawBuffer') return 0;
  return 0xffffffff;
}

/** DXIL::SemanticKind to D3D_NAME, as dxc's reflection maps it (tessellation factors by domain below). */
const SEMANTIC_NAME: Readonly<Record<number, number>> = {
  1: 6, // VertexID
  2: 8, // InstanceID
  3: 1, // Position
  4: 4, // RenderTargetArrayIndex
  5: 5, // ViewPortArrayIndex
  6: 2, // ClipDistance
  7: 3, // CullDistance
  10: 7, // PrimitiveID
  12: 10, // SampleIndex
  13: 9, // IsFrontFace
  14: 66, // Coverage
  15: 70, // InnerCoverage
  16: 64, // Target
  17: 65, // Depth
  18: 68, // DepthLessEqual
  19: 67, // DepthGreaterEqual
  20: 69, // StencilRef
};

function systemValueOf(kind: number, domain: number | undefined): number {
  if (kind === 25) return domain === 1 ? 15 : domain === 2 ? 13 : domain === 3 ? 11 : 0; // TessFactor
  if (kind === 26) return domain === 2 ? 14 : domain === 3 ? 12 : 0; // InsideTessFactor
  return SEMANTIC_NAME[kind] ?? 0;
}

/**
 * Signature elements from the module's metadata, for a container without signature parts (ILDB
 * alone): one entry per semantic index, rows from the element's start row; the read/write mask as
 * dxc's reflection gives it (an input read: its whole mask; an output written: none never written).
 */
function metadataElements(
  es: readonly DxilReflectedElement[],
  input: boolean,
  domain: number | undefined,
): SignatureElement[] {
  return es.flatMap((e) => {
    const mask = (((1 << e.cols) - 1) << e.startCol) & 0xf;
    const used = e.usageMask !== 0;
    const t = e.componentType;
    return e.indices.map((index, row) => ({
      semanticName: e.name,
      semanticIndex: index,
      systemValue: systemValueOf(e.semanticKind, domain),
      componentType: t === 8 || t === 9 ? 3 : t === 1 || t === 3 || t === 5 ? 1 : t === 2 || t === 4 ? 2 : 0,
      register: e.startRow + row,
      mask,
      readWriteMask: input ? (used ? mask : 0) : used ? ~mask & 0xf : mask,
      stream: e.stream,
      minPrecision: t === 8 ? 1 : t === 2 ? 4 : t === 3 ? 5 : 0,
    }));
  });
}

/** The signature parameters: the ISG1/OSG1/PSG1 parts, or the metadata's elements where a part is absent. */
export function dxilParameters(r: DxilReflection): {
  inputs: readonly SignatureElement[];
  outputs: readonly SignatureElement[];
  patchConstants: readonly SignatureElement[];
} {
  const d = r.stageState.tessellatorDomain;
  return {
    inputs: r.signatureParts.ISG1?.elements ?? metadataElements(r.inputs, true, d),
    outputs: r.signatureParts.OSG1?.elements ?? metadataElements(r.outputs, false, d),
    // A domain program reads its patch constants; a hull program writes them.
    patchConstants: r.signatureParts.PSG1?.elements ?? metadataElements(r.patchConstant, r.stage === 'ds', d),
  };
}

/** A system-value semantic (SV_...) in capitals, as dxc's reflection spells it; others as stored. */
const semanticName = (e: SignatureElement): string =>
  e.systemValue !== 0 || /^sv_/i.test(e.semanticName) ? e.semanticName.toUpperCase() : e.semanticName;

const param = (e: SignatureElement): { [key: string]: Json } => ({
  SemanticName: semanticName(e),
  SemanticIndex: e.semanticIndex,
  Register: e.register,
  SystemValueType: e.systemValue,
  ComponentType: e.componentType,
  Mask: e.mask,
  ReadWriteMask: e.readWriteMask,
  Stream: e.stream,
  MinPrecision: e.minPrecision,
});

/**
 * D3DReflect's JSON (d3d.ts's shape) for a DXIL program. Libraries have no such view (D3D12 reflects
 * them through ID3D12LibraryReflection): E208, unsupported.
 */
export function d3dReflectDxilJson(r: DxilReflection): { [key: string]: Json } {
  if (r.stage === 'lib')
    throw new UnsupportedError(
      'E208_PART_UNSUPPORTED',
      'a DXIL library has no D3DReflect shader view (D3D12 reflects libraries function by function); use `iridia reflect --json`',
      { part: 'DXIL' },
    );
  const { inputs, outputs, patchConstants: patch } = dxilParameters(r);
  const s = r.stageState;
  const cbuffers = r.resources.filter((x) => x.class === 'CBuffer');
  // dxc lists the structured buffers as "resource bind info" buffers after the cbuffers: UAVs, then SRVs.
  const structured = ['UAV', 'SRV'].flatMap((cls) =>
    r.resources.filter((x) => x.class === cls && x.kind === 'StructuredBuffer'),
  );
  const zero = (...names: string[]): Record<string, number> => Object.fromEntries(names.map((n) => [n, 0]));
  const desc: { [key: string]: Json } = {
    Version: r.programVersion,
    Creator: null,
    Flags: 0,
    ConstantBuffers: cbuffers.length + structured.length,
    BoundResources: r.resources.length,
    InputParameters: inputs.length,
    OutputParameters: outputs.length,
    ...zero(
      'InstructionCount',
      'TempRegisterCount',
      'TempArrayCount',
      'DefCount',
      'DclCount',
      'TextureNormalInstructions',
      'TextureLoadInstructions',
      'TextureCompInstructions',
      'TextureBiasInstructions',
      'TextureGradientInstructions',
      'FloatInstructionCount',
      'IntInstructionCount',
      'UintInstructionCount',
      'StaticFlowControlCount',
      'DynamicFlowControlCount',
      'MacroInstructionCount',
      'ArrayInstructionCount',
      'CutInstructionCount',
      'EmitInstructionCount',
    ),
    GSOutputTopology: s.streamPrimitiveTopology ?? 0,
    GSMaxOutputVertexCount: s.maxVertexCount ?? 0,
    InputPrimitive: r.stage === 'hs' ? (s.inputControlPoints ? 7 + s.inputControlPoints : 0) : (s.inputPrimitive ?? 0),
    PatchConstantParameters: patch.length,
    cGSInstanceCount: s.instanceCount ?? 0,
    cControlPoints:
      r.stage === 'hs' ? (s.outputControlPoints ?? 0) : r.stage === 'ds' ? (s.inputControlPoints ?? 0) : 0,
    HSOutputPrimitive: s.tessellatorOutputPrimitive ?? 0,
    HSPartitioning: s.tessellatorPartitioning ?? 0,
    TessellatorDomain: s.tessellatorDomain ?? 0,
    ...zero('cBarrierInstructions', 'cInterlockedInstructions', 'cTextureStoreInstructions'),
  };
  const [x, y, z] = r.stage === 'cs' && r.numThreads ? r.numThreads : [0, 0, 0];
  // SFI0 bits 0 and 2-13 are the D3D_SHADER_REQUIRES_* bits of the same value; bit 1 is not reported.
  const requires = r.featureFlags & 0x3ffdn;
  return {
    Desc: desc,
    MovInstructionCount: 0,
    MovcInstructionCount: 0,
    ConversionInstructionCount: 0,
    BitwiseInstructionCount: 0,
    GSInputPrimitive: r.stage === 'gs' ? (s.inputPrimitive ?? 0) : 0,
    IsSampleFrequencyShader: false,
    NumInterfaceSlots: 0,
    MinFeatureLevel: 0xc000,
    ThreadGroupSize: [x, y, z],
    ThreadGroupTotal: x * y * z,
    RequiresFlags: `0x${requires.toString(16).padStart(16, '0')}`,
    ConstantBuffers: [
      ...cbuffers.map((cb) => ({
        Name: cb.name,
        Type: 0, // D3D_CT_CBUFFER
        Variables: cb.variables?.length ?? 0,
        Size: cb.size ?? 0,
        uFlags: 0,
        VariableList: (cb.variables ?? []).map((v) => ({ Name: v.name, StartOffset: v.offset })),
      })),
      ...structured.map((sb) => ({
        Name: sb.name,
        Type: 3, // D3D_CT_RESOURCE_BIND_INFO
        Variables: 1,
        Size: sb.stride ?? 0,
        uFlags: 0,
        VariableList: [{ Name: '$Element', StartOffset: 0 }],
      })),
    ],
    BoundResources: r.resources.map((b) => ({
      Name: b.name,
      Type: inputType(b),
      BindPoint: b.lowerBound,
      BindCount: b.count ?? 0,
      uFlags: flags(b),
      ReturnType: returnType(b),
      Dimension: b.class === 'SRV' || b.class === 'UAV' ? (DIMENSION[b.kind] ?? 0) : 0,
      NumSamples: numSamples(b),
      Space: b.space,
      uID: b.id,
    })),
    InputParameters: inputs.map(param),
    OutputParameters: outputs.map(param),
    PatchConstantParameters: patch.map(param),
  };
}

/** Plain JSON of a value: bigints as hex strings, byte arrays as hex, Maps as objects. */
function plain(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return `0x${v.toString(16)}`;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  if (typeof v === 'object') {
    const o: { [key: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined && typeof x !== 'function') o[k] = plain(x);
    return o;
  }
  return null;
}

/** iridia's own JSON of a DXIL reflection: everything reflectDxil reads, and `d3d` (null for a library). */
export function dxilReflectionJson(r: DxilReflection): { [key: string]: Json } {
  const { signatureParts, ...rest } = r;
  return {
    d3d: r.stage === 'lib' ? null : d3dReflectDxilJson(r),
    ...(plain(rest) as { [key: string]: Json }),
    signatures: Object.values(signatureParts).map((s) => ({
      kind: s.kind,
      elements: s.elements.map((e) => ({ ...e })),
    })),
  };
}

const REGISTER_CLASS: Readonly<Record<DxilReflectedResource['class'], string>> = {
  CBuffer: 'cb',
  Sampler: 's',
  SRV: 't',
  UAV: 'u',
};

/** A short text summary, in the layout of reflectionText (DXBC). */
export function dxilReflectionText(r: DxilReflection): string {
  const lines = [
    `program   ${r.stage}_${r.shaderModel.replace('.', '_')}`,
    `dxil      ${r.dxilVersion ?? '?'}, validator ${r.validatorVersion ?? '?'}`,
    `entry     ${r.entryPoints.filter((e) => e).join(', ') || '(none)'}`,
    `feature   SFI0 0x${r.featureFlags.toString(16)}, shader flags 0x${r.shaderFlags.toString(16)}`,
  ];
  if (r.numThreads) lines.push(`threads   ${r.numThreads.join(' x ')}`);
  if (r.waveSize) lines.push(`wave      ${r.waveSize.min}..${r.waveSize.max}`);
  for (const cb of r.resources.filter((x) => x.class === 'CBuffer')) {
    lines.push(`cbuffer   ${cb.name} (${cb.size ?? 0} bytes, ${cb.variables?.length ?? 0} variables)`);
    for (const v of cb.variables ?? []) lines.push(`            ${String(v.offset).padStart(5)}  ${v.name}`);
  }
  for (const b of r.resources) {
    const reg = `${REGISTER_CLASS[b.class]}${b.lowerBound}`;
    const fmt = b.componentType ? ` ${COMPONENT_TYPES[b.componentType] ?? b.componentType}` : '';
    const stride = b.stride !== undefined ? ` stride ${b.stride}` : '';
    lines.push(
      `binding   ${b.name || '(unnamed)'}: ${b.class} ${b.kind}${fmt}${stride} at ${reg} count ${b.count ?? 'unbounded'} space ${b.space} id ${b.id}`,
    );
  }
  const sig = (label: string, es: readonly SignatureElement[] | undefined): void => {
    for (const e of es ?? [])
      lines.push(`${label} ${e.semanticName}${e.semanticIndex} r${e.register} mask 0x${e.mask.toString(16)}`);
  };
  const ps = dxilParameters(r);
  sig('input    ', ps.inputs);
  sig('output   ', ps.outputs);
  sig('patch    ', ps.patchConstants);
  for (const f of r.libraryFunctions) lines.push(`function  ${f.name}`);
  return `${lines.join('\n')}\n`;
}

/** E108 for a root signature alone (RTS0, no program part), which the SM4/5 path would call a missing SHEX. */
function noRootSignatureOnly(c: Container): void {
  const kinds = new Set(c.parts.map((p) => p.kind));
  if (kinds.has('RTS0') && !['SHEX', 'SHDR', 'DXIL', 'ILDB'].some((k) => kinds.has(k)))
    throw new IridiaError(
      'E108_PART_MISSING',
      'the container holds a root signature alone (RTS0): there is no program to reflect',
    );
}

/** D3DReflect's JSON for any container with a program: SM4/5 (SHEX/SHDR) or DXIL. */
export function d3dReflectAnyJson(c: Container): { [key: string]: Json } {
  noRootSignatureOnly(c);
  return isDxilContainer(c) ? d3dReflectDxilJson(reflectDxilProgram(c)) : d3dReflectJson(reflect(c));
}

/** iridia's own JSON view for any container with a program. */
export function reflectionAnyJson(c: Container): { [key: string]: Json } {
  noRootSignatureOnly(c);
  return isDxilContainer(c) ? dxilReflectionJson(reflectDxilProgram(c)) : reflectionJson(reflect(c));
}

/** The text summary for any container with a program. */
export function reflectionAnyText(c: Container): string {
  noRootSignatureOnly(c);
  return isDxilContainer(c) ? dxilReflectionText(reflectDxilProgram(c)) : reflectionText(reflect(c));
}
