// The campaign's own machinery (tools/fuzz/campaign.ts): a worker reports many results a message,
// and after a silence past the time-out or a death the mutants it had not reported run again one a
// message, so each time-out and crash is the mutant's that caused it. Checked with the `self-test`
// target, which hangs, exits or throws by a hash of the mutant's bytes: the expected outcome of
// every mutant is computed here, from the same mutants, and the campaign must count exactly those.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCampaign, Worker } from '../../tools/fuzz/campaign.js';
import { applyOps, makeMutant } from '../../tools/fuzz/mutate.js';
import { campaignTable, mergeParts, partRange, readParts, runPart } from '../../tools/fuzz/parts.js';
import { loadSeeds, seedsFor } from '../../tools/fuzz/seeds.js';
import { selfTestVerdict, targetNamed } from '../../tools/fuzz/targets.js';

const COUNT = 300;
const PARTS_COUNT = 200;

test('self-test campaign: every hang is a time-out and every death a crash, at the mutant that caused it', async () => {
  const target = targetNamed('self-test')!;
  const seeds = seedsFor(target, loadSeeds(0)).map((s) => s.bytes);
  const expect = (seed: number) => {
    const want = { ok: 0, typed: 0, hang: [] as number[], crash: [] as number[] };
    for (let i = 0; i < COUNT; i++) {
      const mu = makeMutant(seed, target.name, i, seeds.length, true);
      const v = selfTestVerdict(applyOps(seeds[mu.seed]!, mu.ops, seeds, target.focus));
      if (v === 'hang') want.hang.push(i);
      else if (v === 'crash') want.crash.push(i);
      else want[v]++;
    }
    return want;
  };
  // the first campaign seed whose run holds a few hangs and at least one crash (the fixtures decide)
  let SEED = 1;
  let want = expect(SEED);
  while (SEED < 100 && !(want.hang.length > 0 && want.hang.length <= 3 && want.crash.length > 0)) want = expect(++SEED);
  assert.ok(want.hang.length > 0 && want.crash.length > 0, `hangs ${want.hang.length}, crashes ${want.crash.length}`);
  const workers = [new Worker(), new Worker()];
  try {
    const r = await runCampaign(
      {
        target: 'self-test',
        count: COUNT,
        seed: SEED,
        jobs: 2,
        shared: 0,
        timeoutMs: 1000,
        memoryMb: 256,
        shrink: false,
      },
      workers,
    );
    assert.equal(r.mutants, COUNT);
    assert.equal(r.outcomes.ok, want.ok);
    assert.equal(r.outcomes.typed, want.typed);
    assert.equal(r.outcomes.timeout, want.hang.length);
    assert.equal(r.outcomes.crash, want.crash.length);
    const first = (key: string) => r.failures.find((f) => f.key.startsWith(key))?.index;
    assert.equal(first('timeout'), want.hang[0]);
    assert.equal(first('crash'), want.crash[0]);
  } finally {
    workers.forEach((w) => w.close());
  }
});

test('a time-out is CPU time: a mutant that waits past it is not one, unless it waits past the wall-clock backstop', async () => {
  const workers = [new Worker()];
  const opts = { target: 'self-test-wait', seed: 1, jobs: 1, shared: 0, memoryMb: 256, shrink: false };
  try {
    // 1.5 s of waiting against a time-out of 1 s of CPU: ok (a wall-clock time-out would count 2)
    process.env.IRIDIA_FUZZ_WAIT_MS = '1500';
    const waited = await runCampaign({ ...opts, count: 2, timeoutMs: 1000 }, workers);
    assert.deepEqual([waited.outcomes.ok, waited.outcomes.timeout], [2, 0]);
    // 3 s against 200 ms: past the backstop of 8 time-outs (1.6 s), so a time-out
    workers[0]!.close();
    process.env.IRIDIA_FUZZ_WAIT_MS = '3000';
    const stuck = await runCampaign({ ...opts, count: 1, timeoutMs: 200 }, workers);
    assert.deepEqual([stuck.outcomes.ok, stuck.outcomes.timeout], [0, 1]);
    assert.match(stuck.failures[0]!.message ?? '', /ran past 200 ms of CPU/);
  } finally {
    delete process.env.IRIDIA_FUZZ_WAIT_MS;
    workers.forEach((w) => w.close());
  }
});

test('a campaign in parts: the parts add up to the whole, a written part is skipped, merge checks the cover', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-fuzz-parts-'));
  const other = mkdtempSync(join(tmpdir(), 'iridia-fuzz-parts-'));
  const workers = [new Worker(), new Worker()];
  const opts = { target: 'self-test', seed: 7, jobs: 2, shared: 0, timeoutMs: 1000, memoryMb: 256, shrink: false };
  try {
    const whole = await runCampaign({ ...opts, count: PARTS_COUNT }, workers);
    // three parts, the second in another directory (another machine's)
    const ran = [];
    for (let k = 1; k <= 3; k++) {
      const range = { ...partRange(PARTS_COUNT, k, 3), total: PARTS_COUNT };
      ran.push(await runPart(opts, k === 2 ? other : dir, range, workers));
    }
    assert.deepEqual(
      ran.map((r) => [r.part.from, r.part.to, r.skipped]),
      [
        [0, 66, false],
        [66, 133, false],
        [133, PARTS_COUNT, false],
      ],
    );
    // resume: the part is read back, not run again
    const again = await runPart(opts, dir, { ...partRange(PARTS_COUNT, 3, 3), total: PARTS_COUNT }, workers);
    assert.equal(again.skipped, true);
    assert.deepEqual(again.part, ran[2]!.part);
    // another campaign's part in the same place is refused
    await assert.rejects(
      runPart({ ...opts, seed: 8 }, dir, { ...partRange(PARTS_COUNT, 3, 3), total: PARTS_COUNT }, workers),
      /another campaign \(seed 7, not 8\)/,
    );
    const merged = mergeParts(readParts([dir, other]));
    assert.deepEqual(merged.problems, []);
    assert.equal(merged.targets.length, 1);
    const t = merged.targets[0]!;
    assert.equal(t.mutants, PARTS_COUNT);
    assert.equal(t.parts, 3);
    assert.deepEqual(t.outcomes, whole.outcomes);
    assert.deepEqual(t.codes, whole.codes);
    assert.deepEqual(
      t.failures.map((f) => [f.key, f.count, f.index]).sort(),
      whole.failures.map((f) => [f.key, f.count, f.index]).sort(),
    );
    const table = campaignTable(merged);
    assert.match(
      table,
      new RegExp(`^\\| self-test \\| ${whole.seeds} \\| ${PARTS_COUNT} \\| ${whole.outcomes.ok} \\|`, 'm'),
    );
    // a gap, an overlap, another seed set
    const parts = readParts([dir, other]);
    assert.deepEqual(mergeParts(parts.filter((p) => p.part.from !== 66)).problems, [
      'self-test: mutants 66-133 are in no part',
    ]);
    assert.deepEqual(mergeParts([...parts, parts[0]!]).problems, ['self-test: mutants 0-66 are in two parts']);
    const changed = { ...parts[1]!, part: { ...parts[1]!.part, seedsDigest: '0' } };
    assert.match(mergeParts([parts[0]!, changed, parts[2]!]).problems.join('\n'), /another seed set/);
    assert.deepEqual(mergeParts(parts.filter((p) => p.part.to !== PARTS_COUNT)).problems, [
      `self-test: mutants 133-${PARTS_COUNT} are in no part`,
    ]);
  } finally {
    workers.forEach((w) => w.close());
  }
});
