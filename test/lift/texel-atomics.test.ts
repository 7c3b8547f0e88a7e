// Atomics on typed texture UAVs (lift/texels.ts): WebGPU has no texture atomics, so such a view is a
// storage buffer of one word a texel behind a header of its size (width, height, depth-or-layers),
// the same for the SM4/5 and the DXIL lifter. Proven by running our own uav_atomics_typed_dims
// (test/fixtures/lift: 1D, 1D-array, 2D-array and 3D views, uint and sint) on the executor against
// Direct3D's definitions — signed min/max on sint views, texels outside the header's size left alone
// — and, for the order-independent words, on Dawn; and a DXIL program of ../shared when present.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { closeWebgpu, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runCompute, runPixel } from '../../src/exec/index.js';
import { seedBindings } from '../../src/exec/seed.js';
import type { GpuBinding } from '../../src/gpu/types.js';

after(closeWebgpu);

const fixture = (b: string) => readBytes(join(FIXTURES, 'lift/uav_atomics_typed_dims', b, 'shader.dxbc'));
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const f32 = (w: number): number => ((U32[0] = w), F32[0]!);
/** A view's words: its header (width, height, depth-or-layers, 0) and texels. */
const view = (w: number, h: number, d: number, texels: readonly number[]) =>
  Uint32Array.from([w, h, d, 0, ...texels.map((t) => t >>> 0)]);
const range = (n: number, f: (k: number) => number) => Array.from({ length: n }, (_, k) => f(k));

test('a typed texture view used atomically is a storage buffer of atomic words, noted with its layout', () => {
  const p = lift(fixture('main-cs_5_0'));
  assert.deepEqual(validateModule(p.module), []);
  for (const r of p.interface.resources)
    assert.deepEqual(r.kind, {
      kind: 'uav',
      view: 'typed',
      dimension: r.kind.kind === 'uav' ? r.kind.dimension : '',
      texels: true,
    });
  const w = emitWgsl(p);
  assert.match(w, /@group\(3\) @binding\(1\) var<storage, read_write> u1: array<atomic<u32>>;/);
  assert.match(w, /@group\(3\) @binding\(2\) var<storage, read_write> u2: array<atomic<i32>>;/);
  assert.match(w, /atomicMin\(&u2\[/);
  assert.ok(p.notes.some((n) => n.startsWith('u1: a typed texture view used atomically') && n.includes('word 4 + x')));
});

// main: InterlockedAdd(U1[id.x], 1); InterlockedMin(U1A[id.xy], -id.z); o = Exchange(U2A[id], id.x);
// io = CompareExchange(U3[id], 0, o); InterlockedXor(U2A[id.zyx], io) — over 4x4x4 threads.
function csInputs() {
  const A = range(64, (k) => 100 + k); // U2A[x, y, z] at x + 4 (y + 4 z)
  const B = range(64, (k) => (k % 3 === 0 ? 0 : 1000 + k)); // U3, the same layout
  return {
    A,
    B,
    // U1 is 4 texels but its header says 3 wide: texel 3 is outside the view and stays
    u1: view(3, 1, 1, [10, 20, 30, 40]),
    u2: view(
      4,
      1,
      4,
      range(16, (k) => (k === 0 ? -7 : 5)),
    ),
    u3: view(4, 4, 4, A),
    u4: view(4, 4, 4, B),
  };
}

test('cs: add, signed min, exchange, compare-exchange and xor on 1D, 1D-array, 2D-array and 3D views (executor)', () => {
  const p = lift(fixture('main-cs_5_0'));
  const { A, B, u1, u2, u3, u4 } = csInputs();
  runCompute(p, { workgroups: [1, 1, 1], buffers: { '3:1': u1, '3:2': u2, '3:3': u3, '3:4': u4 } });
  assert.deepEqual([...u1.subarray(0, 4)], [3, 1, 1, 0], 'the header is not written');
  assert.deepEqual([...u1.subarray(4)], [26, 36, 46, 40]);
  // min over z of -z (signed) and the texel: -3, or -7 where it was -7; an unsigned min would give 0
  assert.deepEqual(
    [...new Int32Array(u2.buffer, 16)],
    range(16, (k) => (k === 0 ? -7 : -3)),
  );
  const at = (x: number, y: number, z: number) => x + 4 * (y + 4 * z);
  const u3w: number[] = [];
  const u4w: number[] = [];
  for (let z = 0; z < 4; z++)
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 4; x++) {
        // U2A[x,y,z] = x (the exchange), then xored by thread (z,y,x)'s io = B[z,y,x]
        u3w.push((x ^ B[at(z, y, x)]!) >>> 0);
        u4w.push(B[at(x, y, z)] === 0 ? A[at(x, y, z)]! : B[at(x, y, z)]!);
      }
  assert.deepEqual([...u3.subarray(4)], u3w);
  assert.deepEqual([...u4.subarray(4)], u4w);
});

test('cs on Dawn: the order-independent words (add, signed min) agree', async (t) => {
  const skip = webgpuSkip();
  if (skip) return t.skip(skip);
  const p = lift(fixture('main-cs_5_0'));
  const { u1, u2, u3, u4 } = csInputs();
  const bindings: GpuBinding[] = [u1, u2, u3, u4].map((words, k) => ({
    group: 3,
    binding: k + 1,
    type: 'storage',
    words,
  }));
  const g = await gpuCompute({ code: emitWgsl(p), workgroups: [1, 1, 1], bindings });
  assert.ok(g.ok, g.ok ? '' : g.messages.join('\n'));
  if (!g.ok) return;
  assert.deepEqual([...g.outputs['3:1']!], [3, 1, 1, 0, 26, 36, 46, 40]);
  assert.deepEqual(
    [...new Int32Array(g.outputs['3:2']!.slice().buffer, 16)],
    range(16, (k) => (k === 0 ? -7 : -3)),
  );
});

test('ps: o = InterlockedOr(U1[x], 2); InterlockedMax(U3[x, y, 0], o) signed; the target is o (executor)', () => {
  const p = lift(fixture('psmain-ps_5_0'));
  assert.deepEqual(validateModule(p.module), []);
  const u1 = view(4, 1, 1, [1, 4, 8, 3]);
  const u4 = view(4, 1, 1, [-1, 100, 7, 0]);
  const r = runPixel(p, { width: 4, height: 1, buffers: { '3:1': u1, '3:4': u4 } });
  assert.deepEqual([...u1.subarray(4)], [3, 6, 10, 3]);
  // signed: max(-1, 1) = 1; an unsigned max would keep 0xffffffff
  assert.deepEqual([...new Int32Array(u4.buffer, 16)], [1, 100, 8, 3]);
  assert.deepEqual(
    range(4, (i) => f32(r.targets[0]![i * 4]!)),
    [1, 4, 8, 3],
  );
});

test('seeded runs give a texel view its header (8 wide; 1D: 1 high; arrays 2 layers; 3D 4 deep)', () => {
  const b = seedBindings(lift(fixture('main-cs_5_0')), 1);
  assert.deepEqual(
    b.resources.map((r) => [r.name, ...r.words!.subarray(0, 4), r.words!.length]),
    [
      ['u1', 8, 1, 1, 0, 12],
      ['u2', 8, 1, 2, 0, 20],
      ['u3', 8, 8, 2, 0, 132],
      ['u4', 8, 8, 4, 0, 260],
    ],
  );
});

const DXIL = 'corpus/dxil/vkd3d-proton/tests__d3d12_shaders__ps_code_dxil_d01924b6_2.dxil';

test('DXIL: AtomicBinOp Or of a RWTexture2D<uint> texel with the coverage mask (executor)', (t) => {
  const skip = skipUnlessShared(DXIL);
  if (skip) return t.skip(skip);
  const p = lift(readBytes(sharedPath(DXIL)!));
  assert.deepEqual(validateModule(p.module), []);
  const r = p.interface.resources.find((x) => x.registerClass === 'u')!;
  assert.equal(r.kind.kind === 'uav' && r.kind.texels, true);
  const words = view(2, 2, 1, [0x10, 0x20, 0x40, 0x80]);
  runPixel(p, { width: 2, height: 2, buffers: { [`${r.group}:${r.binding}`]: words } });
  assert.deepEqual([...words.subarray(4)], [0x11, 0x21, 0x41, 0x81]);
});

// sm_advanced__cs_multisample_uav (cs_6_7, 4x4x4 threads): thread (x, y, z) stores 16 (y^2) + 4 (x^1)
// + 64 (z^3) + s as sample s of texel (x^1, y^2) of RWTexture2DMS u0 (z = 3) or of layer z^3 of
// RWTexture2DMSArray u1 (z < 3, layers 1 to 3 of four); after a barrier it reads back the four samples of (x, y) (of u0 for
// z = 0, of layer z of u1 otherwise) into element 16 z + 4 y + x of u2: so u2 holds 0.0, 1.0, ... 255.0.
const MS = 'corpus/dxil/vkd3d-proton/sm_advanced__cs_multisample_uav.dxil';

test('DXIL: RWTexture2DMS[Array] as texel buffers, one word a sample (executor and Dawn)', async (t) => {
  const skip = skipUnlessShared(MS);
  if (skip) return t.skip(skip);
  const p = lift(readBytes(sharedPath(MS)!));
  assert.deepEqual(validateModule(p.module), []);
  const kinds = p.interface.resources.map((r) => r.kind);
  assert.deepEqual(kinds.slice(0, 2), [
    { kind: 'uav', view: 'typed', dimension: '2dms', texels: true, samples: 4 },
    { kind: 'uav', view: 'typed', dimension: '2dmsarray', texels: true, samples: 4 },
  ]);
  const inputs = () => [view(4, 4, 1, []), view(4, 4, 4, []), new Uint32Array(256)];
  const withSamples = (w: Uint32Array) => {
    const out = new Uint32Array(4 + w[0]! * w[1]! * w[2]! * 4);
    out.set(w.subarray(0, 3));
    out[3] = 4;
    return out;
  };
  const [u0, u1, u2] = inputs().map((w, k) => (k < 2 ? withSamples(w) : w)) as [Uint32Array, Uint32Array, Uint32Array];
  runCompute(p, { workgroups: [1, 1, 1], buffers: { '3:0': u0, '3:1': u1, '3:2': u2 } });
  const want = range(256, (k) => k);
  assert.deepEqual([...u2].map(f32), want);
  const gskip = webgpuSkip();
  if (gskip) return t.skip(gskip);
  const [g0, g1, g2] = inputs().map((w, k) => (k < 2 ? withSamples(w) : w));
  const g = await gpuCompute({
    code: emitWgsl(p),
    workgroups: [1, 1, 1],
    bindings: [g0!, g1!, g2!].map((words, k): GpuBinding => ({ group: 3, binding: k, type: 'storage', words })),
  });
  assert.ok(g.ok, g.ok ? '' : g.messages.join('\n'));
  if (g.ok) assert.deepEqual([...g.outputs['3:2']!].map(f32), want);
});
