// Where the CPU of lift + WGSL goes, V8's own work included (issue 17, docs/benchmarks.md, the
// tenth session). A CPU profile of node (--cpu-prof) names JavaScript functions only: the collector
// is one line, and the optimizing compiler's threads, the property look-ups that miss V8's inline
// caches and the kernel's page faults are not in it at all, though `process.cpuUsage()` and so the
// bench count them. Two views, each from a child process that lifts and emits the corpus PASSES times
// (tools/cpu-where-worker.mjs, on the compiled tree: run `npx tsc -p tsconfig.build.json` first):
//
//   node --import tsx tools/cpu-where.ts jit [passes] [--dxil]
//     under --trace-opt --trace-deopt: for each pass, its CPU, how many functions the optimizing
//     compiler finished and its reported time on them, and how many optimized functions were thrown
//     away (deoptimized); then the functions that took the compiler longest after the first pass.
//   node --import tsx tools/cpu-where.ts perf [passes] [--dxil]
//     under Linux `perf record` (all threads; node's --perf-basic-prof names the compiled JavaScript):
//     the samples by kind of work (JavaScript, the compiler, the collector, the kernel, megamorphic
//     property look-ups, strings, ...) and the heaviest symbols.
//   node --import tsx tools/cpu-where.ts faults [passes] [--dxil]
//     after the passes, each of the bench's size buckets timed alone: CPU an instruction in user
//     code and in the kernel, page faults a program, and characters of WGSL an instruction. On the
//     benchmark machine a page fault costs 10 to 20 µs, and a string over 128 KiB (V8's large-object
//     space) is new pages each time (docs/benchmarks.md, the fourteenth session).
//   node --import tsx tools/cpu-where.ts budget [passes] [--dxil] [--times=1,16]
//     the same passes in processes under V8's tier-up budget times each of the multiples (1: its
//     default; bin/iridia.js's is 16), two processes each, alternating: CPU by pass and summed, the
//     less of each pair.
//     What a program that lifts many containers in one process (a game's, at start-up) pays for V8
//     warming up, with and without `node --interrupt-budget=...` (docs/benchmarks.md, the sixteenth
//     session).
//
// The corpus is ../shared/corpus/dxbc (or corpus/dxil with --dxil). Figures only: nothing is asserted.

import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { corpusArgs } from './corpus-args.js';
import { SIZE_BUCKETS, bucketName } from '../bench/lift.bench.js';

const {
  leading: [mode],
  pairs: passes,
  folder,
} = corpusArgs(
  'cpu-where',
  process.argv.slice(2).filter((a) => !a.startsWith('--times=')),
  1,
  4,
  'passes',
);
/** `budget`'s multiples of V8's default tier-up budget (--times=1,4,16). */
const times = (process.argv.find((a) => a.startsWith('--times='))?.slice('--times='.length) ?? '1,16')
  .split(',')
  .map(Number);
if (mode !== 'jit' && mode !== 'perf' && mode !== 'faults' && mode !== 'budget') {
  console.error('usage: node --import tsx tools/cpu-where.ts jit|perf|faults|budget [passes] [--dxil]');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const worker = join(root, 'tools/cpu-where-worker.mjs');
const MAX_OUTPUT = 1 << 30;

function jit(): void {
  const run = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', worker, root, String(passes), folder], {
    encoding: 'utf8',
    maxBuffer: MAX_OUTPUT,
  });
  if (run.status !== 0) fail(`the worker exited with ${run.status}: ${run.stderr.slice(-2000)}`);
  // V8's trace lines come before the pass's own line, which is printed when the pass ends.
  interface Pass {
    compiled: number;
    compileMs: number;
    deopts: number;
    line: string;
  }
  const done: Pass[] = [];
  let cur: Pass = { compiled: 0, compileMs: 0, deopts: 0, line: '' };
  const byFunction = new Map<string, { n: number; ms: number }>();
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('cpu-where pass ')) {
      cur.line = line.slice('cpu-where '.length);
      done.push(cur);
      cur = { compiled: 0, compileMs: 0, deopts: 0, line: '' };
      continue;
    }
    if (line.startsWith('[bailout')) cur.deopts++;
    const c = /^\[completed compiling .*<JSFunction (\S*) .*took ([\d.]+), ([\d.]+), ([\d.]+) ms/.exec(line);
    if (c) {
      // the three phases: preparing on the main thread, optimizing (on a compiler thread when
      // concurrent), finishing on the main thread
      const ms = Number(c[2]) + Number(c[3]) + Number(c[4]);
      cur.compiled++;
      cur.compileMs += ms;
      if (done.length >= 1) {
        const name = c[1] === '(sfi' || c[1] === '' ? '(anonymous)' : (c[1] as string);
        const f = byFunction.get(name) ?? { n: 0, ms: 0 };
        f.n++;
        f.ms += ms;
        byFunction.set(name, f);
      }
    }
  }
  console.log(`cpu-where jit: ${folder}, ${passes} passes of lift + WGSL, one process`);
  for (const p of done)
    console.log(
      `  ${p.line}; compiler: ${p.compiled} functions optimized, ${p.compileMs.toFixed(0)} ms reported, ${p.deopts} deoptimizations`,
    );
  console.log('  after the first pass, the functions the compiler reported most time on (times optimized, ms):');
  for (const [name, f] of [...byFunction].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15))
    console.log(`    ${f.ms.toFixed(0).padStart(6)} ms ${String(f.n).padStart(3)}x ${name}`);
}

/** The kinds of work a perf symbol is counted in, first match wins. */
const KINDS: readonly [string, RegExp][] = [
  ['kernel (page faults, system calls)', /^\[k\]/],
  ['optimized JavaScript', /^\[\.\] JS:\*/],
  ['other JavaScript (interpreted, baseline)', /^\[\.\] JS:/],
  ['megamorphic property look-ups', /Megamorphic/],
  ['other inline caches', /^\[\.\] Builtins_\w*IC(_|\b)/],
  // (the compiler first: its symbols may hold words the collector's pattern looks for, as Mark)
  ['optimizing compiler', /compiler::|maglev::|Turbofan|TurboFan|Pipeline/],
  [
    'garbage collector',
    /Scaveng|Mark(ing|er|Compact)|Sweep|Evacuat|SemiSpace|MemoryChunk|IteratePointers|Ephemeron|RememberedSet|SlotSet|LargeObject|Heap::|HeapObject::SizeFromMap|Concurrent(Marking|Sweeper)/,
  ],
  ['strings and copies', /String|CopyChars|memmove|memcpy|memset/],
  ['other builtins', /^\[\.\] Builtins_/],
  ['other native code (V8, node, libc)', /./],
];

function perf(): void {
  const version = spawnSync('perf', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) fail('Linux perf is not installed (apt-get install linux-perf)');
  const data = join(tmpdir(), `cpu-where-${process.pid}.data`);
  let recorded: number | undefined;
  try {
    const rec = spawnSync(
      'perf',
      [
        'record',
        '-F',
        '999',
        '-o',
        data,
        '--',
        process.execPath,
        '--perf-basic-prof',
        worker,
        root,
        String(passes),
        folder,
      ],
      { encoding: 'utf8', maxBuffer: MAX_OUTPUT },
    );
    recorded = workerPid(rec.stdout);
    if (rec.status !== 0) fail(`perf record exited with ${rec.status}: ${rec.stderr.slice(-2000)}`);
    const report = spawnSync(
      'perf',
      ['report', '-i', data, '--no-children', '--sort', 'symbol', '--stdio', '-g', 'none', '--percent-limit', '0.01'],
      { encoding: 'utf8', maxBuffer: MAX_OUTPUT },
    );
    if (report.status !== 0) fail(`perf report exited with ${report.status}: ${report.stderr.slice(-2000)}`);
    const kinds = new Map<string, number>(KINDS.map(([k]) => [k, 0]));
    const symbols: [number, string][] = [];
    for (const line of report.stdout.split('\n')) {
      const m = /^\s*([\d.]+)%\s+(\[.\]\s+.*?)\s*$/.exec(line);
      if (!m) continue;
      const share = Number(m[1]);
      // (perf's two last columns, empty here, print as dashes)
      const symbol = (m[2] as string).replace(/(\s+-)+$/, '').replace(/\s+/g, ' ');
      symbols.push([share, symbol]);
      const kind = KINDS.find(([, re]) => re.test(symbol))?.[0] as string;
      kinds.set(kind, (kinds.get(kind) ?? 0) + share);
    }
    console.log(`cpu-where perf: ${folder}, ${passes} passes of lift + WGSL, one process, every thread sampled`);
    for (const line of rec.stdout.split('\n'))
      if (line.startsWith('cpu-where pass ')) console.log(`  ${line.slice(10)}`);
    console.log('  samples by kind of work:');
    for (const [k, v] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`    ${v.toFixed(1).padStart(5)}%  ${k}`);
    console.log('  the heaviest symbols:');
    for (const [share, symbol] of symbols.slice(0, 25))
      console.log(
        `    ${share.toFixed(2).padStart(5)}%  ${symbol.replace(/file:\/\/\S*\/dist\/src\//, '').slice(0, 110)}`,
      );
  } finally {
    rmSync(data, { force: true });
    rmSync(`${data}.old`, { force: true });
    // the symbol map node wrote for perf (--perf-basic-prof), named by the node process's id
    if (recorded !== undefined) rmSync(`/tmp/perf-${recorded}.map`, { force: true });
  }
}

/** The node process perf ran: the worker prints its own id (spawnSync's is perf's). */
function workerPid(stdout: string): number | undefined {
  const m = /^cpu-where worker (\d+)$/m.exec(stdout);
  return m ? Number(m[1]) : undefined;
}

function fail(why: string): never {
  console.error(`cpu-where: ${why}`);
  process.exit(2);
}

function faults(): void {
  const run = spawnSync(process.execPath, [worker, root, String(passes), folder], {
    encoding: 'utf8',
    maxBuffer: MAX_OUTPUT,
    env: {
      ...process.env,
      CPU_WHERE_BUCKETS: JSON.stringify(SIZE_BUCKETS.map(([lo, hi]) => [lo, hi === Infinity ? null : hi])),
    },
  });
  if (run.status !== 0) fail(`the worker exited with ${run.status}: ${run.stderr.slice(-2000)}`);
  console.log(`cpu-where faults: ${folder}, ${passes} passes of lift + WGSL to warm up, then each size bucket alone`);
  for (const line of run.stdout.split('\n')) {
    const m = /^cpu-where bucket (\d+): (.*)$/.exec(line);
    const bucket = m ? SIZE_BUCKETS[Number(m[1])] : undefined;
    if (m && bucket) console.log(`  ${bucketName(bucket)} instructions: ${m[2]}`);
  }
}

/** V8's default tier-up budget (66 KB of bytecode run); bin/iridia.js's is 16 times it. */
const DEFAULT_BUDGET = 67584;

function budget(): void {
  if (times.some((t) => !Number.isInteger(t) || t < 1)) fail('--times takes positive integers: --times=1,4,16');
  const flags: [string, string[]][] = times.map((t) => [
    t === 1 ? "V8's default budget" : `${t} times it${t === 16 ? " (bin/iridia.js's)" : ''}`,
    t === 1 ? [] : [`--interrupt-budget=${t * DEFAULT_BUDGET}`],
  ]);
  // each pass's CPU, the less of the two processes run under each budget
  const best: number[][] = flags.map(() => []);
  let programs = '?';
  for (let round = 0; round < 2; round++) {
    flags.forEach(([, f], k) => {
      const run = spawnSync(process.execPath, [...f, worker, root, String(passes), folder], {
        encoding: 'utf8',
        maxBuffer: MAX_OUTPUT,
      });
      if (run.status !== 0) fail(`the worker exited with ${run.status}: ${run.stderr.slice(-2000)}`);
      const cpu = [...run.stdout.matchAll(/^cpu-where pass (\d+): .*, ([\d.]+) ms CPU$/gm)];
      if (cpu.length !== passes) fail(`the worker printed ${cpu.length} passes, not ${passes}`);
      programs = /^cpu-where pass 0: (\d+) programs/m.exec(run.stdout)?.[1] ?? programs;
      for (const m of cpu) {
        const i = Number(m[1]);
        best[k]![i] = Math.min(best[k]![i] ?? Infinity, Number(m[2]));
      }
    });
  }
  console.log(
    `cpu-where budget: ${folder}, ${passes} passes of lift + WGSL (${programs} programs a pass), CPU ms a pass (less of 2 processes)`,
  );
  flags.forEach(([name], k) => {
    const xs = best[k]!;
    let sum = 0;
    const sums = xs.map((x) => (sum += x));
    console.log(
      `  ${name}: ${xs.map((x) => x.toFixed(0)).join(' ')}; summed ${sums.map((x) => x.toFixed(0)).join(' ')}`,
    );
  });
}

if (mode === 'jit') jit();
else if (mode === 'perf') perf();
else if (mode === 'budget') budget();
else faults();
