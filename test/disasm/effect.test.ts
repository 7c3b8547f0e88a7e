// Effect listings under seeded corruption: the effect printer reads through bounds-checked readers,
// so a damaged FX10 part or fx_5_0 effect gives a listing or a typed error, never anything else.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContainer } from '../../src/container/container.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { isBareEffect } from '../../src/disasm/effect.js';
import { IridiaError } from '../../src/errors.js';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { FIXTURES, firstDifference, readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { reportAgainstKnown, type Failure } from '../helpers/known.js';
import { oracleCases } from './listings.js';

test(
  'corrupted effect containers: listings or typed errors only',
  { skip: skipUnlessShared('corpus/dxbc/wine') },
  () => {
    const effects = walk(sharedPath('corpus/dxbc/wine')!)
      .filter((f) => f.endsWith('.dxbc'))
      .map((f) => readBytes(f))
      .filter((b) => parseContainer(b).parts.some((p) => p.kind === 'FX10'));
    assert.ok(effects.length >= 20, `expected the wine effects, found ${effects.length}`);
    let seed = 12345;
    const rand = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    let printed = 0;
    let refused = 0;
    for (let n = 0; n < 2000; n++) {
      const bytes = effects[n % effects.length]!.slice();
      const part = parseContainer(bytes).parts.find((p) => p.kind === 'FX10')!;
      const start = part.offset + 8;
      for (let e = 0; e < 1 + Math.floor(rand() * 3); e++) {
        const i = start + Math.floor(rand() * part.data.byteLength);
        bytes[i] = rand() < 0.5 ? bytes[i]! ^ (1 << Math.floor(rand() * 8)) : Math.floor(rand() * 256);
      }
      try {
        disassemble(bytes, 0);
        printed++;
      } catch (e) {
        assert.ok(e instanceof IridiaError, `corruption ${n}: ${String((e as Error).stack ?? e)}`);
        refused++;
      }
    }
    console.log(`effect fuzz: ${printed} printed, ${refused} refused with typed errors`);
    assert.ok(printed > 0 && refused > 0);
  },
);

test('corrupted fx_5_0 effects (bare effect binaries): listings or typed errors only', () => {
  const effects = walk(join(FIXTURES, 'effect'))
    .filter((f) => f.endsWith('shader.dxbc'))
    .map((f) => readBytes(f))
    .filter((b) => isBareEffect(b));
  assert.equal(effects.length, 2, 'the fx_5_0 fixtures (fxfile_groups_classes, fxfile_tess)');
  let seed = 777;
  const rand = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  let printed = 0;
  let refused = 0;
  for (let n = 0; n < 600; n++) {
    const bytes = effects[n % effects.length]!.slice();
    for (let e = 0; e < 1 + Math.floor(rand() * 3); e++) {
      // past the version word, so that it stays an effect
      const i = 4 + Math.floor(rand() * (bytes.byteLength - 4));
      bytes[i] = rand() < 0.5 ? bytes[i]! ^ (1 << Math.floor(rand() * 8)) : Math.floor(rand() * 256);
    }
    try {
      disassemble(bytes, 0);
      printed++;
    } catch (e) {
      assert.ok(e instanceof IridiaError, `corruption ${n}: ${String((e as Error).stack ?? e)}`);
      refused++;
    }
  }
  console.log(`fx_5_0 fuzz: ${printed} printed, ${refused} refused with typed errors`);
  assert.ok(printed > 0 && refused > 0);
});

test('committed effect fixtures (fx_4_0, fx_4_1, fx_5_0) against their listings, without ../shared', () => {
  const cases = oracleCases(join(FIXTURES, 'effect'));
  // fxfile_states fx_4_0, fxfile_gs_so fx_4_1, fxfile_groups_classes fx_5_0, fxfile_tess fx_5_0
  assert.equal(cases.length, 4);
  const targets = cases.map(
    (k) => (JSON.parse(readFileSync(join(dirname(k.container), 'case.json'), 'utf8')) as { target: string }).target,
  );
  assert.deepEqual(targets.sort(), ['fx_4_0', 'fx_4_1', 'fx_5_0', 'fx_5_0']);
  const failures = new Map<string, Failure>();
  for (const k of cases) {
    const name = relative(FIXTURES, k.listing);
    let got: string;
    try {
      got = disassemble(readBytes(k.container), k.flags);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      failures.set(name, { message: `${e.code}: ${e.message}`, measure: e.code });
      continue;
    }
    const diff = firstDifference(got, readFileSync(k.listing, 'latin1'));
    if (diff !== undefined)
      failures.set(name, { message: diff.replace(/\n/g, ' | '), measure: `line ${/\(line (\d+)/.exec(diff)![1]}` });
  }
  // Each listed miss is bounded by where it starts: a fix that moves the first difference (or a
  // regression that brings it forward) changes the entry.
  reportAgainstKnown('disasm-effect-fixtures', { total: cases.length, failures });
});
