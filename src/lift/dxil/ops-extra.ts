// The dx.op tables kept beside ops.ts, one file a family; ops.ts adds each to its own table.

import type { Handler } from './ops-common.js';
import { WAVE_OPS } from './ops-wave.js';
import { STAGE_OPS } from './ops-stage.js';
import { MESH_OPS } from './ops-mesh.js';
import { HEAP_OPS } from './heap.js';
import { MISC_OPS } from './ops-misc.js';
import { F64_OPS } from './ops-f64.js';

export const EXTRA_OPS: readonly ReadonlyMap<number, Handler>[] = [
  STAGE_OPS,
  MESH_OPS,
  HEAP_OPS,
  MISC_OPS,
  WAVE_OPS,
  F64_OPS,
];
