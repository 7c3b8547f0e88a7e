// Lifter throughput: lift (container parse, decode, lift to IR) and WGSL emission (passes and the
// printer) of the SM4/5/5.1 programs of ../shared/corpus (dxbc and dxbc-sm51), one thread, files read
// first; containers/s wall and per CPU-second (process.cpuUsage, so other work on a shared machine
// counts less), best of three passes after a warm-up. Each lifted module is dropped once used, as a
// caller lifting one file at a time would: holding all ~6,300 modules at once (~600 MB of IR) makes
// the garbage collector's work, and so every figure, about twice as slow (docs/benchmarks.md).
//
// The peer is vkd3d-shader's DXBC to SPIR-V. The issue's figure is ~9,900 containers/s on one core
// for vkd3d-shader 1.17. Where Debian's libvkd3d-dev and a C compiler are installed, the installed
// vkd3d-shader (1.2) is measured in one process (bench/peer.ts) over the same programs as iridia, in
// the same run, and the ratio printed is against it. Otherwise, where `vkd3d-compiler` is
// installed, it is measured one process per container, on a sample of the corpus programs it
// compiles: the raw rate per process, the process start alone (`--version`, run beside each
// compile), and the difference with its noise, in wall time (paired with the start run next to it)
// and in CPU time (the children's user + system time bash's `times` reports after a loop of runs).

import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { GCProfiler, getHeapSpaceStatistics } from 'node:v8';
import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl, lowerForWgsl } from '../src/wgsl/index.js';
import { resolveFunction } from '../src/ir/typeof.js';
import type { Program } from '../src/ir/program.js';
import { bash } from '../test/helpers/bash.js';
import { sharedPath, walk } from '../test/helpers/shared.js';
import { exposedGc, youngGrowth } from '../test/helpers/young.js';
import { TURNS, inProcessPeer, inTurns } from './peer.js';
import { target } from './targets.js';

interface Input {
  readonly path: string;
  readonly bytes: Uint8Array;
}

function programs(): Input[] {
  const out: Input[] = [];
  for (const root of ['corpus/dxbc', 'corpus/dxbc-sm51']) {
    const dir = sharedPath(root);
    if (!dir) continue;
    for (const f of walk(dir)) {
      if (!f.endsWith('.dxbc')) continue;
      const b = readFileSync(f);
      const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      try {
        if (parseContainer(bytes).parts.some((p) => p.kind === 'SHEX' || p.kind === 'SHDR'))
          out.push({ path: f, bytes });
      } catch {
        /* not a container */
      }
    }
  }
  return out;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Best wall and best CPU milliseconds of three passes after a warm-up (each kept apart). */
export function timed(pass: () => { wall: number; cpu: number }): { wall: number; cpu: number } {
  pass();
  let wall = Infinity;
  let cpu = Infinity;
  for (let r = 0; r < 3; r++) {
    const t = pass();
    wall = Math.min(wall, t.wall);
    cpu = Math.min(cpu, t.cpu);
  }
  return { wall, cpu };
}

/**
 * The least CPU of a pass once V8's optimizing compiler has settled: passes run until three in a row cost no
 * less CPU than the best so far (at most `max`). A figure beside the targets', not one of them: each
 * target keeps its one warm-up. The compiler runs on a thread of its own and process.cpuUsage counts
 * it, so a pass soon after the warm-up also pays for the compiling of functions that reach its budget
 * late (docs/benchmarks.md, the fifteenth session: 140 ms of the 347 ms of the best DXIL pass).
 */
export function settled(pass: () => { cpu: number }, max = 20): { cpu: number; passes: number } {
  let cpu = Infinity;
  let since = 0;
  let passes = 0;
  while (passes < max && since < 3) {
    const t = pass().cpu;
    passes++;
    if (t < cpu) {
      cpu = t;
      since = 0;
    } else since++;
  }
  return { cpu, passes };
}

export function whole(f: () => void): () => { wall: number; cpu: number } {
  return () => {
    const c0 = cpuMs();
    const t0 = performance.now();
    f();
    return { wall: performance.now() - t0, cpu: cpuMs() - c0 };
  };
}

/** Emission alone: lift a slice (not timed), time the emission of its modules, drop them. */
function emissionPass(inputs: readonly Input[]): () => { wall: number; cpu: number } {
  return () => {
    let wall = 0;
    let cpu = 0;
    for (let k = 0; k < inputs.length; k += 128) {
      const modules: Program[] = inputs.slice(k, k + 128).map((p) => liftContainer(parseContainer(p.bytes)));
      const c0 = cpuMs();
      const t0 = performance.now();
      for (const m of modules) emitWgsl(m);
      wall += performance.now() - t0;
      cpu += cpuMs() - c0;
    }
    return { wall, cpu };
  };
}

/** resolveFunction over every function as the WGSL emitter gets it (after lowerForWgsl), a slice of
 * 128 programs lifted at a time (not timed): CPU ns per expression, best of three passes. */
function resolutionCost(inputs: readonly Input[]): string {
  let expressions = 0;
  const t = timed(() => {
    let cpu = 0;
    expressions = 0;
    for (let k = 0; k < inputs.length; k += 128) {
      const modules = inputs.slice(k, k + 128).map((p) => lowerForWgsl(liftContainer(parseContainer(p.bytes)).module));
      const c0 = cpuMs();
      for (const m of modules)
        for (const f of m.functions) {
          resolveFunction(m, f);
          expressions += f.exprs.length;
        }
      cpu += cpuMs() - c0;
    }
    return { wall: cpu, cpu };
  });
  return `${((t.cpu * 1e6) / expressions).toFixed(0)} ns per expression (${expressions} expressions)`;
}

/**
 * Bytes the JavaScript heap allocated while `f` ran, collected garbage included: what each garbage
 * collection freed (v8's GCProfiler: used heap before less after) plus the used heap's growth over
 * the run. Allocation that a collection promotes rather than frees is counted once, in the growth
 * or when a later collection frees it.
 */
export function allocated(f: () => void): number {
  const profiler = new GCProfiler();
  const used0 = process.memoryUsage().heapUsed;
  profiler.start();
  f();
  const used1 = process.memoryUsage().heapUsed;
  const { statistics } = profiler.stop();
  let freed = 0;
  for (const s of statistics)
    freed += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize);
  return freed + used1 - used0;
}

/**
 * What young collections keep of finished programs, in bytes a program: the old generation's growth
 * over batches of ten programs (`one(i)` runs program i), each followed by two forced young
 * collections (test/helpers/young.ts); a batch during which a full collection ran is left out.
 */
export function promotedByYoung(n: number, one: (i: number) => void): number {
  const gc = exposedGc();
  let grown = 0;
  let counted = 0;
  gc();
  for (let k = 0; k < n; k += 10) {
    const end = Math.min(n, k + 10);
    const g = youngGrowth(() => {
      for (let i = k; i < end; i++) one(i);
    });
    if (g === undefined) {
      gc();
      continue;
    }
    grown += g;
    counted += end - k;
  }
  return counted ? grown / counted : NaN;
}

/**
 * What a batch leaves behind: the used heap after a full collection before the first of `passes`
 * passes of `f` over `n` programs and after each. Every pass after the first should leave the heap
 * where the first did (caches filled once, no program kept): growth per program over the later passes.
 */
export function retained(f: () => void, n: number, passes = 6): string {
  return retainedFigures(f, n, passes).text;
}

/** Heap retained across passes of `f` over `n` programs: the text retained() prints, and the bytes a
 * program a pass that stay after the first pass (the issue's "no retained garbage": near 0), as the
 * least-squares slope of the heap over the passes after the first. The heap after a full collection
 * moves by a megabyte or two from pass to pass with nothing kept (V8's own tables), so the
 * difference of two passes, as this measured before, said 1,167 or -855 bytes a program of the same
 * build; the slope over five passes follows a growth and lets that noise cancel. */
export function retainedFigures(f: () => void, n: number, passes = 6): { text: string; perProgramPass: number } {
  const gc = exposedGc();
  // the spaces objects live in: V8's compiled code (code spaces) grows as it optimises, not as data
  const used = (): number => {
    gc();
    gc();
    let sum = 0;
    for (const sp of getHeapSpaceStatistics()) if (!sp.space_name.startsWith('code')) sum += sp.space_used_size;
    return sum;
  };
  const at = [used()];
  for (let k = 0; k < passes; k++) {
    f();
    at.push(used());
  }
  const mb = (b: number) => (b / 2 ** 20).toFixed(1);
  // slope of at[1..passes] against the pass number
  const ys = at.slice(1);
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const xs = ys.map((_, k) => k);
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let k = 0; k < ys.length; k++) {
    num += (xs[k]! - mx) * (ys[k]! - my);
    den += (xs[k]! - mx) ** 2;
  }
  const later = den > 0 ? num / den / n : 0;
  return {
    text:
      `heap (less code) after a full collection ${at.map(mb).join(' -> ')} MB (before, then after each of ${passes} passes); ` +
      `after the first pass ${later.toFixed(0)} bytes a program a pass (the slope over the passes)`,
    perProgramPass: later,
  };
}

/** What the memory target counts as no retained garbage: under 1 KB a program a pass after the first
 * (a program allocates hundreds of KB; what stays is the caches' growth and the heap's noise). */
const RETAINED_AIM = 1024;

/** Reports the heap retained by passes of `pass` over `n` programs and the memory target (allocation
 * per instruction printed; retained garbage under RETAINED_AIM). */
export function memoryTarget(
  report: (line: string) => void,
  bench: string,
  what: string,
  bytesPerInstruction: number,
  n: number,
  pass: () => void,
): void {
  const kept = retainedFigures(pass, n);
  report(`${bench}: retained, lift + WGSL of every program: ${kept.text}`);
  target(
    report,
    `memory: ${what} lift + WGSL, allocation per instruction; retained after the first pass`,
    `${bytesPerInstruction.toFixed(0)} bytes per instruction; ${kept.perProgramPass.toFixed(0)} bytes a program a pass`,
    `printed; under ${RETAINED_AIM} bytes a program a pass`,
    kept.perProgramPass < RETAINED_AIM,
  );
}

/** Programs grouped by instruction count, for the cost per instruction against program size. */
export const SIZE_BUCKETS: readonly (readonly [number, number])[] = [
  [0, 64],
  [64, 256],
  [256, 1024],
  [1024, Infinity],
];

export function bucketName([lo, hi]: readonly [number, number]): string {
  return hi === Infinity ? `>=${lo}` : `${lo}-${hi - 1}`;
}

/** Rounds of bySize: each round times one pass of every bucket in turn. */
const SIZE_ROUNDS = 5;

/**
 * `run` timed over the programs of each size bucket (sizes[i]: program i's instructions): the text
 * printed, and each non-empty bucket's CPU µs per instruction.
 *
 * The buckets are timed in rounds, one pass of each bucket a round in turn, after one pass of each to
 * warm up, and each bucket's least CPU of the rounds is kept. The flatness target is a ratio of two
 * buckets: timed one after the other (a warm-up and the best of three of the first bucket, then of
 * the next), a change of this machine's speed between them moved the ratio as much as any change of
 * the code (1.38 to 1.73 in four runs of the same lifter, docs/benchmarks.md, the nineteenth
 * session). In turns, every bucket meets the machine's slow and fast spells alike.
 */
export function bySize<P>(
  programs: readonly P[],
  sizes: readonly number[],
  run: (p: P) => void,
): { text: string; costs: number[] } {
  const buckets = SIZE_BUCKETS.map((b) => {
    const at = sizes.flatMap((size, i) => (size >= b[0] && size < b[1] ? [i] : []));
    const instructions = at.reduce((a, i) => a + (sizes[i] as number), 0);
    const pass = whole(() => {
      for (const i of at) run(programs[i] as P);
    });
    return { b, at, instructions, pass, cpu: Infinity };
  }).filter((x) => x.at.length > 0);
  for (const x of buckets) x.pass();
  for (let r = 0; r < SIZE_ROUNDS; r++) for (const x of buckets) x.cpu = Math.min(x.cpu, x.pass().cpu);
  const costs = buckets.map((x) => (x.cpu * 1000) / x.instructions);
  const parts = SIZE_BUCKETS.map((b) => {
    const k = buckets.findIndex((x) => x.b === b);
    if (k < 0) return `${bucketName(b)}: none`;
    return `${bucketName(b)} instructions ${(costs[k] as number).toFixed(2)} µs (${buckets[k]!.at.length} programs)`;
  });
  return { text: `${parts.join(', ')} (least CPU of ${SIZE_ROUNDS} rounds, the buckets in turn)`, costs };
}

/** How far the cost per instruction may move from the cheapest size bucket to the dearest and still
 * count as flat (the issue: "cost per instruction flat from small to large programs"). */
const FLAT_AIM = 1.5;

/** The flatness target: the dearest bucket's CPU per instruction over the cheapest's. */
export function flatTarget(report: (line: string) => void, what: string, costs: readonly number[]): void {
  if (costs.length < 2) return;
  const spread = Math.max(...costs) / Math.min(...costs);
  target(
    report,
    `${what} lift + WGSL cost per instruction flat from small to large programs (dearest size bucket / cheapest)`,
    `${spread.toFixed(2)} (${costs.map((c) => c.toFixed(2)).join(', ')} µs by bucket)`,
    `<= ${FLAT_AIM}`,
    spread <= FLAT_AIM,
  );
}

// ---- the peer ----------------------------------------------------------------------------------

const COMPILE = ['-x', 'dxbc-tpf', '-b', 'spirv-binary', '-o', '/dev/null'];

export interface Stats {
  readonly n: number;
  readonly mean: number;
  readonly median: number;
  /** Standard error of the mean. */
  readonly se: number;
}

function stats(xs: readonly number[]): Stats {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  const sorted = [...xs].sort((a, b) => a - b);
  return { n, mean, median: sorted[n >> 1] ?? NaN, se: sd / Math.sqrt(n) };
}

/**
 * Children's CPU milliseconds (user + system) of a bash loop running vkd3d-compiler per argument,
 * from bash's `times` (getrusage, printed to the millisecond; a POSIX sh's `times` counts 10 ms
 * clock ticks, too coarse here), or undefined without bash.
 */
function childCpu(files: readonly string[], version: boolean): number | undefined {
  const cmd = version
    ? 'for f in "$@"; do vkd3d-compiler --version >/dev/null; done; times'
    : `for f in "$@"; do vkd3d-compiler ${COMPILE.join(' ')} "$f" 2>/dev/null; done; times`;
  const r = bash(cmd, files);
  if (r.status !== 0 || typeof r.stdout !== 'string') return undefined;
  const line = r.stdout.trim().split('\n')[1] ?? '';
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(line.trim());
  if (!m) return undefined;
  return (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
}

export interface Peer {
  readonly version: string;
  readonly files: number;
  readonly failed: number;
  /** Wall ms per process: compiles, `--version` starts, and compile minus the start run beside it. */
  readonly compile: Stats;
  readonly start: Stats;
  readonly net: Stats;
  /** CPU ms per process, one figure per loop over the sample (three loops each). */
  readonly cpuCompile: readonly number[];
  readonly cpuStart: readonly number[];
}

export function measurePeer(sample: readonly string[]): Peer | undefined {
  const probe = spawnSync('vkd3d-compiler', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) return undefined;
  const version = (/vkd3d-shader ([\d.]+)/.exec(probe.stdout) ?? [])[1] ?? '?';
  // Only containers it compiles (exit status 0) are timed.
  const files = sample.filter((f) => spawnSync('vkd3d-compiler', [...COMPILE, f], { stdio: 'ignore' }).status === 0);
  const run = (args: string[]): number => {
    const t0 = performance.now();
    spawnSync('vkd3d-compiler', args, { stdio: 'ignore' });
    return performance.now() - t0;
  };
  const compile: number[] = [];
  const start: number[] = [];
  const net: number[] = [];
  for (let r = 0; r < 3; r++)
    for (const f of files) {
      const s = run(['--version']);
      const c = run([...COMPILE, f]);
      start.push(s);
      compile.push(c);
      net.push(c - s);
    }
  const cpuCompile: number[] = [];
  const cpuStart: number[] = [];
  // Each loop runs every file three times, so the 1 ms resolution of `times` is ~0.002 ms a process.
  const thrice = [...files, ...files, ...files];
  for (let r = 0; r < 3; r++) {
    const c = childCpu(thrice, false);
    const s = childCpu(thrice, true);
    if (c !== undefined && s !== undefined) {
      cpuCompile.push(c / thrice.length);
      cpuStart.push(s / thrice.length);
    }
  }
  return {
    version,
    files: files.length,
    failed: sample.length - files.length,
    compile: stats(compile),
    start: stats(start),
    net: stats(net),
    cpuCompile,
    cpuStart,
  };
}

export const perSecond = (ms: number): string => (ms > 0 ? (1000 / ms).toFixed(0) : '∞');
const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}`;

export async function bench(report: (line: string) => void): Promise<void> {
  const all = programs();
  if (!all.length) {
    report('lift: ../shared/corpus is absent; nothing measured');
    return;
  }
  // Programs that lift (refusals are counted apart: they stop early and would flatter the figure).
  const lifted: Input[] = [];
  const sizes: number[] = [];
  let refused = 0;
  for (const p of all) {
    try {
      sizes.push(liftContainer(parseContainer(p.bytes)).provenance.instructions);
      lifted.push(p);
    } catch {
      refused++;
    }
  }
  const instructions = sizes.reduce((a, b) => a + b, 0);
  const n = lifted.length;
  const lift = timed(
    whole(() => {
      for (const p of lifted) liftContainer(parseContainer(p.bytes));
    }),
  );
  const both = timed(
    whole(() => {
      for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
    }),
  );
  const emit = timed(emissionPass(lifted));
  const rate = (ms: number) => ((n / ms) * 1000).toFixed(0);
  const fig = (t: { wall: number; cpu: number }) => `${rate(t.wall)}/s wall (${rate(t.cpu)} per CPU-second)`;
  report(`lift: ${n} corpus programs that lift (${refused} refused, not timed), one thread, best of 3 passes`);
  report(`lift: lift ${fig(lift)}, WGSL emission ${fig(emit)}, lift + WGSL ${fig(both)}`);
  const perInstruction = (ms: number, k: number) => ((ms * 1000) / k).toFixed(2);
  report(
    `lift: ${instructions} instructions (${(instructions / n).toFixed(0)} a program): CPU per instruction ` +
      `lift ${perInstruction(lift.cpu, instructions)} µs, lift + WGSL ${perInstruction(both.cpu, instructions)} µs`,
  );
  report(`lift: type resolution as the emitter asks it (ir/typeof resolveFunction): ${resolutionCost(lifted)}`);
  const buckets = bySize(lifted, sizes, (p) => emitWgsl(liftContainer(parseContainer(p.bytes))));
  report(`lift: lift + WGSL CPU per instruction by program size: ${buckets.text}`);
  flatTarget(report, 'SM4/5', buckets.costs);
  const liftBytes = allocated(() => {
    for (const p of lifted) liftContainer(parseContainer(p.bytes));
  });
  const bothBytes = allocated(() => {
    for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
  });
  const kb = (bytes: number) => (bytes / n / 1024).toFixed(0);
  report(
    `lift: allocation (v8 GCProfiler, one pass): lift ${kb(liftBytes)} KB a program, ` +
      `${(liftBytes / instructions).toFixed(0)} bytes per instruction; lift + WGSL ${kb(bothBytes)} KB a program, ` +
      `${(bothBytes / instructions).toFixed(0)} bytes per instruction`,
  );
  memoryTarget(report, 'lift', 'SM4/5', bothBytes / instructions, n, () => {
    for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
  });
  report(
    `lift: promoted by young collections after lift + WGSL (batches of ten, two forced young collections each): ` +
      `${(promotedByYoung(n, (i) => void emitWgsl(liftContainer(parseContainer(lifted[i]!.bytes)))) / 1024).toFixed(1)} KB a program`,
  );

  const ours = (n / both.cpu) * 1000;
  // The peer in process where it can be built (bench/peer.ts), on the programs both translate.
  const inProcess = inProcessPeer(lifted.map((p) => p.path));
  if (!('why' in inProcess)) {
    const common = lifted.filter((_, i) => inProcess.ok[i]);
    // the peer and iridia timed in turns (bench/peer.ts)
    const turns = inTurns(
      inProcess,
      lifted.map((p) => p.path),
      [
        whole(() => {
          for (const p of common) emitWgsl(liftContainer(parseContainer(p.bytes)));
        }),
      ],
      2,
    );
    const theirs = Math.min(...turns.peer.cpuMs);
    const mineRate = (common.length / (turns.ours[0] as number)) * 1000;
    const theirRate = (common.length / theirs) * 1000;
    report(
      `lift: peer ${inProcess.version} DXBC->SPIR-V in one process (bench/peer/vkd3d-peer.c), the ${common.length} ` +
        `programs both translate (${inProcess.failed} of iridia's ${n} it refuses or aborts on, left out of both): ` +
        `${theirRate.toFixed(0)} per CPU-second (best of ${turns.peer.cpuMs.length} passes in ${TURNS + 1} runs, iridia timed between them: ` +
        `${turns.peer.cpuMs.map((c) => c.toFixed(0)).join(', ')} ms)`,
    );
    report(
      `lift: ratio iridia lift + WGSL (${mineRate.toFixed(0)} per CPU-second on the same programs) / the peer in process: ` +
        `${(mineRate / theirRate).toFixed(3)} (aim >= 1.0)`,
    );
    target(
      report,
      'SM4/5 lift + WGSL against vkd3d-shader DXBC->SPIR-V in process',
      `${(mineRate / theirRate).toFixed(3)}x (${mineRate.toFixed(0)} against ${theirRate.toFixed(0)} per CPU-second, ${inProcess.version})`,
      '>= 1.0x',
      mineRate >= theirRate,
    );
    return;
  }
  report(`lift: the in-process peer cannot run here (${inProcess.why}); measuring vkd3d-compiler per process`);
  const step = Math.max(1, Math.floor(n / 150));
  const sample = lifted.filter((_, i) => i % step === 0).map((p) => p.path);
  const peer = measurePeer(sample);
  if (peer === undefined) {
    report('lift: peer vkd3d-compiler not installed; vkd3d-shader 1.17 DXBC->SPIR-V ~9,900/s (issue figure)');
    report(`lift: ratio iridia lift + WGSL / vkd3d-shader 1.17's 9,900/s: ${(ours / 9900).toFixed(2)}`);
    target(
      report,
      "SM4/5 lift + WGSL against vkd3d-shader 1.17's 9,900/s (the issue's figure: no peer here)",
      `${(ours / 9900).toFixed(3)}x (${ours.toFixed(0)} per CPU-second)`,
      '>= 1.0x',
      ours >= 9900,
    );
    return;
  }
  const { compile, start, net, cpuCompile, cpuStart } = peer;
  report(
    `lift: peer vkd3d-compiler ${peer.version} DXBC->SPIR-V, one process per container, ${peer.files} of a ` +
      `${sample.length}-program sample (${peer.failed ? `${peer.failed} it fails left out` : 'it compiles all'}), 3 runs each`,
  );
  report(
    `lift:   wall per process ${compile.mean.toFixed(2)} ms (median ${compile.median.toFixed(2)}, ±${(2 * compile.se).toFixed(2)}): ` +
      `${perSecond(compile.mean)} containers/s; process start alone (--version) ${start.mean.toFixed(2)} ms ` +
      `(median ${start.median.toFixed(2)}, ±${(2 * start.se).toFixed(2)})`,
  );
  const netWithin = net.mean <= 2 * net.se;
  report(
    `lift:   wall less the start run beside it: ${net.mean.toFixed(2)} ± ${(2 * net.se).toFixed(2)} ms (two standard errors) ` +
      (netWithin
        ? '- within noise: the compile is not told apart from the process start'
        : `= ~${perSecond(net.mean)} containers/s (${perSecond(net.mean + 2 * net.se)}..${net.mean - 2 * net.se > 0 ? perSecond(net.mean - 2 * net.se) : '∞'})`),
  );
  if (cpuCompile.length) {
    const c = Math.min(...cpuCompile);
    const s = Math.min(...cpuStart);
    const spread = Math.max(...cpuCompile) - c + (Math.max(...cpuStart) - s);
    const cpuNet = c - s;
    report(
      `lift:   CPU per process ${c.toFixed(2)} ms (3 loops: ${range(cpuCompile)}): ${perSecond(c)} per CPU-second; ` +
        `start alone ${s.toFixed(2)} ms (${range(cpuStart)}); difference ${cpuNet.toFixed(2)} ms ` +
        (cpuNet <= spread
          ? `- within the loops' spread (${spread.toFixed(2)} ms): not told apart from the start`
          : `= ~${perSecond(cpuNet)} per CPU-second`),
    );
    report(
      `lift: ratio iridia lift + WGSL (${ours.toFixed(0)} per CPU-second) / vkd3d-compiler per process ` +
        `(${perSecond(c)} per CPU-second): ${(ours / (1000 / c)).toFixed(2)}` +
        (cpuNet > spread ? `; / start-subtracted (${perSecond(cpuNet)}): ${(ours / (1000 / cpuNet)).toFixed(2)}` : '') +
        `; / vkd3d-shader 1.17's 9,900/s (the issue's aim): ${(ours / 9900).toFixed(2)}`,
    );
  } else
    report(
      `lift: ratio iridia lift + WGSL / vkd3d-compiler per process (wall): ${((n / both.wall) * 1000 * (compile.mean / 1000)).toFixed(2)}; ` +
        `/ vkd3d-shader 1.17's 9,900/s: ${(ours / 9900).toFixed(2)}`,
    );
  target(
    report,
    "SM4/5 lift + WGSL against vkd3d-shader 1.17's 9,900/s (the issue's figure: the peer here runs per process only)",
    `${(ours / 9900).toFixed(3)}x (${ours.toFixed(0)} per CPU-second)`,
    '>= 1.0x',
    ours >= 9900,
  );
}
