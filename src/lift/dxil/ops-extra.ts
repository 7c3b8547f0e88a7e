// The dx.op tables kept beside ops.ts, one file a family; ops.ts adds each to its own table.

import type { Handler } from './ops-common.js';
import { MESH_OPS } from './ops-mesh.js';

export const EXTRA_OPS: readonly ReadonlyMap<number, Handler>[] = [MESH_OPS];
