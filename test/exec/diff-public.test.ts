// The executor against Dawn (WebGPU on SwiftShader) on the compute and pixel programs of
// ../shared/oracle/public (builds of public test suites: dxc, vkd3d, vkd3d-d3d12, wine-d3d11,
// wine-d3dcompiler; public/<set>/<case>/<build>/shader.dxbc): each program that lifts is run on both
// sides by test/exec/diff-harness.ts (random inputs and buffers from one seed, every output word
// compared). Disagreements are listed by name, in groups with their reason, in
// test/known/exec-diff-public.txt.
//
// Races: many of these programs are compiler tests, never meant to run, whose threads or pixels write
// memory others read or write without a barrier. Their result depends on the order the GPU runs them,
// so they could agree on one run and differ on the next. The executor's access trace
// (src/exec/races.ts) finds every such race on the executor's run, deterministically; a program with a
// race is listed as one (in the race group) whether or not its words agree this time, and is not
// counted among the agreeing.
//
// The full run takes several minutes on SwiftShader, so by default every SAMPLE_EVERY-th program (in
// name order: a fixed, spread sample) is run; IRIDIA_DIFF_PUBLIC=1 runs them all, IRIDIA_DIFF_PUBLIC=N
// every Nth, and IRIDIA_DIFF_FILTER=text only the names containing text.

import { test, after } from 'node:test';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { lift } from '../../src/lift/lift.js';
import { isIridiaError } from '../../src/errors.js';
import type { Program } from '../../src/ir/program.js';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { closeWebgpu, webgpuSkip } from '../helpers/webgpu.js';
import { readKnown, reportAgainstKnown } from '../helpers/known.js';
import { diffTraced } from './diff-harness.js';

after(() => closeWebgpu());

const SUITE = 'exec-diff-public';
/** The default run's spread: every 8th compute/pixel build in name order. */
const SAMPLE_EVERY = 8;
const SEED = 12345;

/** Every build of oracle/public whose target is a compute or pixel program, as set/case/build. */
function builds(root: string): string[] {
  const out: string[] = [];
  for (const set of readdirSync(root).sort())
    for (const c of readdirSync(join(root, set)).sort())
      for (const b of readdirSync(join(root, set, c)).sort())
        if (/-(cs|ps)_[45]_/.test(b) && existsSync(join(root, set, c, b, 'shader.dxbc'))) out.push(`${set}/${c}/${b}`);
  return out;
}

const env = process.env['IRIDIA_DIFF_PUBLIC'];
const every = env ? Math.max(1, Number(env) || 1) : SAMPLE_EVERY;
const filter = process.env['IRIDIA_DIFF_FILTER'];

test(
  every === 1
    ? 'executor and Dawn agree word for word on every compute and pixel program of oracle/public'
    : `executor and Dawn on every ${every}th compute/pixel program of oracle/public (IRIDIA_DIFF_PUBLIC=1 runs all, minutes)`,
  { skip: skipUnlessShared('oracle/public') || webgpuSkip() },
  async () => {
    const root = sharedPath('oracle/public')!;
    const all = builds(root);
    const names = all.filter((n, i) => i % every === 0 && (!filter || n.includes(filter)));
    if (every !== 1)
      console.log(`${SUITE}: a sample, every ${every}th of ${all.length} builds; IRIDIA_DIFF_PUBLIC=1 runs them all`);
    const failures = new Map<string, string>();
    const counts = { agree: 0, words: 0, raced: 0, refused: 0, unbound: 0, other: 0 };
    const refusals = new Map<string, number>();
    const skips = new Map<string, number>();
    for (const name of names) {
      const bytes = readBytes(join(root, name, 'shader.dxbc'));
      let p: Program;
      try {
        p = lift(bytes);
      } catch (e) {
        if (!isIridiaError(e)) {
          failures.set(name, `lift threw ${String(e)}`);
          continue;
        }
        counts.refused++;
        refusals.set(e.code, (refusals.get(e.code) ?? 0) + 1);
        continue;
      }
      if (p.stage !== 'compute' && p.stage !== 'pixel') {
        counts.other++;
        continue;
      }
      const o = await diffTraced(p, bytes, SEED);
      if (o.kind === 'agree') {
        counts.agree++;
        counts.words += o.words;
      } else if (o.kind === 'unbound') {
        counts.unbound++;
        skips.set(o.group, (skips.get(o.group) ?? 0) + 1);
      } else {
        if (o.kind === 'race') counts.raced++;
        failures.set(name, o.message);
      }
    }
    const run = names.length - counts.refused - counts.other;
    console.log(
      `${SUITE}: ${names.length} compute/pixel builds: ${counts.agree} agree (${counts.words} words), ${failures.size - counts.raced} differ, ${counts.raced} race (listed whether or not they agree), ${counts.refused} refused by the lifter, ${counts.unbound} not bindable`,
    );
    for (const [code, n] of refusals) console.log(`  refused: ${n} × ${code}`);
    for (const [r, n] of skips) console.log(`  not bound: ${n} × ${r}`);
    // In a sample, listed names outside it are not run: only the sampled ones are checked and reported.
    const sampled = new Set(names);
    const known = readKnown(SUITE);
    const log = (s: string): void => {
      if (!s.includes('known failures now pass')) return console.log(s);
      const now = [...known].filter((n) => sampled.has(n) && !failures.has(n));
      if (now.length) console.log(`${SUITE}: ${now.length} known failures now pass:\n  ${now.join('\n  ')}`);
    };
    assert.ok(run > 0, 'no compute or pixel program lifted');
    reportAgainstKnown(SUITE, { total: run, failures }, log);
  },
);
