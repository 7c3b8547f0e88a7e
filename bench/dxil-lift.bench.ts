// DXIL lifter throughput (issue 20): lift (container parse, bitcode read, lift to IR) and lift + WGSL
// of the DXIL programs of ../shared/corpus/dxil that lift, one thread, best of three passes after a
// warm-up, wall and per CPU-second, as lift.bench.ts measures the SM4/5 lifter.
//
// The peer the issue names is vkd3d-shader 1.17's DXIL to SPIR-V. Where a vkd3d-shader that reads
// DXIL can be built against (bench/peer.ts: IRIDIA_VKD3D_PREFIX names a build; tools/vkd3d-peer.sh
// makes one), it runs in one process on the corpus programs both translate, and that
// ratio is the target. Debian's vkd3d-shader is 1.2, which reads only DXBC, so without such a build
// the nearest peer measured in the same run is its DXBC to SPIR-V of the DXBC twins of
// ../shared/corpus/pairs (the same HLSL, fxc's build), against iridia's lift + WGSL of the DXIL twins
// that lift: the ratio says which is faster on the same programs, each from its own compiler's build.
// It is printed beside the DXIL peer too. Where libvkd3d-dev and a C compiler are installed that
// peer runs in one process, as the issue's own harness did; otherwise vkd3d-compiler is run once per
// container with its process start measured beside it.

import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { sharedPath, walk } from '../test/helpers/shared.js';
import {
  allocated,
  bySize,
  flatTarget,
  measurePeer,
  memoryTarget,
  perSecond,
  promotedByYoung,
  settled,
  timed,
  whole,
} from './lift.bench.js';
import { TURNS, inProcessPeer, inTurns } from './peer.js';
import { target } from './targets.js';

interface Input {
  readonly path: string;
  readonly bytes: Uint8Array;
}

function dxil(root: string, ext: string): Input[] {
  const dir = sharedPath(root);
  if (!dir) return [];
  const out: Input[] = [];
  for (const f of walk(dir)) {
    if (!f.endsWith(ext)) continue;
    const b = readFileSync(f);
    out.push({ path: f, bytes: new Uint8Array(b.buffer, b.byteOffset, b.byteLength) });
  }
  return out;
}

function lifting(inputs: readonly Input[]): Input[] {
  return inputs.filter((p) => {
    try {
      const c = parseContainer(p.bytes);
      if (!c.parts.some((x) => x.kind === 'DXIL')) return false;
      emitWgsl(liftContainer(c));
      return true;
    } catch {
      return false;
    }
  });
}

export async function bench(report: (line: string) => void): Promise<void> {
  const all = dxil('corpus/dxil', '.dxil');
  if (!all.length) {
    report('dxil-lift: ../shared/corpus/dxil is absent; nothing measured');
    return;
  }
  const lifted = lifting(all);
  const n = lifted.length;
  const lift = timed(
    whole(() => {
      for (const p of lifted) liftContainer(parseContainer(p.bytes));
    }),
  );
  const both = timed(
    whole(() => {
      for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
    }),
  );
  const rate = (k: number, ms: number) => ((k / ms) * 1000).toFixed(0);
  const fig = (k: number, t: { wall: number; cpu: number }) =>
    `${rate(k, t.wall)}/s wall (${rate(k, t.cpu)} per CPU-second)`;
  report(
    `dxil-lift: ${n} of ${all.length} corpus DXIL containers lift and emit (the rest not timed), one thread, best of 3`,
  );
  report(`dxil-lift: lift ${fig(n, lift)}, lift + WGSL ${fig(n, both)}`);
  const sizes = lifted.map((p) => liftContainer(parseContainer(p.bytes)).provenance.instructions);
  const instructions = sizes.reduce((a, b) => a + b, 0);
  const bothBytes = allocated(() => {
    for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
  });
  report(
    `dxil-lift: ${instructions} instructions (${(instructions / n).toFixed(0)} a program): lift + WGSL ` +
      `${((both.cpu * 1000) / instructions).toFixed(2)} µs CPU per instruction; allocation (v8 GCProfiler, one pass) ` +
      `${(bothBytes / n / 1024).toFixed(0)} KB a program, ${(bothBytes / instructions).toFixed(0)} bytes per instruction`,
  );
  const buckets = bySize(lifted, sizes, (p) => emitWgsl(liftContainer(parseContainer(p.bytes))));
  report(`dxil-lift: lift + WGSL CPU per instruction by program size: ${buckets.text}`);
  flatTarget(report, 'DXIL', buckets.costs);
  memoryTarget(report, 'dxil-lift', 'DXIL', bothBytes / instructions, n, () => {
    for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
  });
  report(
    `dxil-lift: promoted by young collections after lift + WGSL (batches of ten, two forced young collections each): ` +
      `${(promotedByYoung(n, (i) => void emitWgsl(liftContainer(parseContainer(lifted[i]!.bytes)))) / 1024).toFixed(1)} KB a program`,
  );

  // The same lift + WGSL once the compiler has settled (a figure beside the targets, not one of them).
  const calm = settled(
    whole(() => {
      for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
    }),
  );
  report(
    `dxil-lift: lift + WGSL once V8's optimizing compiler has settled (best pass, ${calm.passes} more passes): ` +
      `${rate(n, calm.cpu)} per CPU-second, ${((calm.cpu * 1000) / instructions).toFixed(2)} µs an instruction ` +
      `(best of 3 after one warm-up above: ${rate(n, both.cpu)})`,
  );

  // The peer the issue names: vkd3d-shader's DXIL to SPIR-V in one process, where a build that reads
  // DXIL is there (bench/peer.ts: IRIDIA_VKD3D_PREFIX), on the corpus files both translate.
  const dxilPeer = inProcessPeer(
    lifted.map((p) => p.path),
    10,
    'dxbc-dxil',
  );
  if ('why' in dxilPeer) report(`dxil-lift: no DXIL peer in process (${dxilPeer.why})`);
  else {
    const common = lifted.filter((_, i) => dxilPeer.ok[i]);
    // the peer and iridia timed in turns (bench/peer.ts)
    const turns = inTurns(
      dxilPeer,
      lifted.map((p) => p.path),
      [
        whole(() => {
          for (const p of common) emitWgsl(liftContainer(parseContainer(p.bytes)));
        }),
      ],
      10,
      'dxbc-dxil',
    );
    const mineRate = (common.length / (turns.ours[0] as number)) * 1000;
    const theirRate = (dxilPeer.files / Math.min(...turns.peer.cpuMs)) * 1000;
    report(
      `dxil-lift: iridia DXIL lift + WGSL ${mineRate.toFixed(0)} per CPU-second; ${dxilPeer.version} DXIL->SPIR-V in ` +
        `one process ${theirRate.toFixed(0)} per CPU-second (the ${common.length} of ${n} lifted corpus programs it ` +
        `compiles, ${dxilPeer.failed} it refuses left out; best of ${turns.peer.cpuMs.length} passes in ${TURNS + 1} ` +
        `runs, iridia's best of ${TURNS} timed between them)`,
    );
    target(
      report,
      `DXIL lift + WGSL against ${dxilPeer.version}'s DXIL->SPIR-V, in process, on the files both translate`,
      `${(mineRate / theirRate).toFixed(3)}x (${mineRate.toFixed(0)} against ${theirRate.toFixed(0)} per CPU-second)`,
      '>= 1.0x',
      mineRate >= theirRate,
    );
  }
  // Beside it (the target where no DXIL peer runs): vkd3d's DXBC->SPIR-V of the twins' fxc builds.
  const twinsTarget = 'why' in dxilPeer;

  const types = spawnSync('vkd3d-compiler', ['--print-source-types'], { encoding: 'utf8' });
  if (types.status !== 0) {
    report('dxil-lift: peer vkd3d-compiler not installed; nothing to compare with');
    return;
  }
  if (/\bdxil\b/.test(types.stdout)) {
    report(
      'dxil-lift: the vkd3d-compiler on the PATH reads DXIL: its per-process figure is not written ' +
        '(the in-process peer above measures its library where the headers are installed)',
    );
    return;
  }
  const version =
    (/vkd3d-shader ([\d.]+)/.exec(spawnSync('vkd3d-compiler', ['--version'], { encoding: 'utf8' }).stdout) ?? [])[1] ??
    '?';
  report(
    `dxil-lift: vkd3d-compiler ${version} has no DXIL source type (it lists: ${
      types.stdout
        .match(/^ {2}(\S+)/gm)
        ?.map((x) => x.trim())
        .join(', ') ?? '?'
    }); the peer measured instead is its DXBC->SPIR-V of the twins' fxc builds`,
  );
  // Twins: iridia lifts the DXIL build, vkd3d compiles the DXBC build of the same HLSL.
  const twins = lifting(dxil('corpus/pairs', '.dxil'));
  if (!twins.length) return;
  const ours = timed(
    whole(() => {
      for (let r = 0; r < 20; r++) for (const p of twins) emitWgsl(liftContainer(parseContainer(p.bytes)));
    }),
  );
  const oursRate = (twins.length * 20 * 1000) / ours.cpu;
  // The peer in process where it can be built (bench/peer.ts), on the twins both translate.
  // (the list twenty times over, as iridia's passes run twenty rounds: one round is about a millisecond)
  const dxbcTwins = twins.map((p) => p.path.replace(/\.dxil$/, '.dxbc'));
  const inProcess = inProcessPeer(Array.from({ length: 20 }, () => dxbcTwins).flat(), 3);
  if (!('why' in inProcess)) {
    const common = twins.filter((_, i) => inProcess.ok[i]);
    const mine = timed(
      whole(() => {
        for (let r = 0; r < 20; r++) for (const p of common) emitWgsl(liftContainer(parseContainer(p.bytes)));
      }),
    );
    const mineRate = (common.length * 20 * 1000) / mine.cpu;
    const theirRate = (common.length * 20 * 1000) / Math.min(...inProcess.cpuMs);
    const refused = twins.length - common.length;
    report(
      `dxil-lift: twins: iridia DXIL lift + WGSL ${mineRate.toFixed(0)} per CPU-second; ${inProcess.version} ` +
        `DXBC->SPIR-V of their fxc builds in one process ${theirRate.toFixed(0)} per CPU-second (the ${common.length} ` +
        `twins both translate, ${refused} it refuses left out; 20 rounds a pass, best of ${inProcess.cpuMs.length} passes)`,
    );
    report(`dxil-lift: ratio iridia / the peer in process ${(mineRate / theirRate).toFixed(3)} (aim >= 1.0)`);
    if (twinsTarget)
      target(
        report,
        "DXIL lift + WGSL of the twins against vkd3d-shader's DXBC->SPIR-V of their fxc builds, in process",
        `${(mineRate / theirRate).toFixed(3)}x (${mineRate.toFixed(0)} against ${theirRate.toFixed(0)} per CPU-second, ${inProcess.version})`,
        '>= 1.0x',
        mineRate >= theirRate,
      );
    return;
  }
  report(`dxil-lift: the in-process peer cannot run here (${inProcess.why}); measuring vkd3d-compiler per process`);
  const peer = measurePeer(twins.map((p) => p.path.replace(/\.dxil$/, '.dxbc')));
  if (!peer || !peer.cpuCompile.length) {
    report('dxil-lift: the peer did not run');
    return;
  }
  const c = Math.min(...peer.cpuCompile);
  const s = Math.min(...peer.cpuStart);
  const net = c - s;
  report(
    `dxil-lift: twins: iridia DXIL lift + WGSL ${oursRate.toFixed(0)} per CPU-second over ${twins.length} DXIL twins; ` +
      `vkd3d-compiler DXBC->SPIR-V ${perSecond(c)} per CPU-second per process over ${peer.files} DXBC twins ` +
      `(process start alone ${s.toFixed(2)} ms, compile less start ${net.toFixed(2)} ms = ~${perSecond(net)} per CPU-second)`,
  );
  report(
    `dxil-lift: ratio iridia / vkd3d per process ${(oursRate / (1000 / c)).toFixed(2)}` +
      (net > 0 ? `, / vkd3d start-subtracted ${(oursRate / (1000 / net)).toFixed(2)}` : ''),
  );
}
