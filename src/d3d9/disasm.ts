// The Direct3D 9 disassembler: the listing D3DDisassemble prints for a Shader Model 1-3 program, byte for byte.
// Layout: the constant table header (header.ts), the version line, one line per instruction (indented two
// spaces per open if/loop/rep, prefixed by slot numbers under flag 0x04 and byte offsets under 0x20), the debug
// information of a DBUG comment (containers.md, "Debug information of a Direct3D 9 program": the #line
// directives lines.ts decides, and after each record the variables it writes), and the slot count line.
// Flag 0x10 leaves the debug information out; 0x80 prints def values as bit patterns.

import type { IridiaError } from '../errors.js';
import { isIridiaError } from '../errors.js';
import { decodeD3D9, type D3D9Instruction, type D3D9Program, type D3D9Version } from './decode.js';
import { readConstantTable } from './ctab.js';
import { readDebugInfo, type DebugInfo } from './dbug.js';
import { DebugWalk, variableComments } from './lines.js';
import { constantTableHeader } from './header.js';
import { instructionText } from './operands.js';
import { slotCost } from './slots.js';

/** D3D_DISASM_* flags that change a Direct3D 9 listing. */
export const D3D9_FLAGS = {
  numbering: 0x04,
  noDebugInfo: 0x10,
  offsets: 0x20,
  instructionOnly: 0x40,
  hexLiterals: 0x80,
} as const;

export interface D3D9ListingOptions {
  /** Added to the offsets flag 0x20 prints: the program's byte offset in its container (level 9). */
  readonly offsetBase?: number;
  /** Receives errors in the comments (CTAB, DBUG) that leave the rest of the listing printable. */
  readonly diagnostics?: IridiaError[];
}

/** The listing of a Direct3D 9 program, equal to D3DDisassemble(bytes, flags). */
export function disassembleD3D9(bytes: Uint8Array, flags: number, options: D3D9ListingOptions = {}): string {
  return printD3D9(decodeD3D9(bytes), flags, options);
}

export function versionText(v: D3D9Version): string {
  const minor = v.minor === 0xff ? 'sw' : v.major === 2 && v.minor === 1 ? 'x' : String(v.minor);
  // A library function's level-9 program is listed under its library's target (lib_4_0_vs_2_0).
  return `${v.library ? 'lib_4_0_' : ''}${v.stage}_${v.major}_${minor}`;
}

/** Prints a decoded program. */
export function printD3D9(program: D3D9Program, flags: number, options: D3D9ListingOptions = {}): string {
  const { version } = program;
  const soft = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (e) {
      if (!isIridiaError(e)) throw e;
      options.diagnostics?.push(e);
      return undefined;
    }
  };
  let out = '';
  const ctabComment = program.records.find((r) => r.kind === 'comment' && r.fourcc === 'CTAB');
  if (ctabComment?.kind === 'comment' && !(flags & D3D9_FLAGS.instructionOnly)) {
    const ctab = soft(() => readConstantTable(ctabComment.data, ctabComment.offset + 4));
    if (ctab !== undefined) out += constantTableHeader(ctab);
  }
  let debug: DebugInfo | undefined;
  const dbugComment = program.records.find((r) => r.kind === 'comment' && r.fourcc === 'DBUG');
  if (dbugComment?.kind === 'comment' && !(flags & D3D9_FLAGS.noDebugInfo))
    debug = soft(() => readDebugInfo(dbugComment.data, dbugComment.offset + 4));
  const writes = debug === undefined ? undefined : variableComments(debug);

  out += `    ${versionText(version)}\n`;
  const numbering = (flags & D3D9_FLAGS.numbering) !== 0;
  const offsets = (flags & D3D9_FLAGS.offsets) !== 0;
  const base = options.offsetBase ?? 0;
  const textOptions = { hexLiterals: (flags & D3D9_FLAGS.hexLiterals) !== 0 };
  let arithmetic = 0;
  let texture = 0;
  let depth = 0;
  const walk = debug === undefined ? undefined : new DebugWalk(debug);
  for (const record of program.records) {
    if (record.kind !== 'instruction') continue;
    const ins: D3D9Instruction = record;
    const step = walk?.step(ins.offset);
    if (step !== undefined) out += step.directive;
    const cost = slotCost(ins, version);
    let prefix = '';
    // 0x04 alone: "   3: "; with 0x20: "   3  0x00000184: "; unnumbered records leave the number blank.
    const numbered = cost.arithmetic + cost.texture > 0;
    if (numbering) prefix += numbered ? String(arithmetic).padStart(4) + (offsets ? ' ' : ':') : '     ';
    if (offsets)
      prefix += `${numbering ? ' ' : ''}0x${(ins.offset + base).toString(16).toUpperCase().padStart(8, '0')}:`;
    if (prefix) prefix += ' ';
    if (ins.info.block === 'close' || ins.info.block === 'else') depth = Math.max(0, depth - 1);
    out += `${prefix}    ${'  '.repeat(depth)}${instructionText(ins, version, textOptions)}`;
    if (ins.info.block === 'open' || ins.info.block === 'else') depth++;
    const vars = step === undefined ? undefined : writes?.get(step.record);
    if (vars !== undefined) out += `  // ${vars}`;
    out += '\n';
    arithmetic += cost.arithmetic;
    texture += cost.texture;
  }
  if (flags & D3D9_FLAGS.instructionOnly) return out;
  const total = arithmetic + texture;
  out += `\n// approximately ${total} instruction slot${total === 1 ? '' : 's'} used`;
  if (texture > 0) out += ` (${texture} texture, ${arithmetic} arithmetic)`;
  return out + '\n';
}
