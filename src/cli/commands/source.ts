// `iridia source [--list] [--file N] [--json] [-o OUT] FILE`: the HLSL source a container's debug
// information embeds, whatever its kind: a DXBC /Zi build's SPDB (or fxc 9's SDBG) through
// readContainerDebugInfo, a DXIL /Zi build's SRCI part or its debug module's dx.source.contents
// through readDxilSources (docs/debug.md). Prints one file's text (the main file
// unless --file names another), the files' names with --list, or everything with --json.

import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, readInput, writeJson, writeText } from '../io.js';
import { parseContainer } from '../../container/container.js';
import { readDebugInfo } from '../../debug/index.js';
import { readDxilSources } from '../../dxil/sources.js';
import { IridiaError } from '../../errors.js';

export const help = `usage: iridia source [--list] [--file N] [--json] [-o OUT] FILE

Prints the HLSL source a container's debug information embeds (as UTF-8 text): a DXBC /Zi build's
SPDB (or SDBG), a DXIL /Zi build's SRCI part (its zlib contents inflated) or, without SRCI, its debug
module's dx.source.contents. The main file (the first) unless --file names another.

options:
  FILE          the input; - reads standard input
  --list        the files instead: index, size in bytes and name, one a line, the main file first
  --file N      the file at index N (0 is the main file), or the file of that exact name
  --json        one JSON object (schema iridia.source/1, docs/json.md): where the text came from, every
                file with its text, the main file, and for DXIL the compiler's arguments and defines
  -o, --output OUT
                write to OUT instead of standard output
Exit status 1 when the container embeds no source text (E108_PART_MISSING) or a debug part is broken.

example:
  iridia source --list test/fixtures/dxil-source/Helios__PixelShader.dxil
`;

interface Embedded {
  readonly from: 'SPDB' | 'SDBG' | 'SRCI' | 'ILDB';
  readonly files: readonly { readonly path: string; readonly text: string | null }[];
  readonly mainFile: string | null;
  readonly args: readonly string[];
  readonly defines: readonly string[];
}

/** The container's embedded source, from whichever part holds it. */
function embedded(bytes: Uint8Array): Embedded {
  const c = parseContainer(bytes);
  const dxbc = readDebugInfo(c);
  if (dxbc && dxbc.files.some((f) => f.text !== undefined))
    return {
      from: dxbc.format,
      files: dxbc.files.map((f) => ({ path: f.path, text: f.text ?? null })),
      mainFile: dxbc.files[0]?.path ?? null,
      args: [],
      defines: [],
    };
  const dxil = readDxilSources(c);
  if (dxil)
    return {
      from: dxil.from,
      files: dxil.files,
      mainFile: dxil.mainFile ?? null,
      args: dxil.args,
      defines: dxil.defines,
    };
  throw new IridiaError(
    'E108_PART_MISSING',
    'the container embeds no source text (no SPDB or SDBG with text, no SRCI, no dx.source.contents in ILDB)',
  );
}

export function run(argv: string[]): number {
  const args = parseArgs(argv, { ...OUTPUT_FLAGS, '--json': {}, '--list': {}, '--file': { value: true } });
  if (args.positional.length !== 1) throw new UsageError('source takes one FILE');
  const path = args.positional[0]!;
  const out = value(args, '-o');
  const json = flag(args, '--json');
  const list = flag(args, '--list');
  const pick = value(args, '--file');
  if (json && (list || pick !== undefined))
    throw new UsageError('--json prints every file: leave out --list and --file');
  if (list && pick !== undefined) throw new UsageError('--list prints the names: leave out --file');
  const e = embedded(readInput(path));
  if (json) {
    writeJson('source', { path, ...e }, out);
    return 0;
  }
  if (list) {
    const size = (t: string | null): string =>
      t === null ? 'no text' : `${new TextEncoder().encode(t).byteLength} bytes`;
    writeText(out, e.files.map((f, i) => `${i}  ${size(f.text)}  ${f.path}\n`).join(''));
    return 0;
  }
  let index = 0;
  if (pick !== undefined) {
    index = /^\d+$/.test(pick) ? Number(pick) : e.files.findIndex((f) => f.path === pick);
    if (index < 0 || index >= e.files.length)
      throw new UsageError(
        `--file ${pick}: the container embeds ${e.files.length} file${e.files.length === 1 ? '' : 's'} (${e.files.map((f, i) => `${i} ${f.path}`).join(', ')})`,
      );
  }
  const file = e.files[index]!;
  if (file.text === null)
    throw new IridiaError('E108_PART_MISSING', `${file.path}: the debug information names it but holds no text`);
  writeText(out, file.text);
  return 0;
}
