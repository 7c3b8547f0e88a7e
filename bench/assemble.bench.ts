// Assembly throughput over ../shared/corpus/dxbc (every container with a SHDR/SHEX program; the
// listings are disassembled beforehand, not timed), one thread: listings/s and instructions/s for
// the program alone (assembleProgram: listing text to token stream) and for assemble() with --like
// (the decoder's check of what was written, STAT, re-signing), under flag 0 and flag 0x80; and the
// Direct3D 9 assembler (assembleD3D9 like the program) over the programs of test/asm/d3d9-roundtrip.test.ts.

import { readFileSync } from 'node:fs';
import { parseContainer, hasContainerMagic, type Container } from '../src/container/container.js';
import { disassemble } from '../src/disasm/disassemble.js';
import { decodeContainerProgram } from '../src/sm4/index.js';
import { assemble, assembleProgram, assembleD3D9 } from '../src/asm/index.js';
import { disassembleD3D9 } from '../src/d3d9/disasm.js';
import { fixturePrograms, sharedPrograms } from '../test/asm/d3d9-programs.js';
import { sharedPath, walk } from '../test/helpers/shared.js';
import { best } from './disasm.bench.js';

export async function bench(report: (line: string) => void): Promise<void> {
  const corpus = sharedPath('corpus/dxbc');
  if (corpus === undefined) {
    report('asm: skipped, ../shared/corpus/dxbc is absent (set IRIDIA_SHARED to point at the shared data)');
    benchD3D9(report);
    return;
  }
  const inputs: { c: Container; l0: string; l80: string; instructions: number }[] = [];
  for (const path of walk(corpus)) {
    if (!path.endsWith('.dxbc')) continue;
    const b = readFileSync(path);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (!hasContainerMagic(bytes)) continue;
    try {
      const c = parseContainer(bytes);
      const p = decodeContainerProgram(c);
      if (p === undefined || c.parts.some((x) => x.kind === 'LIBH')) continue;
      inputs.push({ c, l0: disassemble(c, 0), l80: disassemble(c, 0x80), instructions: p.instructions.length });
    } catch {
      continue;
    }
  }
  const n = inputs.length;
  const ins = inputs.reduce((s, x) => s + x.instructions, 0);
  const bytes = inputs.reduce((s, x) => s + x.l0.length, 0);
  const rate = (t: { wall: number; cpu: number }): string =>
    `${Math.round((n / t.wall) * 1000)} listings/s wall (${Math.round((n / t.cpu) * 1000)} per CPU-second), ` +
    `${(((ins / t.wall) * 1000) / 1e6).toFixed(2)} M instructions/s`;
  report(
    `asm: ${n} listings of ../shared/corpus/dxbc, ${ins} instructions, ${(bytes / 1e6).toFixed(1)} MB of flag-0 text`,
  );
  const p0 = best(() => {
    for (const x of inputs) assembleProgram(x.l0);
  }, 5);
  report(`asm program only (assembleProgram), flag 0: ${rate(p0)}`);
  const p80 = best(() => {
    for (const x of inputs) assembleProgram(x.l80);
  }, 5);
  report(`asm program only (assembleProgram), flag 0x80: ${rate(p80)}`);
  const full = best(() => {
    for (const x of inputs) assemble(x.l0, { like: x.c });
  }, 3);
  report(`asm container (assemble --like: decode check, STAT, re-sign), flag 0: ${rate(full)}`);
  benchD3D9(report);
}

/** Direct3D 9 listings/s: assembleD3D9 (the token stream, the like program's comments, the decoder's check). */
function benchD3D9(report: (line: string) => void): void {
  const shared = sharedPrograms();
  const programs = shared.cases.length ? shared.cases : fixturePrograms();
  const listings = programs.map((p) => ({ bytes: p.bytes, l0: disassembleD3D9(p.bytes, 0) }));
  const n = listings.length;
  const bytes = listings.reduce((s, x) => s + x.l0.length, 0);
  const t = best(() => {
    for (const x of listings) assembleD3D9(x.l0, { like: x.bytes });
  }, 5);
  report(
    `asm-d3d9 (assembleD3D9 like the program), flag 0: ${n} Direct3D 9 listings (${(bytes / 1e6).toFixed(1)} MB) of ` +
      `${shared.cases.length ? '../shared' : 'test/fixtures (../shared is absent)'}: ` +
      `${Math.round((n / t.wall) * 1000)} listings/s wall (${Math.round((n / t.cpu) * 1000)} per CPU-second)`,
  );
}
