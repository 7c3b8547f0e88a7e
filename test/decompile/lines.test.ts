// Source lines in readable programs (src/decompile/lines.ts): a /Zi build's HLSL and readable WGSL
// carry `// FILE:LINE` above each statement, from the SPDB/SDBG line of the instructions it came from.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, walk } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { readDebugInfo } from '../../src/debug/annotations.js';
import { IridiaError } from '../../src/errors.js';
import {
  decompile,
  decompiledHlsl,
  decompiledHlslWithMap,
  decompiledWgsl,
  decompiledWgslWithMap,
  DecompileRefusal,
  type Decompiled,
} from '../../src/decompile/index.js';

const OWN = join(FIXTURES, 'oracle/own');
const COMMENT = /^(\s*)\/\/ (\S+:\d+.*)$/;

function lineBefore(text: string, needle: string): string {
  const lines = text.split('\n');
  const k = lines.findIndex((l) => l.includes(needle));
  assert.ok(k > 0, `no line holds ${needle}`);
  let j = k - 1;
  while (j >= 0 && !COMMENT.test(lines[j]!)) j--;
  return lines[j]!.trim();
}

test('debug_include (/Zi, two files, inlined functions): each statement under the lines it came from', () => {
  const d = decompile(new Uint8Array(readFileSync(join(OWN, 'debug_include/main-ps_5_0-zi/shader.dxbc'))));
  assert.ok(d.sourceLines, 'the SPDB gives source lines');
  const hlsl = decompiledHlsl(d);
  // source.hlsl:13 is `float4 c = T.Sample(S, uv);`; common.hlsli:10-11 are Lighting's two lines
  assert.equal(lineBefore(hlsl, 'T.Sample(S, input.texcoord)'), '// source.hlsl:13');
  assert.equal(lineBefore(hlsl, 'saturate('), '// common.hlsli:10, 11');
  assert.equal(lineBefore(hlsl, 'dot(input.normal, input.normal)'), '// source.hlsl:14');
  const wgsl = decompiledWgsl(d);
  assert.equal(lineBefore(wgsl, 'textureSample('), '// source.hlsl:13');
});

function withoutLines(d: Decompiled): Decompiled {
  const { sourceLines: _, ...rest } = d;
  return rest;
}

test('every committed /Zi build that decompiles: comments only added, on lines its files have, the maps in step', () => {
  let builds = 0;
  let comments = 0;
  for (const path of walk(OWN).filter((f) => f.endsWith('.dxbc'))) {
    let d: Decompiled;
    try {
      d = decompile(new Uint8Array(readFileSync(path)));
    } catch (e) {
      if (e instanceof IridiaError) continue;
      throw e;
    }
    const c = parseContainer(new Uint8Array(readFileSync(path)));
    const info = readDebugInfo(c);
    if (!d.sourceLines) {
      assert.ok(!info || !path.includes('-zi'), `${path}: a /Zi build without source lines`);
      continue;
    }
    const sizes = new Map(info!.files.map((f) => [f.path.split(/[\\/]/).pop()!, f.text?.split('\n').length]));
    const outputs: [string, () => { text: string; origins: readonly (readonly number[])[] }, () => string][] = [
      ['hlsl', () => decompiledHlslWithMap(d), () => decompiledHlsl(withoutLines(d))],
      ['wgsl', () => decompiledWgslWithMap(d), () => decompiledWgsl(withoutLines(d))],
    ];
    for (const [what, withMap, plain] of outputs) {
      let w;
      try {
        w = withMap();
      } catch (e) {
        if (e instanceof DecompileRefusal) continue;
        throw e;
      }
      builds++;
      const lines = w.text.split('\n');
      assert.equal(w.origins.length, lines.length, `${path} ${what}: a map entry a line`);
      const kept: string[] = [];
      lines.forEach((l, k) => {
        const m = COMMENT.exec(l);
        if (!m) return kept.push(l);
        comments++;
        assert.deepEqual(w.origins[k], [], `${path} ${what}: a comment links no instruction`);
        for (const ref of m[2]!.replace(', ...', '').split(', ')) {
          const [file, line] = ref.includes(':') ? ref.split(':') : [undefined, ref];
          const name: string = file ?? /(\S+):/.exec(m[2]!)![1]!;
          const size = sizes.get(name);
          assert.ok(sizes.has(name), `${path} ${what}: ${name} is not a file of its debug information`);
          if (size !== undefined) assert.ok(Number(line) >= 1 && Number(line) <= size, `${path}: ${ref} past ${size}`);
        }
      });
      assert.equal(kept.join('\n'), plain(), `${path} ${what}: the text less its comments is the text without lines`);
    }
  }
  assert.ok(builds >= 10 && comments >= 50, `${builds} outputs, ${comments} comments`);
});

test('a build without debug information gets no source-line comments', () => {
  const d = decompile(new Uint8Array(readFileSync(join(OWN, 'vs_basic/main-vs_5_0/shader.dxbc'))));
  assert.equal(d.sourceLines, undefined);
  assert.ok(
    !decompiledHlsl(d)
      .split('\n')
      .some((l) => COMMENT.test(l)),
  );
});
