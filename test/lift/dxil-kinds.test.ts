// DXIL resource operations through the kinds of resource dxc's validator lets them read
// (src/lift/dxil/kinds.ts): a real dxc program (D3D12_Blit's BlitFrom2DArray: a SampleLevel of a
// Texture2DArray) lifts; the same program with its SRV's ResourceKind in dx.resources changed, or an
// offset the kind does not take, is E602 naming the operation. Before the rule, a sample of a
// multisampled texture was refused as a lifter limit (E601) and a 3D or cube kind lifted with the
// offsets ignored.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Constant, type Instruction, type Metadata, type Module } from '../../src/dxil/ir.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { IridiaError } from '../../src/errors.js';

const BLIT = join(FIXTURES, 'dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil');

/** The Blit module with its SRV's ResourceKind set to `kind` (DXIL::ResourceKind) and `edit` applied
 * to its SampleLevel call. */
function blit(kind: number | undefined, edit?: (sample: Instruction, m: Module) => void): Module {
  const m = readPartModule(parseContainer(readBytes(BLIT)), 'DXIL')!;
  const md = (id: number): Metadata | undefined => (id === 0 ? undefined : m.metadata[id - 1]);
  const nodeOps = (x: Metadata | undefined): number[] => (x?.k === 'node' ? [...x.ops] : []);
  const lists = m.named.find((n) => n.name === 'dx.resources')!;
  const srvs = md(nodeOps(m.metadata[lists.ops[0]!])[0]!); // the SRV list
  const record = md(nodeOps(srvs)[0]!)!;
  if (kind !== undefined && record.k === 'node') {
    const field = md(record.ops[6]!)!;
    assert.equal(field.k, 'value');
    const c = new Constant((field as { type: Constant['type'] }).type, 'int');
    c.bits = BigInt(kind);
    m.metadata.push({ k: 'value', type: c.type, id: m.metadata.length, v: c } as Metadata);
    (record.ops as number[])[6] = m.metadata.length; // ids are 1-based in a node's operands
  }
  const main = m.functions.find((f) => f.name === 'BlitFrom2DArray')!;
  const sample = main.blocks[0]!.insts.find((i) => i.callee?.name === 'dx.op.sampleLevel.f32')!;
  edit?.(sample, m);
  return m;
}

function rejects(m: Module, reason: RegExp): void {
  assert.throws(
    () => liftModule(m, 'DXIL', 0),
    (e: unknown) => {
      assert.ok(e instanceof IridiaError, `not an IridiaError: ${String(e)}`);
      assert.equal(e.code, 'E602_LIFT_INVALID', e.message);
      assert.match(e.reason, reason);
      return true;
    },
  );
}

const int = (m: Module, v: number): Constant => {
  const t = m.types.find((x) => x.kind === 'int' && x.width === 32)!;
  const c = new Constant(t, 'int');
  c.bits = BigInt(v);
  return c;
};

const undef = (m: Module): Constant =>
  new Constant(
    m.types.find((x) => x.kind === 'int' && x.width === 32)!,
    'undef',
  );

/** The SampleLevel's offsets (operands 7..9): the first `n` of them 1, the rest undef. */
const offsets = (n: number) => (s: Instruction, m: Module) => {
  s.ops = [...s.ops];
  for (let k = 0; k < 3; k++) s.ops[7 + k] = k < n ? int(m, 1) : undef(m);
};

test('the Blit program lifts as dxc made it, through a 2D kind, and through a cube without offsets', () => {
  for (const [kind, edit] of [
    [undefined, undefined],
    [2, undefined],
    [5, offsets(0)],
    [9, offsets(0)],
  ] as const) {
    const p = liftModule(blit(kind, edit), 'DXIL', 0);
    assert.deepEqual(validateModule(p.module), [], `kind ${kind}`);
  }
});

test('SampleLevel of a multisampled texture or a buffer is E602', () => {
  for (const [kind, shape] of [
    [3, '2dms'],
    [10, 'buffer'],
    [11, 'raw'],
  ] as const)
    rejects(blit(kind), new RegExp(`SampleLevel \\(dx\\.op 62\\) of a ${shape} resource`));
});

test("a texel offset past the kind's count is E602 (InstrResourceOffsetTooMany)", () => {
  // a 2D array takes two offsets, a cube none past the first (DxilResource::GetNumOffsets)
  assert.deepEqual(validateModule(liftModule(blit(undefined, offsets(2)), 'DXIL', 0).module), []);
  rejects(blit(undefined, offsets(3)), /SampleLevel \(dx\.op 62\) with offset 2 on a 2darray texture/);
  rejects(blit(5, offsets(2)), /SampleLevel \(dx\.op 62\) with offset 1 on a cube texture/);
  rejects(blit(9, offsets(3)), /SampleLevel \(dx\.op 62\) with offset 1 on a cubearray texture/);
});

test('a comparison sample or a gather of a 3D texture, and a load of a cube, are E602', () => {
  // the SampleLevel turned SampleCmpLevel (224: srv, sampler, coords, offsets, compare, lod), a
  // TextureGather (73: srv, sampler, coords, 2 offsets, channel) and a TextureLoad (66) of the same SRV
  const as =
    (opcode: number, name: string, ops: (s: Instruction, m: Module) => unknown[]) => (s: Instruction, m: Module) => {
      const fn = Object.assign(Object.create(Object.getPrototypeOf(s.callee)), s.callee, { name });
      s.callee = fn;
      s.ops = ops(s, m) as Instruction['ops'];
      s.ops[0] = int(m, opcode);
    };
  const cmpLevel = as(224, 'dx.op.sampleCmpLevel.f32', (s) => [...s.ops.slice(0, 10), s.ops[10], s.ops[10]]);
  rejects(blit(4, cmpLevel), /SampleCmpLevel \(dx\.op 224\) of a 3d resource/);
  const gather = as(73, 'dx.op.textureGather.f32', (s, m) => [...s.ops.slice(0, 9), int(m, 0)]);
  rejects(blit(4, gather), /TextureGather \(dx\.op 73\) of a 3d resource/);
  rejects(blit(1, gather), /TextureGather \(dx\.op 73\) of a 1d resource/);
  const load = as(66, 'dx.op.textureLoad.f32', (s, m) => [
    s.ops[0],
    s.ops[1],
    ...[0, 0, 0, 0].map((v) => int(m, v)),
    undef(m),
    undef(m),
    undef(m),
  ]);
  assert.deepEqual(validateModule(liftModule(blit(undefined, load), 'DXIL', 0).module), []);
  rejects(blit(5, load), /TextureLoad \(dx\.op 66\) of a cube resource/);
});
