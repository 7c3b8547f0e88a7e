// dxc's DataLayout (LLVM 3.7's, with its HLSL change: vectors aligned as their element) for the
// sizes and offsets dxc's disassembler prints for structured buffer elements: the datalayout
// string's integer, float, pointer and aggregate alignments over LLVM's defaults, type sizes,
// allocation sizes and struct member offsets.

import type { Type } from './ir.js';

interface Spec {
  readonly abi: number; // bytes
}

export class DataLayout {
  private readonly ints = new Map<number, Spec>();
  private readonly floats = new Map<number, Spec>();
  private aggregate = 0;
  private pointerBits = 64;
  private pointerAbi = 8;
  private readonly structs = new Map<Type, { offsets: number[]; size: number; align: number }>();

  constructor(text: string) {
    // LLVM 3.7's DefaultAlignments.
    for (const [w, a] of [
      [1, 1],
      [8, 1],
      [16, 2],
      [32, 4],
      [64, 4],
    ] as const)
      this.ints.set(w, { abi: a });
    for (const [w, a] of [
      [16, 2],
      [32, 4],
      [64, 8],
      [128, 16],
    ] as const)
      this.floats.set(w, { abi: a });
    for (const spec of text.split('-')) {
      const [head, abiText] = spec.split(':');
      if (!head) continue;
      const abi = Math.floor(Number(abiText ?? 0) / 8);
      const kind = head[0];
      const size = Number(head.slice(1));
      if (kind === 'i' && size) this.ints.set(size, { abi });
      else if (kind === 'f' && size) this.floats.set(size, { abi });
      else if (kind === 'a') this.aggregate = abi;
      else if (head === 'p' || /^p\d+$/.test(head)) {
        const parts = spec.split(':');
        this.pointerBits = Number(parts[1] ?? 64);
        this.pointerAbi = Math.floor(Number(parts[2] ?? parts[1] ?? 64) / 8);
      }
    }
  }

  sizeInBits(t: Type): number {
    switch (t.kind) {
      case 'int':
        return t.width;
      case 'half':
        return 16;
      case 'float':
        return 32;
      case 'double':
        return 64;
      case 'ptr':
        return this.pointerBits;
      case 'array':
        return t.count * this.allocSize(t.elt!) * 8;
      case 'vector':
        return t.count * this.sizeInBits(t.elt!);
      case 'struct':
        return this.struct(t).size * 8;
      case 'x86_fp80':
        return 80;
      case 'fp128':
      case 'ppc_fp128':
        return 128;
      case 'x86_mmx':
        return 64;
      case 'fn':
      case 'label':
      case 'metadata':
      case 'void':
        return 0;
    }
  }

  storeSize(t: Type): number {
    return Math.ceil(this.sizeInBits(t) / 8);
  }

  allocSize(t: Type): number {
    const a = this.abiAlign(t);
    return Math.ceil(this.storeSize(t) / a) * a;
  }

  abiAlign(t: Type): number {
    switch (t.kind) {
      case 'int': {
        const exact = this.ints.get(t.width);
        if (exact) return exact.abi || 1;
        // The smallest larger integer's alignment, else the largest.
        const widths = [...this.ints.keys()].sort((a, b) => a - b);
        const larger = widths.find((w) => w > t.width);
        return this.ints.get(larger ?? widths[widths.length - 1]!)!.abi || 1;
      }
      case 'half':
        return this.floats.get(16)?.abi || 2;
      case 'float':
        return this.floats.get(32)?.abi || 4;
      case 'double':
        return this.floats.get(64)?.abi || 8;
      case 'ptr':
        return this.pointerAbi || 1;
      case 'array':
        return this.abiAlign(t.elt!);
      case 'vector':
        // dxc's DataLayout (an HLSL change): a vector is aligned as its element.
        return this.abiAlign(t.elt!);
      case 'struct':
        return this.struct(t).align;
      case 'x86_fp80':
      case 'fp128':
      case 'ppc_fp128':
        return 16;
      case 'x86_mmx':
        return 8;
      case 'fn':
      case 'label':
      case 'metadata':
      case 'void':
        return 1;
    }
  }

  /** Member offsets, size and alignment of a struct (StructLayout). */
  struct(t: Type): { offsets: number[]; size: number; align: number } {
    let s = this.structs.get(t);
    if (s) return s;
    s = { offsets: [], size: 0, align: 1 }; // a recursive struct sees this while being laid out
    this.structs.set(t, s);
    let size = 0;
    let align = 1;
    const offsets: number[] = [];
    for (const e of t.elts) {
      const a = t.packed ? 1 : this.abiAlign(e);
      size = Math.ceil(size / a) * a;
      offsets.push(size);
      size += this.allocSize(e);
      align = Math.max(align, a);
    }
    if (!t.packed) align = Math.max(align, this.aggregate || 1);
    size = Math.ceil(size / align) * align;
    s.offsets = offsets;
    s.size = size;
    s.align = align;
    return s;
  }
}
