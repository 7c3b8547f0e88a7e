// Stages lifted as functions, run on the executor against what their HLSL (../shared/oracle/own,
// beside each case) defines, worked out by hand: a geometry program appending some of its triangle's
// vertices as points, a hull program's patch-constant phases (single and instanced fork phases and a
// join phase) and an isoline domain program evaluating a cubic Bézier.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { lift } from '../../src/lift/lift.js';
import { runDomain, runGeometry, runHull, hullPhaseInstances, FILE_WORDS } from '../../src/exec/index.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const fx = (name: string) => join(FIXTURES, 'exec', name);
const f32 = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const asF = (w: Uint32Array) => Array.from(new Float32Array(w.buffer, w.byteOffset, w.length));

test('geometry: points appended for the vertices whose weight is over 0.5 (gs_point_out)', () => {
  // for (i < 3) if (t[i].w > 0.5) s.Append(t[i]);  inputs and outputs: SV_Position in 0, WEIGHT in 1.x
  const p = lift(readBytes(fx('gs_point_out-main-gs_5_0.dxbc')));
  const weights = [0.9, 0.1, 0.7];
  const inputs = new Uint32Array(3 * FILE_WORDS);
  weights.forEach((w, k) => {
    inputs.set([k, 10 + k, 20 + k, 1].map(f32), k * FILE_WORDS);
    inputs[k * FILE_WORDS + 4] = f32(w);
  });
  const { vertices } = runGeometry(p, { primitives: 1, inputs });
  assert.equal(vertices.length, 2);
  assert.deepEqual(asF(vertices[0]!.registers.subarray(0, 5)), [0, 10, 20, 1, Math.fround(0.9)]);
  assert.deepEqual(asF(vertices[1]!.registers.subarray(0, 5)), [2, 12, 22, 1, Math.fround(0.7)]);
});

test('hull: the patch constants of an isoline patch come from the constant buffer (ds_isoline_point)', () => {
  // pc: c.e[0] = lines; c.e[1] = detail — SV_TessFactor0 in pc register 0.x, SV_TessFactor1 in 1.x
  const bytes = readBytes(fx('ds_isoline_point-main-hs_5_0.dxbc'));
  const p = lift(bytes);
  const inputs = new Uint32Array(4 * FILE_WORDS).map((_, i) => i);
  const r = runHull(p, {
    patches: 1,
    inputs,
    buffers: { '0:0': new Uint32Array([f32(6), f32(3), 0, 0]) },
    phaseInstances: hullPhaseInstances(bytes),
  });
  assert.deepEqual(asF(r.patchConstants.subarray(0, 1)), [6]);
  assert.deepEqual(asF(r.patchConstants.subarray(4, 5)), [3]);
  // no control-point phase: the control points pass through
  assert.deepEqual([...r.controlPoints], [...inputs]);
});

test('hull: an instanced fork phase runs once per edge and the join phase after it (hs_fork_instanced)', () => {
  // c.mid[k] = (p[k].pos + p[(k+1)%3].pos) / 2; c.e[k] = 16 / distance(mid.xyz, eye); c.i = 4
  const bytes = readBytes(fx('hs_fork_instanced-main-hs_5_0.dxbc'));
  const p = lift(bytes);
  const phases = hullPhaseInstances(bytes);
  assert.equal(phases.length, p.stageFunctions!.patchConstant.length);
  // the lifted program carries the same counts (one fork phase per edge, then the join phase)
  assert.deepEqual(p.stageFunctions!.phaseInstances, phases);
  assert.ok(phases.some((n) => n > 1));
  const pos = [
    [0, 0, 0, 1],
    [4, 0, 0, 1],
    [0, 8, 0, 1],
  ];
  const inputs = new Uint32Array(3 * FILE_WORDS);
  pos.forEach((q, k) => inputs.set(q.map(f32), k * FILE_WORDS));
  // eye at the origin: the distances |mid[0]| = 2 and |mid[2]| = 4 are exact
  const r = runHull(p, {
    patches: 1,
    inputs,
    buffers: { '0:0': new Uint32Array([0, 0, 0, 0]) },
    phaseInstances: phases,
  });
  const reg = (i: number) => asF(r.patchConstants.subarray(i * 4, i * 4 + 4));
  assert.deepEqual(reg(4), [2, 0, 0, 1]); // mid[0] = (p0 + p1) / 2
  assert.deepEqual(reg(5), [2, 4, 0, 1]); // mid[1] = (p1 + p2) / 2
  assert.deepEqual(reg(6), [0, 4, 0, 1]); // mid[2] = (p2 + p0) / 2
  assert.equal(reg(0)[0], 8); // 16 / |(2, 0, 0)|
  assert.equal(reg(2)[0], 4); // 16 / |(0, 4, 0)|
  assert.equal(reg(3)[0], 4); // inside factor
});

test('domain: an isoline point on the cubic Bézier plus the tangent offset (ds_isoline_point)', () => {
  // b = p0 s^3 + 3 p1 s^2 t + 3 p2 s t^2 + p3 t^3 (t = uv.x, s = 1 - t); return b + p[prim & 3].tan * uv.y * e0 / e1
  const p = lift(readBytes(fx('ds_isoline_point-dsmain-ds_5_0.dxbc')));
  const cps = new Uint32Array(4 * FILE_WORDS);
  const P = [
    [0, 0, 0, 1],
    [8, 0, 0, 1],
    [0, 8, 0, 1],
    [8, 8, 0, 1],
  ];
  P.forEach((q, k) => {
    cps.set(q.map(f32), k * FILE_WORDS);
    cps.set([1, 2, 4, 0].map(f32), k * FILE_WORDS + 4); // TANGENT in register 1
  });
  const pcs = new Uint32Array(FILE_WORDS);
  pcs[0] = f32(6);
  pcs[4] = f32(3);
  const out = runDomain(p, { patches: 1, controlPoints: cps, patchConstants: pcs, domainPoints: [[0.5, 0.25, 0]] });
  // t = s = 0.5: weights 1/8, 3/8, 3/8, 1/8 -> b = (4, 4, 0, 1); offset = tan * 0.25 * 2 = (0.5, 1, 2, 0)
  assert.deepEqual(asF(out.subarray(0, 4)), [4.5, 5, 2, 1]);
});
