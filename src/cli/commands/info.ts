// `iridia info [--json] [-o OUT] FILE`: header, digest state, part table and findings of a container;
// for a bare Direct3D 9 program (no container: its first word a vs/ps version token), its version,
// size and comment blocks (CTAB, DBUG, ...). A level-9 container (an Aon9 part: ps_4_0_level_9_x) says
// so, with the feature level its Direct3D 9 program needs.

import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, readInput, writeJson, writeText } from '../io.js';
import { hasContainerMagic, parseContainer, digestState, printableKind } from '../../container/container.js';
import { programInfo, type ProgramInfo } from '../../container/program.js';
import { readAon9 } from '../../parts/aon9.js';
import { decodeD3D9, isD3D9Program } from '../../d3d9/decode.js';
import { IridiaError } from '../../errors.js';

export const help = `usage: iridia info [--json] [-o OUT] FILE

Header, digest state, part table and findings of one DXBC/DXIL container, or the version and
comment blocks of a bare Direct3D 9 program (the bytes fxc writes for vs_1_1..ps_3_0).
A level-9 container (with an Aon9 part) shows its target as vs/ps_4_0_level_9_x and the feature
level its embedded Direct3D 9 program needs (9_1, or 9_3 for a 2_x program).

options:
  FILE          the input; - reads standard input
  --json        one JSON object (schema iridia.info/1, docs/json.md)
  -o, --output OUT
                write to OUT instead of standard output
Exit status 1 when the digest is stale or the input is not a container or program.

example:
  iridia info examples/vertex-color.dxbc
`;

const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** A level-9 container's level: 9_1 for a 2_0 Direct3D 9 program, 9_3 for a 2_x one (Aon9's program version). */
function level9(c: ReturnType<typeof parseContainer>): { minFeatureLevel: string; d3d9Program: string } | undefined {
  const part = c.parts.find((p) => p.kind === 'Aon9');
  if (!part) return undefined;
  const a = readAon9(part.data, part.offset + 8);
  const v = a.programVersion;
  const stage = v >>> 16 === 0xfffe ? 'vs' : 'ps';
  const minor = v & 0xff;
  return {
    minFeatureLevel: minor >= 1 ? '9_3' : '9_1',
    d3d9Program: `${stage}_${(v >>> 8) & 0xff}_${minor === 1 ? 'x' : minor}`,
  };
}

function targetText(prog: ProgramInfo, l9: ReturnType<typeof level9>): string {
  if (prog.target === undefined) return prog.kind;
  if (l9) return `${prog.target}_level_9_x (feature level ${l9.minFeatureLevel}: a ${l9.d3d9Program} program in Aon9)`;
  return `${prog.target}${prog.dxilVersion ? ` (DXIL ${prog.dxilVersion})` : ''}`;
}

function d3d9Info(path: string, bytes: Uint8Array, json: boolean, out: string | undefined): number {
  const p = decodeD3D9(bytes);
  const target = `${p.version.stage}_${p.version.major}_${p.version.minor === 0xff ? 'sw' : p.version.minor}`;
  const comments = p.records.filter((r) => r.kind === 'comment');
  const instructions = p.records.length - comments.length;
  if (json) {
    writeJson(
      'info',
      {
        path,
        format: 'd3d9',
        size: bytes.byteLength,
        program: { kind: 'd3d9', stage: p.version.stage, major: p.version.major, minor: p.version.minor, target },
        instructions,
        comments: comments.map((c) => ({ fourcc: c.fourcc, offset: c.offset, size: c.data.byteLength })),
        endOffset: p.endOffset,
      },
      out,
    );
  } else {
    const lines = [
      path,
      `  format   Direct3D 9 program (no container)`,
      `  size     ${bytes.byteLength} bytes`,
      `  program  ${target}`,
      `  tokens   ${instructions} instructions, end token at 0x${p.endOffset.toString(16).padStart(6, '0')}`,
      `  comments ${comments.length}`,
      ...comments.map(
        (c, i) =>
          `    ${String(i).padStart(2)}  ${(c.fourcc || '(none)').padEnd(4)}  offset 0x${c.offset.toString(16).padStart(6, '0')}  size ${c.data.byteLength}`,
      ),
    ];
    writeText(out, `${lines.join('\n')}\n`);
  }
  return 0;
}

export function run(argv: string[]): number {
  const args = parseArgs(argv, { ...OUTPUT_FLAGS });
  if (args.positional.length !== 1) throw new UsageError('info takes one FILE');
  const path = args.positional[0]!;
  const out = value(args, '-o');
  const json = flag(args, '--json');
  const bytes = readInput(path);
  if (!hasContainerMagic(bytes) && isD3D9Program(bytes)) return d3d9Info(path, bytes, json, out);
  const c = parseContainer(bytes);
  const state = digestState(c);
  const prog = programInfo(c);
  let l9: ReturnType<typeof level9>;
  try {
    l9 = level9(c);
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    l9 = undefined; // an unreadable Aon9 part: the header and parts are still shown
  }
  if (json) {
    writeJson(
      'info',
      {
        path,
        format: 'container',
        size: c.totalSize,
        version: c.version,
        digest: hexBytes(c.digest),
        digestState: state,
        program: l9 ? { ...prog, level9: l9 } : prog,
        parts: c.parts.map((p) => ({ kind: printableKind(p.kind), offset: p.offset, size: p.data.byteLength })),
        findings: c.findings,
      },
      out,
    );
  } else {
    const lines = [
      `${path}`,
      `  size     ${c.totalSize} bytes`,
      `  version  ${c.version}`,
      `  digest   ${hexBytes(c.digest)} (${state})`,
      `  program  ${targetText(prog, l9)}`,
      `  parts    ${c.parts.length}`,
      ...c.parts.map(
        (p, i) =>
          `    ${String(i).padStart(2)}  ${printableKind(p.kind).padEnd(4)}  offset 0x${p.offset.toString(16).padStart(6, '0')}  size ${p.data.byteLength}`,
      ),
    ];
    if (c.findings.length) lines.push('  findings', ...c.findings.map((f) => `    ${f.kind}: ${f.message}`));
    writeText(out, `${lines.join('\n')}\n`);
  }
  return state === 'stale' ? 1 : 0;
}
