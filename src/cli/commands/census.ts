// `iridia census [--json] [--decode] PATH...`: over folders of any size, each file read once, every
// container fed to a Census (src/container/census.ts): kinds, programs and versions, part sets in file
// order, findings, digest states, refusals by code. Progress bar on a terminal. Exit 1 if any input was
// refused or unreadable.
//
// Later layers add sections here: append a factory (options) => CensusSection | undefined to
// SECTION_FACTORIES (one returning undefined unless options.decode is set for `--decode` sections).

import { statSync } from 'node:fs';
import { parseArgs, flag, UsageError } from '../args.js';
import { describeFailure, folderEntries, fsError, progressBar, writeJson } from '../io.js';
import { JOBS_FLAG, defaultJobs, jobsOption, runOrdered } from '../pool.js';
import type { ReadTask, WalkAnswer, WalkTask } from '../worker.js';
import { containerInputs, count, listFiles, notAContainer, type InputFailure } from './verify.js';
import { BUILTIN_SECTIONS, Census, type CensusSection, type CensusSectionFactory } from '../../container/census.js';
import { sm4OpcodeSection } from '../../sm4/census.js';
import { dxilCensusSection } from '../../dxil/census.js';

export const SECTION_FACTORIES: readonly CensusSectionFactory[] = [
  ...BUILTIN_SECTIONS,
  sm4OpcodeSection,
  dxilCensusSection,
];

export const help = `usage: iridia census [--json] [--decode] [--jobs N] PATH...

Counts over files and folders of any size (each file read once): container kinds, programs and
versions, part sets in file order, findings (deviations from what fxc and dxc write), digest states,
and refusals by error code. A progress bar with the time left shows on a terminal and clears itself.

options:
  PATH...    files and folders; in folders, files that do not start with 'DXBC' are skipped;
             - reads one file from standard input
  --decode   also decode every program: SM4/5 opcode counts, DXIL sections (slower)
  --jobs N   worker threads that walk the folders and read the files (-j N; 1: all on this one);
             default: one under 2000 files, else the cores Node may use (at most 8). The output is
             the same whatever N
  --json     one JSON object (schema iridia.census/1, docs/json.md), with "filesBehind" naming the files
             behind each error code and each finding kind
Exit status 1 when an input was refused or could not be read.

example:
  iridia census --json test/fixtures/container
`;

/** The files behind each error code and finding kind (census --json's "filesBehind"). */
function fileSection(): CensusSection {
  const errors: Record<string, string[]> = {};
  const findings: Record<string, string[]> = {};
  const push = (t: Record<string, string[]>, k: string, path: string): void => {
    const list = (t[k] ??= []);
    if (list[list.length - 1] !== path) list.push(path);
  };
  return {
    name: 'filesBehind',
    title: 'Files behind each error and finding',
    add: (c, path) => c.findings.forEach((f) => push(findings, f.kind, path)),
    addError: (e, path) => push(errors, e.code, path),
    toJSON: () => ({ errors, findings }),
    toText: () => [],
  };
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { '--json': {}, '--decode': {}, ...JOBS_FLAG });
  if (args.positional.length === 0) throw new UsageError('census takes at least one PATH');
  const json = flag(args, '--json');
  const jobs = jobsOption(args);
  const factories = json ? [...SECTION_FACTORIES, fileSection] : SECTION_FACTORIES;
  const census = new Census(factories, { decode: flag(args, '--decode') });
  const named = new Set(args.positional);
  const bar = progressBar('census');
  let done = 0;
  let skipped = 0;
  let total = 0;
  const unreadable: InputFailure[] = [];
  /** One file's outcome, in input order, whichever thread read it. */
  const take = (path: string, r: Uint8Array | null | { failure: InputFailure }): void => {
    bar(++done, total);
    if (r instanceof Uint8Array) census.add(r, path);
    else if (r !== null) unreadable.push(r.failure);
    else if (named.has(path)) unreadable.push(notAContainer(path));
    else skipped++;
  };
  // one thread for standard input (read here) and with --jobs 1; else by size (censusParallel)
  const parallel = jobs !== 1 && !named.has('-') ? await censusParallel(args.positional, jobs) : undefined;
  if (parallel === undefined) {
    const listed = listFiles(args.positional);
    total = listed.files.length;
    unreadable.push(...listed.failures);
    for (const input of containerInputs(listed.files, named)) {
      if ('failure' in input) take(input.path, { failure: input.failure });
      else take(input.path, 'bytes' in input ? input.bytes : null);
    }
  } else {
    total = parallel.files.length;
    unreadable.push(...parallel.failures);
    await parallel.read(take);
  }
  bar.end();
  if (json) {
    writeJson('census', { files: total, notContainers: skipped, unreadable, ...census.toJSON() });
  } else {
    const head = `${count(total, 'file')}: ${skipped} not containers, ${unreadable.length} unreadable`;
    const lines = [head, ...unreadable.map((f) => `  unreadable ${f.path}: ${f.error}`)];
    process.stdout.write(`${lines.join('\n')}\n${census.toText()}`);
  }
  return census.refused > 0 || unreadable.length > 0 ? 1 : 0;
}

/** Files read by a worker thread in one task. */
const READ_SLICE = 256;
/** Below this many files (seen while splitting the folders), the default is one thread. */
const PARALLEL_FILES = 2000;

/**
 * The census's file list made on worker threads, and its reading: the folders are split here into
 * subfolders (breadth first, each listed as walkDir lists it) until there are enough for the threads,
 * the threads walk the subfolders, and the list (in walkPaths's order, with listFiles's failures: a
 * folder that cannot be read ends its input's list there) is read in slices of READ_SLICE files.
 * Undefined when one thread is the default for this input (jobs undefined and under PARALLEL_FILES
 * files).
 */
async function censusParallel(
  paths: readonly string[],
  jobs: number | undefined,
): Promise<
  | {
      files: string[];
      failures: InputFailure[];
      read(take: (path: string, r: Uint8Array | null | { failure: InputFailure }) => void): Promise<void>;
    }
  | undefined
> {
  const threads = jobs ?? defaultJobs();
  if (threads === 1) return undefined;
  // `at`: the index of the path on the command line the unit is under (a path may be given twice)
  type Unit = { at: number; input: string; file?: string; dir?: string; failure?: InputFailure };
  let units: Unit[] = [];
  paths.forEach((p, at) => {
    try {
      units.push(statSync(p).isDirectory() ? { at, input: p, dir: p } : { at, input: p, file: p });
    } catch (e) {
      units.push({ at, input: p, failure: describeFailure(p, fsError(p, e)) });
    }
  });
  let folders = units.filter((u) => u.dir !== undefined).length;
  // split the folders until each thread has about 8 to walk (and, for the default, enough files
  // have been seen to tell that threads are worth starting)
  while (folders > 0 && (folders < 8 * threads || (jobs === undefined && units.length < PARALLEL_FILES))) {
    const split: Unit[] = [];
    folders = 0;
    for (const u of units) {
      if (u.dir === undefined) split.push(u);
      else {
        try {
          for (const e of folderEntries(u.dir)) {
            split.push(e.dir ? { at: u.at, input: u.input, dir: e.path } : { at: u.at, input: u.input, file: e.path });
            if (e.dir) folders++;
          }
        } catch (e) {
          split.push({ at: u.at, input: u.input, failure: describeFailure(u.input, e) });
        }
      }
    }
    units = split;
  }
  const fileCount = units.filter((u) => u.file !== undefined).length;
  if (jobs === undefined && folders === 0 && fileCount < PARALLEL_FILES) return undefined;
  // the subfolders walked on the threads, the list put together in order
  const tasks: WalkTask[] = [];
  for (const u of units) if (u.dir !== undefined) tasks.push({ op: 'walk', input: u.input, dir: u.dir });
  const walked: WalkAnswer[] = [];
  await runOrdered(tasks, threads, (a) => walked.push(a), tasks.length);
  const files: string[] = [];
  const failures: InputFailure[] = [];
  let stopped = -1; // the command-line path whose list ended at a failure
  let w = 0;
  for (const u of units) {
    const got: WalkAnswer | undefined = u.dir !== undefined ? walked[w++] : undefined;
    if (u.at === stopped) continue;
    if (u.file !== undefined) files.push(u.file);
    const failure = u.failure ?? got?.failure;
    if (got !== undefined) files.push(...got.files);
    if (failure !== undefined) {
      failures.push(failure);
      stopped = u.at;
    }
  }
  return {
    files,
    failures,
    async read(take) {
      const slices: ReadTask[] = [];
      for (let i = 0; i < files.length; i += READ_SLICE)
        slices.push({ op: 'read', paths: files.slice(i, i + READ_SLICE) });
      await runOrdered(slices, threads, (a, k) => a.results.forEach((r, i) => take(slices[k]!.paths[i]!, r)));
    },
  };
}
