// Where a program's lift + WGSL goes, phase by phase and program by program (issue 17,
// docs/benchmarks.md, the seventeenth session). The benches time whole passes; this times each
// program's phases on their own, so that a few dear programs or one phase's fixed cost can be seen:
//
//   node --import tsx tools/phase-times.ts [passes] [--dxil | --pairs] [--top N] [--census]
//
// Phases: `read` (the container parsed and, for DXIL, the program header and the LLVM module read;
// an SM4/5 program's tokens are decoded inside `lift`), `lift` (to the IR) and `emit` (WGSL,
// passes included). Each program's phases are timed with performance.now() in every pass, and the
// pass of least total kept for it (default 30 passes). Printed: the mean of each phase a program,
// each phase's µs an instruction by the bench's size buckets (bench/lift.bench.ts), and the N
// dearest programs (default 12) with their phases and characters of WGSL.
// --census: the lifted IR of each size bucket counted instead of timed: expressions and statements an
// instruction, by kind (a binary or math expression by its function), the most frequent first.
//
// The corpus is ../shared/corpus/dxbc; --dxil: corpus/dxil; --pairs: the DXIL twins of corpus/pairs
// (what the bench compares with vkd3d-shader). Figures only: nothing is asserted.

import { relative } from 'node:path';
import { parseContainer } from '../src/container/container.js';
import { readModule } from '../src/dxil/module.js';
import { readProgramHeader } from '../src/dxil/program-header.js';
import type { Module } from '../src/ir/ir.js';
import { walkStmts } from '../src/decompile/ssa.js';
import type { Program } from '../src/ir/program.js';
import { liftModule } from '../src/lift/dxil/lift.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { SIZE_BUCKETS, bucketName } from '../bench/lift.bench.js';
import { readBytes, sharedPath, walk } from '../test/helpers/shared.js';
import { positiveArg, takeOption } from './corpus-args.js';

const top = takeOption(process.argv.slice(2), '--top');
const args = top.rest;
const census = args.includes('--census');
const kind = args.includes('--pairs') ? 'pairs' : args.includes('--dxil') ? 'dxil' : 'dxbc';
const passes = positiveArg('phase-times', 'passes', args.filter((a) => !a.startsWith('--'))[0], 30);
const shown = positiveArg('phase-times', '--top', top.value, 12);
const folder = sharedPath(`corpus/${kind}`);
if (!folder) {
  console.error('phase-times: ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)');
  process.exit(2);
}
const ext = kind === 'dxbc' ? '.dxbc' : '.dxil';

const PHASES = ['read', 'lift', 'emit'] as const;
interface Item {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly instructions: number;
  readonly chars: number;
  /** The phases of the pass of least total, ms. */
  best: number[];
}

/** The program of a container, read and lifted, each phase timed: [read, lift] in ms. */
function lifted(bytes: Uint8Array): { ms: number[]; program: Program } {
  const t0 = performance.now();
  const c = parseContainer(bytes);
  let lift: () => Program = () => liftContainer(c);
  if (kind !== 'dxbc') {
    const part = c.parts.find((p) => p.kind === 'DXIL') ?? c.parts.find((p) => p.kind === 'ILDB');
    if (part) {
      const header = readProgramHeader(part.data, part.kind, part.offset + 8);
      const offset = part.offset + 8 + header.bitcodeStart;
      const m = readModule(header.bitcode, { part: part.kind, offset });
      lift = () => liftModule(m, part.kind, offset);
    }
  }
  const t1 = performance.now();
  const program = lift();
  return { ms: [t1 - t0, performance.now() - t1], program };
}

/** One lift + WGSL, each phase timed: [read, lift, emit] in ms, and the program. */
function phases(bytes: Uint8Array): { ms: number[]; program: Program; wgsl: string } {
  const { ms, program } = lifted(bytes);
  const t = performance.now();
  const wgsl = emitWgsl(program);
  return { ms: [...ms, performance.now() - t], program, wgsl };
}

const items: Item[] = [];
for (const path of walk(folder).filter((p) => p.endsWith(ext))) {
  const bytes = readBytes(path);
  try {
    const { program, wgsl } = phases(bytes);
    items.push({ path, bytes, instructions: program.provenance.instructions, chars: wgsl.length, best: [] });
  } catch {
    // refused, or not a program: not part of the measure
  }
}
const bucketOf = (n: number) => SIZE_BUCKETS.find(([lo, hi]) => n >= lo && n < hi) as readonly [number, number];
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

if (census) {
  // Counts only: the IR each bucket's programs lift to.
  for (const b of SIZE_BUCKETS) {
    const inBucket = items.filter((it) => bucketOf(it.instructions) === b);
    if (!inBucket.length) continue;
    const exprs = new Map<string, number>();
    const stmts = new Map<string, number>();
    const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    const countModule = (m: Module) => {
      for (const f of m.functions) {
        for (const e of f.exprs) count(exprs, e.op === 'binary' || e.op === 'math' ? `${e.op} ${e.fn}` : e.op);
        walkStmts(f.body, (s) => count(stmts, s.op));
      }
    };
    for (const it of inBucket) countModule(lifted(it.bytes).program.module);
    const n = sum(inBucket.map((it) => it.instructions));
    const line = (m: Map<string, number>) =>
      [...m]
        .sort((x, y) => y[1] - x[1])
        .slice(0, 12)
        .map(([k, v]) => `${k} ${(v / n).toFixed(2)}`)
        .join(', ');
    console.log(
      `phase-times census, ${bucketName(b)} instructions: ${inBucket.length} programs, ${n} instructions; ` +
        `${(sum([...exprs.values()]) / n).toFixed(2)} expressions and ${(sum([...stmts.values()]) / n).toFixed(2)} statements an instruction`,
    );
    console.log(`  expressions: ${line(exprs)}`);
    console.log(`  statements: ${line(stmts)}`);
  }
  process.exit(0);
}

for (let pass = 0; pass < passes; pass++)
  for (const it of items) {
    const { ms } = phases(it.bytes);
    if (!it.best.length || sum(ms) < sum(it.best)) it.best = ms;
  }

const us = (ms: number) => (ms * 1000).toFixed(1);
const n = items.length;
console.log(
  `phase-times: ${n} programs of ${relative(sharedPath('.') ?? '', folder)} that lift and emit, best pass of ${passes} a program`,
);
console.log(
  `  mean a program: ${PHASES.map((p, k) => `${p} ${us(sum(items.map((it) => it.best[k] as number)) / n)} µs`).join(', ')}, ` +
    `total ${us(sum(items.map((it) => sum(it.best))) / n)} µs`,
);
for (const b of SIZE_BUCKETS) {
  const inBucket = items.filter((it) => bucketOf(it.instructions) === b);
  if (!inBucket.length) continue;
  const k = sum(inBucket.map((it) => it.instructions));
  const per = PHASES.map((p, j) => `${p} ${us(sum(inBucket.map((it) => it.best[j] as number)) / k)}`);
  console.log(`  ${bucketName(b)} instructions (${inBucket.length} programs): µs an instruction ${per.join(', ')}`);
}
const total = sum(items.map((it) => sum(it.best)));
const dear = [...items].sort((x, y) => sum(y.best) - sum(x.best)).slice(0, shown);
console.log(
  `  the ${dear.length} dearest (${((100 * sum(dear.map((it) => sum(it.best)))) / total).toFixed(0)}% of the total), ` +
    `µs read / lift / emit, instructions, characters of WGSL:`,
);
for (const it of dear)
  console.log(
    `    ${it.best.map(us).join(' / ')}  ${it.instructions} instructions, ${it.chars} characters  ${relative(folder, it.path)}`,
  );
