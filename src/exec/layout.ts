// Memory layout of IR types for the executor, in 32-bit words: WGSL's host-shareable rules (a vec3
// is 3 words aligned to 4, arrays stride by their element's size rounded up to its alignment, struct
// members aligned), so a buffer bound to the executor and the same words bound through WebGPU mean
// the same thing. Values and private memory use the same layout.

import type { Module, Type } from '../ir/ir.js';
import { IridiaError } from '../errors.js';

export interface Layout {
  /** Size in words (for a runtime-sized array: the stride of one element). */
  readonly size: number;
  readonly align: number;
  /** Array element stride, in words. */
  readonly stride?: number;
  /** Struct member offsets, in words. */
  readonly offsets?: readonly number[];
}

const cache = new WeakMap<Module, Map<Type, Layout>>();

function roundUp(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

export function layoutOf(m: Module, t: Type): Layout {
  let c = cache.get(m);
  if (!c) cache.set(m, (c = new Map()));
  const hit = c.get(t);
  if (hit) return hit;
  const l = compute(m, t);
  c.set(t, l);
  return l;
}

function typeAt(m: Module, id: number): Type {
  const t = m.types[id];
  if (!t) throw new IridiaError('E701_EXEC_ERROR', `type handle ${id} out of range`);
  return t;
}

function compute(m: Module, t: Type): Layout {
  switch (t.kind) {
    case 'scalar':
    case 'atomic':
      return { size: 1, align: 1 };
    case 'vector':
      return { size: t.size, align: t.size === 3 ? 4 : t.size };
    case 'array': {
      const e = layoutOf(m, typeAt(m, t.base));
      const stride = roundUp(e.size, e.align);
      return { size: t.length === null ? stride : stride * t.length, align: e.align, stride };
    }
    case 'struct': {
      let off = 0;
      let align = 1;
      const offsets: number[] = [];
      for (const mem of t.members) {
        const l = layoutOf(m, typeAt(m, mem.type));
        off = roundUp(off, l.align);
        offsets.push(off);
        off += l.size;
        align = Math.max(align, l.align);
      }
      return { size: roundUp(off, align), align, offsets };
    }
    case 'image':
    case 'sampler':
    case 'binding_array':
      return { size: 0, align: 1 };
  }
}

/** The type of member `index` of a struct, or of an element of an array or vector. */
export function memberType(m: Module, t: Type, index: number | undefined): Type {
  switch (t.kind) {
    case 'struct': {
      const mem = t.members[index ?? -1];
      if (!mem) throw new IridiaError('E701_EXEC_ERROR', `struct ${t.name} has no member ${index}`);
      return typeAt(m, mem.type);
    }
    case 'array':
    case 'binding_array':
      return typeAt(m, t.base);
    case 'vector':
      return { kind: 'scalar', scalar: t.scalar };
    case 'scalar':
    case 'atomic':
    case 'image':
    case 'sampler':
      throw new IridiaError('E701_EXEC_ERROR', `no element in a ${t.kind}`);
  }
}

/** Word offset of member/element `index` within `t`. */
export function memberOffset(m: Module, t: Type, index: number): number {
  if (t.kind === 'struct') return layoutOf(m, t).offsets![index]!;
  if (t.kind === 'array') return layoutOf(m, t).stride! * index;
  return index;
}

/** Elements in an array or vector (null: runtime-sized). */
export function elementCount(t: Type): number | null {
  if (t.kind === 'array') return t.length;
  if (t.kind === 'vector') return t.size;
  if (t.kind === 'binding_array') return t.size;
  return 0;
}
