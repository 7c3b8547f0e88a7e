// The lines debug information adds to a Shader Model 4/5 listing, by the rules of containers.md,
// "Debug information in Shader Model 4 and 5 (SPDB)":
// - `#line N "path"` before the first instruction with a line; after that, where the line or the
//   file changes, a blank line and `#line N`, with the path where the file changes or the
//   instruction is a label. An inlined instruction takes its innermost call's row's line.
// - Before the first instruction, "// Initial variable locations:": the locations that hold from
//   the start, a line per run in one register, a scope's nested scopes' variables before its own.
// - After an instruction (not a declaration), the locations whose range or a gap's end is the next
//   instruction's offset, in symbol order (a scope's own before its nested scopes'), an inlined
//   call's only after an instruction in the code it spans; after `else` as "Prior locations".
// Flag 0x10 is the disassembler's business: it does not call the provider then.

import type { Container } from '../container/container.js';
import type { ListingAnnotations } from '../disasm/annotations.js';
import type { Era } from '../disasm/era.js';
import { isIridiaError } from '../errors.js';
import { decodeContainerProgram } from '../sm4/census.js';
import { isDeclaration, type AnnotatedInstruction } from './instructions.js';
import type { DebugInfo, Scope, VariableLocation } from './model.js';
import { readSdbg, sdbgAnnotations, sdbgDebugInfo } from './sdbg.js';
import { readSpdb } from './spdb.js';

const OP_ELSE = 0x12;
const OP_LABEL = 0x2c;

/** The program's instructions as the annotations need them; undefined when there is no program. */
export function annotatedInstructions(container: Container): AnnotatedInstruction[] | undefined {
  const program = decodeContainerProgram(container);
  // Two literal shapes, not a spread of a conditional object (which cost a copy per instruction).
  return program?.instructions.map((i): AnnotatedInstruction => {
    const offset = i.word * 4;
    const next = (i.word + i.length) * 4;
    return i.customData === undefined
      ? { offset, next, opcode: i.opcode }
      : { offset, next, opcode: i.opcode, dataClass: i.customData.dataClass };
  });
}

/** The debug information of a container (SPDB or SDBG), or undefined when it has none. Throws IridiaError. */
export function readDebugInfo(container: Container): DebugInfo | undefined {
  const spdb = container.parts.find((p) => p.kind === 'SPDB');
  if (spdb) return readSpdb(spdb.data, spdb.offset + 8);
  const sdbg = container.parts.find((p) => p.kind === 'SDBG');
  if (sdbg) return sdbgDebugInfo(readSdbg(sdbg.data, sdbg.offset + 8), annotatedInstructions(container) ?? []);
  return undefined;
}

/** The outcome of reading a container's debug information for a listing. */
export interface DebugAnnotationResult {
  readonly annotations: ListingAnnotations | undefined;
  /** Why there are none, when the debug information could not be read. */
  readonly error?: Error;
}

/**
 * The annotation provider of the disassembler: never throws; a container whose debug information
 * is broken gets no annotations, and the listing goes on (see debugAnnotationResult for the error).
 */
export function debugAnnotations(container: Container, era?: Era): ListingAnnotations | undefined {
  return debugAnnotationResult(container, era).annotations;
}

/** `era` is the listing's (disasm/era.ts); without one, today's rules. */
export function debugAnnotationResult(container: Container, era?: Era): DebugAnnotationResult {
  try {
    const instructions = annotatedInstructions(container);
    if (!instructions) return { annotations: undefined };
    const spdb = container.parts.find((p) => p.kind === 'SPDB');
    if (spdb) return { annotations: spdbAnnotations(readSpdb(spdb.data, spdb.offset + 8), instructions) };
    const sdbg = container.parts.find((p) => p.kind === 'SDBG');
    if (sdbg)
      return {
        annotations: sdbgAnnotations(readSdbg(sdbg.data, sdbg.offset + 8), instructions, era?.sdbg),
      };
    return { annotations: undefined };
  } catch (e) {
    if (isIridiaError(e)) return { annotations: undefined, error: e };
    throw e;
  }
}

interface Item {
  readonly location: VariableLocation;
  readonly text: string;
}

const itemText = (name: string, l: VariableLocation): string =>
  `${l.register} <- ${name}${l.component === undefined && l.offset === 0 ? '' : l.member}`;

/**
 * The locations by the offsets where they are written (their range's start and each gap's end), in
 * symbol order: a scope's own variables, then its nested scopes'.
 */
function byWriteOffset(scope: Scope, out: Map<number, { scope: Scope; item: Item }[]>): void {
  for (const v of scope.variables)
    for (const l of v.locations) {
      const entry = { scope, item: { location: l, text: itemText(v.name, l) } };
      // The start, then each gap's end not seen before it (most locations have no gaps).
      for (let g = -1; g < l.gaps.length; g++) {
        const at = g < 0 ? l.start : l.gaps[g]!.end;
        let seen = at === l.start && g >= 0;
        for (let h = 0; h < g && !seen; h++) seen = l.gaps[h]!.end === at;
        if (seen) continue;
        const list = out.get(at);
        if (list) list.push(entry);
        else out.set(at, [entry]);
      }
    }
  for (const c of scope.children) byWriteOffset(c, out);
}

/** Nested scopes' variables before the scope's own (the order of the initial locations). */
function initialOrder(scope: Scope, out: Item[], test: (l: VariableLocation) => boolean): void {
  for (const c of scope.children) initialOrder(c, out, test);
  for (const v of scope.variables)
    for (const l of v.locations) if (test(l)) out.push({ location: l, text: itemText(v.name, l) });
}

/** The stretches of code an inlined call spans: first row to last row, and its nested calls'. */
function spans(scope: Scope, out: Map<Scope, [number, number][]>): [number, number][] {
  const mine: [number, number][] = [];
  if (scope.rows.length) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const r of scope.rows) {
      lo = Math.min(lo, r.start);
      hi = Math.max(hi, r.end);
    }
    mine.push([lo, hi]);
  }
  for (const c of scope.children) mine.push(...spans(c, out));
  out.set(scope, mine);
  return mine;
}

/** The lines an SPDB's information adds to the listing of `instructions`. */
export function spdbAnnotations(info: DebugInfo, instructions: readonly AnnotatedInstruction[]): ListingAnnotations {
  const before = new Map<number, string[]>();
  const suffix = new Map<number, string>();
  const first = instructions.find((i) => !isDeclaration(i.opcode, i.dataClass));
  const scopeSpans = new Map<Scope, [number, number][]>();
  for (const s of info.scopes) spans(s, scopeSpans);
  const written = new Map<number, { scope: Scope; item: Item }[]>();
  for (const s of info.scopes) byWriteOffset(s, written);

  let initial: string[] | undefined;
  if (first) {
    const items: Item[] = [];
    for (const s of info.scopes) initialOrder(s, items, (l) => l.start === first.offset);
    if (items.length) initial = ['//', '// Initial variable locations:', ...runLines(items), '//'];
  }

  let file: number | undefined;
  let line: number | undefined;
  for (const ins of instructions) {
    const at = info.lineAt(ins.offset);
    if (at) {
      const path = info.files[at.file]?.path ?? '';
      if (line === undefined) before.set(ins.offset, [`#line ${at.line} "${path}"`]);
      else if (at.line !== line || at.file !== file)
        before.set(ins.offset, [
          '',
          at.file !== file || ins.opcode === OP_LABEL ? `#line ${at.line} "${path}"` : `#line ${at.line}`,
        ]);
      file = at.file;
      line = at.line;
    }
    if (isDeclaration(ins.opcode, ins.dataClass)) continue;
    const entries = written.get(ins.next);
    if (entries === undefined) continue;
    // The texts of the locations written here, an inlined call's only inside the code it spans.
    let text: string | undefined;
    for (const e of entries) {
      if (e.scope.kind === 'inline' && !inCode(scopeSpans.get(e.scope), ins.offset)) continue;
      text = text === undefined ? e.item.text : `${text}; ${e.item.text}`;
    }
    if (text !== undefined) suffix.set(ins.offset, `  // ${ins.opcode === OP_ELSE ? 'Prior locations: ' : ''}${text}`);
  }
  return initial ? { initial, before, suffix } : { before, suffix };
}

/** Does one of the stretches hold `offset`? */
function inCode(stretches: readonly [number, number][] | undefined, offset: number): boolean {
  if (stretches === undefined) return false;
  for (const [lo, hi] of stretches) if (offset >= lo && offset < hi) return true;
  return false;
}

/** '//   ' lines, one per run of locations in the same register, the runs joined by '; '. */
function runLines(items: readonly Item[]): string[] {
  const lines: string[][] = [];
  let last: string | undefined;
  for (const it of items) {
    const reg = it.location.register.replace(/\.[xyzw]$/, '');
    if (reg !== last || !lines.length) lines.push([]);
    lines[lines.length - 1]!.push(it.text);
    last = reg;
  }
  return lines.map((l, i) => `//   ${l.join('; ')}${i < lines.length - 1 ? '; ' : ''}`);
}
