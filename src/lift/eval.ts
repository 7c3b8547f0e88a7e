// Pull-model interpolation of SM5 (D3D11.3 §22 "eval_centroid", "eval_sample_index", "eval_snapped"):
// a pixel input evaluated somewhere else than where the program's declaration interpolates it. WGSL
// has no such builtins, so each is written out, with a note on the program naming what it assumes:
// - eval_centroid and eval_sample_index read the input itself. That is what they evaluate at one
//   sample per pixel: the centroid of a covered pixel's only sample, and that sample, lie at the pixel
//   centre, where the input is interpolated. The rasterizer's sample count is the pipeline's, not the
//   program's; under multisampling the results differ (the note says so).
// - eval_snapped(v, offset) moves from the pixel centre by the offset's low four bits of x and y
//   (signed, in 1/16 pixel): v + ddx_fine(v) * ox + ddy_fine(v) * oy. For an input interpolated
//   linearly (noperspective) or held constant the attribute is a plane over the triangle, so this is
//   its value up to f32 rounding; for a perspective-correct input it is the first-order step (noted).
// The executor runs the same IR, fine derivatives across the quad included.

import type { ExprId } from '../ir/ir.js';
import type { Instruction, Operand } from '../sm4/types.js';
import type { Handler } from './alu.js';
import { OT, type Lifter } from './state.js';

const op = (ins: Instruction, k: number): Operand => {
  const o = ins.operands[k];
  if (!o) throw new Error(`operand ${k} missing after decode`);
  return o;
};
const sat = (ins: Instruction): boolean => ((ins.token >>> 13) & 1) === 1;

export const AT_CENTRE_NOTE =
  'eval_centroid and eval_sample_index read the input as interpolated at the pixel centre: exact at one sample ' +
  'per pixel, different under multisampling (the rasterizer’s sample count is the pipeline’s, not the program’s)';
export const SNAPPED_NOTE =
  'eval_snapped steps from the pixel centre by the input’s fine screen derivatives times the offset (1/16 pixel): ' +
  'exact up to f32 rounding for linear (noperspective) and constant inputs, first-order for perspective-correct ones';

/** The input operand an eval_* reads, as f32 lanes of the destination. */
function input(L: Lifter, ins: Instruction): { d: Operand; lanes: number[]; v: ExprId } {
  if (L.stage !== 'pixel') return L.invalid('pull-model interpolation outside a pixel program');
  const d = op(ins, 0);
  const s = op(ins, 1);
  if (s.type !== OT.input) return L.invalid('eval_* of a register that is not a pixel input');
  const lanes = L.lanes(d);
  return { d, lanes, v: L.src(s, 'f32', lanes) };
}

const atCentre: Handler = (L, ins) => {
  const { d, lanes, v } = input(L, ins);
  L.note(AT_CENTRE_NOTE);
  L.write(d, v, 'f32', lanes, sat(ins));
};

const snapped: Handler = (L, ins) => {
  const { d, lanes, v } = input(L, ins);
  L.note(SNAPPED_NOTE);
  const n = lanes.length;
  const value = L.once(v, 'eval_v');
  // the low four bits of x and y, sign-extended, in sixteenths of a pixel
  const raw = L.src(op(ins, 2), 'i32', [0, 1]);
  const shift = L.e({ op: 'splat', size: 2, value: L.u32(28) });
  const signed = L.bin('shr', L.bin('shl', raw, shift), shift);
  const sixteenth = L.e({ op: 'splat', size: 2, value: L.f.f32(1 / 16) });
  const offset = L.once(L.bin('mul', L.e({ op: 'convert', to: 'f32', value: signed }), sixteenth), 'eval_offset');
  const along = (axis: 'x' | 'y', k: number): ExprId => {
    const step = L.swz(offset, [k]);
    const by = n === 1 ? step : L.e({ op: 'splat', size: n as 2 | 3 | 4, value: step });
    return L.bin('mul', L.e({ op: 'derivative', axis, control: 'fine', value }), by);
  };
  L.write(d, L.bin('add', L.bin('add', value, along('x', 0)), along('y', 1)), 'f32', lanes, sat(ins));
};

export const EVAL: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [0xcb, snapped],
  [0xcc, atCentre],
  [0xcd, atCentre],
]);
