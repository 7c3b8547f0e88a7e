// Direct3D 9 disassembly throughput: disassembleD3D9 over every program of ../shared/oracle/own-d3d9 (218
// programs; falls back to the copies in test/fixtures/oracle/own-d3d9), at flag words 0 and 0x04, in
// programs/s and MB/s of program bytes; the decoder alone beside it; and level9Listing over the level-9
// containers of ../shared/oracle/own. Files are read first so the figures are iridia's own work.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeD3D9 } from '../src/d3d9/decode.js';
import { disassembleD3D9 } from '../src/d3d9/disasm.js';
import { parseContainer } from '../src/container/container.js';
import { level9Listing } from '../src/disasm/level9.js';
import { FIXTURES, sharedPath, walk } from '../test/helpers/shared.js';

/** Best time in ms of `runs` runs of `f` after a warm-up. */
function best(f: () => void, runs: number): number {
  f();
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

function load(root: string, name: string, filter: (path: string) => boolean = () => true): Uint8Array[] {
  return walk(root)
    .filter((p) => p.endsWith(`/${name}`) && filter(p))
    .map((p) => new Uint8Array(readFileSync(p)));
}

export async function bench(report: (line: string) => void): Promise<void> {
  const root = sharedPath('oracle/own-d3d9') ?? join(FIXTURES, 'oracle/own-d3d9');
  const programs = load(root, 'shader.d3d9');
  const bytes = programs.reduce((n, p) => n + p.byteLength, 0);
  const rate = (count: number, ms: number): string =>
    `${((count / ms) * 1000).toFixed(0)} programs/s, ${((bytes / 1e6 / ms) * 1000).toFixed(1)} MB/s`;
  report(`${programs.length} Direct3D 9 programs (${(bytes / 1024).toFixed(0)} KiB) from ${root}`);
  const decode = best(() => programs.forEach((p) => decodeD3D9(p)), 50);
  report(`decodeD3D9: ${rate(programs.length, decode)}`);
  for (const flags of [0, 0x04]) {
    const ms = best(() => programs.forEach((p) => disassembleD3D9(p, flags)), 50);
    report(`disassembleD3D9 flags 0x${flags.toString(16).padStart(2, '0')}: ${rate(programs.length, ms)}`);
  }
  const own = sharedPath('oracle/own') ?? join(FIXTURES, 'oracle/own');
  const containers = load(own, 'shader.dxbc', (p) => p.includes('level_9')).map((b) => parseContainer(b));
  const ms = best(() => containers.forEach((c) => level9Listing(c, 0)), 50);
  report(
    `level9Listing: ${containers.length} level-9 containers, ${((containers.length / ms) * 1000).toFixed(0)} containers/s`,
  );
}
