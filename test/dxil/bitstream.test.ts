// The bitstream reader's fields (bitstream.ts read and vbr) against a plain bit writer: fixed fields
// of 0 to 32 bits and VBR fields of chunk widths 2 to 32, at every bit offset, up to the stream's
// last bit; a field that runs past the end fails (E401). The corpus reaches these only at the
// alignments and widths dxc happens to write (no VBR32 chunk among them: it once never ended).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BitstreamReader } from '../../src/dxil/bitstream.js';

/** Bits written least significant first, as LLVM's bitstream writer does. */
class BitWriter {
  readonly bits: number[] = [];
  fixed(value: number, n: number): void {
    for (let i = 0; i < n; i++) this.bits.push(Math.floor(value / 2 ** i) % 2);
  }
  vbr(value: number, n: number): void {
    const chunk = 2 ** (n - 1);
    let v = value;
    for (;;) {
      const low = v % chunk;
      v = Math.floor(v / chunk);
      this.fixed(v > 0 ? low + chunk : low, n);
      if (v === 0) return;
    }
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((b, i) => (out[i >>> 3]! |= b << (i & 7)));
    return out;
  }
}

/** A seeded xorshift generator: the same fields on every run. */
function random(seed: number): (below: number) => number {
  let s = seed >>> 0 || 1;
  return (below) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % below;
  };
}

type Field = { kind: 'fixed' | 'vbr'; n: number; value: number };

function fields(seed: number, count: number): Field[] {
  const r = random(seed);
  const out: Field[] = [];
  for (let k = 0; k < count; k++) {
    if (r(2) === 0) {
      const n = r(33);
      const value = n === 0 ? 0 : n <= 16 ? r(2 ** n) : r(2 ** 16) + r(2 ** (n - 16)) * 2 ** 16;
      out.push({ kind: 'fixed', n, value });
    } else {
      const n = 2 + r(31);
      // Most VBR fields are small; some take several chunks (up to 2^40).
      const value = r(4) === 0 ? r(2 ** 20) * 2 ** 20 + r(2 ** 20) : r(1 << (r(24) + 1));
      out.push({ kind: 'vbr', n, value });
    }
  }
  return out;
}

test('bitstream: fixed and VBR fields read back at every offset, to the last bit', () => {
  for (let seed = 1; seed <= 40; seed++) {
    // A prefix of 0 to 31 bits puts the same fields at every alignment to the reader's words.
    const prefix = seed % 32;
    const list = fields(seed, 400);
    const w = new BitWriter();
    w.fixed(0, prefix);
    for (const f of list) (f.kind === 'fixed' ? w.fixed : w.vbr).call(w, f.value, f.n);
    const bytes = w.bytes();
    const reader = new BitstreamReader(bytes, 0, 'DXIL');
    assert.equal(reader.read(prefix), 0);
    list.forEach((f, k) => {
      const got = f.kind === 'fixed' ? reader.read(f.n) : reader.vbr(f.n);
      assert.equal(got, f.value, `seed ${seed}, field ${k}: ${f.kind} ${f.n} bits`);
    });
    assert.equal(reader.failCode, undefined);
    assert.equal(reader.position, w.bits.length);
  }
});

test('bitstream: a field past the last byte fails with E401 (a fixed one reads 0)', () => {
  for (let bytes = 1; bytes <= 9; bytes++) {
    for (const n of [1, 6, 13, 24, 25, 32]) {
      const data = new Uint8Array(bytes).fill(0xff);
      const reader = new BitstreamReader(data, 0, 'DXIL');
      const whole = Math.floor((bytes * 8) / n);
      for (let k = 0; k < whole; k++) assert.equal(reader.read(n), 2 ** n - 1, `${bytes} bytes, field ${k} of ${n}`);
      if ((bytes * 8) % n === 0) {
        assert.equal(reader.atEnd, true);
        continue;
      }
      assert.equal(reader.read(n), 0);
      assert.equal(reader.failCode, 'E401_BITCODE_TRUNCATED');
    }
  }
  // A VBR field whose continuation runs off the end (the failure is sticky: the block reader stops
  // at it, whatever the field read).
  const reader = new BitstreamReader(new Uint8Array([0xff, 0xff, 0xff]), 0, 'DXIL');
  reader.vbr(6);
  assert.equal(reader.failCode, 'E401_BITCODE_TRUNCATED');
  assert.equal(reader.read(1), 0);
});
