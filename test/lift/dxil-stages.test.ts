// Hull, domain and geometry programs lifted from DXIL as stage functions (src/lift/dxil/stage.ts)
// against their DXBC twins (the same HLSL built by fxc, lifted by src/lift/stage.ts): both run on
// the executor (src/exec/stages.ts) on the same seeded inputs (test/lift/dxil-stages-harness.ts:
// register files seeded and read back by semantic, resources by Direct3D identity), and every
// output word must be equal. The twins come from ../shared/corpus/pairs/vkd3d-proton and
// ../shared/corpus/dxil/vkd3d-proton, whose licence (LGPL-2.1-or-later) is not one the repository's
// fixtures may copy, so these tests skip, naming the folder, when ../shared is absent (and fail in
// strict mode).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runGeometry, FILE_WORDS } from '../../src/exec/index.js';
import type { Program } from '../../src/ir/program.js';
import { readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { runStageSeeded, type StageRecord } from './dxil-stages-harness.js';

const PAIRS = 'corpus/pairs/vkd3d-proton';
const SINGLES = 'corpus/dxil/vkd3d-proton';
const pair = (f: string): string => join(sharedPath(PAIRS) ?? '', f);
const single = (f: string): string => join(sharedPath(SINGLES) ?? '', f);
const SEEDS = [1, 2, 3];

const TWINS = [
  'pso__gs_mismatch_primid', // PrimitiveID, four output elements packed differently by fxc and dxc
  'pso__gs_topology_triangle_adj', // six input vertices, a loop of EmitStream
  'tessellation__fork_phase_hs', // LoadOutputControlPoint, a static const array, CENTER in pc
  'tessellation__fork_phase_ds', // LoadPatchConstant, DomainLocation
  'tessellation__line_tessellation_hs', // isoline, PrimitiveID in the patch-constant function
  'tessellation__line_tessellation_ds', // isoline patch constants read back
  'tessellation__quad_tess_hs_cw', // a constant buffer, SV_InsideTessFactor of a quad
];

/** Words of a record that are not zero (a check that the comparison is not over empty outputs). */
function nonZero(r: StageRecord): number {
  const all = [...Object.values(r.outputs), ...Object.values(r.patchConstants ?? {})].flat();
  return all.filter((w) => w !== 0).length;
}

function liftChecked(bytes: Uint8Array): Program {
  const p = lift(bytes);
  assert.deepEqual(validateModule(p.module), []);
  // stage functions print as plain WGSL functions, under the lift's header
  assert.match(emitWgsl(p), new RegExp(`^// lifted by iridia from ${p.provenance.bytecode} ${p.provenance.target} `));
  return p;
}

/** Lifts both builds and compares their stage properties and seeded outputs; returns words compared. */
function compareTwin(dxbc: Uint8Array, dxil: Uint8Array, name: string): number {
  const a = liftChecked(dxbc);
  const b = liftChecked(dxil);
  assert.equal(a.provenance.bytecode, 'DXBC');
  assert.equal(b.provenance.bytecode, 'DXIL');
  assert.equal(b.stage, a.stage, `${name}: stage`);
  const sa = a.stageFunctions!;
  const sb = b.stageFunctions!;
  assert.ok(sb, `${name}: the DXIL build has stage functions`);
  for (const k of [
    'inputControlPoints',
    'outputControlPoints',
    'domain',
    'primitive',
    'maxVertexCount',
    'instanceCount',
  ] as const)
    assert.equal(sb[k], sa[k], `${name}: ${k}`);
  assert.equal(sb.patchConstant.length > 0, a.stage === 'hull', `${name}: patch-constant functions`);
  let words = 0;
  for (const seed of SEEDS) {
    const ra = runStageSeeded(a, seed);
    const rb = runStageSeeded(b, seed);
    assert.deepEqual(rb, ra, `${name}, seed ${seed}: the DXIL build's words differ from the DXBC build's`);
    assert.ok(nonZero(ra) > 0, `${name}, seed ${seed}: every output word is zero`);
    words += [...Object.values(ra.outputs), ...Object.values(ra.patchConstants ?? {})].flat().length;
  }
  return words;
}

for (const name of TWINS) {
  test(
    `DXIL ${name} runs as stage functions and gives its DXBC twin's words`,
    { skip: skipUnlessShared(PAIRS) },
    () => {
      const words = compareTwin(readBytes(pair(`${name}.dxbc`)), readBytes(pair(`${name}.dxil`)), name);
      assert.ok(words > 0);
    },
  );
}

test(
  'DXIL hull: the patch-constant function is the one patch-constant phase, its properties from the HS state',
  { skip: skipUnlessShared(PAIRS) },
  () => {
    const p = lift(readBytes(pair('tessellation__fork_phase_hs.dxil')));
    const sf = p.stageFunctions!;
    assert.equal(p.stage, 'hull');
    assert.equal(sf.patchConstant.length, 1);
    assert.deepEqual(sf.phaseInstances, [1]);
    assert.equal(sf.domain, 'quad');
    assert.equal(sf.inputControlPoints, 1);
    assert.equal(sf.outputControlPoints, 4);
    const fns = p.module.functions;
    assert.deepEqual(
      fns[sf.main]!.args.map((a) => a.name),
      ['vicp', 'control_point_id', 'primitive_id'],
    );
    assert.deepEqual(
      fns[sf.patchConstant[0]!]!.args.map((a) => a.name),
      ['vicp', 'vocp', 'instance_id', 'primitive_id'],
    );
    // SV_TessFactor is four rows in column 3 of registers 0-3 in dxc's packing (fxc: four registers' x)
    const tf = p.interface.patchConstants.filter((v) => v.semantic === 'SV_TessFactor');
    assert.deepEqual(
      tf.map((v) => [v.register, v.mask, v.systemValue]),
      [
        [0, 8, 11],
        [1, 8, 11],
        [2, 8, 11],
        [3, 8, 11],
      ],
    );
  },
);

test(
  'DXIL geometry: CutStream ends each strip (multiview_gs: six layers of the triangle)',
  { skip: skipUnlessShared(SINGLES) },
  () => {
    // for (layer < 6) { for (v < 3) { o.color = in[v].color; o.pos = mul(...); o.layer = layer; Emit } Cut }
    const p = liftChecked(readBytes(single('multiview__multiview_gs.dxil')));
    assert.equal(p.stageFunctions!.primitive, 'triangle->triangle_strip');
    const color = p.interface.inputs.find((v) => v.semantic === 'COLOR')!;
    const inputs = new Uint32Array(3 * FILE_WORDS);
    for (let v = 0; v < 3; v++)
      for (let k = 0; k < 4; k++) inputs[v * FILE_WORDS + color.register * 4 + k] = 100 * v + k;
    const { vertices } = runGeometry(p, {
      primitives: 1,
      inputs,
      buffers: { '0:0': new Uint32Array(25 * 4) },
    });
    assert.equal(vertices.length, 18);
    const outColor = p.interface.outputs.find((v) => v.semantic === 'COLOR')!;
    const layer = p.interface.outputs.find((v) => v.semantic === 'SV_RenderTargetArrayIndex')!;
    vertices.forEach((x, i) => {
      assert.equal(x.strip, Math.floor(i / 3));
      const reg = x.registers.subarray(outColor.register * 4, outColor.register * 4 + 4);
      assert.deepEqual(
        [...reg],
        [0, 1, 2, 3].map((k) => 100 * (i % 3) + k),
      );
      assert.equal(x.registers[layer.register * 4 + Math.log2(layer.mask & -layer.mask)], Math.floor(i / 3));
    });
  },
);

test(
  `every hull, domain and geometry twin of ../shared/${PAIRS} gives the same words from DXIL as from DXBC`,
  { skip: skipUnlessShared(PAIRS) },
  () => {
    const dir = sharedPath(PAIRS)!;
    const names = readdirSync(dir)
      .filter((f) => /^(pso__(gs|hs|ds)_|tessellation__.*_(hs|ds)(_|\.))/.test(f) && f.endsWith('.dxil'))
      .map((f) => f.slice(0, -'.dxil'.length));
    const failures: string[] = [];
    let words = 0;
    for (const n of names) {
      try {
        words += compareTwin(readBytes(join(dir, `${n}.dxbc`)), readBytes(join(dir, `${n}.dxil`)), n);
      } catch (e) {
        failures.push(`${n}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    }
    console.log(
      `dxil stages: ${names.length - failures.length} of ${names.length} hull/domain/geometry twins agree (${words} words over seeds ${SEEDS.join(', ')})`,
    );
    assert.equal(names.length, 26);
    assert.deepEqual(failures, []);
  },
);
