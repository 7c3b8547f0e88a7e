// Tint (Dawn's WGSL compiler, npm `webgpu`) compiles the WGSL of every committed fixture that lifts.
// Runs whenever the WebGPU package and a driver are present (SwiftShader without a GPU).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, readBytes, walk } from '../helpers/shared.js';
import { compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { IridiaError } from '../../src/errors.js';

test('Tint compiles the WGSL of every lifted fixture', { skip: webgpuSkip() }, async () => {
  const modules: { name: string; code: string }[] = [];
  for (const f of walk(FIXTURES)) {
    if (!f.endsWith('.dxbc')) continue;
    const bytes = readBytes(f);
    if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'DXBC') continue;
    try {
      modules.push({ name: f, code: emitWgsl(lift(bytes)) });
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
    }
  }
  assert.ok(modules.length > 30);
  const results = await compileWgsl(modules.map((m) => m.code));
  const failed = results
    .map((r, i) => (r.ok ? undefined : `${modules[i]!.name}: ${r.messages.join(' | ')}`))
    .filter((x): x is string => x !== undefined);
  assert.deepEqual(failed, []);
  console.log(`Tint compiled ${results.length} fixture modules`);
});
