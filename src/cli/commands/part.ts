// `iridia part FILE KIND [-o OUT]` extracts a part's bytes (to stdout without -o);
// `--replace BYTES_FILE -o OUT`, `--add BYTES_FILE -o OUT` and `--remove -o OUT` write a container
// re-signed with the part replaced, appended or dropped (editContainer; containers.md, "Container":
// a container is fixed by its parts). A rewrite keeps the parts and drops what lies between or after
// them; each such finding of the input is said on stderr, so nothing is lost silently.

import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, readInput, writeBinary, writeJson } from '../io.js';
import { fourccFromString } from '../../binary/reader.js';
import { editContainer, parseContainer, printableKind, type Container } from '../../container/container.js';
import { IridiaError } from '../../errors.js';

/** Findings whose bytes or layout a rewrite from parts does not keep. */
const DROPPED: Readonly<Record<string, string>> = {
  gap: 'the bytes between parts are not written',
  trailing: 'the bytes after the last part are not written',
  'extra-bytes': 'the bytes after the stored total size are not written',
  order: 'the parts are written back to back in directory order',
};

function warnDropped(path: string, c: Container, kind: string, op: string): void {
  for (const f of c.findings) {
    const what = DROPPED[f.kind];
    if (what !== undefined) process.stderr.write(`iridia part: ${path}: ${f.message}; ${what}\n`);
  }
  const n = c.parts.filter((p) => p.kind === kind).length;
  if (n > 1) process.stderr.write(`iridia part: ${path}: ${n} parts are ${printableKind(kind)}; all ${n} are ${op}\n`);
}

/** KIND as typed: four characters, where `\xNN` stands for one byte (as info prints such kinds). */
function partKind(typed: string): string {
  const s = typed.replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  try {
    fourccFromString(s);
  } catch (e) {
    if (e instanceof IridiaError)
      throw new UsageError(`KIND is a four-character part kind (SHEX, RDEF, ...), not ${JSON.stringify(typed)}`);
    throw e;
  }
  return s;
}

export const help = `usage: iridia part FILE KIND [-o OUT] [--json]
       iridia part FILE KIND --replace BYTES -o OUT [--json]
       iridia part FILE KIND --add BYTES -o OUT [--json]
       iridia part FILE KIND --remove -o OUT [--json]

Extracts a part's bytes (the first of that kind), or writes the container re-signed with the part
replaced, appended or removed. A rewrite keeps the parts and drops what lies between or after them;
each such finding of the input is said on stderr.

options:
  FILE              the container; - reads standard input
  KIND              four characters (SHEX, RDEF, STAT, ...); \\xNN stands for one byte, as info prints it
  -o, --output OUT  where the part or container goes (- or none: standard output, never a terminal)
  --replace BYTES   replace the part's data with the file BYTES
  --add BYTES       append a part of kind KIND holding the file BYTES
  --remove          remove every part of kind KIND
  --json            also print one JSON object (schema iridia.part/1, docs/json.md); needs -o OUT

example:
  iridia part examples/vertex-color.dxbc SHEX -o shex.bin
`;

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    ...OUTPUT_FLAGS,
    '--replace': { value: true },
    '--add': { value: true },
    '--remove': {},
  });
  if (args.positional.length !== 2) throw new UsageError('part takes FILE and KIND');
  const [path, kindArg] = args.positional as [string, string];
  const kind = partKind(kindArg);
  const ops = (['--replace', '--add', '--remove'] as const).filter((o) => flag(args, o));
  if (ops.length > 1) throw new UsageError(`${ops.join(' and ')} cannot be combined`);
  const out = value(args, '-o');
  const json = flag(args, '--json');
  if (json && (out === undefined || out === '-'))
    throw new UsageError('part --json prints JSON on standard output: give -o OUT for the bytes');
  const c = parseContainer(readInput(path));
  const op = ops[0];
  if (op === undefined) {
    const matches = c.parts.filter((p) => p.kind === kind);
    const first = matches[0];
    if (first === undefined) {
      throw new IridiaError(
        'E108_PART_MISSING',
        `the container has no ${printableKind(kind)} part (it has ${c.parts.map((p) => printableKind(p.kind)).join(' ') || 'none'})`,
      );
    }
    if (matches.length > 1) {
      process.stderr.write(
        `iridia part: ${path}: ${matches.length} parts are ${printableKind(kind)}; the first is written\n`,
      );
    }
    writeBinary(out, first.data);
    if (json)
      writeJson('part', {
        path,
        kind: printableKind(kind),
        operation: 'extract',
        offset: first.offset,
        size: first.data.byteLength,
        output: out,
      });
    return 0;
  }
  if (out === undefined) throw new UsageError(`${op} writes a container: give -o OUT`);
  let edited: Uint8Array;
  switch (op) {
    case '--replace':
      edited = editContainer(c, { op: 'replace', kind, data: readInput(value(args, op)!) });
      warnDropped(path, c, kind, 'replaced');
      break;
    case '--add':
      edited = editContainer(c, { op: 'add', kind, data: readInput(value(args, op)!) });
      warnDropped(path, c, kind, 'added');
      break;
    case '--remove':
      edited = editContainer(c, { op: 'remove', kind });
      warnDropped(path, c, kind, 'removed');
      break;
  }
  writeBinary(out, edited);
  if (json)
    writeJson('part', {
      path,
      kind: printableKind(kind),
      operation: op.slice(2),
      size: edited.byteLength,
      output: out,
      parts: parseContainer(edited).parts.map((p) => printableKind(p.kind)),
    });
  return 0;
}
