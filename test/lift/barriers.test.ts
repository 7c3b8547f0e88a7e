// Barriers in data-dependent control flow (issue 16): a group barrier inside a loop or branch whose
// condition is read from groupshared memory or a UAV. Direct3D requires such a condition to be the
// same in every thread of the group; WGSL's uniformity analysis cannot see it, and the emitter
// passes the condition through workgroupUniformLoad (src/wgsl/uniformity.ts). Each program here is
// run on the executor and, when WebGPU is here, on Dawn; both are compared with a reference worked
// out in JavaScript from the HLSL source (Math.fround for f32 arithmetic), and Tint must compile the
// WGSL (it refused all of them before: "must only be called from uniform control flow").
// - The committed builds of ../shared/oracle/own cs_barrier_flow (sharedLoop: a loop whose trip count
//   thread 0 published in groupshared memory) and cs_barrier_uav (sharedBranch: a branch on a
//   groupshared flag), test/fixtures/oracle/own.
// - A program written as tokens (asm.ts): a branch on a UAV word around a loop bounded by a
//   groupshared count, with a breakc, a continuec on a UAV word and a switch on a UAV word with a
//   barrier in one case; and the same loop bounded by a cbuffer word, whose WGSL must stay as it
//   was (no workgroupUniformLoad: the condition is uniform to WGSL already).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { closeWebgpu, compileWgsl, runCompute as gpuCompute, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { RaceDetector, runCompute } from '../../src/exec/index.js';
import type { Program } from '../../src/ir/program.js';
import type { GpuBinding } from '../../src/gpu/types.js';
import { OP, T, cb, container, dst, imm, ins, insNZ, operand, r, rs, shex, src, threadIndex } from '../exec/asm.js';

after(() => closeWebgpu());

const OWN = join(FIXTURES, 'oracle/own');

interface Buffer {
  readonly cls: string;
  readonly reg: number;
  readonly words: Uint32Array;
}

interface Run {
  readonly name: string;
  readonly program: Program;
  readonly workgroups: number;
  readonly buffers: readonly Buffer[];
  /** The output buffer (by register class and number) and its expected words. */
  readonly out: { readonly cls: string; readonly reg: number };
  readonly want: Uint32Array;
}

function resourceOf(p: Program, cls: string, reg: number) {
  const res = p.interface.resources.find((x) => x.registerClass === cls && x.register === reg);
  assert.ok(res, `the program has ${cls}${reg}`);
  return res;
}

const keyOf = (p: Program, cls: string, reg: number): string => {
  const res = resourceOf(p, cls, reg);
  return `${res.group}:${res.binding}`;
};

const f32 = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const fromBits = (u: number): number => new Float32Array(new Uint32Array([u]).buffer)[0]!;

/** Runs on the executor (with the race detector) and returns the output buffer's words. */
function onExecutor(run: Run): Uint32Array {
  const buffers: Record<string, Uint32Array> = {};
  for (const b of run.buffers) buffers[keyOf(run.program, b.cls, b.reg)] = b.words.slice();
  const races = new RaceDetector();
  runCompute(run.program, { workgroups: [run.workgroups, 1, 1], buffers, trace: races });
  assert.equal(races.raced, false, `${run.name}: the executor found a race: ${races.first ?? ''}`);
  return buffers[keyOf(run.program, run.out.cls, run.out.reg)]!;
}

async function onDawn(run: Run): Promise<Uint32Array> {
  const p = run.program;
  const bindings: GpuBinding[] = run.buffers.map((b) => {
    const res = resourceOf(p, b.cls, b.reg);
    if (b.cls === 'b') return { group: res.group, binding: res.binding, type: 'uniform', words: b.words.slice() };
    return { group: res.group, binding: res.binding, type: 'storage', words: b.words.slice(), readOnly: b.cls === 't' };
  });
  const res = await gpuCompute({ code: emitWgsl(p), workgroups: [run.workgroups, 1, 1], bindings });
  assert.ok(res.ok, `${run.name}: Dawn: ${res.ok ? '' : `${res.stage}: ${res.messages.join(' | ')}`}`);
  const got = res.outputs[keyOf(p, run.out.cls, run.out.reg)];
  assert.ok(got, `${run.name}: Dawn read back no output`);
  return got;
}

function sameWords(name: string, got: Uint32Array, want: Uint32Array): void {
  assert.equal(got.length, want.length, `${name}: length`);
  for (let i = 0; i < want.length; i++)
    assert.equal(got[i], want[i], `${name}: word ${i}: got 0x${got[i]!.toString(16)}, want 0x${want[i]!.toString(16)}`);
}

// ---- the oracle builds ----

const GROUP = 64;

/** cs_barrier_flow sharedLoop: bodies (posMass, vel) in t0, bodyCount in cb0.x, two groups. */
function sharedLoopRun(build: string, bodyCount: number, seed: number): Run {
  const program = lift(readBytes(join(OWN, 'cs_barrier_flow', build, 'shader.dxbc')));
  const groups = 2;
  const bodies = new Uint32Array(groups * GROUP * 8);
  let s = seed;
  for (let i = 0; i < bodies.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    bodies[i] = f32(((s >>> 8) % 2001) / 100 - 10); // -10.00 .. 10.00
  }
  const cbw = new Uint32Array(8);
  cbw[0] = bodyCount;
  const want = new Uint32Array(groups * GROUP * 8);
  const n = (bodyCount & 7) + 1;
  for (let g = 0; g < groups; g++) {
    let tile: number[][] = [];
    for (let t = 0; t < GROUP; t++) tile.push([0, 1, 2, 3].map((c) => fromBits(bodies[(g * GROUP + t) * 8 + c]!)));
    const acc: number[][] = tile.map(() => [0, 0, 0, 0]);
    for (let i = 0; i < n; i++) {
      for (let t = 0; t < GROUP; t++) {
        const src = tile[(t + i) % GROUP]!;
        acc[t] = acc[t]!.map((a, c) => Math.fround(a + src[c]!));
      }
      tile = acc.map((a) => a.map((x) => Math.fround(x * 0.25)));
    }
    for (let t = 0; t < GROUP; t++) {
      const o = (g * GROUP + t) * 8;
      acc[t]!.forEach((x, c) => (want[o + c] = f32(x)));
      want[o + 4] = f32(n);
    }
  }
  return {
    name: `sharedLoop ${build}, bodyCount ${bodyCount}`,
    program,
    workgroups: groups,
    buffers: [
      { cls: 'b', reg: 0, words: cbw },
      { cls: 't', reg: 0, words: bodies },
      { cls: 'u', reg: 0, words: new Uint32Array(want.length) },
    ],
    out: { cls: 'u', reg: 0 },
    want,
  };
}

/** cs_barrier_uav sharedBranch: cells (density, count, pad) in u0; group 0's flag (share[0].w) above
 * 0.5, group 1's below, so both paths run. */
function sharedBranchRun(build: string): Run {
  const program = lift(readBytes(join(OWN, 'cs_barrier_uav', build, 'shader.dxbc')));
  const N = 32;
  const groups = 2;
  const cells = new Uint32Array(groups * N * 8);
  for (let i = 0; i < groups * N; i++) {
    for (let c = 0; c < 4; c++) cells[i * 8 + c] = f32(i * 4 + c + 0.25);
    cells[i * 8 + 4] = i * 3 + 1;
    cells[i * 8 + 5] = 0xa5a5a5a5;
    cells[i * 8 + 6] = i;
    cells[i * 8 + 7] = 0xffffffff - i;
  }
  cells[3] = f32(0.75); // group 0: share[0].w = 0.75 > 0.5
  cells[N * 8 + 3] = f32(0.5); // group 1: 0.5, not above
  const want = cells.slice();
  // group 0 takes the branch: density = share[N - 1 - gi]
  for (let t = 0; t < N; t++) for (let c = 0; c < 4; c++) want[t * 8 + c] = cells[(N - 1 - t) * 8 + c]!;
  return {
    name: `sharedBranch ${build}`,
    program,
    workgroups: groups,
    // (the entry reads no cbuffer word: fxc declares none)
    buffers: [{ cls: 'u', reg: 0, words: cells }],
    out: { cls: 'u', reg: 0 },
    want,
  };
}

// ---- the token program ----

const THREADS = 8;
/** Byte address in g0 of tile slot k (slot 0 at byte 4; byte 0 holds the count). */
const SYNC_G_T = 1 | 2; // D3D11_SB_SYNC_THREADS_IN_GROUP | D3D11_SB_SYNC_THREAD_GROUP_SHARED_MEMORY (>> 11)

/**
 * u0 words: 0 the count (thread 0 publishes count & 7 in g0), 1 the mode; 8 + t thread t's sum.
 *   if (mode & 8) == 0                        // a branch on a UAV word, around everything below
 *     for i = 1 .. n (n from g0, or from cb0.x with `cbCount`)
 *       if (i & mode & 1) continue            // a continue on a UAV word
 *       acc += tile[(t + i) & 7]
 *       sync
 *       switch ((mode >> 1) & 3)              // a switch on a UAV word
 *         case 0: tile[t] = acc
 *         case 1: tile[t] = acc * 2; sync     // a barrier inside a case
 *         default: nothing
 *       sync
 */
function tokenProgram(cbCount: boolean): Program {
  const tid = threadIndex();
  const g = (mask = 'x') => dst(T.tgsm, [0], mask);
  const gs = (sw = 'xxxx') => src(T.tgsm, [0], sw);
  const u = (sw = 'xxxx') => src(T.uav, [0], sw);
  const slotAddr = (dstReg: number, index: number[]) => [
    ins(OP.ishl, [r(dstReg, 'x'), index, imm(2)]),
    ins(OP.iadd, [r(dstReg, 'x'), rs(dstReg, 'x'), imm(4)]),
  ];
  const body = [
    // thread 0 publishes the count; every thread its tile slot (its index)
    ins(OP.if, [tid]), // if_z: thread 0
    ins(OP.ld_raw, [r(0, 'x'), imm(0), u()]),
    ins(OP.and, [r(0, 'x'), rs(0, 'x'), imm(7)]),
    ins(OP.store_raw, [g(), imm(0), rs(0, 'x')]),
    ins(OP.endif),
    ...slotAddr(1, tid),
    ins(OP.store_raw, [g(), rs(1, 'x'), tid]),
    ins(OP.sync, [], SYNC_G_T),
    cbCount ? ins(OP.mov, [r(0, 'x'), cb(0, 0, 'xxxx')]) : ins(OP.ld_raw, [r(0, 'x'), imm(0), gs()]),
    ins(OP.ld_raw, [r(0, 'y'), imm(4), u()]),
    ins(OP.mov, [r(2, 'x'), imm(0)]),
    ins(OP.mov, [r(0, 'z'), imm(0)]),
    ins(OP.and, [r(4, 'x'), rs(0, 'y'), imm(8)]),
    ins(OP.if, [rs(4, 'x')]), // if_z (mode & 8)
    ins(OP.loop),
    ins(OP.uge, [r(0, 'w'), rs(0, 'z'), rs(0, 'x')]),
    insNZ(OP.breakc, [rs(0, 'w')]),
    ins(OP.iadd, [r(0, 'z'), rs(0, 'z'), imm(1)]),
    ins(OP.and, [r(3, 'x'), rs(0, 'z'), rs(0, 'y')]),
    ins(OP.and, [r(3, 'x'), rs(3, 'x'), imm(1)]),
    insNZ(OP.continuec, [rs(3, 'x')]),
    ins(OP.iadd, [r(3, 'y'), tid, rs(0, 'z')]),
    ins(OP.and, [r(3, 'y'), rs(3, 'y'), imm(7)]),
    ...slotAddr(3, rs(3, 'y')),
    ins(OP.ld_raw, [r(3, 'z'), rs(3, 'x'), gs()]),
    ins(OP.iadd, [r(2, 'x'), rs(2, 'x'), rs(3, 'z')]),
    ins(OP.sync, [], SYNC_G_T),
    ins(OP.ushr, [r(3, 'w'), rs(0, 'y'), imm(1)]),
    ins(OP.and, [r(3, 'w'), rs(3, 'w'), imm(3)]),
    ...slotAddr(1, tid),
    ins(OP.switch, [rs(3, 'w')]),
    ins(OP.case, [imm(0)]),
    ins(OP.store_raw, [g(), rs(1, 'x'), rs(2, 'x')]),
    ins(OP.break),
    ins(OP.case, [imm(1)]),
    ins(OP.ishl, [r(3, 'x'), rs(2, 'x'), imm(1)]),
    ins(OP.store_raw, [g(), rs(1, 'x'), rs(3, 'x')]),
    ins(OP.sync, [], SYNC_G_T),
    ins(OP.break),
    ins(OP.default),
    ins(OP.break),
    ins(OP.endswitch),
    ins(OP.sync, [], SYNC_G_T),
    ins(OP.endloop),
    ins(OP.endif),
    // u0 word 8 + t = acc
    ins(OP.ishl, [r(1, 'x'), tid, imm(2)]),
    ins(OP.iadd, [r(1, 'x'), rs(1, 'x'), imm(32)]),
    ins(OP.store_raw, [dst(T.uav, [0], 'x'), rs(1, 'x'), rs(2, 'x')]),
  ];
  const decls = [
    ins(OP.dcl_global_flags, [], 1),
    ins(OP.dcl_constant_buffer, [src(T.cb, [0, 1])]),
    ins(OP.dcl_uav_raw, [operand(T.uav, [0], { mode: 'none' })]),
    ins(OP.dcl_input, [
      operand(T.flattenedIndex, [], { mode: 'mask', mask: 'x' }).map((w, i) => (i === 0 ? w & ~(3 << 20) : w)),
    ]),
    ins(OP.dcl_temps, [[5]]),
    ins(OP.dcl_tgsm_raw, [operand(T.tgsm, [0], { mode: 'none' }), [4 + 4 * THREADS]]),
    [(OP.dcl_thread_group | (4 << 24)) >>> 0, THREADS, 1, 1],
  ];
  return lift(container(shex('cs', 5, 0, [...decls, ...body, ins(OP.ret)])));
}

/** The token program's u0 after a run, worked out from its pseudo-code. */
function tokenReference(count: number, mode: number, cbCount: boolean, cbWord: number): Uint32Array {
  const out = new Uint32Array(16);
  out[0] = count;
  out[1] = mode;
  const n = cbCount ? cbWord : count & 7;
  let tile = Array.from({ length: THREADS }, (_, t) => t);
  const acc = new Array<number>(THREADS).fill(0);
  if ((mode & 8) === 0)
    for (let i = 1; i <= n; i++) {
      if (i & mode & 1) continue;
      for (let t = 0; t < THREADS; t++) acc[t] = (acc[t]! + tile[(t + i) & 7]!) >>> 0;
      const sel = (mode >>> 1) & 3;
      if (sel === 0) tile = [...acc];
      else if (sel === 1) tile = acc.map((a) => (a * 2) >>> 0);
    }
  acc.forEach((a, t) => (out[8 + t] = a));
  return out;
}

function tokenRun(count: number, mode: number, cbCount = false, cbWord = 0): Run {
  const u0 = new Uint32Array(16);
  u0[0] = count;
  u0[1] = mode;
  const cbw = new Uint32Array(4);
  cbw[0] = cbWord;
  return {
    name: `token program (${cbCount ? `cb count ${cbWord}` : `count ${count}`}, mode ${mode})`,
    program: tokenProgram(cbCount),
    workgroups: 1,
    buffers: [
      { cls: 'b', reg: 0, words: cbw },
      { cls: 'u', reg: 0, words: u0 },
    ],
    out: { cls: 'u', reg: 0 },
    want: tokenReference(count, mode, cbCount, cbWord),
  };
}

// count, mode: case 0; continue on odd i with case 1 (a barrier in the case); the default case; the
// branch around the loop not taken; a loop that runs no iteration
const TOKEN_RUNS = [
  [5, 0],
  [7, 3],
  [6, 4],
  [7, 8],
  [0, 2],
] as const;

function allRuns(): Run[] {
  return [
    sharedLoopRun('sharedLoop-cs_5_0', 5, 1),
    sharedLoopRun('sharedLoop-cs_5_1', 0x17, 2),
    sharedBranchRun('sharedBranch-cs_4_0'),
    sharedBranchRun('sharedBranch-cs_5_0'),
    ...TOKEN_RUNS.map(([c, m]) => tokenRun(c, m)),
  ];
}

test('the emitted WGSL passes the groupshared- and UAV-dependent conditions through workgroupUniformLoad', () => {
  for (const run of allRuns()) {
    const wgsl = emitWgsl(run.program);
    assert.match(wgsl, /workgroupUniformLoad\(&iridia_uniform\)/, run.name);
    assert.match(wgsl, /^\/\/ note: \d+ branch conditions? around group barriers/m, run.name);
  }
  // The token program: the branch around the loop, the loop's exit, the continue and the switch.
  const wgsl = emitWgsl(tokenProgram(false));
  assert.equal(wgsl.match(/workgroupUniformLoad\(/g)?.length, 4, wgsl);
  // Bounded by a cbuffer word, the loop's exit is uniform to WGSL: only the three UAV conditions.
  assert.equal(emitWgsl(tokenProgram(true)).match(/workgroupUniformLoad\(/g)?.length, 3);
});

test('the executor computes the reference on every program, with no race', () => {
  for (const run of [...allRuns(), tokenRun(9, 0, true, 4), tokenRun(9, 5, true, 6)])
    sameWords(run.name, onExecutor(run), run.want);
});

test('Tint compiles them and Dawn computes the reference too', { skip: webgpuSkip() }, async () => {
  const runs = [...allRuns(), tokenRun(9, 0, true, 4)];
  const compiled = await compileWgsl(runs.map((r) => emitWgsl(r.program)));
  compiled.forEach((c, i) => assert.ok(c.ok, `${runs[i]!.name}: ${c.messages.join(' | ')}`));
  for (const run of runs) sameWords(`${run.name} on Dawn`, await onDawn(run), run.want);
});
