// `iridia strip [--reflect] [--debug] [--priv] [--rootsignature] FILE [-o OUT] [--json]`: fxc's
// /Qstrip_reflect, /Qstrip_debug, /Qstrip_priv and /Qstrip_rootsignature (D3DStripShader's
// D3DCOMPILER_STRIP_REFLECTION_DATA 0x1, _DEBUG_INFO 0x2, _PRIVATE_DATA 0x8, _ROOT_SIGNATURE 0x10)
// on a container already compiled: the parts each flag names are removed (STRIP_PARTS), the others
// are written back in their order with their bytes as they are, and the container is re-signed. The
// parts per flag: reflection RDEF and STAT (Wine's and vkd3d's d3dcompiler check_blob_strip list these
// two); debug SDBG (the debug part of fxc's Direct3D 10 era), SPDB (fxc /Zi's embedded PDB) and ILDB
// (dxc /Zi's DXIL with debug information); private data PRIV (fxc /setprivate); root signature RTS0.
// Gaps and trailing bytes between parts are not parts and are not written (said on stderr).

import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, readInput, writeBinary, writeJson } from '../io.js';
import { parseContainer, printableKind, serializeContainer } from '../../container/container.js';

/** The part kinds each flag removes. */
export const STRIP_PARTS: Readonly<Record<'reflect' | 'debug' | 'priv' | 'rootsignature', readonly string[]>> = {
  reflect: ['RDEF', 'STAT'],
  debug: ['SDBG', 'SPDB', 'ILDB'],
  priv: ['PRIV'],
  rootsignature: ['RTS0'],
};

export const help = `usage: iridia strip [--reflect] [--debug] [--priv] [--rootsignature] FILE [-o OUT] [--json]

Removes parts from a compiled container as fxc's /Qstrip_* options (D3DStripShader) do, and writes it
re-signed; every other part is kept byte for byte, in its order.

options:
  FILE             the container; - reads standard input
  --reflect        /Qstrip_reflect (D3DCOMPILER_STRIP_REFLECTION_DATA): removes ${STRIP_PARTS.reflect.join(', ')}
  --debug          /Qstrip_debug (D3DCOMPILER_STRIP_DEBUG_INFO): removes ${STRIP_PARTS.debug.join(', ')}
  --priv           /Qstrip_priv (D3DCOMPILER_STRIP_PRIVATE_DATA): removes ${STRIP_PARTS.priv.join(', ')}
  --rootsignature  /Qstrip_rootsignature (D3DCOMPILER_STRIP_ROOT_SIGNATURE): removes ${STRIP_PARTS.rootsignature.join(', ')}
                   (at least one of the four)
  -o, --output OUT  where the container goes (- or none: standard output, never a terminal)
  --json           also print one JSON object (schema iridia.strip/1, docs/json.md): the parts
                   removed and kept; needs -o OUT

example:
  iridia strip --reflect --debug examples/vertex-color.dxbc -o stripped.dxbc
`;

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    ...OUTPUT_FLAGS,
    '--reflect': {},
    '--debug': {},
    '--priv': {},
    '--rootsignature': {},
  });
  if (args.positional.length !== 1) throw new UsageError('strip takes one FILE');
  const chosen = (Object.keys(STRIP_PARTS) as (keyof typeof STRIP_PARTS)[]).filter((k) => flag(args, `--${k}`));
  if (chosen.length === 0)
    throw new UsageError('strip takes at least one of --reflect, --debug, --priv, --rootsignature');
  const out = value(args, '-o');
  const json = flag(args, '--json');
  if (json && (out === undefined || out === '-'))
    throw new UsageError('strip --json prints JSON on standard output: give -o OUT for the container');
  const path = args.positional[0]!;
  const c = parseContainer(readInput(path));
  const drop = new Set(chosen.flatMap((k) => STRIP_PARTS[k]));
  const kept = c.parts.filter((p) => !drop.has(p.kind));
  const removed = c.parts.filter((p) => drop.has(p.kind));
  for (const f of c.findings)
    if (f.kind === 'gap' || f.kind === 'trailing' || f.kind === 'extra-bytes')
      process.stderr.write(`iridia strip: ${path}: ${f.message}; they are not written\n`);
  const bytes = serializeContainer(kept, { version: c.version });
  writeBinary(out, bytes);
  if (json)
    writeJson('strip', {
      path,
      output: out,
      flags: chosen,
      removed: removed.map((p) => printableKind(p.kind)),
      kept: kept.map((p) => printableKind(p.kind)),
      size: bytes.byteLength,
    });
  return 0;
}
