// Resource instructions of SM4/5/5.1: sampling and gathers, texel loads, buffer loads and stores
// (typed, raw, structured, thread-group memory), atomics, size queries and barriers. Reads of a
// buffer out of range give zero and stores out of range do nothing (Direct3D's rules), written out
// with `select` and `if` against the buffer's length.

import { makeStmt } from '../ir/nodes.js';
import type { ExprId, SampleLevel, Scalar } from '../ir/ir.js';
import type { Instruction, Operand } from '../sm4/types.js';
import type { BoundResource } from './resources.js';
import { OT, type Lifter } from './state.js';
import type { Handler } from './alu.js';
import { updateCounter } from './counter.js';
import { texelHeader, texelWord } from './texels.js';

const op = (ins: Instruction, k: number): Operand => {
  const o = ins.operands[k];
  if (!o) throw new Error(`operand ${k} missing after decode`);
  return o;
};

/** Coordinate lanes and the array-layer lane of a texture shape. */
export function coordLayout(shape: string): { coords: number; layer: number | undefined } {
  switch (shape) {
    case '1d':
      return { coords: 1, layer: undefined };
    case '1darray':
      return { coords: 1, layer: 1 };
    case '2d':
    case '2dms':
      return { coords: 2, layer: undefined };
    case '2darray':
    case '2dmsarray':
      return { coords: 2, layer: 2 };
    case '3d':
    case 'cube':
      return { coords: 3, layer: undefined };
    case 'cubearray':
      return { coords: 3, layer: 3 };
    default:
      return { coords: 1, layer: undefined };
  }
}

/** The immediate texel offsets of the sample-controls extended opcode (4-bit signed u, v, w). */
function immediateOffsets(ins: Instruction): [number, number, number] | undefined {
  const e = ins.extended.find((x) => x.type === 1);
  if (!e) return undefined;
  const s4 = (v: number) => ((v & 0xf) << 28) >> 28;
  const o: [number, number, number] = [s4(e.token >>> 9), s4(e.token >>> 13), s4(e.token >>> 17)];
  return o.some((v) => v !== 0) ? o : undefined;
}

/** Writes a vec4 result of `type`, swizzled by the resource operand, under the destination mask. */
export function writeSwizzled(L: Lifter, dst: Operand, res: Operand, value: ExprId, type: Scalar): void {
  const lanes = L.lanes(dst);
  const comps = lanes.map((l) => res.swizzle[l] ?? 0);
  const v = comps.length === 4 && comps.every((c, k) => c === k) ? value : L.swz(value, comps);
  L.write(dst, v, type, lanes);
}

function floatCoords(L: Lifter, src: Operand, res: BoundResource): { coord: ExprId; layer?: ExprId } {
  const { coords, layer } = coordLayout(res.shape);
  let coord = L.src(src, 'f32', [0, 1, 2].slice(0, coords));
  if (res.shape === '1d' || res.shape === '1darray')
    coord = L.e({ op: 'compose', type: L.m.vec('f32', 2), parts: [coord, L.f.f32(0.5)] });
  if (layer === undefined) return { coord };
  const z = L.src(src, 'f32', [layer]);
  const rounded = L.math('clamp', L.math('round', z), L.f.f32(0), L.f.f32(2047));
  return { coord, layer: L.e({ op: 'convert', to: 'i32', value: rounded }) };
}

function intCoords(
  L: Lifter,
  src: Operand,
  res: BoundResource,
  offsets?: [number, number, number],
): { coord: ExprId; layer?: ExprId } {
  const { coords, layer } = coordLayout(res.shape);
  let coord = L.src(src, 'i32', [0, 1, 2].slice(0, coords));
  if (offsets && coords > 0) {
    const off = offsets.slice(0, coords).map((v) => L.f.i32(v));
    const o =
      off.length === 1 ? (off[0] as ExprId) : L.e({ op: 'compose', type: L.m.vec('i32', off.length), parts: off });
    coord = L.bin('add', coord, o);
  }
  if (res.shape === '1d' || res.shape === '1darray')
    coord = L.e({ op: 'compose', type: L.m.vec('i32', 2), parts: [coord, L.f.i32(0)] });
  if (layer === undefined) return { coord };
  return { coord, layer: L.src(src, 'i32', [layer]) };
}

/** The lanes of the coordinate intCoords gives (a 1D texture is bound as 2D of height 1). */
function coordCount(res: BoundResource): number {
  return res.shape === '1d' || res.shape === '1darray' ? 2 : coordLayout(res.shape).coords;
}

function offsetExpr(L: Lifter, res: BoundResource, offsets: [number, number, number] | undefined): ExprId | undefined {
  if (!offsets) return undefined; // none on a cube: sampleDimensionRule refuses them
  const n = res.shape === '3d' ? 3 : 2;
  const parts = offsets.slice(0, n).map((v) => L.f.i32(v));
  if (res.shape === '1d' || res.shape === '1darray') parts[1] = L.f.i32(0);
  return L.e({ op: 'compose', type: L.m.vec('i32', n), parts });
}

/**
 * The texture dimensions Direct3D lets each sampling instruction read (the D3D11.3 functional
 * spec's instruction reference, 22.4): no sample of a multisampled texture; gather4 and gather4_c
 * of 2D, 2D array, cube and cube array textures only, gather4_po and gather4_po_c of 2D and 2D
 * array only; no comparison (sample_c, sample_c_lz, the _c gathers) of a 3D texture; and no
 * immediate texel offset (aoffimmi) on a cube. Anything else is a malformed program, refused here
 * by the instruction's name.
 */
function sampleDimensionRule(L: Lifter, kind: string, shape: BoundResource['shape'], ins: Instruction): void {
  const name = kind.replace('gather', 'gather4');
  if (shape === '2dms' || shape === '2dmsarray')
    L.invalid(`${name} of a ${shape} texture (multisampled textures are not sampled)`);
  const gather = kind.startsWith('gather');
  const cube = shape === 'cube' || shape === 'cubearray';
  if (gather && shape !== '2d' && shape !== '2darray' && !cube) L.invalid(`${name} of a ${shape} texture`);
  if ((kind === 'gather_po' || kind === 'gather_po_c') && cube) L.invalid(`${name} of a ${shape} texture`);
  if (shape === '3d' && (kind.endsWith('_c') || kind === 'sample_c_lz'))
    L.invalid(`${name} of a 3d texture (comparison sampling reads no 3D texture)`);
  if (cube && immediateOffsets(ins)) L.invalid(`${name} with aoffimmi on a ${shape} texture`);
}

export function textureFor(L: Lifter, o: Operand): { res: BoundResource; handle: ExprId } {
  if (o.type !== OT.resource)
    return L.refuse('register type not handled', `a texture instruction on operand type ${o.type}`);
  return L.resources.find('t', o);
}

function sampleLike(
  kind:
    | 'sample'
    | 'sample_c'
    | 'sample_c_lz'
    | 'sample_l'
    | 'sample_d'
    | 'sample_b'
    | 'gather'
    | 'gather_c'
    | 'gather_po'
    | 'gather_po_c',
): Handler {
  return (L, ins) => {
    const po = kind === 'gather_po' || kind === 'gather_po_c';
    const dst = op(ins, 0);
    const coordOp = op(ins, 1);
    const resOp = op(ins, po ? 3 : 2);
    const smpOp = op(ins, po ? 4 : 3);
    const extra = ins.operands.slice(po ? 5 : 4);
    const { res, handle } = textureFor(L, resOp);
    const { handle: sampler, res: sres } = L.resources.find('s', smpOp);
    if (res.shape === 'buffer' || res.shape === 'raw' || res.shape === 'structured') L.invalid('sampling a buffer');
    sampleDimensionRule(L, kind, res.shape, ins);
    const floatCoord = floatCoords(L, coordOp, res);
    let coord = floatCoord.coord;
    const layer = floatCoord.layer;
    let offsets = immediateOffsets(ins);
    if (po) {
      const offOp = op(ins, 2);
      const v = offOp.values ?? [];
      const imm: [number, number, number] = [(v[0] ?? 0) | 0, (v[1] ?? 0) | 0, 0];
      if (offOp.type === OT.imm32 && imm.every((o) => o >= -8 && o <= 7)) offsets = imm;
      else {
        // WGSL takes only constant offsets in [-8, 7]: the offset (Direct3D's low six bits, signed)
        // moves the coordinates by whole texels of level 0, where a gather reads (gather4_po reads a
        // 2D texture or array only: sampleDimensionRule).
        L.note('a gather offset WGSL cannot take as a constant moves the coordinates by that many texels of level 0');
        const raw = L.src(offOp, 'i32', [0, 1]);
        const six = L.e({ op: 'splat', size: 2, value: L.f.u32(26) });
        const signed = L.bin('shr', L.bin('shl', raw, six), six);
        const size = L.e({
          op: 'convert',
          to: 'f32',
          value: L.e({ op: 'image_query', image: handle, query: 'size', level: L.f.i32(0) }),
        });
        coord = L.bin('add', coord, L.bin('div', L.e({ op: 'convert', to: 'f32', value: signed }), size));
      }
    }
    const offset = offsetExpr(L, res, offsets);
    const comparison = kind === 'sample_c' || kind === 'sample_c_lz' || kind === 'gather_c' || kind === 'gather_po_c';
    // A sampler's declared mode decides its kind (a sampler's `depth` is mode_comparison): the _c
    // instructions take a comparison sampler, the others a default one (the IR has no other pairing).
    if (comparison !== sres.depth)
      L.invalid(
        comparison
          ? `${kind} through s${smpOp.indices[0]?.imm ?? 0}, which is not declared mode_comparison`
          : `${kind} through s${smpOp.indices[0]?.imm ?? 0}, which is declared mode_comparison (only the _c instructions take it)`,
      );
    const depthRef = comparison ? L.src(op(ins, ins.operands.length - 1), 'f32', [0]) : undefined;
    let level: SampleLevel = { kind: 'auto' };
    const fragment = L.stage === 'pixel';
    if (kind === 'sample_l') level = { kind: 'exact', level: L.src(extra[0] as Operand, 'f32', [0]) };
    else if (kind === 'sample_b' && !fragment) level = { kind: 'zero' };
    else if (kind === 'sample_b') level = { kind: 'bias', bias: L.src(extra[0] as Operand, 'f32', [0]) };
    else if (kind === 'sample_d') {
      const n =
        res.shape === '3d' || res.shape === 'cube' || res.shape === 'cubearray'
          ? 3
          : res.shape === '1d' || res.shape === '1darray'
            ? 1
            : 2;
      let gx = L.src(extra[0] as Operand, 'f32', [0, 1, 2].slice(0, n));
      let gy = L.src(extra[1] as Operand, 'f32', [0, 1, 2].slice(0, n));
      if (n === 1) {
        gx = L.e({ op: 'compose', type: L.m.vec('f32', 2), parts: [gx, L.f.f32(0)] });
        gy = L.e({ op: 'compose', type: L.m.vec('f32', 2), parts: [gy, L.f.f32(0)] });
      }
      level = { kind: 'gradient', x: gx, y: gy };
    } else if (kind === 'sample_c_lz') level = { kind: 'zero' };
    else if ((kind === 'sample' || kind === 'sample_c') && !fragment) {
      level = { kind: 'zero' };
      L.note('an implicit-level sample outside a pixel program samples level 0');
    }
    if (res.depth && level.kind === 'exact')
      L.note('a depth texture sampled at an explicit level uses the level rounded to an integer');
    const gather = kind.startsWith('gather') ? (smpOp.swizzle[0] ?? 0) : undefined;
    // A texture read through a comparison sampler is a single-channel view (comparison filtering takes
    // R32_FLOAT, R24_UNORM_X8, R16_UNORM): its green and blue read 0 and its alpha 1, as a plain sample
    // of it composes below, so gathering those channels gives four of that constant.
    if (gather !== undefined && res.depth && !comparison && gather !== 0) {
      L.note('a gather of a depth texture for green or blue gives zeros, for alpha ones (a single-channel view)');
      const one = L.f.f32(gather === 3 ? 1 : 0);
      writeSwizzled(L, dst, resOp, L.e({ op: 'splat', size: 4, value: one }), 'f32');
      return;
    }
    let value = L.e({
      op: 'sample',
      image: handle,
      sampler,
      coord,
      level,
      ...(layer !== undefined ? { arrayIndex: layer } : {}),
      ...(offset !== undefined ? { offset } : {}),
      ...(depthRef !== undefined ? { depthRef } : {}),
      ...(gather !== undefined ? { gather } : {}),
    });
    const scalarResult = (res.depth && gather === undefined) || (comparison && gather === undefined);
    if (scalarResult) {
      value = comparison
        ? L.e({ op: 'splat', size: 4, value })
        : L.e({ op: 'compose', type: L.m.vec('f32', 4), parts: [value, L.f.f32(0), L.f.f32(0), L.f.f32(1)] });
    }
    writeSwizzled(L, dst, resOp, value, res.depth ? 'f32' : res.scalar);
  };
}

/** Whether a texel address is inside the texture (Direct3D reads zero outside it, drops a store; WGSL
 * leaves the texel read implementation-defined): every coordinate below the level's size (compared as
 * u32, so negatives fail), the level below the level count, the layer below the layer count, the
 * sample below the sample count. The size query names the level only when it is in range. */
function texelInRange(
  L: Lifter,
  handle: ExprId,
  coord: ExprId,
  coords: number,
  extra: { level?: ExprId; layer?: ExprId; sample?: ExprId },
): ExprId {
  const u = (x: ExprId): ExprId => L.bitcast('u32', x);
  const conds: ExprId[] = [];
  let levelArg: ExprId | undefined;
  if (extra.level !== undefined) {
    const levels = L.e({ op: 'image_query', image: handle, query: 'levels' });
    const levelOk = L.bin('lt', u(extra.level), levels);
    conds.push(levelOk);
    // an out-of-range level is not passed to textureDimensions (its result is then undefined too)
    levelArg = L.sel(levelOk, extra.level, L.f.i32(0));
  }
  const size = L.e({
    op: 'image_query',
    image: handle,
    query: 'size',
    ...(levelArg !== undefined ? { level: levelArg } : {}),
  });
  const inside = L.bin('lt', u(coord), size);
  conds.push(coords > 1 ? L.math('all', inside) : inside);
  if (extra.layer !== undefined)
    conds.push(L.bin('lt', u(extra.layer), L.e({ op: 'image_query', image: handle, query: 'layers' })));
  if (extra.sample !== undefined)
    conds.push(L.bin('lt', u(extra.sample), L.e({ op: 'image_query', image: handle, query: 'samples' })));
  return conds.reduce((a, b) => L.bin('and', a, b));
}

/** ld / ldms on textures and typed buffers. */
function ld(ms: boolean): Handler {
  return (L, ins) => {
    const dst = op(ins, 0);
    const addr = op(ins, 1);
    const resOp = op(ins, 2);
    const { res, handle } = textureFor(L, resOp);
    if (ms && res.shape !== '2dms' && res.shape !== '2dmsarray')
      L.invalid(`ldms on a ${res.shape} resource (ld2dms reads a multisampled texture only)`);
    if (res.shape === 'buffer') {
      const idx = L.src(addr, 'u32', [0]);
      writeSwizzled(L, dst, resOp, bufferRead(L, res, handle, idx, 'vec4'), 'u32');
      return;
    }
    if (res.shape === 'raw' || res.shape === 'structured') return L.invalid('ld on a raw or structured buffer');
    // Direct3D's ld and ld2dms read no cube texture (the D3D11.3 functional spec, 22.4.7)
    if (res.shape === 'cube' || res.shape === 'cubearray') return L.invalid(`ld on a ${res.shape} texture`);
    const { coord, layer } = intCoords(L, addr, res, immediateOffsets(ins));
    const extra: { sample?: ExprId; level?: ExprId } = {};
    if (ms) extra.sample = L.src(op(ins, 3), 'i32', [0]);
    else extra.level = L.src(addr, 'i32', [3]);
    if (!ms && (res.shape === '2dms' || res.shape === '2dmsarray')) delete extra.level;
    if (!ms && (res.shape === '2dms' || res.shape === '2dmsarray')) extra.sample = L.f.i32(0);
    let value = L.e({
      op: 'image_load',
      image: handle,
      coord,
      ...(layer !== undefined ? { arrayIndex: layer } : {}),
      ...extra,
    });
    if (res.depth)
      value = L.e({ op: 'compose', type: L.m.vec('f32', 4), parts: [value, L.f.f32(0), L.f.f32(0), L.f.f32(1)] });
    const inRange = texelInRange(
      L,
      handle,
      coord,
      coordCount(res),
      layer !== undefined ? Object.assign({}, extra, { layer }) : extra,
    );
    const scalar = res.depth ? 'f32' : res.scalar;
    value = L.sel(inRange, value, L.e({ op: 'zero', type: L.m.vec(scalar, 4) }));
    writeSwizzled(L, dst, resOp, value, scalar);
  };
}

/** A pointer to word/element `idx` of a buffer view, with its length for the range check. */
function element(
  L: Lifter,
  res: BoundResource,
  handle: ExprId,
  idx: ExprId,
): { pointer: ExprId; inRange: ExprId; length: ExprId } {
  const length = res.cls === 'g' ? L.u32(res.rows) : L.e({ op: 'array_length', pointer: handle });
  const inRange = L.bin('lt', idx, length);
  return { pointer: L.access(handle, idx), inRange, length };
}

/** The function's local a buffer read goes through (one a function for words, one for vec4s: each
 * read binds the value to a let right after its `if`, so one local serves them all). */
function readSlot(L: Lifter, vec: boolean): number {
  const byFunction = (L.readSlots ??= new Map());
  let slots = byFunction.get(L.f);
  if (!slots) byFunction.set(L.f, (slots = {}));
  const key = vec ? 'vec' : 'word';
  return (slots[key] ??= L.f.local(vec ? 'loaded4' : 'loaded', vec ? L.tVec4 : L.tU32));
}

/** Reads element `idx` (zero out of range): a vec4<u32> ('vec4' views) or u32 (word views). The read
 * is made only when `idx` is in range (an `if` around it, the element clamped inside as well so that a
 * constant index stays in bounds for WGSL): a read at a clamped address whose value a select then
 * dropped would still be an access of the last element, which an access trace (src/exec/races.ts)
 * would see and count against another invocation's write of it. */
function bufferRead(L: Lifter, res: BoundResource, handle: ExprId, idx: ExprId, want: 'vec4' | 'word'): ExprId {
  const length = res.cls === 'g' ? L.u32(res.rows) : L.e({ op: 'array_length', pointer: handle });
  const clamped = L.math('min', idx, L.bin('sub', L.math('max', length, L.u32(1)), L.u32(1)));
  const inRange = L.bin('lt', idx, length);
  const isVec = !res.atomic && !res.scalarElements;
  const slot = readSlot(L, isVec);
  L.f.open();
  if (res.atomic) {
    const r = L.f.newLet('word');
    L.f.stmt({ op: 'atomic', pointer: L.access(handle, clamped), fn: 'load', result: r });
    L.f.stmt({ op: 'store', pointer: L.local(slot), value: L.e({ op: 'let', let: r }) });
  } else L.f.stmt({ op: 'store', pointer: L.local(slot), value: L.load(L.access(handle, clamped)) });
  const accept = L.f.close();
  L.f.open();
  L.f.stmt({ op: 'store', pointer: L.local(slot), value: isVec ? L.zeroVec4() : L.u32(0) });
  const reject = L.f.close();
  L.f.stmt({ op: 'if', cond: inRange, accept, reject });
  const v = L.f.bind('word', L.load(L.local(slot)));
  if (want === 'vec4' && !isVec) {
    // a one-word element read as four lanes: Direct3D's defaults for the components the format lacks,
    // 0, 0 and 1 in the view's type for alpha; out of range every component is 0
    const one = L.u32(res.scalar === 'f32' ? 0x3f800000 : 1);
    return L.e({ op: 'compose', type: L.tVec4, parts: [v, L.u32(0), L.u32(0), L.sel(inRange, one, L.u32(0))] });
  }
  return v;
}

/** The view (t#, u# or g#) a raw/structured/typed-buffer instruction names. */
function viewFor(L: Lifter, o: Operand): { res: BoundResource; handle: ExprId } {
  if (o.type === OT.resource) return L.resources.find('t', o);
  if (o.type === OT.uav) return L.resources.find('u', o);
  if (o.type === OT.tgsm) return L.resources.find('g', o);
  return L.refuse('register type not handled', `a buffer instruction on operand type ${o.type}`);
}

/** The word index of a raw (byte offset) or structured (index, byte offset) address. */
function wordIndex(L: Lifter, res: BoundResource, addr: ExprId, offset?: ExprId): ExprId {
  const bytes = offset === undefined ? addr : L.bin('add', L.bin('mul', addr, L.u32(res.stride)), offset);
  return L.bin('shr', bytes, L.u32(2));
}

const ldRaw =
  (structured: boolean): Handler =>
  (L, ins) => {
    const dst = op(ins, 0);
    const viewOp = op(ins, structured ? 3 : 2);
    const { res, handle } = viewFor(L, viewOp);
    if (!res.scalarElements || (res.shape !== 'raw' && res.shape !== 'structured'))
      L.invalid('ld_raw/ld_structured on a view that is not raw or structured');
    const base = structured
      ? wordIndex(L, res, L.src(op(ins, 1), 'u32', [0]), L.src(op(ins, 2), 'u32', [0]))
      : wordIndex(L, res, L.src(op(ins, 1), 'u32', [0]));
    const b = L.f.bind('addr', base);
    const lanes = L.lanes(dst);
    const parts = lanes.map((l) => {
      const k = viewOp.swizzle[l] ?? 0;
      return bufferRead(L, res, handle, k === 0 ? b : L.bin('add', b, L.u32(k)), 'word');
    });
    const v =
      parts.length === 1 ? (parts[0] as ExprId) : L.e({ op: 'compose', type: L.m.vec('u32', parts.length), parts });
    L.write(dst, v, 'u32', lanes);
  };

const storeRaw =
  (structured: boolean): Handler =>
  (L, ins) => {
    const viewOp = op(ins, 0);
    const { res, handle } = viewFor(L, viewOp);
    if (!res.scalarElements || (res.shape !== 'raw' && res.shape !== 'structured'))
      L.invalid('store_raw/store_structured on a view that is not raw or structured');
    const base = structured
      ? wordIndex(L, res, L.src(op(ins, 1), 'u32', [0]), L.src(op(ins, 2), 'u32', [0]))
      : wordIndex(L, res, L.src(op(ins, 1), 'u32', [0]));
    const valueOp = op(ins, structured ? 3 : 2);
    const lanes = L.lanes(viewOp);
    const b = L.f.bind('addr', base);
    const values = lanes.map((l) => L.src(valueOp, 'u32', [l]));
    const bound = values.map((v) => L.f.bind('value', v));
    lanes.forEach((_, k) => {
      const idx = k === 0 ? b : L.bin('add', b, L.u32(k));
      storeWord(L, res, handle, idx, bound[k] as ExprId);
    });
  };

function storeWord(L: Lifter, res: BoundResource, handle: ExprId, idx: ExprId, value: ExprId): void {
  const el = element(L, res, handle, idx);
  L.f.open();
  if (res.atomic) L.f.stmt({ op: 'atomic', pointer: el.pointer, fn: 'exchange', value });
  else L.f.store(el.pointer, value);
  L.f.stmt({ op: 'if', cond: el.inRange, accept: L.f.close(), reject: [] });
}

const ldUavTyped: Handler = (L, ins) => {
  const dst = op(ins, 0);
  const viewOp = op(ins, 2);
  const { res, handle } = L.resources.find('u', viewOp);
  if (res.shape === 'raw' || res.shape === 'structured') L.invalid('ld_uav_typed on a raw or structured view');
  if (res.shape === 'buffer') {
    writeSwizzled(L, dst, viewOp, bufferRead(L, res, handle, L.src(op(ins, 1), 'u32', [0]), 'vec4'), 'u32');
    return;
  }
  if (res.texels) return writeSwizzled(L, dst, viewOp, texelLoad(L, res, handle, op(ins, 1)), 'u32');
  const { coord, layer } = intCoords(L, op(ins, 1), res);
  const loaded = L.e({ op: 'image_load', image: handle, coord, ...(layer !== undefined ? { arrayIndex: layer } : {}) });
  const inRange = texelInRange(L, handle, coord, coordCount(res), layer !== undefined ? { layer } : {});
  const value = L.sel(inRange, loaded, L.e({ op: 'zero', type: L.m.vec(res.scalar, 4) }));
  writeSwizzled(L, dst, viewOp, value, res.scalar);
};

const storeUavTyped: Handler = (L, ins) => {
  const viewOp = op(ins, 0);
  const { res, handle } = L.resources.find('u', viewOp);
  if (res.shape === 'raw' || res.shape === 'structured') L.invalid('store_uav_typed on a raw or structured view');
  if (viewOp.numComponents === 2 && viewOp.mask !== 0xf)
    L.refuse(
      'partial-mask store through a view',
      `store_uav_typed u${viewOp.indices[0]?.imm} with mask ${viewOp.mask}`,
    );
  if (res.shape === 'buffer') {
    const idx = L.src(op(ins, 1), 'u32', [0]);
    const value = res.scalarElements ? L.src(op(ins, 2), 'u32', [0]) : L.src(op(ins, 2), 'u32', [0, 1, 2, 3]);
    storeWord(L, res, handle, idx, value);
    return;
  }
  if (res.texels) return texelStore(L, res, handle, op(ins, 1), op(ins, 2));
  const { coord, layer } = intCoords(L, op(ins, 1), res);
  const raw = L.src(op(ins, 2), 'u32', [0, 1, 2, 3]);
  const value = res.scalar === 'u32' ? raw : L.bitcast(res.scalar, raw);
  L.f.stmt({ op: 'image_store', image: handle, coord, value, ...(layer !== undefined ? { arrayIndex: layer } : {}) });
};

/** The word of a texel-buffer view (texels.ts) an address operand names: its lanes as u32 by shape. */
function texelOf(L: Lifter, res: BoundResource, handle: ExprId, addr: Operand): { index: ExprId; inRange: ExprId } {
  const { coords, layer } = coordLayout(res.shape);
  const lane = (k: number) => L.src(addr, 'u32', [k]);
  const x = lane(0);
  const y = coords >= 2 ? lane(1) : L.u32(0);
  const z = res.shape === '3d' ? lane(2) : layer !== undefined ? lane(layer) : L.u32(0);
  return texelWord(L.f, handle, texelScalar(res), x, y, z);
}

/** The atomic scalar of a texel-buffer view's words: i32 for a sint view, else u32. */
function texelScalar(res: BoundResource): 'u32' | 'i32' {
  return res.scalar === 'i32' ? 'i32' : 'u32';
}

type AtomicName = 'and' | 'or' | 'xor' | 'add' | 'imax' | 'imin' | 'umax' | 'umin' | 'exchange' | 'compare_exchange';

function atomic(name: AtomicName, immediate: boolean): Handler {
  return (L, ins) => {
    const dst = immediate ? op(ins, 0) : undefined;
    const viewOp = op(ins, immediate ? 1 : 0);
    const srcs = ins.operands.slice(immediate ? 2 : 1);
    const { res, handle } = viewFor(L, viewOp);
    if (!res.atomic) return L.invalid('an atomic on a view not found atomic by the usage scan');
    // Direct3D's typed-view atomics are of 32-bit integer formats (R32_UINT, R32_SINT); a float view
    // takes only the exchanges (its bits), as Shader Model 6.6's float atomics do
    if (
      res.scalar === 'f32' &&
      res.shape !== 'raw' &&
      res.shape !== 'structured' &&
      name !== 'exchange' &&
      name !== 'compare_exchange'
    )
      return L.invalid(`an atomic ${name} on a float typed view (atomic arithmetic takes R32_UINT or R32_SINT views)`);
    if (res.texels) return texelAtomic(L, name, dst, res, handle, srcs);
    if (res.shape !== 'raw' && res.shape !== 'structured' && res.shape !== 'buffer')
      return L.refuse('texture atomics', 'an atomic on a typed texture view');
    const addrOp = srcs[0] as Operand;
    const idx =
      res.shape === 'structured'
        ? wordIndex(L, res, L.src(addrOp, 'u32', [0]), L.src(addrOp, 'u32', [1]))
        : res.shape === 'raw'
          ? wordIndex(L, res, L.src(addrOp, 'u32', [0]))
          : L.src(addrOp, 'u32', [0]);
    const signed = name === 'imax' || name === 'imin';
    if (signed)
      L.note('a signed atomic min/max on an unsigned view compares as Direct3D does only for values of one sign');
    const fn = name === 'imax' || name === 'umax' ? 'max' : name === 'imin' || name === 'umin' ? 'min' : name;
    const el = element(L, res, handle, idx);
    const value = L.src(srcs[srcs.length - 1] as Operand, 'u32', [0]);
    const compare = name === 'compare_exchange' ? L.src(srcs[1] as Operand, 'u32', [0]) : undefined;
    if (name === 'compare_exchange') L.note("compare-exchange is WGSL's weak form (it may fail spuriously)");
    L.f.open();
    const result = dst && dst.type !== OT.null ? L.f.newLet('old') : undefined;
    L.f.stmt({
      op: 'atomic',
      pointer: el.pointer,
      fn,
      value,
      ...(compare !== undefined ? { compare } : {}),
      ...(result !== undefined ? { result } : {}),
    });
    if (dst && result !== undefined) {
      const lanes = L.lanes(dst);
      const r = L.e({ op: 'let', let: result });
      L.write(
        dst,
        lanes.length === 1 ? r : L.e({ op: 'splat', size: lanes.length as 2 | 3 | 4, value: r }),
        'u32',
        lanes,
      );
    }
    L.f.stmt({ op: 'if', cond: el.inRange, accept: L.f.close(), reject: [] });
  };
}

/** An atomic on a texel-buffer view (texels.ts): on the texel's word, when inside the view. A sint
 * view's words are atomic<i32>, so imin/imax compare as Direct3D's signed ones; umin/umax on them, and
 * imin/imax on a uint view, compare as the words' type (noted). */
function texelAtomic(
  L: Lifter,
  name: AtomicName,
  dst: Operand | undefined,
  res: BoundResource,
  handle: ExprId,
  srcs: readonly Operand[],
): void {
  const scalar = texelScalar(res);
  const { index, inRange } = texelOf(L, res, handle, srcs[0] as Operand);
  const signed = name === 'imax' || name === 'imin';
  const unsigned = name === 'umax' || name === 'umin';
  if ((signed && scalar === 'u32') || (unsigned && scalar === 'i32'))
    L.note(
      `a ${signed ? 'signed' : 'unsigned'} atomic min/max on a ${scalar === 'u32' ? 'uint' : 'sint'} view compares as Direct3D does only for values of one sign`,
    );
  const fn = name === 'imax' || name === 'umax' ? 'max' : name === 'imin' || name === 'umin' ? 'min' : name;
  const word = (o: Operand) => (scalar === 'u32' ? L.src(o, 'u32', [0]) : L.src(o, 'i32', [0]));
  const value = word(srcs[srcs.length - 1] as Operand);
  const compare = name === 'compare_exchange' ? word(srcs[1] as Operand) : undefined;
  if (name === 'compare_exchange') L.note("compare-exchange is WGSL's weak form (it may fail spuriously)");
  L.f.open();
  const result = dst && dst.type !== OT.null ? L.f.newLet('old') : undefined;
  L.f.stmt({
    op: 'atomic',
    pointer: L.access(handle, index),
    fn,
    value,
    ...(compare !== undefined ? { compare } : {}),
    ...(result !== undefined ? { result } : {}),
  });
  if (dst && result !== undefined) {
    const lanes = L.lanes(dst);
    const r = L.e({ op: 'let', let: result });
    L.write(
      dst,
      lanes.length === 1 ? r : L.e({ op: 'splat', size: lanes.length as 2 | 3 | 4, value: r }),
      scalar,
      lanes,
    );
  }
  L.f.stmt({ op: 'if', cond: inRange, accept: L.f.close(), reject: [] });
}

/** ld_uav_typed of a texel-buffer view: (word, 0, 0, 1 in the view's type) inside the view, else zero. */
function texelLoad(L: Lifter, res: BoundResource, handle: ExprId, addr: Operand): ExprId {
  const scalar = texelScalar(res);
  const { index, inRange } = texelOf(L, res, handle, addr);
  const slot = readSlot(L, false);
  L.f.open();
  const r = L.f.newLet('texel');
  L.f.stmt({ op: 'atomic', pointer: L.access(handle, index), fn: 'load', result: r });
  const v = L.e({ op: 'let', let: r });
  L.f.stmt({ op: 'store', pointer: L.local(slot), value: scalar === 'u32' ? v : L.bitcast('u32', v) });
  const accept = L.f.close();
  L.f.stmt({ op: 'if', cond: inRange, accept, reject: [makeStmt.store(L.local(slot), L.u32(0))] });
  const w = L.f.bind('texel', L.load(L.local(slot)));
  const one = L.u32(res.scalar === 'f32' ? 0x3f800000 : 1);
  return L.e({ op: 'compose', type: L.tVec4, parts: [w, L.u32(0), L.u32(0), L.sel(inRange, one, L.u32(0))] });
}

/** store_uav_typed of a texel-buffer view: the value's x into the texel's word, inside the view. */
function texelStore(L: Lifter, res: BoundResource, handle: ExprId, addr: Operand, valueOp: Operand): void {
  const scalar = texelScalar(res);
  const { index, inRange } = texelOf(L, res, handle, addr);
  const value = L.f.bind('value', scalar === 'u32' ? L.src(valueOp, 'u32', [0]) : L.src(valueOp, 'i32', [0]));
  L.f.stmt({
    op: 'if',
    cond: inRange,
    accept: [{ op: 'atomic', pointer: L.access(handle, index), fn: 'exchange', value }],
    reject: [],
  });
}

/** resinfo of a texel-buffer view: the header's size (texels.ts), one level; zero past level 0. */
function texelSize(L: Lifter, res: BoundResource, handle: ExprId, mip: ExprId): ExprId {
  const [w, h, d] = texelHeader(L.f, handle, texelScalar(res));
  const inRange = L.bin('eq', mip, L.u32(0));
  const z = (v: ExprId) => L.sel(inRange, v, L.u32(0));
  const dims =
    res.shape === '1d'
      ? [z(w), L.u32(0), L.u32(0)]
      : res.shape === '1darray'
        ? [z(w), z(d), L.u32(0)]
        : res.shape === '2d'
          ? [z(w), z(h), L.u32(0)]
          : [z(w), z(h), z(d)];
  return L.e({ op: 'compose', type: L.tVec4, parts: [...dims, L.u32(1)] });
}

/** imm_atomic_alloc / imm_atomic_consume: the UAV's hidden counter (counter.ts): alloc gives the
 * value before its increment, consume the value after its decrement, in every lane of the mask. */
function counterUpdate(increment: boolean): Handler {
  return (L, ins) => {
    const dst = op(ins, 0);
    const uavOp = op(ins, 1);
    if (uavOp.type !== OT.uav) return L.invalid('imm_atomic_alloc/consume on a register that is not a UAV');
    const value = updateCounter(L.f, L.resources.findCounter(uavOp), increment);
    if (dst.type === OT.null) return;
    const lanes = L.lanes(dst);
    const v = L.f.bind(increment ? 'alloc' : 'consumed', value);
    L.write(
      dst,
      lanes.length === 1 ? v : L.e({ op: 'splat', size: lanes.length as 2 | 3 | 4, value: v }),
      'u32',
      lanes,
    );
  };
}

const resinfo: Handler = (L, ins) => {
  const dst = op(ins, 0);
  const resOp = op(ins, 2);
  const kind = (ins.token >>> 11) & 3;
  const isUav = resOp.type === OT.uav;
  const { res, handle } = isUav ? L.resources.find('u', resOp) : textureFor(L, resOp);
  if (res.shape === 'buffer' || res.shape === 'raw' || res.shape === 'structured')
    return L.invalid('resinfo on a buffer');
  const mip = L.src(op(ins, 1), 'u32', [0]);
  const storage = isUav;
  if (res.texels) return resinfoResult(L, dst, resOp, kind, texelSize(L, res, handle, mip));
  const ms = res.shape === '2dms' || res.shape === '2dmsarray';
  const levels = storage || ms ? L.u32(1) : L.e({ op: 'image_query', image: handle, query: 'levels' });
  const inRange = L.bin('lt', mip, levels);
  const lvl = L.math('min', mip, L.bin('sub', levels, L.u32(1)));
  const size = L.e({ op: 'image_query', image: handle, query: 'size', ...(storage || ms ? {} : { level: lvl }) });
  const dims: ExprId[] = [];
  const sz = (k: number) => L.sel(inRange, L.swz(size, [k]), L.u32(0));
  const layers = () => L.sel(inRange, L.e({ op: 'image_query', image: handle, query: 'layers' }), L.u32(0));
  switch (res.shape) {
    case '1d':
      dims.push(sz(0), L.u32(0), L.u32(0));
      break;
    case '1darray':
      dims.push(sz(0), layers(), L.u32(0));
      break;
    case '2d':
    case '2dms':
    case 'cube':
      dims.push(sz(0), sz(1), L.u32(0));
      break;
    case '2darray':
    case '2dmsarray':
    case 'cubearray':
      dims.push(sz(0), sz(1), layers());
      break;
    case '3d':
      dims.push(sz(0), sz(1), sz(2));
      break;
  }
  resinfoResult(L, dst, resOp, kind, L.e({ op: 'compose', type: L.tVec4, parts: [...dims, levels] }));
};

/** resinfo's result from the (width, height, depth or layers, levels) words: as floats (kind 0), with
 * reciprocal sizes (kind 1, rcpFloat) or as integers (kind 2, _uint). */
function resinfoResult(L: Lifter, dst: Operand, resOp: Operand, kind: number, u4: ExprId): void {
  if (kind === 2) return writeSwizzled(L, dst, resOp, u4, 'u32');
  let f4 = L.e({ op: 'convert', to: 'f32', value: u4 });
  if (kind === 1) {
    const one = L.f.f32(1);
    const rcp = L.bin('div', L.e({ op: 'splat', size: 4, value: one }), f4);
    f4 = L.e({ op: 'compose', type: L.m.vec('f32', 4), parts: [L.swz(rcp, [0, 1, 2]), L.swz(f4, [3])] });
  }
  writeSwizzled(L, dst, resOp, f4, 'f32');
}

const bufinfo: Handler = (L, ins) => {
  const dst = op(ins, 0);
  const { res, handle } = viewFor(L, op(ins, 1));
  if (res.cls === 'g') return L.invalid('bufinfo on thread-group memory');
  if (res.shape !== 'buffer' && res.shape !== 'raw' && res.shape !== 'structured')
    return L.invalid('bufinfo on a texture');
  const words = L.e({ op: 'array_length', pointer: handle });
  const n =
    res.shape === 'raw'
      ? L.bin('mul', words, L.u32(4))
      : res.shape === 'structured'
        ? L.bin('div', L.bin('mul', words, L.u32(4)), L.u32(res.stride))
        : words;
  const lanes = L.lanes(dst);
  L.write(dst, lanes.length === 1 ? n : L.e({ op: 'splat', size: lanes.length as 2 | 3 | 4, value: n }), 'u32', lanes);
};

const sampleinfo: Handler = (L, ins) => {
  const dst = op(ins, 0);
  const resOp = op(ins, 1);
  if (resOp.type === OT.rasterizer) {
    const n = rasterizerSamples(L, L.resources.options.rasterizerSampleCount);
    const v4 = L.e({ op: 'compose', type: L.tVec4, parts: [L.u32(n), L.u32(0), L.u32(0), L.u32(0)] });
    if (((ins.token >>> 11) & 1) === 1) return writeSwizzled(L, dst, resOp, v4, 'u32');
    return writeSwizzled(L, dst, resOp, L.e({ op: 'convert', to: 'f32', value: v4 }), 'f32');
  }
  const { res, handle } = textureFor(L, resOp);
  const uint = ((ins.token >>> 11) & 1) === 1;
  const ms = res.shape === '2dms' || res.shape === '2dmsarray';
  const n = ms ? L.e({ op: 'image_query', image: handle, query: 'samples' }) : L.u32(0);
  const v4 = L.e({ op: 'compose', type: L.tVec4, parts: [n, L.u32(0), L.u32(0), L.u32(0)] });
  if (uint) writeSwizzled(L, dst, resOp, v4, 'u32');
  else writeSwizzled(L, dst, resOp, L.e({ op: 'convert', to: 'f32', value: v4 }), 'f32');
};

/** Direct3D's standard sample positions in 1/16 pixel, for 1, 2, 4, 8 and 16 samples in turn. */
const STANDARD_POSITIONS: readonly (readonly [number, number])[] = [
  [0, 0],
  [4, 4],
  [-4, -4],
  [-2, -6],
  [6, -2],
  [-6, 2],
  [2, 6],
  [1, -3],
  [-1, 3],
  [5, 1],
  [-3, -5],
  [-5, 5],
  [-7, -1],
  [3, 7],
  [7, -7],
  [1, 1],
  [-1, -3],
  [-3, 2],
  [4, -1],
  [-5, -2],
  [2, 5],
  [5, 3],
  [3, -5],
  [-2, 6],
  [0, -7],
  [-4, -6],
  [-6, 4],
  [-8, 0],
  [7, -4],
  [6, 7],
  [-7, -8],
];

/** samplepos: the standard pattern's position of a sample of a multisampled texture (zero out of range). */
const samplepos: Handler = (L, ins) => {
  const dst = op(ins, 0);
  const resOp = op(ins, 1);
  if (resOp.type === OT.rasterizer) {
    const n = rasterizerSamples(L, L.resources.options.rasterizerSampleCount);
    const idx = L.src(op(ins, 2), 'u32', [0]);
    const row = L.math('min', L.bin('add', L.u32(n - 1), idx), L.u32(STANDARD_POSITIONS.length - 1));
    const value = L.sel(L.bin('lt', idx, L.u32(n)), L.load(L.access(L.global(L.samplePositions()), row)), L.zeroVec4());
    return writeSwizzled(L, dst, resOp, value, 'u32');
  }
  const { res, handle } = textureFor(L, resOp);
  if (res.shape !== '2dms' && res.shape !== '2dmsarray')
    return L.invalid('samplepos on a texture that is not multisampled');
  L.note("samplepos gives Direct3D's standard sample pattern (a texture created with another pattern is the caller's)");
  const table = L.samplePositions();
  const idx = L.src(op(ins, 2), 'u32', [0]);
  const count = L.e({ op: 'image_query', image: handle, query: 'samples' });
  const pow2 = L.bin('eq', L.bin('and', count, L.bin('sub', count, L.u32(1))), L.u32(0));
  const valid = L.bin('and', L.bin('and', pow2, L.bin('le', count, L.u32(16))), L.bin('lt', idx, count));
  const row = L.math('min', L.bin('add', L.bin('sub', count, L.u32(1)), idx), L.u32(STANDARD_POSITIONS.length - 1));
  const value = L.sel(valid, L.load(L.access(L.global(table), row)), L.zeroVec4());
  writeSwizzled(L, dst, resOp, value, 'u32');
};

/** The rasterizer's sample count a lift assumes (LiftOptions.rasterizerSampleCount, default 1), noted. */
export function rasterizerSamples(
  L: { note(s: string): void; invalid(s: string): never },
  given: number | undefined,
): number {
  const n = given ?? 1;
  if (![1, 2, 4, 8, 16].includes(n))
    return L.invalid(`the rasterizerSampleCount option is ${n} (Direct3D's standard counts are 1, 2, 4, 8 and 16)`);
  L.note(
    `the rasterizer's sample count is ${n} (the lift option rasterizerSampleCount${given === undefined ? ', by default' : ''}: the pipeline's, which the program does not carry), its positions Direct3D's standard pattern`,
  );
  return n;
}

export function samplePositionWords(): number[] {
  const dv = new DataView(new ArrayBuffer(4));
  const bits = (v: number) => (dv.setFloat32(0, v, true), dv.getUint32(0, true));
  return STANDARD_POSITIONS.flatMap(([x, y]) => [bits(x / 16), bits(y / 16), 0, 0]);
}

const sync: Handler = (L, ins) => {
  const flags = (ins.token >>> 11) & 0xf;
  const execution = (flags & 1) !== 0;
  const workgroup = (flags & 2) !== 0;
  const storage = (flags & 0xc) !== 0;
  if (L.stage !== 'compute') {
    L.note('a memory barrier outside a compute program is dropped (WGSL has barriers in compute only)');
    return;
  }
  if (!execution) L.note('a memory fence without a group sync is written as a barrier (WGSL has no bare fence)');
  L.f.stmt({ op: 'barrier', workgroup: workgroup || !storage, storage, texture: storage, execution: true });
};

/**
 * Residency-feedback forms (`*_s`, tiled resources): the access itself as its plain opcode, and the
 * status destination written as 0, which `check_access_fully_mapped` reads as mapped (WebGPU has no
 * tiled resources: everything bound is resident). `_cl` level-of-detail clamps are dropped (WGSL
 * has none). Both are notes on the program.
 */
function feedback(base: number, clamp: boolean): Handler {
  return (L, ins) => {
    const status = op(ins, 1);
    L.note('residency feedback (*_s) reports every access as fully mapped');
    if (clamp) L.note('a level-of-detail clamp (*_cl) is ignored (WGSL has none)');
    const operands = ins.operands.filter((_, k) => k !== 1).slice(0, clamp ? -1 : undefined);
    const plain = { ...ins, opcode: base, operands };
    const h = MEMORY.get(base);
    if (!h) return L.invalid('feedback form of an opcode without a handler');
    h(L, plain);
    if (status.type !== OT.null) L.write(status, L.splat('u32', 0, L.lanes(status).length), 'u32', L.lanes(status));
  };
}

const checkAccessFullyMapped: Handler = (L, ins) => {
  const dst = op(ins, 0);
  const lanes = L.lanes(dst);
  const status = L.src(op(ins, 1), 'u32', lanes);
  L.write(dst, L.d3dBool(L.bin('eq', status, L.splat('u32', 0, lanes.length)), lanes.length), 'u32', lanes);
};

const FEEDBACK: readonly (readonly [number, number, boolean])[] = [
  [0xdb, 0x6d, false],
  [0xdc, 0x7e, false],
  [0xdd, 0x7f, false],
  [0xde, 0x80, false],
  [0xdf, 0x2d, false],
  [0xe0, 0x2e, false],
  [0xe1, 0xa3, false],
  [0xe2, 0xa5, false],
  [0xe3, 0xa7, false],
  [0xe4, 0x48, false],
  [0xe5, 0x47, false],
  [0xe6, 0x45, true],
  [0xe7, 0x4a, true],
  [0xe8, 0x49, true],
  [0xe9, 0x46, true],
];

export const MEMORY: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  ...FEEDBACK.map(([s, base, clamp]): [number, Handler] => [s, feedback(base, clamp)]),
  [0xea, checkAccessFullyMapped],
  [0x2d, ld(false)],
  [0x2e, ld(true)],
  [0x3d, resinfo],
  [0x45, sampleLike('sample')],
  [0x46, sampleLike('sample_c')],
  [0x47, sampleLike('sample_c_lz')],
  [0x48, sampleLike('sample_l')],
  [0x49, sampleLike('sample_d')],
  [0x4a, sampleLike('sample_b')],
  [0x6d, sampleLike('gather')],
  [0x6e, samplepos],
  [0x6f, sampleinfo],
  [0x79, bufinfo],
  [0x7e, sampleLike('gather_c')],
  [0x7f, sampleLike('gather_po')],
  [0x80, sampleLike('gather_po_c')],
  [0xa3, ldUavTyped],
  [0xa4, storeUavTyped],
  [0xa5, ldRaw(false)],
  [0xa6, storeRaw(false)],
  [0xa7, ldRaw(true)],
  [0xa8, storeRaw(true)],
  [0xa9, atomic('and', false)],
  [0xaa, atomic('or', false)],
  [0xab, atomic('xor', false)],
  [0xac, atomic('compare_exchange', false)],
  [0xad, atomic('add', false)],
  [0xae, atomic('imax', false)],
  [0xaf, atomic('imin', false)],
  [0xb0, atomic('umax', false)],
  [0xb1, atomic('umin', false)],
  [0xb2, counterUpdate(true)],
  [0xb3, counterUpdate(false)],
  [0xb4, atomic('add', true)],
  [0xb5, atomic('and', true)],
  [0xb6, atomic('or', true)],
  [0xb7, atomic('xor', true)],
  [0xb8, atomic('exchange', true)],
  [0xb9, atomic('compare_exchange', true)],
  [0xba, atomic('imax', true)],
  [0xbb, atomic('imin', true)],
  [0xbc, atomic('umax', true)],
  [0xbd, atomic('umin', true)],
  [0xbe, sync],
]);
