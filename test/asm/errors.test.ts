// The assembler's refusals: each an AsmError with its code, the 1-based line and column of what it
// could not read, and that line's text; never a crash. Also the listing forms it reads: the flag
// words' prefixes, debug lines, and literals spelled as the printer spells them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { assemble, assembleProgram, AsmError } from '../../src/asm/index.js';
import { decimalToFloatBits } from '../../src/asm/text.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { decodeContainerProgram } from '../../src/sm4/census.js';
import { parseContainer } from '../../src/container/container.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const BASE = 'ps_5_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\n';

function refusal(body: string, code: string, line: number, column: number, reason: RegExp): void {
  const listing = BASE + body;
  assert.throws(
    () => assembleProgram(listing),
    (e: unknown) => {
      assert.ok(e instanceof AsmError, `an AsmError, not ${String(e)}`);
      assert.equal(e.code, code, e.message);
      assert.equal(e.line, line, e.message);
      assert.equal(e.column, column, e.message);
      assert.equal(e.text, listing.split('\n')[line - 1]);
      assert.match(e.reason, reason);
      assert.ok(e.message.includes(e.text), 'the message shows the line');
      return true;
    },
  );
}

test('an unknown mnemonic', () => {
  refusal('mox r0.xy, v0.xyxx\n', 'E902_ASM_MNEMONIC', 5, 1, /unknown mnemonic "mox"/);
  refusal('  if r0.x\n', 'E902_ASM_MNEMONIC', 5, 3, /if needs _z or _nz/);
  refusal('add_nz r0.x, r0.x, r0.x\n', 'E902_ASM_MNEMONIC', 5, 1, /add takes no _nz/);
});

test('a register that does not exist (in this shader model)', () => {
  refusal('mov r0.x, q0.x\n', 'E903_ASM_REGISTER', 5, 11, /no register q/);
  assert.throws(
    () => assembleProgram('ps_4_0\ndcl_output oDepthGE\nmov oDepthGE, l(0.5)\n'),
    (e: unknown) => e instanceof AsmError && e.code === 'E903_ASM_REGISTER' && e.line === 2 && e.column === 12,
  );
});

test("an operand count that does not fit the opcode's format", () => {
  refusal('add r0.x, v0.x\n', 'E904_ASM_OPERAND_COUNT', 5, 1, /add takes 3 operands, not 2/);
  refusal('mov r0.x, v0.x, v0.y\n', 'E904_ASM_OPERAND_COUNT', 5, 17, /mov takes 2 operands, not 3/);
  refusal('mov l(1), v0.x\n', 'E904_ASM_OPERAND_COUNT', 5, 5, /destination cannot be a literal/);
});

test('a mask on a source, a swizzle on a destination', () => {
  refusal('mov r0.xy, v0.xy\n', 'E905_ASM_MASK', 5, 12, /a source selects one lane or swizzles four, not a mask .xy/);
  refusal('mov r0.yx, v0.xyxx\n', 'E905_ASM_MASK', 5, 5, /\.yx is no write mask/);
});

test('a literal out of range or not a literal', () => {
  refusal('iadd r0.x, r0.x, l(4294967296)\n', 'E906_ASM_LITERAL', 5, 20, /does not fit 32 bits/);
  refusal('mov r0.x, l(1.5e3)\n', 'E906_ASM_LITERAL', 5, 13, /is no literal/);
  refusal('mov r0.xy, l(1, 2)\n', 'E906_ASM_LITERAL', 5, 12, /1 or 4 lanes/);
  refusal('sample_aoffimmi(9,0,0) r0.xyzw, v0.xyxx, t0.xyzw, s0\n', 'E906_ASM_LITERAL', 5, 17, /-8 to 7/);
});

test('syntax: a missing comma, a missing version line, a library of two functions without --like', () => {
  refusal('add r0.x v0.x, v0.y\n', 'E901_ASM_SYNTAX', 5, 10, /"," between operands/);
  assert.throws(
    () => assembleProgram('mov r0.x, l(1)\n'),
    (e: unknown) => e instanceof AsmError && e.code === 'E907_ASM_PROGRAM',
  );
  assert.throws(() => assembleProgram('// nothing\n'), /no version line/);
  // one function is a program (type 0xFFF0); two need the library container (test/asm/library.test.ts)
  assert.equal(assembleProgram('lib_5_0\nret \n').words[0], 0xfff00050);
  assert.throws(() => assemble('lib_5_0\nret \nlib_5_0\nret \n'), /2 functions\) is assembled with --like/);
});

test('every flag word of one program reads back to the same words (prefixes, debug lines, hex)', () => {
  const c = parseContainer(readBytes(join(FIXTURES, 'oracle/own/debug_stages/gsmain-gs_4_0-zi-od/shader.dxbc')));
  const p = decodeContainerProgram(c)!;
  const words = Array.from(p.words.subarray(0, p.lengthWords));
  for (const flags of [0x80, 0x84, 0xa0, 0xa4, 0xc0, 0x90, 0x04, 0x24]) {
    const listing = disassemble(c, flags);
    if (flags === 0x24) assert.match(listing, /#line/, 'the debug lines are there to skip');
    assert.deepEqual(Array.from(assembleProgram(listing).words), words, `flags 0x${flags.toString(16)}`);
  }
});

test('decimals reassemble to their nearest float, once rounded (no double rounding)', () => {
  assert.equal(decimalToFloatBits('3.141593'), 0x40490fdc);
  assert.equal(decimalToFloatBits('-0.000000'), 0x80000000);
  assert.equal(decimalToFloatBits('16777217.000000'), 0x4b800000); // a tie: to even
  assert.equal(decimalToFloatBits('16777217.000001'), 0x4b800001); // past the tie: up
  // 1 + 2^-24 (halfway between 1 and its successor) plus a little: the double rounds to the
  // midpoint, the float must still go up.
  assert.equal(decimalToFloatBits('1.0000000596046447753906250000001'), 0x3f800001);
  assert.equal(decimalToFloatBits('1.0000000596046447753906249999999'), 0x3f800000);
  assert.equal(decimalToFloatBits('1.000000059604644775390625'), 0x3f800000); // the tie itself: to even
});
