// What V8's young-generation collections keep of work that has finished (issue 17, docs/benchmarks.md,
// the sixth session): the old generation's growth over a batch followed by two forced young
// collections. Near 0 when nothing old reaches what the batch made; a closure kept in a field of the
// class instance it captures made every DXIL lift survive until the next full collection. Shared by
// test/lift/young-collections.test.ts and the lift benches.

import { GCProfiler, getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'minor' | 'major' }) => void;

/** v8's `gc` (a full collection, or a young one with `{ type: 'minor' }`), exposed at run time: no
 * node flag needed. */
export function exposedGc(): Gc {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Gc;
}

const oldBytes = (): number => {
  let sum = 0;
  for (const sp of getHeapSpaceStatistics())
    if (sp.space_name === 'old_space' || sp.space_name === 'large_object_space') sum += sp.space_used_size;
  return sum;
};

/**
 * Bytes the old generation grew by over `batch` and two forced young collections after it; undefined
 * when a full collection ran meanwhile (it frees what was promoted, so the batch measured nothing).
 */
export function youngGrowth(batch: () => void): number | undefined {
  const gc = exposedGc();
  const before = oldBytes();
  const profiler = new GCProfiler();
  profiler.start();
  batch();
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  const grown = oldBytes() - before;
  const full = profiler.stop().statistics.some((s) => s.gcType !== 'Scavenge' && s.gcType !== 'MinorMarkCompact');
  return full ? undefined : grown;
}
