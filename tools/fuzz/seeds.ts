// The seed files of a campaign: the committed fixtures (always), and a deterministic sample of
// ../shared's corpus and oracle when present and asked for. Same options, same seeds, same order.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseContainer } from '../../src/container/container.js';
import { hashString } from './mutate.js';
import type { Target } from './targets.js';

export const REPO = resolve(fileURLToPath(import.meta.url), '../../..');
export const SHARED = resolve(process.env['IRIDIA_SHARED'] ?? join(REPO, '../shared'));

/** Seeds larger than this are left out (a mutant of a huge seed is slow and finds nothing more). */
const MAX_SEED_BYTES = 256 * 1024;

export interface Seed {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly kind: 'container' | 'd3d9';
  readonly dxil: boolean;
  readonly parts: ReadonlySet<string>;
}

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
}

function load(path: string): Seed | undefined {
  if (statSync(path).size > MAX_SEED_BYTES) return undefined;
  const b = readFileSync(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice();
  const rel = relative(REPO, path);
  if (path.endsWith('.d3d9')) return { path: rel, bytes, kind: 'd3d9', dxil: false, parts: new Set() };
  if (bytes.byteLength < 32 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'DXBC') return undefined;
  try {
    const c = parseContainer(bytes);
    const parts = new Set(c.parts.map((p) => p.kind));
    return { path: rel, bytes, kind: 'container', dxil: parts.has('DXIL'), parts };
  } catch {
    return undefined;
  }
}

/** Every seed: the fixtures, then up to `shared` files sampled from each of ../shared's corpus folders
 * and its oracle (by a hash of the path, so the sample is the same on every machine). */
export function loadSeeds(shared: number): Seed[] {
  let seeds = cache.get(shared);
  if (!seeds) cache.set(shared, (seeds = readSeeds(shared)));
  return seeds;
}

const cache = new Map<number, Seed[]>();

function readSeeds(shared: number): Seed[] {
  const files: string[] = [];
  walk(join(REPO, 'test/fixtures'), files);
  if (shared > 0 && existsSync(SHARED)) {
    for (const sub of ['corpus/dxbc', 'corpus/dxbc-sm51', 'corpus/dxil', 'corpus/pairs', 'oracle']) {
      const dir = join(SHARED, sub);
      if (!existsSync(dir)) continue;
      const all: string[] = [];
      walk(dir, all);
      const picked = all
        .filter((f) => /\.(dxbc|dxil|cso|fxc|bin|d3d9)$/i.test(f) || !/\.[a-z]+$/i.test(f))
        .map((f) => [hashString(relative(SHARED, f)), f] as const)
        .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1))
        .slice(0, shared)
        .map(([, f]) => f);
      files.push(...picked);
    }
  }
  const out: Seed[] = [];
  for (const f of files) {
    const s = load(f);
    if (s) out.push(s);
  }
  return out;
}

/** The seeds a target mutates. */
export function seedsFor(t: Target, all: readonly Seed[]): Seed[] {
  return all.filter((s) => {
    if (t.seeds === 'd3d9') return s.kind === 'd3d9';
    if (s.kind !== 'container') return false;
    if (t.seeds === 'dxil' && !s.dxil) return false;
    if (t.seeds === 'dxbc' && s.dxil) return false;
    return (t.needs ?? []).every((n) => n.split('|').some((k) => s.parts.has(k)));
  });
}
