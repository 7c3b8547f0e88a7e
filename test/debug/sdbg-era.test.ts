// Eras 9.29 and 9.30's `#line` rule for SDBG programs (src/debug/sdbg.ts, `lineMoves`), against
// what those compilers' own disassemblers printed: the two listings fxc 9.29.952 wrote for
// slimshader's BasicHLSLPS and BasicHLSLVS (test/fixtures/debug/corpus/NAME.asm, the `/Fc` files;
// also checked by test/disasm/era.test.ts in ../shared/corpus/dxbc), and probes that rewrite those
// containers' SDBG lines (test/debug/sdbg-probe.ts). Each probe holds, as the expected directives,
// what D3DDisassemble (flags 0, run under Wine) of the June 2010 SDK's D3DCompiler_43.dll
// (9.29.952.3111) printed for the rewritten container; d3dcompiler_46.dll 9.30.9200.16384 (Windows
// 8 SDK) printed the same directives for every probe. `k:N` is a `#line N` before the k-th
// instruction, `"#f"` the path of file f. Era 10 prints a directive at every change of line (the
// `.ms.asm` listings of the same containers, printed by today's disassembler).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { ERAS } from '../../src/disasm/era.js';
import { lineMoves } from '../../src/debug/sdbg.js';
import { FIXTURES, firstDifference } from '../helpers/shared.js';
import { withoutComment } from '../helpers/era.js';
import { directives, probeContainer, probeLane } from './sdbg-probe.js';

const P0 =
  'C:\\Users\\Tim Jones\\Documents\\GitHub\\slimshader\\src\\SlimShader.Tests\\Shaders\\Sdk\\Direct3D11\\BasicHLSL11\\BasicHLSL.hlsl';
/** The second file entry `file2` adds names file 0's path less its first three characters. */
const PATHS = [P0, P0.slice(3)];

/** [container, probes, the directives D3DCompiler_43's D3DDisassemble printed]. */
const PROBES: readonly (readonly [string, string, string])[] = [
  ['BasicHLSLPS', '', '0:111 "#0" 4:114 5:111 6:116'],
  ['BasicHLSLVS', '', '0:68 "#0" 4:71 10:76 20:79 22:83 23:88'],
  ['BasicHLSLPS', 't27.line=105', '0:111 "#0" 4:105 5:111 6:116'],
  ['BasicHLSLPS', 't27.line=108', '0:111 "#0" 4:108 5:111 6:116'],
  ['BasicHLSLPS', 't27.line=109', '0:111 "#0" 6:116'],
  ['BasicHLSLPS', 't27.line=113', '0:111 "#0" 6:116'],
  ['BasicHLSLPS', 't27.line=114', '0:111 "#0" 4:114 5:111 6:116'],
  ['BasicHLSLPS', 't27.line=1000', '0:111 "#0" 4:1000 5:111 6:116'],
  ['BasicHLSLPS', 't25.line=112 t26.line=113 t27.line=114 t28.line=115 t29.line=116', '0:111 "#0"'],
  ['BasicHLSLPS', 't25.line=113 t26.line=115 t27.line=117 t28.line=119 t29.line=121', '0:111 "#0"'],
  [
    'BasicHLSLPS',
    'i2.tok=0 t25.line=113 t0.line=115 t26.line=117 t27.line=119 t28.line=121 t29.line=122',
    '0:111 "#0" 6:122',
  ],
  [
    'BasicHLSLPS',
    'i2.tok=0 t25.line=110 t0.line=109 t26.line=107 t27.line=105 t28.line=103 t29.line=101',
    '0:111 "#0"',
  ],
  [
    'BasicHLSLPS',
    'i2.tok=0 t25.line=110 t0.line=108 t26.line=106 t27.line=104 t28.line=102 t29.line=100',
    '0:111 "#0" 6:100',
  ],
  [
    'BasicHLSLPS',
    't25.line=4294967294 t26.line=4294967295 t27.line=4294967294 t28.line=0 t29.line=1',
    '0:111 "#0" 1:4294967294 3:4294967295 4:4294967294 5:0',
  ],
  ['BasicHLSLPS', 't25.line=4294967294 t26.line=4294967294 t27.line=4294967294', '0:111 "#0" 1:4294967294 5:111 6:116'],
  ['BasicHLSLPS', 't25.line=4294967295 t26.line=4294967295 t27.line=0', '0:111 "#0" 1:4294967295 4:0 5:111 6:116'],
  [
    'BasicHLSLPS',
    't24.line=4 t25.line=0 t26.line=4294967293 t27.line=4294967293 t28.line=4294967290 t29.line=4294967288',
    '0:4 "#0" 1:0 3:4294967293 5:4294967290 6:4294967288',
  ],
  [
    'BasicHLSLPS',
    'i2.tok=0 t24.line=4294967290 t25.line=4294967292 t0.line=4294967294 t26.line=0 t27.line=1 t28.line=2 t29.line=3',
    '0:4294967290 "#0" 1:4294967292 2:4294967294 3:0',
  ],
  ['BasicHLSLPS', 't25.col=0 t26.col=99', '0:111 "#0" 4:114 5:111 6:116'],
  ['BasicHLSLPS', 'file2 t25.file=1', '0:111 "#0" 1:112 "#1" 3:111 "#0" 4:114 5:111 6:116'],
  ['BasicHLSLPS', 'file2 t25.file=1 t25.line=111', '0:111 "#0" 1:111 "#1" 3:111 "#0" 4:114 5:111 6:116'],
  [
    'BasicHLSLPS',
    'file2 i2.tok=0 t25.file=1 t0.file=1 t26.file=1 t27.file=1 t28.file=1 t29.file=1 t25.line=120 t0.line=121 t26.line=122 t27.line=123 t28.line=124 t29.line=125',
    '0:111 "#0" 1:120 "#1"',
  ],
  [
    'BasicHLSLPS',
    'file2 i2.tok=0 t0.file=1 t25.line=113 t0.line=115 t26.line=116 t27.line=118 t28.line=120 t29.line=122',
    '0:111 "#0" 2:115 "#1" 3:116 "#0"',
  ],
  [
    'BasicHLSLVS',
    't44.line=77 t45.line=78 t46.line=80 t47.line=82 t48.line=84 t49.line=86 t50.line=87',
    '0:68 "#0" 4:71 10:76 23:87',
  ],
  [
    'BasicHLSLVS',
    't44.line=74 t45.line=72 t46.line=70 t47.line=68 t48.line=66 t49.line=65',
    '0:68 "#0" 4:71 10:76 22:65 23:88',
  ],
];

test('lineMoves: fxc 9.29 and 9.30 bounds, u32 sums that wrap', () => {
  const m = ERAS['9.29'].sdbg.lineMoves!;
  assert.deepEqual(m, { near: 2, drift: 10 });
  // [line, previous record's line, last directive's line, prints]
  const cases: [number, number, number, boolean][] = [
    [112, 111, 111, false],
    [113, 111, 111, false],
    [114, 111, 111, true],
    [108, 111, 111, true],
    [121, 119, 111, false],
    [122, 121, 111, true],
    [100, 102, 111, true],
    [101, 103, 111, false],
    [0, 1, 1, false],
    [0xffffffff, 0xfffffffe, 0xfffffffe, true],
    [0, 0xffffffff, 0xffffffff, true],
    [0xfffffffe, 0xfffffffe, 0, false],
    [0xfffffff8, 0xfffffffa, 0xfffffffa, true],
  ];
  for (const [line, previous, directive, prints] of cases)
    assert.equal(lineMoves(line, previous, directive, m), prints, `${previous} -> ${line} (directive ${directive})`);
  assert.deepEqual(ERAS['9.30'].sdbg.lineMoves, m);
  for (const era of ['10', '10.0', '6.3'] as const) assert.equal(ERAS[era].sdbg.lineMoves, undefined, era);
});

const CORPUS = join(FIXTURES, 'debug/corpus');
const original = (name: string): Uint8Array => new Uint8Array(readFileSync(join(CORPUS, `${name}.dxbc`)));

test("fxc 9.29's /Fc listings of the two SDBG programs equal disassemble(c, 0, { era: auto })", () => {
  for (const name of ['BasicHLSLPS', 'BasicHLSLVS']) {
    const { text, kind } = withoutComment(readFileSync(join(CORPUS, `${name}.asm`), 'latin1'));
    assert.equal(kind, 'command line', name);
    const c = parseContainer(original(name));
    assert.equal(firstDifference(disassemble(c, 0, { era: 'auto' }), text), undefined, name);
    assert.notEqual(disassemble(c, 0), text, `${name}: era 10 prints more #line`);
  }
});

test("SDBG #line under eras 9.29 and 9.30 equals those compilers' D3DDisassemble on rewritten containers", () => {
  for (const [name, probes, want] of PROBES) {
    const c = parseContainer(probeContainer(original(name), probes === '' ? [] : probes.split(' ')));
    const today = new Set(directives(disassemble(c, 0), PATHS));
    for (const era of ['9.29', '9.30'] as const) {
      const got = directives(disassemble(c, 0, { era }), PATHS);
      assert.equal(got.join(' '), want, `${era} ${name} ${probes}`);
      // today's disassembler prints those and a directive at every other change of line
      assert.ok(
        got.every((d) => today.has(d)),
        `${era} ${name} ${probes}: era 10 prints every directive era ${era} does`,
      );
    }
  }
});

// iridia's own programs (test/fixtures/era-sdbg/*.hlsl) compiled with /Zi (D3DCOMPILE_DEBUG, and
// /Od for `-od`) by fxc 9.29.952's D3DCompile, each listed by the D3DDisassemble of 9.29.952
// (D3DCompiler_43), 9.30.9200.16384 (d3dcompiler_46) and 10.0.18362.1 (d3dcompiler_47), flags 0.
const ERA_SDBG = join(FIXTURES, 'era-sdbg');

test("9.29 /Zi builds of each stage: each era's listing equals that era's disassembler's", () => {
  const names = readdirSync(ERA_SDBG)
    .filter((f) => f.endsWith('.dxbc'))
    .map((f) => f.slice(0, -'.dxbc'.length));
  assert.equal(names.length, 10);
  for (const name of names) {
    const c = parseContainer(new Uint8Array(readFileSync(join(ERA_SDBG, `${name}.dxbc`))));
    for (const era of ['9.29', '9.30', '10'] as const) {
      const want = readFileSync(join(ERA_SDBG, `${name}.${era}.asm`), 'latin1');
      assert.equal(firstDifference(disassemble(c, 0, { era }), want), undefined, `${name} era ${era}`);
    }
  }
});

/** [fixture, record, lane rewrites (sdbg-probe.ts probeLane), the remark the disassemblers of 9.29,
 * 9.30 and 10 all printed on the line that changed ('(unchanged)': none did)]. */
const LANE_PROBES: readonly (readonly [string, number, string, string])[] = [
  ['ps-ps_5_0', 4, 'fmin=0 fmax=inf', 'd<0:[0f,1.#INFf]>'],
  ['ps-ps_5_0', 4, 'fmin=-inf fmax=0', 'd<0:[-1.#INFf,0f]>'],
  ['ps-ps_5_0', 4, 'fmin=-3.4028234663852886e38 fmax=3.4028234663852886e38', 'd<0>'],
  ['ps-ps_5_0', 4, 'fmin=1.5 fmax=1.5', 'd<0:[1.5f,1.5f]>'],
  ['ps-ps_5_0', 4, 'fmin=0.1 fmax=100000000', 'd<0:[0.1f,1e+008f]>'],
  ['ps-ps_5_0', 4, 'fmin=nan fmax=nan', 'd<0>'],
  ['ps-ps_5_0', 4, 'fmin=2 fmax=1', 'd<0:[2f,1f]>'],
  ['ps-ps_5_0', 4, 'umin=5 umax=5 fmin=-inf fmax=inf', 'd<0: -1.#INFf>'],
  ['ps-ps_5_0', 4, 'umin=5 umax=5 fmin=0.3333333333', 'd<0: 0.333333f>'],
  ['ps-ps_5_0', 4, 'umin=5 umax=5 fmin=0.00001234', 'd<0: 1.234e-005f>'],
  ['ps-ps_5_0', 4, 'umin=5 umax=5 fmin=-0', 'd<0: -0f>'],
  ['ps-ps_5_0', 4, 'umin=5 umax=5 fmin=nan', 'd<0: 1.#QNANf>'],
  ['ps-ps_5_0', 4, 'umin=5 umax=5 nan=1', 'd<0: 0f>'],
  ['ps-ps_5_0', 4, 'imin=7 imax=7', '(unchanged)'],
  ['ps-ps_5_0', 4, 'nan=1', 'd<0:NaN>'],
  ['ps-ps_5_0', 4, 'inf=1', 'd<0:Inf:[0f,1f]>'],
  ['ps-ps_5_0', 4, 'inf=1 nan=1 fmin=2 fmax=2', 'd<0:NaN:Inf>'],
  ['gs-gs_4_0', 0, 'imin=-5 imax=7', 'k<0:[-5,7]>'],
  ['gs-gs_4_0', 0, 'umin=5 umax=5', '(unchanged)'],
  ['gs-gs_4_0', 0, 'umin=5 umax=5 imin=-5 imax=-5', 'k<0: -5>'],
  ['gs-gs_4_0', 0, 'imin=-2147483648 imax=7', 'k<0:[-2147483648,7]>'],
  ['gs-gs_4_0', 0, 'imin=-2147483648 imax=2147483647', 'k<0:[0u,2u]>'],
  ['gs-gs_4_0', 0, 'imin=-2147483648 imax=2147483647 umin=4 umax=4', 'k<0:[4u,4u]>'],
  ['gs-gs_4_0', 0, 'imin=-2147483648 imax=2147483647 umin=0 umax=4294967295 nan=1 fmin=0 fmax=1', 'k<0>'],
  ['cs-cs_5_0', 3, 'umin=5 umax=5', 's<0: 5u>'],
  ['cs-cs_5_0', 3, 'imin=5 imax=5', '(unchanged)'],
  ['cs-cs_5_0', 3, 'umin=0 umax=4294967295', 's<0:[0,32]>'],
  ['cs-cs_5_0', 3, 'umin=0 umax=4294967295 imin=-3 imax=3', 's<0:[-3,3]>'],
  ['cs-cs_5_0', 3, 'umin=0 umax=4294967295 imin=6 imax=6', 's<0:[6,6]>'],
  ['cs-cs_5_0', 3, 'umin=1 umax=4294967295', 's<0:[1u,4294967295u]>'],
  ['cs-cs_5_0', 3, 'umin=0 umax=4294967295 imin=-2147483648 imax=2147483647', 's<0>'],
];

test("an SDBG lane's value range prints as the 9.29, 9.30 and 10 disassemblers printed it", () => {
  for (const [name, record, sets, want] of LANE_PROBES) {
    const c = parseContainer(
      probeLane(new Uint8Array(readFileSync(join(ERA_SDBG, `${name}.dxbc`))), record, sets.split(' ')),
    );
    for (const era of ['9.29', '9.30', '10'] as const) {
      const before = readFileSync(join(ERA_SDBG, `${name}.${era}.asm`), 'latin1').split('\n');
      const after = disassemble(c, 0, { era }).split('\n');
      const changed = after.find((l, i) => l !== before[i]);
      assert.equal(
        changed?.replace(/^.* {2}\/\/ /, '') ?? '(unchanged)',
        want,
        `${name} record ${record} ${sets} era ${era}`,
      );
    }
  }
});
