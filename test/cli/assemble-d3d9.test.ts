// `iridia assemble` on a Direct3D 9 listing (a separate process, as test/cli/commands.test.ts runs the CLI):
// detected from its version line, written as a bare token stream, --like the original program keeping its
// comment blocks, --json as for Shader Model 4 listings, errors with line and column, and a batch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disassembleD3D9 } from '../../src/d3d9/disasm.js';
import { decodeD3D9 } from '../../src/d3d9/decode.js';
import { FIXTURES, REPO, readBytes } from '../helpers/shared.js';

const BIN = join(REPO, 'test/cli/bin.ts');
const PROGRAM = join(FIXTURES, 'oracle/own-d3d9/rel_addressing_vs/vsmain-vs_2_0-zi/shader.d3d9');
const tmp = mkdtempSync(join(tmpdir(), 'iridia-asm9-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function iridia(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: REPO, maxBuffer: 1 << 24 });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

test('iridia assemble: a Direct3D 9 listing --like its program gives the program back, --json describes it', () => {
  const bytes = readBytes(PROGRAM);
  const listing = join(tmp, 'vs.asm');
  writeFileSync(listing, disassembleD3D9(bytes, 0), 'latin1');
  const out = join(tmp, 'vs.d3d9');
  const r = iridia('assemble', listing, '--like', PROGRAM, '-o', out, '--json');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readFileSync(out), Buffer.from(bytes));
  const j = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(j['schema'], 'iridia.assemble/1');
  assert.equal(j['program'], 'vs_2_0');
  assert.equal(j['words'], bytes.byteLength / 4);
  assert.equal(j['size'], bytes.byteLength);
  assert.equal(j['instructions'], decodeD3D9(bytes).records.filter((x) => x.kind === 'instruction').length);
  assert.deepEqual(j['notes'], []);
  // without --like: the instructions alone, and a note says so
  const bare = iridia('assemble', listing, '-o', join(tmp, 'bare.d3d9'));
  assert.equal(bare.status, 0, bare.stderr);
  assert.match(bare.stderr, /no --like program: no comment blocks/);
  assert.equal(disassembleD3D9(readBytes(join(tmp, 'bare.d3d9')), 0x50), disassembleD3D9(bytes, 0x50));
});

test('iridia assemble: a Direct3D 9 error names the line and column (--json), a container as --like is refused, a batch', () => {
  const bad = join(tmp, 'bad.asm');
  writeFileSync(bad, '    ps_2_0\n    mov r0, r1.xy\n');
  const r = iridia('assemble', bad, '-o', join(tmp, 'bad.d3d9'), '--json');
  assert.equal(r.status, 1);
  const j = (JSON.parse(r.stdout) as { error: Record<string, unknown> }).error;
  assert.equal(j['code'], 'E905_ASM_MASK');
  assert.equal(j['line'], 2);
  assert.equal(j['column'], 15);
  assert.equal(j['text'], '    mov r0, r1.xy');
  const dxbc = join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/shader.dxbc');
  const listing = join(tmp, 'vs.asm');
  writeFileSync(listing, disassembleD3D9(readBytes(PROGRAM), 0x80), 'latin1');
  const wrong = iridia('assemble', listing, '--like', dxbc, '-o', join(tmp, 'x.d3d9'));
  assert.equal(wrong.status, 1);
  assert.match(wrong.stderr, /--like names the original Direct3D 9 program/);
  // a batch: --like DIR takes <relative path>.d3d9 for a Direct3D 9 listing
  const src = join(tmp, 'in');
  const likes = join(tmp, 'likes');
  mkdirSync(src, { recursive: true });
  mkdirSync(likes, { recursive: true });
  writeFileSync(join(src, 'a.asm'), disassembleD3D9(readBytes(PROGRAM), 0x80), 'latin1');
  writeFileSync(join(likes, 'a.d3d9'), readBytes(PROGRAM));
  const b = iridia('assemble', src, '--root', src, '--like', likes, '--out-dir', join(tmp, 'out'));
  assert.equal(b.status, 0, b.stderr);
  assert.deepEqual(readFileSync(join(tmp, 'out/a.dxbc')), Buffer.from(readBytes(PROGRAM)));
});
