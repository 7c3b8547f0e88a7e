// The CLI's shared helpers (src/cli/io.ts) in process: the progress bar (on a terminal: the time left,
// and a line cleared at the end; nothing otherwise), formatSeconds, InputError naming the path, and
// jsonError's object for each kind of error; a batch's output paths against path.relative and join.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative, resolve } from 'node:path';
import {
  InputError,
  batchInputs,
  formatSeconds,
  jsonError,
  outputPaths,
  progressBar,
  readInput,
  scratchReader,
} from '../../src/cli/io.js';
import { UsageError } from '../../src/cli/args.js';
import { IridiaError } from '../../src/errors.js';

function captureStderr(tty: boolean, f: () => void): string {
  const write = process.stderr.write.bind(process.stderr);
  const was = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
  let out = '';
  Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true });
  process.stderr.write = ((s: string) => ((out += s), true)) as typeof process.stderr.write;
  try {
    f();
  } finally {
    process.stderr.write = write;
    if (was) Object.defineProperty(process.stderr, 'isTTY', was);
    else delete (process.stderr as { isTTY?: boolean }).isTTY;
  }
  return out;
}

test('the progress bar: on a terminal, done/total with the time left, then the line cleared; nothing otherwise', () => {
  const realNow = Date.now;
  let now = 1_000_000;
  Date.now = () => now;
  try {
    const shown = captureStderr(true, () => {
      const bar = progressBar('census');
      now += 2000;
      bar(1, 4); // 2 s for 1 of 4: 6 s left
      now += 2000;
      bar(4, 4);
      bar.end();
    });
    const frames = shown.split('\r\x1b[2K');
    assert.deepEqual(frames, [
      '',
      `census [${'#'.repeat(8)}${'.'.repeat(22)}] 1/4, 6s left`,
      `census [${'#'.repeat(30)}] 4/4`,
      '',
    ]);
    assert.ok(shown.endsWith('\r\x1b[2K'), 'the bar clears its line at the end');
    assert.equal(
      captureStderr(false, () => {
        const bar = progressBar('census');
        bar(1, 2);
        bar.end();
      }),
      '',
    );
  } finally {
    Date.now = realNow;
  }
});

test('formatSeconds', () => {
  assert.deepEqual([0, 42.4, 59.6, 185, 3725].map(formatSeconds), ['0s', '42s', '1m00s', '3m05s', '1h02m']);
});

test('a folder or a missing file is an InputError naming the path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-io-'));
  try {
    assert.throws(
      () => readInput(dir),
      (e: unknown) =>
        e instanceof InputError && e.code === 'EISDIR' && e.message === `${dir}: is a directory, not a file`,
    );
    const missing = join(dir, 'nope');
    assert.throws(() => readInput(missing), {
      name: 'InputError',
      code: 'ENOENT',
      message: `${missing}: no such file or directory`,
    });
    assert.throws(() => batchInputs([missing]), { name: 'InputError', path: missing });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('jsonError: code, message, where; the path of the input read last', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-io-'));
  try {
    try {
      readInput(join(dir, 'x'));
    } catch {
      // the input read last is named below
    }
    const e = new IridiaError('E106_PART_SIZE', 'too big', { offset: 0x38, part: 'RDEF' });
    assert.deepEqual(jsonError('info', e), {
      schema: 'iridia.info/1',
      error: {
        code: 'E106_PART_SIZE',
        message: 'part RDEF, offset 0x38: too big',
        reason: 'too big',
        path: join(dir, 'x'),
        offset: 0x38,
        part: 'RDEF',
      },
    });
    assert.deepEqual(jsonError('sign', new UsageError('sign takes one FILE')), {
      schema: 'iridia.sign/1',
      error: { code: 'USAGE', message: 'sign takes one FILE', offset: null, part: null },
    });
    const internal = jsonError('run', new TypeError('boom')) as { error: { code: string; message: string } };
    assert.equal(internal.error.code, 'INTERNAL');
    assert.match(internal.error.message, /^internal error \(a bug in iridia, please report it\): boom$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a batch's output paths are path.relative's and path.join's (the root's prefix cut once)", () => {
  // the rule as docs/cli.md states it, with node:path alone: DIR/<input relative to the root, its
  // extension replaced>; an input outside the root (or the root itself) is a usage error
  const reference = (input: string, outDir: string, root: string, ext: string): string | undefined => {
    const rel = relative(resolve(root), resolve(input));
    if (rel.startsWith('..') || rel === '' || resolve(rel) === rel) return undefined;
    return join(outDir, (extname(rel) ? rel.slice(0, -extname(rel).length) : rel) + ext);
  };
  const roots = ['.', '/', 'test', 'test/', './test/fixtures', '..', '/tmp', '/tmp/'];
  const outDirs = ['out', './out/', '/', '.', '', 'a/../b', '/tmp/x/'];
  const inputs = [
    'test/a.dxbc',
    './test/b/c.dxbc',
    '/tmp/x.y.z',
    'test',
    '..foo/x.dxbc',
    'testing/x.dxbc',
    'test/../test/q.dxbc',
  ];
  inputs.push('noext', '.hidden', 'test/.b', 'test/fixtures/a.b/c', '/', '../census/test/d.dxbc', '/tmp');
  let cases = 0;
  for (const root of roots)
    for (const outDir of outDirs) {
      const output = outputPaths(outDir, root, '.asm');
      for (const input of inputs) {
        const want = reference(input, outDir, root, '.asm');
        if (want === undefined) assert.throws(() => output(input), UsageError, `${input} under ${root}`);
        else assert.equal(output(input), want, `${input} under ${root} into ${outDir}`);
        cases++;
      }
    }
  assert.equal(cases, roots.length * outDirs.length * inputs.length);
});

test('scratchReader: each file whole (small, empty, past the first buffer); a missing file is an InputError naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-scratch-'));
  try {
    const files: [string, Uint8Array][] = [
      ['small', Uint8Array.from([1, 2, 3])],
      ['empty', new Uint8Array(0)],
      // past the reader's first 64 KiB buffer: it grows and reads on
      ['large', Uint8Array.from({ length: 200_000 }, (_, k) => (k * 7) & 255)],
      ['after', Uint8Array.from([9, 8])],
    ];
    for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
    const read = scratchReader();
    for (const [name, bytes] of files) assert.deepEqual(read(join(dir, name)), bytes, name);
    // the same bytes as readInput, and a second reader shares nothing with the first
    assert.deepEqual(scratchReader()(join(dir, 'large')), readInput(join(dir, 'large')));
    const missing = join(dir, 'missing');
    assert.throws(
      () => read(missing),
      (e: unknown) => e instanceof InputError && e.message.includes(missing),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('batchInputs: a folder named with 32 or more of its files is listed once, and the answer is the stat one: files as named, folders walked for containers, a missing name an InputError', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-listed-'));
  try {
    const dxbc = new TextEncoder().encode('DXBC....');
    const named: string[] = [];
    for (let k = 0; k < 40; k++) {
      const p = join(dir, `f${k}.bin`);
      writeFileSync(p, k % 2 ? dxbc : Uint8Array.from([1, 2, 3, 4]));
      named.push(p);
    }
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'a.dxbc'), dxbc);
    writeFileSync(join(dir, 'sub', 'not-a-container'), Uint8Array.from([0, 0, 0, 0]));
    symlinkSync(join(dir, 'sub'), join(dir, 'link-to-sub'));
    const inputs = [...named, join(dir, 'sub'), join(dir, 'link-to-sub')];
    // named files whatever they hold (in order); under each folder only the containers
    assert.deepEqual(batchInputs(inputs), [...named, join(dir, 'sub', 'a.dxbc'), join(dir, 'link-to-sub', 'a.dxbc')]);
    // the same answer where each path is stat'ed (fewer than 32 in the folder)
    assert.deepEqual(batchInputs(inputs.slice(30)), [
      ...named.slice(30),
      join(dir, 'sub', 'a.dxbc'),
      join(dir, 'link-to-sub', 'a.dxbc'),
    ]);
    const missing = join(dir, 'f999.bin');
    assert.throws(
      () => batchInputs([...named, missing]),
      (e: unknown) => e instanceof InputError && e.message.includes(missing),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
