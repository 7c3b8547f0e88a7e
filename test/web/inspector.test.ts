// The web inspector in a real browser: builds web/dist with esbuild (scripts/build-web.mjs), serves
// web/ on a free loopback port (scripts/serve-web.mjs), opens it in headless Chromium through
// playwright-core, loads committed fixtures through the file input and by drag-and-drop, and checks
// the page against the files themselves and Microsoft's listings and reflection byte for byte.
// Skips when /usr/bin/chromium is absent (no browser is ever downloaded).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import * as iridia from '../../src/index.js';
import { d3dReflectAnyJson } from '../../src/reflect/dxil.js';
import { FIXTURES, REPO, firstDifference } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';

const CHROMIUM = process.env['IRIDIA_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = needs(
  existsSync(CHROMIUM)
    ? false
    : `${CHROMIUM} is absent (install Debian's chromium, or set IRIDIA_CHROMIUM, to run the web test)`,
);

const OWN = join(FIXTURES, 'oracle/own');
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

describe('web inspector in headless Chromium', { skip }, () => {
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;
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

  test('no script error on the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
