// `iridia verify --roundtrip` over ../shared/corpus and ../shared/oracle (the "done when"):
// every container parses and is identical on round trip, and exactly those the data marks as not
// verifying are unsigned or stale. The expected lists come from the data itself: corpus/dxbc's
// MANIFEST.tsv (digest_ok = no), the dxil and dxbc-sm51 manifests' digest column (zero = unsigned,
// mismatch = stale), and the oracle builds whose listing says the program needs the debug layer
// (abort/printf: fxc does not sign those).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { verifyPaths } from '../../src/cli/commands/verify.js';
import { readManifest, SHARED, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';

const DEBUG_LAYER_NOTE = 'SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED';

function expected(): { unsigned: Set<string>; stale: Set<string>; listed: Set<string> } {
  const corpus = sharedPath('corpus')!;
  const oracle = sharedPath('oracle')!;
  const unsigned = new Set<string>();
  const stale = new Set<string>();
  const listed = new Set<string>();
  for (const row of readManifest(join(corpus, 'dxbc/MANIFEST.tsv'))) {
    const p = join('corpus/dxbc', row['path']!);
    listed.add(p);
    if (row['digest_ok'] === 'no') stale.add(p);
    else assert.equal(row['digest_ok'], 'yes', `${p}: digest_ok ${row['digest_ok']}`);
  }
  for (const m of walk(corpus).filter((f) => /\/(dxil|dxbc-sm51)\/.*MANIFEST\.tsv$/.test(f))) {
    for (const row of readManifest(m)) {
      const p = join('corpus', row['path']!);
      listed.add(p);
      const d = row['digest'];
      if (d === 'zero') unsigned.add(p);
      else if (d === 'mismatch') stale.add(p);
      else assert.equal(d, 'ok', `${p}: digest ${d}`);
    }
  }
  // corpus/pairs: the same programs built by fxc and by dxc (name.dxbc, name.dxil); its manifest has
  // no digest column, so a pair's digest state is read from the file's 16 digest bytes (all zero:
  // unsigned, dxc without validation).
  for (const m of walk(corpus).filter((f) => /\/pairs\/.*MANIFEST\.tsv$/.test(f))) {
    for (const row of readManifest(m)) {
      for (const ext of ['dxbc', 'dxil']) {
        const f = join(dirname(m), `${row['name']!}.${ext}`);
        if (!existsSync(f)) continue;
        const p = relative(SHARED, f);
        listed.add(p);
        if (
          readFileSync(f)
            .subarray(4, 20)
            .every((b) => b === 0)
        )
          unsigned.add(p);
      }
    }
  }
  for (const row of readManifest(join(oracle, 'MANIFEST.tsv'))) {
    if (row['set'] === 'own-d3d9') continue; // Direct3D 9 programs, not containers
    const build = join(oracle, row['path']!);
    const p = relative(SHARED, join(build, 'shader.dxbc'));
    // fxc writes an fx_5_0 effect as a bare effect binary, not a container: verify skips it in a folder
    if (readFileSync(join(build, 'shader.dxbc')).toString('latin1', 0, 4) !== 'DXBC') continue;
    listed.add(p);
    if (readFileSync(join(build, 'listing.asm'), 'latin1').includes(DEBUG_LAYER_NOTE)) stale.add(p);
  }
  return { unsigned, stale, listed };
}

test(
  'verify --roundtrip over the corpus and the oracle: all parse, all identical, only the marked ones not valid',
  { skip: skipUnlessShared('corpus') || skipUnlessShared('oracle') },
  () => {
    const want = expected();
    const s = verifyPaths([sharedPath('corpus')!, sharedPath('oracle')!], { roundtrip: true });
    const rel = (ps: string[]): string[] => ps.map((p) => relative(SHARED, p)).sort();
    console.log(
      `verify: ${s.containers} containers, ${s.valid.length} valid, ${s.unsigned.length} unsigned, ${s.stale.length} stale, ` +
        `${s.errors.length} errors; round trip ${s.identical} identical, ${s.different.length} different`,
    );
    assert.deepEqual(s.errors, []);
    assert.deepEqual(rel(s.different), []);
    assert.equal(s.identical, s.containers);
    assert.deepEqual(rel(s.unsigned), [...want.unsigned].sort(), 'unsigned = the manifests’ digest zero');
    assert.deepEqual(rel(s.stale), [...want.stale].sort(), 'stale = digest_ok no, and the debug-layer builds');
    // Every container the manifests list was found (by its magic), and nothing else was.
    const all = rel([...s.valid, ...s.unsigned, ...s.stale]);
    assert.deepEqual(all, [...want.listed].sort());
    assert.ok(want.unsigned.size > 0 && want.stale.size > 0, 'the data marks some containers');
    console.log(`  unsigned: ${want.unsigned.size}; stale: ${[...want.stale].sort().join(', ')}`);
  },
);
