// test/helpers/bash.ts: the shell it starts reads none of the user's start-up files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bash } from './bash.js';

test('bash(): standard input is not a socket, and BASH_ENV is not read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-bash-'));
  const saved = process.env['BASH_ENV'];
  try {
    const rc = join(dir, 'rc.sh');
    writeFileSync(rc, 'echo read-the-start-up-file\n');
    process.env['BASH_ENV'] = rc;
    const r = bash('if [ -S /dev/stdin ]; then echo socket; else echo not-a-socket; fi; echo "$1"', ['argument']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'not-a-socket\nargument\n');
  } finally {
    if (saved === undefined) delete process.env['BASH_ENV'];
    else process.env['BASH_ENV'] = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});
