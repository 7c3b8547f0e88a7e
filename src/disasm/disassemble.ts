// disassemble(): the text D3DDisassemble (d3dcompiler_47) returns for a Shader Model 4/5/5.1
// container, byte for byte (containers.md, "Shader Model 4 and 5 token streams"; corpus README,
// "NAME.ms.asm"). Layout policy lives here: the comment header (header.ts), the version line, one
// line per declaration and instruction with the flag-word prefixes (0x04 numbering, 0x20 byte
// offsets), flow-control indentation, debug annotations (annotations.ts; skipped under 0x10), and
// the "// Approximately N instruction slots used" footer (STAT's first word; 0 without STAT).
// Flag 0x40 prints the program alone: no header, no footer.

import { parseContainer, type Container } from '../container/container.js';
import { UnsupportedError } from '../errors.js';
import { decodeContainerProgram } from '../sm4/census.js';
import type { Instruction, Program } from '../sm4/types.js';
import type { AnnotationProvider, ListingAnnotations } from './annotations.js';
import { printDeclaration, printImmediateConstantBuffer } from './declaration.js';
import { printInstruction } from './instruction.js';
import { printShaderMessage } from './message.js';
import type { OperandContext } from './operand.js';
import { debugAnnotations } from '../debug/annotations.js';
import { level9Listing } from './level9.js';
import { listingHeader } from './header.js';
import { bareEffectListing, effectListing, effectPart, isBareEffect } from './effect.js';
import { isLibrary, libraryListing } from './library.js';
import { ERA_10, eraNamed, eraOfCreator, type Era, type EraName } from './era.js';
import { readRdef } from '../parts/rdef.js';

export const DISASM_ENABLE_INSTRUCTION_NUMBERING = 0x04;
export const DISASM_DISABLE_DEBUG_INFO = 0x10;
export const DISASM_ENABLE_INSTRUCTION_OFFSET = 0x20;
export const DISASM_INSTRUCTION_ONLY = 0x40;
export const DISASM_PRINT_HEX_LITERALS = 0x80;

export interface DisassembleOptions {
  /** Writes the comment header before the version line (header.ts's listingHeader). */
  readonly header?: (container: Container, flags: number) => string;
  /** Debug information lines (src/debug's debugAnnotations). */
  readonly annotations?: AnnotationProvider;
  /** The compiler era whose spellings the listing takes (era.ts): 10 (default), 6.3, 9.30, 9.29, or
   * auto (from the RDEF creator string; 10 without one). */
  readonly era?: EraName | 'auto';
}

/** Hooks filled in by the layers that own them (header, debug information), used by default. */
export const listingHooks: {
  header?: (container: Container, flags: number) => string;
  annotations?: AnnotationProvider;
} = {};

/** Opens: flow control that indents what follows. */
const OPENS: readonly boolean[] = opcodeTable([0x1f, 0x30, 0x4c, 0x12]);
/** Closes: flow control printed one level out. */
const CLOSES: readonly boolean[] = opcodeTable([0x15, 0x16, 0x17, 0x12]);
/** Declaration opcodes: dcl_* (0x58-0x6a, 0x8f-0xa2, dcl_gsinstances) and hs_decls. */
const DECLARATIONS: readonly boolean[] = opcodeTable([
  ...Array.from({ length: 0x6a - 0x58 + 1 }, (_, i) => 0x58 + i),
  ...Array.from({ length: 0xa2 - 0x8f + 1 }, (_, i) => 0x8f + i),
  0x71,
  0xce,
]);

/** A table over the 11-bit opcode numbers, true at `set`. */
function opcodeTable(set: readonly number[]): boolean[] {
  const t = new Array<boolean>(0x800).fill(false);
  for (const op of set) t[op] = true;
  return t;
}

const INDENTS: readonly string[] = Array.from({ length: 32 }, (_, i) => '  '.repeat(i));

function hex8(n: number): string {
  return `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;
}

/** Is this instruction a declaration line (no instruction number)? */
function isDeclarationLine(ins: Instruction): boolean {
  if (ins.customData !== undefined) return ins.customData.dataClass === 3;
  return DECLARATIONS[ins.opcode] === true;
}

/** The SM4/5 listing of a container. */
export function disassemble(input: Uint8Array | Container, flags = 0, options: DisassembleOptions = {}): string {
  // fx_5_0: a bare effect binary, not a container
  if (input instanceof Uint8Array && isBareEffect(input))
    return bareEffectListing(input, flags, (b, f) => disassemble(b, f, options));
  const c = input instanceof Uint8Array ? parseContainer(input) : input;
  if (isLibrary(c))
    return libraryListing(c, flags, (fn, f) => {
      const program = decodeContainerProgram(fn);
      if (program === undefined)
        throw new UnsupportedError('E208_PART_UNSUPPORTED', 'a LIBF function holds no SHDR or SHEX program', {
          offset: 0,
        });
      return level9Listing(fn, f) + programListing(program, f, statInstructionCount(fn));
    });
  const program = decodeContainerProgram(c);
  if (program === undefined && effectPart(c) !== undefined)
    return effectListing(c, flags, (b, f) => disassemble(b, f, options));
  if (program === undefined)
    throw new UnsupportedError('E208_PART_UNSUPPORTED', 'the container holds no SHDR or SHEX program', { offset: 0 });
  const era = resolveEra(c, options.era);
  const header =
    flags & DISASM_INSTRUCTION_ONLY
      ? ''
      : options.header
        ? options.header(c, flags)
        : era !== ERA_10 || !listingHooks.header
          ? listingHeader(c, flags, era)
          : listingHooks.header(c, flags);
  const provider = options.annotations ?? listingHooks.annotations ?? defaultAnnotations;
  const notes = flags & DISASM_DISABLE_DEBUG_INFO || !provider ? undefined : provider(c, era);
  return header + level9Listing(c, flags) + programListing(program, flags, statInstructionCount(c), notes, era);
}

/** The era a listing is printed in: named, or auto from the RDEF creator string (10 without RDEF). */
function resolveEra(c: Container, era: EraName | 'auto' | undefined): Era {
  if (era === undefined || era === '10') return ERA_10;
  if (era !== 'auto') return eraNamed(era);
  const rdef = c.parts.find((p) => p.kind === 'RDEF');
  return rdef ? eraOfCreator(readRdef(rdef.data, rdef.offset + 8).creator) : ERA_10;
}

/** src/debug's provider, asked only about containers with debug information (SPDB or SDBG). */
function defaultAnnotations(c: Container, era?: Era): ListingAnnotations | undefined {
  for (const p of c.parts) if (p.kind === 'SPDB' || p.kind === 'SDBG') return debugAnnotations(c, era);
  return undefined;
}

function statInstructionCount(c: Container): number {
  const stat = c.parts.find((p) => p.kind === 'STAT');
  if (!stat || stat.data.byteLength < 4) return 0;
  const d = stat.data;
  return (d[0]! | (d[1]! << 8) | (d[2]! << 16) | (d[3]! << 24)) >>> 0;
}

/** The listing from the version line on. */
export function programListing(
  program: Program,
  flags: number,
  slots: number,
  notes: ListingAnnotations | undefined = undefined,
  era: Era = ERA_10,
): string {
  const v = program.version;
  const ctx: OperandContext = {
    is51: v.major > 5 || (v.major === 5 && v.minor >= 1),
    hex: (flags & DISASM_PRINT_HEX_LITERALS) !== 0,
    ...(era === ERA_10 ? {} : { era }),
  };
  const numbering = (flags & DISASM_ENABLE_INSTRUCTION_NUMBERING) !== 0;
  const offsets = (flags & DISASM_ENABLE_INSTRUCTION_OFFSET) !== 0;
  // One string grown line by line (V8 joins the pieces once, at the end).
  let out = '';
  const lines = (ls: readonly string[]): void => {
    for (const l of ls) out += `${l}\n`;
  };
  const declPrefix = (byte: number): string => (numbering ? '      ' : '') + (offsets ? `${hex8(byte)}: ` : '');
  out += `${declPrefix(0)}${v.stage}_${v.major}_${v.minor}\n`;
  let n = 0;
  let depth = 0;
  let initialDone = notes?.initial === undefined;
  for (const ins of program.instructions) {
    const byte = ins.word * 4;
    const decl = isDeclarationLine(ins);
    if (!decl && !initialDone && !(ins.opcode >= 0x71 && ins.opcode <= 0x74)) {
      lines(notes!.initial!);
      initialDone = true;
    }
    const before = notes?.before?.get(byte);
    if (before) lines(before);
    let text: string;
    if (ins.customData !== undefined) {
      if (ins.customData.dataClass === 3) text = printImmediateConstantBuffer(ins.customData.words, ctx.hex, era.crt);
      else if (ins.customData.dataClass === 4) text = printShaderMessage(ins.customData.words, ctx, program);
      else continue;
    } else text = (decl ? printDeclaration(ins, ctx) : undefined) ?? printInstruction(ins, ctx);
    if (decl) {
      out += `${declPrefix(byte)}${text}\n`;
    } else {
      if (CLOSES[ins.opcode]) depth = Math.max(0, depth - 1);
      let prefix = '';
      if (numbering) prefix += offsets ? `${String(n).padStart(4)}  ` : `${String(n).padStart(4)}: `;
      if (offsets) prefix += `${hex8(byte)}: `;
      const line = prefix + (INDENTS[depth] ?? '  '.repeat(depth)) + text;
      out += notes?.suffix === undefined ? `${line}\n` : `${line}${notes.suffix.get(byte) ?? ''}\n`;
      if (OPENS[ins.opcode]) depth++;
      n++;
    }
    const after = notes?.after?.get(byte);
    if (after) lines(after);
  }
  if (!(flags & DISASM_INSTRUCTION_ONLY)) out += `// Approximately ${slots} instruction slots used\n`;
  return out;
}
