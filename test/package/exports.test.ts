// The package's exports, from the sources: every subpath of package.json "exports" has its module,
// every name of the root export (src/index.ts) is exported by one of the layer subpaths
// (src/entry/*.ts) and means the same thing there, and the layers import no Node module.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
      default: `./dist/node/${l}.js`,
    });
  assert.deepEqual(pkg.exports['.'], { types: './dist/src/index.d.ts', default: './dist/node/index.js' });
  assert.equal(pkg.sideEffects, false);
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(join(REPO, 'LICENSE'), 'utf8'), /^MIT License\n/);
  for (const [sub, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue;
    const src = target.types.replace('./dist/', '').replace(/\.d\.ts$/, '.ts');
    if (sub !== './browser') assert.ok(existsSync(join(REPO, src)), `${sub}: ${src}`);
  }
});

/** Every name of `rootModule` is in a layer's module, the same value, and the layers export nothing
 * more (`load`: a layer's module by name). */
async function sameValues(
  rootModule: Record<string, unknown>,
  load: (layer: string) => Promise<Record<string, unknown>>,
): Promise<void> {
  const byLayer = new Map<string, Record<string, unknown>>();
  for (const l of layers) byLayer.set(l, await load(l));
  assert.ok(Object.keys(rootModule).length > 100, 'the root exports the library');
  for (const [name, v] of Object.entries(rootModule)) {
    const homes = [...byLayer].filter(([, m]) => name in m);
    assert.ok(homes.length > 0, `${name} is in no subpath export`);
    for (const [l, m] of homes) assert.equal(m[name], v, `${name} in iridia/${l}`);
  }
  for (const [l, m] of byLayer)
    for (const name of Object.keys(m))
      assert.ok(name in rootModule, `iridia/${l} exports ${name}, which the root does not`);
}

test('every name of the root export is in a layer subpath, the same value', async () => {
  await sameValues(root, async (l) => (await import(`../../src/entry/${l}.js`)) as Record<string, unknown>);
});

// The files package.json "exports" names: scripts/build-node.mjs joins tsc's output into dist/node,
// one build of every entry, so a class or a table the root and a layer both export is one object.
const joined = existsSync(join(REPO, 'dist/node/index.js'))
  ? false
  : 'dist/node is not built (npm run build; npm test builds it)';

test('the built files of dist/node: the root and the layers hold the same values', { skip: joined }, async () => {
  const url = (f: string): string => pathToFileURL(join(REPO, 'dist/node', f)).href;
  const builtRoot = (await import(url('index.js'))) as Record<string, unknown>;
  assert.deepEqual(Object.keys(builtRoot).sort(), Object.keys(root).sort());
  await sameValues(builtRoot, async (l) => (await import(url(`${l}.js`))) as Record<string, unknown>);
});

test("the built library's files import no Node module, whatever the command line's import", { skip: joined }, () => {
  // every file each layer's file reaches through its static imports
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm)) {
      const spec = (m[1] ?? m[2])!;
      assert.doesNotMatch(spec, /^node:/, `${file} imports ${spec}`);
      if (spec.startsWith('.')) visit(join(dirname(file), spec));
    }
  };
  for (const l of ['index', ...layers]) visit(join(REPO, 'dist/node', `${l}.js`));
  assert.ok(reached.size > layers.length + 1, `${reached.size} files reached`);
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
