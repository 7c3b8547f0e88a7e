// The --json contract (docs/json.md): every command's JSON carries "schema": "iridia.<command>/1" and
// matches the schema docs/json.md gives for it; errors under --json are JSON on stdout with the
// exit status they have without --json; every example on the page is real (run here and compared
// with the text shown); every command of the registry has a schema on the page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../helpers/shared.js';
import { validate, type Schema } from './schema.js';
import { commands } from '../../src/cli/main.js';

const BIN = join(REPO, 'test/cli/bin.ts');
const tmp = mkdtempSync(join(tmpdir(), 'iridia-json-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const page = readFileSync(join(REPO, 'docs/json.md'), 'utf8');

/** The named schemas: each ```json schema NAME block. */
const schemas: Record<string, Schema> = {};
for (const m of page.matchAll(/```json schema (\S+)\n([\s\S]*?)```/g)) schemas[m[1]!] = JSON.parse(m[2]!) as Schema;

/** The examples: each ```console block, `$ ` and the command, then its output. */
const examples = [...page.matchAll(/```console\n\$ (.*)\n([\s\S]*?)```/g)].map((m) => ({
  line: m[1]!,
  output: m[2]!,
}));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `out/...` arguments are put under a temporary folder (and said back as out/...). */
function iridia(args: readonly string[], stdin?: string | Buffer): Run {
  const mapped = args.map((a) => (a.startsWith('out/') ? join(tmp, a) : a));
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, ...mapped], {
    cwd: REPO,
    input: stdin,
    maxBuffer: 1 << 26,
  });
  return { status: r.status, stdout: r.stdout.toString().split(`${tmp}/`).join(''), stderr: r.stderr.toString() };
}

/** The example's output matches the text shown, a line `...` standing for any number of lines. */
function matchesShown(actual: string, shown: string): boolean {
  const a = actual.split('\n');
  const s = shown.split('\n');
  const go = (i: number, j: number): boolean => {
    if (j === s.length) return i === a.length;
    if (s[j] === '...') {
      for (let k = i; k <= a.length; k++) if (go(k, j + 1)) return true;
      return false;
    }
    return i < a.length && a[i] === s[j] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

/** Checks one JSON output against its command's schema (or the error schema). */
function checkJson(command: string, stdout: string, what: string): Record<string, unknown> {
  const j = JSON.parse(stdout) as Record<string, unknown>;
  assert.equal(j['schema'], `iridia.${command}/1`, `${what}: the schema member`);
  assert.equal(Object.keys(j)[0], 'schema', `${what}: schema comes first`);
  const s = 'error' in j ? schemas['error'] : schemas[command];
  assert.ok(s, `docs/json.md has a schema for ${command}`);
  assert.deepEqual(validate(s, j, schemas), [], `${what} against docs/json.md`);
  return j;
}

test('docs/json.md: a schema for every command of the registry, and the shared ones', () => {
  for (const name of [...Object.keys(commands), 'error', 'batch'])
    assert.ok(schemas[name], `docs/json.md has a json schema block for ${name}`);
  for (const name of Object.keys(commands))
    assert.ok(
      examples.some((e) => e.line.includes(`iridia ${name} `)),
      `docs/json.md has an example of iridia ${name}`,
    );
});

test('the schema checker finds what is wrong (a missing member, an extra one, a wrong type, a wrong const)', () => {
  const info = schemas['verify']!;
  const good = {
    schema: 'iridia.verify/1',
    containers: 1,
    valid: 1,
    unsigned: 0,
    stale: 0,
    staleFiles: [],
    errors: [],
    roundtrip: null,
  };
  assert.deepEqual(validate(info, good, schemas), []);
  const { valid: _valid, ...missing } = good;
  assert.match(validate(info, missing, schemas).join(), /valid is missing/);
  assert.match(validate(info, { ...good, extra: 1 }, schemas).join(), /extra is not in the schema/);
  assert.match(validate(info, { ...good, stale: '0' }, schemas).join(), /\$\.stale: string where integer/);
  assert.match(validate(info, { ...good, schema: 'iridia.info/1' }, schemas).join(), /is not "iridia.verify\/1"/);
  assert.match(validate(info, { ...good, roundtrip: { identical: 1 } }, schemas).join(), /none of 2 branches/);
  assert.match(validate(schemas['lift']!, { schema: 'iridia.lift/1' }, schemas).join(), /none of 2 branches/);
  assert.match(validate({ minimum: 1 }, 0, schemas).join(), /does not know/);
});

for (const ex of examples) {
  test(`docs/json.md example: ${ex.line.slice(0, 100)}`, () => {
    const echo = /^echo '(.*)' \| iridia (.*)$/.exec(ex.line);
    const plain = /^iridia (.*)$/.exec(ex.line);
    assert.ok(echo || plain, `an example line is "iridia ..." or "echo '...' | iridia ...": ${ex.line}`);
    const args = (echo ? echo[2]! : plain![1]!).split(' ');
    const r = iridia(args, echo ? `${echo[1]}\n` : undefined);
    assert.ok(matchesShown(r.stdout, ex.output), `the output shown in docs/json.md for ${ex.line}:\n${r.stdout}`);
    const j = checkJson(args[0]!, r.stdout, ex.line);
    assert.equal(r.status, 'error' in j ? 1 : 0, r.stderr);
  });
}

const VS = 'examples/vertex-color.dxbc';
const D9 = 'test/fixtures/oracle/own-d3d9/literals_def/main-ps_3_0-zi/shader.d3d9';
const L9 = 'test/fixtures/oracle/own/ps_level9_tex/main-ps_4_0_level_9_3/shader.dxbc';
const CS = 'test/fixtures/oracle/own/cs_basic/main-cs_5_0/shader.dxbc';
const PS = 'test/fixtures/oracle/own/ps_sample_basic/main-ps_5_0/shader.dxbc';
const DXIL = 'test/fixtures/dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil';
const RTS0 = 'test/fixtures/container/direct3d12__SDL_shaders_d3d12__D3D12_RootSig_Color.dxil';

/** Further runs, each with the exit status it must have: batch forms, other inputs, errors. */
const RUNS: ReadonlyArray<readonly [number, readonly string[], string?]> = [
  [0, ['info', '--json', D9]],
  [0, ['info', '--json', L9]],
  [0, ['info', '--json', '-'], `file:${VS}`],
  [0, ['info', '--json', RTS0, '-o', 'out/info.json']],
  [1, ['info', '--json', 'test/fixtures']],
  [1, ['info', '--json', 'no/such/file.dxbc']],
  [2, ['info', '--json', '--bogus', VS]],
  [2, ['info', '--json']],
  [1, ['verify', '--json', 'test/fixtures/oracle/own/ps_abort_printf']],
  [1, ['verify', '--json', 'README.md', 'no/such/dir']],
  [0, ['part', '--json', VS, 'RDEF', '--remove', '-o', 'out/no-rdef.dxbc']],
  [1, ['part', '--json', VS, 'NONE', '-o', 'out/none.bin']],
  [2, ['part', '--json', VS, 'SHEX']],
  [0, ['strip', '--json', '--debug', '--rootsignature', RTS0, '-o', 'out/s.dxil']],
  [2, ['strip', '--json', VS, '-o', 'out/s.dxbc']],
  [1, ['census', '--json', 'test/fixtures/container', 'README.md']],
  [0, ['carve', '--json', 'test/fixtures/container', '--out-dir', 'out/carve', '--keep-unsigned']],
  [2, ['carve', '--json', VS]],
  [0, ['disasm', '--json', D9]],
  [0, ['disasm', '--json', DXIL]],
  [0, ['disasm', '--json', '--flags', '0x24', VS]],
  [0, ['disasm', '--json', 'test/fixtures/dxil', '--out-dir', 'out/asm']],
  [2, ['disasm', '--json', '--flags', 'nonsense', VS]],
  [0, ['reflect', '--json', DXIL]],
  [0, ['reflect', '--json', '--d3d', VS]],
  [1, ['reflect', '--json', '--d3d', 'test/fixtures/dxil', '--out-dir', 'out/reflect']],
  [1, ['reflect', '--json', RTS0]],
  [0, ['lift', '--json', '--wgsl', VS]],
  [0, ['lift', '--json', '--ir', DXIL]],
  [1, ['lift', '--json', '--wgsl', 'test/fixtures/dxil', '--out-dir', 'out/wgsl']],
  [1, ['lift', '--json', RTS0]],
  [0, ['run', '--json', '--seed', '7', CS]],
  [0, ['run', '--json', '--seed', '7', PS, '--size', '2x2']],
  [
    0,
    ['run', '--input', '-', PS],
    '{"width":1,"height":1,"buffers":{"cb0":{"f32":[1,1,1,1]}},"textures":{"t0":{"width":1,"words":{"f32":[1,2,3,4]}}}}',
  ],
  [1, ['run', '--json', '--input', '-', CS], '{"workgroups":[1000000000,1,1]}'],
  [2, ['run', '--json', '--seed', '1', '--workgroups', '0', CS]],
];

test('every command with --json: its schema, batch forms and errors included, with the right exit status', () => {
  for (const [status, args, stdin] of RUNS) {
    // stdin: a JSON text, or file:PATH for a file's bytes
    const input = stdin?.startsWith('file:') ? readFileSync(join(REPO, stdin.slice(5))) : stdin;
    const r = iridia(args, input);
    const what = args.join(' ');
    assert.equal(r.status, status, `${what}: ${r.stderr}`);
    const o = args.indexOf('-o');
    const toFile = o >= 0 && args[o + 1]!.endsWith('.json');
    if (toFile) assert.equal(r.stdout, '', `${what}: -o takes the JSON`);
    const j = checkJson(args[0]!, toFile ? readFileSync(join(tmp, args[o + 1]!), 'utf8') : r.stdout, what);
    if (status !== 0)
      assert.ok('error' in j || 'failed' in j || 'errors' in j || 'unreadable' in j, `${what}: says what failed`);
  }
});
