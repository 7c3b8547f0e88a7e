// File-system helpers for the CLI alone (the core never touches Node APIs), and the conventions
// every command follows (docs/cli.md):
//   - an input named `-` is standard input (readInput);
//   - one output goes to `-o FILE` (or `-o -`, or no -o: standard output); binary output is never
//     written to a terminal (writeBinary); text goes through writeText;
//   - `--json` prints one object carrying `"schema": "iridia.<command>/1"` (writeJson), and an error
//     under --json is such an object too, with `error: {code, message, path, offset, part, ...}`
//     (main.ts prints it from jsonError);
//   - a file that cannot be read is an InputError naming its path (never a bare EISDIR);
//   - batches: `FILE... --out-dir DIR [--root R]`.

import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
  type Dirent,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, extname, sep } from 'node:path';
import { IridiaError } from '../errors.js';
import { UsageError } from './args.js';

/** A file that cannot be read or written: names the path and the file-system reason. Exit status 1. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    readonly path: string,
    /** The file-system code: ENOENT, EISDIR, EACCES, ... */
    readonly code: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a component of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
};

/** A file-system error as an InputError naming the path (other errors unchanged). */
export function fsError(path: string, e: unknown): unknown {
  const err = e as { code?: unknown; syscall?: unknown };
  if (typeof err?.code === 'string' && typeof err.syscall === 'string')
    return new InputError(path, err.code, FS_REASONS[err.code] ?? `cannot be read (${err.code})`);
  return e;
}

let current: string | undefined;

/** The path of the input read last (named in an error's message and JSON). */
export function currentInput(): string | undefined {
  return current;
}

/** Names the input an error is about from here on (a second input read earlier, e.g. run's job). */
export function setCurrentInput(path: string): void {
  current = path;
}

/** The bytes of a file, or of standard input for `-`. A directory or a missing file is an InputError. */
export function readInput(path: string): Uint8Array {
  current = path;
  let b: Buffer;
  try {
    b = readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    throw fsError(path === '-' ? 'standard input' : path, e);
  }
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * A reader for a batch whose conversion keeps nothing of its input bytes once it returns (disasm's
 * listing is a string): each file is read into one buffer the batch reuses, which grows to the
 * largest file, instead of a buffer of its own per file, and without readFileSync's fstat for the
 * size (a read to the end instead). The bytes it returns are valid until the next call. Errors as
 * readInput's (an InputError naming the path); standard input (`-`) and a file of more than
 * SCRATCH_LIMIT bytes go through readInput itself.
 */
export function scratchReader(): (path: string) => Uint8Array {
  let buf = new Uint8Array(1 << 16);
  return (path) => {
    if (path === '-') return readInput(path);
    const fd = openInput(path);
    let len = 0;
    try {
      for (;;) {
        if (len === buf.length) {
          if (len >= SCRATCH_LIMIT) break;
          const grown = new Uint8Array(len * 2);
          grown.set(buf);
          buf = grown;
        }
        const n = readSync(fd, buf, len, buf.length - len, null);
        if (n === 0) return buf.subarray(0, len);
        len += n;
      }
    } catch (e) {
      throw fsError(path, e);
    } finally {
      closeSync(fd);
    }
    return readInput(path);
  };
}

/** The largest file scratchReader reads into its own buffer. */
const SCRATCH_LIMIT = 1 << 28;

/** A text input (a JSON job, ...), `-` for standard input. */
export function readTextInput(path: string): string {
  return new TextDecoder().decode(readInput(path));
}

/** The flags of the one-output convention, to spread into a command's parseArgs spec. */
export const OUTPUT_FLAGS = {
  '-o': { value: true, aliases: ['--output'] },
  '--json': {},
} as const;

/** Writes binary output to OUT, or to stdout when there is no OUT (or it is `-`) and stdout is not a terminal. */
export function writeBinary(out: string | undefined, data: Uint8Array): void {
  if (out !== undefined && out !== '-') {
    writeOutput(out, data);
    return;
  }
  if (process.stdout.isTTY === true) throw new UsageError('refusing to write binary data to a terminal; use -o OUT');
  process.stdout.write(data);
}

/** Writes text to OUT, or to stdout when there is no OUT (or it is `-`). */
export function writeText(out: string | undefined, text: string): void {
  if (out !== undefined && out !== '-') writeOutput(out, text);
  else process.stdout.write(text);
}

/** The schema name of a command's JSON: `iridia.<command>/1`. */
export function schemaName(command: string): string {
  return `iridia.${command}/1`;
}

/** A command's JSON object: `schema` first, then the fields. */
export function jsonObject(command: string, body: object): Record<string, unknown> {
  return { schema: schemaName(command), ...body };
}

/**
 * Writes a command's JSON (schema first, one trailing newline) to OUT or stdout: two-space indented,
 * or on one line with `compact` (run's word arrays).
 */
export function writeJson(command: string, body: object, out?: string, compact = false): void {
  writeText(out, `${JSON.stringify(jsonObject(command, body), null, compact ? undefined : 2)}\n`);
}

/** The JSON error object of the --json convention: `{schema, error: {code, message, ...}}`. */
export function jsonError(command: string, e: unknown): Record<string, unknown> {
  const path = e instanceof InputError ? e.path : currentInput();
  let error: Record<string, unknown>;
  if (e instanceof IridiaError) {
    error = {
      code: e.code,
      message: e.message,
      reason: e.reason,
      ...(path !== undefined ? { path } : {}),
      offset: e.offset ?? null,
      part: e.part ?? null,
      ...(e.instruction !== undefined ? { instruction: e.instruction } : {}),
      ...(e.word !== undefined ? { word: e.word } : {}),
      // an assembler error (src/asm's AsmError) also names the listing's line, column and text
      ...('line' in e && 'column' in e && 'text' in e ? { line: e.line, column: e.column, text: e.text } : {}),
    };
  } else if (e instanceof InputError) {
    error = { code: e.code, message: e.message, path: e.path, offset: null, part: null };
  } else if (e instanceof UsageError) {
    error = { code: 'USAGE', message: e.message, offset: null, part: null };
  } else {
    error = {
      code: 'INTERNAL',
      message: `internal error (a bug in iridia, please report it): ${e instanceof Error ? e.message : String(e)}`,
      ...(path !== undefined ? { path } : {}),
      offset: null,
      part: null,
    };
  }
  return jsonObject(command, { error });
}

/** Every regular file under each path (files given directly are kept as they are), sorted. */
export function* walkPaths(paths: readonly string[]): Generator<string> {
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw fsError(p, e);
    }
    if (st.isDirectory()) yield* walkDir(p);
    else yield p;
  }
}

/** Every regular file under a folder, sorted by name at each level, depth first (symbolic links left out). */
export function* walkDir(dir: string): Generator<string> {
  for (const e of folderEntries(dir)) {
    if (e.dir) yield* walkDir(e.path);
    else yield e.path;
  }
}

/** A folder's folders and regular files, sorted by name (what walkDir goes through, in its order). */
export function folderEntries(dir: string): { path: string; dir: boolean }[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const out: { path: string; dir: boolean }[] = [];
  for (const e of entries) {
    if (e.isDirectory()) out.push({ path: join(dir, e.name), dir: true });
    else if (e.isFile()) out.push({ path: join(dir, e.name), dir: false });
  }
  return out;
}

/**
 * The inputs of a batch: files named directly whatever they hold, and under each folder the files
 * that start with the container magic. A path that cannot be read is an InputError naming it.
 */
export function batchInputs(paths: readonly string[]): string[] {
  const isDirectory = directoryTest(paths);
  return paths.flatMap((p) => (isDirectory(p) ? [...walkDir(p)].filter((f) => fileHasMagic(f, 'DXBC')) : [p]));
}

/** Inputs in one folder from which batchInputs lists the folder instead of a stat per input. */
const LISTED_FOLDER = 32;

/**
 * Is each path a folder (statSync(p).isDirectory(), an InputError naming a path that cannot be
 * read)? A shell's glob names many files of one folder (`iridia disasm shaders/*.dxbc`): where
 * LISTED_FOLDER or more of the paths share a folder, that folder is listed once and its entries'
 * types answer for them, a stat each only for what the listing does not settle (a symbolic link,
 * a name not found as given, a folder that cannot be listed).
 */
function directoryTest(paths: readonly string[]): (path: string) => boolean {
  const byFolder = new Map<string, number>();
  for (const p of paths) byFolder.set(dirname(p), (byFolder.get(dirname(p)) ?? 0) + 1);
  const listings = new Map<string, Map<string, Dirent>>();
  for (const [folder, n] of byFolder) {
    if (n < LISTED_FOLDER) continue;
    try {
      listings.set(folder, new Map(readdirSync(folder, { withFileTypes: true }).map((e) => [e.name, e])));
    } catch {
      // left to the stat of each path
    }
  }
  return (p) => {
    const e = listings.get(dirname(p))?.get(basename(p));
    if (e?.isFile()) return false;
    if (e?.isDirectory()) return true;
    try {
      return statSync(p).isDirectory();
    } catch (err) {
      throw fsError(p, err);
    }
  };
}

/** Opens an input file for reading (it becomes the input errors name; an InputError naming it when
 * it cannot be opened). */
function openInput(path: string): number {
  current = path;
  try {
    return openSync(path, 'r');
  } catch (e) {
    throw fsError(path, e);
  }
}

/** Does the file at `path` start with the 4-byte magic? Reads its first 4 bytes only. */
function fileHasMagic(path: string, magic: string): boolean {
  const fd = openInput(path);
  try {
    const head = new Uint8Array(4);
    return readSync(fd, head, 0, 4, 0) === 4 && fileStartsWith(head, magic);
  } finally {
    closeSync(fd);
  }
}

/** Do the bytes start with the given 4-byte magic? */
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
  return outputPaths(outDir, root, ext)(input);
}

/**
 * outputPath for every input of one batch: the root resolved and the output folder's prefix made
 * once. An input that resolves under the root (POSIX paths) is cut at the root's prefix, which is
 * what path.relative gives for it; any other goes through path.relative itself
 * (test/cli/io.test.ts compares the two).
 */
export function outputPaths(outDir: string, root: string, ext: string): (input: string) => string {
  const rootAbs = resolve(root);
  const under = rootAbs.endsWith(sep) ? rootAbs : rootAbs + sep;
  const x = join(outDir, 'x');
  const prefix = x.slice(0, -1); // join(outDir, s) for a relative s with no '.' or '..' part
  return (input) => {
    const abs = resolve(input);
    const rel = sep === '/' && abs.startsWith(under) ? abs.slice(under.length) : relative(rootAbs, abs);
    if (rel.startsWith('..') || rel === '' || resolve(rel) === rel) {
      throw new UsageError(`input ${input} is not under the root ${root} (use --root)`);
    }
    const e = extname(rel);
    return prefix + (e ? rel.slice(0, -e.length) : rel) + ext;
  };
}

/** Writes a file, making its folder. `made` (a batch's own set) saves the mkdir of a folder made before. */
export function writeOutput(path: string, data: string | Uint8Array, made?: Set<string>): void {
  const dir = dirname(path);
  if (!made?.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made?.add(dir);
  }
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
  options: {
    outDir: string;
    root: string;
    ext: string;
    progress?: (done: number, total: number) => void;
    /** `convert` keeps nothing of its input bytes once it returns: read through scratchReader. */
    scratch?: boolean;
  },
  convert: (bytes: Uint8Array, path: string) => string | Uint8Array,
): BatchSummary {
  const failed: BatchFailure[] = [];
  const made = new Set<string>();
  const output = outputPaths(options.outDir, options.root, options.ext);
  const read = options.scratch ? scratchReader() : readInput;
  let written = 0;
  inputs.forEach((input, i) => {
    const failure = batchStep(input, () => output(input), convert, made, read);
    if (failure === undefined) written++;
    else failed.push(failure);
    options.progress?.(i + 1, inputs.length);
  });
  return { inputs: inputs.length, written, failed };
}

/** One slice of a batch on a worker thread (pool.ts outDirOnThreads): each path converted and written
 * to its output, already worked out; the failures in input order. */
export function outDirSlice(
  paths: readonly string[],
  outputs: readonly string[],
  convert: (bytes: Uint8Array, path: string) => string | Uint8Array,
  scratch = false,
): BatchFailure[] {
  const made = new Set<string>();
  const failed: BatchFailure[] = [];
  const read = scratch ? scratchReader() : readInput;
  paths.forEach((path, i) => {
    const f = batchStep(path, () => outputs[i]!, convert, made, read);
    if (f !== undefined) failed.push(f);
  });
  return failed;
}

/**
 * One input of a batch: read (by `read`, readInput unless told), converted, written to `output()`
 * (its folder made once, `made`).
 * Returns the failure of an input that writes nothing; a UsageError (an input outside the root) is
 * thrown, ending the batch.
 */
export function batchStep(
  input: string,
  output: () => string,
  convert: (bytes: Uint8Array, path: string) => string | Uint8Array,
  made: Set<string>,
  read: (path: string) => Uint8Array = readInput,
): BatchFailure | undefined {
  try {
    const out = convert(read(input), input);
    writeOutput(output(), out, made);
    return undefined;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return describeFailure(input, e);
  }
}

export function describeFailure(path: string, e: unknown): BatchFailure {
  if (e instanceof IridiaError) return { path, error: e.message, code: e.code };
  if (e instanceof InputError) return { path, error: e.message, code: e.code };
  const err = e as { code?: unknown; message?: unknown; syscall?: unknown };
  if (typeof err?.syscall === 'string' && typeof err.code === 'string' && typeof err.message === 'string') {
    return { path, error: err.message, code: err.code }; // file-system errors (ENOENT, EISDIR, ...)
  }
  return { path, error: `internal error: ${e instanceof Error ? e.message : String(e)}`, code: 'INTERNAL' };
}

/**
 * A one-line progress bar on a terminal (stderr) with an estimate of the time left; `end()` clears
 * the line, so nothing of it stays between the command's output. Nothing when stderr is not a TTY.
 */
export function progressBar(label: string): ((done: number, total: number) => void) & { end(): void } {
  const tty = process.stderr.isTTY === true;
  const start = Date.now();
  let last = 0;
  let shown = false;
  const f = (done: number, total: number): void => {
    if (!tty) return;
    const now = Date.now();
    if (done !== total && now - last < 100) return;
    last = now;
    const width = 30;
    const fill = total ? Math.round((done / total) * width) : width;
    const elapsed = (now - start) / 1000;
    const eta = done > 0 && done < total ? `, ${formatSeconds((elapsed / done) * (total - done))} left` : '';
    process.stderr.write(`\r\x1b[2K${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total}${eta}`);
    shown = true;
  };
  return Object.assign(f, {
    end(): void {
      if (tty && shown) process.stderr.write('\r\x1b[2K');
    },
  });
}

/** `42s`, `3m05s`, `1h02m`. */
export function formatSeconds(s: number): string {
  const t = Math.max(0, Math.round(s));
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}

export const pathSep = sep;
