// The bitstream's two ways to read (src/dxil/bitstream.ts) against each other: a BitCursor walked
// through every block hands out the records readBitcode's tree holds, in the same order, and fails
// on a broken stream with the very error readBitcode throws for it; blocks skipped by id, or met and
// never entered, are passed over as readBitcode's skip set passes them; and a module read from the
// tree (TreeCursor) is the module read from the bytes. On the DXIL fixtures, their bit-flipped
// mutants, and every 16th container of ../shared/corpus/dxil where that is present.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { IridiaError } from '../../src/errors.js';
import {
  BLOCK,
  END,
  TreeCursor,
  bitCursor,
  isBlock,
  readBitcode,
  type BitBlock,
  type BitCursor,
} from '../../src/dxil/bitstream.js';
import { ModuleReader, readModule } from '../../src/dxil/module.js';
import { ModulePrinter } from '../../src/dxil/printer.js';
import { readProgramHeader } from '../../src/dxil/program-header.js';
import { FIXTURES, readBytes, sharedPath, walk } from '../helpers/shared.js';
import { rng } from '../helpers/rng.js';

/** The bitcode of each DXIL part: the fixtures', then every 16th of the shared corpus's. */
function bitcodes(): { name: string; bitcode: Uint8Array }[] {
  const paths = walk(join(FIXTURES, 'dxil')).filter((p) => p.endsWith('.dxil'));
  const shared = sharedPath('corpus/dxil');
  if (shared !== undefined) paths.push(...walk(shared).filter((p, i) => p.endsWith('.dxil') && i % 16 === 0));
  const out: { name: string; bitcode: Uint8Array }[] = [];
  for (const p of paths) {
    const part = parseContainer(readBytes(p)).parts.find((x) => x.kind === 'DXIL');
    if (part) out.push({ name: p, bitcode: readProgramHeader(part.data).bitcode });
  }
  return out;
}

const hexOf = (b: Uint8Array | undefined): string => (b ? Buffer.from(b).toString('hex') : '-');

/** The tree as one line an event: a block's start and end, and each record. BLOCKINFO (id 0, kept
 * empty in the tree: its records are the reader's own) is left out, as the cursor leaves it out. */
function treeEvents(blocks: readonly BitBlock[]): string[] {
  const out: string[] = [];
  const visit = (b: BitBlock): void => {
    if (b.id === 0) return;
    out.push(`enter ${b.id}`);
    for (const it of b.items)
      if (isBlock(it)) visit(it);
      else out.push(`record ${it.code} ${it.abbrev} ${it.ops.join(',')} ${hexOf(it.blob)} ${[...(it.big ?? [])]}`);
    out.push('end');
  };
  blocks.forEach(visit);
  return out;
}

/** The same events from a cursor entering every block but those of `never` (met, then left). */
function cursorEvents(c: BitCursor, never: ReadonlySet<number> = new Set()): string[] {
  const out: string[] = [];
  const block = (): void => {
    for (let s = c.next(); s !== END; s = c.next()) {
      if (s === BLOCK) {
        if (never.has(c.blockId)) continue; // next() passes over a block met and not entered
        out.push(`enter ${c.blockId}`);
        c.enter();
        block();
      } else out.push(`record ${c.code} ${c.abbrev} ${c.ops.join(',')} ${hexOf(c.blob)} ${[...(c.big ?? [])]}`);
    }
    out.push('end');
  };
  while (c.nextTop() === BLOCK) {
    out.push(`enter ${c.blockId}`);
    c.enter();
    block();
  }
  return out;
}

/** What reading does: the events, or the error's code, message and offset. */
function outcome(read: () => string[]): string {
  try {
    return read().join('\n');
  } catch (e) {
    assert.ok(e instanceof IridiaError, `a typed error, not ${String(e)}`);
    return `${e.code} ${e.message} @${e.offset}`;
  }
}

const FUNCTION_BLOCKS: ReadonlySet<number> = new Set([12]);

test('bit cursor: every record of every block, in the order readBitcode holds them', () => {
  const list = bitcodes();
  assert.ok(list.length >= 5, 'the DXIL fixtures are there');
  let records = 0;
  for (const { name, bitcode } of list) {
    const want = treeEvents(readBitcode(bitcode, 0, 'DXIL'));
    const got = cursorEvents(bitCursor(bitcode, 0, 'DXIL'));
    assert.deepEqual(got, want, name);
    records += want.filter((e) => e.startsWith('record')).length;
  }
  assert.ok(records > 1000, `${records} records compared`);
});

test('bit cursor: blocks skipped by id, or met and never entered, are passed over as readBitcode skips them', () => {
  for (const { name, bitcode } of bitcodes()) {
    const want = treeEvents(readBitcode(bitcode, 0, 'DXIL', FUNCTION_BLOCKS));
    assert.ok(!want.includes('enter 12'), name);
    assert.deepEqual(cursorEvents(bitCursor(bitcode, 0, 'DXIL', FUNCTION_BLOCKS)), want, name);
    assert.deepEqual(cursorEvents(bitCursor(bitcode, 0, 'DXIL'), FUNCTION_BLOCKS), want, name);
  }
});

test('bit cursor: a broken stream fails with the error readBitcode throws for it', () => {
  // Seeded bit flips in each fixture's bitcode: the first failure in stream order is the same one.
  const random = rng(7);
  const next = (below: number): number => random() % below;
  let failed = 0;
  let read = 0;
  for (const { name, bitcode } of bitcodes().slice(0, 12)) {
    for (let k = 0; k < 40; k++) {
      const m = bitcode.slice();
      for (let f = 1 + next(3); f > 0; f--) m[4 + next(m.length - 4)]! ^= 1 << next(8);
      const want = outcome(() => treeEvents(readBitcode(m, 0, 'DXIL')));
      const got = outcome(() => cursorEvents(bitCursor(m, 0, 'DXIL')));
      assert.equal(got, want, `${name}, mutant ${k}`);
      if (want.startsWith('E4')) failed++;
      else read++;
    }
  }
  // Both kinds were met: the comparison covers failures and streams that still read.
  assert.ok(failed > 20 && read > 20, `${failed} failed, ${read} read`);
});

test('tree cursor: a module read from readBitcode tree is the module read from the bytes', () => {
  for (const { name, bitcode } of bitcodes()) {
    const ctx = { part: 'DXIL', offset: 0 };
    const fromBytes = new ModulePrinter(readModule(bitcode, ctx)).print();
    const fromTree = new ModulePrinter(
      new ModuleReader(ctx).read(new TreeCursor(readBitcode(bitcode, 0, 'DXIL'))),
    ).print();
    assert.ok(fromBytes.includes('define void @'), name);
    assert.equal(fromTree, fromBytes, name);
  }
});
