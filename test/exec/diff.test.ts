// The executor against Dawn (WebGPU on SwiftShader) on the compute and pixel programs of
// ../shared/oracle/own: random inputs and buffers, every output word compared (diff-harness.ts).
// Disagreements are listed by name in test/known/exec-diff.txt with their reason.

import { test, after } from 'node:test';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { lift } from '../../src/lift/lift.js';
import { isIridiaError } from '../../src/errors.js';
import { readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import assert from 'node:assert/strict';
import { closeWebgpu, webgpuSkip } from '../helpers/webgpu.js';
import { diffProgram } from './diff-harness.js';
import { checkDifferential } from './diff-lists.js';

after(() => closeWebgpu());

function builds(root: string): string[] {
  const out: string[] = [];
  for (const c of readdirSync(root).sort()) {
    const dir = join(root, c);
    if (!existsSync(join(dir, 'source.hlsl'))) continue;
    for (const b of readdirSync(dir).sort()) {
      const f = join(dir, b, 'shader.dxbc');
      if (/-(cs|ps)_[45]_/.test(b) && existsSync(f)) out.push(`${c}/${b}`);
    }
  }
  return out;
}

const filter = process.env['IRIDIA_DIFF_FILTER'];

test(
  'executor and Dawn agree word for word on the compute and pixel programs of oracle/own',
  { skip: skipUnlessShared('oracle/own') || webgpuSkip() },
  async () => {
    const root = sharedPath('oracle/own')!;
    const all = builds(root);
    const names = all.filter((n) => !filter || n.includes(filter));
    const t = await checkDifferential('exec-diff', root, names, filter ? new Set(names) : undefined, 12345);
    // Every compute/pixel build of oracle/own, and the figures of the whole run
    // (the lists make the agreeing count follow from the rest: every build that does not agree is
    // listed, and every listed one fails)
    if (!filter) assert.deepEqual([t.builds, t.agree, t.race], [558, 439, 50]);
  },
);

// The oracle's SM5.1 binding-array programs index their ranges with constant-buffer words and
// varyings; random words put most indices out of range, where Direct3D leaves the result undefined
// (and the executor and the emitted WGSL differ, see exec-diff.txt). With every word below 3 each index
// is in range, and every element must be bound where the program reads it on both sides.
const IN_RANGE = [
  'rdef_texture_arrays/main-ps_5_1',
  'sm51_misc_bindings/csmain-cs_5_1-unbounded',
  'sm51_resource_arrays/main-ps_5_1',
  'sm51_resource_arrays/main-ps_5_1-unbounded',
];

test(
  'binding arrays: executor and Dawn agree on every element when the indices are in range',
  { skip: skipUnlessShared('oracle/own') || webgpuSkip() },
  async () => {
    const root = sharedPath('oracle/own')!;
    for (const name of IN_RANGE) {
      const bytes = readBytes(join(root, name, 'shader.dxbc'));
      const v = await diffProgram(lift(bytes), bytes, 12345, { small: true });
      assert.equal(v.kind, 'agree', `${name}: ${JSON.stringify(v)}`);
    }
  },
);

const corpusEvery = Number(process.env['IRIDIA_DIFF_CORPUS'] ?? '0');

test(
  'executor and Dawn on a sample of ../shared/corpus/dxbc (IRIDIA_DIFF_CORPUS=N: every Nth container)',
  {
    skip:
      skipUnlessShared('corpus/dxbc') ||
      webgpuSkip() ||
      (corpusEvery > 0 ? false : 'set IRIDIA_DIFF_CORPUS=N to run every Nth corpus container (minutes)'),
  },
  async () => {
    const root = sharedPath('corpus/dxbc')!;
    const files = walk(root).filter((f) => f.endsWith('.dxbc'));
    const counts = { run: 0, agree: 0, differ: 0, skipped: 0, refused: 0, other: 0 };
    const differ: string[] = [];
    for (let i = 0; i < files.length; i += corpusEvery) {
      const f = files[i]!;
      const bytes = readBytes(f);
      let p;
      try {
        p = lift(bytes);
      } catch (e) {
        // A refusal is a typed error; any other throw is a crash of the lifter, and a difference.
        if (!isIridiaError(e)) {
          counts.differ++;
          differ.push(`${f.slice(root.length + 1)}: lift threw ${String(e)}`);
        } else counts.refused++;
        continue;
      }
      if (p.stage !== 'compute' && p.stage !== 'pixel') {
        counts.other++;
        continue;
      }
      counts.run++;
      try {
        const v = await diffProgram(p, bytes, 12345);
        if (v.kind === 'agree') counts.agree++;
        else if (v.kind === 'skip') counts.skipped++;
        else {
          counts.differ++;
          const what = v.kind === 'differ' ? `${v.differing}/${v.words} words; first ${v.first}` : v.reason;
          differ.push(`${f.slice(root.length + 1)}: ${what}`);
        }
      } catch (e) {
        counts.differ++;
        differ.push(`${f.slice(root.length + 1)}: threw ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    console.log(
      `exec-diff corpus (every ${corpusEvery}th): ${counts.run} compute/pixel programs run: ${counts.agree} agree, ${counts.differ} differ, ${counts.skipped} not bindable; ${counts.refused} refused by the lifter, ${counts.other} other stages`,
    );
    for (const d of differ) console.log(`  differ ${d}`);
    // A report, not a gate: the corpus differences are triaged from this list (docs/exec.md).
    assert.ok(counts.run > 0, 'no compute or pixel program in the sample');
  },
);
