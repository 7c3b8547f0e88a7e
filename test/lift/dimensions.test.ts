// Resource dimension and kind rules, checked where the instruction is read (src/lift/memory.ts
// sampleDimensionRule, ld, atomic; src/lift/resources.ts dcl_uav_typed): each family is a program
// Direct3D accepts (it lifts, and its IR validates) and the same program with one declaration's
// dimension, a sampler or a view's return type changed to one the instruction does not take
// (the D3D11.3 functional spec's instruction reference), which is E602 naming the instruction —
// before these rules, each of those lifted (gather of a 3D texture, comparison of a 3D texture,
// gather4_po of a cube, ldms of a buffer, atomic add on a float view) or was refused as a lifter
// limitation (E601: a sample of a multisampled texture, a cube or multisampled UAV).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { assemble } from '../../src/asm/index.js';
import { refuses, typedOnly } from '../fuzz/repro.js';

const PS = (decl: string, body: string): Uint8Array =>
  assemble(
    `ps_5_0\ndcl_sampler s0, mode_default\ndcl_sampler s1, mode_comparison\n${decl}\n` +
      `dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n${body}\nret \n`,
  ).container;

const texture = (dim: string): string =>
  `dcl_resource_${dim}${dim.includes('ms') ? '(4)' : ''} (float,float,float,float) t0`;

/** `body` through each of `good` lifts (and validates); through each of `bad` it is E602 matching `reason`. */
function family(body: string, good: string[], bad: string[], reason: (dim: string) => RegExp, decl = texture): void {
  for (const dim of good) {
    const p = lift(PS(decl(dim), body));
    assert.deepEqual(validateModule(p.module), [], `${body} through ${dim}`);
  }
  for (const dim of bad) {
    const b = PS(decl(dim), body);
    refuses(() => lift(b), 'E602_LIFT_INVALID', reason(dim));
    typedOnly('lift-dxbc', b);
  }
}

const SAMPLES = [
  'sample o0.xyzw, v0.xyzw, t0.xyzw, s0',
  'sample_l o0.xyzw, v0.xyzw, t0.xyzw, s0, l(0.0)',
  'sample_b o0.xyzw, v0.xyzw, t0.xyzw, s0, l(0.0)',
  'sample_d o0.xyzw, v0.xyzw, t0.xyzw, s0, v0.xyzw, v0.xyzw',
  'sample_c o0.xyzw, v0.xyzw, t0.xxxx, s1, l(0.5)',
  'sample_c_lz o0.xyzw, v0.xyzw, t0.xxxx, s1, l(0.5)',
];

test('no sample of a multisampled texture', () => {
  for (const body of SAMPLES)
    family(
      body,
      ['texture2d'],
      ['texture2dms'], // a Texture2DMSArray is refused at its declaration (E601: no WGSL counterpart)
      (dim) => new RegExp(`of a ${dim.slice(7)} texture`),
    );
});

test('gather4 and gather4_c of 2D, 2D array and cube textures only; gather4_po and gather4_po_c of 2D ones only', () => {
  const cubes = ['texturecube', 'texturecubearray'];
  for (const body of ['gather4 o0.xyzw, v0.xyzw, t0.xyzw, s0.x', 'gather4_c o0.xyzw, v0.xyzw, t0.xyzw, s1.x, l(0.5)'])
    family(
      body,
      ['texture2d', 'texture2darray', ...cubes],
      ['texture1d', 'texture1darray', 'texture3d'],
      (dim) => new RegExp(`gather4(_c)? of a ${dim.slice(7)} texture`),
    );
  for (const body of [
    'gather4_po o0.xyzw, v0.xyzw, l(1, 1, 0, 0), t0.xyzw, s0.x',
    'gather4_po_c o0.xyzw, v0.xyzw, l(1, 1, 0, 0), t0.xyzw, s1.x, l(0.5)',
  ])
    family(
      body,
      ['texture2d', 'texture2darray'],
      ['texture1d', 'texture1darray', 'texture3d', ...cubes],
      (dim) => new RegExp(`gather4_po(_c)? of a ${dim.slice(7)} texture`),
    );
});

test('no comparison sampling of a 3D texture', () => {
  for (const body of SAMPLES.slice(4))
    family(body, ['texture2d', 'texturecube'], ['texture3d'], () => /of a 3d texture \(comparison sampling/);
});

test('no aoffimmi on a cube texture', () => {
  for (const body of [
    'sample_aoffimmi(1,1,1) o0.xyzw, v0.xyzw, t0.xyzw, s0',
    'gather4_aoffimmi(1,1,0) o0.xyzw, v0.xyzw, t0.xyzw, s0.x',
  ])
    family(
      body,
      ['texture2d', 'texture2darray'],
      ['texturecube', 'texturecubearray'],
      (dim) => new RegExp(`with aoffimmi on a ${dim.slice(7)} texture`),
    );
});

test('ldms (ld2dms) of a multisampled texture only', () => {
  family(
    'ldms o0.xyzw, l(0, 0, 0, 0), t0.xyzw, l(0)',
    ['texture2dms'],
    ['buffer', 'texture2d', 'texture3d'],
    (dim) => new RegExp(`ldms on a ${dim === 'buffer' ? 'buffer' : dim.slice(7)} resource`),
  );
});

test('atomic arithmetic on a typed view of 32-bit integers only; a float view takes the exchanges', () => {
  const uav = (fmt: string) => (dim: string) => `dcl_uav_typed_${dim} (${fmt},${fmt},${fmt},${fmt}) u1`;
  for (const body of ['atomic_iadd u1, l(0, 0, 0, 0), l(1)', 'imm_atomic_umax r0.x, u1, l(0, 0, 0, 0), l(1)']) {
    family(body, ['buffer', 'texture2d', 'texture3d'], [], () => /never/, uav('uint'));
    family(body, [], ['buffer', 'texture2d', 'texture3d'], () => /on a float typed view/, uav('float'));
  }
  family('imm_atomic_exch r0.x, u1, l(0, 0, 0, 0), l(1)', ['buffer', 'texture2d'], [], () => /never/, uav('float'));
});

test('no cube or multisampled UAV', () => {
  const uav = (dim: string) => `dcl_uav_typed_${dim} (float,float,float,float) u1`;
  family(
    'store_uav_typed u1.xyzw, l(0, 0, 0, 0), v0.xyzw',
    ['texture2d', 'texture2darray', 'texture3d'],
    ['texturecube', 'texturecubearray', 'texture2dms', 'texture2dmsarray'],
    (dim) => new RegExp(`dcl_uav_typed u1 of dimension ${dim.slice(7)}`),
    uav,
  );
});
