// An outside check of the digest (containers.md, "Container": vkd3d's reader checks the digest unless
// told not to): vkd3d-compiler takes the stock fixtures, refuses them once one byte of a part is
// changed (RDEF's creator string, or a STAT counter), and takes them again once signContainer has
// recomputed the digest. Skipped, with a message, where vkd3d-compiler is not installed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseContainer, signContainer, digestState, findPart } from '../../src/container/container.js';
import { FIXTURES, readBytes, walk } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';

const probe = spawnSync('vkd3d-compiler', ['--version'], { encoding: 'utf8' });
const skip = needs(probe.error ? 'vkd3d-compiler is not installed (.ci/run installs Debian’s vkd3d-compiler)' : false);

/** Runs vkd3d-compiler dxbc-tpf -> spirv-binary on the bytes; returns its status and stderr. */
function vkd3d(dir: string, bytes: Uint8Array): { ok: boolean; stderr: string } {
  const input = join(dir, 'in.dxbc');
  writeFileSync(input, bytes);
  const r = spawnSync('vkd3d-compiler', ['-x', 'dxbc-tpf', '-b', 'spirv-binary', '-o', join(dir, 'out.spv'), input], {
    encoding: 'utf8',
  });
  return { ok: r.status === 0, stderr: r.stderr };
}

/** One byte changed inside a part: a letter of RDEF's creator string, else STAT's first counter. */
function corrupt(bytes: Uint8Array): Uint8Array | undefined {
  const c = parseContainer(bytes);
  const out = bytes.slice();
  const rdef = findPart(c, 'RDEF');
  if (rdef) {
    const creatorAt = new DataView(rdef.data.buffer, rdef.data.byteOffset).getUint32(24, true);
    const at = rdef.offset + 8 + creatorAt;
    if (out[at] === 0x4d) {
      out[at] = 0x6d; // 'Microsoft' -> 'microsoft'
      return out;
    }
  }
  const stat = findPart(c, 'STAT');
  if (stat && stat.data.byteLength >= 4) {
    out[stat.offset + 8] = out[stat.offset + 8]! ^ 1;
    return out;
  }
  return undefined;
}

test('vkd3d-compiler refuses a stale digest and accepts the container re-signed', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-vkd3d-'));
  try {
    // the debug-layer builds (abort, printf) are stale as fxc writes them
    const files = walk(join(FIXTURES, 'oracle/own')).filter(
      (f) => f.endsWith('shader.dxbc') && !f.includes('abort') && !f.includes('printf_escapes'),
    );
    let checked = 0;
    const notTaken: string[] = [];
    for (const f of files) {
      const stock = readBytes(f);
      if (!vkd3d(dir, stock).ok) {
        notTaken.push(f.slice(FIXTURES.length + 1)); // a program vkd3d 1.x cannot compile: not a digest matter
        continue;
      }
      const bad = corrupt(stock);
      if (bad === undefined) continue;
      assert.equal(digestState(parseContainer(bad)), 'stale');
      const refused = vkd3d(dir, bad);
      assert.equal(refused.ok, false, `${f}: vkd3d-compiler took a stale digest`);
      assert.match(refused.stderr, /checksum/i, f);
      const resigned = signContainer(bad);
      assert.equal(digestState(parseContainer(resigned)), 'valid');
      const taken = vkd3d(dir, resigned);
      assert.ok(taken.ok, `${f}: vkd3d-compiler refused the re-signed container: ${taken.stderr}`);
      checked++;
    }
    console.log(
      `vkd3d-compiler: ${checked} containers refused stale and taken re-signed; ${notTaken.length} not compiled by it even stock`,
    );
    // 94 committed containers (the debug-layer builds aside): 83 compile with vkd3d-compiler, 11 it
    // does not take even stock.
    assert.equal(checked, 83, `${checked} fixtures checked`);
    assert.equal(notTaken.length, 11, `not taken stock: ${notTaken.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
