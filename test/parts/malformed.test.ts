// Malformed parts built from real fixtures: a string offset outside the part, a count past its
// end, a type tree that loops or nests absurdly deep, a record size that contradicts the names,
// truncation. Each is a typed IridiaError with the expected code, never a crash, a hang or an
// allocation sized by the bad field; and random corruption of every part of every fixture gives
// either a result or an IridiaError.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { IridiaError, type ErrorCode } from '../../src/errors.js';
import { editContainer, parseContainer, type Container } from '../../src/container/container.js';
import { readSignature } from '../../src/parts/signature.js';
import { readRdef } from '../../src/parts/rdef.js';
import { readStat } from '../../src/parts/stat.js';
import { readSfi0 } from '../../src/parts/sfi0.js';
import { readIfce } from '../../src/parts/ifce.js';
import { readAon9 } from '../../src/parts/aon9.js';
import { reflect } from '../../src/reflect/reflection.js';
import { d3dReflectJson } from '../../src/reflect/d3d.js';
import { listingHeader } from '../../src/disasm/header.js';
import { FIXTURES, readBytes, walk } from '../helpers/shared.js';
import { fixture, partData } from './helpers.js';
import { rng } from '../helpers/rng.js';

function throwsCode(f: () => unknown, code: ErrorCode, what: string): IridiaError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof IridiaError, `${what}: expected an IridiaError, got ${String(e)}`);
    assert.equal(e.code, code, `${what}: ${e.message}`);
    return e;
  }
  assert.fail(`${what}: expected ${code}, but it read`);
}

const copy = (b: Uint8Array): Uint8Array => new Uint8Array(b);
const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
const setU32 = (b: Uint8Array, at: number, v: number): void => view(b).setUint32(at, v >>> 0, true);
const getU32 = (b: Uint8Array, at: number): number => view(b).getUint32(at, true);

test('signature: count past the end, name outside the part, record size contradicting the names, truncation', () => {
  const isgn = partData(fixture('oracle/own/vs_basic/main-vs_5_0/shader.dxbc'), 'ISGN');
  const huge = copy(isgn);
  setU32(huge, 0, 0x7fffffff);
  throwsCode(() => readSignature('ISGN', huge), 'E203_PART_BAD_COUNT', 'count 0x7fffffff');
  const outside = copy(isgn);
  setU32(outside, 8, isgn.byteLength + 100);
  throwsCode(() => readSignature('ISGN', outside), 'E204_PART_BAD_STRING', 'name offset outside');
  // The same bytes read as a 28- or 32-byte layout: the first name no longer starts after the records.
  throwsCode(() => readSignature('OSG5', isgn), 'E207_PART_BAD_VALUE', 'ISGN read as OSG5');
  throwsCode(() => readSignature('ISG1', isgn), 'E207_PART_BAD_VALUE', 'ISGN read as ISG1');
  const isg1 = partData(fixture('reflect/own/hs_minprec/main-hs_5_0/shader.dxbc'), 'ISG1');
  throwsCode(() => readSignature('ISGN', isg1), 'E207_PART_BAD_VALUE', 'ISG1 read as ISGN');
  throwsCode(() => readSignature('ISGN', isgn.subarray(0, 6)), 'E201_PART_TRUNCATED', 'truncated header');
  throwsCode(() => readSignature('ISGN', isgn.subarray(0, 40)), 'E203_PART_BAD_COUNT', 'records cut off');
});

/** The 5.0 RDEF of rdef_types and the offsets of its first struct variable and type. */
function rdefWithStruct(): { data: Uint8Array; varAt: number; typeAt: number; memberAt: number } {
  const data = copy(partData(fixture('oracle/own/rdef_types/main-ps_5_0/shader.dxbc'), 'RDEF'));
  const cbOffset = getU32(data, 4);
  const varCount = getU32(data, cbOffset + 4);
  const varOffset = getU32(data, cbOffset + 8);
  for (let i = 0; i < varCount; i++) {
    const varAt = varOffset + 40 * i;
    const typeAt = getU32(data, varAt + 16);
    if (view(data).getUint16(typeAt, true) === 5) return { data, varAt, typeAt, memberAt: getU32(data, typeAt + 12) };
  }
  throw new Error('rdef_types has a struct variable');
}

test('RDEF: strings outside the part, counts past its end, bad record sizes, truncation', () => {
  const base = partData(fixture('oracle/own/rdef_types/main-ps_5_0/shader.dxbc'), 'RDEF');
  const creator = copy(base);
  setU32(creator, 24, base.byteLength + 4);
  throwsCode(() => readRdef(creator), 'E204_PART_BAD_STRING', 'creator offset outside');
  const cbName = copy(base);
  setU32(cbName, getU32(base, 4), 0xfffffff0);
  throwsCode(() => readRdef(cbName), 'E204_PART_BAD_STRING', 'buffer name offset outside');
  const cbCount = copy(base);
  setU32(cbCount, 0, 0x10000000);
  throwsCode(() => readRdef(cbCount), 'E203_PART_BAD_COUNT', 'constant buffer count');
  const bindCount = copy(base);
  setU32(bindCount, 8, 0xffffffff);
  throwsCode(() => readRdef(bindCount), 'E203_PART_BAD_COUNT', 'binding count');
  const varCount = copy(base);
  setU32(varCount, getU32(base, 4) + 4, 0x0fffffff);
  throwsCode(() => readRdef(varCount), 'E203_PART_BAD_COUNT', 'variable count');
  const sizes = copy(base);
  setU32(sizes, 40, 24); // the binding record size of the RD11 block
  throwsCode(() => readRdef(sizes), 'E207_PART_BAD_VALUE', 'RD11 binding size 24');
  const { data, varAt, typeAt } = rdefWithStruct();
  const members = copy(data);
  view(members).setUint16(typeAt + 10, 0xffff, true);
  throwsCode(() => readRdef(members), 'E203_PART_BAD_COUNT', 'member count');
  const defaults = copy(data);
  setU32(defaults, varAt + 20, data.byteLength - 2);
  throwsCode(() => readRdef(defaults), 'E202_PART_BAD_OFFSET', 'default value past the end');
  throwsCode(() => readRdef(base.subarray(0, 20)), 'E201_PART_TRUNCATED', 'truncated header');
});

test('RDEF: a type tree that contains itself is E205', () => {
  const { data, typeAt, memberAt } = rdefWithStruct();
  setU32(data, memberAt + 4, typeAt); // the first member's type is the struct itself
  throwsCode(() => readRdef(data), 'E205_PART_LOOP', 'self-containing struct');
});

test('RDEF: a type tree nested 200 deep is E206, and a shared tree that expands without bound is refused', () => {
  const { data, varAt, memberAt } = rdefWithStruct();
  const nameOffset = getU32(data, memberAt); // a real member name
  const depth = 200;
  const start = (data.byteLength + 3) & ~3;
  const grown = new Uint8Array(start + depth * (36 + 12));
  grown.set(data);
  for (let k = 0; k < depth; k++) {
    const typeAt = start + k * 48;
    const memberRec = typeAt + 36;
    const dv = view(grown);
    dv.setUint16(typeAt, 5, true); // struct
    dv.setUint16(typeAt + 4, 1, true);
    dv.setUint16(typeAt + 6, 1, true);
    dv.setUint16(typeAt + 10, k + 1 < depth ? 1 : 0, true);
    setU32(grown, typeAt + 12, memberRec);
    setU32(grown, memberRec, nameOffset);
    setU32(grown, memberRec + 4, typeAt + 48);
  }
  setU32(grown, varAt + 16, start);
  throwsCode(() => readRdef(grown), 'E206_PART_TOO_DEEP', 'a chain of 200 structs');

  // 40 levels, each struct with two members naming the same child: 2^40 nodes once expanded.
  const levels = 40;
  const wide = new Uint8Array(start + levels * (36 + 24));
  wide.set(data);
  for (let k = 0; k < levels; k++) {
    const typeAt = start + k * 60;
    const dv = view(wide);
    dv.setUint16(typeAt, 5, true);
    dv.setUint16(typeAt + 4, 1, true);
    dv.setUint16(typeAt + 6, 1, true);
    dv.setUint16(typeAt + 10, k + 1 < levels ? 2 : 0, true);
    setU32(wide, typeAt + 12, typeAt + 36);
    for (const m of [0, 1]) {
      setU32(wide, typeAt + 36 + 12 * m, nameOffset);
      setU32(wide, typeAt + 36 + 12 * m + 4, typeAt + 60);
    }
  }
  setU32(wide, varAt + 16, start);
  const rdef = readRdef(wide); // shared records are read once
  assert.ok(rdef.constantBuffers.length > 0);
  const c = fixture('oracle/own/rdef_types/main-ps_5_0/shader.dxbc');
  const edited = parseContainer(editContainer(c, { op: 'replace', kind: 'RDEF', data: wide }));
  const refl = reflect(edited);
  throwsCode(() => d3dReflectJson(refl), 'E206_PART_TOO_DEEP', 'the D3D view of a 2^40-node tree');
  throwsCode(() => listingHeader(edited, 0), 'E206_PART_TOO_DEEP', 'the header of a 2^40-node tree');
});

test('STAT, SFI0, IFCE and Aon9: truncation and counts past the end', () => {
  const stat = partData(fixture('oracle/own/vs_basic/main-vs_5_0/shader.dxbc'), 'STAT');
  throwsCode(() => readStat(stat.subarray(0, 100)), 'E207_PART_BAD_VALUE', 'STAT of 25 words');
  const sfi = partData(fixture('oracle/own/rdef_types/main-ps_5_0/shader.dxbc'), 'SFI0');
  throwsCode(() => readSfi0(sfi.subarray(0, 6)), 'E201_PART_TRUNCATED', 'SFI0 of 6 bytes');
  const ifce = partData(fixture('oracle/own/ifce_basic/main-ps_5_0/shader.dxbc'), 'IFCE');
  for (const [at, what] of [
    [0, 'instance count'],
    [4, 'class type count'],
    [8, 'slot record count'],
  ] as const) {
    const bad = copy(ifce);
    setU32(bad, at, 0x40000000);
    throwsCode(() => readIfce(bad), 'E203_PART_BAD_COUNT', `IFCE ${what}`);
  }
  const slotName = copy(ifce);
  setU32(slotName, getU32(ifce, 20), ifce.byteLength);
  throwsCode(() => readIfce(slotName), 'E204_PART_BAD_STRING', 'IFCE class name outside');
  const aon9 = partData(fixture('oracle/own/ps_level9_consts/vsmain-vs_4_0_level_9_3-zi-gec/shader.dxbc'), 'Aon9');
  const program = copy(aon9);
  setU32(program, 8, 0x7fffffff);
  throwsCode(() => readAon9(program), 'E202_PART_BAD_OFFSET', 'Aon9 program size');
  const rows = copy(aon9);
  view(rows).setUint16(16, 0xffff, true);
  throwsCode(() => readAon9(rows), 'E203_PART_BAD_COUNT', 'Aon9 constant range count');
  throwsCode(() => readAon9(aon9.subarray(0, 10)), 'E201_PART_TRUNCATED', 'Aon9 of 10 bytes');
});

test('random corruption of every part iridia reads, in every fixture: a result or an IridiaError', () => {
  const kinds = new Set([
    'RDEF',
    'ISGN',
    'OSGN',
    'PCSG',
    'OSG5',
    'ISG1',
    'OSG1',
    'PSG1',
    'STAT',
    'SFI0',
    'IFCE',
    'Aon9',
  ]);
  const files = walk(FIXTURES).filter((f) => f.endsWith('.dxbc') && !f.includes('/debug/'));
  let runs = 0;
  let refused = 0;
  const next = rng(0x1d1a);
  for (const file of files) {
    let c: Container;
    try {
      c = parseContainer(readBytes(file));
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e; // a typed refusal (a bare fx_5_0 effect): no parts
      continue;
    }
    for (const part of c.parts.filter((p) => kinds.has(p.kind))) {
      for (let trial = 0; trial < 12; trial++) {
        const data = copy(part.data);
        const flips = 1 + (next() % 4);
        for (let k = 0; k < flips && data.byteLength; k++) {
          const at = next() % data.byteLength;
          data[at] = trial % 3 === 0 ? 0xff : next() & 0xff;
        }
        const cut = trial % 4 === 3 ? data.subarray(0, next() % (data.byteLength + 1)) : data;
        const edited = parseContainer(editContainer(c, { op: 'replace', kind: part.kind, data: cut }));
        runs++;
        try {
          JSON.stringify(d3dReflectJson(reflect(edited)));
          listingHeader(edited, 0);
        } catch (e) {
          assert.ok(e instanceof IridiaError, `${join(file)} ${part.kind} trial ${trial}: ${String(e)}`);
          refused++;
        }
      }
    }
  }
  assert.ok(runs > 1000, `ran ${runs} corruptions`);
  assert.ok(refused > 0 && refused < runs, `${refused} of ${runs} refused`);
});
