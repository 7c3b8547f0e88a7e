// Helpers every part reader shares: strings bounded by the part (E204) and table ranges checked
// against the bytes before anything is allocated (E202/E203).

import type { ByteReader } from '../binary/reader.js';
import { IridiaError, hex } from '../errors.js';

/** A zero-terminated string at `offset`, which must lie inside the part and end inside it. */
export function partString(r: ByteReader, offset: number, what: string): string {
  if (!(offset >= 0 && offset < r.length)) {
    throw r.fail('E204_PART_BAD_STRING', `${what} at ${hex(offset)} is outside the part (size ${hex(r.length)})`, 0);
  }
  try {
    return r.cstringAt(offset, what);
  } catch (e) {
    if (e instanceof IridiaError) {
      throw r.fail('E204_PART_BAD_STRING', `${what} at ${hex(offset)} has no terminating zero inside the part`, offset);
    }
    throw e;
  }
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
