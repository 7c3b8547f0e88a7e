// The text of a root signature (an RTS0 part) as DirectX Shader Compiler's own printer writes it:
// hlsl::printRootSignature (lib/DxilRootSignature/DxilRootSignature.cpp), which `dxa -dumprs` prints.
// (`dxc -dumpbin` of a container holding RTS0 alone refuses it, DXC_E_CONTAINER_MISSING_DXIL; this
// printer is the one dxc has for a root signature.) Its rules, as that printer has them:
//   - RootFlags(A|B|...), first when any flag is set, the names in bit order: 0x1
//     ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT, 0x2..0x20 Deny{Vertex,Hull,Domain,Geometry,Pixel}ShaderRootAccess,
//     0x40 AllowStreamOutput, 0x80 LocalRootSignature, 0x100 DenyAmplificationShaderRootAccess,
//     0x200 DenyMeshShaderRootAccess, 0x400 CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED, 0x800
//     SAMPLER_HEAP_DIRECTLY_INDEXED, 0x1000 AllowLowTierReservedHwCbLimit; then `),`.
//   - each root parameter, then `,`: CBV(bN / SRV(tN / UAV(uN for a root descriptor;
//     `RootConstants(num32BitConstants=` N `b` register (no comma between them) for constants;
//     `DescriptorTable(` then each range `CBV(b|SRV(t|UAV(u|Sampler(s` register, then `,`; a register
//     is followed by `, space=S` when S is not 0 and, for a range of more than one descriptor,
//     `, numDescriptors =N`; then `,visibility=SHADER_VISIBILITY_X` unless visible to all, and `)`.
//   - each static sampler: `StaticSampler(sN, space=S` [visibility] `)` then `,`.
//   - no newline at the end (iridia adds one, so that a listing ends with a newline).
// Versions 1.0, 1.1 and 1.2 print alike (the printer reads every version as 1.1's fields).

import type { RootParameter, RootSignature } from '../dxil/rts0.js';

const ROOT_FLAGS: readonly string[] = [
  'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT',
  'DenyVertexShaderRootAccess',
  'DenyHullShaderRootAccess',
  'DenyDomainShaderRootAccess',
  'DenyGeometryShaderRootAccess',
  'DenyPixelShaderRootAccess',
  'AllowStreamOutput',
  'LocalRootSignature',
  'DenyAmplificationShaderRootAccess',
  'DenyMeshShaderRootAccess',
  'CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED',
  'SAMPLER_HEAP_DIRECTLY_INDEXED',
  'AllowLowTierReservedHwCbLimit',
];

/** D3D12_SHADER_VISIBILITY: 0 all, 1 vertex, 2 hull, 3 domain, 4 geometry, 5 pixel, 6 amplification, 7 mesh. */
const VISIBILITY: Readonly<Record<number, string>> = {
  1: 'VERTEX',
  2: 'HULL',
  3: 'DOMAIN',
  4: 'GEOMETRY',
  5: 'PIXEL',
  6: 'AMPLIFICATION',
  7: 'MESH',
};

/** D3D12_DESCRIPTOR_RANGE_TYPE: 0 SRV, 1 UAV, 2 CBV, 3 sampler. */
const RANGE_OPEN: Readonly<Record<number, string>> = { 0: 'SRV(t', 1: 'UAV(u', 2: 'CBV(b', 3: 'Sampler(s' };

function desc(register: number, space: number, size: number): string {
  return `${register}${space ? `, space=${space}` : ''}${size && size !== 1 ? `, numDescriptors =${size}` : ''}`;
}

function visibility(v: number): string {
  const name = VISIBILITY[v];
  return name ? `,visibility=SHADER_VISIBILITY_${name}` : '';
}

function parameter(p: RootParameter): string {
  let s: string;
  switch (p.type) {
    case 'cbv':
      s = `CBV(b${desc(p.shaderRegister, p.registerSpace, 0)}`;
      break;
    case 'srv':
      s = `SRV(t${desc(p.shaderRegister, p.registerSpace, 0)}`;
      break;
    case 'uav':
      s = `UAV(u${desc(p.shaderRegister, p.registerSpace, 0)}`;
      break;
    case 'constants':
      s = `RootConstants(num32BitConstants=${p.num32BitValues}b${desc(p.shaderRegister, p.registerSpace, 0)}`;
      break;
    case 'table':
      s =
        'DescriptorTable(' +
        p.ranges
          .map(
            (r) => `${RANGE_OPEN[r.rangeType] ?? ''}${desc(r.baseShaderRegister, r.registerSpace, r.numDescriptors)}),`,
          )
          .join('');
      break;
  }
  return `${s}${visibility(p.visibility)})`;
}

/** The root signature's text as hlsl::printRootSignature writes it, and a newline. */
export function rootSignatureText(rs: RootSignature): string {
  let s = '';
  if (rs.flags !== 0) s += `RootFlags(${ROOT_FLAGS.filter((_, i) => rs.flags & (1 << i)).join('|')}),`;
  for (const p of rs.parameters) s += `${parameter(p)},`;
  for (const x of rs.staticSamplers)
    s += `StaticSampler(s${x.shaderRegister}, space=${x.registerSpace}${visibility(x.visibility)}),`;
  return `${s}\n`;
}
