// The listing header against Microsoft's: for every listing*.asm of the oracle and NAME.ms*.asm of
// the corpus, the text before the version line (ps_5_0, vs_4_0, ... possibly after an instruction
// number or offset prefix) equals listingHeader(container, flags) for the file's flag word; flag
// 0x40 prints no header. For a level 9 container the header is followed by level9.ts's mapping
// tables: the two together are compared up to and including "// Level9 shader bytecode:" and "//"
// (the Direct3D 9 listing after it is the Direct3D 9 disassembler's), and counted apart. Effect listings (fx_4_x) are not Shader Model 4/5 programs and are skipped; a library's header is its own lines and its first function's header (src/disasm/library.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { listingHeader } from '../../src/disasm/header.js';
import { level9Listing } from '../../src/disasm/level9.js';
import { isLibrary, libraryFunctions } from '../../src/disasm/library.js';
import { FIXTURES, SHARED, firstDifference, readBytes, skipUnlessShared, walk } from '../helpers/shared.js';
import { reportAgainstKnown } from '../helpers/known.js';

// A library's programs are lib_M_N, its level-9 programs lib_4_0_vs_2_0 and the like.
const VERSION_LINE = /^(\s*\d*\s+)?(0x[0-9A-F]{8}: )?((lib_4_0_)?(ps|vs|gs|hs|ds|cs)_\d_[\dx]|lib_\d_\d)$/;
const LEVEL9_END = '// Level9 shader bytecode:\n//\n';

/** Microsoft's header: the text before the version line (cut after the level 9 title). */
export function expectedHeader(listing: string): { text: string; level9: boolean } | undefined {
  const lines = listing.split('\n');
  const i = lines.findIndex((l) => VERSION_LINE.test(l));
  if (i < 0) return undefined;
  let text = i === 0 ? '' : `${lines.slice(0, i).join('\n')}\n`;
  const l9 = text.indexOf(LEVEL9_END);
  if (l9 >= 0) text = text.slice(0, l9 + LEVEL9_END.length);
  return { text, level9: l9 >= 0 };
}

/** The flag word a listing's file name states (listing.0x04.asm, NAME.ms.0x20.asm; none: 0). */
export function listingFlags(path: string): number {
  const m = /\.(0x[0-9a-f]+)\.asm$/.exec(path);
  return m ? parseInt(m[1]!, 16) : 0;
}

interface Tally {
  total: number;
  level9: number;
  /** Containers with debug information (SPDB/SDBG): the header does not depend on it. */
  debug: number;
  instructionsOnly: number;
  failures: Map<string, string>;
}

function check(tally: Tally, name: string, listingPath: string, containerPath: string): void {
  const listing = readFileSync(listingPath, 'latin1');
  if (listing.startsWith('//\n// FX Version')) return; // an effect, not a program
  const want = expectedHeader(listing);
  if (want === undefined) {
    tally.failures.set(name, 'no version line in the listing');
    tally.total++;
    return;
  }
  const flags = listingFlags(listingPath);
  tally.total++;
  if (want.level9) tally.level9++;
  if (flags & 0x40) tally.instructionsOnly++;
  let got: string;
  try {
    const c = parseContainer(readBytes(containerPath));
    if (c.parts.some((p) => p.kind === 'SPDB' || p.kind === 'SDBG')) tally.debug++;
    got = listingHeader(c, flags);
    if (want.level9) {
      // a library's first function's level-9 programs come before its first version line
      const l9 = level9Listing(isLibrary(c) ? libraryFunctions(c)[0]! : c, flags);
      const end = l9.indexOf(LEVEL9_END);
      got += end < 0 ? l9 : l9.slice(0, end + LEVEL9_END.length);
    }
  } catch (e) {
    tally.failures.set(name, `threw ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  const d = firstDifference(got, want.text);
  if (d !== undefined) tally.failures.set(name, d);
}

test('listing header equals Microsoft on every committed oracle fixture (every flag word)', () => {
  const tally: Tally = { total: 0, level9: 0, debug: 0, instructionsOnly: 0, failures: new Map() };
  const committed = [...walk(join(FIXTURES, 'oracle/own')), ...walk(join(FIXTURES, 'reflect'))];
  for (const f of committed.filter((p) => /\/listing[^/]*\.asm$/.test(p))) {
    check(tally, f, f, join(dirname(f), 'shader.dxbc'));
  }
  for (const f of committed.filter((p) => /\.ms(\.0x[0-9a-f]+)?\.asm$/.test(p))) {
    check(tally, f, f, join(dirname(f), `${basename(f).replace(/\.ms(\.0x[0-9a-f]+)?\.asm$/, '')}.dxbc`));
  }
  assert.ok(tally.total >= 100, `expected the committed listings, found ${tally.total}`);
  assert.ok(tally.level9 > 0 && tally.instructionsOnly > 0, 'fixtures cover level 9 and flag 0x40');
  assert.deepEqual([...tally.failures], []);
});

test('listing header equals Microsoft on every listing of ../shared', { skip: skipUnlessShared('oracle') }, () => {
  const tally: Tally = { total: 0, level9: 0, debug: 0, instructionsOnly: 0, failures: new Map() };
  for (const f of walk(join(SHARED, 'oracle')).filter((p) => /\/listing[^/]*\.asm$/.test(p))) {
    if (!existsSync(join(dirname(f), 'shader.dxbc'))) continue; // own-d3d9: Direct3D 9 programs
    check(tally, f.slice(SHARED.length + 1), f, join(dirname(f), 'shader.dxbc'));
  }
  const corpus = join(SHARED, 'corpus/dxbc');
  if (existsSync(corpus)) {
    for (const f of walk(corpus).filter((p) => /\.ms(\.0x[0-9a-f]+)?\.asm$/.test(p))) {
      const container = join(dirname(f), `${basename(f).replace(/\.ms(\.0x[0-9a-f]+)?\.asm$/, '')}.dxbc`);
      check(tally, f.slice(SHARED.length + 1), f, container);
    }
  }
  console.log(
    `listing-header: ${tally.total} listings (${tally.level9} level 9, compared up to the Direct3D 9 program; ${tally.debug} with debug information; ${tally.instructionsOnly} under flag 0x40, no header)`,
  );
  assert.ok(tally.total > 18000, `expected the oracle and corpus listings, found ${tally.total}`);
  reportAgainstKnown('listing-header', { total: tally.total, failures: tally.failures });
});
