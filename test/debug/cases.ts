// Test helper: the /Zi builds and debug-carrying containers to check, and the two checks made on
// each listing of Microsoft's:
// - 'lines': the debug lines alone, spliced into the listing in place of Microsoft's (splice.ts),
//   which needs no disassembler and isolates src/debug;
// - 'listing': the whole listing through disassemble(), byte for byte (header, level-9 part, program
//   and debug lines: the "done when").

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { annotatedInstructions, debugAnnotationResult } from '../../src/debug/annotations.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { firstDifference, readBytes } from '../helpers/shared.js';
import { splice } from './splice.js';

export interface ListingCase {
  /** Reported name: '<build>/<listing file>'. */
  readonly name: string;
  readonly container: string;
  readonly listing: string;
  readonly flags: number;
}

const LISTING = /^(?:listing|.*\.ms)(?:\.0x([0-9a-f]+))?\.asm$/;

/** Every listing of every /Zi build folder under `root` (an oracle-style tree: case/build/). */
export function oracleCases(root: string): ListingCase[] {
  const out: ListingCase[] = [];
  for (const c of readdirSync(root).sort()) {
    const dir = join(root, c);
    if (!existsSync(dir) || !readdirSync(dir, { withFileTypes: true }).some((e) => e.isDirectory())) continue;
    for (const b of readdirSync(dir).sort()) {
      const container = join(dir, b, 'shader.dxbc');
      if (!b.includes('-zi') || !existsSync(container)) continue;
      for (const f of readdirSync(join(dir, b)).sort()) {
        const m = LISTING.exec(f);
        if (m && f.startsWith('listing'))
          out.push({ name: `${c}/${b}/${f}`, container, listing: join(dir, b, f), flags: parseInt(m[1] ?? '0', 16) });
      }
    }
  }
  return out;
}

/** Every NAME.ms*.asm beside the containers `names` (paths without '.dxbc') of a corpus folder. */
export function corpusCases(root: string, names: readonly string[]): ListingCase[] {
  const out: ListingCase[] = [];
  for (const n of names) {
    const dir = join(root, n, '..');
    const stem = n.split('/').pop()!;
    for (const f of readdirSync(dir).sort()) {
      if (!f.startsWith(`${stem}.ms`)) continue;
      const m = LISTING.exec(f);
      if (m && f.slice(0, f.indexOf('.ms')) === stem)
        out.push({
          name: `${n}/${f}`,
          container: join(root, `${n}.dxbc`),
          listing: join(dir, f),
          flags: parseInt(m[1] ?? '0', 16),
        });
    }
  }
  return out;
}

/** Checks the debug lines alone (flag words without 0x10). Undefined when they match. */
export function checkLines(c: ListingCase): string | undefined {
  if (c.flags & 0x10) return undefined;
  const container = parseContainer(readBytes(c.container));
  const instructions = annotatedInstructions(container) ?? [];
  const result = debugAnnotationResult(container);
  if (result.error) return `debug information refused: ${result.error.message}`;
  const expected = readFileSync(c.listing, 'latin1');
  return firstDifference(splice(expected, instructions, result.annotations), expected);
}

const VERSION = /^\s*(\d+\s+)?(0x[0-9A-F]{8}: )?(ps|vs|gs|hs|ds|cs)_[45]_[01]$/m;

/** From the Shader Model 4/5 version line on. */
export function programPart(listing: string): string {
  const m = VERSION.exec(listing);
  return m ? listing.slice(m.index) : listing;
}

/** Checks the whole listing through disassemble(), byte for byte. */
export function checkListing(c: ListingCase): string | undefined {
  const expected = readFileSync(c.listing, 'latin1');
  let actual: string;
  try {
    actual = disassemble(readBytes(c.container), c.flags);
  } catch (e) {
    return `disassemble threw: ${(e as Error).message}`;
  }
  return firstDifference(actual, expected);
}

/** Runs a check over cases: the total and name -> reason for each miss. */
export function run(
  cases: readonly ListingCase[],
  check: (c: ListingCase) => string | undefined,
): { total: number; failures: Map<string, string> } {
  const failures = new Map<string, string>();
  let total = 0;
  for (const c of cases) {
    if (check === checkLines && c.flags & 0x10) continue;
    total++;
    let why: string | undefined;
    try {
      why = check(c);
    } catch (e) {
      why = `threw: ${(e as Error).message}`;
    }
    if (why !== undefined) failures.set(c.name, why);
  }
  return { total, failures };
}
