// Lifter throughput: lift (container parse, decode, lift to IR) and WGSL emission (passes and the
// printer) of the SM4/5/5.1 programs of ../shared/corpus (dxbc and dxbc-sm51), one thread, files read
// first; containers/s for lift alone, emission alone, and both. The peer is vkd3d-shader's DXBC to
// SPIR-V (about 9,900 containers/s on one core for 1.17, the figure); where `vkd3d-compiler`
// is installed it is also measured here on a sample, one process per container with the process
// start (measured on `--version`) subtracted.

import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';
import type { Program } from '../src/ir/program.js';
import { sharedPath, walk } from '../test/helpers/shared.js';

function programs(): { path: string; bytes: Uint8Array }[] {
  const out: { path: string; bytes: Uint8Array }[] = [];
  for (const root of ['corpus/dxbc', 'corpus/dxbc-sm51']) {
    const dir = sharedPath(root);
    if (!dir) continue;
    for (const f of walk(dir)) {
      if (!f.endsWith('.dxbc')) continue;
      const b = readFileSync(f);
      const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      try {
        if (parseContainer(bytes).parts.some((p) => p.kind === 'SHEX' || p.kind === 'SHDR'))
          out.push({ path: f, bytes });
      } catch {
        /* not a container */
      }
    }
  }
  return out;
}

/**
 * vkd3d-compiler's time per container with its process start taken off, in ms, or undefined when
 * it is not installed. Each file is compiled three times and `--version` runs beside it; the
 * fastest of each is kept (a shared machine only ever adds time), and the start is the fastest
 * `--version` of all. `each` is the whole per-process time, for when the difference is lost in noise.
 */
function vkd3dPerContainer(sample: readonly string[]): { net: number; each: number } | undefined {
  const probe = spawnSync('vkd3d-compiler', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) return undefined;
  const timed = (args: string[]): number => {
    const t0 = performance.now();
    spawnSync('vkd3d-compiler', args);
    return performance.now() - t0;
  };
  let start = Infinity;
  let total = 0;
  for (const f of sample) {
    let best = Infinity;
    for (let r = 0; r < 3; r++) {
      start = Math.min(start, timed(['--version']));
      best = Math.min(best, timed(['-x', 'dxbc-tpf', '-b', 'spirv-binary', '-o', '/dev/null', f]));
    }
    total += best;
  }
  const each = total / sample.length;
  return { net: each - start, each };
}

export async function bench(report: (line: string) => void): Promise<void> {
  const all = programs();
  if (!all.length) {
    report('lift: ../shared/corpus is absent; nothing measured');
    return;
  }
  // Programs that lift (refusals are counted apart: they stop early and would flatter the figure).
  const lifted: { path: string; bytes: Uint8Array; program: Program }[] = [];
  let refused = 0;
  for (const p of all) {
    try {
      lifted.push({ ...p, program: liftContainer(parseContainer(p.bytes)) });
    } catch {
      refused++;
    }
  }
  const time = (f: () => void): number => {
    f(); // warm-up
    let best = Infinity;
    for (let r = 0; r < 2; r++) {
      const t0 = performance.now();
      f();
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  const liftMs = time(() => {
    for (const p of lifted) liftContainer(parseContainer(p.bytes));
  });
  const emitMs = time(() => {
    for (const p of lifted) emitWgsl(p.program);
  });
  const bothMs = time(() => {
    for (const p of lifted) emitWgsl(liftContainer(parseContainer(p.bytes)));
  });
  const rate = (ms: number) => ((lifted.length / ms) * 1000).toFixed(0);
  report(`lift: ${lifted.length} corpus programs that lift (${refused} refused, not timed), one thread`);
  report(
    `lift: lift ${rate(liftMs)} containers/s, WGSL emission ${rate(emitMs)} containers/s, lift + WGSL ${rate(bothMs)} containers/s`,
  );
  const step = Math.max(1, Math.floor(lifted.length / 200));
  const sample = lifted.filter((_, i) => i % step === 0).map((p) => p.path);
  const vk = vkd3dPerContainer(sample);
  if (vk !== undefined)
    report(
      `lift: peer vkd3d-compiler (installed version) DXBC->SPIR-V ` +
        (vk.net >= 0.02
          ? `~${(1000 / vk.net).toFixed(0)} containers/s`
          : `not measurable, its work is lost in the process start`) +
        ` on ${sample.length} containers (${vk.each.toFixed(2)} ms a process, fastest --version start subtracted); vkd3d-shader 1.17: ~9,900/s (issue's figure)`,
    );
  else
    report(
      'lift: peer vkd3d-shader 1.17 DXBC->SPIR-V ~9,900 containers/s (issue figure; vkd3d-compiler not installed here)',
    );
}
