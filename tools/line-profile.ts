// Where one phase of lift + WGSL spends its time, function by function and line by line (issue 17,
// docs/benchmarks.md, the eighteenth session). The bench and tools/phase-times.ts say which programs
// or phases are dear; a function's self time in a CPU profile then says little when the function is
// long, and V8 puts the time of the functions it inlines in their caller. The profile's line ticks
// (each sample's line in the compiled code) name the statement: a sort, a JSON text or an object
// copy that costs a quarter of a pass shows up as one line.
//
//   node --import tsx tools/line-profile.ts [--phase P] [--passes N] [--top K] [--min-instructions M] [--max-instructions M] [--heap] PATH...
//
// PATH: containers, or folders of them (walked); those that lift are profiled. Phases: `lift` (container parsed, program lifted),
// `passes` (the WGSL passes: lowerForWgsl), `emit` (the WGSL text of the lowered module), `listing`
// (a DXIL container's /Fc listing), `read` (a DXIL container parsed and its DXIL part's module read,
// as the bench's module read) or `all` (lift, passes and emission; the default). Each input is
// made ready up to the phase once, then the phase runs N times over all of them (default 200) under
// V8's sampling profiler (node:inspector, 100 µs), after as many unprofiled passes to warm the code
// up. Printed: the best pass in µs (wall) a program and an instruction, then the K (default 25)
// functions and lines of most self time, in percent of the samples (the profiler's own work and idle
// time left out), each line with its text. With
// --min-instructions M, programs of fewer instructions are left out (the dear programs of a folder);
// with --max-instructions M, those of M or more (the small programs, whose fixed costs dominate).
// --heap: what the phase allocates instead of where its time goes (the twentieth session). The N
// passes run under V8's sampling heap profiler (a sample every 1 KiB, the objects the collector has
// freed since counted too), and the K functions that allocated most are printed, in bytes a program
// and percent of all: the young collector's work grows with what is allocated, and a function's
// allocation is a figure that does not move with the machine's speed.
//
// The code profiled is the compiled tree (dist/src, `npx tsc -p tsconfig.build.json` first), as the
// bench and cpu-where.ts run it: lines are those of the .js files there. Figures only: nothing is
// asserted.

import { Session } from 'node:inspector/promises';
import { readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isContainerFile, walk } from '../test/helpers/shared.js';
import { positiveArg, takeOption } from './corpus-args.js';

const PHASES = ['lift', 'passes', 'emit', 'listing', 'read', 'all'] as const;
type Phase = (typeof PHASES)[number];

let argv = process.argv.slice(2);
const take = (name: string): string | undefined => {
  const o = takeOption(argv, name);
  argv = o.rest;
  return o.value;
};
const phaseArg = take('--phase') ?? 'all';
const passes = positiveArg('line-profile', '--passes', take('--passes'), 200);
const top = positiveArg('line-profile', '--top', take('--top'), 25);
const heapAt = argv.indexOf('--heap');
const heap = heapAt >= 0;
if (heap) argv.splice(heapAt, 1);
const minInstructions = positiveArg('line-profile', '--min-instructions', take('--min-instructions'), 1);
const maxInstructions = positiveArg(
  'line-profile',
  '--max-instructions',
  take('--max-instructions'),
  Number.MAX_SAFE_INTEGER,
);
if (!(PHASES as readonly string[]).includes(phaseArg) || argv.length === 0 || argv.some((a) => a.startsWith('--'))) {
  console.error(
    'usage: node --import tsx tools/line-profile.ts [--phase lift|passes|emit|listing|read|all] [--passes N] [--top K] [--min-instructions M] [--max-instructions M] [--heap] PATH...',
  );
  process.exit(2);
}
const phase = phaseArg as Phase;

const root = resolve(import.meta.dirname, '..');
const compiled = join(root, 'dist/src');
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(compiled, path)).href)) as T;
type Bytes = Uint8Array;
const { parseContainer } = await load<{ parseContainer: (b: Bytes) => unknown }>('container/container.js');
const { liftContainer } = await load<{ liftContainer: (c: unknown) => Lifted }>('lift/lift.js');
const { lowerForWgsl } = await load<{ lowerForWgsl: (m: unknown, o: object) => unknown }>('wgsl/passes.js');
const { emitModuleWgsl } = await load<{ emitModuleWgsl: (m: unknown, o: object) => string }>('wgsl/emit.js');
const { disassembleDxil, readPartModule } = await load<{
  disassembleDxil: (c: unknown) => string;
  readPartModule: (c: unknown, kind: 'DXIL') => unknown;
}>('dxil/disassemble.js');

interface Lifted {
  readonly stage: string;
  readonly module: unknown;
  readonly provenance: { readonly instructions: number };
}

/**
 * The phase's run on one input. Only the passes and the emission hold their input (the lifted or the
 * lowered module): the other phases start from the bytes, and a closure that held every program's IR
 * would make the profile one of a process holding thousands of modules (more for the collector to
 * mark, and V8's allocation sites switched to the old generation), which no batch of users is.
 */
function runner(phase: Phase, bytes: Bytes, module: unknown, lowered: unknown): () => unknown {
  switch (phase) {
    case 'lift':
      return () => liftContainer(parseContainer(bytes));
    case 'passes':
      return () => lowerForWgsl(module, { maxVertices: 1 });
    case 'emit':
      return () => emitModuleWgsl(lowered, {});
    case 'listing':
      return () => disassembleDxil(parseContainer(bytes));
    case 'read':
      return () => readPartModule(parseContainer(bytes), 'DXIL');
    case 'all':
      return () => emitModuleWgsl(lowerForWgsl(liftContainer(parseContainer(bytes)).module, { maxVertices: 1 }), {});
  }
}

const files = argv.flatMap((p) => (statSync(p).isDirectory() ? walk(p).filter(isContainerFile) : [p]));
/** Each input made ready for the phase: the function that runs the phase on it, and its size. */
const inputs: { run: () => unknown; instructions: number }[] = [];
let left = 0;
for (const path of files) {
  const b = readFileSync(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  try {
    const p = liftContainer(parseContainer(bytes));
    // the stages WGSL has no pipeline for are refused by emitWgsl: left out here too
    if (
      p.stage === 'mesh' ||
      p.stage === 'amplification' ||
      p.provenance.instructions < minInstructions ||
      p.provenance.instructions >= maxInstructions
    ) {
      left++;
      continue;
    }
    const lowered = lowerForWgsl(p.module, { maxVertices: 1 });
    emitModuleWgsl(lowered, {});
    if (phase === 'listing') disassembleDxil(parseContainer(bytes));
    if (phase === 'read' && readPartModule(parseContainer(bytes), 'DXIL') === undefined) throw new Error('no DXIL');
    inputs.push({ run: runner(phase, bytes, p.module, lowered), instructions: p.provenance.instructions });
  } catch {
    left++; // refused, or not a DXIL container for `listing` and `read`
  }
}
if (inputs.length === 0) {
  console.error(`line-profile: none of the ${files.length} inputs lifts and emits`);
  process.exit(1);
}
const instructions = inputs.reduce((a, x) => a + x.instructions, 0);
const short = (url: string): string => (url.startsWith('file://') ? relative(root, new URL(url).pathname) : url);
const pct = (x: number, of: number): string => `${((100 * x) / of).toFixed(1).padStart(5)}%`;

// Passes timed by the clock (process.cpuUsage, a system call, was a few percent of a short pass's
// profile): µs of wall time, on a quiet machine the CPU's.
const pass = (): number => {
  const t0 = performance.now();
  for (const x of inputs) x.run();
  return (performance.now() - t0) * 1000;
};
for (let k = 0; k < passes; k++) pass();
const session = new Session();
session.connect();
if (heap) {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let k = 0; k < passes; k++) pass();
  const { profile: sampled } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const bytes = new Map<string, number>();
  let all = 0;
  // A built-in (`Map`, `slice`: no script) is named with its caller, which says where it was made.
  const visit = (n: typeof sampled.head, caller: string): void => {
    const f = n.callFrame;
    const own = `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
    const name = f.url === '' && caller !== '' ? `${f.functionName || '(native)'} in ${caller}` : own;
    bytes.set(name, (bytes.get(name) ?? 0) + n.selfSize);
    all += n.selfSize;
    for (const c of n.children) visit(c, f.url === '' ? caller : own);
  };
  visit(sampled.head, '');
  const perProgram = all / passes / inputs.length;
  console.log(
    `line-profile --heap: ${phase}, ${inputs.length} programs (${left} left out), ${instructions} instructions; ` +
      `${(perProgram / 1024).toFixed(1)} KB allocated a program, ${(perProgram / (instructions / inputs.length)).toFixed(0)} bytes an instruction (sampled over ${passes} passes)`,
  );
  console.log(`  the ${top} functions that allocated most (bytes a program):`);
  for (const [name, b] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(b, all)}  ${(b / passes / inputs.length).toFixed(0).padStart(8)} B  ${name}`);
  process.exit(0);
}
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
let best = Infinity;
for (let k = 0; k < passes; k++) best = Math.min(best, pass());
const { profile } = await session.post('Profiler.stop');
session.disconnect();

console.log(
  `line-profile: ${phase}, ${inputs.length} programs (${left} left out), ${instructions} instructions; ` +
    `best of ${passes} passes ${(best / inputs.length).toFixed(1)} µs a program, ` +
    `${(best / instructions).toFixed(2)} µs an instruction`,
);

// Self time by function and by line, from the samples (each sample's time is its delta).
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfTime = new Map<number, number>();
let total = 0;
const deltas = profile.timeDeltas ?? [];
/** The profiler's own frames (the inspector session dispatching in this thread) and idle time. */
const OWN = new Set(['(idle)', '(program)', 'dispatch']);
(profile.samples ?? []).forEach((id, k) => {
  const name = byId.get(id)?.callFrame.functionName ?? '';
  if (OWN.has(name)) return;
  const dt = deltas[k] ?? 0;
  selfTime.set(id, (selfTime.get(id) ?? 0) + dt);
  total += dt;
});
const fns = new Map<string, number>();
const lines = new Map<string, { url: string; line: number; ticks: number }>();
let ticks = 0;
for (const n of profile.nodes) {
  const f = n.callFrame;
  if (OWN.has(f.functionName)) continue;
  const name = `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
  fns.set(name, (fns.get(name) ?? 0) + (selfTime.get(n.id) ?? 0));
  for (const t of n.positionTicks ?? []) {
    const key = `${f.url}:${t.line}`;
    const l = lines.get(key) ?? { url: f.url, line: t.line, ticks: 0 };
    l.ticks += t.ticks;
    lines.set(key, l);
    ticks += t.ticks;
  }
}
console.log(`  the ${top} functions of most self time:`);
for (const [name, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(t, total)}  ${name}`);
const sources = new Map<string, readonly string[]>();
const text = (url: string, line: number): string => {
  let s = sources.get(url);
  if (s === undefined) {
    try {
      s = readFileSync(new URL(url), 'utf8').split('\n');
    } catch {
      s = [];
    }
    sources.set(url, s);
  }
  return (s[line - 1] ?? '').trim().slice(0, 100);
};
console.log(`  the ${top} lines of most ticks (V8 puts an inlined function's lines under its caller's file):`);
for (const l of [...lines.values()].sort((a, b) => b.ticks - a.ticks).slice(0, top))
  console.log(`  ${pct(l.ticks, ticks)}  ${short(l.url)}:${l.line}  ${text(l.url, l.line)}`);
