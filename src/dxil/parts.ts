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
