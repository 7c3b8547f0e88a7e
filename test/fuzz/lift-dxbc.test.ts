// Fuzz findings of the SM4/5 lifter (npm run fuzz -- lift-dxbc), each from its shrunk reproducer: a
// committed fixture and the mutation the campaign found. Before the fix each lifted to IR that does not
// validate; now each is refused by name where the declaration or operand is read (E602).

import { test } from 'node:test';
import { lift } from '../../src/lift/lift.js';
import { assemble } from '../../src/asm/index.js';
import { OP, T, computeProgram, imm, ins, operand, storeRaw } from '../exec/asm.js';
import { mutant, refuses, typedOnly } from './repro.js';

const cases: { name: string; seed: string; ops: Parameters<typeof mutant>[2]; reason: RegExp }[] = [
  {
    name: 'sample through a sampler declared mode_comparison',
    seed: 'test/fixtures/exec/ps_sample_basic-main-ps_5_0.dxbc',
    ops: [{ op: 'flip', part: 8, r: 980632325, bits: 8 }],
    reason: /sample through s0, which is declared mode_comparison/,
  },
  {
    name: 'sample_c_lz through a sampler not declared mode_comparison',
    seed: 'test/fixtures/oracle/own/fx_ssao/main-ps_4_0/shader.dxbc',
    ops: [{ op: 'add', part: 3, r: 3211204664, delta: -1 }],
    reason: /sample_c_lz through s0, which is not declared mode_comparison/,
  },
  {
    name: 'a destination with an empty write mask (a swizzle of 0 components)',
    seed: 'test/fixtures/lift/ps_msad/main-ps_5_0/shader.dxbc',
    ops: [{ op: 'flip', part: 0, r: 116284912, bits: 16 }],
    reason: /a destination with an empty write mask \(mov/,
  },
  {
    name: 'store_uav_typed through a raw view',
    seed: 'test/fixtures/oracle/own/cs_basic/main-cs_4_1/shader.dxbc',
    ops: [{ op: 'flip', part: 8, r: 1109131628, bits: 2 }],
    reason: /store_uav_typed on a raw or structured view/,
  },
  {
    name: 'an input declared with a swizzle (a vector of 0 lanes)',
    seed: 'test/fixtures/debug/corpus/WidgetPS__e0e8ebf0.dxbc',
    ops: [{ op: 'flip', part: 1, r: 3038393448, bits: 4 }],
    reason: /a register declared with a swizzle, not a write mask \(dcl_input_ps/,
  },
];

for (const c of cases)
  test(`lift-dxbc: ${c.name} is E602`, () => {
    const b = mutant('lift-dxbc', c.seed, c.ops);
    refuses(() => lift(b), 'E602_LIFT_INVALID', c.reason);
    typedOnly('lift-dxbc', b);
  });

test('lift-dxbc: a register declared twice is E602 (IR: a binding used by two globals)', () => {
  // Issue 19's "a binding used by two globals (s#, t#, u#, cb#)", made by hand: u0 declared twice. The
  // second declaration made a second global on @group(3) @binding(0).
  const b = computeProgram([
    ins(OP.dcl_uav_raw, [operand(T.uav, [0], { mode: 'none' })]),
    storeRaw(imm(0), imm(1), 'x'),
  ]);
  refuses(() => lift(b), 'E602_LIFT_INVALID', /u0 is declared twice \(dcl_uav_raw/);
});

test('lift-dxbc: ld through a cube texture is E602 (IR: binary lt of widths 3 and 2)', () => {
  // The campaign (issue 19, seed 1, wgsl mutant 748) flipped angle's passthroughrgb2darrayui11ps's
  // dcl_resource_texture2darray into texturecubearray: ld's range check compared three coordinates
  // with a cube's two dimensions. Direct3D's ld reads no cube; the same program through a 2D texture lifts.
  const listing = (dim: string): Uint8Array =>
    assemble(
      `ps_4_0\ndcl_resource_${dim} (float,float,float,float) t0\ndcl_output o0.xyzw\nld o0.xyzw, l(0, 0, 0, 0), t0.xyzw\nret \n`,
    ).container;
  lift(listing('texture2d'));
  for (const dim of ['texturecube', 'texturecubearray']) {
    const b = listing(dim);
    refuses(() => lift(b), 'E602_LIFT_INVALID', new RegExp(`ld on a ${dim.slice(7)} texture`));
    typedOnly('lift-dxbc', b);
  }
});
