// `iridia skate ...` as a user runs it (test/cli/bin.ts): the JSON field names of each structure,
// text output, the map and census of a constructed raster permutation beside fx_normal_mapping, a
// malformed file's typed error (exit 1) and usage errors (exit 2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBindingSet, writePassBinding } from '../../../src/engines/skate/binding-set.js';
import { writeInputLayout } from '../../../src/engines/skate/input-layout.js';
import { writeRenderState } from '../../../src/engines/skate/render-state.js';
import { FIXTURES, REPO } from '../../helpers/shared.js';
import * as F from './fixtures.js';

const BIN = join(REPO, 'test/cli/bin.ts');
const tmp = mkdtempSync(join(tmpdir(), 'iridia-skate-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const perm = join(tmp, 'perm');
const file = (name: string): string => join(perm, name);
spawnSync('mkdir', ['-p', perm]);
writeFileSync(file('set0.bin'), writeBindingSet(F.set0()));
writeFileSync(file('set1.bin'), writeBindingSet(F.set1()));
writeFileSync(file('pass.bin'), writePassBinding(F.pass()));
writeFileSync(join(tmp, 'layout.bin'), writeInputLayout(F.layout()));
writeFileSync(join(tmp, 'state.bin'), writeRenderState(F.decalState()));
copyFileSync(join(FIXTURES, 'skate/fx_normal_mapping/vsmain-vs_5_0/shader.dxbc'), file('vs.dxbc'));
copyFileSync(join(FIXTURES, 'skate/fx_normal_mapping/psmain-ps_5_0/shader.dxbc'), file('ps.dxbc'));

function iridia(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, 'skate', ...args], { cwd: REPO, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const json = (...args: string[]): Record<string, unknown> => {
  const r = iridia(...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

test('skate binding-set / pass-binding / input-layout / render-state --json: the documented field names', () => {
  const s = json('binding-set', file('set1.bin'));
  assert.equal(s['groupCount'], 2);
  assert.equal(s['resourceId'], '1122334455667788');
  assert.equal(s['parameterCount'], 6);
  const g = (s['groups'] as Record<string, unknown>[])[0]!;
  assert.equal(g['nameHash'], 'a1a2a3a4a5a6a7a8');
  assert.deepEqual((g['entries'] as unknown[])[2], { offsetOrIndex: 128, marker: 0xffff, kind: 48 });
  const p = json('pass-binding', file('pass.bin'));
  assert.equal(p['version'], 0x101);
  assert.equal(p['groupOffset'], 0x20);
  const l = json('input-layout', join(tmp, 'layout.bin'));
  const e = (l['elements'] as Record<string, unknown>[])[2]!;
  assert.deepEqual(
    {
      semanticIndex: e['semanticIndex'],
      inputSlot: e['inputSlot'],
      byteOffset: e['byteOffset'],
      slotClass: e['slotClass'],
      dxgiFormat: e['dxgiFormat'],
    },
    {
      semanticIndex: 0,
      inputSlot: 0,
      byteOffset: 12,
      slotClass: 0,
      dxgiFormat: { value: 31, name: 'DXGI_FORMAT_R8G8B8A8_SNORM' },
    },
  );
  const r = json('render-state', join(tmp, 'state.bin'));
  assert.equal(r['depthBias'], 200);
  assert.equal(r['slopeScaledDepthBias'], Math.fround(0.1));
  assert.equal(r['cullMode'], 'None');
  assert.equal(r['depthFunc'], 'GreaterEqual');
  assert.equal(r['stencilReadMask'], 8);
  const text = iridia('binding-set', file('set1.bin'));
  assert.equal(text.status, 0);
  assert.match(text.stdout, /group-entry table offset +0x100/);
  assert.match(text.stdout, /unknown flags +11121314 \(unknown\)/);
});

test('skate map and census over the constructed raster permutation', () => {
  const m = json(
    'map',
    file('ps.dxbc'),
    '--sets',
    file('set0.bin'),
    file('set1.bin'),
    '--pass',
    file('pass.bin'),
    '--state',
    join(tmp, 'state.bin'),
  );
  assert.deepEqual(
    (m['declarations'] as Record<string, unknown>[]).map((d) => [d['register'], d['status']]),
    [
      ['s0', 'no source'],
      ['t0', 'entries found'],
      ['t1', 'entries found'],
      ['b0', 'size matches'],
    ],
  );
  const pipe = m['pipeline'] as { webgpu: { depthStencil: Record<string, unknown> } };
  assert.equal(pipe.webgpu.depthStencil['depthCompare'], 'greater-equal');
  const v = json(
    'map',
    file('vs.dxbc'),
    '--sets',
    file('set0.bin'),
    file('set1.bin'),
    '--pass',
    file('pass.bin'),
    '--layout',
    join(tmp, 'layout.bin'),
    '--usage',
    '0x10=POSITION,0x12=TANGENT,0x13=TEXCOORD',
  );
  assert.deepEqual((v['inputCheck'] as { counts: unknown }).counts, {
    inputs: 4,
    nameAndWidth: 3,
    eliminationAndWidth: 1,
    nameWider: 0,
    nameNarrower: 0,
    unmapped: 0,
  });
  const c = json('census', tmp);
  assert.equal(c['permutations'], 1);
  assert.equal(c['programs'], 2);
  assert.deepEqual((c['counts'] as Record<string, unknown>)['b0'], { declarations: 2, matching: 2 });
  assert.deepEqual((c['counts'] as Record<string, unknown>)['unassigned'], { s: 1 });
});

test('a malformed structure exits 1 with its typed error; usage errors exit 2', () => {
  const bad = writeBindingSet(F.set0());
  new DataView(bad.buffer).setUint32(0, 0x1000000, true);
  writeFileSync(join(tmp, 'bad.bin'), bad);
  const r = iridia('binding-set', join(tmp, 'bad.bin'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /offset 0x4: binding set: group table offset: .*\[E803_SKATE_BAD_COUNT\]/);
  assert.equal(iridia('nope', 'x').status, 2);
  assert.equal(iridia('map', file('vs.dxbc'), '--pass', file('pass.bin')).status, 2);
});
