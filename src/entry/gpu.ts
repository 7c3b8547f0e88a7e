// iridia/gpu: running lifted programs through WebGPU (give it a GPU object: npm webgpu, or a browser's navigator.gpu).
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export { openGpu, type GpuSession } from '../gpu/index.js';
export type { CompileResult, ComputeJob, PixelJob, GpuBinding } from '../gpu/index.js';
