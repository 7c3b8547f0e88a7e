// The hook through which debug information (SPDB / SDBG, written by src/debug) adds its lines to a
// Shader Model 4/5 listing (containers.md, "Debug information in Shader Model 4 and 5 (SPDB)"):
// the `#line` directives, the "// Initial variable locations:" block and the `// r0.x <- name`
// remarks after instructions. disassemble() calls an optional provider and places the lines; the
// provider decides their text. Flag 0x10 (D3D_DISASM_DISABLE_DEBUG_INFO) makes disassemble() skip
// the provider altogether.
//
// Placement, exactly:
// - Keys are byte offsets of an instruction's opcode token in the token stream, counted from the
//   version token (byte 0), i.e. Instruction.word * 4. Declarations have offsets too.
// - `before.get(offset)` lines are printed immediately before that instruction's line, after the
//   lines of any earlier instruction's `after`. They are printed verbatim: no instruction-number or
//   offset prefix (flags 0x04 / 0x20) and no flow-control indentation is added; each string is one
//   line without its '\n' (an empty string prints an empty line). Typical content: '', '#line 12 "x.hlsl"'.
// - `initial` lines are printed before the `before` lines of the first instruction that is not a
//   declaration nor a hull-shader phase marker (hs_decls .. hs_join_phase) (verbatim, same rules).
// - `after.get(offset)` lines are printed immediately after that instruction's line (verbatim).
// - `suffix.get(offset)` is appended to that instruction's own line, after its text (the remarks
//   `  // r0.x <- r.x` and `  // Prior locations: ...` that Microsoft prints on the instruction's
//   line). [Added by the debug-information engineer: the remarks sit on the instruction's line.]
// - With flag 0x40 (instructions only) the same rules apply to the lines that remain.

import type { Container } from '../container/container.js';
import type { Era } from './era.js';

/** What debug information adds to one listing. */
export interface ListingAnnotations {
  /** Lines before the first non-declaration instruction (the initial variable locations). */
  readonly initial?: readonly string[];
  /** Lines printed before the instruction at this byte offset. */
  readonly before?: ReadonlyMap<number, readonly string[]>;
  /** Lines printed after the instruction at this byte offset. */
  readonly after?: ReadonlyMap<number, readonly string[]>;
  /** Text appended to the line of the instruction at this byte offset (e.g. '  // r0.x <- r.x'). */
  readonly suffix?: ReadonlyMap<number, string>;
}

/** Implemented by src/debug: `debugAnnotations(container, era): ListingAnnotations | undefined`. The era
 * (era.ts) is the listing's: its `sdbg` row holds the SDBG rules that differ. */
export type AnnotationProvider = (container: Container, era?: Era) => ListingAnnotations | undefined;
