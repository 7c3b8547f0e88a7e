// The built command line as users run it: bin/iridia.js over dist/ (`npm run build`, which `npm test`
// runs first; the other CLI tests run a copy over src/, test/cli/bin.ts). `iridia info` against the
// README's listing and against figures read straight from the file's header words; exit status 3 for
// an internal error, one line, and its stack only with IRIDIA_DEBUG=1.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, REPO } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';

const BIN = join(REPO, 'bin/iridia.js');
const built = needs(
  existsSync(join(REPO, 'dist/src/cli/main.js')) ? false : 'dist/ is not built (npm run build; npm test builds it)',
);
const EXAMPLE = 'examples/vertex-color.dxbc';

function iridia(args: string[], env: NodeJS.ProcessEnv = {}, pre: string[] = []) {
  const r = spawnSync(process.execPath, [...pre, BIN, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("iridia info prints the README's listing of the example, byte for byte", { skip: built }, () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const m = /```console\n\$ npx iridia info examples\/vertex-color\.dxbc\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, "the README's info example");
  const r = iridia(['info', EXAMPLE]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, m[1]);
});

test("iridia info --json: the header's own words (size, version, part offsets, digest bytes)", { skip: built }, () => {
  const b = readFileSync(join(REPO, EXAMPLE));
  const r = iridia(['info', '--json', EXAMPLE]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as {
    size: number;
    version: number;
    digest: string;
    digestState: string;
    program: { target: string };
    parts: { kind: string; offset: number; size: number }[];
  };
  // The container header (D3D10/11 containers: 'DXBC', 16 digest bytes, version u32 at 20, total size
  // at 24, part count at 28, then one u32 offset a part; each part 'FOURCC', u32 size, data).
  assert.equal(j.size, statSync(join(REPO, EXAMPLE)).size);
  assert.equal(j.size, b.readUInt32LE(24));
  assert.equal(j.version, b.readUInt16LE(20));
  assert.equal(j.digest, b.subarray(4, 20).toString('hex'));
  assert.equal(j.digestState, 'valid');
  assert.equal(j.program.target, 'vs_5_0');
  const count = b.readUInt32LE(28);
  assert.equal(count, 5);
  assert.deepEqual(
    j.parts,
    Array.from({ length: count }, (_, i) => {
      const at = b.readUInt32LE(32 + 4 * i);
      return { kind: b.toString('latin1', at, at + 4), offset: at, size: b.readUInt32LE(at + 4) };
    }),
  );
});

test('iridia info exits 1 on a stale digest and on a file that is not a container', { skip: built }, () => {
  const stale = iridia(['info', join(FIXTURES, 'oracle/own/ps_abort_printf/main-ps_5_0/shader.dxbc')]);
  assert.equal(stale.status, 1, stale.stderr);
  assert.match(stale.stdout, /digest +[0-9a-f]{32} \(stale\)/);
  const notOne = iridia(['info', 'README.md']);
  assert.equal(notOne.status, 1);
  assert.match(notOne.stderr, /^iridia info: .*\[E\d{3}_[A-Z_]+\]\n$/);
});

test('an internal error exits 3 with one line; IRIDIA_DEBUG=1 adds the stack', { skip: built }, () => {
  const pre = ['--import', './test/cli/fault-hooks.mjs'];
  const r = iridia(['info', EXAMPLE], { IRIDIA_TEST_FAULT: 'info', IRIDIA_DEBUG: '' }, pre);
  assert.equal(r.status, 3, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^iridia info: internal error \(a bug in iridia, please report it\): .*null.*\n$/);
  const d = iridia(['info', EXAMPLE], { IRIDIA_TEST_FAULT: 'info', IRIDIA_DEBUG: '1' }, pre);
  assert.equal(d.status, 3);
  const lines = d.stderr.trimEnd().split('\n');
  assert.match(lines[0]!, /^iridia info: internal error/);
  assert.match(lines[1]!, /^TypeError: /);
  assert.ok(
    lines.slice(2).some((l) => /^ +at /.test(l)),
    d.stderr,
  );
  // without the fault the same command is fine (the hook changes nothing else)
  assert.equal(iridia(['info', EXAMPLE], {}, pre).status, 0);
});
