// Malformed Direct3D 9 programs built from real fixtures (test/fixtures/oracle/own-d3d9): truncations, an
// instruction length past the end, a comment longer than the program, an unknown opcode, a bad version or
// parameter token, and CTAB/DBUG tables outside their comment. The token stream's faults are typed errors
// naming the offset; faults inside the CTAB or DBUG comment leave the rest of the listing printable (the
// listing without that block) and are reported through `diagnostics`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { decodeD3D9 } from '../../src/d3d9/decode.js';
import { disassembleD3D9 } from '../../src/d3d9/disasm.js';
import { readDebugInfo } from '../../src/d3d9/dbug.js';
import { IridiaError, isIridiaError, type ErrorCode } from '../../src/errors.js';
import { parseContainer, findPart } from '../../src/container/container.js';
import { level9Listing } from '../../src/disasm/level9.js';
import { readAon9 } from '../../src/parts/aon9.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { builds, readText } from './listings.js';

const ROOT = join(FIXTURES, 'oracle/own-d3d9');
const ZI = join(ROOT, 'const_bool_branch/main-ps_3_0-zi-od');

function program(dir = ZI): Uint8Array {
  return readBytes(join(dir, 'shader.d3d9')).slice();
}

function word(b: Uint8Array, offset: number): number {
  return new DataView(b.buffer, b.byteOffset).getUint32(offset, true);
}

function setWord(b: Uint8Array, offset: number, value: number): void {
  new DataView(b.buffer, b.byteOffset).setUint32(offset, value >>> 0, true);
}

function throwsCode(f: () => unknown, code: ErrorCode, offset?: number): IridiaError {
  try {
    f();
  } catch (e) {
    assert.ok(isIridiaError(e), `expected an IridiaError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (offset !== undefined) assert.equal(e.offset, offset, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

/** Byte offset of the comment with this FourCC (its comment token). */
function commentOffset(b: Uint8Array, fourcc: string): number {
  const c = decodeD3D9(b).records.find((r) => r.kind === 'comment' && r.fourcc === fourcc);
  assert.ok(c, `no ${fourcc} comment`);
  return c.offset;
}

function caught(f: () => unknown): IridiaError | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    assert.ok(isIridiaError(e), `expected an IridiaError, got ${String(e)}`);
    return e;
  }
}

test('every truncation of every fixture program is a typed error', () => {
  let cases = 0;
  for (const b of builds(ROOT, 'shader.d3d9')) {
    const full = program(b.dir);
    for (let n = 0; n < full.byteLength; n++) {
      const e = caught(() => disassembleD3D9(full.subarray(0, n), 0));
      assert.ok(e, `${b.name} cut at ${n} bytes was accepted`);
      const expected: ErrorCode[] =
        n < 4 ? ['E501_D3D9_TRUNCATED'] : ['E501_D3D9_TRUNCATED', 'E511_D3D9_LENGTH', 'E512_D3D9_COMMENT'];
      assert.ok(expected.includes(e.code), `${b.name} cut at ${n}: ${e.code} ${e.message}`);
      cases++;
    }
  }
  assert.ok(cases > 1000);
});

test('a program without its end token: E501 at the end', () => {
  const b = program();
  throwsCode(() => decodeD3D9(b.subarray(0, b.byteLength - 4)), 'E501_D3D9_TRUNCATED', b.byteLength - 4);
});

test('an instruction length past the end: E511 naming the instruction', () => {
  const b = program();
  const p = decodeD3D9(b);
  const last = p.records.at(-1)!;
  assert.equal(last.kind, 'instruction');
  setWord(b, last.offset, (word(b, last.offset) & ~0x0f000000) | 0x0f000000);
  const e = throwsCode(() => decodeD3D9(b), 'E511_D3D9_LENGTH', last.offset);
  assert.equal(e.instruction, p.records.length - 1);
  assert.equal(e.word, last.offset / 4);
});

test('an instruction length shorter than its operands: E511', () => {
  const b = program();
  const ins = decodeD3D9(b).records.find((r) => r.kind === 'instruction' && r.info.name === 'mov')!;
  setWord(b, ins.offset, (word(b, ins.offset) & ~0x0f000000) | 0x01000000);
  throwsCode(() => decodeD3D9(b), 'E511_D3D9_LENGTH', ins.offset);
});

test('a comment longer than the program: E512 at the comment token', () => {
  const b = program();
  const at = commentOffset(b, 'DBUG');
  setWord(b, at, 0x7ffffffe);
  throwsCode(() => decodeD3D9(b), 'E512_D3D9_COMMENT', at);
});

test('an unknown opcode: E502 with the offset and instruction index', () => {
  const b = program();
  const p = decodeD3D9(b);
  const index = p.records.findIndex((r) => r.kind === 'instruction' && r.info.name === 'add');
  const ins = p.records[index]!;
  setWord(b, ins.offset, (word(b, ins.offset) & 0xffff0000) | 0x70);
  const e = throwsCode(() => disassembleD3D9(b, 0), 'E502_D3D9_OPCODE', ins.offset);
  assert.equal(e.instruction, index);
  assert.match(e.message, /unknown opcode 0x70/);
});

test('a version token that is neither vs nor ps 1.x-3.0: E510', () => {
  const b = program();
  setWord(b, 0, 0xfffe0400);
  throwsCode(() => decodeD3D9(b), 'E510_D3D9_VERSION', 0);
  setWord(b, 0, 0x43425844);
  throwsCode(() => decodeD3D9(b), 'E510_D3D9_VERSION', 0);
});

test('a parameter token without bit 31: E513', () => {
  const b = program();
  const ins = decodeD3D9(b).records.find((r) => r.kind === 'instruction' && r.info.name === 'mov')!;
  setWord(b, ins.offset + 4, word(b, ins.offset + 4) & 0x7fffffff);
  throwsCode(() => decodeD3D9(b), 'E513_D3D9_OPERAND', ins.offset);
});

test('a DBUG table outside the comment: E515, and the listing still prints without the debug lines', () => {
  const b = program();
  const at = commentOffset(b, 'DBUG');
  // The line record table's offset (DBUG header word 6, after the comment token and the FourCC).
  setWord(b, at + 8 + 0x18, 0x00100000);
  const c = decodeD3D9(b).records.find((r) => r.kind === 'comment' && r.fourcc === 'DBUG')!;
  assert.equal(c.kind, 'comment');
  throwsCode(() => readDebugInfo(c.data, c.offset + 4), 'E515_D3D9_DBUG', at + 8 + 0x18);
  const diagnostics: IridiaError[] = [];
  const listing = disassembleD3D9(b, 0, { diagnostics });
  assert.equal(listing, readText(join(ZI, 'listing.0x10.asm')));
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['E515_D3D9_DBUG'],
  );
});

test('a DBUG variable location table outside the comment, and a path offset past its end: E515', () => {
  const b = program();
  const at = commentOffset(b, 'DBUG');
  const c = decodeD3D9(b).records.find((r) => r.kind === 'comment' && r.fourcc === 'DBUG')!;
  assert.equal(c.kind, 'comment');
  const varTable = word(b, at + 8 + 0x20);
  const corrupt = b.slice();
  setWord(corrupt, at + 8 + varTable + 0x10, 0xfffffff0);
  const cc = decodeD3D9(corrupt).records.find((r) => r.kind === 'comment' && r.fourcc === 'DBUG')!;
  assert.equal(cc.kind, 'comment');
  throwsCode(() => readDebugInfo(cc.data, cc.offset + 4), 'E515_D3D9_DBUG');
  const s = b.slice();
  setWord(s, at + 8, c.data.byteLength - 4); // the main path starts just past the comment's end
  const sc = decodeD3D9(s).records.find((r) => r.kind === 'comment' && r.fourcc === 'DBUG')!;
  assert.equal(sc.kind, 'comment');
  throwsCode(() => readDebugInfo(sc.data, sc.offset + 4), 'E515_D3D9_DBUG');
});

test('a CTAB constant count past the comment: E514, and the instructions still print', () => {
  const b = program();
  const at = commentOffset(b, 'CTAB');
  setWord(b, at + 8 + 12, 0x01000000);
  const diagnostics: IridiaError[] = [];
  const listing = disassembleD3D9(b, 0x10, { diagnostics });
  const expected = readText(join(ZI, 'listing.0x10.asm'));
  assert.equal(listing, expected.slice(expected.indexOf('    ps_3_0\n')));
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['E514_D3D9_CTAB'],
  );
});

test('4000 seeded word corruptions: only typed errors, always terminates', () => {
  const programs = builds(ROOT, 'shader.d3d9').map((b) => program(b.dir));
  let seed = 0x9e3779b9;
  const rand = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  let rejected = 0;
  for (let i = 0; i < 4000; i++) {
    const b = programs[rand(programs.length)]!.slice();
    const at = 4 * rand(b.byteLength / 4);
    const bits = [0xffffffff, 0x0f000000, 0x0000ffff, 0x7fff0000, 1 << rand(32)][rand(5)]!;
    setWord(b, at, word(b, at) ^ (rand(2) ? bits : rand(0x7fffffff)));
    const diagnostics: IridiaError[] = [];
    if (caught(() => disassembleD3D9(b, [0, 4, 0x20, 0x80][rand(4)]!, { diagnostics })) || diagnostics.length)
      rejected++;
  }
  assert.ok(rejected > 0);
});

test('level 9: a corrupt opcode in the embedded program is E502', () => {
  const dir = join(FIXTURES, 'oracle/own/ps_level9_tex');
  const b = builds(dir.replace(/\/ps_level9_tex$/, ''), 'shader.dxbc', (n) => n.includes('level_9')).find((x) =>
    x.name.startsWith('ps_level9_tex/'),
  )!;
  const bytes = readBytes(join(b.dir, 'shader.dxbc')).slice();
  const c = parseContainer(bytes);
  const part = findPart(c, 'Aon9')!;
  const aon9 = readAon9(part.data, part.offset + 8);
  const start = part.offset + 8 + aon9.programOffset;
  const p = decodeD3D9(aon9.program);
  const ins = p.records.find((r) => r.kind === 'instruction' && r.info.name !== 'dcl')!;
  setWord(bytes, start + ins.offset, (word(bytes, start + ins.offset) & 0xffff0000) | 0x77);
  throwsCode(() => level9Listing(parseContainer(bytes), 0), 'E502_D3D9_OPCODE', ins.offset);
});

test('a CTAB struct member whose type is the struct itself: E514, not a hang', () => {
  const b = program(join(ROOT, 'const_struct/main-ps_2_0-zi'));
  const at = commentOffset(b, 'CTAB');
  const base = at + 8; // table offsets count from here
  const info = word(b, base + 16);
  const typeOffset = word(b, base + info + 12);
  assert.equal(word(b, base + typeOffset) & 0xffff, 5, 'the first constant is a struct');
  const members = word(b, base + typeOffset + 12);
  setWord(b, base + members + 4, typeOffset);
  const diagnostics: IridiaError[] = [];
  const listing = disassembleD3D9(b, 0, { diagnostics });
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['E514_D3D9_CTAB'],
  );
  assert.match(listing, /^ {4}ps_2_0\n/);
});

test('DBUG variables sharing one location table larger than the comment allows in all: E515', () => {
  const b = program();
  const at = commentOffset(b, 'DBUG');
  const base = at + 8;
  const c = decodeD3D9(b).records.find((r) => r.kind === 'comment' && r.fourcc === 'DBUG')!;
  assert.equal(c.kind, 'comment');
  const size = c.data.byteLength - 4;
  const count = word(b, base + 0x1c);
  const table = word(b, base + 0x20);
  assert.ok(count >= 2);
  for (let i = 0; i < count; i++) {
    setWord(b, base + table + 20 * i + 0xc, Math.floor(size / 12));
    setWord(b, base + table + 20 * i + 0x10, 0);
  }
  const cc = decodeD3D9(b).records.find((r) => r.kind === 'comment' && r.fourcc === 'DBUG')!;
  assert.equal(cc.kind, 'comment');
  throwsCode(() => readDebugInfo(cc.data, cc.offset + 4), 'E515_D3D9_DBUG');
});
