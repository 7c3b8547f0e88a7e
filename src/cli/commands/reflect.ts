// `iridia reflect [--json] FILE`: a container's reflection (iridia's own view; --json for all of
// it). `iridia reflect --d3d FILE` prints D3DReflect's shape (the oracle's reflect.json schema);
// `iridia reflect --d3d FILE... --out-dir DIR [--root R]` writes one such JSON per input. A container
// with a DXIL program (a DXIL part, or ILDB alone, and no SHEX/SHDR) is reflected from its module's
// metadata (src/reflect/dxil.ts; docs/reflect.md, "DXIL"), every other one as Shader Model 4/5.

import { parseArgs, flag, value, UsageError } from '../args.js';
import { statSync } from 'node:fs';
import { fileStartsWith, progressBar, readInput, runBatch, walkPaths } from '../io.js';
import { parseContainer } from '../../container/container.js';
import { d3dReflectAnyJson, reflectionAnyJson, reflectionAnyText } from '../../reflect/dxil.js';

const d3dText = (bytes: Uint8Array): string => `${JSON.stringify(d3dReflectAnyJson(parseContainer(bytes)))}\n`;

export function run(argv: string[]): number {
  const args = parseArgs(argv, { '--json': {}, '--d3d': {}, '--out-dir': { value: true }, '--root': { value: true } });
  const outDir = value(args, '--out-dir');
  if (args.positional.length === 0) throw new UsageError('reflect takes a FILE');
  if (outDir !== undefined) {
    if (!flag(args, '--d3d')) throw new UsageError('--out-dir goes with --d3d');
    // Files named directly are reflected whatever they hold; in folders, only containers.
    const inputs = args.positional.flatMap((p) =>
      statSync(p).isDirectory() ? [...walkPaths([p])].filter((f) => fileStartsWith(readInput(f), 'DXBC')) : [p],
    );
    const bar = progressBar('reflect');
    const summary = runBatch(inputs, { outDir, root: value(args, '--root') ?? '.', ext: '.json', progress: bar }, (b) =>
      d3dText(b),
    );
    bar.end();
    for (const f of summary.failed) process.stderr.write(`iridia reflect: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${summary.written} of ${summary.inputs} reflected into ${outDir}\n`);
    return summary.failed.length ? 1 : 0;
  }
  if (args.positional.length !== 1) throw new UsageError('reflect takes one FILE (or --d3d FILE... --out-dir DIR)');
  const bytes = readInput(args.positional[0]!);
  if (flag(args, '--d3d')) {
    process.stdout.write(d3dText(bytes));
    return 0;
  }
  const c = parseContainer(bytes);
  process.stdout.write(
    flag(args, '--json') ? `${JSON.stringify(reflectionAnyJson(c), null, 2)}\n` : reflectionAnyText(c),
  );
  return 0;
}
