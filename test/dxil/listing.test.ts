// dxc's /Fc listings reproduced byte for byte: the fixtures (always) and every NAME.ll of
// ../shared/corpus/dxil. A NAME.ll is dxc's /Fh text between `#if 0` and `#endif`; dxc's /Fh writer
// puts one line break of its own before `#endif` (dxc.cpp), so the listing is the disassembly
// followed by "\n".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { disassembleDxil } from '../../src/dxil/disassemble.js';
import { FIXTURES, firstDifference, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { reportAgainstKnown } from '../helpers/known.js';

function listingOf(dxil: string): string {
  return disassembleDxil(parseContainer(readBytes(dxil))) + '\n';
}

test('dxil: fixture listings equal dxc /Fc byte for byte', () => {
  const dir = join(FIXTURES, 'dxil');
  const lls = readdirSync(dir).filter((f) => f.endsWith('.ll'));
  assert.ok(lls.length >= 3, 'the dxil fixtures hold listings');
  for (const ll of lls) {
    const expected = readFileSync(join(dir, ll), 'latin1');
    const diff = firstDifference(listingOf(join(dir, ll.replace(/\.ll$/, '.dxil'))), expected);
    assert.equal(diff, undefined, `${ll}: ${diff}`);
  }
});

test('dxil: corpus listings (NAME.ll) equal dxc /Fc byte for byte', { skip: skipUnlessShared('corpus/dxil') }, () => {
  const root = sharedPath('corpus/dxil')!;
  const exact = new Map<string, string>();
  const stripped = new Map<string, string>();
  let total = 0;
  for (const d of readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(root, d.name))
      .filter((x) => x.endsWith('.ll'))
      .sort()) {
      total++;
      const name = `${d.name}/${f}`;
      const expected = readFileSync(join(root, d.name, f), 'latin1');
      let actual: string;
      try {
        actual = listingOf(join(root, d.name, f.replace(/\.ll$/, '.dxil')));
      } catch (e) {
        exact.set(name, `refused: ${(e as Error).message}`);
        stripped.set(name, `refused: ${(e as Error).message}`);
        continue;
      }
      const diff = firstDifference(actual, expected);
      if (diff) exact.set(name, diff);
      // Some repositories stripped trailing spaces from the listings they committed: the same
      // comparison with our trailing spaces removed tells those apart from real differences.
      const sdiff = firstDifference(actual.replace(/ +\n/g, '\n'), expected);
      if (sdiff && diff) stripped.set(name, sdiff);
    }
  }
  assert.equal(total, 95, 'the corpus holds 95 listings');
  reportAgainstKnown('dxil-listing', { total, failures: exact });
  reportAgainstKnown('dxil-listing-stripped', { total, failures: stripped });
});
