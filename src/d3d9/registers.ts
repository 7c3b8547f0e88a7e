// Direct3D 9 register types (D3DSHADER_PARAM_REGISTER_TYPE, d3d9types.h) and the names D3DDisassemble gives
// them. A few types change name with the stage and model: type 3 is the address register a# in a vertex program
// and the texture register t# in a pixel program; type 6 is oT# before vs_3_0 and o# from it.

import type { D3D9Version } from './decode.js';

export const REG = {
  temp: 0,
  input: 1,
  const: 2,
  addrOrTexture: 3,
  rastOut: 4,
  attrOut: 5,
  texcrdOut: 6,
  constInt: 7,
  colorOut: 8,
  depthOut: 9,
  sampler: 10,
  const2: 11,
  const3: 12,
  const4: 13,
  constBool: 14,
  loop: 15,
  tempFloat16: 16,
  misc: 17,
  label: 18,
  predicate: 19,
} as const;

const PLAIN: readonly (string | undefined)[] = [
  'r', // temp
  'v', // input
  'c', // const
  undefined, // a or t
  undefined, // rasterizer outputs, named by number
  'oD', // attribute (colour) output
  undefined, // oT or o
  'i',
  'oC',
  'oDepth',
  's',
  'c', // const2: c2048 and up
  'c', // const3
  'c', // const4
  'b',
  'aL',
  'half', // tempfloat16 (never emitted by a compiler)
  undefined, // misc: vPos, vFace
  'l',
  'p',
];

const RAST_OUT: readonly string[] = ['oPos', 'oFog', 'oPts'];
const MISC: readonly string[] = ['vPos', 'vFace'];

/** Offsets of the extra constant register files (c2048, c4096, c6144). */
const CONST_BASE: ReadonlyMap<number, number> = new Map([
  [REG.const2, 2048],
  [REG.const3, 4096],
  [REG.const4, 6144],
]);

/** Is the register type known at all? */
export function isRegisterType(type: number): boolean {
  return type >= 0 && type < PLAIN.length;
}

/** The register's name with its number, as D3DDisassemble prints it (r0, c12, oPos, vFace, aL, t1, o3). */
export function registerName(type: number, num: number, version: D3D9Version): string {
  switch (type) {
    case REG.addrOrTexture:
      return `${version.stage === 'vs' ? 'a' : 't'}${num}`;
    case REG.rastOut:
      return RAST_OUT[num] ?? `oRast${num}`;
    case REG.texcrdOut:
      return `${version.stage === 'vs' && version.major >= 3 ? 'o' : 'oT'}${num}`;
    case REG.misc:
      return MISC[num] ?? `vMisc${num}`;
    case REG.loop:
      return 'aL';
    case REG.depthOut:
      return 'oDepth';
    default: {
      const base = CONST_BASE.get(type) ?? 0;
      return `${PLAIN[type] ?? `?${type}_`}${num + base}`;
    }
  }
}
