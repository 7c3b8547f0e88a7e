// Debug information on the committed fixtures (no ../shared needed): the /Zi builds under
// test/fixtures/oracle/own and the SPDB / SDBG containers of test/fixtures/debug/corpus, checked line
// for line against Microsoft's listings; and the tools' API (files with their text, the line of an
// instruction, the variables and where they live) on known programs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { annotatedInstructions, readDebugInfo } from '../../src/debug/annotations.js';
import type { DebugInfo, Scope, Variable } from '../../src/debug/model.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { checkLines, checkListing, corpusCases, oracleCases, run } from './cases.js';

const CORPUS = join(FIXTURES, 'debug/corpus');
const corpusNames = ['BasicHLSLPS', 'BasicHLSLVS', 'WidgetPS__e0e8ebf0'];

test('debug lines of the fixture /Zi builds and corpus containers equal Microsoft’s', () => {
  const cases = [...oracleCases(join(FIXTURES, 'oracle/own')), ...corpusCases(CORPUS, corpusNames)];
  const outcome = run(cases, checkLines);
  assert.ok(outcome.total >= 180, `only ${outcome.total} listings found`);
  reportAgainstKnown('debug-fixtures', outcome);
});

test('whole fixture listings equal Microsoft’s byte for byte', () => {
  const cases = [...oracleCases(join(FIXTURES, 'oracle/own')), ...corpusCases(CORPUS, corpusNames)];
  const outcome = run(cases, checkListing);
  assert.ok(outcome.total >= 240, `only ${outcome.total} listings found`);
  reportAgainstKnown('debug-fixtures-listing', outcome);
});

function info(path: string): { debug: DebugInfo; offsets: number[] } {
  const c = parseContainer(readBytes(path));
  const debug = readDebugInfo(c);
  assert.ok(debug, `${path} has debug information`);
  return { debug, offsets: (annotatedInstructions(c) ?? []).map((i) => i.offset) };
}

function allScopes(s: readonly Scope[]): Scope[] {
  return s.flatMap((x) => [x, ...allScopes(x.children)]);
}

function variable(debug: DebugInfo, name: string): Variable {
  const v = allScopes(debug.scopes)
    .flatMap((s) => s.variables)
    .find((x) => x.name === name);
  assert.ok(v, `variable ${name}`);
  return v;
}

test('SPDB: files with embedded text, lines of inlined code, variables and their registers', () => {
  const { debug } = info(join(FIXTURES, 'oracle/own/debug_inline/main-ps_5_0-zi/shader.dxbc'));
  assert.equal(debug.format, 'SPDB');
  assert.equal(debug.files.length, 1);
  assert.equal(debug.files[0]!.path, 'H:\\own\\debug_inline\\source.hlsl');
  assert.match(debug.files[0]!.text ?? '', /float leaf\(float x\) \{ return x \* k\.x \+ k\.y; \}/);
  // mov r0.xyzw, l(0,0,0,0) at 0x3c is line 14; the mad at 0xd0 is inside leaf() (line 8), inlined
  // into top() (line 10): the innermost call's row wins over the line table.
  assert.deepEqual(debug.lineAt(0x3c), { file: 0, line: 14 });
  assert.deepEqual(debug.lineAt(0xd0), { file: 0, line: 8 });
  assert.deepEqual(debug.lineAt(0x224), { file: 0, line: 10 });
  const main = debug.scopes[0]!;
  assert.equal(main.kind, 'function');
  assert.equal(main.name, 'main');
  assert.deepEqual(
    main.children.map((c) => c.name),
    ['top', 'top'],
  );
  assert.deepEqual(
    main.children[0]!.children.map((c) => c.name),
    ['leaf', 'middle', 'middle'],
  );
  const i = variable(debug, 'i');
  assert.equal(i.locations[0]!.register, 'r1.x');
  assert.equal(i.locations[0]!.start, 0x70);
  const v = variable(debug, 'v');
  assert.deepEqual(
    v.locations.map((l) => `${l.register} ${l.member}`),
    ['v0.x .x', 'v0.y .y', 'v0.z .z', 'v0.w .w'],
  );
});

test('SPDB: struct members, the included file and the second file', () => {
  const { debug } = info(join(FIXTURES, 'oracle/own/debug_include/main-ps_5_0-zi/shader.dxbc'));
  assert.deepEqual(
    debug.files.map((f) => f.path),
    ['H:\\own\\debug_include\\source.hlsl', 'common.hlsli'],
  );
  assert.ok((debug.files[1]!.text ?? '').length > 0, 'the included file’s text is embedded');
  const vs = info(join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0-zi/shader.dxbc')).debug;
  const ret = variable(vs, '<main return value>');
  assert.ok(ret.locations.some((l) => l.register === 'o2.x' && l.member === '.uv.x'));
  assert.equal(ret.typeName, 'VSOut');
});

test('SDBG: files, the line of each instruction and the variables written', () => {
  const { debug, offsets } = info(join(CORPUS, 'BasicHLSLPS.dxbc'));
  assert.equal(debug.format, 'SDBG');
  assert.match(debug.files[0]!.path, /BasicHLSL\.hlsl$/);
  assert.match(debug.files[0]!.text ?? '', /PS_OUTPUT RenderScenePS\( VS_OUTPUT In,/);
  // The first instruction (if_nz, after 7 declarations) is line 111; the sample after it 112.
  const first = offsets[7]!;
  assert.deepEqual(debug.lineAt(first), { file: 0, line: 111 });
  assert.deepEqual(debug.lineAt(offsets[8]!), { file: 0, line: 112 });
  const output = variable(debug, 'Output');
  assert.deepEqual(
    output.locations.map((l) => l.register),
    ['o0.x', 'o0.y', 'o0.z', 'o0.w', 'o0.x', 'o0.y', 'o0.z', 'o0.w'],
  );
});
