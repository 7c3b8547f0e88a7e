// The RDAT part, runtime data of libraries (DxilRuntimeReflection.h, RDAT_LibraryTypes.inl): a
// version (0x10), parts at offsets from the header, each a type and size: the string buffer, the
// index arrays, and tables (record count, stride, records). Resource and function tables are
// decoded field by field; the other tables (subobjects, node shaders, signatures...) keep their
// records raw with their stride.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';

export const RDAT_PART_TYPES: Readonly<Record<number, string>> = {
  1: 'StringBuffer',
  2: 'IndexArrays',
  3: 'ResourceTable',
  4: 'FunctionTable',
  5: 'RawBytes',
  6: 'SubobjectTable',
  7: 'NodeIDTable',
  8: 'NodeShaderIOAttribTable',
  9: 'NodeShaderFuncAttribTable',
  10: 'IONodeTable',
  11: 'NodeShaderInfoTable',
  12: 'SignatureElementTable',
  13: 'VSInfoTable',
  14: 'PSInfoTable',
  15: 'HSInfoTable',
  16: 'DSInfoTable',
  17: 'GSInfoTable',
  18: 'CSInfoTable',
  19: 'MSInfoTable',
  20: 'ASInfoTable',
};

export interface RdatTable {
  readonly type: number;
  readonly name: string;
  readonly recordCount: number;
  readonly stride: number;
  readonly records: Uint8Array;
}

export interface RdatResource {
  readonly cls: number;
  readonly kind: number;
  readonly id: number;
  readonly space: number;
  readonly lowerBound: number;
  readonly upperBound: number;
  readonly name: string;
  readonly flags: number;
}

export interface RdatFunction {
  readonly name: string;
  readonly unmangledName: string;
  readonly resources: readonly number[];
  readonly dependencies: readonly string[];
  readonly shaderKind: number;
  readonly payloadSizeInBytes: number;
  readonly attributeSizeInBytes: number;
  readonly featureInfo1: number;
  readonly featureInfo2: number;
  readonly shaderStageFlag: number;
  readonly minShaderTarget: number;
}

/** A state-object subobject (RDAT_SubobjectTypes.inl's RuntimeDataSubobjectInfo, 24 bytes). */
export interface RdatSubobject {
  /** DXIL::SubobjectKind: 0 StateObjectConfig, 1/2 Global/LocalRootSignature, 8 association, 9..12. */
  readonly kind: number;
  readonly name: string;
  /** The union's four dwords, raw. */
  readonly words: readonly [number, number, number, number];
  /** Root signatures: the serialized bytes (from RawBytes). */
  readonly bytes?: Uint8Array;
  /** Strings the union names: association subobject, hit group shaders. */
  readonly strings?: readonly string[];
  /** Association exports. */
  readonly exports?: readonly string[];
}

export interface Rdat {
  /** 0x10, or 0 for the prerelease layout (its records are kept raw). */
  readonly version: number;
  readonly tables: readonly RdatTable[];
  readonly resources: readonly RdatResource[];
  readonly functions: readonly RdatFunction[];
  readonly subobjects: readonly RdatSubobject[];
}

export function readRdat(data: Uint8Array, base = 0): Rdat {
  const r = new ByteReader(data, { base, where: 'RDAT', code: 'E201_PART_TRUNCATED' });
  // Version 0x10; the prerelease layout (dxc of 2018) has no version: it starts with the part count,
  // which can never be 0x10 or more in it.
  const first = r.u32At(0, 'the version');
  const prerelease = first < 0x10;
  if (!prerelease && first !== 0x10) throw r.fail('E208_PART_UNSUPPORTED', `RDAT version ${hex(first)} is not 0x10`, 0);
  const version = prerelease ? 0 : first;
  const dir = prerelease ? 4 : 8;
  const count = prerelease ? first : r.u32At(4, 'the part count');
  if (count > Math.floor((data.byteLength - dir) / 4))
    throw r.fail('E203_PART_BAD_COUNT', `${count} RDAT parts do not fit`, dir - 4);
  let strings: Uint8Array = new Uint8Array(0);
  let indices: Uint8Array = new Uint8Array(0);
  let raw: Uint8Array = new Uint8Array(0);
  const tables: RdatTable[] = [];
  if (prerelease) {
    // The prerelease directory holds (type, size, offset) triples; its records are kept raw.
    if (count > Math.floor((data.byteLength - 4) / 12))
      throw r.fail('E203_PART_BAD_COUNT', `${count} RDAT parts do not fit`, 0);
    for (let i = 0; i < count; i++) {
      const type = r.u32At(4 + 12 * i);
      const size = r.u32At(8 + 12 * i);
      const at = r.u32At(12 + 12 * i);
      const body = r.slice(at, size, 'a part');
      tables.push({ type, name: RDAT_PART_TYPES[type] ?? `table${type}`, recordCount: 0, stride: 0, records: body });
    }
    return { version, tables, resources: [], functions: [], subobjects: [] };
  }
  for (let i = 0; i < count; i++) {
    const at = r.u32At(dir + 4 * i, 'a part offset');
    const type = r.u32At(at, 'a part type');
    const size = r.u32At(at + 4, 'a part size');
    const body = r.slice(at + 8, size, 'a part');
    if (type === 1) strings = body;
    else if (type === 2) indices = body;
    else if (type === 5) raw = body;
    else if (type >= 3 && type !== 5) {
      const br = new ByteReader(body, { base: base + at + 8, where: 'RDAT', code: 'E201_PART_TRUNCATED' });
      const n = br.u32At(0, 'a record count');
      const stride = br.u32At(4, 'a record stride');
      if (stride !== 0 && n > Math.floor((body.byteLength - 8) / stride))
        throw br.fail('E203_PART_BAD_COUNT', `${n} records of ${stride} bytes do not fit in the table`, 0);
      tables.push({
        type,
        name: RDAT_PART_TYPES[type] ?? `table${type}`,
        recordCount: n,
        stride,
        records: body.subarray(8, 8 + n * stride),
      });
    }
  }
  const str = (o: number): string => {
    if (o === 0xffffffff || o >= strings.byteLength) return '';
    let e = o;
    let s = '';
    while (e < strings.byteLength && strings[e] !== 0) s += String.fromCharCode(strings[e++]!);
    return s;
  };
  const ir = new ByteReader(indices, { where: 'RDAT', code: 'E201_PART_TRUNCATED' });
  const indexArray = (o: number): number[] => {
    if (o === 0xffffffff) return [];
    const n = ir.u32At(o * 4, 'an index array');
    if (n > Math.floor(indices.byteLength / 4))
      throw ir.fail('E203_PART_BAD_COUNT', `an index array of ${n} entries`, o * 4);
    const out: number[] = [];
    for (let k = 0; k < n; k++) out.push(ir.u32At((o + 1 + k) * 4, 'an index array'));
    return out;
  };
  const resources: RdatResource[] = [];
  const functions: RdatFunction[] = [];
  const subobjects: RdatSubobject[] = [];
  const rawBytes = (offset: number, size: number): Uint8Array => {
    if (offset > raw.byteLength || size > raw.byteLength - offset)
      throw r.fail(
        'E202_PART_BAD_OFFSET',
        `raw bytes ${offset}+${size} are past the RawBytes part (${raw.byteLength})`,
        0,
      );
    return raw.subarray(offset, offset + size);
  };
  for (const t of prerelease ? [] : tables) {
    const tr = new ByteReader(t.records, { where: 'RDAT', code: 'E201_PART_TRUNCATED' });
    for (let k = 0; k < t.recordCount; k++) {
      const at = k * t.stride;
      if (t.type === 3 && t.stride >= 32) {
        resources.push({
          cls: tr.u32At(at),
          kind: tr.u32At(at + 4),
          id: tr.u32At(at + 8),
          space: tr.u32At(at + 12),
          lowerBound: tr.u32At(at + 16),
          upperBound: tr.u32At(at + 20),
          name: str(tr.u32At(at + 24)),
          flags: tr.u32At(at + 28),
        });
      } else if (t.type === 6 && t.stride >= 24) {
        const kind = tr.u32At(at);
        const w: [number, number, number, number] = [
          tr.u32At(at + 8),
          tr.u32At(at + 12),
          tr.u32At(at + 16),
          tr.u32At(at + 20),
        ];
        const base = { kind, name: str(tr.u32At(at + 4)), words: w };
        if (kind === 1 || kind === 2) subobjects.push({ ...base, bytes: rawBytes(w[0], w[1]) });
        else if (kind === 8) subobjects.push({ ...base, strings: [str(w[0])], exports: indexArray(w[1]).map(str) });
        else if (kind === 11) subobjects.push({ ...base, strings: [str(w[1]), str(w[2]), str(w[3])] });
        else subobjects.push(base);
      } else if (t.type === 4 && t.stride >= 44) {
        functions.push({
          name: str(tr.u32At(at)),
          unmangledName: str(tr.u32At(at + 4)),
          resources: indexArray(tr.u32At(at + 8)),
          dependencies: indexArray(tr.u32At(at + 12)).map(str),
          shaderKind: tr.u32At(at + 16),
          payloadSizeInBytes: tr.u32At(at + 20),
          attributeSizeInBytes: tr.u32At(at + 24),
          featureInfo1: tr.u32At(at + 28),
          featureInfo2: tr.u32At(at + 32),
          shaderStageFlag: tr.u32At(at + 36),
          minShaderTarget: tr.u32At(at + 40),
        });
      }
    }
  }
  return { version, tables, resources, functions, subobjects };
}
