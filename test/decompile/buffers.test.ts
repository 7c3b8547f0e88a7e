// Structured and typed buffer views in the HLSL printer (docs/decompile.md, "HLSL (hlsl.ts)"): a
// structured buffer is declared with its RDEF element type (the struct with its members; without an
// RDEF a word struct by stride), its words read and written through helpers that name the member
// holding each word; a typed buffer is Buffer<T>/RWBuffer<T> with the declaration's return type;
// hidden counters are IncrementCounter/DecrementCounter; the immediate constant buffer is a static
// const array. Each program stays equivalent on the executor and its HLSL is accepted by glslang
// (skipped by message where glslang is not installed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, SHARED, skipUnlessShared } from '../helpers/shared.js';
import { editContainer, parseContainer } from '../../src/container/container.js';
import { decompile, decompiledHlsl, type Decompiled } from '../../src/decompile/index.js';
import { equivalence } from './harness.js';
import { glslang, glslangFailures } from './census.js';

const tool = glslang();

function checked(
  path: string,
  bytes: Uint8Array = new Uint8Array(readFileSync(path)),
): { d: Decompiled; hlsl: string } {
  const d = decompile(bytes);
  const hlsl = decompiledHlsl(d);
  assert.equal(equivalence(d.lifted, d.readable).kind, 'same', path);
  if (tool) assert.deepEqual(glslangFailures(tool, [{ path, d, hlsl }]).failures, []);
  return { d, hlsl };
}

test(
  'glslang is installed for the buffer views HLSL checks',
  { skip: tool ? false : 'glslangValidator is not installed (Debian: glslang-tools)' },
  () => {
    assert.ok(tool);
  },
);

const PARTICLES = join(SHARED, 'oracle/own/cs_uav_structured/main-cs_5_0/shader.dxbc');

test(
  'a RWStructuredBuffer of a struct: the RDEF struct, members by name',
  { skip: skipUnlessShared('oracle/own') },
  () => {
    const { hlsl } = checked(PARTICLES);
    assert.match(hlsl, /struct Particle\n\{\n {4}float3 pos;\n {4}float life;\n {4}float3 vel;\n {4}uint flags;\n\};/);
    assert.match(
      hlsl,
      /\nStructuredBuffer<Particle> In\w* : register\(t0\);\nRWStructuredBuffer<Particle> Out\w* : register\(u0\);/,
    );
    // word w of the element array is element w / 8, word w % 8 of it, read as the member holding it;
    // seven of the eight words are floats, so the helpers read and write floats (the uint cast)
    assert.match(hlsl, /uint element = word \/ 8u;/);
    assert.match(hlsl, /\nfloat In\w*_word\(uint word\)\n/);
    assert.match(hlsl, /\nvoid Out\w*_store\(uint word, float value\)\n/);
    assert.match(hlsl, /if \(k == 1u\) return In\w*\[element\]\.pos\.y;/);
    assert.match(hlsl, /return asfloat\(In\w*\[element\]\.flags\);/);
    assert.match(hlsl, /else if \(k == 5u\) Out\w*\[element\]\.vel\.y = value;/);
    assert.match(hlsl, /else Out\w*\[element\]\.flags = asuint\(value\);/);
    // the IR's bounds check stays: the length in words from GetDimensions
    assert.match(hlsl, /GetDimensions\(count, stride\);\n {4}return count \* 8u;/);
  },
);

test(
  'a structured buffer without its RDEF: a struct of words by stride',
  { skip: skipUnlessShared('oracle/own') },
  () => {
    const c = parseContainer(new Uint8Array(readFileSync(PARTICLES)));
    const { hlsl } = checked(PARTICLES, editContainer(c, { op: 'remove', kind: 'RDEF' }));
    assert.match(hlsl, /struct iridia_words8\n\{\n {4}uint w\[8\];\n\};/);
    assert.match(hlsl, /\nStructuredBuffer<iridia_words8> t0 : register\(t0\);/);
    assert.match(hlsl, /\nRWStructuredBuffer<iridia_words8> u0 : register\(u0\);/);
    assert.match(hlsl, /return t0\[element\]\.w\[7\];/);
  },
);

test('a RWStructuredBuffer<uint>: words indexed directly', () => {
  const { hlsl } = checked(join(FIXTURES, 'lift/cs_prefix_sum/main-cs_5_0-zi-od/shader.dxbc'));
  assert.match(hlsl, /\nRWStructuredBuffer<uint> Buf : register\(u0\);/);
  assert.match(hlsl, /Buf\[[^\]]+\] = /);
});

test('hidden counters: IncrementCounter and DecrementCounter', () => {
  const f = join(FIXTURES, 'lift/counters/CodeGenSPIRV.method.rw-structured-buffer.counter/main-ps_5_0/shader.dxbc');
  const { hlsl } = checked(f);
  assert.match(hlsl, /\nRWStructuredBuffer<S> wCounter1 : register\(u1\);/);
  assert.match(hlsl, /uint \w+ = wCounter1\.IncrementCounter\(\);/);
  // DecrementCounter gives the count after, the IR's value is the count before
  assert.match(hlsl, /uint \w+ = wCounter2\.DecrementCounter\(\) \+ 1u;/);
});

test(
  'typed buffers: Buffer<T4> with the declared return type, RWBuffer<uint> atomics',
  { skip: skipUnlessShared('oracle/own') },
  () => {
    const own = join(SHARED, 'oracle/own');
    const typed = checked(join(own, 'tex_buffer_formats/main-ps_5_0/shader.dxbc')).hlsl;
    assert.match(typed, /\nBuffer<float4> BU : register\(t0\);/);
    assert.match(typed, /\nBuffer<int4> BI : register\(t2\);/);
    assert.match(typed, /\nBuffer<uint4> BUI : register\(t3\);/);
    // read as its declared float4 (into a float local)
    assert.match(typed, /loaded\w* = BU\[/);
    const rw = checked(join(own, 'cs_atomics_uav/psmain-ps_5_0/shader.dxbc')).hlsl;
    assert.match(rw, /\nRWBuffer<uint> TU : register\(u1\);/);
    assert.match(rw, /InterlockedAdd\(TU\[[^\]]+\], 1u, \w+\);/);
    assert.match(rw, /TU\.GetDimensions\(count\);/);
  },
);

test(
  'the immediate constant buffer: a static const array of its words',
  { skip: skipUnlessShared('oracle/own') },
  () => {
    const { hlsl } = checked(join(SHARED, 'oracle/own/icb_large/main-ps_5_0/shader.dxbc'));
    assert.match(
      hlsl,
      /\nstatic const uint4 icb\[256\] =\n\{\n {4}uint4\(0u, 0u, 0u, 0u\),\n {4}uint4\(1065353216u, 0u, 0u, 0u\),/,
    );
    assert.match(hlsl, /icb\[min\(\w+, 255u\)\]/);
  },
);
