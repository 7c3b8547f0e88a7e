// The dx.op signature table (src/dxil/dxop-signatures.ts, generated from hctdb.py) and the check of
// every dx.op call against it (src/dxil/dxop-check.ts, run by the DXIL lifter before any handler):
// the table covers the operation table's opcodes; every dx.op call dxc made in the committed
// fixtures (and ../shared's DXIL corpus when present) fits its signature; and a call whose
// overload, callee name, result or operand types the signature does not allow is E602 at the call.
// Before the check, these calls lifted to IR the validator rejects, or to a wrong program.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Constant, Func, Type, type Instruction, type Module } from '../../src/dxil/ir.js';
import { DX_OPS } from '../../src/dxil/dxop-table.js';
import { DX_OP_SIGNATURES } from '../../src/dxil/dxop-signatures.js';
import { dxOpSignatureFault } from '../../src/dxil/dxop-check.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { IridiaError } from '../../src/errors.js';
import { fillTexture, declaredCall } from './dxil-build.js';

test('the signature table has a row for every opcode of the operation table, in its order', () => {
  assert.deepEqual(
    DX_OP_SIGNATURES.map((r) => r[0]),
    DX_OPS.map((r) => r[0]),
  );
  // a few rows read against hctdb.py by hand
  const row = (op: number) => DX_OP_SIGNATURES.find((r) => r[0] === op)!.slice(1);
  assert.deepEqual(row(60), ['hfwi', '$r res res f f f f i32 i32 i32 f']); // Sample
  assert.deepEqual(row(72), ['v', 'dims res i32']); // GetDimensions
  assert.deepEqual(row(8), ['hf<hf', '$o_i1 $o']); // IsNaN
  assert.deepEqual(row(59), ['hfdwil', '$cb res u32']); // CBufferLoadLegacy
});

function* containers(dir: string): Generator<string> {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) yield* containers(p);
    else yield p;
  }
}

function* calls(m: Module): Generator<[number, Instruction]> {
  for (const f of m.functions)
    for (const bb of f.blocks)
      for (const i of bb.insts) {
        if (i.op !== 'call' || !(i.callee instanceof Func) || !i.callee.name?.startsWith('dx.op.')) continue;
        const a = i.ops[0];
        if (a instanceof Constant && a.ck === 'int') yield [Number(a.bits), i];
      }
}

/** Every dx.op call of every DXIL module under `dir`: [modules, calls, misfits]. */
function census(dir: string): [number, number, string[]] {
  let modules = 0;
  let n = 0;
  const misfits: string[] = [];
  for (const f of containers(dir)) {
    const bytes = readBytes(f);
    if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'DXBC') continue;
    let m: Module | undefined;
    try {
      m = readPartModule(parseContainer(bytes), 'DXIL');
    } catch (e) {
      if (e instanceof IridiaError) continue; // not a DXIL container the reader takes
      throw e;
    }
    if (!m) continue;
    modules++;
    for (const [op, i] of calls(m)) {
      n++;
      const fault = dxOpSignatureFault(
        op,
        (i.callee as Func).name,
        i.type,
        i.ops.slice(1).map((o) => o.type),
      );
      if (fault) misfits.push(`${f}: dx.op ${op}: ${fault}`);
    }
  }
  return [modules, n, misfits];
}

test('every dx.op call dxc made in the committed fixtures fits its signature', () => {
  const [modules, n, misfits] = census(FIXTURES);
  console.log(`fixtures: ${modules} DXIL modules, ${n} dx.op calls`);
  assert.ok(modules >= 20 && n >= 300, `${modules} modules, ${n} calls`);
  assert.deepEqual(misfits, []);
});

for (const root of ['corpus/dxil', 'corpus/pairs']) {
  const dir = sharedPath(root);
  test(
    `every dx.op call in ../shared/${root} fits its signature`,
    { skip: dir ? false : `../shared/${root} is absent` },
    () => {
      const [modules, n, misfits] = census(dir!);
      console.log(`../shared/${root}: ${modules} DXIL modules, ${n} dx.op calls`);
      assert.deepEqual(misfits, []);
    },
  );
}

function scalar(kind: Type['kind'], width = 0): Type {
  const t = new Type(kind);
  t.width = width;
  return t;
}

function constant(t: Type, bits: bigint): Constant {
  const c = new Constant(t, t.kind === 'int' ? 'int' : 'float');
  c.bits = bits;
  return c;
}

/** FillTexture's module with its textureStore (or another call) edited by `edit`, lifted. */
function liftEdited(edit: (f: ReturnType<typeof fillTexture>) => void): () => unknown {
  const f = fillTexture();
  edit(f);
  return () => {
    const p = liftModule(f.m, 'DXIL', 0);
    return validateModule(p.module);
  };
}

function rejects(run: () => unknown, reason: RegExp): void {
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof IridiaError, `not an IridiaError: ${String(e)}`);
    assert.equal(e.code, 'E602_LIFT_INVALID', e.message);
    assert.match(e.reason, reason);
    return true;
  });
}

/** The textureStore called through `name` with its four values `values`. */
function store(name: string, values: Constant[]) {
  return (f: ReturnType<typeof fillTexture>) => {
    const ops = [...f.st.ops.slice(0, 5), ...values, f.st.ops[9]!];
    f.insts[f.store] = declaredCall(name, f.st.type, ops);
  };
}

test('the fixture as committed lifts (the edits below are what is refused)', () => {
  assert.deepEqual(liftEdited(() => {})(), []);
});

test('a dx.op of an overload its operation does not allow is E602 (TextureStore of doubles)', () => {
  const d = scalar('double');
  const v = [0n, 0n, 0n, 0n].map((b) => constant(d, b));
  rejects(
    liftEdited(store('dx.op.textureStore.f64', v)),
    /dx\.op 67 \(TextureStore\): overload f64, not one of 'hfwi'/,
  );
});

test('a dx.op called through the function of another overload is E602 (i32 values to textureStore.f32)', () => {
  const i = scalar('int', 32);
  const v = [0n, 0n, 0n, 0n].map((b) => constant(i, b));
  rejects(
    liftEdited(store('dx.op.textureStore.f32', v)),
    /called through @dx\.op\.textureStore\.f32, not @dx\.op\.texturestore\.i32/,
  );
});

test('a dx.op operand of another type than the overload is E602 (a half among float values)', () => {
  const f = scalar('float');
  const v = [constant(f, 0n), constant(f, 0n), constant(scalar('half'), 0n), constant(f, 0n)];
  rejects(liftEdited(store('dx.op.textureStore.f32', v)), /operand 7 is f16, not the overload f32/);
});

test('a dx.op operand of another fixed type is E602 (an i32 write mask, an i16 coordinate)', () => {
  rejects(
    liftEdited((f) => {
      const ops = [...f.st.ops];
      ops[9] = constant(scalar('int', 32), 15n);
      f.insts[f.store] = declaredCall('dx.op.textureStore.f32', f.st.type, ops);
    }),
    /operand 9 is i32, not i8/,
  );
  rejects(
    liftEdited((f) => {
      const ops = [...f.st.ops];
      ops[4] = constant(scalar('int', 16), 0n);
      f.insts[f.store] = declaredCall('dx.op.textureStore.f32', f.st.type, ops);
    }),
    /operand 4 is i16, not i32/,
  );
});

test('a dx.op with an operand missing or one too many is E602', () => {
  rejects(
    liftEdited((f) => {
      f.insts[f.store] = declaredCall('dx.op.textureStore.f32', f.st.type, f.st.ops.slice(0, 9));
    }),
    /8 operands after the opcode, not 9/,
  );
  rejects(
    liftEdited((f) => {
      f.insts[f.store] = declaredCall('dx.op.textureStore.f32', f.st.type, [...f.st.ops, f.st.ops[9]!]);
    }),
    /10 operands after the opcode, not 9/,
  );
});

test('a dx.op result of another type than its signature is E602 (threadId returning float, textureStore returning i32)', () => {
  rejects(
    liftEdited((f) => {
      const k = f.insts.findIndex((i) => i.callee?.name === 'dx.op.threadId.i32');
      const t = f.insts[k]!;
      f.insts[k] = declaredCall('dx.op.threadId.f32', scalar('float'), t.ops);
    }),
    /dx\.op 93 \(ThreadId\): overload f32, not one of 'i'/,
  );
  rejects(
    liftEdited((f) => {
      f.insts[f.store] = declaredCall('dx.op.textureStore.f32', scalar('int', 32), f.st.ops);
    }),
    /the result is i32, not void/,
  );
});

test('a handle operand that is not a %dx.types.Handle is E602', () => {
  rejects(
    liftEdited((f) => {
      const ops = [...f.st.ops];
      ops[1] = constant(scalar('int', 32), 0n);
      f.insts[f.store] = declaredCall('dx.op.textureStore.f32', f.st.type, ops);
    }),
    /operand 1 is i32, not %dx\.types\.Handle/,
  );
});
