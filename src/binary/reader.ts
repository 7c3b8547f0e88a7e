// The one bounds-checked little-endian reader every decoder uses. Every primitive checks that
// its bytes are inside the view in a form that cannot overflow (offset <= length - size), and
// sub-ranges are views, not copies.

import { IridiaError, hex, type ErrorCode } from '../errors.js';

export class ByteReader {
  readonly bytes: Uint8Array;
  /** Made on the first float or 64-bit read: most readers read bytes and words only. */
  private viewOf: DataView | undefined = undefined;
  /** Added to every reported offset, so errors name offsets in the enclosing container. */
  readonly base: number;
  /** Named in errors (a part kind, or 'header'). */
  readonly where: string | undefined;
  readonly code: ErrorCode;
  pos = 0;

  constructor(bytes: Uint8Array, options: { base?: number; where?: string; code?: ErrorCode } = {}) {
    this.bytes = bytes;
    this.base = options.base ?? 0;
    this.where = options.where;
    this.code = options.code ?? 'E101_TRUNCATED';
  }

  private get view(): DataView {
    return (this.viewOf ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
  }

  get length(): number {
    return this.bytes.byteLength;
  }

  /** Throws the reader's truncation error unless `size` bytes are readable at `offset`. */
  require(offset: number, size: number, what: string): void {
    if (!(offset >= 0 && size >= 0 && offset <= this.bytes.byteLength && size <= this.bytes.byteLength - offset)) {
      throw this.fail(
        this.code,
        `${what} needs ${size} bytes at ${hex(offset + this.base)} but the data ends at ${hex(this.bytes.byteLength + this.base)}`,
        offset,
      );
    }
  }

  fail(code: ErrorCode, reason: string, offset: number = this.pos): IridiaError {
    return new IridiaError(
      code,
      reason,
      this.where === undefined ? { offset: offset + this.base } : { offset: offset + this.base, part: this.where },
    );
  }

  u8At(offset: number, what = 'a byte'): number {
    this.require(offset, 1, what);
    return this.bytes[offset]!;
  }
  u16At(offset: number, what = 'a 16-bit field'): number {
    this.require(offset, 2, what);
    const b = this.bytes;
    return b[offset]! | (b[offset + 1]! << 8);
  }
  u32At(offset: number, what = 'a 32-bit field'): number {
    this.require(offset, 4, what);
    const b = this.bytes;
    return (b[offset]! | (b[offset + 1]! << 8) | (b[offset + 2]! << 16) | (b[offset + 3]! << 24)) >>> 0;
  }
  i32At(offset: number, what = 'a 32-bit field'): number {
    this.require(offset, 4, what);
    const b = this.bytes;
    return b[offset]! | (b[offset + 1]! << 8) | (b[offset + 2]! << 16) | (b[offset + 3]! << 24);
  }
  f32At(offset: number, what = 'a float'): number {
    this.require(offset, 4, what);
    return this.view.getFloat32(offset, true);
  }
  f64At(offset: number, what = 'a double'): number {
    this.require(offset, 8, what);
    return this.view.getFloat64(offset, true);
  }
  u64At(offset: number, what = 'a 64-bit field'): bigint {
    this.require(offset, 8, what);
    return this.view.getBigUint64(offset, true);
  }

  u8(what?: string): number {
    const v = this.u8At(this.pos, what);
    this.pos += 1;
    return v;
  }
  u16(what?: string): number {
    const v = this.u16At(this.pos, what);
    this.pos += 2;
    return v;
  }
  u32(what?: string): number {
    const v = this.u32At(this.pos, what);
    this.pos += 4;
    return v;
  }
  f32(what?: string): number {
    const v = this.f32At(this.pos, what);
    this.pos += 4;
    return v;
  }

  /** A view of `size` bytes at `offset` (no copy). */
  slice(offset: number, size: number, what = 'a range'): Uint8Array {
    this.require(offset, size, what);
    return this.bytes.subarray(offset, offset + size);
  }

  /** A sub-reader over `size` bytes at `offset`, reporting offsets in this reader's frame. */
  sub(offset: number, size: number, what = 'a range', where: string | undefined = this.where): ByteReader {
    const bytes = this.slice(offset, size, what);
    return new ByteReader(
      bytes,
      where === undefined
        ? { base: this.base + offset, code: this.code }
        : { base: this.base + offset, code: this.code, where },
    );
  }

  /** A zero-terminated string starting at `offset`, bounded by the end of the data. */
  cstringAt(offset: number, what = 'a string'): string {
    this.require(offset, 0, what);
    if (offset >= this.bytes.byteLength)
      throw this.fail(this.code, `${what} starts at ${hex(offset + this.base)}, past the end`, offset);
    let end = offset;
    while (end < this.bytes.byteLength && this.bytes[end] !== 0) end++;
    if (end >= this.bytes.byteLength) {
      throw this.fail(
        this.code,
        `${what} at ${hex(offset + this.base)} has no terminating zero before the end`,
        offset,
      );
    }
    return latin1(this.bytes, offset, end);
  }

  fourccAt(offset: number, what = 'a FourCC'): string {
    this.require(offset, 4, what);
    return latin1(this.bytes, offset, offset + 4);
  }
}

/** Bytes as Latin-1 text (each byte one UTF-16 unit), as Microsoft's tools print them. */
export function latin1(bytes: Uint8Array, start = 0, end = bytes.byteLength): string {
  let s = '';
  if (end - start <= 64) {
    // Names and FourCCs are short: plain loops avoid spreading a typed array per call, four bytes to
    // a String.fromCharCode call (about half the time of one a character).
    let i = start;
    for (; i + 4 <= end; i += 4) s += String.fromCharCode(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!, bytes[i + 3]!);
    for (; i < end; i++) s += String.fromCharCode(bytes[i]!);
    return s;
  }
  for (let i = start; i < end; i += 4096) {
    s += String.fromCharCode(...bytes.subarray(i, Math.min(end, i + 4096)));
  }
  return s;
}

export function fourccToString(word: number): string {
  return String.fromCharCode(word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff, (word >>> 24) & 0xff);
}

export function fourccFromString(s: string): number {
  if (s.length !== 4)
    throw new IridiaError('E109_BAD_ARGUMENT', `a part kind has four characters, not ${JSON.stringify(s)}`);
  let w = 0;
  for (let i = 0; i < 4; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) throw new IridiaError('E109_BAD_ARGUMENT', `a part kind is Latin-1, not ${JSON.stringify(s)}`);
    w |= c << (8 * i);
  }
  return w >>> 0;
}
