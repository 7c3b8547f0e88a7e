// `iridia reflect`: the summary, the own JSON view, and --d3d (stdout and the batch convention)
// equal to the oracle's reflect.json as parsed JSON.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REPO } from '../helpers/shared.js';

function iridia(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'test/cli/bin.ts'), ...args], {
    encoding: 'utf8',
    cwd: REPO,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CASE = join(FIXTURES, 'oracle/own/rdef_types/main-ps_5_0');

test('reflect --d3d FILE prints JSON equal to D3DReflect', () => {
  const r = iridia('reflect', '--d3d', join(CASE, 'shader.dxbc'));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), JSON.parse(readFileSync(join(CASE, 'reflect.json'), 'utf8')));
});

test('reflect --d3d FOLDER --out-dir DIR --root R writes one JSON per container', () => {
  const out = mkdtempSync(join(tmpdir(), 'iridia-reflect-'));
  try {
    const root = join(FIXTURES, 'oracle/own');
    const r = iridia('reflect', '--d3d', join(root, 'tess_tri'), '--out-dir', out, '--root', root);
    assert.equal(r.status, 0, r.stderr);
    const want = join(root, 'tess_tri/main-hs_5_0-integer-point');
    const got: unknown = JSON.parse(readFileSync(join(out, 'tess_tri/main-hs_5_0-integer-point/shader.json'), 'utf8'));
    assert.deepEqual(got, JSON.parse(readFileSync(join(want, 'reflect.json'), 'utf8')));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('reflect FILE and reflect --json FILE: the own views', () => {
  const text = iridia('reflect', join(CASE, 'shader.dxbc'));
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^program {3}ps_5_0$/m);
  assert.match(text.stdout, /^cbuffer {3}Types \(1008 bytes, 20 variables\)$/m);
  const json = iridia('reflect', '--json', join(CASE, 'shader.dxbc'));
  assert.equal(json.status, 0, json.stderr);
  const o = JSON.parse(json.stdout) as {
    rdef: { layout: string };
    features: { names: string[] };
    stat: Record<string, number>;
  };
  assert.equal(o.rdef.layout, '5.0');
  assert.deepEqual(o.features.names, ['Double-precision floating point']);
  assert.equal(o.stat['InstructionCount'], 52);
});

test('reflect refuses a file that is not a container with a typed error (exit 1)', () => {
  const r = iridia('reflect', join(CASE, 'reflect.json'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /E102_BAD_MAGIC/);
});
