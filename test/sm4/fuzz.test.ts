// Seeded corruptions of real programs (the committed fixtures): decoding and disassembling either
// succeed or refuse with an IridiaError, always terminate, and never throw anything else.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { IridiaError } from '../../src/errors.js';
import { decodeProgram, programPart } from '../../src/sm4/index.js';
import { programListing } from '../../src/disasm/disassemble.js';
import { FIXTURES, isContainerFile, readBytes, walk } from '../helpers/shared.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('4000 seeded corruptions of fixture programs: typed errors only', () => {
  const programs: Uint32Array[] = [];
  for (const f of walk(join(FIXTURES, 'oracle/own')))
    if (f.endsWith('shader.dxbc') && isContainerFile(f)) {
      const part = programPart(parseContainer(readBytes(f)));
      if (part) programs.push(new Uint32Array(part.data.slice().buffer));
    }
  assert.ok(programs.length >= 40);
  const rand = rng(0x5eed);
  let refused = 0;
  let decoded = 0;
  for (let n = 0; n < 4000; n++) {
    const w = programs[n % programs.length]!.slice();
    const edits = 1 + Math.floor(rand() * 4);
    for (let e = 0; e < edits; e++) {
      const i = 2 + Math.floor(rand() * (w.length - 2));
      const r = rand();
      if (r < 0.4) w[i] = w[i]! ^ (1 << Math.floor(rand() * 32));
      else if (r < 0.7) w[i] = Math.floor(rand() * 2 ** 32);
      else w[i] = (w[i]! & ~0x7ff) | Math.floor(rand() * 0xf0);
    }
    try {
      const p = decodeProgram(new Uint8Array(w.buffer));
      programListing(p, n & 0xf4, 0);
      decoded++;
    } catch (e) {
      assert.ok(e instanceof IridiaError, `corruption ${n}: ${String((e as Error).stack ?? e)}`);
      refused++;
    }
  }
  console.log(`sm4 fuzz: ${decoded} decoded and printed, ${refused} refused with typed errors`);
  assert.ok(refused > 0 && decoded > 0);
});
