// SM4/5 disassembly throughput over ../shared/corpus/dxbc (every container with a SHDR/SHEX part,
// files read first), one thread: containers/s and instructions/s for the full listing (header,
// level-9 section, debug lines, program) and for the program alone (decode + print from the version
// line), and the decoder alone; beside the goal of issue 17, 1.5x vkd3d-shader's d3d-asm in C:
// measured in the same run, in one process, on the containers it disassembles, where a vkd3d-shader
// with d3d-asm is there to build against (bench/peer.ts, IRIDIA_VKD3D_PREFIX; Debian's 1.2 has none),
// otherwise the figure for 1.17, 7,000 containers/s on one core of these machines.

import { readFileSync } from 'node:fs';
import { parseContainer, hasContainerMagic, type Container } from '../src/container/container.js';
import { disassemble, programListing } from '../src/disasm/disassemble.js';
import { listingHeader } from '../src/disasm/header.js';
import { decodeContainerProgram } from '../src/sm4/index.js';
import { sharedPath, walk } from '../test/helpers/shared.js';
import { target } from './targets.js';
import { whole } from './lift.bench.js';
import { TURNS, inProcessPeer, inTurns } from './peer.js';

/** Best wall-clock and best CPU (user + system) time in ms of `runs` runs after a warm-up. */
export function best(f: () => void, runs: number): { wall: number; cpu: number } {
  f();
  let wall = Infinity;
  let cpu = Infinity;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    f();
    wall = Math.min(wall, performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

export async function bench(report: (line: string) => void): Promise<void> {
  const corpus = sharedPath('corpus/dxbc');
  if (corpus === undefined) {
    report('disasm: skipped, ../shared/corpus/dxbc is absent (set IRIDIA_SHARED to point at the shared data)');
    return;
  }
  const inputs: { path: string; bytes: Uint8Array; c: Container; instructions: number }[] = [];
  for (const path of walk(corpus)) {
    if (!path.endsWith('.dxbc')) continue;
    const b = readFileSync(path);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (!hasContainerMagic(bytes)) continue;
    let c: Container;
    try {
      c = parseContainer(bytes);
    } catch {
      continue;
    }
    const p = decodeContainerProgram(c);
    if (p) inputs.push({ path, bytes, c, instructions: p.instructions.length });
  }
  const n = inputs.length;
  const ins = inputs.reduce((s, x) => s + x.instructions, 0);
  // The machine may be shared: CPU time tells this thread's cost apart from waiting for a core.
  const rate = (t: { wall: number; cpu: number }): string =>
    `${Math.round((n / t.wall) * 1000)} containers/s wall (${Math.round((n / t.cpu) * 1000)} per CPU-second), ` +
    `${(((ins / t.wall) * 1000) / 1e6).toFixed(2)} M instructions/s`;
  const full = best(() => {
    for (const x of inputs) disassemble(x.bytes, 0);
  }, 5);
  report(
    `disasm full listing (parse + header + program), ${n} containers, ${ins} instructions: ${rate(full)} (goal 10500 per CPU-second, 1.5x vkd3d's 7000/s)`,
  );
  const fullRate = (n / full.cpu) * 1000;
  const peer = inProcessPeer(
    inputs.map((x) => x.path),
    3,
    'dxbc-tpf',
    'd3d-asm',
  );
  if ('why' in peer) {
    report(`disasm: no d3d-asm peer in process (${peer.why}); the target uses the issue's figure`);
    target(
      report,
      "full SM4/5 listing against 1.5x vkd3d's d3d-asm (7,000/s: the issue's figure; vkd3d 1.2 has no d3d-asm)",
      `${fullRate.toFixed(0)} per CPU-second`,
      '>= 10500 per CPU-second',
      fullRate >= 10500,
    );
  } else {
    const common = inputs.filter((_, i) => peer.ok[i]);
    // the peer and iridia timed in turns (bench/peer.ts)
    const turns = inTurns(
      peer,
      inputs.map((x) => x.path),
      [whole(() => common.forEach((x) => disassemble(x.bytes, 0)))],
      3,
      'dxbc-tpf',
      'd3d-asm',
    );
    const ours = (common.length / (turns.ours[0] as number)) * 1000;
    const theirs = (peer.files / Math.min(...turns.peer.cpuMs)) * 1000;
    report(
      `disasm: peer ${peer.version} d3d-asm in one process ${theirs.toFixed(0)} per CPU-second over the ${peer.files} ` +
        `of ${n} it disassembles (${peer.failed} refused, left out of both; best of ${turns.peer.cpuMs.length} passes in ` +
        `${TURNS + 1} runs, iridia's best of ${TURNS} timed between them); iridia's full listing on those ${ours.toFixed(0)}`,
    );
    target(
      report,
      `full SM4/5 listing against ${peer.version}'s d3d-asm, in process, on the containers it disassembles`,
      `${(ours / theirs).toFixed(2)}x (${ours.toFixed(0)} against ${theirs.toFixed(0)} per CPU-second)`,
      '>= 1.5x',
      ours >= 1.5 * theirs,
    );
  }
  const body = best(() => {
    for (const x of inputs) programListing(decodeContainerProgram(x.c)!, 0, 0);
  }, 5);
  report(`disasm program only (decode + print from the version line): ${rate(body)}`);
  const head = best(() => {
    for (const x of inputs) listingHeader(parseContainer(x.bytes), 0);
  }, 5);
  report(`disasm comment header alone (header.ts, reflection): ${rate(head)}`);
  const dec = best(() => {
    for (const x of inputs) decodeContainerProgram(x.c);
  }, 5);
  report(`sm4 decode only: ${rate(dec)}`);
}
