// `iridia assemble LISTING [--like CONTAINER] [-o OUT] [--json]` and the batch form
// `iridia assemble LISTING... --out-dir DIR [--root R] [--like CONTAINER|DIR] [--json]`: a
// D3DDisassemble-style Shader Model 4/5/5.1 listing back into a container (src/asm, docs/assemble.md).
// With --like the other parts come from that container and its SHEX/SHDR is replaced; the result is
// re-signed. An error names the line and column with the line's text (E901-E907). A Direct3D 9 listing
// (its first statement vs_1_1 .. ps_3_0) becomes a bare Direct3D 9 token stream (src/asm/d3d9), its comment
// blocks (CTAB, DBUG) kept from a --like program.

import { statSync } from 'node:fs';
import { join, relative, resolve, extname } from 'node:path';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, progressBar, readInput, runBatch, walkPaths, writeBinary, writeJson } from '../io.js';
import { assemble, assembleD3D9, isD3D9Listing } from '../../asm/index.js';
import { isD3D9Program } from '../../d3d9/decode.js';
import { IridiaError } from '../../errors.js';

export const help = `usage: iridia assemble LISTING [--like CONTAINER] [-o OUT] [--json]
       iridia assemble LISTING... --out-dir DIR [--root R] [--like CONTAINER|DIR] [--json]

Assembles a Shader Model 4/5/5.1 listing, as D3DDisassemble prints it (any flag word: numbering,
offsets, instructions only, hex literals, debug lines), into a signed container. The comment header
is not read: with --like, RDEF, the signatures, STAT, SFI0, IFCE and the debug parts come from that
container, its SHEX/SHDR is replaced by the new program and STAT's count words are recomputed;
without it the signatures are written from the header's signature tables beside the program, and the
rest is left out. Notes (what was kept, validator-rule problems) go to standard error.

A Direct3D 9 listing (vs_1_1 .. vs_3_0, ps_1_1 .. ps_3_0: its version line says so) becomes a bare
Direct3D 9 token stream; --like names the original program (.d3d9, .vso, .pso bytes), whose
comment blocks (the CTAB constant table, DBUG debug information) are kept; without it none is
written. In a batch, --like DIR takes <relative path>.d3d9 for such a listing.

options:
  LISTING           the listing; - reads standard input
  --like CONTAINER  the container the other parts come from; in a batch, a folder: each listing
                    takes the container at its own relative path with the extension .dxbc
  -o, --output OUT  where the container goes (- or none: standard output, never a terminal)
  --json            also print one JSON object (schema iridia.assemble/1, docs/json.md); needs -o
                    OUT (or --out-dir: the batch summary); an error is a JSON error object with
                    line, column and the line's text
  --out-dir DIR     a batch: one DIR/<listing relative to the root>.dxbc per listing (folders give
                    the .asm files under them); a failing listing is reported and the run goes on
  --root R          the folder the inputs' paths are taken relative to (default: .)

example:
  iridia assemble examples/vertex-color.asm --like examples/vertex-color.dxbc -o vc.dxbc
`;

const decoder = new TextDecoder('latin1');

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    '--like': { value: true },
    '--out-dir': { value: true },
    '--root': { value: true },
    ...OUTPUT_FLAGS,
  });
  const like = value(args, '--like');
  const outDir = value(args, '--out-dir');
  const out = value(args, '-o');
  const json = flag(args, '--json');
  if (args.positional.length === 0) throw new UsageError('assemble takes a LISTING');
  if (outDir === undefined) {
    if (args.positional.length !== 1) throw new UsageError('assemble takes one LISTING (or LISTING... --out-dir DIR)');
    if (json && (out === undefined || out === '-'))
      throw new UsageError('assemble --json prints JSON on standard output: give -o OUT for the container');
    const path = args.positional[0]!;
    if (like !== undefined && isDirectory(like))
      throw new UsageError('--like names a container (a folder only in a batch)');
    const likeBytes = like === undefined ? undefined : readInput(like);
    const text = decoder.decode(readInput(path));
    const r = assembleAny(text, likeBytes);
    writeBinary(out, r.bytes);
    for (const n of r.notes) process.stderr.write(`iridia assemble: ${path}: ${n}\n`);
    if (json)
      writeJson('assemble', {
        path,
        output: out,
        like: like ?? null,
        program: r.program,
        words: r.words,
        instructions: r.instructions,
        size: r.bytes.byteLength,
        notes: r.notes,
      });
    return 0;
  }
  if (out !== undefined) throw new UsageError('-o names one output; with --out-dir the outputs are DIR/...');
  const root = value(args, '--root') ?? '.';
  const inputs = args.positional.flatMap((p) =>
    isDirectory(p) ? [...walkPaths([p])].filter((f) => f.endsWith('.asm')) : [p],
  );
  const likeDir = like !== undefined && isDirectory(like) ? like : undefined;
  const likeBytes = like !== undefined && likeDir === undefined ? readInput(like) : undefined;
  const bar = progressBar('assemble');
  const summary = runBatch(inputs, { outDir, root, ext: '.dxbc', progress: bar }, (b, path) => {
    let l = likeBytes;
    const text = decoder.decode(b);
    if (likeDir !== undefined) {
      const rel = relative(resolve(root), resolve(path));
      const ext = isD3D9Listing(text) ? '.d3d9' : '.dxbc';
      l = readInput(join(likeDir, (extname(rel) ? rel.slice(0, -extname(rel).length) : rel) + ext));
    }
    return assembleAny(text, l).bytes;
  });
  bar.end();
  if (json) writeJson('assemble', { outDir, ...summary });
  else {
    for (const f of summary.failed) process.stderr.write(`iridia assemble: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${summary.written} of ${summary.inputs} assembled into ${outDir}\n`);
  }
  return summary.failed.length ? 1 : 0;
}

/** A Shader Model 4/5 listing into a container, a Direct3D 9 listing into its bare token stream. */
function assembleAny(
  text: string,
  like: Uint8Array | undefined,
): { bytes: Uint8Array; program: string; words: number; instructions: number; notes: readonly string[] } {
  if (isD3D9Listing(text)) {
    if (like !== undefined && !isD3D9Program(like))
      throw new IridiaError(
        'E907_ASM_PROGRAM',
        'the listing is a Direct3D 9 program: --like names the original Direct3D 9 program (.d3d9, .vso, .pso), not a container',
      );
    const r = assembleD3D9(text, like === undefined ? {} : { like });
    const p = r.program;
    const minor = p.minor === 0xff ? 'sw' : p.major === 2 && p.minor === 1 ? 'x' : String(p.minor);
    return {
      bytes: r.bytes,
      program: `${p.library ? 'lib_4_0_' : ''}${p.stage}_${p.major}_${minor}`,
      words: r.bytes.byteLength / 4,
      instructions: p.lines.length,
      notes: r.notes,
    };
  }
  const r = assemble(text, like === undefined ? {} : { like });
  return {
    bytes: r.container,
    program: `${r.program.stage}_${r.program.major}_${r.program.minor}`,
    words: r.program.words.length,
    instructions: r.program.lines.length,
    notes: r.notes,
  };
}
