// The TPI/IPI type stream reader (src/debug/tpi.ts) on records built here byte by byte from
// CodeView's layouts (Microsoft's cvinfo.h: lfModifier, lfPointer, lfProc, lfArgList, lfFieldList
// with lfMember and its LF_PAD bytes, lfArray, lfClass/lfStructure/lfUnion, lfEnum, lfFuncId,
// lfMFuncId, lfStringId; the HLSL leaves as dxc's and fxc's PDBs write them): every decoder, every
// numeric leaf width, the simple types' sizes, and the stream's bounds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteReader } from '../../src/binary/reader.js';
import { LF, numeric, readTypeStream, simpleTypeSize } from '../../src/debug/tpi.js';
import { IridiaError } from '../../src/errors.js';

/** A TPI stream: the 56-byte header, then the records (each padded to 4 bytes with LF_PAD bytes). */
function tpi(records: number[][], first = 0x1000): Uint8Array {
  const body: number[] = [];
  for (const r of records) {
    const padded = [...r];
    while ((padded.length + 2) % 4) padded.push(0xf0 + ((4 - ((padded.length + 2) % 4)) & 3));
    body.push(padded.length & 0xff, padded.length >> 8, ...padded);
  }
  const head = new DataView(new ArrayBuffer(56));
  head.setUint32(0, 20040203, true);
  head.setUint32(4, 56, true);
  head.setUint32(8, first, true);
  head.setUint32(12, first + records.length, true);
  head.setUint32(16, body.length, true);
  return new Uint8Array([...new Uint8Array(head.buffer), ...body]);
}
const u8 = (v: number): number[] => [v & 0xff];
const u16 = (v: number): number[] => [v & 0xff, (v >> 8) & 0xff];
const u32 = (v: number): number[] => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff];
const str = (s: string): number[] => [...s].map((c) => c.charCodeAt(0)).concat(0);
const isE504 = (e: unknown): boolean => e instanceof IridiaError && e.code === 'E504_DEBUG_BAD';

test('numeric leaves: a plain u16 and every wider kind CodeView defines', () => {
  const read = (bytes: number[]): number => numeric(new ByteReader(new Uint8Array(bytes), { where: 't' }));
  assert.equal(read(u16(0x7fff)), 0x7fff);
  assert.equal(read([...u16(0x8000), ...u8(0xff)]), -1); // LF_CHAR
  assert.equal(read([...u16(0x8001), ...u16(0x8000)]), -32768); // LF_SHORT
  assert.equal(read([...u16(0x8002), ...u16(0xffff)]), 65535); // LF_USHORT
  assert.equal(read([...u16(0x8003), ...u32(0xfffffffe)]), -2); // LF_LONG
  assert.equal(read([...u16(0x8004), ...u32(0xfffffffe)]), 0xfffffffe); // LF_ULONG
  assert.equal(read([...u16(0x8009), ...u32(5), ...u32(1)]), 2 ** 32 + 5); // LF_QUADWORD
  assert.equal(read([...u16(0x800a), ...u32(7), ...u32(0)]), 7); // LF_UQUADWORD
  assert.throws(
    () => read(u16(0x8005)),
    (e: unknown) => isE504(e) && /0x8005/.test((e as Error).message),
  );
});

const stream = readTypeStream(
  tpi([
    /* 0x1000 */ [...u16(LF.MODIFIER), ...u32(0x40), ...u16(0x0001)], // const float
    /* 0x1001 */ [...u16(LF.MODIFIER_EX), ...u32(0x40), ...u16(2), ...u16(1), ...u16(3)],
    /* 0x1002 */ [...u16(LF.POINTER), ...u32(0x1000), ...u32(0x1000c)],
    /* 0x1003 */ [...u16(LF.PROCEDURE), ...u32(0x03), ...u8(0), ...u8(0), ...u16(2), ...u32(0x1004)],
    /* 0x1004 */ [...u16(LF.ARGLIST), ...u32(2), ...u32(0x40), ...u32(0x74)],
    /* 0x1005 */ [
      ...u16(LF.FIELDLIST),
      ...[...u16(LF.MEMBER), ...u16(3), ...u32(0x40), ...u16(0), ...str('x'), 0xf2, 0xf1],
      ...[...u16(LF.MEMBER), ...u16(3), ...u32(0x74), ...u16(0x8002), ...u16(40000), ...str('far')],
    ],
    /* 0x1006 */ [...u16(LF.ARRAY), ...u32(0x40), ...u32(0x75), ...u16(0x8004), ...u32(70000), ...str('')],
    /* 0x1007 */ [
      ...u16(LF.STRUCTURE),
      ...u16(2),
      ...u16(0x200),
      ...u32(0x1005),
      ...u32(0),
      ...u32(0),
      ...u16(0x8002),
      ...u16(40004),
      ...str('S'),
    ],
    /* 0x1008 */ [...u16(LF.CLASS), ...u16(0), ...u16(0), ...u32(0), ...u32(0), ...u32(0), ...u16(0), ...str('C')],
    /* 0x1009 */ [...u16(LF.UNION), ...u16(1), ...u16(0), ...u32(0x1005), ...u16(4), ...str('U')],
    /* 0x100a */ [...u16(LF.ENUM), ...u16(2), ...u16(0), ...u32(0x74), ...u32(0), ...str('E')],
    /* 0x100b */ [...u16(LF.STRIDED_ARRAY), ...u32(0x40), ...u32(0x75), ...u32(16), ...u16(64), ...str('sa')],
    /* 0x100c */ [...u16(LF.HLSL), ...u32(0x40), ...u16(0x21), ...u16(5)],
    /* 0x100d */ [...u16(LF.VECTOR), ...u32(0x40), ...u32(3), ...u16(12), ...str('float3')],
    /* 0x100e */ [...u16(LF.MATRIX), ...u32(0x74), ...u32(4), ...u32(2), ...u32(8), 1, ...u16(32), ...str('int4x2')],
    /* 0x100f */ [...u16(LF.FUNC_ID), ...u32(0), ...u32(0x1003), ...str('main')],
    /* 0x1010 */ [...u16(LF.MFUNC_ID), ...u32(0x1008), ...u32(0x1003), ...str('Method')],
    /* 0x1011 */ [...u16(LF.STRING_ID), ...u32(0), ...str('C:\\src\\a.hlsl')],
    /* 0x1012 */ [...u16(LF.BUILDINFO), ...u16(0)],
  ]),
  'test TPI',
);

test('every leaf the reader decodes, field by field', () => {
  assert.deepEqual([stream.first, stream.end], [0x1000, 0x1013]);
  const leaves = Array.from({ length: stream.end - stream.first }, (_, i) => stream.leaf(stream.first + i));
  assert.deepEqual(leaves, [
    { kind: 'modifier', type: 0x40, attributes: 1 },
    { kind: 'modifier', type: 0x40, attributes: (1 << 1) | (1 << 3) },
    { kind: 'pointer', type: 0x1000, attributes: 0x1000c },
    { kind: 'procedure', returnType: 0x03, parameterCount: 2, argList: 0x1004 },
    { kind: 'arglist', types: [0x40, 0x74] },
    {
      kind: 'fieldlist',
      members: [
        { name: 'x', type: 0x40, offset: 0 },
        { name: 'far', type: 0x74, offset: 40000 },
      ],
    },
    { kind: 'array', elementType: 0x40, indexType: 0x75, size: 70000, name: '' },
    { kind: 'struct', leaf: LF.STRUCTURE, count: 2, properties: 0x200, fieldList: 0x1005, size: 40004, name: 'S' },
    { kind: 'struct', leaf: LF.CLASS, count: 0, properties: 0, fieldList: 0, size: 0, name: 'C' },
    { kind: 'struct', leaf: LF.UNION, count: 1, properties: 0, fieldList: 0x1005, size: 4, name: 'U' },
    { kind: 'enum', underlying: 0x74, name: 'E' },
    { kind: 'stridedArray', elementType: 0x40, indexType: 0x75, stride: 16, size: 64, name: 'sa' },
    { kind: 'hlsl', subtype: 0x40, hlslKind: 0x21, properties: 5 },
    { kind: 'vector', elementType: 0x40, count: 3, size: 12, name: 'float3' },
    {
      kind: 'matrix',
      elementType: 0x74,
      rows: 4,
      columns: 2,
      majorStride: 8,
      rowMajor: true,
      size: 32,
      name: 'int4x2',
    },
    { kind: 'funcId', scope: 0, type: 0x1003, name: 'main' },
    { kind: 'funcId', scope: 0x1008, type: 0x1003, name: 'Method' },
    { kind: 'stringId', substrings: 0, value: 'C:\\src\\a.hlsl' },
    { kind: 'other', leaf: LF.BUILDINFO },
  ]);
  // a simple type or an index outside the stream has no leaf; a leaf read twice is the same object
  assert.equal(stream.leaf(0x40), undefined);
  assert.equal(stream.leaf(0x1013), undefined);
  assert.equal(stream.leaf(0x1005), stream.leaf(0x1005));
});

test('a field list entry that is not LF_MEMBER, and a field past its record, are E504', () => {
  const s = readTypeStream(
    tpi([
      [...u16(LF.FIELDLIST), ...u16(0x1502), ...u16(0), ...u32(0)], // LF_ENUMERATE: not read here
      [...u16(LF.ARGLIST), ...u32(3), ...u32(0x40)], // three arguments, one present
    ]),
    'test TPI',
  );
  assert.throws(
    () => s.leaf(0x1000),
    (e: unknown) => isE504(e) && /0x1502 is not LF_MEMBER/.test((e as Error).message),
  );
  assert.throws(() => s.leaf(0x1001), isE504);
});

test('the stream header: indices that cannot fit the records, records past the stream', () => {
  const good = tpi([[...u16(LF.MODIFIER), ...u32(0x40), ...u16(1)]]);
  const bad = good.slice();
  new DataView(bad.buffer).setUint32(12, 0x1000 + 100, true); // 100 indices in 8 bytes of records
  assert.throws(
    () => readTypeStream(bad, 't'),
    (e: unknown) => isE504(e) && /do not fit/.test((e as Error).message),
  );
  assert.throws(() => readTypeStream(good.subarray(0, 60), 't'), isE504);
  const empty = readTypeStream(tpi([], 0x1000), 't');
  assert.deepEqual([empty.first, empty.end, empty.leaf(0x1000)], [0x1000, 0x1000, undefined]);
});

test('simple type sizes: the kind bits, and 4 for any pointer mode', () => {
  // cvinfo.h: T_VOID 0x03, T_HRESULT 0x08, T_CHAR 0x10, T_UCHAR 0x20, T_RCHAR 0x70, T_SHORT 0x11,
  // T_USHORT 0x21, T_INT2 0x72, T_UINT2 0x73, T_REAL16 0x46, T_LONG 0x12,
  // T_ULONG 0x22, T_INT4 0x74, T_UINT4 0x75, T_REAL32 0x40, T_QUAD 0x13, T_UQUAD 0x23, T_INT8 0x76,
  // T_UINT8 0x77, T_REAL64 0x41, T_BOOL08 0x30.
  const want: Array<[number, number]> = [
    [0x03, 0],
    [0x08, 4],
    [0x10, 1],
    [0x20, 1],
    [0x30, 1],
    [0x70, 1],
    [0x11, 2],
    [0x21, 2],
    [0x72, 2],
    [0x73, 2],
    [0x46, 2],
    [0x12, 4],
    [0x22, 4],
    [0x74, 4],
    [0x75, 4],
    [0x40, 4],
    [0x13, 8],
    [0x23, 8],
    [0x76, 8],
    [0x77, 8],
    [0x41, 8],
    [0x0440, 4], // T_32PREAL32: a near 32-bit pointer to float
    [0x0641, 4], // T_64PREAL64: any pointer mode is 4 here
  ];
  for (const [index, size] of want) assert.equal(simpleTypeSize(index), size, `0x${index.toString(16)}`);
});
