// A differential run sharded over child processes (test/exec/diff-shard.ts), so that the whole of
// oracle/own and oracle/public runs within CI's time on every core: each shard has its own executor
// and its own Dawn child. Builds are dealt out round-robin in name order; a shard whose process dies
// is started again from the first build it had not answered, and a build on which it died twice is
// a failure.

import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO } from '../helpers/shared.js';
import type { Outcome } from './diff-harness.js';

export interface ShardJob {
  readonly root: string;
  readonly names: readonly string[];
  readonly seed: number;
  /** Builds run with small words (Rng.small): loops bounded by input words end. */
  readonly small: readonly string[];
  /** Builds whose difference is checked again with small words (every resource index in range). */
  readonly smallCheck: readonly string[];
}

/** A build's result: refused by the lifter, another stage, or the differential's outcome (with, for a
 * smallCheck build that failed, the verdict with small words). */
export type ShardResult =
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'other'; stage: string }
  | (Outcome & { small?: boolean; smallVerdict?: string });

export function encodeResult(name: string, result: ShardResult): string {
  return JSON.stringify({ name, result }, (_, v: unknown) =>
    typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
  );
}

function decodeResult(line: string): { name: string; result: ShardResult } {
  return JSON.parse(line, (k, v: unknown) => (k === 'maxUlp' && typeof v === 'string' ? Number(v) : v)) as {
    name: string;
    result: ShardResult;
  };
}

/** Shards: IRIDIA_DIFF_SHARDS, else one per core. */
export function shardCount(): number {
  const n = Number(process.env['IRIDIA_DIFF_SHARDS'] ?? '');
  return Number.isInteger(n) && n > 0 ? n : availableParallelism();
}

/** Runs one shard; resolves with the failure its death is, or undefined when it ended well. */
function runShard(job: ShardJob, out: Map<string, ShardResult>): Promise<ShardResult | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'test/exec/diff-shard.ts')], {
      cwd: REPO,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-2000);
    });
    let ready = false;
    createInterface({ input: child.stdout }).on('line', (l) => {
      if (l === '@@ready') ready = true;
      if (!l.startsWith('@@diff ')) return;
      const { name, result } = decodeResult(l.slice(7));
      out.set(name, result);
    });
    child.on('close', (code, signal) => resolve(code === 0 ? undefined : dead(code, signal, stderr, ready)));
    child.stdin.end(JSON.stringify(job));
  });
}

const dead = (code: number | null, signal: string | null, stderr: string, ready: boolean): ShardResult => ({
  kind: 'fail',
  message: `the shard's process died ${ready ? 'on it' : 'before it was ready'} (status ${code}, signal ${signal}): ${stderr.trim().slice(-400)}`,
});

/** Runs every build of `job.names` over shardCount() child processes; the results in name order. */
export async function runDifferential(job: ShardJob, shards = shardCount()): Promise<Map<string, ShardResult>> {
  const out = new Map<string, ShardResult>();
  const deaths = new Map<string, number>();
  const lanes = Array.from({ length: Math.min(shards, job.names.length) }, (_, s) =>
    job.names.filter((_, i) => i % shards === s),
  );
  await Promise.all(
    lanes.map(async (names) => {
      let rest = names;
      let barren = 0;
      while (rest.length > 0) {
        const death = await runShard({ ...job, names: rest }, out);
        const next = rest.findIndex((n) => !out.has(n));
        if (next < 0) break;
        // A shard that dies before it is ready cannot start (a module that does not load): after a
        // second try every build left is that failure, not two more starts each.
        barren = death?.kind === 'fail' && death.message.includes('before it was ready') ? barren + 1 : 0;
        if (barren >= 2) {
          for (const n of rest) out.set(n, death ?? { kind: 'fail', message: 'the shard ended without answering' });
          break;
        }
        // The process died on rest[next] (or ended early): once more from there, then that build is a
        // failure.
        const n = rest[next]!;
        const d = (deaths.get(n) ?? 0) + 1;
        deaths.set(n, d);
        if (d >= 2) out.set(n, death ?? { kind: 'fail', message: 'the shard ended without answering it' });
        rest = rest.slice(d >= 2 ? next + 1 : next);
      }
    }),
  );
  return new Map(job.names.map((n) => [n, out.get(n)!]));
}
