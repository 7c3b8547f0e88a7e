// The Direct3D 9 programs the d3d9 tests read (test/d3d9/oracle.test.ts, level9.test.ts): the bare programs
// of own-d3d9 (shader.d3d9), and the level-9 programs inside the Aon9/XNAP/XNAS parts of level-9 containers
// (the oracle's level_9 builds, the corpus's Aon9 containers, library functions included), from the
// committed fixtures and, when present, from ../shared.

import { join } from 'node:path';
import { parseContainer, type Container } from '../../src/container/container.js';
import { isLibrary, libraryFunctions } from '../../src/disasm/library.js';
import { readAon9 } from '../../src/parts/aon9.js';
import { FIXTURES, readBytes, readManifest, sharedPath } from '../helpers/shared.js';
import { builds } from '../d3d9/listings.js';

export interface D3D9Case {
  readonly name: string;
  readonly bytes: Uint8Array;
}

const LEVEL9_PARTS = new Set(['Aon9', 'XNAP', 'XNAS']);

function level9Programs(name: string, container: Uint8Array, out: D3D9Case[]): void {
  const c = parseContainer(container);
  const fns: Container[] = isLibrary(c) ? libraryFunctions(c) : [c];
  fns.forEach((fn, f) => {
    let k = 0;
    for (const part of fn.parts) {
      if (!LEVEL9_PARTS.has(part.kind)) continue;
      const program = readAon9(part.data, part.offset + 8).program;
      out.push({ name: `${name}${fns.length > 1 ? `#fn${f}` : ''}:${part.kind}${k++ ? k : ''}`, bytes: program });
    }
  });
}

/** The committed fixtures' programs. */
export function fixturePrograms(): D3D9Case[] {
  const out: D3D9Case[] = [];
  const root = join(FIXTURES, 'oracle/own-d3d9');
  for (const b of builds(root, 'shader.d3d9'))
    out.push({ name: `fixtures/own-d3d9/${b.name}`, bytes: readBytes(join(b.dir, 'shader.d3d9')) });
  for (const b of builds(join(FIXTURES, 'oracle/own'), 'shader.dxbc', (n) => n.includes('level_9')))
    level9Programs(`fixtures/own/${b.name}`, readBytes(join(b.dir, 'shader.dxbc')), out);
  return out;
}

/** ../shared's programs (undefined where a folder is absent): own-d3d9, the oracle's level-9 builds, the corpus's Aon9 containers. */
export function sharedPrograms(): { cases: D3D9Case[]; missing: string[] } {
  const out: D3D9Case[] = [];
  const missing: string[] = [];
  const d3d9 = sharedPath('oracle/own-d3d9');
  if (d3d9 === undefined) missing.push('oracle/own-d3d9');
  else
    for (const b of builds(d3d9, 'shader.d3d9'))
      out.push({ name: `own-d3d9/${b.name}`, bytes: readBytes(join(b.dir, 'shader.d3d9')) });
  const oracle = sharedPath('oracle');
  if (oracle === undefined) missing.push('oracle');
  else
    for (const row of readManifest(join(oracle, 'MANIFEST.tsv'))) {
      if (!row['target']!.includes('level_9')) continue;
      level9Programs(`oracle/${row['path']!}`, readBytes(join(oracle, row['path']!, 'shader.dxbc')), out);
    }
  const corpus = sharedPath('corpus/dxbc');
  if (corpus === undefined) missing.push('corpus/dxbc');
  else
    for (const row of readManifest(join(corpus, 'MANIFEST.tsv'))) {
      if (!row['parts']!.split(',').includes('Aon9')) continue;
      level9Programs(`corpus/dxbc/${row['path']!}`, readBytes(join(corpus, row['path']!)), out);
    }
  return { cases: out, missing };
}
