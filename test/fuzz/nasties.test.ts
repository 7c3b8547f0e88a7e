// Hand-made nasties (issue 19): inputs built to break a reader's assumptions. Each gives a typed error
// (or a result) at once: no hang, no stack overflow, no allocation its fields ask for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IridiaError } from '../../src/errors.js';
import { decodeProgram } from '../../src/sm4/decode.js';
import { programListing } from '../../src/disasm/disassemble.js';
import { lift } from '../../src/lift/lift.js';
import { printModule } from '../../src/ir/print.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { runCompute } from '../../src/exec/index.js';
import { OP, computeProgram, container, ins, insNZ, imm, r, rs } from '../exec/asm.js';

function typed(f: () => unknown, code?: string | RegExp): IridiaError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof IridiaError, `an IridiaError, not ${e instanceof Error ? e.stack : String(e)}`);
    if (typeof code === 'string') assert.equal(e.code, code, e.message);
    else if (code) assert.match(`${e.code} ${e.message}`, code);
    return e;
  }
  assert.fail('expected an IridiaError');
}

const words = (w: readonly number[]): Uint8Array => new Uint8Array(new Uint32Array(w).buffer);
const version = ((5 << 16) | (5 << 4)) >>> 0; // cs_5_0

test('a token stream of length 0 and of 2^32-1 words is refused by the decoder', () => {
  typed(() => decodeProgram(words([version, 0])), /E30/);
  typed(() => decodeProgram(words([version, 0xffffffff, (OP.ret | (1 << 24)) >>> 0])), 'E301_TOKENS_TRUNCATED');
});

test('an instruction of length 0 is refused (E302), not read forever', () => {
  typed(() => decodeProgram(words([version, 4, OP.mov >>> 0, 0])), 'E302_INSTRUCTION_LENGTH');
});

test('an immediate constant buffer claiming 2^30 words is refused before it is read', () => {
  // customdata (opcode 0x35) of class 3 (immediate constant buffer): its length word says 2^30
  typed(() => decodeProgram(words([version, 5, (0x35 | (3 << 11)) >>> 0, 1 << 30, 0])), /E30/);
  typed(() => lift(container(words([version, 5, (0x35 | (3 << 11)) >>> 0, 1 << 30, 0]))), /E30/);
});

/** 10^5 nested `if`s (or loops) around one store: the depth real programs never reach. */
function deep(kind: 'if' | 'loop', n: number): Uint8Array {
  const open = kind === 'if' ? insNZ(OP.if, [rs(0, 'x')]) : ins(OP.loop);
  const close = kind === 'if' ? ins(OP.endif) : ins(OP.endloop);
  const body: number[][] = [ins(OP.mov, [r(0, 'x'), imm(1)])];
  for (let k = 0; k < n; k++) body.push(open);
  if (kind === 'loop') body.push(ins(OP.break));
  for (let k = 0; k < n; k++) body.push(close);
  return computeProgram(body);
}

for (const kind of ['if', 'loop'] as const)
  test(`10^5 nested ${kind}s: refused by the lifter by name past Direct3D's 64 levels (no stack overflow)`, () => {
    const b = deep(kind, 100_000);
    const e = typed(() => {
      const p = lift(b);
      // if it lifts, every later stage must cope too
      assert.deepEqual(validateModule(p.module), []);
      printModule(p.module);
      emitWgsl(p);
      runCompute(p, { workgroups: [1, 1, 1], buffers: { '0:0': new Uint32Array(32), '3:0': new Uint32Array(64) } });
    }, 'E602_LIFT_INVALID');
    assert.match(e.message, /nest/);
  });

test('10^5 nested ifs and loops: the decoder reads them (linear, no recursion)', () => {
  for (const kind of ['if', 'loop'] as const) {
    const b = deep(kind, 100_000);
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const off = dv.getUint32(32 + 4 * 2, true); // the SHEX part (the third) of container()
    const p = decodeProgram(b.subarray(off + 8, off + 8 + dv.getUint32(off + 4, true)));
    assert.ok(p.instructions.length > 200_000);
    // the listing indents two spaces a level as D3DDisassemble does: quadratic in the depth, so it is
    // read here at a depth of 2000 (10^5 levels would print 2 * 10^10 characters)
    if (kind === 'if') {
      const q = deep(kind, 2000);
      const o = new DataView(q.buffer, q.byteOffset).getUint32(32 + 4 * 2, true);
      const listing = programListing(decodeProgram(q.subarray(o + 8)), 0, 0);
      assert.ok(listing.includes(`${' '.repeat(2 * 1999)}if_nz r0.xxxx\n`));
    }
  }
});
