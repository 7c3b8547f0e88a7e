// `--jobs N` (src/cli/pool.ts, src/cli/worker.ts): census, disasm --out-dir and lift --wgsl --out-dir
// on worker threads print what one thread prints, byte for byte, and write the same files. Over the
// committed fixtures with the failures a batch records (a missing path, a file named directly that is
// not a container, a truncated container, a folder named twice), run from source (test/cli/bin.ts under tsx) and from
// the build (bin/iridia.js over dist/); over ../shared/corpus and ../shared/oracle when present.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { FIXTURES, REPO, SHARED, readBytes, skipUnlessShared, walk } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';

const SOURCE = ['--import', 'tsx', join(REPO, 'test/cli/bin.ts')];
const BUILT = [join(REPO, 'bin/iridia.js')];
const built = needs(existsSync(join(REPO, 'dist/src/cli/worker.js')) ? false : 'dist/ is not built (npm run build)');
const tmp = mkdtempSync(join(tmpdir(), 'iridia-jobs-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function iridia(cli: readonly string[], args: readonly string[]): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [...cli, ...args], { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** A folder of inputs a batch records failures for, beside test/fixtures. */
function troubles(): string {
  const dir = join(tmp, 'troubles');
  mkdirSync(join(dir, 'deep/er'), { recursive: true });
  const vs = readBytes(join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/shader.dxbc'));
  writeFileSync(join(dir, 'deep/er/truncated.dxbc'), vs.subarray(0, 40));
  writeFileSync(join(dir, 'deep/notes.txt'), 'not a container\n');
  writeFileSync(join(dir, 'deep/er/ok.dxbc'), vs);
  return dir;
}

/** Every file under a folder, by its path relative to it, with its bytes. */
function tree(dir: string): Map<string, string> {
  return new Map(walk(dir).map((f) => [relative(dir, f), readFileSync(f).toString('latin1')]));
}

/** The run with --jobs 1 against each of `jobs` (a number, or 'default': no --jobs, by input size). */
function sameAcrossJobs(
  cli: readonly string[],
  args: readonly string[],
  jobs: readonly (number | 'default')[] = [2, 3],
): void {
  const [command, ...rest] = args;
  const one = iridia(cli, [command!, '--jobs', '1', ...rest]);
  assert.ok(one.status === 0 || one.status === 1, `${args.join(' ')}: ${one.err}`);
  for (const n of jobs) {
    const many = iridia(cli, [command!, ...(n === 'default' ? [] : ['--jobs', String(n)]), ...rest]);
    assert.equal(many.status, one.status, `--jobs ${n} ${args.join(' ')}: ${many.err}`);
    assert.equal(many.out, one.out, `--jobs ${n} ${args.join(' ')}: the same output as --jobs 1`);
    assert.equal(many.err, one.err, `--jobs ${n} ${args.join(' ')}: the same messages as --jobs 1`);
  }
}

test('census --jobs 2 and 3 print what --jobs 1 prints (text and JSON, failures included)', () => {
  const t = troubles();
  const notes = join(t, 'deep/notes.txt');
  const inputs = ['test/fixtures', t, join(tmp, 'missing'), notes, 'test/fixtures/container', 'README.md'];
  sameAcrossJobs(SOURCE, ['census', ...inputs]);
  sameAcrossJobs(SOURCE, ['census', '--json', ...inputs], [2]);
  // the failures are there to be compared: a missing path, a named non-container (twice: named, and
  // found in a folder named before it under the same name), a refusal
  const j = JSON.parse(iridia(SOURCE, ['census', '--json', '--jobs', '2', ...inputs]).out) as {
    unreadable: { path: string; code: string }[];
    errors: Record<string, number>;
  };
  assert.deepEqual(
    j.unreadable.map((u) => [u.path, u.code]),
    [
      [join(tmp, 'missing'), 'ENOENT'],
      [notes, 'E102_BAD_MAGIC'],
      [notes, 'E102_BAD_MAGIC'],
      ['README.md', 'E102_BAD_MAGIC'],
    ],
  );
  assert.deepEqual(j.errors, { E103_SIZE_MISMATCH: 1 });
});

test(
  'census from the build (bin/iridia.js): worker threads from dist/ print what one thread prints',
  { skip: built },
  () => {
    sameAcrossJobs(BUILT, ['census', '--json', 'test/fixtures', troubles()], [2]);
  },
);

test('disasm --out-dir --jobs 2 writes the files --jobs 1 writes and prints the same summary', () => {
  const t = troubles();
  for (const [cli, name] of [[SOURCE, 'source'], ...(built ? [] : [[BUILT, 'build'] as const])] as const) {
    const runs = [1, 2].map((n) => {
      const out = join(tmp, `disasm-${name}-${n}`);
      // the root '/': the fixtures and the folder in tmp are both under it
      const r = iridia(cli, ['disasm', '--jobs', String(n), 'test/fixtures', t, '--out-dir', out, '--root', '/']);
      assert.equal(r.status, 1, r.err); // the truncated container and a part-less DXIL file fail
      return { ...r, out: r.out.replace(out, 'DIR'), files: tree(out) };
    });
    assert.equal(runs[1]!.out, runs[0]!.out, name);
    assert.equal(runs[1]!.err, runs[0]!.err, name);
    assert.ok(runs[0]!.files.size > 100, `${name}: ${runs[0]!.files.size} listings`);
    assert.deepEqual(runs[1]!.files, runs[0]!.files, name);
  }
});

test('lift --wgsl --out-dir --jobs 2 writes the files --jobs 1 writes and counts the same refusals', () => {
  const t = troubles();
  for (const [cli, name] of [[SOURCE, 'source'], ...(built ? [] : [[BUILT, 'build'] as const])] as const) {
    const runs = [1, 2, 3].map((n) => {
      const out = join(tmp, `lift-${name}-${n}`);
      const r = iridia(cli, [
        'lift',
        '--wgsl',
        '--json',
        '--jobs',
        String(n),
        'test/fixtures',
        t,
        '--out-dir',
        out,
        '--root',
        '/',
      ]);
      assert.equal(r.status, 1, r.err); // refusals, the truncated container
      return { ...r, out: r.out.replaceAll(out, 'DIR'), files: tree(out) };
    });
    const j = JSON.parse(runs[0]!.out) as { written: number; failed: unknown[]; refusals: Record<string, number> };
    assert.ok(
      j.written > 100 && j.failed.length > 0 && Object.keys(j.refusals).length > 1,
      `${name}: ${runs[0]!.out.slice(0, 300)}`,
    );
    for (const r of runs.slice(1)) {
      assert.equal(r.out, runs[0]!.out, name);
      assert.equal(r.err, runs[0]!.err, name);
      assert.deepEqual(r.files, runs[0]!.files, name);
    }
  }
});

test('--jobs takes 1 to 64: 0, 65 and a word are usage errors (exit 2)', () => {
  for (const bad of ['0', '65', 'two']) {
    const r = iridia(SOURCE, ['census', '--jobs', bad, 'test/fixtures/container']);
    assert.equal(r.status, 2, `--jobs ${bad}: ${r.err}`);
    assert.match(r.err, /--jobs/);
  }
});

test(
  'census of ../shared/corpus and oracle: --jobs 2 and the default print what --jobs 1 prints',
  { skip: skipUnlessShared('corpus') },
  () => {
    const inputs = ['corpus', 'oracle'].map((f) => join(SHARED, f)).filter((f) => existsSync(f));
    // 'default': over 2,000 files, worker threads wherever Node sees more than one core
    sameAcrossJobs(existsSync(BUILT[0]!) && !built ? BUILT : SOURCE, ['census', '--json', ...inputs], [2, 'default']);
  },
);
