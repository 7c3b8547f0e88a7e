// The measured half of tools/cpu-where.ts, in plain JavaScript under plain `node` (so that the V8
// flags and `perf` the tool runs it under see only iridia's compiled code, as ab-lift-worker.mjs).
//
//   node [V8 flags] tools/cpu-where-worker.mjs ROOT PASSES FOLDER...
//
// Reads every .dxbc and .dxil container under the folders, then lifts and emits WGSL of all of them
// PASSES times (those that do not lift, or that WGSL cannot hold, are not counted). On stdout: its
// process id, then one line a pass:
//   cpu-where worker PID
//   cpu-where pass K: PROGRAMS programs, WALL ms wall, CPU ms CPU
// With CPU_WHERE_BUCKETS in its environment (JSON: a list of [LO, HI] instruction counts, HI null for
// no bound; cpu-where.ts passes the bench's, bench/lift.bench.ts SIZE_BUCKETS), after the passes,
// the programs by size, each bucket timed alone in two rounds, the round of less CPU kept: one line
// a bucket, K its index in the list,
//   cpu-where bucket K: PROGRAMS programs, U µs user and S µs system CPU an instruction,
//     F page faults a program, C characters of WGSL an instruction

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [root, passesArg, ...folders] = process.argv.slice(2);
const passes = Number(passesArg);
const url = (p) => pathToFileURL(resolve(root, 'dist/src', p)).href;
const { parseContainer } = await import(url('container/container.js'));
const { liftContainer } = await import(url('lift/lift.js'));
const { emitWgsl } = await import(url('wgsl/index.js'));

console.log(`cpu-where worker ${process.pid}`);
const files = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith('.dxbc') || p.endsWith('.dxil')) files.push(p);
  }
};
for (const f of folders) walk(f);

// Only read here: lifting them to keep those that lift would warm the code up before the first pass.
const programs = files.map((f) => {
  const b = readFileSync(f);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
});
const lifts = (bytes) => {
  try {
    return liftContainer(parseContainer(bytes));
  } catch {
    return undefined;
  }
};

for (let k = 0; k < passes; k++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  for (const bytes of programs) {
    const p = lifts(bytes);
    if (p === undefined) continue;
    try {
      emitWgsl(p);
      n++;
    } catch {
      // a program WGSL cannot hold (mesh and amplification stages): not counted
    }
  }
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(
    `cpu-where pass ${k}: ${n} programs, ${wall.toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`,
  );
}

if (process.env.CPU_WHERE_BUCKETS !== undefined) {
  const BUCKETS = JSON.parse(process.env.CPU_WHERE_BUCKETS).map(([lo, hi]) => [lo, hi ?? Infinity]);
  const sized = BUCKETS.map(() => []);
  for (const bytes of programs) {
    const p = lifts(bytes);
    if (p === undefined) continue;
    let text;
    try {
      text = emitWgsl(p);
    } catch {
      continue;
    }
    const n = p.provenance.instructions;
    sized[BUCKETS.findIndex(([lo, hi]) => n >= lo && n < hi)]?.push({ bytes, n, chars: text.length });
  }
  BUCKETS.forEach((_, b) => {
    const list = sized[b];
    if (list.length === 0) return;
    const instructions = list.reduce((a, x) => a + x.n, 0);
    const chars = list.reduce((a, x) => a + x.chars, 0);
    let best;
    for (let round = 0; round < 2; round++) {
      const f0 = process.resourceUsage().minorPageFault;
      const c0 = process.cpuUsage();
      for (const x of list) emitWgsl(liftContainer(parseContainer(x.bytes)));
      const c = process.cpuUsage(c0);
      const faults = process.resourceUsage().minorPageFault - f0;
      if (!best || c.user + c.system < best.user + best.system) best = { user: c.user, system: c.system, faults };
    }
    console.log(
      `cpu-where bucket ${b}: ${list.length} programs, ` +
        `${(best.user / instructions).toFixed(2)} µs user and ${(best.system / instructions).toFixed(2)} µs system CPU an instruction, ` +
        `${(best.faults / list.length).toFixed(1)} page faults a program, ${(chars / instructions).toFixed(0)} characters of WGSL an instruction`,
    );
  });
}
