// Page faults and CPU of the SM4/5 lift and its WGSL emission, phase by phase, for one or more built
// trees (issue 17, docs/benchmarks.md, the twenty-fourth session). V8 puts a list or a string of
// over 128 KiB in its large-object space, on pages mapped for it alone, and the first write to each
// page is a page fault (about 11 µs here: tools/fresh-lists.ts). A count of faults does not move
// with this machine's speed, so it says what a change did to them where a timing cannot.
//
//   node tools/lift-faults.mjs [--min-instructions N] [--max-instructions N] [--passes N] [--arenas K] TREE...
//
// TREE: a checkout with dist/ built (`npx tsc -p tsconfig.build.json`), e.g. this one and a worktree
// of the commit before a change. For each tree, in a process of its own, the programs of
// ../shared/corpus/dxbc and dxbc-sm51 that lift and emit (with --min-instructions N only those of at
// least N instructions, default 1024; with --max-instructions N only those of fewer than N) are
// lifted and emitted `passes` times (default 6) after a warm-up pass, the two phases timed and their
// minor page faults counted (process.resourceUsage) program by program. Printed for each tree: the
// best pass's CPU µs an instruction of each phase, and the page faults a program: the mean over the
// programs of each one's least in any pass (a pass's own count also takes in the faults of the heap's
// growth and of collections, which move from run to run; it is printed beside it); then the K
// programs with the largest expression arenas (default 8), with their least faults in each phase.
// Figures only: nothing is asserted.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sortedFiles } from './worker-common.mjs';

const SHARED = process.env.IRIDIA_SHARED ?? resolve(fileURLToPath(import.meta.url), '../../../shared');
const USAGE =
  'usage: node tools/lift-faults.mjs [--min-instructions N] [--max-instructions N] [--passes N] [--arenas K] TREE...';

function parse(argv) {
  const o = { min: 1024, max: Infinity, passes: 6, arenas: 8, trees: [], worker: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const number = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0) {
        console.error(`lift-faults: ${a} takes a whole number\n${USAGE}`);
        process.exit(2);
      }
      return n;
    };
    if (a === '--min-instructions') o.min = number();
    else if (a === '--max-instructions') o.max = number();
    else if (a === '--passes') o.passes = Math.max(1, number());
    else if (a === '--arenas') o.arenas = number();
    else if (a === '--worker') o.worker = true;
    else o.trees.push(a);
  }
  if (o.trees.length === 0) {
    console.error(USAGE);
    process.exit(2);
  }
  return o;
}

const o = parse(process.argv.slice(2));

if (!o.worker) {
  for (const tree of o.trees) {
    const args = [fileURLToPath(import.meta.url), '--worker', '--min-instructions', String(o.min)];
    if (o.max !== Infinity) args.push('--max-instructions', String(o.max));
    args.push('--passes', String(o.passes), '--arenas', String(o.arenas), resolve(tree));
    const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}

const root = o.trees[0];
const url = (p) => pathToFileURL(resolve(root, 'dist/src', p)).href;
const { parseContainer } = await import(url('container/container.js'));
const { liftContainer } = await import(url('lift/lift.js'));
const { emitWgsl } = await import(url('wgsl/index.js'));

const folders = ['corpus/dxbc', 'corpus/dxbc-sm51'].map((f) => resolve(SHARED, f));
let files;
try {
  files = folders.flatMap((f) => sortedFiles(f, '.dxbc'));
} catch {
  console.error(`lift-faults: ${SHARED}/corpus is absent (set IRIDIA_SHARED)`);
  process.exit(2);
}

const programs = [];
for (const path of files) {
  const b = readFileSync(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  try {
    const p = liftContainer(parseContainer(bytes));
    const size = p.provenance.instructions;
    if (size < o.min || size >= o.max) continue;
    emitWgsl(p);
    const exprs = Math.max(...p.module.functions.map((f) => f.exprs.length));
    programs.push({ path, bytes, size, exprs, lift: [], emit: [] });
  } catch {
    // refused: not measured
  }
}
const instructions = programs.reduce((a, p) => a + p.size, 0);

const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const faults = () => process.resourceUsage().minorPageFault;

let best;
for (let pass = 0; pass <= o.passes; pass++) {
  const run = { lift: 0, emit: 0, liftFaults: 0, emitFaults: 0 };
  for (const p of programs) {
    let c0 = cpu();
    let f0 = faults();
    const program = liftContainer(parseContainer(p.bytes));
    run.lift += cpu() - c0;
    const fl = faults() - f0;
    c0 = cpu();
    f0 = faults();
    emitWgsl(program);
    run.emit += cpu() - c0;
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
const range = `${o.min}${o.max === Infinity ? ' and more' : ` to ${o.max - 1}`}`;
console.log(`lift-faults ${root}: ${n} programs of ${range} instructions (${instructions} instructions)`);
if (n === 0) process.exit(0);
const least = (xs) => Math.min(...xs);
const leastMean = (phase) => programs.reduce((a, p) => a + least(p[phase]), 0) / n;
console.log(
  `  lift ${(best.lift / instructions).toFixed(2)} µs an instruction (CPU, the best of ${o.passes} passes), ` +
    `${leastMean('lift').toFixed(1)} page faults a program (${(best.liftFaults / n).toFixed(1)} in that pass); ` +
    `WGSL ${(best.emit / instructions).toFixed(2)} µs an instruction, ${leastMean('emit').toFixed(1)} page faults ` +
    `a program (${(best.emitFaults / n).toFixed(1)})`,
);
for (const p of [...programs].sort((a, b) => b.exprs - a.exprs).slice(0, o.arenas))
  console.log(
    `  ${String(p.exprs).padStart(6)} expressions, ${String(p.size).padStart(5)} instructions: ` +
      `${least(p.lift)} faults in the lift, ${least(p.emit)} in the WGSL (least of the passes)  ${relative(SHARED, p.path)}`,
  );
