// The packed fixed-function state of a raster permutation (RasterPermutationSharedData, type
// 0x250047b2; ../shared/spec/skate-bindings.md, "Render-state bytes"): depth bias, the forced sample
// count, the rasterizer, depth-stencil and blend bit bytes, the stencil masks and the eight 5-byte
// render-target blend records at 0x8c. Every other byte of the payload has no established decode and
// is kept as unknown. The writer is the reader's inverse.

import { FieldReader, FieldWriter, zeros, type UnknownBytes } from './bytes.js';

export const RENDER_TARGET_RECORDS_OFFSET = 0x8c;
export const RENDER_TARGET_RECORD_SIZE = 5;
export const RENDER_TARGET_RECORDS = 8;
/** The payload must hold every fixed field up to the blend bits (0x87). */
export const RENDER_STATE_MIN_SIZE = 0x88;

/** D3D12_COMPARISON_FUNC order, as the depth-stencil bits 3-5 number it. */
export const DEPTH_FUNCS = [
  'Never',
  'Less',
  'Equal',
  'LessEqual',
  'Greater',
  'NotEqual',
  'GreaterEqual',
  'Always',
] as const;
export type DepthFunc = (typeof DEPTH_FUNCS)[number];
/** Rasterizer bits 1-2; the value 3 is not named by the spec. */
export const CULL_MODES = ['None', 'Front', 'Back'] as const;
export type CullMode = (typeof CULL_MODES)[number] | 'unknown(3)';

export interface RenderTargetRecord {
  readonly index: number;
  /** The five bytes, hex in file order: bytes 0-3 blend (factor mapping not anchored), byte 4 write mask. */
  readonly bytes: string;
}

export interface RenderState {
  readonly structure: 'render state';
  readonly size: number;
  /** The f32 at 0x78 as its bit pattern (kept exactly, NaN payloads included). */
  readonly slopeScaledDepthBiasBits: number;
  readonly depthBias: number;
  readonly forcedSampleCount: number;
  readonly rasterizerBits: number;
  readonly depthStencilBits: number;
  readonly stencilReadMask: number;
  readonly stencilWriteMask: number;
  readonly blendBits: number;
  /** The records inside the payload, up to eight (see the module README on short payloads). */
  readonly renderTargets: readonly RenderTargetRecord[];
  readonly unknown: readonly UnknownBytes[];
}

export interface RasterizerBits {
  /** Bit 0; which value is solid and which wireframe is not in the spec. */
  readonly fillModeBit: number;
  readonly cullMode: CullMode;
  readonly frontCounterClockwise: boolean;
  readonly depthClip: boolean;
  /** Bits 5-7, no established meaning. */
  readonly unknownBits: number;
}

export interface DepthStencilBits {
  readonly depthTest: boolean;
  readonly depthWrite: boolean;
  readonly stencilTest: boolean;
  readonly depthFunc: DepthFunc;
  /** Bits 6-7, no established meaning. */
  readonly unknownBits: number;
}

export function rasterizerBits(b: number): RasterizerBits {
  const cull = (b >> 1) & 3;
  return {
    fillModeBit: b & 1,
    cullMode: cull === 3 ? 'unknown(3)' : CULL_MODES[cull]!,
    frontCounterClockwise: ((b >> 3) & 1) === 1,
    depthClip: ((b >> 4) & 1) === 1,
    unknownBits: b & 0xe0,
  };
}

export function depthStencilBits(b: number): DepthStencilBits {
  return {
    depthTest: (b & 1) === 1,
    depthWrite: ((b >> 1) & 1) === 1,
    stencilTest: ((b >> 2) & 1) === 1,
    depthFunc: DEPTH_FUNCS[(b >> 3) & 7]!,
    unknownBits: b & 0xc0,
  };
}

export function packRasterizerBits(v: Omit<RasterizerBits, 'unknownBits'> & { unknownBits?: number }): number {
  const cull = v.cullMode === 'unknown(3)' ? 3 : CULL_MODES.indexOf(v.cullMode);
  return (
    (v.fillModeBit & 1) |
    (cull << 1) |
    (v.frontCounterClockwise ? 8 : 0) |
    (v.depthClip ? 16 : 0) |
    ((v.unknownBits ?? 0) & 0xe0)
  );
}

export function packDepthStencilBits(v: Omit<DepthStencilBits, 'unknownBits'> & { unknownBits?: number }): number {
  return (
    (v.depthTest ? 1 : 0) |
    (v.depthWrite ? 2 : 0) |
    (v.stencilTest ? 4 : 0) |
    (DEPTH_FUNCS.indexOf(v.depthFunc) << 3) |
    ((v.unknownBits ?? 0) & 0xc0)
  );
}

/** The f32 value of a bit pattern, and the bit pattern of an f32 (rounded to f32 first). */
export function f32FromBits(bits: number): number {
  const v = new DataView(new ArrayBuffer(4));
  v.setUint32(0, bits >>> 0, true);
  return v.getFloat32(0, true);
}
export function f32Bits(x: number): number {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x, true);
  return v.getUint32(0, true);
}

/** A record's colour write mask (byte 4; 0x0f is All). */
export function writeMaskOf(r: RenderTargetRecord): number {
  return parseInt(r.bytes.slice(8, 10), 16);
}

export function readRenderState(bytes: Uint8Array): RenderState {
  const r = new FieldReader(bytes, 'render state');
  if (bytes.byteLength < RENDER_STATE_MIN_SIZE)
    throw r.fail(
      'E801_SKATE_TRUNCATED',
      'payload',
      0,
      `${bytes.byteLength} bytes, but the fixed fields end at 0x88 (the blend bits at 0x87)`,
    );
  const records = Math.min(
    RENDER_TARGET_RECORDS,
    Math.max(0, Math.floor((bytes.byteLength - RENDER_TARGET_RECORDS_OFFSET) / RENDER_TARGET_RECORD_SIZE)),
  );
  const renderTargets: RenderTargetRecord[] = [];
  for (let i = 0; i < records; i++)
    renderTargets.push({
      index: i,
      bytes: r.raw(
        RENDER_TARGET_RECORDS_OFFSET + i * RENDER_TARGET_RECORD_SIZE,
        RENDER_TARGET_RECORD_SIZE,
        `render target ${i} blend record`,
      ),
    });
  return {
    structure: 'render state',
    size: bytes.byteLength,
    slopeScaledDepthBiasBits: r.u32(0x78, 'slope-scaled depth bias'),
    depthBias: r.i16(0x7c, 'depth bias'),
    forcedSampleCount: r.u8(0x7e, 'forced sample count'),
    rasterizerBits: r.u8(0x7f, 'rasterizer bits'),
    depthStencilBits: r.u8(0x80, 'depth-stencil bits'),
    stencilReadMask: r.u8(0x81, 'stencil read mask'),
    stencilWriteMask: r.u8(0x82, 'stencil write mask'),
    blendBits: r.u8(0x87, 'blend bits'),
    renderTargets,
    unknown: r.unknown(),
  };
}

export function writeRenderState(s: RenderState): Uint8Array {
  const w = new FieldWriter(s.size, 'render state');
  w.u32(0x78, s.slopeScaledDepthBiasBits, 'slope-scaled depth bias');
  w.i16(0x7c, s.depthBias, 'depth bias');
  w.u8(0x7e, s.forcedSampleCount, 'forced sample count');
  w.u8(0x7f, s.rasterizerBits, 'rasterizer bits');
  w.u8(0x80, s.depthStencilBits, 'depth-stencil bits');
  w.u8(0x81, s.stencilReadMask, 'stencil read mask');
  w.u8(0x82, s.stencilWriteMask, 'stencil write mask');
  w.u8(0x87, s.blendBits, 'blend bits');
  s.renderTargets.forEach((t, i) =>
    w.raw(
      RENDER_TARGET_RECORDS_OFFSET + t.index * RENDER_TARGET_RECORD_SIZE,
      t.bytes,
      RENDER_TARGET_RECORD_SIZE,
      `render target ${i} blend record`,
    ),
  );
  w.unknown(s.unknown);
  return w.finish();
}

/** The common record (02 00 01 00 0f) and the one two measured states use for target 0 (03 05 01 05 0f). */
export const COMMON_RECORD = '020001000f';
export const TARGET0_BLEND_RECORD = '030501050f';

/** A constructed render state: the fields given, the eight records, every other byte zero. */
export function layoutRenderState(input: {
  readonly size?: number;
  readonly slopeScaledDepthBias: number;
  readonly depthBias: number;
  readonly forcedSampleCount?: number;
  readonly rasterizerBits: number;
  readonly depthStencilBits: number;
  readonly stencilReadMask: number;
  readonly stencilWriteMask: number;
  readonly blendBits?: number;
  readonly records?: readonly string[];
  /** Fills the bytes without a decode with this value (distinct-value fixtures), else zero. */
  readonly unknownFill?: number;
}): RenderState {
  const size = input.size ?? 0xb4;
  const records = input.records ?? Array.from({ length: RENDER_TARGET_RECORDS }, () => COMMON_RECORD);
  const recordCount = Math.min(
    records.length,
    Math.max(0, Math.floor((size - RENDER_TARGET_RECORDS_OFFSET) / RENDER_TARGET_RECORD_SIZE)),
  );
  const recordsEnd = RENDER_TARGET_RECORDS_OFFSET + recordCount * RENDER_TARGET_RECORD_SIZE;
  const fill = (a: number, b: number): UnknownBytes[] =>
    input.unknownFill === undefined
      ? zeros(a, b)
      : b > a
        ? [
            {
              offset: a,
              bytes: (input.unknownFill & 0xff)
                .toString(16)
                .padStart(2, '0')
                .repeat(b - a),
            },
          ]
        : [];
  return {
    structure: 'render state',
    size,
    slopeScaledDepthBiasBits: f32Bits(input.slopeScaledDepthBias),
    depthBias: input.depthBias,
    forcedSampleCount: input.forcedSampleCount ?? 0,
    rasterizerBits: input.rasterizerBits,
    depthStencilBits: input.depthStencilBits,
    stencilReadMask: input.stencilReadMask,
    stencilWriteMask: input.stencilWriteMask,
    blendBits: input.blendBits ?? 0,
    renderTargets: records.slice(0, recordCount).map((bytes, index) => ({ index, bytes })),
    unknown: [...fill(0, 0x78), ...fill(0x83, 0x87), ...fill(0x88, 0x8c), ...fill(recordsEnd, size)],
  };
}
