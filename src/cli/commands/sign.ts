// `iridia sign FILE [-o OUT]`: writes the container with its digest recomputed (containers.md,
// "Container": the digest and the sizes are the only derived fields). Every other byte is kept as it
// is, gaps and trailing bytes inside the stored size included; bytes after the stored total size are
// not part of the container and are not written (said on stderr). Without -o the container goes to
// stdout, unless stdout is a terminal.

import { parseArgs, value, UsageError } from '../args.js';
import { readInput, writeOutput } from '../io.js';
import { parseContainer, signContainer } from '../../container/container.js';

/** Writes binary output to OUT, or to stdout when no OUT is given and stdout is not a terminal. */
export function writeBinary(out: string | undefined, data: Uint8Array): void {
  if (out !== undefined && out !== '-') {
    writeOutput(out, data);
    return;
  }
  if (process.stdout.isTTY === true) throw new UsageError('refusing to write binary data to a terminal; use -o OUT');
  process.stdout.write(data);
}

export function run(argv: string[]): number {
  const args = parseArgs(argv, { '-o': { value: true, aliases: ['--output'] } });
  if (args.positional.length !== 1) throw new UsageError('sign takes one FILE');
  const path = args.positional[0]!;
  const bytes = readInput(path);
  const c = parseContainer(bytes);
  for (const f of c.findings) {
    if (f.kind === 'extra-bytes') process.stderr.write(`iridia sign: ${path}: ${f.message}; they are not written\n`);
  }
  writeBinary(value(args, '-o'), signContainer(bytes));
  return 0;
}
