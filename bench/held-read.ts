// A child of dxil.bench.ts (issue 17): DXIL module reading in a fresh process that starts by reading
// every container and keeping every module (a viewer that loads a game's shaders and keeps them),
// then reads the same containers again while those are held, letting each new module go. V8
// decides early in a process, per object literal, whether to allocate its objects in the old
// generation: while the reader made its metadata by literals, holding the first modules made those
// sites old, and every read after was 3.4 times dearer (docs/benchmarks.md, the nineteenth session).
// It runs in a process of its own, as the decision is made once per process.
//
//   node dist-bench/bench/held-read.js LIST      (LIST: a file of container paths, one a line)
//
// Prints one JSON object: {"held": CPU ms of the first pass (cold, every module kept), "after": of
// the best of ten passes after it (and a warm-up), "kept": the modules held}.

import { readFileSync } from 'node:fs';
import { parseContainer } from '../src/container/container.js';
import { readPartModule } from '../src/dxil/disassemble.js';
import { best } from './disasm.bench.js';

const list = process.argv[2];
if (list === undefined) {
  console.error('usage: node held-read.js LIST');
  process.exit(2);
}
const inputs = readFileSync(list, 'utf8')
  .split('\n')
  .filter((p) => p !== '')
  .map((p) => new Uint8Array(readFileSync(p)));
const read = (b: Uint8Array) => readPartModule(parseContainer(b), 'DXIL');
// The first pass holds every module it reads, and they stay held (as a viewer keeps what it loaded)
// while the same containers are read again, each module let go at once.
const c0 = process.cpuUsage();
const kept = inputs.map(read);
const c = process.cpuUsage(c0);
const held = (c.user + c.system) / 1000;
const after = best(() => {
  for (const b of inputs) read(b);
}, 10).cpu;
console.log(JSON.stringify({ held, after, kept: kept.length }));
