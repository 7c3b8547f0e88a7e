// The fuzz smoke (issue 19): every fuzz target (tools/fuzz/targets.ts) for a short fixed time on a
// fixed seed, mutating the committed fixtures only, in two worker processes; any outcome other than ok
// or a typed error (an untyped exception, invalid IR, an allocation past its bound, a crash, an
// out-of-memory abort, a time-out) fails, naming its shrunk reproducer. All targets together take
// about a minute on two cores (FUZZ_SMOKE_SECONDS per target, default 2.5).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCampaign, Worker } from '../../tools/fuzz/campaign.js';
import { TARGETS } from '../../tools/fuzz/targets.js';

const SECONDS = Number(process.env['FUZZ_SMOKE_SECONDS'] ?? 2.5);
const SEED = 0x19;
const out = mkdtempSync(join(tmpdir(), 'iridia-fuzz-smoke-'));
const workers = [new Worker(), new Worker()];
after(() => workers.forEach((w) => w.close()));

for (const t of TARGETS)
  test(`fuzz smoke: ${t.name} gives only typed errors (${SECONDS} s, seed ${SEED})`, async () => {
    const r = await runCampaign(
      {
        target: t.name,
        seconds: SECONDS,
        seed: SEED,
        out,
        jobs: 2,
        shared: 0,
        timeoutMs: 10000,
        memoryMb: 512,
        shrink: true,
      },
      workers,
    );
    const o = r.outcomes;
    console.log(
      `${t.name}: ${r.mutants} mutants of ${r.seeds} seeds, ok ${o.ok}, typed ${o.typed}, failures ${r.mutants - o.ok - o.typed}`,
    );
    assert.ok(r.mutants > 0, 'some mutants ran');
    assert.deepEqual(
      r.failures.map((f) => `${f.count}× ${f.key} (first: mutant ${f.index}; reproducer ${f.reproducer})`),
      [],
    );
  });
