// Where the garbage collector's pauses fall when one container is lifted and emitted again and
// again (issue 17, docs/benchmarks.md, the ninth session): the time of the lift and of the WGSL
// emission per round, and the part of each spent in collections that started during it (node's
// 'gc' performance entries). Run with
//
//   node --import tsx tools/gc-phases.ts FILE [rounds]
//
// The first third of the rounds (at least one) warms V8 up and is not counted.

import { readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';

const [file, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 30);
if (file === undefined || !Number.isInteger(rounds) || rounds < 2) {
  console.error('usage: node --import tsx tools/gc-phases.ts FILE [rounds (at least 2)]');
  process.exit(2);
}
const b = readFileSync(file);
const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

const pauses: [number, number][] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([e.startTime, e.duration]);
});
observer.observe({ entryTypes: ['gc'] });

const warm = Math.max(1, Math.floor(rounds / 3));
const spans: [number, number, number][] = [];
let instructions = 0;
for (let k = 0; k < rounds; k++) {
  const t0 = performance.now();
  const program = liftContainer(parseContainer(bytes));
  const t1 = performance.now();
  emitWgsl(program);
  const t2 = performance.now();
  instructions = program.provenance.instructions;
  if (k >= warm) spans.push([t0, t1, t2]);
}
// The entries of the last collections arrive after the loop, on the event loop.
await new Promise((r) => setTimeout(r, 50));
observer.disconnect();

let lift = 0;
let emit = 0;
let liftGc = 0;
let emitGc = 0;
for (const [t0, t1, t2] of spans) {
  lift += t1 - t0;
  emit += t2 - t1;
  for (const [start, duration] of pauses) {
    if (start >= t0 && start < t1) liftGc += duration;
    else if (start >= t1 && start < t2) emitGc += duration;
  }
}
const n = spans.length;
const ms = (x: number): string => (x / n).toFixed(1);
const share = (gc: number, all: number): string => `${((100 * gc) / all).toFixed(0)}%`;
console.log(
  `gc-phases: ${file} (${instructions} instructions), ${n} rounds after ${warm} of warm-up, ms a round: ` +
    `lift ${ms(lift)} (collector ${ms(liftGc)}, ${share(liftGc, lift)}), ` +
    `WGSL ${ms(emit)} (collector ${ms(emitGc)}, ${share(emitGc, emit)})`,
);
