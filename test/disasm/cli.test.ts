// `iridia disasm` as a user runs it (a separate process through test/cli/bin.ts): one file to
// standard output with a flag word, a Direct3D 9 program, a batch into --out-dir with --root and
// --json, a refused input, and usage errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REPO, walk } from '../helpers/shared.js';

const BIN = join(REPO, 'test/cli/bin.ts');
const tmp = mkdtempSync(join(tmpdir(), 'iridia-disasm-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function iridia(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: REPO, maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout.toString('latin1'), stderr: r.stderr.toString() };
}

const BASIC = join(FIXTURES, 'oracle/own/ps_sample_basic/main-ps_4_1');

test('disasm FILE and --flags N print Microsoft listings', () => {
  const r = iridia('disasm', join(BASIC, 'shader.dxbc'));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, readFileSync(join(BASIC, 'listing.asm'), 'latin1'));
  const n = iridia('disasm', '--flags', '0x04', join(BASIC, 'shader.dxbc'));
  assert.equal(n.stdout, readFileSync(join(BASIC, 'listing.0x04.asm'), 'latin1'));
  const d = iridia('disasm', '--flags', '32', join(BASIC, 'shader.dxbc'));
  assert.equal(d.stdout, readFileSync(join(BASIC, 'listing.0x20.asm'), 'latin1'));
});

test('disasm of a bare Direct3D 9 program', () => {
  const d3d9 = walk(join(FIXTURES, 'oracle')).find((f) => f.endsWith('shader.d3d9'));
  assert.ok(d3d9, 'a committed Direct3D 9 fixture (test/fixtures/oracle/own-d3d9)');
  const r = iridia('disasm', d3d9);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, readFileSync(join(d3d9, '../listing.asm'), 'latin1'));
});

test('disasm FILE... --out-dir DIR --root R --json: one .asm per input, failures recorded', () => {
  const bad = join(tmp, 'bad.dxbc');
  writeFileSync(bad, readFileSync(join(BASIC, 'shader.dxbc')).subarray(0, 40));
  const out = join(tmp, 'out');
  const inputs = [join(BASIC, 'shader.dxbc'), join(FIXTURES, 'oracle/own/cs_basic/main-cs_5_0/shader.dxbc'), bad];
  const r = iridia('disasm', ...inputs, '--out-dir', out, '--root', FIXTURES, '--json');
  assert.equal(r.status, 1, r.stderr);
  const summary = JSON.parse(r.stdout) as { inputs: number; written: number; failed: { path: string; code: string }[] };
  assert.equal(summary.inputs, 3);
  assert.equal(summary.written, 2);
  assert.equal(summary.failed.length, 1);
  assert.equal(summary.failed[0]!.path, bad);
  assert.match(summary.failed[0]!.code, /^E1/);
  const written = join(out, 'oracle/own/ps_sample_basic/main-ps_4_1/shader.asm');
  assert.ok(existsSync(written), `${written} written`);
  assert.equal(readFileSync(written, 'latin1'), readFileSync(join(BASIC, 'listing.asm'), 'latin1'));
});

test('disasm usage errors exit 2', () => {
  assert.equal(iridia('disasm').status, 2);
  assert.equal(iridia('disasm', '--flags', 'x', join(BASIC, 'shader.dxbc')).status, 2);
  assert.equal(iridia('disasm', join(BASIC, 'shader.dxbc'), join(BASIC, 'shader.dxbc')).status, 2);
});
