// Malformed programs, made from a committed fixture: the lifter answers with a typed error (the
// decoder's E3xx, or E602 for what only the lifter sees: a register used but not declared, a
// declaration past Direct3D 11's limits), never another exception, never a hang, never an
// allocation its declarations ask for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { lift } from '../../src/lift/lift.js';
import { parseContainer } from '../../src/container/container.js';
import { decodeProgram } from '../../src/sm4/decode.js';
import { IridiaError } from '../../src/errors.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';

const original = readBytes(join(FIXTURES, 'lift/ps_uint_ops/main-ps_5_0/shader.dxbc'));
const shex = parseContainer(original).parts.find((p) => p.kind === 'SHEX')!;
const payload = shex.offset + 8;
const program = decodeProgram(shex.data);

/** A copy of the fixture with the word at `word` of the program (from its version token) replaced. */
function withWord(word: number, value: number): Uint8Array {
  const b = original.slice();
  new DataView(b.buffer).setUint32(payload + word * 4, value >>> 0, true);
  return b;
}

function instruction(name: number) {
  const i = program.instructions.find((x) => x.opcode === name);
  assert.ok(i, `the fixture has opcode ${name}`);
  return i;
}

function throwsCode(bytes: Uint8Array, code: string, reason?: RegExp): void {
  assert.throws(
    () => lift(bytes),
    (e: unknown) => {
      assert.ok(e instanceof IridiaError, `an IridiaError, not ${String(e)}`);
      assert.equal(e.code, code, e.message);
      if (reason) assert.match(e.message, reason);
      return true;
    },
  );
}

test('dcl_temps past Direct3D 11 limit is refused before anything is allocated', () => {
  const temps = instruction(0x68);
  throwsCode(
    withWord(temps.word + 1, 0x7fffffff),
    'E602_LIFT_INVALID',
    /dcl_temps 2147483647 \(Direct3D allows 4096\)/,
  );
});

test('a temporary used but not declared is E602', () => {
  const temps = instruction(0x68);
  throwsCode(withWord(temps.word + 1, 0), 'E602_LIFT_INVALID', /r0 is used but only 0 temporaries are declared/);
});

test('a constant buffer past 4096 rows is E602', () => {
  const cb = instruction(0x59);
  // The operand's second index (rows) follows the operand token and the register index.
  throwsCode(withWord(cb.word + 3, 5000), 'E602_LIFT_INVALID', /constant buffer of 5000 rows/);
});

test('an unknown opcode and a length past the program are the decoder errors', () => {
  const first = program.instructions[program.instructions.length - 2]!;
  throwsCode(withWord(first.word, (first.token & ~0x7ff) | 0x7ff), 'E303_UNKNOWN_OPCODE');
  throwsCode(withWord(1, program.lengthWords + 100), 'E301_TOKENS_TRUNCATED');
});

const CORRUPTED = [
  'ps_uint_ops/main-ps_5_0',
  'sm51_resource_arrays/main-ps_5_1-unbounded',
  'gs_point_out/main-gs_5_0',
  'ds_isoline_point/main-hs_5_0',
  'ds_isoline_point/dsmain-ds_5_0',
  'cs_prefix_sum/main-cs_5_0-zi-od',
];

test('seeded corruption of each kind of program: only typed errors, and what lifts validates', () => {
  for (const name of CORRUPTED) corrupt(name);
});

function corrupt(name: string): void {
  const original = readBytes(join(FIXTURES, 'lift', name, 'shader.dxbc'));
  const shex = parseContainer(original).parts.find((p) => p.kind === 'SHEX')!;
  const payload = shex.offset + 8;
  let seed = 0x1234567;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  const words = shex.data.byteLength >>> 2;
  let refused = 0;
  for (let k = 0; k < 600; k++) {
    const b = original.slice();
    const dv = new DataView(b.buffer);
    for (let n = 1 + (rand() % 3); n > 0; n--) {
      const at = payload + 4 * (2 + (rand() % (words - 2)));
      dv.setUint32(at, rand() % 4 === 0 ? dv.getUint32(at, true) ^ (1 << (rand() % 32)) : rand(), true);
    }
    try {
      const p = lift(b);
      assert.deepEqual(validateModule(p.module), [], `${name} case ${k}`);
      emitWgsl(p);
    } catch (e) {
      assert.ok(e instanceof IridiaError, `${name} case ${k}: ${e instanceof Error ? e.stack : String(e)}`);
      refused++;
    }
  }
  assert.ok(refused > 0);
}

// Subroutines, from ps_call_return (a [call] switch: call label0..2, then the labels' bodies).
const callsOriginal = readBytes(join(FIXTURES, 'lift/ps_call_return/main-ps_5_0/shader.dxbc'));
const callsShex = parseContainer(callsOriginal).parts.find((p) => p.kind === 'SHEX')!;
const callsProgram = decodeProgram(callsShex.data);

/** ps_call_return with the label index of the `nth` instruction of `opcode` replaced. */
function withLabelIndex(opcode: number, nth: number, value: number): Uint8Array {
  const i = callsProgram.instructions.filter((x) => x.opcode === opcode)[nth];
  assert.ok(i, `the fixture has ${nth + 1} instructions of opcode ${opcode}`);
  const b = callsOriginal.slice();
  // opcode token, operand token, then the label's index
  new DataView(b.buffer).setUint32(callsShex.offset + 8 + (i.word + 2) * 4, value, true);
  return b;
}

test('a call of a label the program does not define is E602', () => {
  throwsCode(withLabelIndex(0x04, 0, 9), 'E602_LIFT_INVALID', /call of label l9, which the program does not define/);
});

test('a label defined twice is E602', () => {
  throwsCode(withLabelIndex(0x2c, 1, 0), 'E602_LIFT_INVALID', /label l0 is defined twice/);
});
