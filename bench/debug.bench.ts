// Debug information throughput: readContainerDebugInfo (MSF, streams, types, symbols, C13) and the
// listing annotations over every /Zi build of ../shared/oracle/own and the SPDB/SDBG containers of
// ../shared/corpus/dxbc (falls back to the fixture copies), in containers/s and MB/s of SPDB/SDBG
// bytes; beside them, the whole disassembly of the same containers with and without debug lines
// (flag 0 against 0x10), which shows what the debug lines cost a listing.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer, type Container } from '../src/container/container.js';
import { debugAnnotations, readDebugInfo } from '../src/debug/annotations.js';
import { disassemble } from '../src/disasm/disassemble.js';
import { FIXTURES, sharedPath, walk } from '../test/helpers/shared.js';

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

function load(): { containers: Container[]; from: string } {
  const own = sharedPath('oracle/own') ?? join(FIXTURES, 'oracle/own');
  const corpus = sharedPath('corpus/dxbc') ?? join(FIXTURES, 'debug/corpus');
  const paths = [
    ...walk(own).filter((p) => p.endsWith('/shader.dxbc') && p.includes('-zi')),
    ...walk(corpus).filter((p) => p.endsWith('.dxbc')),
  ];
  const containers: Container[] = [];
  for (const p of paths) {
    const b = new Uint8Array(readFileSync(p));
    if (b.byteLength < 4 || b[0] !== 0x44) continue;
    try {
      const c = parseContainer(b);
      if (c.parts.some((x) => x.kind === 'SPDB' || x.kind === 'SDBG')) containers.push(c);
    } catch {
      // not a container this bench reads
    }
  }
  return { containers, from: `${own} and ${corpus}` };
}

export async function bench(report: (line: string) => void): Promise<void> {
  const { containers, from } = load();
  const bytes = containers.reduce(
    (n, c) => n + (c.parts.find((p) => p.kind === 'SPDB' || p.kind === 'SDBG')?.data.byteLength ?? 0),
    0,
  );
  const rate = (ms: number): string =>
    `${((containers.length / ms) * 1000).toFixed(0)} containers/s, ${((bytes / 1e6 / ms) * 1000).toFixed(1)} MB/s of debug parts`;
  report(
    `${containers.length} containers with SPDB or SDBG (${(bytes / 1024).toFixed(0)} KiB of debug parts) from ${from}`,
  );
  report(`readContainerDebugInfo: ${rate(best(() => containers.forEach((c) => readDebugInfo(c)), 20))}`);
  report(`debugAnnotations (read + annotate): ${rate(best(() => containers.forEach((c) => debugAnnotations(c)), 20))}`);
  for (const flags of [0, 0x10]) {
    const ms = best(() => containers.forEach((c) => disassemble(c, flags)), 10);
    report(
      `disassemble flags 0x${flags.toString(16).padStart(2, '0')}: ${((containers.length / ms) * 1000).toFixed(0)} containers/s`,
    );
  }
}
