// Malformed containers built from real fixtures (containers.md, "Container": what cannot be read is
// refused with a typed error naming the offset): truncation at every header field and every byte,
// sizes, counts and offsets past the end, overlapping parts, zero parts, a part count of 2^32-1; then
// seeded random corruptions that must give a typed error or a result, never another exception.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { IridiaError, type ErrorCode } from '../../src/errors.js';
import {
  parseContainer,
  digestState,
  rewriteContainer,
  serializeContainer,
  HEADER_SIZE,
} from '../../src/container/container.js';
import { programInfo } from '../../src/container/program.js';
import { carveContainers } from '../../src/container/carve.js';
import { Census } from '../../src/container/census.js';
import { FIXTURES, readBytes, walk } from '../helpers/shared.js';

const OWN = join(FIXTURES, 'oracle/own');
const VS = readBytes(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc'));
const ALL = walk(OWN)
  .filter((f) => f.endsWith('shader.dxbc'))
  .map((f) => ({ name: f.slice(OWN.length + 1), bytes: readBytes(f) }));

function u32(b: Uint8Array, at: number): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
}
function withU32(b: Uint8Array, at: number, v: number): Uint8Array {
  const out = b.slice();
  new DataView(out.buffer).setUint32(at, v >>> 0, true);
  return out;
}

/** Asserts that parsing throws an IridiaError with the code (and offset, when given). */
function refuses(bytes: Uint8Array, code: ErrorCode, offset?: number, what = ''): IridiaError {
  let caught: unknown;
  try {
    parseContainer(bytes);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof IridiaError, `${what}: expected ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, `${what}: ${caught.message}`);
  if (offset !== undefined) assert.equal(caught.offset, offset, `${what}: offset of ${caught.message}`);
  return caught;
}

test('the fixtures parse (the malformed cases below start from valid containers)', () => {
  assert.ok(ALL.length >= 50, `found ${ALL.length} fixtures`);
  for (const f of ALL) assert.doesNotThrow(() => parseContainer(f.bytes), f.name);
});

test('truncation inside each header field names that field', () => {
  // magic 0..4, digest 4..20, version 20..24, total size 24..28, part count 28..32
  const fields = [
    [0, 4],
    [4, 20],
    [20, 24],
    [24, 28],
    [28, 32],
  ] as const;
  for (const [start, end] of fields) {
    for (let n = start; n < end; n++) {
      const e = refuses(VS.subarray(0, n), 'E101_TRUNCATED', start, `truncated to ${n} bytes`);
      assert.equal(e.part, 'header');
    }
  }
});

test('truncation at every byte from the header to the end is a size mismatch at the total size', () => {
  for (const f of ALL.slice(0, 8)) {
    const total = u32(f.bytes, 24);
    assert.equal(total, f.bytes.byteLength, f.name);
    for (let n = HEADER_SIZE; n < total; n++) {
      refuses(f.bytes.subarray(0, n), 'E103_SIZE_MISMATCH', 24, `${f.name} truncated to ${n} bytes`);
    }
  }
});

test('a total size past the end, or smaller than the header, is refused', () => {
  refuses(withU32(VS, 24, VS.byteLength + 1), 'E103_SIZE_MISMATCH', 24, 'total + 1');
  refuses(withU32(VS, 24, 0xffffffff), 'E103_SIZE_MISMATCH', 24, 'total 2^32-1');
  refuses(withU32(VS, 24, 31), 'E103_SIZE_MISMATCH', 24, 'total 31');
});

test('a bad magic is refused', () => {
  refuses(withU32(VS, 0, 0x43425845), 'E102_BAD_MAGIC', 0, 'magic');
});

test('a part count of 2^32-1 is refused at once, before any directory is read or allocated', () => {
  const before = process.memoryUsage().arrayBuffers;
  const e = refuses(withU32(VS, 28, 0xffffffff), 'E104_PART_COUNT', 28, 'count 2^32-1');
  assert.match(e.message, /4294967295/);
  // (How fast the refusal is, a loop over the count would show, is the container bench's figure.)
  // An allocation sized by the count would be at least 16 GiB; nothing near that is held.
  assert.ok(process.memoryUsage().arrayBuffers - before < 1 << 24);
  const maxParts = (VS.byteLength - HEADER_SIZE) / 4;
  refuses(withU32(VS, 28, Math.floor(maxParts) + 1), 'E104_PART_COUNT', 28, 'one more than fits');
});

test('a part offset past the end or inside the directory is refused, naming the directory entry', () => {
  const count = u32(VS, 28);
  for (let i = 0; i < count; i++) {
    const entry = HEADER_SIZE + 4 * i;
    refuses(withU32(VS, entry, VS.byteLength), 'E105_PART_OFFSET', entry, `part ${i} at the end`);
    refuses(withU32(VS, entry, VS.byteLength - 4), 'E105_PART_OFFSET', entry, `part ${i} header past the end`);
    refuses(withU32(VS, entry, 0xfffffff0), 'E105_PART_OFFSET', entry, `part ${i} at 0xfffffff0`);
    refuses(withU32(VS, entry, HEADER_SIZE), 'E105_PART_OFFSET', entry, `part ${i} inside the directory`);
  }
});

test('a part size past the end is refused, naming the part', () => {
  const c = parseContainer(VS);
  for (const p of c.parts) {
    const e = refuses(withU32(VS, p.offset + 4, VS.byteLength), 'E106_PART_SIZE', p.offset + 4, p.kind);
    assert.equal(e.part, p.kind);
    refuses(withU32(VS, p.offset + 4, 0xffffffff), 'E106_PART_SIZE', p.offset + 4, `${p.kind} size 2^32-1`);
  }
});

test('overlapping parts are refused', () => {
  const c = parseContainer(VS);
  assert.ok(c.parts.length >= 3);
  // Two directory entries naming the same part.
  refuses(withU32(VS, HEADER_SIZE + 4, c.parts[0]!.offset), 'E107_PART_OVERLAP', c.parts[0]!.offset, 'same offset');
  // A part grown by 4 bytes into the next part's header.
  const p0 = c.parts[0]!;
  const e = refuses(withU32(VS, p0.offset + 4, p0.data.byteLength + 4), 'E107_PART_OVERLAP', c.parts[1]!.offset);
  assert.equal(e.part, c.parts[1]!.kind);
});

test('zero parts is a finding, not a refusal', () => {
  const empty = serializeContainer([]);
  const c = parseContainer(empty);
  assert.deepEqual(
    c.findings.map((f) => f.kind),
    ['zero-parts'],
  );
  assert.equal(digestState(c), 'valid');
  // A real container with its count set to 0: its parts become bytes after the directory.
  const zeroed = parseContainer(withU32(VS, 28, 0));
  assert.deepEqual(zeroed.findings.map((f) => f.kind).sort(), ['trailing', 'zero-parts']);
});

test('deviations fxc/dxc never write are findings: version, gap, trailing, extra bytes, duplicate kind, order', () => {
  const c = parseContainer(VS);
  assert.deepEqual(c.findings, []);
  assert.deepEqual(
    parseContainer(withU32(VS, 20, 2)).findings.map((f) => f.kind),
    ['version'],
  );
  const extra = new Uint8Array(VS.byteLength + 3);
  extra.set(VS);
  assert.deepEqual(
    parseContainer(extra).findings.map((f) => f.kind),
    ['extra-bytes'],
  );
  // A 4-byte gap before the last part: shift it, grow the total size.
  const last = c.parts[c.parts.length - 1]!;
  const gapped = new Uint8Array(VS.byteLength + 4);
  gapped.set(VS.subarray(0, last.offset));
  gapped.set(VS.subarray(last.offset), last.offset + 4);
  const g = withU32(withU32(gapped, 24, gapped.byteLength), HEADER_SIZE + 4 * (c.parts.length - 1), last.offset + 4);
  const gc = parseContainer(g);
  assert.deepEqual(
    gc.findings.map((f) => f.kind),
    ['gap'],
  );
  assert.equal(gc.findings[0]!.offset, last.offset);
  // The same bytes grown at the end instead: trailing.
  const trailing = new Uint8Array(VS.byteLength + 4);
  trailing.set(VS);
  assert.deepEqual(
    parseContainer(withU32(trailing, 24, trailing.byteLength)).findings.map((f) => f.kind),
    ['trailing'],
  );
  // Directory entries 0 and 1 swapped: order.
  const swapped = withU32(withU32(VS, HEADER_SIZE, c.parts[1]!.offset), HEADER_SIZE + 4, c.parts[0]!.offset);
  assert.deepEqual(
    parseContainer(swapped).findings.map((f) => f.kind),
    ['order'],
  );
  // A kind renamed to its neighbour's: duplicate.
  const dup = withU32(VS, c.parts[1]!.offset, u32(VS, c.parts[0]!.offset));
  assert.deepEqual(
    parseContainer(dup).findings.map((f) => f.kind),
    ['duplicate-kind'],
  );
});

/** mulberry32: a small seeded PRNG, so every run corrupts the same bytes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('random corruptions of fixtures give a typed error or a result, never another exception', () => {
  const rand = prng(0x1d1a);
  const pick = (n: number): number => Math.floor(rand() * n);
  const outcomes = new Map<string, number>();
  const census = new Census();
  const N = 4000;
  for (let i = 0; i < N; i++) {
    const f = ALL[pick(ALL.length)]!;
    let bytes = f.bytes.slice();
    const dirEnd = Math.min(bytes.byteLength, HEADER_SIZE + 4 * u32(bytes, 28) + 8);
    const edits = 1 + pick(4);
    for (let k = 0; k < edits; k++) {
      // Half the corruptions hit the header, directory or first part header, where they matter most.
      const at = rand() < 0.5 ? pick(dirEnd) : pick(bytes.byteLength);
      bytes[at] = rand() < 0.3 ? 0xff : pick(256);
    }
    if (rand() < 0.1) bytes = bytes.subarray(0, pick(bytes.byteLength));
    try {
      const c = parseContainer(bytes);
      digestState(c);
      programInfo(c);
      rewriteContainer(c);
      outcomes.set('parsed', (outcomes.get('parsed') ?? 0) + 1);
    } catch (e) {
      if (!(e instanceof IridiaError)) {
        assert.fail(`corruption ${i} of ${f.name}: ${e instanceof Error ? e.stack : String(e)}`);
      }
      outcomes.set(e.code, (outcomes.get(e.code) ?? 0) + 1);
    }
    census.add(bytes, f.name);
    carveContainers(bytes);
  }
  console.log(`random corruptions: ${JSON.stringify(Object.fromEntries(outcomes))}`);
  assert.ok((outcomes.get('parsed') ?? 0) > 0, 'some corruptions still parse');
  assert.ok(outcomes.size >= 5, 'corruptions reach several error codes');
  assert.equal(census.containers + census.refused, N);
});
