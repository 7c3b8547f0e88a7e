// SFI0, the shader feature mask (containers.md, "SFI0"): a 64-bit mask, each bit one feature the
// program needs, named from compilations that need one feature each. Bit 1 is raw and structured
// buffers in Shader Model 4.x; no bit is early depth-stencil (that is dcl_globalFlags bit 2).

import { ByteReader } from '../binary/reader.js';

export const SFI0_BITS: readonly string[] = [
  'Double-precision floating point', // 0
  'Raw and Structured buffers', // 1 (Shader Model 4.x)
  'UAVs at every shader stage', // 2
  '64 UAV slots', // 3
  'Minimum-precision data types', // 4
  'Double-precision extensions for 11.1', // 5
  'Shader extensions for 11.1', // 6
  'Comparison filtering for feature level 9', // 7
  'Tiled resources', // 8
  'PS Output Stencil Ref', // 9
  'PS Inner Coverage', // 10
  'Typed UAV Load Additional Formats', // 11
  'Raster Ordered UAVs', // 12
  'SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer', // 13
];

export interface FeatureInfo {
  /** The mask as a bigint (all 64 bits). */
  readonly mask: bigint;
  /** The low 32 bits (every bit fxc sets). */
  readonly low: number;
  readonly high: number;
  /** The names of the set bits, in bit order ('bit N' for a bit without a name). */
  readonly names: readonly string[];
}

export function readSfi0(data: Uint8Array, base = 0): FeatureInfo {
  const r = new ByteReader(data, { base, where: 'SFI0', code: 'E201_PART_TRUNCATED' });
  const low = r.u32At(0, 'the feature mask');
  const high = r.u32At(4, 'the feature mask');
  const names: string[] = [];
  for (let b = 0; b < 64; b++) {
    const set = b < 32 ? (low >>> b) & 1 : (high >>> (b - 32)) & 1;
    if (set) names.push(SFI0_BITS[b] ?? `bit ${b}`);
  }
  return { mask: (BigInt(high) << 32n) | BigInt(low), low, high, names };
}
