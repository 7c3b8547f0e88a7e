// WebGPU for tests in Node: Dawn (npm `webgpu`, whose WGSL compiler is Tint) run in child processes.
//
// API (every function is safe to call when WebGPU is absent: check webgpuSkip() first):
//
//   webgpuSkip(): string | false
//       The reason to skip (package missing, no Vulkan driver, no adapter), or false when a device
//       opens. Synchronous and cached: use as `test(name, { skip: webgpuSkip() }, ...)`.
//   compileWgsl(sources: string[], options?): Promise<CompileResult[]>
//       Tint's verdict on each module, in order: { ok, messages: ['error 3:14: text', ...], crashed? }.
//       Large batches are split into shards run by parallel child processes (options.shards, default
//       the CPU count; options.shardSize modules at least per shard, default 64); a shard whose process
//       dies (SwiftShader sometimes aborts in its threads on long runs) is restarted from the first
//       module it had not answered, and a module on which the process died twice is reported with
//       crashed: true and ok: false. Anything the child prints that is not a protocol reply (Dawn's
//       compilation logs share its stdout) is log text, appended as 'log: line' to the messages of
//       the module or job it precedes. options.pipelines also creates a compute pipeline for every
//       @compute entry point (Tint's backend and the driver's compiler run too).
//   runCompute(job: ComputeJob): Promise<ComputeResult>
//   runPixel(job: PixelJob): Promise<PixelResult>
//       Run one job (types in src/gpu/types.ts: WGSL, bindings as group/binding/words, dispatch size or
//       target size) in a long-lived child (restarted, and the job retried once, if it dies); results
//       carry every writable storage buffer/texture's words by 'group:binding' and, for pixel jobs,
//       each colour target's texels. A job still running after JOB_TIMEOUT_MS (20 s) is run again under
//       JOB_RETRY_MS (60 s: a loaded machine); past that too (a program that does not end) it is
//       stopped and fails at its 'run' stage.
//   closeWebgpu(): Promise<void>
//       Ends the long-lived child (optional: it is unref'd and ends with the test process).
//
// The children get the environment WebGPU needs without a GPU (Debian's chromium package provides
// SwiftShader's Vulkan driver and a Vulkan loader): VK_ICD_FILENAMES (unless already set, or
// IRIDIA_WEBGPU_ICD=system to keep the system's drivers), XDG_RUNTIME_DIR (a private folder when
// unset) and LD_LIBRARY_PATH extended with the driver's folder, where chromium keeps libvulkan.so.1.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO } from './shared.js';
import { needs } from './strict.js';
import { decodeWire, encodeWire } from '../../src/gpu/wire.js';
import type {
  CompileOptions,
  CompileResult,
  ComputeJob,
  ComputeResult,
  PixelJob,
  PixelResult,
} from '../../src/gpu/types.js';

export type { CompileResult, ComputeJob, ComputeResult, PixelJob, PixelResult } from '../../src/gpu/types.js';

const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
const WORKER = join(REPO, 'test/gpu/webgpu-worker.ts');

let envCache: NodeJS.ProcessEnv | undefined;

/** The environment a WebGPU child process runs with (see the header). */
export function webgpuEnv(): NodeJS.ProcessEnv {
  if (envCache) return envCache;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (env['VK_ICD_FILENAMES'] === undefined && env['IRIDIA_WEBGPU_ICD'] !== 'system' && existsSync(SWIFTSHADER_ICD))
    env['VK_ICD_FILENAMES'] = SWIFTSHADER_ICD;
  if (!env['XDG_RUNTIME_DIR']) env['XDG_RUNTIME_DIR'] = mkdtempSync(join(tmpdir(), 'iridia-xdg-'));
  const icd = env['VK_ICD_FILENAMES'];
  if (icd !== undefined) {
    const dir = dirname(icd.split(':')[0]!);
    if (existsSync(join(dir, 'libvulkan.so.1')))
      env['LD_LIBRARY_PATH'] = env['LD_LIBRARY_PATH'] ? `${env['LD_LIBRARY_PATH']}:${dir}` : dir;
  }
  envCache = env;
  return env;
}

function workerArgs(): string[] {
  return ['--import', 'tsx', WORKER];
}

let skipCache: string | false | undefined;
let adapterCache: string | undefined;

/** Why WebGPU tests skip here, or false when a device opens (probed once, in a child process); under
 * IRIDIA_STRICT=1 a missing device fails the run (helpers/strict.ts). */
export function webgpuSkip(): string | false {
  return needs(probeWebgpu());
}

function probeWebgpu(): string | false {
  if (skipCache !== undefined) return skipCache;
  if (!existsSync(join(REPO, 'node_modules/webgpu/package.json'))) {
    skipCache = 'the npm package `webgpu` is not installed (npm install)';
    return skipCache;
  }
  const env = webgpuEnv();
  if (env['VK_ICD_FILENAMES'] === undefined && env['IRIDIA_WEBGPU_ICD'] !== 'system') {
    skipCache = `no Vulkan driver: ${SWIFTSHADER_ICD} is absent (apt-get install chromium) and VK_ICD_FILENAMES is unset`;
    return skipCache;
  }
  const r = spawnSync(process.execPath, workerArgs(), {
    env,
    input: '',
    encoding: 'utf8',
    timeout: 60_000,
    cwd: REPO,
  });
  const hello = (r.stdout ?? '')
    .split('\n')
    .map(protocolLine)
    .find((x) => x?.ready !== undefined);
  if (hello) {
    skipCache = hello.ready ? false : `WebGPU has no device here: ${hello.error ?? 'unknown reason'}`;
    adapterCache = hello.adapter;
  } else
    skipCache = `the WebGPU probe failed (status ${r.status}, signal ${r.signal}): ${(r.stderr ?? '').slice(-400)}`;
  return skipCache;
}

/** The adapter the children open (vendor, architecture, device, description), or undefined when
 * WebGPU is absent here (webgpuSkip() says why). */
export function webgpuAdapter(): string | undefined {
  return probeWebgpu() === false ? (adapterCache ?? '') : undefined;
}

/** Log lines kept per reply at most (a runaway log must not grow without bound). */
const MAX_LOG_LINES = 200;

/** A reply of the worker's protocol (an object with `ready` or a numeric `id`), or undefined for any
 * other line: Dawn writes compilation logs to the child's stdout between the protocol's lines. */
function protocolLine(line: string): Reply | undefined {
  if (!line.startsWith('{')) return undefined;
  let v: unknown;
  try {
    v = decodeWire<unknown>(line);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const r = v as Reply;
  return typeof r.ready === 'boolean' || typeof r.id === 'number' ? r : undefined;
}

/** `r` with the log text printed before it appended to its messages (when it has a message list). */
function withLog<T>(r: T, log: string[]): T {
  if (log.length === 0 || r === null || typeof r !== 'object') return r;
  const m = (r as { messages?: unknown }).messages;
  return Array.isArray(m) ? ({ ...r, messages: [...(m as string[]), ...log] } as T) : r;
}

interface Reply {
  id?: number;
  index?: number;
  done?: boolean;
  result?: unknown;
  error?: string;
  ready?: boolean;
  adapter?: string;
}

/** One child process: sends requests, hands each reply line to the current listener. */
class Worker {
  readonly proc: ChildProcess;
  readonly ready: Promise<void>;
  private listener: ((r: Reply) => void) | undefined;
  /** Lines the child printed that are not protocol replies, since the last reply taken. */
  private log: string[] = [];
  private stderr = '';
  dead: string | undefined;
  /** The child was killed because a request ran past its time. */
  timedOut = false;
  private onDeath: Array<(why: string) => void> = [];

  constructor() {
    this.proc = spawn(process.execPath, workerArgs(), { env: webgpuEnv(), cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-2000);
    });
    const rl = createInterface({ input: this.proc.stdout! });
    let readyResolve: () => void;
    let readyReject: (e: Error) => void;
    this.ready = new Promise((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    rl.on('line', (line) => {
      const r = protocolLine(line);
      if (r === undefined) {
        // Dawn prints its compilation logs (warnings, errors) on the same stream: log text, kept for
        // the reply that follows it (the module or job that caused it).
        if (line.trim() !== '' && this.log.length < MAX_LOG_LINES) this.log.push(line);
        return;
      }
      if (r.ready !== undefined) {
        if (r.ready) readyResolve();
        else readyReject(new Error(`WebGPU has no device: ${r.error ?? ''}`));
        return;
      }
      this.listener?.(r);
    });
    this.proc.on('exit', (code, signal) => {
      this.dead = `WebGPU child process died (status ${code}, signal ${signal}); stderr: ${this.stderr.trim().slice(-600)}`;
      readyReject(new Error(this.dead));
      for (const f of this.onDeath) f(this.dead);
    });
    this.proc.stdin!.on('error', () => {
      /* the exit handler reports a dead child */
    });
  }

  /** Sends a request; `onReply` sees each reply with its id; resolves when it returns true. With
   * `timeoutMs`, a request still unanswered then kills the child (a program that does not end). */
  request(req: object, onReply: (r: Reply) => boolean, timeoutMs?: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.dead) return reject(new Error(this.dead));
      if (timeoutMs !== undefined) {
        const timer = setTimeout(() => {
          this.timedOut = true;
          this.proc.kill('SIGKILL');
        }, timeoutMs);
        const clear = (): void => clearTimeout(timer);
        const res0 = resolve;
        const rej0 = reject;
        resolve = () => {
          clear();
          res0();
        };
        reject = (e: unknown) => {
          clear();
          rej0(e);
        };
      }
      this.onDeath = [(why) => reject(new Error(why))];
      this.listener = (r) => {
        let last: boolean;
        try {
          last = onReply(r);
        } catch (e) {
          this.listener = undefined;
          this.onDeath = [];
          return reject(e instanceof Error ? e : new Error(String(e)));
        }
        if (last) {
          this.listener = undefined;
          this.onDeath = [];
          resolve();
        }
      };
      this.proc.stdin!.write(`${encodeWire(req)}\n`);
    });
  }

  /** The log text printed since the last call, as messages (`log: <line>`). */
  takeLog(): string[] {
    const out = this.log.map((l) => `log: ${l}`);
    this.log = [];
    return out;
  }

  /** An idle child must not keep the test process alive; a busy one must (its reply is awaited). */
  private held = true;
  setHeld(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    const m = held ? 'ref' : 'unref';
    this.proc[m]();
    for (const s of [this.proc.stdout, this.proc.stderr, this.proc.stdin])
      (s as unknown as Record<string, (() => void) | undefined>)[m]?.();
  }

  close(): Promise<void> {
    if (this.dead) return Promise.resolve();
    return new Promise((resolve) => {
      this.proc.once('exit', () => resolve());
      this.proc.stdin!.end();
    });
  }
}

let nextId = 1;

/** Tint's verdict on each module (see the header). */
export async function compileWgsl(
  sources: readonly string[],
  options: CompileOptions & { shards?: number; shardSize?: number } = {},
): Promise<CompileResult[]> {
  const skip = probeWebgpu();
  if (skip) throw new Error(`compileWgsl: ${skip}`);
  const results: Array<CompileResult | undefined> = new Array<CompileResult | undefined>(sources.length);
  const shardSize = Math.max(1, options.shardSize ?? 64);
  const shards = Math.max(1, Math.min(options.shards ?? availableParallelism(), Math.ceil(sources.length / shardSize)));
  const per = Math.ceil(sources.length / shards);
  const compileOptions: CompileOptions = options.pipelines ? { pipelines: true } : {};
  const runShard = async (from: number, to: number): Promise<void> => {
    let next = from;
    const deaths = new Map<number, number>();
    while (next < to) {
      const w = new Worker();
      try {
        await w.ready;
        const base = next;
        await w.request(
          { id: nextId++, op: 'compile', sources: sources.slice(base, to), options: compileOptions },
          (r) => {
            if (r.error !== undefined) throw new Error([r.error, ...w.takeLog()].join('\n'));
            if (r.index !== undefined) {
              results[base + r.index] = withLog(r.result as CompileResult, w.takeLog());
              next = base + r.index + 1;
            }
            return r.done === true;
          },
        );
        await w.close();
      } catch (e) {
        if (!w.dead) {
          w.proc.kill();
          throw e;
        }
        // The process died on module `next`: retry from there once, then report that module as a crash.
        const n = (deaths.get(next) ?? 0) + 1;
        deaths.set(next, n);
        if (n >= 2) {
          results[next] = { ok: false, crashed: true, messages: [`error 0:0: ${w.dead}`, ...w.takeLog()] };
          next++;
        }
      }
    }
  };
  const work: Promise<void>[] = [];
  for (let s = 0; s < shards; s++) {
    const from = s * per;
    const to = Math.min(sources.length, from + per);
    if (from < to) work.push(runShard(from, to));
  }
  await Promise.all(work);
  return results.map(
    (r, i) => r ?? { ok: false, crashed: true, messages: [`error 0:0: module ${i} was not answered`] },
  );
}

let shared: Worker | undefined;

async function sharedWorker(): Promise<Worker> {
  if (!shared || shared.dead) {
    shared = new Worker();
  }
  shared.setHeld(true);
  await shared.ready;
  return shared;
}

/** A job still running after this long is stopped and run again once under JOB_RETRY_MS; still
 * running then, it is reported as failed at the run stage. The second, longer try is there for a
 * machine under load (two cores shared with other work made a 5 s job pass 20 s); a program that
 * does not end costs both. */
export const JOB_TIMEOUT_MS = 20_000;
export const JOB_RETRY_MS = 60_000;

async function runJob<T>(op: 'compute' | 'pixel', job: ComputeJob | PixelJob): Promise<T> {
  const skip = probeWebgpu();
  if (skip) throw new Error(`WebGPU: ${skip}`);
  let timedOut = 0;
  for (let attempt = 0; ; attempt++) {
    const w = await sharedWorker();
    let result: T | undefined;
    try {
      await w.request(
        { id: nextId++, op, job },
        (r) => {
          if (r.error !== undefined) throw new Error([r.error, ...w.takeLog()].join('\n'));
          result = withLog(r.result as T, w.takeLog());
          return true;
        },
        timedOut === 0 ? JOB_TIMEOUT_MS : JOB_RETRY_MS,
      );
      return result as T;
    } catch (e) {
      if (w.timedOut) {
        if (timedOut++ === 0) continue;
        return {
          ok: false,
          stage: 'run',
          messages: [`the job ran past ${JOB_TIMEOUT_MS / 1000} s, then ${JOB_RETRY_MS / 1000} s, and was stopped`],
        } as T;
      }
      if (!w.dead || attempt >= 1) throw e;
    } finally {
      w.setHeld(false);
    }
  }
}

export function runCompute(job: ComputeJob): Promise<ComputeResult> {
  return runJob<ComputeResult>('compute', job);
}

export function runPixel(job: PixelJob): Promise<PixelResult> {
  return runJob<PixelResult>('pixel', job);
}

export async function closeWebgpu(): Promise<void> {
  const w = shared;
  shared = undefined;
  if (w) await w.close();
}
