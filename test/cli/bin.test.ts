// The built command line as users run it: bin/iridia.js over dist/ (`npm run build`, which `npm test`
// runs first; the other CLI tests run a copy over src/, test/cli/bin.ts). `iridia info` against the
// README's listing and against figures read straight from the file's header words; exit status 3 for
// an internal error, one line, and its stack only with IRIDIA_DEBUG=1.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
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

test('the built command runs the joined files of dist/node, not the modules of dist/src', { skip: built }, () => {
  // a module hook that names on stderr every file of iridia's dist/ that Node loads
  const hook = `export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.includes('/dist/')) process.stderr.write('loaded ' + r.url + '\\n'); return r; }`;
  const reg = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const r = iridia(['disasm', EXAMPLE], {}, ['--import', `data:text/javascript,${encodeURIComponent(reg)}`]);
  assert.equal(r.status, 0, r.stderr);
  const loaded = [...new Set(r.stderr.split('\n').filter((l) => l.startsWith('loaded ')))];
  const bundle = statSync(join(REPO, 'dist/node/cli.js'), { throwIfNoEntry: false });
  if (bundle !== undefined && bundle.mtimeMs >= statSync(join(REPO, 'dist/src/cli/main.js')).mtimeMs) {
    assert.ok(
      loaded.some((l) => l.endsWith('/dist/node/cli.js')),
      r.stderr,
    );
    assert.ok(
      loaded.some((l) => l.endsWith('/dist/node/commands/disasm.js')),
      r.stderr,
    );
    assert.deepEqual(
      loaded.filter((l) => l.includes('/dist/src/')),
      [],
    );
    // the bundle's few files against tsc's modules, one a source file
    assert.ok(loaded.length < 40, `${loaded.length} files loaded`);
  } else {
    // tsc ran after the bundle was made (or without it): bin/iridia.js takes tsc's modules
    assert.ok(
      loaded.some((l) => l.endsWith('/dist/src/cli/main.js')),
      r.stderr,
    );
  }
});

test('bin/iridia.js takes the bundle when it is at least as new as dist/src, and dist/src otherwise', () => {
  // bin/iridia.js copied beside two stand-ins for dist/node/cli.js and dist/src/cli/main.js that say
  // which one ran, their modification times set
  const dir = mkdtempSync(join(tmpdir(), 'iridia-bin-'));
  try {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(BIN, join(dir, 'bin/iridia.js'));
    // ES modules, as in the package (whose package.json says "type": "module")
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const stand = (rel: string, name: string): string => {
      const f = join(dir, rel);
      mkdirSync(join(f, '..'), { recursive: true });
      writeFileSync(f, `export async function main() { process.stdout.write(${JSON.stringify(name)}); return 0; }\n`);
      return f;
    };
    const bundle = stand('dist/node/cli.js', 'bundle');
    const modules = stand('dist/src/cli/main.js', 'modules');
    const run = (): string => {
      const r = spawnSync(process.execPath, [join(dir, 'bin/iridia.js')], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    const t = Date.now() / 1000;
    utimesSync(modules, t - 10, t - 10);
    utimesSync(bundle, t, t);
    assert.equal(run(), 'bundle');
    utimesSync(bundle, t - 10, t - 10);
    assert.equal(run(), 'bundle', 'the same time (a package: npm gives every file one time)');
    utimesSync(modules, t, t);
    assert.equal(run(), 'modules', 'tsc ran after the bundle was made');
    rmSync(bundle);
    assert.equal(run(), 'modules', 'no bundle');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
