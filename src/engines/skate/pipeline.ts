// The pipeline a raster permutation describes, in WebGPU's terms (GPUPrimitiveState,
// GPUDepthStencilState, GPUColorTargetState[], GPUVertexBufferLayout[]) and as the D3D12 description
// fields the game fills, from the decoded render state and input layout
// (../shared/spec/skate-bindings.md). Where WebGPU has no counterpart, or the state bytes do not hold
// what a field needs, a note says so; nothing is guessed silently.

import type { Program } from '../../ir/program.js';
import { dxgiName, vertexFormat } from './dxgi.js';
import type { InputCheck } from './input-check.js';
import { elementFormat, type InputLayout } from './input-layout.js';
import {
  depthStencilBits,
  f32FromBits,
  rasterizerBits,
  writeMaskOf,
  COMMON_RECORD,
  type DepthFunc,
  type RenderState,
} from './render-state.js';

const WEBGPU_COMPARE: Readonly<Record<DepthFunc, string>> = {
  Never: 'never',
  Less: 'less',
  Equal: 'equal',
  LessEqual: 'less-equal',
  Greater: 'greater',
  NotEqual: 'not-equal',
  GreaterEqual: 'greater-equal',
  Always: 'always',
};
const D3D12_COMPARE: Readonly<Record<DepthFunc, string>> = {
  Never: 'D3D12_COMPARISON_FUNC_NEVER',
  Less: 'D3D12_COMPARISON_FUNC_LESS',
  Equal: 'D3D12_COMPARISON_FUNC_EQUAL',
  LessEqual: 'D3D12_COMPARISON_FUNC_LESS_EQUAL',
  Greater: 'D3D12_COMPARISON_FUNC_GREATER',
  NotEqual: 'D3D12_COMPARISON_FUNC_NOT_EQUAL',
  GreaterEqual: 'D3D12_COMPARISON_FUNC_GREATER_EQUAL',
  Always: 'D3D12_COMPARISON_FUNC_ALWAYS',
};

export interface VertexAttribute {
  readonly format: string;
  readonly offset: number;
  readonly shaderLocation: number;
}
export interface VertexBufferLayout {
  readonly arrayStride: number;
  readonly stepMode: 'vertex' | 'instance';
  readonly attributes: readonly VertexAttribute[];
}

export interface PipelineDescription {
  readonly webgpu: {
    readonly primitive: {
      topology: 'triangle-list';
      frontFace: 'ccw' | 'cw';
      cullMode: string;
      unclippedDepth: boolean;
    };
    readonly depthStencil: {
      format: string;
      depthWriteEnabled: boolean;
      depthCompare: string;
      stencilReadMask: number;
      stencilWriteMask: number;
      depthBias: number;
      depthBiasSlopeScale: number;
      depthBiasClamp: number;
    };
    /** Indexed by render target; null where the pixel program writes no value to it. */
    readonly targets: readonly ({ writeMask: number } | null)[];
    readonly vertexBuffers: readonly VertexBufferLayout[];
  };
  readonly d3d12: {
    readonly RasterizerState: Readonly<Record<string, string | number | boolean>>;
    readonly DepthStencilState: Readonly<Record<string, string | number | boolean>>;
    readonly BlendState: { readonly RenderTarget: readonly { RenderTargetWriteMask: number; bytes: string }[] };
    readonly InputLayout: readonly Readonly<Record<string, string | number | null>>[];
  };
  readonly notes: readonly string[];
}

export interface PipelineOptions {
  readonly inputLayout?: InputLayout;
  /** The layout checked against the vertex program (gives each element its semantic). */
  readonly check?: InputCheck;
  /** The lifted vertex program: its inputs' WGSL locations become the attributes' shader locations. */
  readonly vertexProgram?: Program;
  /** The lifted pixel program: only the render targets it writes become colour targets. */
  readonly pixelProgram?: Program;
  /** GPUTextureFormat of the depth target; default the main depth buffer the spec's capture shows. */
  readonly depthFormat?: string;
}

export function describePipeline(state: RenderState, options: PipelineOptions = {}): PipelineDescription {
  const notes: string[] = [];
  const ras = rasterizerBits(state.rasterizerBits);
  const ds = depthStencilBits(state.depthStencilBits);
  const slope = f32FromBits(state.slopeScaledDepthBiasBits);
  notes.push('the topology is not in the state bytes: triangle-list is assumed');
  notes.push(
    `rasterizer bit 0 (fill mode) is ${ras.fillModeBit}; the spec does not say which value is solid: WebGPU fills triangles only`,
  );
  if (!ras.depthClip) notes.push("depth clip is off: WebGPU's unclippedDepth needs the 'depth-clip-control' feature");
  if (state.forcedSampleCount !== 0)
    notes.push(`forced sample count ${state.forcedSampleCount}: WebGPU has no ForcedSampleCount counterpart`);
  if (ras.cullMode === 'unknown(3)') notes.push('cull bits 3: not a mode the spec names; culling none');
  if (ras.unknownBits) notes.push(`rasterizer bits 0x${ras.unknownBits.toString(16)} have no established meaning`);
  if (ds.unknownBits) notes.push(`depth-stencil bits 0x${ds.unknownBits.toString(16)} have no established meaning`);
  if (!ds.depthTest)
    notes.push('depth test off: Direct3D then neither tests nor writes depth, so depthCompare is always and no write');
  if (ds.stencilTest)
    notes.push(
      'stencil test on: the stencil comparison, operations and reference are not in the decoded bytes; stencilFront and stencilBack are left to the caller',
    );
  const depthFormat = options.depthFormat ?? 'depth32float-stencil8';
  if (options.depthFormat === undefined)
    notes.push(
      "depth format: the spec's capture shows the main depth buffer as DXGI_FORMAT_D32_FLOAT_S8X24_UINT (depth32float-stencil8, which needs WebGPU's 'depth32float-stencil8' feature); shadow targets are D16 or D32",
    );
  notes.push("depthBiasClamp 0: the spec's capture shows DepthBiasClamp 0 on every pipeline");
  notes.push(
    `blend bits 0x${state.blendBits.toString(16)} and record bytes 0-3 have no established decode: blend is left unset`,
  );
  state.renderTargets.forEach((t) => {
    if (t.bytes !== COMMON_RECORD)
      notes.push(`render target ${t.index}: record ${t.bytes} differs from the common ${COMMON_RECORD}`);
  });
  if (state.renderTargets.length < 8)
    notes.push(`the payload holds ${state.renderTargets.length} whole render-target records of the eight`);
  notes.push('render-target formats are not in the state bytes');

  const cullMode = ras.cullMode === 'Front' ? 'front' : ras.cullMode === 'Back' ? 'back' : 'none';
  const depthCompare = ds.depthTest ? WEBGPU_COMPARE[ds.depthFunc] : 'always';
  const vertexBuffers = options.inputLayout ? vertexBuffersOf(options.inputLayout, options, notes) : [];
  return {
    webgpu: {
      primitive: {
        topology: 'triangle-list',
        frontFace: ras.frontCounterClockwise ? 'ccw' : 'cw',
        cullMode,
        unclippedDepth: !ras.depthClip,
      },
      depthStencil: {
        format: depthFormat,
        depthWriteEnabled: ds.depthTest && ds.depthWrite,
        depthCompare,
        stencilReadMask: state.stencilReadMask,
        stencilWriteMask: state.stencilWriteMask,
        depthBias: state.depthBias,
        depthBiasSlopeScale: slope,
        depthBiasClamp: 0,
      },
      targets: colorTargets(state, options.pixelProgram, notes),
      vertexBuffers,
    },
    d3d12: {
      RasterizerState: {
        FillModeBit: ras.fillModeBit,
        CullMode: `D3D12_CULL_MODE_${ras.cullMode === 'unknown(3)' ? 'NONE' : ras.cullMode.toUpperCase()}`,
        FrontCounterClockwise: ras.frontCounterClockwise,
        DepthBias: state.depthBias,
        DepthBiasClamp: 0,
        SlopeScaledDepthBias: slope,
        DepthClipEnable: ras.depthClip,
        ForcedSampleCount: state.forcedSampleCount,
      },
      DepthStencilState: {
        DepthEnable: ds.depthTest,
        DepthWriteMask: ds.depthWrite ? 'D3D12_DEPTH_WRITE_MASK_ALL' : 'D3D12_DEPTH_WRITE_MASK_ZERO',
        DepthFunc: D3D12_COMPARE[ds.depthFunc],
        StencilEnable: ds.stencilTest,
        StencilReadMask: state.stencilReadMask,
        StencilWriteMask: state.stencilWriteMask,
      },
      BlendState: {
        RenderTarget: state.renderTargets.map((t) => ({ RenderTargetWriteMask: writeMaskOf(t), bytes: t.bytes })),
      },
      InputLayout: options.inputLayout ? d3d12InputLayout(options.inputLayout, options.check) : [],
    },
    notes,
  };
}

/** The colour targets: one per record, or with a pixel program, one per SV_Target it writes (WebGPU
 * refuses a target with a non-zero write mask that the fragment stage does not write). */
function colorTargets(
  state: RenderState,
  pixel: Program | undefined,
  notes: string[],
): ({ writeMask: number } | null)[] {
  const all = state.renderTargets.map((t) => ({ writeMask: writeMaskOf(t) & 0xf }));
  if (pixel === undefined) return all;
  const written = new Set(
    pixel.interface.outputs
      .filter((o) => o.semantic.toUpperCase() === 'SV_TARGET')
      .map((o) => o.location ?? o.register),
  );
  const count = Math.min(all.length, written.size ? Math.max(...written) + 1 : 0);
  const dropped = all.length - [...written].filter((w) => w < all.length).length;
  if (dropped > 0)
    notes.push(`${dropped} render-target records are for targets the pixel program does not write: left out`);
  return all.slice(0, count).map((t, i) => (written.has(i) ? t : null));
}

function d3d12InputLayout(
  layout: InputLayout,
  check: InputCheck | undefined,
): Record<string, string | number | null>[] {
  return layout.elements.map((e, i) => {
    const input = check?.inputs.find((c) => c.element === i)?.input;
    const f = elementFormat(e);
    return {
      SemanticName: input?.semanticName ?? null,
      SemanticIndex: e.semanticIndex,
      Format: `DXGI_FORMAT_${dxgiName(f) ?? `unknown(${f})`}`,
      InputSlot: e.inputSlot,
      AlignedByteOffset: e.byteOffset,
      InputSlotClass:
        e.slotClass === 0
          ? 'D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA'
          : e.slotClass === 1
            ? 'D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA'
            : e.slotClass,
    };
  });
}

function vertexBuffersOf(layout: InputLayout, options: PipelineOptions, notes: string[]): VertexBufferLayout[] {
  const slots = [...new Set(layout.elements.map((e) => e.inputSlot))].sort((a, b) => a - b);
  notes.push(
    'vertex strides are not in the input layout: each arrayStride is the end of its last element, rounded up to 4',
  );
  if (layout.elements.some((e) => e.slotClass === 1))
    notes.push('the instance step rate is not in the input layout: one instance per step is assumed');
  if (slots.length && slots[slots.length - 1]! + 1 !== slots.length)
    notes.push(`input slots ${slots.join(', ')}: WebGPU's buffers are numbered densely in this order`);
  return slots.map((slot) => {
    const attributes: VertexAttribute[] = [];
    let end = 0;
    let instance = false;
    layout.elements.forEach((e, i) => {
      if (e.inputSlot !== slot) return;
      if (e.slotClass === 1) instance = true;
      else if (e.slotClass !== 0)
        notes.push(`element ${i}: slot class ${e.slotClass} is neither per vertex nor per instance`);
      const f = elementFormat(e);
      const info = vertexFormat(f);
      if (info === undefined || info.webgpu === null) {
        notes.push(
          `element ${i}: DXGI_FORMAT_${dxgiName(f) ?? f} has no WebGPU vertex format; the attribute is left out`,
        );
        return;
      }
      end = Math.max(end, e.byteOffset + info.bytes);
      const checked = options.check?.inputs.find((c) => c.element === i);
      if (checked === undefined) {
        notes.push(`element ${i}: no program input takes it; the attribute is left out`);
        return;
      }
      const location = options.vertexProgram
        ? options.vertexProgram.interface.inputs.find(
            (v) =>
              v.semantic.toUpperCase() === checked.input.semanticName.toUpperCase() &&
              v.semanticIndex === checked.input.semanticIndex,
          )?.location
        : checked.input.register;
      if (location === undefined) {
        notes.push(
          `element ${i}: the lifted program has no location for ${checked.input.semanticName}${checked.input.semanticIndex}`,
        );
        return;
      }
      if (options.vertexProgram === undefined)
        notes.push(
          `element ${i}: shaderLocation is the input register v${checked.input.register} (no lifted program given)`,
        );
      attributes.push({ format: info.webgpu, offset: e.byteOffset, shaderLocation: location });
    });
    return { arrayStride: Math.ceil(end / 4) * 4, stepMode: instance ? 'instance' : 'vertex', attributes };
  });
}
