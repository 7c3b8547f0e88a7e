// reflectDxil: what a DXIL program exposes, from its module's dx.* metadata (resources, signatures,
// entry properties) and PSV0 (runtime information, resource bindings for stripped modules): the
// view the reflection engineer's `iridia reflect` prints for Shader Model 6.

import type { Container } from '../container/container.js';
import { readDxilContainer } from './dxil-container.js';
import { readDxilInfo, type DxilInfo, type DxilResource, type DxilSignatureElement } from './dxil-metadata.js';
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

function resource(r: DxilResource): DxilReflectedResource {
  const base = {
    name: r.name,
    class: r.cls,
    kind: RESOURCE_KINDS[r.kind] ?? `kind${r.kind}`,
    id: r.id,
    space: r.space,
    lowerBound: r.lowerBound,
    count: r.rangeSize === 0xffffffff ? undefined : r.rangeSize,
  };
  if (r.cls === 'CBuffer') return { ...base, size: r.size };
  if (r.cls === 'Sampler') return { ...base, samplerKind: r.samplerKind };
  const typed = { ...base, componentType: r.compType, ...(r.kind === 12 ? { stride: r.stride } : {}) };
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
  return {
    stage: h.kind,
    shaderModel: `${h.major}.${h.minor}`,
    dxilVersion: info.dxilVersion ? info.dxilVersion.join('.') : undefined,
    validatorVersion: info.validatorVersion ? info.validatorVersion.join('.') : undefined,
    entryPoint: ep?.name,
    inputs: ep?.inputs.map(element) ?? [],
    outputs: ep?.outputs.map(element) ?? [],
    patchConstant: ep?.patchConstant.map(element) ?? [],
    resources: [...refl.cbuffers, ...refl.samplers, ...refl.srvs, ...refl.uavs].map(resource),
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
