// Decompiler throughput: the SM4/5/5.1 programs of ../shared/corpus/dxbc that lift, one thread,
// files read and lifted first; decompile = the IR→IR passes (readable module) and the HLSL printer,
// containers/s wall and per CPU-second, best of three passes after a warm-up (lift.bench.ts's
// `timed`). Programs the HLSL printer refuses are timed through the passes and counted apart. The
// lifted programs are held at once, so the sample is capped at SAMPLE programs (every k-th file).

import { readFileSync } from 'node:fs';
import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { readableProgram, printHlsl, DecompileRefusal } from '../src/decompile/index.js';
import { containerRdef } from '../src/decompile/index.js';
import type { Program } from '../src/ir/program.js';
import type { Rdef } from '../src/parts/rdef.js';
import { sharedPath, walk } from '../test/helpers/shared.js';
import { timed } from './lift.bench.js';

const SAMPLE = 1500;

export async function bench(report: (line: string) => void): Promise<void> {
  const dir = sharedPath('corpus/dxbc');
  if (!dir) {
    report('decompile: ../shared/corpus/dxbc is absent, skipped');
    return;
  }
  const inputs: { p: Program; rdef: Rdef | undefined }[] = [];
  const files = walk(dir).filter((f) => f.endsWith('.dxbc'));
  const step = Math.max(1, Math.ceil(files.length / SAMPLE));
  for (let i = 0; i < files.length; i += step) {
    const f = files[i]!;
    try {
      const b = readFileSync(f);
      const c = parseContainer(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
      inputs.push({ p: liftContainer(c), rdef: containerRdef(c) });
    } catch {
      /* not a program that lifts */
    }
  }
  let refused = 0;
  const t = timed(() => {
    refused = 0;
    const w0 = performance.now();
    const u0 = process.cpuUsage();
    for (const x of inputs) {
      const r = readableProgram(x.p);
      try {
        printHlsl(r, { rdef: x.rdef });
      } catch (e) {
        if (!(e instanceof DecompileRefusal)) throw e;
        refused++;
      }
    }
    const u = process.cpuUsage(u0);
    return { wall: performance.now() - w0, cpu: (u.user + u.system) / 1000 };
  });
  const n = inputs.length;
  report(
    `decompile: ${n} corpus programs (${n - refused} printed as HLSL, ${refused} refused by the printer): ` +
      `${((n * 1000) / t.wall).toFixed(0)} containers/s wall, ${((n * 1000) / t.cpu).toFixed(0)} per CPU-second`,
  );
}
