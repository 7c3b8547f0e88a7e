// The token-stream declarations the reflection reads agree with the STAT words D3DReflect reports
// for the same properties: the geometry declarations (input primitive, output topology, vertex
// count, instances), the tessellation declarations (domain, partitioning, output primitive, control
// points) and, for hull programs, STAT's input primitive as the patch of N input control points
// (D3D_PRIMITIVE_N_CONTROL_POINT_PATCH, 7 + N; domain programs leave it 0). Also dcl_interface's slots against IFCE's count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { hasContainerMagic, parseContainer } from '../../src/container/container.js';
import { reflect, type Reflection } from '../../src/reflect/reflection.js';
import { FIXTURES, SHARED, readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';

function disagreements(r: Reflection): string[] {
  const d = r.declarations;
  const s = r.desc;
  const out: string[] = [];
  const same = (what: string, declared: number | undefined, stat: number): void => {
    if (declared === undefined && stat === 0) return;
    if ((declared ?? 0) !== stat) out.push(`${what}: declared ${declared}, STAT ${stat}`);
  };
  if (r.programType === 2) {
    same('input primitive', d.gsInputPrimitive, s.InputPrimitive);
    same('output topology', d.gsOutputTopology, s.GSOutputTopology);
    same('max output vertices', d.gsMaxOutputVertexCount, s.GSMaxOutputVertexCount);
    same('instances', d.gsInstanceCount, s.cGSInstanceCount);
  }
  if (r.programType === 3 || r.programType === 4) {
    same('domain', d.tessellatorDomain, s.TessellatorDomain);
    same('partitioning', d.tessellatorPartitioning, s.HSPartitioning);
    same('output primitive', d.tessellatorOutputPrimitive, s.HSOutputPrimitive);
    same('control points', r.programType === 3 ? d.outputControlPoints : d.inputControlPoints, s.cControlPoints);
    if (r.programType === 3 && d.inputControlPoints !== undefined)
      same('patch primitive', 7 + d.inputControlPoints, s.InputPrimitive);
  }
  if (r.ifce) same('interface slots', d.interfaceSlots, r.ifce.interfaceSlotCount);
  return out;
}

function run(files: string[]): { checked: number; bad: string[] } {
  let checked = 0;
  const bad: string[] = [];
  for (const f of files) {
    const bytes = readBytes(f);
    if (!hasContainerMagic(bytes)) continue; // fx_5_0 effect binaries (0xfeff2001) named shader.dxbc
    const c = parseContainer(bytes);
    if (!c.parts.some((p) => p.kind === 'SHEX' || p.kind === 'SHDR')) continue; // effects, root signatures
    const r = reflect(c);
    if (!r.stat || ![2, 3, 4].includes(r.programType)) continue;
    checked++;
    for (const why of disagreements(r)) bad.push(`${f}: ${why}`);
  }
  return { checked, bad };
}

test('declarations agree with STAT in the committed fixtures', () => {
  const { checked, bad } = run(walk(FIXTURES).filter((f) => f.endsWith('/shader.dxbc')));
  assert.ok(checked >= 20, `checked ${checked}`);
  assert.deepEqual(bad, []);
});

test('declarations agree with STAT in every oracle and corpus container', { skip: skipUnlessShared('oracle') }, () => {
  const corpus = sharedPath('corpus/dxbc');
  const { checked, bad } = run([
    ...walk(join(SHARED, 'oracle')).filter((f) => f.endsWith('/shader.dxbc')),
    ...(corpus ? walk(corpus).filter((f) => f.endsWith('.dxbc')) : []),
  ]);
  console.log(`declarations: ${checked} geometry, hull and domain programs checked against STAT`);
  assert.ok(checked >= 350, `checked ${checked}`);
  assert.deepEqual(bad, []);
});
