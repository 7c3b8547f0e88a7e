// Signature parts (containers.md, "Signature parts"): ISGN/OSGN/PCSG with 24-byte records,
// OSG5 with 28 (stream first), ISG1/OSG1/PSG1 with 32 (stream first, minimum precision last).
// A part is a count, the offset of the first record (8), the records, then the names. The record
// size follows from the part kind and is checked against where the first name starts: in every
// container fxc writes, the first name starts directly after the last record.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';
import { badPartString, partStringAt, u32 } from './common.js';

export type SignatureKind = 'ISGN' | 'OSGN' | 'PCSG' | 'OSG5' | 'ISG1' | 'OSG1' | 'PSG1';

/** Record size and layout per part kind. */
export const SIGNATURE_LAYOUTS: Readonly<
  Record<SignatureKind, { readonly size: number; readonly stream: boolean; readonly minPrecision: boolean }>
> = {
  ISGN: { size: 24, stream: false, minPrecision: false },
  OSGN: { size: 24, stream: false, minPrecision: false },
  PCSG: { size: 24, stream: false, minPrecision: false },
  OSG5: { size: 28, stream: true, minPrecision: false },
  ISG1: { size: 32, stream: true, minPrecision: true },
  OSG1: { size: 32, stream: true, minPrecision: true },
  PSG1: { size: 32, stream: true, minPrecision: true },
};

export function isSignatureKind(kind: string): kind is SignatureKind {
  return Object.prototype.hasOwnProperty.call(SIGNATURE_LAYOUTS, kind);
}

export interface SignatureElement {
  readonly semanticName: string;
  readonly semanticIndex: number;
  /** The stored system value (D3D10_SB_NAME numbering; 0 for SV_Target and the like). */
  readonly systemValue: number;
  /** D3D_REGISTER_COMPONENT_TYPE: 0 unknown, 1 uint32, 2 sint32, 3 float32 (and 64-bit kinds). */
  readonly componentType: number;
  readonly register: number;
  readonly mask: number;
  /** Inputs: the components the program reads; outputs: the components it never writes. */
  readonly readWriteMask: number;
  readonly stream: number;
  /** The stored minimum-precision code (0 default, 1 float16, 2 float 2.8, 4 sint16, 5 uint16). */
  readonly minPrecision: number;
}

export interface Signature {
  readonly kind: SignatureKind;
  readonly elements: readonly SignatureElement[];
}

/** Reads a signature part's payload. `base` is the payload's offset in the container, for errors. */
export function readSignature(kind: SignatureKind, data: Uint8Array, base = 0): Signature {
  const layout = SIGNATURE_LAYOUTS[kind];
  const r = new ByteReader(data, { base, where: kind, code: 'E201_PART_TRUNCATED' });
  const count = r.u32At(0, 'the element count');
  const first = r.u32At(4, 'the record offset');
  if (count === 0) return { kind, elements: [] };
  if (first < 8 || first > data.byteLength) {
    throw r.fail(
      'E202_PART_BAD_OFFSET',
      `the record offset ${hex(first)} is outside the part (size ${hex(data.byteLength)})`,
      4,
    );
  }
  const room = data.byteLength - first;
  if (count > Math.floor(room / layout.size)) {
    throw r.fail(
      'E203_PART_BAD_COUNT',
      `${count} records of ${layout.size} bytes do not fit in the ${room} bytes after the record offset`,
      0,
    );
  }
  const recordsEnd = first + count * layout.size;
  // The record size is fixed by the kind; the first name must start where the records end.
  let lowestName = Infinity;
  const elements: SignatureElement[] = [];
  for (let i = 0; i < count; i++) {
    let at = first + i * layout.size;
    const stream = layout.stream ? u32(data, at) : 0;
    if (layout.stream) at += 4;
    const nameOffset = u32(data, at);
    if (nameOffset < recordsEnd) {
      throw r.fail(
        'E207_PART_BAD_VALUE',
        `element ${i}'s name at ${hex(nameOffset)} lies inside the ${count} records of ${layout.size} bytes (which end at ${hex(recordsEnd)}): the record size contradicts the names`,
        at,
      );
    }
    lowestName = Math.min(lowestName, nameOffset);
    elements.push({
      semanticName: partStringAt(r, nameOffset) ?? badPartString(r, nameOffset, `element ${i}'s name`),
      semanticIndex: u32(data, at + 4),
      systemValue: u32(data, at + 8),
      componentType: u32(data, at + 12),
      register: u32(data, at + 16),
      mask: data[at + 20]!,
      readWriteMask: data[at + 21]!,
      stream,
      minPrecision: layout.minPrecision ? u32(data, at + 24) : 0,
    });
  }
  if (lowestName !== recordsEnd) {
    throw r.fail(
      'E207_PART_BAD_VALUE',
      `the first name starts at ${hex(lowestName)}, not where ${count} records of ${layout.size} bytes end (${hex(recordsEnd)}): the record size contradicts the names`,
      first,
    );
  }
  return { kind, elements };
}
