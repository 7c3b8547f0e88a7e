// IFCE, the class linkage part (containers.md, "Class linkage part (IFCE)"): the class instances
// the constant buffers hold, the class types that implement the interfaces, and for each
// interface slot record the class types and function tables it can be bound to.

import { ByteReader } from '../binary/reader.js';
import { partString, requireTable } from './common.js';

export interface IfceInstance {
  readonly name: string;
  /** Index in the class type table. */
  readonly classType: number;
  /** More than 1 for an instance array. */
  readonly count: number;
  /** 0xffff for a class without data. */
  readonly constantBuffer: number;
  readonly bufferRegister: number;
  readonly firstTexture: number;
  readonly firstSampler: number;
}

export interface IfceClassType {
  readonly name: string;
  readonly reserved: number;
  /** The registers one instance's data takes. */
  readonly constantBufferStride: number;
  readonly textureCount: number;
  readonly samplerCount: number;
}

export interface IfceSlotRecord {
  /** The slots of one interface pointer or array. */
  readonly slotSpan: number;
  /** Per entry: the class type and the function table. */
  readonly classTypes: readonly number[];
  readonly functionTables: readonly number[];
}

export interface Ifce {
  readonly instances: readonly IfceInstance[];
  readonly classTypes: readonly IfceClassType[];
  readonly slotRecords: readonly IfceSlotRecord[];
  /** All the slots, an interface array taking one per element. */
  readonly interfaceSlotCount: number;
}

export function readIfce(data: Uint8Array, base = 0): Ifce {
  const r = new ByteReader(data, { base, where: 'IFCE', code: 'E201_PART_TRUNCATED' });
  const instanceCount = r.u32At(0, 'the instance count');
  const classCount = r.u32At(4, 'the class type count');
  const slotRecordCount = r.u32At(8, 'the slot record count');
  const interfaceSlotCount = r.u32At(12, 'the interface slot count');
  const instanceOffset = r.u32At(16, 'the instance table offset');
  const classOffset = r.u32At(20, 'the class type table offset');
  const slotOffset = r.u32At(24, 'the slot record table offset');
  requireTable(r, instanceOffset, instanceCount, 16, 'class instance', 0);
  requireTable(r, classOffset, classCount, 12, 'class type', 4);
  requireTable(r, slotOffset, slotRecordCount, 16, 'interface slot', 8);
  const classTypes: IfceClassType[] = [];
  for (let i = 0; i < classCount; i++) {
    const at = classOffset + 12 * i;
    classTypes.push({
      name: partString(r, r.u32At(at), `class type ${i}'s name`),
      reserved: r.u16At(at + 4),
      constantBufferStride: r.u16At(at + 6),
      textureCount: r.u16At(at + 8),
      samplerCount: r.u16At(at + 10),
    });
  }
  const instances: IfceInstance[] = [];
  for (let i = 0; i < instanceCount; i++) {
    const at = instanceOffset + 16 * i;
    instances.push({
      name: partString(r, r.u32At(at), `class instance ${i}'s name`),
      classType: r.u16At(at + 4),
      count: r.u16At(at + 6),
      constantBuffer: r.u16At(at + 8),
      bufferRegister: r.u16At(at + 10),
      firstTexture: r.u16At(at + 12),
      firstSampler: r.u16At(at + 14),
    });
  }
  const slotRecords: IfceSlotRecord[] = [];
  for (let i = 0; i < slotRecordCount; i++) {
    const at = slotOffset + 16 * i;
    const entries = r.u32At(at + 4);
    const typesAt = r.u32At(at + 8);
    const tablesAt = r.u32At(at + 12);
    requireTable(r, typesAt, entries, 2, `slot record ${i}'s class type`, at + 8);
    requireTable(r, tablesAt, entries, 4, `slot record ${i}'s function table`, at + 12);
    const classTypesOf: number[] = [];
    const functionTables: number[] = [];
    for (let e = 0; e < entries; e++) {
      classTypesOf.push(r.u16At(typesAt + 2 * e));
      functionTables.push(r.u32At(tablesAt + 4 * e));
    }
    slotRecords.push({ slotSpan: r.u32At(at), classTypes: classTypesOf, functionTables });
  }
  return { instances, classTypes, slotRecords, interfaceSlotCount };
}
