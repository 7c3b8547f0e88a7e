// The links between the inspector's panes, computed without a DOM (test/web/link.test.ts runs them in
// Node). A D3DDisassemble listing line is tied to its instruction by the listing D3DDisassemble
// prints under the same flags plus 0x20 (each instruction line then starts with its byte offset,
// lines otherwise the same); the instruction's operands (the core's decoder) give the registers it
// writes and reads; the debug information (SPDB/SDBG) the source line at that byte offset. A DXIL
// listing line is tied to its instruction by counting the instruction lines of the function bodies
// (dxilInstructionLines), the order the DXIL lifter's origins count in.
//
// The WGSL lines of an instruction come from the lifter's provenance: every IR statement carries
// the index of the instruction it came from (src/ir/ir.ts Origin) and emitWgslWithMap gives each
// WGSL line its statements' origins (linesByOrigin). Only where a program comes without that map
// are they matched by the order of writes (wgslLines, the fallback): the n-th write of a register
// component in the listing is the n-th WGSL assignment to that component, and a register whose
// counts disagree is not linked at all rather than linked wrongly.

import type { Sm4Instruction, Sm4Operand, Sm4Program } from '../src/index.js';
import { OPCODES } from '../src/sm4/opcodes.js';
import { REGISTER_NAMES } from '../src/disasm/names.js';

/** Operand types whose first index is the register number (r#, v#, o#, x#, s#, t#, cb#, icb#, u#, g#...). */
const NUMBERED = new Set([0, 1, 2, 3, 6, 7, 8, 9, 16, 25, 26, 27, 30, 31]);

export interface RegisterUse {
  /** The register as the listing names it, lower case: 'r0', 'o1', 'cb0', 'vthreadid'. */
  readonly key: string;
  /** The components it writes (x = bit 0), for a written register. */
  readonly mask: number;
}

export interface InstructionLink {
  /** The instruction's key: its byte offset from the version token (DXBC), its index (DXIL). */
  readonly offset: number;
  /** A DXIL instruction (keyed by its index; no byte offset, no registers). */
  readonly dxil?: true;
  readonly index: number;
  readonly written: readonly RegisterUse[];
  readonly read: readonly string[];
}

/**
 * For each line of a listing, the byte offset of the instruction it prints, from the listing with
 * 0x20 (byte offsets) of the same program: undefined for the lines that print no instruction (or
 * when the two listings do not have the same lines, when nothing is linked).
 */
export function lineOffsets(listing: string, withOffsets: string): (number | undefined)[] | undefined {
  const a = listing.split('\n');
  const b = withOffsets.split('\n');
  if (a.length !== b.length) return undefined;
  const offsets = b.map((line) => {
    const m = /^[\s\d:]*0x([0-9A-F]{8}): /.exec(line);
    return m ? parseInt(m[1]!, 16) : undefined;
  });
  // A level-9 build's listing prints its Direct3D 9 program first, with offsets of its own: the
  // Shader Model 4 program starts at the last line of offset 0 (its version token).
  const start = offsets.lastIndexOf(0);
  return offsets.map((o, i) => (i < start ? undefined : o));
}

function registerKey(o: Sm4Operand): string | undefined {
  const name = REGISTER_NAMES[o.type];
  if (name === undefined) return undefined;
  if (NUMBERED.has(o.type)) {
    const first = o.indices[0];
    if (first === undefined || first.rep !== 0) return name; // x0[r0.x] names x0 below; a bare relative index: the file
    return `${name}${first.imm}`.toLowerCase();
  }
  return name.toLowerCase();
}

/** Registers an operand's relative indices read (cb0[r1.x + 2] reads r1). */
function indexRegisters(o: Sm4Operand, out: Set<string>): void {
  for (const i of o.indices) {
    if (i.rel) {
      const k = registerKey(i.rel);
      if (k) out.add(k);
      indexRegisters(i.rel, out);
    }
  }
}

/** The registers an instruction writes (its destination operands) and reads (the rest). */
export function instructionLink(i: Sm4Instruction): InstructionLink {
  const info = OPCODES[i.opcode];
  const dsts = info && !info.decl ? info.dst.length : 0;
  const written: RegisterUse[] = [];
  const read = new Set<string>();
  i.operands.forEach((o, n) => {
    const key = registerKey(o);
    indexRegisters(o, read);
    if (key === undefined || key === 'null') return;
    if (n < dsts) written.push({ key, mask: o.numComponents === 2 && o.selectionMode === 0 ? o.mask : 1 });
    else read.add(key);
  });
  return { offset: i.word * 4, index: i.index, written, read: [...read] };
}

/** Every instruction of a program by byte offset. */
export function instructionsByOffset(p: Sm4Program): Map<number, InstructionLink> {
  return new Map(p.instructions.map((i) => [i.word * 4, instructionLink(i)]));
}

const COMPONENTS = 'xyzw';

/** The WGSL lines that assign a register component: `r0.x = ...`, `o[1].y = ...`, or all four by `o[1] = ...`. */
function wgslWrites(wgsl: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  wgsl.split('\n').forEach((line, n) => {
    const m = /^\s*(?:([a-z]+)(\d+)|([vo])\[(\d+)\])(?:\.([xyzw]+))?\s*=[^=]/.exec(line);
    if (!m) return;
    const key = m[1] ? `${m[1]}${m[2]}` : `${m[3]}${m[4]}`;
    for (const c of m[5] ?? COMPONENTS) {
      const k = `${key}.${c}`;
      const list = out.get(k) ?? [];
      list.push(n);
      out.set(k, list);
    }
  });
  return out;
}

/**
 * For each instruction (by byte offset), the WGSL lines (0-based) that carry its writes, matched
 * by the order of writes; registers whose write counts differ between the program and the WGSL
 * have no lines.
 */
export function wgslLines(program: readonly InstructionLink[], wgsl: string): Map<number, number[]> {
  const writes = wgslWrites(wgsl);
  const seen = new Map<string, number>();
  const counts = new Map<string, number>();
  const wanted: { offset: number; key: string; n: number }[] = [];
  for (const ins of program) {
    for (const w of ins.written) {
      for (let c = 0; c < 4; c++) {
        if (!(w.mask & (1 << c))) continue;
        const key = `${w.key}.${COMPONENTS[c]}`;
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        wanted.push({ offset: ins.offset, key, n });
      }
    }
  }
  for (const [k, n] of seen) counts.set(k, n);
  const out = new Map<number, number[]>();
  for (const { offset, key, n } of wanted) {
    const lines = writes.get(key);
    if (!lines || lines.length !== counts.get(key)) continue;
    const list = out.get(offset) ?? [];
    const line = lines[n]!;
    if (!list.includes(line)) list.push(line);
    out.set(offset, list);
  }
  return out;
}

/**
 * For each instruction (by key), the WGSL lines (0-based) whose origins hold it: `origins` is
 * emitWgslWithMap's (one list of instruction indices per WGSL line), `keyOf` an instruction index's
 * key (DXBC: its byte offset; DXIL: the index itself; undefined: not linked).
 */
export function linesByOrigin(
  origins: readonly (readonly number[])[],
  keyOf: (index: number) => number | undefined,
): Map<number, number[]> {
  const out = new Map<number, number[]>();
  origins.forEach((list, line) => {
    for (const k of list) {
      const key = keyOf(k);
      if (key === undefined) continue;
      const lines = out.get(key);
      if (lines) lines.push(line);
      else out.set(key, [line]);
    }
  });
  return out;
}

/**
 * For each line of a DXIL listing (src/dxil's disassembleDxil), the index of the instruction it
 * prints, counted over the function bodies in listing order (the DXIL origins of src/ir/ir.ts):
 * inside `define ... {` ... `}`, every line indented by two spaces is one instruction (block labels
 * and their comments start at column 0); undefined for every other line.
 */
export function dxilInstructionLines(listing: string): (number | undefined)[] {
  let n = 0;
  let inBody = false;
  return listing.split('\n').map((line) => {
    if (!inBody) {
      if (line.startsWith('define ') && line.endsWith('{')) inBody = true;
      return undefined;
    }
    if (line === '}') {
      inBody = false;
      return undefined;
    }
    return line.startsWith('  ') ? n++ : undefined;
  });
}

/** The links of a DXIL program's instructions, by index (no byte offsets or registers). */
export function dxilLinks(lines: readonly (number | undefined)[]): Map<number, InstructionLink> {
  const out = new Map<number, InstructionLink>();
  for (const k of lines) if (k !== undefined) out.set(k, { offset: k, index: k, dxil: true, written: [], read: [] });
  return out;
}

/**
 * Whether two spellings name one source file: the debug information's (a DIFile's filename, an
 * SPDB file name) and the embedded source's, slashes either way, letters in either case (the
 * builds are Windows paths), or one a tail of the other at a folder boundary.
 */
export function samePath(a: string, b: string): boolean {
  const norm = (x: string): string => x.replace(/\\/g, '/').toLowerCase();
  const [x, y] = [norm(a), norm(b)];
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}
