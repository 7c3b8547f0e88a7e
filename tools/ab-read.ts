// A/B of the DXIL module read (the bench's "DXIL module read": the container parsed and its DXIL
// part's module read) between two compiled trees, both loaded in this one process, their timed
// passes taken in turns (issue 17, docs/benchmarks.md, the twenty-second session). The trees' code
// is apart (each its own modules, so its own type feedback and allocation sites) and only the heap
// is shared, which a reader that keeps nothing between modules does not feel. The speed of a whole
// process moves by half here (one tree's least pass 60 µs a container in one process, 96 in the
// next), and both trees move with it: two copies of one tree read 0.97 to 1.03 of each other in four
// runs of 20 rounds, where tools/ab-listing.ts, in processes of their own, read one change as 0.875
// and as 1.060 of its base in two runs. (The bitstream alone, timed the same way, is not a fair
// measure: two copies of one tree read 1.198 and 0.855 of each other, as V8 happened to compile
// each; it is left out.)
//
//   git worktree add /tmp/base HEAD~1 && (cd /tmp/base && npm install && npx tsc -p tsconfig.build.json)
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/ab-read.ts /tmp/base [rounds]
//
// The corpus is ../shared/corpus/dxil (the containers with a DXIL part that both trees read). After
// five untimed rounds, each round times one pass of each tree over the corpus, the order swapped
// every round (default 30 rounds). Printed: each tree's least and median CPU microseconds a
// container, and the ratios (this tree / base). Figures only: nothing is asserted.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { walk } from '../test/helpers/shared.js';
import { dxilAbArgs } from './corpus-args.js';

const { base: baseRoot, count: rounds, folder } = dxilAbArgs('ab-read', process.argv.slice(2), 'rounds', 30);

/** One tree's reader: a container's bytes in, read as the bench reads them. */
async function reader(tree: string): Promise<(b: Uint8Array) => unknown> {
  const load = (p: string): Promise<Record<string, (...a: never[]) => unknown>> =>
    import(pathToFileURL(join(resolve(tree), 'dist/src', p)).href) as Promise<never>;
  const { parseContainer } = (await load('container/container.js')) as unknown as {
    parseContainer: (b: Uint8Array) => unknown;
  };
  const { readPartModule } = (await load('dxil/disassemble.js')) as unknown as {
    readPartModule: (c: unknown, kind: 'DXIL') => unknown;
  };
  return (b) => readPartModule(parseContainer(b), 'DXIL');
}

const trees = [resolve(baseRoot), resolve('.')];
const read = await Promise.all(trees.map(reader));
const inputs: Uint8Array[] = [];
for (const p of walk(folder).filter((f) => f.endsWith('.dxil'))) {
  const b = readFileSync(p);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  try {
    for (const r of read) if (r(bytes) === undefined) throw new Error('no DXIL part');
    inputs.push(bytes);
  } catch {
    // a container either tree refuses, or one without a DXIL part, is not timed
  }
}

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const times: [number[], number[]] = [[], []];
for (let k = 0; k < rounds + 5; k++) {
  for (const j of k % 2 === 0 ? [0, 1] : [1, 0]) {
    const r = read[j]!;
    const c0 = cpu();
    for (const b of inputs) r(b);
    if (k >= 5) times[j]!.push(cpu() - c0);
  }
}
const least = (xs: readonly number[]): number => Math.min(...xs);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const us = (ms: number): string => ((ms * 1000) / inputs.length).toFixed(2);
const [base, head] = times;
console.log(
  `ab-read: module read, ${inputs.length} containers, ${rounds} rounds in turns: ` +
    `base ${us(least(base))} µs least, ${us(median(base))} median; this tree ${us(least(head))} least, ` +
    `${us(median(head))} median; this / base ${(least(head) / least(base)).toFixed(3)} least, ` +
    `${(median(head) / median(base)).toFixed(3)} median (lower is faster)`,
);
