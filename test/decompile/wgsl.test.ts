// The readable WGSL (the WGSL emitter over the decompiled module, with the container's names) of
// every fixture program that lifts compiles with Tint (Dawn, npm `webgpu`, on SwiftShader).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, readBytes, walk } from '../helpers/shared.js';
import { closeWebgpu, compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { decompile, decompiledWgsl } from '../../src/decompile/index.js';
import { IridiaError } from '../../src/errors.js';

after(() => closeWebgpu());

test('Tint compiles the readable WGSL of every fixture program that lifts', { skip: webgpuSkip() }, async (t) => {
  const modules: { name: string; code: string }[] = [];
  for (const f of walk(FIXTURES)) {
    if (!f.endsWith('.dxbc')) continue;
    const bytes = readBytes(f);
    if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'DXBC') continue;
    try {
      modules.push({ name: f, code: decompiledWgsl(decompile(bytes)) });
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
    }
  }
  assert.ok(modules.length > 50);
  const results = await compileWgsl(modules.map((m) => m.code));
  const failed = results
    .map((r, i) => (r.ok ? undefined : `${modules[i]!.name}: ${r.messages.join(' | ')}`))
    .filter((x): x is string => x !== undefined);
  assert.deepEqual(failed, []);
  t.diagnostic(`Tint compiled ${results.length} readable fixture modules`);
});
