// `iridia disasm [--flags N] [--era E] [-o OUT] [--json] FILE`: the listing Microsoft's D3DDisassemble
// prints for a container (Shader Model 4/5/5.1), a bare Direct3D 9 program, a bare fx_5_0 effect or a
// DXIL container (dxc's /Fc text), and a root-signature container's RTS0 as DirectX Shader Compiler's
// printRootSignature writes it. --era 10|10.0|9.29|9.30|6.3|auto prints the spellings of that compiler era
// (src/disasm/era.ts; auto: the RDEF creator's, 10 without one; default 10).
// `iridia disasm [--flags N] FILE... --out-dir DIR [--root R] [--json]`: one .asm per input, in one
// process; --json prints the batch summary as JSON.

import { parseArgs, flag, value, UsageError } from '../args.js';
import {
  OUTPUT_FLAGS,
  batchInputs,
  outDirSlice,
  progressBar,
  readInput,
  runBatch,
  writeJson,
  writeText,
  type BatchFailure,
} from '../io.js';
import { JOBS_FLAG, PARALLEL_FILES, defaultJobs, jobsOption, outDirOnThreads } from '../pool.js';
import type { DisasmTask } from '../worker.js';
import { disassembleAny } from '../../disasm/any.js';
import type { EraName } from '../../disasm/era.js';
import { isBareEffect } from '../../disasm/effect.js';
import { hasContainerMagic, parseContainer } from '../../container/container.js';

/** D3D_DISASM_* flag words (d3dcompiler.h), by the names --flags takes. */
export const DISASM_FLAG_NAMES: ReadonlyArray<readonly [string, number, string]> = [
  ['color', 0x01, 'D3D_DISASM_ENABLE_COLOR_CODE (HTML colour; iridia prints plain text)'],
  ['defaults', 0x02, 'D3D_DISASM_ENABLE_DEFAULT_VALUE_PRINTS'],
  ['numbering', 0x04, 'D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING: "%4d: " before each instruction'],
  ['cycles', 0x08, 'D3D_DISASM_ENABLE_INSTRUCTION_CYCLE'],
  ['nodebug', 0x10, 'D3D_DISASM_DISABLE_DEBUG_INFO: no /Zi source lines'],
  ['offsets', 0x20, 'D3D_DISASM_ENABLE_INSTRUCTION_OFFSET: "0x%08X: " byte offset before each instruction'],
  ['only', 0x40, 'D3D_DISASM_INSTRUCTION_ONLY: no header, no footer'],
  ['hex', 0x80, 'D3D_DISASM_PRINT_HEX_LITERALS: every literal as 0x%08x'],
];

/** `--flags`: a number (decimal or 0x hex) or names joined by commas or `|` (numbering,offsets). */
export function parseFlags(text: string | undefined): number {
  if (text === undefined) return 0;
  if (/^0x[0-9a-f]+$/i.test(text) || /^\d+$/.test(text)) {
    const n = /^0x/i.test(text) ? parseInt(text, 16) : Number(text);
    if (!Number.isSafeInteger(n) || n > 0xffffffff) throw new UsageError(`--flags ${text} is more than 32 bits`);
    return n;
  }
  let n = 0;
  for (const word of text.split(/[,|]/)) {
    const f = DISASM_FLAG_NAMES.find(([name]) => name === word.trim().toLowerCase());
    if (!f)
      throw new UsageError(
        `--flags takes a number or names (${DISASM_FLAG_NAMES.map(([x]) => x).join(', ')}), not ${JSON.stringify(word)}`,
      );
    n |= f[1];
  }
  return n;
}

export const help = `usage: iridia disasm [--flags N] [--era E] [-o OUT] [--json] FILE
       iridia disasm [--flags N] [--era E] FILE... --out-dir DIR [--root R] [--jobs N] [--json]

The listing Microsoft's D3DDisassemble prints, byte for byte: DXBC containers (Shader Model 4/5/5.1,
level 9, /Zi debug information, shader libraries, fx_4_x effects), bare fx_5_0 effects, bare Direct3D 9 programs, and DXIL containers
(dxc's /Fc text). A root-signature container (RTS0 and no program) prints its root signature as
DirectX Shader Compiler's printRootSignature writes it (dxa -dumprs; dxc -dumpbin refuses such a
container).

options:
  FILE            the input; - reads standard input
  --flags N       the D3D_DISASM_* flag word, a number (0x24) or names joined by commas
                  (numbering,offsets); DXIL and root signatures take no flags:
${DISASM_FLAG_NAMES.map(([name, bit, what]) => `                    ${name.padEnd(10)} 0x${bit.toString(16).padStart(2, '0')}  ${what}`).join('\n')}
  --era E         the compiler era whose spellings to print: 10 (default), 10.0, 9.29, 9.30, 6.3, or auto
                  (the era of the RDEF creator string; 10 without one). src/disasm/era.ts
  -o, --output OUT  write the listing to OUT instead of standard output
  --json          one JSON object (schema iridia.disasm/1, docs/json.md): the listing as "text";
                  with --out-dir, the batch summary
  --out-dir DIR   a batch: one DIR/<input relative to the root>.asm per input (folders give the
                  containers under them); a failing input is reported and the run goes on
  --root R        the folder the inputs' paths are taken relative to (default: .)
  --jobs N        with --out-dir, worker threads that disassemble and write (-j N; 1: all on this
                  one); default: one under 1000 inputs, else the cores Node may use (at most 8).
                  The files written and the summary are the same whatever N

example:
  iridia disasm --flags numbering examples/vertex-color.dxbc
`;

/** What kind of listing the bytes give (the JSON's "format"). */
function formatOf(bytes: Uint8Array): 'dxbc' | 'dxil' | 'd3d9' | 'root-signature' | 'effect' {
  if (!hasContainerMagic(bytes)) return isBareEffect(bytes) ? 'effect' : 'd3d9';
  const kinds = new Set(parseContainer(bytes).parts.map((p) => p.kind));
  if (kinds.has('SHEX') || kinds.has('SHDR')) return 'dxbc';
  if (kinds.has('DXIL')) return 'dxil';
  if (kinds.has('RTS0')) return 'root-signature';
  return 'effect';
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    '--flags': { value: true },
    '--out-dir': { value: true },
    '--root': { value: true },
    '--era': { value: true },
    ...JOBS_FLAG,
    ...OUTPUT_FLAGS,
  });
  const flags = parseFlags(value(args, '--flags'));
  const eraText = value(args, '--era') ?? '10';
  if (!['10', '9.29', '9.30', '6.3', 'auto'].includes(eraText))
    throw new UsageError(`--era takes 10, 9.29, 9.30, 6.3 or auto, not ${eraText}`);
  const era = eraText as EraName | 'auto';
  const outDir = value(args, '--out-dir');
  const json = flag(args, '--json');
  if (args.positional.length === 0) throw new UsageError('disasm takes a FILE');
  if (outDir === undefined) {
    if (args.positional.length !== 1) throw new UsageError('disasm takes one FILE (or FILE... --out-dir DIR)');
    const path = args.positional[0]!;
    const bytes = readInput(path);
    const text = disassembleAny(bytes, flags, { era });
    if (json) writeJson('disasm', { path, format: formatOf(bytes), flags, text }, value(args, '-o'));
    else writeText(value(args, '-o'), text);
    return 0;
  }
  if (value(args, '-o') !== undefined)
    throw new UsageError('-o names one output; with --out-dir the outputs are DIR/...');
  const inputs = batchInputs(args.positional);
  const root = value(args, '--root') ?? '.';
  const jobs = jobsOption(args) ?? (inputs.length < PARALLEL_FILES ? 1 : defaultJobs());
  const bar = progressBar('disasm');
  const summary =
    jobs === 1 || inputs.includes('-')
      ? runBatch(inputs, { outDir, root, ext: '.asm', progress: bar, scratch: true }, (b) =>
          disassembleAny(b, flags, { era }),
        )
      : await outDirOnThreads(
          inputs,
          { outDir, root, ext: '.asm', jobs, progress: bar },
          DISASM_SLICE,
          (paths, outputs) => ({
            op: 'disasm',
            paths,
            outputs,
            flags,
            era,
          }),
        );
  bar.end();
  if (json) writeJson('disasm', { outDir, ...summary });
  else {
    for (const f of summary.failed) process.stderr.write(`iridia disasm: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${summary.written} of ${summary.inputs} disassembled into ${outDir}\n`);
  }
  return summary.failed.length ? 1 : 0;
}

/** Files one worker thread disassembles in one task. */
const DISASM_SLICE = 64;

/** A worker thread's task (src/cli/worker.ts): disassembles and writes one slice of a batch. */
export function disassembleSlice(t: DisasmTask): BatchFailure[] {
  const era = t.era as EraName | 'auto';
  return outDirSlice(t.paths, t.outputs, (b) => disassembleAny(b, t.flags, { era }), true);
}
