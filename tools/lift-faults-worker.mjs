// The measuring process of tools/lift-faults.ts (see there), in plain JavaScript for plain `node`:
// one built tree's SM4/5 lift and WGSL emission, CPU and minor page faults by phase, program by
// program.
//
//   node tools/lift-faults-worker.mjs TREE MIN MAX PASSES ARENAS FOLDER...

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuMs, sortedFiles } from './worker-common.mjs';

const [tree, minArg, maxArg, passesArg, arenasArg, ...folders] = process.argv.slice(2);
const [min, max, passes, arenas] = [minArg, maxArg, passesArg, arenasArg].map(Number);

const load = (p) => import(pathToFileURL(join(resolve(tree), 'dist/src', p)).href);
const { parseContainer } = await load('container/container.js');
const { liftContainer } = await load('lift/lift.js');
const { emitWgsl } = await load('wgsl/index.js');

const programs = [];
for (const path of folders.flatMap((f) => sortedFiles(f, '.dxbc'))) {
  const b = readFileSync(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  try {
    const p = liftContainer(parseContainer(bytes));
    const size = p.provenance.instructions;
    if (size < min || size >= max) continue;
    emitWgsl(p);
    const exprs = Math.max(...p.module.functions.map((f) => f.exprs.length));
    programs.push({ path, bytes, size, exprs, lift: [], emit: [] });
  } catch {
    // refused: not measured
  }
}
const instructions = programs.reduce((a, p) => a + p.size, 0);
const faults = () => process.resourceUsage().minorPageFault;

let best;
for (let pass = 0; pass <= passes; pass++) {
  const run = { lift: 0, emit: 0, liftFaults: 0, emitFaults: 0 };
  for (const p of programs) {
    let c0 = cpuMs();
    let f0 = faults();
    const program = liftContainer(parseContainer(p.bytes));
    run.lift += cpuMs() - c0;
    const fl = faults() - f0;
    c0 = cpuMs();
    f0 = faults();
    emitWgsl(program);
    run.emit += cpuMs() - c0;
    const fe = faults() - f0;
    run.liftFaults += fl;
    run.emitFaults += fe;
    if (pass > 0) {
      p.lift.push(fl);
      p.emit.push(fe);
    }
  }
  if (pass > 0 && (best === undefined || run.lift + run.emit < best.lift + best.emit)) best = run;
}

const n = programs.length;
const range = `${min}${max === Infinity ? ' and more' : ` to ${max - 1}`}`;
console.log(`lift-faults ${tree}: ${n} programs of ${range} instructions (${instructions} instructions)`);
if (n > 0) {
  const least = (xs) => Math.min(...xs);
  const leastMean = (phase) => programs.reduce((a, p) => a + least(p[phase]), 0) / n;
  const perInstruction = (ms) => ((ms * 1000) / instructions).toFixed(2);
  console.log(
    `  lift ${perInstruction(best.lift)} µs an instruction (CPU, the best of ${passes} passes), ` +
      `${leastMean('lift').toFixed(1)} page faults a program (${(best.liftFaults / n).toFixed(1)} in that pass); ` +
      `WGSL ${perInstruction(best.emit)} µs an instruction, ${leastMean('emit').toFixed(1)} page faults ` +
      `a program (${(best.emitFaults / n).toFixed(1)})`,
  );
  for (const p of [...programs].sort((a, b) => b.exprs - a.exprs).slice(0, arenas))
    console.log(
      `  ${String(p.exprs).padStart(6)} expressions, ${String(p.size).padStart(5)} instructions: ` +
        `${least(p.lift)} faults in the lift, ${least(p.emit)} in the WGSL (least of the passes)  ${p.path}`,
    );
}
