// The word fxc writes after samplepos / sample_*_s, which no listing shows (src/asm/padding.ts):
// with --like it comes back from the original instruction of the same words, through edits
// elsewhere; an edited sample and a listing assembled without --like get the form without it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { decodeContainerProgram } from '../../src/sm4/census.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { decodeProgram } from '../../src/sm4/decode.js';
import { assemble } from '../../src/asm/index.js';
import { PADDED_OPCODES } from '../../src/asm/padding.js';
import type { Program } from '../../src/sm4/types.js';
import { FIXTURES } from '../helpers/shared.js';

const FILE = join(FIXTURES, 'lift/ps_sample_count_forms/main-ps_5_0/shader.dxbc');
const C = parseContainer(new Uint8Array(readFileSync(FILE)));
const P = decodeContainerProgram(C)!;

/** The padding words of the program's padded instructions, in order (-1: none). */
function paddings(p: Program): number[] {
  return p.instructions.filter((i) => PADDED_OPCODES.has(i.opcode)).map((i) => (i.values.length ? i.values[0]! : -1));
}

const ORIGINAL = paddings(P);

test('the fixture carries padding words (what this test is about)', () => {
  assert.ok(
    ORIGINAL.some((w) => w >= 0),
    `paddings ${ORIGINAL.join(',')}`,
  );
});

test('with --like every padding word comes back, and the stream is the original word for word', () => {
  const r = assemble(disassemble(C, 0x80), { like: C });
  assert.deepEqual([...r.program.words], [...P.words.subarray(0, P.lengthWords)]);
  assert.ok(
    r.notes.some((n) => n.startsWith('padding: ')),
    r.notes.join('\n'),
  );
  assert.deepEqual(paddings(decodeProgram(r.part)), ORIGINAL);
});

test('without --like the listing gives the form without the word', () => {
  const r = assemble(disassemble(C, 0x80));
  assert.deepEqual(
    paddings(decodeProgram(r.part)),
    ORIGINAL.map(() => -1),
  );
  assert.equal(r.program.words.length, P.lengthWords - ORIGINAL.filter((w) => w >= 0).length);
});

test('an edit elsewhere keeps every padding word; an edited sample gets none', () => {
  const listing = disassemble(C, 0);
  const lines = listing.split('\n');
  const ret = lines.lastIndexOf('ret ');
  assert.ok(ret > 0);
  // a new instruction before ret: an edit elsewhere
  const added = [...lines.slice(0, ret), 'mov r0.x, l(1)', ...lines.slice(ret)].join('\n');
  const a = assemble(added, { like: C });
  assert.deepEqual(paddings(decodeProgram(a.part)), ORIGINAL);
  // the first padded instruction with its destination mask changed: other words, no padding for it
  const padded = P.instructions.filter((i) => PADDED_OPCODES.has(i.opcode));
  const first = padded.findIndex((_, k) => ORIGINAL[k]! >= 0);
  const sampleLines = lines.flatMap((l, k) => (/^\s*(samplepos|sample_\w+_s) /.test(l) ? [k] : []));
  assert.equal(sampleLines.length, padded.length);
  const at = sampleLines[first]!;
  const edited = lines.slice();
  edited[at] = edited[at]!.replace(/^(\s*\S+ r(\d+))\.[xyzw]+/, '$1.x');
  assert.notEqual(edited[at], lines[at], 'the edit changed the line');
  const b = assemble(edited.join('\n'), { like: C });
  const want = ORIGINAL.slice();
  want[first] = -1;
  assert.deepEqual(paddings(decodeProgram(b.part)), want);
});
