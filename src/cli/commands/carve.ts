// `iridia carve FILE... --out-dir DIR [--keep-unsigned] [--keep-stale] [--json]`: finds the containers
// embedded in any binary (src/container/carve.ts) and writes each as DIR/<source file name>@<hex
// offset>.dxbc, or .dxil for a container with a DXIL program (name~2, ~3... when two inputs share a
// file name); says how many were found and how many candidates were rejected, by reason (--json: each
// rejected candidate with its file, offset, reason and detail). A file that cannot be read is reported
// and the run goes on (exit 1); rejected candidates are not errors.

import { basename, join } from 'node:path';
import { parseArgs, flag, value, UsageError } from '../args.js';
import {
  describeFailure,
  progressBar,
  readInput,
  walkPaths,
  writeJson,
  writeOutput,
  type BatchFailure,
} from '../io.js';
import { count } from './verify.js';
import { carveContainers, type CarveRejection } from '../../container/carve.js';
import { parseContainer } from '../../container/container.js';

export const help = `usage: iridia carve FILE... --out-dir DIR [--keep-unsigned] [--keep-stale] [--json]

Finds the DXBC/DXIL containers embedded in any binary (game packs, executables, libraries) and writes
each as DIR/<file name>@<hex offset>.dxbc, or .dxil when it holds a DXIL program. A candidate (the
bytes 'DXBC') is kept when its header is plausible (version 1, sizes and part offsets inside the
file), it parses, and its digest verifies; every other one is rejected and counted by reason.

options:
  FILE...          files, or folders (every file under them); - reads standard input (named stdin@...)
  --out-dir DIR    where the containers are written (required)
  --keep-unsigned  also keep containers whose digest is zero (fxc /Qstrip..., dxc without a validator)
  --keep-stale     also keep containers whose digest does not verify (edited, or damaged)
  --json           one JSON object (schema iridia.carve/1, docs/json.md): every container found, the
                   rejections by reason, and each rejected candidate with file, offset, reason, detail
Exit status 1 only when a file cannot be read.

example:
  iridia carve examples/vertex-color.dxbc --out-dir carved --keep-unsigned
`;

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    '--out-dir': { value: true },
    '--json': {},
    '--keep-unsigned': {},
    '--keep-stale': {},
  });
  const outDir = value(args, '--out-dir');
  if (args.positional.length === 0) throw new UsageError('carve takes at least one FILE');
  if (outDir === undefined) throw new UsageError('carve needs --out-dir DIR');
  const options = { unsigned: flag(args, '--keep-unsigned'), stale: flag(args, '--keep-stale') };
  const found: { path: string; offset: number; size: number; digest: string; output: string }[] = [];
  const rejected: Partial<Record<CarveRejection, number>> = {};
  const rejections: { path: string; offset: number; reason: CarveRejection; detail: string }[] = [];
  const errors: BatchFailure[] = [];
  const files: string[] = [];
  for (const p of args.positional) {
    if (p === '-') {
      files.push(p);
      continue;
    }
    try {
      files.push(...walkPaths([p]));
    } catch (e) {
      errors.push(describeFailure(p, e));
    }
  }
  const names = new Set<string>();
  const bar = progressBar('carve');
  files.forEach((path, i) => {
    try {
      const r = carveContainers(readInput(path), options);
      // Two inputs with the same file name (in different folders) get name~2, name~3, ...
      const name = uniqueName(path === '-' ? 'stdin' : basename(path), names);
      for (const c of r.found) {
        const ext = parseContainer(c.bytes).parts.some((p) => p.kind === 'DXIL') ? 'dxil' : 'dxbc';
        const output = join(outDir, `${name}@${c.offset.toString(16)}.${ext}`);
        writeOutput(output, c.bytes);
        found.push({ path, offset: c.offset, size: c.size, digest: c.digest, output });
      }
      for (const [k, n] of Object.entries(r.rejected) as [CarveRejection, number][])
        rejected[k] = (rejected[k] ?? 0) + n;
      for (const x of r.rejections) rejections.push({ path, ...x });
    } catch (e) {
      errors.push(describeFailure(path, e));
    }
    bar(i + 1, files.length);
  });
  bar.end();
  const rejectedTotal = Object.values(rejected).reduce((a, b) => a + b, 0);
  if (flag(args, '--json')) {
    writeJson('carve', { files: files.length, found, rejected, rejections, errors });
  } else {
    const lines = found.map(
      (f) =>
        `0x${f.offset.toString(16).padStart(8, '0')}  ${String(f.size).padStart(8)}  ${f.digest.padEnd(8)}  ${f.output}`,
    );
    for (const e of errors) lines.push(`error ${e.path}: ${e.error}`);
    lines.push(
      `${count(found.length, 'container')} found in ${count(files.length, 'file')}; ${count(rejectedTotal, 'candidate')} rejected`,
    );
    for (const [k, n] of Object.entries(rejected)) lines.push(`  ${String(n).padStart(6)}  ${k}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return errors.length > 0 ? 1 : 0;
}

function uniqueName(name: string, taken: Set<string>): string {
  let n = name;
  for (let i = 2; taken.has(n); i++) n = `${name}~${i}`;
  taken.add(n);
  return n;
}
