// `iridia decompile [--hlsl | --wgsl] FILE [-o OUT]`: a lifted program made readable (docs/decompile.md)
// — HLSL (the default) or readable WGSL, with the container's names. A program the decompiler
// cannot yet make readable is refused by name (E603), never printed as something else.
// `iridia decompile [--hlsl | --wgsl] FILE... --out-dir DIR [--root R] [--json]`: one .hlsl (or
// .wgsl) per input; --json prints the batch summary with refusals counted by reason.

import { statSync } from 'node:fs';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { fileStartsWith, progressBar, readInput, runBatch, walkPaths, writeOutput } from '../io.js';
import { decompile, decompiledHlsl, decompiledWgsl, DecompileRefusal } from '../../decompile/index.js';
import { LiftRefusal } from '../../lift/refuse.js';
import { IridiaError } from '../../errors.js';

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    '--hlsl': {},
    '--wgsl': {},
    '-o': { value: true, aliases: ['--output'] },
    '--out-dir': { value: true },
    '--root': { value: true },
    '--json': {},
  });
  if (flag(args, '--hlsl') && flag(args, '--wgsl')) throw new UsageError('decompile takes --hlsl or --wgsl, not both');
  const wgsl = flag(args, '--wgsl');
  const text = (bytes: Uint8Array): string => {
    const d = decompile(bytes);
    return wgsl ? decompiledWgsl(d) : decompiledHlsl(d);
  };
  if (args.positional.length === 0) throw new UsageError('decompile takes a FILE');
  const outDir = value(args, '--out-dir');
  if (outDir === undefined) {
    if (args.positional.length !== 1) throw new UsageError('decompile takes one FILE (or FILE... --out-dir DIR)');
    const out = text(readInput(args.positional[0]!));
    const o = value(args, '-o');
    if (o !== undefined) writeOutput(o, out);
    else process.stdout.write(out);
    return 0;
  }
  if (value(args, '-o') !== undefined) throw new UsageError('decompile takes -o or --out-dir, not both');
  const inputs = args.positional.flatMap((p) =>
    statSync(p).isDirectory() ? [...walkPaths([p])].filter((f) => fileStartsWith(readInput(f), 'DXBC')) : [p],
  );
  const refusals = new Map<string, number>();
  const bar = progressBar('decompile');
  const result = runBatch(
    inputs,
    { outDir, root: value(args, '--root') ?? '.', ext: wgsl ? '.wgsl' : '.hlsl', progress: bar },
    (b) => {
      try {
        return text(b);
      } catch (e) {
        const reason =
          e instanceof DecompileRefusal
            ? `decompile: ${e.category}`
            : e instanceof LiftRefusal
              ? `lift: ${e.category}`
              : e instanceof IridiaError
                ? e.code
                : 'internal error';
        refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
        throw e;
      }
    },
  );
  bar.end();
  const byReason = Object.fromEntries([...refusals].sort((a, b) => b[1] - a[1]));
  if (flag(args, '--json')) process.stdout.write(`${JSON.stringify({ ...result, refusals: byReason }, null, 2)}\n`);
  else {
    for (const f of result.failed) process.stderr.write(`iridia decompile: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${result.written} of ${result.inputs} decompiled into ${outDir}\n`);
    for (const [r, n] of Object.entries(byReason)) process.stdout.write(`  ${n} ${r}\n`);
  }
  return result.failed.length ? 1 : 0;
}
