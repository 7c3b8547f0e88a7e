// `iridia census [--json] [--decode] PATH...`: over folders of any size, each file read once, every
// container fed to a Census (src/container/census.ts): kinds, programs and versions, part sets in file
// order, findings, digest states, refusals by code. Progress bar on a terminal. Exit 1 if any input was
// refused or unreadable.
//
// Later layers add sections here: append a factory (options) => CensusSection | undefined to
// SECTION_FACTORIES (one returning undefined unless options.decode is set for `--decode` sections).

import { parseArgs, flag, UsageError } from '../args.js';
import { progressBar } from '../io.js';
import { containerInputs, count, listFiles } from './verify.js';
import { BUILTIN_SECTIONS, Census, type CensusSectionFactory } from '../../container/census.js';
import { sm4OpcodeSection } from '../../sm4/census.js';
import { dxilCensusSection } from '../../dxil/census.js';

export const SECTION_FACTORIES: readonly CensusSectionFactory[] = [
  ...BUILTIN_SECTIONS,
  sm4OpcodeSection,
  dxilCensusSection,
];

export function run(argv: string[]): number {
  const args = parseArgs(argv, { '--json': {}, '--decode': {} });
  if (args.positional.length === 0) throw new UsageError('census takes at least one PATH');
  const census = new Census(SECTION_FACTORIES, { decode: flag(args, '--decode') });
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
  if (flag(args, '--json')) {
    const out = { files: files.length, notContainers: skipped, unreadable, ...census.toJSON() };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const head = `${count(files.length, 'file')}: ${skipped} not containers, ${unreadable.length} unreadable`;
    const lines = [head, ...unreadable.map((f) => `  unreadable ${f.path}: ${f.error}`)];
    process.stdout.write(`${lines.join('\n')}\n${census.toText()}`);
  }
  return census.refused > 0 || unreadable.length > 0 ? 1 : 0;
}
