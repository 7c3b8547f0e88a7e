// The web inspector in a real browser: builds web/dist with esbuild (scripts/build-web.mjs), serves
// web/ on a free loopback port (scripts/serve-web.mjs), opens it in headless Chromium through
// playwright-core, loads committed fixtures through the file input and by drag-and-drop, and checks
// the page against the files themselves and Microsoft's listings and reflection byte for byte.
// Then the workbench: panes side by side, reflection tables against Microsoft's D3DReflect dumps,
// links from an instruction to its WGSL lines, source line and registers, search, the example link,
// the census of many files, phone width, themes and labels, and the time a 10,000-instruction
// program takes to open (printed, not asserted). Screenshots of each state go to test-output/web/
// (git-ignored). Skips when /usr/bin/chromium is absent (no browser is ever downloaded).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import * as iridia from '../../src/index.js';
import { d3dReflectAnyJson } from '../../src/reflect/dxil.js';
import { SEEDED_DEFAULTS, seededCpu } from '../../src/cli/commands/run.js';
import { FIXTURES, REPO, SHARED, firstDifference } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';
import { srci, u32 } from '../helpers/srci.js';
import { png } from './png.js';

const CHROMIUM = process.env['IRIDIA_CHROMIUM'] ?? '/usr/bin/chromium';
/** SwiftShader's Vulkan driver (Debian's chromium package), for the WebGPU run. */
const VK_ICD = process.env['VK_ICD_FILENAMES'] ?? '/usr/lib/chromium/vk_swiftshader_icd.json';
const skip = needs(
  existsSync(CHROMIUM)
    ? false
    : `${CHROMIUM} is absent (install Debian's chromium, or set IRIDIA_CHROMIUM, to run the web test)`,
);

const OWN = join(FIXTURES, 'oracle/own');
/** Where the run writes its screenshots (git-ignored). */
const SHOTS = join(REPO, 'test-output/web');
const bytesOf = (path: string): Buffer => readFileSync(path);
const textOf = (path: string): string => readFileSync(path, 'utf8');

/** The part directory read straight from the header words, apart from the core's parser. */
function directory(b: Buffer): { kind: string; offset: string; size: string }[] {
  const count = b.readUInt32LE(28);
  return Array.from({ length: count }, (_, i) => {
    const offset = b.readUInt32LE(32 + 4 * i);
    return {
      kind: b.toString('latin1', offset, offset + 4),
      offset: `0x${offset.toString(16)}`,
      size: String(b.readUInt32LE(offset + 4)),
    };
  });
}

/** Asserts that a <pre>'s text equals a file's bytes exactly (UTF-8, no normalisation). */
async function assertPreEquals(page: Page, selector: string, path: string): Promise<void> {
  const shown = (await page.locator(selector).textContent()) ?? '';
  const expected = bytesOf(path);
  if (!Buffer.from(shown, 'utf8').equals(expected))
    assert.fail(`${selector} differs from ${path}: ${firstDifference(shown, expected.toString('utf8')) ?? 'in bytes'}`);
}

/** Waits until the page has read the file called `name` (the status line names it). */
async function waitForOpen(page: Page, name: string): Promise<void> {
  await page.waitForFunction((n) => document.querySelector('#status')?.textContent?.startsWith(`${n}:`), name);
}

async function openThroughInput(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page.setInputFiles('#file', { name, mimeType: 'application/octet-stream', buffer: bytes });
  await waitForOpen(page, name);
}

async function openByDrop(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page.evaluate(
    ({ n, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], n));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { n: name, data: Array.from(bytes) },
  );
  await waitForOpen(page, name);
}

/** Opens a view and asserts it shows what the core computes in Node: the text, or its error code. */
async function assertViewShows(page: Page, id: string, compute: () => string): Promise<void> {
  let text = '';
  let code: string | undefined;
  try {
    text = compute();
  } catch (e) {
    code = e instanceof iridia.IridiaError ? e.code : 'internal';
  }
  await page.click(`#tab-${id}`);
  assert.equal(await page.locator(`#${id}-output`).textContent(), text);
  const error = page.locator(`#panel-${id} .error`);
  assert.equal(code === undefined ? await error.count() : await error.getAttribute('data-code'), code ?? 0);
}

async function setFlags(page: Page, flags: number): Promise<void> {
  for (const box of await page.locator('#flags input[type=checkbox]').all()) {
    const bit = Number(await box.getAttribute('value'));
    await box.setChecked((flags & bit) !== 0);
  }
  assert.equal(await page.locator('#flags-value').textContent(), `0x${flags.toString(16)}`);
}

const hex8 = (w: number): string => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;
const bits = (x: number): number => new Uint32Array(Float32Array.of(x).buffer)[0]!;

/** Edits words of the second pane's cb0 (word index to the text typed) and picks a PNG for a texture. */
async function editInputs(
  page: Page,
  words: Readonly<Record<number, string>>,
  texture: string,
  name: string,
  file: Buffer,
): Promise<void> {
  for (const [w, v] of Object.entries(words)) await page.fill(`#p1-cb-cb0-w${w}`, v);
  await page.setInputFiles(`#p1-image-${texture}`, { name, mimeType: 'image/png', buffer: file });
  await page.waitForFunction(
    ([id, n]) => document.getElementById(id!)?.textContent?.startsWith(n!) ?? false,
    [`p1-image-${texture}-state`, `${name},`],
  );
}

/** Runs the second pane's program and waits for the status line of the finished run. */
async function runAndWait(page: Page, status: RegExp): Promise<string> {
  await page.click('#p1-run');
  await page.waitForFunction(
    (re) => new RegExp(re).test(document.querySelector('#p1-run-status')?.textContent ?? ''),
    status.source,
    { timeout: 60_000 },
  );
  return (await page.locator('#p1-run-status').textContent()) ?? '';
}

/** The tint and the one-colour image of the edited pixel run (ps_sample_basic: Diffuse.Sample(...) * Tint). */
const TINT = ['0.5', '2', '-1', '0.25'];
const COLOUR = [200, 51, 7, 255];
const ONE_COLOUR = png(
  3,
  2,
  new Uint8Array(3 * 2 * 4).map((_, i) => COLOUR[i % 4]!),
);
/** What the edited pixel run computes at every pixel: the texel's unorm values times the tint, in f32. */
const TINTED = COLOUR.map((c, k) => bits(Math.fround(Math.fround(c / 255) * Number(TINT[k]))));

/** A screenshot of the whole page into test-output/web/NAME.png. */
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The text of a table's body rows, cell by cell. */
async function tableRows(page: Page, selector: string): Promise<string[][]> {
  return page
    .locator(`${selector} tbody tr`)
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
}

async function setPanes(page: Page, n: number): Promise<void> {
  await page.selectOption('#pane-count', String(n));
  assert.equal(await page.locator('#panes > .pane').count(), n);
}

/** Clicks the line of a pane's listing whose text is `text` exactly. */
async function clickLine(page: Page, pre: string, text: string): Promise<void> {
  const line = page
    .locator(`${pre} .ln`)
    .filter({ hasText: new RegExp(`^${text.replace(/[[\]().*+?^$|\\]/g, '\\$&')}$`) });
  assert.equal(await line.count(), 1, `one line of ${pre} reads ${text}`);
  await line.click();
}

const texts = (page: Page, selector: string): Promise<string[]> => page.locator(selector).allTextContents();

/** D3DReflect's JSON of a build (Microsoft's dump, committed with the fixture). */
interface MsReflect {
  Desc: Record<string, number | string | null>;
  [key: string]: unknown;
  ConstantBuffers: {
    Name: string;
    VariableList: { Name: string; StartOffset: number; Size: number; uFlags: number; Type: MsType }[];
  }[];
  BoundResources: { Name: string; Type: number; BindPoint: number; BindCount: number; Space: number }[];
  InputParameters: { SemanticName: string; SemanticIndex: number; Register: number; Mask: number }[];
  OutputParameters: { SemanticName: string; SemanticIndex: number; Register: number; Mask: number }[];
}
interface MsType {
  Name: string | null;
  Class: number;
  Type: number;
  Rows: number;
  Columns: number;
}
/** A type's name where D3DReflect gives none (4.x RDEF): D3D_SHADER_VARIABLE_CLASS and _TYPE spelled out. */
function shape(t: MsType): string {
  const base = ({ 1: 'bool', 2: 'int', 3: 'float', 19: 'uint' } as Record<number, string>)[t.Type] ?? `type${t.Type}`;
  if (t.Class === 0) return base;
  if (t.Class === 1) return `${base}${t.Columns}`;
  return `${t.Class === 2 ? 'row_major ' : ''}${base}${t.Rows}x${t.Columns}`;
}
const letters = (m: number): string =>
  'xyzw'
    .split('')
    .filter((_, i) => m & (1 << i))
    .join('') || '-';
/** D3D_SHADER_INPUT_TYPE to the register letter the binding's register takes. */
const PREFIX = ['cb', 't', 't', 's', 'u', 't', 'u', 't', 'u', 'u', 'u', 'u'];

/** The Resource Bindings rows of Microsoft's listing: name, type, format, dimension, bind point, count. */
function listingBindings(listing: string): string[][] {
  const at = listing.indexOf('// Resource Bindings:');
  if (at < 0) return [];
  const rows = listing.slice(at).split('\n').slice(4);
  return rows
    .slice(
      0,
      rows.findIndex((l) => l.trim() === '//'),
    )
    .map((l) => l.slice(3).trim().split(/\s+/));
}

/**
 * Checks the Reflection tables of the page's first pane against Microsoft's D3DReflect dump, and
 * the bindings' type, format and dimension against the Resource Bindings table of its listing.
 */
async function assertReflectionTables(page: Page, ms: MsReflect, listing?: string): Promise<void> {
  const cbs = (await tableRows(page, '#panel-reflect [data-table=cbuffers]')).filter((r) => r[0] !== '');
  assert.deepEqual(
    cbs,
    ms.ConstantBuffers.flatMap((cb) =>
      cb.VariableList.map((v) => [
        cb.Name,
        v.Name,
        v.Type.Name ?? shape(v.Type),
        String(v.StartOffset),
        String(v.Size),
        v.uFlags & 2 ? 'yes' : 'no',
      ]),
    ),
  );
  const bindings = await tableRows(page, '#panel-reflect [data-table=bindings]');
  assert.deepEqual(
    bindings.map((r) => [r[0], r[4], r[5], r[6]]),
    ms.BoundResources.map((b) => [b.Name, `${PREFIX[b.Type]}${b.BindPoint}`, String(b.Space), String(b.BindCount)]),
  );
  if (listing !== undefined) {
    const expected = listingBindings(listing);
    assert.equal(expected.length, bindings.length, 'the listing binds as many resources');
    assert.deepEqual(
      bindings.map((r) => [r[0], r[1], r[2], r[3], r[4], r[6]]),
      expected,
    );
  }
  for (const [table, params] of [
    ['inputs', ms.InputParameters],
    ['outputs', ms.OutputParameters],
  ] as const) {
    const rows = params.length ? await tableRows(page, `#panel-reflect [data-table=${table}]`) : [];
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[2], r[5]]),
      params.map((p) => [p.SemanticName, String(p.SemanticIndex), String(p.Register), letters(p.Mask)]),
    );
  }
}

describe('web inspector in headless Chromium', { skip }, () => {
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let serverUrl = '';
  const pageErrors: string[] = [];

  before(async () => {
    execFileSync(process.execPath, [join(REPO, 'scripts/build-web.mjs')], { cwd: REPO, stdio: 'pipe' });
    const child = spawn(process.execPath, [join(REPO, 'scripts/serve-web.mjs'), '--port', '0'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    server = child;
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`serve-web.mjs exited with ${code}`)));
      createInterface({ input: child.stdout! }).once('line', resolve);
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
    });
    serverUrl = url;
    await page.goto(url);
    assert.equal(await page.title(), 'iridia inspector');
  });

  after(async () => {
    await browser?.close();
    server?.kill();
  });

  test('a container through the file input: header, part table, listing and reflection', async () => {
    const dir = join(OWN, 'vs_basic/main-vs_5_0');
    const bytes = bytesOf(join(dir, 'shader.dxbc'));
    await openThroughInput(page, 'vs_basic-vs_5_0.dxbc', bytes);
    assert.equal(await page.locator('#error').isHidden(), true);

    const rows = await page
      .locator('#parts tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
    const expected = directory(bytes);
    assert.deepEqual(
      rows,
      expected.map((p, i) => [String(i), p.kind, p.offset, p.size]),
    );
    assert.deepEqual(
      expected.map((p) => p.kind),
      ['RDEF', 'ISGN', 'OSGN', 'SHEX', 'STAT'],
    );
    const header = await page.locator('#header').textContent();
    assert.match(header ?? '', /Program\s*vs_5_0/);
    assert.match(header ?? '', new RegExp(`${bytes.subarray(4, 20).toString('hex')}\\s*valid`));
    assert.match((await page.locator('#findings').textContent()) ?? '', /^none/);

    await page.click('#tab-disasm');
    await assertPreEquals(page, '#disasm-output', join(dir, 'listing.asm'));

    await page.click('#tab-reflect');
    const shown = (await page.locator('#reflect-output').textContent()) ?? '';
    assert.deepEqual(JSON.parse(shown), JSON.parse(textOf(join(dir, 'reflect.json'))));
  });

  test('the flag selector: each flag word gives the listing D3DDisassemble gives for it', async () => {
    const dir = join(OWN, 'vs_basic/main-vs_4_1');
    await openByDrop(page, 'vs_basic-vs_4_1.dxbc', bytesOf(join(dir, 'shader.dxbc')));
    await page.click('#tab-disasm');
    for (const flags of [0x04, 0x20, 0x40, 0x80]) {
      await setFlags(page, flags);
      await assertPreEquals(page, '#disasm-output', join(dir, `listing.0x${flags.toString(16).padStart(2, '0')}.asm`));
    }
    await setFlags(page, 0);
    await assertPreEquals(page, '#disasm-output', join(dir, 'listing.asm'));
  });

  test('a level-9 container and a bare Direct3D 9 program', async () => {
    const level9 = join(OWN, 'vs_basic/main-vs_4_0_level_9_1');
    await openThroughInput(page, 'vs_basic-level9.dxbc', bytesOf(join(level9, 'shader.dxbc')));
    assert.equal(await page.locator('#tab-disasm').getAttribute('aria-selected'), 'true', 'the open tab stays open');
    await assertPreEquals(page, '#disasm-output', join(level9, 'listing.asm'));

    const d3d9 = join(FIXTURES, 'oracle/own-d3d9/many_samplers/main-ps_2_0');
    await openThroughInput(page, 'many_samplers.d3d9', bytesOf(join(d3d9, 'shader.d3d9')));
    await assertPreEquals(page, '#disasm-output', join(d3d9, 'listing.asm'));
    assert.equal(await page.locator('#tab-reflect').isHidden(), true, 'a bare program has no reflection tab');
    await page.click('#tab-container');
    assert.match((await page.locator('#header').textContent()) ?? '', /ps_2_0 \(a Direct3D 9 program/);
    assert.equal(await page.locator('#parts').isHidden(), true);
  });

  test('a truncated container shows the typed error', async () => {
    const bytes = bytesOf(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc'));
    await openThroughInput(page, 'truncated.dxbc', bytes.subarray(0, 600));
    const error = page.locator('#error .error');
    assert.equal(await error.getAttribute('data-code'), 'E103_SIZE_MISMATCH');
    const text = (await error.textContent()) ?? '';
    assert.match(text, /^E103_SIZE_MISMATCH \(invalid input\) at header, offset 0x18: /);
    assert.match(text, /stored total size 0x478 is past the end of the data 0x258/);
    assert.equal(await page.locator('#view').isHidden(), true);
  });

  test('a corrupt program shows its typed error, naming the part, in the disassembly tab', async () => {
    const bytes = Buffer.from(bytesOf(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc')));
    const shex = directory(bytes).find((p) => p.kind === 'SHEX')!;
    bytes.writeUInt32LE(0xffff, Number(shex.offset) + 8 + 4); // the token stream's length word
    await openThroughInput(page, 'corrupt-length.dxbc', bytes);
    assert.equal(await page.locator('#error').isHidden(), true, 'the container itself reads');
    await page.click('#tab-disasm');
    const error = page.locator('#panel-disasm .error');
    assert.equal(await error.getAttribute('data-code'), 'E301_TOKENS_TRUNCATED');
    assert.match(
      (await error.textContent()) ?? '',
      /^E301_TOKENS_TRUNCATED \(invalid input\) at part SHEX, offset 0x4: /,
    );
    assert.equal(await page.locator('#disasm-output').textContent(), '');
  });

  test('tabs follow the keyboard; optional views show exactly when the core exports them', async () => {
    const dir = join(OWN, 'vs_basic/main-vs_5_0');
    const bytes = bytesOf(join(dir, 'shader.dxbc'));
    await openThroughInput(page, 'keyboard.dxbc', bytes);
    await page.click('#tab-container');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-disasm');
    assert.equal(await page.locator('#panel-disasm').isVisible(), true);
    assert.equal(await page.locator('#panel-container').isHidden(), true);
    await page.keyboard.press('Home');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-container');

    const api = iridia as unknown as Readonly<Record<string, unknown>>;
    const hasWgsl = typeof api['lift'] === 'function' && typeof api['emitWgsl'] === 'function';
    assert.equal(
      await page.locator('#tab-wgsl').isVisible(),
      hasWgsl,
      'the WGSL tab shows when lift and emitWgsl exist',
    );
    if (hasWgsl) {
      const lift = api['lift'] as (b: Uint8Array) => unknown;
      const emit = api['emitWgsl'] as (p: unknown) => string;
      await assertViewShows(page, 'wgsl', () => emit(lift(new Uint8Array(bytes))));
      // And against Microsoft's listing of the build, not only the core's output: the header names
      // the listing's instruction count, and the entry point takes the input signature's elements
      // at their registers with their masks' widths (POSITION xyz, COLOR xyzw, TEXCOORD xy).
      const view = (await page.locator('#wgsl-output').textContent()) ?? '';
      const listing = textOf(join(dir, 'listing.asm'));
      const instructions = listing.split('\n').filter((l) => /^[a-z]/.test(l) && !/^vs_5_0/.test(l)).length;
      assert.equal(view.split('\n')[0], `// lifted by iridia from DXBC vs_5_0 (SHEX, ${instructions} instructions)`);
      const widths = ['', 'f32', 'vec2<f32>', 'vec3<f32>', 'vec4<f32>'];
      const signature = listing.slice(listing.indexOf('// Input signature:'), listing.indexOf('// Output signature:'));
      const inputs = [...signature.matchAll(/^\/\/ ([A-Z]+) +(\d+) +([xyzw]+) +(\d+) +NONE +float/gm)].map(
        (m) => `@location(${m[4]}) ${m[1]}${m[2]}: ${widths[m[3]!.length]}`,
      );
      assert.equal(inputs.length, 3);
      assert.ok(view.includes(`@vertex\nfn main(${inputs.join(', ')})`), view.slice(0, 600));
    }
    const dxil = bytesOf(join(FIXTURES, 'container/testgpu__cube.frag.dxil'));
    await openThroughInput(page, 'cube.frag.dxil', dxil);
    assert.match((await page.locator('#header').textContent()) ?? '', /\(DXIL \d+\.\d+\)/);
    const disassembleDxil = api['disassembleDxil'];
    assert.equal(await page.locator('#tab-dxil').isVisible(), typeof disassembleDxil === 'function');
    assert.equal(await page.locator('#tab-disasm').isHidden(), true, 'no SM4/5 program, no SM4/5 listing');
    if (typeof disassembleDxil === 'function') {
      const run = disassembleDxil as (c: iridia.Container) => string;
      await assertViewShows(page, 'dxil', () => run(iridia.parseContainer(new Uint8Array(dxil))));
    }
  });

  test('the Reflection tab on a DXIL container: D3DReflect-shaped JSON with the bindings dxc lists', async () => {
    const dxil = bytesOf(join(FIXTURES, 'dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil'));
    await openThroughInput(page, 'blit2darray.dxil', dxil);
    assert.equal(await page.locator('#tab-reflect').isVisible(), true, 'a DXIL program has a reflection tab');
    await page.click('#tab-reflect');
    assert.equal(await page.locator('#panel-reflect .error').count(), 0);
    const shown = JSON.parse((await page.locator('#reflect-output').textContent()) ?? '') as {
      Desc: { Version: number };
      BoundResources: { Name: string; Type: number; BindPoint: number; Space: number; Dimension: number }[];
      InputParameters: { SemanticName: string; Register: number; Mask: number }[];
    };
    // dxc's listing (test/fixtures/dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.ll), "Resource Bindings":
    // SourceRegionBuffer cbuffer cb0,space3; SourceSampler sampler s0,space2; SourceTexture2DArray
    // texture 2darray t0,space2 (D3D_SIT_CBUFFER 0, SAMPLER 3, TEXTURE 2; TEXTURE2DARRAY 5).
    assert.deepEqual(
      shown.BoundResources.map((b) => [b.Name, b.Type, b.BindPoint, b.Space, b.Dimension]),
      [
        ['SourceRegionBuffer', 0, 0, 3, 0],
        ['SourceSampler', 3, 0, 2, 0],
        ['SourceTexture2DArray', 2, 0, 2, 5],
      ],
    );
    // Input signature: TEXCOORD 0 xy register 0; SV_Position 0 xyzw register 1.
    assert.deepEqual(
      shown.InputParameters.map((p) => [p.SemanticName, p.Register, p.Mask]),
      [
        ['TEXCOORD', 0, 3],
        ['SV_POSITION', 1, 15],
      ],
    );
    assert.equal(shown.Desc.Version, 0x60, 'ps_6_0');
    await assertViewShows(
      page,
      'reflect',
      () => `${JSON.stringify(d3dReflectAnyJson(iridia.parseContainer(new Uint8Array(dxil))), null, 2)}\n`,
    );
  });

  test('the Reflection tab on a DXIL library shows the typed refusal (no D3DReflect shader view)', async () => {
    await openThroughInput(page, 'library.dxil', bytesOf(join(FIXTURES, 'dxil/runtime-tests__test_910b3693.dxil')));
    await page.click('#tab-reflect');
    assert.equal(await page.locator('#panel-reflect .error').getAttribute('data-code'), 'E208_PART_UNSUPPORTED');
  });

  test('a vertex program in three panes: reflection tables, links to WGSL and registers, search', async () => {
    const dir = join(OWN, 'vs_basic/main-vs_5_0');
    const bytes = bytesOf(join(dir, 'shader.dxbc'));
    await openThroughInput(page, 'vertex.dxbc', bytes);
    await setPanes(page, 3);
    await page.click('#tab-reflect');
    await page.click('#p1-tab-disasm');
    await page.click('#p2-tab-wgsl');
    const ms = JSON.parse(textOf(join(dir, 'reflect.json'))) as MsReflect;
    await assertReflectionTables(page, ms, textOf(join(dir, 'listing.asm')));
    // STAT by the D3D11_SHADER_DESC names of its words: each named word equals D3DReflect's field.
    const stat = await tableRows(page, '#panel-reflect [data-table=stat]');
    assert.equal(stat.length, 37, 'a 5.0 STAT has 37 words');
    let named = 0;
    for (const [, name, value] of stat) {
      const expected = ms.Desc[name!] ?? ms[name!];
      if (typeof expected === 'number' || typeof expected === 'boolean') {
        assert.equal(value, String(Number(expected)), name!);
        named++;
      }
    }
    assert.ok(named >= 30, `${named} STAT words checked against D3DReflect`);
    // The raw JSON, one click away, is D3DReflect's own.
    await page.click('#panel-reflect details summary');
    assert.equal(await page.locator('#reflect-output').isVisible(), true);
    assert.deepEqual(JSON.parse((await page.locator('#reflect-output').textContent()) ?? ''), ms);

    await assertPreEquals(page, '#p1-disasm-output', join(dir, 'listing.asm'));
    const wgsl = iridia.emitWgsl(iridia.lift(new Uint8Array(bytes)));
    assert.equal(await page.locator('#p2-wgsl-output').textContent(), wgsl);
    assert.ok((await page.locator('#p1-disasm-output .t-kw').count()) > 10, 'the listing is highlighted');

    // An instruction lights up its WGSL line (the write of o0.y from the dot product with cb0[1])
    // and its registers in every pane: o0 written, r0 and cb0 read.
    await clickLine(page, '#p1-disasm-output', 'dp4 o0.y, r0.xyzw, cb0[1].xyzw');
    assert.deepEqual(await texts(page, '#p1-disasm-output .sel-line'), ['dp4 o0.y, r0.xyzw, cb0[1].xyzw']);
    const linked = await texts(page, '#p2-wgsl-output .link-line');
    assert.equal(linked.length, 1);
    assert.match(linked[0]!, /^\s*o\[0\]\.y = .*dot\(.*cb0\[1\]/);
    assert.ok((await texts(page, '#p1-disasm-output .lit-w')).every((t) => t === 'o0'));
    assert.ok((await page.locator('#p2-wgsl-output .lit-w').count()) > 0, 'o[0] lights up in the WGSL');
    assert.deepEqual([...new Set(await texts(page, '#p1-disasm-output .lit'))].sort(), ['cb0', 'r0']);
    assert.match((await page.locator('#selection').textContent()) ?? '', /registers o0 \(written\), r0, cb0/);
    await shot(page, 'vertex-three-panes-linked');
    // ↓ in the listing selects the next instruction.
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await texts(page, '#p1-disasm-output .sel-line'), ['dp4 o0.z, r0.xyzw, cb0[2].xyzw']);
    assert.match((await texts(page, '#p2-wgsl-output .link-line'))[0]!, /^\s*o\[0\]\.z = .*cb0\[2\]/);

    // The other way: a WGSL line selects the instruction whose write it carries.
    await clickLine(page, '#p2-wgsl-output', linked[0]!.replace('.y = ', '.w = ').replace('cb0[1]', 'cb0[3]'));
    assert.deepEqual(await texts(page, '#p1-disasm-output .sel-line'), ['dp4 o0.w, r0.xyzw, cb0[3].xyzw']);

    // Search in a pane: the listing's lines holding dp4 (Microsoft's listing has four); Enter moves.
    const listing = textOf(join(dir, 'listing.asm')).split('\n');
    await page.fill('#p1-search', 'dp4');
    assert.equal(
      await page.locator('#p1-search-count').textContent(),
      `${listing.filter((l) => l.includes('dp4')).length} matches`,
    );
    await page.press('#p1-search', 'Enter');
    assert.match((await page.locator('#p1-disasm-output .hit-current').textContent()) ?? '', /^dp4 o0\.x/);
    await page.fill('#p1-search', '');
    // Across panes: the listing and the WGSL each count their own lines holding cb0[4].
    await page.fill('#search-all', 'cb0[4]');
    const inWgsl = wgsl.split('\n').filter((l) => l.includes('cb0[4]')).length;
    const inListing = listing.filter((l) => l.includes('cb0[4]')).length;
    assert.equal(
      await page.locator('#p1-search-count').textContent(),
      `${inListing} ${inListing === 1 ? 'match' : 'matches'}`,
    );
    assert.equal(
      await page.locator('#p2-search-count').textContent(),
      `${inWgsl} ${inWgsl === 1 ? 'match' : 'matches'}`,
    );
    assert.match((await page.locator('#search-all-count').textContent()) ?? '', /pane 2: 1, pane 3: 1\)$/);
    await shot(page, 'vertex-search');
    await page.fill('#search-all', '');

    // The splitters share the width: → on the first gives the first pane 5% more of the two.
    const widths = (): Promise<number[]> =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('#panes > .pane'), (p) => p.getBoundingClientRect().width),
      );
    const [a0, b0] = await widths();
    await page.focus('#panes > .splitter >> nth=0');
    await page.keyboard.press('ArrowRight');
    const [a1, b1] = await widths();
    assert.equal(await page.locator('#panes > .splitter').first().getAttribute('aria-valuenow'), '55');
    assert.ok(Math.abs(a1! / (a1! + b1!) - 0.55) < 0.01 && a1! > a0! && b1! < b0!, `${a0} ${b0} -> ${a1} ${b1}`);

    // The part table's rows show the part's bytes, at their file offsets.
    await page.click('#tab-container');
    await page.click('#parts [data-part="3"]');
    const shex = directory(bytes)[3]!;
    const firstRow = ((await page.locator('#hex-output').textContent()) ?? '').split('\n')[0]!;
    const at = Number(shex.offset);
    const expectedHex = Array.from(bytes.subarray(at, at + 16), (b) => b.toString(16).padStart(2, '0')).join(' ');
    assert.equal(firstRow.slice(0, 8 + 2 + 47), `${at.toString(16).padStart(8, '0')}  ${expectedHex}`);
    assert.match(firstRow, /SHEX/);
    await shot(page, 'vertex-part-hex');
  });

  test('copy and download: a pane’s view as text, a part as its bytes', async () => {
    const dir = join(OWN, 'vs_basic/main-vs_5_0');
    const bytes = bytesOf(join(dir, 'shader.dxbc'));
    await openThroughInput(page, 'copy.dxbc', bytes);
    await setPanes(page, 2);
    await page.click('#p1-tab-disasm');
    const listing = page.waitForEvent('download');
    await page.click('#p1-download');
    const got = await listing;
    assert.equal(got.suggestedFilename(), 'copy.asm');
    assert.ok(
      readFileSync((await got.path())!).equals(bytesOf(join(dir, 'listing.asm'))),
      'the download is the listing',
    );
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('#p1-copy');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('copied'));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), textOf(join(dir, 'listing.asm')));
    // A part chosen in the part table downloads as its bytes (after the 8-byte part header).
    await page.click('#tab-container');
    await page.click('#parts [data-part="0"]');
    const part = page.waitForEvent('download');
    await page.click('#download');
    const rdef = await part;
    assert.equal(rdef.suggestedFilename(), 'copy.RDEF.bin');
    const at = Number(directory(bytes)[0]!.offset);
    const size = Number(directory(bytes)[0]!.size);
    assert.ok(
      readFileSync((await rdef.path())!).equals(bytes.subarray(at + 8, at + 8 + size)),
      'the download is the part',
    );
  });

  test('a pixel program: bindings of its texture and sampler, the decompiled HLSL', async () => {
    const dir = join(OWN, 'ps_sample_basic/main-ps_5_0');
    const bytes = bytesOf(join(dir, 'shader.dxbc'));
    await openByDrop(page, 'pixel.dxbc', bytes);
    await setPanes(page, 3);
    await page.click('#tab-reflect');
    const ms = JSON.parse(textOf(join(dir, 'reflect.json'))) as MsReflect;
    await assertReflectionTables(page, ms, textOf(join(dir, 'listing.asm')));
    assert.ok(ms.BoundResources.some((b) => b.Type === 3) && ms.BoundResources.some((b) => b.Type === 2));
    await page.click('#p1-tab-hlsl');
    let hlsl = '';
    let code: string | undefined;
    try {
      hlsl = iridia.decompiledHlsl(iridia.decompile(new Uint8Array(bytes)));
    } catch (e) {
      code = e instanceof iridia.IridiaError ? e.code : 'internal';
    }
    assert.equal(await page.locator('#p1-hlsl-output').textContent(), hlsl);
    assert.equal(
      code ?? null,
      await page
        .locator('#p1-panel-hlsl .error')
        .getAttribute('data-code')
        .catch(() => null),
    );
    await page.click('#p2-tab-disasm');
    await assertPreEquals(page, '#p2-disasm-output', join(dir, 'listing.asm'));
    await shot(page, 'pixel');
  });

  test('a compute program: its WGSL lines and thread-ID registers link', async () => {
    const dir = join(OWN, 'cs_basic/main-cs_5_0');
    await openThroughInput(page, 'compute.dxbc', bytesOf(join(dir, 'shader.dxbc')));
    await setPanes(page, 3);
    await page.click('#p1-tab-disasm');
    await page.click('#p2-tab-wgsl');
    await assertPreEquals(page, '#p1-disasm-output', join(dir, 'listing.asm'));
    const listing = textOf(join(dir, 'listing.asm'));
    const line = listing.split('\n').find((l) => /^iadd r1\.x, /.test(l))!;
    await clickLine(page, '#p1-disasm-output', line);
    const linked = await texts(page, '#p2-wgsl-output .link-line');
    assert.equal(linked.length, 1);
    assert.match(linked[0]!, /^\s*r1\.x = /);
    assert.match((await page.locator('#selection').textContent()) ?? '', /r1 \(written\), vthreadid/);
    // The decompiled HLSL pane lights the lines that carry the instruction (the decompiler keeps
    // the provenance), the same as decompiledHlslWithMap gives.
    await page.click('#p2-tab-hlsl');
    const bytes = new Uint8Array(bytesOf(join(dir, 'shader.dxbc')));
    const map = iridia.decompiledHlslWithMap(iridia.decompile(bytes));
    const program = iridia.decodeContainerProgram(iridia.parseContainer(bytes))!;
    const at = /at byte 0x([0-9a-f]+)/i.exec((await page.locator('#selection').textContent()) ?? '');
    assert.ok(at, 'the selection names its byte offset');
    const k = program.instructions.findIndex((i) => i.word * 4 === parseInt(at[1]!, 16));
    assert.ok(k >= 0);
    const want = map.text.split('\n').filter((_, n) => map.origins[n]!.includes(k));
    assert.ok(want.length > 0, 'the iadd has a decompiled line');
    assert.deepEqual(await texts(page, '#p2-hlsl-output .link-line'), want);
    await shot(page, 'compute');
  });

  test('a /Zi build: the embedded source, and the source line of an instruction', async () => {
    const dir = join(OWN, 'cs_basic/main-cs_5_0-zi');
    await openThroughInput(page, 'compute-zi.dxbc', bytesOf(join(dir, 'shader.dxbc')));
    await setPanes(page, 3);
    await page.click('#p1-tab-disasm');
    await page.click('#p2-tab-source');
    await assertPreEquals(page, '#p1-disasm-output', join(dir, 'listing.asm'));
    // The SPDB embeds the program's source: the fixture's source.hlsl, byte for byte.
    await assertPreEquals(page, '#p2-source-output', join(OWN, 'cs_basic/source.hlsl'));
    // Microsoft's listing puts `#line 12` before the first ishl: its source line is line 12.
    const listing = textOf(join(dir, 'listing.asm')).split('\n');
    const ishl = listing.findIndex((l) => l.startsWith('ishl '));
    const lineDirective = listing
      .slice(0, ishl)
      .reverse()
      .find((l) => l.startsWith('#line'))!;
    const n = Number(/^#line (\d+)/.exec(lineDirective)![1]);
    await clickLine(page, '#p1-disasm-output', listing[ishl]!);
    const source = textOf(join(OWN, 'cs_basic/source.hlsl')).split('\n');
    assert.deepEqual(await texts(page, '#p2-source-output .link-line'), [source[n - 1]]);
    assert.match((await page.locator('#selection').textContent()) ?? '', new RegExp(`source\\.hlsl line ${n};`));
    await shot(page, 'zi-source-linked');
  });

  test('a DXIL /Zi build: the HLSL of dx.source.contents, and of an SRCI part with two files', async () => {
    const file = join(FIXTURES, 'dxil-source/Helios__PixelShader.dxil');
    const bytes = bytesOf(file);
    await openThroughInput(page, 'dxil-zi.dxil', bytes);
    await setPanes(page, 2);
    await page.click('#p1-tab-source');
    // The debug module's text: the file rtarun9/Helios holds at that commit, with the CRLF of the build.
    const shown = (await page.locator('#p1-source-output').textContent()) ?? '';
    assert.equal(shown.replace(/\r\n/g, '\n'), textOf(join(FIXTURES, 'dxil-source/Helios__PixelShader.hlsl')));
    assert.equal(shown, iridia.readDxilSources(iridia.parseContainer(new Uint8Array(bytes)))!.files[0]!.text);
    assert.deepEqual(await page.locator('#p1-source-file option').allTextContents(), ['Shaders\\PixelShader.hlsl']);
    await shot(page, 'dxil-source');
    // SRCI (zlib contents) with two files: the selector offers both, each shows its text.
    const files = [
      { path: 'main.hlsl', text: '#include "common.hlsli"\nfloat4 main() : SV_Target { return K; }\n' },
      { path: '.\\common.hlsli', text: 'static const float4 K = 1;\n' },
    ];
    const part = srci(files, [['E', 'main']], true);
    await openThroughInput(page, 'srci.dxil', Buffer.from(iridia.serializeContainer([{ kind: 'SRCI', data: part }])));
    await page.click('#p1-tab-source');
    assert.deepEqual(
      await page.locator('#p1-source-file option').allTextContents(),
      files.map((f) => f.path),
    );
    assert.equal(await page.locator('#p1-source-output').textContent(), files[0]!.text);
    await page.selectOption('#p1-source-file', '1');
    assert.equal(await page.locator('#p1-source-output').textContent(), files[1]!.text);
    // A broken SRCI shows its typed error in the pane.
    const broken = part.slice();
    broken.set(u32(part.byteLength + 4), 0);
    await openThroughInput(
      page,
      'srci-broken.dxil',
      Buffer.from(iridia.serializeContainer([{ kind: 'SRCI', data: broken }])),
    );
    await page.click('#p1-tab-source');
    assert.equal(await page.locator('#p1-panel-source .error').getAttribute('data-code'), 'E202_PART_BAD_OFFSET');
  });

  test('a DXIL /Zi build (ILDB): a listing line lights its source and WGSL lines; a source line selects its first instruction', async () => {
    // learn-sdl-gpu's vertex program: the listing prints the debug module (ILDB), whose
    // instructions are the DXIL part's and the llvm.dbg.* calls.
    const name = 'learn-sdl-gpu__shader.vert_512ae7a1';
    const bytes = bytesOf(join(FIXTURES, `dxil-source/${name}.dxil`));
    await openThroughInput(page, 'dxil-ildb.dxil', bytes);
    await setPanes(page, 3);
    await page.click('#p1-tab-dxil');
    await page.click('#p2-tab-source');
    const listing = iridia.disassembleDxil(iridia.parseContainer(new Uint8Array(bytes))).split('\n');
    const source = textOf(join(FIXTURES, `dxil-source/${name}.hlsl`)).split('\n');
    // The first storeOutput: its `!dbg` location is the `return output;` line of the source.
    const store = listing.find((l) => l.includes('@dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0'))!;
    const n = Number(/ ; line:(\d+) /.exec(store)![1]);
    assert.equal(source[n - 1]!.trim(), 'return output;');
    await clickLine(page, '#p1-dxil-output', store);
    assert.deepEqual(
      (await texts(page, '#p2-source-output .link-line')).map((l) => l.replace(/\r$/, '')),
      [source[n - 1]],
    );
    assert.match(
      (await page.locator('#selection').textContent()) ?? '',
      new RegExp(`^instruction \\d+, src.hlsl.vert\\.hlsl line ${n}$`),
    );
    // ... and its WGSL assignment (the debug module's instructions mapped onto the DXIL part's).
    await page.click('#p2-tab-wgsl');
    const linked = await texts(page, '#p2-wgsl-output .link-line');
    assert.ok(
      linked.some((l) => /^\s*[\w.[\]]+ = /.test(l)),
      linked.join(' | '),
    );
    // The reverse: a source line selects the first instruction at that line (the first loadInput, line 14).
    await page.click('#p2-tab-source');
    const first = listing.find((l) => / ; line:\d+ /.test(l))!;
    const m = Number(/ ; line:(\d+) /.exec(first)![1]);
    await page.locator(`#p2-source-output .ln[data-line="${m - 1}"]`).click();
    assert.deepEqual(await texts(page, '#p1-dxil-output .sel-line'), [first]);
    assert.deepEqual(
      (await texts(page, '#p2-source-output .link-line')).map((l) => l.replace(/\r$/, '')),
      [source[m - 1]],
    );
    await shot(page, 'dxil-source-linked');
  });

  test('a level-9 build: its listing, reflection tables and links', async () => {
    const dir = join(OWN, 'vs_basic/main-vs_4_0_level_9_1');
    await openThroughInput(page, 'level9.dxbc', bytesOf(join(dir, 'shader.dxbc')));
    await setPanes(page, 3);
    await page.click('#tab-reflect');
    await page.click('#p1-tab-disasm');
    await assertPreEquals(page, '#p1-disasm-output', join(dir, 'listing.asm'));
    await assertReflectionTables(
      page,
      JSON.parse(textOf(join(dir, 'reflect.json'))) as MsReflect,
      textOf(join(dir, 'listing.asm')),
    );
    // The Direct3D 9 program printed in the header is not an SM4 instruction; the SM4 ones link.
    await clickLine(page, '#p1-disasm-output', 'mul o1.xyzw, v1.xyzw, cb0[4].xyzw');
    assert.match((await page.locator('#selection').textContent()) ?? '', /registers o1 \(written\), v1, cb0$/);
    await shot(page, 'level9');
  });

  test('a DXIL program: its listing, and reflection tables (no E108) with the bindings dxc lists', async () => {
    const dxil = bytesOf(join(FIXTURES, 'dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil'));
    await openThroughInput(page, 'blit.dxil', dxil);
    await setPanes(page, 3);
    await page.click('#tab-reflect');
    await page.click('#p1-tab-dxil');
    assert.equal(await page.locator('#panel-reflect .error').count(), 0);
    // dxc's listing (the .ll committed beside it), "Resource Bindings": SourceRegionBuffer cbuffer
    // cb0,space3; SourceSampler sampler s0,space2; SourceTexture2DArray texture 2darray t0,space2.
    const bindings = await tableRows(page, '#panel-reflect [data-table=bindings]');
    assert.deepEqual(
      bindings.map((r) => [r[0], r[1], r[3], r[4], r[5]]),
      [
        ['SourceRegionBuffer', 'cbuffer', 'NA', 'cb0', '3'],
        ['SourceSampler', 'sampler', 'NA', 's0', '2'],
        ['SourceTexture2DArray', 'texture', '2darray', 't0', '2'],
      ],
    );
    // Input signature: TEXCOORD 0 xy register 0; SV_Position 0 xyzw register 1.
    const inputs = await tableRows(page, '#panel-reflect [data-table=inputs]');
    assert.deepEqual(
      inputs.map((r) => [r[0], r[2], r[5]]),
      [
        ['TEXCOORD', '0', 'xy'],
        ['SV_POSITION', '1', 'xyzw'],
      ],
    );
    const ll = textOf(join(FIXTURES, 'dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.ll'));
    const shown = (await page.locator('#p1-dxil-output').textContent()) ?? '';
    assert.equal(shown, iridia.disassembleDxil(iridia.parseContainer(new Uint8Array(dxil))));
    // The listing's instructions are dxc's (its /Fc text, comments aside).
    const body = (t: string): string[] => t.split('\n').filter((l) => /^\s+(%|call|ret|store)/.test(l));
    assert.deepEqual(body(shown), body(ll));
    assert.ok((await page.locator('#p1-dxil-output .t-kw').count()) > 0, 'the DXIL listing is highlighted');
    // Linked by the lifter's provenance: the first storeOutput lights the WGSL line that writes
    // that output lane (and a WGSL line selects its instruction back).
    await page.click('#p2-tab-wgsl');
    const store = shown
      .split('\n')
      .find((l) => l.includes('call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0'))!;
    await clickLine(page, '#p1-dxil-output', store);
    assert.equal(await page.locator('#p1-dxil-output .sel-line').count(), 1);
    const linked = await texts(page, '#p2-wgsl-output .link-line');
    assert.ok(linked.length >= 1, 'the storeOutput has a WGSL line');
    assert.ok(
      linked.some((l) => /^\s*[\w.[\]]+ = /.test(l)),
      linked.join(' | '),
    );
    assert.match((await page.locator('#selection').textContent()) ?? '', /^instruction \d+$/);
    await shot(page, 'dxil');
  });

  test('a root-signature container: the RTS0 tree, from the part words', async () => {
    const bytes = bytesOf(join(FIXTURES, 'container/direct3d12__SDL_shaders_d3d12__D3D12_RootSig_Color.dxil'));
    await openThroughInput(page, 'rootsig.dxil', bytes);
    assert.equal(await page.locator('#tab-reflect').isVisible(), true);
    assert.equal(await page.locator('#tab-disasm').isHidden(), true);
    await page.click('#tab-reflect');
    // No program to reflect: the JSON's refusal, while the root signature shows.
    assert.equal(await page.locator('#panel-reflect .failure .error').getAttribute('data-code'), 'E108_PART_MISSING');
    // The part's words, read here: version, parameter count and offset, flags; parameter 0's type,
    // visibility and payload (SDL's ColorRS: four RootFlags and RootConstants(num32BitConstants=32, b0)).
    const part = directory(bytes)[0]!;
    const w = (i: number): number => bytes.readUInt32LE(Number(part.offset) + 8 + 4 * i);
    assert.equal(w(0), 2, 'root signature 1.1');
    assert.equal(w(1), 1, 'one parameter');
    const p0 = w(2) / 4;
    assert.equal(w(p0), 1, 'parameter 0 is 32-bit constants');
    const payload = w(p0 + 2) / 4;
    const tree = (await page.locator('#rts0-tree').textContent()) ?? '';
    assert.equal(await page.locator('#p1-rts0-tree').textContent(), tree, 'each pane its own tree');
    assert.match(tree, new RegExp(`version 1\\.1, flags 0x${w(5).toString(16)}`));
    assert.match(
      tree,
      new RegExp(
        `0: RootConstants \\(visibility all\\): b${w(payload)}, space ${w(payload + 1)}, ${w(payload + 2)} 32-bit values`,
      ),
    );
    assert.equal(w(payload + 2), 32);
    assert.equal(await page.locator('#rts0-tree[role=tree] [role=treeitem]').count(), 4);
    await shot(page, 'root-signature');
  });

  test('a broken file: the typed error, and no panes', async () => {
    const bytes = bytesOf(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc'));
    await openThroughInput(page, 'broken.dxbc', bytes.subarray(0, 100));
    assert.equal(await page.locator('#error .error').getAttribute('data-code'), 'E103_SIZE_MISMATCH');
    assert.equal(await page.locator('#view').isHidden(), true);
    await shot(page, 'broken');
  });

  test('the bundled example: one click, and ?example=NAME', async () => {
    await page.click('#example');
    await waitForOpen(page, 'vertex-color.dxbc');
    await page.click('#p1-tab-disasm');
    await assertPreEquals(page, '#p1-disasm-output', join(REPO, 'examples/vertex-color.asm'));
    const linked = await browser!.newPage();
    await linked.goto(`${page.url().replace(/\?.*$/, '')}?example=vertex-color`);
    await waitForOpen(linked, 'vertex-color.dxbc');
    assert.equal(
      await linked.locator('#p1-disasm-output').textContent(),
      textOf(join(REPO, 'examples/vertex-color.asm')),
    );
    await linked.goto(`${page.url().replace(/\?.*$/, '')}?example=no-such`);
    await linked.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('no example'));
    await linked.close();
  });

  test('many files at once: a sortable census; a row opens its file', async () => {
    const files: [string, Buffer][] = [
      ['b-vertex.dxbc', bytesOf(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc'))],
      ['a-broken.dxbc', bytesOf(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc')).subarray(0, 600)],
      ['c-blit.dxil', bytesOf(join(FIXTURES, 'dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil'))],
    ];
    await page.evaluate(
      (list) => {
        const dt = new DataTransfer();
        for (const [n, data] of list) dt.items.add(new File([new Uint8Array(data)], n));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      files.map(([n, b]) => [n, Array.from(b)] as [string, number[]]),
    );
    await page.waitForSelector('#census-table');
    const rows = await tableRows(page, '#census-table');
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[5]]),
      files.map(([n, b]) => [n, String(b.byteLength), n.startsWith('a-') ? 'E103_SIZE_MISMATCH' : 'ok']),
    );
    assert.deepEqual(
      rows.map((r) => r[2]),
      ['vs_5_0', '', 'ps_6_0'],
    );
    await page.click('#census-table th >> text=Size');
    const bySize = [...files].sort((a, b) => a[1].byteLength - b[1].byteLength).map(([n]) => n);
    assert.deepEqual(
      (await tableRows(page, '#census-table')).map((r) => r[0]),
      bySize,
    );
    assert.equal(await page.locator('#census-table th[aria-sort=ascending]').textContent(), 'Size');
    await page.click('#census-table th >> text=Size');
    assert.deepEqual(
      (await tableRows(page, '#census-table')).map((r) => r[0]),
      [...bySize].reverse(),
    );
    await shot(page, 'census');
    await page.click('#census-table [data-open="c-blit.dxil"]');
    await waitForOpen(page, 'c-blit.dxil');
    assert.match((await page.locator('#header').textContent()) ?? '', /Programps_6_0/);
  });

  test('phone width, themes and labels: no overflow at 420 px; every control named', async () => {
    const phone = await browser!.newPage({ viewport: { width: 420, height: 900 } });
    phone.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    await phone.goto(`${page.url().replace(/\?.*$/, '')}?example=vertex-color`);
    await waitForOpen(phone, 'vertex-color.dxbc');
    await phone.selectOption('#pane-count', '2');
    for (const view of ['container', 'disasm', 'reflect', 'wgsl', 'hlsl']) {
      await phone.click(`#tab-${view}`);
      const [scroll, width] = await phone.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      assert.ok(scroll <= width, `${view}: the page is ${scroll} px wide in a ${width} px window`);
      const tabs = await phone.locator('#tabs').evaluate((t) => [t.scrollWidth, t.clientWidth]);
      assert.ok(tabs[0]! <= tabs[1]!, `${view}: the tab row fits (${tabs.join(' in ')})`);
    }
    await phone.click('#tab-disasm');
    await shot(phone, 'phone-light');
    await phone.click('#theme');
    assert.equal(await phone.evaluate(() => document.documentElement.dataset['theme']), 'dark');
    assert.equal(await phone.locator('#theme').getAttribute('aria-pressed'), 'true');
    const bg = await phone.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.equal(bg, 'rgb(22, 24, 27)', 'the dark background');
    await shot(phone, 'phone-dark');
    await phone.click('#theme');
    assert.equal(await phone.evaluate(() => document.documentElement.dataset['theme']), 'light');
    // Every control has a name (a label, aria-label, or its text); tabs and panels point at each other.
    const unnamed = await phone.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('input, select, button, [role=separator]'))
        .filter((el) => {
          const label = el.id ? document.querySelector(`label[for="${el.id}"]`) : null;
          return !label && !el.getAttribute('aria-label') && !(el.textContent ?? '').trim() && !el.closest('label');
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(unnamed, []);
    const broken = await phone.evaluate(
      () =>
        Array.from(document.querySelectorAll('[role=tab]')).filter((t) => {
          const panel = document.getElementById(t.getAttribute('aria-controls') ?? '');
          return panel?.getAttribute('role') !== 'tabpanel' || panel.getAttribute('aria-labelledby') !== t.id;
        }).length,
    );
    assert.equal(broken, 0);
    // The focus order: the file input, the example, then the controls of the workbench, then the tabs.
    await phone.focus('#file');
    await phone.keyboard.press('Tab');
    assert.equal(await phone.evaluate(() => document.activeElement?.id), 'example');
    await phone.close();
  });

  test('Run: a compute and a pixel program on the executor, with the words of iridia run --seed', async () => {
    const cs = bytesOf(join(OWN, 'cs_basic/main-cs_5_0/shader.dxbc'));
    await openThroughInput(page, 'run-compute.dxbc', cs);
    await setPanes(page, 2);
    await page.click('#p1-tab-run');
    await page.fill('#p1-seed', '7');
    await page.click('#p1-run');
    await page.waitForFunction(() => /^seed /.test(document.querySelector('#p1-run-status')?.textContent ?? ''));
    // This browser runs with --disable-gpu: no adapter, and the page says so.
    assert.match(
      (await page.locator('#p1-run-status').textContent()) ?? '',
      /^seed 7, compute program, 1 outputs on the executor; .*the executor runs alone$/,
    );
    const expected = seededCpu(iridia.lift(new Uint8Array(cs)), 7, SEEDED_DEFAULTS).outputs;
    const u0 = expected['u0']!;
    assert.equal(await page.locator('#p1-run-output caption').textContent(), `u0: ${u0.length} words`);
    const rows = await tableRows(page, '#p1-run-output [data-output=u0]');
    assert.deepEqual(
      rows,
      u0.slice(0, 256).map((w, i) => [String(i), hex8(w)]),
    );
    await shot(page, 'run-compute-executor');

    const ps = bytesOf(join(OWN, 'ps_sample_basic/main-ps_5_0/shader.dxbc'));
    await openThroughInput(page, 'run-pixel.dxbc', ps);
    await page.click('#p1-tab-run');
    await page.click('#p1-run');
    await page.waitForFunction(() => /^seed /.test(document.querySelector('#p1-run-status')?.textContent ?? ''));
    // The seed box keeps 7 from the last run.
    assert.match((await page.locator('#p1-run-status').textContent()) ?? '', /^seed 7, pixel program/);
    const seeded = seededCpu(iridia.lift(new Uint8Array(ps)), 7, SEEDED_DEFAULTS).targets!;
    assert.ok(Object.keys(seeded).length > 0);
    for (const [location, words] of Object.entries(seeded)) {
      // The output's components of each pixel, as the CLI prints them (the first SHOWN_WORDS).
      const shown = await tableRows(page, `#p1-run-output [data-output="target ${location}"]`);
      assert.deepEqual(
        shown,
        words.slice(0, 256).map((w, i) => [String(i), hex8(w)]),
        `target ${location}`,
      );
    }
    await shot(page, 'run-pixel-executor');

    // Edited inputs: the tint typed as floats, a one-colour PNG for Diffuse; each pixel is the texel
    // (c / 255) times the tint, computed here in f32.
    await editInputs(page, { 0: TINT[0]!, 1: TINT[1]!, 2: TINT[2]!, 3: TINT[3]! }, 't0', 'one-colour.png', ONE_COLOUR);
    const edited = await runAndWait(page, /^seed 7 with /);
    assert.match(
      edited,
      /^seed 7 with cb0 \(4 words\), t0 \(a 3×2 image\) edited, pixel program, 1 outputs on the executor; /,
    );
    assert.deepEqual(
      await tableRows(page, '#p1-run-output [data-output="target 0"]'),
      Array.from({ length: 256 }, (_, i) => [String(i), hex8(TINTED[i % 4]!)]),
    );
    assert.notDeepEqual(seeded['0']!.slice(0, 4), TINTED, 'the unedited run gives other words');
    // A new seed leaves the edited cells as typed; a cell that is not a float stops the run.
    await page.fill('#p1-seed', '8');
    assert.equal(await page.inputValue('#p1-cb-cb0-w1'), '2');
    await page.fill('#p1-cb-cb0-w1', 'two');
    assert.equal(await runAndWait(page, /^not run/), 'not run: cb0 Tint.y: "two" is not a number');
    await page.fill('#p1-cb-cb0-w1', TINT[1]!);
    await page.fill('#p1-seed', '7');
    await shot(page, 'run-inputs-executor');
  });

  test('a 10,000-instruction program opens (time printed, not asserted)', async (t) => {
    // vs_basic with its `mov r0.w, l(1.0)` repeated 10,000 times before ret, the length word and
    // the digest rewritten: a real program of 10,000-odd instructions.
    const c = iridia.parseContainer(new Uint8Array(bytesOf(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc'))));
    const shexPart = c.parts.find((p) => p.kind === 'SHEX')!;
    const program = iridia.decodeContainerProgram(c)!;
    const mov = program.instructions.find((i) => i.opcode === 0x36 && i.operands[1]?.type === 4)!;
    const words = new Uint32Array(
      shexPart.data.buffer.slice(shexPart.data.byteOffset, shexPart.data.byteOffset + shexPart.data.byteLength),
    );
    const ret = program.instructions[program.instructions.length - 1]!;
    const copies = 10_000;
    const out = new Uint32Array(words.length + copies * mov.length);
    out.set(words.subarray(0, ret.word));
    const one = words.subarray(mov.word, mov.word + mov.length);
    for (let k = 0; k < copies; k++) out.set(one, ret.word + k * mov.length);
    out.set(words.subarray(ret.word), ret.word + copies * mov.length);
    out[1] = out.length;
    const big = Buffer.from(
      iridia.signContainer(iridia.editContainer(c, { op: 'replace', kind: 'SHEX', data: new Uint8Array(out.buffer) })),
    );
    const instructions = iridia.decodeContainerProgram(iridia.parseContainer(new Uint8Array(big)))!.instructions.length;
    assert.ok(instructions > 10_000);
    // The second pane shows the listing before the big file comes, so opening it renders the listing.
    await openThroughInput(page, 'small.dxbc', bytesOf(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc')));
    await setPanes(page, 2);
    await page.click('#p1-tab-disasm');
    // The bytes go into the page first; the clock runs from the drop to the first frame painted
    // after the status line names the file.
    const wall = await page.evaluate(async (data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], 'big.dxbc'));
      const status = document.querySelector('#status')!;
      const started = performance.now();
      const opened = new Promise<void>((resolve) => {
        const watch = new MutationObserver(() => {
          if (status.textContent?.startsWith('big.dxbc:')) {
            watch.disconnect();
            resolve();
          }
        });
        watch.observe(status, { childList: true, characterData: true, subtree: true });
      });
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      await opened;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - started;
    }, Array.from(big));
    const inPage = Number(await page.evaluate(() => document.body.dataset['openMs']));
    const lines = await page.locator('#p1-disasm-output .ln').count();
    assert.ok(lines > 10_000, `${lines} listing lines`);
    const message = `a ${instructions}-instruction program (${big.byteLength} bytes) opens in ${inPage.toFixed(1)} ms in the page (parse, part table, highlighted ${lines}-line listing), ${wall.toFixed(0)} ms from the drop to the first frame painted after it`;
    t.diagnostic(message);
    console.log(`web: ${message}`);
    await shot(page, 'ten-thousand');
  });

  const noVulkan = needs(
    existsSync(VK_ICD) ? false : `${VK_ICD} is absent (SwiftShader's Vulkan driver, for WebGPU in Chromium)`,
  );
  test(
    'Run on WebGPU (SwiftShader): a compute and two pixel programs word for word beside the executor',
    { skip: noVulkan },
    async () => {
      // One Chromium at a time: the first is closed, and one with WebGPU on SwiftShader's Vulkan started.
      await browser?.close();
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--enable-unsafe-webgpu',
          '--enable-features=Vulkan',
          '--use-webgpu-adapter=swiftshader',
          '--use-vulkan=swiftshader',
        ],
        env: { ...process.env, VK_ICD_FILENAMES: VK_ICD, XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'] ?? '/tmp' },
      });
      const gpuPage = await browser.newPage();
      gpuPage.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
      await gpuPage.goto(serverUrl);
      const cs = bytesOf(join(OWN, 'cs_basic/main-cs_5_0/shader.dxbc'));
      await openThroughInput(gpuPage, 'gpu-compute.dxbc', cs);
      await gpuPage.click('#p1-tab-run');
      await gpuPage.click('#p1-run');
      await gpuPage.waitForFunction(
        () => /^seed /.test(document.querySelector('#p1-run-status')?.textContent ?? ''),
        null,
        { timeout: 60_000 },
      );
      const status = (await gpuPage.locator('#p1-run-status').textContent()) ?? '';
      assert.equal(status, 'seed 1, compute program, 1 outputs on the executor and WebGPU: 0 words differ');
      const u0 = seededCpu(iridia.lift(new Uint8Array(cs)), 1, SEEDED_DEFAULTS).outputs['u0']!;
      const rows = await tableRows(gpuPage, '#p1-run-output [data-output=u0]');
      assert.deepEqual(
        rows,
        u0.slice(0, 256).map((w, i) => [String(i), hex8(w), hex8(w)]),
      );
      assert.equal(await gpuPage.locator('#p1-run-output tr.diff').count(), 0);
      await shot(gpuPage, 'run-compute-webgpu');

      // A pixel program (a sample and a constant buffer; DXBC) and a DXIL one (the interpolated
      // colour): the 8x8 target drawn on WebGPU, every word equal to the executor's.
      for (const [name, file] of [
        ['gpu-pixel.dxbc', join(OWN, 'ps_sample_basic/main-ps_5_0/shader.dxbc')],
        ['gpu-pixel.dxil', join(FIXTURES, 'dxil-lift/gpu__color.frag.sm60.dxil')],
      ] as const) {
        const ps = bytesOf(file);
        await openThroughInput(gpuPage, name, ps);
        await gpuPage.click('#p1-tab-run');
        await gpuPage.fill('#p1-seed', '7');
        await gpuPage.click('#p1-run');
        await gpuPage.waitForFunction(
          () => /^seed /.test(document.querySelector('#p1-run-status')?.textContent ?? ''),
          null,
          { timeout: 60_000 },
        );
        const expected = seededCpu(iridia.liftContainer(iridia.parseContainer(new Uint8Array(ps))), 7, SEEDED_DEFAULTS);
        const targets = Object.entries(expected.targets!);
        const outputs = targets.length + Object.keys(expected.outputs).length;
        assert.equal(
          (await gpuPage.locator('#p1-run-status').textContent()) ?? '',
          `seed 7, pixel program, ${outputs} outputs on the executor and WebGPU: 0 words differ`,
          name,
        );
        assert.ok(targets.length > 0);
        for (const [location, words] of targets) {
          const rows = await tableRows(gpuPage, `#p1-run-output [data-output="target ${location}"]`);
          assert.equal(words.length % 64, 0, 'an 8x8 target');
          assert.deepEqual(
            rows,
            words.slice(0, 256).map((w, i) => [String(i), hex8(w), hex8(w)]),
            `${name} target ${location}`,
          );
        }
        assert.equal(await gpuPage.locator('#p1-run-output tr.diff').count(), 0);
        // Each target as an image, the executor's and WebGPU's: opaque RGB, a float clamped to
        // [0, 1] times 255, rounded (both programs write float4 targets).
        for (const [location, words] of targets) {
          const images = await gpuPage
            .locator(`#p1-run-output .run-images[data-output="target ${location}"] canvas`)
            .evaluateAll((cs) =>
              (cs as HTMLCanvasElement[]).map((c) => ({
                by: c.dataset['by'],
                rgba: Array.from(c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data),
              })),
            );
          const f = new Float32Array(Uint32Array.from(words).buffer);
          const expected = Array.from({ length: 64 * 4 }, (_, j) =>
            j % 4 === 3
              ? 255
              : Number.isNaN(f[(j >> 2) * 4 + (j % 4)]!)
                ? 0
                : Math.round(Math.min(1, Math.max(0, f[(j >> 2) * 4 + (j % 4)]!)) * 255),
          );
          assert.deepEqual(
            images.map((x) => x.by),
            ['executor', 'WebGPU'],
          );
          for (const x of images) assert.deepEqual(x.rgba, expected, `${name} target ${location} image by ${x.by}`);
        }
        await shot(gpuPage, `run-pixel-webgpu-${name.split('.').pop()!}`);
      }

      // Edited inputs on WebGPU: the same tint and image, every word the f32 product on both, and
      // other words than the unedited run's.
      const ps = bytesOf(join(OWN, 'ps_sample_basic/main-ps_5_0/shader.dxbc'));
      await openThroughInput(gpuPage, 'gpu-inputs.dxbc', ps);
      await gpuPage.click('#p1-tab-run');
      await gpuPage.fill('#p1-seed', '7');
      await editInputs(
        gpuPage,
        { 0: TINT[0]!, 1: TINT[1]!, 2: TINT[2]!, 3: TINT[3]! },
        't0',
        'one-colour.png',
        ONE_COLOUR,
      );
      assert.equal(
        await runAndWait(gpuPage, /^seed 7 with /),
        'seed 7 with cb0 (4 words), t0 (a 3×2 image) edited, pixel program, 1 outputs on the executor and WebGPU: 0 words differ',
      );
      assert.deepEqual(
        await tableRows(gpuPage, '#p1-run-output [data-output="target 0"]'),
        Array.from({ length: 256 }, (_, i) => [String(i), hex8(TINTED[i % 4]!), hex8(TINTED[i % 4]!)]),
      );
      const unedited = seededCpu(iridia.lift(new Uint8Array(ps)), 7, SEEDED_DEFAULTS).targets!['0']!;
      assert.notDeepEqual(unedited.slice(0, 4), TINTED);
      await shot(gpuPage, 'run-inputs-webgpu');

      // A texture UAV as an image: fx_blur_cs (../shared) with its radius 0 copies its input into
      // row 0 of its RWTexture2D<float4>; the input a 12x3 PNG of distinct texels.
      const blur = join(SHARED, 'oracle/own/fx_blur_cs/main-cs_5_0/shader.dxbc');
      if (!existsSync(blur)) return;
      const blurBytes = bytesOf(blur);
      const rgba = new Uint8Array(12 * 3 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 37 + 11) & 0xff));
      await openThroughInput(gpuPage, 'gpu-uav.dxbc', blurBytes);
      await gpuPage.click('#p1-tab-run');
      await gpuPage.fill('#p1-seed', '3');
      await editInputs(gpuPage, { 0: '0' }, 't0', 'distinct.png', png(12, 3, rgba));
      assert.equal(
        await runAndWait(gpuPage, /^seed 3 with /),
        'seed 3 with cb0 (1 word), t0 (a 12×3 image) edited, compute program, 1 outputs on the executor and WebGPU: 0 words differ',
      );
      const uavRows = await tableRows(gpuPage, '#p1-run-output [data-output=u0]');
      for (let w = 0; w < 32; w++)
        assert.deepEqual(
          uavRows[w],
          [String(w), hex8(bits(rgba[w]! / 255)), hex8(bits(rgba[w]! / 255))],
          `u0 word ${w}`,
        );
      const images = await gpuPage.locator('#p1-run-output .run-images[data-output=u0] canvas').evaluateAll((cs) =>
        (cs as HTMLCanvasElement[]).map((c) => ({
          by: c.dataset['by'],
          row0: Array.from(c.getContext('2d')!.getImageData(0, 0, 8, 1).data),
        })),
      );
      assert.deepEqual(
        images.map((x) => x.by),
        ['executor', 'WebGPU'],
      );
      for (const x of images) assert.deepEqual(x.row0, Array.from(rgba.subarray(0, 32)), `u0 row 0 by ${x.by}`);
      await shot(gpuPage, 'run-uav-webgpu');
    },
  );

  test('no script error on the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
