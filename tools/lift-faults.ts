// Page faults and CPU of the SM4/5 lift and its WGSL emission, phase by phase, for one or more built
// trees (issue 17, docs/benchmarks.md, the twenty-fourth session). V8 puts a list or a string of
// over 128 KiB in its large-object space, on pages mapped for it alone, and the first write to each
// page is a page fault (about 11 µs here: tools/fresh-lists.ts). A count of faults does not move
// with this machine's speed, so it says what a change did to them where a timing cannot.
//
//   node --import tsx tools/lift-faults.ts [--min-instructions N] [--max-instructions N] [--passes N] [--arenas K] TREE...
//
// TREE: a checkout with dist/ built (`npx tsc -p tsconfig.build.json`), e.g. this one and a worktree
// of the commit before a change. Each tree runs tools/lift-faults-worker.mjs under plain node, in a
// process of its own: the programs of ../shared/corpus/dxbc and dxbc-sm51 that lift and emit (with
// --min-instructions N only those of at least N instructions, default 1024; with --max-instructions
// N only those of fewer than N) are lifted and emitted `passes` times (default 6) after a warm-up
// pass, each phase timed and its minor page faults counted (process.resourceUsage) program by
// program. Printed for each tree: the best pass's CPU µs an instruction of each phase, and the page
// faults a program: the mean over the programs of each one's least in any pass (a pass's own count
// also takes in the faults of the heap's growth and of collections, which move from run to run; it
// is printed beside it); then the K programs with the largest expression arenas (default 8), with
// their least faults in each phase. Figures only: nothing is asserted.

import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedPath } from '../test/helpers/shared.js';
import { positiveArg, takeOption } from './corpus-args.js';

const USAGE =
  'usage: node --import tsx tools/lift-faults.ts [--min-instructions N] [--max-instructions N] [--passes N] [--arenas K] TREE...';

const { value: minArg = '1024', rest: a1 } = takeOption(process.argv.slice(2), '--min-instructions');
const { value: maxArg = 'Infinity', rest: a2 } = takeOption(a1, '--max-instructions');
const { value: passesArg, rest: a3 } = takeOption(a2, '--passes');
const { value: arenasArg = '8', rest: trees } = takeOption(a3, '--arenas');
if (trees.length === 0 || !/^\d+$/.test(minArg) || !/^(\d+|Infinity)$/.test(maxArg) || !/^\d+$/.test(arenasArg)) {
  console.error(USAGE);
  process.exit(2);
}
const passes = positiveArg('lift-faults', 'passes', passesArg, 6);
const folders = ['corpus/dxbc', 'corpus/dxbc-sm51'].flatMap((f) => sharedPath(f) ?? []);
if (folders.length === 0) {
  console.error('lift-faults: ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)');
  process.exit(2);
}
const worker = join(dirname(fileURLToPath(import.meta.url)), 'lift-faults-worker.mjs');
for (const tree of trees) {
  const r = spawnSync(
    process.execPath,
    [worker, resolve(tree), minArg, maxArg, String(passes), arenasArg, ...folders],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) {
    console.error(`lift-faults: the worker for ${tree} failed (exit ${r.status})`);
    process.exit(3);
  }
}
