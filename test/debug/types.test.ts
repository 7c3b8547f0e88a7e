// Member paths from the types (containers.md, SPDB: "the member path its offset falls in, from the
// types"), on a TPI stream built here with the HLSL leaves: struct members, arrays, vectors and
// matrices of both majors. The oracle listings check the column-major and struct cases against
// Microsoft's text; the row-major reading (bit 0 of the matrix attributes) is checked only here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTypeStream, LF } from '../../src/debug/tpi.js';
import { memberPath, typeName, typeSize } from '../../src/debug/typepath.js';

/** A TPI stream: the 56-byte header, then the records (each padded to 4 bytes). */
function tpi(records: number[][]): Uint8Array {
  const body: number[] = [];
  for (const r of records) {
    const padded = [...r];
    while ((padded.length + 2) % 4) padded.push(0xf0 + ((4 - ((padded.length + 2) % 4)) & 3));
    body.push(padded.length & 0xff, padded.length >> 8, ...padded);
  }
  const head = new DataView(new ArrayBuffer(56));
  head.setUint32(0, 20040203, true);
  head.setUint32(4, 56, true);
  head.setUint32(8, 0x1000, true);
  head.setUint32(12, 0x1000 + records.length, true);
  head.setUint32(16, body.length, true);
  return new Uint8Array([...new Uint8Array(head.buffer), ...body]);
}
const u16 = (v: number): number[] => [v & 0xff, v >> 8];
const u32 = (v: number): number[] => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >>> 24];
const str = (s: string): number[] => [...s].map((c) => c.charCodeAt(0)).concat(0);
const T_REAL32 = 0x40;

const stream = readTypeStream(
  tpi([
    /* 0x1000 */ [...u16(LF.VECTOR), ...u32(T_REAL32), ...u32(4), ...u16(16), ...str('float4')],
    /* 0x1001 */ [
      ...u16(LF.MATRIX),
      ...u32(T_REAL32),
      ...u32(2),
      ...u32(3),
      ...u32(16),
      0,
      ...u16(32),
      ...str('float2x3'),
    ],
    /* 0x1002 */ [
      ...u16(LF.MATRIX),
      ...u32(T_REAL32),
      ...u32(2),
      ...u32(3),
      ...u32(16),
      1,
      ...u16(32),
      ...str('float2x3'),
    ],
    /* 0x1003 */ [...u16(LF.ARRAY), ...u32(0x1000), ...u32(0x75), ...u16(48), ...str('')],
    /* 0x1004 */ [
      ...u16(LF.FIELDLIST),
      ...[...u16(LF.MEMBER), ...u16(3), ...u32(0x1000), ...u16(0), ...str('pos'), 0xf2, 0xf1],
      ...[...u16(LF.MEMBER), ...u16(3), ...u32(0x1003), ...u16(16), ...str('arr'), 0xf2, 0xf1],
      ...[...u16(LF.MEMBER), ...u16(3), ...u32(0x1002), ...u16(64), ...str('m')],
    ],
    /* 0x1005 */ [
      ...u16(LF.STRUCTURE),
      ...u16(3),
      ...u16(0),
      ...u32(0x1004),
      ...u32(0),
      ...u32(0),
      ...u16(96),
      ...str('S'),
    ],
    /* 0x1006 */ [...u16(LF.MODIFIER_EX), ...u32(0x1005), ...u16(1), ...u16(0x200)],
  ]),
  'test TPI',
);

test('member paths: vectors, matrices of both majors, arrays, structs through a modifier', () => {
  assert.equal(memberPath(stream, 0x1000, 8), '.z');
  // Column-major 2x3: each column (16 bytes) holds a column's rows; byte 20 is column 1, row 1.
  assert.equal(memberPath(stream, 0x1001, 20), '._m11');
  assert.equal(memberPath(stream, 0x1001, 16), '._m01');
  // Row-major 2x3: each row holds its columns; byte 20 is row 1, column 1; byte 8 row 0, column 2.
  assert.equal(memberPath(stream, 0x1002, 8), '._m02');
  assert.equal(memberPath(stream, 0x1002, 20), '._m11');
  assert.equal(memberPath(stream, 0x1003, 36), '[2].y');
  assert.equal(memberPath(stream, 0x1006, 4), '.pos.y');
  assert.equal(memberPath(stream, 0x1006, 40), '.arr[1].z');
  assert.equal(memberPath(stream, 0x1006, 64 + 16 + 4), '.m._m11');
  assert.equal(memberPath(stream, T_REAL32, 0), '');
  assert.equal(typeSize(stream, 0x1006), 96);
  assert.equal(typeName(stream, 0x1006), 'S');
});

test('a type record past the records’ end is E504', () => {
  const bytes = tpi([[...u16(LF.VECTOR), ...u32(T_REAL32), ...u32(4), ...u16(16), ...str('float4')]]);
  bytes[56] = 0xff; // the record's length
  assert.throws(
    () => readTypeStream(bytes, 'test TPI'),
    (e: unknown) => e instanceof Error && 'code' in e && e.code === 'E504_DEBUG_BAD' && /runs past/.test(e.message),
  );
});
