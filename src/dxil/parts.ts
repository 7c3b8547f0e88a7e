// The small DXIL-only parts (DxilContainer.h): ILDN (shader debug name: flags, name length, the
// name, zero-padded to four bytes), HASH (flags, 16-byte digest), VERS (compiler version), SRCI
// (source info: its section headers).

import { ByteReader } from '../binary/reader.js';

export interface Ildn {
  readonly flags: number;
  readonly name: string;
}

export function readIldn(data: Uint8Array, base = 0): Ildn {
  const r = new ByteReader(data, { base, where: 'ILDN', code: 'E201_PART_TRUNCATED' });
  const flags = r.u16At(0, 'the flags');
  const len = r.u16At(2, 'the name length');
  const bytes = r.slice(4, len, 'the name');
  let name = '';
  for (const b of bytes) name += String.fromCharCode(b);
  return { flags, name };
}

export interface ShaderHash {
  readonly flags: number;
  /** 32 lower-case hex digits. */
  readonly digest: string;
  readonly includesSource: boolean;
}

export function readHash(data: Uint8Array, base = 0): ShaderHash {
  const r = new ByteReader(data, { base, where: 'HASH', code: 'E201_PART_TRUNCATED' });
  const flags = r.u32At(0, 'the flags');
  let digest = '';
  for (const b of r.slice(4, 16, 'the digest')) digest += b.toString(16).padStart(2, '0');
  return { flags, digest, includesSource: (flags & 1) !== 0 };
}

export interface CompilerVersion {
  readonly major: number;
  readonly minor: number;
  readonly flags: number;
  readonly commitCount: number;
  readonly commitSha: string;
  readonly customVersion: string;
}

/** VERS (DxilCompilerVersion): major, minor, flags, commit count, then the commit and a custom string. */
export function readVers(data: Uint8Array, base = 0): CompilerVersion {
  const r = new ByteReader(data, { base, where: 'VERS', code: 'E201_PART_TRUNCATED' });
  const size = r.u32At(12, 'the string list size');
  const list = r.slice(16, size, 'the version strings');
  const strs: string[] = [];
  let cur = '';
  for (const b of list) {
    if (b === 0) {
      strs.push(cur);
      cur = '';
    } else cur += String.fromCharCode(b);
  }
  return {
    major: r.u16At(0),
    minor: r.u16At(2),
    flags: r.u32At(4),
    commitCount: r.u32At(8),
    commitSha: strs[0] ?? '',
    customVersion: strs[1] ?? '',
  };
}

export interface SourceInfoSection {
  /** 0 source contents, 1 source names, 2 arguments. */
  readonly type: number;
  readonly flags: number;
  readonly data: Uint8Array;
}

/** SRCI (DxilSourceInfo): a size, flags, and sections each with a size, flags and a type. */
export function readSrci(data: Uint8Array, base = 0): SourceInfoSection[] {
  const r = new ByteReader(data, { base, where: 'SRCI', code: 'E201_PART_TRUNCATED' });
  const total = r.u32At(0, 'the size');
  const count = r.u16At(6, 'the section count');
  if (total > data.byteLength) throw r.fail('E201_PART_TRUNCATED', `the source info claims ${total} bytes`, 0);
  const out: SourceInfoSection[] = [];
  let at = 8;
  for (let i = 0; i < count; i++) {
    const size = r.u32At(at, 'a section size');
    if (size < 8 || size > total - at)
      throw r.fail('E202_PART_BAD_OFFSET', `source info section ${i} has size ${size}`, at);
    out.push({ type: r.u16At(at + 6), flags: r.u16At(at + 4), data: r.slice(at + 8, size - 8) });
    at += size;
  }
  return out;
}
