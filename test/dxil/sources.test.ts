// DXIL's embedded sources (src/dxil/sources.ts) and the inflate under SRCI (src/binary/inflate.ts):
// inflate against node:zlib on random and real data and on broken streams (a typed error, never a
// crash), dx.source.contents of two real dxc /Zi builds against the HLSL their repositories hold
// at the commit they were built from, SRCI written here the way dxcshadersourceinfo.cpp writes it
// (compressed and not), and the one real SRCI of ../shared.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { parseContainer, serializeContainer } from '../../src/container/container.js';
import { inflateRaw, inflateZlib, adler32 } from '../../src/binary/inflate.js';
import { readDxilSources, readSrciSources } from '../../src/dxil/sources.js';
import { readDxilContainer } from '../../src/dxil/dxil-container.js';
import { IridiaError } from '../../src/errors.js';
import { FIXTURES, REPO, SHARED, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { srci, u16, u32 } from '../helpers/srci.js';
import { rng } from '../helpers/rng.js';

const SHARED_ROOT = (): string => join(SHARED, 'corpus');

/** Random bytes of a few kinds: noise, a small alphabet, runs, and repeats of earlier stretches. */
function sample(seed: number, size: number): Uint8Array {
  const r = rng(seed);
  const kind = seed % 4;
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    if (kind === 0) out[i] = r() & 0xff;
    else if (kind === 1) out[i] = 97 + (r() % 5);
    else if (kind === 2) out[i] = i > 0 && r() % 16 !== 0 ? out[i - 1]! : r() & 0xff;
    else out[i] = i > 300 && r() % 8 !== 0 ? out[i - 1 - (r() % 300)]! : r() & 0x7f;
  }
  return out;
}

const strategies = [
  zlib.constants.Z_DEFAULT_STRATEGY,
  zlib.constants.Z_FILTERED,
  zlib.constants.Z_HUFFMAN_ONLY,
  zlib.constants.Z_RLE,
  zlib.constants.Z_FIXED,
];

test('inflate gives what node:zlib deflated, for random data at every level and strategy', () => {
  let streams = 0;
  for (let seed = 1; seed <= 48; seed++) {
    const size = [0, 1, 7, 258, 1000, 40000, 70000][seed % 7]!;
    const data = sample(seed, size);
    for (const level of [0, 1, 6, 9]) {
      const strategy = strategies[seed % strategies.length]!;
      const z = new Uint8Array(zlib.deflateSync(data, { level, strategy }));
      assert.deepEqual(inflateZlib(z, { limit: size }), data, `seed ${seed} level ${level} strategy ${strategy}`);
      const raw = new Uint8Array(zlib.deflateRawSync(data, { level, strategy }));
      assert.deepEqual(inflateRaw(raw, { limit: size }), data, `raw, seed ${seed} level ${level}`);
      streams += 2;
    }
  }
  assert.equal(streams, 48 * 4 * 2);
});

test('inflate gives what node:zlib deflated, for the repository sources and fixtures', () => {
  const files = [
    ...readdirSync(join(REPO, 'src/dxil')).map((f) => join(REPO, 'src/dxil', f)),
    ...readdirSync(join(FIXTURES, 'dxil')).map((f) => join(FIXTURES, 'dxil', f)),
  ];
  for (const f of files) {
    const data = new Uint8Array(readFileSync(f));
    const z = new Uint8Array(zlib.deflateSync(data));
    assert.deepEqual(inflateZlib(z, { limit: data.byteLength }), data, f);
  }
  assert.equal(adler32(new TextEncoder().encode('Wikipedia')), 0x11e60398);
});

/** Runs `f` and returns its IridiaError; fails the test on success or on any other throw. */
function iridiaError(f: () => unknown, what: string): IridiaError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof IridiaError, `${what}: ${String(e)}`);
    return e;
  }
  assert.fail(`${what}: no error`);
}

test('a broken zlib stream is a typed error naming its part and offset, never a crash or a wrong answer', () => {
  const data = sample(3, 2000);
  const z = new Uint8Array(zlib.deflateSync(data));
  // Every truncation.
  for (let n = 0; n < z.byteLength; n++) {
    const e = iridiaError(() => inflateZlib(z.subarray(0, n), { limit: 2000, part: 'SRCI', base: 0x40 }), `${n} bytes`);
    assert.equal(e.part, 'SRCI');
    assert.ok(e.offset !== undefined && e.offset >= 0x40 && e.offset <= 0x40 + n, `${n}: ${e.message}`);
  }
  // Every flipped bit of the first 600 bytes and of the tail: the right bytes or a typed error.
  const r = rng(99);
  for (let i = 0; i < 2000; i++) {
    const at = i < 1200 ? i >> 1 : z.byteLength - 1 - (r() % 64);
    const bad = z.slice();
    bad[at] = bad[at]! ^ (1 << (r() & 7));
    try {
      assert.deepEqual(inflateZlib(bad, { limit: 2000 }), data, `flip at ${at} gave other bytes`);
    } catch (e) {
      assert.ok(e instanceof IridiaError, `flip at ${at}: ${String(e)}`);
    }
  }
  // Too much output for the declared size; a declared size the stream cannot hold.
  assert.equal(iridiaError(() => inflateZlib(z, { limit: 1999 }), 'limit').code, 'E207_PART_BAD_VALUE');
  const tiny = new Uint8Array(zlib.deflateSync(new Uint8Array(10)));
  assert.equal(iridiaError(() => inflateZlib(tiny, { limit: 1 << 30 }), 'ratio').code, 'E202_PART_BAD_OFFSET');
  // A wrong Adler-32, a preset dictionary, a reserved block type.
  const adler = z.slice();
  adler[adler.byteLength - 1] = adler[adler.byteLength - 1]! ^ 0xff;
  assert.match(iridiaError(() => inflateZlib(adler, { limit: 2000 }), 'adler').message, /Adler-32/);
  assert.match(
    iridiaError(() => inflateZlib(Uint8Array.of(0x78, 0xbb, 0, 0, 0, 1), { limit: 9 }), 'dict').message,
    /dictionary/,
  );
  assert.match(iridiaError(() => inflateRaw(Uint8Array.of(0x07), { limit: 9 }), 'type 3').message, /reserved type/);
});

const CRLF = /\r\n/g;

for (const [file, path, entry, args] of [
  [
    'learn-sdl-gpu__shader.vert_512ae7a1',
    'src\\hlsl\\vert.hlsl',
    'main',
    ['-E', 'main', '-T', 'vs_6_0', '-Zi', '-Qembed_debug', '-Fo', 'resources/shader-binaries/shader.vert.dxil'],
  ],
  [
    'Helios__PixelShader',
    'Shaders\\PixelShader.hlsl',
    'PsMain',
    [
      '/E',
      'PsMain',
      '/T',
      'ps_6_0',
      '/Fo',
      'C:\\Users\\Tarun\\Source\\Repos\\rtarun9\\Helios\\Helios\\Shaders\\PixelShader.cso',
      '/Od',
      '/Zi',
    ],
  ],
] as const) {
  test(`dx.source.contents of ${file}: the file its repository holds at that commit`, () => {
    const c = parseContainer(new Uint8Array(readFileSync(join(FIXTURES, 'dxil-source', `${file}.dxil`))));
    const s = readDxilSources(c);
    assert.ok(s);
    assert.equal(s.from, 'ILDB');
    assert.deepEqual(
      s.files.map((f) => f.path),
      [path],
    );
    assert.equal(s.mainFile, path);
    assert.deepEqual(s.args, args);
    assert.deepEqual(s.defines, []);
    // Built on Windows from a CRLF checkout; the repository stores the file with LF.
    const hlsl = readFileSync(join(FIXTURES, 'dxil-source', `${file}.hlsl`), 'utf8');
    assert.ok(s.files[0]!.text.includes('\r\n'));
    assert.equal(s.files[0]!.text.replace(CRLF, '\n'), hlsl);
    assert.match(s.files[0]!.text, new RegExp(`\\b${entry}\\s*\\(`));
  });
}

test('a DXIL container without debug sources has none; a DXBC container neither', () => {
  const c = parseContainer(new Uint8Array(readFileSync(join(FIXTURES, 'dxil', 'gpu__color.frag.sm60.dxil'))));
  assert.equal(readDxilSources(c), undefined);
  const d = parseContainer(new Uint8Array(readFileSync(join(FIXTURES, 'exec', 'cs_basic-main-cs_5_0.dxbc'))));
  assert.equal(readDxilSources(d), undefined);
});

const FILES = [
  { path: 'main.hlsl', text: '#include "common.hlsli"\r\nfloat4 main() : SV_Target { return K; }\r\n' },
  { path: '.\\common.hlsli', text: '// é, ß: UTF-8\nstatic const float4 K = 1;\n' },
];
const ARGS: [string, string][] = [
  ['E', 'main'],
  ['T', 'ps_6_0'],
  ['D', 'ONE=1'],
  ['Zi', ''],
  ['', 'main.hlsl'],
];

test('SRCI written as dxc writes it, compressed and not, gives back every file, name and argument', () => {
  for (const compress of [true, false]) {
    const part = srci(FILES, ARGS, compress);
    const c = parseContainer(serializeContainer([{ kind: 'SRCI', data: part }]));
    const s = readDxilSources(c);
    assert.ok(s);
    assert.equal(s.from, 'SRCI');
    assert.deepEqual(s.files, FILES);
    assert.equal(s.mainFile, 'main.hlsl');
    assert.deepEqual(s.args, ['-E', 'main', '-T', 'ps_6_0', '-D', 'ONE=1', '-Zi', 'main.hlsl']);
    assert.deepEqual(
      s.argPairs,
      ARGS.map(([name, value]) => ({ name, value })),
    );
    assert.deepEqual(s.defines, ['ONE=1']);
    // The container reader still lists the three sections.
    assert.deepEqual(
      readDxilContainer(c).sourceInfo?.map((x) => x.type),
      [1, 0, 2],
    );
  }
});

test('the committed SRCI container (a fuzz seed) reads back to those files and arguments', () => {
  const c = parseContainer(new Uint8Array(readFileSync(join(FIXTURES, 'dxil-source/srci-zlib.dxil'))));
  const s = readDxilSources(c);
  assert.ok(s);
  assert.equal(s.from, 'SRCI');
  assert.deepEqual(s.files, FILES);
  assert.deepEqual(
    s.argPairs,
    ARGS.map(([name, value]) => ({ name, value })),
  );
  assert.equal(readDxilContainer(c).sourceInfo?.find((x) => x.type === 0)?.data[6], 1, 'zlib contents');
});

test('a broken SRCI is a typed error in part SRCI at an offset inside it', () => {
  for (const compress of [true, false]) {
    const part = srci(FILES, ARGS, compress);
    for (let n = 0; n < part.byteLength; n += 3) {
      const cut = part.slice(0, n);
      // Keep the declared total consistent with the cut, so each inner size is what overruns.
      if (n >= 4) cut.set(u32(n), 0);
      try {
        readSrciSources(cut, 0x100);
      } catch (e) {
        assert.ok(e instanceof IridiaError, `${n}: ${String(e)}`);
        assert.equal(e.part, 'SRCI');
        assert.ok(e.offset !== undefined && e.offset >= 0x100 && e.offset <= 0x100 + part.byteLength, e.message);
        continue;
      }
      assert.ok(n === 0 ? false : n >= part.byteLength - 3, `${n} of ${part.byteLength} bytes read without an error`);
    }
    const r = rng(5);
    for (let i = 0; i < 3000; i++) {
      const bad = part.slice();
      bad[r() % bad.byteLength] = r() & 0xff;
      try {
        readSrciSources(bad);
      } catch (e) {
        assert.ok(e instanceof IridiaError, String(e));
      }
    }
  }
  // The section count names more sections than the size holds; a size over the part.
  const part = srci(FILES, ARGS, true);
  const more = part.slice();
  more.set(u16(4), 6);
  assert.equal(iridiaError(() => readSrciSources(more), 'count').code, 'E201_PART_TRUNCATED');
  const big = part.slice();
  big.set(u32(part.byteLength + 4), 0);
  assert.equal(iridiaError(() => readSrciSources(big), 'size').code, 'E202_PART_BAD_OFFSET');
});

const SRCI_FILE = 'corpus/dxil/dx12examples/Shaders__-Od.dxil';

test(
  'the real SRCI of ../shared: zlib contents, the names its ILDB lists, the arguments dxc recorded',
  { skip: skipUnlessShared(SRCI_FILE) },
  () => {
    const c = parseContainer(new Uint8Array(readFileSync(sharedPath(SRCI_FILE)!)));
    const s = readDxilSources(c);
    assert.ok(s);
    assert.equal(s.from, 'SRCI');
    const srciPart = readDxilContainer(c).sourceInfo!.find((x) => x.type === 0)!;
    assert.equal(srciPart.data[6], 1, 'the contents are zlib-compressed');
    // dxc's own deflate stream inflates as node:zlib inflates it.
    const view = new DataView(srciPart.data.buffer, srciPart.data.byteOffset);
    const stream = srciPart.data.subarray(20, 20 + view.getUint32(8, true));
    const inflated = inflateZlib(stream, { limit: view.getUint32(12, true) });
    assert.deepEqual(inflated, new Uint8Array(zlib.inflateSync(stream)));
    assert.equal(inflated.byteLength, view.getUint32(12, true));
    assert.deepEqual(
      s.files.map((f) => f.path),
      ['FrameSimple.hlsl', '.\\SimpleVSPSInterface.hlsli'],
    );
    assert.match(s.files[0]!.text, /#include\s+"SimpleVSPSInterface\.hlsli"/);
    assert.match(s.files[0]!.text, /\bVSMain\s*\(/);
    assert.deepEqual(s.args.slice(0, 4), ['-E', 'VSMain', '-T', 'vs_6_0']);
    // Its debug module's dx.source.contents is there, emptied (one node of two empty strings): the
    // text is SRCI's alone.
    const m = readDxilContainer(c).debug!.module;
    const named = m.named.find((n) => n.name === 'dx.source.contents')!;
    const strings = named.ops.map((id) => {
      const node = m.metadata[id];
      return node?.k === 'node'
        ? node.ops.map((o) => m.metadata[o - 1]).map((x) => (x?.k === 'string' ? x.s : '?'))
        : [];
    });
    assert.deepEqual(strings, [['', '']]);
  },
);

const CORPUS = 'corpus/dxil';

test(
  'every /Zi build of the DXIL corpus: its sources read, the main file the manifest names, holding the entry point',
  { skip: skipUnlessShared(CORPUS) },
  () => {
    const root = sharedPath(CORPUS)!;
    let read = 0;
    for (const folder of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const manifest = readFileSync(join(root, folder.name, 'MANIFEST.tsv'), 'utf8')
        .trimEnd()
        .split('\n');
      const head = manifest[0]!.split('\t');
      const col = (row: string[], name: string): string => row[head.indexOf(name)] ?? '';
      for (const line of manifest.slice(1)) {
        const row = line.split('\t');
        const file = join(SHARED_ROOT(), col(row, 'path'));
        const c = parseContainer(new Uint8Array(readFileSync(file)));
        const s = readDxilSources(c);
        if (col(row, 'debug_info') !== 'yes' || !s) continue;
        read++;
        const hlsl = col(row, 'hlsl_path').split('/').pop()!.toLowerCase();
        assert.ok(
          s.mainFile?.replace(/\\/g, '/').toLowerCase().endsWith(hlsl),
          `${file}: ${s.mainFile} is not ${hlsl}`,
        );
        assert.equal(s.files[0]!.path, s.mainFile, file);
        const i = s.args.findIndex((a) => a === '-E' || a === '/E');
        const entry = col(row, 'entry') || (i >= 0 ? s.args[i + 1] : undefined);
        assert.ok(entry, `${file}: no entry point`);
        assert.match(s.files[0]!.text, new RegExp(`\\b${entry}\\s*\\(`), file);
      }
    }
    console.log(`dxil sources: ${read} corpus containers read, each main file holding its entry point`);
    assert.ok(read >= 30, `${read}`);
  },
);
