// reflectDxil: what a DXIL program exposes, from its module's dx.* metadata (resources, signatures,
// entry properties) and PSV0 (runtime information, resource bindings for stripped modules): the
// view the reflection engineer's `iridia reflect` prints for Shader Model 6.

import type { Container } from '../container/container.js';
import type { Signature } from '../parts/signature.js';
import { readDxilContainer } from './dxil-container.js';
import {
  readDxilInfo,
  type DxilInfo,
  type DxilResource,
  type DxilSignatureElement,
  type DxilStructAnnotation,
} from './dxil-metadata.js';
import type { Metadata, Module, Type } from './ir.js';
import { RESOURCE_KINDS } from './resource-properties.js';
import type { Psv0 } from './psv0.js';
import type { RdatFunction, RdatSubobject } from './rdat.js';
import type { RootSignature } from './rts0.js';

export interface DxilReflectedResource {
  readonly name: string;
  readonly class: 'SRV' | 'UAV' | 'CBuffer' | 'Sampler';
  /** DXIL::ResourceKind name: 'Texture2D', 'StructuredBuffer', 'CBuffer'... */
  readonly kind: string;
  readonly id: number;
  readonly space: number;
  readonly lowerBound: number;
  /** Number of registers; undefined for an unbounded range. */
  readonly count: number | undefined;
  readonly stride?: number;
  readonly size?: number;
  readonly componentType?: number;
  readonly hasCounter?: boolean;
  readonly globallyCoherent?: boolean;
  readonly rasterizerOrdered?: boolean;
  readonly samplerKind?: number;
  /** Textures and typed buffers: the components of the element type (1 to 4). */
  readonly components?: number;
  /** Sample count (multisampled textures; 0 otherwise). */
  readonly sampleCount?: number;
  /** CBuffers: the top-level fields of the buffer's struct (dx.typeAnnotations), when annotated. */
  readonly variables?: readonly { readonly name: string; readonly offset: number }[];
}

/** Geometry, hull and domain state from the entry properties (tags 1, 3 and 2 of dx.entryPoints). */
export interface DxilStageState {
  readonly inputPrimitive?: number;
  readonly maxVertexCount?: number;
  readonly activeStreamMask?: number;
  readonly streamPrimitiveTopology?: number;
  readonly instanceCount?: number;
  readonly inputControlPoints?: number;
  readonly outputControlPoints?: number;
  readonly tessellatorDomain?: number;
  readonly tessellatorPartitioning?: number;
  readonly tessellatorOutputPrimitive?: number;
}

export interface DxilReflectedElement {
  readonly name: string;
  readonly indices: readonly number[];
  readonly semanticKind: number;
  readonly componentType: number;
  readonly interpolationMode: number;
  readonly rows: number;
  readonly cols: number;
  readonly startRow: number;
  readonly startCol: number;
  readonly stream: number;
  readonly usageMask: number;
  readonly dynamicIndexMask: number;
}

export interface DxilReflection {
  readonly stage: string;
  /** The program header's version word: kind << 16 | major << 4 | minor (D3D12_SHADER_DESC.Version). */
  readonly programVersion: number;
  /** The signature parts (ISG1, OSG1, PSG1) as the container holds them. */
  readonly signatureParts: Readonly<Partial<Record<'ISG1' | 'OSG1' | 'PSG1', Signature>>>;
  readonly stageState: DxilStageState;
  readonly shaderModel: string;
  readonly dxilVersion: string | undefined;
  readonly validatorVersion: string | undefined;
  readonly entryPoint: string | undefined;
  readonly inputs: readonly DxilReflectedElement[];
  readonly outputs: readonly DxilReflectedElement[];
  readonly patchConstant: readonly DxilReflectedElement[];
  readonly resources: readonly DxilReflectedResource[];
  /** Entry properties from the metadata. */
  readonly shaderFlags: bigint;
  readonly numThreads: readonly [number, number, number] | undefined;
  readonly waveSize: { readonly min: number; readonly max: number } | undefined;
  readonly psv: Psv0 | undefined;
  readonly entryPoints: readonly string[];
  /** SFI0's feature flags (0 without the part). */
  readonly featureFlags: bigint;
  /** An embedded root signature (RTS0). */
  readonly rootSignature: RootSignature | undefined;
  /** Libraries: RDAT's functions (name, shader kind...) and state-object subobjects. */
  readonly libraryFunctions: readonly RdatFunction[];
  readonly subobjects: readonly RdatSubobject[];
}

function element(e: DxilSignatureElement): DxilReflectedElement {
  return {
    name: e.name,
    indices: e.indices,
    semanticKind: e.semanticKind,
    componentType: e.compType,
    interpolationMode: e.interpMode,
    rows: e.rows,
    cols: e.cols,
    startRow: e.startRow,
    startCol: e.startCol,
    stream: e.stream,
    usageMask: e.usageMask,
    dynamicIndexMask: e.dynIdxMask,
  };
}

function structOf(r: DxilResource): Type | undefined {
  let t = r.symbolType?.kind === 'ptr' ? r.symbolType.elt : r.symbolType;
  if (t?.kind === 'array') t = t.elt;
  return t?.kind === 'struct' ? t : undefined;
}

/** The element type's component count: the first member of the resource's class struct. */
function components(r: DxilResource): number | undefined {
  const e = structOf(r)?.elts[0];
  if (!e) return undefined;
  return e.kind === 'vector' ? e.count : 1;
}

function resource(r: DxilResource, ann: ReadonlyMap<Type, DxilStructAnnotation>): DxilReflectedResource {
  const base = {
    name: r.name,
    class: r.cls,
    kind: RESOURCE_KINDS[r.kind] ?? `kind${r.kind}`,
    id: r.id,
    space: r.space,
    lowerBound: r.lowerBound,
    count: r.rangeSize === 0xffffffff ? undefined : r.rangeSize,
  };
  if (r.cls === 'CBuffer') {
    const st = structOf(r);
    const a = st ? ann.get(st) : undefined;
    return {
      ...base,
      size: r.size,
      ...(a ? { variables: a.fields.map((f) => ({ name: f.name, offset: f.cbufferOffset })) } : {}),
    };
  }
  if (r.cls === 'Sampler') return { ...base, samplerKind: r.samplerKind };
  const shaped = r.kind <= 10 ? { components: components(r) ?? 4, sampleCount: r.sampleCount } : {};
  const typed = { ...base, componentType: r.compType, ...(r.kind === 12 ? { stride: r.stride } : {}), ...shaped };
  if (r.cls === 'UAV')
    return {
      ...typed,
      hasCounter: r.hasCounter,
      globallyCoherent: r.globallyCoherent,
      rasterizerOrdered: r.rasterizerOrdered,
    };
  return typed;
}

/** Reflects a DXIL container: undefined when it holds no program (a root signature alone). */
export function reflectDxil(container: Container): DxilReflection | undefined {
  const c = readDxilContainer(container);
  const prog = c.program ?? c.debug;
  if (!prog) return undefined;
  const info: DxilInfo = readDxilInfo(prog.module);
  // Buffers and bindings come from the reflection module when the program's was stripped.
  const refl = c.reflection ? readDxilInfo(c.reflection.module) : info;
  const ep = info.entryPoints[0];
  const ws = ep?.properties.get(11);
  const waveOps = ws?.k === 'node' ? ws.ops : [];
  const wsValue = (i: number): number => {
    const id = waveOps[i];
    const md = id ? prog.module.metadata[id - 1] : undefined;
    return md?.k === 'value' && md.v && 'bits' in md.v ? Number((md.v as { bits: bigint }).bits) : 0;
  };
  const h = prog.header;
  const state = (tag: number): number[] => nodeInts(prog.module, ep?.properties.get(tag));
  const gs = state(1);
  const ds = state(2);
  const hs = state(3);
  const stageState: DxilStageState =
    h.kind === 'gs' && gs.length >= 5
      ? {
          inputPrimitive: gs[0]!,
          maxVertexCount: gs[1]!,
          activeStreamMask: gs[2]!,
          streamPrimitiveTopology: gs[3]!,
          instanceCount: gs[4]!,
        }
      : h.kind === 'ds' && ds.length >= 2
        ? { tessellatorDomain: ds[0]!, inputControlPoints: ds[1]! }
        : h.kind === 'hs' && hs.length >= 7
          ? {
              inputControlPoints: hs[1]!,
              outputControlPoints: hs[2]!,
              tessellatorDomain: hs[3]!,
              tessellatorPartitioning: hs[4]!,
              tessellatorOutputPrimitive: hs[5]!,
            }
          : {};
  return {
    stage: h.kind,
    programVersion: h.programVersion,
    signatureParts: c.signatures,
    stageState,
    shaderModel: `${h.major}.${h.minor}`,
    dxilVersion: info.dxilVersion ? info.dxilVersion.join('.') : undefined,
    validatorVersion: info.validatorVersion ? info.validatorVersion.join('.') : undefined,
    entryPoint: ep?.name,
    inputs: ep?.inputs.map(element) ?? [],
    outputs: ep?.outputs.map(element) ?? [],
    patchConstant: ep?.patchConstant.map(element) ?? [],
    resources: [...refl.cbuffers, ...refl.samplers, ...refl.srvs, ...refl.uavs].map((r) =>
      resource(r, refl.structAnnotations),
    ),
    shaderFlags: ep?.shaderFlags ?? 0n,
    numThreads:
      ep?.numThreads ?? (h.kind === 'cs' || h.kind === 'ms' || h.kind === 'as' ? c.psv?.numThreads : undefined),
    waveSize: waveOps.length ? { min: wsValue(0), max: waveOps.length > 1 ? wsValue(1) : wsValue(0) } : undefined,
    psv: c.psv,
    entryPoints: info.entryPoints.map((e) => e.name),
    featureFlags: c.features?.mask ?? 0n,
    rootSignature: c.rootSignature,
    libraryFunctions: c.runtimeData?.functions ?? [],
    subobjects: c.runtimeData?.subobjects ?? [],
  };
}

/** The integer operands of a metadata node (a non-integer operand, such as a function, reads as 0). */
function nodeInts(m: Module, node: Metadata | undefined): number[] {
  if (node?.k !== 'node' || node.di) return [];
  return node.ops.map((id) => {
    const md = id ? m.metadata[id - 1] : undefined;
    return md?.k === 'value' && md.v && 'bits' in md.v ? Number((md.v as { bits: bigint }).bits) : 0;
  });
}
