// Input layouts of skate. (../shared/spec/skate-bindings.md, "Input layouts"): the element count,
// the element and usage table pointers (relocated slots 4 and 0xc, offsets from the payload's first
// byte), twelve unknown bytes, then 20-byte elements and one usage byte per element, each array
// sixteen-byte aligned in the measured resources. The reader checks both pointers against the
// payload for the element count before it reads or allocates by it; the writer is its inverse.

import { FieldReader, FieldWriter, zeros, type UnknownBytes } from './bytes.js';
import { IridiaError } from '../../errors.js';

export const INPUT_LAYOUT_HEADER_SIZE = 0x20;
export const ELEMENT_SIZE = 20;

export interface InputElement {
  readonly semanticIndex: number;
  readonly inputSlot: number;
  readonly byteOffset: number;
  /** D3D12_INPUT_CLASSIFICATION as measured: 0 per vertex, 1 per instance (other values kept). */
  readonly slotClass: number;
  /** Byte 1 is the DXGI format; bytes 0, 2 and 3 have no established meaning. */
  readonly formatWord: number;
  /** The element's usage byte (no established decode). */
  readonly usage: number;
}

export interface InputLayout {
  readonly structure: 'input layout';
  readonly size: number;
  readonly elementCount: number;
  readonly elementTablePointer: number;
  readonly usageTablePointer: number;
  /** Bytes 0x14-0x1f: unknown (zero in measured resources), hex in file order. */
  readonly unknown14: string;
  readonly elements: readonly InputElement[];
  readonly unknown: readonly UnknownBytes[];
}

/** The DXGI format of an element: byte 1 of its format word. */
export function elementFormat(e: InputElement): number {
  return (e.formatWord >>> 8) & 0xff;
}

export function readInputLayout(bytes: Uint8Array): InputLayout {
  const r = new FieldReader(bytes, 'input layout');
  const elementCount = r.u32(0, 'element count');
  const elementField = r.u64(4, 'element table pointer');
  const usageField = r.u64(0xc, 'usage table pointer');
  const unknown14 = r.raw(0x14, 12, 'unknown 0x14');
  const elementTablePointer = r.table(elementField, elementCount, ELEMENT_SIZE, 'element table pointer', 4);
  const usageTablePointer = r.table(usageField, elementCount, 1, 'usage table pointer', 0xc);
  const elements: InputElement[] = [];
  for (let i = 0; i < elementCount; i++) {
    const at = elementTablePointer + i * ELEMENT_SIZE;
    elements.push({
      semanticIndex: r.u32(at, `element ${i} semantic index`),
      inputSlot: r.u32(at + 4, `element ${i} input slot`),
      byteOffset: r.u32(at + 8, `element ${i} byte offset`),
      slotClass: r.u32(at + 0xc, `element ${i} slot class`),
      formatWord: r.u32(at + 0x10, `element ${i} format word`),
      usage: r.u8(usageTablePointer + i, `element ${i} usage`),
    });
  }
  return {
    structure: 'input layout',
    size: bytes.byteLength,
    elementCount,
    elementTablePointer,
    usageTablePointer,
    unknown14,
    elements,
    unknown: r.unknown(),
  };
}

export function writeInputLayout(l: InputLayout): Uint8Array {
  if (l.elementCount !== l.elements.length)
    throw new IridiaError(
      'E109_BAD_ARGUMENT',
      `input layout writer: element count ${l.elementCount} but ${l.elements.length} elements`,
    );
  const w = new FieldWriter(l.size, 'input layout');
  w.u32(0, l.elementCount, 'element count');
  w.u64(4, l.elementTablePointer, 'element table pointer');
  w.u64(0xc, l.usageTablePointer, 'usage table pointer');
  w.raw(0x14, l.unknown14, 12, 'unknown 0x14');
  l.elements.forEach((e, i) => {
    const at = l.elementTablePointer + i * ELEMENT_SIZE;
    w.u32(at, e.semanticIndex, `element ${i} semantic index`);
    w.u32(at + 4, e.inputSlot, `element ${i} input slot`);
    w.u32(at + 8, e.byteOffset, `element ${i} byte offset`);
    w.u32(at + 0xc, e.slotClass, `element ${i} slot class`);
    w.u32(at + 0x10, e.formatWord, `element ${i} format word`);
    w.u8(l.usageTablePointer + i, e.usage, `element ${i} usage`);
  });
  w.unknown(l.unknown);
  return w.finish();
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** A constructed layout as the measured resources place it: elements at 0x20, the usage bytes at the
 * next sixteen-byte boundary, zero padding to sixteen bytes after each array. */
export function layoutInputLayout(elements: readonly InputElement[], unknown14 = '00'.repeat(12)): InputLayout {
  const elementEnd = INPUT_LAYOUT_HEADER_SIZE + elements.length * ELEMENT_SIZE;
  const usage = align16(elementEnd);
  const size = align16(usage + elements.length);
  return {
    structure: 'input layout',
    size,
    elementCount: elements.length,
    elementTablePointer: INPUT_LAYOUT_HEADER_SIZE,
    usageTablePointer: usage,
    unknown14,
    elements,
    unknown: [...zeros(elementEnd, usage), ...zeros(usage + elements.length, size)],
  };
}

/** A format word with the DXGI format in byte 1 and `low` (no established meaning) in byte 0. */
export function formatWord(dxgiFormat: number, low = 0): number {
  return ((dxgiFormat & 0xff) << 8) | (low & 0xff);
}
