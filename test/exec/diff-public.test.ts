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
import { sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { strictMode } from '../helpers/strict.js';
import { closeWebgpu, webgpuSkip } from '../helpers/webgpu.js';
import { checkDifferential } from './diff-lists.js';

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
// CI (IRIDIA_STRICT=1) runs every build; a user's run a spread sample unless told otherwise.
const every = env ? Math.max(1, Number(env) || 1) : strictMode() ? 1 : SAMPLE_EVERY;
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
    // In a sample, listed names outside it are not run: only the sampled ones are checked.
    const scope = names.length === all.length ? undefined : new Set(names);
    const t = await checkDifferential(SUITE, root, names, scope, SEED);
    // The whole run's figures (the lists make the agreeing count follow from the rest: every build
    // that does not agree is listed, and every listed one fails).
    if (!scope) assert.deepEqual([t.builds, t.agree, t.race], [3690, 3387, 101]);
    else assert.ok(t.agree > 0, 'no compute or pixel program agreed');
  },
);
