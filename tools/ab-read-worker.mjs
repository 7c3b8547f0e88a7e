// The measured half of tools/ab-read.ts, in plain JavaScript under plain `node` (as
// ab-lift-worker.mjs): the DXIL module read of two compiled trees in one process.
//
//   node tools/ab-read-worker.mjs ROUNDS FOLDER FIRST_TREE SECOND_TREE
//
// Imports FIRST_TREE's dist/src, then SECOND_TREE's, keeps every .dxil container under FOLDER that
// both read (a container parsed and its DXIL part's module read, as the bench's "DXIL module read"),
// runs five untimed rounds, then ROUNDS timed rounds, each one pass of each tree over the
// containers, the order swapped every round. On stdout one line of JSON: the containers, and each
// tree's CPU milliseconds a pass, round by round.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuMs, sortedFiles } from './worker-common.mjs';

const [roundsArg, folder, ...trees] = process.argv.slice(2);
const rounds = Number(roundsArg);

async function reader(tree) {
  const load = (p) => import(pathToFileURL(join(resolve(tree), 'dist/src', p)).href);
  const { parseContainer } = await load('container/container.js');
  const { readPartModule } = await load('dxil/disassemble.js');
  return (b) => readPartModule(parseContainer(b), 'DXIL');
}
const read = [];
for (const t of trees) read.push(await reader(t));

const inputs = [];
for (const p of sortedFiles(folder, '.dxil')) {
  const b = readFileSync(p);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  try {
    for (const r of read) r(bytes);
    inputs.push(bytes);
  } catch {
    // a container either tree refuses is not timed
  }
}

const times = read.map(() => []);
for (let k = 0; k < rounds + 5; k++) {
  for (const j of k % 2 === 0 ? [0, 1] : [1, 0]) {
    const r = read[j];
    const c0 = cpuMs();
    for (const b of inputs) r(b);
    if (k >= 5) times[j].push(cpuMs() - c0);
  }
}
console.log(JSON.stringify({ containers: inputs.length, times }));
