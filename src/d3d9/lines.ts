// The walk of a DBUG line table beside a Direct3D 9 listing (containers.md, "Debug information of a Direct3D 9
// program (DBUG)"; the rule is in docs/d3d9.md, "#line directives"): which record belongs to each instruction,
// which record's variables it prints, and when D3DDisassemble prints a #line directive before it.
//
// A cursor walks the line records in table order beside the instructions. An instruction whose token index
// (byte offset / 4) is the cursor record's takes that record; then the cursor moves past every record at or
// before the instruction. The variables printed after an instruction are those of the record just before the
// cursor (the last record at or before it). Before a record:
// - whose file differs from the last record's (0xffff to begin with): a blank line and `#line N "path"`, unless
//   the file is 0xffff or not in the file table, which prints nothing;
// - of the same file whose line differs from the last record's: a blank line and `#line N` when the line moves
//   by more than 2 from the last record's, or by more than 10 from the line the last directive printed.
// Every record sets the last file and line; a printed directive also sets the directive line.

import type { DebugInfo } from './dbug.js';

const NO_FILE = 0xffff;
/** A move from the last record's line by more than this prints a directive. */
const NEAR = 2;
/** A move from the last directive's line by more than this prints a directive. */
const DRIFT = 10;

export interface DebugStep {
  /** Text before the instruction: '' or `\n#line N[ "path"]\n`. */
  readonly directive: string;
  /** The line record whose variables the instruction prints; -1 for none. */
  readonly record: number;
}

export class DebugWalk {
  private cursor = 0;
  private lastFile = NO_FILE;
  private lastLine = 0;
  private directiveLine = 0;

  constructor(private readonly debug: DebugInfo) {}

  /** Moves to the instruction at `offset` (bytes from the version token). Call once per instruction, in order. */
  step(offset: number): DebugStep {
    const lines = this.debug.lines;
    const token = Math.floor(offset / 4);
    let directive = '';
    const rec = lines[this.cursor];
    if (rec !== undefined) {
      const at = Math.floor(rec.offset / 4);
      if (at === token) directive = this.directiveFor(rec.line, rec.file);
      if (at <= token) {
        do this.cursor++;
        while (this.cursor < lines.length && Math.floor(lines[this.cursor]!.offset / 4) <= token);
      }
    }
    return { directive, record: this.cursor - 1 };
  }

  private directiveFor(line: number, file: number): string {
    let text = '';
    if (file !== this.lastFile) {
      const path = file === NO_FILE ? undefined : this.debug.files[file];
      if (path !== undefined) {
        text = `\n#line ${line} "${path}"\n`;
        this.directiveLine = line;
      }
    } else if (line !== this.lastLine) {
      if (Math.abs(line - this.lastLine) > NEAR || Math.abs(line - this.directiveLine) > DRIFT) {
        text = `\n#line ${line}\n`;
        this.directiveLine = line;
      }
    }
    this.lastFile = file;
    this.lastLine = line;
    return text;
  }
}
