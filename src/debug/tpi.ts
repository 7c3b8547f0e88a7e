// The type streams of a PDB: TPI (stream 2, the variables' types) and IPI (stream 4, the inlined
// functions' ids), as an SPDB part holds them (spec: containers.md, "Debug information in Shader
// Model 4 and 5 (SPDB)"). Each record is a CodeView leaf: u16 length, u16 kind, fields. Decoders
// are a table by leaf kind; the HLSL leaves (LF_HLSL, LF_VECTOR, LF_MATRIX, LF_STRIDED_ARRAY) sit
// beside the standard ones. A type index below the stream's first index is a simple type
// (T_REAL32 = 0x40, ...), whose size comes from its mode and kind bits.

import { ByteReader } from '../binary/reader.js';

export const LF = {
  MODIFIER: 0x1001,
  MODIFIER_EX: 0x1518,
  POINTER: 0x1002,
  PROCEDURE: 0x1008,
  MFUNCTION: 0x1009,
  ARGLIST: 0x1201,
  FIELDLIST: 0x1203,
  BITFIELD: 0x1205,
  MEMBER: 0x150d,
  ARRAY: 0x1503,
  CLASS: 0x1504,
  STRUCTURE: 0x1505,
  UNION: 0x1506,
  ENUM: 0x1507,
  STRIDED_ARRAY: 0x1516,
  HLSL: 0x1517,
  VECTOR: 0x151b,
  MATRIX: 0x151c,
  FUNC_ID: 0x1601,
  MFUNC_ID: 0x1602,
  BUILDINFO: 0x1603,
  SUBSTR_LIST: 0x1604,
  STRING_ID: 0x1605,
  UDT_SRC_LINE: 0x1606,
} as const;

export interface Member {
  readonly name: string;
  readonly type: number;
  readonly offset: number;
}

/** A decoded leaf. Unknown kinds keep their raw bytes (they are valid; iridia just has no use for them). */
export type Leaf =
  | { readonly kind: 'modifier'; readonly type: number; readonly attributes: number }
  | { readonly kind: 'pointer'; readonly type: number; readonly attributes: number }
  | {
      readonly kind: 'procedure';
      readonly returnType: number;
      readonly argList: number;
      readonly parameterCount: number;
    }
  | { readonly kind: 'arglist'; readonly types: readonly number[] }
  | { readonly kind: 'fieldlist'; readonly members: readonly Member[] }
  | {
      readonly kind: 'array';
      readonly elementType: number;
      readonly indexType: number;
      readonly size: number;
      readonly name: string;
    }
  | {
      readonly kind: 'struct';
      readonly leaf: number;
      readonly count: number;
      readonly properties: number;
      readonly fieldList: number;
      readonly size: number;
      readonly name: string;
    }
  | { readonly kind: 'enum'; readonly underlying: number; readonly name: string }
  | {
      readonly kind: 'stridedArray';
      readonly elementType: number;
      readonly indexType: number;
      readonly stride: number;
      readonly size: number;
      readonly name: string;
    }
  | { readonly kind: 'hlsl'; readonly subtype: number; readonly hlslKind: number; readonly properties: number }
  | {
      readonly kind: 'vector';
      readonly elementType: number;
      readonly count: number;
      readonly size: number;
      readonly name: string;
    }
  | {
      readonly kind: 'matrix';
      readonly elementType: number;
      readonly rows: number;
      readonly columns: number;
      readonly majorStride: number;
      readonly rowMajor: boolean;
      readonly size: number;
      readonly name: string;
    }
  | { readonly kind: 'funcId'; readonly scope: number; readonly type: number; readonly name: string }
  | { readonly kind: 'stringId'; readonly substrings: number; readonly value: string }
  | { readonly kind: 'other'; readonly leaf: number };

export interface TypeStream {
  readonly first: number;
  readonly end: number;
  /** The leaf of a type index; undefined for a simple type or an index outside the stream. */
  leaf(index: number): Leaf | undefined;
}

type Decoder = (r: ByteReader, leaf: number) => Leaf;

/** Reads a CodeView numeric leaf: a u16 below 0x8000 is the value, else a kind and a wider value. */
export function numeric(r: ByteReader, what = 'a numeric leaf'): number {
  const at = r.pos;
  const v = r.u16(what);
  if (v < 0x8000) return v;
  const wide: Record<number, () => number> = {
    0x8000: () => (r.u8(what) << 24) >> 24,
    0x8001: () => (r.u16(what) << 16) >> 16,
    0x8002: () => r.u16(what),
    0x8003: () => r.u32(what) | 0,
    0x8004: () => r.u32(what),
    0x8009: () => Number(r.u64At((r.pos += 8) - 8, what)),
    0x800a: () => Number(r.u64At((r.pos += 8) - 8, what)),
  };
  const read = wide[v];
  if (!read) throw r.fail('E504_DEBUG_BAD', `numeric leaf kind 0x${v.toString(16)} is not one CodeView defines`, at);
  return read();
}

function name(r: ByteReader): string {
  return r.pos >= r.length ? '' : cstring(r, 'a type name');
}

/** Reads a name and moves past its zero. */
function cstring(r: ByteReader, what: string): string {
  const s = r.cstringAt(r.pos, what);
  r.pos += s.length + 1;
  return s;
}

const DECODERS: Record<number, Decoder> = {
  [LF.MODIFIER]: (r) => ({ kind: 'modifier', type: r.u32(), attributes: r.u16() }),
  // LF_MODIFIER_EX: the type, a count and that many u16 modifiers (const, HLSL uniform, ...).
  [LF.MODIFIER_EX]: (r) => {
    const type = r.u32();
    const n = r.u16('the modifier count');
    let attributes = 0;
    for (let i = 0; i < n; i++) attributes |= 1 << Math.min(31, r.u16());
    return { kind: 'modifier', type, attributes };
  },
  [LF.POINTER]: (r) => ({ kind: 'pointer', type: r.u32(), attributes: r.u32() }),
  [LF.PROCEDURE]: (r) => {
    const returnType = r.u32();
    r.u8();
    r.u8();
    const parameterCount = r.u16();
    return { kind: 'procedure', returnType, parameterCount, argList: r.u32() };
  },
  [LF.ARGLIST]: (r) => {
    const n = r.u32('the argument count');
    r.require(r.pos, n * 4, 'the argument list');
    const types: number[] = [];
    for (let i = 0; i < n; i++) types.push(r.u32());
    return { kind: 'arglist', types };
  },
  [LF.FIELDLIST]: (r) => {
    const members: Member[] = [];
    while (r.pos < r.length) {
      const at = r.pos;
      const sub = r.u16('a field list entry kind');
      if (sub !== LF.MEMBER)
        throw r.fail('E504_DEBUG_BAD', `field list entry kind 0x${sub.toString(16)} is not LF_MEMBER`, at);
      r.u16();
      const type = r.u32();
      const offset = numeric(r);
      const n = cstring(r, 'a member name');
      members.push({ name: n, type, offset });
      while (r.pos < r.length && r.u8At(r.pos) >= 0xf0) r.pos++;
    }
    return { kind: 'fieldlist', members };
  },
  [LF.ARRAY]: (r) => {
    const elementType = r.u32();
    const indexType = r.u32();
    const size = numeric(r);
    return { kind: 'array', elementType, indexType, size, name: name(r) };
  },
  [LF.CLASS]: structure,
  [LF.STRUCTURE]: structure,
  [LF.UNION]: (r, leaf) => {
    const count = r.u16();
    const properties = r.u16();
    const fieldList = r.u32();
    const size = numeric(r);
    return { kind: 'struct', leaf, count, properties, fieldList, size, name: name(r) };
  },
  [LF.ENUM]: (r) => {
    r.u16();
    r.u16();
    const underlying = r.u32();
    r.u32();
    return { kind: 'enum', underlying, name: name(r) };
  },
  [LF.STRIDED_ARRAY]: (r) => {
    const elementType = r.u32();
    const indexType = r.u32();
    const stride = r.u32();
    const size = numeric(r);
    return { kind: 'stridedArray', elementType, indexType, stride, size, name: name(r) };
  },
  [LF.HLSL]: (r) => {
    const subtype = r.u32();
    const hlslKind = r.u16();
    return { kind: 'hlsl', subtype, hlslKind, properties: r.u16() };
  },
  [LF.VECTOR]: (r) => {
    const elementType = r.u32();
    const count = r.u32();
    const size = numeric(r);
    return { kind: 'vector', elementType, count, size, name: name(r) };
  },
  [LF.MATRIX]: (r) => {
    const elementType = r.u32();
    const rows = r.u32();
    const columns = r.u32();
    const majorStride = r.u32();
    const rowMajor = (r.u8() & 1) === 1;
    const size = numeric(r);
    return { kind: 'matrix', elementType, rows, columns, majorStride, rowMajor, size, name: name(r) };
  },
  [LF.FUNC_ID]: (r) => ({ kind: 'funcId', scope: r.u32(), type: r.u32(), name: cstring(r, 'a function name') }),
  [LF.MFUNC_ID]: (r) => ({ kind: 'funcId', scope: r.u32(), type: r.u32(), name: cstring(r, 'a method name') }),
  [LF.STRING_ID]: (r) => ({ kind: 'stringId', substrings: r.u32(), value: cstring(r, 'a string id') }),
};

function structure(r: ByteReader, leaf: number): Leaf {
  const count = r.u16();
  const properties = r.u16();
  const fieldList = r.u32();
  r.u32();
  r.u32();
  const size = numeric(r);
  return { kind: 'struct', leaf, count, properties, fieldList, size, name: name(r) };
}

/** Reads a TPI or IPI stream's header and indexes its records; leaves are decoded on demand. */
export function readTypeStream(bytes: Uint8Array, where: string): TypeStream {
  const r = new ByteReader(bytes, { where, code: 'E504_DEBUG_BAD' });
  r.u32('the type stream version');
  const headerSize = r.u32('the type stream header size');
  const first = r.u32('the first type index');
  const end = r.u32('the end type index');
  const recordBytes = r.u32('the type record bytes');
  if (end < first || end - first > recordBytes / 4)
    throw r.fail('E504_DEBUG_BAD', `type indices ${first} to ${end} do not fit ${recordBytes} bytes of records`, 8);
  r.require(headerSize, recordBytes, 'the type records');
  const offsets: number[] = [];
  let at = headerSize;
  const stop = headerSize + recordBytes;
  for (let i = first; i < end; i++) {
    const len = r.u16At(at, 'a type record length');
    if (len < 2 || len > stop - at - 2)
      throw r.fail('E504_DEBUG_BAD', `type record 0x${i.toString(16)} of ${len} bytes runs past the records' end`, at);
    offsets.push(at);
    at += 2 + len;
  }
  const cache = new Map<number, Leaf>();
  return {
    first,
    end,
    leaf(index) {
      if (index < first || index >= end) return undefined;
      const hit = cache.get(index);
      if (hit) return hit;
      const off = offsets[index - first]!;
      const len = r.u16At(off);
      const kind = r.u16At(off + 2);
      const body = r.sub(off + 4, len - 2, `type record 0x${index.toString(16)}`);
      const decode = DECODERS[kind];
      // The body's reader reports E504 with the stream's offsets: a field past the record's end.
      const leaf: Leaf = decode ? decode(body, kind) : { kind: 'other', leaf: kind };
      cache.set(index, leaf);
      return leaf;
    },
  };
}

/** The size in bytes of a simple type (index below 0x1000): mode bits 8-11, kind bits 0-7. */
export function simpleTypeSize(index: number): number {
  if ((index & 0xf00) !== 0) return 4; // a pointer mode
  const kind = index & 0xff;
  const sizes: Record<number, number> = {
    0x03: 0, // void
    0x08: 4, // HRESULT
    0x10: 1,
    0x20: 1,
    0x30: 1,
    0x68: 1,
    0x69: 1,
    0x70: 1,
    0x11: 2,
    0x21: 2,
    0x72: 2,
    0x73: 2,
    0x7a: 2,
    0x46: 2,
    0x12: 4,
    0x22: 4,
    0x74: 4,
    0x75: 4,
    0x40: 4,
    0x7b: 4,
    0x13: 8,
    0x23: 8,
    0x76: 8,
    0x77: 8,
    0x41: 8,
  };
  return sizes[kind] ?? 4;
}
