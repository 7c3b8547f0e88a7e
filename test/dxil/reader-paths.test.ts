// The module reader's fast paths against their definitions: integer constants worked out in numbers
// (constants.ts) against BigInt.asIntN of the sign-rotated operand, on the edges of every width
// class, and names from operand lists (module.ts chars) against one character a low byte.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BitBlock, BitRecord } from '../../src/dxil/bitstream.js';
import { readConstants } from '../../src/dxil/constants.js';
import { Constant, Type, type Value } from '../../src/dxil/ir.js';
import { ModuleReader, chars, signRotated } from '../../src/dxil/module.js';

/** The INTEGER constants (code 4) of `operands` read as a constants block of type iN. */
function readInts(width: number, operands: readonly (number | bigint)[]): bigint[] {
  const mr = new ModuleReader({ part: 'DXIL', offset: 0 });
  const t = new Type('int');
  t.width = width;
  mr.m.types.push(t);
  const items: BitRecord[] = [{ code: 1, ops: [0], abbrev: 3 }];
  for (const v of operands) {
    if (typeof v === 'bigint') items.push({ code: 4, ops: [Number(v)], big: new Map([[0, v]]), abbrev: 3 });
    else items.push({ code: 4, ops: [v], abbrev: 3 });
  }
  const block: BitBlock = { id: 11, items, bitOffset: 0 };
  const values: Value[] = [];
  readConstants(mr, block, values, []);
  return values.map((c) => {
    assert.ok(c instanceof Constant && c.ck === 'int');
    return c.bits;
  });
}

test('dxil reader: integer constants equal BigInt.asIntN of the sign-rotated operand', () => {
  const operands: number[] = [0, 1, 2, 3, 4, 5, 126, 127, 128, 129, 254, 255, 256, 257, 511, 512, 65535, 65536];
  for (const e of [31, 32, 33, 52, 53]) for (const d of [-3, -2, -1, 0, 1]) operands.push(2 ** e + d);
  for (let i = 0; i < 200; i++) operands.push(Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** (1 + (i % 53))));
  const exact = operands.filter((v) => v >= 0 && v < 2 ** 53);
  let checked = 0;
  for (const width of [1, 2, 7, 8, 15, 16, 31, 32, 33, 48, 52, 53, 54, 63, 64, 65, 96, 128]) {
    const got = readInts(width, exact);
    exact.forEach((v, k) => {
      const want = BigInt.asIntN(width, signRotated(BigInt(v)));
      assert.equal(got[k], want, `i${width} operand ${v}`);
      checked++;
    });
  }
  assert.equal(checked, 18 * exact.length);
  // Operands of 2^53 and more arrive exact in the record's big map (the number is approximate).
  for (const width of [32, 64]) {
    const big = [2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n, 2n ** 64n - 2n, 2n ** 63n + 5n];
    const got = readInts(width, big);
    big.forEach((v, k) => assert.equal(got[k], BigInt.asIntN(width, signRotated(v)), `i${width} operand ${v}`));
  }
});

test('dxil reader: names from operand lists are the low byte of each operand', () => {
  const reference = (ops: readonly number[], from: number): string => {
    let s = '';
    for (let i = from; i < ops.length; i++) s += String.fromCharCode(ops[i]! & 0xff);
    return s;
  };
  const lists: number[][] = [[]];
  for (let n = 1; n <= 40; n++) lists.push(Array.from({ length: n }, (_, i) => 32 + ((i * 7 + n) % 95)));
  lists.push([0x141, 0x1ff, 300, 2 ** 32 + 65, 2 ** 40 + 0x42, 0, 0xff, 0x80]);
  lists.push([2 ** 31, 104, 105]); // a large id before the characters, as symbol table entries have
  for (const ops of lists)
    for (const from of [0, 1, 2, 9, ops.length, ops.length + 1]) assert.equal(chars(ops, from), reference(ops, from));
});
