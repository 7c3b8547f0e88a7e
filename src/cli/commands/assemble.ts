// `iridia assemble LISTING [--like CONTAINER] [-o OUT] [--json]` and the batch form
// `iridia assemble LISTING... --out-dir DIR [--root R] [--like CONTAINER|DIR] [--json]`: a
// D3DDisassemble-style Shader Model 4/5/5.1 listing back into a container (src/asm, docs/assemble.md).
// With --like the other parts come from that container and its SHEX/SHDR is replaced; the result is
// re-signed. An error names the line and column with the line's text (E901-E907).

import { statSync } from 'node:fs';
import { join, relative, resolve, extname } from 'node:path';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, progressBar, readInput, runBatch, walkPaths, writeBinary, writeJson } from '../io.js';
import { assemble } from '../../asm/index.js';

export const help = `usage: iridia assemble LISTING [--like CONTAINER] [-o OUT] [--json]
       iridia assemble LISTING... --out-dir DIR [--root R] [--like CONTAINER|DIR] [--json]

Assembles a Shader Model 4/5/5.1 listing, as D3DDisassemble prints it (any flag word: numbering,
offsets, instructions only, hex literals, debug lines), into a signed container. The comment header
is not read: with --like, RDEF, the signatures, STAT, SFI0, IFCE and the debug parts come from that
container, its SHEX/SHDR is replaced by the new program and STAT's count words are recomputed;
without it the signatures are written from the header's signature tables beside the program, and the
rest is left out. Notes (what was kept, validator-rule problems) go to standard error.

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
    const r = assemble(text, likeBytes === undefined ? {} : { like: likeBytes });
    writeBinary(out, r.container);
    for (const n of r.notes) process.stderr.write(`iridia assemble: ${path}: ${n}\n`);
    if (json)
      writeJson('assemble', {
        path,
        output: out,
        like: like ?? null,
        program: `${r.program.stage}_${r.program.major}_${r.program.minor}`,
        words: r.program.words.length,
        instructions: r.program.lines.length,
        size: r.container.byteLength,
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
    if (likeDir !== undefined) {
      const rel = relative(resolve(root), resolve(path));
      l = readInput(join(likeDir, (extname(rel) ? rel.slice(0, -extname(rel).length) : rel) + '.dxbc'));
    }
    return assemble(decoder.decode(b), l === undefined ? {} : { like: l }).container;
  });
  bar.end();
  if (json) writeJson('assemble', { outDir, ...summary });
  else {
    for (const f of summary.failed) process.stderr.write(`iridia assemble: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${summary.written} of ${summary.inputs} assembled into ${outDir}\n`);
  }
  return summary.failed.length ? 1 : 0;
}
