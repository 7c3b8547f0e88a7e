// A campaign over one target: a pool of worker processes (each with a heap cap), batches of mutant
// indices handed out until the time or the count is reached, every outcome counted, failures
// deduplicated by kind and place (outcome, error, first iridia stack frame), and each distinct failure
// shrunk (operations dropped while the same failure remains) and written as a reproducer.

import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyOps, hashString, makeMutant, type Op } from './mutate.js';
import { FAILURES, type Outcome, type Result } from './outcome.js';
import { loadSeeds, seedsFor, type Seed } from './seeds.js';
import { targetNamed, type Target } from './targets.js';
import type { FromWorker, ToWorker } from './worker.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

export interface CampaignOptions {
  readonly target: string;
  /** Stop handing out batches after this many seconds (default: only `count` counts). */
  readonly seconds?: number;
  /** Run exactly the mutants from..from+count-1. */
  readonly count?: number;
  /** The first mutant (default 0): a part of a campaign's range. */
  readonly from?: number;
  readonly seed: number;
  /** Where reproducers go (none written without it). */
  readonly out?: string;
  readonly jobs: number;
  /** Files sampled from each ../shared folder (0: the committed fixtures only). */
  readonly shared: number;
  /** A mutant running longer is a time-out (its worker is killed). */
  readonly timeoutMs: number;
  /** The workers' heap cap (--max-old-space-size). */
  readonly memoryMb: number;
  readonly shrink: boolean;
  readonly log?: (line: string) => void;
}

export interface FailureReport {
  readonly key: string;
  readonly outcome: Outcome;
  readonly count: number;
  /** The first mutant with this failure. */
  readonly index: number;
  readonly message: string;
  readonly stack: string;
  /** The shrunk mutant: a seed file and operations. */
  readonly seedFile: string;
  readonly ops: readonly Op[];
  readonly reproducer?: string;
}

export interface TargetReport {
  readonly target: string;
  readonly seed: number;
  readonly seeds: number;
  readonly mutants: number;
  readonly seconds: number;
  /** The workers' CPU time (user and system) on the mutants, without their start-up: on a machine
   * shared with other work a steadier measure of a target's cost than the seconds. */
  readonly cpuSeconds: number;
  readonly outcomes: Record<Outcome, number>;
  /** Typed errors by code. */
  readonly codes: Record<string, number>;
  readonly failures: readonly FailureReport[];
}

/** Mutants handed to a worker at a time: sized to about BATCH_MS of its work, within these bounds. */
const BATCH_MIN = 25;
const BATCH_MAX = 4000;
const BATCH_MS = 200;

/** One worker process; respawned after a time-out, a crash or an out-of-memory abort. */
/** The wall-clock backstop of a time-out, as a multiple of it (a worker that stops running without
 * ending: a wait, or a system that gives no CPU times). */
const WALL_FACTOR = 8;

/** A process's CPU time (user and system, every thread) in ms, from Linux's /proc/PID/stat; undefined
 * where there is none. */
function childCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // the fields after the command name, which is in parentheses and may hold spaces
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : undefined;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ, which /proc/PID/stat counts in (100 on every architecture Node runs on). */
const CLOCK_TICKS = 100;

export class Worker {
  private child: ChildProcess | undefined;
  private stderr = '';
  private onMessage: ((m: FromWorker) => void) | undefined;
  private onExit: ((code: number | null, signal: string | null) => void) | undefined;
  private init: ToWorker & { type: 'init' } = { type: 'init', target: '', campaign: 0, shared: 0 };
  private opts: { timeoutMs: number; memoryMb: number } = { timeoutMs: 5000, memoryMb: 512 };

  /** Points the worker at a target (a live worker switches without a restart). */
  async retarget(init: ToWorker & { type: 'init' }, opts: { timeoutMs: number; memoryMb: number }): Promise<void> {
    const respawn = opts.memoryMb !== this.opts.memoryMb;
    this.init = init;
    this.opts = opts;
    if (respawn) this.close();
    if (!this.child) return;
    const child = this.child;
    await new Promise<void>((resolve, reject) => {
      this.onMessage = (m) => (m.type === 'ready' ? resolve() : undefined);
      this.onExit = (code) => reject(new Error(`the fuzz worker exited (${code}): ${this.stderr}`));
      child.send(init);
    });
  }

  /** Starts the process now if it is not running (a campaign's seconds then count no start-up). */
  async start(): Promise<void> {
    if (!this.child) await this.spawn();
  }

  private async spawn(): Promise<void> {
    this.stderr = '';
    const child = fork(WORKER, [], {
      execArgv: ['--import', 'tsx', `--max-old-space-size=${this.opts.memoryMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    child.stderr!.on('data', (d: Buffer) => {
      if (this.stderr.length < 65536) this.stderr += d.toString();
    });
    // a child killed for a time-out reports its exit later, when its successor is this.child: ignored
    child.on('message', (m: FromWorker) => (this.child === child ? this.onMessage?.(m) : undefined));
    child.on('exit', (code, signal) => (this.child === child ? this.onExit?.(code, signal) : undefined));
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      this.onMessage = (m) => (m.type === 'ready' ? resolve() : undefined);
      this.onExit = (code) => reject(new Error(`the fuzz worker exited (${code}) before it was ready: ${this.stderr}`));
      child.send(this.init);
    });
  }

  /** Runs a batch (or one replay), calling `result` for each mutant. After a time-out or a death the
   * worker is respawned and the mutants it had not reported run again one message each (step
   * mode), so a time-out or death there is the result of the mutant that was running. */
  async run(
    first: number,
    last: number,
    message: (from: number, step: boolean) => ToWorker,
    result: (i: number, r: Result) => void,
    cpu?: (us: number) => void,
  ) {
    let next = first;
    let step = last - first === 1;
    while (next < last) {
      if (!this.child) await this.spawn();
      const child = this.child!;
      await new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        // the time-out is the worker's CPU time since its last report (where the system gives it:
        // Linux's /proc), so a loaded machine starves a mutant without timing it out; the wall clock
        // at WALL_FACTOR times the time-out is the backstop (a worker that waits instead of running)
        const arm = () => {
          if (timer) clearTimeout(timer);
          const cpu0 = childCpuMs(child.pid);
          const wall0 = performance.now();
          const fire = (): void => {
            const cpu1 = cpu0 === undefined ? undefined : childCpuMs(child.pid);
            const left = cpu1 === undefined ? 0 : this.opts.timeoutMs - (cpu1 - cpu0!);
            if (left > 0 && performance.now() - wall0 < WALL_FACTOR * this.opts.timeoutMs) {
              timer = setTimeout(fire, Math.max(20, left));
              return;
            }
            this.onExit = undefined;
            child.kill('SIGKILL');
            this.child = undefined;
            if (step) {
              result(next, {
                outcome: 'timeout',
                key: 'timeout',
                message: `ran past ${this.opts.timeoutMs} ms of CPU`,
              });
              next++;
            } else step = true;
            resolve();
          };
          timer = setTimeout(fire, this.opts.timeoutMs);
        };
        this.onMessage = (m) => {
          if (m.type !== 'results') return;
          cpu?.(m.cpu);
          for (const item of m.items) {
            result(item.index, item as Result);
            next = item.index + 1;
          }
          if (next >= last) {
            clearTimeout(timer);
            resolve();
          } else arm();
        };
        this.onExit = (code, signal) => {
          clearTimeout(timer);
          this.child = undefined;
          if (step) {
            const oom = /heap out of memory|Allocation failed|Reached heap limit|allocation failure/i.test(this.stderr);
            const why = oom ? 'oom' : 'crash';
            result(next, {
              outcome: why,
              key: oom ? 'oom' : `crash ${signal ?? code}`,
              message: `the worker died (${signal ?? code}): ${this.stderr.slice(-2000)}`,
            });
            next++;
          } else step = true;
          resolve();
        };
        arm();
        child.send(message(next, step));
      });
    }
  }

  close(): void {
    this.onExit = undefined;
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }
}

function emptyOutcomes(): Record<Outcome, number> {
  return { ok: 0, typed: 0, untyped: 0, 'invalid-ir': 0, memory: 0, crash: 0, oom: 0, timeout: 0 };
}

/** Runs a campaign on one target. `workers` (kept alive by the caller, closed by it) saves the
 * start-up of fresh processes when several targets run in turn; without it the campaign's own are
 * closed at its end. */
export async function runCampaign(opts: CampaignOptions, workers: Worker[] = []): Promise<TargetReport> {
  const target = targetNamed(opts.target);
  if (!target) throw new Error(`no fuzz target ${opts.target}`);
  const seeds = seedsFor(target, loadSeeds(opts.shared));
  if (seeds.length === 0) throw new Error(`no seed file for target ${target.name}`);
  const init = { type: 'init', target: target.name, campaign: opts.seed, shared: opts.shared } as const;
  const from0 = opts.from ?? 0;
  const limit = from0 + (opts.count ?? (opts.seconds !== undefined ? Infinity : 1000));
  const outcomes = emptyOutcomes();
  const codes: Record<string, number> = {};
  const failures = new Map<string, { r: Result; index: number; count: number }>();
  let handed = from0;
  let mutants = 0;
  let cpuUs = 0;
  const record = (i: number, r: Result): void => {
    mutants++;
    outcomes[r.outcome]++;
    if (r.outcome === 'typed' && r.code) codes[r.code] = (codes[r.code] ?? 0) + 1;
    if (FAILURES.includes(r.outcome)) {
      const key = r.key ?? r.outcome;
      const f = failures.get(key);
      if (f) {
        f.count++;
        if (i < f.index) Object.assign(f, { r, index: i });
      } else {
        failures.set(key, { r, index: i, count: 1 });
        opts.log?.(`${target.name}: new failure at mutant ${i}: ${key}`);
      }
    }
  };
  const pool = workers.slice(0, Math.max(1, opts.jobs));
  while (pool.length < Math.max(1, opts.jobs)) pool.push(new Worker());
  const shrinker = pool[0]!;
  await Promise.all(pool.map((w) => w.retarget(init, opts).then(() => w.start())));
  // the clock starts when the workers are ready: their start-up (seconds under load) is no mutant's
  const started = Date.now();
  const deadline = opts.seconds !== undefined ? started + opts.seconds * 1000 : Infinity;
  await Promise.all(
    pool.map(async (w) => {
      let size = BATCH_MIN;
      while (handed < limit && Date.now() < deadline) {
        const from = handed;
        // near the end of a timed run, no more mutants than the time left could run at 10 ms each
        const to = Math.min(limit, from + size, from + Math.max(1, Math.floor((deadline - Date.now()) / 10)));
        handed = to;
        const t0 = Date.now();
        await w.run(
          from,
          to,
          (f, step) => ({ type: 'batch', from: f, to, step }),
          record,
          (us) => (cpuUs += us),
        );
        // about BATCH_MS of this worker's work a batch
        const ms = Math.max(1, Date.now() - t0);
        size = Math.min(BATCH_MAX, Math.max(BATCH_MIN, Math.round(((to - from) * BATCH_MS) / ms)));
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const reports: FailureReport[] = [];
  const containers = target.seeds !== 'd3d9';
  for (const [key, f] of [...failures].sort((a, b) => a[1].index - b[1].index)) {
    const mu = makeMutant(opts.seed, target.name, f.index, seeds.length, containers);
    const ops = opts.shrink ? await shrink(shrinker, mu.seed, mu.ops, key, f.r.outcome) : mu.ops;
    const report: FailureReport = {
      key,
      outcome: f.r.outcome,
      count: f.count,
      index: f.index,
      message: f.r.message ?? '',
      stack: f.r.stack ?? '',
      seedFile: seeds[mu.seed]!.path,
      ops,
      ...(opts.out ? { reproducer: writeReproducer(opts, target, seeds, mu.seed, ops, key, f) } : {}),
    };
    reports.push(report);
  }
  if (workers.length === 0) pool.forEach((w) => w.close());
  return {
    target: target.name,
    seed: opts.seed,
    seeds: seeds.length,
    mutants,
    seconds,
    cpuSeconds: cpuUs / 1e6,
    outcomes,
    codes,
    failures: reports,
  };
}

/** Drops operations one at a time while the mutant still fails with the same key (a time-out, crash
 * or out-of-memory costs a worker each try: one pass only). */
async function shrink(w: Worker, seed: number, ops: readonly Op[], key: string, outcome: Outcome): Promise<Op[]> {
  let cur = [...ops];
  const slow = outcome === 'timeout' || outcome === 'crash' || outcome === 'oom';
  const same = async (candidate: Op[]): Promise<boolean> => {
    let got: Result | undefined;
    await w.run(
      0,
      1,
      () => ({ type: 'replay', id: 0, seed, ops: candidate }),
      (_i, r) => (got = r),
    );
    return (got?.key ?? got?.outcome) === key;
  };
  for (let changed = true; changed && cur.length > 1;) {
    changed = false;
    for (let i = cur.length - 1; i >= 0 && cur.length > 1; i--) {
      const candidate = cur.filter((_, k) => k !== i);
      if (await same(candidate)) {
        cur = candidate;
        changed = true;
      }
    }
    if (slow) break;
  }
  return cur;
}

function slug(key: string): string {
  const words = key
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${words}-${hashString(key).toString(16).padStart(8, '0')}`;
}

function writeReproducer(
  opts: CampaignOptions,
  target: Target,
  seeds: readonly Seed[],
  seed: number,
  ops: readonly Op[],
  key: string,
  f: { r: Result; index: number; count: number },
): string {
  const dir = join(opts.out!, target.name);
  mkdirSync(dir, { recursive: true });
  const base = join(dir, slug(key));
  const bytes = applyOps(
    seeds[seed]!.bytes,
    ops,
    seeds.map((s) => s.bytes),
    target.focus,
  );
  writeFileSync(`${base}.bin`, bytes);
  const about = {
    target: target.name,
    key,
    outcome: f.r.outcome,
    count: f.count,
    campaignSeed: opts.seed,
    mutant: f.index,
    seedFile: seeds[seed]!.path,
    ops,
    message: f.r.message,
    stack: f.r.stack,
    replay: `npm run fuzz -- ${target.name} --replay ${base}.bin`,
  };
  writeFileSync(`${base}.json`, `${JSON.stringify(about, null, 2)}\n`);
  return `${base}.bin`;
}
