// The Run view's editable inputs, in Node (no browser): web/inputs.ts lays each constant buffer
// member out in words (checked against the byte ranges D3DReflect reports for every variable of the
// committed builds' reflect.json), shows and parses words as their types, and web/run.ts's
// runBindings puts the edited words and a picked image's texels where the executor reads them
// (checked by what programs compute from them: a texel times a constant, an image copied into a UAV).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer, liftContainer, type Json } from '../../src/index.js';
import { seedBindings } from '../../src/exec/index.js';
import { constantBufferWords, parseWord, showWord, typeWords, type WordType } from '../../web/inputs.js';
import { executorRun, imageRgba8, imageShapes, imageWords, runBindings, type PickedImage } from '../../web/run.js';
import { FIXTURES, SHARED, skipUnlessShared } from '../helpers/shared.js';

const OWN = join(FIXTURES, 'oracle/own');
type Obj = { readonly [key: string]: Json };
const f32 = (w: number): number => new Float32Array(Uint32Array.of(w).buffer)[0]!;
const bits = (x: number): number => new Uint32Array(Float32Array.of(x).buffer)[0]!;

/** Every reflect.json of the committed builds, and of ../shared's oracle when it is there. */
function reflections(): { dir: string; refl: Obj }[] {
  const out: { dir: string; refl: Obj }[] = [];
  const shared = join(SHARED, 'oracle/own');
  for (const root of existsSync(shared) ? [OWN, shared] : [OWN])
    for (const c of readdirSync(root).sort())
      for (const b of readdirSync(join(root, c)).sort()) {
        const p = join(root, c, b, 'reflect.json');
        if (existsSync(p)) out.push({ dir: `${c}/${b}`, refl: JSON.parse(readFileSync(p, 'utf8')) as Obj });
      }
  return out;
}

test("every constant buffer variable's words lie in the bytes D3DReflect gives it, and the last ends it", () => {
  let variables = 0;
  let structs = 0;
  for (const { dir, refl } of reflections()) {
    for (const cb of (refl['ConstantBuffers'] ?? []) as Obj[]) {
      if (cb['Type'] !== 0) continue;
      for (const v of (cb['VariableList'] ?? []) as Obj[]) {
        const t = v['Type'] as Obj;
        if (t['Class'] === 4) continue; // an object (interface pointer) has no words of its own here
        const start = (v['StartOffset'] as number) / 4;
        const end = start + (v['Size'] as number) / 4;
        const words = typeWords(t, start, String(v['Name']));
        const at = `${dir} ${String(cb['Name'])}.${String(v['Name'])}`;
        assert.ok(words.length > 0, at);
        assert.equal(new Set(words.map((w) => w.word)).size, words.length, `${at}: each word once`);
        for (const w of words)
          assert.ok(w.word >= start && w.word < end, `${at}: ${w.label} at word ${w.word} of [${start}, ${end})`);
        assert.equal(Math.max(...words.map((w) => w.word)), end - 1, `${at}: the last word ends the variable`);
        variables++;
        if (t['Class'] === 5) structs++;
      }
    }
  }
  assert.ok(variables > 100 && structs > 0, `${variables} variables, ${structs} structs`);
});

test('the members of a constant buffer by its Direct3D name, with their types', () => {
  const refl = JSON.parse(readFileSync(join(OWN, 'ps_sample_basic/main-ps_5_0/reflect.json'), 'utf8')) as Obj;
  assert.deepEqual(constantBufferWords(refl), {
    cb0: {
      name: 'Material',
      words: ['x', 'y', 'z', 'w'].map((c, word) => ({ label: `Tint.${c}`, type: 'float', word })),
    },
  });
});

test('words shown as their type read back as the same word', () => {
  const samples = [
    0, 1, 0x80000000, 0x7fffffff, 0xffffffff, 0x3f800000, 0xbf000000, 0x00000001, 0x7f800000, 0x7fc00001,
  ];
  for (let i = 0; i < 2000; i++) samples.push((Math.imul(i, 0x9e3779b9) ^ (i << 7)) >>> 0);
  for (const type of ['float', 'int', 'uint', 'bits'] as WordType[])
    for (const w of samples) assert.equal(parseWord(showWord(w, type), type), w, `${type} 0x${w.toString(16)}`);
  assert.equal(showWord(0x3f800000, 'float'), '1');
  assert.equal(showWord(0xffffffff, 'int'), '-1');
  assert.equal(parseWord('0.1', 'float'), bits(0.1));
  assert.equal(parseWord('-3', 'int'), 0xfffffffd);
  assert.match(String(parseWord('-3', 'uint')), /outside the range of a uint/);
  assert.match(String(parseWord('1.5', 'int')), /not an integer/);
  assert.match(String(parseWord('x', 'float')), /not a number/);
});

const ps = (): ReturnType<typeof liftContainer> =>
  liftContainer(parseContainer(new Uint8Array(readFileSync(join(OWN, 'ps_sample_basic/main-ps_5_0/shader.dxbc')))));

test('an edited constant and a picked image reach the executor: a one-colour texture times the tint', () => {
  const p = ps();
  const tint = [0.5, 2, -1, 0.25];
  const rgba = new Uint8Array(3 * 2 * 4);
  for (let i = 0; i < 6; i++) rgba.set([200, 51, 7, 255], i * 4);
  const image: PickedImage = { width: 3, height: 2, rgba };
  const inputs = { seed: 7, constants: { cb0: Uint32Array.from(tint, bits) }, images: { t0: image } };
  const b = runBindings(p, inputs);
  const t0 = b.resources.find((r) => r.name === 't0')!;
  assert.deepEqual([t0.texture!.width, t0.texture!.height], [3, 2]);
  assert.deepEqual(
    Array.from(t0.words!.subarray(0, 4)),
    [200, 51, 7, 255].map((c) => bits(c / 255)),
  );
  const out = executorRun(p, inputs)['target 0']!;
  assert.equal(out.length, 64 * 4);
  const texel = [200, 51, 7, 255].map((c) => Math.fround(c / 255));
  const want = texel.map((c, k) => bits(Math.fround(c * tint[k]!)));
  for (let i = 0; i < 64; i++) assert.deepEqual(Array.from(out.subarray(i * 4, i * 4 + 4)), want, `pixel ${i}`);
  // the unedited run gives other words
  assert.notDeepEqual(Array.from(executorRun(p, { seed: 7 })['target 0']!), Array.from(out));
  assert.throws(() => runBindings(p, { seed: 7, constants: { cb0: new Uint32Array(3) } }), /holds 4 words, not 3/);
  assert.throws(() => runBindings(p, { seed: 7, images: { cb0: image } }), /not a 2D texture/);
  assert.throws(() => runBindings(p, { seed: 7, images: { t5: image } }), /binds no t5/);
  assert.throws(() => imageWords(t0, { width: 2000, height: 2000, rgba: new Uint8Array(0) }), /more than/);
});

test(
  "a compute program's texture UAV: a picked image copied into it (fx_blur_cs, radius 0), as words and as an image",
  { skip: skipUnlessShared('oracle') },
  () => {
    const c = parseContainer(
      new Uint8Array(readFileSync(join(SHARED, 'oracle/own/fx_blur_cs/main-cs_5_0/shader.dxbc'))),
    );
    const p = liftContainer(c);
    // a 12 x 3 image, each texel its own bytes
    const width = 12;
    const rgba = new Uint8Array(width * 3 * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37 + 11) & 0xff;
    const inputs = {
      seed: 3,
      constants: { cb0: Uint32Array.of(0, 0, 0, 0) },
      images: { t0: { width, height: 3, rgba } },
    };
    const u0 = executorRun(p, inputs)['u0']!;
    const seeded = seedBindings(p, 3).resources.find((r) => r.name === 'u0')!.words!;
    assert.equal(u0.length, 8 * 8 * 4);
    // Output[dt.xy] = Input[min(dt.xy, size - 1)] for the group's row 0: the image's first 8 texels
    for (let x = 0; x < 8; x++)
      assert.deepEqual(
        Array.from(u0.subarray(x * 4, x * 4 + 4), f32),
        Array.from(rgba.subarray(x * 4, x * 4 + 4), (v) => Math.fround(v / 255)),
        `texel ${x}`,
      );
    assert.deepEqual(Array.from(u0.subarray(32)), Array.from(seeded.subarray(32)), 'rows 1 to 7 as seeded');
    const shape = imageShapes(p, inputs)['u0']!;
    assert.deepEqual(shape, { width: 8, height: 8, per: 4, float: true });
    const img = imageRgba8(shape, u0)!;
    assert.deepEqual(
      Array.from(img.subarray(0, 8 * 4)),
      Array.from(rgba.subarray(0, 8 * 4), (v, i) => (i % 4 === 3 ? 255 : v)),
    );
  },
);
