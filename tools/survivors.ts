// What of lift + WGSL outlives V8's young collections, and by which function it was allocated (issue
// 17, docs/benchmarks.md, the eleventh session). An object that survives a young collection is
// copied, then moved to the old generation, whose new pages the benchmark machine faults in at 10 to
// 20 µs each, and which only a full collection frees. Most of a program's objects die young; what
// survives is either alive when a collection lands (the program being lifted) or kept by something
// older: an old object that points at it, garbage or not, such as a module-level WeakMap keyed by a
// program's types, which is how this tool found one.
//
//   npx tsc -p tsconfig.build.json
//   node --import tsx tools/survivors.ts [max-instructions] [passes] [--dxil]
//
// Lifts and emits the programs of ../shared/corpus/dxbc and dxbc-sm51 (corpus/dxil with --dxil) of
// fewer than max-instructions instructions (default 64), with the compiled tree (dist/), two passes
// to warm up, then `passes` passes (default 4) timed: CPU a program, young and full collections, the
// collector's time and the page faults. Then one more pass under V8's sampling heap profiler,
// counting only allocations no young collection freed: bytes a program, by allocating function.
// Figures only: nothing is asserted.

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Session } from 'node:inspector/promises';
import { GCProfiler } from 'node:v8';
import { sharedPath } from '../test/helpers/shared.js';

const argv = process.argv.slice(2);
const dxil = argv.includes('--dxil');
const [maxArg, passesArg] = argv.filter((a) => a !== '--dxil');
const positive = (arg: string | undefined, fallback: number, what: string): number => {
  const n = arg === undefined ? fallback : Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`survivors: ${what} must be a positive integer, not ${arg}`);
    process.exit(2);
  }
  return n;
};
const max = positive(maxArg, 64, 'max-instructions');
const passes = positive(passesArg, 4, 'passes');
const folders = (dxil ? ['corpus/dxil'] : ['corpus/dxbc', 'corpus/dxbc-sm51']).flatMap((f) => sharedPath(f) ?? []);
if (folders.length === 0) {
  console.error('survivors: ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)');
  process.exit(2);
}

const root = resolve(import.meta.dirname, '..');
const load = async <T>(p: string): Promise<T> => (await import(pathToFileURL(join(root, 'dist/src', p)).href)) as T;
interface Program {
  readonly provenance: { readonly instructions: number };
}
const { parseContainer } = await load<{ parseContainer: (b: Uint8Array) => unknown }>('container/container.js');
const { liftContainer } = await load<{ liftContainer: (c: unknown) => Program }>('lift/lift.js');
const { emitWgsl } = await load<{ emitWgsl: (p: Program) => string }>('wgsl/index.js');

const files: string[] = [];
const walk = (d: string): void => {
  for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile() && p.endsWith(dxil ? '.dxil' : '.dxbc')) files.push(p);
  }
};
for (const f of folders) walk(f);
const inputs: Uint8Array[] = [];
for (const path of files) {
  const b = readFileSync(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  try {
    const program = liftContainer(parseContainer(bytes));
    if (program.provenance.instructions >= max) continue;
    emitWgsl(program);
    inputs.push(bytes);
  } catch {
    // refused or malformed: not measured
  }
}
if (inputs.length === 0) {
  console.error(`survivors: no program of fewer than ${max} instructions lifts`);
  process.exit(2);
}
const pass = (): void => {
  for (const bytes of inputs) emitWgsl(liftContainer(parseContainer(bytes)));
};
pass();
pass();

const n = inputs.length * passes;
const profiler = new GCProfiler();
profiler.start();
const faults0 = process.resourceUsage().minorPageFault;
const cpu0 = process.cpuUsage();
for (let k = 0; k < passes; k++) pass();
const cpu = process.cpuUsage(cpu0);
const faults = process.resourceUsage().minorPageFault - faults0;
const gcs = profiler.stop().statistics;
const young = gcs.filter((s) => s.gcType === 'Scavenge' || s.gcType === 'MinorMarkCompact');
const collector = gcs.reduce((a, s) => a + s.cost, 0) / 1000;
console.log(
  `survivors: ${inputs.length} programs of ${dxil ? 'corpus/dxil' : 'corpus/dxbc and dxbc-sm51'} under ${max} instructions, ${passes} passes after two to warm up`,
);
console.log(
  `  ${(((cpu.user + cpu.system) / n) | 0).toString()} µs of CPU a program; ${young.length} young and ${gcs.length - young.length} full collections, ` +
    `${collector.toFixed(0)} ms in the collector; ${faults} page faults (${(faults / n).toFixed(2)} a program)`,
);

interface SampleNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SampleNode[];
}
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: false,
});
pass();
const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SampleNode } };
session.disconnect();
const bySite = new Map<string, number>();
let all = 0;
const visit = (node: SampleNode): void => {
  const f = node.callFrame;
  const where = f.url ? `${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : '(native)';
  const key = `${f.functionName || '(anonymous)'} ${where}`;
  bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
  all += node.selfSize;
  for (const c of node.children) visit(c);
};
visit(profile.head);
console.log(
  `  sampled allocations no young collection freed: ${(all / inputs.length).toFixed(0)} bytes a program; by allocating function:`,
);
for (const [key, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(
    `    ${(bytes / inputs.length).toFixed(0).padStart(6)} B  ${((100 * bytes) / all).toFixed(1).padStart(5)}%  ${key}`,
  );
