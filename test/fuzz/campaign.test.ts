// The campaign's own machinery (tools/fuzz/campaign.ts): a worker reports many results a message,
// and after a silence past the time-out or a death the mutants it had not reported run again one a
// message, so each time-out and crash is the mutant's that caused it. Checked with the `self-test`
// target, which hangs, exits or throws by a hash of the mutant's bytes: the expected outcome of
// every mutant is computed here, from the same mutants, and the campaign must count exactly those.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCampaign, Worker } from '../../tools/fuzz/campaign.js';
import { applyOps, makeMutant } from '../../tools/fuzz/mutate.js';
import { loadSeeds, seedsFor } from '../../tools/fuzz/seeds.js';
import { selfTestVerdict, targetNamed } from '../../tools/fuzz/targets.js';

const COUNT = 300;

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
