// The byte layer of skate.'s engine structures (../shared/spec/skate-bindings.md): a field reader
// that names the structure, the field and the field's offset in every error and remembers which
// bytes a field claimed, and a field writer that is its exact inverse. Bytes no field claims are
// kept as unknown ranges (never dropped), so writer(reader(bytes)) gives the bytes back.

import { IridiaError, hex, type ErrorCode } from '../../errors.js';

export type SkateStructure = 'binding set' | 'pass binding' | 'input layout' | 'render state';

/** A typed error of an engine structure: the structure, the field and the field's offset. */
export class SkateError extends IridiaError {
  readonly structure: SkateStructure;
  readonly field: string;
  constructor(code: ErrorCode, structure: SkateStructure, field: string, offset: number, reason: string) {
    super(code, `${structure}: ${field}: ${reason}`, { offset });
    this.structure = structure;
    this.field = field;
  }
}

/** Bytes of a payload that no field of the spec's tables covers, kept as they are. */
export interface UnknownBytes {
  readonly offset: number;
  /** The bytes in file order, two lowercase hex digits each. */
  readonly bytes: string;
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** A u64 as the 16-digit hex string the JSON views print. */
export function hex64(v: bigint): string {
  return v.toString(16).padStart(16, '0');
}

export class FieldReader {
  readonly bytes: Uint8Array;
  readonly structure: SkateStructure;
  private readonly view: DataView;
  private readonly claimed: Uint8Array;

  constructor(bytes: Uint8Array, structure: SkateStructure) {
    this.bytes = bytes;
    this.structure = structure;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.claimed = new Uint8Array(bytes.byteLength);
  }

  get size(): number {
    return this.bytes.byteLength;
  }

  fail(code: ErrorCode, field: string, offset: number, reason: string): SkateError {
    return new SkateError(code, this.structure, field, offset, reason);
  }

  /** Checks that `size` bytes at `offset` lie inside the payload (in a form that cannot overflow). */
  private need(offset: number, size: number, field: string): void {
    if (!(offset >= 0 && offset <= this.size && size <= this.size - offset))
      throw this.fail(
        'E801_SKATE_TRUNCATED',
        field,
        offset,
        `needs ${size} bytes but the payload ends at ${hex(this.size)}`,
      );
  }

  private claim(offset: number, size: number): void {
    this.claimed.fill(1, offset, offset + size);
  }

  u8(offset: number, field: string): number {
    this.need(offset, 1, field);
    this.claim(offset, 1);
    return this.view.getUint8(offset);
  }
  u16(offset: number, field: string): number {
    this.need(offset, 2, field);
    this.claim(offset, 2);
    return this.view.getUint16(offset, true);
  }
  i16(offset: number, field: string): number {
    this.need(offset, 2, field);
    this.claim(offset, 2);
    return this.view.getInt16(offset, true);
  }
  u32(offset: number, field: string): number {
    this.need(offset, 4, field);
    this.claim(offset, 4);
    return this.view.getUint32(offset, true);
  }
  u64(offset: number, field: string): bigint {
    this.need(offset, 8, field);
    this.claim(offset, 8);
    return this.view.getBigUint64(offset, true);
  }
  /** Raw bytes of a field (hex, file order). */
  raw(offset: number, size: number, field: string): string {
    this.need(offset, size, field);
    this.claim(offset, size);
    return toHex(this.bytes.subarray(offset, offset + size));
  }

  /**
   * A pointer or offset field's value checked against the payload: the table it starts, `count`
   * items of `itemSize` bytes, must lie inside. `at` is where the pointer field itself is.
   * Returns the offset as a number. Nothing is allocated by the count before this check.
   */
  table(value: bigint | number, count: number, itemSize: number, field: string, at: number): number {
    const v = BigInt(value);
    if (v > BigInt(this.size))
      throw this.fail(
        'E802_SKATE_BAD_OFFSET',
        field,
        at,
        `${hex64(v)} is past the end of the payload ${hex(this.size)}`,
      );
    const offset = Number(v);
    if (count * itemSize > this.size - offset)
      throw this.fail(
        'E803_SKATE_BAD_COUNT',
        field,
        at,
        `${count} items of ${itemSize} bytes at ${hex(offset)} run past the end of the payload ${hex(this.size)}`,
      );
    return offset;
  }

  /** The ranges no field claimed, in order. */
  unknown(): UnknownBytes[] {
    const out: UnknownBytes[] = [];
    let i = 0;
    while (i < this.size) {
      if (this.claimed[i]) {
        i++;
        continue;
      }
      const start = i;
      while (i < this.size && !this.claimed[i]) i++;
      out.push({ offset: start, bytes: toHex(this.bytes.subarray(start, i)) });
    }
    return out;
  }
}

/**
 * The inverse of FieldReader: writes fields into a payload of a stated size. A byte written twice
 * must get the same value both times (two tables may share bytes only when they agree), and every
 * byte must be written by a field or an unknown range: a structure that does not describe all of
 * its payload cannot be the reading of any payload, so it is refused (E109).
 */
export class FieldWriter {
  readonly bytes: Uint8Array;
  readonly structure: SkateStructure;
  private readonly written: Uint8Array;

  constructor(size: number, structure: SkateStructure) {
    if (!Number.isSafeInteger(size) || size < 0 || size > 0x7fffffff)
      throw new IridiaError('E109_BAD_ARGUMENT', `${structure}: payload size ${size} is not a byte count`);
    this.bytes = new Uint8Array(size);
    this.structure = structure;
    this.written = new Uint8Array(size);
  }

  private bad(field: string, offset: number, why: string): IridiaError {
    return new IridiaError('E109_BAD_ARGUMENT', `${this.structure} writer: ${field} (at ${hex(offset)}): ${why}`, {
      offset,
    });
  }

  private put(offset: number, src: Uint8Array, field: string): void {
    if (!(Number.isSafeInteger(offset) && offset >= 0 && src.byteLength <= this.bytes.byteLength - offset))
      throw this.bad(field, offset, `${src.byteLength} bytes do not fit in a payload of ${hex(this.bytes.byteLength)}`);
    for (let i = 0; i < src.byteLength; i++) {
      const o = offset + i;
      if (this.written[o] && this.bytes[o] !== src[i])
        throw this.bad(field, offset, `byte ${hex(o)} was already written with another value`);
      this.bytes[o] = src[i]!;
      this.written[o] = 1;
    }
  }

  private int(v: number, bits: number, signed: boolean, field: string, offset: number): void {
    const lo = signed ? -(2 ** (bits - 1)) : 0;
    const hi = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    if (!Number.isInteger(v) || v < lo || v > hi)
      throw this.bad(field, offset, `${v} is not a ${signed ? 'i' : 'u'}${bits}`);
  }

  u8(offset: number, v: number, field: string): void {
    this.int(v, 8, false, field, offset);
    this.put(offset, Uint8Array.of(v), field);
  }
  u16(offset: number, v: number, field: string): void {
    this.int(v, 16, false, field, offset);
    const b = new Uint8Array(2);
    new DataView(b.buffer).setUint16(0, v, true);
    this.put(offset, b, field);
  }
  i16(offset: number, v: number, field: string): void {
    this.int(v, 16, true, field, offset);
    const b = new Uint8Array(2);
    new DataView(b.buffer).setInt16(0, v, true);
    this.put(offset, b, field);
  }
  u32(offset: number, v: number, field: string): void {
    this.int(v, 32, false, field, offset);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    this.put(offset, b, field);
  }
  u64(offset: number, v: bigint | number, field: string): void {
    const big = BigInt(v);
    if (big < 0n || big > 0xffffffffffffffffn) throw this.bad(field, offset, `${big} is not a u64`);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, big, true);
    this.put(offset, b, field);
  }
  raw(offset: number, hexBytes: string, size: number, field: string): void {
    if (!/^(?:[0-9a-f]{2})*$/.test(hexBytes) || hexBytes.length !== size * 2)
      throw this.bad(field, offset, `${JSON.stringify(hexBytes)} is not ${size} bytes of lowercase hex`);
    this.put(offset, fromHex(hexBytes), field);
  }
  unknown(ranges: readonly UnknownBytes[]): void {
    for (const u of ranges) {
      if (!/^(?:[0-9a-f]{2})+$/.test(u.bytes)) throw this.bad('unknown bytes', u.offset, 'not lowercase hex');
      this.put(u.offset, fromHex(u.bytes), 'unknown bytes');
    }
  }
  /** The payload, once every byte has been written. */
  finish(): Uint8Array {
    const gap = this.written.indexOf(0);
    if (gap >= 0) throw this.bad('payload', gap, 'no field or unknown range describes this byte');
    return this.bytes;
  }
}

export function fromHex(s: string): Uint8Array {
  const out = new Uint8Array(s.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Zero-byte unknown ranges covering [start, end) (padding of a constructed layout). */
export function zeros(start: number, end: number): UnknownBytes[] {
  return end > start ? [{ offset: start, bytes: '00'.repeat(end - start) }] : [];
}
