// A fuzz worker (a child process of the campaign): it loads the seeds, then runs the mutants it is
// sent, one message back per mutant. The parent kills it when a mutant runs past its time; a crash or
// an out-of-memory abort ends it, and the parent classifies the mutant it was on.

import { applyOps, makeMutant, type Op } from './mutate.js';
import { runOne } from './outcome.js';
import { loadSeeds, seedsFor } from './seeds.js';
import { targetNamed } from './targets.js';

export type ToWorker =
  | { readonly type: 'init'; readonly target: string; readonly campaign: number; readonly shared: number }
  | { readonly type: 'batch'; readonly from: number; readonly to: number }
  | { readonly type: 'replay'; readonly id: number; readonly seed: number; readonly ops: readonly Op[] };

export type FromWorker =
  | { readonly type: 'ready'; readonly seeds: number }
  | {
      readonly type: 'result';
      readonly index: number;
      readonly outcome: string;
      readonly code?: string;
      readonly key?: string;
      readonly message?: string;
      readonly stack?: string;
    };

let loaded: { shared: number; seeds: ReturnType<typeof loadSeeds> } | undefined;
let state: { target: NonNullable<ReturnType<typeof targetNamed>>; campaign: number; seeds: Uint8Array[] } | undefined;

function send(m: FromWorker): void {
  process.send!(m);
}

process.on('message', (m: ToWorker) => {
  if (m.type === 'init') {
    const target = targetNamed(m.target);
    if (!target) throw new Error(`no target ${m.target}`);
    if (!loaded || loaded.shared !== m.shared) loaded = { shared: m.shared, seeds: loadSeeds(m.shared) };
    const seeds = seedsFor(target, loaded.seeds).map((s) => s.bytes);
    state = { target, campaign: m.campaign, seeds };
    send({ type: 'ready', seeds: seeds.length });
    return;
  }
  if (!state) throw new Error('not initialised');
  const { target, seeds } = state;
  const containers = target.seeds !== 'd3d9';
  if (m.type === 'batch') {
    // one mutant a turn of the event loop, so each result reaches the parent before the next starts
    // (the parent's clock for a time-out is the time since the last result)
    const step = (i: number): void => {
      if (i >= m.to) return;
      const mu = makeMutant(state!.campaign, target.name, i, seeds.length, containers);
      const bytes = applyOps(seeds[mu.seed]!, mu.ops, seeds, target.focus);
      send({ type: 'result', index: i, ...runOne(target, bytes) });
      setImmediate(step, i + 1);
    };
    step(m.from);
  } else {
    const bytes = applyOps(seeds[m.seed]!, m.ops, seeds, target.focus);
    send({ type: 'result', index: m.id, ...runOne(target, bytes) });
  }
});
