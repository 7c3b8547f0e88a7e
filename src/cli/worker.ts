// The worker thread of the batch commands (src/cli/pool.ts starts it): answers each task it is sent
// with what the command's one-thread loop computes for that slice of its inputs, in the same order.
// A task that throws something other than what the command records per input (a bug) is answered
// with `bug`, and the command ends with an internal error, as one thread would.

import { parentPort } from 'node:worker_threads';
import { describeFailure, walkDir, type BatchFailure } from './io.js';
import { readIfContainer } from './commands/verify.js';

/** Walk a folder under PATH (a census input) as walkPaths does: its files, sorted, depth first. */
export interface WalkTask {
  readonly op: 'walk';
  /** The path given on the command line that the folder is under (named by a failure). */
  readonly input: string;
  readonly dir: string;
}

/** The files found; a folder that could not be read stops the walk of its input there. */
export interface WalkAnswer {
  readonly files: string[];
  readonly failure?: BatchFailure;
}

/** Read files as census does: a container's bytes, or null for a file that is not one. */
export interface ReadTask {
  readonly op: 'read';
  readonly paths: readonly string[];
}

export interface ReadAnswer {
  readonly results: (Uint8Array | null | { failure: BatchFailure })[];
}

/** Disassemble files into their --out-dir paths (disasm's batch loop over one slice). */
export interface DisasmTask {
  readonly op: 'disasm';
  readonly paths: readonly string[];
  readonly outputs: readonly string[];
  readonly flags: number;
  readonly era: string;
}

export interface DisasmAnswer {
  /** The failures of the slice, in input order (the others were written). */
  readonly failed: BatchFailure[];
}

/** Lift files to WGSL into their --out-dir paths (lift's batch loop over one slice). */
export interface LiftTask {
  readonly op: 'lift';
  readonly paths: readonly string[];
  readonly outputs: readonly string[];
}

export interface LiftAnswer {
  /** The failures of the slice, in input order (the others were written). */
  readonly failed: BatchFailure[];
  /** What refused each input the lifter refused, in input order (lift counts them by reason). */
  readonly reasons: string[];
}

export type Task = WalkTask | ReadTask | DisasmTask | LiftTask;
export type Answer<T extends Task> = T extends WalkTask
  ? WalkAnswer
  : T extends ReadTask
    ? ReadAnswer
    : T extends DisasmTask
      ? DisasmAnswer
      : T extends LiftTask
        ? LiftAnswer
        : never;

function walk(t: WalkTask): WalkAnswer {
  const files: string[] = [];
  try {
    for (const f of walkDir(t.dir)) files.push(f);
  } catch (e) {
    return { files, failure: describeFailure(t.input, e) };
  }
  return { files };
}

function read(t: ReadTask, transfer: ArrayBuffer[]): ReadAnswer {
  const results: ReadAnswer['results'] = [];
  for (const path of t.paths) {
    try {
      const bytes = readIfContainer(path);
      if (bytes !== undefined) transfer.push(bytes.buffer as ArrayBuffer);
      results.push(bytes ?? null);
    } catch (e) {
      results.push({ failure: describeFailure(path, e) });
    }
  }
  return { results };
}

async function disasm(t: DisasmTask): Promise<DisasmAnswer> {
  const { disassembleSlice } = await import('./commands/disasm.js');
  return { failed: disassembleSlice(t) };
}

async function lift(t: LiftTask): Promise<LiftAnswer> {
  const { liftSlice } = await import('./commands/lift.js');
  return liftSlice(t);
}

type AnyAnswer = WalkAnswer | ReadAnswer | DisasmAnswer | LiftAnswer;

const port = parentPort!;
port.on('message', (m: { id: number; task: Task }) => {
  const transfer: ArrayBuffer[] = [];
  const t = m.task;
  const answer = (): AnyAnswer | Promise<AnyAnswer> =>
    t.op === 'walk' ? walk(t) : t.op === 'read' ? read(t, transfer) : t.op === 'disasm' ? disasm(t) : lift(t);
  Promise.resolve()
    .then<AnyAnswer>(answer)
    .then(
      (a) => port.postMessage({ id: m.id, answer: a }, transfer),
      (e: unknown) => port.postMessage({ id: m.id, bug: e instanceof Error ? e.message : String(e) }),
    );
});
