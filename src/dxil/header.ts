// The comment header dxc's disassembler (dxcdisassembler.cpp, as of the 2021-2024 releases whose
// listings the corpus holds) prints before the module: feature notes from SFI0, the container's
// signature parts, the shader debug name and hash, the pipeline runtime information from PSV0, the
// module's own signatures with interpolation modes, buffer definitions from the type annotations,
// resource bindings and the ViewId state.

import type { Signature } from '../parts/signature.js';
import type { DxilInfo, DxilResource, DxilSignatureElement } from './dxil-metadata.js';
import type { Psv0 } from './psv0.js';

const FEATURE_NAMES = [
  'Double-precision floating point',
  'Raw and Structured buffers',
  'UAVs at every shader stage',
  '64 UAV slots',
  'Minimum-precision data types',
  'Double-precision extensions for 11.1',
  'Shader extensions for 11.1',
  'Comparison filtering for feature level 9',
  'Tiled resources',
  'PS Output Stencil Ref',
  'PS Inner Coverage',
  'Typed UAV Load Additional Formats',
  'Raster Ordered UAVs',
  'SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer',
  'Wave level operations',
  '64-Bit integer',
  'View Instancing',
  'Barycentrics',
  'Use native low precision',
  'Shading Rate',
  'Raytracing tier 1.1 features',
  'Sampler feedback',
  '64-bit Atomics on Typed Resources',
  '64-bit Atomics on Group Shared',
  'Derivatives in mesh and amplification shaders',
  'Resource descriptor heap indexing',
  'Sampler descriptor heap indexing',
  '<RESERVED>',
  '64-bit Atomics on Heap Resources',
  'Advanced Texture Ops',
  'Writeable MSAA Textures',
  'SampleCmp with gradient or bias',
  'Extended command info',
];

const SYSTEM_VALUES: Readonly<Record<number, string>> = {
  1: 'POS',
  2: 'CLIPDST',
  3: 'CULLDST',
  4: 'RTINDEX',
  5: 'VPINDEX',
  6: 'VERTID',
  7: 'PRIMID',
  8: 'INSTID',
  9: 'FFACE',
  10: 'SAMPLE',
  11: 'QUADEDGE',
  12: 'QUADINT',
  13: 'TRIEDGE',
  14: 'TRIINT',
  15: 'LINEDET',
  16: 'LINEDEN',
  23: 'BARYCEN',
  24: 'SHDINGRATE',
  25: 'CULLPRIM',
  64: 'TARGET',
  65: 'DEPTH',
  66: 'COVERAGE',
  67: 'DEPTHGE',
  68: 'DEPTHLE',
  69: 'STENCILREF',
  70: 'INNERCOV',
};
const SIG_FORMATS: Readonly<Record<number, string>> = {
  1: 'uint',
  2: 'int',
  3: 'float',
  4: 'uint16',
  5: 'int16',
  6: 'fp16',
  7: 'uint64',
  8: 'int64',
  9: 'double',
};
const INTERP_MODES = [
  '',
  'nointerpolation',
  'linear',
  'centroid',
  'noperspective',
  'noperspective centroid',
  'sample',
  'noperspective sample',
];
const COMP_NAMES = [
  'invalid',
  'i1',
  'i16',
  'u16',
  'i32',
  'u32',
  'i64',
  'u64',
  'f16',
  'f32',
  'f64',
  'snorm_f16',
  'unorm_f16',
  'snorm_f32',
  'unorm_f32',
  'snorm_f64',
  'unorm_f64',
  'p32i8',
  'p32u8',
];
const DIM_NAMES = [
  'invalid',
  '1d',
  '2d',
  '2dMS',
  '3d',
  'cube',
  '1darray',
  '2darray',
  '2darrayMS',
  'cubearray',
  'buf',
  'rawbuf',
  'structbuf',
  'cbuffer',
  'sampler',
  'tbuffer',
  'ras',
  'fbtex2d',
  'fbtex2darray',
];

export const left = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
export const right = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const maskText = (m: number): string =>
  (m & 1 ? 'x' : ' ') + (m & 2 ? 'y' : ' ') + (m & 4 ? 'z' : ' ') + (m & 8 ? 'w' : ' ');

export function featureInfoText(flags: bigint): string {
  if (flags === 0n) return '';
  let s = ';\n; Note: shader requires additional functionality:\n';
  for (let i = 0; i < FEATURE_NAMES.length; i++) if ((flags >> BigInt(i)) & 1n) s += `;       ${FEATURE_NAMES[i]}\n`;
  return s + ';\n';
}

export function partSignatureText(name: string, sig: Signature, isInput: boolean): string {
  let s = `;\n; ${name} signature:\n;\n; Name                 Index   Mask Register SysValue  Format   Used\n; -------------------- ----- ------ -------- -------- ------- ------\n`;
  if (sig.elements.length === 0) return s + '; no parameters\n';
  const streams = sig.elements.some((e) => e.stream !== 0);
  for (const e of sig.elements) {
    s += '; ';
    s += streams ? `m${e.stream}:${left(e.semanticName, 17)}` : left(e.semanticName, 20);
    s += ' ' + right(String(e.semanticIndex), 5);
    const reg = e.register >>> 0;
    if (reg === 0xffffffff) {
      s += '    N/A';
      const n = e.semanticName.toLowerCase();
      if (n === 'sv_depth') s += '   oDepth';
      else if (n === 'sv_depthgreaterequal') s += ' oDepthGE';
      else if (n === 'sv_depthlessequal') s += ' oDepthLE';
      else if (n === 'sv_coverage') s += '    oMask';
      else if (n === 'sv_stencilref') s += '    oStencilRef';
      else if (e.systemValue === 7) s += '   primID';
      else s += '  special';
    } else s += `   ${maskText(e.mask)} ${right(String(reg), 8)}`;
    s += right(SYSTEM_VALUES[e.systemValue] ?? 'NONE', 9);
    s += right(SIG_FORMATS[e.componentType] ?? 'unknown', 8);
    const rw = isInput ? e.readWriteMask : ~e.readWriteMask & 0xff;
    if (reg === 0xffffffff) s += rw ? '    YES' : '     NO';
    else s += '   ' + maskText(rw);
    s += '\n';
  }
  return s + ';\n';
}

export function hashText(flags: number, digest: Uint8Array): string {
  let h = '';
  for (const b of digest) h += b.toString(16).padStart(2, '0');
  return `; shader hash: ${h}${flags & 1 ? ' (includes source)' : ''}\n`;
}

const TESS_DOMAINS = ['invalid', 'isoline', 'tri', 'quad'];
const TESS_PRIMS = ['invalid', 'point', 'line', 'triangle_cw', 'triangle_ccw'];
const GS_INPUTS: Readonly<Record<number, string>> = {
  1: 'point',
  2: 'line',
  3: 'triangle',
  6: 'lineadj',
  7: 'triangleadj',
};
const GS_TOPOLOGIES: Readonly<Record<number, string>> = { 1: 'point', 3: 'line', 5: 'triangle' };

const PSV_KINDS = ['ps', 'vs', 'gs', 'hs', 'ds', 'cs', 'lib'];
const MESH_TOPOLOGIES = ['undefined', 'line', 'triangle'];

/**
 * "Pipeline Runtime Information". dxc before its August 2024 change (8a677d22c) prints the stage's
 * fields and WaveSize; later releases print ";PSVRuntimeInfo:" and every runtime-info field.
 */
export function psvText(psv: Psv0, programKind: string, newDialect: boolean): string {
  let s = ';\n; Pipeline Runtime Information: \n;\n';
  let kind = programKind;
  if (newDialect) {
    s += ';PSVRuntimeInfo:\n';
    if (psv.shaderStage !== undefined)
      kind = psv.shaderStage === 13 ? 'ms' : psv.shaderStage === 14 ? 'as' : (PSV_KINDS[psv.shaderStage] ?? 'other');
  }
  const w = psv.stageWords;
  const u8 = (word: number, byte: number): number => (word >>> (8 * byte)) & 0xff;
  const threads = (): string => {
    let t = '';
    if (psv.numThreads) t += `; NumThreads=(${psv.numThreads.join(',')})\n`;
    if (psv.groupSharedBytes !== undefined) t += `; NumBytesGroupSharedMemory: ${psv.groupSharedBytes}\n`;
    return t;
  };
  switch (kind) {
    case 'hs':
      s += '; Hull Shader\n';
      s += `; InputControlPointCount=${w[0]}\n; OutputControlPointCount=${w[1]}\n`;
      s += `; Domain=${TESS_DOMAINS[w[2]] ?? 'invalid'}\n; OutputPrimitive=${TESS_PRIMS[w[3]] ?? 'invalid'}\n`;
      break;
    case 'ds':
      s += `; Domain Shader\n; InputControlPointCount=${w[0]}\n; OutputPositionPresent=${u8(w[1], 0) ? 1 : 0}\n`;
      break;
    case 'gs': {
      const ip = w[0] >= 8 && w[0] <= 39 ? `patch${w[0] - 7}` : (GS_INPUTS[w[0]] ?? 'invalid');
      s += `; Geometry Shader\n; InputPrimitive=${ip}\n; OutputTopology=${GS_TOPOLOGIES[w[1]] ?? 'invalid'}\n`;
      s += `; OutputStreamMask=${w[2]}\n; OutputPositionPresent=${u8(w[3], 0) ? 1 : 0}\n`;
      break;
    }
    case 'vs':
      s += `; Vertex Shader\n; OutputPositionPresent=${u8(w[0], 0) ? 1 : 0}\n`;
      break;
    case 'ps':
      s += `; Pixel Shader\n; DepthOutput=${u8(w[0], 0) ? 1 : 0}\n; SampleFrequency=${u8(w[0], 1) ? 1 : 0}\n`;
      break;
    case 'cs':
      if (newDialect) s += '; Compute Shader\n' + threads();
      break;
    case 'as':
      if (newDialect) s += '; Amplification Shader\n' + threads();
      break;
    case 'ms':
      if (newDialect) {
        s += '; Mesh Shader\n';
        if (psv.stageWord1 !== undefined)
          s += `; MeshOutputTopology=${MESH_TOPOLOGIES[psv.stageWord1 >>> 8] ?? 'invalid'}\n`;
        s += threads();
      }
      break;
    default:
      break;
  }
  if (psv.minWaveLanes === psv.maxWaveLanes) s += `; WaveSize=${psv.minWaveLanes}\n`;
  else if (newDialect)
    s += `; MinimumExpectedWaveLaneCount: ${psv.minWaveLanes}\n; MaximumExpectedWaveLaneCount: ${psv.maxWaveLanes}\n`;
  if (newDialect && psv.sigOutputVectors) {
    s += `; UsesViewID: ${psv.usesViewID ? 'true' : 'false'}\n`;
    s += `; SigInputElements: ${psv.sigInputElements}\n; SigOutputElements: ${psv.sigOutputElements}\n`;
    s += `; SigPatchConstOrPrimElements: ${psv.sigPatchConstOrPrimElements}\n; SigInputVectors: ${psv.sigInputVectors}\n`;
    psv.sigOutputVectors.forEach((v, i) => (s += `; SigOutputVectors[${i}]: ${v}\n`));
  }
  if (newDialect && psv.entryFunctionName !== undefined) s += `; EntryFunctionName: ${psv.entryFunctionName}\n`;
  return s + ';\n';
}

/**
 * Which dxc wrote the module, from its llvm.ident ("dxcoob 1.8.2502.11 (hash)" for releases,
 * "dxc(private) 1.8.0.4575 (hash)" for private builds with the commit count): true for those that
 * print the August 2024 runtime-information dialect (releases from 1.8.2409, builds past commit
 * 4712).
 */
export function isNewPsvDialect(ident: string | undefined): boolean {
  const m = ident ? /\b(\d+)\.(\d+)\.(\d+)\.(\d+)/.exec(ident) : null;
  if (!m) return false;
  const [maj, min, rel, build] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  if (maj !== 1) return maj > 1;
  if (min !== 8) return min > 8;
  return rel === 0 ? build >= 4712 : rel >= 2409;
}

export function dxilSignatureText(name: string, elements: readonly DxilSignatureElement[]): string {
  if (!elements.length) return '';
  let s = `;\n; ${name} signature:\n;\n; Name                 Index             InterpMode DynIdx\n; -------------------- ----- ---------------------- ------\n`;
  for (const e of elements) {
    const m = e.dynIdxMask;
    const compact = (m & 1 ? 'x' : '') + (m & 2 ? 'y' : '') + (m & 4 ? 'z' : '') + (m & 8 ? 'w' : '');
    s += `; ${left(e.name, 20)} ${right(String(e.indices[0] ?? 0), 5)} ${right(INTERP_MODES[e.interpMode] ?? 'invalid', 22)}   ${right(compact, 4)}\n`;
  }
  return s;
}

const CLASS_NAMES = { SRV: 'texture', UAV: 'UAV', CBuffer: 'cbuffer', Sampler: 'sampler' } as const;
const ID_PREFIX = { SRV: 'T', UAV: 'U', CBuffer: 'CB', Sampler: 'S' } as const;
const BIND_PREFIX = { SRV: 't', UAV: 'u', CBuffer: 'cb', Sampler: 's' } as const;

function bindingLine(r: DxilResource): string {
  let s = `; ${left(r.name, 31)}${right(CLASS_NAMES[r.cls], 10)}`;
  if (r.cls === 'CBuffer' || r.cls === 'Sampler') s += right('NA', 8) + right('NA', 12);
  else {
    s += right(r.kind === 11 ? 'byte' : r.kind === 12 ? 'struct' : (COMP_NAMES[r.compType] ?? 'invalid'), 8);
    let dim: string;
    if (r.kind === 11 || r.kind === 12) dim = r.cls === 'SRV' ? 'r/o' : r.hasCounter ? 'r/w+cnt' : 'r/w';
    else if (r.kind === 10) dim = 'buf';
    else if (r.kind === 3 || r.kind === 8) dim = DIM_NAMES[r.kind]! + (r.sampleCount ? String(r.sampleCount) : '');
    else dim = DIM_NAMES[r.kind] ?? 'invalid';
    s += right(dim, 12);
  }
  s += right(`${ID_PREFIX[r.cls]}${r.id}`, 8);
  s += right(`${BIND_PREFIX[r.cls]}${r.lowerBound}${r.space ? `,space${r.space}` : ''}`, 15);
  s += right(r.rangeSize === 0xffffffff ? 'unbounded' : String(r.rangeSize), 6);
  return s + '\n';
}

export function resourceBindingsText(info: DxilInfo): string {
  let s =
    ';\n; Resource Bindings:\n;\n; Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n; ------------------------------ ---------- ------- ----------- ------- -------------- ------\n';
  for (const r of [...info.cbuffers, ...info.samplers, ...info.srvs, ...info.uavs]) s += bindingLine(r);
  return s + ';\n';
}

export function viewIdText(info: DxilInfo, kind: string, usesViewId: boolean): string {
  const d = info.viewIdState;
  if (!d) return '';
  let p = 0;
  const next = (): number => d[p++] ?? 0;
  const gs = kind === 'gs';
  const numInputs = next();
  const streams = gs ? 4 : 1;
  const outs: number[] = [];
  const dep: boolean[][] = [];
  const contrib: Map<number, number[]>[] = [];
  const readDep = (n: number): boolean[] => {
    const words = Math.ceil(n / 32);
    const r: boolean[] = [];
    for (let i = 0; i < words; i++) {
      const x = next();
      for (let j = 0; j < Math.min(32, n - 32 * i); j++) if (x & (1 << j)) r[i * 32 + j] = true;
    }
    return r;
  };
  const readContrib = (ni: number, no: number): Map<number, number[]> => {
    const words = Math.ceil(no / 32);
    const m = new Map<number, number[]>();
    for (let i = 0; i < ni; i++)
      for (let o = 0; o < no; o++)
        if ((d[p + i * words + (o >>> 5)] ?? 0) & (1 << (o & 31))) {
          let l = m.get(o);
          if (!l) m.set(o, (l = []));
          l.push(i);
        }
    p += ni * words;
    return new Map([...m].sort((a, b) => a[0] - b[0]));
  };
  for (let sidx = 0; sidx < streams; sidx++) {
    const no = next();
    outs.push(no);
    dep.push(usesViewId ? readDep(no) : []);
    contrib.push(readContrib(numInputs, no));
  }
  let pcs = 0;
  let pcDep: boolean[] = [];
  let pcContrib = new Map<number, number[]>();
  if (kind === 'hs' || kind === 'ds' || kind === 'ms') {
    pcs = next();
    if (kind === 'hs' || kind === 'ms') {
      if (usesViewId) pcDep = readDep(pcs);
      pcContrib = readContrib(numInputs, pcs);
    } else pcContrib = readContrib(pcs, outs[0]!);
  }
  const depLine = (name: string, n: number, set: boolean[]): string => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) if (set[i]) ids.push(i);
    return `; ${name} dependent on ViewId: { ${ids.join(', ')} }\n`;
  };
  const contribLines = (inName: string, outName: string, m: Map<number, number[]>): string => {
    let s = `; ${inName} contributing to computation of ${outName}:\n`;
    for (const [o, ins] of m) s += `;   output ${o} depends on inputs: { ${ins.join(', ')} }\n`;
    return s;
  };
  let s = ';\n; ViewId state:\n;\n';
  s += `; Number of inputs: ${numInputs}`;
  s += gs ? `, outputs per stream: { ${outs.join(', ')} }` : `, outputs: ${outs[0]}`;
  if (kind === 'hs' || kind === 'ds') s += `, patchconst: ${pcs}`;
  else if (kind === 'ms') s += `, primitive outputs: ${pcs}`;
  s += '\n';
  if (!gs) s += depLine('Outputs', outs[0]!, dep[0]!);
  else for (let i = 0; i < 4; i++) if (outs[i]! > 0) s += depLine(`Outputs for Stream ${i}`, outs[i]!, dep[i]!);
  if (kind === 'hs') s += depLine('PCOutputs', pcs, pcDep);
  else if (kind === 'ms') s += depLine('Primitive Outputs', pcs, pcDep);
  if (!gs) s += contribLines('Inputs', 'Outputs', contrib[0]!);
  else
    for (let i = 0; i < 4; i++) if (outs[i]! > 0) s += contribLines('Inputs', `Outputs for Stream ${i}`, contrib[i]!);
  if (kind === 'hs') s += contribLines('Inputs', 'PCOutputs', pcContrib);
  else if (kind === 'ms') s += contribLines('Inputs', 'Primitive Outputs', pcContrib);
  else if (kind === 'ds') s += contribLines('PCInputs', 'Outputs', pcContrib);
  return s + ';\n';
}
