// The part of a variable that a byte offset falls in, as a listing names it (spec: containers.md,
// "Debug information in Shader Model 4 and 5 (SPDB)"): `.member` for a struct, `[n]` for an array,
// `._mRC` for a matrix element (row and column from the major stride and bit 0 of the matrix
// attributes), `.x` to `.w` for a vector component, nothing for a scalar.

import { COMPONENTS } from './registers.js';
import { simpleTypeSize, type TypeStream } from './tpi.js';

const MAX_DEPTH = 64;

export function typeSize(types: TypeStream, index: number, depth = 0): number {
  if (index < types.first) return simpleTypeSize(index);
  const leaf = types.leaf(index);
  if (!leaf || depth > MAX_DEPTH) return 0;
  switch (leaf.kind) {
    case 'modifier':
      return typeSize(types, leaf.type, depth + 1);
    case 'array':
    case 'struct':
    case 'stridedArray':
    case 'vector':
    case 'matrix':
      return leaf.size;
    case 'hlsl':
      // Kind 0x200, an interface pointer, takes four words; the objects (textures, samplers) none.
      return leaf.hlslKind === 0x200 ? 16 : 0;
    case 'enum':
      return typeSize(types, leaf.underlying, depth + 1);
    case 'pointer':
    case 'arglist':
    case 'fieldlist':
    case 'procedure':
    case 'funcId':
    case 'stringId':
    case 'other':
      return 4;
  }
}

export function typeName(types: TypeStream, index: number, depth = 0): string {
  const leaf = types.leaf(index);
  if (!leaf || depth > MAX_DEPTH) return '';
  if (leaf.kind === 'modifier') return typeName(types, leaf.type, depth + 1);
  return 'name' in leaf ? leaf.name : '';
}

/** The member path of byte `offset` of a variable of type `index`. */
export function memberPath(types: TypeStream, index: number, offset: number, depth = 0): string {
  if (index < types.first || depth > MAX_DEPTH) return '';
  const leaf = types.leaf(index);
  if (!leaf) return '';
  switch (leaf.kind) {
    case 'modifier':
      return memberPath(types, leaf.type, offset, depth + 1);
    case 'vector': {
      const size = typeSize(types, leaf.elementType) || 4;
      return `.${COMPONENTS[Math.floor(offset / size)] ?? '?'}`;
    }
    case 'matrix': {
      const size = typeSize(types, leaf.elementType) || 4;
      const stride = leaf.majorStride || size * (leaf.rowMajor ? leaf.columns : leaf.rows);
      const major = Math.floor(offset / stride);
      const minor = Math.floor((offset % stride) / size);
      return leaf.rowMajor ? `._m${major}${minor}` : `._m${minor}${major}`;
    }
    case 'array':
    case 'stridedArray': {
      const size = leaf.kind === 'stridedArray' && leaf.stride ? leaf.stride : typeSize(types, leaf.elementType);
      if (size <= 0) return '';
      const n = Math.floor(offset / size);
      return `[${n}]${memberPath(types, leaf.elementType, offset - n * size, depth + 1)}`;
    }
    case 'struct': {
      const list = types.leaf(leaf.fieldList);
      if (!list || list.kind !== 'fieldlist') return '';
      let best: (typeof list.members)[number] | undefined;
      for (const m of list.members) if (m.offset <= offset && (!best || m.offset >= best.offset)) best = m;
      if (!best) return '';
      return `.${best.name}${memberPath(types, best.type, offset - best.offset, depth + 1)}`;
    }
    case 'arglist':
    case 'enum':
    case 'fieldlist':
    case 'funcId':
    case 'hlsl':
    case 'other':
    case 'pointer':
    case 'procedure':
    case 'stringId':
      return '';
  }
}
