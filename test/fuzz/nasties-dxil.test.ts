// Hand-made DXIL nasties (issue 19): bitstreams built bit by bit (an abbreviation operand of width 0,
// 65 and a VBR of 0; a block whose length runs past the end), and cyclic metadata spliced into a real
// module. Each is read or refused with a typed error: no hang, no stack overflow.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { IridiaError } from '../../src/errors.js';
import { TreeCursor, isBlock, readBitcode, type BitBlock, type BitRecord } from '../../src/dxil/bitstream.js';
import { ModuleReader } from '../../src/dxil/module.js';
import { readProgramHeader } from '../../src/dxil/program-header.js';
import { readDxilInfo } from '../../src/dxil/dxil-metadata.js';
import { ModulePrinter } from '../../src/dxil/printer.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

/** Bits, least significant first (LLVM's bitstream order). */
class Bits {
  private readonly out: number[] = [];
  private cur = 0;
  private n = 0;
  fixed(v: number, w: number): this {
    for (let k = 0; k < w; k++) {
      this.cur |= ((v >>> k) & 1) << this.n;
      if (++this.n === 8) {
        this.out.push(this.cur);
        this.cur = 0;
        this.n = 0;
      }
    }
    return this;
  }
  vbr(v: number, w: number): this {
    const hi = 1 << (w - 1);
    do {
      const chunk = v & (hi - 1);
      v = Math.floor(v / hi);
      this.fixed(chunk | (v > 0 ? hi : 0), w);
    } while (v > 0);
    return this;
  }
  align32(): this {
    while (this.n !== 0 || this.out.length % 4 !== 0) this.fixed(0, 1);
    return this;
  }
  bytes(): Uint8Array {
    const b = this.align32().out.slice();
    return new Uint8Array(b);
  }
}

const MAGIC = [0x42, 0x43, 0xc0, 0xde];

/** 'BC' 0xC0DE, a block 8 of abbreviation width 3 holding one DEFINE_ABBREV [literal 1, `op`] and one
 * record written with it (value 5 in `valueBits` bits), then END_BLOCK. `lengthWords` overrides the
 * block's length. */
function stream(op: (b: Bits) => void, lengthWords?: number, valueBits = 8): Uint8Array {
  const body = new Bits();
  body.fixed(2, 3).vbr(2, 5).fixed(1, 1).vbr(1, 8); // DEFINE_ABBREV, 2 ops: literal 1 (the code)
  op(body); // the operand's encoding
  body.fixed(4, 3).fixed(5, valueBits); // abbreviated record 4 and its operand's bits
  body.fixed(0, 3); // END_BLOCK
  const inner = body.bytes();
  const head = new Bits().fixed(1, 2).vbr(8, 8).vbr(3, 4).align32().bytes();
  const len = new Uint8Array(new Uint32Array([lengthWords ?? inner.byteLength / 4]).buffer);
  return new Uint8Array([...MAGIC, ...head, ...len, ...inner]);
}

function typed(f: () => unknown, code: string): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof IridiaError, `an IridiaError, not ${e instanceof Error ? e.stack : String(e)}`);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

function recordOf(blocks: readonly BitBlock[]): BitRecord {
  const b = blocks[0]!;
  const r = b.items.find((x) => !isBlock(x)) as BitRecord | undefined;
  assert.ok(r, 'the block holds the record');
  return r;
}

test('an abbreviation operand of Fixed(8) reads (the stream builder is right)', () => {
  const r = recordOf(readBitcode(stream((b) => b.fixed(0, 1).fixed(1, 3).vbr(8, 5))));
  assert.deepEqual([r.code, ...r.ops], [1, 5]);
});

test('an abbreviation operand of width 0 reads as LLVM reads it (Fixed(0) is 0); VBR(0) is E402', () => {
  const r = recordOf(readBitcode(stream((b) => b.fixed(0, 1).fixed(1, 3).vbr(0, 5), undefined, 0)));
  assert.deepEqual([r.code, ...r.ops], [1, 0]);
  typed(() => readBitcode(stream((b) => b.fixed(0, 1).fixed(2, 3).vbr(0, 5))), 'E402_BITCODE_ABBREV');
});

test('an abbreviation operand wider than 64 bits (65) is E402', () => {
  typed(() => readBitcode(stream((b) => b.fixed(0, 1).fixed(1, 3).vbr(65, 5))), 'E402_BITCODE_ABBREV');
  typed(() => readBitcode(stream((b) => b.fixed(0, 1).fixed(2, 3).vbr(65, 5))), 'E402_BITCODE_ABBREV');
});

test('a block whose length runs past the end of the stream is refused', () => {
  for (const words of [1000, 0xffffffff])
    assert.throws(
      () => readBitcode(stream((b) => b.fixed(0, 1).fixed(1, 3).vbr(8, 5), words)),
      (e: unknown) => e instanceof IridiaError && /E40[16]/.test(e.code),
    );
});

test('cyclic metadata (dx.entryPoints naming itself) is read and printed, and readDxilInfo ends (typed error or result)', () => {
  const c = parseContainer(readBytes(join(FIXTURES, 'dxil', 'gpu__color.frag.sm60.dxil')));
  const dxil = c.parts.find((p) => p.kind === 'DXIL')!;
  const bitcode = readProgramHeader(dxil.data).bitcode;
  const ctx = { part: 'DXIL', offset: 0 };
  const m0 = new ModuleReader(ctx).read(new TreeCursor(readBitcode(bitcode, 0, 'DXIL')));
  const ep = m0.named.find((n) => n.name === 'dx.entryPoints')!.ops[0]!;
  const node = m0.metadata[ep]!;
  assert.equal(node.k, 'node');
  const ops = (node as { ops: readonly number[] }).ops;
  // the entry point's signatures operand (its third) now names the entry point node itself
  const blocks = readBitcode(bitcode, 0, 'DXIL');
  let changed = 0;
  const visit = (b: BitBlock): void => {
    for (const it of b.items)
      if (isBlock(it)) visit(it);
      else if (b.id === 15 && it.code === 3 && it.ops.join() === ops.join()) {
        it.ops[2] = ep + 1;
        changed++;
      }
  };
  blocks.forEach(visit);
  assert.equal(changed, 1);
  const m = new ModuleReader(ctx).read(new TreeCursor(blocks));
  try {
    readDxilInfo(m);
  } catch (e) {
    assert.ok(e instanceof IridiaError, String(e));
  }
  const text = new ModulePrinter(m).print();
  // the printer numbers metadata itself: the entry point's line names its own number
  const n = /!dx\.entryPoints = !\{!(\d+)\}/.exec(text)?.[1];
  assert.ok(n !== undefined, 'the listing names the entry point');
  assert.match(text, new RegExp(`\\n!${n} = !\\{[^\\n]*!${n}[,}]`));
});
