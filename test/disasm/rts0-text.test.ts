// The root-signature text (src/disasm/rts0.ts) against root signatures built word by word here and
// the text DirectX Shader Compiler's printRootSignature writes for them, spelled out from its rules
// (flag names in bit order joined by |, `num32BitConstants=N` then `b` and the register with no comma,
// `, space=S` only past space 0, `, numDescriptors =N` only past one, a table's ranges each followed
// by a comma, `,visibility=SHADER_VISIBILITY_X` unless visible to all, a comma after each parameter
// and static sampler); and the disassembler's entry point giving it for a container holding RTS0 alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRts0 } from '../../src/dxil/rts0.js';
import { rootSignatureText } from '../../src/disasm/rts0.js';
import { disassembleAny } from '../../src/disasm/any.js';
import { serializeContainer } from '../../src/container/container.js';

/** Root signature 1.1 bytes: header, parameters, their payloads, static samplers (52 bytes each). */
function rts0(
  flags: number,
  params: Array<{ type: number; visibility: number; payload: number[] }>,
  samplers: Array<{ register: number; space: number; visibility: number }>,
): Uint8Array {
  const words: number[] = [2, params.length, 24, samplers.length, 0, flags];
  const paramAt = 24;
  let payloadAt = paramAt + 12 * params.length;
  const payloads: number[] = [];
  for (const p of params) {
    words.push(p.type, p.visibility, payloadAt);
    if (p.type === 0) {
      // descriptor table: [count, offset] then the ranges right after
      const ranges = p.payload;
      const n = ranges.length / 6;
      payloads.push(n, payloadAt + 8, ...ranges);
      payloadAt += 8 + 24 * n;
    } else {
      payloads.push(...p.payload);
      payloadAt += 4 * p.payload.length;
    }
  }
  words.push(...payloads);
  words[4] = 4 * words.length;
  for (const s of samplers) words.push(21, 1, 1, 1, 0, 16, 4, 2, 0, 0x7f7fffff, s.register, s.space, s.visibility);
  return new Uint8Array(new Uint32Array(words).buffer);
}

test('every kind of root parameter, visibility, space, count and flag', () => {
  const bytes = rts0(
    0x1 | 0x20 | 0x400,
    [
      // table visible to pixel: SRV t0; CBV b2 space 3, 4 of them; samplers s0.. unbounded
      { type: 0, visibility: 5, payload: [0, 1, 0, 0, 0, 0, 2, 4, 2, 3, 0, 1, 3, 0xffffffff, 0, 0, 0, 5] },
      { type: 1, visibility: 0, payload: [1, 0, 4] }, // 4 root constants at b1
      { type: 2, visibility: 1, payload: [0, 1, 0] }, // root CBV b0 space 1, vertex
      { type: 4, visibility: 0, payload: [2, 0, 0] }, // root UAV u2
      { type: 3, visibility: 6, payload: [7, 2, 0] }, // root SRV t7 space 2, amplification
    ],
    [
      { register: 3, space: 1, visibility: 0 },
      { register: 4, space: 0, visibility: 7 },
    ],
  );
  assert.equal(
    rootSignatureText(readRts0(bytes)),
    'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT|DenyPixelShaderRootAccess|CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED),' +
      'DescriptorTable(SRV(t0),CBV(b2, space=3, numDescriptors =4),Sampler(s0, numDescriptors =4294967295),,visibility=SHADER_VISIBILITY_PIXEL),' +
      'RootConstants(num32BitConstants=4b1),' +
      'CBV(b0, space=1,visibility=SHADER_VISIBILITY_VERTEX),' +
      'UAV(u2),' +
      'SRV(t7, space=2,visibility=SHADER_VISIBILITY_AMPLIFICATION),' +
      'StaticSampler(s3, space=1),StaticSampler(s4, space=0,visibility=SHADER_VISIBILITY_MESH),\n',
  );
});

test('no flags and no parameters: nothing but the newline; every flag name in bit order', () => {
  assert.equal(rootSignatureText(readRts0(rts0(0, [], []))), '\n');
  assert.equal(
    rootSignatureText(readRts0(rts0(0x1fff, [], []))),
    'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT|DenyVertexShaderRootAccess|DenyHullShaderRootAccess|' +
      'DenyDomainShaderRootAccess|DenyGeometryShaderRootAccess|DenyPixelShaderRootAccess|AllowStreamOutput|' +
      'LocalRootSignature|DenyAmplificationShaderRootAccess|DenyMeshShaderRootAccess|' +
      'CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED|SAMPLER_HEAP_DIRECTLY_INDEXED|AllowLowTierReservedHwCbLimit),\n',
  );
});

test('disassembleAny: a container holding RTS0 alone prints the root signature; a bad one is refused by name', () => {
  const data = rts0(0x1, [{ type: 1, visibility: 0, payload: [0, 0, 16] }], []);
  const c = serializeContainer([{ kind: 'RTS0', data }]);
  assert.equal(
    disassembleAny(c),
    'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT),RootConstants(num32BitConstants=16b0),\n',
  );
  const bad = serializeContainer([{ kind: 'RTS0', data: data.subarray(0, 12) }]);
  assert.throws(() => disassembleAny(bad), { name: 'IridiaError', code: 'E201_PART_TRUNCATED' });
});
