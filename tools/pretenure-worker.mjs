// The measuring half of tools/pretenure.ts, in plain JavaScript under plain `node` (see
// ab-lift-worker.mjs for why not tsx), on the tree built in dist/.
//
//   node [V8 FLAGS] tools/pretenure-worker.mjs rate ROUNDS EXT FOLDER...
//   node --allow-natives-syntax --expose-gc tools/pretenure-worker.mjs census EXT FOLDER...
//
// `rate`: lifts and emits every program that lifts once (the warm-up, as a batch's first programs
// are), then ROUNDS rounds; prints one JSON object: the programs, each round's rate per CPU-second
// (all threads, so the collector's helpers count), and the young collections' number and time.
// `census`: after the warm-up, 200 programs are lifted one at a time, each just after a young
// collection (so nothing it makes can have been promoted), and every object of the lifted IR module
// is asked whether it is in the young generation; prints the counts by the object's keys.

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const [mode, ...rest] = process.argv.slice(2);
const root = resolve('.');
const url = (p) => pathToFileURL(resolve(root, 'dist/src', p)).href;
const { parseContainer } = await import(url('container/container.js'));
const { liftContainer } = await import(url('lift/lift.js'));
const { emitWgsl } = await import(url('wgsl/index.js'));

function inputs(ext, folders) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(ext)) out.push(readFileSync(join(d, e.name)));
    }
  };
  for (const f of folders) walk(f);
  return out.filter((b) => {
    try {
      emitWgsl(liftContainer(parseContainer(b)));
      return true;
    } catch {
      return false;
    }
  });
}

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

if (mode === 'rate') {
  const [roundsArg, ext, ...folders] = rest;
  const programs = inputs(ext, folders);
  let scavengeMs = 0;
  let scavenges = 0;
  // the young collections: their number and time (what each copied is not exposed here)
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        scavenges++;
        scavengeMs += e.duration;
      }
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  const rates = [];
  for (let r = 0; r < Number(roundsArg); r++) {
    const t = cpu();
    for (const b of programs) emitWgsl(liftContainer(parseContainer(b)));
    rates.push((programs.length * 1000) / (cpu() - t));
  }
  // gc entries are delivered after the collection: let the last ones arrive
  await sleep(10);
  obs.disconnect();
  console.log(JSON.stringify({ programs: programs.length, rates, scavenges, scavengeMs }));
} else if (mode === 'census') {
  const [ext, ...folders] = rest;
  const programs = inputs(ext, folders);
  const young = new Function('o', 'return %InYoungGeneration(o)');
  for (const b of programs) liftContainer(parseContainer(b));
  const shape = (o) => {
    if (Array.isArray(o)) return 'Array';
    const n = o.constructor?.name;
    return n === 'Object' || n === undefined ? `{${Object.keys(o).join(',')}}` : n;
  };
  const counts = new Map();
  let old = 0;
  let all = 0;
  for (let k = 0; k < 200; k++) {
    const b = programs[(k * 7) % programs.length];
    globalThis.gc({ type: 'minor' });
    const m = liftContainer(parseContainer(b)).module;
    const seen = new Set();
    const stack = [m];
    while (stack.length) {
      const o = stack.pop();
      if (o === null || typeof o !== 'object' || seen.has(o) || ArrayBuffer.isView(o)) continue;
      seen.add(o);
      const y = young(o);
      all++;
      if (!y) old++;
      const key = shape(o);
      const c = counts.get(key) ?? [0, 0];
      c[y ? 1 : 0]++;
      counts.set(key, c);
      for (const v of Array.isArray(o) ? o : Object.values(o)) stack.push(v);
    }
  }
  const top = [...counts].sort((a, b) => b[1][0] - a[1][0]).slice(0, 12);
  console.log(JSON.stringify({ programs: 200, objects: all, old, top }));
} else {
  console.error('usage: pretenure-worker.mjs rate ROUNDS EXT FOLDER... | census EXT FOLDER...');
  process.exit(2);
}
