// Container layer throughput: the digest beside node:crypto's MD5 (OpenSSL) over the same bytes, as a
// ratio (the goal is at least 0.8: both run the same MD5 block function, ours with the compiler's final
// padding), and the census over ../shared/corpus (containers/s and MB/s, files read first so that the
// figure is iridia's own work).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { containerDigestOf } from '../src/container/digest.js';
import { Census } from '../src/container/census.js';
import { join } from 'node:path';
import { hasContainerMagic, parseContainer } from '../src/container/container.js';
import { FIXTURES, sharedPath, walk } from '../test/helpers/shared.js';

/** Best time in ms of `runs` runs of `f` after a warm-up. */
function best(f: () => void, runs: number): number {
  f();
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

const mbps = (bytes: number, ms: number): string => ((bytes / 1e6 / ms) * 1000).toFixed(0);

export async function bench(report: (line: string) => void): Promise<void> {
  for (const size of [4096, 1 << 20, 32 << 20]) {
    const data = new Uint8Array(size);
    for (let i = 0; i < size; i++) data[i] = (i * 2654435761) >>> 24;
    const reps = Math.max(1, Math.floor((64 << 20) / size));
    const ours = best(() => {
      for (let r = 0; r < reps; r++) containerDigestOf(data);
    }, 5);
    const node = best(() => {
      for (let r = 0; r < reps; r++) createHash('md5').update(data).digest();
    }, 5);
    const unaligned = data.subarray(1);
    const ourUnaligned = best(() => {
      for (let r = 0; r < reps; r++) containerDigestOf(unaligned);
    }, 5);
    report(
      `digest ${String(size).padStart(9)} B x${reps}: iridia ${mbps(size * reps, ours)} MB/s ` +
        `(unaligned ${mbps(size * reps, ourUnaligned)} MB/s), node:crypto md5 ${mbps(size * reps, node)} MB/s, ` +
        `ratio ${(node / ours).toFixed(2)} (goal >= 0.8)`,
    );
  }

  // A part count of 2^32-1 is refused at once (test/container/malformed.test.ts checks the refusal;
  // its time is this figure: a loop over the count would take seconds). Goal: under 1 ms.
  const vs = readFileSync(join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/shader.dxbc'));
  const huge = new Uint8Array(vs);
  new DataView(huge.buffer).setUint32(28, 0xffffffff, true);
  const refuse = best(() => {
    try {
      parseContainer(huge);
    } catch {
      return; // the refusal (E104_PART_COUNT) is the test's; the time is ours
    }
    throw new Error('a part count of 2^32-1 was not refused');
  }, 20);
  report(`part count 2^32-1 refused in ${(refuse * 1000).toFixed(1)} us (goal < 1 ms)`);

  const corpus = sharedPath('corpus');
  if (corpus === undefined) {
    report('census: skipped, ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)');
    return;
  }
  const inputs: { path: string; bytes: Uint8Array }[] = [];
  for (const path of walk(corpus)) {
    const b = readFileSync(path);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (hasContainerMagic(bytes)) inputs.push({ path, bytes });
  }
  const total = inputs.reduce((n, x) => n + x.bytes.byteLength, 0);
  let census = new Census();
  const ms = best(() => {
    census = new Census();
    for (const x of inputs) census.add(x.bytes, x.path);
  }, 3);
  report(
    `census over ../shared/corpus: ${census.containers} containers, ${(total / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms: ` +
      `${((census.containers / ms) * 1000).toFixed(0)} containers/s, ${mbps(total, ms)} MB/s (files read beforehand)`,
  );
}
