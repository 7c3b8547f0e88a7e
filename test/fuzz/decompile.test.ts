// Fuzz findings of the decompiler (npm run fuzz -- decompile, issue 19's campaign, seed 1): an RDEF
// type Direct3D cannot declare, a matrix of 65535x65535 or 11495x40217 lanes, was walked lane by lane
// by the constant-buffer and structured-buffer views (hlsl.ts placeLanes, structuredWords): a time-out
// past 30 s of CPU, and an out-of-memory abort. Such a type is not walked now (`declarable`), and
// the lanes stop at what a constant buffer or the buffer's stride can hold. Skipped without ../shared.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { REPO, SHARED, skipUnlessShared } from '../helpers/shared.js';
import { mutant, typedOnly } from './repro.js';

const shared = (path: string): string => relative(REPO, join(SHARED, path));

const findings: { name: string; seed: string; ops: Parameters<typeof mutant>[2] }[] = [
  {
    // mutant 225900: a part duplicated, then an RDEF word made 0xffffffff: `int65535x65535 b` in a
    // constant buffer's struct (ran past 30 s of CPU)
    name: 'a constant-buffer member of type int65535x65535',
    seed: 'oracle/public/vkd3d/default-values/14-main-ps_5_0/shader.dxbc',
    ops: [
      { op: 'dup-part', r: 828317413 },
      { op: 'word', part: 0, r: 3856209219, value: 4294967295 },
    ],
  },
  {
    // mutant 890050: a structured buffer's element `float11495x40217 $Element` (out of memory)
    name: 'a structured buffer element of type float11495x40217',
    seed: 'oracle/public/vkd3d/srv-structuredbuffer/07-main-ps_5_0/shader.dxbc',
    ops: [{ op: 'word', part: 0, r: 694272691, value: 2635672807 }],
  },
];

for (const c of findings)
  test(`decompile: ${c.name} ends at once, typed or printed`, { skip: skipUnlessShared(c.seed) }, () => {
    const b = mutant('decompile', shared(c.seed), c.ops);
    const t0 = process.cpuUsage();
    typedOnly('decompile', b);
    const cpu = process.cpuUsage(t0);
    // the seed itself decompiles in well under a second; before the fix, over 30 s or out of memory
    assert.ok((cpu.user + cpu.system) / 1e6 < 10, `${(cpu.user + cpu.system) / 1e6} s of CPU`);
  });
