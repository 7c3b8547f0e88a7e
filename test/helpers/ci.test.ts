// CI's script (.ci/run) against what the README and package.json say: it runs the README's test
// command, in strict mode, and checks the Node version package.json's "engines" names.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './shared.js';

const ci = readFileSync(join(REPO, '.ci/run'), 'utf8');
const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } };

test("CI runs the README's test command, in strict mode", () => {
  const m = /Pass the whole test suite[^\n]*\n\n```sh\n([^\n]+)\n```/.exec(readme);
  assert.ok(m, 'the README names its test command');
  assert.equal(m[1], 'npm install && npm test');
  const commands = ci.split('\n').filter((l) => !l.startsWith('#') && !l.startsWith('echo'));
  assert.ok(commands.includes(m[1]!), `.ci/run runs "${m[1]}"`);
  assert.match(ci, /^export IRIDIA_STRICT=1$/m);
});

test('CI checks the Node version that package.json requires (eslint and playwright need 20.19)', () => {
  assert.equal(pkg.engines.node, '>=20.19');
  assert.match(ci, /a < 20 \|\| \(a === 20 && b < 19\)/);
});
