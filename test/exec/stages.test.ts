// The executor on real programs (test/fixtures/exec, from ../shared/oracle/own): the values their
// HLSL (beside each case in the oracle) defines, worked out by hand — thread ids of a compute
// dispatch, derivatives across 2x2 quads, discard with helper lanes, the sampling callback's
// request — and the CLI `iridia run`, on the CPU and (when WebGPU is here) with --gpu.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { lift } from '../../src/lift/lift.js';
import { runCompute, runPixel, type SampleRequest } from '../../src/exec/index.js';
import { FIXTURES, readBytes, REPO } from '../helpers/shared.js';
import { webgpuSkip } from '../helpers/webgpu.js';

const fx = (name: string) => join(FIXTURES, 'exec', name);
const f32 = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const asF = (w: Uint32Array) => new Float32Array(w.buffer, w.byteOffset, w.length);

test('compute: every thread-id system value of a 8x4x2 group, two groups (cs_basic)', () => {
  // Out.Store4(gi * 16 + g.x * 1024, uint4(dt.x + dt.y, gt.z, g.y + g.z, gi))
  const p = lift(readBytes(fx('cs_basic-main-cs_5_0.dxbc')));
  const out = new Uint32Array(512);
  const r = runCompute(p, { workgroups: [2, 1, 1], buffers: { '3:0': out } });
  assert.equal(r.lanes, 128);
  for (let g = 0; g < 2; g++)
    for (let gi = 0; gi < 64; gi++) {
      const gt = [gi % 8, Math.floor(gi / 8) % 4, Math.floor(gi / 32)];
      const dt = [g * 8 + gt[0]!, gt[1]!, gt[2]!];
      const at = (gi * 16 + g * 1024) / 4;
      assert.deepEqual([...out.subarray(at, at + 4)], [dt[0]! + dt[1]!, gt[2], 0, gi], `group ${g} thread ${gi}`);
    }
});

test('pixel: derivatives across 2x2 quads, coarse and fine (ps_derivatives)', () => {
  // r = ddx(v) + ddy(v) + ddx_coarse(v) * ddy_coarse(v) + ddx_fine(v.zwxy) - ddy_fine(v.xxyy) + fwidth(v)
  const p = lift(readBytes(fx('ps_derivatives-main-ps_5_0.dxbc')));
  const W = 4;
  const H = 2;
  // v(x, y) = (x * x, 3 * y * y, x * y, x + 5 * y): small integers, so every step is exact.
  const v = (x: number, y: number) => [x * x, 3 * y * y, x * y, x + 5 * y];
  const inp = new Float32Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) inp.set(v(x, y), (y * W + x) * 4);
  const res = runPixel(p, { width: W, height: H, inputs: { 0: new Uint32Array(inp.buffer) } });
  const got = asF(res.targets[0]!);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const qx = x & ~1;
      const qy = y & ~1;
      // coarse: the quad's top-left differences; fine: this pixel's row or column in the quad
      const cdx = v(qx + 1, qy).map((a, k) => a - v(qx, qy)[k]!);
      const cdy = v(qx, qy + 1).map((a, k) => a - v(qx, qy)[k]!);
      const fdx = v(qx + 1, y).map((a, k) => a - v(qx, y)[k]!);
      const fdy = v(x, qy + 1).map((a, k) => a - v(x, qy)[k]!);
      const sw = (a: number[], s: number[]) => s.map((i) => a[i]!);
      // ddx/ddy without a control are coarse here; fwidth = |ddx_coarse| + |ddy_coarse|
      const want = [0, 1, 2, 3].map(
        (k) =>
          cdx[k]! +
          cdy[k]! +
          cdx[k]! * cdy[k]! +
          sw(fdx, [2, 3, 0, 1])[k]! -
          sw(fdy, [0, 0, 1, 1])[k]! +
          Math.abs(cdx[k]!) +
          Math.abs(cdy[k]!),
      );
      assert.deepEqual([...got.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)], want, `pixel ${x},${y}`);
    }
});

test('pixel: discard drops a lane`s output; its quad goes on (ps_discard, sampling callback)', () => {
  // c = T.Sample(S, uv); if (c.a < threshold) discard; return c;
  const p = lift(readBytes(fx('ps_discard-main-ps_5_0.dxbc')));
  const W = 4;
  const H = 2;
  const uv = new Float32Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) uv.set([x, y], (y * W + x) * 4);
  const requests: SampleRequest[] = [];
  const sample = (req: SampleRequest) => {
    requests.push(req);
    const [x, y] = req.coord as [number, number];
    // texel (x, y): colour (x, y, 7, alpha = x + y)
    return [x, y, 7, x + y].map(f32);
  };
  const cbKey = `${p.interface.resources.find((r) => r.registerClass === 'b')!.group}:0`;
  const res = runPixel(p, {
    width: W,
    height: H,
    inputs: { 0: new Uint32Array(uv.buffer) },
    buffers: { [cbKey]: new Uint32Array([f32(2), 0, 0, 0]) },
    sample,
  });
  // every lane sampled, with its quad's coordinate differences (coarse) for the level of detail
  assert.equal(requests.length, W * H);
  const r0 = requests.find((q) => q.lane === 0)!;
  assert.deepEqual(r0.level, { kind: 'auto', ddx: [1, 0], ddy: [0, 1] });
  const got = asF(res.targets[0]!);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const kept = x + y >= 2;
      assert.equal(res.written[i], kept ? 1 : 0, `pixel ${x},${y} written`);
      assert.deepEqual([...got.subarray(i * 4, i * 4 + 4)], kept ? [x, y, 7, x + y] : [0, 0, 0, 0]);
    }
});

test('pixel: the sample request names the texture and sampler bindings and multiplies by the tint (ps_sample_basic)', () => {
  const p = lift(readBytes(fx('ps_sample_basic-main-ps_5_0.dxbc')));
  const key = (cls: string) => {
    const r = p.interface.resources.find((x) => x.registerClass === cls)!;
    return `${r.group}:${r.binding}`;
  };
  const seen = new Set<string>();
  const uv = new Float32Array(2 * 2 * 4).fill(0.5);
  const res = runPixel(p, {
    width: 2,
    height: 2,
    inputs: { 1: new Uint32Array(uv.buffer), 0: new Uint32Array(uv.buffer) },
    buffers: { [key('b')]: new Uint32Array([f32(2), f32(3), f32(0.5), f32(1)]) },
    sample: (req) => {
      seen.add(`${req.texture}|${req.sampler}`);
      return [1, 2, 4, 8].map(f32);
    },
  });
  assert.deepEqual([...seen], [`${key('t')}|${key('s')}`]);
  assert.deepEqual([...asF(res.targets[0]!).subarray(0, 4)], [2, 6, 2, 8]);
});

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('./src/cli/main.ts').then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`,
    ],
    {
      cwd: REPO,
      encoding: 'utf8',
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const inputFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-run-'));
  const p = join(dir, 'in.json');
  writeFileSync(p, JSON.stringify({ workgroups: [1, 1, 1], buffers: { u0: new Array(256).fill(0) } }));
  return p;
};

test('iridia run prints every written word as JSON', () => {
  const r = cli(['run', fx('cs_basic-main-cs_5_0.dxbc'), '--input', inputFile()]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { stage: string; outputs: { u0: number[] } };
  assert.equal(out.stage, 'compute');
  // thread 9: gt = (1, 1, 0), dt = (1, 1, 0): (2, 0, 0, 9) at words 36..39
  assert.deepEqual(out.outputs.u0.slice(36, 40), [2, 0, 0, 9]);
});

test('iridia run --gpu gives the same words through WebGPU', { skip: webgpuSkip() }, () => {
  const input = inputFile();
  const cpu = cli(['run', fx('cs_basic-main-cs_5_0.dxbc'), '--input', input]);
  const gpu = cli(['run', fx('cs_basic-main-cs_5_0.dxbc'), '--input', input, '--gpu']);
  assert.equal(gpu.status, 0, gpu.stderr);
  const a = JSON.parse(cpu.stdout) as { outputs: { u0: number[] } };
  const b = JSON.parse(gpu.stdout) as { outputs: { u0: number[] } };
  assert.deepEqual(b.outputs.u0, a.outputs.u0);
});

test(
  'iridia run --gpu draws a pixel program with constant varyings and a constant buffer, as the CPU run',
  { skip: webgpuSkip() },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'iridia-run-'));
    const input = join(dir, 'in.json');
    const texcoord = Array.from({ length: 4 }, () => [1.5, -2, 3, 0.25]).flat();
    writeFileSync(
      input,
      JSON.stringify({
        width: 2,
        height: 2,
        buffers: { cb0: { f32: [0.5, -1, 2, 0.25, 0.125, 0.5, -0.5, 1] } },
        inputs: { 0: { f32: texcoord } },
      }),
    );
    const file = fx('modifiers_saturate-main-ps_5_0.dxbc');
    const cpu = cli(['run', file, '--input', input]);
    const gpu = cli(['run', file, '--input', input, '--gpu']);
    assert.equal(cpu.status, 0, cpu.stderr);
    assert.equal(gpu.status, 0, gpu.stderr);
    const a = JSON.parse(cpu.stdout) as { targets: Record<string, number[]> };
    const b = JSON.parse(gpu.stdout) as { targets: Record<string, number[]> };
    assert.equal(a.targets['0']!.length, 16);
    assert.deepEqual(b.targets['0'], a.targets['0']);
  },
);

test(
  'iridia run samples nearest, clamp to edge, on the CPU and with --gpu (ps_sample_basic)',
  { skip: webgpuSkip() },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'iridia-run-'));
    const input = join(dir, 'in.json');
    const texels = Array.from({ length: 16 }, (_, i) => i + 1);
    writeFileSync(
      input,
      JSON.stringify({
        width: 2,
        height: 2,
        buffers: { cb0: { f32: [2, 3, 0.5, 1] } },
        textures: { t0: { width: 2, height: 2, words: { f32: texels } } },
        inputs: { 0: { f32: Array.from({ length: 4 }, () => [0.75, 0.25, 0, 0]).flat() } },
      }),
    );
    const file = fx('ps_sample_basic-main-ps_5_0.dxbc');
    for (const extra of [[], ['--gpu']]) {
      const r = cli(['run', file, '--input', input, ...extra]);
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { targets: Record<string, number[]> };
      // uv (0.75, 0.25) on a 2x2 texture: texel (1, 0) = (5, 6, 7, 8), times the tint (2, 3, 0.5, 1)
      const first = new Float32Array(new Uint32Array(out.targets['0']!.slice(0, 4)).buffer);
      assert.deepEqual([...first], [10, 18, 3.5, 8], extra.join(' '));
    }
  },
);

test('pixel: a [call] switch whose subroutine returns early from an if, then a retc in the caller (ps_call_return)', () => {
  // r = v; switch (i) { case 0: if (v.x > 0) return v; r = sin(v); case 1: r = cos(v); default: r = v * v } return r
  const p = lift(readBytes(join(FIXTURES, 'lift', 'ps_call_return', 'main-ps_5_0', 'shader.dxbc')));
  const W = 4;
  const H = 2;
  // pixel k: i = [0, 0, 1, 7][k % 4]; v = (x0, 0.5, 0.25, 2) with x0 = 1 for pixel 0 (the early return), else -1.
  const v = (k: number) => [k % 4 === 0 ? 1 : -1, 0.5, 0.25, 2];
  const iOf = (k: number) => [0, 0, 1, 7][k % 4]!;
  const tex = new Float32Array(W * H * 4);
  const sel = new Uint32Array(W * H * 4);
  for (let k = 0; k < W * H; k++) {
    tex.set(v(k), k * 4);
    sel[k * 4] = iOf(k);
  }
  const loc = (name: string) => p.interface.inputs.find((x) => x.semantic === name)!.location!;
  const res = runPixel(p, {
    width: W,
    height: H,
    inputs: { [loc('TEXCOORD')]: new Uint32Array(tex.buffer), [loc('I')]: sel },
  });
  const got = asF(res.targets[0]!);
  const f = Math.fround;
  for (let k = 0; k < W * H; k++) {
    const x = v(k);
    const want = [x, x.map((a) => f(Math.sin(a))), x.map((a) => f(Math.cos(a))), x.map((a) => f(a * a))][k % 4]!;
    assert.deepEqual([...got.subarray(k * 4, k * 4 + 4)], want, `pixel ${k} (i = ${iOf(k)})`);
  }
});
