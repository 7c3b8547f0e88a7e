// Malformed token streams built from a real fixture (ps_sample_basic ps_4_0, and ps_icb for
// customdata): each is a typed error naming the instruction index and its word offset.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { IridiaError } from '../../src/errors.js';
import { decodeProgram, programPart } from '../../src/sm4/index.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

function programWords(fixture: string): Uint32Array {
  const part = programPart(parseContainer(readBytes(join(FIXTURES, 'oracle/own', fixture, 'shader.dxbc'))))!;
  return new Uint32Array(part.data.slice().buffer);
}

function bytesOf(w: Uint32Array): Uint8Array {
  return new Uint8Array(w.buffer, w.byteOffset, w.byteLength);
}

/** Word offsets of the instructions of an intact program. */
function starts(w: Uint32Array): number[] {
  return decodeProgram(bytesOf(w)).instructions.map((i) => i.word);
}

function expectError(w: Uint32Array, code: string, instruction: number, word: number): void {
  assert.throws(
    () => decodeProgram(bytesOf(w)),
    (e: unknown) => {
      assert.ok(e instanceof IridiaError, String(e));
      assert.equal(e.code, code, e.message);
      assert.equal(e.instruction, instruction, e.message);
      assert.equal(e.word, word, e.message);
      return true;
    },
  );
}

const BASIC = 'ps_sample_basic/main-ps_4_0';
const MUL = 7; // sample(6), mul(7), ret(8)

test('an instruction of length 0', () => {
  const w = programWords(BASIC);
  const at = starts(w)[MUL]!;
  w[at] = w[at]! & ~(0x7f << 24);
  expectError(w, 'E302_INSTRUCTION_LENGTH', MUL, at);
});

test('a length past the end of the program', () => {
  const w = programWords(BASIC);
  const at = starts(w)[MUL]!;
  w[at] = (w[at]! & ~(0x7f << 24)) | (0x7f << 24);
  expectError(w, 'E302_INSTRUCTION_LENGTH', MUL, at);
});

test('operand counts off: mul rewritten as mov (one source) keeps a word-count that leaves an operand over', () => {
  const w = programWords(BASIC);
  const at = starts(w)[MUL]!;
  w[at] = (w[at]! & ~0x7ff) | 0x36;
  expectError(w, 'E304_OPERAND_COUNT', MUL, at);
});

test('operand counts off: an instruction too short for its operands', () => {
  const w = programWords(BASIC);
  const at = starts(w)[MUL]!;
  const len = (w[at]! >>> 24) & 0x7f;
  // ret, shortened mul: give mul's length one word less and move the rest.
  const copy = new Uint32Array(w.length - 1);
  copy.set(w.subarray(0, at + len - 1));
  copy.set(w.subarray(at + len), at + len - 1);
  copy[1] = copy[1]! - 1;
  copy[at] = (w[at]! & ~(0x7f << 24)) | ((len - 1) << 24);
  assert.throws(
    () => decodeProgram(bytesOf(copy)),
    (e: unknown) => e instanceof IridiaError && e.instruction === MUL && e.word === at && /^E30[14]/.test(e.code),
  );
});

test('an unknown opcode', () => {
  const w = programWords(BASIC);
  const at = starts(w)[MUL]!;
  w[at] = (w[at]! & ~0x7ff) | 0x6b; // D3D10_SB_OPCODE_RESERVED0
  expectError(w, 'E303_UNKNOWN_OPCODE', MUL, at);
});

test('an unknown register type', () => {
  const w = programWords(BASIC);
  const at = starts(w)[MUL]!;
  w[at + 1] = (w[at + 1]! & ~(0xff << 12)) | (0x7f << 12);
  expectError(w, 'E305_OPERAND_TYPE', MUL, at);
});

test('an index representation out of range', () => {
  const w = programWords(BASIC);
  const at = starts(w)[MUL]!;
  w[at + 1] = (w[at + 1]! & ~(7 << 22)) | (6 << 22);
  expectError(w, 'E306_INDEX_REPRESENTATION', MUL, at);
});

test('customdata longer than the program', () => {
  const w = programWords('ps_icb/main-ps_5_0');
  const p = decodeProgram(bytesOf(w));
  const icb = p.instructions.find((i) => i.customData !== undefined)!;
  assert.ok(icb, 'the fixture has an immediate constant buffer');
  w[icb.word + 1] = w.length * 2;
  expectError(w, 'E307_CUSTOMDATA', icb.index, icb.word);
});

test('a version token naming no program type, and a length word past the part', () => {
  const w = programWords(BASIC);
  w[0] = (w[0]! & 0xffff) | (9 << 16);
  assert.throws(
    () => decodeProgram(bytesOf(w)),
    (e: unknown) => e instanceof IridiaError && e.code === 'E309_BAD_VERSION',
  );
  const v = programWords(BASIC);
  v[1] = v.length + 1;
  assert.throws(
    () => decodeProgram(bytesOf(v)),
    (e: unknown) => e instanceof IridiaError && e.code === 'E301_TOKENS_TRUNCATED',
  );
});

test('every truncation of a real program is a typed error or a shorter program, never a crash', () => {
  const w = programWords(BASIC);
  for (let n = 0; n < w.length; n++) {
    const cut = w.slice(0, n);
    cut[1] = Math.min(w[1]!, n);
    try {
      decodeProgram(bytesOf(cut));
    } catch (e) {
      assert.ok(e instanceof IridiaError, `${n} words: ${String(e)}`);
    }
  }
});
