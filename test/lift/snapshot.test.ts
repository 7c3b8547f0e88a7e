// Byte identity of the lifter's IR print and the WGSL emitter's output over the committed fixtures
// (tools/wgsl-snapshot.ts): every container under test/fixtures lifts, prints and emits to the
// digests in test/lift/wgsl-snapshot.txt, or is refused with the same message. A change meant to be
// invisible (speed work on the IR, the type resolution or the emitter) must leave it as it is; a
// change meant to alter output rewrites it with IRIDIA_UPDATE_SNAPSHOT=1 (then review the diff).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, REPO } from '../helpers/shared.js';
import { snapshot } from '../../tools/wgsl-snapshot.js';

const DIGESTS = join(REPO, 'test/lift/wgsl-snapshot.txt');

test('fixtures: IR print and WGSL byte-identical to the committed digests', () => {
  const now = snapshot([FIXTURES], FIXTURES);
  if (process.env['IRIDIA_UPDATE_SNAPSHOT'] === '1') {
    writeFileSync(DIGESTS, now.join('\n') + '\n');
    return;
  }
  assert.ok(existsSync(DIGESTS), `${DIGESTS} is missing (IRIDIA_UPDATE_SNAPSHOT=1 writes it)`);
  const want = readFileSync(DIGESTS, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const wanted = new Map(want.map((l) => [l.split('\t')[0] as string, l]));
  const differ: string[] = [];
  for (const l of now) {
    const name = l.split('\t')[0] as string;
    const w = wanted.get(name);
    if (w === undefined) differ.push(`new: ${l}`);
    else if (w !== l) differ.push(`changed: ${l} (was ${w.split('\t')[1]})`);
    wanted.delete(name);
  }
  for (const l of wanted.values()) differ.push(`gone: ${l}`);
  assert.deepEqual(differ, [], `${differ.length} of ${now.length} fixtures differ from test/lift/wgsl-snapshot.txt`);
  assert.ok(now.filter((l) => / wgsl [0-9a-f]{16}$/.test(l)).length > 100, 'most fixtures emit WGSL');
});
