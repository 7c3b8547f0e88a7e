// Malformed bitcode from a real fixture (SDL's color.frag.sm60, Zlib): each corruption is refused
// with its typed error, never a bare exception or a hang. The module block starts at byte 4 of the
// bitcode ('BC' 0xC0DE first): abbreviation id 1 (2 bits), block id 8 (VBR8), abbreviation width 3
// (VBR4), then its length in words at byte 8 and its first abbreviation id at byte 12.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { IridiaError, type ErrorCode } from '../../src/errors.js';
import { TreeCursor, isBlock, readBitcode, type BitBlock, type BitRecord } from '../../src/dxil/bitstream.js';
import { ModuleReader, readModule } from '../../src/dxil/module.js';
import { readProgramHeader } from '../../src/dxil/program-header.js';
import { disassembleDxil } from '../../src/dxil/disassemble.js';
import { readDxilContainer } from '../../src/dxil/dxil-container.js';
import { reflectDxil } from '../../src/dxil/reflect.js';
import { ModulePrinter } from '../../src/dxil/printer.js';
import { dxcInstructionComment } from '../../src/dxil/annotate.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const container = parseContainer(readBytes(join(FIXTURES, 'dxil', 'gpu__color.frag.sm60.dxil')));
const dxil = container.parts.find((p) => p.kind === 'DXIL')!;
const header = readProgramHeader(dxil.data);
const bitcode = (): Uint8Array => new Uint8Array(header.bitcode);
const ctx = { part: 'DXIL', offset: 0 };

function refuses(code: ErrorCode, f: () => unknown): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof IridiaError, `an IridiaError, not ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.part, 'DXIL');
    return true;
  });
}

test('dxil malformed: the fixture itself reads (module layout as the corruptions assume)', () => {
  const b = bitcode();
  assert.deepEqual([...b.subarray(0, 4)], [0x42, 0x43, 0xc0, 0xde]);
  assert.equal(b[12]! & 7, 3, 'the module block starts with an unabbreviated record');
  const m = readModule(b, ctx);
  assert.equal(m.functions.length > 0, true);
});

test('dxil malformed: a truncated stream is E401', () => {
  for (const keep of [8, 13, 100, 600, bitcode().length - 4]) {
    refuses('E401_BITCODE_TRUNCATED', () => readModule(bitcode().subarray(0, keep), ctx));
  }
});

test('dxil malformed: an abbreviation id out of range is E402', () => {
  const b = bitcode();
  b[12] = (b[12]! & ~7) | 7; // abbreviation id 7: the module block has defined none
  refuses('E402_BITCODE_ABBREV', () => readModule(b, ctx));
});

test('dxil malformed: a VBR that never ends is E403', () => {
  const b = bitcode();
  b[12] = (b[12]! & 7) | 0xf8; // an unabbreviated record whose code is VBR6 chunks all continued
  for (let i = 13; i < 40; i++) b[i] = 0xff;
  refuses('E403_BITCODE_VBR', () => readModule(b, ctx));
});

test('dxil malformed: blocks nested without end are E406', () => {
  const b = bitcode();
  b[8] = 10; // the module block now claims 10 words: its sub-blocks run past its end
  b[9] = 0;
  refuses('E406_BITCODE_NESTING', () => readModule(b, ctx));
});

/** The top-level blocks with one record changed, read by the module reader. */
function withRecord(pick: (r: BitRecord, parent: BitBlock) => boolean, change: (r: BitRecord) => void): () => unknown {
  const blocks = readBitcode(bitcode(), 0, 'DXIL');
  let done = false;
  const visit = (b: BitBlock): void => {
    for (const it of b.items) {
      if (done) return;
      if (isBlock(it)) visit(it);
      else if (pick(it, b)) {
        change(it);
        done = true;
      }
    }
  };
  blocks.forEach(visit);
  assert.ok(done, 'the fixture has the record to corrupt');
  return () => new ModuleReader(ctx).read(new TreeCursor(blocks));
}

test('dxil malformed: a record whose operand count is off is E404', () => {
  // A function record (module code 8) with 3 of its 8 operands.
  refuses(
    'E404_BITCODE_RECORD',
    withRecord(
      (r, p) => p.id === 8 && r.code === 8,
      (r) => r.ops.splice(3),
    ),
  );
  // A call (function code 34) missing its last argument.
  refuses(
    'E404_BITCODE_RECORD',
    withRecord(
      (r, p) => p.id === 12 && r.code === 34,
      (r) => r.ops.pop(),
    ),
  );
  // A pointer type record without its element type.
  refuses(
    'E404_BITCODE_RECORD',
    withRecord(
      (r, p) => p.id === 17 && r.code === 8,
      (r) => r.ops.splice(0),
    ),
  );
});

test('dxil malformed: a forward reference that never resolves is E405', () => {
  // A call argument 1000 values past the end of the function (relative ids wrap at 2^32).
  refuses(
    'E405_BITCODE_FORWARD_REF',
    withRecord(
      (r, p) => p.id === 12 && r.code === 34,
      (r) => (r.ops[r.ops.length - 1] = 2 ** 32 - 1000),
    ),
  );
  // A metadata node operand naming metadata never read.
  refuses(
    'E405_BITCODE_FORWARD_REF',
    withRecord(
      (r, p) => p.id === 15 && r.code === 3 && r.ops.length > 0,
      (r) => (r.ops[0] = 100000),
    ),
  );
});

test('dxil malformed: a container whose DXIL part is cut is a typed error from disassembleDxil', () => {
  const bytes = new Uint8Array(container.bytes);
  const c = parseContainer(bytes);
  const part = c.parts.find((p) => p.kind === 'DXIL')!;
  // Claim a bitcode size past the part's end.
  const at = part.offset + 8 + 20;
  new DataView(bytes.buffer).setUint32(at, part.data.byteLength, true);
  assert.throws(
    () => disassembleDxil(parseContainer(bytes)),
    (e: unknown) => e instanceof IridiaError && e.code === 'E201_PART_TRUNCATED',
  );
});

test('dxil malformed: 3000 seeded byte corruptions give only typed errors', () => {
  let seed = 0x1234567;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const b = bitcode();
    const flips = 1 + rand(3);
    for (let k = 0; k < flips; k++) {
      const at = 4 + rand(b.length - 4);
      b[at] = b[at]! ^ (1 << rand(8));
    }
    try {
      const m = readModule(b, ctx);
      new ModulePrinter(m, dxcInstructionComment).print();
    } catch (e) {
      if (!(e instanceof IridiaError)) throw new Error(`corruption ${i} threw ${(e as Error).stack}`, { cause: e });
      refused++;
    }
  }
  assert.ok(refused > 0);
});

test('dxil malformed: seeded corruptions of every fixture part give only typed errors', () => {
  let seed = 5;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const dir = join(FIXTURES, 'dxil');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.dxil'))) {
    const orig = readBytes(join(dir, f));
    const parts = parseContainer(orig).parts;
    for (let i = 0; i < 400; i++) {
      const b = new Uint8Array(orig);
      const p = parts[rand(parts.length)]!;
      for (let k = 0; k <= rand(3); k++) {
        const at = p.offset + 8 + rand(p.data.length);
        b[at] = b[at]! ^ (1 << rand(8));
      }
      try {
        const c = parseContainer(b);
        readDxilContainer(c);
        if (c.parts.some((x) => x.kind === 'DXIL')) {
          disassembleDxil(c);
          reflectDxil(c);
        }
      } catch (e) {
        if (!(e instanceof IridiaError))
          throw new Error(`${f}, corruption ${i} in ${p.kind}: ${(e as Error).stack}`, { cause: e });
      }
    }
  }
});
