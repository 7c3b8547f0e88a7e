// The Direct3D 9 assembler (src/asm/d3d9) on what the corpus does not hold and on bad input: Shader Model 1
// listings (no length field, co-issue, tex/texcrd/phase, vs_1_1 addressing) and the forms of 2.x/3.0 the
// programs of d3d9-roundtrip.test.ts miss, each read back by the printer byte for byte; each cause of
// losses.ts made in a real token stream, named, and shown to be a real loss (the round trip differs at that
// word); the errors with their line and column; and an edit of a real program that changes exactly one
// instruction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeD3D9 } from '../../src/d3d9/decode.js';
import { disassembleD3D9 } from '../../src/d3d9/disasm.js';
import { assembleD3D9, d3d9Losses, isD3D9Listing } from '../../src/asm/d3d9/index.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { AsmError } from '../../src/asm/index.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const program = (lines: string[]): string => lines.map((l) => `    ${l}\n`).join('');

/** The listing assembled and printed again (flag 0x40: the instructions alone). */
function back(listing: string): string {
  return disassembleD3D9(assembleD3D9(listing).bytes, 0x40);
}

const LISTINGS: Record<string, string[]> = {
  ps_1_1: [
    'ps_1_1',
    'def c0, 1, 0.5, -0, 1e+010',
    'tex t0',
    'texm3x2pad t1, t0_bx2',
    'texm3x2tex t2, t0_bx2',
    'texcoord t3',
    'mul_x2 r0.xyz, t0, c0',
    '+mov_sat r0.w, 1 - v0.w',
    'cnd_d2 r1, r0.w, t0, -c1_bias',
    'lrp_x4 r1.xyz, v1_bx2, t0, -r0',
    'texkill t3',
  ],
  ps_1_4: [
    'ps_1_4',
    'texcrd r0.xyz, t0',
    'texld r1, t1',
    'phase',
    'texld r2, r0',
    'mad_x8_sat r0, r1_x2, -r2_bx2, c0',
    '+add_d4 r0.w, -r0_x2.z, r1_dw.w',
    'bem r3.xy, r0_dz, r1',
  ],
  vs_1_1: [
    'vs_1_1',
    'dcl_position v0',
    'dcl_texcoord1 v1',
    'dcl_blendweight7 v2',
    'mov a0.x, v1.x',
    'm4x4 oPos, v0, c4',
    'mov oT0.xy, c0[a0.x].zwxy',
    'mov oD0, -c12[a0.x]',
    'mov oFog, -v0.x',
    'expp r0.z, v2.w',
  ],
  ps_2_x: [
    'ps_2_x',
    'dcl t0.xy',
    'dcl_2d s0',
    'dcl_volume s1',
    'dcl_pp v0',
    'setp_gt p0.x, t0.x, c0.x',
    '(p0.x) texldp_pp r0, t0, s0',
    '(!p0.y) mov r0.xy, -r0_abs',
    'texldb r1, t0, s1',
    'if_ne r0.x, -c0.y',
    '  break_ge r0.y, c1.x',
    'else',
    '  sincos r2.xy, r0.x, c2, c3',
    'endif',
    'texkill r0',
    'mov oDepth, r0.x',
    'mov oC0, r0',
  ],
  ps_3_0: [
    'ps_3_0',
    'dcl_texcoord3_centroid v0.xy',
    'dcl_color1_pp v1',
    'dcl vPos.xy',
    'dcl vFace',
    'dcl_cube s1',
    'defi i0, 4, 0, -1, 0',
    'defb b0, true',
    'rep i0',
    '  add r0, r0, v0[aL]',
    'endrep',
    'loop aL, i0',
    '  breakp !p0.x',
    'endloop',
    'texldd r1, v0, s1, v0.x, v0.y',
    'texldl r1, v0, s1',
    'dsx r2, v0',
    'sincos r3.xy, r0.x',
    'if b0',
    'endif',
    'mov r31, c223',
    'mov_sat_pp oC0 {min16f}, r0 {min16f}',
  ],
  vs_3_0: [
    'vs_3_0',
    'dcl_position o0',
    'dcl_texcoord7 o11.xy',
    'dcl_2d s3',
    'defb b1, false',
    'mova a0.xy, v0',
    'mov o0, c2048[a0.y]',
    'mov o1[aL], c8191',
    'texldl o11.xy, v0, s3',
    'callnz l1, !b1',
    'ret',
    'label l1',
    'ret',
  ],
};

test('Shader Model 1, 2.x and 3.0 forms assemble and print back byte for byte', () => {
  for (const [name, lines] of Object.entries(LISTINGS)) {
    const listing = program(lines);
    assert.equal(back(listing), listing, name);
  }
});

test('Shader Model 1 programs carry no length field; 2.0 and up carry it', () => {
  const sm1 = assembleD3D9(program(LISTINGS['ps_1_1']!)).program;
  assert.equal(sm1.words[0], 0xffff0101);
  for (const s of sm1.starts) assert.equal((sm1.words[s]! >>> 24) & 0xf, 0);
  const sm3 = assembleD3D9(program(LISTINGS['ps_3_0']!)).program;
  sm3.starts.forEach((s, i) => {
    const next = sm3.starts[i + 1] ?? sm3.words.length - 1;
    assert.equal((sm3.words[s]! >>> 24) & 0xf, next - s - 1);
  });
});

test('the listing forms the printer writes around the instructions are skipped', () => {
  const d3d9 = join(FIXTURES, 'oracle/own-d3d9/rel_addressing_vs/vsmain-vs_2_0-zi/shader.d3d9');
  const bytes = readBytes(d3d9);
  for (const flags of [0, 0x04, 0x20, 0x24, 0x80, 0x10]) {
    const a = assembleD3D9(disassembleD3D9(bytes, flags), { like: bytes });
    assert.deepEqual(Buffer.from(a.bytes), Buffer.from(bytes), `flag 0x${flags.toString(16)}`);
    assert.deepEqual(a.notes, []);
  }
  const bare = assembleD3D9(disassembleD3D9(bytes, 0));
  assert.match(bare.notes.join('\n'), /no --like program: no comment blocks/);
  assert.equal(decodeD3D9(bare.bytes).records.filter((r) => r.kind === 'comment').length, 0);
});

/** A program from a listing, one word changed, with the causes losses.ts names and the round trip's first differing word. */
function lose(
  lines: string[],
  word: number,
  change: (w: number) => number,
  flags = 0x80,
): { causes: string[]; at: number } {
  const bytes = assembleD3D9(program(lines)).bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint32(word * 4, change(view.getUint32(word * 4, true)) >>> 0, true);
  const p = decodeD3D9(bytes);
  const causes = [...d3d9Losses(p, flags).keys()];
  const again = assembleD3D9(disassembleD3D9(bytes, flags), { like: p }).bytes;
  const other = new DataView(again.buffer, again.byteOffset, again.byteLength);
  let at = 0;
  while (at < bytes.byteLength / 4 && view.getUint32(at * 4, true) === other.getUint32(at * 4, true)) at++;
  return { causes, at };
}

test('each field a listing cannot hold is named and is a real loss', () => {
  // [cause, listing, word, change, flags]
  const cases: [string, string[], number, (w: number) => number, number?][] = [
    ['controls', ['ps_2_0', 'mov r0, c0'], 1, (w) => w | 0x00010000],
    ['controls', ['ps_2_0', 'dcl t0', 'dcl_2d s0', 'texld r0, t0, s0'], 7, (w) => w | 0x00030000],
    ['controls', ['ps_3_0', 'if_gt c0.x, c1.x', 'endif'], 1, (w) => w | 0x00080000],
    ['reserved-bit', ['ps_2_0', 'mov r0, c0'], 1, (w) => w | 0x20000000],
    ['sm1-length', ['ps_1_1', 'mov r0, v0'], 1, (w) => w | 0x02000000],
    ['shift', ['ps_1_1', 'mov r0, v0'], 2, (w) => w | 0x05000000],
    ['result-modifier', ['ps_2_0', 'mov r0, c0'], 2, (w) => w | 0x00800000],
    ['dcl-token', ['ps_2_0', 'dcl t0'], 2, (w) => w | 5],
    ['dcl-token', ['ps_2_0', 'dcl_2d s0'], 2, (w) => w | 0x10005],
    ['dcl-token', ['vs_2_0', 'dcl_texcoord v0'], 2, (w) => w | 0x100],
    ['register-number', ['ps_2_0', 'mov oDepth, r0.x'], 2, (w) => w | 1],
    ['address-token', ['vs_2_0', 'mova a0.x, v0.x', 'mov r0, c0[a0.x]'], 7, (w) => w | 0x00e40000],
    ['defb-value', ['vs_2_0', 'defb b0, true'], 3, () => 2],
    ['nan-payload', ['vs_2_0', 'def c0, 1.#QNAN, 0, 0, 0'], 3, () => 0x7fc00001, 0],
  ];
  for (const [cause, lines, word, change, flags] of cases) {
    const { causes, at } = lose(lines, word, change, flags ?? 0x80);
    assert.deepEqual(causes, [cause], `${cause}: ${lines.join(' / ')}`);
    assert.equal(at, word, `${cause}: the round trip differs at word ${word}`);
  }
  // under 0x80 a def's bits are printed: no loss
  assert.deepEqual(lose(['vs_2_0', 'def c0, 1, 0, 0, 0'], 3, () => 0x7fc00001).causes, []);
  // the ones the assembler refuses: a register or an operand count the version does not have
  const half = assembleD3D9(program(['ps_2_0', 'mov r0, c0'])).bytes;
  new DataView(half.buffer).setUint32(12, 0x80e40000 | ((16 & 7) << 28) | ((16 & 0x18) << 8), true);
  assert.deepEqual([...d3d9Losses(decodeD3D9(half), 0x80).keys()], ['register-not-in-version']);
  assert.throws(() => assembleD3D9(disassembleD3D9(half, 0x80)), { code: 'E903_ASM_REGISTER' });
  const sincos = assembleD3D9(program(['ps_2_0', 'sincos r0.xy, r1.x, c0, c1'])).bytes;
  new DataView(sincos.buffer).setUint32(0, 0xffff0300, true);
  assert.deepEqual([...d3d9Losses(decodeD3D9(sincos), 0x80).keys()], ['operand-count']);
  assert.throws(() => assembleD3D9(disassembleD3D9(sincos, 0x80)), { code: 'E904_ASM_OPERAND_COUNT' });
});

function refuses(listing: string, code: string, line: number, column: number, reason: RegExp): void {
  try {
    assembleD3D9(listing);
  } catch (e) {
    assert.ok(e instanceof AsmError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.line, line, e.message);
    assert.equal(e.column, column, e.message);
    assert.equal(e.text, listing.split('\n')[line - 1]);
    assert.match(e.reason, reason);
    return;
  }
  assert.fail(`${JSON.stringify(listing)} assembled`);
}

test('errors name the line, the column and the line text', () => {
  refuses(
    program(['ps_2_0', 'movv r0, r1']),
    'E902_ASM_MNEMONIC',
    2,
    5,
    /"movv" is no Direct3D 9 instruction of ps_2_0/,
  );
  refuses(program(['ps_2_0', 'tex t0']), 'E902_ASM_MNEMONIC', 2, 5, /"tex" is no .* of ps_2_0/);
  refuses(program(['ps_1_4', 'texcoord t0']), 'E902_ASM_MNEMONIC', 2, 5, /"texcoord"/);
  refuses(program(['vs_1_1', 'mov r0, p0']), 'E903_ASM_REGISTER', 2, 13, /p0 does not exist in vs_1_1/);
  refuses(program(['vs_2_0', 'mov r0, t0']), 'E903_ASM_REGISTER', 2, 13, /t0 is no register of vs_2_0/);
  refuses(program(['vs_2_0', 'mov o0, r0']), 'E903_ASM_REGISTER', 2, 9, /o0 is no register of vs_2_0/);
  refuses(program(['ps_2_0', 'mov r12, r0']), 'E903_ASM_REGISTER', 2, 9, /r12 is past the 12 temporary registers/);
  refuses(program(['ps_2_0', 'mov r0, vFace']), 'E903_ASM_REGISTER', 2, 13, /vFace does not exist in ps_2_0/);
  refuses(
    program(['ps_2_0', 'add r0, r1']),
    'E904_ASM_OPERAND_COUNT',
    2,
    15,
    /add takes 3 operands in ps_2_0, found 2/,
  );
  refuses(program(['ps_3_0', 'mov r0, r1, r2']), 'E904_ASM_OPERAND_COUNT', 2, 17, /mov takes 2 operands/);
  refuses(program(['ps_2_0', 'mov r0, r1.xy']), 'E905_ASM_MASK', 2, 15, /on a source: a source takes a swizzle/);
  refuses(program(['ps_2_0', 'mov r0.yx, r1']), 'E905_ASM_MASK', 2, 11, /is a swizzle, not a write mask/);
  refuses(
    program(['vs_2_0', 'defi i0, 1, 2, 3, 2147483648']),
    'E906_ASM_LITERAL',
    2,
    23,
    /does not fit a signed 32-bit/,
  );
  refuses(program(['vs_2_0', 'def c0, 1, 2, 3, 1e+039']), 'E906_ASM_LITERAL', 2, 22, /past the largest float/);
  refuses(program(['vs_2_0', 'def c0, 1, 2, 3, x']), 'E906_ASM_LITERAL', 2, 22, /no def value/);
  refuses(program(['vs_2_0', 'mov r0, c8192']), 'E906_ASM_LITERAL', 2, 13, /past the 11-bit field/);
  refuses(program(['vs_2_0', 'defb b0, 1']), 'E906_ASM_LITERAL', 2, 14, /true or false/);
  refuses(program(['ps_4_0', 'mov r0, r1']), 'E907_ASM_PROGRAM', 1, 5, /Direct3D 9 version line/);
  refuses(program(['ps_2_1']), 'E907_ASM_PROGRAM', 1, 5, /no Direct3D 9 version/);
  refuses('// only a comment\n', 'E907_ASM_PROGRAM', 2, 1, /no Direct3D 9 version line/);
  refuses(program(['ps_2_0', 'mov_x3 r0, r1']), 'E902_ASM_MNEMONIC', 2, 5, /"_x3" is no modifier/);
  refuses(program(['ps_2_0', 'mov r0, ~r1']), 'E903_ASM_REGISTER', 2, 13, /no Direct3D 9 register/);
});

test('an edit of a real program changes that instruction and nothing else', () => {
  const path = join(FIXTURES, 'oracle/own-d3d9/rel_addressing_vs/vsmain-vs_2_0-zi/shader.d3d9');
  const bytes = readBytes(path);
  const listing = disassembleD3D9(bytes, 0x80);
  const old = '    add oD0, r0, c2[a0.y]';
  assert.ok(listing.includes(old));
  const edited = listing.replace(old, '    mul_sat oD0, -r0, c3[a0.x].wzyx');
  const a = assembleD3D9(edited, { like: bytes });
  // the printer reads back the edited listing byte for byte: the line changed, the rest did not
  assert.equal(disassembleD3D9(a.bytes, 0x80), edited);
  const was = decodeD3D9(bytes).records;
  const now = decodeD3D9(a.bytes).records;
  assert.equal(now.length, was.length);
  let changed = 0;
  now.forEach((r, i) => {
    const o = was[i]!;
    assert.equal(r.kind, o.kind);
    if (r.kind !== 'instruction' || o.kind !== 'instruction') return;
    const same = Buffer.from(a.bytes.subarray(r.offset, r.offset + r.words * 4)).equals(
      Buffer.from(bytes.subarray(o.offset, o.offset + o.words * 4)),
    );
    if (same) return;
    changed++;
    assert.equal(o.info.name, 'add');
    assert.equal(r.info.name, 'mul');
    assert.equal(r.dst!.modifiers, 1);
    assert.equal(r.srcs[0]!.modifier, 1);
    assert.equal(r.srcs[1]!.num, 3);
    assert.equal(r.srcs[1]!.swizzle, 0x1b);
    assert.equal(r.srcs[1]!.rel!.component, 0);
  });
  assert.equal(changed, 1);
  assert.equal(a.bytes.byteLength, bytes.byteLength);
});

test('isD3D9Listing: a Direct3D 9 listing, not a level-9 container listing (its Direct3D 9 program first) nor an SM4 one', () => {
  const d3d9 = readBytes(join(FIXTURES, 'oracle/own-d3d9/const_struct/main-ps_2_0-zi/shader.d3d9'));
  assert.equal(isD3D9Listing(disassembleD3D9(d3d9, 0)), true);
  assert.equal(isD3D9Listing(disassembleD3D9(d3d9, 0x24)), true);
  const dir = join(FIXTURES, 'oracle/own/ps_level9_tex');
  const build = readdirSync(dir).find((d) => d.includes('level_9') && existsSync(join(dir, d, 'shader.dxbc')))!;
  const level9 = disassemble(readBytes(join(dir, build, 'shader.dxbc')), 0);
  assert.match(level9, /^ {4}ps_2_0$/m);
  assert.equal(isD3D9Listing(level9), false);
  assert.equal(
    isD3D9Listing(disassemble(readBytes(join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/shader.dxbc')), 0)),
    false,
  );
  assert.equal(isD3D9Listing('// nothing\n'), false);
});
