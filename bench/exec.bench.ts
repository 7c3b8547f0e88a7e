// Executor throughput: real compute and pixel programs (test/fixtures/exec, from ../shared/oracle/own)
// run on the CPU executor, in lanes × IR statements per second (each batch's statements times its
// lanes: the work a lane-by-lane interpreter would do) and lanes per second; beside it, Dawn on
// SwiftShader running the same dispatch or draw through the emitted WGSL (test/helpers/webgpu.ts, one
// child process), timed per job as the caller sees it: module and pipeline creation, upload, the run
// and the read-back. Inputs are random words (diff-harness.ts), the same on both sides.

import { join } from 'node:path';
import { lift } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { runCompute, runPixel } from '../src/exec/index.js';
import type { Program } from '../src/ir/program.js';
import { FIXTURES, readBytes } from '../test/helpers/shared.js';
import { closeWebgpu, runCompute as gpuCompute, runPixel as gpuPixel, webgpuSkip } from '../test/helpers/webgpu.js';
import { Rng, bindAll, pixelVertex } from '../test/exec/diff-harness.js';

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

async function bestAsync(f: () => Promise<void>, runs: number): Promise<number> {
  await f();
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

const M = (x: number): string => (x / 1e6).toFixed(2);

export async function bench(report: (line: string) => void): Promise<void> {
  const skip = webgpuSkip();
  if (skip) report(`Dawn: not measured (${skip})`);
  const computeCases: Array<[string, [number, number, number]]> = [
    ['cs_basic-main-cs_5_0.dxbc', [64, 1, 1]],
    ['fx_histogram-main-cs_5_0.dxbc', [16, 1, 1]],
  ];
  for (const [file, workgroups] of computeCases) {
    const p: Program = lift(readBytes(join(FIXTURES, 'exec', file)));
    const bound = bindAll(p.module, new Rng(7));
    if (typeof bound === 'string') throw new Error(`${file}: ${bound}`);
    let work = 0;
    let lanes = 0;
    const ms = best(() => {
      const r = runCompute(p, { workgroups, buffers: bound.buffers, textures: bound.textures, budget: 1 << 22 });
      work = r.laneStatements;
      lanes = r.lanes;
    }, 5);
    let line = `${file} ×${workgroups[0]} groups: executor ${M((work / ms) * 1000)} M lane-statements/s, ${M((lanes / ms) * 1000)} M lanes/s (${ms.toFixed(1)} ms)`;
    if (!skip) {
      const code = emitWgsl(p);
      const g = await bestAsync(async () => {
        const r = await gpuCompute({ code, workgroups, bindings: bound.gpu });
        if (!r.ok) throw new Error(`${file}: Dawn ${r.stage}: ${r.messages[0]}`);
      }, 3);
      line += `; Dawn/SwiftShader ${g.toFixed(1)} ms a job (${(((lanes / g) * 1000) / 1e6).toFixed(2)} M lanes/s, compile included)`;
    }
    report(line);
  }
  const pixelCases = ['ps_derivatives-main-ps_5_0.dxbc', 'fx_gaussian_blur-main-ps_5_0.dxbc'];
  const W = 128;
  const H = 128;
  for (const file of pixelCases) {
    const p: Program = lift(readBytes(join(FIXTURES, 'exec', file)));
    const rng = new Rng(11);
    const bound = bindAll(p.module, rng);
    if (typeof bound === 'string') throw new Error(`${file}: ${bound}`);
    const inputs: Record<number, Uint32Array> = {};
    for (let loc = 0; loc < 4; loc++) inputs[loc] = new Uint32Array(W * H * 4).map(() => rng.floatWord());
    const sample = () => [0x3f000000, 0x3f000000, 0x3f000000, 0x3f800000];
    let work = 0;
    const ms = best(() => {
      const r = runPixel(p, {
        width: W,
        height: H,
        inputs,
        buffers: bound.buffers,
        textures: bound.textures,
        sample,
        budget: 1 << 22,
      });
      work = r.laneStatements;
    }, 3);
    let line = `${file} ${W}x${H}: executor ${M((work / ms) * 1000)} M lane-statements/s, ${M(((W * H) / ms) * 1000)} M pixels/s (${ms.toFixed(1)} ms)`;
    if (!skip) {
      const m = p.module;
      const f = m.functions[m.entryPoints.find((e) => e.stage === 'fragment')!.function]!;
      const { vertexCode } = pixelVertex(m, f, rng);
      const code = emitWgsl(p);
      const g = await bestAsync(async () => {
        const r = await gpuPixel({
          code,
          vertexCode,
          width: W,
          height: H,
          targets: [{ format: 'rgba32float' }],
          bindings: bound.gpu,
        });
        if (!r.ok) throw new Error(`${file}: Dawn ${r.stage}: ${r.messages[0]}`);
      }, 3);
      line += `; Dawn/SwiftShader ${g.toFixed(1)} ms a job (${((W * H) / g / 1000).toFixed(2)} M pixels/s, compile included)`;
    }
    report(line);
  }
  // Not awaited: the idle child is unref'd, so its 'exit' cannot hold the event loop open, and an
  // awaited close ended the whole run there (exit code 13, unsettled top-level await), skipping the
  // bench files after this one. Ending its stdin is enough; it exits on its own.
  void closeWebgpu();
}
