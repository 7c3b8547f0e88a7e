// The containers a measuring worker reads (tools/ab-read-worker.mjs, ab-listing-worker.mjs), in
// plain JavaScript for plain `node`: every file under a folder whose name ends in `ext`, in the
// order of a walk with each folder's entries sorted by name, so every run and tree reads the same
// files in the same order.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Paths of the files under `folder` ending in `ext`, folders walked, entries in name order. */
export function sortedFiles(folder, ext) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith(ext)) out.push(p);
    }
  };
  walk(folder);
  return out;
}
