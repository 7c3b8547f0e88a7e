// Shader libraries (fxc lib_4_0/lib_4_1/lib_5_0, lib_4_0_level_9_x): the committed builds of
// test/fixtures/oracle/own/lib_* are listed byte for byte (fixtures.test.ts compares every flag word);
// here the parts' readers are checked against what the builds hold, and broken LIBH and LFS0 parts
// are refused with typed errors, never a crash or an allocation sized by their counts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { libraryFunctions } from '../../src/disasm/library.js';
import { IridiaError, type ErrorCode } from '../../src/errors.js';
import { NO_REGISTER, readLfs0, readLibh } from '../../src/parts/library.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const EXPORTS = join(FIXTURES, 'oracle/own/lib_exports/lib_5_0/shader.dxbc');
const LEVEL9 = join(FIXTURES, 'oracle/own/lib_level9/lib_4_0_level_9_1/shader.dxbc');

const part = (bytes: Uint8Array, kind: string): Uint8Array =>
  parseContainer(bytes).parts.find((p) => p.kind === kind)!.data;

function throwsCode(f: () => unknown, code: ErrorCode, what: string): void {
  assert.throws(f, (e: unknown) => e instanceof IridiaError && e.code === code, what);
}

test('LIBH names the exported functions in source order, and LFS0 their parameters', () => {
  const bytes = readBytes(EXPORTS);
  const libh = readLibh(part(bytes, 'LIBH'));
  assert.equal(libh.creator, 'Microsoft (R) HLSL Shader Compiler 10.1');
  assert.deepEqual(
    libh.functions.map((f) => [f.name, f.level9]),
    ['ApplyGain', 'Shade', 'SplitColor', 'Accumulate', 'PackUnorm', 'Repeat'].map((n) => [n, 0]),
  );
  const fns = libraryFunctions(parseContainer(bytes));
  assert.equal(fns.length, 6);
  // void SplitColor(float4 c, out float3 rgb, out float alpha)
  const split = readLfs0(fns[2]!.parts.find((p) => p.kind === 'LFS0')!.data);
  assert.deepEqual(
    split.map((p) => [p.name, p.type, p.flags, p.firstInRegister, p.firstOutRegister, p.columns]),
    [
      ['SplitColor', 0, 0, NO_REGISTER, NO_REGISTER, 0],
      ['c', 3, 1, 0, NO_REGISTER, 4],
      ['rgb', 3, 2, NO_REGISTER, 0, 3],
      ['alpha', 3, 2, NO_REGISTER, 1, 1],
    ],
  );
  // level 9: every function has a vertex program (bit 0) and all but TexLookup a pixel one (bit 1)
  assert.deepEqual(
    readLibh(part(readBytes(LEVEL9), 'LIBH')).functions.map((f) => f.level9),
    [3, 3, 3, 3, 2],
  );
});

test('a library listing lists each function as a program of its own', () => {
  const text = disassemble(readBytes(EXPORTS), 0);
  assert.ok(text.startsWith('//\n// Library:  flags 0, 6 functions:\n//   0  ApplyGain\n'));
  assert.equal(text.match(/^lib_5_0$/gm)?.length, 6);
  assert.equal(text.match(/^\/\/ Function parameter signature/gm)?.length, 6);
  assert.ok(
    text.includes('// acc                                        v0    1   xyzw   o0    1   xyzw inout float4\n'),
  );
  // flag 0x40: the library's lines stay, each function's header and footer go
  const bare = disassemble(readBytes(EXPORTS), 0x40);
  assert.ok(!bare.includes('Function parameter') && !bare.includes('Approximately'));
  assert.ok(bare.includes('// Created by:  Microsoft (R) HLSL Shader Compiler 10.1\n//\nlib_5_0\n'));
});

test('broken LIBH and LFS0 parts are typed errors', () => {
  const libh = part(readBytes(EXPORTS), 'LIBH');
  const set = (b: Uint8Array, at: number, v: number): Uint8Array => {
    const c = new Uint8Array(b);
    new DataView(c.buffer).setUint32(at, v, true);
    return c;
  };
  throwsCode(() => readLibh(set(libh, 12, 0x7fffffff)), 'E201_PART_TRUNCATED', 'a function count past the part');
  throwsCode(() => readLibh(set(libh, 4, 0xfffffff0)), 'E201_PART_TRUNCATED', 'a creator outside the part');
  throwsCode(() => readLibh(set(libh, 0x18, libh.byteLength)), 'E201_PART_TRUNCATED', 'a name past the end');
  throwsCode(() => readLibh(libh.subarray(0, 10)), 'E201_PART_TRUNCATED', 'a truncated header');
  const fns = libraryFunctions(parseContainer(readBytes(EXPORTS)));
  const lfs0 = fns[0]!.parts.find((p) => p.kind === 'LFS0')!.data;
  throwsCode(() => readLfs0(set(lfs0, 0, 0x40000000)), 'E201_PART_TRUNCATED', 'a parameter count past the part');
  throwsCode(() => readLfs0(set(lfs0, 8, 0xffff)), 'E201_PART_TRUNCATED', 'a parameter name outside the part');
  throwsCode(() => readLfs0(lfs0.subarray(0, 30)), 'E201_PART_TRUNCATED', 'a truncated table');
});
