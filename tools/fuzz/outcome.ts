// Running one mutant in this process and classifying what happened.

import { getHeapStatistics } from 'node:v8';
import { IridiaError } from '../../src/errors.js';
import { InvalidIrError, type Target } from './targets.js';

export type Outcome = 'ok' | 'typed' | 'untyped' | 'invalid-ir' | 'memory' | 'crash' | 'oom' | 'timeout';

/** The outcomes that break a target's property. */
export const FAILURES: readonly Outcome[] = ['untyped', 'invalid-ir', 'memory', 'crash', 'oom', 'timeout'];

export interface Result {
  readonly outcome: Outcome;
  /** The IridiaError's code (typed), or the failure's dedup key. */
  readonly code?: string;
  readonly key?: string;
  readonly message?: string;
  readonly stack?: string;
}

/** Off-heap bytes (typed arrays) one mutant may leave allocated: a fixed allowance for the seeded
 * executor's resources plus 1 KiB per input byte. Above it the mutant is an allocation past its bound. */
export function memoryBound(inputBytes: number): number {
  return 128 * 1024 * 1024 + 1024 * inputBytes;
}

/** The first frame of a stack inside iridia's own code (src/), as `function (file)`: a failure's place. */
export function stackTop(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const m = /at (?:(.*?) \()?.*?\/((?:src|tools)\/[^:)]+):\d+/.exec(line);
    if (m) return `${m[1] ?? '<anonymous>'} (${m[2]})`;
  }
  return '<no iridia frame>';
}

/** Off-heap memory: V8's external memory, which holds every ArrayBuffer's bytes (Node documents
 * `process.memoryUsage().arrayBuffers` as included in `external`, which is this figure). Read without
 * process.memoryUsage's resident-set read of /proc (about 20 µs a call, two a mutant, more than
 * many targets' own work): about 1.5 µs. */
export function offHeapBytes(): number {
  return getHeapStatistics().external_memory;
}

export function runOne(t: Target, bytes: Uint8Array): Result {
  const before = offHeapBytes();
  let r: Result;
  try {
    t.run(bytes);
    r = { outcome: 'ok' };
  } catch (e) {
    if (e instanceof IridiaError) r = { outcome: 'typed', code: e.code };
    else {
      const err = e instanceof Error ? e : new Error(String(e));
      const outcome: Outcome = err instanceof InvalidIrError ? 'invalid-ir' : 'untyped';
      const what = outcome === 'invalid-ir' ? firstIrError(err.message) : `${err.name}: ${shortMessage(err.message)}`;
      r = {
        outcome,
        key: `${outcome} ${what} @ ${stackTop(err.stack)}`,
        message: err.message,
        stack: err.stack ?? '',
      };
    }
  }
  const grown = offHeapBytes() - before;
  if (grown > memoryBound(bytes.byteLength))
    return {
      outcome: 'memory',
      key: `memory ${t.name}`,
      message: `${grown} bytes of typed arrays left allocated (bound ${memoryBound(bytes.byteLength)})`,
    };
  return r;
}

/** The message with its numbers blanked (so that one kind of failure is one key). */
function shortMessage(m: string): string {
  return m
    .split('\n')[0]!
    .replace(/\d+/g, 'N')
    .replace(/'[^']*'|"[^"]*"/g, 'S')
    .slice(0, 100);
}

function firstIrError(m: string): string {
  const first = m.replace(/^the lifted IR does not validate: /, '').split(';')[0] ?? m;
  return shortMessage(first.replace(/^function \S+ /, 'function F ').replace(/%\S+/g, '%x'));
}
