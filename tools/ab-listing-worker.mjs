// The measured half of tools/ab-listing.ts, in plain JavaScript under plain `node` (as
// ab-lift-worker.mjs): the DXIL /Fc listing of one compiled tree.
//
//   node tools/ab-listing-worker.mjs ROUNDS FOLDER
//
// Reads every .dxil container under FOLDER that has a DXIL part, runs a warm-up of five passes, then
// ROUNDS timed rounds of three kinds, alternately: the whole listing (disassembleDxil of each
// container), the module printer alone (ModulePrinter.print of modules read, untimed, in that round)
// and the module read as the bench times it (the container parsed and its DXIL part's module read).
// On stdout one line: the containers, then the best CPU microseconds a container of each kind.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuMs, sortedFiles } from './worker-common.mjs';

const [roundsArg, folder] = process.argv.slice(2);
const rounds = Number(roundsArg);
const url = (p) => pathToFileURL(resolve('dist/src', p)).href;
const { parseContainer } = await import(url('container/container.js'));
const { disassembleDxil, readPartModule } = await import(url('dxil/disassemble.js'));
const { ModulePrinter } = await import(url('dxil/printer.js'));
const { dxcInstructionComment } = await import(url('dxil/annotate.js'));

const inputs = [];
for (const p of sortedFiles(folder, '.dxil')) {
  const b = new Uint8Array(readFileSync(p));
  try {
    const c = parseContainer(b);
    if (c.parts.some((x) => x.kind === 'DXIL')) {
      disassembleDxil(c);
      inputs.push(b);
    }
  } catch {
    // a container the listing refuses is not timed
  }
}

/** The module disassembleDxil prints: the debug one (ILDB) when there is one. */
function module(b) {
  const c = parseContainer(b);
  return readPartModule(c, c.parts.some((x) => x.kind === 'ILDB') ? 'ILDB' : 'DXIL');
}

const whole = () => {
  const c0 = cpuMs();
  for (const b of inputs) disassembleDxil(parseContainer(b));
  return cpuMs() - c0;
};
const print = () => {
  const modules = inputs.map(module);
  const c0 = cpuMs();
  for (const m of modules) new ModulePrinter(m, dxcInstructionComment).print();
  return cpuMs() - c0;
};
const read = () => {
  const c0 = cpuMs();
  for (const b of inputs) readPartModule(parseContainer(b), 'DXIL');
  return cpuMs() - c0;
};
for (let k = 0; k < 5; k++) {
  whole();
  print();
  read();
}
let bestWhole = Infinity;
let bestPrint = Infinity;
let bestRead = Infinity;
for (let k = 0; k < rounds; k++) {
  bestWhole = Math.min(bestWhole, whole());
  bestPrint = Math.min(bestPrint, print());
  bestRead = Math.min(bestRead, read());
}
const us = (ms) => ((ms * 1000) / inputs.length).toFixed(1);
console.log(`${inputs.length} ${us(bestWhole)} ${us(bestPrint)} ${us(bestRead)}`);
