// The annotation hook's contract (src/disasm/annotations.ts): `before` and `after` lines verbatim
// around the instruction at a byte offset, `initial` lines before the first instruction that is
// not a declaration, `suffix` on the instruction's own line after its prefixes and indentation,
// and nothing of it under flag 0x10.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import type { ListingAnnotations } from '../../src/disasm/annotations.js';
import { decodeContainerProgram } from '../../src/sm4/index.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const c = parseContainer(readBytes(join(FIXTURES, 'oracle/own/ps_sample_basic/main-ps_4_1/shader.dxbc')));
const program = decodeContainerProgram(c)!;
const sample = program.instructions.find((i) => i.opcode === 0x45)!; // the first instruction
const mul = program.instructions.find((i) => i.opcode === 0x38)!;
const notes: ListingAnnotations = {
  initial: ['// initial'],
  before: new Map([[mul.word * 4, ['', '#line 7']]]),
  after: new Map([[sample.word * 4, ['// after sample']]]),
  suffix: new Map([[mul.word * 4, '  // r0.x <- x']]),
};
const header = (): string => '';

test('annotation lines go where the hook says, around the plain listing', () => {
  const plain = disassemble(c, 0, { header, annotations: () => undefined }).split('\n');
  const got = disassemble(c, 0, { header, annotations: () => notes }).split('\n');
  const at = plain.findIndex((l) => l.startsWith('sample '));
  assert.deepEqual(got.slice(0, at), plain.slice(0, at), 'declarations untouched');
  assert.deepEqual(got.slice(at, at + 6), [
    '// initial',
    plain[at],
    '// after sample',
    '',
    '#line 7',
    `${plain[at + 1]}  // r0.x <- x`,
  ]);
});

test('prefixes of flags 0x04 and 0x20 come before the instruction text, never before annotation lines', () => {
  const got = disassemble(c, 0x24, { header, annotations: () => notes }).split('\n');
  const mulLine = got.find((l) => l.includes('mul '))!;
  assert.match(mulLine, /^ {3}1 {2}0x[0-9A-F]{8}: mul .* {2}\/\/ r0\.x <- x$/);
  assert.ok(got.includes('#line 7') && got.includes('// initial'));
});

test('flag 0x10 leaves every annotation out', () => {
  const plain = disassemble(c, 0x10, { header, annotations: () => undefined });
  assert.equal(disassemble(c, 0x10, { header, annotations: () => notes }), plain);
});
