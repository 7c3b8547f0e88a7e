// Direct3D 9 listings byte for byte: every build of ../shared/oracle/own-d3d9 (shader.d3d9 with listing.asm,
// and listing.0x04.asm and listing.0x10.asm for /Zi builds), and the copies in test/fixtures/oracle/own-d3d9
// so a clone without ../shared runs the same check. Known misses are listed in test/known/d3d9.txt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { disassembleD3D9 } from '../../src/d3d9/disasm.js';
import { isD3D9Program } from '../../src/d3d9/decode.js';
import { FIXTURES, firstDifference, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { builds, listingFlags, readText } from './listings.js';

function compare(root: string): { total: number; failures: Map<string, string> } {
  const failures = new Map<string, string>();
  let total = 0;
  for (const b of builds(root, 'shader.d3d9')) {
    const bytes = readBytes(join(b.dir, 'shader.d3d9'));
    for (const f of b.listings) {
      total++;
      const name = `${b.name}/${f}`;
      let actual: string;
      try {
        actual = disassembleD3D9(bytes, listingFlags(f));
      } catch (e) {
        failures.set(name, `threw ${(e as Error).message}`);
        continue;
      }
      const diff = firstDifference(actual, readText(join(b.dir, f)));
      if (diff !== undefined) failures.set(name, diff);
    }
  }
  return { total, failures };
}

test('own-d3d9: every listing of the 218 builds, byte for byte', { skip: skipUnlessShared('oracle/own-d3d9') }, () => {
  const root = sharedPath('oracle/own-d3d9')!;
  const outcome = compare(root);
  assert.ok(outcome.total >= 370, `expected the 370 listings of own-d3d9, found ${outcome.total}`);
  reportAgainstKnown('d3d9', outcome);
});

test('fixtures: the own-d3d9 copies print byte for byte', () => {
  const root = join(FIXTURES, 'oracle/own-d3d9');
  const outcome = compare(root);
  assert.ok(outcome.total >= 20, `expected the fixture listings, found ${outcome.total}`);
  console.log(`own-d3d9 fixtures: ${outcome.total - outcome.failures.size}/${outcome.total} match`);
  assert.deepEqual([...outcome.failures.entries()], []);
});

test('isD3D9Program tells programs from containers', () => {
  const root = join(FIXTURES, 'oracle/own-d3d9');
  const [first] = builds(root, 'shader.d3d9');
  assert.ok(first);
  assert.equal(isD3D9Program(readBytes(join(first.dir, 'shader.d3d9'))), true);
  assert.equal(isD3D9Program(new TextEncoder().encode('DXBC....')), false);
  assert.equal(isD3D9Program(new Uint8Array([0, 3, 0xfe])), false);
  assert.equal(isD3D9Program(Uint8Array.of(0x00, 0x03, 0xfe, 0xff)), true);
  assert.equal(isD3D9Program(Uint8Array.of(0x00, 0x04, 0xff, 0xff)), false);
});
