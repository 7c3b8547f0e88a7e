// The dx.* named metadata of a DXIL module, interpreted (DxilMetadataHelper.h/.cpp): shader model,
// DXIL and validator versions, resources (SRVs, UAVs, CBuffers, samplers with their extended
// properties), entry points (function, name, signatures, resources, properties), the type system's
// struct annotations (field names, cbuffer offsets, component types, matrices) and the serialized
// ViewId state. The printer's header and reflectDxil read this view.

import { Constant, type Metadata, type Module, type Type, type Value } from './ir.js';

export type ResourceClass = 'SRV' | 'UAV' | 'CBuffer' | 'Sampler';

export interface DxilResource {
  readonly cls: ResourceClass;
  readonly id: number;
  /** The resource's global symbol (undef or a global) and its pointer type. */
  readonly symbolType: Type | undefined;
  /** The symbol itself (a global variable in libraries and older modules; often undef). */
  readonly symbol: Value | undefined;
  readonly name: string;
  readonly space: number;
  readonly lowerBound: number;
  /** 0xffffffff for unbounded. */
  readonly rangeSize: number;
  /** DXIL::ResourceKind (shape); 13 CBuffer, 14 Sampler. */
  readonly kind: number;
  readonly sampleCount: number;
  /** Typed resources: DXIL component type (extended property 0). */
  readonly compType: number;
  /** Structured buffers: element stride (extended property 1). */
  readonly stride: number;
  readonly globallyCoherent: boolean;
  readonly hasCounter: boolean;
  readonly rasterizerOrdered: boolean;
  /** CBuffer: size in bytes. */
  readonly size: number;
  /** Sampler: 0 default, 1 comparison, 2 mono. */
  readonly samplerKind: number;
}

export interface DxilSignatureElement {
  readonly id: number;
  readonly name: string;
  readonly compType: number;
  readonly semanticKind: number;
  readonly indices: readonly number[];
  readonly interpMode: number;
  readonly rows: number;
  readonly cols: number;
  readonly startRow: number;
  readonly startCol: number;
  readonly stream: number;
  readonly dynIdxMask: number;
  readonly usageMask: number;
}

export interface DxilEntryPoint {
  readonly function: Value | undefined;
  readonly name: string;
  readonly inputs: readonly DxilSignatureElement[];
  readonly outputs: readonly DxilSignatureElement[];
  readonly patchConstant: readonly DxilSignatureElement[];
  /** Entry properties by tag: the raw metadata node operands after the tag. */
  readonly properties: ReadonlyMap<number, Metadata | undefined>;
  readonly shaderFlags: bigint;
  readonly numThreads: readonly [number, number, number] | undefined;
}

export interface DxilFieldAnnotation {
  readonly name: string;
  readonly cbufferOffset: number;
  readonly compType: number;
  readonly matrix: { readonly rows: number; readonly cols: number; readonly orientation: number } | undefined;
}

export interface DxilStructAnnotation {
  readonly size: number;
  readonly fields: readonly DxilFieldAnnotation[];
}

export interface DxilInfo {
  readonly shaderKind: string | undefined;
  readonly shaderMajor: number;
  readonly shaderMinor: number;
  readonly dxilVersion: readonly [number, number] | undefined;
  readonly validatorVersion: readonly [number, number] | undefined;
  readonly srvs: readonly DxilResource[];
  readonly uavs: readonly DxilResource[];
  readonly cbuffers: readonly DxilResource[];
  readonly samplers: readonly DxilResource[];
  readonly entryPoints: readonly DxilEntryPoint[];
  readonly structAnnotations: ReadonlyMap<Type, DxilStructAnnotation>;
  readonly viewIdState: readonly number[] | undefined;
}

/** Reads a module's dx.* metadata. Malformed entries are skipped, never thrown on. */
export function readDxilInfo(m: Module): DxilInfo {
  const md = (id: number): Metadata | undefined => m.metadata[id];
  const named = (n: string): Metadata[] => {
    const nm = m.named.find((x) => x.name === n);
    return nm ? nm.ops.map((id) => md(id)).filter((x): x is Metadata => x !== undefined) : [];
  };
  const ops = (x: Metadata | undefined): (Metadata | undefined)[] =>
    x && x.k === 'node' && !x.di ? x.ops.map((id) => (id === 0 ? undefined : md(id - 1))) : [];
  const int = (x: Metadata | undefined): number => {
    if (x?.k !== 'value' || !(x.v instanceof Constant) || x.v.ck !== 'int') return 0;
    return Number(x.v.bits);
  };
  const big = (x: Metadata | undefined): bigint =>
    x?.k === 'value' && x.v instanceof Constant && x.v.ck === 'int' ? BigInt.asUintN(64, x.v.bits) : 0n;
  const str = (x: Metadata | undefined): string => (x?.k === 'string' ? x.s : '');
  const tagMap = (x: Metadata | undefined): Map<number, Metadata | undefined> => {
    const o = ops(x);
    const map = new Map<number, Metadata | undefined>();
    for (let i = 0; i + 1 < o.length; i += 2) map.set(int(o[i]), o[i + 1]);
    return map;
  };

  const sm = ops(named('dx.shaderModel')[0]);
  const ver = ops(named('dx.version')[0]);
  const val = ops(named('dx.valver')[0]);

  const resources = (x: Metadata | undefined, cls: ResourceClass): DxilResource[] =>
    ops(x).map((r) => {
      const o = ops(r);
      const sym = o[1]?.k === 'value' ? o[1].v?.type : undefined;
      let ext: Map<number, Metadata | undefined>;
      const base = {
        cls,
        id: int(o[0]),
        symbolType: sym,
        symbol: o[1]?.k === 'value' ? o[1].v : undefined,
        name: str(o[2]),
        space: int(o[3]),
        lowerBound: int(o[4]),
        rangeSize: int(o[5]) >>> 0,
        kind: cls === 'CBuffer' ? 13 : cls === 'Sampler' ? 14 : int(o[6]),
        sampleCount: 0,
        compType: 0,
        stride: 0,
        globallyCoherent: false,
        hasCounter: false,
        rasterizerOrdered: false,
        size: 0,
        samplerKind: 0,
      };
      if (cls === 'SRV') {
        base.sampleCount = int(o[7]);
        ext = tagMap(o[8]);
      } else if (cls === 'UAV') {
        base.globallyCoherent = int(o[7]) !== 0;
        base.hasCounter = int(o[8]) !== 0;
        base.rasterizerOrdered = int(o[9]) !== 0;
        ext = tagMap(o[10]);
      } else if (cls === 'CBuffer') {
        base.size = int(o[6]);
        ext = tagMap(o[7]);
      } else {
        base.samplerKind = int(o[6]);
        ext = tagMap(o[7]);
      }
      base.compType = int(ext.get(0));
      base.stride = int(ext.get(1));
      return base;
    });
  const res = ops(named('dx.resources')[0]);

  const signature = (x: Metadata | undefined): DxilSignatureElement[] =>
    ops(x).map((e) => {
      const o = ops(e);
      const ext = tagMap(o[10]);
      return {
        id: int(o[0]),
        name: str(o[1]),
        compType: int(o[2]),
        semanticKind: int(o[3]),
        indices: ops(o[4]).map(int),
        interpMode: int(o[5]),
        rows: int(o[6]),
        cols: int(o[7]),
        startRow: int(o[8]) | 0,
        startCol: int(o[9]) | 0,
        stream: int(ext.get(0)),
        dynIdxMask: int(ext.get(2)),
        usageMask: int(ext.get(3)),
      };
    });

  const entryPoints: DxilEntryPoint[] = named('dx.entryPoints').map((e) => {
    const o = ops(e);
    const sigs = ops(o[2]);
    const props = tagMap(o[4]);
    const nt = ops(props.get(4));
    return {
      function: o[0]?.k === 'value' ? o[0].v : undefined,
      name: str(o[1]),
      inputs: signature(sigs[0]),
      outputs: signature(sigs[1]),
      patchConstant: signature(sigs[2]),
      properties: props,
      shaderFlags: big(props.get(0)),
      numThreads: nt.length === 3 ? [int(nt[0]), int(nt[1]), int(nt[2])] : undefined,
    };
  });

  const structAnnotations = new Map<Type, DxilStructAnnotation>();
  for (const ts of named('dx.typeAnnotations')) {
    const o = ops(ts);
    if (int(o[0]) !== 0) continue;
    for (let i = 1; i + 1 < o.length; i += 2) {
      const tm = o[i];
      const t = tm?.k === 'value' ? tm.v?.type : undefined;
      if (!t) continue;
      const a = ops(o[i + 1]);
      const fields = a.slice(1).map((f) => {
        const fm = tagMap(f);
        const mx = ops(fm.get(2));
        return {
          name: str(fm.get(6)),
          cbufferOffset: int(fm.get(3)),
          compType: int(fm.get(7)),
          matrix: mx.length >= 3 ? { rows: int(mx[0]), cols: int(mx[1]), orientation: int(mx[2]) } : undefined,
        };
      });
      structAnnotations.set(t, { size: int(a[0]), fields });
    }
  }

  const vid = named('dx.viewIdState')[0];
  let viewIdState: number[] | undefined;
  const vop = ops(vid)[0];
  if (vop?.k === 'value' && vop.v instanceof Constant) {
    const c = vop.v;
    if (c.ck === 'data') viewIdState = c.data.map((d) => Number(BigInt.asUintN(32, d)));
    else if (c.ck === 'aggregate')
      viewIdState = c.ops.map((v) => (v instanceof Constant ? Number(BigInt.asUintN(32, v.bits)) : 0));
    else if (c.ck === 'null') viewIdState = new Array<number>(c.type.count).fill(0);
  }

  return {
    shaderKind: sm.length ? str(sm[0]) : undefined,
    shaderMajor: int(sm[1]),
    shaderMinor: int(sm[2]),
    dxilVersion: ver.length >= 2 ? [int(ver[0]), int(ver[1])] : undefined,
    validatorVersion: val.length >= 2 ? [int(val[0]), int(val[1])] : undefined,
    srvs: resources(res[0], 'SRV'),
    uavs: resources(res[1], 'UAV'),
    cbuffers: resources(res[2], 'CBuffer'),
    samplers: resources(res[3], 'Sampler'),
    entryPoints,
    structAnnotations,
    viewIdState,
  };
}
