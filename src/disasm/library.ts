// The listing of an fxc shader library (lib_4_0, lib_4_1, lib_5_0, lib_4_0_level_9_x; the parts
// are src/parts/library.ts's), as D3DDisassemble prints it (../shared/oracle/own/lib_*):
//
//   //
//   // Library:  flags F, N functions:
//   //   0  Name          one line a function, in LIBH's order
//   //
//   // Created by:  CREATOR
//   //
//
// then each LIBF's function as a program of its own: its header (creator, buffers, bindings, and
// the function parameter signature where a program has its signatures), its level-9 programs, and
// its lib_M_N program with the instruction-slot footer. Flag 0x40 keeps the library's lines and
// drops each function's header and footer, as it does a program's.

import { parseContainer, type Container } from '../container/container.js';
import { IridiaError } from '../errors.js';
import { readLfs0, readLibh } from '../parts/library.js';
import { reflect } from '../reflect/reflection.js';
import { headerOf } from './header.js';

/** The container's LIBH part, when it is a library. */
export function isLibrary(c: Container): boolean {
  return c.parts.some((p) => p.kind === 'LIBH');
}

/** The library's own lines: its functions' names and its creator. Throws IridiaError. */
export function libraryLines(c: Container): string {
  const libh = c.parts.find((p) => p.kind === 'LIBH');
  if (libh === undefined) throw new IridiaError('E108_PART_MISSING', 'the container has no LIBH part');
  const header = readLibh(libh.data, libh.offset + 8);
  let out = `//\n// Library:  flags ${header.flags}, ${header.functions.length} functions:\n`;
  header.functions.forEach((f, i) => {
    out += `//   ${i}  ${f.name}\n`;
  });
  return `${out}//\n// Created by:  ${header.creator}\n//\n`;
}

/** The containers of the library's functions (its LIBF parts), checked against LIBH's count. */
export function libraryFunctions(c: Container): Container[] {
  const libh = c.parts.find((p) => p.kind === 'LIBH');
  if (libh === undefined) throw new IridiaError('E108_PART_MISSING', 'the container has no LIBH part');
  const count = readLibh(libh.data, libh.offset + 8).functions.length;
  const functions = c.parts.filter((p) => p.kind === 'LIBF');
  if (functions.length !== count)
    throw new IridiaError(
      'E203_PART_BAD_COUNT',
      `LIBH names ${count} functions but the container holds ${functions.length} LIBF parts`,
      { offset: libh.offset, part: 'LIBH' },
    );
  return functions.map((f) => parseContainer(f.data));
}

/** A function's header: the program header with its parameters (LFS0) for signatures. */
export function functionHeader(fn: Container): string {
  const lfs0 = fn.parts.find((p) => p.kind === 'LFS0');
  return headerOf(reflect(fn), lfs0 ? readLfs0(lfs0.data, lfs0.offset + 8) : []);
}

/**
 * The library's listing; `program` lists one function's container from its level-9 section on (the
 * disassembler's, so that its flag words apply).
 */
export function libraryListing(c: Container, flags: number, program: (fn: Container, flags: number) => string): string {
  let out = libraryLines(c);
  for (const fn of libraryFunctions(c)) {
    if (!(flags & 0x40)) out += functionHeader(fn);
    out += program(fn, flags);
  }
  return out;
}
