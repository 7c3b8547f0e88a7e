// Every part of a DXIL container decoded: the fixtures' values checked field by field, and every
// container of ../shared/corpus/dxil read without a refusal, its program header checked against
// the corpus manifest (shader model, stage, DXIL version) and its module's dx.shaderModel.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { readDxilContainer } from '../../src/dxil/dxil-container.js';
import { readDxilInfo } from '../../src/dxil/dxil-metadata.js';
import { dxOpCensus } from '../../src/dxil/dxop.js';
import { FIXTURES, readBytes, readManifest, sharedPath, skipUnlessShared } from '../helpers/shared.js';

const fixture = (name: string) => readDxilContainer(parseContainer(readBytes(join(FIXTURES, 'dxil', name))));

test('dxil parts: RTS0 1.1 of SDL root signature', () => {
  const rs = fixture('direct3d12__D3D12_RootSig_Texture.dxil').rootSignature!;
  assert.equal(rs.versionText, '1.1');
  assert.equal(rs.flags, 29);
  assert.deepEqual(
    rs.parameters.map((p) => p.type),
    ['constants', 'constants', 'table', 'table'],
  );
  const p1 = rs.parameters[1]!;
  assert.ok(p1.type === 'constants' && p1.num32BitValues === 28 && p1.shaderRegister === 1);
  const t = rs.parameters[3]!;
  assert.ok(t.type === 'table' && t.visibility === 5 && t.ranges[0]!.rangeType === 3);
  assert.equal(t.type === 'table' && t.ranges[0]!.offsetInDescriptorsFromTableStart, 0xffffffff);
});

test('dxil parts: RDAT of a 6.8 library (resources, functions, node tables)', () => {
  const c = fixture('runtime-tests__test_910b3693.dxil');
  const r = c.runtimeData!;
  assert.equal(r.version, 0x10);
  assert.deepEqual(
    r.resources.map((x) => [x.name, x.cls, x.kind, x.lowerBound]),
    [
      ['RWBuf0', 1, 12, 1],
      ['RWBuf1', 1, 12, 2],
    ],
  );
  assert.deepEqual(
    r.functions.map((f) => [f.name, f.shaderKind]),
    [
      ['entry', 15],
      ['node1', 15],
      ['node2', 15],
    ],
  );
  assert.ok(r.tables.some((t) => t.name === 'NodeShaderInfoTable' && t.recordCount === 3));
  const h = c.program!.header;
  assert.deepEqual([h.kind, h.major, h.minor, h.dxilMajor, h.dxilMinor, h.bitcodeOffset], ['lib', 6, 8, 1, 8, 16]);
});

test('dxil parts: PSV0 version 3 of a compute program, and its dx.op census', () => {
  const c = fixture('DXIL__FillTexture.comp_232c51f1.dxil');
  const p = c.psv!;
  assert.equal(p.version, 3);
  assert.deepEqual(p.numThreads, [8, 8, 1]);
  assert.equal(p.entryFunctionName, 'main');
  assert.equal(p.shaderStage, 5);
  assert.deepEqual(p.resources, [{ type: 6, space: 1, lowerBound: 0, upperBound: 0, kind: 2, flags: 0 }]);
  const census = dxOpCensus(c.program!.module);
  assert.ok(census.some((x) => x.name === 'TextureStore' && x.opcode === 67));
  assert.ok(census.some((x) => x.name === 'ThreadId' && x.opcode === 93));
  const info = readDxilInfo(c.program!.module);
  assert.deepEqual([info.shaderKind, info.shaderMajor, info.shaderMinor], ['cs', 6, 0]);
  assert.deepEqual(info.entryPoints[0]!.numThreads, [8, 8, 1]);
});

test(
  'dxil parts: every corpus container decodes, headers agree with the manifest',
  { skip: skipUnlessShared('corpus/dxil') },
  () => {
    const root = sharedPath('corpus/dxil')!;
    let n = 0;
    const refused: string[] = [];
    const mismatched: string[] = [];
    for (const d of readdirSync(root, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      for (const row of readManifest(join(root, d.name, 'MANIFEST.tsv'))) {
        const path = join(root, '..', row['path']!);
        n++;
        let c;
        try {
          c = readDxilContainer(parseContainer(readBytes(path)));
        } catch (e) {
          refused.push(`${row['path']}: ${(e as Error).message}`);
          continue;
        }
        const parts = row['parts']!.split(',');
        for (const k of parts) {
          const have =
            (k === 'DXIL' && c.program) ||
            (k === 'STAT' && c.reflection) ||
            (k === 'ILDB' && c.debug) ||
            (k === 'PSV0' && c.psv) ||
            (k === 'RTS0' && c.rootSignature) ||
            (k === 'RDAT' && c.runtimeData) ||
            (k === 'SFI0' && c.features) ||
            (k === 'HASH' && c.hash) ||
            (k === 'ILDN' && c.debugName) ||
            (k === 'VERS' && c.compilerVersion) ||
            (k === 'SRCI' && c.sourceInfo) ||
            ((k === 'ISG1' || k === 'OSG1' || k === 'PSG1') && c.signatures[k]);
          if (!have) mismatched.push(`${row['path']}: part ${k} not decoded`);
        }
        const prog = c.program ?? c.debug;
        if (prog) {
          const h = prog.header;
          if (`${h.major}.${h.minor}` !== row['shader_model'] || h.kind !== row['stage'])
            mismatched.push(
              `${row['path']}: program ${h.kind} ${h.major}.${h.minor}, manifest ${row['stage']} ${row['shader_model']}`,
            );
          if (`${h.dxilMajor}.${h.dxilMinor}` !== row['dxil_version'])
            mismatched.push(`${row['path']}: DXIL ${h.dxilMajor}.${h.dxilMinor}, manifest ${row['dxil_version']}`);
          const info = readDxilInfo(prog.module);
          if (info.shaderKind !== h.kind || info.shaderMajor !== h.major || info.shaderMinor !== h.minor)
            mismatched.push(
              `${row['path']}: dx.shaderModel ${info.shaderKind} ${info.shaderMajor}.${info.shaderMinor}`,
            );
        }
      }
    }
    console.log(
      `dxil parts: ${n - refused.length}/${n} containers decoded; ${mismatched.length} disagreements with the manifest`,
    );
    assert.equal(n, 1120);
    assert.deepEqual(refused, []);
    assert.deepEqual(mismatched, []);
  },
);

test(
  'dxil parts: PSV0, the signature parts and the module metadata agree',
  { skip: skipUnlessShared('corpus/dxil') },
  () => {
    const root = sharedPath('corpus/dxil')!;
    let n = 0;
    const disagreements: string[] = [];
    for (const d of readdirSync(root, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      for (const f of readdirSync(join(root, d.name)).filter((x) => x.endsWith('.dxil'))) {
        const c = readDxilContainer(parseContainer(readBytes(join(root, d.name, f))));
        if (!c.program || !c.psv) continue;
        n++;
        const psv = c.psv;
        const ep = readDxilInfo(c.program.module).entryPoints[0];
        // Buffers and bindings live in the reflection module (STAT) when the program's is stripped.
        const refl = readDxilInfo((c.reflection ?? c.program).module);
        const arbitrary = (xs: readonly { name: string; semanticKind: number }[]): string =>
          xs
            .filter((e) => e.semanticKind === 0)
            .map((e) => e.name)
            .join(',');
        const checks: [string, unknown, unknown][] = [
          [
            'resources',
            psv.resources.length,
            refl.cbuffers.length + refl.samplers.length + refl.srvs.length + refl.uavs.length,
          ],
          [
            'ISG1 elements',
            c.signatures.ISG1?.elements.length ?? 0,
            ep?.inputs.reduce((a, e) => a + e.indices.length, 0) ?? 0,
          ],
          [
            'OSG1 elements',
            c.signatures.OSG1?.elements.length ?? 0,
            ep?.outputs.reduce((a, e) => a + e.indices.length, 0) ?? 0,
          ],
        ];
        if (psv.version >= 1)
          checks.push(
            ['inputs', psv.sigInputElements, ep?.inputs.length ?? 0],
            ['outputs', psv.sigOutputElements, ep?.outputs.length ?? 0],
            ['patch constant', psv.sigPatchConstOrPrimElements, ep?.patchConstant.length ?? 0],
            // PSV0 names only arbitrary semantics; system values go by their kind.
            [
              'input names',
              arbitrary(psv.inputs),
              arbitrary(ep?.inputs.map((e) => ({ name: e.name, semanticKind: e.semanticKind })) ?? []),
            ],
          );
        for (const [what, a, b] of checks)
          if (a !== b) disagreements.push(`${d.name}/${f}: ${what} ${String(a)} vs ${String(b)}`);
      }
    }
    console.log(
      `dxil parts: PSV0 / signatures / metadata cross-checked on ${n} programs, ${disagreements.length} disagreements`,
    );
    assert.ok(n > 900);
    assert.deepEqual(disagreements, []);
  },
);

test(
  'dxil parts: PSV0 input-to-output tables equal the module dx.viewIdState',
  { skip: skipUnlessShared('corpus/dxil') },
  () => {
    // Both are, for each input scalar, a bit per output scalar in 32-bit words; the module's counts
    // scalars, PSV0's vectors of four. Programs with one output stream and no patch constants.
    const root = sharedPath('corpus/dxil')!;
    let compared = 0;
    const differ: string[] = [];
    for (const d of readdirSync(root, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      for (const f of readdirSync(join(root, d.name)).filter((x) => x.endsWith('.dxil'))) {
        const c = readDxilContainer(parseContainer(readBytes(join(root, d.name, f))));
        const psv = c.psv;
        if (!c.program || !psv || psv.version < 1) continue;
        const v = readDxilInfo((c.reflection ?? c.program).module).viewIdState;
        if (!v || [2, 3, 4, 13].includes(psv.shaderStage!)) continue;
        const [ni, no] = [v[0]!, v[1]!];
        const words = Math.ceil(no / 32);
        const at = 2 + (psv.usesViewID ? words : 0);
        const inputs = psv.sigInputVectors! * 4;
        const pw = (psv.sigOutputVectors![0]! + 7) >> 3;
        const t = psv.inputToOutput[0] ?? [];
        let same = true;
        for (let i = 0; i < Math.max(ni, inputs); i++)
          for (let w = 0; w < Math.max(words, pw); w++) {
            const a = i < ni && w < words ? v[at + i * words + w]! : 0;
            const b = i < inputs && w < pw ? (t[i * pw + w] ?? 0) : 0;
            if (a !== b) same = false;
          }
        compared++;
        if (!same) differ.push(`${d.name}/${f}`);
      }
    }
    console.log(
      `dxil parts: PSV0 dependency tables compared with dx.viewIdState on ${compared} programs, ${differ.length} differ`,
    );
    assert.ok(compared > 400);
    assert.deepEqual(differ, []);
  },
);
