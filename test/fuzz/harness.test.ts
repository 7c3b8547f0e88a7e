// The fuzz harness made faster without changing a mutant or an outcome (docs/reliability.md,
// "Throughput"): the mutants are the same pure function of (seed, target, index) as before, and a
// counted campaign's summary (every outcome and code) is the one that running the same mutants one by
// one in this process, each made by copying operations, gives.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { runCampaign, Worker } from '../../tools/fuzz/campaign.js';
import { applyOp, applyOps, makeMutant } from '../../tools/fuzz/mutate.js';
import { memoryBound, runOne, type Outcome } from '../../tools/fuzz/outcome.js';
import { seedsDigest } from '../../tools/fuzz/parts.js';
import { loadSeeds, seedsFor } from '../../tools/fuzz/seeds.js';
import { TARGETS, targetNamed, type Target } from '../../tools/fuzz/targets.js';

/** Recorded from main's code at 78cee40 (before the harness changed), with the script this test runs:
 * per target the first 16 hex digits of the seed set's digest over the committed fixtures, and of the
 * sha256 of its mutants 0..499 at campaign seed 0x19 (each mutant's length, 4 bytes little-endian,
 * then its bytes). */
const STREAMS: Readonly<Record<string, readonly [string, string]>> = {
  container: ['20af00738a103eba', '09a2f1be2425c24e'],
  'part-signature': ['20af00738a103eba', '8677c99813e656d6'],
  'part-rdef': ['33a3ad5468cb5af5', '10ed913528483a50'],
  'part-stat': ['0c72b5efbef30ec9', '79cf36ef10a62629'],
  'part-aon9': ['935198775bcc8c45', '267be1f1491bbeaf'],
  'part-dxil': ['96e26191d03db94f', 'd91ca4ab04d97973'],
  sm4: ['1b1340fda9267f47', '045faf3759d91a56'],
  disasm: ['0c72b5efbef30ec9', 'd290a9c3665bb170'],
  asm: ['0c72b5efbef30ec9', '576b2d539697ee7b'],
  'asm-d3d9': ['90a23095fba75354', '31f864f9a4292a04'],
  d3d9: ['90a23095fba75354', '2070d619aacf337b'],
  debug: ['04560389ff26c188', '9ff671d3bcd3b2f7'],
  'dxil-sources': ['46e774521a41f85e', '34ec6d18c919f72d'],
  'dxil-bitstream': ['96e26191d03db94f', 'cc135803f73611a5'],
  'dxil-module': ['96e26191d03db94f', '56d23a91176c44f2'],
  'dxil-listing': ['96e26191d03db94f', 'c7529a3758baea67'],
  reflect: ['20af00738a103eba', 'bf6a7f9e72bef6da'],
  'lift-dxbc': ['1b1340fda9267f47', '8071d0b84365f198'],
  'lift-dxil': ['96e26191d03db94f', '0d8f7b8c800da0e5'],
  wgsl: ['d86b2af7fc1178c7', 'a57f66f3731ff681'],
  decompile: ['d86b2af7fc1178c7', '7d05058cde263b31'],
  exec: ['d86b2af7fc1178c7', '1f133d2aa71a9bcc'],
  carve: ['20af00738a103eba', '030a1081846841f2'],
};

const fixtureSeeds = (t: Target) => seedsFor(t, loadSeeds(0));

/** A mutant made the way main made every one: each operation on a fresh copy (applyOp). */
function copied(t: Target, seeds: readonly Uint8Array[], seed: number, index: number): Uint8Array {
  const mu = makeMutant(seed, t.name, index, seeds.length, t.seeds !== 'd3d9');
  let b = seeds[mu.seed]!;
  for (const op of mu.ops) b = applyOp(b, op, seeds, t.focus);
  return b;
}

test("the mutant streams are main's: every target's mutants 0..499 over the fixtures, byte for byte", (t) => {
  for (const target of TARGETS) {
    const seeds = fixtureSeeds(target);
    const pinned = STREAMS[target.name];
    const digest = seedsDigest(seeds).slice(0, 16);
    if (!pinned || pinned[0] !== digest) {
      // the fixtures (or the targets) changed since the streams were recorded: the check below still runs
      t.diagnostic(`${target.name}: seeds ${digest}, recorded ${pinned?.[0] ?? 'none'}: its stream is not compared`);
    }
    const bytes = seeds.map((s) => s.bytes);
    const h = createHash('sha256');
    const len = new Uint8Array(4);
    for (let i = 0; i < 500; i++) {
      const mu = makeMutant(0x19, target.name, i, bytes.length, target.seeds !== 'd3d9');
      const b = applyOps(bytes[mu.seed]!, mu.ops, bytes, target.focus);
      // in place or copied, the same bytes
      assert.deepEqual(b, copied(target, bytes, 0x19, i), `${target.name} mutant ${i}`);
      new DataView(len.buffer).setUint32(0, b.byteLength, true);
      h.update(len);
      h.update(b);
    }
    if (pinned && pinned[0] === digest) assert.equal(h.digest('hex').slice(0, 16), pinned[1], target.name);
  }
  // most targets' seeds are the recorded ones (a test that compared nothing would prove nothing)
  const compared = TARGETS.filter((x) => STREAMS[x.name]?.[0] === seedsDigest(fixtureSeeds(x)).slice(0, 16));
  assert.ok(compared.length >= TARGETS.length / 2, `${compared.length} of ${TARGETS.length} streams compared`);
});

const COUNT = 400;
const workers = [new Worker(), new Worker()];
after(() => workers.forEach((w) => w.close()));

for (const name of ['container', 'part-signature', 'sm4', 'dxil-bitstream', 'carve', 'd3d9', 'lift-dxbc'])
  test(`a counted campaign's summary is the one-by-one run's: ${name}, ${COUNT} mutants`, async () => {
    const target = targetNamed(name)!;
    const seeds = fixtureSeeds(target).map((s) => s.bytes);
    const outcomes: Partial<Record<Outcome, number>> = {};
    const codes: Record<string, number> = {};
    for (let i = 0; i < COUNT; i++) {
      const r = runOne(target, copied(target, seeds, 0x19, i));
      outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
      if (r.outcome === 'typed' && r.code) codes[r.code] = (codes[r.code] ?? 0) + 1;
    }
    const r = await runCampaign(
      { target: name, count: COUNT, seed: 0x19, jobs: 2, shared: 0, timeoutMs: 20000, memoryMb: 512, shrink: false },
      workers,
    );
    assert.deepEqual(Object.fromEntries(Object.entries(r.outcomes).filter(([, v]) => v > 0)), outcomes, 'the outcomes');
    assert.deepEqual(r.codes, codes, 'the codes');
  });

test('the memory check: typed arrays a mutant leaves allocated past the bound are an allocation past its bound', () => {
  const kept: Uint8Array[] = [];
  const hog: Target = {
    name: 'hog',
    about: '',
    seeds: 'any',
    focus: [],
    run: (b) => void kept.push(new Uint8Array(memoryBound(b.byteLength) + (1 << 20)).fill(1)),
  };
  const small: Target = { ...hog, run: (b) => void kept.push(new Uint8Array(memoryBound(b.byteLength) >> 4).fill(1)) };
  assert.equal(runOne(hog, new Uint8Array(100)).outcome, 'memory');
  assert.equal(runOne(small, new Uint8Array(100)).outcome, 'ok');
  kept.length = 0;
});
