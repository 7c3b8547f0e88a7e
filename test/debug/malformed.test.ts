// Malformed debug information, made from a real /Zi build by corrupting one field: each is a typed
// error naming the stream and offset, never a crash or a hang, and the listing of a container with
// broken debug information still prints (without the debug lines, as the provider returns none).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPart, parseContainer } from '../../src/container/container.js';
import { debugAnnotationResult, readDebugInfo } from '../../src/debug/annotations.js';
import { readBinaryAnnotations } from '../../src/debug/symbols.js';
import { readC13 } from '../../src/debug/c13.js';
import { ByteReader } from '../../src/binary/reader.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { IridiaError, type ErrorCode } from '../../src/errors.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { programPart } from './cases.js';

const BUILD = join(FIXTURES, 'oracle/own/debug_inline/main-ps_5_0-zi');
const original = readBytes(join(BUILD, 'shader.dxbc'));
const spdbAt = findPart(parseContainer(original), 'SPDB')!.offset + 8;

const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
const u32 = (b: Uint8Array, at: number): number => dv(b).getUint32(at, true);
const setU32 = (b: Uint8Array, at: number, v: number): void => dv(b).setUint32(at, v, true);

/** The MSF layout of the fixture, read by hand: block size, directory offset, each stream's blocks. */
function layout(b: Uint8Array): {
  bs: number;
  dir: number;
  streams: { size: number; blocks: number[]; listAt: number }[];
} {
  const bs = u32(b, spdbAt + 0x20);
  const dir = spdbAt + u32(b, spdbAt + u32(b, spdbAt + 0x34) * bs) * bs;
  const n = u32(b, dir);
  const streams: { size: number; blocks: number[]; listAt: number }[] = [];
  let at = dir + 4 + 4 * n;
  for (let s = 0; s < n; s++) {
    const size = u32(b, dir + 4 + 4 * s);
    const count = size === 0xffffffff ? 0 : Math.ceil(size / bs);
    const blocks: number[] = [];
    for (let i = 0; i < count; i++) blocks.push(u32(b, at + 4 * i));
    streams.push({ size, blocks, listAt: at });
    at += 4 * count;
  }
  return { bs, dir, streams };
}

/** File offset of byte `offset` of stream `s`. */
function streamByte(b: Uint8Array, s: number, offset: number): number {
  const { bs, streams } = layout(b);
  return spdbAt + streams[s]!.blocks[Math.floor(offset / bs)]! * bs + (offset % bs);
}

const MODULE_STREAM = 9;

/** The module stream's symbol records: [offset in the stream, length, kind]. */
function symbols(b: Uint8Array): [number, number, number][] {
  const out: [number, number, number][] = [];
  const at = (o: number): number => streamByte(b, MODULE_STREAM, o);
  let o = 4;
  for (;;) {
    const len = b[at(o)]! | (b[at(o + 1)]! << 8);
    const kind = b[at(o + 2)]! | (b[at(o + 3)]! << 8);
    out.push([o, len, kind]);
    if (kind === 0x0006 && out.length > 3) break;
    o += 2 + len;
  }
  return out;
}

function corrupt(edit: (b: Uint8Array) => void): Uint8Array {
  const b = original.slice();
  edit(b);
  return b;
}

function expectError(bytes: Uint8Array, code: ErrorCode, reason: RegExp): void {
  const c = parseContainer(bytes);
  assert.throws(
    () => readDebugInfo(c),
    (e: unknown) => {
      assert.ok(e instanceof IridiaError, `an IridiaError, not ${String(e)}`);
      assert.equal(e.code, code, e.message);
      assert.match(e.message, reason);
      assert.ok(e.offset !== undefined, 'the error names an offset');
      assert.match(e.part ?? '', /^SPDB/, 'the error names the SPDB part or stream');
      return true;
    },
  );
  // The provider does not throw: it reports the error and gives no annotations, so the listing
  // prints as Microsoft's does without debug lines.
  const result = debugAnnotationResult(c);
  assert.equal(result.annotations, undefined);
  assert.ok(result.error instanceof IridiaError);
  const expected = programPart(readFileSync(join(BUILD, 'listing.0x10.asm'), 'latin1'));
  assert.equal(programPart(disassemble(bytes, 0)), expected);
}

test('the fixture itself reads', () => {
  const d = readDebugInfo(parseContainer(original));
  assert.equal(d?.format, 'SPDB');
  assert.equal(layout(original).bs, 512);
  assert.equal(layout(original).streams.length, 16);
});

test('MSF block size that is not a power of two', () => {
  expectError(
    corrupt((b) => setU32(b, spdbAt + 0x20, 500)),
    'E503_MSF_BAD',
    /block size 500 is not a power of two/,
  );
});

test('MSF block map address past the end', () => {
  expectError(
    corrupt((b) => setU32(b, spdbAt + 0x34, 0x7fff)),
    'E503_MSF_BAD',
    /block map address names block 32767/,
  );
});

test('MSF block count larger than the file', () => {
  expectError(
    corrupt((b) => setU32(b, spdbAt + 0x28, 0x10000)),
    'E503_MSF_BAD',
    /block count 65536 is more than the/,
  );
});

test('stream directory with a block past the end', () => {
  expectError(
    corrupt((b) => {
      const { streams } = layout(b);
      setU32(b, streams[3]!.listAt, 0x7000);
    }),
    'E503_MSF_BAD',
    /stream 3's block list names block 28672/,
  );
});

test('a stream block list that loops', () => {
  expectError(
    corrupt((b) => {
      const s = layout(b).streams[MODULE_STREAM]!;
      assert.ok(s.blocks.length >= 2);
      setU32(b, s.listAt + 4, s.blocks[0]!);
    }),
    'E503_MSF_BAD',
    /names block \d+ twice \(a loop\)/,
  );
});

test('a stream count too large for the file', () => {
  expectError(
    corrupt((b) => setU32(b, layout(b).dir, 5000)),
    'E503_MSF_BAD',
    /stream count 5000 is too large/,
  );
});

test('a stream size too large for the file', () => {
  expectError(
    corrupt((b) => setU32(b, layout(b).dir + 4 + 4 * MODULE_STREAM, 0x7fffff)),
    'E503_MSF_BAD',
    /stream 9's size 8388607 needs more blocks/,
  );
});

test('a symbol record that runs past the symbols', () => {
  expectError(
    corrupt((b) => {
      const [o] = symbols(b)[3]!;
      const at = streamByte(b, MODULE_STREAM, o);
      b[at] = 0xff;
      b[at + 1] = 0x7f;
    }),
    'E504_DEBUG_BAD',
    /symbol record of 32767 bytes runs past the symbols' end/,
  );
});

test('an S_DEFRANGE_HLSL too short for its fields', () => {
  expectError(
    corrupt((b) => {
      // Shrink the record to 10 bytes and mark the rest as a record the reader skips (S_OBJNAME's
      // neighbour 0x1102 is not read), so only the short record is wrong.
      const [o, len] = symbols(b).find(([, , k]) => k === 0x1150)!;
      const at = (x: number): number => streamByte(b, MODULE_STREAM, o + x);
      b[at(0)] = 10;
      b[at(1)] = 0;
      b[at(12)] = len - 12;
      b[at(13)] = 0;
      b[at(14)] = 0x02;
      b[at(15)] = 0x11;
    }),
    'E504_DEBUG_BAD',
    /needs \d+ bytes/,
  );
});

test('binary annotations that run past their record', () => {
  expectError(
    corrupt((b) => {
      const [o, len] = symbols(b).find(([, , k]) => k === 0x114d)!;
      // The record's last bytes: op 3 with a four-byte compressed operand that has no room.
      const end = o + 2 + len;
      b[streamByte(b, MODULE_STREAM, end - 2)] = 0x03;
      b[streamByte(b, MODULE_STREAM, end - 1)] = 0xc0;
    }),
    'E504_DEBUG_BAD',
    /an annotation operand needs 1 bytes/,
  );
});

test('binary annotations: op 4 moves the offset past the row, op 12 does not, op 1 restarts', () => {
  const ops = (...bytes: number[]): ByteReader => new ByteReader(new Uint8Array(bytes), { code: 'E504_DEBUG_BAD' });
  // op 3 +8 (row at 8), op 4 length 4 (offset 12), op 3 +4 (row at 16), op 12 length 8 delta 4 (row at 20, offset stays 20), op 3 +0 (row at 20)
  const rows = readBinaryAnnotations(ops(3, 8, 4, 4, 3, 4, 12, 8, 4, 3, 0), 0);
  assert.deepEqual(
    rows.map((r) => [r.offset, r.length]),
    [
      [8, 4],
      [16, undefined],
      [20, 8],
      [20, undefined],
    ],
  );
  // op 6 line delta -1 (encoded 3), op 11 code +2 and line -0 (0x12: the line's sign is bit 0 of
  // the high bits); op 1 sets a token-stream offset, given here from the function's start (0x40).
  const rows2 = readBinaryAnnotations(ops(6, 3, 11, 0x12, 1, 0x80, 0x50, 3, 0), 0x40);
  assert.deepEqual(
    rows2.map((r) => [r.offset, r.line]),
    [
      [2, -1],
      [0x10, -1],
    ],
  );
  assert.throws(
    () => readBinaryAnnotations(ops(14, 1), 0),
    (e: unknown) => e instanceof IridiaError && e.code === 'E504_DEBUG_BAD',
  );
});

test('C13 inlinee lines with signature 1 (extra files) and a bad signature', () => {
  const words = (...w: number[]): Uint8Array => new Uint8Array(new Uint32Array(w).buffer);
  // 0xf6 subsection: signature 1, one inlinee 0x1001 in file 0 at line 7 with two extra files 0x18, 0x30.
  const c13 = readC13(words(0xf6, 28, 1, 0x1001, 0, 7, 2, 0x18, 0x30), 'test', 0);
  assert.deepEqual(c13.inlinees, [{ inlinee: 0x1001, file: 0, line: 7, extraFiles: [0x18, 0x30] }]);
  const plain = readC13(words(0xf6, 16, 0, 0x1001, 0, 7), 'test', 0);
  assert.deepEqual(plain.inlinees, [{ inlinee: 0x1001, file: 0, line: 7, extraFiles: [] }]);
  assert.throws(
    () => readC13(words(0xf6, 16, 2, 0x1001, 0, 7), 'test', 0),
    (e: unknown) => e instanceof IridiaError && e.code === 'E504_DEBUG_BAD' && /signature is 2/.test(e.message),
  );
  assert.throws(
    () => readC13(words(0xf6, 28, 1, 0x1001, 0, 7, 0x40000000), 'test', 0),
    (e: unknown) => e instanceof IridiaError && e.code === 'E504_DEBUG_BAD',
  );
});

test('a truncated SPDB part at every 97th length is a typed error, never a crash', () => {
  const part = findPart(parseContainer(original), 'SPDB')!.data;
  let errors = 0;
  for (let n = 0; n < part.byteLength; n += 97) {
    try {
      readDebugInfoOf(part.subarray(0, n));
    } catch (e) {
      assert.ok(e instanceof IridiaError, `length ${n}: ${String(e)}`);
      assert.match(e.code, /^E50[34]/);
      errors++;
    }
  }
  assert.ok(errors > 0);
});

function readDebugInfoOf(spdb: Uint8Array): void {
  // Rebuild a container whose SPDB part is `spdb`, keeping the other parts.
  const c = parseContainer(original);
  const parts = c.parts.map((p) => (p.kind === 'SPDB' ? { kind: p.kind, data: spdb } : { kind: p.kind, data: p.data }));
  readDebugInfo({ ...c, parts: parts.map((p, i) => ({ ...p, offset: c.parts[i]!.offset })) });
}

const SDBG = join(FIXTURES, 'debug/corpus/BasicHLSLPS.dxbc');

test('SDBG with a wrong header size, and with too many instruction records', () => {
  const bytes = readBytes(SDBG);
  const at = findPart(parseContainer(bytes), 'SDBG')!.offset + 8;
  const bad = bytes.slice();
  setU32(bad, at, 80);
  assert.throws(
    () => readDebugInfo(parseContainer(bad)),
    (e: unknown) => e instanceof IridiaError && e.code === 'E504_DEBUG_BAD' && /header size is 80/.test(e.message),
  );
  const many = bytes.slice();
  setU32(many, at + 7 * 4, 0x100000);
  assert.throws(
    () => readDebugInfo(parseContainer(many)),
    (e: unknown) =>
      e instanceof IridiaError && e.code === 'E504_DEBUG_BAD' && /instruction records do not fit/.test(e.message),
  );
  assert.equal(debugAnnotationResult(parseContainer(many)).annotations, undefined);
});

test('random corruption of SPDB and SDBG parts gives typed errors only (seeded, 400 each)', () => {
  let seed = 12345;
  const rnd = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const outcomes = new Map<string, number>();
  for (const file of [join(BUILD, 'shader.dxbc'), SDBG]) {
    const bytes = readBytes(file);
    const c = parseContainer(bytes);
    const part = findPart(c, 'SPDB') ?? findPart(c, 'SDBG')!;
    // Corrupt the structures, not the embedded source text: the first 4 KiB of the part.
    const span = Math.min(part.data.byteLength, 4096);
    for (let i = 0; i < 400; i++) {
      const b = bytes.slice();
      for (let k = 0; k < 3; k++) b[part.offset + 8 + Math.floor(rnd() * span)] = Math.floor(rnd() * 256);
      try {
        const broken = parseContainer(b);
        readDebugInfo(broken);
        debugAnnotationResult(broken);
        outcomes.set('read', (outcomes.get('read') ?? 0) + 1);
      } catch (e) {
        assert.ok(e instanceof IridiaError, `iteration ${i} of ${file}: ${(e as Error).stack ?? String(e)}`);
        outcomes.set(e.code, (outcomes.get(e.code) ?? 0) + 1);
      }
    }
  }
  assert.ok(
    (outcomes.get('E503_MSF_BAD') ?? 0) + (outcomes.get('E504_DEBUG_BAD') ?? 0) > 0,
    JSON.stringify([...outcomes]),
  );
});
