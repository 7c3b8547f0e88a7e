// `iridia info FILE`: header, digest state, part table and findings.

import { parseArgs, flag, UsageError } from '../args.js';
import { readInput } from '../io.js';
import { parseContainer, digestState, printableKind } from '../../container/container.js';
import { programInfo } from '../../container/program.js';

const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export function run(argv: string[]): number {
  const args = parseArgs(argv, { '--json': {} });
  if (args.positional.length !== 1) throw new UsageError('info takes one FILE');
  const path = args.positional[0]!;
  const c = parseContainer(readInput(path));
  const state = digestState(c);
  const prog = programInfo(c);
  if (flag(args, '--json')) {
    const out = {
      path,
      size: c.totalSize,
      version: c.version,
      digest: hexBytes(c.digest),
      digestState: state,
      program: prog,
      parts: c.parts.map((p) => ({ kind: printableKind(p.kind), offset: p.offset, size: p.data.byteLength })),
      findings: c.findings,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const lines = [
      `${path}`,
      `  size     ${c.totalSize} bytes`,
      `  version  ${c.version}`,
      `  digest   ${hexBytes(c.digest)} (${state})`,
      `  program  ${prog.target ?? prog.kind}${prog.dxilVersion ? ` (DXIL ${prog.dxilVersion})` : ''}`,
      `  parts    ${c.parts.length}`,
      ...c.parts.map(
        (p, i) =>
          `    ${String(i).padStart(2)}  ${printableKind(p.kind).padEnd(4)}  offset 0x${p.offset.toString(16).padStart(6, '0')}  size ${p.data.byteLength}`,
      ),
    ];
    if (c.findings.length) lines.push('  findings', ...c.findings.map((f) => `    ${f.kind}: ${f.message}`));
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return state === 'stale' ? 1 : 0;
}
