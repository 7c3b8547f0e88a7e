// The constant table (CTAB comment) of a Direct3D 9 program: D3DXSHADER_CONSTANTTABLE and its
// D3DXSHADER_CONSTANTINFO / D3DXSHADER_TYPEINFO / D3DXSHADER_STRUCTMEMBERINFO records (d3dx9shader.h). All
// offsets are bytes from the word after the FourCC. Bounded: counts are checked against the bytes before any
// allocation, type nesting is limited, and every string ends inside the comment.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';

export interface CtabType {
  /** D3DXPARAMETER_CLASS: 0 scalar, 1 vector, 2 row-major matrix, 3 column-major matrix, 4 object, 5 struct. */
  readonly class: number;
  /** D3DXPARAMETER_TYPE: 0 void, 1 bool, 2 int, 3 float, 4 string, 5 texture, 10-14 samplers... */
  readonly type: number;
  readonly rows: number;
  readonly columns: number;
  readonly elements: number;
  readonly members: readonly CtabMember[];
}

export interface CtabMember {
  readonly name: string;
  readonly type: CtabType;
}

export interface CtabConstant {
  readonly name: string;
  /** D3DXREGISTER_SET: 0 bool, 1 int4, 2 float4, 3 sampler. */
  readonly registerSet: number;
  readonly registerIndex: number;
  readonly registerCount: number;
  readonly type: CtabType;
  /** Offset of the default value (0 when none). */
  readonly defaultOffset: number;
}

export interface ConstantTable {
  readonly creator: string;
  readonly version: number;
  readonly flags: number;
  readonly target: string;
  readonly constants: readonly CtabConstant[];
}

const MAX_DEPTH = 16;

/**
 * Reads a CTAB comment. `data` is the comment's words after the comment token (the FourCC first);
 * `base` is the byte offset of that FourCC in the program, for error messages.
 */
export function readConstantTable(data: Uint8Array, base: number): ConstantTable {
  const r = new ByteReader(data.subarray(4), { base: base + 4, where: 'CTAB', code: 'E514_D3D9_CTAB' });
  const size = r.u32At(0, 'the table header size');
  if (size < 28) throw r.fail('E514_D3D9_CTAB', `the table header size ${size} is below 28`, 0);
  const creator = r.cstringAt(r.u32At(4), 'the creator string');
  const version = r.u32At(8);
  const count = r.u32At(12);
  const infoOffset = r.u32At(16);
  const flags = r.u32At(20);
  const target = r.cstringAt(r.u32At(24), 'the target string');
  if (count > (r.length - Math.min(infoOffset, r.length)) / 20)
    throw r.fail('E514_D3D9_CTAB', `${count} constants at ${hex(infoOffset)} do not fit in ${hex(r.length)} bytes`, 12);
  // Type records may point at each other; the budget (one visit per 8 bytes of table) keeps shared or
  // looping member lists from multiplying the work.
  const budget = { left: Math.floor(r.length / 8) };
  const constants: CtabConstant[] = [];
  for (let i = 0; i < count; i++) {
    const o = infoOffset + i * 20;
    constants.push({
      name: r.cstringAt(r.u32At(o), `constant ${i}'s name`),
      registerSet: r.u16At(o + 4),
      registerIndex: r.u16At(o + 6),
      registerCount: r.u16At(o + 8),
      type: readType(r, r.u32At(o + 12), 0, budget),
      defaultOffset: r.u32At(o + 16),
    });
  }
  return { creator, version, flags, target, constants };
}

function readType(r: ByteReader, offset: number, depth: number, budget: { left: number }): CtabType {
  if (depth > MAX_DEPTH) throw r.fail('E514_D3D9_CTAB', `type records nest deeper than ${MAX_DEPTH}`, offset);
  if (--budget.left < 0)
    throw r.fail(
      'E514_D3D9_CTAB',
      `the type records at ${hex(offset)} are shared or loop more than the table can hold`,
      offset,
    );
  r.require(offset, 16, 'a type record');
  const memberCount = r.u16At(offset + 10);
  const memberOffset = r.u32At(offset + 12);
  if (memberCount > (r.length - Math.min(memberOffset, r.length)) / 8)
    throw r.fail('E514_D3D9_CTAB', `${memberCount} struct members at ${hex(memberOffset)} do not fit`, offset + 10);
  const members: CtabMember[] = [];
  for (let i = 0; i < memberCount; i++) {
    const m = memberOffset + i * 8;
    members.push({
      name: r.cstringAt(r.u32At(m), `member ${i}'s name`),
      type: readType(r, r.u32At(m + 4), depth + 1, budget),
    });
  }
  return {
    class: r.u16At(offset),
    type: r.u16At(offset + 2),
    rows: r.u16At(offset + 4),
    columns: r.u16At(offset + 6),
    elements: r.u16At(offset + 8),
    members,
  };
}
