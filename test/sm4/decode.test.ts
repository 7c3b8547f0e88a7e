// The SM4/5/5.1 decoder: every SHDR/SHEX program under the oracle and the corpus decodes with no
// refusal, walking to its exact end; the committed fixtures decode to what their listings say.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { IridiaError } from '../../src/errors.js';
import { addToCensus, decodeContainerProgram, opcodeCensus, OPCODES } from '../../src/sm4/index.js';
import { FIXTURES, isContainerFile, readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';

function decodeAll(dirs: string[]): { programs: number; instructions: number; refusals: string[] } {
  let programs = 0;
  let instructions = 0;
  const refusals: string[] = [];
  for (const dir of dirs)
    for (const f of walk(dir)) {
      if (!(f.endsWith('.dxbc') || f.endsWith('.cso')) || !isContainerFile(f)) continue;
      let c;
      try {
        c = parseContainer(readBytes(f));
      } catch (e) {
        // not a readable container (a typed refusal): the container layer's business; a crash fails
        if (!(e instanceof IridiaError)) throw e;
        continue;
      }
      try {
        const p = decodeContainerProgram(c);
        if (!p) continue;
        programs++;
        instructions += p.instructions.length;
        const last = p.instructions[p.instructions.length - 1];
        assert.equal(last ? last.word + last.length : 2, p.lengthWords, `${f} walks to its end`);
      } catch (e) {
        refusals.push(`${f}: ${(e as Error).message}`);
      }
    }
  return { programs, instructions, refusals };
}

test(
  'every SHDR/SHEX program of the oracle, corpus/dxbc and corpus/dxbc-sm51 decodes with no refusal',
  { skip: skipUnlessShared('oracle') || skipUnlessShared('corpus/dxbc') || skipUnlessShared('corpus/dxbc-sm51') },
  () => {
    const r = decodeAll([sharedPath('oracle')!, sharedPath('corpus/dxbc')!, sharedPath('corpus/dxbc-sm51')!]);
    console.log(`sm4 decode: ${r.programs} programs, ${r.instructions} instructions, ${r.refusals.length} refused`);
    assert.ok(r.programs > 11000, `expected the shared programs, found ${r.programs}`);
    assert.deepEqual(r.refusals.slice(0, 20), []);
  },
);

test('the committed fixtures decode, and the census counts their opcodes', () => {
  const r = decodeAll([join(FIXTURES, 'oracle/own')]);
  assert.ok(r.programs >= 40);
  assert.deepEqual(r.refusals, []);
  const c = parseContainer(readBytes(join(FIXTURES, 'oracle/own/ps_sample_basic/main-ps_4_0/shader.dxbc')));
  const p = decodeContainerProgram(c)!;
  assert.deepEqual(
    { stage: p.version.stage, major: p.version.major, minor: p.version.minor },
    { stage: 'ps', major: 4, minor: 0 },
  );
  // dcl_constantbuffer, dcl_sampler, dcl_resource, dcl_input_ps, dcl_output, dcl_temps, sample, mul, ret
  assert.deepEqual(
    p.instructions.map((i) => OPCODES[i.opcode]!.name),
    [
      'dcl_constantbuffer',
      'dcl_sampler',
      'dcl_resource',
      'dcl_input_ps',
      'dcl_output',
      'dcl_temps',
      'sample',
      'mul',
      'ret',
    ],
  );
  const sample = p.instructions[6]!;
  assert.deepEqual(
    sample.operands.map((o) => o.type),
    [0, 1, 7, 6],
  );
  assert.deepEqual(sample.operands[1]!.swizzle, [0, 1, 0, 0]); // v1.xyxx
  const census = opcodeCensus();
  addToCensus(census, p);
  addToCensus(census, p);
  assert.equal(census.programs, 2);
  assert.equal(census.instructions, 18);
  assert.deepEqual(census.byOpcode.get('sample'), [2, 2]);
});
