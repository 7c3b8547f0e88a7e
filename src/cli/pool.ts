// Worker threads for the batch commands (`census`, `disasm --out-dir`, `lift --wgsl --out-dir`): `--jobs N` threads, each
// running src/cli/worker.ts, take tasks (a slice of the input list, by index) and answer each with its
// results; the main thread takes the answers back in task order, so what a command prints is what one
// thread prints, byte for byte (test/cli/jobs.test.ts). docs/cli.md, "Worker threads".
//
// The worker is worker.js beside this module's file: dist/src/cli/worker.js, or dist/node/worker.js
// where scripts/build-node.mjs has joined the command line (it checks that this module's code lands
// beside that file). Run from source (tsx, as the tests run the CLI), Node 20's worker threads do
// not take the main thread's `--import tsx` hooks (nodejs/node#47747, tsx#354), so the worker first
// registers tsx through its API, then imports its entry.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { UsageError, numberValue, type ParsedArgs } from './args.js';
import { outputPaths, type BatchFailure, type BatchSummary } from './io.js';
import type { Task, Answer, DisasmTask, LiftTask } from './worker.js';

/** The most threads `--jobs` takes (more only adds threads waiting on the same disk and cores). */
export const MAX_JOBS = 64;

/** Below this many inputs, a batch's default is one thread (a thread's start-up, ~0.1 s, is not paid back). */
export const PARALLEL_FILES = 1000;

/** The spec of `--jobs N`, to spread into a command's parseArgs spec. */
export const JOBS_FLAG = { '--jobs': { value: true, aliases: ['-j'] } } as const;

/** `--jobs N`: the number given (1 to MAX_JOBS), or undefined for the default (by input size). */
export function jobsOption(args: ParsedArgs): number | undefined {
  const n = numberValue(args, '--jobs');
  if (n === undefined) return undefined;
  if (n < 1 || n > MAX_JOBS) throw new UsageError(`--jobs takes 1 to ${MAX_JOBS}, not ${n}`);
  return n;
}

/** The default number of threads for a large input: the cores Node may use (os.availableParallelism), at most 8. */
export function defaultJobs(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

function startWorker(): Worker {
  const entry = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return new Worker(entry);
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true });
}

/**
 * Runs `tasks` on `jobs` worker threads and hands each answer to `take` in task order (take runs on
 * the main thread, between answers). At most `window` tasks are handed out beyond the one `take`
 * waits for, so the answers held back for order (container bytes) stay bounded. A worker that dies
 * or answers with an error rejects the whole run: what it reports is a bug in iridia.
 */
export async function runOrdered<T extends Task>(
  tasks: readonly T[],
  jobs: number,
  take: (answer: Answer<T>, index: number) => void,
  window = 4 * jobs,
): Promise<void> {
  if (tasks.length === 0) return;
  const workers = Array.from({ length: Math.min(jobs, tasks.length) }, startWorker);
  const inFlight = new Map<Worker, number>(workers.map((w) => [w, 0]));
  const held = new Map<number, Answer<T>>();
  let sent = 0;
  let next = 0;
  // two tasks a worker, so each has its next one when it answers; none beyond the window
  const refill = (): void => {
    for (const w of workers) {
      while (inFlight.get(w)! < 2 && sent < tasks.length && sent < next + window) {
        w.postMessage({ id: sent, task: tasks[sent++] });
        inFlight.set(w, inFlight.get(w)! + 1);
      }
    }
  };
  try {
    await new Promise<void>((resolve, rejectRun) => {
      let failed = false;
      const reject = (e: unknown): void => {
        failed = true;
        rejectRun(e);
      };
      for (const w of workers) {
        w.on('message', (m: { id: number; answer?: Answer<T>; bug?: string }) => {
          if (failed) return;
          inFlight.set(w, inFlight.get(w)! - 1);
          if (m.bug !== undefined) {
            reject(new Error(m.bug));
            return;
          }
          held.set(m.id, m.answer!);
          try {
            for (let a = held.get(next); a !== undefined; a = held.get(next)) {
              held.delete(next);
              take(a, next++);
            }
          } catch (e) {
            reject(e);
            return;
          }
          if (next === tasks.length) resolve();
          else refill();
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (next < tasks.length)
            reject(new Error(`a worker thread stopped (exit code ${code}) before its tasks were done`));
        });
      }
      refill();
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * A `--out-dir` batch on worker threads (disasm's, lift's): every output path worked out first (an
 * input outside the root is a usage error before anything is written; one thread finds it when it
 * gets there), slices of `slice` inputs handed to the threads as `task(paths, outputs)` (they read,
 * convert and write: io.ts outDirSlice), their failures taken back in input order; `take` sees each
 * answer in that order.
 */
export async function outDirOnThreads<T extends DisasmTask | LiftTask>(
  inputs: readonly string[],
  o: { outDir: string; root: string; ext: string; jobs: number; progress: (done: number, total: number) => void },
  slice: number,
  task: (paths: readonly string[], outputs: readonly string[]) => T,
  take: (answer: Answer<T>) => void = () => undefined,
): Promise<BatchSummary> {
  const outputs = inputs.map(outputPaths(o.outDir, o.root, o.ext));
  const tasks: T[] = [];
  for (let i = 0; i < inputs.length; i += slice)
    tasks.push(task(inputs.slice(i, i + slice), outputs.slice(i, i + slice)));
  const failed: BatchFailure[] = [];
  let done = 0;
  await runOrdered(tasks, o.jobs, (a, k) => {
    failed.push(...a.failed);
    take(a);
    done += tasks[k]!.paths.length;
    o.progress(done, inputs.length);
  });
  return { inputs: inputs.length, written: inputs.length - failed.length, failed };
}
