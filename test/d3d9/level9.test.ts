// The level-9 section of Shader Model 4 listings (level9Listing, src/disasm/level9.ts): the Aon9/XNAP/XNAS
// mapping tables and the embedded Direct3D 9 program, compared byte for byte with the part of Microsoft's
// listing it stands for, under every flag word: every level-9 build of ../shared/oracle/own, every Aon9
// container of ../shared/corpus/dxbc (NAME.ms*.asm), and the level-9 copies in test/fixtures/oracle/own.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { level9Listing } from '../../src/disasm/level9.js';
import { isLibrary, libraryFunctions } from '../../src/disasm/library.js';
import { FIXTURES, firstDifference, readBytes, readManifest, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { builds, level9Section, listingFlags, readText } from './listings.js';

interface Outcome {
  total: number;
  failures: Map<string, string>;
}

/** A library's listing (fxc lib_4_0_level_9_x) in its functions' pieces, each ending at its lib_M_N version line. */
const LIBRARY_VERSION = /^(\s*\d+\s+)?(0x[0-9A-F]{8}: )?lib_\d_\d\n/m;

function libraryPieces(listing: string): string[] {
  const out: string[] = [];
  let rest = listing;
  for (let m = LIBRARY_VERSION.exec(rest); m; m = LIBRARY_VERSION.exec(rest)) {
    out.push(rest.slice(0, m.index));
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function check(outcome: Outcome, name: string, container: Uint8Array, listing: string, flags: number): void {
  outcome.total++;
  const c = parseContainer(container);
  if (isLibrary(c)) {
    // each function's level-9 programs, before its own Shader Model 4 program
    let expected = '';
    for (const piece of libraryPieces(listing)) expected += flags & 0x40 ? '' : (level9Section(piece)?.section ?? '');
    let actual = '';
    try {
      for (const fn of libraryFunctions(c)) actual += level9Listing(fn, flags);
    } catch (e) {
      outcome.failures.set(name, `threw ${(e as Error).message}`);
      return;
    }
    const diff =
      expected === '' && !(flags & 0x40) ? 'the listing has no level-9 section' : firstDifference(actual, expected);
    if (diff !== undefined) outcome.failures.set(name, diff);
    return;
  }
  const expected = flags & 0x40 ? '' : level9Section(listing)?.section;
  if (expected === undefined) {
    outcome.failures.set(name, 'the listing has no level-9 section');
    return;
  }
  let actual: string;
  try {
    actual = level9Listing(parseContainer(container), flags);
  } catch (e) {
    outcome.failures.set(name, `threw ${(e as Error).message}`);
    return;
  }
  const diff = firstDifference(actual, expected);
  if (diff !== undefined) outcome.failures.set(name, diff);
}

function checkOracle(root: string, outcome: Outcome): void {
  for (const b of builds(root, 'shader.dxbc', (build) => build.includes('level_9'))) {
    const bytes = readBytes(join(b.dir, 'shader.dxbc'));
    for (const f of b.listings) check(outcome, b.name + '/' + f, bytes, readText(join(b.dir, f)), listingFlags(f));
  }
}

test(
  'level 9: every level-9 build of the oracle (own and public), every flag word',
  { skip: skipUnlessShared('oracle') },
  () => {
    const root = sharedPath('oracle')!;
    const outcome: Outcome = { total: 0, failures: new Map() };
    for (const row of readManifest(join(root, 'MANIFEST.tsv'))) {
      if (!row['target']!.includes('level_9')) continue;
      const dir = join(root, row['path']!);
      const bytes = readBytes(join(dir, 'shader.dxbc'));
      for (const f of readdirSync(dir).sort()) {
        if (!/^listing(\.0x[0-9a-f]+)?\.asm$/.test(f)) continue;
        check(outcome, `${row['path']}/${f}`, bytes, readText(join(dir, f)), listingFlags(f));
      }
    }
    assert.ok(outcome.total >= 234, `expected the level-9 listings of the oracle, found ${outcome.total}`);
    reportAgainstKnown('d3d9-level9-oracle', outcome);
  },
);

test('level 9: corpus Aon9 containers, every NAME.ms*.asm', { skip: skipUnlessShared('corpus/dxbc') }, () => {
  const root = sharedPath('corpus/dxbc')!;
  const outcome: Outcome = { total: 0, failures: new Map() };
  for (const row of readManifest(join(root, 'MANIFEST.tsv'))) {
    if (!row['parts']!.split(',').includes('Aon9')) continue;
    const stem = row['path']!.replace(/\.dxbc$/, '');
    const dir = join(root, stem.slice(0, stem.lastIndexOf('/')));
    const base = stem.slice(stem.lastIndexOf('/') + 1);
    const bytes = readBytes(join(root, row['path']!));
    for (const f of readdirSync(dir).sort()) {
      if (!f.startsWith(`${base}.ms`) || !/^\.ms(\.0x[0-9a-f]+)?\.asm$/.test(f.slice(base.length))) continue;
      check(outcome, `${stem}/${f.slice(base.length + 1)}`, bytes, readText(join(dir, f)), listingFlags(f));
    }
  }
  assert.ok(outcome.total >= 998, `expected a listing per Aon9 container, found ${outcome.total}`);
  reportAgainstKnown('d3d9-level9-corpus', outcome);
});

test('level 9: fixture copies (test/fixtures/oracle/own)', () => {
  const outcome: Outcome = { total: 0, failures: new Map() };
  checkOracle(join(FIXTURES, 'oracle/own'), outcome);
  console.log(`level-9 fixtures: ${outcome.total - outcome.failures.size}/${outcome.total} match`);
  assert.ok(outcome.total >= 30, `expected the level-9 fixture listings, found ${outcome.total}`);
  assert.deepEqual([...outcome.failures.entries()], []);
});

test('level 9: the section sits between the header and the Shader Model 4 version line', () => {
  const dir = join(FIXTURES, 'oracle/own/ps_level9_tex');
  const build = readdirSync(dir).find((d) => d.includes('level_9') && existsSync(join(dir, d, 'listing.asm')));
  assert.ok(build);
  const parts = level9Section(readText(join(dir, build, 'listing.asm')));
  assert.ok(parts);
  assert.match(parts.before, /\/\/\n$/);
  assert.match(parts.rest, /^ps_4_0\n/);
});

test('level 9: a container without Aon9 gets no section', () => {
  const dir = join(FIXTURES, 'oracle/own/vs_basic');
  const build = readdirSync(dir).find((d) => existsSync(join(dir, d, 'shader.dxbc')));
  assert.ok(build);
  assert.equal(level9Listing(parseContainer(readBytes(join(dir, build, 'shader.dxbc'))), 0), '');
});
