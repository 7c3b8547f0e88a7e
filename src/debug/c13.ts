// The C13 line information of an SPDB's module stream (spec: containers.md, "Debug information in
// Shader Model 4 and 5 (SPDB)"): subsections of kind and length, 4-byte aligned. File checksums
// (0xf4) name each source path by its offset in /names; lines (0xf2) give the line of each
// instruction's byte offset in the token stream; inlinee lines (0xf6) give the first line of each
// inlined function, in signature 0 or 1 (CV_INLINEE_SOURCE_LINE_SIGNATURE_EX, with extra files).

import { ByteReader } from '../binary/reader.js';

export interface FileChecksum {
  /** Offset of this entry in the checksums subsection (what lines and inlinees name a file by). */
  readonly id: number;
  /** Offset of the path in /names. */
  readonly nameOffset: number;
  readonly kind: number;
  readonly checksum: Uint8Array;
}

export interface LineEntry {
  readonly offset: number;
  readonly line: number;
  /** The file, as a file checksum id. */
  readonly file: number;
  readonly statement: boolean;
}

export interface InlineeLine {
  readonly inlinee: number;
  readonly file: number;
  readonly line: number;
  readonly extraFiles: readonly number[];
}

export interface C13 {
  readonly checksums: readonly FileChecksum[];
  readonly lines: readonly LineEntry[];
  readonly inlinees: readonly InlineeLine[];
}

const CHECKSUMS = 0xf4;
const LINES = 0xf2;
const INLINEE_LINES = 0xf6;

export function readC13(bytes: Uint8Array, where: string, base: number): C13 {
  const r = new ByteReader(bytes, { where, base, code: 'E504_DEBUG_BAD' });
  const checksums: FileChecksum[] = [];
  const lines: LineEntry[] = [];
  const inlinees: InlineeLine[] = [];
  let at = 0;
  while (at + 8 <= bytes.byteLength) {
    const kind = r.u32At(at, 'a subsection kind');
    const size = r.u32At(at + 4, 'a subsection size');
    const body = r.sub(at + 8, size, `C13 subsection 0x${kind.toString(16)}`);
    if (kind === CHECKSUMS) readChecksums(body, checksums);
    else if (kind === LINES) readLines(body, lines);
    else if (kind === INLINEE_LINES) readInlinees(body, inlinees);
    at += 8 + size + ((4 - (size % 4)) % 4);
  }
  return { checksums, lines, inlinees };
}

function readChecksums(r: ByteReader, out: FileChecksum[]): void {
  while (r.pos + 6 <= r.length) {
    const id = r.pos;
    const nameOffset = r.u32('a file name offset');
    const size = r.u8('a checksum size');
    const kind = r.u8('a checksum kind');
    const checksum = r.slice(r.pos, size, 'a checksum');
    r.pos = (r.pos + size + 3) & ~3;
    out.push({ id, nameOffset, kind, checksum });
  }
}

function readLines(r: ByteReader, out: LineEntry[]): void {
  const base = r.u32('the lines base offset');
  r.u16('the lines section');
  const flags = r.u16('the lines flags');
  r.u32('the lines code size');
  const columns = (flags & 1) !== 0;
  while (r.pos < r.length) {
    const blockAt = r.pos;
    const file = r.u32('a line block file');
    const count = r.u32('a line block count');
    const size = r.u32('a line block size');
    const need = 12 + count * 8 + (columns ? count * 4 : 0);
    if (size < need)
      throw r.fail('E504_DEBUG_BAD', `a line block of ${count} lines has ${size} bytes, not ${need}`, blockAt);
    r.require(blockAt, size, 'a line block');
    for (let i = 0; i < count; i++) {
      const offset = r.u32At(blockAt + 12 + 8 * i);
      const word = r.u32At(blockAt + 16 + 8 * i);
      out.push({ offset: base + offset, line: word & 0xffffff, file, statement: word >>> 31 === 1 });
    }
    r.pos = blockAt + size;
  }
}

function readInlinees(r: ByteReader, out: InlineeLine[]): void {
  const signature = r.u32('the inlinee lines signature');
  if (signature !== 0 && signature !== 1)
    throw r.fail('E504_DEBUG_BAD', `the inlinee lines signature is ${signature}, not 0 or 1`, 0);
  while (r.pos < r.length) {
    const inlinee = r.u32('an inlinee');
    const file = r.u32('an inlinee file');
    const line = r.u32('an inlinee line');
    const extraFiles: number[] = [];
    if (signature === 1) {
      const n = r.u32('an extra file count');
      r.require(r.pos, n * 4, 'the extra files');
      for (let i = 0; i < n; i++) extraFiles.push(r.u32());
    }
    out.push({ inlinee, file, line, extraFiles });
  }
}
