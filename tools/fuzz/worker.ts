// A fuzz worker (a child process of the campaign): it loads the seeds, then runs the mutants it is
// sent and reports their results in messages of many (one each FLUSH_MS of work, or one a mutant in
// step mode). The parent kills it when it stays silent past the time-out; a crash or an out-of-memory
// abort ends it. Either way the parent runs the unreported mutants again in step mode, so the
// failure is the mutant's that was running.

import { applyOps, makeMutant, type Op } from './mutate.js';
import { runOne } from './outcome.js';
import { loadSeeds, seedsFor } from './seeds.js';
import { targetNamed } from './targets.js';

export type ToWorker =
  | { readonly type: 'init'; readonly target: string; readonly campaign: number; readonly shared: number }
  | { readonly type: 'batch'; readonly from: number; readonly to: number; readonly step?: boolean }
  | { readonly type: 'replay'; readonly id: number; readonly seed: number; readonly ops: readonly Op[] };

export type FromWorker =
  | { readonly type: 'ready'; readonly seeds: number }
  | { readonly type: 'results'; readonly items: readonly ResultItem[]; readonly cpu: number };

export interface ResultItem {
  readonly index: number;
  readonly outcome: string;
  readonly code?: string;
  readonly key?: string;
  readonly message?: string;
  readonly stack?: string;
}

/** A message of results at least this often (ms of work), so that a silence means one mutant hangs. */
const FLUSH_MS = 20;

let loaded: { shared: number; seeds: ReturnType<typeof loadSeeds> } | undefined;
let state: { target: NonNullable<ReturnType<typeof targetNamed>>; campaign: number; seeds: Uint8Array[] } | undefined;

function send(m: FromWorker): void {
  process.send!(m);
}

let cpuAt = process.cpuUsage();
/** This process's CPU time (user and system, µs) since the last call: what the results just sent cost. */
function cpuSince(): number {
  const d = process.cpuUsage(cpuAt);
  cpuAt = process.cpuUsage();
  return d.user + d.system;
}

process.on('message', (m: ToWorker) => {
  if (m.type === 'init') {
    const target = targetNamed(m.target);
    if (!target) throw new Error(`no target ${m.target}`);
    if (!loaded || loaded.shared !== m.shared) loaded = { shared: m.shared, seeds: loadSeeds(m.shared) };
    const seeds = seedsFor(target, loaded.seeds).map((s) => s.bytes);
    state = { target, campaign: m.campaign, seeds };
    cpuSince();
    send({ type: 'ready', seeds: seeds.length });
    return;
  }
  if (!state) throw new Error('not initialised');
  const { target, seeds } = state;
  const containers = target.seeds !== 'd3d9';
  if (m.type === 'batch') {
    const step = m.step === true;
    const run = (from: number): void => {
      const items: ResultItem[] = [];
      const started = performance.now();
      for (let i = from; i < m.to; i++) {
        const mu = makeMutant(state!.campaign, target.name, i, seeds.length, containers);
        const bytes = applyOps(seeds[mu.seed]!, mu.ops, seeds, target.focus);
        items.push({ index: i, ...runOne(target, bytes) });
        if (i + 1 < m.to && (step || performance.now() - started >= FLUSH_MS)) {
          send({ type: 'results', items, cpu: cpuSince() });
          // a turn of the event loop, so the message leaves before the next mutant starts
          setImmediate(run, i + 1);
          return;
        }
      }
      send({ type: 'results', items, cpu: cpuSince() });
    };
    run(m.from);
  } else {
    const bytes = applyOps(seeds[m.seed]!, m.ops, seeds, target.focus);
    send({ type: 'results', items: [{ index: m.id, ...runOne(target, bytes) }], cpu: cpuSince() });
  }
});
