// Warm-up (issue 17): what a batch pays before V8 has compiled iridia's hot code. The other benches
// time the best of several passes after a warm-up pass, the steady state of a long batch; a command
// that reads a folder of a few hundred containers in one process runs mostly in its first passes.
// Each workload runs here in a fresh process of its own (this file run with `--child NAME`), six
// passes over the same containers, and prints each pass's CPU and wall time, the pass from which the
// time stays within 1.25x of the best, and what the first pass costs against the steady state.
// (CPU counts V8's compiler threads, which run beside the main thread: on one core they cost wall
// time too.)
//
// Workloads: the DXIL module read, the DXIL /Fc listing and DXIL lift + WGSL over
// ../shared/corpus/dxil, and SM4/5 lift + WGSL over every fourth container of corpus/dxbc.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseContainer } from '../src/container/container.js';
import { disassembleDxil } from '../src/dxil/disassemble.js';
import { readModule } from '../src/dxil/module.js';
import { readProgramHeader } from '../src/dxil/program-header.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { readBytes, sharedPath, walk } from '../test/helpers/shared.js';

const PASSES = 6;
/** A pass is steady once it is within this factor of the best pass. */
const STEADY = 1.25;

interface Workload {
  readonly name: string;
  readonly what: string;
  /** The containers' bytes (under ../shared), or undefined when the folder is absent. */
  inputs(): Uint8Array[] | undefined;
  run(bytes: Uint8Array): void;
}

function dxil(): Uint8Array[] | undefined {
  const root = sharedPath('corpus/dxil');
  if (root === undefined) return undefined;
  return walk(root)
    .filter((p) => p.endsWith('.dxil'))
    .map(readBytes)
    .filter((b) => parseContainer(b).parts.some((p) => p.kind === 'DXIL'));
}

const WORKLOADS: readonly Workload[] = [
  {
    name: 'dxil-read',
    what: 'DXIL module read (corpus/dxil)',
    inputs: dxil,
    run(b) {
      const part = parseContainer(b).parts.find((x) => x.kind === 'DXIL')!;
      readModule(readProgramHeader(part.data).bitcode, { part: 'DXIL', offset: 0 });
    },
  },
  {
    name: 'dxil-fc',
    what: 'DXIL read + /Fc listing (corpus/dxil)',
    inputs: dxil,
    run(b) {
      disassembleDxil(parseContainer(b));
    },
  },
  {
    name: 'dxil-lift',
    what: 'DXIL lift + WGSL (corpus/dxil, refusals included)',
    inputs: dxil,
    run(b) {
      try {
        emitWgsl(liftContainer(parseContainer(b)));
      } catch {
        /* a refusal ends early; it is part of what a batch runs */
      }
    },
  },
  {
    name: 'sm45-lift',
    what: 'SM4/5 lift + WGSL (every fourth container of corpus/dxbc, refusals included)',
    inputs() {
      const root = sharedPath('corpus/dxbc');
      if (root === undefined) return undefined;
      return walk(root)
        .filter((p) => p.endsWith('.dxbc'))
        .filter((_, i) => i % 4 === 0)
        .map(readBytes);
    },
    run(b) {
      try {
        emitWgsl(liftContainer(parseContainer(b)));
      } catch {
        /* as above */
      }
    },
  },
];

interface ChildResult {
  readonly files: number;
  readonly cpu: number[];
  readonly wall: number[];
}

/** The child's part: PASSES passes of one workload, as one JSON line. */
function child(name: string): void {
  const w = WORKLOADS.find((x) => x.name === name);
  const inputs = w?.inputs();
  if (!w || !inputs) {
    console.log(JSON.stringify({ files: 0, cpu: [], wall: [] }));
    return;
  }
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let p = 0; p < PASSES; p++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const b of inputs) w.run(b);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  console.log(JSON.stringify({ files: inputs.length, cpu, wall } satisfies ChildResult));
}

/** The first pass from which every pass stays within STEADY of the best (1-based). */
function steadyFrom(times: readonly number[]): number {
  const best = Math.min(...times);
  let from = times.length;
  while (from > 0 && times[from - 1]! <= best * STEADY) from--;
  return from + 1;
}

export async function bench(report: (line: string) => void): Promise<void> {
  const me = fileURLToPath(import.meta.url);
  for (const w of WORKLOADS) {
    const r = spawnSync(process.execPath, [...process.execArgv, me, '--child', w.name], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    const last = (r.stdout ?? '').trim().split('\n').pop() ?? '';
    let res: ChildResult;
    try {
      res = JSON.parse(last) as ChildResult;
    } catch {
      report(
        `warm-up: ${w.what}: the child failed (exit ${r.status ?? r.signal}): ${(r.stderr ?? '').trim().slice(-400)}`,
      );
      continue;
    }
    if (!res.files) {
      report(`warm-up: ${w.what}: skipped, the folder is absent from ../shared`);
      continue;
    }
    const ms = (xs: readonly number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    const best = Math.min(...res.cpu);
    const firstFive = res.cpu.slice(0, 5).reduce((a, b) => a + b, 0);
    const all = res.cpu.reduce((a, b) => a + b, 0);
    report(
      `warm-up: ${w.what}, ${res.files} containers a pass in a fresh process: CPU ${ms(res.cpu)} ms ` +
        `(wall ${ms(res.wall)}), ${all.toFixed(0)} ms in all; steady from pass ${steadyFrom(res.cpu)}; ` +
        `first pass ${(res.cpu[0]! / best).toFixed(1)}x ` +
        `the best, first five ${(firstFive / (5 * best)).toFixed(2)}x five of the best`,
    );
  }
}

if (process.argv[2] === '--child' && process.argv[3] !== undefined) child(process.argv[3]);
