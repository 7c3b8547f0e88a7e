// DxilResourceProperties (DxilResourceProperties.h): the two-dword constant annotateHandle carries,
// spelled as dxc's disassembler spells it after the call (`  resource: RWTexture2D<4xF32>`).

import type { Constant } from './ir.js';

export const RESOURCE_KINDS = [
  'Invalid',
  'Texture1D',
  'Texture2D',
  'Texture2DMS',
  'Texture3D',
  'TextureCube',
  'Texture1DArray',
  'Texture2DArray',
  'Texture2DMSArray',
  'TextureCubeArray',
  'TypedBuffer',
  'RawBuffer',
  'StructuredBuffer',
  'CBuffer',
  'Sampler',
  'TBuffer',
  'RTAccelerationStructure',
  'FeedbackTexture2D',
  'FeedbackTexture2DArray',
] as const;

const KIND_TEXT: Readonly<Record<number, string>> = {
  1: 'Texture1D',
  2: 'Texture2D',
  3: 'Texture2DMS',
  4: 'Texture3D',
  5: 'TextureCube',
  6: 'Texture1DArray',
  7: 'Texture2DArray',
  8: 'Texture2DMSArray',
  9: 'TextureCubeArray',
  10: 'TypedBuffer',
  11: 'ByteAddressBuffer',
  12: 'StructuredBuffer',
  13: 'CBuffer',
  14: 'Sampler',
  15: 'TBuffer',
  16: 'RTAccelerationStructure',
  17: 'FeedbackTexture2D',
  18: 'FeedbackTexture2DArray',
};

export const COMPONENT_TYPES: Readonly<Record<number, string>> = {
  1: 'I1',
  2: 'I16',
  3: 'U16',
  4: 'I32',
  5: 'U32',
  6: 'I64',
  7: 'U64',
  8: 'F16',
  9: 'F32',
  10: 'F64',
  11: 'SNormF16',
  12: 'UNormF16',
  13: 'SNormF32',
  14: 'UNormF32',
  15: 'SNormF64',
  16: 'UNormF64',
};

function dword(c: Constant, i: number): number {
  const e = c.ck === 'aggregate' ? c.ops[i] : undefined;
  if (c.ck === 'null') return 0;
  if (c.ck === 'data') return Number(BigInt.asUintN(32, c.data[i] ?? 0n));
  if (e && e.kind === 'const' && (e as Constant).ck === 'int') return Number(BigInt.asUintN(32, (e as Constant).bits));
  return 0;
}

export function resourcePropertiesText(c: Constant): string {
  const d0 = dword(c, 0);
  const d1 = dword(c, 1);
  const kind = d0 & 0xff;
  const isUAV = (d0 >>> 12) & 1;
  const isROV = (d0 >>> 13) & 1;
  const gc = (d0 >>> 14) & 1;
  const cmpOrCounter = (d0 >>> 15) & 1;
  const reorder = (d0 >>> 16) & 1;
  let s = '  resource: ';
  if (kind === 13) return s + 'CBuffer';
  if (kind === 15 && !isUAV) return s + 'TBuffer';
  if (kind === 14) return s + (cmpOrCounter ? 'SamplerComparisonState' : 'SamplerState');
  const uav = isUAV === 1 && kind !== 0;
  const RW = uav ? (isROV ? 'ROV' : 'RW') : '';
  const GC = uav && gc ? 'globallycoherent ' : '';
  const RC = uav && reorder ? 'reordercoherent ' : '';
  const COUNTER = uav && cmpOrCounter ? ', counter' : '';
  const name = KIND_TEXT[kind] ?? '<invalid ResourceKind>';
  if ((kind >= 1 && kind <= 10) || kind === 3 || kind === 8) {
    const compType = d1 & 0xff;
    const count = (d1 >>> 8) & 0xff;
    s += `${GC}${RC}${RW}${name}<${count > 1 ? `${count}x` : ''}${COMPONENT_TYPES[compType] ?? '<invalid CompType>'}>`;
  } else if (kind === 11) s += `${GC}${RC}${RW}${name}`;
  else if (kind === 12) s += `${GC}${RC}${RW}${name}<stride=${d1}${COUNTER}>`;
  else if (kind === 16) s += name;
  else if (kind === 17 || kind === 18)
    s += `${name}<${['MinMip', 'MipRegionUsed'][d1 & 0xff] ?? '<invalid sampler feedback type>'}>`;
  else s += '<invalid resource properties>';
  return s;
}
