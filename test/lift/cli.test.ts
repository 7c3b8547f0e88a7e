// `iridia lift`: one file to standard output (summary, --ir, --wgsl), and the batch form writing a
// .wgsl per input with a JSON summary that counts refusals by reason.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES } from '../helpers/shared.js';
import { run } from '../../src/cli/commands/lift.js';

/** Runs the command, capturing what it writes to standard output. */
async function capture(argv: string[]): Promise<{ code: number; out: string }> {
  const write = process.stdout.write.bind(process.stdout);
  const errWrite = process.stderr.write.bind(process.stderr);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    const code = await run(argv);
    return { code, out };
  } finally {
    process.stdout.write = write;
    process.stderr.write = errWrite;
  }
}

const LIFT = join(FIXTURES, 'lift');

test('iridia lift FILE prints the summary; --ir the IR; --wgsl the WGSL', async () => {
  const file = join(LIFT, 'ps_int_ops/main-ps_5_0/shader.dxbc');
  const summary = await capture([file]);
  assert.equal(summary.code, 0);
  assert.match(summary.out, /^stage pixel {2}target ps_5_0/);
  assert.match(
    summary.out,
    /resource cb0 = b0 space 0 "C" constantBuffer @group\(0\) @binding\(0\)\n {2}a \+0 \(16 bytes\)/,
  );
  assert.match(
    (await capture(['--ir', file])).out,
    /^global cb0 \(#0\): <uniform> array<vec4<u32>, 3> @group\(0\) @binding\(0\)/,
  );
  assert.match((await capture(['--wgsl', file])).out, /@fragment\nfn main\(/);
});

test('iridia lift --wgsl FILE... --out-dir DIR --json writes one .wgsl per lifted input and counts refusals', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-lift-'));
  try {
    // test/fixtures/lift (which lifts whole) and ps_abort_printf, whose two builds with `abort` are
    // refused (its msg-ps_5_0 lifts)
    const refused = join(FIXTURES, 'oracle/own/ps_abort_printf');
    const { code, out } = await capture(['--wgsl', LIFT, refused, '--out-dir', dir, '--root', FIXTURES, '--json']);
    const summary = JSON.parse(out) as {
      inputs: number;
      written: number;
      failed: unknown[];
      refusals: Record<string, number>;
    };
    assert.equal(code, 1, 'two builds are refused');
    assert.equal(summary.inputs, summary.written + summary.failed.length);
    assert.deepEqual(summary.refusals, { 'opcode not handled': 2 });
    const wgsl = readFileSync(join(dir, 'lift/ps_uint_ops/main-ps_5_0/shader.wgsl'), 'utf8');
    assert.match(wgsl, /^\/\/ lifted by iridia from DXBC ps_5_0/);
    assert.ok(existsSync(join(dir, 'lift/cs_atomics_uav/main-cs_5_0/shader.wgsl')));
    assert.equal(existsSync(join(dir, 'oracle/own/ps_abort_printf/csmain-cs_5_0/shader.wgsl')), false);
    assert.ok(existsSync(join(dir, 'oracle/own/ps_abort_printf/msg-ps_5_0/shader.wgsl')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
