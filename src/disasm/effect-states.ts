// The state assignments of Direct3D 10 effects (fx_4_x): state ids with their names, value types
// and named values, as fxc's effect listing spells them. Facts from vkd3d's fx.c state table
// (fx_4_states) and the D3D10 enumerations; the per-render-target blend states print their index
// in every fx_4 version, as fxc does.

/** Value kinds: b bool, f float, u uint, y byte, o an object (shader, state, view, texture). */
export interface FxState {
  readonly name: string;
  readonly kind: 'b' | 'f' | 'u' | 'y' | 'o';
  readonly dim: number;
  /** Printed with [lhs index]. */
  readonly indexed: boolean;
  readonly values?: Readonly<Record<number, string>>;
}

const FILTER: Readonly<Record<number, string>> = {
  0: 'MIN_MAG_MIP_POINT',
  1: 'MIN_MAG_POINT_MIP_LINEAR',
  4: 'MIN_POINT_MAG_LINEAR_MIP_POINT',
  5: 'MIN_POINT_MAG_MIP_LINEAR',
  16: 'MIN_LINEAR_MAG_MIP_POINT',
  17: 'MIN_LINEAR_MAG_POINT_MIP_LINEAR',
  20: 'MIN_MAG_LINEAR_MIP_POINT',
  21: 'MIN_MAG_MIP_LINEAR',
  85: 'ANISOTROPIC',
  128: 'COMPARISON_MIN_MAG_MIP_POINT',
  129: 'COMPARISON_MIN_MAG_POINT_MIP_LINEAR',
  132: 'COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT',
  133: 'COMPARISON_MIN_POINT_MAG_MIP_LINEAR',
  144: 'COMPARISON_MIN_LINEAR_MAG_MIP_POINT',
  145: 'COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR',
  148: 'COMPARISON_MIN_MAG_LINEAR_MIP_POINT',
  149: 'COMPARISON_MIN_MAG_MIP_LINEAR',
  213: 'COMPARISON_ANISOTROPIC',
};
const ADDRESS = { 1: 'WRAP', 2: 'MIRROR', 3: 'CLAMP', 4: 'BORDER', 5: 'MIRROR_ONCE' };
const COMPARISON = {
  1: 'NEVER',
  2: 'LESS',
  3: 'EQUAL',
  4: 'LESS_EQUAL',
  5: 'GREATER',
  6: 'NOT_EQUAL',
  7: 'GREATER_EQUAL',
  8: 'ALWAYS',
};
const DEPTH_WRITE = { 0: 'ZERO', 1: 'ALL' };
const STENCIL_OP = {
  1: 'KEEP',
  2: 'ZERO',
  3: 'REPLACE',
  4: 'INCR_SAT',
  5: 'DECR_SAT',
  6: 'INVERT',
  7: 'INCR',
  8: 'DECR',
};
const FILL = { 2: 'WIREFRAME', 3: 'SOLID' };
const CULL = { 1: 'NONE', 2: 'FRONT', 3: 'BACK' };
const BLEND = {
  1: 'ZERO',
  2: 'ONE',
  3: 'SRC_COLOR',
  4: 'INV_SRC_COLOR',
  5: 'SRC_ALPHA',
  6: 'INV_SRC_ALPHA',
  7: 'DEST_ALPHA',
  8: 'INV_DEST_ALPHA',
  9: 'DEST_COLOR',
  10: 'INV_DEST_COLOR',
  11: 'SRC_ALPHA_SAT',
  14: 'BLEND_FACTOR',
  15: 'INV_BLEND_FACTOR',
  16: 'SRC1_COLOR',
  17: 'INV_SRC1_COLOR',
  18: 'SRC1_ALPHA',
  19: 'INV_SRC1_ALPHA',
};
const BLEND_OP = { 1: 'ADD', 2: 'SUBTRACT', 3: 'REV_SUBTRACT', 4: 'MIN', 5: 'MAX' };
export const BOOL_VALUES = { 0: 'FALSE', 1: 'TRUE' };

const s = (
  name: string,
  kind: FxState['kind'],
  values?: Readonly<Record<number, string>>,
  dim = 1,
  indexed = false,
): FxState => (values === undefined ? { name, kind, dim, indexed } : { name, kind, dim, indexed, values });

/** By state id. */
export const FX_STATES: Readonly<Record<number, FxState>> = {
  0: s('RasterizerState', 'o'),
  1: s('DepthStencilState', 'o'),
  2: s('BlendState', 'o'),
  3: s('RenderTargetView', 'o', undefined, 1, true),
  4: s('DepthStencilView', 'o'),
  6: s('VertexShader', 'o'),
  7: s('PixelShader', 'o'),
  8: s('GeometryShader', 'o'),
  9: s('DS_StencilRef', 'u'),
  10: s('AB_BlendFactor', 'f', undefined, 4),
  11: s('AB_SampleMask', 'u'),
  12: s('FillMode', 'u', FILL),
  13: s('CullMode', 'u', CULL),
  14: s('FrontCounterClockwise', 'b', BOOL_VALUES),
  15: s('DepthBias', 'u'),
  16: s('DepthBiasClamp', 'f'),
  17: s('SlopeScaledDepthBias', 'f'),
  18: s('DepthClipEnable', 'b', BOOL_VALUES),
  19: s('ScissorEnable', 'b', BOOL_VALUES),
  20: s('MultisampleEnable', 'b', BOOL_VALUES),
  21: s('AntialiasedLineEnable', 'b', BOOL_VALUES),
  22: s('DepthEnable', 'b', BOOL_VALUES),
  23: s('DepthWriteMask', 'u', DEPTH_WRITE),
  24: s('DepthFunc', 'u', COMPARISON),
  25: s('StencilEnable', 'b', BOOL_VALUES),
  26: s('StencilReadMask', 'y'),
  27: s('StencilWriteMask', 'y'),
  28: s('FrontFaceStencilFail', 'u', STENCIL_OP),
  29: s('FrontFaceStencilDepthFail', 'u', STENCIL_OP),
  30: s('FrontFaceStencilPass', 'u', STENCIL_OP),
  31: s('FrontFaceStencilFunc', 'u', COMPARISON),
  32: s('BackFaceStencilFail', 'u', STENCIL_OP),
  33: s('BackFaceStencilDepthFail', 'u', STENCIL_OP),
  34: s('BackFaceStencilPass', 'u', STENCIL_OP),
  35: s('BackFaceStencilFunc', 'u', COMPARISON),
  36: s('AlphaToCoverageEnable', 'b', BOOL_VALUES),
  37: s('BlendEnable', 'b', BOOL_VALUES, 1, true),
  38: s('SrcBlend', 'u', BLEND, 1, true),
  39: s('DestBlend', 'u', BLEND, 1, true),
  40: s('BlendOp', 'u', BLEND_OP, 1, true),
  41: s('SrcBlendAlpha', 'u', BLEND, 1, true),
  42: s('DestBlendAlpha', 'u', BLEND, 1, true),
  43: s('BlendOpAlpha', 'u', BLEND_OP, 1, true),
  44: s('RenderTargetWriteMask', 'y', undefined, 1, true),
  45: s('Filter', 'u', FILTER),
  46: s('AddressU', 'u', ADDRESS),
  47: s('AddressV', 'u', ADDRESS),
  48: s('AddressW', 'u', ADDRESS),
  49: s('MipLODBias', 'f'),
  50: s('MaxAnisotropy', 'u'),
  51: s('ComparisonFunc', 'u', COMPARISON),
  52: s('BorderColor', 'f', undefined, 4),
  53: s('MinLOD', 'f'),
  54: s('MaxLOD', 'f'),
  55: s('Texture', 'o'),
  56: s('HullShader', 'o'),
  57: s('DomainShader', 'o'),
  58: s('ComputeShader', 'o'),
};
