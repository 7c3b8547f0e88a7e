// Carving containers out of any binary: a synthetic pack built from real fixtures (random bytes
// around them, unaligned offsets) with decoys that must be rejected for the right reason.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { carveContainers } from '../../src/container/carve.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const own = (p: string): Uint8Array => readBytes(join(FIXTURES, 'oracle/own', p, 'shader.dxbc'));
const VS = own('vs_basic/main-vs_5_0');
const PS = own('ps_sample_basic/main-ps_4_0');
const CS = own('cs_basic/main-cs_5_1');
const DXIL = readBytes(join(FIXTURES, 'container/testgpu__cube.frag.dxil'));
const UNSIGNED = readBytes(join(FIXTURES, 'container/asm__control-flow-multi-break-with-non-idom-loop-header.dxil'));
const ROOTSIG = readBytes(join(FIXTURES, 'container/direct3d12__SDL_shaders_d3d12__D3D12_RootSig_Color.dxil'));

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

/** Builds a pack: random filler between the pieces; returns the bytes and where each piece starts. */
function pack(pieces: Uint8Array[], seed: number, fillEnd = true): { bytes: Uint8Array; at: number[] } {
  const rand = prng(seed);
  const chunks: Uint8Array[] = [];
  const at: number[] = [];
  let size = 0;
  const filler = (): void => {
    const n = 1 + Math.floor(rand() * 300);
    const f = new Uint8Array(n).map(() => Math.floor(rand() * 256));
    // Random bytes may not spell the magic by chance (a seeded PRNG: checked once here).
    chunks.push(f);
    size += n;
  };
  for (const p of pieces) {
    filler();
    at.push(size);
    chunks.push(p);
    size += p.byteLength;
  }
  if (fillEnd) filler();
  const bytes = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.byteLength;
  }
  return { bytes, at };
}

const magic = (): Uint8Array => new Uint8Array([0x44, 0x58, 0x42, 0x43]);

test('carve finds every embedded container and rejects the decoys by reason', () => {
  const stale = VS.slice();
  stale[200] = stale[200]! ^ 1;
  const badVersion = PS.slice(0, 64);
  badVersion[20] = 7;
  const pastEnd = CS.slice(0, 40);
  const fakeText = new TextEncoder().encode('DXBC is the container magic; this is prose, not a header....');
  const { bytes, at } = pack(
    [VS, fakeText, PS, stale, DXIL, badVersion, UNSIGNED, ROOTSIG, CS, pastEnd],
    0xca55e77e,
    false, // the last piece ends the pack: its stored size runs past the end
  );
  const r = carveContainers(bytes);
  assert.deepEqual(
    r.found.map((f) => f.offset),
    [at[0], at[2], at[4], at[6], at[7], at[8]],
  );
  assert.deepEqual(
    r.found.map((f) => f.digest),
    ['valid', 'valid', 'valid', 'unsigned', 'valid', 'valid'],
  );
  for (const [i, f] of r.found.entries()) {
    const want = [VS, PS, DXIL, UNSIGNED, ROOTSIG, CS][i]!;
    assert.deepEqual(f.bytes, want, `container ${i} at ${f.offset}`);
  }
  // Every offset is unaligned somewhere: the pieces follow random-length filler.
  assert.ok(r.found.some((f) => f.offset % 4 !== 0));
  assert.deepEqual(r.rejected, {
    version: 2, // the prose (its 'version word' is text) and the container with version 7
    'stale-digest': 1,
    'size-past-end': 1,
  });
  assert.deepEqual(
    r.rejections.map((x) => x.offset),
    [at[1], at[3], at[5], at[9]],
  );
  const truncated = pack([VS, magic()], 5, false);
  assert.deepEqual(carveContainers(truncated.bytes).rejections, [
    { offset: truncated.at[1], reason: 'truncated-header', detail: 'only 4 bytes from the magic to the end' },
  ]);
});

test('a candidate whose header is plausible but whose parts cannot be read is rejected as unreadable', () => {
  const broken = VS.slice();
  // Part 1's size made huge: the header checks pass, parseContainer refuses (E106).
  const dv = new DataView(broken.buffer);
  const p1 = dv.getUint32(36, true);
  dv.setUint32(p1 + 4, 0x7fffffff, true);
  const { bytes } = pack([broken, VS], 7);
  const r = carveContainers(bytes);
  assert.equal(r.found.length, 1);
  assert.deepEqual(r.rejected, { unreadable: 1 });
  assert.match(r.rejections[0]!.detail, /E106_PART_SIZE/);
});

test('zero parts and a part offset outside the container are implausible headers', () => {
  const zero = VS.slice(0, 32);
  new DataView(zero.buffer).setUint32(24, 32, true);
  new DataView(zero.buffer).setUint32(28, 0, true);
  const off = VS.slice();
  new DataView(off.buffer).setUint32(32, VS.byteLength + 100, true);
  const r = carveContainers(pack([zero, off], 9).bytes);
  assert.equal(r.found.length, 0);
  assert.deepEqual(r.rejected, { 'part-count': 1, 'part-offset': 1 });
});

test('carving plain data finds nothing and data that is one container finds it at 0', () => {
  assert.equal(carveContainers(new Uint8Array(1000)).found.length, 0);
  const r = carveContainers(VS);
  assert.deepEqual(
    r.found.map((f) => [f.offset, f.size]),
    [[0, VS.byteLength]],
  );
});

test('carve options: unsigned containers kept by default and rejected with unsigned: false; stale ones kept with stale: true', () => {
  const zero = ROOTSIG.slice();
  zero.fill(0, 4, 20); // a zero digest: unsigned
  const stale = ROOTSIG.slice();
  stale[4] = stale[4]! ^ 1; // a digest that does not verify
  const data = new Uint8Array(zero.byteLength + stale.byteLength);
  data.set(zero);
  data.set(stale, zero.byteLength);
  const byDefault = carveContainers(data);
  assert.deepEqual(
    byDefault.found.map((f) => [f.offset, f.digest]),
    [[0, 'unsigned']],
  );
  assert.deepEqual(byDefault.rejected, { 'stale-digest': 1 });
  const strict = carveContainers(data, { unsigned: false });
  assert.deepEqual(strict.found, []);
  assert.deepEqual(
    strict.rejections.map((r) => [r.offset, r.reason]),
    [
      [0, 'unsigned'],
      [zero.byteLength, 'stale-digest'],
    ],
  );
  const all = carveContainers(data, { unsigned: true, stale: true });
  assert.deepEqual(
    all.found.map((f) => [f.offset, f.digest]),
    [
      [0, 'unsigned'],
      [zero.byteLength, 'stale'],
    ],
  );
});
