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
