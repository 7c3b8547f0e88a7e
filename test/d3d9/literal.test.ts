// def literals as D3DDisassemble prints them: the Microsoft C runtime's %.9g with three exponent digits.
// Expected strings are C's %.9g (checked with another printf) with the exponent widened to three digits, as
// the oracle shows (1e+010, 9.99999975e-006, -1.55009923e-006 in own-d3d9 listings).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFloat9g } from '../../src/d3d9/literal.js';

const CASES: readonly (readonly [number, string])[] = [
  [0x00000000, '0'],
  [0x80000000, '-0'],
  [0x3f800000, '1'],
  [0x3dcccccd, '0.100000001'],
  [0x501502f9, '1e+010'],
  [0x3727c5ac, '9.99999975e-006'],
  [0x477fe000, '65504'],
  [0x00000001, '1.40129846e-045'],
  [0x7f7fffff, '3.40282347e+038'],
  [0x4ceb79a3, '123456792'],
  [0x4e6e6b28, '1e+009'],
  [0x38d1b717, '9.99999975e-005'],
  [0x3a83126f, '0.00100000005'],
  [0xc0490fdb, '-3.14159274'],
];

test('%.9g of float bit patterns, Microsoft exponent width', () => {
  for (const [bits, text] of CASES) assert.equal(formatFloat9g(bits), text, `0x${bits.toString(16)}`);
});
