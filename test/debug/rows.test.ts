// The inlined-call row lookup of an SPDB (src/debug/spdb.ts rowIndex): for every offset, the row it
// answers is the first, in the rows' order, whose [start, end) holds the offset, as a scan of every
// row would find it; rows that hold nothing (end <= start) are never answered.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowIndex } from '../../src/debug/spdb.js';
import { rng } from '../helpers/rng.js';

type Row = { start: number; end: number; line: number; file: number };

/** A deterministic generator of [0, 1) (test/helpers/rng.ts's xorshift32). */
function random(seed: number): () => number {
  const next = rng(seed);
  return () => next() / 2 ** 32;
}

function scan(rows: readonly Row[], offset: number): Row | undefined {
  return rows.find((r) => offset >= r.start && offset < r.end);
}

test('every offset gets the first row that holds it, overlapping, nested, empty and reversed rows included', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const next = random(seed);
    const rows: Row[] = [];
    const n = Math.floor(next() * 24);
    for (let i = 0; i < n; i++) {
      const start = Math.floor(next() * 64) * 4;
      const length = (Math.floor(next() * 24) - 4) * 4;
      rows.push({ start, end: start + length, line: i + 1, file: Math.floor(next() * 3) });
    }
    const lookup = rowIndex(rows);
    for (let offset = -8; offset < 400; offset += 2) {
      const want = scan(rows, offset);
      const got = lookup(offset);
      assert.deepEqual(got, want && { file: want.file, line: want.line }, `seed ${seed}, offset ${offset}`);
    }
  }
});

test('no rows: nothing', () => {
  assert.equal(rowIndex([])(0), undefined);
});
