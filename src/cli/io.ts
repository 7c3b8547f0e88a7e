// File-system helpers for the CLI alone (the core never touches Node APIs): reading inputs,
// walking folders, and the batch convention `FILE... --out-dir DIR [--root R]`.

import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, extname, sep } from 'node:path';
import { IridiaError } from '../errors.js';
import { UsageError } from './args.js';

export function readInput(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Every regular file under each path (files given directly are kept as they are), sorted. */
export function* walkPaths(paths: readonly string[]): Generator<string> {
  for (const p of paths) {
    const st = statSync(p);
    if (st.isDirectory()) yield* walkDir(p);
    else yield p;
  }
}

function* walkDir(dir: string): Generator<string> {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walkDir(p);
    else if (e.isFile()) yield p;
  }
}

/** Does the file start with the given 4-byte magic? Reads only the first bytes. */
export function fileStartsWith(bytes: Uint8Array, magic: string): boolean {
  if (bytes.byteLength < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic.charCodeAt(i)) return false;
  return true;
}

/**
 * Where the output for `input` goes under the batch convention: DIR/<input relative to root,
 * with its extension replaced by `ext`>. Refuses an input outside the root.
 */
export function outputPath(input: string, outDir: string, root: string, ext: string): string {
  const rel = relative(resolve(root), resolve(input));
  if (rel.startsWith('..') || rel === '' || resolve(rel) === rel) {
    throw new UsageError(`input ${input} is not under the root ${root} (use --root)`);
  }
  const stem = extname(rel) ? rel.slice(0, -extname(rel).length) : rel;
  return join(outDir, stem + ext);
}

export function writeOutput(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

export interface BatchFailure {
  readonly path: string;
  readonly error: string;
  readonly code?: string;
}

export interface BatchSummary {
  readonly inputs: number;
  readonly written: number;
  readonly failed: BatchFailure[];
}

/**
 * Runs `convert` over every input, writing one output each under the batch convention. A failing
 * input writes nothing, is recorded, and the run goes on. Bugs (non-IridiaError) are recorded as
 * internal errors with their message, never as a bare stack trace.
 */
export function runBatch(
  inputs: readonly string[],
  options: { outDir: string; root: string; ext: string; progress?: (done: number, total: number) => void },
  convert: (bytes: Uint8Array, path: string) => string | Uint8Array,
): BatchSummary {
  const failed: BatchFailure[] = [];
  let written = 0;
  inputs.forEach((input, i) => {
    try {
      const out = convert(readInput(input), input);
      writeOutput(outputPath(input, options.outDir, options.root, options.ext), out);
      written++;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      failed.push(describeFailure(input, e));
    }
    options.progress?.(i + 1, inputs.length);
  });
  return { inputs: inputs.length, written, failed };
}

export function describeFailure(path: string, e: unknown): BatchFailure {
  if (e instanceof IridiaError) return { path, error: e.message, code: e.code };
  const err = e as { code?: unknown; message?: unknown; syscall?: unknown };
  if (typeof err?.syscall === 'string' && typeof err.code === 'string' && typeof err.message === 'string') {
    return { path, error: err.message, code: err.code }; // file-system errors (ENOENT, EISDIR, ...)
  }
  return { path, error: `internal error: ${e instanceof Error ? e.message : String(e)}`, code: 'INTERNAL' };
}

/** A one-line progress bar on a terminal (stderr), nothing when stderr is not a TTY. */
export function progressBar(label: string): ((done: number, total: number) => void) & { end(): void } {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  const f = (done: number, total: number): void => {
    if (!tty) return;
    const now = Date.now();
    if (done !== total && now - last < 100) return;
    last = now;
    const width = 30;
    const fill = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total}`);
  };
  return Object.assign(f, {
    end(): void {
      if (tty) process.stderr.write('\n');
    },
  });
}

export const pathSep = sep;
