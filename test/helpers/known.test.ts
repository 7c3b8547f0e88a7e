// The known-failure lists (helpers/known.ts) and strict mode (helpers/strict.ts) on made-up lists and
// runs: a list is kept true, so each way it can stop being true fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { boundCheck, messageCheck, parseKnown, reportAgainstKnown, type Failure, type KnownEntry } from './known.js';
import { REPO } from './shared.js';

const LIST = `# comment
a/one
@reason precision
b/two  4872   # measured
c/three  12
@reason race
d/four  buffer 3:0 word 17
@reason
e/five
`;

test('a list parses into names with the reason above them and the bound after them', () => {
  const m = parseKnown(LIST);
  assert.deepEqual(
    [...m.values()].map((e) => [e.name, e.reason, e.bound, e.line]),
    [
      ['a/one', undefined, undefined, 2],
      ['b/two', 'precision', '4872', 4],
      ['c/three', 'precision', '12', 5],
      ['d/four', 'race', 'buffer 3:0 word 17', 7],
      ['e/five', undefined, undefined, 9],
    ],
  );
  assert.throws(() => parseKnown('x\nx\n'), /x is listed twice/);
});

const entry = (reason: string | undefined, bound: string | undefined): KnownEntry => ({
  name: 'n',
  reason,
  bound,
  line: 1,
});

test('bounds: a number limits the measure from above, a text must equal it', () => {
  assert.equal(boundCheck(entry('precision', '4872'), 4872), undefined);
  assert.match(boundCheck(entry('precision', '4872'), 4873)!, /measured 4873, past its bound 4872/);
  assert.match(boundCheck(entry('precision', '4872'), Infinity)!, /past its bound/);
  assert.match(boundCheck(entry('precision', '4872'), undefined)!, /cannot be checked/);
  assert.equal(boundCheck(entry('race', 'buffer 3:0 word 17'), 'buffer 3:0 word 17'), undefined);
  assert.match(boundCheck(entry('race', 'buffer 3:0 word 17'), 'buffer 3:0 word 18')!, /not its bound/);
  assert.equal(
    messageCheck(entry('multisampled texture', undefined), { message: 'multisampled texture t2' }),
    undefined,
  );
  assert.match(
    messageCheck(entry('multisampled texture', undefined), { message: 'cube storage image' })!,
    /another reason/,
  );
  const diff = { message: 'first difference at offset 9 (line 3, column 2) | expected: ...' };
  assert.equal(messageCheck(entry('first difference', 'line 3'), diff), undefined);
  assert.match(messageCheck(entry('first difference', 'line 4'), diff)!, /measured "line 3", not its bound "line 4"/);
});

/** reportAgainstKnown on a suite written to a scratch list under test/known (removed after). */
function withList(text: string, f: (suite: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-known-'));
  const suite = relative(join(REPO, 'test/known'), join(dir, 'scratch'));
  writeFileSync(join(dir, 'scratch.txt'), text);
  try {
    f(suite);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a report fails on an unlisted failure, a listed pass, another reason and a bound exceeded', () => {
  const quiet = { log: () => {} };
  const list = '@total 5\n@reason ULP\np/one 10\np/two 10\n';
  withList(list, (suite) => {
    const ok = new Map<string, Failure>([
      ['p/one', { message: 'ULP 4', measure: 4 }],
      ['p/two', { message: 'ULP 10', measure: 10 }],
    ]);
    reportAgainstKnown(suite, { total: 5, failures: ok }, quiet);
    // a listed failure that passes
    assert.throws(
      () => reportAgainstKnown(suite, { total: 5, failures: new Map([['p/one', ok.get('p/one')!]]) }, quiet),
      /p\/two .* is listed as a failure and passes: take it off the list/,
    );
    // ... unless it was outside the run's scope (a sample, a filter)
    reportAgainstKnown(
      suite,
      { total: 1, failures: new Map([['p/one', ok.get('p/one')!]]), scope: new Set(['p/one']) },
      quiet,
    );
    // a run over another number of cases than the list's @total, and one over none
    assert.throws(
      () => reportAgainstKnown(suite, { total: 4, failures: ok }, quiet),
      /the run checked 4 cases, not the @total 5/,
    );
    assert.throws(() => reportAgainstKnown(suite, { total: 0, failures: new Map() }, quiet), /checked no case/);
    // an unlisted failure
    assert.throws(
      () => reportAgainstKnown(suite, { total: 5, failures: new Map([...ok, ['p/three', { message: 'x' }]]) }, quiet),
      /p\/three: fails and is not listed/,
    );
    // a bound exceeded
    assert.throws(
      () =>
        reportAgainstKnown(
          suite,
          { total: 5, failures: new Map([...ok, ['p/two', { message: 'ULP 11', measure: 11 }]]) },
          quiet,
        ),
      /p\/two .*measured 11, past its bound 10/,
    );
    // another reason
    assert.throws(
      () =>
        reportAgainstKnown(
          suite,
          { total: 5, failures: new Map([...ok, ['p/two', { message: 'threw', measure: 1 }]]) },
          quiet,
        ),
      /p\/two .*fails for another reason than its list's "ULP"/,
    );
  });
});

/** Runs a one-test file that skips on a missing prerequisite, with and without IRIDIA_STRICT=1. */
function runGated(strict: boolean): { status: number | null; out: string } {
  const dir = mkdtempSync(join(REPO, 'test/helpers/.scratch-'));
  const file = join(dir, 'gated.test.ts');
  writeFileSync(
    file,
    `import { test } from 'node:test';
import { needs } from '../strict.js';
import { webgpuSkip } from '../webgpu.js';
test('needs a tool', { skip: needs('the tool is absent') }, () => {});
test('needs WebGPU', { skip: webgpuSkip() }, () => {});
`,
  );
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      VK_ICD_FILENAMES: '/nonexistent/icd.json',
      IRIDIA_STRICT: strict ? '1' : '0',
    };
    delete env['NODE_TEST_CONTEXT']; // the child is a test run of its own, not a part of this one
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', env, cwd: REPO });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('strict mode: a missing tool or Vulkan driver fails the run; without it the tests skip', () => {
  const loose = runGated(false);
  assert.equal(loose.status, 0, loose.out);
  assert.match(loose.out, /# skipped 2/);
  const strict = runGated(true);
  assert.notEqual(strict.status, 0, strict.out);
  assert.match(strict.out, /not ok .* strict mode \(IRIDIA_STRICT=1\): a prerequisite is missing: the tool is absent/);
  assert.match(strict.out, /not ok .* strict mode \(IRIDIA_STRICT=1\): a prerequisite is missing: WebGPU/);
});
