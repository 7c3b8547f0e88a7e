// The committed oracle fixtures (test/fixtures/oracle/own): every listing*.asm beside a shader.dxbc
// is reproduced byte for byte, so a clone without ../shared still checks the disassembler on every
// stage, flag word, level 9, /Zi, class linkage, SM5.1 and abort/printf.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { disassemble } from '../../src/disasm/disassemble.js';
import { FIXTURES, firstDifference, readBytes } from '../helpers/shared.js';
import { oracleCases } from './listings.js';

test('every committed oracle fixture listing is reproduced byte for byte', () => {
  const cases = oracleCases(join(FIXTURES, 'oracle/own'));
  assert.ok(cases.length >= 40, `expected the committed fixtures, found ${cases.length} listings`);
  const flagsSeen = new Set(cases.map((k) => k.flags));
  for (const f of [0, 0x04, 0x10, 0x20, 0x40, 0x80])
    assert.ok(flagsSeen.has(f), `a fixture with flag 0x${f.toString(16)}`);
  const misses: string[] = [];
  for (const k of cases) {
    const diff = firstDifference(disassemble(readBytes(k.container), k.flags), readFileSync(k.listing, 'latin1'));
    if (diff !== undefined) misses.push(`${relative(FIXTURES, k.listing)}: ${diff}`);
  }
  console.log(`disasm fixtures: ${cases.length - misses.length}/${cases.length} listings match`);
  assert.deepEqual(misses, []);
});
