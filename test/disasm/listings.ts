// The Microsoft listings the disassembler is compared with: every listing*.asm beside a
// shader.dxbc under an oracle folder, and every NAME.ms[.0xNN].asm beside NAME.dxbc in the corpus,
// with the flag word its name states, grouped as the issue counts them.

import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Container } from '../../src/container/container.js';
import { walk } from '../helpers/shared.js';

export interface ListingCase {
  readonly container: string;
  readonly listing: string;
  readonly flags: number;
}

/** listing.asm / listing.0xNN.asm beside shader.dxbc. */
export function oracleCases(root: string): ListingCase[] {
  const out: ListingCase[] = [];
  for (const f of walk(root)) {
    const m = /^listing(?:\.(0x[0-9a-f]+))?\.asm$/.exec(basename(f));
    const container = join(dirname(f), 'shader.dxbc');
    if (m && existsSync(container)) out.push({ container, listing: f, flags: m[1] ? parseInt(m[1], 16) : 0 });
  }
  return out;
}

/** NAME.ms.asm / NAME.ms.0xNN.asm beside NAME.dxbc. */
export function corpusCases(root: string): ListingCase[] {
  const out: ListingCase[] = [];
  for (const f of walk(root)) {
    const m = /^(.*)\.ms(?:\.(0x[0-9a-f]+))?\.asm$/.exec(f);
    if (m && existsSync(`${m[1]}.dxbc`))
      out.push({ container: `${m[1]}.dxbc`, listing: f, flags: m[2] ? parseInt(m[2], 16) : 0 });
  }
  return out;
}

/** plain, level 9 (Aon9), debug (SPDB/SDBG), library (LIBH: lib_4_x/lib_5_0), effect (no SHDR/SHEX: fx_4_x). */
export function groupOf(c: Container): 'plain' | 'level9' | 'debug' | 'library' | 'effect' {
  const kinds = new Set(c.parts.map((p) => p.kind));
  if (kinds.has('LIBH')) return 'library';
  if (!kinds.has('SHEX') && !kinds.has('SHDR')) return 'effect';
  if (kinds.has('Aon9')) return 'level9';
  if (kinds.has('SPDB') || kinds.has('SDBG')) return 'debug';
  return 'plain';
}
