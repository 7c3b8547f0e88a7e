// `iridia run --seed S FILE [--json]` and the seeded generator (src/exec/seed.ts) on committed DXBC
// builds. Expected values are worked out apart from the code under test: the generator's first
// words from a separate implementation of the formula docs/exec.md gives (a Python transcription,
// its output pasted below); compute outputs from the thread ids the listing stores; a copy's words
// from the input the generator gives; a pixel's colour from its texel and constant by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { lift } from '../../src/lift/lift.js';
import { seedBindings, seededWords } from '../../src/exec/index.js';
import { FIXTURES, REPO, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { webgpuSkip } from '../helpers/webgpu.js';

function iridia(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'test/cli/bin.ts'), ...args], {
    encoding: 'utf8',
    cwd: REPO,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const OWN = join(FIXTURES, 'oracle/own');
const CS_BASIC = join(OWN, 'cs_basic/main-cs_5_0/shader.dxbc');
const PARTICLES = (build: string) => join(OWN, `cs_uav_structured/${build}/shader.dxbc`);
const PS_SAMPLE = join(OWN, 'ps_sample_basic/main-ps_5_0/shader.dxbc');

interface Seeded {
  seed: number;
  stage: string;
  target: string;
  on: string;
  workgroups?: number[];
  width?: number;
  height?: number;
  outputs: Record<string, number[]>;
  targets?: Record<string, number[]>;
  written?: number[];
}

function runJson(...args: string[]): Seeded {
  const r = iridia('run', '--json', ...args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Seeded;
}

const F = new Float32Array(1);
const U = new Uint32Array(F.buffer);
const asFloat = (w: number): number => ((U[0] = w), F[0]!);
const asWord = (f: number): number => ((F[0] = f), U[0]!);
/** Direct3D's float rule: a denormal operand reads as the zero of its sign. */
const flushed = (w: number): number => ((w & 0x7f800000) === 0 ? asFloat(w & 0x80000000) : asFloat(w));

test('the generator: the documented formula, word for word; prefix-stable; streams by name', () => {
  // From a separate Python transcription of docs/exec.md's formula (seed 1, stream "t0,space0").
  assert.deepEqual(
    Array.from(seededWords(1, 't0,space0', 8)),
    [0x40740000, 0x5, 0x2, 0x4450c2bb, 0x6, 0x4, 0x0, 0xc2dabc64],
  );
  assert.deepEqual(
    Array.from(seededWords(7, 'in:TEXCOORD0', 4, 'float')),
    [0x406c0000, 0x40540000, 0xbeb00000, 0xbf700000],
  );
  assert.deepEqual(Array.from(seededWords(7, 'b0,space0', 4)), [0xbe800000, 0x6, 0xbe800000, 0x1]);
  // A resource's first words do not depend on its size; words can be read from any offset.
  assert.deepEqual(
    Array.from(seededWords(9, 'u0,space0', 64)).slice(0, 16),
    Array.from(seededWords(9, 'u0,space0', 16)),
  );
  assert.deepEqual(
    Array.from(seededWords(9, 'u0,space0', 64)).slice(40),
    Array.from(seededWords(9, 'u0,space0', 24, 'word', 40)),
  );
  assert.notDeepEqual(Array.from(seededWords(9, 'u0,space0', 8)), Array.from(seededWords(9, 'u1,space0', 8)));
  assert.notDeepEqual(Array.from(seededWords(9, 'u0,space0', 8)), Array.from(seededWords(10, 'u0,space0', 8)));
});

test('bindings follow the Direct3D identity: three builds of one HLSL get the same bytes', () => {
  // cs_4_0, cs_5_0 and cs_5_1 of cs_uav_structured declare t0, u0 and cb0 (5.1 with range ids).
  const bound = ['main-cs_4_0', 'main-cs_5_0', 'main-cs_5_1'].map((b) =>
    seedBindings(lift(readBytes(PARTICLES(b))), 5),
  );
  const byName = (i: number) =>
    Object.fromEntries(bound[i]!.resources.filter((r) => r.words).map((r) => [r.name, Array.from(r.words!)]));
  assert.deepEqual(Object.keys(byName(1)).sort(), ['cb0', 't0', 'u0']);
  assert.deepEqual(byName(0), byName(1));
  assert.deepEqual(byName(1), byName(2));
  assert.deepEqual(byName(1)['t0'], Array.from(seededWords(5, 't0,space0', 256)));
});

test('run --seed on a compute program: the default dispatch is one thread group, every u0 word printed', () => {
  const r = runJson('--seed', '1', CS_BASIC);
  assert.deepEqual([r.stage, r.on, r.workgroups], ['compute', 'executor', [1, 1, 1]]);
  // cs_basic (dcl_thread_group 8, 4, 2) stores [tid.x + tid.y, tid.z, group.y + group.z, flat] at byte
  // flat << 4 + group.x << 10: one group of 64 threads writes all 256 words of u0.
  const expected: number[] = [];
  for (let flat = 0; flat < 64; flat++) {
    const x = flat % 8;
    const y = Math.floor(flat / 8) % 4;
    const z = Math.floor(flat / 32);
    expected.push(x + y, z, 0, flat);
  }
  assert.deepEqual(r.outputs, { u0: expected });
  // A second group writes past the 256 words bound (dropped, as Direct3D drops out-of-range writes).
  const two = runJson('--seed', '1', '--workgroups', '2,1,1', CS_BASIC);
  assert.deepEqual(two.workgroups, [2, 1, 1]);
  assert.deepEqual(two.outputs, { u0: expected });
});

test('run --seed: an output that copies an input holds the generator words of that input', () => {
  const seed = 3;
  const r = runJson('--seed', String(seed), PARTICLES('main-cs_5_0'));
  const input = seededWords(seed, 't0,space0', 256); // StructuredBuffer<Particle> In : register(t0)
  const out = r.outputs['u0']!;
  assert.equal(out.length, 256);
  // Particle = { float3 pos; float life; float3 vel; uint flags } (32 bytes): Out[i].vel = In[i].vel
  // for the 32 particles the 256 words hold (64 threads; the others' writes are out of range).
  for (let i = 0; i < 32; i++)
    for (const k of [4, 5, 6]) assert.equal(out[i * 8 + k], input[i * 8 + k], `particle ${i} word ${k}`);
  // flags |= life - dt < 0 (dt is cb0's first word).
  const dt = flushed(seededWords(seed, 'b0,space0', 4)[0]!);
  for (let i = 0; i < 32; i++) {
    const life = Math.fround(flushed(input[i * 8 + 3]!) - dt);
    const below = life < 0 && (asWord(life) & 0x7f800000) !== 0 ? 1 : 0;
    assert.equal(out[i * 8 + 7], (input[i * 8 + 7]! | below) >>> 0, `particle ${i} flags`);
  }
});

test('run --seed is deterministic; another seed gives other words; the text view prints every word', () => {
  const a = iridia('run', '--seed', '3', PARTICLES('main-cs_5_0'));
  const b = iridia('run', '--seed', '3', PARTICLES('main-cs_5_0'));
  const c = iridia('run', '--seed', '4', PARTICLES('main-cs_5_0'));
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.notEqual(a.stdout, c.stdout);
  const lines = a.stdout.split('\n');
  assert.equal(lines[0], 'cs_5_0 (compute) on the executor, seed 3, 1 x 1 x 1 thread groups');
  assert.equal(lines[1], 'u0 (256 words)');
  assert.equal(lines.filter((l) => /^ {2} {0,5}\d+ {2}([0-9a-f]{8} ?){8}$/.test(l)).length, 32);
  // The same words as --json, in hex.
  const words = runJson('--seed', '3', PARTICLES('main-cs_5_0')).outputs['u0']!;
  assert.equal(
    lines[2],
    `       0  ${words
      .slice(0, 8)
      .map((w) => w.toString(16).padStart(8, '0'))
      .join(' ')}`,
  );
});

test('run --seed on a pixel program: 8x8 by default, constant varyings, sample x constant by hand', () => {
  const seed = 7;
  const r = runJson('--seed', String(seed), PS_SAMPLE);
  assert.deepEqual([r.stage, r.width, r.height], ['pixel', 8, 8]);
  assert.deepEqual(r.written, new Array<number>(64).fill(1));
  // return Diffuse.Sample(Linear, uv) * Tint: uv is TEXCOORD0's stream (3.6875, 3.3125, the words
  // pinned above), past the right and bottom edges: clamp to edge, nearest, gives texel (7, 7) of the
  // 8x8 texture t0 (float words 252..255 of "t0,space0"); Tint is cb0's words 0..3.
  const uv = seededWords(seed, 'in:TEXCOORD0', 2, 'float');
  assert.deepEqual([asFloat(uv[0]!), asFloat(uv[1]!)], [3.6875, 3.3125]);
  const texel = seededWords(seed, 't0,space0', 4, 'float', (7 * 8 + 7) * 4);
  const tint = seededWords(seed, 'b0,space0', 4);
  const pixel = [0, 1, 2, 3].map((k) => asWord(Math.fround(flushed(texel[k]!) * flushed(tint[k]!))));
  assert.deepEqual(r.targets, { '0': new Array<number[]>(64).fill(pixel).flat() });
  const small = runJson('--seed', String(seed), '--size', '4x2', PS_SAMPLE);
  assert.equal(small.targets!['0']!.length, 4 * 2 * 4);
});

test('run --seed on hull, geometry and domain programs: register files by semantic', () => {
  const LIFT = join(FIXTURES, 'lift');
  // Hull (ds_isoline_point main): CP main(p, i) { return p[i]; }, pc: e[0] = lines, e[1] = detail
  // (cbuffer C { float lines; float detail; }): control points pass through, tess factors are cb0's.
  const hull = runJson('--seed', '1', join(LIFT, 'ds_isoline_point/main-hs_5_0/shader.dxbc')) as Seeded & {
    stageOutputs: Record<string, number[]>;
    patchConstants: Record<string, number[]>;
  };
  assert.deepEqual(hull.stageOutputs, {
    POSITION0: Array.from(seededWords(1, 'in:POSITION0', 16, 'float')),
    TANGENT0: Array.from(seededWords(1, 'in:TANGENT0', 16, 'float')),
  });
  const cb = seededWords(1, 'b0,space0', 2);
  assert.deepEqual(hull.patchConstants, { SV_TESSFACTOR0: [cb[0]], SV_TESSFACTOR1: [cb[1]] });
  // Geometry (gs_point_out): each of the triangle's vertices whose WEIGHT is above 0.5 is appended.
  const gs = join(LIFT, 'gs_point_out/main-gs_5_0/shader.dxbc');
  let mixed = 0;
  for (const seed of [1, 2, 3, 4, 5]) {
    const r = runJson('--seed', String(seed), gs) as Seeded & {
      stageOutputs: Record<string, number[]>;
      emitted: number[][];
    };
    const pos = seededWords(seed, 'in:SV_POSITION0', 12, 'float');
    const w = seededWords(seed, 'in:WEIGHT0', 12, 'float');
    const kept = [0, 1, 2].filter((i) => asFloat(w[i * 4]!) > 0.5);
    if (kept.length > 0 && kept.length < 3) mixed++;
    assert.deepEqual(
      r.emitted,
      kept.map(() => [0, 0, 0]),
    );
    assert.deepEqual(
      r.stageOutputs['SV_POSITION0'],
      kept.flatMap((i) => Array.from(pos.subarray(i * 4, i * 4 + 4))),
    );
    assert.deepEqual(
      r.stageOutputs['WEIGHT0'],
      kept.map((i) => w[i * 4]),
    );
  }
  assert.ok(mixed > 0, 'some seed keeps some vertices and drops others');
  // Domain: 4 domain points of 1 patch, SV_Position's 4 components each; the text names them.
  const ds = iridia('run', '--seed', '1', join(LIFT, 'ds_isoline_point/dsmain-ds_5_0/shader.dxbc'));
  assert.equal(ds.status, 0, ds.stderr);
  assert.match(
    ds.stdout,
    /^ds_5_0 \(domain\) on the executor, seed 1, 1 patch, 4 domain points each\noutput SV_POSITION0 \(16 words\)$/m,
  );
});

test(
  'twins: the fxc (DXBC) and the dxc (DXIL) build of one HLSL print the same words under one seed',
  { skip: skipUnlessShared('corpus/pairs/vkd3d-proton') },
  () => {
    const dir = sharedPath('corpus/pairs/vkd3d-proton')!;
    // A compute, a pixel (immediate constant buffer) and a vertex program (mixed varyings) of
    // vkd3d-proton's tests, compiled by both compilers (../shared/corpus/pairs/vkd3d-proton/MANIFEST.tsv).
    for (const name of [
      'bindless__bindless_cbv',
      'shaders__ps_immediate_constant_buffer',
      'shaders__vs_varying_mixed',
    ]) {
      const dxbc = runJson('--seed', '1', join(dir, `${name}.dxbc`)) as Seeded & { vertexOutputs?: unknown };
      const dxil = runJson('--seed', '1', join(dir, `${name}.dxil`)) as Seeded & { vertexOutputs?: unknown };
      assert.notEqual(dxbc.target, dxil.target);
      const words = JSON.stringify([dxbc.outputs, dxbc.targets, dxbc.vertexOutputs]).split(',').length;
      assert.ok(words > 10, `${name}: the run has output words to compare`);
      assert.deepEqual(
        [dxil.outputs, dxil.targets, dxil.vertexOutputs],
        [dxbc.outputs, dxbc.targets, dxbc.vertexOutputs],
        name,
      );
    }
  },
);

test('run --seed refuses bad sizes and seeds as usage errors (exit 2)', () => {
  for (const args of [
    ['--seed', 'x', CS_BASIC],
    ['--seed', '4294967296', CS_BASIC],
    ['--seed', '1', '--input', 'job.json', CS_BASIC],
    ['--seed', '1', '--workgroups', '0,1,1', CS_BASIC],
    ['--seed', '1', '--size', '8', PS_SAMPLE],
    ['--workgroups', '2', CS_BASIC],
  ]) {
    const r = iridia('run', ...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
  }
});

test('run --seed --gpu: WebGPU (Dawn) prints the words the executor prints', { skip: webgpuSkip() }, () => {
  for (const file of [CS_BASIC, PARTICLES('main-cs_5_1'), PS_SAMPLE]) {
    const cpu = runJson('--seed', '11', file);
    const gpu = runJson('--seed', '11', '--gpu', file);
    assert.equal(gpu.on, 'webgpu');
    assert.deepEqual(gpu.outputs, cpu.outputs, file);
    assert.deepEqual(gpu.targets, cpu.targets, file);
  }
});
