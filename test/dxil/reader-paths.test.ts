// The module reader's fast paths against their definitions: integer constants worked out in numbers
// (constants.ts) against BigInt.asIntN of the sign-rotated operand, on the edges of every width
// class; names from operand lists (module.ts chars) against one character a low byte; and the
// bitstream's field reads (one- and two-chunk VBR, longer ones, the last bytes) on a stream written
// here bit by bit. And the records a module is read into come from their kinds' constructors (one
// shape each, made young whatever V8 decided for object literals: docs/benchmarks.md, issue 17's
// nineteenth session).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TreeCursor, type BitBlock, type BitRecord, opBig, readBitcode } from '../../src/dxil/bitstream.js';
import { IridiaError } from '../../src/errors.js';
import { readConstants } from '../../src/dxil/constants.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Attribute,
  Constant,
  Group,
  MetadataNode,
  MetadataString,
  MetadataValue,
  ModuleData,
  NamedNode,
  Type,
  type Value,
} from '../../src/dxil/ir.js';
import { ModuleReader, chars, signRotated } from '../../src/dxil/module.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { parseContainer } from '../../src/container/container.js';

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
  readConstants(mr, new TreeCursor([block], true), values, []);
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

/** Writes a bitstream LSB first, as LLVM's BitstreamWriter does. */
class BitWriter {
  private readonly bits: number[] = [];
  fixed(v: number | bigint, n: number): void {
    const b = BigInt(v);
    for (let i = 0; i < n; i++) this.bits.push(Number((b >> BigInt(i)) & 1n));
  }
  vbr(v: number | bigint, n: number): void {
    let b = BigInt(v);
    const hi = 1n << BigInt(n - 1);
    for (;;) {
      if (b < hi) return this.fixed(b, n);
      this.fixed((b & (hi - 1n)) | hi, n);
      b >>= BigInt(n - 1);
    }
  }
  align32(): void {
    while (this.bits.length % 32) this.bits.push(0);
  }
  get length(): number {
    return this.bits.length;
  }
  patchWord(at: number, v: number): void {
    for (let i = 0; i < 32; i++) this.bits[at + i] = (v >>> i) & 1;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((b, i) => (out[i >> 3]! |= b << (i & 7)));
    return out;
  }
}

test('dxil reader: VBR and fixed fields of every chunk count, at the start and the end of a stream', () => {
  const values = [0n, 1n, 31n, 32n, 33n, 1023n, 1024n, 1025n, 2n ** 20n + 3n, 2n ** 30n, 2n ** 31n + 1n];
  values.push(2n ** 32n - 1000n, 2n ** 40n + 7n, 2n ** 52n + 1n, 2n ** 53n - 1n, 2n ** 53n + 1n, 2n ** 64n - 1n);
  const w = new BitWriter();
  w.fixed(0x42, 8);
  w.fixed(0x43, 8);
  w.fixed(0xc0, 8);
  w.fixed(0xde, 8);
  w.fixed(1, 2); // ENTER_SUBBLOCK
  w.vbr(12, 8); // a function block
  w.vbr(4, 4); // abbreviation ids of 4 bits
  w.align32();
  const lengthAt = w.length;
  w.fixed(0, 32);
  const start = w.length;
  // DEFINE_ABBREV [literal 9, fixed 7, vbr 5, array of char6] and [literal 10, array of vbr 12].
  w.fixed(2, 4);
  w.vbr(5, 5);
  w.fixed(1, 1);
  w.vbr(9, 8);
  w.fixed(0, 1);
  w.fixed(1, 3);
  w.vbr(7, 5);
  w.fixed(0, 1);
  w.fixed(2, 3);
  w.vbr(5, 5);
  w.fixed(0, 1);
  w.fixed(3, 3);
  w.fixed(0, 1);
  w.fixed(4, 3);
  w.fixed(2, 4);
  w.vbr(3, 5);
  w.fixed(1, 1);
  w.vbr(10, 8);
  w.fixed(0, 1);
  w.fixed(3, 3);
  w.fixed(0, 1);
  w.fixed(2, 3);
  w.vbr(12, 5);
  // An unabbreviated record of every value (VBR6), then the two abbreviated ones.
  w.fixed(3, 4);
  w.vbr(5, 6);
  w.vbr(values.length, 6);
  for (const v of values) w.vbr(v, 6);
  w.fixed(4, 4);
  w.fixed(100, 7);
  w.vbr(1000, 5);
  w.vbr(3, 6);
  for (const c of [26, 62, 63]) w.fixed(c, 6); // 'A', '.', '_'
  w.fixed(5, 4);
  w.vbr(values.length, 6);
  for (const v of values) w.vbr(v, 12);
  w.fixed(0, 4); // END_BLOCK
  w.align32();
  w.patchWord(lengthAt, (w.length - start) / 32);
  const blocks = readBitcode(w.bytes(), 0, 'DXIL');
  const recs = blocks[0]!.items as BitRecord[];
  assert.equal(recs.length, 3);
  const exact = (r: BitRecord): bigint[] => r.ops.map((_, i) => opBig(r, i));
  assert.deepEqual([BigInt(recs[0]!.code), ...exact(recs[0]!)], [5n, ...values]);
  assert.deepEqual([recs[1]!.code, ...recs[1]!.ops], [9, 100, 1000, 0x41, 0x2e, 0x5f]);
  assert.deepEqual([BigInt(recs[2]!.code), ...exact(recs[2]!)], [10n, ...values]);
  // Cut anywhere inside the block, the stream is refused as truncated, never misread.
  const whole = w.bytes();
  for (let keep = 8; keep < whole.length; keep += 3)
    assert.throws(
      () => readBitcode(whole.subarray(0, keep), 0, 'DXIL'),
      (e: unknown) => e instanceof IridiaError && e.code === 'E401_BITCODE_TRUNCATED',
    );
});

test('dxil reader: metadata, attribute groups and the module are made by their constructors', () => {
  const dir = join(import.meta.dirname, '../fixtures/dxil');
  const path = join(dir, 'dx12__FrameInterpolationSwapchainUiCompositionPremulVS.dxil');
  const m = readPartModule(parseContainer(new Uint8Array(readFileSync(path))), 'DXIL');
  assert.ok(m instanceof ModuleData);
  const kinds = { string: MetadataString, value: MetadataValue, node: MetadataNode } as const;
  const seen = new Set<string>();
  for (const md of [...m.metadata, ...m.functions.flatMap((f) => f.localMetadata)]) {
    assert.ok(md instanceof kinds[md.k], `a ${md.k} metadata entry is a ${md.constructor.name}`);
    seen.add(md.k);
  }
  assert.deepEqual([...seen].sort(), ['node', 'string', 'value']);
  assert.ok(m.named.length > 0 && m.named.every((n) => n instanceof NamedNode));
  const groups = [...m.attributeGroups.values()];
  assert.ok(groups.length > 0 && groups.every((g) => g instanceof Group));
  assert.ok(groups.every((g) => g.attrs.every((a) => a instanceof Attribute)));
});
