// `lod` (SM4.1+, CalculateLevelOfDetail[Unclamped]; D3D11.3 §22 "lod"): the level of detail a sample
// at these coordinates would use, as (clamped, unclamped, 0, 0) swizzled by the resource operand.
// WGSL has no query-LOD builtin, so the lifter computes it (and the program says so in a note): the
// coarse screen-space derivatives of the coordinates, scaled by the size of level 0, give the
// footprint's two axes in texels; the unclamped level is log2 of the longer (0.5 * log2 of the larger
// squared length, -inf where the footprint is zero or denormal), the clamped one that level clamped
// to the texture's levels [0, levels - 1]. A cube map's direction is projected on the face its major
// axis selects (ties: z over y over x), and the derivatives of the face coordinates are taken by the
// quotient rule. Direct3D leaves the exact level to the implementation within its tolerance; what
// this computation does not see — the sampler's LOD bias, its MinLOD/MaxLOD and anisotropy (Direct3D
// takes the shorter axis of an anisotropic footprint) — is named in the note. The executor runs the
// same IR, so it and a GPU differ only by their log2 and derivative arithmetic.

import type { ExprId } from '../ir/ir.js';
import type { Instruction, Operand } from '../sm4/types.js';
import type { Handler } from './alu.js';
import { textureFor, writeSwizzled } from './memory.js';
import type { ExprOps } from './semantics.js';

const F32_MIN_NORMAL = 0x00800000;
const F32_NEG_INF = 0xff800000;
const F32_HALF = 0x3f000000;

const op = (ins: Instruction, k: number): Operand => {
  const o = ins.operands[k];
  if (!o) throw new Error(`operand ${k} missing after decode`);
  return o;
};

/** The note a program computing a level of detail carries. */
export const LOD_NOTE =
  'lod is computed (WGSL has no query-LOD builtin): log2 of the longer axis of the coarse-derivative footprint in ' +
  'texels of level 0, clamped to the texture’s levels; the sampler’s LOD bias and MinLOD/MaxLOD and anisotropy are ' +
  'not applied, and Direct3D’s exact level is implementation-defined';

/** Coordinate components a texture shape's level of detail depends on (cube: its own projection). */
export function footprintLanes(shape: string): number | 'cube' | undefined {
  switch (shape) {
    case '1d':
    case '1darray':
      return 1;
    case '2d':
    case '2darray':
      return 2;
    case '3d':
      return 3;
    case 'cube':
    case 'cubearray':
      return 'cube';
    default:
      return undefined;
  }
}

const lod: Handler = (L, ins) => {
  if (L.stage !== 'pixel') L.invalid('lod outside a pixel program (it needs screen-space derivatives)');
  const dst = op(ins, 0);
  const coordOp = op(ins, 1);
  const resOp = op(ins, 2);
  const { res, handle } = textureFor(L, resOp);
  L.resources.find('s', op(ins, 3)); // the sampler must be declared
  const lanes = footprintLanes(res.shape);
  if (lanes === undefined) return L.invalid(`lod on a ${res.shape} resource`);
  L.note(LOD_NOTE);
  const coord = L.src(coordOp, 'f32', lanes === 'cube' ? [0, 1, 2] : [0, 1, 2].slice(0, lanes));
  const { clamped, unclamped } = levelOfDetail(L, handle, coord, lanes);
  const zero = L.f.f32(0);
  const value = L.e({ op: 'compose', type: L.m.vec('f32', 4), parts: [clamped, unclamped, zero, zero] });
  writeSwizzled(L, dst, resOp, value, 'f32');
};

/** What the computation needs of a lifter (the SM4/5 Lifter and the DXIL lifter both have it). */
export type LodOps = ExprOps & { swz(vector: ExprId, pattern: number[]): ExprId };

/**
 * The level of detail of a sample of `image` at `coord` (f32 lanes: `lanes` of them, three for a
 * cube), as the header describes: the unclamped level and that level clamped to the texture's levels.
 * The DXIL lifter's CalculateLOD calls it too, so a DXBC and a DXIL build compute the same words.
 */
export function levelOfDetail(
  L: LodOps,
  image: ExprId,
  coord: ExprId,
  lanes: number | 'cube',
  derivative: Derivative = pixelDerivative(L),
): { clamped: ExprId; unclamped: ExprId } {
  const size = L.e({
    op: 'convert',
    to: 'f32',
    value: L.e({ op: 'image_query', image, query: 'size', level: L.f.i32(0) }),
  });
  const rho2 =
    lanes === 'cube' ? cubeFootprint(L, coord, size, derivative) : flatFootprint(L, coord, size, lanes, derivative);
  const r2 = L.once(rho2, 'lod_rho2');
  const unclamped = L.once(
    L.sel(
      L.bin('ge', r2, L.splat('f32', F32_MIN_NORMAL, 1)),
      L.bin('mul', L.splat('f32', F32_HALF, 1), L.math('log2', r2)),
      L.splat('f32', F32_NEG_INF, 1),
    ),
    'lod',
  );
  const levels = L.e({ op: 'convert', to: 'f32', value: L.e({ op: 'image_query', image, query: 'levels' }) });
  const clamped = L.math('clamp', unclamped, L.f.f32(0), L.bin('sub', levels, L.f.f32(1)));
  return { clamped, unclamped };
}

/** The coarse derivative of an f32 value of `n` lanes along an axis. A pixel program's is the IR's
 * `derivative`; a compute program's (Shader Model 6.6) is taken through its quads (dxil/quad.ts). */
export type Derivative = (axis: 'x' | 'y', value: ExprId, n: number) => ExprId;

function pixelDerivative(L: LodOps): Derivative {
  return (axis, value) => L.e({ op: 'derivative', axis, control: 'coarse', value });
}

/** The larger squared length of the footprint's axes, for 1 to 3 plain coordinates. */
function flatFootprint(L: LodOps, coordIn: ExprId, size: ExprId, n: number, derivative: Derivative): ExprId {
  const pick = [0, 1, 2].slice(0, n);
  const coord = L.once(coordIn, 'lod_coord');
  const texels = n === 3 ? size : L.swz(size, pick);
  const squared = (axis: 'x' | 'y'): ExprId => {
    const t = L.once(L.bin('mul', derivative(axis, coord, n), texels), `lod_d${axis}`);
    return n === 1 ? L.bin('mul', t, t) : L.math('dot', t, t);
  };
  return L.math('max', squared('x'), squared('y'));
}

/** The same for a cube map: the derivatives of the face coordinates the direction selects. */
function cubeFootprint(L: LodOps, dir: ExprId, size: ExprId, derivative: Derivative): ExprId {
  const c = L.once(dir, 'lod_dir');
  const a = L.once(L.math('abs', c), 'lod_abs');
  const [ax, ay, az] = [0, 1, 2].map((k) => L.swz(a, [k])) as [ExprId, ExprId, ExprId];
  const zMajor = L.once(L.bin('and', L.bin('ge', az, ax), L.bin('ge', az, ay)), 'lod_zmajor');
  const yMajor = L.once(L.bin('ge', ay, ax), 'lod_ymajor');
  // (major, s, t) components of a vector: z major: (z, x, y); y major: (y, x, z); x major: (x, z, y).
  const pick = (v: ExprId): [ExprId, ExprId, ExprId] => {
    const k = (i: number) => L.swz(v, [i]);
    const choose = (z: number, y: number, x: number) => L.sel(zMajor, k(z), L.sel(yMajor, k(y), k(x)));
    return [choose(2, 1, 0), choose(0, 0, 2), choose(1, 2, 1)];
  };
  const [m, s, t] = pick(c);
  const major = L.once(m, 'lod_major');
  const am = L.once(L.math('abs', major), 'lod_abs_major');
  const negative = L.bin('lt', major, L.f.f32(0));
  const u = L.once(L.bin('div', s, am), 'lod_u');
  const v = L.once(L.bin('div', t, am), 'lod_v');
  const half = L.once(L.bin('mul', L.swz(size, [0]), L.f.f32(0.5)), 'lod_half_size');
  const squared = (axis: 'x' | 'y'): ExprId => {
    const d = L.once(derivative(axis, c, 3), `lod_d${axis}`);
    const [dm, ds, dt] = pick(d);
    // d|m| = sign(m) dm; d(s/|m|) = (ds - (s/|m|) d|m|) / |m|, in texels: times size / 2
    const dam = L.once(L.sel(negative, L.e({ op: 'unary', fn: 'neg', arg: dm }), dm), 'lod_dmajor');
    const du = L.once(L.bin('mul', L.bin('div', L.bin('sub', ds, L.bin('mul', u, dam)), am), half), 'lod_du');
    const dv = L.once(L.bin('mul', L.bin('div', L.bin('sub', dt, L.bin('mul', v, dam)), am), half), 'lod_dv');
    return L.bin('add', L.bin('mul', du, du), L.bin('mul', dv, dv));
  };
  return L.math('max', squared('x'), squared('y'));
}

export const LOD: ReadonlyMap<number, Handler> = new Map<number, Handler>([[0x6c, lod]]);
