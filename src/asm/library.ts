// A shader library's listing (fxc lib_4_0 .. lib_5_0 and their level-9 forms) back into its
// container. D3DDisassemble lists a library as its own header lines, then each function (a LIBF
// part, itself a container) as a program of its own: its header comments, for a level-9 build its
// Direct3D 9 programs (`lib_4_0_vs_2_x` .., indented), then `lib_M_N` and its instructions. The
// listing is cut into one program per function; each is assembled against that function's container
// (assemble() with `like`), and the library's LIBF parts are replaced in order. The LIBH part (the
// function table) and everything a listing does not show come from the --like library: without one a
// library cannot be written (LIBH and each function's LFS0 parameter table are not in the listing).

import type { Container } from '../container/container.js';
import { parseContainer, serializeContainer } from '../container/container.js';
import { AsmError, statementOf } from './text.js';

/** A library function's SM4 version line. */
const LIB_VERSION = /^lib_[45]_[01]\s*$/;
/** A level-9 library function's Direct3D 9 program starts with one of these (lib_4_0_vs_2_x ..). */
const LIB_D3D9_VERSION = /^lib_[45]_[01]_(?:vs|ps)_[1-3]_(?:[0-9x]|sw)\s*$/;

/** Whether a container is a library (LIBH and LIBF parts). */
export function isLibraryContainer(c: Container): boolean {
  return c.parts.some((p) => p.kind === 'LIBH');
}

/** A lib_M_N line anywhere in a listing (after the flag-word prefixes), to skip the cut cheaply. */
const ANY_LIB_VERSION = /^[ 0-9A-Fa-fx:]*lib_[45]_[01]\s*$/m;

/** How many library functions a listing holds (0 when it holds no lib_M_N program). */
export function libraryFunctionCount(listing: string): number {
  return ANY_LIB_VERSION.test(listing) ? functionStarts(listing.split('\n')).length : 0;
}

/**
 * The listing cut into one listing per function: each is the whole listing with the lines of the
 * other functions blanked, so that line numbers in errors stay those of the whole listing.
 */
export function splitLibraryListing(listing: string): string[] {
  const raw = listing.split('\n');
  const starts = functionStarts(raw);
  const out: string[] = [];
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k]!;
    const to = k + 1 < starts.length ? starts[k + 1]! : raw.length;
    out.push(raw.map((line, n) => (n >= from && n < to ? line : '')).join('\n'));
  }
  return out;
}

/** The first line of each function: its Direct3D 9 programs when it has them, else its lib_M_N line. */
function functionStarts(raw: readonly string[]): number[] {
  const starts: number[] = [0];
  let seen = false; // the current function's lib_M_N line was met
  for (let n = 0; n < raw.length; n++) {
    const s = statementOf(raw[n]!)?.s;
    if (s === undefined) continue;
    const d3d9 = LIB_D3D9_VERSION.test(s);
    if (!d3d9 && !LIB_VERSION.test(s)) continue;
    if (seen) starts.push(n);
    seen = !d3d9;
  }
  return starts;
}

export interface LibraryFunctionResult {
  readonly container: Uint8Array;
  readonly notes: readonly string[];
}

/**
 * Assembles a library listing against its library container: `one` assembles one function's
 * listing against that function's container (assemble() itself). Returns the new library container
 * (signed) and each function's result.
 */
export function assembleLibraryWith<R extends LibraryFunctionResult>(
  listing: string,
  like: Container,
  one: (listing: string, like: Container) => R,
): { container: Uint8Array; functions: R[] } {
  const parts = like.parts;
  const libf = parts.filter((p) => p.kind === 'LIBF');
  const pieces = splitLibraryListing(listing);
  if (pieces.length !== libf.length)
    throw new AsmError(
      'E907_ASM_PROGRAM',
      `the listing holds ${pieces.length} library function(s), the --like library ${libf.length}`,
      1,
      1,
      listing.split('\n', 1)[0] ?? '',
    );
  const functions: R[] = [];
  let k = 0;
  const out = parts.map((p) => {
    if (p.kind !== 'LIBF') return { kind: p.kind, data: p.data };
    const r = one(pieces[k]!, parseContainer(p.data));
    k++;
    functions.push(r);
    return { kind: p.kind, data: r.container };
  });
  return { container: serializeContainer(out, { version: like.version }), functions };
}
