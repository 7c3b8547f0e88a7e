// Binding sets and pass bindings of skate. (../shared/spec/skate-bindings.md, "Binding
// structures"): a 32-byte header, 64-byte groups at the group table offset (0x20), and per group its
// parameters (the 16-byte name/type/count/extra prefix) and its 8-byte entries (u32 byte offset or
// resource index, u16 marker, u16 kind). Readers check every offset and count against the payload
// before reading or allocating by it; writers are their exact inverses. Offsets count from the
// payload's first byte.

import { IridiaError } from '../../errors.js';
import { FieldReader, FieldWriter, type SkateStructure, type UnknownBytes } from './bytes.js';

export const HEADER_SIZE = 0x20;
export const GROUP_SIZE = 64;
export const PARAMETER_SIZE = 16;
export const ENTRY_SIZE = 8;
/** A constant-buffer entry's marker; its kind is four times the parameter's byte size. */
export const CONSTANT_MARKER = 0xffff;

/**
 * The parameter prefix. The spec gives its order and total (name, type, count, extra in 16 bytes);
 * the widths here (u64 name hash, u32 type, u16 count, u16 extra) are this reader's assumption.
 * Every byte round-trips whatever the true split.
 */
export interface BindingParameter {
  readonly name: bigint;
  readonly type: number;
  readonly count: number;
  readonly extra: number;
}

export interface BindingEntry {
  /** The constant's byte offset in the buffer, or a resource's index. */
  readonly offsetOrIndex: number;
  readonly marker: number;
  readonly kind: number;
}

export interface BindingGroup {
  readonly nameHash: bigint;
  readonly bufferSizeOrResourceCount: number;
  /** Bytes 0xc-0xf: unknown flags, hex in file order. */
  readonly unknownFlags: string;
  readonly parameterCount: number;
  /** Bytes 0x12-0x17: three unknown u16 words. */
  readonly unknownWords: readonly [number, number, number];
  /** Bytes 0x18-0x1f: unknown (zero in measured records). */
  readonly unknown18: bigint;
  readonly allParametersOffset: number;
  readonly groupParametersOffset: number;
  readonly groupEntryTableOffset: number;
  readonly endOfTablesOffset: number;
  /** parameterCount parameters at groupParametersOffset. */
  readonly parameters: readonly BindingParameter[];
  /** parameterCount entries at groupEntryTableOffset, entry i for parameter i. */
  readonly entries: readonly BindingEntry[];
}

export interface BindingSet {
  readonly structure: 'binding set';
  readonly size: number;
  readonly groupCount: number;
  readonly groupTableOffset: number;
  /** Bytes 0x8-0xf: unknown (zero in measured records). */
  readonly unknown08: bigint;
  readonly resourceId: bigint;
  /** Bytes 0x18-0x1b: unknown (one in measured records). */
  readonly unknown18: number;
  readonly parameterCount: number;
  readonly groups: readonly BindingGroup[];
  /** Payload bytes no field covers. */
  readonly unknown: readonly UnknownBytes[];
}

export interface PassBinding {
  readonly structure: 'pass binding';
  readonly size: number;
  /** 1 or 0x101 in measured records; others are refused (the layout is known for these only). */
  readonly version: number;
  readonly groupCount: number;
  readonly groupOffset: number;
  /** Word 0xc: zero in measured records. */
  readonly zero0c: number;
  readonly resourceId: bigint;
  /** Bytes 0x18-0x1f: zero in measured records. */
  readonly zero18: bigint;
  readonly groups: readonly BindingGroup[];
  readonly unknown: readonly UnknownBytes[];
}

export const PASS_BINDING_VERSIONS: readonly number[] = [1, 0x101];

/** The groups at `tableOffset`; `allParameters` is the count the all-parameters table must hold. */
function readGroups(r: FieldReader, count: number, tableOffset: number, allParameters: number): BindingGroup[] {
  const groups: BindingGroup[] = [];
  for (let g = 0; g < count; g++) {
    const at = tableOffset + g * GROUP_SIZE;
    const name = `group ${g}`;
    const parameterCount = r.u16(at + 0x10, `${name} parameter count`);
    const allParametersOffset = r.table(
      r.u64(at + 0x20, `${name} all-parameters offset`),
      allParameters,
      PARAMETER_SIZE,
      `${name} all-parameters offset`,
      at + 0x20,
    );
    const groupParametersOffset = r.table(
      r.u64(at + 0x28, `${name} group-parameters offset`),
      parameterCount,
      PARAMETER_SIZE,
      `${name} group-parameters offset`,
      at + 0x28,
    );
    const groupEntryTableOffset = r.table(
      r.u64(at + 0x30, `${name} group-entry table offset`),
      parameterCount,
      ENTRY_SIZE,
      `${name} group-entry table offset`,
      at + 0x30,
    );
    const endOfTablesOffset = r.table(
      r.u64(at + 0x38, `${name} end-of-tables offset`),
      0,
      1,
      `${name} end-of-tables offset`,
      at + 0x38,
    );
    const parameters: BindingParameter[] = [];
    const entries: BindingEntry[] = [];
    for (let i = 0; i < parameterCount; i++) {
      const p = groupParametersOffset + i * PARAMETER_SIZE;
      parameters.push({
        name: r.u64(p, `${name} parameter ${i} name`),
        type: r.u32(p + 8, `${name} parameter ${i} type`),
        count: r.u16(p + 12, `${name} parameter ${i} count`),
        extra: r.u16(p + 14, `${name} parameter ${i} extra`),
      });
      const e = groupEntryTableOffset + i * ENTRY_SIZE;
      entries.push({
        offsetOrIndex: r.u32(e, `${name} entry ${i} offset or index`),
        marker: r.u16(e + 4, `${name} entry ${i} marker`),
        kind: r.u16(e + 6, `${name} entry ${i} kind`),
      });
    }
    groups.push({
      nameHash: r.u64(at, `${name} name hash`),
      bufferSizeOrResourceCount: r.u32(at + 8, `${name} buffer size or resource count`),
      unknownFlags: r.raw(at + 0xc, 4, `${name} unknown flags`),
      parameterCount,
      unknownWords: [
        r.u16(at + 0x12, `${name} unknown word 0`),
        r.u16(at + 0x14, `${name} unknown word 1`),
        r.u16(at + 0x16, `${name} unknown word 2`),
      ],
      unknown18: r.u64(at + 0x18, `${name} unknown 0x18`),
      allParametersOffset,
      groupParametersOffset,
      groupEntryTableOffset,
      endOfTablesOffset,
      parameters,
      entries,
    });
  }
  return groups;
}

function writeGroups(w: FieldWriter, groups: readonly BindingGroup[], tableOffset: number): void {
  groups.forEach((g, n) => {
    const at = tableOffset + n * GROUP_SIZE;
    const name = `group ${n}`;
    if (g.parameters.length !== g.parameterCount || g.entries.length !== g.parameterCount)
      throw new IridiaError(
        'E109_BAD_ARGUMENT',
        `${w.structure} writer: ${name} has parameter count ${g.parameterCount} but ${g.parameters.length} parameters and ${g.entries.length} entries`,
      );
    w.u64(at, g.nameHash, `${name} name hash`);
    w.u32(at + 8, g.bufferSizeOrResourceCount, `${name} buffer size or resource count`);
    w.raw(at + 0xc, g.unknownFlags, 4, `${name} unknown flags`);
    w.u16(at + 0x10, g.parameterCount, `${name} parameter count`);
    g.unknownWords.forEach((v, i) => w.u16(at + 0x12 + 2 * i, v, `${name} unknown word ${i}`));
    w.u64(at + 0x18, g.unknown18, `${name} unknown 0x18`);
    w.u64(at + 0x20, g.allParametersOffset, `${name} all-parameters offset`);
    w.u64(at + 0x28, g.groupParametersOffset, `${name} group-parameters offset`);
    w.u64(at + 0x30, g.groupEntryTableOffset, `${name} group-entry table offset`);
    w.u64(at + 0x38, g.endOfTablesOffset, `${name} end-of-tables offset`);
    g.parameters.forEach((p, i) => {
      const o = g.groupParametersOffset + i * PARAMETER_SIZE;
      w.u64(o, p.name, `${name} parameter ${i} name`);
      w.u32(o + 8, p.type, `${name} parameter ${i} type`);
      w.u16(o + 12, p.count, `${name} parameter ${i} count`);
      w.u16(o + 14, p.extra, `${name} parameter ${i} extra`);
    });
    g.entries.forEach((e, i) => {
      const o = g.groupEntryTableOffset + i * ENTRY_SIZE;
      w.u32(o, e.offsetOrIndex, `${name} entry ${i} offset or index`);
      w.u16(o + 4, e.marker, `${name} entry ${i} marker`);
      w.u16(o + 6, e.kind, `${name} entry ${i} kind`);
    });
  });
}

export function readBindingSet(bytes: Uint8Array): BindingSet {
  const r = new FieldReader(bytes, 'binding set');
  const groupCount = r.u32(0, 'group count');
  const groupTableField = r.u32(4, 'group table offset');
  const unknown08 = r.u64(8, 'unknown 0x8');
  const resourceId = r.u64(0x10, 'resource id');
  const unknown18 = r.u32(0x18, 'unknown 0x18');
  const parameterCount = r.u32(0x1c, 'parameter count');
  const groupTableOffset = r.table(groupTableField, groupCount, GROUP_SIZE, 'group table offset', 4);
  const groups = readGroups(r, groupCount, groupTableOffset, parameterCount);
  return {
    structure: 'binding set',
    size: bytes.byteLength,
    groupCount,
    groupTableOffset,
    unknown08,
    resourceId,
    unknown18,
    parameterCount,
    groups,
    unknown: r.unknown(),
  };
}

function checkGroupCount(structure: SkateStructure, groupCount: number, groups: readonly BindingGroup[]): void {
  if (groupCount !== groups.length)
    throw new IridiaError(
      'E109_BAD_ARGUMENT',
      `${structure} writer: group count ${groupCount} but ${groups.length} groups`,
    );
}

export function writeBindingSet(s: BindingSet): Uint8Array {
  const w = new FieldWriter(s.size, 'binding set');
  checkGroupCount('binding set', s.groupCount, s.groups);
  w.u32(0, s.groupCount, 'group count');
  w.u32(4, s.groupTableOffset, 'group table offset');
  w.u64(8, s.unknown08, 'unknown 0x8');
  w.u64(0x10, s.resourceId, 'resource id');
  w.u32(0x18, s.unknown18, 'unknown 0x18');
  w.u32(0x1c, s.parameterCount, 'parameter count');
  writeGroups(w, s.groups, s.groupTableOffset);
  w.unknown(s.unknown);
  return w.finish();
}

export function readPassBinding(bytes: Uint8Array): PassBinding {
  const r = new FieldReader(bytes, 'pass binding');
  const version = r.u32(0, 'version');
  if (!PASS_BINDING_VERSIONS.includes(version))
    throw r.fail('E804_SKATE_BAD_VALUE', 'version', 0, `${version} is neither 1 nor 0x101 (the versions measured)`);
  const groupCount = r.u32(4, 'group count');
  const groupOffsetField = r.u32(8, 'group offset');
  const zero0c = r.u32(0xc, 'zero word 0xc');
  const resourceId = r.u64(0x10, 'resource id');
  const zero18 = r.u64(0x18, 'zero 0x18');
  const groupOffset = r.table(groupOffsetField, groupCount, GROUP_SIZE, 'group offset', 8);
  const groups = readGroups(r, groupCount, groupOffset, 0);
  return {
    structure: 'pass binding',
    size: bytes.byteLength,
    version,
    groupCount,
    groupOffset,
    zero0c,
    resourceId,
    zero18,
    groups,
    unknown: r.unknown(),
  };
}

export function writePassBinding(p: PassBinding): Uint8Array {
  const w = new FieldWriter(p.size, 'pass binding');
  checkGroupCount('pass binding', p.groupCount, p.groups);
  w.u32(0, p.version, 'version');
  w.u32(4, p.groupCount, 'group count');
  w.u32(8, p.groupOffset, 'group offset');
  w.u32(0xc, p.zero0c, 'zero word 0xc');
  w.u64(0x10, p.resourceId, 'resource id');
  w.u64(0x18, p.zero18, 'zero 0x18');
  writeGroups(w, p.groups, p.groupOffset);
  w.unknown(p.unknown);
  return w.finish();
}

/** A group as a constructed layout gives it: every field but the offsets, which the layout sets. */
export interface GroupInput {
  readonly nameHash: bigint;
  readonly bufferSizeOrResourceCount: number;
  readonly unknownFlags?: string;
  readonly unknownWords?: readonly [number, number, number];
  readonly unknown18?: bigint;
  readonly parameters: readonly BindingParameter[];
  readonly entries: readonly BindingEntry[];
}

/**
 * The layout of constructed records: the header, the groups at 0x20, one all-parameters table
 * (every group's parameters in group order), then each group's entries; the end-of-tables offset is
 * the payload's end. The measured records' own placement is not in the spec; this is one that
 * satisfies every field's stated meaning.
 */
function layoutGroups(groups: readonly GroupInput[]): { groups: BindingGroup[]; size: number; parameters: number } {
  const parameters = groups.reduce((n, g) => n + g.parameters.length, 0);
  const all = HEADER_SIZE + groups.length * GROUP_SIZE;
  let param = all;
  let entry = all + parameters * PARAMETER_SIZE;
  const size = entry + parameters * ENTRY_SIZE;
  const out = groups.map((g): BindingGroup => {
    const laid: BindingGroup = {
      nameHash: g.nameHash,
      bufferSizeOrResourceCount: g.bufferSizeOrResourceCount,
      unknownFlags: g.unknownFlags ?? '00000000',
      parameterCount: g.parameters.length,
      unknownWords: g.unknownWords ?? [0, 0, 0],
      unknown18: g.unknown18 ?? 0n,
      allParametersOffset: all,
      groupParametersOffset: param,
      groupEntryTableOffset: entry,
      endOfTablesOffset: size,
      parameters: g.parameters,
      entries: g.entries,
    };
    param += g.parameters.length * PARAMETER_SIZE;
    entry += g.entries.length * ENTRY_SIZE;
    return laid;
  });
  return { groups: out, size, parameters };
}

export function layoutBindingSet(input: {
  readonly resourceId: bigint;
  readonly unknown08?: bigint;
  readonly unknown18?: number;
  readonly groups: readonly GroupInput[];
}): BindingSet {
  const { groups, size, parameters } = layoutGroups(input.groups);
  return {
    structure: 'binding set',
    size,
    groupCount: groups.length,
    groupTableOffset: HEADER_SIZE,
    unknown08: input.unknown08 ?? 0n,
    resourceId: input.resourceId,
    unknown18: input.unknown18 ?? 1,
    parameterCount: parameters,
    groups,
    unknown: [],
  };
}

export function layoutPassBinding(input: {
  readonly version: number;
  readonly resourceId: bigint;
  readonly groups: readonly GroupInput[];
}): PassBinding {
  const { groups, size } = layoutGroups(input.groups);
  return {
    structure: 'pass binding',
    size,
    version: input.version,
    groupCount: groups.length,
    groupOffset: HEADER_SIZE,
    zero0c: 0,
    resourceId: input.resourceId,
    zero18: 0n,
    groups,
    unknown: [],
  };
}

/** A constant-buffer entry for a parameter of `bytes` bytes at `offset` (marker 0xffff, kind 4 × size). */
export function constantEntry(offset: number, bytes: number): BindingEntry {
  return { offsetOrIndex: offset, marker: CONSTANT_MARKER, kind: 4 * bytes };
}

/** The spec's rule for a group's buffer size: the constants' extent rounded up to sixteen bytes. */
export function bufferSizeOf(entries: readonly BindingEntry[]): number {
  let end = 0;
  for (const e of entries) if (e.marker === CONSTANT_MARKER) end = Math.max(end, e.offsetOrIndex + e.kind / 4);
  return Math.ceil(end / 16) * 16;
}
