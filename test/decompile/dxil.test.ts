// DXIL programs take the same path (the DXIL lifter fills the same IR): the DXIL fixtures that lift
// as entry points decompile to readable modules that write the same words on the executor (one seed),
// and to HLSL that glslang accepts. Without an RDEF they get register names.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../helpers/shared.js';
import { decompile } from '../../src/decompile/index.js';
import { validateModule } from '../../src/ir/validate.js';
import { equivalence } from './harness.js';
import { census, glslang, glslangFailures } from './census.js';

const FILES = [
  'DXIL__FillTexture.comp_232c51f1.dxil',
  'd3d12__D3D12_Blit__g_BlitFrom2DArray.dxil',
  'direct3d12__D3D12_PixelShader_YUV.dxil',
  'dx12__FrameInterpolationSwapchainUiCompositionPremulVS.dxil',
  'gpu__color.frag.sm60.dxil',
].map((f) => join(FIXTURES, 'dxil', f));

test('DXIL fixtures: equivalent after decompiling, printed as HLSL that glslang accepts', (t) => {
  for (const f of FILES) {
    const d = decompile(new Uint8Array(readFileSync(f)));
    assert.deepEqual(validateModule(d.readable.module), [], f);
    assert.equal(equivalence(d.lifted, d.readable, [1]).kind, 'same', f);
  }
  const c = census(FILES, false);
  assert.equal(c.hlsl, FILES.length, [...c.refusals].join(', '));
  const tool = glslang();
  if (tool) {
    const g = glslangFailures(tool, c.entries);
    assert.deepEqual(g.failures, []);
    t.diagnostic(`glslang accepts ${g.checked} of ${g.checked} DXIL programs' HLSL`);
  }
});
