// Texel sizes and default sample types of the texture formats the runner uploads and reads back
// (WebGPU's texture format table; only formats whose texels are whole bytes and not compressed).

const BYTES: Readonly<Record<string, number>> = {
  r8unorm: 1,
  r8snorm: 1,
  r8uint: 1,
  r8sint: 1,
  r16uint: 2,
  r16sint: 2,
  r16float: 2,
  rg8unorm: 2,
  rg8snorm: 2,
  rg8uint: 2,
  rg8sint: 2,
  r32uint: 4,
  r32sint: 4,
  r32float: 4,
  rg16uint: 4,
  rg16sint: 4,
  rg16float: 4,
  rgba8unorm: 4,
  'rgba8unorm-srgb': 4,
  rgba8snorm: 4,
  rgba8uint: 4,
  rgba8sint: 4,
  bgra8unorm: 4,
  'bgra8unorm-srgb': 4,
  rgb10a2unorm: 4,
  rgb10a2uint: 4,
  rg11b10ufloat: 4,
  rgb9e5ufloat: 4,
  rg32uint: 8,
  rg32sint: 8,
  rg32float: 8,
  rgba16uint: 8,
  rgba16sint: 8,
  rgba16float: 8,
  rgba32uint: 16,
  rgba32sint: 16,
  rgba32float: 16,
  depth32float: 4,
};

/** Bytes per texel of an uncompressed colour (or depth32float) format; undefined for others. */
export function texelBytes(format: GPUTextureFormat): number | undefined {
  return BYTES[format];
}

/** The sample type a texture binding of this format defaults to. */
export function defaultSampleType(format: GPUTextureFormat): GPUTextureSampleType {
  if (format.startsWith('depth')) return 'depth';
  if (/uint$/.test(format)) return 'uint';
  if (/sint$/.test(format)) return 'sint';
  if (/32float$/.test(format)) return 'unfilterable-float';
  return 'float';
}
