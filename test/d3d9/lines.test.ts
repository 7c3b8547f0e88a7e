// The #line rule of Direct3D 9 listings (src/d3d9/lines.ts, docs/d3d9.md "#line directives"), on line tables
// built here, and on the one oracle build where the drift rule shows (flow_dynamic/main-ps_3_0-zi: `#line 35`
// after a run of moves of 1 and 2 that took the line 11 past the last directive's 24).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DebugWalk, variableComments } from '../../src/d3d9/lines.js';
import type { DebugInfo, DbugLine, DbugVariable } from '../../src/d3d9/dbug.js';

function info(lines: readonly (readonly [line: number, file: number])[], files = ['a.hlsl', 'b.hlsl']): DebugInfo {
  const records: DbugLine[] = lines.map(([line, file], i) => ({ line, file, offset: 4 + 4 * i }));
  return { mainPath: files[0]!, compiler: '', entry: 'main', files, lines: records, variables: [] };
}

/** The directive before each instruction, one instruction per record at offsets 4, 8, ... */
function directives(lines: readonly (readonly [number, number])[], files?: string[]): string[] {
  const walk = new DebugWalk(info(lines, files));
  return lines.map((_, i) => walk.step(4 + 4 * i).directive.trim());
}

test('a file change prints the path; moves of 1 and 2 print nothing, of 3 print #line', () => {
  assert.deepEqual(
    directives([
      [10, 0],
      [12, 0],
      [13, 0],
      [10, 0],
      [10, 0],
      [14, 0],
    ]),
    ['#line 10 "a.hlsl"', '', '', '#line 10', '', '#line 14'],
  );
});

test('a run of small moves prints #line once the line is more than 10 from the last directive', () => {
  // flow_dynamic/main-ps_3_0-zi: 24 (directive), 26, 26, 27, ..., 34, 35 -> "#line 35" (35 - 24 = 11).
  const flow = [24, 26, 26, 27, 28, 28, 29, 29, 29, 31, 31, 33, 34, 34, 34, 34, 35, 35, 36];
  const out = directives(flow.map((l) => [l, 0] as const));
  assert.deepEqual(
    out.map((d, i) => (d ? `${i}:${d}` : '')).filter((d) => d),
    ['0:#line 24 "a.hlsl"', '16:#line 35'],
  );
  // The same moves ending 10 from the directive print nothing (predication/vsmain-vs_3_0-zi: 18 .. 24).
  const pred = [18, 18, 20, 21, 22, 22, 22, 23, 23, 23, 24, 24, 24];
  assert.deepEqual(
    directives(pred.map((l) => [l, 0] as const)).filter((d) => d),
    ['#line 18 "a.hlsl"'],
  );
  // Downwards alike: 30 (directive), 28, 26, 24, 22, 20, 19 -> 19 is 11 below 30.
  assert.deepEqual(directives([30, 28, 26, 24, 22, 20, 19].map((l) => [l, 0] as const)).slice(5), ['', '#line 19']);
});

test('a record of file 0xffff or of no file in the table prints nothing but counts as a file change', () => {
  // 5 (file 0), a record with no file, then 6 in file 0 again: a file change, so the path again.
  assert.deepEqual(
    directives([
      [5, 0],
      [0, 0xffff],
      [6, 0],
    ]),
    ['#line 5 "a.hlsl"', '', '#line 6 "a.hlsl"'],
  );
  assert.deepEqual(
    directives([
      [5, 0],
      [7, 9],
      [6, 0],
    ]),
    ['#line 5 "a.hlsl"', '', '#line 6 "a.hlsl"'],
  );
  assert.deepEqual(
    directives([
      [5, 1],
      [6, 0],
    ]),
    ['#line 5 "b.hlsl"', '#line 6 "a.hlsl"'],
  );
});

test('records and instructions pair by token index; variables come from the last record at or before', () => {
  const debug: DebugInfo = {
    ...info([]),
    lines: [
      { line: 3, file: 0, offset: 8 },
      { line: 3, file: 0, offset: 8 },
      { line: 9, file: 0, offset: 20 },
    ],
  };
  const walk = new DebugWalk(debug);
  assert.deepEqual(walk.step(4), { directive: '', record: -1 }); // before the first record
  assert.deepEqual(walk.step(8), { directive: '\n#line 3 "a.hlsl"\n', record: 1 }); // the first of two ties prints
  assert.deepEqual(walk.step(12), { directive: '', record: 1 }); // no record of its own
  assert.deepEqual(walk.step(20), { directive: '\n#line 9\n', record: 2 });
  assert.deepEqual(walk.step(24), { directive: '', record: 2 }); // past the table
});

test("variable comments: lanes in order, a later variable takes a lane, one variable's lanes join", () => {
  const X = 0xffff;
  const v = (scope: string, name: string, ...locs: [number, number, number, number, number][]): DbugVariable => ({
    scope,
    name,
    locations: locs.map(([record, ...c]) => ({ record, components: [c[0]!, c[1]!, c[2]!, c[3]!] as const })),
  });
  const debug: DebugInfo = {
    ...info([]),
    entry: 'main',
    variables: [
      v('main', 'p', [0, 0, 1, 2, 3], [1, X, X, 5, X]), // a parameter: bare name
      v('', 'r', [1, 0, X, X, 1], [1, 7, 7, 7, 7]), // a local; its second location for record 1 is ignored
      v('C', 'k', [2, X, 4, X, X], [3, 0, X, X, X]), // another scope
      v('', 't', [3, 9, X, X, X]), // takes lane x of record 3 from C::k
      v('', '', [4, 0, X, X, X]), // no name: its lane prints nothing, but the comment is there
      v('', 'u', [5, X, X, X, X]), // no lane: no comment
    ],
  };
  const text = variableComments(debug);
  assert.equal(text.get(0), 'p<0,1,2,3>');
  assert.equal(text.get(1), '::r<0>, p<5>, ::r<1>'); // lanes x, z, w: r, p, r
  assert.equal(text.get(2), 'C::k<4>');
  assert.equal(text.get(3), '::t<9>');
  assert.equal(text.get(4), '');
  assert.equal(text.has(5), false);
});
