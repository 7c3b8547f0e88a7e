// The WebGPU runner (see session.ts): compile WGSL with Tint's messages, run compute and pixel jobs.
export { openGpu, entryPoints, FULLSCREEN_VERTEX_WGSL, type GpuSession } from './session.js';
export { encodeWire, decodeWire } from './wire.js';
export { texelBytes, defaultSampleType } from './formats.js';
export type * from './types.js';
