// SDBG: the debug information of fxc 9.x /Zi builds of Shader Model 4 and 5 programs, laid out as
// D3D10_SHADER_DEBUG_INFO (d3d10_1shader.h): a 21-word header whose offsets count from the header's
// end, then files, per-instruction records (source token, outputs with the variable and value
// range each written lane holds), variables, inputs, tokens, scopes and scope variables, a u32
// store and a string store. What D3DDisassemble prints from it, read from its listings:
// - a blank line and `#line N "path"` before the first instruction with a line, and a blank line
//   and `#line N` (with the path where the file changes) wherever the line or file changes; in
//   eras 9.29 and 9.30 (fxc 9.29.952 and 9.30.9200: D3DCompiler_43, d3dcompiler_46) only where the
//   file changes or the line moves by more than 2 from the previous record's or more than 10 from
//   the last directive's (see `lineMoves`);
// - after an instruction, the lanes it writes that hold a variable: `name<lane info,...>` per
//   variable, `, ` between variables; a lane's info is its offset in the variable, `:NaN` and
//   `:Inf` where a float lane may hold them, and `: Vf` where its float range is one value V; an
//   indexed output names the index register (`BCHS[r0.x]`);
// - records are numbered over the instructions that are not declarations, hs_fork_phase and the
//   other phase starts counted but not annotated; an instruction past the records gets
//   "// <internal error> incorrect instruction offset in debug info" before and after it.

import { ByteReader } from '../binary/reader.js';
import { formatG } from '../d3d9/literal.js';
import type { ListingAnnotations } from '../disasm/annotations.js';
import { SDBG_10, type SdbgEra, type SdbgLineMoves } from '../disasm/era.js';
import { IridiaError } from '../errors.js';
import { isDeclaration, type AnnotatedInstruction } from './instructions.js';
import type { DebugInfo, LineInfo, Scope, SourceFile, Variable, VariableLocation } from './model.js';

const HEADER_WORDS = 21;
const HEADER_SIZE = HEADER_WORDS * 4;
const FILE_SIZE = 16;
const INSTRUCTION_SIZE = 396;
const OUTPUT_SIZE = 180;
const OUTPUT_VAR_SIZE = 36;
const VAR_SIZE = 24;
const TOKEN_SIZE = 20;
const SCOPE_SIZE = 20;
const SCOPE_VAR_SIZE = 44;
const NONE = 0xffffffff;
const SVT_INT = 2;
const SVT_FLOAT = 3;
const SVT_UINT = 19;
const FLT_MAX = 3.4028234663852886e38;
const INT_MIN = -0x80000000;
const INT_MAX = 0x7fffffff;
const UINT_MAX = 0xffffffff;

export interface SdbgLane {
  /** The variable record the lane writes (an index into `variables`). */
  readonly variable: number;
  readonly nanPossible: boolean;
  readonly infPossible: boolean;
  readonly floatMin: number;
  readonly floatMax: number;
  readonly intMin: number;
  readonly intMax: number;
  readonly uintMin: number;
  readonly uintMax: number;
}

export interface SdbgOutput {
  /** D3D10_SHADER_DEBUG_REGTYPE: 0 input, 1 output, 4 temp, 5 indexable temp, ... */
  readonly registerSet: number;
  readonly register: number;
  /** Per lane x..w, the lane's record or undefined where the lane is masked out or holds no variable. */
  readonly lanes: readonly (SdbgLane | undefined)[];
  /** The register that indexes the output (r#), or undefined. */
  readonly indexRegister: number | undefined;
  readonly indexComponent: number;
}

export interface SdbgInstruction {
  readonly id: number;
  readonly opcode: number;
  readonly outputs: readonly SdbgOutput[];
  /** The source position of the instruction, from its token. */
  readonly file: number;
  readonly line: number;
}

export interface SdbgVariable {
  /** Name of the declaring token ('Output', 'RenderSceneVS' for a return value). */
  readonly name: string;
  /** D3D10_SHADER_VARIABLE_TYPE. */
  readonly type: number;
  readonly scopeVariable: number;
  /** The lane's place in the whole variable. */
  readonly offset: number;
}

export interface SdbgScope {
  /** D3D10_SHADER_DEBUG_SCOPETYPE: 0 global, 1 block, 2 for loop, 3 struct, 4 function parameters, ... */
  readonly type: number;
  readonly name: string;
  /** Indices into `scopeVariables`. */
  readonly scopeVariables: readonly number[];
}

/** An SDBG part as stored (D3D10_SHADER_DEBUG_INFO). */
export interface Sdbg {
  readonly creator: string;
  readonly entryPoint: string;
  readonly target: string;
  readonly compileFlags: number;
  readonly files: readonly SourceFile[];
  readonly instructions: readonly SdbgInstruction[];
  readonly variables: readonly SdbgVariable[];
  readonly scopeVariables: readonly { readonly name: string; readonly variables: number }[];
  readonly scopes: readonly SdbgScope[];
}

/** Reads an SDBG part's bytes. `base` is the part data's offset in the container (for errors). */
export function readSdbg(bytes: Uint8Array, base = 0): Sdbg {
  const head = new ByteReader(bytes, { where: 'SDBG', base, code: 'E504_DEBUG_BAD' });
  const h: number[] = [];
  for (let i = 0; i < HEADER_WORDS; i++) h.push(head.u32At(4 * i, 'the SDBG header'));
  const [size, creatorAt, entryAt, targetAt, compileFlags, fileCount, fileAt, instCount, instAt, varCount, varAt] = h;
  const [
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    tokenCount,
    tokenAt,
    scopeCount,
    scopeAt,
    scopeVarCount,
    scopeVarAt,
    uintAt,
    stringAt,
  ] = h;
  if (size !== HEADER_SIZE)
    throw new IridiaError('E504_DEBUG_BAD', `the SDBG header size is ${size!}, not ${HEADER_SIZE}`, {
      offset: base,
      part: 'SDBG',
    });
  const r = head.sub(HEADER_SIZE, bytes.byteLength - HEADER_SIZE, 'the SDBG data');
  const table = (at: number, count: number, recordSize: number, what: string): void => {
    if (count > r.length / recordSize) throw r.fail('E504_DEBUG_BAD', `${count} ${what} do not fit the part`, at);
    r.require(at, count * recordSize, `the ${what}`);
  };
  table(fileAt!, fileCount!, FILE_SIZE, 'files');
  table(instAt!, instCount!, INSTRUCTION_SIZE, 'instruction records');
  table(varAt!, varCount!, VAR_SIZE, 'variables');
  table(tokenAt!, tokenCount!, TOKEN_SIZE, 'tokens');
  table(scopeAt!, scopeCount!, SCOPE_SIZE, 'scopes');
  table(scopeVarAt!, scopeVarCount!, SCOPE_VAR_SIZE, 'scope variables');
  const strings = r.sub(stringAt!, r.length - stringAt!, 'the SDBG strings');
  const text = (offset: number, length: number, what: string): string => {
    const bytesOf = strings.slice(offset, length, what);
    let s = '';
    for (const b of bytesOf) s += String.fromCharCode(b);
    return s;
  };

  const files: SourceFile[] = [];
  for (let i = 0; i < fileCount!; i++) {
    const at = fileAt! + i * FILE_SIZE;
    const path = text(r.u32At(at), r.u32At(at + 4), 'a file name');
    const data = text(r.u32At(at + 8), r.u32At(at + 12), 'a file text');
    files.push({ path, text: data });
  }
  const token = (i: number): { file: number; line: number; name: string } => {
    if (i >= tokenCount!) return { file: 0, line: 0, name: '' };
    const at = tokenAt! + i * TOKEN_SIZE;
    return {
      file: r.u32At(at),
      line: r.u32At(at + 4),
      name: text(r.u32At(at + 16), r.u32At(at + 12), 'a token'),
    };
  };

  const sdbgVariables: SdbgVariable[] = [];
  for (let i = 0; i < varCount!; i++) {
    const at = varAt! + i * VAR_SIZE;
    sdbgVariables.push({
      name: token(r.u32At(at)).name,
      type: r.u32At(at + 4),
      scopeVariable: r.u32At(at + 16),
      offset: r.u32At(at + 20),
    });
  }

  const instructions: SdbgInstruction[] = [];
  for (let i = 0; i < instCount!; i++) {
    const at = instAt! + i * INSTRUCTION_SIZE;
    const count = r.u32At(at + 8, 'an output count');
    if (count > 2) throw r.fail('E504_DEBUG_BAD', `instruction record ${i} has ${count} outputs, more than 2`, at + 8);
    const outputs: SdbgOutput[] = [];
    for (let o = 0; o < count; o++) {
      const p = at + 12 + o * OUTPUT_SIZE;
      const lanes: (SdbgLane | undefined)[] = [];
      for (let c = 0; c < 4; c++) {
        const v = p + 28 + c * OUTPUT_VAR_SIZE;
        const variable = r.u32At(v);
        if (r.u32At(p + 12 + 4 * c) === NONE || variable === NONE) {
          lanes.push(undefined);
          continue;
        }
        if (variable >= varCount!)
          throw r.fail('E504_DEBUG_BAD', `instruction record ${i} names variable ${variable} of ${varCount!}`, v);
        lanes.push({
          variable,
          uintMin: r.u32At(v + 4),
          uintMax: r.u32At(v + 8),
          intMin: r.i32At(v + 12),
          intMax: r.i32At(v + 16),
          floatMin: r.f32At(v + 20),
          floatMax: r.f32At(v + 24),
          nanPossible: r.u32At(v + 28) !== 0,
          infPossible: r.u32At(v + 32) !== 0,
        });
      }
      const indexRegister = r.u32At(p + 172);
      outputs.push({
        registerSet: r.u32At(p),
        register: r.u32At(p + 4),
        lanes,
        indexRegister: indexRegister === NONE ? undefined : indexRegister,
        indexComponent: r.u32At(p + 176),
      });
    }
    const t = token(r.u32At(at + 12 + 2 * OUTPUT_SIZE));
    instructions.push({ id: r.u32At(at), opcode: r.u32At(at + 4), outputs, file: t.file, line: t.line });
  }

  const scopeVariables: { name: string; variables: number }[] = [];
  for (let i = 0; i < scopeVarCount!; i++) {
    const at = scopeVarAt! + i * SCOPE_VAR_SIZE;
    scopeVariables.push({ name: token(r.u32At(at)).name, variables: r.u32At(at + 36) });
  }
  const uints = r.sub(uintAt!, Math.max(0, Math.min(stringAt!, r.length) - uintAt!), 'the SDBG u32 store');
  const scopes: SdbgScope[] = [];
  for (let i = 0; i < scopeCount!; i++) {
    const at = scopeAt! + i * SCOPE_SIZE;
    const name = text(r.u32At(at + 4), r.u32At(at + 8), 'a scope name');
    const n = r.u32At(at + 12);
    const list = r.u32At(at + 16);
    uints.require(list, n * 4, 'a scope variable list');
    const members: number[] = [];
    for (let k = 0; k < n; k++) members.push(uints.u32At(list + 4 * k));
    scopes.push({ type: r.u32At(at), name, scopeVariables: members });
  }
  const str = (offset: number): string => strings.cstringAt(offset, 'a header string');
  return {
    creator: str(creatorAt!),
    entryPoint: str(entryAt!),
    target: str(targetAt!),
    compileFlags: compileFlags!,
    files,
    instructions,
    variables: sdbgVariables,
    scopeVariables,
    scopes,
  };
}

/** Which record describes each counted instruction: records number the instructions that are not
 * declarations, the phase starts of a hull program counted (D3DDisassemble's numbering); a phase
 * start is in the map only where `phases` (fxc 9.29's disassembler annotates them, later ones not). */
function recordsOf(
  sdbg: Sdbg,
  program: readonly AnnotatedInstruction[],
  phases = false,
): Map<AnnotatedInstruction, SdbgInstruction | undefined> {
  const out = new Map<AnnotatedInstruction, SdbgInstruction | undefined>();
  let index = 0;
  for (const ins of program) {
    const phase = CODE_PHASES.has(ins.opcode);
    if (isDeclaration(ins.opcode, ins.dataClass) && !phase) continue;
    const record = sdbg.instructions[index++];
    if (!phase || phases) out.set(ins, record);
  }
  return out;
}

/** hs_control_point_phase, hs_fork_phase, hs_join_phase: counted by the records, not annotated. */
const CODE_PHASES = new Set([0x72, 0x73, 0x74]);

/** The tools' model of an SDBG: files, lines by instruction offset, variables by the lanes written. */
export function sdbgDebugInfo(sdbg: Sdbg, program: readonly AnnotatedInstruction[]): DebugInfo {
  const lines = new Map<number, LineInfo>();
  const locations = new Map<number, VariableLocation[]>();
  for (const [ins, record] of recordsOf(sdbg, program)) {
    if (!record) continue;
    lines.set(ins.offset, { file: record.file, line: record.line });
    for (const out of record.outputs) {
      out.lanes.forEach((lane, c) => {
        if (!lane) return;
        const v = sdbg.variables[lane.variable]!;
        const [prefix, operandType] = REGISTER_SETS[out.registerSet] ?? [`reg${out.registerSet}_`, -1];
        const list = locations.get(v.scopeVariable) ?? [];
        list.push({
          register: `${prefix}${out.register}.${'xyzw'[c]!}`,
          registerType: operandType,
          indices: [out.register],
          component: c,
          offset: v.offset,
          size: 4,
          member: '',
          // SDBG records writes, not ranges: the location is known from the writing instruction's end.
          start: ins.next,
          end: ins.next,
          gaps: [],
        });
        locations.set(v.scopeVariable, list);
      });
    }
  }
  const variables: Variable[] = sdbg.scopeVariables.map((sv, i) => ({
    name: sv.name,
    typeName: '',
    locations: locations.get(i) ?? [],
  }));
  const scopes: Scope[] = sdbg.scopes.map((sc) => ({
    kind: 'block',
    name: sc.name,
    rows: [],
    variables: sc.scopeVariables.map((i) => variables[i]).filter((v): v is Variable => v !== undefined),
    children: [],
  }));
  return { format: 'SDBG', files: sdbg.files, scopes, lineAt: (offset) => lines.get(offset) };
}

/** D3D10_SHADER_DEBUG_REGTYPE -> the register's letter and the token stream's operand type. */
const REGISTER_SETS: Record<number, readonly [string, number]> = {
  0: ['v', 1],
  1: ['o', 2],
  2: ['cb', 8],
  3: ['tb', 8],
  4: ['r', 0],
  5: ['x', 3],
  6: ['t', 7],
  7: ['s', 6],
  12: ['u', 30],
};

/**
 * Whether fxc 9.29.952's D3DDisassemble (the June 2010 SDK's D3DCompiler_43) and 9.30.9200's
 * (the Windows 8 SDK's d3dcompiler_46) print `#line` before a record in the same file as the
 * previous one: where its line differs from the previous record's
 * and moves by more than `near` (2) from it or by more than `drift` (10) from the line of the last
 * directive printed, either way, in u32 arithmetic that wraps at 2^32 (`line > previous + 2 ||
 * line + 2 < previous || line > directive + 10 || line + 10 < directive`). Every record sets the
 * previous line, printed or not; a directive (a file change's too) sets the directive line. This
 * is the rule of the Direct3D 9 listings' DBUG lines (docs/d3d9.md, "#line directives"; there the
 * lines never come near 2^32). Today's disassembler prints every change (`moves` undefined).
 *
 * Evidence: the two 9.29 /Zi listings of ../shared/corpus/dxbc, slimshader/BasicHLSLPS.asm and
 * BasicHLSLVS.asm. BasicHLSLPS's records have lines 111,112,112,111,114,111,116 and the listing
 * prints `#line` before 111, 114, 111, 116 only (moves of 1 print nothing; of 3 and 5 they do);
 * BasicHLSLVS's records 10..20 have 76,76,75,75,75,75,75,76,75,75,79: 76 and 79 print and none of
 * the moves of 1 between. Every other move of both is 3 or more and prints. Those two leave the
 * bounds open, so they were settled by running that DLL's D3DDisassemble (under Wine) on copies of
 * BasicHLSLPS.dxbc and BasicHLSLVS.dxbc whose SDBG token lines (and token of a record, and a second
 * file entry) were rewritten and whose container digest was redone; test/debug/sdbg-era.test.ts
 * replays those probes against the directives that DLL printed:
 * - after 111, a record at 105..108 or 114..1000 prints, at 109..113 not: near is 2, both ways;
 * - 111,112,...,116 and 111,113,...,121 print only the first; 111,113,115,117,119,121,122 and
 *   111,110,108,...,100 print the last too: the previous record's line, printed or not, and the
 *   last directive's, more than 10 away;
 * - 0xFFFFFFFE -> 0xFFFFFFFF and 0xFFFFFFFE -> 0 print, 0 -> 1 does not, an equal line never does,
 *   and 0xFFFFFFFA -> 0xFFFFFFF8 prints (0xFFFFFFFA + 10 wraps to 4): the sums wrap;
 * - a record in another file prints `#line N "path"` whatever its line, and the lines after it
 *   count from it; a token's column, or another token on the same line, prints nothing.
 * And 300 random probes of the two programs (lines, files and record tokens rewritten) print the
 * DLL's whole listings byte for byte under era 9.29. d3dcompiler_46.dll 9.30.9200.16384 prints the
 * same directives for every probe of the test, and its whole listings of them equal era 9.30's
 * (the corpus has no 9.30 container with SDBG nor a 9.30 /Zi listing; that DLL's listings of the
 * corpus's 9.30 containers, built by 9.30.9200.20714, equal their `.asm`, see docs/disasm.md).
 * Not probed: a hull program's phase records (counted, not annotated: they stay out of the walk,
 * as today); the 6.3 disassembler (no 6.3 SDBG listing nor DLL at hand: that era keeps today's).
 */
export function lineMoves(line: number, previous: number, directive: number, moves: SdbgLineMoves): boolean {
  if (line === previous) return false;
  const plus = (a: number, b: number): number => (a + b) >>> 0;
  return (
    line > plus(previous, moves.near) ||
    plus(line, moves.near) < previous ||
    line > plus(directive, moves.drift) ||
    plus(line, moves.drift) < directive
  );
}

/** The lines D3DDisassemble prints from an SDBG for the listing of `program`, by the era's rules
 * (era.ts `sdbg`: today's by default). */
export function sdbgAnnotations(
  sdbg: Sdbg,
  program: readonly AnnotatedInstruction[],
  era: SdbgEra = SDBG_10,
): ListingAnnotations {
  const before = new Map<number, readonly string[]>();
  const after = new Map<number, readonly string[]>();
  const suffix = new Map<number, string>();
  const moves = era.lineMoves;
  let file: number | undefined;
  let line = 0;
  let directive = 0;
  for (const [ins, record] of recordsOf(sdbg, program, era.annotatesPhases)) {
    if (!record) {
      before.set(ins.offset, era.pastRecords.before);
      after.set(ins.offset, era.pastRecords.after);
      continue;
    }
    const changes =
      record.file !== file || (moves ? lineMoves(record.line, line, directive, moves) : record.line !== line);
    if (changes) {
      const path = sdbg.files[record.file]?.path ?? '';
      before.set(ins.offset, ['', record.file !== file ? `#line ${record.line} "${path}"` : `#line ${record.line}`]);
      directive = record.line;
    }
    file = record.file;
    line = record.line;
    const remark = remarkOf(record, sdbg.variables);
    if (remark) suffix.set(ins.offset, `  // ${remark}`);
  }
  return { before, after, suffix };
}

/** `name<lane,...>` per variable the record's outputs write, in lane order. */
function remarkOf(record: SdbgInstruction, variables: readonly SdbgVariable[]): string {
  const groups: { key: string; name: string; lanes: string[] }[] = [];
  for (const out of record.outputs) {
    for (const lane of out.lanes) {
      if (!lane) continue;
      const v = variables[lane.variable]!;
      const index = out.indexRegister === undefined ? '' : `[r${out.indexRegister}.${'xyzw'[out.indexComponent & 3]!}]`;
      const name = `${v.name}${index}`;
      const key = `${v.scopeVariable}:${name}`;
      let g = groups.find((x) => x.key === key);
      if (!g) groups.push((g = { key, name, lanes: [] }));
      g.lanes.push(`${v.offset}${laneRange(v.type, lane)}`);
    }
  }
  return groups.map((g) => `${g.name}<${g.lanes.join(',')}>`).join(', ');
}

/**
 * What a lane's value range adds after its offset, by the variable's type, as the disassemblers of
 * fxc 9.29, 9.30 and 10 all print it (measured by rewriting a lane's D3D10_SHADER_DEBUG_OUTPUTVAR in
 * 9.29 /Zi builds and running each one's D3DDisassemble; test/debug/sdbg-era.test.ts):
 * - float: one value (uValueMin = uValueMax) is `: Vf` (V = fValueMin), and nothing else; otherwise
 *   `:NaN` and `:Inf` where possible, then, unless NaN is, `:[Af,Bf]` where fValueMin > -FLT_MAX
 *   or fValueMax < FLT_MAX;
 * - int: `: V` where iValueMin = iValueMax, else `:[A,B]` unless [INT_MIN, INT_MAX], else
 *   `:[Au,Bu]` of the unsigned range unless [0, UINT_MAX];
 * - uint: `: Vu` where uValueMin = uValueMax, else `:[Au,Bu]` unless [0, UINT_MAX], else the
 *   signed range `:[A,B]` unless [INT_MIN, INT_MAX];
 * - other types: nothing.
 * Floats are msvcrt's %g (`1e+008`, `1.#INF`, `1.#QNAN`), in every era.
 */
function laneRange(type: number, lane: SdbgLane): string {
  const ints = lane.intMin !== INT_MIN || lane.intMax !== INT_MAX ? `:[${lane.intMin},${lane.intMax}]` : '';
  const uints = lane.uintMin !== 0 || lane.uintMax !== UINT_MAX ? `:[${lane.uintMin}u,${lane.uintMax}u]` : '';
  if (type === SVT_INT) return lane.intMin === lane.intMax ? `: ${lane.intMin}` : ints || uints;
  if (type === SVT_UINT) return lane.uintMin === lane.uintMax ? `: ${lane.uintMin}u` : uints || ints;
  if (type !== SVT_FLOAT) return '';
  if (lane.uintMin === lane.uintMax) return `: ${formatFloat(lane.floatMin)}f`;
  let text = (lane.nanPossible ? ':NaN' : '') + (lane.infPossible ? ':Inf' : '');
  if (!lane.nanPossible && (lane.floatMin > -FLT_MAX || lane.floatMax < FLT_MAX))
    text += `:[${formatFloat(lane.floatMin)}f,${formatFloat(lane.floatMax)}f]`;
  return text;
}

/** msvcrt's %g of a float: six significant digits, a three-digit exponent, `1.#INF`, `1.#QNAN`. */
function formatFloat(v: number): string {
  if (Number.isNaN(v)) return '1.#QNAN';
  if (!Number.isFinite(v)) return v < 0 ? '-1.#INF' : '1.#INF';
  if (Object.is(v, -0)) return '-0';
  return formatG(v, 6);
}
