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
import { reportAgainstKnown } from '../helpers/known.js';
import { diffProgram, diffTraced } from './diff-harness.js';

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
    const failures = new Map<string, string>();
    const counts = { agree: 0, refused: 0, unbound: 0, words: 0, raced: 0 };
    const skips = new Map<string, number>();
    // Programs the harness cannot bind yet are not covered by the comparison: named in
    // test/known/exec-diff-unbound.txt, so each is counted and reported when it starts to run.
    const unbound = new Map<string, string>();
    // Programs the lifter refuses (by design, or not lifted yet): named in
    // test/known/exec-diff-refused.txt, so one that starts to lift is reported and then compared.
    const refused = new Map<string, string>();
    const names = builds(root).filter((n) => !filter || n.includes(filter));
    for (const name of names) {
      const bytes = readBytes(join(root, name, 'shader.dxbc'));
      let p;
      try {
        p = lift(bytes);
      } catch (e) {
        if (isIridiaError(e)) {
          counts.refused++;
          refused.set(name, `${e.code}: ${e.message}`);
          continue;
        }
        failures.set(name, `lift threw ${String(e)}`);
        continue;
      }
      const o = await diffTraced(p, bytes, 12345);
      if (o.kind === 'agree') {
        counts.agree++;
        counts.words += o.words;
      } else if (o.kind === 'unbound') {
        counts.unbound++;
        skips.set(o.group, (skips.get(o.group) ?? 0) + 1);
        unbound.set(name, o.reason);
      } else {
        if (o.kind === 'race') counts.raced++;
        failures.set(name, o.message);
      }
    }
    console.log(
      `exec-diff: ${names.length} compute/pixel builds: ${counts.agree} agree (${counts.words} words), ${failures.size - counts.raced} differ or fail, ${counts.raced} race (listed whether or not they agree), ${counts.refused} refused by the lifter, ${counts.unbound} not bindable`,
    );
    for (const [r, n] of skips) console.log(`  not bound: ${n} × ${r}`);
    // Every report is printed before the first unlisted case fails the test.
    const errors: unknown[] = [];
    const report = (suite: string, total: number, f: Map<string, string>): void => {
      try {
        reportAgainstKnown(suite, { total, failures: f });
      } catch (e) {
        errors.push(e);
      }
    };
    report('exec-diff', names.length - counts.refused, failures);
    report('exec-diff-unbound', names.length - counts.refused, unbound);
    report('exec-diff-refused', names.length, refused);
    if (errors.length) throw errors[0];
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
      } catch {
        counts.refused++;
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
          differ.push(`${f.slice(root.length + 1)}: ${v.differing}/${v.words} words; first ${v.first}`);
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
