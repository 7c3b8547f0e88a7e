// `iridia verify [--roundtrip] [--json] PATH...`: every file under the paths that starts with the
// container magic (whatever its extension) is parsed and its digest checked (containers.md,
// "Container": valid, unsigned = zero, stale); with --roundtrip it is also written back from its
// parts and compared byte for byte with the file. Exit 1 if any container is stale or unreadable, or
// differs on round trip when asked.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseArgs, flag, UsageError } from '../args.js';
import { describeFailure, progressBar, readInput, walkPaths, writeJson } from '../io.js';
import { digestState, hasContainerMagic, parseContainer, rewriteContainer } from '../../container/container.js';

/**
 * Reads a file once if it starts with the container magic (only its first 4 bytes otherwise).
 * Returns undefined for a file that is not a container.
 */
export function readIfContainer(path: string): Uint8Array | undefined {
  if (path === '-') {
    const bytes = readInput('-'); // standard input: read whole
    return hasContainerMagic(bytes) ? bytes : undefined;
  }
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(4);
    if (readSync(fd, head, 0, 4, 0) < 4 || !hasContainerMagic(head)) return undefined;
    const size = fstatSync(fd).size;
    const bytes = new Uint8Array(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, bytes, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === size ? bytes : bytes.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

export interface InputFailure {
  readonly path: string;
  readonly error: string;
  readonly code?: string;
}

/** Every file under the paths (sorted within folders); a path that cannot be listed is a failure. */
export function listFiles(paths: readonly string[]): { files: string[]; failures: InputFailure[] } {
  const files: string[] = [];
  const failures: InputFailure[] = [];
  for (const p of paths) {
    if (p === '-') {
      files.push(p); // standard input, as a file named directly
      continue;
    }
    try {
      for (const f of walkPaths([p])) files.push(f);
    } catch (e) {
      failures.push(describeFailure(p, e));
    }
  }
  return { files, failures };
}

/**
 * Reads each file that starts with the container magic, once. A file found in a folder that is not
 * a container is skipped; a file named directly (in `named`) that is not one is a failure.
 */
export function* containerInputs(
  files: readonly string[],
  named: ReadonlySet<string>,
): Generator<{ path: string; bytes: Uint8Array } | { path: string; failure: InputFailure } | { path: string }> {
  for (const path of files) {
    try {
      const bytes = readIfContainer(path);
      if (bytes !== undefined) yield { path, bytes };
      else if (named.has(path)) yield { path, failure: notAContainer(path) };
      else yield { path };
    } catch (e) {
      yield { path, failure: describeFailure(path, e) };
    }
  }
}

/** The failure of a file named directly that does not start with the container magic. */
export function notAContainer(path: string): InputFailure {
  return { path, error: "the file does not start with the container magic 'DXBC'", code: 'E102_BAD_MAGIC' };
}

export interface VerifySummary {
  containers: number;
  valid: string[];
  unsigned: string[];
  stale: string[];
  errors: { path: string; error: string }[];
  identical: number;
  different: string[];
}

/** Verifies every container under the paths (the logic of the command, used by tests too). */
export function verifyPaths(
  paths: readonly string[],
  options: { roundtrip: boolean; progress?: (done: number, total: number) => void },
): VerifySummary {
  const s: VerifySummary = {
    containers: 0,
    valid: [],
    unsigned: [],
    stale: [],
    errors: [],
    identical: 0,
    different: [],
  };
  const { files, failures } = listFiles(paths);
  for (const f of failures) s.errors.push({ path: f.path, error: errorText(f) });
  let done = 0;
  for (const input of containerInputs(files, new Set(paths))) {
    options.progress?.(++done, files.length);
    if ('failure' in input) {
      s.errors.push({ path: input.path, error: errorText(input.failure) });
      continue;
    }
    if (!('bytes' in input)) continue;
    const bytes = input.bytes;
    s.containers++;
    try {
      const c = parseContainer(bytes);
      s[digestState(c)].push(input.path);
      if (options.roundtrip) {
        if (sameBytes(rewriteContainer(c), bytes)) s.identical++;
        else s.different.push(input.path);
      }
    } catch (e) {
      // A typed refusal, or (a bug in iridia) an internal error: recorded, and the run goes on.
      s.errors.push({ path: input.path, error: errorText(describeFailure(input.path, e)) });
    }
  }
  options.progress?.(files.length, files.length);
  return s;
}

function errorText(f: { error: string; code?: string }): string {
  return f.code !== undefined ? `${f.code}: ${f.error}` : f.error;
}

/** `1 container`, `2 containers`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const help = `usage: iridia verify [--roundtrip] [--json] PATH...

Checks the digest of every container under the paths: every file that starts with 'DXBC', whatever
its extension (valid; unsigned: all zero; stale: neither). A file named directly that is not a
container is an error; in folders such files are skipped.

options:
  PATH...      files and folders; - reads one container from standard input
  --roundtrip  also write each container back from its parts and compare it byte for byte
  --json       one JSON object (schema iridia.verify/1, docs/json.md)
Exit status 1 when a container is stale, unreadable, or differs on the round trip.

example:
  iridia verify --roundtrip test/fixtures/container
`;

export function run(argv: string[]): number {
  const args = parseArgs(argv, { '--roundtrip': {}, '--json': {} });
  if (args.positional.length === 0) throw new UsageError('verify takes at least one PATH');
  const roundtrip = flag(args, '--roundtrip');
  const bar = progressBar('verify');
  const s = verifyPaths(args.positional, { roundtrip, progress: bar });
  bar.end();
  if (flag(args, '--json')) {
    writeJson('verify', {
      containers: s.containers,
      valid: s.valid.length,
      unsigned: s.unsigned.length,
      stale: s.stale.length,
      staleFiles: s.stale,
      errors: s.errors,
      roundtrip: roundtrip
        ? { identical: s.identical, different: s.different.length, differentFiles: s.different }
        : null,
    });
  } else {
    const lines: string[] = [];
    for (const p of s.stale) lines.push(`stale     ${p}`);
    for (const e of s.errors) lines.push(`error     ${e.path}: ${e.error}`);
    for (const p of s.different) lines.push(`different ${p} (round trip)`);
    lines.push(
      `${count(s.containers, 'container')}: ${s.valid.length} valid, ${s.unsigned.length} unsigned, ${s.stale.length} stale; ` +
        `${s.errors.length} unreadable` +
        (roundtrip ? `; round trip: ${s.identical} identical, ${s.different.length} different` : ''),
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return s.stale.length > 0 || s.errors.length > 0 || s.different.length > 0 ? 1 : 0;
}
