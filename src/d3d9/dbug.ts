// The debug information of a Direct3D 9 program: the DBUG comment fxc /Zi writes (containers.md, "Debug
// information of a Direct3D 9 program (DBUG)"). Offsets are bytes from the word after the FourCC. It holds the
// source files, one line record per declaration, definition and instruction (8 bytes: line, file, byte offset
// of the record's token), and the variables (20 bytes: scope, name, type, location count and table) whose
// locations (12 bytes: line record index, then the variable's component in each destination lane x-w, 0xffff
// for none) say what each instruction writes. Bounded: every table must lie inside the comment.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';

export interface DbugLine {
  /** Source line, 0 where the file is 0xffff. */
  readonly line: number;
  /** Index in the file table; 0xffff for a record with no line (declarations, definitions). */
  readonly file: number;
  /** Byte offset of the record's token from the version token. */
  readonly offset: number;
}

export interface DbugLocation {
  /** Index of the line record (the program record) that writes it. */
  readonly record: number;
  /** The variable's component held in lanes x, y, z and w; 0xffff where a lane holds none of it. */
  readonly components: readonly [number, number, number, number];
}

export interface DbugVariable {
  /** The function or constant buffer it is in; '' for a local and for a function's return value. */
  readonly scope: string;
  readonly name: string;
  readonly locations: readonly DbugLocation[];
}

export interface DebugInfo {
  readonly mainPath: string;
  readonly compiler: string;
  readonly entry: string;
  readonly files: readonly string[];
  readonly lines: readonly DbugLine[];
  readonly variables: readonly DbugVariable[];
}

/**
 * Reads a DBUG comment. `data` is the comment's words (the FourCC first); `base` is the FourCC's byte offset
 * in the program, for errors. A table or string outside the comment is an E515_D3D9_DBUG error.
 */
export function readDebugInfo(data: Uint8Array, base: number): DebugInfo {
  const r = new ByteReader(data.subarray(4), { base: base + 4, where: 'DBUG', code: 'E515_D3D9_DBUG' });
  const b = r.bytes;
  const word = (at: number): number => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
  const half = (at: number): number => b[at]! | (b[at + 1]! << 8);
  // A table's count and offset words; `what` names it in the error (a function, so a variable's
  // location table builds its name only when it is refused).
  const table = (countAt: number, offsetAt: number, size: number, what: string | (() => string)): [number, number] => {
    const name = (): string => (typeof what === 'string' ? what : what());
    const count = countAt + 4 <= r.length ? word(countAt) : r.u32At(countAt, `the ${name()} count`);
    const offset = offsetAt + 4 <= r.length ? word(offsetAt) : r.u32At(offsetAt, `the ${name()} table offset`);
    if (offset > r.length || count > (r.length - offset) / size)
      throw r.fail(
        'E515_D3D9_DBUG',
        `the ${name()} table (${count} records of ${size} bytes at ${hex(offset)}) lies outside the ${hex(r.length)}-byte comment`,
        offsetAt,
      );
    return [count, offset];
  };
  // Scope and variable names repeat (every variable of a function names its scope): each string is read once.
  const strings = new Map<number, string>();
  // The file paths, read with their names for errors only when one is refused.
  const path = (at: number): string | undefined => {
    if (at >= r.length) return undefined;
    let end = at;
    while (end < r.length && b[end] !== 0) end++;
    return end < r.length ? r.cstringAt(at) : undefined;
  };
  const str = (offset: number, what: string): string => {
    if (offset === 0) return '';
    let s = strings.get(offset);
    if (s === undefined) strings.set(offset, (s = r.cstringAt(offset, what)));
    return s;
  };
  const mainPath = str(r.u32At(0, 'the main source path offset'), 'the main source path');
  const compiler = str(r.u32At(4, 'the compiler name offset'), 'the compiler name');
  const [fileCount, fileOffset] = table(0xc, 0x10, 4, 'source file');
  const [lineCount, lineOffset] = table(0x14, 0x18, 8, 'line record');
  const [varCount, varOffset] = table(0x1c, 0x20, 20, 'variable');
  const entry = str(r.u32At(0x24, 'the entry point name offset'), 'the entry point name');
  // The tables lie inside the comment (table() checked them): their fields are read unchecked.
  const files: string[] = [];
  for (let i = 0; i < fileCount; i++) {
    const at = word(fileOffset + 4 * i);
    files.push(path(at) ?? r.cstringAt(at, `source file ${i}'s path`));
  }
  const lines: DbugLine[] = [];
  for (let i = 0; i < lineCount; i++) {
    const o = lineOffset + 8 * i;
    lines.push({ line: half(o), file: half(o + 2), offset: word(o + 4) });
  }
  const variables: DbugVariable[] = [];
  // Location tables may overlap; in all they cannot hold more records than the comment has room for.
  let locationsLeft = Math.floor(r.length / 12);
  for (let i = 0; i < varCount; i++) {
    const o = varOffset + 20 * i;
    const [locCount, locOffset] = table(o + 0xc, o + 0x10, 12, () => `variable ${i}'s location`);
    locationsLeft -= locCount;
    if (locationsLeft < 0)
      throw r.fail('E515_D3D9_DBUG', `the location tables hold more records than the comment has room for`, o + 0xc);
    const locations: DbugLocation[] = [];
    for (let j = 0; j < locCount; j++) {
      const l = locOffset + 12 * j;
      locations.push({
        record: word(l),
        components: [half(l + 4), half(l + 6), half(l + 8), half(l + 10)],
      });
    }
    variables.push({ scope: str(word(o), 'a scope name'), name: str(word(o + 4), 'a variable name'), locations });
  }
  return { mainPath, compiler, entry, files, lines, variables };
}
