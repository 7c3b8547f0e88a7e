// The literal formatter against Microsoft's rules (printf %f with the UCRT's exact, ties-to-even
// rounding; decimal integers within ±10000, 0x%08x beyond; the untyped per-lane guess), on -0,
// denormals, infinities, NaN payloads, ties and exponent edges. Expected strings are those the
// oracle listings print (e.g. 0.007812 for 1/128, FLT_MAX with all its digits, 1.#INF00 in d()).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDouble, formatFixed, formatFloatBits, formatInt, formatUntyped } from '../../src/disasm/literal.js';

test('%f: exact decimal expansion, ties to even', () => {
  assert.equal(formatFixed(0.0078125), '0.007812'); // 1/128, a tie: even digit kept
  assert.equal(formatFixed(0.0234375), '0.023438'); // 3/128: tie, 7 -> 8
  assert.equal(formatFixed(18.8515625), '18.851562');
  assert.equal(formatFixed(-0.0078125), '-0.007812');
  assert.equal(formatFixed(0.1), '0.100000');
  assert.equal(formatFixed(1 / 3), '0.333333');
  assert.equal(formatFixed(2.5), '2.500000');
  assert.equal(formatFixed(0.0000005), '0.000000'); // the double is just below the tie
  assert.equal(formatFixed(0.00000050000001), '0.000001');
});

test('%f: signs, zero and large values with all their digits', () => {
  assert.equal(formatFixed(0), '0.000000');
  assert.equal(formatFixed(-0), '-0.000000');
  assert.equal(formatFixed(-1e-9), '-0.000000');
  assert.equal(formatFloatBits(0x7f7fffff), '340282346638528859811704183484516925440.000000'); // FLT_MAX
  assert.equal(formatFixed(1e21), '1000000000000000000000.000000');
  assert.equal(formatFixed(2 ** 70), '1180591620717411303424.000000');
});

test('infinities and NaNs in the old CRT spelling', () => {
  assert.equal(formatFloatBits(0x7f800000), '1.#INF00');
  assert.equal(formatFloatBits(0xff800000), '-1.#INF00');
  assert.equal(formatFloatBits(0x7fc00000), '1.#QNAN0');
  assert.equal(formatDouble(0, 0x7ff00000), '1.#INF00');
});

test('integers: decimal within ±10000, hexadecimal beyond', () => {
  assert.equal(formatInt(0), '0');
  assert.equal(formatInt(10000), '10000');
  assert.equal(formatInt(-10000), '-10000');
  assert.equal(formatInt(10001), '0x00002711');
  assert.equal(formatInt(0xffffffff), '-1');
  assert.equal(formatInt(0xc1000000), '0xc1000000');
  assert.equal(formatInt(0x00800000), '0x00800000');
});

test('untyped lanes: zero, denormals, inf and NaN as integers; -0 and normal floats as %f', () => {
  assert.equal(formatUntyped(0), '0');
  assert.equal(formatUntyped(0x80000000), '-0.000000');
  assert.equal(formatUntyped(8), '8'); // a denormal pattern: an integer
  assert.equal(formatUntyped(0x0074bb0a), '0x0074bb0a'); // a large denormal: hexadecimal
  assert.equal(formatUntyped(0x7f800000), '0x7f800000'); // +inf
  assert.equal(formatUntyped(0xffc10000), '0xffc10000'); // a NaN payload
  assert.equal(formatUntyped(0xffffffff), '-1'); // NaN bits, small as an integer
  assert.equal(formatUntyped(0x3f800000), '1.000000');
  assert.equal(formatUntyped(0x00800000), '0.000000'); // FLT_MIN is normal: %f
});

test('doubles: low word first', () => {
  assert.equal(formatDouble(0, 0x40040000), '2.500000');
  assert.equal(formatDouble(0x54442d18, 0x400921fb), '3.141593');
  assert.equal(formatDouble(0, 0x80000000), '-0.000000');
});
