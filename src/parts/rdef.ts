// RDEF, the resource definitions (containers.md, "Reflection and statistics in Shader Model 4
// and 5"), in its three layouts:
//   4.0/4.1: no RD11 block; 28-byte header, 32-byte bindings, 24-byte buffers and variables,
//            16-byte types;
//   5.0:     the tag RD11 at byte 28 and the record sizes 60, 24, 32, 40, 36, 12;
//   5.1:     the tag 0x25441313 and 60, 24, 40, 40, 36, 12: bindings gain the register space and
//            the resource's id.
// Every name is bounded by the part, every table is checked against the bytes before it is read,
// and type trees are read with a loop check (E205) and a depth limit (E206). Types are shared by
// offset: a type that several members name is read once.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';
import { badPartString, i32, partString, partStringAt, requireTable, u16, u32 } from './common.js';

export type RdefLayout = '4.0' | '5.0' | '5.1';

export const RD11_TAG = 0x31314452; // 'RD11'
export const RD51_TAG = 0x25441313;

/** Record sizes per layout: header, constant buffer, binding, variable, type, member. */
export const RDEF_SIZES: Readonly<Record<RdefLayout, readonly [number, number, number, number, number, number]>> = {
  '4.0': [28, 24, 32, 24, 16, 12],
  '5.0': [60, 24, 32, 40, 36, 12],
  '5.1': [60, 24, 40, 40, 36, 12],
};

/** How deep a type tree may nest before it is refused (fxc's deepest real trees are a handful). */
export const MAX_TYPE_DEPTH = 64;

export interface RdefType {
  /** Offset of the type record in the part (its identity: shared types have one offset). */
  readonly offset: number;
  /** D3D_SHADER_VARIABLE_CLASS: 0 scalar, 1 vector, 2 row-major matrix, 3 column-major, 4 object, 5 struct, 6 interface class, 7 interface pointer. */
  readonly class: number;
  /** D3D_SHADER_VARIABLE_TYPE. */
  readonly type: number;
  readonly rows: number;
  readonly columns: number;
  readonly elements: number;
  readonly members: readonly RdefMember[];
  /** 5.x only: the type's name ('float4', 'MyStruct'); undefined in 4.x. */
  readonly name: string | undefined;
  /** 5.x only: the sub-type, base class and interfaces of a class type. */
  readonly subType: RdefType | undefined;
  readonly baseClass: RdefType | undefined;
  readonly interfaces: readonly RdefType[];
}

export interface RdefMember {
  readonly name: string;
  /** The stored offset (from the struct, or from the buffer in Sekiro's hull quirk; see memberOffsetBase). */
  readonly offset: number;
  readonly type: RdefType;
}

export interface RdefVariable {
  readonly name: string;
  readonly startOffset: number;
  readonly size: number;
  /** D3D_SHADER_VARIABLE_FLAGS: bit 0 user-packed, bit 1 used, bit 2 interface pointer, bit 3 interface parameter. */
  readonly flags: number;
  readonly type: RdefType;
  /** The default value's bytes (a view), or undefined when there is none. */
  readonly defaultValue: Uint8Array | undefined;
  /** 5.x only (4.x: -1, 0, -1, 0 as D3DReflect reports them). */
  readonly startTexture: number;
  readonly textureSize: number;
  readonly startSampler: number;
  readonly samplerSize: number;
}

export interface RdefConstantBuffer {
  readonly name: string;
  readonly variables: readonly RdefVariable[];
  readonly size: number;
  readonly flags: number;
  /** D3D_CBUFFER_TYPE: 0 cbuffer, 1 tbuffer, 2 interface pointers, 3 resource bind info. */
  readonly type: number;
}

export interface RdefBinding {
  readonly name: string;
  /** D3D_SHADER_INPUT_TYPE. */
  readonly type: number;
  /** D3D_RESOURCE_RETURN_TYPE. */
  readonly returnType: number;
  /** D3D_SRV_DIMENSION. */
  readonly dimension: number;
  /** The stored sample count (0xffffffff where it does not apply), or the structure stride. */
  readonly numSamples: number;
  readonly bindPoint: number;
  /** 0 for an unbounded 5.1 range. */
  readonly bindCount: number;
  readonly flags: number;
  /** 5.1 only; 4.x/5.0: 0. */
  readonly space: number;
  /** 5.1: the id the token stream names the range by; 4.x/5.0: undefined. */
  readonly id: number | undefined;
}

export interface Rdef {
  readonly layout: RdefLayout;
  /** The target word: minor, major, then the program type in the high 16 bits (0xffff pixel, 0xfffe vertex, ...). */
  readonly target: number;
  /** D3DCOMPILE flags the program was compiled with. */
  readonly flags: number;
  readonly creator: string;
  readonly constantBuffers: readonly RdefConstantBuffer[];
  readonly bindings: readonly RdefBinding[];
  /** 5.x: the last word of the RD11 block. */
  readonly rd11Extra: number | undefined;
}

/** Reads an RDEF payload. `base` is the payload's offset in the container, for errors. */
export function readRdef(data: Uint8Array, base = 0): Rdef {
  const r = new ByteReader(data, { base, where: 'RDEF', code: 'E201_PART_TRUNCATED' });
  const cbCount = r.u32At(0, 'the constant buffer count');
  const cbOffset = r.u32At(4, 'the constant buffer offset');
  const bindCount = r.u32At(8, 'the binding count');
  const bindOffset = r.u32At(12, 'the binding offset');
  const target = r.u32At(16, 'the target word');
  const flags = r.u32At(20, 'the flags');
  const creatorOffset = r.u32At(24, 'the creator offset');
  let layout: RdefLayout = '4.0';
  let rd11Extra: number | undefined;
  if (data.byteLength >= 32) {
    const tag = r.u32At(28);
    if (tag === RD11_TAG || tag === RD51_TAG) {
      layout = tag === RD11_TAG ? '5.0' : '5.1';
      const want = RDEF_SIZES[layout];
      for (let i = 0; i < 6; i++) {
        const got = r.u32At(32 + 4 * i, 'the RD11 record sizes');
        if (got !== want[i]) {
          throw r.fail(
            'E207_PART_BAD_VALUE',
            `record size word ${i} of the ${layout} layout is ${got}, not ${want[i]}`,
            32 + 4 * i,
          );
        }
      }
      rd11Extra = r.u32At(56, 'the last RD11 word');
    }
  }
  const [, cbSize, bindSize, varSize, typeSize, memberSize] = RDEF_SIZES[layout];
  const sm5 = layout !== '4.0';
  requireTable(r, cbOffset, cbCount, cbSize, 'constant buffer', 4);
  requireTable(r, bindOffset, bindCount, bindSize, 'binding', 12);
  const creator = partString(r, creatorOffset, 'the creator string');

  const bindings: RdefBinding[] = [];
  for (let i = 0; i < bindCount; i++) {
    const at = bindOffset + i * bindSize;
    const nameAt = u32(data, at);
    bindings.push({
      name: partStringAt(r, nameAt) ?? badPartString(r, nameAt, `binding ${i}'s name`),
      type: u32(data, at + 4),
      returnType: u32(data, at + 8),
      dimension: u32(data, at + 12),
      numSamples: u32(data, at + 16),
      bindPoint: u32(data, at + 20),
      bindCount: u32(data, at + 24),
      flags: u32(data, at + 28),
      space: layout === '5.1' ? u32(data, at + 32) : 0,
      id: layout === '5.1' ? u32(data, at + 36) : undefined,
    });
  }

  const types = new Map<number, RdefType>();
  const onPath = new Set<number>();
  // Where the type being read is named from ('$Globals', '.', 'light', '.', 'color'), joined only
  // for an error: a path string per variable and member cost more than the rest of its record.
  const path: string[] = [];
  const what = (): string => path.join('');
  const readType = (offset: number, depth: number): RdefType => {
    const known = types.get(offset);
    if (known) return known;
    if (onPath.has(offset)) {
      throw r.fail('E205_PART_LOOP', `${what()}: the type at ${hex(offset)} contains itself`, offset);
    }
    if (depth > MAX_TYPE_DEPTH) {
      throw r.fail('E206_PART_TOO_DEEP', `${what()}: type trees nest more than ${MAX_TYPE_DEPTH} deep`, offset);
    }
    requireTable(r, offset, 1, typeSize, 'type', offset);
    onPath.add(offset);
    const memberCount = u16(data, offset + 10);
    const memberOffset = u32(data, offset + 12);
    requireTable(r, memberOffset, memberCount, memberSize, 'struct member', offset + 12);
    const members: RdefMember[] = [];
    for (let m = 0; m < memberCount; m++) {
      const at = memberOffset + m * memberSize;
      const nameAt = u32(data, at);
      const name = partStringAt(r, nameAt) ?? badPartString(r, nameAt, `member ${m}'s name`);
      path.push('.', name);
      members.push({ name, type: readType(u32(data, at + 4), depth + 1), offset: u32(data, at + 8) });
      path.length -= 2;
    }
    let name: string | undefined;
    let subType: RdefType | undefined;
    let baseClass: RdefType | undefined;
    const interfaces: RdefType[] = [];
    if (sm5) {
      const subOffset = u32(data, offset + 16);
      const baseOffset = u32(data, offset + 20);
      const ifaceCount = u32(data, offset + 24);
      const ifaceOffset = u32(data, offset + 28);
      const nameOffset = u32(data, offset + 32);
      if (subOffset !== 0) {
        path.push(' (sub-type)');
        subType = readType(subOffset, depth + 1);
        path.pop();
      }
      if (baseOffset !== 0) {
        path.push(' (base class)');
        baseClass = readType(baseOffset, depth + 1);
        path.pop();
      }
      requireTable(r, ifaceOffset, ifaceCount, 4, 'interface', offset + 28);
      for (let k = 0; k < ifaceCount; k++) {
        path.push(` (interface ${k})`);
        interfaces.push(readType(u32(data, ifaceOffset + 4 * k), depth + 1));
        path.pop();
      }
      if (nameOffset !== 0) {
        name = partStringAt(r, nameOffset) ?? badPartString(r, nameOffset, `the name of the type at ${hex(offset)}`);
      }
    }
    onPath.delete(offset);
    const t: RdefType = {
      offset,
      class: u16(data, offset),
      type: u16(data, offset + 2),
      rows: u16(data, offset + 4),
      columns: u16(data, offset + 6),
      elements: u16(data, offset + 8),
      members,
      name,
      subType,
      baseClass,
      interfaces,
    };
    types.set(offset, t);
    return t;
  };

  /** A variable's type, its path starting at the buffer and variable names. */
  const typeOf = (offset: number, cbName: string, name: string): RdefType => {
    path.push(cbName, '.', name);
    const t = readType(offset, 0);
    path.length = 0;
    return t;
  };

  const constantBuffers: RdefConstantBuffer[] = [];
  for (let i = 0; i < cbCount; i++) {
    const at = cbOffset + i * cbSize;
    const cbName = partString(r, u32(data, at), `constant buffer ${i}'s name`);
    const varCount = u32(data, at + 4);
    const varOffset = u32(data, at + 8);
    const size = u32(data, at + 12);
    requireTable(r, varOffset, varCount, varSize, `variable (of ${cbName})`, at + 4);
    const variables: RdefVariable[] = [];
    for (let v = 0; v < varCount; v++) {
      const va = varOffset + v * varSize;
      const nameAt = u32(data, va);
      const name = partStringAt(r, nameAt) ?? badPartString(r, nameAt, `variable ${v} of ${cbName}`);
      const varSizeBytes = u32(data, va + 8);
      const defaultOffset = u32(data, va + 20);
      let defaultValue: Uint8Array | undefined;
      if (defaultOffset !== 0) {
        if (!(defaultOffset <= data.byteLength && varSizeBytes <= data.byteLength - defaultOffset)) {
          throw r.fail(
            'E202_PART_BAD_OFFSET',
            `the default value of ${cbName}.${name} (${varSizeBytes} bytes at ${hex(defaultOffset)}) runs past the part (size ${hex(data.byteLength)})`,
            va + 20,
          );
        }
        defaultValue = r.slice(defaultOffset, varSizeBytes);
      }
      variables.push({
        name,
        startOffset: u32(data, va + 4),
        size: varSizeBytes,
        flags: u32(data, va + 12),
        type: typeOf(u32(data, va + 16), cbName, name),
        defaultValue,
        startTexture: sm5 ? i32(data, va + 24) : -1,
        textureSize: sm5 ? u32(data, va + 28) : 0,
        startSampler: sm5 ? i32(data, va + 32) : -1,
        samplerSize: sm5 ? u32(data, va + 36) : 0,
      });
    }
    constantBuffers.push({ name: cbName, variables, size, flags: u32(data, at + 16), type: u32(data, at + 20) });
  }
  return { layout, target, flags, creator, constantBuffers, bindings, rd11Extra };
}

/** Bytes one element of a numeric type takes in a constant buffer (D3D's packing: rows of 16). */
export function typeSize(t: RdefType, memo = new Map<number, number>()): number {
  const known = memo.get(t.offset);
  if (known !== undefined) return known;
  const size = typeSizeOf(t, memo);
  memo.set(t.offset, size);
  return size;
}

function typeSizeOf(t: RdefType, memo: Map<number, number>): number {
  const scalar = t.type === 39 /* double */ ? 8 : 4;
  let one: number;
  if (t.class === 5) {
    // A struct: the end of its last member, whose offset counts from the struct.
    one = 0;
    for (const m of t.members) one = Math.max(one, m.offset + typeSize(m.type, memo));
  } else if (t.class === 2 || t.class === 3) {
    // A matrix is vectors (rows if row-major, columns if column-major), each starting a register.
    const [count, width] = t.class === 2 ? [t.rows, t.columns] : [t.columns, t.rows];
    one = (count - 1) * Math.ceil((width * scalar) / 16) * 16 + width * scalar;
  } else one = t.rows * t.columns * scalar;
  if (t.elements <= 1) return one;
  return (t.elements - 1) * Math.ceil(one / 16) * 16 + one;
}

/**
 * Sekiro's hull-program quirk: a struct variable whose member offsets count from the buffer
 * instead of from the struct. Reads both ways and says which fits the variable's stated size:
 * 'struct' (the normal reading), 'buffer' (the offsets are buffer offsets), or 'struct' when
 * neither fits better.
 */
export function memberOffsetBase(v: RdefVariable): 'struct' | 'buffer' {
  const t = v.type;
  if (t.class !== 5 || t.members.length === 0 || v.startOffset === 0) return 'struct';
  const fits = (delta: number): boolean =>
    t.members.every((m) => m.offset >= delta && m.offset - delta + typeSize(m.type) <= v.size);
  if (fits(0)) return 'struct';
  return fits(v.startOffset) ? 'buffer' : 'struct';
}
