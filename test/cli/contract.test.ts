// The command line's contract (issue 14, docs/cli.md), run as a user runs it (a separate process over
// src/, test/cli/bin.ts): `-` reads standard input and -o writes the one output for every command
// that reads one file; binary output is refused on a terminal; usage, --help (every option of the
// usage line explained, the example real: it is run here) and --version; a missing file or a
// folder names its path; run's job checked by key and bounded; carve's and census's naming; strip
// per flag; the fixes: info on a bare Direct3D 9 program and level 9, reflect's text by name,
// disasm of a root-signature container, lift on DXIL and on a root signature.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, readBytes } from '../helpers/shared.js';
import { commands, VERSION } from '../../src/cli/main.js';
import { digestState, parseContainer } from '../../src/container/container.js';
import { STRIP_PARTS } from '../../src/cli/commands/strip.js';

const BIN = join(REPO, 'test/cli/bin.ts');
/** tsx by URL, so that a run in another folder finds it. */
const TSX = import.meta.resolve('tsx');
const tmp = mkdtempSync(join(tmpdir(), 'iridia-contract-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
// The examples of --help name repository files; they run in a folder that has them.
symlinkSync(join(REPO, 'examples'), join(tmp, 'examples'));
symlinkSync(join(REPO, 'test'), join(tmp, 'test'));

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
  text: string;
}

function iridia(args: readonly string[], opts: { stdin?: Buffer | string; tty?: boolean; cwd?: string } = {}): Run {
  const pre = opts.tty ? ['--import', join(REPO, 'test/cli/tty-hook.mjs')] : [];
  const r = spawnSync(process.execPath, ['--import', TSX, ...pre, BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    input: opts.stdin,
    maxBuffer: 1 << 26,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString(), text: r.stdout.toString() };
}

const VS = 'examples/vertex-color.dxbc';
const D9 = 'test/fixtures/oracle/own-d3d9/literals_def/main-ps_3_0-zi/shader.d3d9';
const L91 = 'test/fixtures/oracle/own/ps_level9_tex/main-ps_4_0_level_9_1/shader.dxbc';
const L93 = 'test/fixtures/oracle/own/ps_level9_tex/main-ps_4_0_level_9_3/shader.dxbc';
const CS = 'test/fixtures/oracle/own/cs_basic/main-cs_5_0/shader.dxbc';
const RTS0 = 'test/fixtures/container/direct3d12__SDL_shaders_d3d12__D3D12_RootSig_Color.dxil';
const DXIL = 'test/fixtures/dxil/gpu__color.frag.sm60.dxil';
const vs = readBytes(join(REPO, VS));

test('- reads standard input and -o writes the output, the same bytes as a named file and stdout', () => {
  const cases: ReadonlyArray<readonly string[]> = [
    ['info', 'FILE'],
    ['disasm', 'FILE'],
    ['disasm', '--json', 'FILE'],
    ['reflect', 'FILE'],
    ['reflect', '--d3d', 'FILE'],
    ['lift', '--wgsl', 'FILE'],
    ['run', '--seed', '2', 'FILE'],
  ];
  for (const c of cases) {
    const file = c[0] === 'run' ? CS : VS;
    const named = iridia(c.map((a) => (a === 'FILE' ? file : a)));
    assert.equal(named.status, 0, `${c.join(' ')}: ${named.stderr}`);
    const out = join(tmp, `${c.join('_')}.out`);
    const piped = iridia([...c.map((a) => (a === 'FILE' ? '-' : a)), '-o', out], {
      stdin: readFileSync(join(REPO, file)),
    });
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(piped.text, '', `${c.join(' ')} -o: nothing on stdout`);
    // the text names its input ('-' for standard input) in some commands: compare with the name replaced
    const got = readFileSync(out, 'utf8').split('"path": "-"').join(`"path": "${file}"`);
    assert.equal(got.replace(/^-\n/, `${file}\n`), named.text, c.join(' '));
  }
  // binary outputs from standard input: sign and part
  const signed = iridia(['sign', '-'], { stdin: Buffer.from(vs) });
  assert.equal(signed.status, 0, signed.stderr);
  assert.deepEqual(new Uint8Array(signed.stdout), vs);
  const shex = iridia(['part', '-', 'SHEX', '-o', join(tmp, 'shex.bin')], { stdin: Buffer.from(vs) });
  assert.equal(shex.status, 0, shex.stderr);
  assert.equal(readFileSync(join(tmp, 'shex.bin')).byteLength, 336);
});

test('binary output is refused on a terminal (exit 2, nothing written), text is not', () => {
  for (const args of [
    ['sign', VS],
    ['part', VS, 'SHEX'],
    ['strip', '--reflect', VS],
    ['sign', VS, '-o', '-'],
  ]) {
    const r = iridia(args, { tty: true });
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout.byteLength, 0);
    assert.match(r.stderr, /refusing to write binary data to a terminal; use -o OUT/);
  }
  assert.equal(iridia(['info', VS], { tty: true }).status, 0);
});

test('iridia alone: usage on stderr, exit 2; --help lists --version; --version is package.json’s', () => {
  const bare = iridia([]);
  assert.equal(bare.status, 2);
  assert.equal(bare.text, '');
  assert.match(bare.stderr, /^iridia — read, check/);
  const help = iridia(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.text, /--version +the version of iridia/);
  for (const name of Object.keys(commands)) assert.match(help.text, new RegExp(`\\n  ${name} +\\S`), name);
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
  assert.equal(iridia(['--version']).text, `iridia ${pkg.version}\n`);
});

test('each command --help: every option of its usage explained, and its example runs', () => {
  for (const [name, entry] of Object.entries(commands)) {
    const r = iridia([name, '--help']);
    assert.equal(r.status, 0, name);
    const [usage, ...rest] = r.text.split('\noptions:\n');
    assert.ok(rest.length === 1, `${name} --help has an options: section`);
    assert.match(usage!, new RegExp(`^usage: iridia ${name} `), name);
    const options = rest[0]!;
    for (const opt of new Set(entry.usage.match(/(?<![\w-])--?[a-z][a-z0-9-]*/g) ?? []))
      assert.match(options, new RegExp(`^ +(-o, )?${opt}\\b`, 'm'), `${name} --help explains ${opt}`);
    if (/--json/.test(entry.usage)) assert.match(options, new RegExp(`iridia\\.${name}/1`), `${name}: the schema`);
    const example = /\nexamples?:\n {2}iridia (.*)\n/.exec(r.text);
    assert.ok(example, `${name} --help has an example`);
    const ran = iridia(example[1]!.split(' '), { cwd: tmp });
    assert.equal(ran.status, 0, `${name}'s example: iridia ${example[1]}: ${ran.stderr}`);
  }
});

test('a missing file, a folder and a bad container name their path (exit 1, no bare EISDIR)', () => {
  const missing = iridia(['info', 'no/such.dxbc']);
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, 'iridia info: no/such.dxbc: no such file or directory\n');
  const dir = iridia(['disasm', 'examples']);
  assert.equal(dir.status, 1);
  assert.equal(dir.stderr, 'iridia disasm: examples: is a directory, not a file\n');
  const bad = iridia(['reflect', 'README.md']);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^iridia reflect: README\.md: part header, offset 0x0: .*\[E102_BAD_MAGIC\]\n$/);
  const job = iridia(['run', CS, '--input', 'no/job.json']);
  assert.equal(job.status, 1);
  assert.equal(job.stderr, 'iridia run: no/job.json: no such file or directory\n');
});

test('run: the job is checked by key before anything runs, and its size is bounded', () => {
  const job = (j: unknown): Run => iridia(['run', CS, '--input', '-'], { stdin: JSON.stringify(j) });
  const refused = (j: unknown, message: RegExp): void => {
    const r = job(j);
    assert.equal(r.status, 1, JSON.stringify(j));
    assert.match(r.stderr, message, JSON.stringify(j));
    assert.match(r.stderr, /\[E109_BAD_ARGUMENT\]\n$/);
  };
  refused({ buffers: { u0: 'words' } }, /job key buffers\.u0: takes an array of numbers, not the string "words"/);
  refused({ buffers: { u0: null } }, /job key buffers\.u0: takes an array of numbers, not null/);
  refused({ buffers: { u0: [1, 2, '3'] } }, /job key buffers\.u0\[2\]: is the string "3"; every element is a number/);
  refused({ buffers: { u0: [1, [2]] } }, /job key buffers\.u0\[1\]: is an array/);
  refused({ buffers: { u0: { f32: [1, null] } } }, /job key buffers\.u0\.f32\[1\]: is null/);
  refused(
    { buffers: { u0: [0.5] } },
    /buffers\.u0\[0\]: 0\.5 is not a whole number \(floats go in \{"f32": \[\.\.\.\]\}\)/,
  );
  refused({ buffers: { u0: [2 ** 32] } }, /buffers\.u0\[0\]: 4294967296 is not a 32-bit word/);
  refused({ workgroup: [1, 1, 1] }, /job key workgroup: is not a key of the job \(it takes workgroups, width,/);
  refused({ workgroups: [1, 1] }, /job key workgroups: takes \[x, y, z\]/);
  refused({ budget: 0 }, /job key budget: 0 is not from 1 to 268435456/);
  refused(
    { textures: { t0: { width: 1, words: [1, 2, 3] } } },
    /textures\.t0\.words: 3 words; 1 x 1 x 1 texels take 4/,
  );
  // an unknown resource: the names the program takes are listed (IR name, register, group:binding, RDEF name)
  refused({ buffers: { u9: [0] } }, /job key buffers\.u9: names no resource of the program; it takes u0 \/ 3:0 \/ Out/);
  // the RDEF name and the register both name the resource
  for (const key of ['Out', 'u0', '3:0']) {
    const r = job({ workgroups: [1, 1, 1], buffers: { [key]: [0, 0, 0, 0, 0, 0, 0, 0] } });
    assert.equal(r.status, 0, `${key}: ${r.stderr}`);
    const j = JSON.parse(r.text) as { outputs: { u0: number[] }; floats: { u0: number[] } };
    assert.deepEqual(j.outputs.u0, [0, 0, 0, 0, 1, 0, 0, 1], key);
    assert.deepEqual(
      j.floats.u0,
      [0, 0, 0, 0, 2 ** -149, 0, 0, 2 ** -149],
      'words 1 read as floats: the least denormal',
    );
  }
  // 10^9 thread groups: refused at once (a run of that size would take days)
  const started = Date.now();
  refused(
    { workgroups: [1000, 1000, 1000] },
    /job key workgroups: 1000 x 1000 x 1000 = 1000000000 thread groups, more than a run's 65536/,
  );
  refused({ workgroups: [100000, 1, 1] }, /workgroups\[0\]: 100000 is not from 1 to 65535/);
  refused({ width: 4096, height: 4096 }, /4096 x 4096 pixels, more than 1048576/);
  assert.ok(Date.now() - started < 20000, 'the refusals come before any run');
  const seeded = iridia(['run', '--seed', '1', '--workgroups', '65535,65535,1', CS]);
  assert.equal(seeded.status, 2);
  assert.match(seeded.stderr, /--workgroups: 65535 x 65535 x 1 = 4294836225 thread groups, more than 65536/);
});

test('carve: .dxil for DXIL, --keep-unsigned and --keep-stale, rejections listed with file, offset and reason', () => {
  // a DXIL container dxc wrote without a validator: digest zero
  const unsigned = readBytes(
    join(REPO, 'test/fixtures/container/asm__control-flow-multi-break-with-non-idom-loop-header.dxil'),
  );
  const stale = vs.slice();
  stale[200] = stale[200]! ^ 1;
  const dxil = readBytes(join(REPO, DXIL));
  const parts = [new Uint8Array(5), vs, new Uint8Array(3), stale, unsigned, dxil];
  const pack = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  const at: number[] = [];
  parts.reduce((o, p) => (at.push(o), pack.set(p, o), o + p.byteLength), 0);
  const packPath = join(tmp, 'pack.bin');
  writeFileSync(packPath, pack);
  const carve = (...flags: string[]) => {
    const out = join(tmp, `carve${flags.join('')}`);
    const r = iridia(['carve', '--json', packPath, '--out-dir', out, ...flags]);
    assert.equal(r.status, 0, r.stderr);
    return {
      j: JSON.parse(r.text) as { rejections: { path: string; offset: number; reason: string }[] },
      files: readdirSync(out).sort(),
    };
  };
  const hex = (n: number): string => n.toString(16);
  const plain = carve();
  assert.deepEqual(plain.files, [`pack.bin@${hex(at[1]!)}.dxbc`, `pack.bin@${hex(at[5]!)}.dxil`].sort());
  assert.deepEqual(
    plain.j.rejections.map((r) => [r.path, r.offset, r.reason]),
    [
      [packPath, at[3], 'stale-digest'],
      [packPath, at[4], 'unsigned'],
    ],
  );
  assert.deepEqual(
    carve('--keep-unsigned').files,
    [`pack.bin@${hex(at[1]!)}.dxbc`, `pack.bin@${hex(at[4]!)}.dxil`, `pack.bin@${hex(at[5]!)}.dxil`].sort(),
  );
  assert.equal(carve('--keep-stale', '--keep-unsigned').files.length, 4);
});

test('census --json names the files behind each error code and each finding kind', () => {
  const trailing = new Uint8Array(vs.byteLength + 8);
  trailing.set(vs);
  new DataView(trailing.buffer).setUint32(24, trailing.byteLength, true);
  const dir = join(tmp, 'census');
  rmSync(dir, { recursive: true, force: true });
  const files = { 'a/trailing.dxbc': trailing, 'b/short.dxbc': vs.subarray(0, 40), 'c/ok.dxbc': vs };
  for (const [p, b] of Object.entries(files)) {
    const f = join(dir, p);
    spawnSync('mkdir', ['-p', join(f, '..')]);
    writeFileSync(f, b);
  }
  const r = iridia(['census', '--json', dir]);
  assert.equal(r.status, 1);
  const j = JSON.parse(r.text) as {
    filesBehind: { errors: Record<string, string[]>; findings: Record<string, string[]> };
  };
  assert.deepEqual(j.filesBehind.errors, { E103_SIZE_MISMATCH: [join(dir, 'b/short.dxbc')] });
  assert.deepEqual(j.filesBehind.findings, { trailing: [join(dir, 'a/trailing.dxbc')] });
});

test('strip: each flag removes its parts, the others are kept byte for byte in order, re-signed', () => {
  const debugBuild = 'test/fixtures/oracle/own/ps_level9_tex/main-ps_4_0_level_9_1-zi/shader.dxbc';
  const src = parseContainer(readBytes(join(REPO, debugBuild)));
  for (const flag of Object.keys(STRIP_PARTS) as (keyof typeof STRIP_PARTS)[]) {
    const out = join(tmp, `strip-${flag}.dxbc`);
    const r = iridia(['strip', `--${flag}`, debugBuild, '-o', out]);
    assert.equal(r.status, 0, r.stderr);
    const c = parseContainer(readBytes(out));
    assert.equal(digestState(c), 'valid');
    const kept = src.parts.filter((p) => !STRIP_PARTS[flag].includes(p.kind));
    assert.deepEqual(
      c.parts.map((p) => p.kind),
      kept.map((p) => p.kind),
      flag,
    );
    c.parts.forEach((p, i) => assert.deepEqual(p.data, kept[i]!.data));
  }
  assert.deepEqual(STRIP_PARTS, {
    reflect: ['RDEF', 'STAT'],
    debug: ['SDBG', 'SPDB', 'ILDB'],
    priv: ['PRIV'],
    rootsignature: ['RTS0'],
  });
  // the -zi build: SPDB removed by --debug, RDEF and STAT by --reflect
  const both = join(tmp, 'strip-both.dxbc');
  assert.equal(iridia(['strip', '--reflect', '--debug', debugBuild, '-o', both]).status, 0);
  assert.deepEqual(
    parseContainer(readBytes(both)).parts.map((p) => p.kind),
    ['Aon9', 'SHDR', 'ISGN', 'OSGN'],
  );
  assert.equal(iridia(['strip', VS, '-o', both]).status, 2, 'strip needs a flag');
});

test('info: a bare Direct3D 9 program, and level_9_x with the feature level its Aon9 program needs', () => {
  const d9 = iridia(['info', D9]);
  assert.equal(d9.status, 0, d9.stderr);
  const bytes = readBytes(join(REPO, D9));
  assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true), 0xffff0300, 'ps_3_0 version token');
  assert.match(
    d9.text,
    /^ {2}format {3}Direct3D 9 program \(no container\)\n {2}size {5}460 bytes\n {2}program {2}ps_3_0\n/m,
  );
  assert.match(
    d9.text,
    /\n {4} 0 {2}DBUG {2}offset 0x000004 {2}size 272\n {4} 1 {2}CTAB {2}offset 0x000118 {2}size 80\n$/,
  );
  assert.match(
    iridia(['info', L91]).text,
    /program {2}ps_4_0_level_9_x \(feature level 9_1: a ps_2_0 program in Aon9\)/,
  );
  assert.match(
    iridia(['info', L93]).text,
    /program {2}ps_4_0_level_9_x \(feature level 9_3: a ps_2_x program in Aon9\)/,
  );
});

test("reflect's text: feature levels as 11_0 and 9_1, bindings by kind and register", () => {
  const vsText = iridia(['reflect', VS]).text;
  assert.match(vsText, /^feature {3}level 11_0, requires 0x0$/m);
  assert.match(vsText, /^binding {3}Transform: cbuffer cb0$/m);
  const l9 = iridia(['reflect', 'test/fixtures/oracle/own/ps_level9_tex/main-ps_4_0_level_9_1/shader.dxbc']).text;
  assert.match(l9, /^feature {3}level 9_1,/m);
  assert.match(l9, /^binding {3}SA: sampler s0\nbinding {3}SB: sampler s1\nbinding {3}A: texture float4 2d t0\n/m);
  assert.match(l9, /^binding {3}C: texture float4 cube t2$/m);
  assert.doesNotMatch(l9 + vsText, /type \d+ at/);
});

test('disasm of a root-signature container prints its RTS0; lift refuses it by name and lifts DXIL', () => {
  const d = iridia(['disasm', RTS0]);
  assert.equal(d.status, 0, d.stderr);
  // SDL's D3D12_VertexShader.hlsl ColorRS: RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT |
  // DENY_DOMAIN_SHADER_ROOT_ACCESS | DENY_GEOMETRY_SHADER_ROOT_ACCESS | DENY_HULL_SHADER_ROOT_ACCESS),
  // RootConstants(num32BitConstants=32, b0)
  assert.equal(
    d.text,
    'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT|DenyHullShaderRootAccess|DenyDomainShaderRootAccess|DenyGeometryShaderRootAccess),RootConstants(num32BitConstants=32b0),\n',
  );
  const l = iridia(['lift', RTS0]);
  assert.equal(l.status, 1);
  assert.match(
    l.stderr,
    /root signature alone \(RTS0\): there is no program to lift \(iridia disasm prints it\) \[E108_PART_MISSING\]/,
  );
  const dxil = iridia(['lift', DXIL]);
  assert.equal(dxil.status, 0, dxil.stderr);
  assert.match(dxil.text, /^stage pixel {2}target ps_6_0 {2}\(DXIL, \d+ instructions\)\n/);
  assert.doesNotMatch(dxil.stderr + dxil.text, /no SHEX or SHDR/);
});

test('verify and census read one container from standard input for -', () => {
  const v = iridia(['verify', '--json', '-'], { stdin: Buffer.from(vs) });
  assert.equal(v.status, 0, v.stderr);
  assert.equal((JSON.parse(v.text) as { valid: number }).valid, 1);
  const notOne = iridia(['verify', '-'], { stdin: 'hello' });
  assert.equal(notOne.status, 1);
  assert.match(notOne.text, /^error {5}-: E102_BAD_MAGIC/m);
  const c = iridia(['census', '--json', '-'], { stdin: Buffer.from(vs) });
  assert.equal(c.status, 0, c.stderr);
  assert.deepEqual((JSON.parse(c.text) as { kinds: Record<string, number> }).kinds, { dxbc: 1 });
});
