// iridia-exec: runs lifted programs on the CPU with Direct3D 11's rules (see run.ts, invocation.ts).
export { runCompute, runPixel, runVertex } from './run.js';
export type { ExecBindings, ComputeRun, ComputeResult, PixelRun, PixelResult, VertexRun, VertexResult } from './run.js';
export type { ExecTexture, SampleRequest, SampleCallback } from './values.js';
export * as d3dFloat from './float.js';
export { runGeometry, runHull, runDomain, hullPhaseInstances, FILE_WORDS } from './stages.js';
export type { GeometryRun, EmittedVertex, HullRun, HullResult, DomainRun } from './stages.js';
export { runMesh, runAmplification } from './mesh.js';
export type { GroupRun, MeshRun, MeshResult, AmplificationResult } from './mesh.js';
export { nearestClampSampler, cubeFace } from './sampler.js';
export type { SamplerOptions, TextureView, CompareFunction } from './sampler.js';
export { RaceDetector, traceAccesses } from './races.js';
export type { AccessTrace, AccessKind } from './races.js';
export {
  seededWords,
  seedBindings,
  seedVaryings,
  d3dResourceName,
  resourceStream,
  varyingStream,
  seedRegisterFiles,
  elementWords,
  SEED_DOMAIN_POINTS,
  SEED_TEXTURE_SIZE,
  SEED_BUFFER_WORDS,
  SEED_CONSTANT_ROWS,
  SEED_COMPARE,
} from './seed.js';
export type { SeedDistribution, SeededResource, SeededBindings } from './seed.js';
