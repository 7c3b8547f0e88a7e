// The PDB info stream (stream 1) and its named-stream map, and the string table /names
// (spec: containers.md, "Debug information in Shader Model 4 and 5 (SPDB)", stream 1).
// The map is a serialized hash table: a string buffer, then size, capacity, the present and
// deleted bit vectors and a (string offset, stream) pair per present slot.

import { ByteReader } from '../binary/reader.js';
import { IridiaError } from '../errors.js';

export interface PdbInfo {
  readonly version: number;
  readonly signature: number;
  readonly age: number;
  /** The GUID's 16 bytes as lowercase hex. */
  readonly guid: string;
  /** Stream index of each named stream ('/names', '/src/files/...'). */
  readonly namedStreams: ReadonlyMap<string, number>;
}

export function readPdbInfo(bytes: Uint8Array, where = 'SPDB stream 1'): PdbInfo {
  const r = new ByteReader(bytes, { where, code: 'E504_DEBUG_BAD' });
  const version = r.u32('the PDB version');
  const signature = r.u32('the PDB signature');
  const age = r.u32('the PDB age');
  let guid = '';
  for (const b of r.slice(12, 16, 'the PDB GUID')) guid += b.toString(16).padStart(2, '0');
  r.pos = 28;
  const bufferSize = r.u32('the named-stream string buffer size');
  const bufferAt = r.pos;
  r.require(bufferAt, bufferSize, 'the named-stream string buffer');
  const strings = r.sub(bufferAt, bufferSize, 'the named-stream string buffer');
  r.pos = bufferAt + bufferSize;
  const size = r.u32('the named-stream map size');
  const capacity = r.u32('the named-stream map capacity');
  if (size > capacity || capacity > r.length)
    throw r.fail('E504_DEBUG_BAD', `the named-stream map has ${size} entries in a capacity of ${capacity}`);
  const present = readBitVector(r, 'present');
  readBitVector(r, 'deleted');
  const namedStreams = new Map<string, number>();
  for (let slot = 0; slot < capacity; slot++) {
    if (!present.has(slot)) continue;
    const at = r.pos;
    const key = r.u32('a named stream name offset');
    const stream = r.u32('a named stream index');
    if (key >= bufferSize) throw r.fail('E504_DEBUG_BAD', `a named stream's name offset ${key} is past the buffer`, at);
    namedStreams.set(strings.cstringAt(key, 'a stream name'), stream);
  }
  if (namedStreams.size !== size)
    throw r.fail('E504_DEBUG_BAD', `the named-stream map says ${size} entries but marks ${namedStreams.size}`);
  return { version, signature, age, guid, namedStreams };
}

function readBitVector(r: ByteReader, what: string): Set<number> {
  const words = r.u32(`the ${what} bit vector's length`);
  r.require(r.pos, words * 4, `the ${what} bit vector`);
  const set = new Set<number>();
  for (let w = 0; w < words; w++) {
    const v = r.u32();
    for (let b = 0; b < 32; b++) if ((v >>> b) & 1) set.add(w * 32 + b);
  }
  return set;
}

/** The /names string table: strings by their byte offset. */
export interface StringTable {
  at(offset: number): string;
}

export function readStringTable(bytes: Uint8Array, where = 'SPDB /names'): StringTable {
  const r = new ByteReader(bytes, { where, code: 'E504_DEBUG_BAD' });
  const magic = r.u32('the string table signature');
  if (magic !== 0xeffeeffe)
    throw new IridiaError('E504_DEBUG_BAD', `the string table signature is 0x${magic.toString(16)}, not 0xeffeeffe`, {
      offset: 0,
      part: where,
    });
  r.u32('the string table hash version');
  const size = r.u32('the string table size');
  const strings = r.sub(12, size, 'the string table');
  return { at: (offset) => strings.cstringAt(offset, 'a /names string') };
}
