// Type names as the listing header prints them: the RDEF name in 5.x (with row_major and
// interface prefixes), and in 4.x, where types carry no names, the name built from the class, the
// component type, rows and columns (D3D_SHADER_VARIABLE_CLASS / D3D_SHADER_VARIABLE_TYPE).

import type { RdefType } from '../parts/rdef.js';

/** D3D_SHADER_VARIABLE_TYPE names (the HLSL spelling). */
const SCALAR_NAMES: Readonly<Record<number, string>> = {
  0: 'void',
  1: 'bool',
  2: 'int',
  3: 'float',
  4: 'string',
  5: 'texture',
  6: 'Texture1D',
  7: 'Texture2D',
  8: 'Texture3D',
  9: 'TextureCube',
  10: 'SamplerState',
  19: 'uint',
  20: 'uint8',
  39: 'double',
  52: 'min8float',
  53: 'min10float',
  54: 'min16float',
  55: 'min12int',
  56: 'min16int',
  57: 'min16uint',
};

export function typeName(t: RdefType): string {
  const prefix = t.class === 2 ? 'row_major ' : t.class === 7 ? 'interface ' : '';
  // 5.x names only structs and classes usefully ('dword' is the stored name of uint).
  if (t.class >= 5) {
    if (t.class === 5) return t.name === undefined ? 'struct' : `struct ${t.name}`;
    return `${prefix}${t.name ?? SCALAR_NAMES[t.type] ?? `type${t.type}`}`;
  }
  return shapeName(t.class, t.type, t.rows, t.columns);
}

/** The name of a type from its class, component type, rows and columns (`float4`, `row_major float4x4`). */
export function shapeName(cls: number, type: number, rows: number, columns: number): string {
  const prefix = cls === 2 ? 'row_major ' : cls === 7 ? 'interface ' : '';
  const base = SCALAR_NAMES[type] ?? `type${type}`;
  switch (cls) {
    case 0:
      return base;
    case 1:
      return `${base}${columns}`;
    case 2:
    case 3:
      return `${prefix}${base}${rows}x${columns}`;
    default:
      return `${prefix}${base}`;
  }
}
