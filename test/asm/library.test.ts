// Shader libraries (fxc lib_4_0 .. lib_5_0 and the level-9 forms) through the assembler
// (src/asm/library.ts): the listing is cut into its functions, each assembled against its LIBF
// container, so a library comes back byte for byte and an edit of one function changes that one only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { digestState, parseContainer } from '../../src/container/container.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { assemble, AsmError } from '../../src/asm/index.js';
import { splitLibraryListing } from '../../src/asm/library.js';
import { FIXTURES } from '../helpers/shared.js';

const LIB = join(FIXTURES, 'oracle/own/lib_exports/lib_5_0/shader.dxbc');
const LEVEL9 = join(FIXTURES, 'oracle/own/lib_level9/lib_4_0_level_9_1/shader.dxbc');

function libf(bytes: Uint8Array): Uint8Array[] {
  return parseContainer(bytes)
    .parts.filter((p) => p.kind === 'LIBF')
    .map((p) => p.data);
}

for (const file of [LIB, LEVEL9]) {
  const bytes = new Uint8Array(readFileSync(file));
  const c = parseContainer(bytes);
  const name = file.slice(FIXTURES.length + 1);

  test(`${name}: the listing is cut into its ${libf(bytes).length} functions, and comes back byte for byte`, () => {
    for (const flags of [0x80, 0, 0x24, 0x40]) {
      const listing = disassemble(c, flags);
      assert.equal(splitLibraryListing(listing).length, libf(bytes).length, `flags 0x${flags.toString(16)}`);
      const a = assemble(listing, { like: c });
      assert.equal(a.functions?.length, libf(bytes).length);
      assert.ok(Buffer.from(a.container).equals(Buffer.from(bytes)), `container under 0x${flags.toString(16)}`);
    }
  });
}

test('an edit of one library function changes that function alone, and the library is re-signed', () => {
  const bytes = new Uint8Array(readFileSync(LIB));
  const c = parseContainer(bytes);
  const listing = disassemble(c, 0);
  const from = 'mad o0.xyzw, r0.xyzw, v1.xxxx, cb1[1].xxxx';
  assert.equal(listing.split(from).length, 2, 'the instruction is in one function');
  const a = assemble(listing.replace(from, 'mad o0.xyzw, r0.xyzw, v1.xxxx, cb1[0].xxxx'), { like: c });
  const before = libf(bytes);
  const after = libf(a.container);
  assert.equal(after.length, before.length);
  const changed = after.flatMap((f, k) => (Buffer.from(f).equals(Buffer.from(before[k]!)) ? [] : [k]));
  assert.deepEqual(changed, [0]);
  assert.ok(disassemble(a.container, 0).includes('mad o0.xyzw, r0.xyzw, v1.xxxx, cb1[0].xxxx'));
  assert.equal(digestState(parseContainer(a.container)), 'valid');
  // the function's own container is signed too
  assert.equal(digestState(parseContainer(after[0]!)), 'valid');
});

test('a library listing without --like, or against a library of other functions, is refused by name', () => {
  const c = parseContainer(new Uint8Array(readFileSync(LIB)));
  const listing = disassemble(c, 0);
  assert.throws(
    () => assemble(listing),
    (e: unknown) =>
      e instanceof AsmError && e.code === 'E907_ASM_PROGRAM' && /--like its library container/.test(e.message),
  );
  const level9 = parseContainer(new Uint8Array(readFileSync(LEVEL9)));
  assert.throws(
    () => assemble(listing, { like: level9 }),
    (e: unknown) => e instanceof AsmError && /library function\(s\), the --like library/.test(e.message),
  );
});

test('one library function (a LIBF container) assembles as a lib_M_N program', () => {
  const fn = parseContainer(libf(new Uint8Array(readFileSync(LIB)))[1]!);
  const a = assemble(disassemble(fn, 0x80), { like: fn });
  assert.equal(a.program.stage, 'lib');
  assert.equal(a.program.words[0]! >>> 16, 0xfff0);
  assert.ok(Buffer.from(a.part).equals(Buffer.from(fn.parts.find((p) => p.kind === 'SHEX')!.data)));
});
