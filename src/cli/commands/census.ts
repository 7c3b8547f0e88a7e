// `iridia census [--json] [--decode] PATH...`: over folders of any size, each file read once, every
// container fed to a Census (src/container/census.ts): kinds, programs and versions, part sets in file
// order, findings, digest states, refusals by code. Progress bar on a terminal. Exit 1 if any input was
// refused or unreadable.
//
// Later layers add sections here: append a factory (options) => CensusSection | undefined to
// SECTION_FACTORIES (one returning undefined unless options.decode is set for `--decode` sections).

import { parseArgs, flag, UsageError } from '../args.js';
import { progressBar, writeJson } from '../io.js';
import { containerInputs, count, listFiles } from './verify.js';
import { BUILTIN_SECTIONS, Census, type CensusSection, type CensusSectionFactory } from '../../container/census.js';
import { sm4OpcodeSection } from '../../sm4/census.js';
import { dxilCensusSection } from '../../dxil/census.js';

export const SECTION_FACTORIES: readonly CensusSectionFactory[] = [
  ...BUILTIN_SECTIONS,
  sm4OpcodeSection,
  dxilCensusSection,
];

export const help = `usage: iridia census [--json] [--decode] PATH...

Counts over files and folders of any size (each file read once): container kinds, programs and
versions, part sets in file order, findings (deviations from what fxc and dxc write), digest states,
and refusals by error code. A progress bar with the time left shows on a terminal and clears itself.

options:
  PATH...    files and folders; in folders, files that do not start with 'DXBC' are skipped;
             - reads one file from standard input
  --decode   also decode every program: SM4/5 opcode counts, DXIL sections (slower)
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

export function run(argv: string[]): number {
  const args = parseArgs(argv, { '--json': {}, '--decode': {} });
  if (args.positional.length === 0) throw new UsageError('census takes at least one PATH');
  const json = flag(args, '--json');
  const factories = json ? [...SECTION_FACTORIES, fileSection] : SECTION_FACTORIES;
  const census = new Census(factories, { decode: flag(args, '--decode') });
  const { files, failures } = listFiles(args.positional);
  const unreadable = [...failures];
  const bar = progressBar('census');
  let done = 0;
  let skipped = 0;
  for (const input of containerInputs(files, new Set(args.positional))) {
    bar(++done, files.length);
    if ('failure' in input) unreadable.push(input.failure);
    else if ('bytes' in input) census.add(input.bytes, input.path);
    else skipped++;
  }
  bar.end();
  if (json) {
    writeJson('census', { files: files.length, notContainers: skipped, unreadable, ...census.toJSON() });
  } else {
    const head = `${count(files.length, 'file')}: ${skipped} not containers, ${unreadable.length} unreadable`;
    const lines = [head, ...unreadable.map((f) => `  unreadable ${f.path}: ${f.error}`)];
    process.stdout.write(`${lines.join('\n')}\n${census.toText()}`);
  }
  return census.refused > 0 || unreadable.length > 0 ? 1 : 0;
}
