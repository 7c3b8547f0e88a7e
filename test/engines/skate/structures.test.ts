// skate.'s four structures (src/engines/skate): reader∘writer and writer∘reader are identities on
// constructed fixtures (test/engines/skate/fixtures.ts, from the spec's tables), every field reads
// back as the spec places it (checked against hand-placed bytes, not only against the writer), and
// every malformed offset, count and pointer gives a typed error naming structure, field and offset.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  readBindingSet,
  writeBindingSet,
  readPassBinding,
  writePassBinding,
  bufferSizeOf,
  type BindingSet,
} from '../../../src/engines/skate/binding-set.js';
import { readInputLayout, writeInputLayout, elementFormat } from '../../../src/engines/skate/input-layout.js';
import {
  readRenderState,
  writeRenderState,
  rasterizerBits,
  depthStencilBits,
  f32FromBits,
  writeMaskOf,
} from '../../../src/engines/skate/render-state.js';
import { SkateError } from '../../../src/engines/skate/bytes.js';
import { IridiaError } from '../../../src/errors.js';
import * as F from './fixtures.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../helpers/shared.js';

const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

function typed(fn: () => unknown, code: string, structure: string, field: RegExp, offset: number): void {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SkateError, `a SkateError, not ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.structure, structure);
    assert.match(e.field, field);
    assert.equal(e.offset, offset, e.message);
    return;
  }
  assert.fail('no error');
}

test('binding sets: writer∘reader and reader∘writer are identities; fields sit where the spec puts them', () => {
  for (const s of [F.set0(), F.set1()]) {
    const bytes = writeBindingSet(s);
    assert.deepEqual(readBindingSet(bytes), s);
    assert.deepEqual(writeBindingSet(readBindingSet(bytes)), bytes);
  }
  const b = writeBindingSet(F.set1());
  const v = dv(b);
  assert.equal(v.getUint32(0, true), 2, 'group count at 0x0');
  assert.equal(v.getUint32(4, true), 0x20, 'group table offset at 0x4');
  assert.equal(v.getBigUint64(8, true), 0x0102030405060708n, 'unknown at 0x8');
  assert.equal(v.getBigUint64(0x10, true), 0x1122334455667788n, 'resource id at 0x10');
  assert.equal(v.getUint32(0x18, true), 0x0a0b0c0d, 'unknown at 0x18');
  assert.equal(v.getUint32(0x1c, true), 6, 'parameter count at 0x1c');
  const g1 = 0x20 + 64;
  assert.equal(v.getBigUint64(g1, true), 0xc1c2c3c4c5c6c7c8n, 'group name hash at 0x0');
  assert.equal(v.getUint32(g1 + 8, true), 2, 'resource count at 0x8');
  assert.deepEqual([...b.subarray(g1 + 0xc, g1 + 0x10)], [0x61, 0x62, 0x63, 0x64], 'flags at 0xc');
  assert.equal(v.getUint16(g1 + 0x10, true), 2, 'parameter count at 0x10');
  assert.equal(v.getUint16(g1 + 0x14, true), 0x7374, 'unknown word 1 at 0x14');
  assert.equal(v.getBigUint64(g1 + 0x18, true), 0x8182838485868788n);
  const entries = Number(v.getBigUint64(g1 + 0x30, true));
  assert.equal(v.getUint32(entries + 8, true), 1, 'second entry index');
  assert.equal(v.getUint16(entries + 12, true), 0x0506, 'marker at +4');
  assert.equal(v.getUint16(entries + 14, true), 0x0708, 'kind at +6');
  const params = Number(v.getBigUint64(g1 + 0x28, true));
  assert.equal(v.getBigUint64(params, true), 0xd1d2d3d4d5d6d7d1n, 'parameter name');
  // A constant-buffer entry: marker 0xffff, kind four times the byte size; the buffer rounds up to 16.
  const set = readBindingSet(b);
  assert.deepEqual(set.groups[0]!.entries[2], { offsetOrIndex: 128, marker: 0xffff, kind: 48 });
  assert.equal(bufferSizeOf(set.groups[0]!.entries), set.groups[0]!.bufferSizeOrResourceCount);
});

test('pass bindings: versions 1 and 0x101 round-trip; the header is four words, the id and a zero u64', () => {
  for (const version of [1, 0x101]) {
    const p = F.pass(version);
    const bytes = writePassBinding(p);
    assert.deepEqual(readPassBinding(bytes), p);
    assert.deepEqual(writePassBinding(readPassBinding(bytes)), bytes);
    const v = dv(bytes);
    assert.deepEqual(
      [v.getUint32(0, true), v.getUint32(4, true), v.getUint32(8, true), v.getUint32(12, true)],
      [version, 2, 0x20, 0],
    );
    assert.equal(v.getBigUint64(0x10, true), 0x0fedcba987654321n);
    assert.equal(v.getBigUint64(0x18, true), 0n);
  }
  const bad = writePassBinding(F.pass());
  dv(bad).setUint32(0, 2, true);
  typed(() => readPassBinding(bad), 'E804_SKATE_BAD_VALUE', 'pass binding', /^version$/, 0);
});

test('unknown bytes between tables are kept and written back, never dropped', () => {
  const s = F.set0();
  const bytes = writeBindingSet(s);
  // Grow the payload by 8 bytes of 0xee past the end of the tables: the reader keeps them as unknown.
  const grown = new Uint8Array(bytes.length + 8).fill(0xee);
  grown.set(bytes);
  const read = readBindingSet(grown);
  assert.deepEqual(read.unknown, [{ offset: bytes.length, bytes: 'ee'.repeat(8) }]);
  assert.deepEqual(writeBindingSet(read), grown);
  // A structure that leaves a byte undescribed, or writes one byte twice with two values, is refused.
  assert.throws(
    () => writeBindingSet({ ...read, unknown: [] }),
    (e: unknown) => e instanceof IridiaError && e.code === 'E109_BAD_ARGUMENT',
  );
  const clash: BindingSet = {
    ...s,
    groups: [s.groups[0]!, { ...s.groups[1]!, groupEntryTableOffset: s.groups[0]!.groupEntryTableOffset }],
  };
  assert.throws(() => writeBindingSet(clash), /already written with another value/);
});

test('binding sets and pass bindings: every bad offset and count is a typed error naming the field', () => {
  const good = writeBindingSet(F.set1());
  const mut = (f: (v: DataView) => void): Uint8Array => {
    const b = good.slice();
    f(dv(b));
    return b;
  };
  typed(() => readBindingSet(good.subarray(0, 0x1e)), 'E801_SKATE_TRUNCATED', 'binding set', /parameter count/, 0x1c);
  typed(
    () => readBindingSet(mut((v) => v.setUint32(0, 0xffffffff, true))),
    'E803_SKATE_BAD_COUNT',
    'binding set',
    /group table offset/,
    4,
  );
  typed(
    () => readBindingSet(mut((v) => v.setUint32(4, 0x10000, true))),
    'E802_SKATE_BAD_OFFSET',
    'binding set',
    /group table offset/,
    4,
  );
  const g0 = 0x20;
  typed(
    () => readBindingSet(mut((v) => v.setUint16(g0 + 0x10, 0xffff, true))),
    'E803_SKATE_BAD_COUNT',
    'binding set',
    /group 0 group-parameters offset/,
    g0 + 0x28,
  );
  typed(
    () => readBindingSet(mut((v) => v.setBigUint64(g0 + 0x28, 1n << 40n, true))),
    'E802_SKATE_BAD_OFFSET',
    'binding set',
    /group 0 group-parameters offset/,
    g0 + 0x28,
  );
  typed(
    () => readBindingSet(mut((v) => v.setBigUint64(g0 + 64 + 0x30, BigInt(good.length - 8), true))),
    'E803_SKATE_BAD_COUNT',
    'binding set',
    /group 1 group-entry table offset/,
    g0 + 64 + 0x30,
  );
  typed(
    () => readBindingSet(mut((v) => v.setBigUint64(g0 + 0x20, 0xffffffffffffffffn, true))),
    'E802_SKATE_BAD_OFFSET',
    'binding set',
    /group 0 all-parameters offset/,
    g0 + 0x20,
  );
  typed(
    () => readBindingSet(mut((v) => v.setUint32(0x1c, 1000, true))),
    'E803_SKATE_BAD_COUNT',
    'binding set',
    /group 0 all-parameters offset/,
    g0 + 0x20,
  );
  typed(
    () => readBindingSet(mut((v) => v.setBigUint64(g0 + 0x38, BigInt(good.length + 1), true))),
    'E802_SKATE_BAD_OFFSET',
    'binding set',
    /group 0 end-of-tables offset/,
    g0 + 0x38,
  );
  const p = writePassBinding(F.pass());
  const pm = (f: (v: DataView) => void): Uint8Array => {
    const b = p.slice();
    f(dv(b));
    return b;
  };
  typed(
    () => readPassBinding(pm((v) => v.setUint32(4, 3, true))),
    'E803_SKATE_BAD_COUNT',
    'pass binding',
    /group offset/,
    8,
  );
  typed(
    () => readPassBinding(pm((v) => v.setUint32(8, p.length + 4, true))),
    'E802_SKATE_BAD_OFFSET',
    'pass binding',
    /group offset/,
    8,
  );
  typed(() => readPassBinding(p.subarray(0, 0x10)), 'E801_SKATE_TRUNCATED', 'pass binding', /resource id/, 0x10);
});

test('input layouts: round trip, pointers at 4 and 0xc, 16-byte aligned arrays, DXGI format in byte 1', () => {
  const l = F.layout();
  const bytes = writeInputLayout(l);
  assert.deepEqual(readInputLayout(bytes), l);
  assert.deepEqual(writeInputLayout(readInputLayout(bytes)), bytes);
  const v = dv(bytes);
  assert.equal(v.getUint32(0, true), 4);
  assert.equal(v.getBigUint64(4, true), 0x20n, 'element table pointer (0x20 in measured resources)');
  const usage = Number(v.getBigUint64(0xc, true));
  assert.equal(usage % 16, 0);
  assert.equal(usage, Math.ceil((0x20 + 4 * 20) / 16) * 16);
  assert.deepEqual([...bytes.subarray(usage, usage + 4)], [0x10, 0x11, 0x12, 0x13]);
  assert.equal(bytes[0x20 + 2 * 20 + 0x10 + 1], F.R8G8B8A8_SNORM, 'byte 1 of the third format word');
  assert.equal(bytes[0x20 + 2 * 20 + 0x10], 0xa3, 'byte 0 kept');
  assert.equal(v.getUint32(0x20 + 20 + 4, true), 1, 'second element input slot');
  assert.equal(v.getUint32(0x20 + 2 * 20 + 8, true), 12, 'third element byte offset');
  assert.equal(elementFormat(readInputLayout(bytes).elements[3]!), F.R16G16_FLOAT);
  const mut = (f: (v: DataView) => void): Uint8Array => {
    const b = bytes.slice();
    f(dv(b));
    return b;
  };
  typed(
    () => readInputLayout(mut((x) => x.setUint32(0, 0x7fffffff, true))),
    'E803_SKATE_BAD_COUNT',
    'input layout',
    /element table pointer/,
    4,
  );
  typed(
    () => readInputLayout(mut((x) => x.setBigUint64(4, 1n << 60n, true))),
    'E802_SKATE_BAD_OFFSET',
    'input layout',
    /element table pointer/,
    4,
  );
  typed(
    () => readInputLayout(mut((x) => x.setBigUint64(0xc, BigInt(bytes.length - 2), true))),
    'E803_SKATE_BAD_COUNT',
    'input layout',
    /usage table pointer/,
    0xc,
  );
  typed(() => readInputLayout(bytes.subarray(0, 0x18)), 'E801_SKATE_TRUNCATED', 'input layout', /unknown 0x14/, 0x14);
});

test("render state: round trip of the spec's measured classes and a distinct-value payload; bits decode as the spec's table", () => {
  for (const s of [F.opaqueState(), F.shadowState(), F.decalState(), F.distinctState()]) {
    const bytes = writeRenderState(s);
    assert.deepEqual(readRenderState(bytes), s);
    assert.deepEqual(writeRenderState(readRenderState(bytes)), bytes);
  }
  const shadow = writeRenderState(F.shadowState());
  const v = dv(shadow);
  assert.equal(v.getFloat32(0x78, true), -4);
  assert.equal(v.getInt16(0x7c, true), -10);
  // b1-2 cull Front (1), b3 front counter-clockwise, b4 depth clip off: 0b01010.
  assert.equal(shadow[0x7f], 0b01010);
  // b0 depth test, b1 write, b3-5 GreaterEqual (6): 0b110011.
  assert.equal(shadow[0x80], 0b110011);
  const decal = readRenderState(writeRenderState(F.decalState()));
  assert.equal(decal.stencilReadMask, 0x08);
  assert.equal(decal.depthBias, 200);
  assert.equal(f32FromBits(decal.slopeScaledDepthBiasBits), Math.fround(0.1));
  assert.equal(decal.renderTargets[0]!.bytes, '030501050f');
  assert.equal(writeMaskOf(decal.renderTargets[1]!), 0x0f);
  assert.deepEqual(depthStencilBits(decal.depthStencilBits), {
    depthTest: true,
    depthWrite: false,
    stencilTest: true,
    depthFunc: 'GreaterEqual',
    unknownBits: 0,
  });
  const d = readRenderState(writeRenderState(F.distinctState()));
  assert.deepEqual(rasterizerBits(d.rasterizerBits), {
    fillModeBit: 1,
    cullMode: 'unknown(3)',
    frontCounterClockwise: true,
    depthClip: true,
    unknownBits: 0xe0,
  });
  assert.equal(depthStencilBits(d.depthStencilBits).depthFunc, 'Always');
  assert.equal(d.renderTargets.length, 8);
  assert.equal(
    d.unknown.reduce((n, u) => n + u.bytes.length / 2, 0),
    300 - 12 - 40,
    'every undecoded byte kept (12 bytes of fields, 40 of records)',
  );
  // NaN payloads survive: the f32 is kept as its bits.
  const nan = F.shadowState();
  const nanBytes = writeRenderState({ ...nan, slopeScaledDepthBiasBits: 0x7fa00001 });
  assert.equal(dv(nanBytes).getUint32(0x78, true), 0x7fa00001);
  assert.deepEqual(writeRenderState(readRenderState(nanBytes)), nanBytes);
  typed(() => readRenderState(shadow.subarray(0, 0x87)), 'E801_SKATE_TRUNCATED', 'render state', /payload/, 0);
  // A 148-byte payload (the smallest the spec measured) holds one whole record after 0x8c.
  assert.equal(readRenderState(shadow.subarray(0, 148)).renderTargets.length, 1);
});

test('the readers never throw anything but typed errors on truncated or corrupted input', () => {
  const inputs = [
    writeBindingSet(F.set1()),
    writePassBinding(F.pass()),
    writeInputLayout(F.layout()),
    writeRenderState(F.distinctState()),
  ];
  const readers = [readBindingSet, readPassBinding, readInputLayout, readRenderState];
  let seed = 12345;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0);
  inputs.forEach((bytes, k) => {
    for (let n = 0; n < 300; n++) {
      const b = bytes.slice(0, rnd() % (bytes.length + 1));
      for (let j = 0; j < 4 && b.length; j++) b[rnd() % b.length] = rnd() & 0xff;
      try {
        readers[k]!(b);
      } catch (e) {
        assert.ok(e instanceof IridiaError, `reader ${k}: ${String(e)}`);
      }
    }
  });
});

test('the committed files of test/fixtures/skate/constructed are the writers output of the constructed fixtures', () => {
  const dir = join(FIXTURES, 'skate/constructed');
  const files: [string, Uint8Array][] = [
    ['set0.bin', writeBindingSet(F.set0())],
    ['set1.bin', writeBindingSet(F.set1())],
    ['pass.bin', writePassBinding(F.pass())],
    ['layout.bin', writeInputLayout(F.layout())],
    ['decal-state.bin', writeRenderState(F.decalState())],
  ];
  for (const [name, bytes] of files)
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, name))), bytes, `${name} differs from its writer's output`);
  assert.equal(readRenderState(new Uint8Array(readFileSync(join(dir, 'decal-state.bin')))).stencilReadMask, 0x08);
});
