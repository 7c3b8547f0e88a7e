// The dx.op tables kept beside ops.ts, one file a family; ops.ts adds each to its own table.

import type { Handler } from './ops-common.js';

export const EXTRA_OPS: readonly ReadonlyMap<number, Handler>[] = [];
