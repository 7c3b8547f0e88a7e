// Fuzz findings of the DXIL readers and lifter (npm run fuzz -- lift-dxil / dxil-listing), each from
// its shrunk reproducer: a committed fixture and the mutation the campaign found. Before the fixes the
// lifter built IR that does not validate (an operand of another type, a cast its types do not allow, a
// dx.op called through another operation's function) and the listing crashed on a constant
// getelementptr of a non-pointer; now each is refused where the record or the call is read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { equivalence } from '../decompile/harness.js';
import { parseContainer } from '../../src/container/container.js';
import { disassembleDxil, readPartModule } from '../../src/dxil/disassemble.js';
import { Constant, Func } from '../../src/dxil/ir.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { FIXTURES, REPO, SHARED, readBytes, skipUnlessShared } from '../helpers/shared.js';
import { mutant, refuses, typedOnly } from './repro.js';

type Ops = Parameters<typeof mutant>[2];

const operandTypes: { name: string; seed: string; ops: Ops; reason: RegExp }[] = [
  {
    name: 'an add of an i1 operand in an i32 add (IR: add of u32 and bool)',
    seed: 'test/fixtures/dxil-lift/DXIL__SpriteBatch.comp.dxil',
    ops: [{ op: 'flip', part: 1, r: 4043957104, bits: 128 }],
    reason: /instruction record 2 reads a i1 value where its type says i32/,
  },
  {
    name: 'a float operand in an i32 add',
    seed: 'test/fixtures/dxil-lift/DXIL__SpriteBatch.comp.dxil',
    ops: [{ op: 'flip', part: 5, r: 3838642814, bits: 8 }],
    reason: /instruction record 2 reads a float value where its type says i32/,
  },
  {
    name: 'an i32 argument where a call takes a float (IR: mul of f32 and u32)',
    seed: 'test/fixtures/dxil-lift/MeshViewer__MeshViewerVS.dxil',
    ops: [{ op: 'add', part: 5, r: 1029400209, delta: 1 }],
    reason: /instruction record 34 reads a i32 value where its type says float/,
  },
  {
    name: 'an i1 argument where a call takes a float (IR: select condition is not bool)',
    seed: 'test/fixtures/dxil/DXIL__FillTexture.comp_232c51f1.dxil',
    ops: [{ op: 'flip', part: 3, r: 795669110, bits: 128 }],
    reason: /instruction record 34 reads a i1 value where its type says float/,
  },
  {
    name: 'an i32 argument of sin (IR: sin of u32)',
    seed: 'test/fixtures/dxil/GeneratedShaders__bluestein_chirp_fp16.dxil',
    ops: [
      { op: 'dup-part', r: 1674233699 },
      { op: 'byte', part: 0, r: 2052507510, value: 3279721646 },
    ],
    reason: /instruction record 34 reads a i32 value where its type says float/,
  },
  {
    name: 'uitofp of a float (IR: shift of f32)',
    seed: 'test/fixtures/dxil/GeneratedShaders__bluestein_chirp_fp16.dxil',
    ops: [{ op: 'flip', part: 4, r: 316855411, bits: 1 }],
    reason: /cast opcode 5 from float to float/,
  },
];

for (const c of operandTypes)
  test(`lift-dxil: ${c.name} is E404 (LLVM's "Invalid record")`, () => {
    const b = mutant('lift-dxil', c.seed, c.ops);
    refuses(() => lift(b), 'E404_BITCODE_RECORD', c.reason);
    typedOnly('lift-dxil', b);
  });

test('lift-dxil: a %dx.types.CBufRet.i32 whose first lane became i1 is E602 (IR: shift of bool by u32)', () => {
  // the flip rewrites the type table: { i1, i32, i32, i32 }; the handler took every lane's type from the first
  const b = mutant('lift-dxil', 'test/fixtures/dxil-lift/MeshViewer__MeshViewerPS.dxil', [
    { op: 'flip', part: 1, r: 3328040701, bits: 128 },
  ]);
  refuses(() => lift(b), 'E602_LIFT_INVALID', /returns a %dx\.types\.CBufRet\.i32 whose lanes are not of one type/);
  typedOnly('lift-dxil', b);
});

test('lift-dxil: a select whose condition became a float is E404 (IR: select condition is not bool)', () => {
  const b = mutant('lift-dxil', 'test/fixtures/dxil/GeneratedShaders__bluestein_chirp_fp16.dxil', [
    { op: 'flip', part: 6, r: 609554368, bits: 128 },
  ]);
  refuses(() => lift(b), 'E404_BITCODE_RECORD', /a select whose condition is a float/);
  typedOnly('lift-dxil', b);
});

test('lift-dxil: a UAV record of resource kind Sampler is E602 (IR: binary lt of widths 1 and 2)', () => {
  const b = mutant('lift-dxil', 'test/fixtures/dxil-lift/DXIL__FillTexture.comp.dxil', [
    { op: 'flip', part: 5, r: 2923445123, bits: 1 },
  ]);
  refuses(() => lift(b), 'E602_LIFT_INVALID', /resource kind 14 in the UAV records/);
  typedOnly('lift-dxil', b);
});

test('lift-dxil: a function declared to return i32 whose ret gives an i64 is E602 (IR: store of vec2<u32> to u32)', () => {
  // the flip turns getBranchTarget's `ret i32 16` into `ret i64 16`; its inlined result local is the declared i32
  const b = mutant(
    'lift-dxil',
    'test/fixtures/container/asm__control-flow-multi-break-with-non-idom-loop-header.dxil',
    [{ op: 'flip', part: 0, r: 3596471187, bits: 2 }],
  );
  refuses(() => lift(b), 'E602_LIFT_INVALID', /returns i32, and a return gives i64/);
  typedOnly('lift-dxil', b);
});

const dxOps: { name: string; seed: string; ops: Ops; reason: RegExp }[] = [
  {
    name: 'FAbs called through dx.op.loadInput (IR: compose of f32 from u32)',
    seed: 'test/fixtures/dxil-lift/DXIL__TexturedQuad.frag.dxil',
    ops: [{ op: 'add', part: 6, r: 3665341753, delta: 1 }],
    reason: /dx\.op 6 \(FAbs, class Unary\) called through @dx\.op\.loadInput\.f32/,
  },
  {
    name: 'Cos called through dx.op.loadInput (IR: cos of 4 operands)',
    seed: 'test/fixtures/dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil',
    ops: [{ op: 'add', part: 6, r: 35764037, delta: 1 }],
    reason: /dx\.op 12 \(Cos, class Unary\) called through @dx\.op\.loadInput\.f32/,
  },
  {
    name: 'two UAV ranges of one space sharing a register (IR: binding used by two globals)',
    seed: 'test/fixtures/dxil/GeneratedShaders__bluestein_chirp_fp16.dxil',
    ops: [{ op: 'flip', part: 4, r: 3327128111, bits: 128 }],
    reason: / overlap at u0 \(space 0\)/,
  },
  {
    name: 'FMad made Fma of floats (IR: mul of f32 and vec2<u32>: Fma is the double helper)',
    seed: 'test/fixtures/dxil-lift/MeshViewer__MeshViewerVS.dxil',
    ops: [{ op: 'flip', part: 0, r: 395048971, bits: 128 }],
    reason: /dx\.op 47 \(Fma\): overload f32, not one of 'd<d'/,
  },
];

for (const c of dxOps)
  test(`lift-dxil: ${c.name} is E602`, () => {
    const b = mutant('lift-dxil', c.seed, c.ops);
    refuses(() => lift(b), 'E602_LIFT_INVALID', c.reason);
    typedOnly('lift-dxil', b);
  });

test('dxil-listing: a constant getelementptr of a non-pointer is E404 (it crashed the printer)', () => {
  const b = mutant('dxil-listing', 'test/fixtures/container/testgpu__cube.frag.dxil', [
    { op: 'add', part: 0, r: 3427049221, delta: -1 },
  ]);
  refuses(() => disassembleDxil(parseContainer(b)), 'E404_BITCODE_RECORD', /constant/);
  typedOnly('dxil-listing', b);
});

test('lift-dxil: a sample whose sampler handle is of another class is E602 (IR: sample with a non-sampler)', () => {
  // Found on a ../shared corpus program (vkd3d-proton's texture_feedback_gather_po): the i8 3 of
  // createHandle(57, i8 3, ...) read as i8 2, so the sampler operand was a constant buffer's handle. Made
  // here from a committed fixture: its sampler's createHandle names class 0, its texture's range.
  const c = parseContainer(readBytes(join(FIXTURES, 'dxil-lift/DXIL__TexturedQuad.frag.dxil')));
  const m = readPartModule(c, 'DXIL')!;
  let changed = 0;
  for (const f of m.functions)
    for (const bb of f.blocks)
      for (const i of bb.insts)
        if (i.op === 'call' && i.callee instanceof Func && i.callee.name === 'dx.op.createHandle') {
          const cls = i.ops[1];
          if (cls instanceof Constant && cls.ck === 'int' && cls.bits === 3n) {
            cls.bits = 0n;
            changed++;
          }
        }
  assert.equal(changed, 1);
  refuses(
    () => liftModule(m, 'DXIL', 0),
    'E602_LIFT_INVALID',
    /a sampler operand that is a handle of class t, not a sampler/,
  );
});

/** A path of ../shared as the fuzz tools name a seed (relative to the repository). */
const shared = (path: string): string => relative(REPO, join(SHARED, path));

/** Campaign findings on seeds of ../shared that the lifter now refuses (skipped without ../shared). */
const sharedRefusals: { name: string; target: string; seed: string; ops: Ops; code: string; reason: RegExp }[] = [
  {
    // The campaign (issue 19, seed 1, lift-dxil mutant 14443): a flip in Helios's TestVS made the
    // first index of `getelementptr inbounds [3 x float], [3 x float]* %14, i32 0, i32 2` the float
    // %97 (llvm-dis-14 prints it so). LLVM's verifier: "GEP indexes must be integers".
    name: 'a getelementptr with a float index is E404 (IR: mul of f32 and u32)',
    target: 'lift-dxil',
    seed: 'corpus/dxil/Helios/Helios__TestVS_42f163f4.dxil',
    ops: [{ op: 'flip', part: 2, r: 3629961275, bits: 32 }],
    code: 'E404_BITCODE_RECORD',
    reason: /a getelementptr index that is not an integer/,
  },
  {
    // The fuzz helper's --shared 200 run (wgsl, seed 1, mutant 17000): flips in vkd3d-proton's
    // sparse texture_feedback_gather_po turned the type table's i1 into i9, so that
    // `call i9 @dx.op.checkAccessFullyMapped.i32` was lifted to a bool stored where an i9 (u32) goes.
    // hctdb.py gives the class an i1 result (src/dxil/dxop-signatures.ts: every call is checked against
    // its operation's signature).
    name: 'a CheckAccessFullyMapped declared to return i9 is E602 (IR: store of bool to u32)',
    target: 'wgsl',
    seed: 'corpus/pairs/vkd3d-proton/sparse__texture_feedback_gather_po.dxil',
    ops: [
      { op: 'flip', part: 5, r: 135331475, bits: 16 },
      { op: 'flip', part: 2, r: 909485700, bits: 8 },
      { op: 'flip', part: 3, r: 192930, bits: 64 },
      { op: 'flip', part: 2, r: 1113181434, bits: 1 },
    ],
    code: 'E602_LIFT_INVALID',
    reason: /dx\.op 57 \(CreateHandle\): operand 4 is i9, not i1/,
  },
  {
    // The campaign (issue 19, seed 1, lift-dxil mutant 805831): a flip in vkd3d-proton's
    // cs_sample_cmp_level turned its sampler's kind from comparison to default. DXIL's validation
    // (InstrSamplerModeForSampleC, InstrSamplerModeForSample): a comparison sample or gather takes a
    // sampler declared in comparison mode, any other sample or gather one in default mode.
    name: 'a SampleCmpLevel through a sampler declared in default mode is E602 (IR: comparison with a non-comparison sampler)',
    target: 'lift-dxil',
    seed: 'corpus/dxil/vkd3d-proton/sm_advanced__cs_sample_cmp_level.dxil',
    ops: [{ op: 'flip', part: 0, r: 3903775983, bits: 64 }],
    code: 'E602_LIFT_INVALID',
    reason: /a comparison sampling operation through a sampler declared in default mode/,
  },
];

for (const c of sharedRefusals)
  test(`lift-dxil: ${c.name}`, { skip: skipUnlessShared(c.seed) }, () => {
    const b = mutant(c.target, shared(c.seed), c.ops);
    refuses(() => lift(b), c.code, c.reason);
    typedOnly(c.target, b);
  });

test(
  'lift-dxil: a getelementptr with an i64 index counts its low word, as LLVM truncates it to the 32-bit pointer (IR: mul of widths 2 and 1)',
  { skip: skipUnlessShared('corpus/dxil/vkd3d-proton') },
  () => {
    // The campaign (issue 19, seed 1, lift-dxil mutant 715247): a flip in vkd3d-proton's
    // cs_wmma_alloca made `getelementptr [16 x i32], [16 x i32]* %7, i32 0, i32 %276` take `i64 0`
    // (a null constant) as its first index. A valid module: it lifts, validates and runs as the seed.
    const seedPath = join(SHARED, 'corpus/dxil/vkd3d-proton/sm_advanced__cs_wmma_alloca.dxil');
    const b = mutant('lift-dxil', relative(REPO, seedPath), [{ op: 'flip', part: 3, r: 889844582, bits: 4 }]);
    const p = lift(b);
    assert.deepEqual(validateModule(p.module), []);
    // the same words as the seed on the executor (the decompiler's harness runs two programs on one seed)
    const v = equivalence(lift(readBytes(seedPath)), p);
    assert.equal(v.kind, 'same', JSON.stringify(v));
    typedOnly('lift-dxil', b);
  },
);

test(
  'dxil-module: a function record naming a type id past the type table is E405, not a hole in the table (a TypeError in the reader)',
  { skip: skipUnlessShared('corpus/dxil/Helios') },
  () => {
    // The campaign (issue 19, seed 1, dxil-sources mutants 120204 and 838000's): a word of Helios's
    // LightPS (its ILDB, the debug module) set to 0x7fffffff made the type table declare that many entries, so a later alloca
    // record's type id was taken as a forward reference and left a hole that the pointer-type search
    // then read. Forward references belong to the type table; after it, every id must be defined.
    const seed = shared('corpus/dxil/Helios/Helios__LightPS.dxil');
    const b = mutant('dxil-sources', seed, [{ op: 'word', part: 3, r: 1928685703, value: 2147483647 }]);
    refuses(() => readPartModule(parseContainer(b), 'ILDB'), 'E405_BITCODE_FORWARD_REF', /type id \d+ is not defined/);
    typedOnly('dxil-sources', b);
  },
);

test(
  'lift-dxil: a 16-bit RawBufferLoad whose mask leaves a lane out gives that lane as a zero of its type (IR: add of f32 and u32)',
  { skip: skipUnlessShared('corpus/dxil/vkd3d-proton') },
  () => {
    // The final fuzz run of 2026-12-02 (lift-dxil, seed 5, --shared 300, mutant 68470): a flip in
    // vkd3d-proton's cs_fp16_fp64_fp32_any turned the loads' shared mask constant 15 into 11, so lane
    // 2 of `rawBufferLoad.f16` was not loaded and came out as a u32 zero where a half (an f32) goes.
    // DXIL leaves such a lane undefined; a zero of the lane's type is one of its values.
    const seed = relative(
      REPO,
      join(SHARED, 'corpus/dxil/vkd3d-proton/tests__d3d12_sm_advanced__cs_fp16_fp64_fp32_any.dxil'),
    );
    const b = mutant('lift-dxil', seed, [{ op: 'flip', part: 1, r: 3316646531, bits: 32 }]);
    assert.deepEqual(validateModule(lift(b).module), []);
    typedOnly('lift-dxil', b);
  },
);
