// The census (src/container/census.ts): exact counts over known fixtures, the extension point, and
// over ../shared/corpus the part-set table against the manifests' own `parts` columns.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Census, BUILTIN_SECTIONS, Tally, type CensusSection } from '../../src/container/census.js';
import { FIXTURES, readBytes, readManifest, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';

const own = (p: string): Uint8Array => readBytes(join(FIXTURES, 'oracle/own', p, 'shader.dxbc'));
const fixture = (name: string): Uint8Array => readBytes(join(FIXTURES, 'container', name));

test('census counts kinds, programs, part sets, findings, digests and refusals', () => {
  const census = new Census();
  const vs = own('vs_basic/main-vs_5_0');
  census.add(vs, 'vs');
  census.add(own('ps_sample_basic/main-ps_4_0'), 'ps');
  census.add(own('ps_abort_printf/main-ps_5_0'), 'abort');
  census.add(fixture('testgpu__cube.frag.dxil'), 'dxil');
  census.add(fixture('asm__control-flow-multi-break-with-non-idom-loop-header.dxil'), 'unsigned');
  census.add(fixture('direct3d12__SDL_shaders_d3d12__D3D12_RootSig_Color.dxil'), 'rootsig');
  const extra = new Uint8Array(vs.byteLength + 2);
  extra.set(vs);
  census.add(extra, 'extra'); // a finding: bytes after the total size
  const e = census.add(vs.subarray(0, 100), 'truncated');
  assert.equal(e?.code, 'E103_SIZE_MISMATCH');
  const j = census.toJSON();
  assert.equal(j['containers'], 7);
  assert.equal(j['refused'], 1);
  assert.deepEqual(j['kinds'], { dxbc: 4, dxil: 2, 'root-signature': 1 });
  assert.deepEqual(j['programs'], {
    stages: { ps: 3, vs: 2, '(no program: root-signature)': 1, cs: 1 },
    targets: { ps_5_0: 1, vs_5_0: 2, '(no program: root-signature)': 1, cs_6_0: 1, ps_4_0: 1, ps_6_0: 1 },
    dxilVersions: { '1.0': 2 },
  });
  const sets = j['partSets'] as { parts: string; containers: number }[];
  assert.deepEqual(sets, [
    { parts: 'RDEF ISGN OSGN SHEX STAT', containers: 3 },
    { parts: 'SFI0 ISG1 OSG1 PSV0 STAT HASH DXIL', containers: 2 },
    { parts: 'RDEF ISGN OSGN SHDR STAT', containers: 1 },
    { parts: 'RTS0', containers: 1 },
  ]);
  assert.deepEqual(j['findings'], { containers: 1, byKind: { 'extra-bytes': 1 } });
  assert.deepEqual(j['digests'], { valid: 5, unsigned: 1, stale: 1 });
  assert.deepEqual(j['errors'], { E103_SIZE_MISMATCH: 1 });
  const text = census.toText();
  assert.match(text, /^7 containers \(\d+ bytes\), 1 refused\n/);
  assert.match(text, /\n {2}3 {2}RDEF ISGN OSGN SHEX STAT\n/);
});

test('a later layer adds a section through a factory; options decide whether it takes part', () => {
  const seen: string[] = [];
  const partBytes = (opts: { decode?: boolean }): CensusSection | undefined => {
    if (!opts.decode) return undefined;
    const t = new Tally();
    return {
      name: 'partBytes',
      title: 'Bytes by part kind',
      add(c, path) {
        seen.push(path);
        for (const p of c.parts) t.add(p.kind, p.data.byteLength);
      },
      toJSON: () => t.toJSON(),
      toText: () => t.toText(),
    };
  };
  const off = new Census([...BUILTIN_SECTIONS, partBytes], {});
  off.add(own('vs_basic/main-vs_5_0'), 'a');
  assert.equal(off.toJSON()['partBytes'], undefined);
  const on = new Census([...BUILTIN_SECTIONS, partBytes], { decode: true });
  const vs = own('vs_basic/main-vs_5_0');
  on.add(vs, 'a');
  on.add(vs, 'b');
  assert.deepEqual(seen, ['a', 'b']);
  const j = on.toJSON()['partBytes'] as Record<string, number>;
  const shexSize = new DataView(vs.buffer, vs.byteOffset).getUint32(
    new DataView(vs.buffer, vs.byteOffset).getUint32(32 + 12, true) + 4,
    true,
  );
  assert.equal(j['SHEX'], 2 * shexSize);
  assert.match(on.toText(), /\nBytes by part kind:\n/);
});

test(
  'over ../shared/corpus the part sets equal the manifests’ parts columns',
  { skip: skipUnlessShared('corpus') },
  () => {
    const corpus = sharedPath('corpus')!;
    const want = new Tally();
    const census = new Census();
    const manifests = [
      { file: join(corpus, 'dxbc/MANIFEST.tsv'), base: join(corpus, 'dxbc'), col: 'parts' },
      ...walk(join(corpus, 'dxil'))
        .concat(walk(join(corpus, 'dxbc-sm51')))
        .filter((f) => f.endsWith('MANIFEST.tsv'))
        .map((file) => ({ file, base: corpus, col: 'parts' })),
    ];
    for (const m of manifests) {
      for (const row of readManifest(m.file)) {
        want.add(row[m.col]!.split(',').join(' '));
        census.add(readBytes(join(m.base, row['path']!)), row['path']!);
      }
    }
    const got = census.toJSON();
    assert.equal(got['refused'], 0);
    const sets = Object.fromEntries(
      (got['partSets'] as { parts: string; containers: number }[]).map((r) => [r.parts, r.containers]),
    );
    console.log(`census over the corpus manifests: ${census.containers} containers, ${want.size} part sets`);
    assert.deepEqual(sets, want.toJSON());
    // containers.md, "Container": version 1, parts back to back, nothing after the last, no kind
    // twice, in every container observed; the corpus keeps that invariant.
    assert.deepEqual(got['findings'], { containers: 0, byKind: {} });
  },
);
