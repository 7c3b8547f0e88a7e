// Shader Model 6.7's computed texel offsets (src/lift/dxil/offsets.ts): vkd3d-proton's
// test_sm67_dynamic_texture_offset (cs_dynamic_texture_offset: SampleLevel with offsets read from a
// buffer) on the executor with the test's inputs, against its expectation (tests/d3d12_sm_advanced.c:
// a 16x16 R8_UNORM texture of 4 levels, MIN_MAG_POINT_MIP_LINEAR with wrap addressing, the offset's
// low four bits signed, sext4, applied per level, the two levels blended by the level's fraction;
// within 1.1/255). The sampler here is that formula; the sample the program makes must reach it with
// sext4 of each axis's offset (a switch over the 256 constant offsets, which Tint compiles: the
// corpus test). The programs are vkd3d-proton's (LGPL), read from ../shared (the test skips
// without it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { runCompute, type ExecTexture, type SampleCallback } from '../../src/exec/index.js';
import { emitWgsl } from '../../src/wgsl/index.js';

const DIR = 'corpus/dxil/vkd3d-proton';
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const bits = (v: number): number => ((F32[0] = v), U32[0]!);
const f32 = (w: number): number => ((U32[0] = w), F32[0]!);
const sext4 = (x: number): number => (x << 28) >> 28;

// { u, v, mip, offset_x, offset_y }, the test's input_coordinates
const INPUTS = [
  [0.01, 0.01, 0.5, 9, -13],
  [0.51, 0.01, 0.75, 9, -13],
  [0.21, -0.01, 1.5, 3, -13],
  [0.01, 0.51, 1.75, 0, -4],
] as const;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0) & 0xff;
  };
}

/** vkd3d-proton's reference for one input, given each level's 16x16 bytes and the offsets used. */
function reference(data: Uint8Array[], u: number, v: number, mip: number, ox: number, oy: number): number {
  const lo = Math.trunc(mip);
  const hi = Math.min(lo + 1, 3);
  const frac = Math.fround(mip - lo);
  const at = (m: number): number => {
    const size = 16 >> m;
    const iu = (Math.floor(Math.fround(u * size)) + ox) & (size - 1);
    const iv = (Math.floor(Math.fround(v * size)) + oy) & (size - 1);
    return Math.fround(data[m]![iv * 16 + iu]! / 255);
  };
  return Math.fround(at(lo) * (1 - frac) + at(hi) * frac);
}

for (const name of ['sm_advanced__cs_dynamic_texture_offset', 'tests__d3d12_sm_advanced__cs_code_dxil_766431b4_3'])
  test(`${name}: a computed SampleLevel offset takes its low four bits, signed (vkd3d-proton's expectation)`, (t) => {
    const path = `${DIR}/${name}.dxil`;
    const skip = skipUnlessShared(path);
    if (skip) return t.skip(skip);
    const p = lift(readBytes(sharedPath(path)!));
    assert.deepEqual(validateModule(p.module), []);
    assert.match(emitWgsl(p), /switch offset_case/);
    const r = rng(1234);
    // the test's uint8_t input_texture_data[4][16][16]: each level's texels at a row pitch of 16
    const data = Array.from({ length: 4 }, () => Uint8Array.from({ length: 256 }, r));
    const levels = data.map((d, m) => {
      const size = 16 >> m;
      const words = new Uint32Array(size * size * 4);
      for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) {
          words[4 * (y * size + x)] = bits(d[y * 16 + x]! / 255);
          words[4 * (y * size + x) + 3] = bits(1);
        }
      return words;
    });
    const tex: ExecTexture = { width: 16, height: 16, depthOrLayers: 1, levels };
    const seen: number[][] = [];
    const sample: SampleCallback = (req) => {
      if (req.level.kind !== 'exact') throw new Error(`a ${req.level.kind} level`);
      const off = [req.offset?.[0] ?? 0, req.offset?.[1] ?? 0];
      seen.push(off);
      const [u, v] = req.coord as [number, number];
      return [bits(reference(data, u, v, req.level.level, off[0]!, off[1]!)), 0, 0, bits(1)];
    };
    const coords = new Uint32Array(
      INPUTS.flatMap(([u, v, mip, ox, oy]) => [bits(u), bits(v), bits(mip), ox >>> 0, oy >>> 0]),
    );
    const out = new Uint32Array(4);
    runCompute(p, { workgroups: [4, 1, 1], buffers: { '1:1': coords, '3:0': out }, textures: { '1:0': tex }, sample });
    assert.deepEqual(
      seen,
      INPUTS.map(([, , , ox, oy]) => [sext4(ox), sext4(oy)]),
      'each sample with sext4 of its offsets',
    );
    INPUTS.forEach(([u, v, mip, ox, oy], i) => {
      const want = reference(data, Math.fround(u), Math.fround(v), Math.fround(mip), sext4(ox), sext4(oy));
      assert.ok(Math.abs(f32(out[i]!) - want) <= 1.1 / 255, `coord ${i}: ${f32(out[i]!)}, expected ${want}`);
    });
  });
