// LLVM 3.7's literal spelling (format.ts) on the edges: -0, denormals, infinities, NaN payloads,
// exponents of three digits, half; and dxc's DataLayout on DXIL's layout string.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFP, llvmName, metadataName, printfE } from '../../src/dxil/format.js';
import { DataLayout } from '../../src/dxil/datalayout.js';
import { Type } from '../../src/dxil/ir.js';

test('format: floats print as %e when that reparses exactly, else as the double in hex', () => {
  assert.equal(formatFP('float', 0x3f800000n), '1.000000e+00');
  assert.equal(formatFP('float', 0x80000000n), '-0.000000e+00');
  assert.equal(formatFP('float', 0x3dcccccdn), '0x3FB99999A0000000'); // 0.1f
  assert.equal(formatFP('float', 0x3f560000n), '8.359375e-01');
  assert.equal(formatFP('float', 0x7f800000n), '0x7FF0000000000000');
  assert.equal(formatFP('float', 0xff800000n), '0xFFF0000000000000');
  assert.equal(formatFP('float', 0x7fc00000n), '0x7FF8000000000000');
  assert.equal(formatFP('float', 0x7fa00001n), '0x7FF4000020000000'); // a NaN payload moves up 29 bits
  assert.equal(formatFP('float', 0x00000001n), '0x36A0000000000000'); // the smallest denormal
  assert.equal(formatFP('double', 0x3ff0000000000000n), '1.000000e+00');
  assert.equal(formatFP('double', 0x7e37e43c8800759cn), '1.000000e+300');
  assert.equal(formatFP('double', 0x0000000000000001n), '4.940656e-324'); // reparses to the same denormal
  assert.equal(formatFP('half', 0x3c00n), '0xH3C00');
  assert.equal(formatFP('half', 0x0001n), '0xH0001');
  assert.equal(printfE(1e-5), '1.000000e-05');
  assert.equal(printfE(123456789), '1.234568e+08');
});

test('format: names are quoted and escaped as PrintLLVMName does', () => {
  assert.equal(llvmName('%', 'dx.types.Handle'), '%dx.types.Handle');
  assert.equal(llvmName('%', 'class.Texture2D<vector<float, 4> >'), '%"class.Texture2D<vector<float, 4> >"');
  assert.equal(llvmName('@', '\x01?main@@YAXXZ'), '@"\\01?main@@YAXXZ"');
  assert.equal(llvmName('%', '1abc'), '%"1abc"');
  assert.equal(metadataName('dx.entryPoints'), 'dx.entryPoints');
  assert.equal(metadataName('a b'), 'a\\20b');
});

test('datalayout: DXIL structs as dxc lays them out', () => {
  const dl = new DataLayout('e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64');
  const f32 = new Type('float');
  const vec = (n: number, e: Type): Type => Object.assign(new Type('vector'), { count: n, elt: e });
  const st = Object.assign(new Type('struct'), { elts: [vec(3, f32), vec(3, f32), vec(2, f32)], name: 'Vertex' });
  assert.deepEqual(dl.struct(st).offsets, [0, 12, 24]);
  assert.equal(dl.allocSize(st), 32);
  const i16 = Object.assign(new Type('int'), { width: 16 });
  const f64 = new Type('double');
  const s2 = Object.assign(new Type('struct'), { elts: [i16, f64, new Type('half')], name: 'S' });
  assert.deepEqual(dl.struct(s2).offsets, [0, 8, 16]); // i16:32 aligns a 16-bit integer to 4 bytes
  assert.equal(dl.allocSize(s2), 24);
});
