// The package as users get it: `npm pack` (of the built tree: npm run build, which npm test runs
// first), its contents, then installed offline into an empty project, where it is used as a user
// would: an ES module script (`import ... from 'iridia'` and the layer subpaths), require() (Node's
// require(esm), which engines >=20.19 promises), a strict TypeScript program type-checked against the
// shipped declarations (and a wrong one refused, so the types are real), a browser bundle made with
// esbuild from `iridia` and the shipped `iridia/browser` module, and the `iridia` command.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';

const skip = needs(
  existsSync(join(REPO, 'dist/src/index.js')) && existsSync(join(REPO, 'dist/browser/iridia.js'))
    ? false
    : 'dist/ is not built (npm run build; npm test builds it)',
);
const EXAMPLE = join(REPO, 'examples/vertex-color.dxbc');
const LISTING = readFileSync(join(REPO, 'examples/vertex-color.asm'), 'latin1');

function sh(cmd: string, args: readonly string[], cwd: string) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('npm pack: the files a user needs, nothing of the tests', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-pack-'));
  try {
    const r = sh('npm', ['pack', REPO, '--ignore-scripts', '--dry-run', '--json'], dir);
    assert.equal(r.status, 0, r.stderr);
    const [info] = JSON.parse(r.stdout) as [{ files: { path: string }[]; unpackedSize: number }];
    const files = new Set(info.files.map((f) => f.path));
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/iridia.js',
      'dist/src/cli/main.js',
      'dist/node/cli.js',
      'dist/node/worker.js',
      'dist/browser/iridia.js',
    ])
      assert.ok(files.has(f), f);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; default: string }>;
    };
    for (const t of Object.values(pkg.exports))
      for (const p of typeof t === 'string' ? [t] : [t.types, t.default])
        assert.ok(files.has(p.slice(2)), `exports: ${p}`);
    for (const f of files) assert.doesNotMatch(f, /^(test|src|bench|web|scripts|examples)\/|\.test\.|\.map$/, f);
    assert.ok(info.unpackedSize < 8 << 20, `unpacked ${info.unpackedSize} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'installed into an empty project: ESM, require, strict TypeScript, a browser bundle, the command',
  { skip },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'iridia-install-'));
    try {
      const packed = sh('npm', ['pack', REPO, '--ignore-scripts', '--json'], dir);
      assert.equal(packed.status, 0, packed.stderr);
      const tarball = join(dir, (JSON.parse(packed.stdout) as [{ filename: string }])[0].filename);
      const app = join(dir, 'app');
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
      const inst = sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
      assert.equal(inst.status, 0, inst.stderr);
      assert.doesNotMatch(inst.stderr, /npm warn/i, 'npm install warns of nothing');

      // an ES module script, root and layer subpaths
      writeFileSync(
        join(app, 'use.mjs'),
        `import { readFileSync } from 'node:fs';
import { parseContainer, digestState, disassembleAny } from 'iridia';
import { signContainer } from 'iridia/container';
import { lift } from 'iridia/lift';
import { emitWgsl } from 'iridia/wgsl';
import { reflect } from 'iridia/reflect';
const bytes = new Uint8Array(readFileSync(${JSON.stringify(EXAMPLE)}));
const c = parseContainer(bytes);
process.stdout.write(JSON.stringify({
  state: digestState(c),
  resigned: signContainer(bytes).length,
  listing: disassembleAny(bytes),
  wgsl: emitWgsl(lift(bytes)).split('\\n')[0],
  cbuffers: reflect(c).rdef.constantBuffers.map((b) => b.name),
}));
`,
      );
      const esm = sh(process.execPath, ['use.mjs'], app);
      assert.equal(esm.status, 0, esm.stderr);
      const out = JSON.parse(esm.stdout) as {
        state: string;
        resigned: number;
        listing: string;
        wgsl: string;
        cbuffers: string[];
      };
      assert.equal(out.state, 'valid');
      assert.equal(out.resigned, 1144);
      assert.equal(out.listing, LISTING, 'the listing of examples/vertex-color.asm');
      assert.match(out.wgsl, /\S/);
      assert.deepEqual(out.cbuffers, ['Transform']);

      // require(esm)
      writeFileSync(
        join(app, 'use.cjs'),
        `const { parseContainer } = require('iridia');
const { disassembleAny } = require('iridia/dxbc');
const b = new Uint8Array(require('node:fs').readFileSync(${JSON.stringify(EXAMPLE)}));
process.stdout.write(String(parseContainer(b).parts.length) + ' ' + disassembleAny(b).length);`,
      );
      const cjs = sh(process.execPath, ['use.cjs'], app);
      assert.equal(cjs.status, 0, cjs.stderr);
      assert.equal(cjs.stdout, `5 ${LISTING.length}`);

      // strict TypeScript against the shipped declarations
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: 'nodenext',
            target: 'es2022',
            noEmit: true,
            types: [],
            // iridia/gpu's declarations name WebGPU's types (GPUDevice, ...), which TypeScript's DOM library has
            lib: ['es2023', 'dom'],
          },
          files: ['main.ts'],
        }),
      );
      writeFileSync(
        join(app, 'main.ts'),
        `import { parseContainer, type Container, type DigestState, IridiaError } from 'iridia';
import { disassembleAny } from 'iridia/dxbc';
import { lift, type LiftedProgram } from 'iridia/lift';
import { emitWgsl } from 'iridia/wgsl';
export function describe(bytes: Uint8Array): { parts: number; text: string; stage: LiftedProgram['stage']; wgsl: string } {
  const c: Container = parseContainer(bytes);
  const p = lift(bytes);
  return { parts: c.parts.length, text: disassembleAny(bytes, 0x04), stage: p.stage, wgsl: emitWgsl(p) };
}
export const states: DigestState[] = ['valid', 'unsigned', 'stale'];
export function code(e: unknown): string | undefined {
  return e instanceof IridiaError ? e.code : undefined;
}
`,
      );
      const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
      const typed = sh(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
      assert.equal(typed.status, 0, typed.stdout + typed.stderr);
      writeFileSync(
        join(app, 'main.ts'),
        `import { parseContainer } from 'iridia';\nexport const n: number = parseContainer(new Uint8Array(0));\n`,
      );
      const wrong = sh(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
      assert.notEqual(wrong.status, 0, 'a wrong type is refused: the declarations are real');
      assert.match(wrong.stdout, /TS2322/);

      // a browser bundle from the installed package, and the shipped browser module; both run here
      writeFileSync(
        join(app, 'page.js'),
        `import { disassembleAny } from 'iridia';
import * as shipped from 'iridia/browser';
export const listing = (b) => disassembleAny(b);
export const shippedListing = (b) => shipped.disassembleAny(b);
`,
      );
      // esbuild's own binary (a native program, not a script)
      const bundle = sh(
        join(REPO, 'node_modules/.bin/esbuild'),
        ['page.js', '--bundle', '--format=esm', '--platform=browser', '--outfile=bundle.js', '--log-level=warning'],
        app,
      );
      assert.equal(bundle.status, 0, bundle.stderr);
      writeFileSync(
        join(app, 'run-bundle.mjs'),
        `import { readFileSync } from 'node:fs';
import { listing, shippedListing } from './bundle.js';
const b = new Uint8Array(readFileSync(${JSON.stringify(EXAMPLE)}));
process.stdout.write(JSON.stringify([listing(b), shippedListing(b)]));`,
      );
      const ran = sh(process.execPath, ['run-bundle.mjs'], app);
      assert.equal(ran.status, 0, ran.stderr);
      assert.deepEqual(JSON.parse(ran.stdout), [LISTING, LISTING]);

      // the command the package installs
      const cli = sh(join(app, 'node_modules/.bin/iridia'), ['info', '--json', EXAMPLE], app);
      assert.equal(cli.status, 0, cli.stderr);
      assert.equal((JSON.parse(cli.stdout) as { digestState: string }).digestState, 'valid');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
