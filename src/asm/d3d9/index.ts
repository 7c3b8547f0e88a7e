// assembleD3D9(listing, options): a Direct3D 9 listing (vs_1_1 .. ps_3_0, as src/d3d9/disasm.ts and
// D3DDisassemble print it) back into a bare Direct3D 9 token stream (docs/assemble.md, "Direct3D 9").
// program.ts reads the instructions; the comment blocks (the CTAB constant table the listing's header is
// printed from, the DBUG debug information its #line directives and variable remarks come from, any other
// comment) are not in the listing's instruction text: with `like` (the original program's bytes) each is kept
// word for word before the instruction it stood before, and without it none is written, which a note says.

import { IridiaError } from '../../errors.js';
import { decodeD3D9, type D3D9Program } from '../../d3d9/decode.js';
import { assembleD3D9Program, type D3D9AssembledProgram } from './program.js';

export { assembleD3D9Program, isD3D9Listing, type D3D9AssembledProgram } from './program.js';
export { d3d9Losses, type D3D9Loss } from './losses.js';

export interface AssembleD3D9Options {
  /** The original program (its bytes or decoded): its comment blocks (CTAB, DBUG, ...) are kept. */
  readonly like?: Uint8Array | D3D9Program;
}

export interface AssembleD3D9Result {
  readonly program: D3D9AssembledProgram;
  /** The token stream's bytes: version, comments and instructions, end token. */
  readonly bytes: Uint8Array;
  /** What the result could not take over (comments left out, a like program of another version). */
  readonly notes: readonly string[];
}

/** Assembles a Direct3D 9 listing. AsmError (E9xx) for a line it cannot read; the result decodes (decodeD3D9). */
export function assembleD3D9(listing: string, options: AssembleD3D9Options = {}): AssembleD3D9Result {
  const program = assembleD3D9Program(listing);
  const notes: string[] = [];
  // comment blocks by the index of the instruction they stand before (the count: after the last one)
  const comments = new Map<number, Uint8Array[]>();
  if (options.like !== undefined) {
    const like = options.like instanceof Uint8Array ? decodeD3D9(options.like) : options.like;
    if ((like.version.token & 0xffff) !== (program.words[0]! & 0xffff) || like.version.stage !== program.stage)
      notes.push(
        `the --like program is ${like.version.stage}_${like.version.major}_${like.version.minor}, the listing's ${program.stage}_${program.major}_${program.minor}: its comments may not fit`,
      );
    let index = 0;
    const kinds: string[] = [];
    for (const r of like.records) {
      if (r.kind === 'instruction') {
        index++;
        continue;
      }
      const at = Math.min(index, program.starts.length);
      const whole = like.bytes.subarray(r.offset, r.offset + 4 + r.data.byteLength);
      comments.set(at, [...(comments.get(at) ?? []), whole]);
      kinds.push(r.fourcc || 'empty');
    }
    if (index !== program.starts.length && kinds.includes('DBUG'))
      notes.push(
        `the listing has ${program.starts.length} instructions, the --like program ${index}: the DBUG comment's line table still names the old offsets`,
      );
  } else {
    notes.push(
      'no --like program: no comment blocks are written (the CTAB constant table the header is printed from, DBUG debug information); the listing holds the instructions only',
    );
  }
  const bytes = serialize(program, comments);
  // what was written is a program the decoder reads
  try {
    decodeD3D9(bytes);
  } catch (e) {
    if (e instanceof IridiaError)
      throw new IridiaError('E907_ASM_PROGRAM', `the assembled program does not decode: ${e.reason}`);
    throw e;
  }
  return { program, bytes, notes };
}

function serialize(program: D3D9AssembledProgram, comments: ReadonlyMap<number, readonly Uint8Array[]>): Uint8Array {
  const { words, starts } = program;
  let size = words.length * 4;
  for (const list of comments.values()) for (const c of list) size += c.byteLength;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let o = 0;
  const put = (from: number, to: number): void => {
    for (let w = from; w < to; w++, o += 4) view.setUint32(o, words[w]!, true);
  };
  const insert = (index: number): void => {
    for (const c of comments.get(index) ?? []) {
      out.set(c, o);
      o += c.byteLength;
    }
  };
  put(0, 1);
  for (let i = 0; i < starts.length; i++) {
    insert(i);
    put(starts[i]!, starts[i + 1] ?? words.length - 1);
  }
  insert(starts.length);
  put(words.length - 1, words.length);
  return out;
}
