// What the measuring workers share (tools/ab-lift-worker.mjs, ab-listing-worker.mjs,
// ab-read-worker.mjs, pretenure-worker.mjs), in plain JavaScript for plain `node`: the files they
// read, in one order for every run and tree, and the process's CPU time.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Paths of the files under `folder` ending in `ext`, folders walked, each folder's entries in name
 * order, so every run and tree reads the same files in the same order. */
export function sortedFiles(folder, ext) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && p.endsWith(ext)) out.push(p);
    }
  };
  walk(folder);
  return out;
}

/** This process's CPU time so far (user and system, all threads), in milliseconds. */
export function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
