// A reader that closes the pipe before the output is written (`iridia disasm FILE | head -1`, or a
// reader that stops at once): the command ends quietly with its status, never with Node's
// unhandled EPIPE and a stack trace.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { FIXTURES, REPO } from '../helpers/shared.js';

test('iridia disasm into a pipe its reader has closed ends quietly, status 0', async () => {
  const file = join(FIXTURES, 'oracle/own/debug_inline/main-ps_5_0-zi-od/shader.dxbc');
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'test/cli/bin.ts'), 'disasm', file], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy(); // the read end closes before the command writes: its write meets EPIPE
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|\n\s+at /, stderr);
  assert.equal(code, 0, stderr);
});
