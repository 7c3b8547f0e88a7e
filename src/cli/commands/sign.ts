// `iridia sign FILE [-o OUT] [--json]`: writes the container with its digest recomputed (containers.md,
// "Container": the digest and the sizes are the only derived fields). Every other byte is kept as it
// is, gaps and trailing bytes inside the stored size included; bytes after the stored total size are
// not part of the container and are not written (said on stderr). Without -o the container goes to
// stdout, unless stdout is a terminal.

import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, readInput, writeBinary, writeJson } from '../io.js';
import { digestState, parseContainer, signContainer } from '../../container/container.js';

export { writeBinary } from '../io.js';

export const help = `usage: iridia sign FILE [-o OUT] [--json]

Writes the container with its digest recomputed; every other byte is kept (gaps and trailing bytes
inside the stored size included). Bytes after the stored total size are not written (said on stderr).

options:
  FILE              the input; - reads standard input
  -o, --output OUT  where the container goes (- or none: standard output, never a terminal)
  --json            also print one JSON object (schema iridia.sign/1, docs/json.md): the digest
                    before and after; needs -o OUT, since standard output then carries the JSON

example:
  iridia sign examples/vertex-color.dxbc -o signed.dxbc
`;

const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export function run(argv: string[]): number {
  const args = parseArgs(argv, { ...OUTPUT_FLAGS });
  if (args.positional.length !== 1) throw new UsageError('sign takes one FILE');
  const path = args.positional[0]!;
  const out = value(args, '-o');
  const json = flag(args, '--json');
  if (json && (out === undefined || out === '-'))
    throw new UsageError('sign --json prints JSON on standard output: give -o OUT for the container');
  const bytes = readInput(path);
  const c = parseContainer(bytes);
  for (const f of c.findings) {
    if (f.kind === 'extra-bytes') process.stderr.write(`iridia sign: ${path}: ${f.message}; they are not written\n`);
  }
  const signed = signContainer(bytes);
  writeBinary(out, signed);
  if (json)
    writeJson('sign', {
      path,
      output: out,
      size: signed.byteLength,
      digestBefore: hexBytes(c.digest),
      stateBefore: digestState(c),
      digest: hexBytes(signed.subarray(4, 20)),
    });
  return 0;
}
