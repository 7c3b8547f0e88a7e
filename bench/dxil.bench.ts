// DXIL throughput on one thread over ../shared/corpus/dxil (files read first): containers/s for
// reading (container + every part + the bitcode module), for the module alone, for the bitstream
// alone (the module reader's input), and for reading plus dxc's /Fc disassembly. The targets are
// against vkd3d-shader's DXIL to SPIR-V: measured in the same run, in one process, on the files it
// compiles, where a vkd3d-shader that reads DXIL is there to build against (bench/peer.ts,
// IRIDIA_VKD3D_PREFIX); otherwise against the issue's figure for vkd3d-shader 1.17, about 9,300
// containers per CPU-second (the module read at 1.5 times it, the listing at 1.0).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseContainer } from '../src/container/container.js';
import { readDxilContainer } from '../src/dxil/dxil-container.js';
import { disassembleDxil, readPartModule } from '../src/dxil/disassemble.js';
import { readModule } from '../src/dxil/module.js';
import { readBitcode } from '../src/dxil/bitstream.js';
import { readProgramHeader } from '../src/dxil/program-header.js';
import { sharedPath, walk } from '../test/helpers/shared.js';
import { allocated, whole } from './lift.bench.js';
import { TURNS, inProcessPeer, inTurns } from './peer.js';
import { best } from './disasm.bench.js';
import { target } from './targets.js';

export async function bench(report: (line: string) => void): Promise<void> {
  const root = sharedPath('corpus/dxil');
  if (root === undefined) {
    report('dxil: skipped, ../shared/corpus/dxil is absent (set IRIDIA_SHARED to point at the shared data)');
    return;
  }
  const paths = walk(root).filter((p) => p.endsWith('.dxil'));
  const inputs = paths.map((p) => {
    const b = readFileSync(p);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  });
  const withDxil = inputs.map((b) => parseContainer(b).parts.some((p) => p.kind === 'DXIL'));
  const programs = inputs.filter((_, i) => withDxil[i]);
  // The machine is shared: CPU time tells this thread's cost apart from waiting for a core.
  const rate = (n: number, t: { wall: number; cpu: number }): string =>
    `${((n / t.wall) * 1000).toFixed(0)} containers/s wall, ${((n / t.cpu) * 1000).toFixed(0)} per CPU-second`;
  const readOne = (b: Uint8Array) => readPartModule(parseContainer(b), 'DXIL');
  const moduleRead = (list: readonly Uint8Array[]) =>
    best(() => {
      for (const b of list) readOne(b);
    }, 10);
  const listing = (list: readonly Uint8Array[]) =>
    best(() => {
      for (const b of list) disassembleDxil(parseContainer(b));
    }, 10);
  const module = moduleRead(programs);
  const bitcodes = programs.map((b) => readProgramHeader(parseContainer(b).parts.find((x) => x.kind === 'DXIL')!.data));
  const bits = best(() => {
    for (const h of bitcodes) readBitcode(h.bitcode, 0, 'DXIL');
  }, 10);
  const read = best(() => {
    for (const b of inputs) readDxilContainer(parseContainer(b));
  }, 10);
  const disasm = listing(programs);
  report(`dxil module read: ${rate(programs.length, module)} (${programs.length} with a DXIL part)`);
  const perCpu = (t: { cpu: number }): number => (programs.length / t.cpu) * 1000;
  // The peer in one process, on the files it compiles (it refuses many: those are left out of both).
  const peer = inProcessPeer(
    paths.filter((_, i) => withDxil[i]),
    10,
    'dxbc-dxil',
  );
  // Without the peer, the issue's figures (vkd3d-shader 1.17's DXIL to SPIR-V, ~9,300/s): the module
  // read at 1.5x of it, the /Fc listing at 1.0x.
  const issueFigure = (name: string, rate: number, aim: number) =>
    target(
      report,
      `${name} vkd3d-shader 1.17's DXIL->SPIR-V (the issue's figure)`,
      `${rate.toFixed(0)} per CPU-second`,
      `>= ${aim} per CPU-second`,
      rate >= aim,
    );
  if ('why' in peer) {
    report(`dxil: no DXIL peer in process (${peer.why}); the targets use the issue's figure`);
    issueFigure('DXIL module read against 1.5x', perCpu(module), 14000);
  } else {
    const common = programs.filter((_, i) => peer.ok[i]);
    // the peer and iridia's two sides timed in turns (bench/peer.ts)
    const turns = inTurns(
      peer,
      paths.filter((_, i) => withDxil[i]),
      [
        whole(() => {
          for (const b of common) readOne(b);
        }),
        whole(() => {
          for (const b of common) disassembleDxil(parseContainer(b));
        }),
      ],
      10,
      'dxbc-dxil',
    );
    const theirs = (peer.files / Math.min(...turns.peer.cpuMs)) * 1000;
    const per = (cpu: number): number => (common.length / cpu) * 1000;
    const [m, l] = turns.ours.map(per) as [number, number];
    report(
      `dxil: peer ${peer.version} DXIL->SPIR-V in one process: ${theirs.toFixed(0)} per CPU-second over the ` +
        `${peer.files} of ${programs.length} it compiles (${peer.failed} refused: left out of both sides; best of ` +
        `${turns.peer.cpuMs.length} passes in ${TURNS + 1} runs, iridia's sides timed between them); on those files ` +
        `iridia's module read ${m.toFixed(0)}, read + /Fc ${l.toFixed(0)} (best of ${TURNS})`,
    );
    const against = (name: string, ours: number, aim: number) =>
      target(
        report,
        `${name} against ${peer.version}'s DXIL->SPIR-V, in process, on the files it compiles`,
        `${(ours / theirs).toFixed(2)}x (${ours.toFixed(0)} against ${theirs.toFixed(0)} per CPU-second)`,
        `>= ${aim.toFixed(1)}x`,
        ours >= aim * theirs,
      );
    against('DXIL module read', m, 1.5);
    against('DXIL read + /Fc listing', l, 1.0);
  }
  report(`dxil bitstream alone (readBitcode: blocks and records, no module): ${rate(programs.length, bits)}`);
  // Where the module read's cost lies beside the bitstream's: bytes allocated a module by each (one pass).
  const bitcodeBytes = bitcodes.reduce((s, h) => s + h.bitcode.byteLength, 0);
  const kb = (bytes: number): string => (bytes / bitcodes.length / 1024).toFixed(0);
  const bitsAlloc = allocated(() => {
    for (const h of bitcodes) readBitcode(h.bitcode, 0, 'DXIL');
  });
  const moduleAlloc = allocated(() => {
    for (const h of bitcodes) readModule(h.bitcode, { part: 'DXIL', offset: 0 });
  });
  report(
    `dxil allocation (v8 GCProfiler, one pass): bitstream ${kb(bitsAlloc)} KB a module, module read ` +
      `${kb(moduleAlloc)} KB a module (${(moduleAlloc / bitcodeBytes).toFixed(1)} bytes per bitcode byte; ` +
      `${(bitcodeBytes / bitcodes.length / 1024).toFixed(1)} KiB of bitcode a module)`,
  );
  report(`dxil read, every part and module (DXIL, STAT, ILDB): ${rate(inputs.length, read)} (${inputs.length})`);
  report(`dxil read + /Fc disassembly: ${rate(programs.length, disasm)} (${programs.length})`);
  if ('why' in peer) issueFigure('DXIL read + /Fc listing against', perCpu(disasm), 9300);
  // A fresh process that starts by reading every container and keeping every module, then reads
  // them again while those are held (bench/held-read.ts): V8's choice of generation for the reader's
  // objects is made early in a process and kept.
  const dir = mkdtempSync(join(tmpdir(), 'iridia-held-'));
  try {
    const list = join(dir, 'list');
    writeFileSync(list, paths.filter((_, i) => withDxil[i]).join('\n') + '\n');
    const child = spawnSync(process.execPath, [join(import.meta.dirname, 'held-read.js'), list], {
      encoding: 'utf8',
    });
    if (child.status !== 0) report(`dxil: the held-read child failed: ${(child.stderr || '').trim()}`);
    else {
      const r = JSON.parse(child.stdout) as { held: number; after: number; kept: number };
      report(
        `dxil module read in a process that first reads and keeps all ${r.kept} modules: ` +
          `${perCpu({ cpu: r.after }).toFixed(0)} per CPU-second after that, while they are held ` +
          `(the first pass, cold: ${perCpu({ cpu: r.held }).toFixed(0)}; in this process: ${perCpu(module).toFixed(0)})`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
