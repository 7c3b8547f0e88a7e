// The package's exports, from the sources: every subpath of package.json "exports" has its module,
// every name of the root export (src/index.ts) is exported by one of the layer subpaths
// (src/entry/*.ts) and means the same thing there, and the layers import no Node module.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers/shared.js';
import * as root from '../../src/index.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
  sideEffects: boolean;
  engines: { node: string };
  license: string;
};

const layers = readdirSync(join(REPO, 'src/entry'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));

test('each layer module is a subpath export, and each subpath names built paths under dist/', () => {
  for (const l of layers)
    assert.deepEqual(pkg.exports[`./${l}`], {
      types: `./dist/src/entry/${l}.d.ts`,
      default: `./dist/src/entry/${l}.js`,
    });
  assert.deepEqual(pkg.exports['.'], { types: './dist/src/index.d.ts', default: './dist/src/index.js' });
  assert.equal(pkg.sideEffects, false);
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(join(REPO, 'LICENSE'), 'utf8'), /^MIT License\n/);
  for (const [sub, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue;
    const src = target.default.replace('./dist/', '').replace(/\.js$/, '.ts');
    if (sub !== './browser') assert.ok(existsSync(join(REPO, src)), `${sub}: ${src}`);
  }
});

test('every name of the root export is in a layer subpath, the same value', async () => {
  const byLayer = new Map<string, Record<string, unknown>>();
  for (const l of layers) byLayer.set(l, (await import(`../../src/entry/${l}.js`)) as Record<string, unknown>);
  for (const [name, v] of Object.entries(root)) {
    const homes = [...byLayer].filter(([, m]) => name in m);
    assert.ok(homes.length > 0, `${name} is in no subpath export`);
    for (const [l, m] of homes) assert.equal(m[name], v, `${name} in iridia/${l}`);
  }
  for (const [l, m] of byLayer)
    for (const name of Object.keys(m)) assert.ok(name in root, `iridia/${l} exports ${name}, which the root does not`);
});

test('the library imports no Node module (the CLI alone does)', () => {
  const walk = (d: string): string[] =>
    readdirSync(join(REPO, d), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? e.name === 'cli'
          ? []
          : walk(join(d, e.name))
        : e.name.endsWith('.ts')
          ? [join(d, e.name)]
          : [],
    );
  for (const f of walk('src')) assert.doesNotMatch(readFileSync(join(REPO, f), 'utf8'), /from 'node:/, f);
});
