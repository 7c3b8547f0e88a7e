// The commands as a user runs them (a separate process: test/cli/bin.ts runs src/cli/main.ts as
// bin/iridia.js runs the build): JSON shapes and exit statuses of verify, sign, part, census and
// carve over committed fixtures, and exit 2 for usage errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseContainer, digestState, findPart } from '../../src/container/container.js';
import { FIXTURES, REPO, readBytes, walk, isContainerFile } from '../helpers/shared.js';

const BIN = join(REPO, 'test/cli/bin.ts');
const VS_PATH = join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/shader.dxbc');
const VS = readBytes(VS_PATH);
const tmp = mkdtempSync(join(tmpdir(), 'iridia-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

interface Result {
  status: number | null;
  stdout: Buffer;
  stderr: string;
  json: () => Record<string, unknown>;
}

function iridia(...args: string[]): Result {
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: REPO, maxBuffer: 1 << 26 });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr.toString(),
    json: () => JSON.parse(r.stdout.toString()) as Record<string, unknown>,
  };
}

/** The five builds with a debug layer's stale digest (the abort/printf programs: fxc signs the
 * container before the debug layer's parts are added), named by hand. */
const STALE = new Set([
  ...['csmain-cs_5_0', 'main-ps_5_0', 'msg-ps_5_0'].map((b) => `oracle/own/ps_abort_printf/${b}/shader.dxbc`),
  ...['csmain-cs_5_0', 'main-ps_5_0'].map((b) => `oracle/own/printf_escapes/${b}/shader.dxbc`),
]);

/** The committed fixtures' facts, read straight from each header's bytes (apart from the library the
 * CLI wraps): the digest state (16 zero bytes at 4: unsigned; the three named builds: stale; else
 * valid) and the kind from the part table (DXIL: dxil; SHEX/SHDR: dxbc; an effect part: effect; RTS0
 * alone: root-signature). */
function fixtureFacts(files: readonly string[]): { digests: Record<string, number>; kinds: Record<string, number> } {
  const digests: Record<string, number> = { valid: 0, unsigned: 0, stale: 0 };
  const kinds: Record<string, number> = {};
  for (const f of files) {
    const b = Buffer.from(readBytes(f));
    const state = STALE.has(f.slice(FIXTURES.length + 1))
      ? 'stale'
      : b.subarray(4, 20).every((x) => x === 0)
        ? 'unsigned'
        : 'valid';
    digests[state]! += 1;
    const parts = Array.from({ length: b.readUInt32LE(28) }, (_, i) => {
      const at = b.readUInt32LE(32 + 4 * i);
      return b.toString('latin1', at, at + 4);
    });
    const k = parts.includes('DXIL')
      ? 'dxil'
      : parts.includes('SHEX') || parts.includes('SHDR')
        ? 'dxbc'
        : parts.some((p) => p === 'FX10' || p === '\x01\x10\xff\xfe' || p === '\x11\x10\xff\xfe')
          ? 'effect'
          : parts.includes('RTS0')
            ? 'root-signature'
            : 'other';
    kinds[k] = (kinds[k] ?? 0) + 1;
  }
  return { digests, kinds };
}

function write(name: string, data: Uint8Array | string): string {
  const p = join(tmp, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, data);
  return p;
}

test('verify --json over the fixtures: counts, stale debug-layer builds, exit 1', () => {
  const files = walk(FIXTURES).filter(isContainerFile);
  const { digests } = fixtureFacts(files);
  assert.equal(digests['stale'], 5, 'the five abort/printf builds of the oracle fixtures are stale');
  assert.equal(digests['unsigned'], 2, 'two DXIL fixtures are unsigned (dxc without validation)');
  const r = iridia('verify', '--roundtrip', '--json', 'test/fixtures');
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(r.json(), {
    schema: 'iridia.verify/1',
    containers: files.length,
    valid: digests['valid'],
    unsigned: digests['unsigned'],
    stale: digests['stale'],
    staleFiles: files.filter((f) => STALE.has(f.slice(FIXTURES.length + 1))).map((f) => f.slice(REPO.length + 1)),
    errors: [],
    roundtrip: { identical: files.length, different: 0, differentFiles: [] },
  });
});

test('verify finds containers by magic whatever the extension, skips other files, reports unreadable ones', () => {
  const dir = join(tmp, 'verify');
  write('verify/a.bin', VS);
  write('verify/sub/b.dxil', readBytes(join(FIXTURES, 'container/testgpu__cube.frag.dxil')));
  write('verify/notes.dxbc', 'not a container');
  const ok = iridia('verify', '--json', dir);
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(ok.json(), {
    schema: 'iridia.verify/1',
    containers: 2,
    valid: 2,
    unsigned: 0,
    stale: 0,
    staleFiles: [],
    errors: [],
    roundtrip: null,
  });
  const truncated = write('verify/c.dxbc', VS.subarray(0, 60));
  const bad = iridia('verify', '--json', dir);
  assert.equal(bad.status, 1);
  const j = bad.json();
  assert.equal(j['containers'], 3);
  assert.deepEqual(
    (j['errors'] as { path: string; error: string }[]).map((e) => [e.path, e.error.slice(0, 18)]),
    [[truncated, 'E103_SIZE_MISMATCH']],
  );
  // A file named directly that is not a container, and a path that does not exist, are errors.
  const named = iridia('verify', '--json', join(dir, 'notes.dxbc'), join(dir, 'missing'));
  assert.equal(named.status, 1);
  assert.equal((named.json()['errors'] as unknown[]).length, 2);
  const text = iridia('verify', dir);
  assert.equal(text.status, 1);
  assert.match(text.stdout.toString(), /3 containers: 2 valid, 0 unsigned, 0 stale; 1 unreadable\n$/);
});

test('verify --roundtrip reports a container that does not survive the round trip', () => {
  const gapped = new Uint8Array(VS.byteLength + 4);
  gapped.set(VS);
  new DataView(gapped.buffer).setUint32(24, gapped.byteLength, true); // 4 bytes after the last part
  const p = write('rt/gap.dxbc', gapped);
  const r = iridia('verify', '--roundtrip', '--json', p);
  assert.equal(r.status, 1);
  assert.deepEqual(r.json()['roundtrip'], { identical: 0, different: 1, differentFiles: [p] });
  assert.equal(r.json()['stale'], 1);
});

test('sign writes a valid container, to -o or to stdout', () => {
  const stale = VS.slice();
  stale[150] = stale[150]! ^ 0x20;
  const p = write('sign/stale.dxbc', stale);
  const out = join(tmp, 'sign/out.dxbc');
  const r = iridia('sign', p, '-o', out);
  assert.equal(r.status, 0, r.stderr);
  const signed = readBytes(out);
  assert.equal(digestState(parseContainer(signed)), 'valid');
  assert.deepEqual(signed.subarray(20), stale.subarray(20));
  const piped = iridia('sign', p);
  assert.equal(piped.status, 0);
  assert.deepEqual(new Uint8Array(piped.stdout), signed);
  const extra = new Uint8Array(VS.byteLength + 5);
  extra.set(VS);
  const e = iridia('sign', write('sign/extra.dxbc', extra), '-o', join(tmp, 'sign/extra-out.dxbc'));
  assert.equal(e.status, 0);
  assert.match(e.stderr, /5 bytes follow the stored total size .*not written/);
  assert.equal(iridia('sign', write('sign/junk.dxbc', 'DXBC junk')).status, 1);
});

test('part extracts, replaces, adds and removes; edits are re-signed', () => {
  const c = parseContainer(VS);
  const shex = findPart(c, 'SHEX')!;
  const ex = iridia('part', VS_PATH, 'SHEX');
  assert.equal(ex.status, 0, ex.stderr);
  assert.deepEqual(new Uint8Array(ex.stdout), shex.data);
  const bytesFile = write('part/new.bin', new Uint8Array([9, 8, 7]));
  const check = (out: string, kinds: string[]): void => {
    const e = parseContainer(readBytes(out));
    assert.equal(digestState(e), 'valid');
    assert.deepEqual(
      e.parts.map((p) => p.kind),
      kinds,
    );
  };
  const kinds = c.parts.map((p) => p.kind);
  const rep = join(tmp, 'part/rep.dxbc');
  assert.equal(iridia('part', VS_PATH, 'STAT', '--replace', bytesFile, '-o', rep).status, 0);
  check(rep, kinds);
  assert.deepEqual(findPart(parseContainer(readBytes(rep)), 'STAT')!.data, new Uint8Array([9, 8, 7]));
  const add = join(tmp, 'part/add.dxbc');
  assert.equal(iridia('part', VS_PATH, 'XTRA', '--add', bytesFile, '-o', add).status, 0);
  check(add, [...kinds, 'XTRA']);
  const rem = join(tmp, 'part/rem.dxbc');
  assert.equal(iridia('part', VS_PATH, 'RDEF', '--remove', '-o', rem).status, 0);
  check(
    rem,
    kinds.filter((k) => k !== 'RDEF'),
  );
  // Extracting back the part just added gives its bytes.
  const back = iridia('part', add, 'XTRA', '-o', join(tmp, 'part/xtra.bin'));
  assert.equal(back.status, 0);
  assert.deepEqual(readBytes(join(tmp, 'part/xtra.bin')), new Uint8Array([9, 8, 7]));
  // A kind with bytes that are not letters is typed as info prints it, with \\xNN.
  const odd = join(tmp, 'part/odd.dxbc');
  assert.equal(iridia('part', VS_PATH, '\\x01\\x10AB', '--add', bytesFile, '-o', odd).status, 0);
  check(odd, [...kinds, '\x01\x10AB']);
  assert.deepEqual(new Uint8Array(iridia('part', odd, '\\x01\\x10AB').stdout), new Uint8Array([9, 8, 7]));
  // Refusals and usage errors.
  const missing = iridia('part', VS_PATH, 'NONE');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /E108_PART_MISSING/);
  assert.equal(iridia('part', VS_PATH, 'TOOLONG').status, 2);
  assert.equal(iridia('part', VS_PATH, 'STAT', '--replace', bytesFile).status, 2, 'an edit needs -o');
  assert.equal(iridia('part', VS_PATH, 'STAT', '--remove', '--add', bytesFile, '-o', rem).status, 2);
});

test('part says on stderr what a rewrite drops', () => {
  const trailing = new Uint8Array(VS.byteLength + 8);
  trailing.set(VS);
  new DataView(trailing.buffer).setUint32(24, trailing.byteLength, true);
  const p = write('drop/trailing.dxbc', trailing);
  const r = iridia('part', p, 'XTRA', '--add', VS_PATH, '-o', join(tmp, 'drop/out.dxbc'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /8 bytes follow the last part; the bytes after the last part are not written/);
});

test('census --json over the fixtures', () => {
  const files = walk(FIXTURES);
  const containers = files.filter(isContainerFile);
  const r = iridia('census', '--json', 'test/fixtures');
  assert.equal(r.status, 0, r.stderr);
  const j = r.json();
  assert.equal(j['files'], files.length);
  assert.equal(j['notContainers'], files.length - containers.length);
  assert.equal(j['containers'], containers.length);
  const facts = fixtureFacts(containers);
  assert.deepEqual(j['digests'], facts.digests);
  assert.deepEqual(j['errors'], {});
  assert.deepEqual(j['kinds'], facts.kinds);
  const text = iridia('census', 'test/fixtures/container');
  assert.match(
    text.stdout.toString(),
    /Part sets \(in file order\):\n {2}2 {2}SFI0 ISG1 OSG1 PSV0 STAT HASH DXIL\n {2}1 {2}RTS0\n/,
  );
  const bad = iridia('census', '--json', write('census/bad.dxbc', VS.subarray(0, 40)));
  assert.equal(bad.status, 1);
  assert.deepEqual(bad.json()['errors'], { E103_SIZE_MISMATCH: 1 });
});

test('carve writes each container found as <file>@<hex offset>.dxbc (.dxil for DXIL) and counts rejections', () => {
  const filler = new Uint8Array(37).fill(0xab);
  const stale = VS.slice();
  stale[99] = stale[99]! ^ 1;
  const parts = [filler, VS, filler, stale, filler, readBytes(join(FIXTURES, 'container/testgpu__cube.frag.dxil'))];
  const pack = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  const offsets: number[] = [];
  for (const p of parts) {
    offsets.push(at);
    pack.set(p, at);
    at += p.byteLength;
  }
  const packPath = write('carve/game.pak', pack);
  const outDir = join(tmp, 'carve/out');
  const r = iridia('carve', packPath, '--out-dir', outDir, '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = r.json();
  const names = [`game.pak@${offsets[1]!.toString(16)}.dxbc`, `game.pak@${offsets[5]!.toString(16)}.dxil`];
  assert.deepEqual(readdirSync(outDir).sort(), names.sort());
  assert.deepEqual(readBytes(join(outDir, `game.pak@${offsets[1]!.toString(16)}.dxbc`)), VS);
  assert.equal((j['found'] as unknown[]).length, 2);
  assert.deepEqual(j['rejected'], { 'stale-digest': 1 });
  const text = iridia('carve', packPath, '--out-dir', outDir);
  assert.match(text.stdout.toString(), /2 containers found in 1 file; 1 candidate rejected\n\s+1 {2}stale-digest\n$/);
  // The same file name in another folder does not overwrite the first one's output.
  const twinDir = join(tmp, 'carve/twin');
  write('carve/a/game.pak', pack);
  write('carve/b/game.pak', pack);
  const twins = iridia('carve', join(tmp, 'carve/a/game.pak'), join(tmp, 'carve/b/game.pak'), '--out-dir', twinDir);
  assert.equal(twins.status, 0, twins.stderr);
  assert.deepEqual(
    readdirSync(twinDir).sort(),
    [...names, ...names.map((n) => n.replace('game.pak@', 'game.pak~2@'))].sort(),
  );
  assert.equal(iridia('carve', packPath).status, 2, 'carve needs --out-dir');
  const missing = iridia('carve', join(tmp, 'nope.pak'), '--out-dir', outDir);
  assert.equal(missing.status, 1);
});

test('usage errors exit 2; --help exits 0', () => {
  assert.equal(iridia('verify').status, 2);
  assert.equal(iridia('census', '--bogus', 'x').status, 2);
  assert.equal(iridia('sign').status, 2);
  assert.equal(iridia('nosuchcommand').status, 2);
  const help = iridia('verify', '--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout.toString(), /usage: iridia verify/);
});

test('the examples folder holds the container its README names', () => {
  const ex = join(REPO, 'examples/vertex-color.dxbc');
  assert.ok(existsSync(ex), 'examples/vertex-color.dxbc');
  assert.deepEqual(readBytes(ex), VS);
  assert.equal(
    readFileSync(join(REPO, 'examples/vertex-color.asm'), 'latin1'),
    readFileSync(join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/listing.asm'), 'latin1'),
  );
  cpSync(ex, join(tmp, 'ex.dxbc'));
  assert.equal(iridia('verify', join(tmp, 'ex.dxbc')).status, 0);
});
