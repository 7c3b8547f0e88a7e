// `iridia disasm [--flags N] FILE`: the listing Microsoft's D3DDisassemble prints for a container
// (Shader Model 4/5/5.1) or a bare Direct3D 9 program, to standard output.
// --era 10|9.29|9.30|6.3|auto prints the spellings of that compiler era (src/disasm/era.ts; auto:
// the RDEF creator's, 10 without one; default 10).
// `iridia disasm [--flags N] FILE... --out-dir DIR [--root R] [--json]`: one .asm per input, in one
// process; --json prints the batch summary as JSON.

import { statSync } from 'node:fs';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { fileStartsWith, progressBar, readInput, runBatch, walkPaths } from '../io.js';
import { disassembleAny } from '../../disasm/any.js';
import type { EraName } from '../../disasm/era.js';

function parseFlags(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = /^0x[0-9a-f]+$/i.test(text) ? parseInt(text, 16) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new UsageError(`--flags takes a number, not ${text}`);
  return n;
}

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    '--flags': { value: true },
    '--out-dir': { value: true },
    '--root': { value: true },
    '--json': {},
    '--era': { value: true },
  });
  const flags = parseFlags(value(args, '--flags'));
  const eraText = value(args, '--era') ?? '10';
  if (!['10', '9.29', '9.30', '6.3', 'auto'].includes(eraText))
    throw new UsageError(`--era takes 10, 9.29, 9.30, 6.3 or auto, not ${eraText}`);
  const era = eraText as EraName | 'auto';
  const outDir = value(args, '--out-dir');
  if (args.positional.length === 0) throw new UsageError('disasm takes a FILE');
  if (outDir === undefined) {
    if (args.positional.length !== 1) throw new UsageError('disasm takes one FILE (or FILE... --out-dir DIR)');
    process.stdout.write(disassembleAny(readInput(args.positional[0]!), flags, { era }));
    return 0;
  }
  // Files named directly are disassembled whatever they hold; in folders, only containers.
  const inputs = args.positional.flatMap((p) =>
    statSync(p).isDirectory() ? [...walkPaths([p])].filter((f) => fileStartsWith(readInput(f), 'DXBC')) : [p],
  );
  const bar = progressBar('disasm');
  const summary = runBatch(inputs, { outDir, root: value(args, '--root') ?? '.', ext: '.asm', progress: bar }, (b) =>
    disassembleAny(b, flags, { era }),
  );
  bar.end();
  if (flag(args, '--json')) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    for (const f of summary.failed) process.stderr.write(`iridia disasm: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${summary.written} of ${summary.inputs} disassembled into ${outDir}\n`);
  }
  return summary.failed.length ? 1 : 0;
}
