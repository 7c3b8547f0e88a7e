// Building LLVM instructions into a real dxc program for the DXIL lifter's tests (dxil-i64,
// dxil-vectors): test/fixtures/dxil/DXIL__FillTexture (cs_6_0, numthreads 8x8: each thread stores
// four lanes to RWTexture2D u0 at its thread id), and calls of declared functions.

import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Func, Instruction, Type, type Module, type Value } from '../../src/dxil/ir.js';

export const FILL = join(FIXTURES, 'dxil/DXIL__FillTexture.comp_232c51f1.dxil');

/** A fresh copy of FillTexture's module: its main function, main's first block and its texture store. */
export function fillTexture(): { m: Module; main: Func; insts: Instruction[]; store: number; st: Instruction } {
  const m = readPartModule(parseContainer(readBytes(FILL)), 'DXIL')!;
  const main = m.functions.find((f) => f.name === 'main')!;
  const insts = main.blocks[0]!.insts;
  const store = insts.findIndex((i) => i.op === 'call' && i.callee?.name === 'dx.op.textureStore.f32');
  return { m, main, insts, store, st: insts[store]! };
}

/** A call of the declared function `name` (a dx.op, or any other declaration). */
export function declaredCall(name: string, ret: Type, args: Value[]): Instruction {
  const ft = new Type('fn');
  ft.elt = ret;
  ft.elts = args.map((a) => a.type);
  const fn = new Func(new Type('ptr'), ft);
  fn.name = name;
  fn.isProto = true;
  const i = new Instruction('call', ret);
  i.callee = fn;
  i.explicitType = ft;
  i.ops = args;
  return i;
}
