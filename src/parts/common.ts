// Helpers every part reader shares: strings bounded by the part (E204) and table ranges checked
// against the bytes before anything is allocated (E202/E203).

import { latin1, type ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';

/** A zero-terminated string at `offset`, which must lie inside the part and end inside it. */
export function partString(r: ByteReader, offset: number, what: string): string {
  return partStringAt(r, offset) ?? badPartString(r, offset, what);
}

/**
 * The zero-terminated string at `offset` when it lies inside the part and ends inside it, else
 * undefined. A reader in a loop writes `partStringAt(r, o) ?? badPartString(r, o, `name ${i}`)`, so
 * the error's description is built only on failure. The bytes are Latin-1, as Microsoft's tools
 * print them (binary/reader.ts latin1).
 */
export function partStringAt(r: ByteReader, offset: number): string | undefined {
  const b = r.bytes;
  if (!(offset >= 0 && offset < b.length)) return undefined;
  let end = offset;
  while (end < b.length && b[end] !== 0) end++;
  return end === b.length ? undefined : latin1(b, offset, end);
}

/** The E204 error of the string at `offset` that partStringAt refused: outside the part, or unterminated. */
export function badPartString(r: ByteReader, offset: number, what: string): never {
  if (!(offset >= 0 && offset < r.length)) {
    throw r.fail('E204_PART_BAD_STRING', `${what} at ${hex(offset)} is outside the part (size ${hex(r.length)})`, 0);
  }
  throw r.fail('E204_PART_BAD_STRING', `${what} at ${hex(offset)} has no terminating zero inside the part`, offset);
}

// Fields of records that requireTable (or the reader's own equivalent check) has placed inside the
// part, read without a second bounds check per field: a part reader reads a table's records after
// checking the table once.

/** The little-endian 32-bit word at `at` of a checked record. */
export function u32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** The little-endian signed 32-bit word at `at` of a checked record. */
export function i32(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
}

/** The little-endian 16-bit word at `at` of a checked record. */
export function u16(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}

/** Checks that `count` records of `size` bytes at `offset` lie inside the part. */
export function requireTable(r: ByteReader, offset: number, count: number, size: number, what: string, at = 0): void {
  if (count === 0) return;
  if (!(offset >= 0 && offset <= r.length)) {
    throw r.fail('E202_PART_BAD_OFFSET', `${what} at ${hex(offset)} is outside the part (size ${hex(r.length)})`, at);
  }
  if (count > Math.floor((r.length - offset) / size)) {
    throw r.fail(
      'E203_PART_BAD_COUNT',
      `${count} ${what} records of ${size} bytes at ${hex(offset)} run past the end of the part (size ${hex(r.length)})`,
      at,
    );
  }
}
