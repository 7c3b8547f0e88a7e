// `iridia decompile [--hlsl | --wgsl] [--json] FILE [-o OUT]`: a lifted program made readable (docs/decompile.md)
// — HLSL (the default) or readable WGSL, with the container's names. A program the decompiler
// cannot yet make readable is refused by name (E603), never printed as something else.
// `iridia decompile [--hlsl | --wgsl] FILE... --out-dir DIR [--root R] [--json]`: one .hlsl (or
// .wgsl) per input; --json prints the batch summary with refusals counted by reason.

import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, batchInputs, progressBar, readInput, runBatch, writeJson, writeText } from '../io.js';
import { decompile, decompiledHlsl, decompiledWgsl, DecompileRefusal } from '../../decompile/index.js';
import { LiftRefusal } from '../../lift/refuse.js';
import { IridiaError } from '../../errors.js';

export const help = `usage: iridia decompile [--hlsl | --wgsl] [--json] [-o OUT] FILE
       iridia decompile [--hlsl | --wgsl] FILE... --out-dir DIR [--root R] [--json]

The lifted program made readable (docs/decompile.md): registers turned into values, bitcasts gone
where the types agree, single-use values folded, and the container's names (RDEF constant buffers
and resources, signature semantics), printed as HLSL (Shader Model 5 syntax) or as readable WGSL. The
test suite proves each readable program by running it beside the lifted one on the executor. What
cannot yet be made readable is refused by name (E603), never printed as something else.

options:
  FILE            the input (a DXBC or DXIL container); - reads standard input
  --hlsl          print HLSL (the default)
  --wgsl          print readable WGSL instead
  -o, --output OUT  write the program to OUT instead of standard output
  --json          one JSON object (schema iridia.decompile/1, docs/json.md): the program as "text";
                  with --out-dir, the batch summary with refusals counted by reason
  --out-dir DIR   a batch: one DIR/<input relative to the root>.hlsl (or .wgsl) per input (folders
                  give the containers under them); a failing input is reported and the run goes on
  --root R        the folder the inputs' paths are taken relative to (default: .)

example:
  iridia decompile examples/vertex-color.dxbc
`;

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    '--hlsl': {},
    '--wgsl': {},
    ...OUTPUT_FLAGS,
    '--out-dir': { value: true },
    '--root': { value: true },
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
    const path = args.positional[0]!;
    const out = text(readInput(path));
    if (flag(args, '--json'))
      writeJson('decompile', { path, language: wgsl ? 'wgsl' : 'hlsl', text: out }, value(args, '-o'));
    else writeText(value(args, '-o'), out);
    return 0;
  }
  if (value(args, '-o') !== undefined) throw new UsageError('decompile takes -o or --out-dir, not both');
  const inputs = batchInputs(args.positional);
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
  if (flag(args, '--json')) writeJson('decompile', { outDir, ...result, refusals: byReason });
  else {
    for (const f of result.failed) process.stderr.write(`iridia decompile: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${result.written} of ${result.inputs} decompiled into ${outDir}\n`);
    for (const [r, n] of Object.entries(byReason)) process.stdout.write(`  ${n} ${r}\n`);
  }
  return result.failed.length ? 1 : 0;
}
