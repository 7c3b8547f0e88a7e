// Where a fuzz worker's time goes (docs/reliability.md, "Throughput of the harness"): the worker's loop
// run in this process, each phase timed, µs a mutant (wall clock): making the mutant (makeMutant),
// mutating (applyOps: the copies and, for half the mutants, the container digest), the memory check
// (the two reads runOne makes), the target's own run, and the results message (v8 serialize, 50 items a
// message); then the share of the harness and the CPU time a mutant.
//   node --import tsx tools/fuzz/phases.ts TARGET[:COUNT]... [--shared N] [--seed S]
// Campaign seed S (default 1), --shared N (default 200) files from each ../shared folder.

import { serialize } from 'node:v8';
import { applyOps, makeMutant } from './mutate.js';
import { offHeapBytes } from './outcome.js';
import { loadSeeds, seedsFor } from './seeds.js';
import { targetNamed } from './targets.js';
import { IridiaError } from '../../src/errors.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number): number => {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(argv[i + 1]);
  argv.splice(i, 2);
  return v;
};
const shared = opt('--shared', 200);
const campaign = opt('--seed', 1);
const all = loadSeeds(shared);
process.stdout.write(
  '| target | µs a mutant | making | mutating | memory check | message | the target | harness | CPU µs |\n' +
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
);
for (const spec of argv) {
  const [name, countText] = spec.split(':');
  const t = targetNamed(name!);
  if (!t) throw new Error(`no target ${name}`);
  const n = Number(countText ?? 2000);
  const seeds = seedsFor(t, all).map((s) => s.bytes);
  const containers = t.seeds !== 'd3d9';
  const tm = { make: 0, mutate: 0, memory: 0, run: 0, message: 0 };
  let items: { index: number; outcome: string; code?: string }[] = [];
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  let a: number;
  for (let i = 0; i < n; i++) {
    a = performance.now();
    const mu = makeMutant(campaign, t.name, i, seeds.length, containers);
    let b = performance.now();
    tm.make += b - a;
    const bytes = applyOps(seeds[mu.seed]!, mu.ops, seeds, t.focus);
    a = performance.now();
    tm.mutate += a - b;
    offHeapBytes();
    b = performance.now();
    tm.memory += b - a;
    let r: { outcome: string; code?: string } = { outcome: 'ok' };
    try {
      t.run(bytes);
    } catch (e) {
      r = e instanceof IridiaError ? { outcome: 'typed', code: e.code } : { outcome: 'untyped' };
    }
    a = performance.now();
    tm.run += a - b;
    offHeapBytes();
    b = performance.now();
    tm.memory += b - a;
    items.push({ index: i, ...r });
    if (items.length >= 50) {
      serialize({ type: 'results', items });
      items = [];
    }
    tm.message += performance.now() - b;
  }
  const total = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const us = (v: number) => Math.round((v * 1000) / n);
  process.stdout.write(
    `| ${t.name} | ${us(total)} | ${us(tm.make)} | ${us(tm.mutate)} | ${us(tm.memory)} | ${us(tm.message)} | ` +
      `${us(tm.run)} | ${((100 * (total - tm.run)) / total).toFixed(0)}% | ${Math.round((cpu.user + cpu.system) / n)} |\n`,
  );
}
