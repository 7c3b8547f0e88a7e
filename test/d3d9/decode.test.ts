// The decoder on Shader Model 1 streams, which have no length field (lengths come from the opcode table) and
// which the oracle does not cover (d3dcompiler_47 no longer compiles to them): streams assembled here from the
// token layout of d3d9types.h, checked field by field. Also SM2+ relative addressing tokens and predication.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeD3D9, type D3D9Instruction } from '../../src/d3d9/decode.js';
import { disassembleD3D9 } from '../../src/d3d9/disasm.js';

const END = 0x0000ffff;
const words = (...w: number[]): Uint8Array => new Uint8Array(Uint32Array.from(w.map((x) => x >>> 0)).buffer);
/** A parameter token: register type split over bits 28-30 and 11-12, number, and bits 13-27. */
const param = (type: number, num: number, rest: number): number =>
  (0x80000000 | ((type & 7) << 28) | ((type & 0x18) << 8) | rest | num) >>> 0;
const SWZ = 0xe4 << 16;
const MASK = 0xf << 16;

function instructions(bytes: Uint8Array): D3D9Instruction[] {
  return decodeD3D9(bytes).records.filter((r): r is D3D9Instruction => r.kind === 'instruction');
}

test('vs_1_1: dcl, m4x4 and vs_1_1 relative addressing without an address token', () => {
  const bytes = words(
    0xfffe0101,
    0x1f, // dcl
    0x80000000, // usage position 0
    param(1, 0, MASK), // v0
    20, // m4x4
    param(4, 0, MASK), // oPos
    param(1, 0, SWZ), // v0
    param(2, 0, SWZ), // c0
    1, // mov
    param(5, 0, MASK), // oD0
    param(2, 4, SWZ | 0x2000), // c4[a0.x]
    END,
  );
  const ins = instructions(bytes);
  assert.deepEqual(
    ins.map((i) => [i.info.name, i.offset, i.words]),
    [
      ['dcl', 4, 3],
      ['m4x4', 16, 4],
      ['mov', 32, 3],
    ],
  );
  assert.deepEqual(ins[2]!.srcs[0]!.rel, { type: 3, num: 0, component: 0 });
  assert.equal(
    disassembleD3D9(bytes, 0),
    '    vs_1_1\n    dcl_position v0\n    m4x4 oPos, v0, c0\n    mov oD0, c4[a0.x]\n\n// approximately 5 instruction slots used\n',
  );
});

test('ps_1_4: texcrd and texld read one source; phase; co-issue; def', () => {
  const bytes = words(
    0xffff0104,
    81, // def c0, 1, 0, 0, 1
    param(2, 0, MASK),
    0x3f800000,
    0,
    0,
    0x3f800000,
    64, // texcrd r0.xyz, t0
    param(0, 0, 0x7 << 16),
    param(3, 0, SWZ),
    66, // texld r1, t1
    param(0, 1, MASK),
    param(3, 1, SWZ),
    0xfffd, // phase
    5 | 0x40000000, // +mul r0.w, r1, c0
    param(0, 0, 0x8 << 16),
    param(0, 1, SWZ),
    param(2, 0, SWZ),
    END,
  );
  const ins = instructions(bytes);
  assert.deepEqual(
    ins.map((i) => [i.info.name, i.words, i.srcs.length, i.coissue]),
    [
      ['def', 6, 0, false],
      ['texcoord', 3, 1, false],
      ['tex', 3, 1, false],
      ['phase', 1, 0, false],
      ['mul', 4, 2, true],
    ],
  );
  assert.match(
    disassembleD3D9(bytes, 0),
    /\n {4}texcrd r0\.xyz, t0\n {4}texld r1, t1\n {4}phase\n {4}\+mul r0\.w, r1, c0\n/,
  );
});

test('ps_1_1: tex has no source', () => {
  const bytes = words(0xffff0101, 66, param(3, 0, MASK), 1, param(0, 0, MASK), param(3, 0, SWZ), END);
  assert.deepEqual(
    instructions(bytes).map((i) => [i.info.name, i.words, i.srcs.length]),
    [
      ['tex', 2, 0],
      ['mov', 3, 1],
    ],
  );
});

test('vs_3_0: an address token after a relative source; a predicated instruction', () => {
  const bytes = words(
    0xfffe0300,
    0x03000001, // mov r0, c2[a0.y] (3 tokens follow)
    param(0, 0, MASK),
    param(2, 2, SWZ | 0x2000),
    param(3, 0, 0x55 << 16), // a0.y
    0x14000002, // (p0) add r1, r0, r0 (4 tokens: destination, predicate, two sources)
    param(0, 1, MASK),
    param(19, 0, SWZ),
    param(0, 0, SWZ),
    param(0, 0, SWZ),
    END,
  );
  const [mov, add] = instructions(bytes);
  assert.deepEqual(mov!.srcs[0]!.rel, { type: 3, num: 0, component: 1 });
  assert.equal(add!.predicated, true);
  assert.equal(add!.srcs.length, 2);
  assert.match(disassembleD3D9(bytes, 0), /\n {4}mov r0, c2\[a0\.y\]\n {4}\(p0\) add r1, r0, r0\n/);
});

test('software versions (minor 0xFF) decode with their model and print as _sw', () => {
  const bytes = words(0xfffe03ff, 0x02000001, param(0, 0, MASK), param(1, 0, SWZ), END);
  assert.equal(decodeD3D9(bytes).version.minor, 0xff);
  assert.match(disassembleD3D9(bytes, 0), /^ {4}vs_3_sw\n {4}mov r0, v0\n/);
});
