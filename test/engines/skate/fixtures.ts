// Constructed skate. structures (no skate. file is public): built by the module's layout functions
// and writers from ../shared/spec/skate-bindings.md's tables, every field a distinct value, and the
// measured values the spec quotes (shadow depth bias -10 and slope -4, decal stencil read mask 0x08,
// opaque stencil write mask 0xfe, the two render-target records). One raster permutation matches
// fx_normal_mapping (test/fixtures/skate): b0 "Obj" of 160 bytes in set 1 group 0, t0 and t1 in set 1
// group 1; its input layout holds POSITION, NORMAL, TANGENT and TEXCOORD0.

import {
  constantEntry,
  layoutBindingSet,
  layoutPassBinding,
  type BindingSet,
  type PassBinding,
} from '../../../src/engines/skate/binding-set.js';
import { formatWord, layoutInputLayout, type InputLayout } from '../../../src/engines/skate/input-layout.js';
import {
  layoutRenderState,
  packDepthStencilBits,
  packRasterizerBits,
  TARGET0_BLEND_RECORD,
  COMMON_RECORD,
  type RenderState,
} from '../../../src/engines/skate/render-state.js';

// DXGI_FORMAT numbers used below.
export const R32G32B32_FLOAT = 6;
export const R8G8B8A8_SNORM = 31;
export const R16G16_FLOAT = 34;
export const R16_FLOAT = 54;

/** Set 1 (material): group 0 the b0 buffer Obj (World, WVP, LightDir, Eye; 160 bytes), group 1 t0 and t1. */
export function set1(): BindingSet {
  return layoutBindingSet({
    resourceId: 0x1122334455667788n,
    unknown08: 0x0102030405060708n,
    unknown18: 0x0a0b0c0d,
    groups: [
      {
        nameHash: 0xa1a2a3a4a5a6a7a8n,
        bufferSizeOrResourceCount: 160,
        unknownFlags: '11121314',
        unknownWords: [0x2122, 0x2324, 0x2526],
        unknown18: 0x3132333435363738n,
        parameters: [
          { name: 0xb1b2b3b4b5b6b7b1n, type: 0x41, count: 1, extra: 0x51 },
          { name: 0xb1b2b3b4b5b6b7b2n, type: 0x42, count: 2, extra: 0x52 },
          { name: 0xb1b2b3b4b5b6b7b3n, type: 0x43, count: 3, extra: 0x53 },
          { name: 0xb1b2b3b4b5b6b7b4n, type: 0x44, count: 4, extra: 0x54 },
        ],
        entries: [constantEntry(0, 64), constantEntry(64, 64), constantEntry(128, 12), constantEntry(144, 12)],
      },
      {
        nameHash: 0xc1c2c3c4c5c6c7c8n,
        bufferSizeOrResourceCount: 2,
        unknownFlags: '61626364',
        unknownWords: [0x7172, 0x7374, 0x7576],
        unknown18: 0x8182838485868788n,
        parameters: [
          { name: 0xd1d2d3d4d5d6d7d1n, type: 0x91, count: 5, extra: 0x93 },
          { name: 0xd1d2d3d4d5d6d7d2n, type: 0x92, count: 6, extra: 0x94 },
        ],
        entries: [
          { offsetOrIndex: 0, marker: 0x0102, kind: 0x0304 },
          { offsetOrIndex: 1, marker: 0x0506, kind: 0x0708 },
        ],
      },
    ],
  });
}

/** Set 0 (shared): group 0 a b1 buffer of 48 bytes, group 1 one resource at t32 (index 0). */
export function set0(): BindingSet {
  return layoutBindingSet({
    resourceId: 0x99aabbccddeeff00n,
    groups: [
      {
        nameHash: 0xe1e2e3e4e5e6e7e8n,
        bufferSizeOrResourceCount: 48,
        parameters: [
          { name: 0xf1n, type: 1, count: 1, extra: 0 },
          { name: 0xf2n, type: 2, count: 1, extra: 0 },
        ],
        entries: [constantEntry(0, 16), constantEntry(32, 12)],
      },
      {
        nameHash: 0xe9n,
        bufferSizeOrResourceCount: 1,
        parameters: [{ name: 0xf3n, type: 3, count: 1, extra: 0 }],
        entries: [{ offsetOrIndex: 0, marker: 0, kind: 0 }],
      },
    ],
  });
}

/** The pass binding: version 0x101, group 0 a b4 buffer of 32 bytes, group 1 one resource (t64). */
export function pass(version = 0x101): PassBinding {
  return layoutPassBinding({
    version,
    resourceId: 0x0fedcba987654321n,
    groups: [
      {
        nameHash: 0x5150515251535154n,
        bufferSizeOrResourceCount: 32,
        parameters: [{ name: 0x61n, type: 7, count: 1, extra: 0 }],
        entries: [constantEntry(0, 32)],
      },
      {
        nameHash: 0x5250n,
        bufferSizeOrResourceCount: 1,
        parameters: [{ name: 0x62n, type: 8, count: 1, extra: 0 }],
        entries: [{ offsetOrIndex: 0, marker: 1, kind: 2 }],
      },
    ],
  });
}

/** fx_normal_mapping's vertex input: POSITION R32G32B32_FLOAT, NORMAL R32G32B32_FLOAT in slot 1,
 * TANGENT R8G8B8A8_SNORM, TEXCOORD0 R16G16_FLOAT; usage bytes 0x10-0x13 (distinct; their meaning
 * is not established: the tests name them through the check's usage table). */
export function layout(): InputLayout {
  return layoutInputLayout(
    [
      {
        semanticIndex: 0,
        inputSlot: 0,
        byteOffset: 0,
        slotClass: 0,
        formatWord: formatWord(R32G32B32_FLOAT, 0xa1),
        usage: 0x10,
      },
      {
        semanticIndex: 0,
        inputSlot: 1,
        byteOffset: 0,
        slotClass: 0,
        formatWord: formatWord(R32G32B32_FLOAT, 0xa2),
        usage: 0x11,
      },
      {
        semanticIndex: 0,
        inputSlot: 0,
        byteOffset: 12,
        slotClass: 0,
        formatWord: formatWord(R8G8B8A8_SNORM, 0xa3),
        usage: 0x12,
      },
      {
        semanticIndex: 0,
        inputSlot: 0,
        byteOffset: 16,
        slotClass: 0,
        formatWord: formatWord(R16G16_FLOAT, 0xa4),
        usage: 0x13,
      },
    ],
    'c1c2c3c4c5c6c7c8c9cacbcc',
  );
}

/** The usage names the tests assume for the constructed layout (0x11, NORMAL, left out on purpose). */
export const USAGE_NAMES: ReadonlyMap<number, string> = new Map([
  [0x10, 'POSITION'],
  [0x12, 'TANGENT'],
  [0x13, 'TEXCOORD'],
]);

/** Opaque: GreaterEqual with depth write, stencil write mask 0xfe, no bias (the spec's class). */
export function opaqueState(): RenderState {
  return layoutRenderState({
    slopeScaledDepthBias: 0,
    depthBias: 0,
    rasterizerBits: packRasterizerBits({
      fillModeBit: 0,
      cullMode: 'Back',
      frontCounterClockwise: false,
      depthClip: true,
    }),
    depthStencilBits: packDepthStencilBits({
      depthTest: true,
      depthWrite: true,
      stencilTest: true,
      depthFunc: 'GreaterEqual',
    }),
    stencilReadMask: 0x08,
    stencilWriteMask: 0xfe,
  });
}

/** Shadow depth: GreaterEqual with write, depth bias -10 and slope -4 (the spec's measured values). */
export function shadowState(): RenderState {
  return layoutRenderState({
    slopeScaledDepthBias: -4,
    depthBias: -10,
    forcedSampleCount: 0,
    rasterizerBits: packRasterizerBits({
      fillModeBit: 0,
      cullMode: 'Front',
      frontCounterClockwise: true,
      depthClip: false,
    }),
    depthStencilBits: packDepthStencilBits({
      depthTest: true,
      depthWrite: true,
      stencilTest: false,
      depthFunc: 'GreaterEqual',
    }),
    stencilReadMask: 0xff,
    stencilWriteMask: 0xff,
  });
}

/** Decal: GreaterEqual without depth write, stencil read 0x08 write 0, bias 200 and slope 0.1,
 * target 0 with the 03 05 01 05 0f record. */
export function decalState(): RenderState {
  return layoutRenderState({
    slopeScaledDepthBias: 0.1,
    depthBias: 200,
    rasterizerBits: packRasterizerBits({
      fillModeBit: 0,
      cullMode: 'None',
      frontCounterClockwise: false,
      depthClip: true,
    }),
    depthStencilBits: packDepthStencilBits({
      depthTest: true,
      depthWrite: false,
      stencilTest: true,
      depthFunc: 'GreaterEqual',
    }),
    stencilReadMask: 0x08,
    stencilWriteMask: 0,
    records: [TARGET0_BLEND_RECORD, ...Array.from({ length: 7 }, () => COMMON_RECORD)],
  });
}

/** Every field distinct, every undecoded byte 0x5a, a 300-byte payload (the largest size measured). */
export function distinctState(): RenderState {
  return layoutRenderState({
    size: 300,
    slopeScaledDepthBias: 1.5,
    depthBias: -1000,
    forcedSampleCount: 4,
    rasterizerBits: 0xff,
    depthStencilBits: 0xfb,
    stencilReadMask: 0xe0,
    stencilWriteMask: 0x3c,
    blendBits: 0x9d,
    records: [
      '0102030405',
      '060708090a',
      '0b0c0d0e0f',
      '1011121314',
      '1516171819',
      '1a1b1c1d1e',
      '1f20212223',
      '2425262728',
    ],
    unknownFill: 0x5a,
  });
}
