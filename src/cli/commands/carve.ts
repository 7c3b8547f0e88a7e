// `iridia carve FILE... --out-dir DIR [--json]`: finds the containers embedded in any binary
// (src/container/carve.ts) and writes each as DIR/<source file name>@<hex offset>.dxbc (name~2, ~3...
// when two inputs share a file name); says how many
// were found and how many candidates were rejected, by reason. A file that cannot be read is reported
// and the run goes on (exit 1); rejected candidates are not errors.

import { basename, join } from 'node:path';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { describeFailure, progressBar, readInput, walkPaths, writeOutput, type BatchFailure } from '../io.js';
import { count } from './verify.js';
import { carveContainers, type CarveRejection } from '../../container/carve.js';

export function run(argv: string[]): number {
  const args = parseArgs(argv, { '--out-dir': { value: true }, '--json': {} });
  const outDir = value(args, '--out-dir');
  if (args.positional.length === 0) throw new UsageError('carve takes at least one FILE');
  if (outDir === undefined) throw new UsageError('carve needs --out-dir DIR');
  const found: { path: string; offset: number; size: number; digest: string; output: string }[] = [];
  const rejected: Partial<Record<CarveRejection, number>> = {};
  const errors: BatchFailure[] = [];
  const files: string[] = [];
  for (const p of args.positional) {
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
      const r = carveContainers(readInput(path));
      // Two inputs with the same file name (in different folders) get name~2, name~3, ...
      const name = uniqueName(basename(path), names);
      for (const c of r.found) {
        const output = join(outDir, `${name}@${c.offset.toString(16)}.dxbc`);
        writeOutput(output, c.bytes);
        found.push({ path, offset: c.offset, size: c.size, digest: c.digest, output });
      }
      for (const [k, n] of Object.entries(r.rejected) as [CarveRejection, number][])
        rejected[k] = (rejected[k] ?? 0) + n;
    } catch (e) {
      errors.push(describeFailure(path, e));
    }
    bar(i + 1, files.length);
  });
  bar.end();
  const rejectedTotal = Object.values(rejected).reduce((a, b) => a + b, 0);
  if (flag(args, '--json')) {
    const out = { files: files.length, found, rejected, errors };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
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
