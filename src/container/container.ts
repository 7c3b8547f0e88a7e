// The DirectX container (containers.md, "Container"): 'DXBC', a 16-byte digest, a version word,
// the total size, a part count, one offset per part; each part a FourCC, a size and its bytes.
// Parsing keeps views into the caller's bytes. What fxc/dxc never write but a reader can still
// follow (gaps, trailing bytes, a kind twice, another version) is a finding; what cannot be read
// is an IridiaError naming the offset.

import { ByteReader, fourccFromString } from '../binary/reader.js';
import { IridiaError, hex } from '../errors.js';
import { containerDigest } from './digest.js';

export const CONTAINER_MAGIC = 0x43425844; // 'DXBC'
export const HEADER_SIZE = 32;
export const PART_HEADER_SIZE = 8;

export interface Part {
  /** The part kind as four Latin-1 characters ('SHEX', 'RDEF', ...). */
  readonly kind: string;
  /** Offset of the part's 8-byte header in the container. */
  readonly offset: number;
  /** The part's payload (after its kind and size), a view into the container's bytes. */
  readonly data: Uint8Array;
}

export type FindingKind =
  | 'version' // the version word is not 1
  | 'gap' // bytes between parts (or between the directory and the first part)
  | 'trailing' // bytes after the last part but inside the stored size
  | 'extra-bytes' // bytes after the stored total size
  | 'duplicate-kind' // a part kind twice
  | 'order' // parts not laid out in directory order
  | 'zero-parts'; // a container with no part

export interface Finding {
  readonly kind: FindingKind;
  readonly offset: number;
  readonly message: string;
}

export type DigestState = 'valid' | 'unsigned' | 'stale';

export interface Container {
  /** The container's bytes (a view of the input, up to the stored total size). */
  readonly bytes: Uint8Array;
  readonly digest: Uint8Array;
  readonly version: number;
  readonly totalSize: number;
  readonly parts: readonly Part[];
  readonly findings: readonly Finding[];
}

/** Does `bytes` start with the container magic? */
export function hasContainerMagic(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && bytes[0] === 0x44 && bytes[1] === 0x58 && bytes[2] === 0x42 && bytes[3] === 0x43;
}

/** Reads a container's header, directory and parts. Throws IridiaError for what cannot be read. */
export function parseContainer(input: Uint8Array): Container {
  const r = new ByteReader(input, { where: 'header', code: 'E101_TRUNCATED' });
  if (input.byteLength < 4)
    throw r.fail('E101_TRUNCATED', `the data is ${input.byteLength} bytes, too short for the magic`, 0);
  const magic = r.u32At(0, 'the magic');
  if (magic !== CONTAINER_MAGIC) {
    throw r.fail('E102_BAD_MAGIC', `the magic is ${hex(magic)}, not 'DXBC' (0x43425844)`, 0);
  }
  const digest = r.slice(4, 16, 'the digest');
  const version = r.u32At(20, 'the version word');
  const totalSize = r.u32At(24, 'the total size');
  const partCount = r.u32At(28, 'the part count');
  const findings: Finding[] = [];
  if (totalSize > input.byteLength) {
    throw r.fail(
      'E103_SIZE_MISMATCH',
      `the stored total size ${hex(totalSize)} is past the end of the data ${hex(input.byteLength)}`,
      24,
    );
  }
  if (totalSize < HEADER_SIZE) {
    throw r.fail(
      'E103_SIZE_MISMATCH',
      `the stored total size ${hex(totalSize)} is smaller than the 32-byte header`,
      24,
    );
  }
  if (version !== 1) findings.push({ kind: 'version', offset: 20, message: `version word is ${hex(version)}, not 1` });
  if (totalSize < input.byteLength) {
    findings.push({
      kind: 'extra-bytes',
      offset: totalSize,
      message: `${input.byteLength - totalSize} bytes follow the stored total size ${hex(totalSize)}`,
    });
  }
  const bytes = input.subarray(0, totalSize);
  const maxParts = Math.floor((totalSize - HEADER_SIZE) / 4);
  if (partCount > maxParts) {
    throw r.fail(
      'E104_PART_COUNT',
      `the part count ${partCount} needs a directory of ${partCount} offsets, but only ${maxParts} fit in the ${hex(totalSize)} bytes`,
      28,
    );
  }
  const dirEnd = HEADER_SIZE + 4 * partCount;
  const body = new ByteReader(bytes, { code: 'E105_PART_OFFSET' });
  const parts: Part[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < partCount; i++) {
    const at = HEADER_SIZE + 4 * i;
    const offset = body.u32At(at, `part ${i}'s offset`);
    if (offset < dirEnd || offset > totalSize || totalSize - offset < PART_HEADER_SIZE) {
      throw new IridiaError(
        'E105_PART_OFFSET',
        `part ${i} has offset ${hex(offset)}, outside the parts area ${hex(dirEnd)}..${hex(totalSize)}`,
        { offset: at },
      );
    }
    const kind = body.fourccAt(offset, `part ${i}'s kind`);
    const size = body.u32At(offset + 4, `part ${i}'s size`);
    if (size > totalSize - offset - PART_HEADER_SIZE) {
      throw new IridiaError(
        'E106_PART_SIZE',
        `part ${i} (${printableKind(kind)}) at ${hex(offset)} has size ${hex(size)}, past the end ${hex(totalSize)}`,
        { offset: offset + 4, part: printableKind(kind) },
      );
    }
    if (seen.has(kind)) {
      findings.push({
        kind: 'duplicate-kind',
        offset,
        message: `part kind ${printableKind(kind)} appears more than once`,
      });
    }
    seen.add(kind);
    parts.push({ kind, offset, data: bytes.subarray(offset + PART_HEADER_SIZE, offset + PART_HEADER_SIZE + size) });
  }
  if (partCount === 0) findings.push({ kind: 'zero-parts', offset: 28, message: 'the container has no part' });
  checkLayout(parts, dirEnd, totalSize, findings);
  return { bytes, digest, version, totalSize, parts, findings };
}

function checkLayout(parts: readonly Part[], dirEnd: number, totalSize: number, findings: Finding[]): void {
  const sorted = [...parts].sort((x, y) => x.offset - y.offset);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    const prevEnd = prev.offset + PART_HEADER_SIZE + prev.data.byteLength;
    if (cur.offset < prevEnd) {
      throw new IridiaError(
        'E107_PART_OVERLAP',
        `part ${printableKind(cur.kind)} at ${hex(cur.offset)} overlaps part ${printableKind(prev.kind)} at ${hex(prev.offset)}..${hex(prevEnd)}`,
        { offset: cur.offset, part: printableKind(cur.kind) },
      );
    }
  }
  for (let i = 1; i < parts.length; i++) {
    if (parts[i]!.offset < parts[i - 1]!.offset) {
      findings.push({ kind: 'order', offset: parts[i]!.offset, message: 'parts are not laid out in directory order' });
      break;
    }
  }
  let expected = dirEnd;
  for (const p of sorted) {
    if (p.offset !== expected) {
      findings.push({
        kind: 'gap',
        offset: expected,
        message: `${p.offset - expected} bytes lie between ${hex(expected)} and part ${printableKind(p.kind)} at ${hex(p.offset)}`,
      });
    }
    expected = p.offset + PART_HEADER_SIZE + p.data.byteLength;
  }
  if (expected < totalSize) {
    findings.push({
      kind: 'trailing',
      offset: expected,
      message: `${totalSize - expected} bytes follow the last part`,
    });
  }
}

/** A part kind shown safely in messages (non-printable bytes as \xNN). */
export function printableKind(kind: string): string {
  let s = '';
  for (const ch of kind) {
    const c = ch.charCodeAt(0);
    s += c >= 0x20 && c < 0x7f ? ch : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return s;
}

/** Whether the stored digest is the one the compiler would write, zero, or stale. */
export function digestState(c: Pick<Container, 'bytes' | 'digest'>): DigestState {
  if (c.digest.every((b) => b === 0)) return 'unsigned';
  const want = containerDigest(c.bytes);
  for (let i = 0; i < 16; i++) if (want[i] !== c.digest[i]) return 'stale';
  return 'valid';
}

export function findPart(c: Container, kind: string): Part | undefined {
  return c.parts.find((p) => p.kind === kind);
}

export interface PartInput {
  readonly kind: string;
  readonly data: Uint8Array;
}

/**
 * Writes a container from parts, in the given order, each exactly as given, behind a header whose
 * size, part count, directory and digest follow from them. The exact inverse of parseContainer for
 * every container with no gap and no trailing bytes.
 */
export function serializeContainer(
  parts: readonly PartInput[],
  options: { version?: number; sign?: boolean } = {},
): Uint8Array {
  let total = HEADER_SIZE + 4 * parts.length;
  for (const p of parts) {
    fourccFromString(p.kind);
    total += PART_HEADER_SIZE + p.data.byteLength;
  }
  if (total > 0xffffffff)
    throw new IridiaError('E109_BAD_ARGUMENT', `the container would be ${total} bytes, over 4 GiB`);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, CONTAINER_MAGIC, true);
  v.setUint32(20, options.version ?? 1, true);
  v.setUint32(24, total, true);
  v.setUint32(28, parts.length, true);
  let at = HEADER_SIZE + 4 * parts.length;
  parts.forEach((p, i) => {
    v.setUint32(HEADER_SIZE + 4 * i, at, true);
    v.setUint32(at, fourccFromString(p.kind), true);
    v.setUint32(at + 4, p.data.byteLength, true);
    out.set(p.data, at + PART_HEADER_SIZE);
    at += PART_HEADER_SIZE + p.data.byteLength;
  });
  if (options.sign ?? true) out.set(containerDigest(out), 4);
  return out;
}

/** Writes the container back from its parts (the round trip), keeping its version word. */
export function rewriteContainer(c: Container, options: { sign?: boolean } = {}): Uint8Array {
  const out = serializeContainer(c.parts, { version: c.version, sign: false });
  if (options.sign ?? false) out.set(containerDigest(out), 4);
  else out.set(c.digest, 4);
  return out;
}

/** A copy of the container's bytes with the digest recomputed. */
export function signContainer(bytes: Uint8Array): Uint8Array {
  const c = parseContainer(bytes);
  const out = c.bytes.slice();
  out.set(containerDigest(out), 4);
  return out;
}

/** Replaces (or with `add`, appends; with `remove`, drops) a part and writes a re-signed container. */
export function editContainer(
  c: Container,
  edit: { op: 'replace' | 'add'; kind: string; data: Uint8Array } | { op: 'remove'; kind: string },
): Uint8Array {
  const has = c.parts.some((p) => p.kind === edit.kind);
  let parts: PartInput[];
  switch (edit.op) {
    case 'replace':
      if (!has)
        throw new IridiaError('E108_PART_MISSING', `the container has no ${printableKind(edit.kind)} part to replace`);
      parts = c.parts.map((p) => (p.kind === edit.kind ? { kind: p.kind, data: edit.data } : p));
      break;
    case 'add':
      if (has)
        throw new IridiaError('E109_BAD_ARGUMENT', `the container already has a ${printableKind(edit.kind)} part`);
      parts = [...c.parts, { kind: edit.kind, data: edit.data }];
      break;
    case 'remove':
      if (!has)
        throw new IridiaError('E108_PART_MISSING', `the container has no ${printableKind(edit.kind)} part to remove`);
      parts = c.parts.filter((p) => p.kind !== edit.kind);
      break;
  }
  return serializeContainer(parts, { version: c.version });
}
