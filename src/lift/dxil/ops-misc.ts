// dx.ops of Shader Model 6.1-6.9 outside the wave, raytracing, mesh, work-graph and stage families
// (DXIL.rst, hctdb.py), with Direct3D's results written out and, where the SM4/5 lifter has the
// same operation, its very computation (so a DXBC and a DXIL build compute the same words):
// - Pack4x8 / Unpack4x8 (SM6.6 pack_u8, pack_clamp_u8, pack_clamp_s8, unpack_s8s16...): bytes of
//   the four lanes, truncated or clamped; bytes of a word, zero- or sign-extended.
// - Dot2AddHalf (dot2add): acc + (ax * bx + ay * by) in f32 (a half product is exact in f32).
// - Dot4AddI8Packed / Dot4AddU8Packed (dot4add_i8packed, dot4add_u8packed): acc + the sum of the
//   four byte products, signed or unsigned, wrapping at 32 bits.
// - TextureGatherRaw (GatherRaw): the red channel's texels of the four footprint texels, as bits.
// - CalculateLOD (CalculateLevelOfDetail[Unclamped]): src/lift/lod.ts's computation, the same as
//   the SM4/5 lifter's `lod`; in a compute program (Shader Model 6.6) with the coarse derivatives of
//   its quads (quad.ts).
// - EvalCentroid / EvalSampleIndex / EvalSnapped: as src/lift/eval.ts (the input at the pixel
//   centre; the snapped offset by fine derivatives), with its notes.
// - Texture2DMSGetSamplePosition: Direct3D's standard pattern, the SM4/5 lifter's `samplepos` table;
//   RenderTargetGetSampleCount / RenderTargetGetSamplePosition: the pipeline's sample count, which
//   the program does not carry, is the lift option rasterizerSampleCount (default 1), and its
//   positions the standard pattern, as the SM4/5 lifter's `sampleinfo`/`samplepos` of the rasterizer.
// - ViewID: 0, what Direct3D gives without view instancing (WebGPU has none), noted.
// - BarrierByMemoryType / BarrierByMemoryHandle (SM6.8): as Barrier, by memory class.
// - StartVertexLocation / StartInstanceLocation (SM6.8): the draw's start vertex and instance, which
//   the program does not carry, are the lift options startVertexLocation and startInstanceLocation
//   (default 0, noted; pipeline.ts), as SV_VertexID and SV_InstanceID subtract them (lift/io.ts).
// - Refused by name: AttributeAtVertex (WGSL reads no single vertex's attribute), RawBufferVectorLoad/
//   Store (SM6.9 long vectors: LLVM vector values).
// - BufferUpdateCounter (IncrementCounter, DecrementCounter, Append, Consume): the view's hidden
//   counter, lift/counter.ts (the SM4/5 lifter's imm_atomic_alloc/consume).

import type { ExprId } from '../../ir/ir.js';
import type { Instruction } from '../../dxil/ir.js';
import { levelOfDetail, footprintLanes, LOD_NOTE } from '../lod.js';
import { rasterizerSamples, samplePositionWords } from '../memory.js';
import { AT_CENTRE_NOTE, SNAPPED_NOTE } from '../eval.js';
import { updateCounter } from '../counter.js';
import { drawStart, rasterizerSampleCount } from './pipeline.js';
import { computeDerivative } from './quad.js';
import type { DxilLifter } from './lifter.js';
import { readElement } from './io.js';
import { floatCoords, offsets, texelTuple } from './ops.js';
import { gatherRaw64 } from './ops-f64.js';
import {
  arg,
  element,
  fromLane,
  num,
  resourceOf,
  samplerOf,
  retType,
  u32,
  vec,
  type Handler,
  type OpContext,
} from './ops-common.js';

// ---- packing ------------------------------------------------------------------------------

/** Pack4x8(packMode, x, y, z, w): mode 0 keeps each lane's low byte, 1 clamps to [0, 255], 2 to [-128, 127]. */
const pack4x8: Handler = (L, c) => {
  const mode = L.imm(arg(L, c, 1), 'a pack mode');
  if (mode > 2) return L.invalid(`pack mode ${mode}`);
  const t = arg(L, c, 2).type;
  const bytes = [2, 3, 4, 5].map((k) => {
    const v = u32(L, c, k);
    if (mode === 0) return L.bin('and', v, L.u32(0xff));
    const s = L.signed(v, t);
    const clamped = mode === 1 ? L.math('clamp', s, L.i32(0), L.i32(255)) : L.math('clamp', s, L.i32(-128), L.i32(127));
    return L.bin('and', L.bitcast('u32', clamped), L.u32(0xff));
  });
  return bytes.map((b, k) => (k === 0 ? b : L.bin('shl', b, L.u32(8 * k)))).reduce((a, b) => L.bin('or', a, b));
};

/** Unpack4x8(unpackMode, pk): the four bytes, zero-extended (mode 0) or sign-extended (1) to the lanes' width. */
const unpack4x8: Handler = (L, c) => {
  const mode = L.imm(arg(L, c, 1), 'an unpack mode');
  if (mode > 1) return L.invalid(`unpack mode ${mode}`);
  const t = retType(c);
  const pk = L.once(u32(L, c, 2), 'packed');
  const parts = [0, 1, 2, 3].map((k) => {
    if (mode === 0) return L.math('extract_bits', pk, L.u32(8 * k), L.u32(8));
    return L.wrap(L.bitcast('u32', L.math('extract_bits', L.bitcast('i32', pk), L.u32(8 * k), L.u32(8))), t);
  });
  return { kind: 'tuple', parts };
};

// ---- packed dot products --------------------------------------------------------------------

/** Dot2AddHalf(acc, ax, ay, bx, by) = acc + (ax * bx + ay * by), each step an f32 operation. */
const dot2AddHalf: Handler = (L, c) => {
  const products = L.bin('add', L.bin('mul', num(L, c, 2), num(L, c, 4)), L.bin('mul', num(L, c, 3), num(L, c, 5)));
  return L.bin('add', num(L, c, 1), products);
};

/** Dot4Add{I8,U8}Packed(acc, a, b): acc + the four byte products, wrapping at 32 bits. */
function dot4Add(signed: boolean): Handler {
  return (L, c) => {
    const a = L.once(u32(L, c, 2), 'a');
    const b = L.once(u32(L, c, 3), 'b');
    let sum = u32(L, c, 1);
    for (let k = 0; k < 4; k++) {
      const byte = (v: ExprId) =>
        signed
          ? L.math('extract_bits', L.bitcast('i32', v), L.u32(8 * k), L.u32(8))
          : L.math('extract_bits', v, L.u32(8 * k), L.u32(8));
      const p = L.bin('mul', byte(a), byte(b));
      sum = L.bin('add', sum, signed ? L.bitcast('u32', p) : p);
    }
    return sum;
  };
}

// ---- textures -------------------------------------------------------------------------------

/** TextureGatherRaw(srv, sampler, coord0..3, offset0, offset1): the red texels of the footprint, as bits. */
const textureGatherRaw: Handler = (L, c, x) => {
  const { res, e: image } = resourceOf(L, c, 1, x);
  const { e: sampler } = samplerOf(L, c, 2, x, false);
  const t = retType(c);
  if (res.cls !== 't' || !(res.shape === '2d' || res.shape === '2darray'))
    return L.invalid('a raw gather of a view that is not a 2D texture');
  if (res.depth) return L.invalid('a raw gather of a texture sampled for comparison');
  const { coord, layer } = floatCoords(L, c, 3, res);
  const offset = offsets(L, c, 7, 2, res);
  const gathered = (component: number) =>
    L.e({
      op: 'sample',
      image,
      sampler,
      coord,
      level: { kind: 'zero' },
      gather: component,
      ...(layer !== undefined ? { arrayIndex: layer } : {}),
      ...(offset !== undefined ? { offset } : {}),
    });
  if (L.is64(t)) return gatherRaw64(L, res, gathered);
  const value = L.once(gathered(0), 'gathered');
  return texelTuple(L, c, value, res.scalar);
};

/** CalculateLOD(handle, sampler, coord0..2, clamped): lod.ts's level of detail. */
const calculateLod: Handler = (L, c, x) => {
  if (L.stage !== 'pixel' && L.stage !== 'compute')
    return L.refuse('dx.op not handled', `CalculateLOD in a ${L.stage} program (derivatives: pixel and compute only)`);
  const { res, e: image } = resourceOf(L, c, 1, x);
  samplerOf(L, c, 2, x, undefined);
  const lanes = footprintLanes(res.shape);
  if (res.cls !== 't' || lanes === undefined) return L.invalid(`CalculateLOD on a ${res.shape} view`);
  L.note(LOD_NOTE);
  const n = lanes === 'cube' ? 3 : lanes;
  const coord = vec(
    L,
    'f32',
    [3, 4, 5].slice(0, n).map((k) => num(L, c, k)),
  );
  // a compute program's coarse derivatives come from its quads (quad.ts, Shader Model 6.6)
  const derivative =
    L.stage === 'compute'
      ? (axis: 'x' | 'y', v: ExprId, w: number) => computeDerivative(L, x, v, w, axis, 'coarse', 'CalculateLOD')
      : undefined;
  const { clamped, unclamped } = levelOfDetail(L, image, coord, lanes, ...(derivative ? [derivative] : []));
  const flag = arg(L, c, 6);
  if (flag.type.kind !== 'int' || flag.type.width !== 1) return L.invalid('CalculateLOD without its clamped flag');
  return L.sel(L.num(flag), clamped, unclamped);
};

/** The private table of Direct3D's standard sample positions (memory.ts's rows), made on first use. */
function samplePositions(L: DxilLifter): number {
  const known = L.samplePositions;
  if (known !== undefined) return known;
  const words = samplePositionWords();
  const type = L.m.array(L.tVec4, words.length / 4);
  const constant = L.m.addConstant({ name: 'iridia_sample_positions_data', type, words });
  const g = L.m.addGlobal({ name: 'iridia_sample_positions', space: 'private', type, init: constant });
  L.samplePositions = g;
  return g;
}

/** Texture2DMSGetSamplePosition(srv, index): the standard pattern's (x, y), zero out of range (as samplepos). */
const texture2DMSGetSamplePosition: Handler = (L, c, x) => {
  const { res, e: image } = resourceOf(L, c, 1, x);
  if (res.shape !== '2dms' && res.shape !== '2dmsarray')
    return L.invalid('Texture2DMSGetSamplePosition of a texture that is not multisampled');
  L.note("samplepos gives Direct3D's standard sample pattern (a texture created with another pattern is the caller's)");
  const table = samplePositions(L);
  const rows = samplePositionWords().length / 4;
  const idx = L.once(u32(L, c, 2), 'sample');
  const count = L.once(L.e({ op: 'image_query', image, query: 'samples' }), 'samples');
  const pow2 = L.bin('eq', L.bin('and', count, L.bin('sub', count, L.u32(1))), L.u32(0));
  const valid = L.bin('and', L.bin('and', pow2, L.bin('le', count, L.u32(16))), L.bin('lt', idx, count));
  const row = L.math('min', L.bin('add', L.bin('sub', count, L.u32(1)), idx), L.u32(rows - 1));
  const value = L.once(
    L.sel(valid, L.load(L.access(L.global(table), row)), L.e({ op: 'zero', type: L.tVec4 })),
    'position',
  );
  return { kind: 'tuple', parts: [0, 1].map((k) => L.bitcast('f32', L.swz(value, [k]))) };
};

// ---- pull-model interpolation (eval.ts) ---------------------------------------------------------

function evalInput(L: DxilLifter, c: Instruction, x: OpContext): ExprId {
  if (L.stage !== 'pixel') return L.invalid('pull-model interpolation outside a pixel program');
  const io = element(L, x.inputs, L.imm(arg(L, c, 1), 'an input id'), 'input');
  const v = readElement(L, io, u32(L, c, 2), L.imm(arg(L, c, 3), 'an input column'));
  return fromLane(L, v, c.type);
}

const evalAtCentre: Handler = (L, c, x) => {
  L.note(AT_CENTRE_NOTE);
  return evalInput(L, c, x);
};

/** EvalSnapped(id, row, col, offsetX, offsetY): v + ddx_fine(v) * ox / 16 + ddy_fine(v) * oy / 16 (low 4 bits, signed). */
const evalSnapped: Handler = (L, c, x) => {
  L.note(SNAPPED_NOTE);
  const value = L.once(evalInput(L, c, x), 'eval_v');
  const step = (k: number) => {
    const signed = L.bin('shr', L.bin('shl', L.bitcast('i32', u32(L, c, k)), L.u32(28)), L.u32(28));
    return L.bin('mul', L.convert('f32', signed), L.f.f32(1 / 16));
  };
  const along = (axis: 'x' | 'y', k: number): ExprId =>
    L.bin('mul', L.e({ op: 'derivative', axis, control: 'fine', value }), step(k));
  return L.roundHalf(L.bin('add', L.bin('add', value, along('x', 4)), along('y', 5)), c.type);
};

// ---- barriers -------------------------------------------------------------------------------

/** A barrier over UAV memory and/or group-shared memory (SemanticFlags bit 0: GroupSync). */
function barrierOf(L: DxilLifter, uav: boolean, groupShared: boolean, sync: boolean): undefined {
  if (L.stage !== 'compute') {
    L.note('a memory barrier outside a compute program is dropped (WGSL has barriers in compute only)');
    return undefined;
  }
  if (!sync) L.note('a memory fence without a group sync is written as a barrier (WGSL has no bare fence)');
  L.f.stmt({ op: 'barrier', workgroup: groupShared || !uav, storage: uav, texture: uav, execution: true });
  return undefined;
}

/** BarrierByMemoryType(MemoryTypeFlags, SemanticFlags): UAV memory 1, group-shared 2 (node records: work graphs). */
const barrierByMemoryType: Handler = (L, c) => {
  const mem = L.imm(arg(L, c, 1), 'memory type flags');
  const sem = L.imm(arg(L, c, 2), 'semantic flags');
  if (mem & 0xc) return L.refuse('work graphs', 'a barrier on node record memory');
  return barrierOf(L, (mem & 1) !== 0, (mem & 2) !== 0, (sem & 1) !== 0);
};

/** BarrierByMemoryHandle(handle, SemanticFlags): a barrier on the memory of one UAV. */
const barrierByMemoryHandle: Handler = (L, c, x) => {
  const { res } = resourceOf(L, c, 1, x);
  if (res.cls !== 'u') return L.invalid('a barrier on a view that is not a UAV');
  return barrierOf(L, true, false, (L.imm(arg(L, c, 2), 'semantic flags') & 1) !== 0);
};

// ---- the rest -------------------------------------------------------------------------------

const viewId: Handler = (L) => {
  L.note('ViewID is 0, as Direct3D gives it without view instancing (WebGPU has none)');
  return L.u32(0);
};

/** BufferUpdateCounter(uav, inc): the view's hidden counter (lift/counter.ts, as the SM4/5 lifter's
 * imm_atomic_alloc/consume): inc 1 gives the value before the increment, -1 the value after the
 * decrement (IncrementCounter / DecrementCounter). */
const bufferUpdateCounter: Handler = (L, c, x) => {
  const { h } = resourceOf(L, c, 1, x);
  const inc = L.imm(arg(L, c, 2), 'a counter direction');
  const step = (inc << 24) >> 24;
  if (step !== 1 && step !== -1) return L.invalid(`BufferUpdateCounter by ${step} (DXIL allows 1 and -1)`);
  return updateCounter(L.f, x.resources.counterExpr(h), step === 1);
};

/** RenderTargetGetSampleCount(): the pipeline's sample count, the lift option (memory.ts rasterizerSamples). */
const renderTargetGetSampleCount: Handler = (L) => L.u32(rasterizerSamples(L, rasterizerSampleCount(L)));

/** RenderTargetGetSamplePosition(index): Direct3D's standard position of that sample for the
 * option's count (the SM4/5 `samplepos` of the rasterizer); (0, 0) past the count. */
const renderTargetGetSamplePosition: Handler = (L, c) => {
  const n = rasterizerSamples(L, rasterizerSampleCount(L));
  const rows = samplePositionWords().length / 4;
  const idx = L.once(u32(L, c, 1), 'sample');
  const row = L.math('min', L.bin('add', L.u32(n - 1), idx), L.u32(rows - 1));
  const value = L.once(
    L.sel(
      L.bin('lt', idx, L.u32(n)),
      L.load(L.access(L.global(samplePositions(L)), row)),
      L.e({ op: 'zero', type: L.tVec4 }),
    ),
    'position',
  );
  return { kind: 'tuple', parts: [0, 1].map((k) => L.bitcast('f32', L.swz(value, [k]))) };
};

const refused =
  (reason: Parameters<DxilLifter['refuse']>[0], detail: string): Handler =>
  (L) =>
    L.refuse(reason, detail);

export const MISC_OPS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [70, bufferUpdateCounter],
  [75, texture2DMSGetSamplePosition],
  [76, renderTargetGetSamplePosition],
  [77, renderTargetGetSampleCount],
  [81, calculateLod],
  [87, evalSnapped],
  [88, evalAtCentre],
  [89, evalAtCentre],
  [137, refused('dx.op not handled', "AttributeAtVertex (WGSL reads no single vertex's attribute)")],
  [138, viewId],
  [162, dot2AddHalf],
  [163, dot4Add(true)],
  [164, dot4Add(false)],
  [219, unpack4x8],
  [220, pack4x8],
  [223, textureGatherRaw],
  [244, barrierByMemoryType],
  [245, barrierByMemoryHandle],
  // StartVertexLocation, StartInstanceLocation (vertex programs only, DXIL's rule): the lift's options
  [
    256,
    (L) =>
      L.u32(L.stage === 'vertex' ? drawStart(L).vertex : L.invalid('StartVertexLocation outside a vertex program')),
  ],
  [
    257,
    (L) =>
      L.u32(L.stage === 'vertex' ? drawStart(L).instance : L.invalid('StartInstanceLocation outside a vertex program')),
  ],
]);
