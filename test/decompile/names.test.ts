// Names from debug information (src/decompile/names.ts): a /Zi build's lets take the source
// variables their registers hold (SPDB/SDBG locations); only names change.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIXTURES, walk } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { liftContainer } from '../../src/lift/lift.js';
import {
  containerDebugNames,
  decompile,
  decompiledHlsl,
  decompiledWgsl,
  readableProgram,
} from '../../src/decompile/index.js';
import { sourceName } from '../../src/decompile/names.js';
import { IridiaError } from '../../src/errors.js';
import type { Module } from '../../src/ir/ir.js';

const OWN = join(FIXTURES, 'oracle/own');
const build = (p: string): Uint8Array => new Uint8Array(readFileSync(join(OWN, p, 'shader.dxbc')));

/** The words of the sources beside a build (source.hlsl and its includes). */
function sourceWords(dir: string): Set<string> {
  const text = readdirSync(dir)
    .filter((f) => /\.hlsli?$/.test(f))
    .map((f) => readFileSync(join(dir, f), 'latin1'))
    .join('\n');
  return new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
}

/** The module with every let unnamed: what debug names may not change. */
const withoutLetNames = (m: Module): unknown => ({
  ...m,
  functions: m.functions.map((f) => ({ ...f, lets: f.lets.map(() => ({ name: '' })) })),
});

test('sourceName: a variable and its member path as an identifier', () => {
  assert.equal(sourceName('normal', '.x'), 'normal');
  assert.equal(sourceName('s', '.n.y'), 's_n');
  assert.equal(sourceName('lights', '[2].color.z'), 'lights_2_color');
  assert.equal(sourceName('basis', '._m01'), 'basis');
  assert.equal(sourceName('<main return value>', '.x'), undefined);
});

test('debug_variables (/Zi): the lets that hold pick and s.n take their names', () => {
  const d = decompile(build('debug_variables/main-ps_5_0-zi'));
  const src = readFileSync(join(OWN, 'debug_variables/source.hlsl'), 'latin1');
  assert.match(src, /float pick = local\[sel & 3\];/);
  assert.match(src, /s\.n = normalize\(n\);/);
  // the listing: `mov r0.y, x0[r0.x + 0].x  // r0.y <- pick`, `mul r1.xyz, ...  // r1.x <- s.n.x; ...`
  const wgsl = decompiledWgsl(d);
  assert.match(wgsl, /let pick = select\(vec4<f32>\(\), indexed0\[min\(t0, 3u\)\]/);
  assert.match(wgsl, /let s_n = \(vec3<f32>\(t3, t3, t3\) \* NORMAL0\);/);
});

test('debug_include (/Zi): the sample is `c`, as in the source', () => {
  const d = decompile(build('debug_include/main-ps_5_0-zi'));
  assert.match(readFileSync(join(OWN, 'debug_include/source.hlsl'), 'latin1'), /float4 c = T\.Sample\(S, uv\);/);
  assert.match(decompiledHlsl(d), /^ {4}float4 c = T\.Sample\(S, input\.texcoord\);$/m);
  assert.match(decompiledWgsl(d), /let c = textureSample\(T, S, TEXCOORD0\);/);
});

test('an SDBG (9.29-era /Zi): c, n, d as in the source; the return value is no `main`', () => {
  const dir = join(FIXTURES, 'era-sdbg');
  const src = readFileSync(join(dir, 'ps.hlsl'), 'latin1');
  assert.match(src, /float4 c = tex\.Sample\(smp, i\.uv\);/);
  const wgsl = decompiledWgsl(decompile(new Uint8Array(readFileSync(join(dir, 'ps-ps_4_0.dxbc')))));
  assert.match(wgsl, /let c = textureSample\(tex, smp, TEXCOORD0\);/);
  assert.match(wgsl, /let n = \(vec3<f32>\(t2, t2, t2\) \* NORMAL0\);/);
  // common.hlsli: `float d = saturate(dot(n, l));`, inlined into main
  assert.match(wgsl, /let d = select\(clamp\(t4, 0\.0f, 1\.0f\), 0\.0f, \(t4 != t4\)\);/);
  // `c.rgb *= ...` in one branch, `+=` in another: the values c holds in turn
  assert.match(wgsl, /let c_1 = /);
  assert.doesNotMatch(wgsl, /let main/);
});

test('every committed /Zi build: debug names are source words, and nothing but let names changes', (t) => {
  let named = 0;
  let builds = 0;
  for (const f of walk(OWN)) {
    if (!f.endsWith('shader.dxbc') || !/-zi/.test(f)) continue;
    const bytes = new Uint8Array(readFileSync(f));
    const c = parseContainer(bytes);
    const names = containerDebugNames(c);
    let lifted;
    try {
      lifted = liftContainer(c);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      continue;
    }
    builds++;
    const plain = readableProgram(lifted);
    const debug = readableProgram(lifted, {}, names);
    assert.deepEqual(withoutLetNames(debug.module), withoutLetNames(plain.module), f);
    const words = sourceWords(dirname(dirname(f)));
    const taken = new Set<string>();
    debug.module.functions.forEach((fn, k) =>
      fn.lets.forEach((l, i) => {
        if (l.name === plain.module.functions[k]!.lets[i]!.name) return;
        named++;
        assert.ok(/^[A-Za-z_][A-Za-z0-9_]*$/.test(l.name), `${f}: ${l.name}`);
        assert.ok(!taken.has(`${k}:${l.name}`), `${f}: ${l.name} twice`);
        taken.add(`${k}:${l.name}`);
        // `s_n`, `color_1`, `_t0` (a source name the printers would take for a register): its
        // first part is a word of the source
        const first = l.name.replace(/^_/, '').split('_')[0]!;
        assert.ok(words.has(first) || words.has(l.name.replace(/_\d+$/, '')), `${f}: ${l.name} is no source variable`);
      }),
    );
  }
  assert.ok(builds >= 5, `${builds} /Zi builds lift`);
  assert.ok(named >= 10, `${named} lets named`);
  t.diagnostic(`${builds} /Zi builds lift; ${named} lets take source names`);
});

test('a build without debug information: no names, the same readable module', () => {
  for (const f of walk(OWN)) {
    if (!f.endsWith('shader.dxbc') || /-zi/.test(f)) continue;
    assert.equal(containerDebugNames(parseContainer(new Uint8Array(readFileSync(f)))), undefined, f);
  }
});
