// The measuring half of tools/pretenure.ts, in plain JavaScript under plain `node` (see
// ab-lift-worker.mjs for why not tsx), on the tree built in dist/.
//
//   node [V8 FLAGS] tools/pretenure-worker.mjs rate ROUNDS EXT FOLDER...
//   node --allow-natives-syntax --expose-gc tools/pretenure-worker.mjs census EXT FOLDER...
//   node [V8 FLAGS] tools/pretenure-worker.mjs freed EXT FOLDER...
//   node tools/pretenure-worker.mjs survivors MAX PASSES ONLY EXT FOLDER...   (tools/survivors.ts)
//
// `rate`: lifts and emits every program that lifts once (the warm-up, as a batch's first programs
// are), then ROUNDS rounds; prints one JSON object: the programs, each round's rate per CPU-second
// (all threads, so the collector's helpers count), and the young collections' number and time.
// `census`: after the warm-up, 200 programs are lifted one at a time, each just after a young
// collection (so nothing it makes can have been promoted), and every object of the lifted IR module
// is asked whether it is in the young generation, and (EXT .dxil) so is every object of 200 DXIL
// modules as the reader makes them; prints the counts by the object's keys (an array: by its holder).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMs, sortedFiles } from './worker-common.mjs';

const [mode, ...rest] = process.argv.slice(2);
const root = resolve('.');
const url = (p) => pathToFileURL(resolve(root, 'dist/src', p)).href;
const { parseContainer } = await import(url('container/container.js'));
const { liftContainer } = await import(url('lift/lift.js'));
const { emitWgsl } = await import(url('wgsl/index.js'));

/** The programs of `folders` that lift and emit, of the files ending in `ext` whose path `keep` takes. */
function inputs(ext, folders, keep = () => true) {
  const out = folders.flatMap((f) => sortedFiles(f, ext).filter(keep)).map((p) => readFileSync(p));
  return out.filter((b) => {
    try {
      emitWgsl(liftContainer(parseContainer(b)));
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * What `run` allocated that no young collection freed (V8's sampling heap profiler, one sample
 * about every KB: what was still alive at the end, or freed by a full collection), by the function
 * that allocated it: the bytes in all, and the `n` heaviest functions with their bytes.
 */
async function freedBy(run, n) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
  run();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const nodes = new Map();
  const index = (node) => {
    nodes.set(node.id, node);
    node.children.forEach(index);
  };
  index(profile.head);
  const bytes = new Map();
  let total = 0;
  for (const { nodeId, size } of profile.samples) {
    const f = nodes.get(nodeId)?.callFrame;
    if (!f) continue;
    const where = `${f.functionName || '(anonymous)'} ${f.url.split('/dist/src/')[1] ?? (f.url || '(native)')}:${f.lineNumber + 1}`;
    bytes.set(where, (bytes.get(where) ?? 0) + size);
    total += size;
  }
  return { total, top: [...bytes].sort((a, b) => b[1] - a[1]).slice(0, n) };
}

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
    const t = cpuMs();
    for (const b of programs) emitWgsl(liftContainer(parseContainer(b)));
    rates.push((programs.length * 1000) / (cpuMs() - t));
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
  // an object's kind: its class, or its keys; an array's, the field that holds it
  const shape = (o) => {
    const n = o.constructor?.name;
    return n === 'Object' || n === undefined ? `{${Object.keys(o).join(',')}}` : n;
  };
  // 200 programs, each made just after a young collection by `make`; every object reachable from
  // what it returns is counted, young or old, by kind
  const census = (make) => {
    const counts = new Map();
    let old = 0;
    let all = 0;
    for (let k = 0; k < 200; k++) {
      const b = programs[(k * 7) % programs.length];
      globalThis.gc({ type: 'minor' });
      const seen = new Set();
      const stack = [[make(b), '']];
      while (stack.length) {
        const [o, holder] = stack.pop();
        if (o === null || typeof o !== 'object' || seen.has(o) || ArrayBuffer.isView(o)) continue;
        seen.add(o);
        const y = young(o);
        all++;
        if (!y) old++;
        const key = Array.isArray(o) ? `Array in ${holder}` : shape(o);
        const c = counts.get(key) ?? [0, 0];
        c[y ? 1 : 0]++;
        counts.set(key, c);
        if (o instanceof Map) for (const [a, v] of o) stack.push([a, 'Map'], [v, 'Map']);
        else if (Array.isArray(o)) for (const v of o) stack.push([v, `${holder}[]`]);
        else for (const [f, v] of Object.entries(o)) stack.push([v, `${shape(o)}.${f}`]);
      }
    }
    const top = [...counts].sort((a, b) => b[1][0] - a[1][0]).slice(0, 12);
    return { programs: 200, objects: all, old, top };
  };
  const ir = census((b) => liftContainer(parseContainer(b)).module);
  let reader;
  if (ext === '.dxil') {
    const { readProgramHeader } = await import(url('dxil/program-header.js'));
    const { readModule } = await import(url('dxil/module.js'));
    reader = census((b) => {
      const part = parseContainer(b).parts.find((p) => p.kind === 'DXIL');
      if (!part) return null;
      const h = readProgramHeader(part.data, part.kind, part.offset + 8);
      return readModule(h.bitcode, { part: part.kind, offset: 0 });
    });
  }
  console.log(JSON.stringify({ ir, reader }));
} else if (mode === 'freed') {
  // Where the objects that die in the old generation were allocated: a sampling heap profile of
  // three passes of lift after the warm-up, keeping the samples of objects still alive at the end
  // and of those a full collection freed, not of those a young collection freed. An object made
  // old by a switched allocation site, or promoted because an old object pointed at it, shows here.
  const [ext, ...folders] = rest;
  const programs = inputs(ext, folders);
  const lift = () => {
    for (const b of programs) liftContainer(parseContainer(b));
  };
  for (let r = 0; r < 3; r++) lift();
  const { total, top } = await freedBy(() => {
    for (let r = 0; r < 3; r++) lift();
  }, 10);
  console.log(JSON.stringify({ programs: programs.length, total, top }));
} else if (mode === 'survivors') {
  // tools/survivors.ts: lift + WGSL of the programs under MAX instructions whose path holds ONLY
  // (`-`: every one), two passes and at least 2,000 programs to warm up, PASSES passes timed (CPU,
  // collections, page faults), then two passes and at least 2,000 programs under freedBy.
  const [maxArg, passesArg, only, ext, ...folders] = rest;
  const programs = inputs(ext, folders, (path) => only === '-' || path.includes(only)).filter(
    (b) => liftContainer(parseContainer(b)).provenance.instructions < Number(maxArg),
  );
  const pass = () => {
    for (const b of programs) emitWgsl(liftContainer(parseContainer(b)));
  };
  // two passes, and at least 2,000 programs: returns how many programs that was
  const passes = () => {
    let done = 0;
    while (programs.length && done < Math.max(2 * programs.length, 2000)) {
      pass();
      done += programs.length;
    }
    return done;
  };
  passes();
  const { GCProfiler } = await import('node:v8');
  const profiler = new GCProfiler();
  profiler.start();
  const faults0 = process.resourceUsage().minorPageFault;
  const cpu0 = cpuMs();
  for (let k = 0; k < Number(passesArg); k++) pass();
  const spent = cpuMs() - cpu0;
  const faults = process.resourceUsage().minorPageFault - faults0;
  const gcs = profiler.stop().statistics;
  const isYoung = (g) => g.gcType === 'Scavenge' || g.gcType === 'MinorMarkCompact';
  const young = gcs.filter(isYoung).length;
  // what the young collections moved into the old generation: its growth across each of them
  const oldUsed = (stats) =>
    stats.heapSpaceStatistics
      .filter((sp) => sp.spaceName === 'old_space' || sp.spaceName === 'large_object_space')
      .reduce((a, sp) => a + sp.spaceUsedSize, 0);
  const promoted = gcs.filter(isYoung).reduce((a, g) => a + oldUsed(g.afterGC) - oldUsed(g.beforeGC), 0);
  const collectorMs = gcs.reduce((a, g) => a + g.cost, 0) / 1000;
  let sampled = 0;
  const { total, top } = await freedBy(() => (sampled = passes()), 15);
  console.log(
    JSON.stringify({
      programs: programs.length,
      cpuMs: spent,
      young,
      full: gcs.length - young,
      collectorMs,
      promoted,
      faults,
      sampled,
      total,
      top,
    }),
  );
} else {
  console.error(
    'usage: pretenure-worker.mjs rate ROUNDS EXT FOLDER... | census EXT FOLDER... | freed EXT FOLDER... | survivors MAX PASSES ONLY EXT FOLDER...',
  );
  process.exit(2);
}
