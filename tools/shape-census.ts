// Hidden classes of the IR (issue 17): how many V8 maps the objects of each kind have in the lifted
// and the lowered (lowerForWgsl) modules of a corpus, by kind and key list. Objects of one kind with
// the same keys but more than one map come from different roots (a literal here, a spread or another
// constructor there); a field read that meets more than four maps is a megamorphic load in every
// function that reads it. Kinds the builder keeps as made (nodes.ts: the sample, image and atomic
// kinds, whose shape depends on their optional fields) show up here too, on purpose.
//
//   node --allow-natives-syntax --import tsx tools/shape-census.ts [--dxil] [--every N] [--all]
//
// Default: the SM4/5 corpus (../shared/corpus/dxbc and dxbc-sm51); --dxil: corpus/dxil. Every N-th
// container (default 4). Printed: each kind and key list with more than one map, its count of
// objects by map; --all prints the kinds with one map too. test/ir/records.test.ts checks the same
// over test/fixtures.

import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { lowerForWgsl } from '../src/wgsl/passes.js';
import type { Module } from '../src/ir/ir.js';
import { walkStmts } from '../src/decompile/ssa.js';
import { SHARED, isContainerFile, readBytes, sharedPath, walk } from '../test/helpers/shared.js';

let haveSameMap: (a: object, b: object) => boolean;
try {
  haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as typeof haveSameMap;
} catch {
  process.stderr.write('shape-census: run node with --allow-natives-syntax (V8 answers which objects share a map)\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
const dxil = argv.includes('--dxil');
const everyAt = argv.indexOf('--every');
const every = everyAt >= 0 ? Number(argv[everyAt + 1]) : 4;
if (!Number.isInteger(every) || every < 1) {
  process.stderr.write(`shape-census: --every takes a positive integer, not ${argv[everyAt + 1]}\n`);
  process.exit(2);
}
const roots = (dxil ? ['corpus/dxil'] : ['corpus/dxbc', 'corpus/dxbc-sm51'])
  .map((r) => sharedPath(r))
  .filter((r): r is string => r !== undefined);
if (!roots.length) {
  process.stderr.write(`shape-census: ${SHARED} is absent (set IRIDIA_SHARED to point at the shared data)\n`);
  process.exit(2);
}

/** Per kind and key list: one object of each map, and how many objects have it. */
const groups = new Map<string, { reps: object[]; counts: number[] }>();
function put(kind: string, o: object): void {
  const key = `${kind} {${Object.keys(o).join(',')}}`;
  let g = groups.get(key);
  if (!g) groups.set(key, (g = { reps: [], counts: [] }));
  let k = g.reps.findIndex((x) => haveSameMap(x, o));
  if (k < 0) {
    g.reps.push(o);
    g.counts.push(0);
    k = g.reps.length - 1;
  }
  g.counts[k]!++;
}

function census(m: Module): void {
  put('module', m);
  for (const t of m.types) put(`type ${t.kind}`, t);
  for (const g of m.globals) put('global', g);
  for (const e of m.entryPoints) put('entry point', e);
  for (const f of m.functions) {
    put('function', f);
    for (const a of f.args) put('argument', a);
    for (const l of f.locals) put('local', l);
    for (const l of f.lets) put('let', l);
    for (const e of f.exprs) put(`expression ${e.op}`, e);
    walkStmts(f.body, (s) => put(`statement ${s.op}`, s));
  }
}

let programs = 0;
let n = 0;
for (const root of roots)
  for (const path of walk(root)) {
    if (!isContainerFile(path) || n++ % every) continue;
    let m: Module;
    try {
      m = liftContainer(parseContainer(readBytes(path))).module;
    } catch {
      continue; // refused: nothing lifted
    }
    programs++;
    census(m);
    const lowered = lowerForWgsl(m);
    if (lowered !== m) census(lowered);
  }

const all = argv.includes('--all');
let mixed = 0;
for (const [key, g] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
  if (g.reps.length > 1) mixed++;
  if (g.reps.length > 1 || all)
    process.stdout.write(`${String(g.reps.length).padStart(3)} maps  ${key}  ${g.counts.join(' ')}\n`);
}
process.stderr.write(
  `shape-census: ${programs} programs (every ${every}th of ${roots.join(', ')}), ${groups.size} kinds and key lists, ` +
    `${mixed} with more than one map\n`,
);
