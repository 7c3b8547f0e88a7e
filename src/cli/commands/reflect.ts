// `iridia reflect [--json] FILE`: a container's reflection (iridia's own view; --json for all of
// it). `iridia reflect --d3d FILE` prints D3DReflect's shape (the oracle's reflect.json schema);
// `iridia reflect --d3d FILE... --out-dir DIR [--root R]` writes one such JSON per input. A container
// with a DXIL program (a DXIL part, or ILDB alone, and no SHEX/SHDR) is reflected from its module's
// metadata (src/reflect/dxil.ts; docs/reflect.md, "DXIL"), every other one as Shader Model 4/5.

import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, batchInputs, progressBar, readInput, runBatch, writeJson, writeText } from '../io.js';
import { parseContainer } from '../../container/container.js';
import { d3dReflectAnyJson, reflectionAnyJson, reflectionAnyText } from '../../reflect/dxil.js';

export const help = `usage: iridia reflect [--json] [-o OUT] FILE
       iridia reflect --d3d [--json] [-o OUT] FILE
       iridia reflect --d3d FILE... --out-dir DIR [--root R] [--json]

A container's reflection: a DXBC program's RDEF, signatures, STAT, SFI0, interfaces and Aon9 tables,
or a DXIL program's module metadata (dx.resources, signatures, shader flags). The text summary names
feature levels as Direct3D does (11_0, 9_1) and bindings by kind and register (sampler s3, texture
float4 2d t0, cbuffer cb0).

options:
  FILE            the input; - reads standard input
  --json          iridia's own view as one JSON object (schema iridia.reflect/1, docs/json.md);
                  its "d3d" member is D3DReflect's shape
  --d3d           D3DReflect's shape alone (the oracle's reflect.json: Desc, ConstantBuffers,
                  BoundResources, ...), without a "schema" member so that it compares with the
                  oracle byte for byte; with --json it is wrapped as {"schema", "path", "d3d"}
  -o, --output OUT  write to OUT instead of standard output
  --out-dir DIR   with --d3d: one DIR/<input relative to the root>.json per input
  --root R        the folder the inputs' paths are taken relative to (default: .)

example:
  iridia reflect examples/vertex-color.dxbc
`;

const d3dText = (bytes: Uint8Array): string => `${JSON.stringify(d3dReflectAnyJson(parseContainer(bytes)))}\n`;

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    ...OUTPUT_FLAGS,
    '--d3d': {},
    '--out-dir': { value: true },
    '--root': { value: true },
  });
  const outDir = value(args, '--out-dir');
  const out = value(args, '-o');
  const json = flag(args, '--json');
  if (args.positional.length === 0) throw new UsageError('reflect takes a FILE');
  if (outDir !== undefined) {
    if (!flag(args, '--d3d')) throw new UsageError('--out-dir goes with --d3d');
    if (out !== undefined) throw new UsageError('-o names one output; with --out-dir the outputs are DIR/...');
    // Files named directly are reflected whatever they hold; in folders, only containers.
    const inputs = batchInputs(args.positional);
    const bar = progressBar('reflect');
    const summary = runBatch(inputs, { outDir, root: value(args, '--root') ?? '.', ext: '.json', progress: bar }, (b) =>
      d3dText(b),
    );
    bar.end();
    if (json) {
      writeJson('reflect', { outDir, ...summary });
    } else {
      for (const f of summary.failed) process.stderr.write(`iridia reflect: ${f.path}: ${f.error}\n`);
      process.stdout.write(`${summary.written} of ${summary.inputs} reflected into ${outDir}\n`);
    }
    return summary.failed.length ? 1 : 0;
  }
  if (args.positional.length !== 1) throw new UsageError('reflect takes one FILE (or --d3d FILE... --out-dir DIR)');
  const path = args.positional[0]!;
  const c = parseContainer(readInput(path));
  if (flag(args, '--d3d')) {
    if (json) writeJson('reflect', { path, d3d: d3dReflectAnyJson(c) }, out);
    else writeText(out, `${JSON.stringify(d3dReflectAnyJson(c))}\n`);
    return 0;
  }
  if (json) writeJson('reflect', { path, ...reflectionAnyJson(c) }, out);
  else writeText(out, reflectionAnyText(c));
  return 0;
}
