// The Direct3D 9 assembler's round trip (src/asm/d3d9) over every Direct3D 9 program the d3d9 tests read
// (test/asm/d3d9-programs.ts: own-d3d9's bare programs, the level-9 programs of the oracle's level_9 builds and
// of the corpus's Aon9 containers, from ../shared and from the committed fixtures):
// - with like (the original program): assembleD3D9(disassembleD3D9(p, F)) gives back p word for word, and
//   disassembleD3D9 of the result gives back the listing byte for byte, under F = 0x80, 0 and 0x24;
// - without like: the result is p's instructions without its comment blocks, word for word, and its
//   instruction-only listing without debug lines (0x50) is p's.
// Misses are named by cause (src/asm/d3d9/losses.ts) in test/known/asm-d3d9-roundtrip.txt; the causes the
// programs hold are counted and printed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeD3D9, type D3D9Program } from '../../src/d3d9/decode.js';
import { disassembleD3D9 } from '../../src/d3d9/disasm.js';
import { assembleD3D9, d3d9Losses } from '../../src/asm/d3d9/index.js';
import { IridiaError } from '../../src/errors.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { firstDifference } from '../helpers/shared.js';
import { fixturePrograms, sharedPrograms, type D3D9Case } from './d3d9-programs.js';

const SUITE = 'asm-d3d9-roundtrip';
const FLAGS = [0x80, 0, 0x24];

/** The words of a program without its comment blocks. */
function instructionWords(p: D3D9Program): Uint8Array {
  const keep: Uint8Array[] = [p.bytes.subarray(0, 4)];
  for (const r of p.records)
    if (r.kind === 'instruction') keep.push(p.bytes.subarray(r.offset, r.offset + r.words * 4));
  keep.push(p.bytes.subarray(p.endOffset, p.endOffset + 4));
  return Buffer.concat(keep);
}

/** Where two streams part: undefined when equal, else the word, the instruction and the causes the program holds. */
function difference(p: D3D9Program, want: Uint8Array, got: Uint8Array, flags: number): string | undefined {
  if (Buffer.from(want).equals(Buffer.from(got))) return undefined;
  const w = new DataView(want.buffer, want.byteOffset, want.byteLength);
  const g = new DataView(got.buffer, got.byteOffset, got.byteLength);
  let i = 0;
  while (i + 4 <= Math.min(want.byteLength, got.byteLength) && w.getUint32(i, true) === g.getUint32(i, true)) i += 4;
  const ins = p.records.find((r) => r.kind === 'instruction' && r.offset <= i && i < r.offset + r.words * 4);
  const where = ins?.kind === 'instruction' ? ` (${ins.info.name} at 0x${ins.offset.toString(16)})` : '';
  const causes = [...d3d9Losses(p, flags).keys()];
  const word = (v: DataView): string => (i + 4 <= v.byteLength ? `0x${v.getUint32(i, true).toString(16)}` : 'the end');
  return `${causes.length ? causes.join(', ') : 'no cause'}: word ${i / 4} is ${word(g)}, not ${word(w)}${where}`;
}

interface Tally {
  programs: number;
  words: number;
  exact: Map<number, number>;
  bare: number;
  causes: Map<string, number>;
  names: Set<string>;
}

function check(k: D3D9Case, failures: Map<string, string>, t: Tally): number {
  let p: D3D9Program;
  try {
    p = decodeD3D9(k.bytes);
  } catch (e) {
    // the decoder's refusals are test/d3d9's
    if (e instanceof IridiaError) return 0;
    throw e;
  }
  t.programs++;
  t.words += k.bytes.byteLength / 4;
  for (const [c, n] of d3d9Losses(p, 0)) t.causes.set(c, (t.causes.get(c) ?? 0) + n);
  const cases = (name: string, f: () => string | undefined): void => {
    t.names.add(name);
    try {
      const miss = f();
      if (miss !== undefined) failures.set(name, miss);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      failures.set(name, `${[...d3d9Losses(p, 0).keys()].join(', ') || 'no cause'}: error ${e.message.split('\n')[0]}`);
    }
  };
  for (const flags of FLAGS)
    cases(`${k.name} 0x${flags.toString(16)}`, () => {
      const listing = disassembleD3D9(k.bytes, flags);
      const a = assembleD3D9(listing, { like: p });
      const d = difference(p, k.bytes, a.bytes, flags);
      if (d === undefined) t.exact.set(flags, (t.exact.get(flags) ?? 0) + 1);
      return d ?? firstDifference(disassembleD3D9(a.bytes, flags), listing)?.replace(/\n/g, ' | ');
    });
  cases(`${k.name} bare`, () => {
    const listing = disassembleD3D9(k.bytes, 0x80);
    const a = assembleD3D9(listing);
    const d = difference(p, instructionWords(p), a.bytes, 0x80);
    if (d === undefined) t.bare++;
    return d ?? firstDifference(disassembleD3D9(a.bytes, 0x50), disassembleD3D9(k.bytes, 0x50));
  });
  return FLAGS.length + 1;
}

test('assembleD3D9(disassembleD3D9(p)) gives back every Direct3D 9 program word for word, and the listing byte for byte', () => {
  const fixtures = fixturePrograms();
  const shared = sharedPrograms();
  if (shared.missing.length)
    console.log(`${SUITE}: ../shared/${shared.missing.join(', ../shared/')} absent: those programs are not run`);
  const failures = new Map<string, string>();
  const t: Tally = { programs: 0, words: 0, exact: new Map(), bare: 0, causes: new Map(), names: new Set() };
  let total = 0;
  const run = [...fixtures, ...shared.cases];
  for (const k of run) total += check(k, failures, t);
  const causes = [...t.causes].map(([c, n]) => `${c} ${n}`).join(', ') || 'none';
  console.log(
    `asm-d3d9 round trip: ${t.programs} programs, ${t.words} words; word for word with like: ` +
      FLAGS.map((f) => `0x${f.toString(16)} listing ${t.exact.get(f) ?? 0}`).join(', ') +
      `; without like (no comments): ${t.bare}; fields the flag-0 listing cannot hold: ${causes}`,
  );
  const scope = shared.missing.length ? t.names : undefined;
  reportAgainstKnown(SUITE, { total, failures, ...(scope ? { scope } : {}) });
  assert.ok(t.programs >= fixtures.length && (t.exact.get(0x80) ?? 0) > 0, 'no program assembled');
});
