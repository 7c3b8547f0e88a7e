// Debug information against Microsoft's listings: every listing of every /Zi build of
// ../shared/oracle/own (14 flag words each), and every NAME.ms*.asm of the SPDB and SDBG containers
// of ../shared/corpus/dxbc. Two suites: 'debug' checks the debug lines alone (splice.ts), and
// 'debug-listing' the whole listing through disassemble(), byte for byte.

import { test } from 'node:test';
import { join } from 'node:path';
import { reportAgainstKnown } from '../helpers/known.js';
import { readManifest, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { checkLines, checkListing, corpusCases, oracleCases, run, type ListingCase } from './cases.js';

function corpus(): ListingCase[] {
  const root = sharedPath('corpus/dxbc')!;
  const names = readManifest(join(root, 'MANIFEST.tsv'))
    .filter((r) => /(^|,)(SPDB|SDBG)(,|$)/.test(r['parts'] ?? ''))
    .map((r) => r['path']!.replace(/\.dxbc$/, ''));
  return corpusCases(root, names);
}

test('debug lines of the oracle /Zi builds equal Microsoft’s', { skip: skipUnlessShared('oracle/own') }, () => {
  reportAgainstKnown('debug', run(oracleCases(sharedPath('oracle/own')!), checkLines));
});

test(
  'debug lines of the corpus SPDB and SDBG containers equal Microsoft’s',
  { skip: skipUnlessShared('corpus/dxbc') },
  () => {
    reportAgainstKnown('debug-corpus', run(corpus(), checkLines));
  },
);

test('whole listings of the oracle /Zi builds equal Microsoft’s', { skip: skipUnlessShared('oracle/own') }, () => {
  reportAgainstKnown('debug-listing', run(oracleCases(sharedPath('oracle/own')!), checkListing));
});

test(
  'whole listings of the corpus SPDB and SDBG containers equal Microsoft’s',
  { skip: skipUnlessShared('corpus/dxbc') },
  () => {
    reportAgainstKnown('debug-listing-corpus', run(corpus(), checkListing));
  },
);
