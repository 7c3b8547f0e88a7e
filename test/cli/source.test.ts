// `iridia source` as a user runs it (a separate process over src/, test/cli/bin.ts): a DXIL /Zi
// build's dx.source.contents and an SRCI part (written here as dxc writes it), a DXBC /Zi build's
// SPDB, each file's text as the core reads it and as the fixtures hold it; --list, --file, --json,
// -o and standard input; a container without source refused with E108 (exit 1).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REPO } from '../helpers/shared.js';
import { srci } from '../helpers/srci.js';
import { serializeContainer } from '../../src/container/container.js';

const BIN = join(REPO, 'test/cli/bin.ts');
const tmp = mkdtempSync(join(tmpdir(), 'iridia-source-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function iridia(args: readonly string[], stdin?: Buffer): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, 'source', ...args], { cwd: REPO, input: stdin });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

const PS = join(FIXTURES, 'dxil-source/Helios__PixelShader.dxil');

test('a DXIL /Zi build: the main file as its repository holds it, --list, --json, -o and standard input', () => {
  const text = iridia([PS]);
  assert.equal(text.status, 0, text.err);
  assert.equal(
    text.out.replace(/\r\n/g, '\n'),
    readFileSync(join(FIXTURES, 'dxil-source/Helios__PixelShader.hlsl'), 'utf8'),
  );
  assert.equal(iridia(['--file', 'Shaders\\PixelShader.hlsl', PS]).out, text.out);
  assert.equal(iridia(['-'], readFileSync(PS)).out, text.out);
  const list = iridia(['--list', PS]);
  assert.equal(list.out, `0  ${Buffer.byteLength(text.out)} bytes  Shaders\\PixelShader.hlsl\n`);
  const json = JSON.parse(iridia(['--json', PS]).out) as Record<string, unknown>;
  assert.deepEqual(json['files'], [{ path: 'Shaders\\PixelShader.hlsl', text: text.out }]);
  assert.equal(json['from'], 'ILDB');
  assert.equal(json['mainFile'], 'Shaders\\PixelShader.hlsl');
  const out = join(tmp, 'ps.hlsl');
  assert.equal(iridia(['-o', out, PS]).out, '');
  assert.equal(readFileSync(out, 'utf8'), text.out);
  const bad = iridia(['--file', '1', PS]);
  assert.equal(bad.status, 2);
  assert.match(bad.err, /--file 1: the container embeds 1 file \(0 Shaders\\PixelShader\.hlsl\)/);
});

test('an SRCI part of two files (zlib contents): each by index and by name, the arguments in --json', () => {
  const files = [
    { path: 'main.hlsl', text: '#include "b.hlsli"\r\nfloat4 main() : SV_Target { return B; }\r\n' },
    { path: '.\\b.hlsli', text: 'static const float4 B = 2; // ü\n' },
  ];
  const file = join(tmp, 'srci.dxil');
  const args: [string, string][] = [
    ['E', 'main'],
    ['D', 'X=1'],
    ['', 'main.hlsl'],
  ];
  writeFileSync(file, serializeContainer([{ kind: 'SRCI', data: srci(files, args, true) }]));
  assert.equal(iridia([file]).out, files[0]!.text);
  assert.equal(iridia(['--file', '1', file]).out, files[1]!.text);
  assert.equal(iridia(['--file', '.\\b.hlsli', file]).out, files[1]!.text);
  const j = JSON.parse(iridia(['--json', file]).out) as Record<string, unknown>;
  assert.equal(j['from'], 'SRCI');
  assert.deepEqual(j['files'], files);
  assert.deepEqual(j['args'], ['-E', 'main', '-D', 'X=1', 'main.hlsl']);
  assert.deepEqual(j['defines'], ['X=1']);
  assert.equal(
    iridia(['--list', file]).out,
    files.map((f, i) => `${i}  ${Buffer.byteLength(f.text)} bytes  ${f.path}\n`).join(''),
  );
});

test('a DXBC /Zi build: the SPDB source; a container without source: E108, exit 1', () => {
  const own = join(FIXTURES, 'oracle/own/cs_basic');
  const r = iridia([join(own, 'main-cs_5_0-zi/shader.dxbc')]);
  assert.equal(r.status, 0, r.err);
  assert.equal(r.out, readFileSync(join(own, 'source.hlsl'), 'utf8'));
  const none = iridia([join(own, 'main-cs_5_0/shader.dxbc')]);
  assert.equal(none.status, 1);
  assert.match(none.err, /the container embeds no source text .*\[E108_PART_MISSING\]\n$/);
  const j = JSON.parse(iridia(['--json', join(own, 'main-cs_5_0/shader.dxbc')]).out) as { error: { code: string } };
  assert.equal(j.error.code, 'E108_PART_MISSING');
});
