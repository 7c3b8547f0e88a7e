// The parts of an fxc shader library (targets lib_4_0, lib_4_1, lib_5_0 and lib_4_0_level_9_x): the
// outer container holds one LIBF part per exported function, each a whole DXBC container of its
// own (RDEF, LFS0, SHDR/SHEX, STAT, and for level 9 one Aon9 part per Direct3D 9 program), and one
// LIBH part naming them. Layouts read from fxc's builds in ../shared/oracle/own/lib_* and
// D3D11_LIBRARY_DESC / D3D11_FUNCTION_DESC / D3D11_PARAMETER_DESC (d3d11shader.h):
//
//   LIBH: u32 version (1), u32 creator string offset, u32 flags, u32 function count, u32 offset of
//         the function table; the table's rows are (u32 level-9 targets, u32 name offset): bit 0 a
//         vertex program, bit 1 a pixel program (0 outside level 9). Offsets are from the part's start.
//   LFS0: u32 parameter count (the return value first), u32 offset of the parameter table, then rows
//         of 12 u32: name offset, semantic name offset (0: none), D3D_SHADER_VARIABLE_TYPE, _CLASS,
//         rows, columns, D3D_INTERPOLATION_MODE, D3D_PARAMETER_FLAGS (1 in, 2 out), first input
//         register, first input component, first output register, first output component
//         (0xFFFFFFFF: none).

import { ByteReader } from '../binary/reader.js';

export interface LibraryFunctionEntry {
  readonly name: string;
  /** Bit 0: a level-9 vertex program, bit 1: a level-9 pixel program. */
  readonly level9: number;
}

export interface LibraryHeader {
  readonly version: number;
  readonly creator: string;
  readonly flags: number;
  readonly functions: readonly LibraryFunctionEntry[];
}

/** The row of an absent register (D3D's -1). */
export const NO_REGISTER = 0xffffffff;

export interface LibraryParameter {
  readonly name: string;
  readonly semantic: string | undefined;
  readonly type: number;
  readonly class: number;
  readonly rows: number;
  readonly columns: number;
  readonly interpolation: number;
  /** D3D_PARAMETER_FLAGS: 1 in, 2 out. */
  readonly flags: number;
  readonly firstInRegister: number;
  readonly firstInComponent: number;
  readonly firstOutRegister: number;
  readonly firstOutComponent: number;
}

const LIBH_ROW = 8;
const LFS0_ROW = 48;

export function readLibh(data: Uint8Array, base = 0): LibraryHeader {
  const r = new ByteReader(data, { base, where: 'LIBH', code: 'E201_PART_TRUNCATED' });
  const version = r.u32At(0, 'the version');
  const creator = r.cstringAt(r.u32At(4, 'the creator offset'), 'the creator');
  const flags = r.u32At(8, 'the flags');
  const count = r.u32At(12, 'the function count');
  const table = r.u32At(16, 'the function table offset');
  // Every row must fit in the part before any is read: the count is not trusted to size anything.
  r.require(table, count * LIBH_ROW, `${count} function rows`);
  const functions: LibraryFunctionEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = table + i * LIBH_ROW;
    const level9 = r.u32At(at, 'a function row');
    functions.push({ level9, name: r.cstringAt(r.u32At(at + 4, 'a function name offset'), 'a function name') });
  }
  return { version, creator, flags, functions };
}

export function readLfs0(data: Uint8Array, base = 0): LibraryParameter[] {
  const r = new ByteReader(data, { base, where: 'LFS0', code: 'E201_PART_TRUNCATED' });
  const count = r.u32At(0, 'the parameter count');
  const table = r.u32At(4, 'the parameter table offset');
  r.require(table, count * LFS0_ROW, `${count} parameter rows`);
  const out: LibraryParameter[] = [];
  for (let i = 0; i < count; i++) {
    const at = table + i * LFS0_ROW;
    const u = (k: number, what: string): number => r.u32At(at + 4 * k, what);
    const semanticAt = u(1, 'a semantic name offset');
    out.push({
      name: r.cstringAt(u(0, 'a parameter name offset'), 'a parameter name'),
      semantic: semanticAt === 0 ? undefined : r.cstringAt(semanticAt, 'a semantic name'),
      type: u(2, 'a parameter type'),
      class: u(3, 'a parameter class'),
      rows: u(4, 'a parameter row count'),
      columns: u(5, 'a parameter column count'),
      interpolation: u(6, 'an interpolation mode'),
      flags: u(7, 'the parameter flags'),
      firstInRegister: u(8, 'a first input register'),
      firstInComponent: u(9, 'a first input component'),
      firstOutRegister: u(10, 'a first output register'),
      firstOutComponent: u(11, 'a first output component'),
    });
  }
  return out;
}
