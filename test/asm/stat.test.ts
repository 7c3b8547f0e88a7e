// STAT's count words (src/asm/stat.ts): each rule, applied to the program of every container of
// ../shared with a STAT part, gives the word fxc wrote. A rule that missed once would not be used.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContainer } from '../../src/container/container.js';
import { decodeContainerProgram } from '../../src/sm4/census.js';
import { STAT_RULES } from '../../src/asm/stat.js';
import { STAT_WORDS } from '../../src/parts/stat.js';
import { IridiaError } from '../../src/errors.js';
import { readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';

test(
  'every STAT word the assembler recomputes is the word fxc wrote, over ../shared',
  { skip: skipUnlessShared('oracle') },
  () => {
    const misses = new Map<string, string>();
    let programs = 0;
    for (const sub of ['oracle', 'corpus/dxbc', 'corpus/dxbc-sm51']) {
      const root = sharedPath(sub);
      if (root === undefined) continue;
      for (const f of walk(root)) {
        if (!f.endsWith('.dxbc')) continue;
        let c;
        let p;
        try {
          c = parseContainer(readBytes(f));
          p = decodeContainerProgram(c);
        } catch (e) {
          if (e instanceof IridiaError) continue;
          throw e;
        }
        const stat = c.parts.find((x) => x.kind === 'STAT');
        if (p === undefined || stat === undefined) continue;
        programs++;
        const v = new DataView(stat.data.buffer, stat.data.byteOffset, stat.data.byteLength);
        const n = Math.min(stat.data.byteLength >>> 2, STAT_WORDS.length);
        for (let i = 0; i < n; i++) {
          const rule = STAT_RULES[STAT_WORDS[i]!];
          if (rule === undefined) continue;
          const want = v.getUint32(i * 4, true);
          const got = rule(p);
          if (got !== want) misses.set(`${STAT_WORDS[i]}`, `${f}: ${got}, fxc wrote ${want}`);
        }
      }
    }
    console.log(`asm STAT rules: ${Object.keys(STAT_RULES).length} words checked over ${programs} programs`);
    assert.ok(programs > 1000);
    assert.deepEqual([...misses], []);
  },
);
