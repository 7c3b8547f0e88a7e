// Helpers for the Direct3D 9 tests: the flag word of a listing file, the builds of an oracle folder, and the
// level-9 section of a Shader Model 4 listing (the text level9Listing prints).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** listing.asm → 0, listing.0x04.asm → 4, NAME.ms.0x20.asm → 0x20. */
export function listingFlags(file: string): number {
  const m = /\.(0x[0-9a-f]+)\.asm$/.exec(file);
  return m ? Number.parseInt(m[1]!, 16) : 0;
}

export interface Build {
  /** `<case>/<build>` */
  readonly name: string;
  readonly dir: string;
  /** Listing file names in the folder. */
  readonly listings: readonly string[];
}

/** The build folders of an oracle set (`<root>/<case>/<build>/`) that hold `program`. */
export function builds(root: string, program: string, filter: (build: string) => boolean = () => true): Build[] {
  const out: Build[] = [];
  for (const c of readdirSync(root).sort()) {
    const cdir = join(root, c);
    if (!existsSync(cdir) || !readdirSync(cdir, { withFileTypes: true }).some((e) => e.isDirectory())) continue;
    for (const e of readdirSync(cdir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const dir = join(cdir, e.name);
      if (!e.isDirectory() || !filter(e.name) || !existsSync(join(dir, program))) continue;
      const listings = readdirSync(dir)
        .filter((f) => /^listing(\.0x[0-9a-f]+)?\.asm$/.test(f))
        .sort();
      out.push({ name: `${c}/${e.name}`, dir, listings });
    }
  }
  return out;
}

export function readText(path: string): string {
  return readFileSync(path, 'latin1');
}

const SECTION_START = /^\/\/ (Constant buffer to DX9|Sampler\/Resource to DX9|Runtime generated|Level9 shader|XNA)/m;

/**
 * The level-9 section of a listing: from the "//" line before the first mapping or bytecode title to the end of
 * the last "// approximately" line (the Shader Model 4 footer says "Approximately"). Undefined when absent.
 * The section must sit right before the Shader Model 4 version line, which the caller can check with `rest`.
 */
export function level9Section(text: string): { section: string; before: string; rest: string } | undefined {
  const m = SECTION_START.exec(text);
  if (!m) return undefined;
  const start = m.index - 3;
  const last = text.lastIndexOf('\n// approximately');
  if (last < start) return undefined;
  const end = text.indexOf('\n', last + 1) + 1;
  return { section: text.slice(start, end), before: text.slice(0, start), rest: text.slice(end) };
}
