// Readable WGSL's constant-buffer structs (src/decompile/wgsl-structs.ts) on hand-made RDEF layouts:
// padding HLSL packing leaves, placements WGSL cannot make, and the text of register reads.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constantBufferViews } from '../../src/decompile/wgsl-structs.js';
import type { Expr, Function } from '../../src/ir/ir.js';
import type { Program } from '../../src/ir/program.js';
import type { Rdef, RdefType, RdefVariable } from '../../src/parts/rdef.js';

const type = (cls: number, t: number, rows: number, columns: number, elements = 0): RdefType => ({
  offset: 0,
  class: cls,
  type: t,
  rows,
  columns,
  elements,
  members: [],
  name: undefined,
  subType: undefined,
  baseClass: undefined,
  interfaces: [],
});
const FLOAT = (n: number): RdefType => (n === 1 ? type(0, 3, 1, 1) : type(1, 3, 1, n));
const UINT = type(0, 19, 1, 1);
const variable = (name: string, startOffset: number, t: RdefType): RdefVariable => ({
  name,
  startOffset,
  size: 0,
  flags: 2,
  type: t,
  defaultValue: undefined,
  startTexture: 0,
  textureSize: 0,
  startSampler: 0,
  samplerSize: 0,
});

/** A program whose global 0 is constant buffer `Params` of `rows` registers, with these variables. */
function views(variables: RdefVariable[], rows = 8) {
  const rdef = {
    constantBuffers: [{ name: 'Params', variables, size: rows * 16, flags: 0, type: 0 }],
  } as unknown as Rdef;
  const p = {
    interface: {
      resources: [{ kind: { kind: 'constantBuffer' }, count: 1, reflectedName: 'Params', global: 0 }],
    },
    module: {
      types: [
        { kind: 'scalar', scalar: 'u32' },
        { kind: 'vector', size: 4, scalar: 'u32' },
        { kind: 'array', base: 1, length: rows },
      ],
      globals: [{ name: 'Params', space: 'uniform', type: 2 }],
    },
  } as unknown as Program;
  return constantBufferViews(p, rdef);
}

/** The text `read` gives for swizzle `pattern` of register `row` bitcast to `to` (or neither). */
function read(
  variables: RdefVariable[],
  row: number,
  pattern?: number[],
  to?: 'f32' | 'i32' | 'u32',
): string | undefined {
  const exprs: Expr[] = [
    { op: 'global', global: 0 },
    { op: 'member', base: 0, index: row },
    { op: 'load', pointer: 1 },
  ];
  let top = 2;
  if (to) top = exprs.push({ op: 'bitcast', to, value: top }) - 1;
  if (pattern) top = exprs.push({ op: 'swizzle', vector: top, pattern }) - 1;
  const f = { exprs } as unknown as Function;
  return views(variables).get(0)!.read(f, top, 'params');
}

test('a gap HLSL packing leaves is explicit padding; names and members', () => {
  // float a : packoffset(c0.x); float4 b : packoffset(c2); uint n : packoffset(c3.y)
  const v = [variable('a', 0, FLOAT(1)), variable('b', 32, FLOAT(4)), variable('n', 52, UINT)];
  const view = views(v).get(0)!;
  assert.equal(view.typeName, 'Params');
  assert.equal(view.varName, 'params');
  assert.deepEqual(view.members, [
    'a: f32',
    '_pad0: u32',
    '_pad1: u32',
    '_pad2: u32',
    '_pad3: vec4<u32>',
    'b: vec4<f32>',
    '_pad4: u32',
    'n: u32',
  ]);
  assert.equal(read(v, 2, undefined, 'f32'), 'params.b');
  assert.equal(read(v, 2, [1, 2], 'f32'), 'params.b.yz');
  assert.equal(read(v, 0, [0], 'f32'), 'params.a');
  assert.equal(read(v, 0, [0]), 'bitcast<u32>(params.a)');
  assert.equal(read(v, 3, [1]), 'params.n');
  // a register across members (and padding, which is a member too)
  assert.equal(read(v, 0, [0, 1], 'f32'), 'vec2<f32>(params.a, bitcast<f32>(params._pad0))');
  assert.equal(read(v, 2, undefined), 'bitcast<vec4<u32>>(params.b)');
  // words no member holds: past the last variable
  assert.equal(read(v, 3, [2]), undefined);
});

test('WGSL alignment: natural gaps stay implicit, a misplaced vector keeps the register array', () => {
  // float x; float4 y (HLSL c1, WGSL's next 16-byte boundary): no padding, words 1-3 held by none
  const natural = [variable('x', 0, FLOAT(1)), variable('y', 16, FLOAT(4))];
  assert.deepEqual(views(natural).get(0)!.members, ['x: f32', 'y: vec4<f32>']);
  assert.equal(read(natural, 0, [1]), undefined);
  // float x; float2 y at byte 4: WGSL aligns a vec2 to 8
  assert.equal(views([variable('x', 0, FLOAT(1)), variable('y', 4, FLOAT(2))]).size, 0);
  // float3x3 (column_major: 3 registers of 3 lanes, 44 bytes in HLSL, 48 in WGSL) then a float at byte 44
  assert.equal(views([variable('m', 0, type(3, 3, 3, 3)), variable('f', 44, FLOAT(1))]).size, 0);
  // float arr[2]: HLSL's 16-byte stride has no WGSL array of f32
  assert.equal(views([variable('arr', 0, type(0, 3, 1, 1, 2))]).size, 0);
  // bool
  assert.equal(views([variable('b', 0, type(0, 1, 1, 1))]).size, 0);
});

test('matrices: register i is WGSL column i', () => {
  // column_major float4x4 and row_major float3x4 (3 registers of 4 lanes)
  const v = [variable('M', 0, type(3, 3, 4, 4)), variable('R', 64, type(2, 3, 3, 4))];
  assert.deepEqual(views(v).get(0)!.members, ['M: mat4x4<f32>', 'R: mat3x4<f32>']);
  assert.equal(read(v, 1, undefined, 'f32'), 'params.M[1]');
  assert.equal(read(v, 6, [3], 'f32'), 'params.R[2].w');
});
