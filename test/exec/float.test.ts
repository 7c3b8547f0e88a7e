// Direct3D 11's float rules (src/exec/float.ts), case by case from the functional specification's
// tables (D3D11.3 §3.1 floating-point rules; §22 ftoi, ftou, rcp, rsq, exp, log, f32tof16, f16tof32).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  d3dMax,
  d3dMin,
  exp2,
  f16BitsToF32,
  f32ToF16Bits,
  flush,
  ftoi,
  ftou,
  log2,
  rcp,
  roundEven,
  rsq,
  saturate,
} from '../../src/exec/float.js';

const DENORM = 2 ** -130;

test('denormals flush to zero of the same sign; normals stay', () => {
  assert.ok(Object.is(flush(DENORM), 0));
  assert.ok(Object.is(flush(-DENORM), -0));
  assert.equal(flush(2 ** -126), 2 ** -126);
  assert.equal(flush(1.5), 1.5);
});

test('min/max: a NaN operand yields the other; two NaNs yield NaN', () => {
  assert.equal(d3dMin(NaN, 3), 3);
  assert.equal(d3dMin(3, NaN), 3);
  assert.equal(d3dMax(NaN, -3), -3);
  assert.ok(Number.isNaN(d3dMin(NaN, NaN)));
  assert.equal(d3dMin(-Infinity, 1), -Infinity);
  assert.equal(d3dMax(Infinity, 1), Infinity);
});

test('saturate: NaN is 0, clamps to [0, 1]', () => {
  assert.equal(saturate(NaN), 0);
  assert.equal(saturate(-5), 0);
  assert.equal(saturate(5), 1);
  assert.equal(saturate(0.25), 0.25);
});

test('ftoi/ftou: toward zero, NaN 0, saturating at the range ends', () => {
  assert.equal(ftoi(-1.9), -1);
  assert.equal(ftoi(NaN), 0);
  assert.equal(ftoi(Infinity), 2147483647);
  assert.equal(ftoi(-Infinity), -2147483648);
  assert.equal(ftoi(2147483648), 2147483647);
  assert.equal(ftou(-0.5), 0);
  assert.equal(ftou(-Infinity), 0);
  assert.equal(ftou(NaN), 0);
  assert.equal(ftou(4294967296), 4294967295);
  assert.equal(ftou(4294967040), 4294967040);
});

test('rcp, rsq, exp, log at their edges', () => {
  assert.equal(rcp(0), Infinity);
  assert.equal(rcp(-0), -Infinity);
  assert.equal(rcp(DENORM), Infinity); // a denormal input is flushed first
  assert.ok(Object.is(rcp(-Infinity), -0));
  assert.equal(rsq(0), Infinity);
  assert.equal(rsq(-0), -Infinity);
  assert.ok(Number.isNaN(rsq(-1)));
  assert.equal(rsq(Infinity), 0);
  assert.equal(exp2(-Infinity), 0);
  assert.equal(exp2(Infinity), Infinity);
  assert.equal(exp2(200), Infinity); // overflow of binary32
  assert.equal(log2(0), -Infinity);
  assert.equal(log2(-0), -Infinity);
  assert.ok(Number.isNaN(log2(-1)));
  assert.equal(log2(Infinity), Infinity);
});

test('round_ne: halves go to the even neighbour, the sign of zero kept', () => {
  assert.equal(roundEven(0.5), 0);
  assert.equal(roundEven(1.5), 2);
  assert.equal(roundEven(2.5), 2);
  assert.equal(roundEven(-2.5), -2);
  assert.ok(Object.is(roundEven(-0.4), -0));
});

test('f32tof16 rounds to nearest even and overflows to infinity; f16tof32 is exact', () => {
  assert.equal(f32ToF16Bits(1), 0x3c00);
  assert.equal(f32ToF16Bits(65504), 0x7bff);
  assert.equal(f32ToF16Bits(65520), 0x7c00); // halfway to 65536 rounds up to infinity
  assert.equal(f32ToF16Bits(1 + 2 ** -11), 0x3c00); // a tie goes to the even mantissa
  assert.equal(f32ToF16Bits(1 + 3 * 2 ** -11), 0x3c02);
  assert.equal(f32ToF16Bits(2 ** -24), 0x0001); // smallest f16 denormal
  assert.equal(f32ToF16Bits(-Infinity), 0xfc00);
  assert.equal(f32ToF16Bits(NaN) & 0x7c00, 0x7c00);
  assert.equal(f16BitsToF32(0x0001), 2 ** -24);
  assert.equal(f16BitsToF32(0xc000), -2);
  assert.ok(Number.isNaN(f16BitsToF32(0x7e00)));
});
