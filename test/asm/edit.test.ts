// The edit loop (docs/assemble.md): a listing changed by hand and assembled with --like gives a
// container that disassembles to the edited listing, keeps the validator's register rules
// (checkProgram), and, through the lifter and the executor, computes the edited thing. The
// program is cs_basic (a committed fixture): thread (gt, g) of [numthreads(8, 4, 2)] stores
// uint4(dt.x + dt.y, gt.z, g.y + g.z, gi) at byte gi * 16 + g.x * 1024; the expected words are
// computed here from that description, not from the executor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { digestState } from '../../src/container/container.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { decodeProgram } from '../../src/sm4/decode.js';
import { assemble, checkProgram } from '../../src/asm/index.js';
import { lift } from '../../src/lift/lift.js';
import { runCompute } from '../../src/exec/run.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const CS = readBytes(join(FIXTURES, 'oracle/own/cs_basic/main-cs_5_0/shader.dxbc'));
const LISTING = disassemble(CS, 0);
const SENTINEL = 0xdeadbeef;

/** The words one group of `dims` writes: each thread's four lanes from `lanes(gt, gi)`. */
function expected(dims: [number, number, number], lanes: (gt: number[], gi: number) => number[]): Uint32Array {
  const out = new Uint32Array(256).fill(SENTINEL);
  for (let z = 0; z < dims[2]; z++)
    for (let y = 0; y < dims[1]; y++)
      for (let x = 0; x < dims[0]; x++) {
        const gi = x + y * dims[0] + z * dims[0] * dims[1];
        lanes([x, y, z], gi).forEach((v, i) => (out[gi * 4 + i] = v >>> 0));
      }
  return out;
}

/** One group (g = 0, so dt = gt) through the lifter and the executor: the UAV's first 256 words. */
function run(container: Uint8Array): Uint32Array {
  const out = new Uint32Array(256).fill(SENTINEL);
  runCompute(lift(container), { workgroups: [1, 1, 1], buffers: { '3:0': out } });
  return out;
}

/** Assembles the edited listing and checks what every edit must keep. */
function edit(from: string, to: string, listing = LISTING): Uint8Array {
  assert.ok(listing.includes(from), `the listing has ${JSON.stringify(from)}`);
  const text = listing.replace(from, to);
  const r = assemble(text, { like: CS });
  assert.equal(digestState(parseContainer(r.container)), 'valid', 're-signed');
  // The new container disassembles to the edited listing (its instructions; the footer's slot count is STAT's, kept).
  assert.equal(disassemble(r.container, 0x40), disassemble(CS, 0x40).replace(from, to));
  assert.deepEqual(checkProgram(decodeProgram(r.part)), []);
  assert.deepEqual(
    r.notes.filter((n) => n.startsWith('check:')),
    [],
  );
  return r.container;
}

const original = (gt: number[], gi: number): number[] => [gt[0]! + gt[1]!, gt[2]!, 0, gi];

test('the unedited listing runs as the original: the baseline the edits are measured from', () => {
  const r = assemble(LISTING, { like: CS });
  assert.deepEqual(r.container, CS, 'the same bytes, digest included');
  assert.deepEqual(run(r.container), expected([8, 4, 2], original));
});

test('changing an instruction: mov r1.y, gt.z becomes iadd r1.y, gt.z, 100', () => {
  const c = edit('mov r1.y, vThreadIDInGroup.z', 'iadd r1.y, vThreadIDInGroup.z, l(100)');
  assert.deepEqual(
    run(c),
    expected([8, 4, 2], (gt, gi) => [gt[0]! + gt[1]!, gt[2]! + 100, 0, gi]),
  );
});

test('adding an instruction: ishl r1.w, r1.w, 1 after the mov doubles the last lane', () => {
  const from = 'mov r1.w, vThreadIDInGroupFlattened.x\n';
  const c = edit(from, `${from}ishl r1.w, r1.w, l(1)\n`);
  assert.deepEqual(
    run(c),
    expected([8, 4, 2], (gt, gi) => [gt[0]! + gt[1]!, gt[2]!, 0, gi * 2]),
  );
  // removing it again gives back the original bytes
  const edited = disassemble(c, 0);
  const back = assemble(edited.replace('ishl r1.w, r1.w, l(1)\n', ''), { like: CS });
  assert.deepEqual(back.container, CS);
});

test('removing an instruction: without the mov of r1.w, store_raw writes three lanes (.xyz)', () => {
  const c = edit(
    'mov r1.w, vThreadIDInGroupFlattened.x\nstore_raw u0.xyzw, r0.x, r1.xyzw',
    'store_raw u0.xyz, r0.x, r1.xyzx',
  );
  assert.deepEqual(
    run(c),
    expected([8, 4, 2], (gt) => [gt[0]! + gt[1]!, gt[2]!, 0]),
  );
});

test('changing a declaration: dcl_thread_group 4, 4, 2 writes 32 threads with their own gi', () => {
  const c = edit('dcl_thread_group 8, 4, 2', 'dcl_thread_group 4, 4, 2');
  assert.deepEqual(run(c), expected([4, 4, 2], original));
});

test('an edit past the validator rules is assembled and named: r2 with dcl_temps 2', () => {
  const r = assemble(LISTING.replace('mov r1.y, vThreadIDInGroup.z', 'mov r2.y, vThreadIDInGroup.z'), { like: CS });
  assert.deepEqual(
    r.notes.filter((n) => n.startsWith('check:')),
    ['check: instruction 12: r2 is past dcl_temps 2'],
  );
  const big = assemble(LISTING.replace('dcl_thread_group 8, 4, 2', 'dcl_thread_group 32, 32, 2'), { like: CS });
  assert.match(big.notes.join('\n'), /dcl_thread_group 32, 32, 2 is outside cs_5_0's limits/);
});

test('STAT follows the edit where its words are counts: the temps of a larger dcl_temps', () => {
  const r = assemble(LISTING.replace('dcl_temps 2', 'dcl_temps 3'), { like: CS });
  assert.ok(r.notes.includes('STAT: recomputed TempRegisterCount'), r.notes.join('; '));
  const stat = parseContainer(r.container).parts.find((p) => p.kind === 'STAT')!;
  assert.equal(new DataView(stat.data.buffer, stat.data.byteOffset).getUint32(4, true), 3);
});

test('a --like container of another program type is named in the notes', () => {
  const vs = readBytes(join(FIXTURES, '../../examples/vertex-color.dxbc'));
  const r = assemble(disassemble(vs, 0), { like: CS });
  assert.ok(
    r.notes.includes("the --like container's program is cs_5_0, the listing's vs_5_0: its other parts may not fit"),
    r.notes.join('; '),
  );
});
