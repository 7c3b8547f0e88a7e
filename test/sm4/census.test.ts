// The `census --decode` section: instruction counts per opcode over the committed fixtures, equal to
// a direct decode, and absent without --decode.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BUILTIN_SECTIONS, Census } from '../../src/container/census.js';
import { parseContainer } from '../../src/container/container.js';
import { decodeContainerProgram, OPCODES, sm4OpcodeSection } from '../../src/sm4/index.js';
import { FIXTURES, isContainerFile, readBytes, walk } from '../helpers/shared.js';

test('census --decode counts instructions per opcode as a direct decode does', () => {
  const files = walk(join(FIXTURES, 'oracle/own')).filter((f) => f.endsWith('.dxbc') && isContainerFile(f));
  const census = new Census([...BUILTIN_SECTIONS, sm4OpcodeSection], { decode: true });
  const want = new Map<string, number>();
  let instructions = 0;
  for (const f of files) {
    const bytes = readBytes(f);
    census.add(bytes, f);
    for (const ins of decodeContainerProgram(parseContainer(bytes))?.instructions ?? []) {
      const name = OPCODES[ins.opcode]!.name;
      want.set(name, (want.get(name) ?? 0) + 1);
      instructions++;
    }
  }
  const json = census.toJSON()['sm4Opcodes'] as {
    instructions: number;
    opcodes: Record<string, { instructions: number; programs: number }>;
  };
  assert.equal(json.instructions, instructions);
  assert.ok(instructions > 1000);
  // The same count against Microsoft's listing of one fixture, by hand: ps_sample_basic main-ps_4_0's
  // listing.asm has nine instruction lines after ps_4_0, one of each opcode.
  const one = new Census([...BUILTIN_SECTIONS, sm4OpcodeSection], { decode: true });
  const basic = join(FIXTURES, 'oracle/own/ps_sample_basic/main-ps_4_0/shader.dxbc');
  one.add(readBytes(basic), basic);
  const byHand = ['dcl_constantbuffer', 'dcl_sampler', 'dcl_resource', 'dcl_input_ps', 'dcl_output', 'dcl_temps'];
  const oneJson = one.toJSON()['sm4Opcodes'] as {
    instructions: number;
    opcodes: Record<string, { instructions: number; programs: number }>;
  };
  assert.equal(oneJson.instructions, 9);
  assert.deepEqual(
    Object.fromEntries(Object.entries(oneJson.opcodes).map(([k, v]) => [k, [v.instructions, v.programs]])),
    Object.fromEntries([...byHand, 'sample', 'mul', 'ret'].map((k) => [k, [1, 1]])),
  );
  for (const [name, n] of want) assert.equal(json.opcodes[name]?.instructions, n, name);
  assert.match(census.toText(), /Shader Model 4\/5 instructions by opcode/);
  assert.equal(new Census([...BUILTIN_SECTIONS, sm4OpcodeSection], {}).toJSON()['sm4Opcodes'], undefined);
});
