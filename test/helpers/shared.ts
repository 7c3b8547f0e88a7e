// Access to ../shared (the oracle and the corpus) for tests. A user's clone has no ../shared:
// tests that need it skip with a message saying so. Nothing here writes into ../shared.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { needs } from './strict.js';

const HERE = dirname(fileURLToPath(import.meta.url));
// The compiled copy `npm run bench` runs sits in dist-bench/test/helpers, one folder deeper.
export const REPO = resolve(HERE, basename(resolve(HERE, '../..')) === 'dist-bench' ? '../../..' : '../..');
export const SHARED = resolve(process.env['IRIDIA_SHARED'] ?? join(REPO, '../shared'));
export const FIXTURES = join(REPO, 'test/fixtures');

/** The path of a folder under ../shared, or undefined when the shared data is absent. */
export function sharedPath(sub: string): string | undefined {
  const p = join(SHARED, sub);
  return existsSync(p) ? p : undefined;
}

/** The reason a test skips when a shared folder is absent (for `test(name, { skip }, ...)`); under
 * IRIDIA_STRICT=1 its absence fails the run (helpers/strict.ts). */
export function skipUnlessShared(sub: string): string | false {
  return needs(
    sharedPath(sub) === undefined
      ? `../shared/${sub} is absent (a clone without the shared data; set IRIDIA_SHARED to point at it)`
      : false,
  );
}

/** Every file under `dir`, recursively, in sorted order. */
export function walk(dir: string): string[] {
  const out: string[] = [];
  const rec = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) rec(p);
      else if (e.isFile()) out.push(p);
    }
  };
  rec(dir);
  return out;
}

export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Is the file a container (starts with 'DXBC')? */
export function isContainerFile(path: string): boolean {
  const b = readFileSync(path).subarray(0, 4);
  return b.length === 4 && b.toString('latin1') === 'DXBC';
}

/** Rows of a tab-separated manifest with a header line, as objects. */
export function readManifest(path: string): Record<string, string>[] {
  const [head, ...rows] = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const cols = head!.split('\t');
  return rows.map((r) => {
    const cells = r.split('\t');
    return Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']));
  });
}

/**
 * Byte-for-byte comparison without normalisation. Returns undefined when equal, else a message
 * naming the first differing offset, line and column, with both lines escaped.
 */
export function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  const line = expected.slice(0, i).split('\n').length;
  const col = i - (expected.lastIndexOf('\n', i - 1) + 1) + 1;
  const lineOf = (s: string): string => {
    const start = s.lastIndexOf('\n', i - 1) + 1;
    const end = s.indexOf('\n', i);
    return JSON.stringify(s.slice(start, end < 0 ? s.length : end));
  };
  return `first difference at offset ${i} (line ${line}, column ${col})\n  expected: ${lineOf(expected)}\n  actual:   ${lineOf(actual)}`;
}
