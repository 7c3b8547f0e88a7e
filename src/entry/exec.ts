// iridia/exec: the CPU executor of lifted programs.
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export {
  runCompute,
  runPixel,
  runVertex,
  runGeometry,
  runHull,
  runDomain,
  runMesh,
  runAmplification,
  hullPhaseInstances,
  nearestClampSampler,
  d3dFloat,
  type ExecBindings,
  type ExecTexture,
  type SampleRequest,
  type SampleCallback,
} from '../exec/index.js';
