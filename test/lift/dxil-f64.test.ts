// DXIL programs with 64-bit values, lifted and run: the double-precision programs of
// ../shared/corpus/dxil (vkd3d-proton's fp64 tests: MakeDouble, an fadd of doubles, SplitDouble)
// and the 64-bit constant buffer layout programs (cbufferLoad.i64 and cbufferLoadLegacy.i64, add
// i64, lshr and trunc), on the executor against JavaScript's float64 sum and a BigInt model of
// each program's LLVM; one of each on Dawn too; and the 64-bit raw gathers (TextureGatherRaw.i64,
// rawBufferStore.i64) against a texture of known words. These programs are vkd3d-proton's (LGPL), so none
// is committed as a fixture and the test skips without ../shared.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { nearestClampSampler, runCompute } from '../../src/exec/index.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { closeWebgpu, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';
import { rng } from '../helpers/rng.js';

after(() => closeWebgpu());

const DIR = 'corpus/dxil/vkd3d-proton';
const skip = skipUnlessShared(DIR);
const files = (re: RegExp): string[] => {
  const d = sharedPath(DIR);
  return d
    ? readdirSync(d)
        .filter((f) => re.test(f))
        .sort()
    : [];
};

const DV = new DataView(new ArrayBuffer(8));
const double = (lo: number, hi: number): number => {
  DV.setUint32(0, lo >>> 0, true);
  DV.setUint32(4, hi >>> 0, true);
  return DV.getFloat64(0, true);
};
const words = (x: number): [number, number] => {
  DV.setFloat64(0, x, true);
  return [DV.getUint32(0, true), DV.getUint32(4, true)];
};

/** Operand pairs of the fp64 programs: subnormals (what the denorm tests are about), ties, random. */
function fp64Operands(): [number, number, number, number][] {
  const r = rng(64);
  const out: [number, number, number, number][] = [
    [1, 0, 1, 0], // two smallest subnormals
    [0xffffffff, 0x000fffff, 1, 0], // largest subnormal + smallest: the smallest normal
    [0, 0x80000000, 0, 0x80000000], // -0 + -0
    [0, 0x3ff00000, 0, 0x3ca00000], // 1 + 2^-53: a tie, to even
    [1, 0x3ff00000, 0, 0x3ca00000], // (1 + ulp) + 2^-53: a tie, up
    [0xffffffff, 0x7fefffff, 0, 0x7c900000], // overflow to inf
    [0, 0x7ff00000, 0, 0xfff00000], // inf - inf
  ];
  while (out.length < 64) {
    const e = r() % 3 === 0 ? 0 : r() % 2047;
    out.push([r(), (r() & 0x800fffff) | (e << 20), r(), (r() & 0x800fffff) | (((e + (r() % 8)) & 0x7ff) << 20)]);
  }
  return out;
}

function expectedSum(a: readonly number[]): [number, number] {
  const x = double(a[0]!, a[1]!);
  const y = double(a[2]!, a[3]!);
  const s = x + y;
  // a NaN operand comes back quiet (the first one), inf - inf is the default NaN (lift/f64.ts)
  if (Number.isNaN(x)) return [a[0]! >>> 0, (a[1]! | 0x80000) >>> 0];
  if (Number.isNaN(y)) return [a[2]! >>> 0, (a[3]! | 0x80000) >>> 0];
  if (Number.isNaN(s)) return [0, 0x7ff80000];
  return words(s);
}

const FP64 = files(/fp64.*\.dxil$/).filter((f) => !f.includes('long_vector'));

test(
  'the 18 double-precision programs of the corpus lift and add doubles as IEEE binary64 (executor)',
  { skip },
  () => {
    assert.equal(FP64.length, 18);
    const cases = fp64Operands();
    for (const f of FP64) {
      const p = lift(readBytes(join(sharedPath(DIR)!, f)));
      assert.deepEqual(validateModule(p.module), [], f);
      for (const c of cases) {
        const t0 = new Uint32Array(16);
        t0.set(c);
        const u0 = new Uint32Array(8);
        runCompute(p, { workgroups: [1, 1, 1], buffers: { '1:0': t0, '3:0': u0 }, denormals: 'preserve' });
        const want = expectedSum(c);
        assert.deepEqual([u0[0], u0[1]], want, `${f}: ${c.map((w) => w.toString(16)).join(':')}`);
      }
    }
  },
);

/** The cbv layout programs' LLVM in BigInt: thread t sums the 64-bit members 4t..4t+3 of the two
 * constant buffers (s0..s3) and packs bytes of the sums into words 2t and 2t+1. */
function cbvExpected(cb0: BigUint64Array, cb1: BigUint64Array, t: number): [number, number] {
  const s = [0, 1, 2, 3].map((k) => BigInt.asUintN(64, cb0[4 * t + k]! + cb1[4 * t + k]!));
  const lo = (v: bigint) => Number(v & 0xffffffffn);
  const w0 = (lo(s[0]!) | (lo(s[1]!) << 8) | (lo(s[2]!) << 16) | (lo(s[3]!) << 24)) >>> 0;
  const w1 =
    ((lo(s[1]! >> 24n) & 0xffffff00) |
      lo(s[0]! >> 32n) |
      (lo(s[2]! >> 16n) & 0xffff0000) |
      (lo(s[3]! >> 8n) & 0xff000000)) >>>
    0;
  return [w0, w1];
}

const CBV = files(/(cbv_layout_(legacy|modern)_uint64|(legacy|modern)_uint64_code).*\.dxil$/);

function cbvBuffers(seed: number): { cb0: BigUint64Array; cb1: BigUint64Array } {
  const r = rng(seed);
  const fill = () => {
    const b = new BigUint64Array(32);
    for (let k = 0; k < 32; k++) b[k] = (BigInt(r()) << 32n) | BigInt(r() % 3 === 0 ? 0xffffffff : r());
    return b;
  };
  return { cb0: fill(), cb1: fill() };
}

test("the 64-bit constant buffer programs read DXIL's layout and add i64 with carries (executor)", { skip }, () => {
  assert.equal(CBV.length, 6);
  for (const f of CBV) {
    const p = lift(readBytes(join(sharedPath(DIR)!, f)));
    assert.deepEqual(validateModule(p.module), [], f);
    for (const seed of [1, 2, 3]) {
      const { cb0, cb1 } = cbvBuffers(seed);
      const u0 = new Uint32Array(16);
      runCompute(p, {
        workgroups: [1, 1, 1],
        buffers: { '0:0': new Uint32Array(cb0.buffer), '0:1': new Uint32Array(cb1.buffer), '3:0': u0 },
      });
      const want = [...Array(8).keys()].flatMap((t) => cbvExpected(cb0, cb1, t));
      assert.deepEqual([...u0], want, `${f}, seed ${seed}`);
    }
  }
});

const gpuSkip = skip || webgpuSkip();

test(
  'Dawn gives the same words for a double-precision program and a 64-bit constant buffer program',
  { skip: gpuSkip },
  async () => {
    const fp = FP64.find((f) => f.includes('fp64_fp32_denorm'))!;
    const p = lift(readBytes(join(sharedPath(DIR)!, fp)));
    const code = emitWgsl(p);
    for (const c of fp64Operands().slice(0, 16)) {
      const t0 = new Uint32Array(16);
      t0.set(c);
      const r = await gpuCompute({
        code,
        workgroups: [1, 1, 1],
        bindings: [
          { group: 1, binding: 0, type: 'storage', words: t0, readOnly: true },
          { group: 3, binding: 0, type: 'storage', words: new Uint32Array(8) },
        ],
      });
      assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join('; ')}`);
      const got = r.outputs['3:0']!;
      assert.deepEqual([got[0], got[1]], expectedSum(c), c.map((w) => w.toString(16)).join(':'));
    }
    const cbv = lift(readBytes(join(sharedPath(DIR)!, CBV[0]!)));
    const { cb0, cb1 } = cbvBuffers(7);
    const r = await gpuCompute({
      code: emitWgsl(cbv),
      workgroups: [1, 1, 1],
      bindings: [
        { group: 0, binding: 0, type: 'uniform', words: new Uint32Array(cb0.buffer) },
        { group: 0, binding: 1, type: 'uniform', words: new Uint32Array(cb1.buffer) },
        { group: 3, binding: 0, type: 'storage', words: new Uint32Array(16) },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : `${r.stage}: ${r.messages.join('; ')}`);
    assert.deepEqual(
      [...r.outputs['3:0']!],
      [...Array(8).keys()].flatMap((t) => cbvExpected(cb0, cb1, t)),
    );
  },
);

const GATHER = files(/(raw_gather_64|gather_raw_64).*\.dxil$/);

test(
  "TextureGatherRaw of a 64-bit texture: red the low words, green the high words, in Direct3D's footprint order",
  { skip },
  () => {
    assert.equal(GATHER.length, 3);
    // a 2x2 R32G32_UINT texture; texel (x, y) holds (lo, hi); sampled at (0.5, 0.5) the footprint is
    // all four texels, gathered in Direct3D's order (0, 1), (1, 1), (1, 0), (0, 0)
    const lo = (x: number, y: number) => (0x11110000 + x + 2 * y) >>> 0;
    const hi = (x: number, y: number) => (0xa0000000 | ((x + 2 * y) << 8)) >>> 0;
    const texels = new Uint32Array(16);
    for (let y = 0; y < 2; y++) for (let x = 0; x < 2; x++) texels.set([lo(x, y), hi(x, y), 0, 0], 4 * (2 * y + x));
    const want = [
      [0, 1],
      [1, 1],
      [1, 0],
      [0, 0],
    ].flatMap(([x, y]) => [lo(x!, y!), hi(x!, y!)]);
    for (const f of GATHER) {
      const p = lift(readBytes(join(sharedPath(DIR)!, f)));
      assert.deepEqual(validateModule(p.module), [], f);
      const key = (cls: string) => {
        const r = p.interface.resources.find((v) => v.registerClass === cls && v.register === 0)!;
        return `${r.group}:${r.binding}`;
      };
      const textures = { [key('t')]: { width: 2, height: 2, depthOrLayers: 1, levels: [texels] } };
      const u0 = new Uint32Array(8);
      runCompute(p, {
        workgroups: [1, 1, 1],
        buffers: { [key('u')]: u0 },
        textures,
        sample: nearestClampSampler(textures),
      });
      assert.deepEqual([...u0], want, f);
    }
  },
);
