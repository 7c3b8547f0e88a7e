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
//
// The variables after an instruction are gathered per destination lane: each variable (table order) sets the
// lanes x-w that its first location naming the record holds, a later variable taking a lane from an earlier one;
// the lanes then print in order, consecutive lanes of one variable as one `name<c,c>`, separated by `, `.

import type { DebugInfo } from './dbug.js';

const NO_FILE = 0xffff;
/** A location's lane that holds no component of the variable. */
const NO_COMPONENT = 0xffff;
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

/** A lane's variable: its index in the variable table and the component the lane holds. */
interface LaneWrite {
  readonly variable: number;
  readonly component: number;
}

/**
 * Line record → the text after `  // ` for the variables it writes ('' when the lanes it sets name no variable).
 * An entry point parameter prints its bare name, a variable of another scope `scope::name`, one of no scope
 * (a local, a return value) `::name`; a variable without a name leaves its lanes out.
 */
export function variableComments(debug: DebugInfo): Map<number, string> {
  const lanes = new Map<number, (LaneWrite | undefined)[]>();
  debug.variables.forEach((v, variable) => {
    const seen = new Set<number>();
    for (const loc of v.locations) {
      if (seen.has(loc.record)) continue;
      seen.add(loc.record);
      let row = lanes.get(loc.record);
      loc.components.forEach((component, lane) => {
        if (component === NO_COMPONENT) return;
        row ??= [undefined, undefined, undefined, undefined];
        row[lane] = { variable, component };
      });
      if (row !== undefined) lanes.set(loc.record, row);
    }
  });
  const out = new Map<number, string>();
  for (const [record, row] of lanes) {
    let text = '';
    let previous = -1;
    for (const write of row) {
      const v = write === undefined ? undefined : debug.variables[write.variable];
      if (write === undefined || v === undefined || v.name === '') continue;
      if (write.variable === previous) text += `,${write.component}`;
      else {
        const scope = v.scope === '' ? '::' : v.scope === debug.entry ? '' : `${v.scope}::`;
        text += `${text === '' ? '' : '>, '}${scope}${v.name}<${write.component}`;
        previous = write.variable;
      }
    }
    out.set(record, text === '' ? '' : `${text}>`);
  }
  return out;
}
