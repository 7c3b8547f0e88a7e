// The DXIL lifter's control flow (src/lift/dxil/cfg.ts, lower.ts) and SSA handling (phis, values
// used across IR blocks), checked against an independent reference. Random structured programs
// (nested loops with break and continue, breaks out of two loops at once, early returns from inside
// loops, switches whose cases fall through into shared blocks) over three u32 variables are
// compiled here into LLVM basic blocks in SSA form (a phi for every variable at every join), put in
// the place of the body of a real dxc compute program (test/fixtures/dxil/DXIL__FillTexture, which
// stores a float4 to RWTexture2D u0 at the thread id), lifted, and run on the executor for 64
// threads; each thread's stored words must equal what a direct interpreter of the program computes.
// Hand-made shapes check the classic phi problems (a swap of two phis on a back edge, a value
// defined in a loop and used after it) and refusals: an irreducible graph, and malformed bodies
// (a phi without a value for a predecessor, a branch out of the function, a use before definition).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Block, Constant, type Func, Instruction, type Module, Type, type Value } from '../../src/dxil/ir.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { runCompute } from '../../src/exec/index.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { IridiaError } from '../../src/errors.js';
import { closeWebgpu, compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { diffCompute } from '../exec/diff-harness.js';
import type { Program } from '../../src/ir/program.js';

after(() => closeWebgpu());

const FIXTURE = join(FIXTURES, 'dxil/DXIL__FillTexture.comp_232c51f1.dxil');

// ---- the programs ---------------------------------------------------------------------------

type E = { k: 'var'; v: number } | { k: 'const'; n: number } | { k: 'tid' } | { k: 'add' | 'xor' | 'mul'; a: E; b: E };
type C = { k: 'lt' | 'eq'; a: E; b: E };
type S =
  | { k: 'set'; v: number; e: E }
  | { k: 'if'; c: C; t: S[]; f: S[] }
  /** A loop run at most `bound` times (its own counter variable), then left. */
  | { k: 'loop'; counter: number; bound: number; body: S[] }
  | { k: 'break' }
  /** Leaves the loop around the innermost one (a break of two levels). */
  | { k: 'break2' }
  | { k: 'continue' }
  | { k: 'return' }
  /** Cases in order; a case that falls through runs the next case's body after its own. */
  | { k: 'switch'; sel: E; cases: { value: number; body: S[]; fall: boolean }[]; def: S[] };

const VARS = 3;

class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s ^= this.s << 13;
    this.s ^= this.s >>> 17;
    this.s ^= this.s << 5;
    return (this.s >>>= 0);
  }
  int(n: number): number {
    return this.next() % n;
  }
}

function genExpr(r: Rng, depth: number): E {
  const p = r.int(depth > 2 ? 3 : 6);
  if (p === 0) return { k: 'var', v: r.int(VARS) };
  if (p === 1) return { k: 'const', n: r.int(50) };
  if (p === 2) return { k: 'tid' };
  const k = (['add', 'xor', 'mul'] as const)[r.int(3)]!;
  return { k, a: genExpr(r, depth + 1), b: genExpr(r, depth + 1) };
}

function genCond(r: Rng): C {
  return { k: r.int(3) === 0 ? 'eq' : 'lt', a: genExpr(r, 1), b: { k: 'const', n: r.int(40) } };
}

function genBlock(r: Rng, depth: number, loops: number, counters: { n: number }): S[] {
  const out: S[] = [];
  const n = 1 + r.int(depth > 2 ? 2 : 4);
  for (let i = 0; i < n; i++) {
    const p = r.int(depth > 4 ? 3 : 10);
    if (p <= 2) out.push({ k: 'set', v: r.int(VARS), e: genExpr(r, 0) });
    else if (p <= 4)
      out.push({
        k: 'if',
        c: genCond(r),
        t: genBlock(r, depth + 1, loops, counters),
        f: r.int(2) ? genBlock(r, depth + 1, loops, counters) : [],
      });
    else if ((p === 5 || p === 9) && loops < 3 && counters.n < 16)
      out.push({
        k: 'loop',
        counter: VARS + counters.n++,
        bound: 1 + r.int(4),
        body: genBlock(r, depth + 1, loops + 1, counters),
      });
    else if (p === 6 && loops > 0) {
      // a jump, behind a condition so that code after it stays reachable
      const jumps: S[] = [{ k: 'break' }, { k: 'continue' }, ...(loops > 1 ? [{ k: 'break2' } as S] : [])];
      out.push({ k: 'if', c: genCond(r), t: [jumps[r.int(jumps.length)]!], f: [] });
    } else if (p === 7 && r.int(3) === 0) out.push({ k: 'if', c: genCond(r), t: [{ k: 'return' }], f: [] });
    else if (p === 8) {
      const cases = Array.from({ length: 1 + r.int(3) }, (_, j) => ({
        value: j * 3 + r.int(3),
        body: genBlock(r, depth + 1, loops, counters),
        fall: r.int(2) === 0,
      }));
      out.push({
        k: 'switch',
        sel: { k: 'add', a: genExpr(r, 1), b: { k: 'const', n: 0 } },
        cases,
        def: genBlock(r, depth + 1, loops, counters),
      });
    } else out.push({ k: 'set', v: r.int(VARS), e: genExpr(r, 0) });
  }
  return out;
}

// ---- the reference: run a program directly ---------------------------------------------------

class Jump {
  constructor(readonly kind: 'break' | 'break2' | 'continue' | 'return') {}
}

function evalE(e: E, vars: number[], tid: number): number {
  switch (e.k) {
    case 'var':
      return vars[e.v]!;
    case 'const':
      return e.n;
    case 'tid':
      return tid;
    case 'add':
      return (evalE(e.a, vars, tid) + evalE(e.b, vars, tid)) >>> 0;
    case 'xor':
      return (evalE(e.a, vars, tid) ^ evalE(e.b, vars, tid)) >>> 0;
    case 'mul':
      return Math.imul(evalE(e.a, vars, tid), evalE(e.b, vars, tid)) >>> 0;
  }
}

function evalC(c: C, vars: number[], tid: number): boolean {
  const a = evalE(c.a, vars, tid);
  const b = evalE(c.b, vars, tid);
  return c.k === 'lt' ? a < b : a === b;
}

function runS(list: readonly S[], vars: number[], tid: number): void {
  for (const s of list) {
    switch (s.k) {
      case 'set':
        vars[s.v] = evalE(s.e, vars, tid);
        break;
      case 'if':
        runS(evalC(s.c, vars, tid) ? s.t : s.f, vars, tid);
        break;
      case 'loop':
        vars[s.counter] = 0;
        for (;;) {
          if (vars[s.counter]! >= s.bound) break;
          vars[s.counter] = vars[s.counter]! + 1;
          try {
            runS(s.body, vars, tid);
          } catch (j) {
            if (!(j instanceof Jump)) throw j;
            if (j.kind === 'continue') continue;
            if (j.kind === 'break') break;
            if (j.kind === 'break2') throw new Jump('break');
            throw j;
          }
        }
        break;
      case 'break':
      case 'break2':
      case 'continue':
      case 'return':
        throw new Jump(s.k);
      case 'switch': {
        const sel = evalE(s.sel, vars, tid);
        let k = s.cases.findIndex((c) => c.value === sel);
        if (k < 0) {
          runS(s.def, vars, tid);
          break;
        }
        for (; k < s.cases.length; k++) {
          runS(s.cases[k]!.body, vars, tid);
          if (!s.cases[k]!.fall) break;
        }
        if (k === s.cases.length) runS(s.def, vars, tid); // the last case fell through into the default
        break;
      }
    }
  }
}

/** The words thread `tid` stores: the variables masked to 24 bits, as floats. */
function reference(program: S[], tid: number): number[] {
  const vars = new Array<number>(VARS + 16).fill(0);
  try {
    runS(program, vars, tid);
  } catch (j) {
    if (!(j instanceof Jump) || j.kind !== 'return') throw j;
  }
  const f = new Float32Array(4);
  const u = new Uint32Array(f.buffer);
  for (let k = 0; k < 3; k++) f[k] = vars[k]! & 0xffffff;
  f[3] = 1;
  return Array.from(u);
}

// ---- the compiler: a program as LLVM blocks in SSA form ---------------------------------------

class Compiler {
  readonly blocks: Block[] = [];
  private cur!: Block;
  private env!: Value[];
  private readonly i32: Type;
  private readonly i1: Type;
  private readonly f32: Type;
  private readonly voidT: Type;
  private readonly label: Type;
  private readonly tid: Value;
  private readonly handle: Value;
  /** Edges into blocks not yet started: their predecessors and environments. */
  private readonly incoming = new Map<Block, { from: Block; env: Value[] }[]>();
  /** Loop headers' phis, completed when the loop is done. */
  private readonly loopStack: { header: Block; exit: Block; phis: Instruction[] }[] = [];
  private readonly nvars: number;

  constructor(
    private readonly m: Module,
    private readonly fns: Map<string, Func>,
    nvars: number,
  ) {
    this.nvars = nvars;
    const t = (pred: (x: Type) => boolean, what: string) => m.types.find(pred) ?? assert.fail(`no ${what} type`);
    this.i32 = t((x) => x.kind === 'int' && x.width === 32, 'i32');
    this.i1 = m.types.find((x) => x.kind === 'int' && x.width === 1) ?? this.addType('int', 1);
    this.f32 = t((x) => x.kind === 'float', 'float');
    this.voidT = t((x) => x.kind === 'void', 'void');
    this.label = m.types.find((x) => x.kind === 'label') ?? this.addType('label', 0);
    const entry = this.newBlock();
    this.start(entry, []);
    this.handle = this.call('dx.op.createHandle', this.fns.get('dx.op.createHandle')!.fnType.elt!, [
      this.int(57),
      this.int(1, this.fns.get('dx.op.createHandle')!.fnType.elts[1]!),
      this.int(0),
      this.int(0),
      this.int(0, this.i1),
    ]);
    const x = this.call('dx.op.threadId.i32', this.i32, [this.int(93), this.int(0)]);
    const y = this.call('dx.op.threadId.i32', this.i32, [this.int(93), this.int(1)]);
    this.tidX = x;
    this.tidY = y;
    this.tid = this.bin(0, x, this.bin(2, y, this.int(8)));
    this.env = Array.from({ length: nvars }, () => this.int(0));
  }
  private readonly tidX: Value;
  private readonly tidY: Value;

  private addType(kind: 'int' | 'label', width: number): Type {
    const ty = new Type(kind);
    ty.width = width;
    return ty;
  }

  int(n: number, type: Type = this.i32): Constant {
    const c = new Constant(type, 'int');
    c.bits = BigInt(n);
    return c;
  }

  newBlock(): Block {
    const b = new Block(this.label, this.blocks.length);
    this.blocks.push(b);
    return b;
  }

  private emit(i: Instruction): Instruction {
    this.cur.insts.push(i);
    return i;
  }

  private call(name: string, ret: Type, args: Value[]): Instruction {
    const fn = this.fns.get(name) ?? assert.fail(`no declaration of ${name}`);
    const i = new Instruction('call', ret);
    i.callee = fn;
    i.explicitType = fn.fnType;
    i.ops = args;
    return this.emit(i);
  }

  private bin(sub: number, a: Value, b: Value): Instruction {
    const i = new Instruction('binop', this.i32);
    i.sub = sub;
    i.ops = [a, b];
    return this.emit(i);
  }

  /** Ends the current block with a branch to `to` (recording the edge's environment). */
  private br(to: Block): void {
    const i = new Instruction('br', this.voidT);
    i.blocks = [to.index];
    this.emit(i);
    this.edge(to);
  }

  private edge(to: Block): void {
    const loop = this.loopStack.find((l) => l.header === to);
    if (loop)
      loop.phis.forEach((p, k) => {
        p.ops = [...p.ops, this.env[k]!];
        p.blocks = [...p.blocks, this.cur.index];
      });
    else {
      const list = this.incoming.get(to) ?? [];
      list.push({ from: this.cur, env: [...this.env] });
      this.incoming.set(to, list);
    }
  }

  /** Starts emitting into `b` with the environment its edges give (phis where they differ). */
  private start(b: Block, preds: { from: Block; env: Value[] }[]): void {
    this.cur = b;
    if (preds.length === 0) return;
    if (preds.length === 1) {
      this.env = [...preds[0]!.env];
      return;
    }
    this.env = Array.from({ length: this.nvars }, (_, k) => {
      const p = new Instruction('phi', this.i32);
      p.ops = preds.map((e) => e.env[k]!);
      p.blocks = preds.map((e) => e.from.index);
      return this.emit(p);
    });
  }

  /** Starts a block reached by the edges recorded so far; false when nothing reaches it. */
  private enter(b: Block): boolean {
    const preds = this.incoming.get(b) ?? [];
    this.incoming.delete(b);
    if (!preds.length) {
      this.blocks.splice(this.blocks.indexOf(b), 1);
      return false;
    }
    this.start(b, preds);
    return true;
  }

  private expr(e: E): Value {
    switch (e.k) {
      case 'var':
        return this.env[e.v]!;
      case 'const':
        return this.int(e.n);
      case 'tid':
        return this.tid;
      default:
        return this.bin(e.k === 'add' ? 0 : e.k === 'xor' ? 12 : 2, this.expr(e.a), this.expr(e.b));
    }
  }

  private cond(c: C): Value {
    const i = new Instruction('cmp', this.i1);
    i.sub = c.k === 'lt' ? 36 : 32;
    i.ops = [this.expr(c.a), this.expr(c.b)];
    return this.emit(i);
  }

  private condBr(c: Value, t: Block, f: Block): void {
    const i = new Instruction('br', this.voidT);
    i.ops = [c];
    i.blocks = [t.index, f.index];
    this.emit(i);
    this.edge(t);
    this.edge(f);
  }

  /** Compiles a list; returns false when control cannot reach its end. */
  list(list: readonly S[]): boolean {
    for (const s of list) if (!this.stmt(s)) return false;
    return true;
  }

  private stmt(s: S): boolean {
    switch (s.k) {
      case 'set':
        this.env[s.v] = this.expr(s.e);
        return true;
      case 'if': {
        const t = this.newBlock();
        const f = this.newBlock();
        const join = this.newBlock();
        this.condBr(this.cond(s.c), t, f);
        for (const [b, body] of [
          [t, s.t],
          [f, s.f],
        ] as const) {
          if (this.enter(b) && this.list(body)) this.br(join);
        }
        return this.enter(join);
      }
      case 'loop': {
        this.env[s.counter] = this.int(0);
        const header = this.newBlock();
        const body = this.newBlock();
        const exit = this.newBlock();
        // the header's phis, one a variable, completed by every back edge
        const phis = Array.from({ length: this.nvars }, () => new Instruction('phi', this.i32));
        const pre = this.cur;
        const preEnv = [...this.env];
        const jmp = new Instruction('br', this.voidT);
        jmp.blocks = [header.index];
        this.emit(jmp);
        this.cur = header;
        phis.forEach((p, k) => {
          p.ops = [preEnv[k]!];
          p.blocks = [pre.index];
          header.insts.push(p);
        });
        this.env = [...phis];
        this.loopStack.push({ header, exit, phis });
        const c = new Instruction('cmp', this.i1);
        c.sub = 35; // uge
        c.ops = [this.env[s.counter]!, this.int(s.bound)];
        this.emit(c);
        this.condBr(c, exit, body);
        this.enter(body);
        this.env[s.counter] = this.bin(0, this.env[s.counter]!, this.int(1));
        if (this.list(s.body)) this.br(header);
        this.loopStack.pop();
        return this.enter(exit);
      }
      case 'break':
        this.br(this.loopStack[this.loopStack.length - 1]!.exit);
        return false;
      case 'break2':
        this.br(this.loopStack[this.loopStack.length - 2]!.exit);
        return false;
      case 'continue':
        this.br(this.loopStack[this.loopStack.length - 1]!.header);
        return false;
      case 'return':
        this.ret();
        return false;
      case 'switch': {
        const sel = this.bin(0, this.expr(s.sel), this.int(0));
        const bodies = s.cases.map(() => this.newBlock());
        const def = this.newBlock();
        const join = this.newBlock();
        const i = new Instruction('switch', this.voidT);
        i.ops = [sel];
        i.blocks = [def.index, ...bodies.map((b) => b.index)];
        i.cases = s.cases.map((c) => this.int(c.value));
        this.emit(i);
        this.edge(def);
        for (const b of bodies) this.edge(b);
        s.cases.forEach((c, k) => {
          if (this.enter(bodies[k]!) && this.list(c.body)) this.br(c.fall ? (bodies[k + 1] ?? def) : join);
        });
        if (this.enter(def) && this.list(s.def)) this.br(join);
        return this.enter(join);
      }
    }
  }

  /** An instruction of `op` (sub-opcode `sub`) on `ops`, appended to the current block. */
  inst(op: 'binop' | 'cast' | 'cmp' | 'select', type: Type, sub: number, ops: Value[]): Instruction {
    const i = new Instruction(op, type);
    i.sub = sub;
    i.ops = ops;
    return this.emit(i);
  }

  /** The thread's index (x + 8y) and the i32 type, for hand-built bodies. */
  get threadIndex(): Value {
    return this.tid;
  }
  get int32(): Type {
    return this.i32;
  }
  get float32(): Type {
    return this.f32;
  }

  /** Sets variable k (what ret() stores for k < 3). */
  set(k: number, v: Value): void {
    this.env[k] = v;
  }

  /** Stores the variables (masked to 24 bits, as floats) at the thread's texel and returns. */
  ret(): void {
    const fl = this.env.slice(0, 3).map((v) => {
      const masked = new Instruction('binop', this.i32);
      masked.sub = 10;
      masked.ops = [v, this.int(0xffffff)];
      this.emit(masked);
      const c = new Instruction('cast', this.f32);
      c.sub = 5; // uitofp
      c.ops = [masked];
      return this.emit(c);
    });
    const one = new Constant(this.f32, 'float');
    one.bits = 0x3f800000n;
    const undef = new Constant(this.i32, 'undef');
    const i8 = this.fns.get('dx.op.textureStore.f32')!.fnType.elts[9]!;
    this.call('dx.op.textureStore.f32', this.voidT, [
      this.int(67),
      this.handle,
      this.tidX,
      this.tidY,
      undef,
      ...fl,
      one,
      this.int(15, i8),
    ]);
    this.emit(new Instruction('ret', this.voidT));
  }
}

/** The fixture's module with `main`'s body replaced by what `build` makes. */
function withBody(build: (c: Compiler) => void, nvars = VARS + 16): Module {
  const c = parseContainer(readBytes(FIXTURE));
  const m = readPartModule(c, 'DXIL')!;
  const fns = new Map(m.functions.map((f) => [f.name ?? '', f]));
  const comp = new Compiler(m, fns, nvars);
  build(comp);
  const main = fns.get('main')!;
  // block indices as their final positions
  const order = comp.blocks;
  const remap = new Map(order.map((b, k) => [b.index, k]));
  for (const b of order)
    for (const i of b.insts) if (i.blocks.length) i.blocks = i.blocks.map((x) => remap.get(x) ?? 9999);
  order.forEach((b, k) => (b.index = k));
  main.blocks = order;
  return m;
}

function compileProgram(program: S[]): Module {
  return withBody((c) => {
    if (c.list(program)) c.ret();
  });
}

let flagged = 0;
const wgsl: string[] = [];
const lifted: Program[] = [];
function run(m: Module): number[][] {
  const p = liftModule(m, 'DXIL', 0);
  wgsl.push(emitWgsl(p));
  lifted.push(p);
  if (p.module.functions.some((f) => f.locals.some((l) => l.name === 'iridia_exit'))) flagged++;
  assert.deepEqual(validateModule(p.module), []);
  emitWgsl(p);
  const levels = [new Uint32Array(8 * 8 * 4)];
  runCompute(p, { workgroups: [1, 1, 1], textures: { '3:0': { width: 8, height: 8, depthOrLayers: 1, levels } } });
  return Array.from({ length: 64 }, (_, t) => Array.from(levels[0]!.subarray(t * 4, t * 4 + 4)));
}

test('random structured programs: the lifted DXIL computes what the program does, thread by thread', () => {
  const r = new Rng(20261201);
  let checked = 0;
  let jumps = 0;
  for (let n = 0; n < 150; n++) {
    const program = genBlock(r, 0, 0, { n: 0 });
    const got = run(compileProgram(program));
    for (let t = 0; t < 64; t++)
      assert.deepEqual(got[t], reference(program, t), `program ${n}, thread ${t}: ${JSON.stringify(program)}`);
    checked++;
    if (JSON.stringify(program).includes('break2')) jumps++;
  }
  assert.equal(checked, 150);
  // the generator reached the multi-level breaks the exit flag lowers
  assert.ok(jumps >= 10, `${jumps} programs with a break of two loops`);
  // and the lowering's exit flag (a jump across a loop or switch) was exercised
  assert.ok(flagged >= 10, `${flagged} programs lowered with the exit flag`);
  console.log(`${checked} random programs agree on 64 threads; ${jumps} break two loops, ${flagged} use the exit flag`);
});

test('Tint compiles the WGSL of every random program', { skip: webgpuSkip() }, async () => {
  assert.ok(wgsl.length >= 150);
  const results = await compileWgsl(wgsl);
  const failed = results
    .map((r, i) => (r.ok ? undefined : `${i}: ${r.messages.join(' | ')}`))
    .filter((x) => x !== undefined);
  assert.deepEqual(failed, []);
  // and Dawn runs every tenth one to the executor's words
  let agreed = 0;
  for (let k = 0; k < lifted.length; k += 10) {
    const v = await diffCompute(lifted[k]!, 7);
    assert.equal(v.kind, 'agree', `program ${k}: ${JSON.stringify(v).slice(0, 300)}`);
    agreed++;
  }
  assert.ok(agreed >= 15);
});

test('a swap of two phis on a back edge (the parallel copy) and a loop value used after the loop', () => {
  // x, y = tid, 100; loop 5 times: x, y = y, x + y ... the header's phis read each other.
  const m = withBody((c) => {
    const prog: S[] = [
      { k: 'set', v: 0, e: { k: 'tid' } },
      { k: 'set', v: 1, e: { k: 'const', n: 100 } },
      {
        k: 'loop',
        counter: 3,
        bound: 5,
        body: [
          { k: 'set', v: 2, e: { k: 'var', v: 0 } },
          { k: 'set', v: 0, e: { k: 'var', v: 1 } },
          { k: 'set', v: 1, e: { k: 'add', a: { k: 'var', v: 2 }, b: { k: 'var', v: 1 } } },
        ],
      },
    ];
    if (c.list(prog)) c.ret();
  }, 4);
  const got = run(m);
  for (let t = 0; t < 64; t++) {
    let x = t;
    let y = 100;
    let z = 0;
    for (let k = 0; k < 5; k++) [z, x, y] = [x, y, (x + y) >>> 0];
    const f = new Float32Array([x & 0xffffff, y & 0xffffff, z & 0xffffff, 1]);
    assert.deepEqual(got[t], Array.from(new Uint32Array(f.buffer)), `thread ${t}`);
  }
});

test('16-bit integers wrap, sign-extend and divide as DXIL defines, thread by thread', () => {
  // a = (5000 t + 30000) as i16; x = zext(a + 30000); y = zext(ashr(a, 3)); z = sext(sdiv(a, -7)), with
  // sdiv by zero (t = 0 gives a divisor 0 through select) all ones as the lifter documents
  const m = withBody((c) => {
    const i16 = new Type('int');
    i16.width = 16;
    const k16 = (n: number) => c.int(n, i16);
    const wide = c.inst('binop', c.int32, 0, [c.inst('binop', c.int32, 2, [c.threadIndex, c.int(5000)]), c.int(30000)]);
    const a = c.inst('cast', i16, 0, [wide]); // trunc
    c.set(0, c.inst('cast', c.int32, 1, [c.inst('binop', i16, 0, [a, k16(30000)])])); // zext(add)
    c.set(1, c.inst('cast', c.int32, 1, [c.inst('binop', i16, 9, [a, k16(3)])])); // zext(ashr)
    const t16 = c.inst('cast', i16, 0, [c.threadIndex]);
    const zero = c.inst('cmp', new Type('int'), 32, [t16, k16(0)]);
    zero.type.width = 1;
    const divisor = c.inst('select', i16, 0, [zero, k16(0), k16(0xfff9)]); // 0 at thread 0, else -7
    c.set(2, c.inst('cast', c.int32, 2, [c.inst('binop', i16, 4, [a, divisor])])); // sext(sdiv)
    c.ret();
  }, 3);
  const got = run(m);
  const s16 = (x: number) => ((x & 0xffff) << 16) >> 16;
  for (let t = 0; t < 64; t++) {
    const a = (5000 * t + 30000) & 0xffff;
    const x = (a + 30000) & 0xffff;
    const y = (s16(a) >> 3) & 0xffff;
    const z = t === 0 ? 0xffffffff : (((Math.trunc(s16(a) / -7) & 0xffff) << 16) >> 16) >>> 0;
    const f = new Float32Array([x & 0xffffff, y & 0xffffff, z & 0xffffff, 1]);
    assert.deepEqual(got[t], Array.from(new Uint32Array(f.buffer)), `thread ${t}: a = ${a}`);
  }
});

/** A module whose body is the fixture's own, edited by `edit` (for malformed cases). */
function edited(edit: (main: Func) => void): Module {
  const c = parseContainer(readBytes(FIXTURE));
  const m = readPartModule(c, 'DXIL')!;
  edit(m.functions.find((f) => f.name === 'main')!);
  return m;
}

test('an irreducible graph is refused by name, never mis-lifted', () => {
  // entry branches into both blocks of a two-block cycle: neither dominates the other
  const m = withBody((c) => {
    c.ret();
  });
  const main = m.functions.find((f) => f.name === 'main')!;
  const entry = main.blocks[0]!;
  const ret = entry.insts.pop()!; // the ret: entry now falls to the cycle
  const label = entry.type;
  const a = new Block(label, 1);
  const b = new Block(label, 2);
  const exit = new Block(label, 3);
  const i1 = m.types.find((t) => t.kind === 'int' && t.width === 1) ?? new Type('int');
  i1.width = 1;
  const cond = new Constant(i1, 'int');
  cond.bits = 1n;
  const br = (blocks: number[]) => {
    const i = new Instruction('br', ret.type);
    i.blocks = blocks;
    if (blocks.length === 2) i.ops = [cond];
    return i;
  };
  entry.insts.push(br([1, 2]));
  a.insts.push(br([2, 3]));
  b.insts.push(br([1, 3]));
  exit.insts.push(ret);
  main.blocks = [entry, a, b, exit];
  assert.throws(
    () => liftModule(m, 'DXIL', 0),
    (e: unknown) =>
      e instanceof IridiaError &&
      e.code === 'E601_LIFT_UNSUPPORTED' &&
      e.reason.startsWith('irreducible control flow:'),
  );
});

test('malformed bodies are typed errors naming the instruction: a phi short of a predecessor, a branch out of the function, a use before definition', () => {
  const isInvalid = (what: RegExp) => (e: unknown) =>
    e instanceof IridiaError && e.code === 'E602_LIFT_INVALID' && e.part === 'DXIL' && what.test(e.reason);
  // a loop whose header phi lists only the entry
  const phiShort = withBody((c) => {
    c.list([{ k: 'loop', counter: 3, bound: 2, body: [{ k: 'set', v: 0, e: { k: 'tid' } }] }]);
    c.ret();
  }, 4);
  const header = phiShort.functions.find((f) => f.name === 'main')!.blocks.find((b) => b.insts[0]?.op === 'phi')!;
  const phi = header.insts[0]!;
  phi.ops = phi.ops.slice(0, 1);
  phi.blocks = phi.blocks.slice(0, 1);
  assert.throws(() => liftModule(phiShort, 'DXIL', 0), isInvalid(/a phi has no value for its predecessor block \d+/));
  // a branch to block 7 of a one-block function
  const out = edited((main) => {
    const b = main.blocks[0]!;
    const ret = b.insts.pop()!;
    const br = new Instruction('br', ret.type);
    br.blocks = [7];
    b.insts.push(br);
  });
  assert.throws(() => liftModule(out, 'DXIL', 0), isInvalid(/branches to block 7, not in the function/));
  // the texture store moved before the thread-id call it reads
  const early = edited((main) => {
    const insts = main.blocks[0]!.insts;
    const store = insts.findIndex((i) => i.op === 'call' && i.callee?.name === 'dx.op.textureStore.f32');
    const [s] = insts.splice(store, 1);
    insts.splice(1, 0, s!);
  });
  assert.throws(() => liftModule(early, 'DXIL', 0), isInvalid(/is used before its definition/));
});

/** `main` as the blocks `succs` names (each ending in a br on a constant condition, or a ret). */
function graph(succs: readonly (readonly number[])[]): Module {
  const m = withBody((c) => {
    c.ret();
  });
  const main = m.functions.find((f) => f.name === 'main')!;
  const entry = main.blocks[0]!;
  const ret = entry.insts.pop()!;
  const i1 = m.types.find((t) => t.kind === 'int' && t.width === 1) ?? new Type('int');
  i1.width = 1;
  const cond = new Constant(i1, 'int');
  cond.bits = 1n;
  main.blocks = succs.map((ss, k) => {
    const b = k === 0 ? entry : new Block(entry.type, k);
    if (ss.length === 0) b.insts.push(ret);
    else {
      const br = new Instruction('br', ret.type);
      br.blocks = [...ss];
      if (ss.length === 2) br.ops = [cond];
      b.insts.push(br);
    }
    return b;
  });
  return m;
}

test('a run of 6,000 if/else diamonds lifts (its structuring recursed once a diamond and overflowed the stack)', () => {
  const diamonds = (n: number): number[][] => {
    const succs: number[][] = [];
    for (let k = 0; k < n; k++) succs.push([3 * k + 1, 3 * k + 2], [3 * k + 3], [3 * k + 3]);
    succs.push([]);
    return succs;
  };
  const ifs = (n: number): number => {
    const p = liftModule(graph(diamonds(n)), 'DXIL', 0);
    assert.deepEqual(validateModule(p.module), []);
    return p.module.functions[p.module.entryPoints[0]!.function]!.body.filter((s) => s.op === 'if').length;
  };
  // one if a diamond, one after another (beside those the fixture's own code makes)
  assert.equal(ifs(6000) - ifs(1), 5999);
});

test('loops nested 30,000 deep are refused by name (their bodies held the blocks times the nesting)', () => {
  // block 0 enters header 1; header k goes into header k + 1; the innermost's latch (block d + 1) and
  // each latch after it branch back to their header or on to the next latch; the last one returns
  const d = 30000;
  const succs: number[][] = [[1]];
  for (let k = 1; k <= d; k++) succs.push([k + 1]);
  for (let j = 0; j < d; j++) succs.push([d - j, d + 2 + j]);
  succs.push([]);
  assert.throws(
    () => liftModule(graph(succs), 'DXIL', 0),
    (e: unknown) =>
      e instanceof IridiaError && e.code === 'E601_LIFT_UNSUPPORTED' && /loops nested too deeply/.test(e.message),
  );
});

test('ifs nested 30,000 deep are refused by name, not a crash of the structuring', () => {
  // head k branches into head k + 1 or to its merge; the innermost body goes to the innermost merge;
  // each merge goes on to the one around it, and the outermost returns
  const d = 30000;
  const merge = (k: number): number => 2 * d - k;
  const succs: number[][] = [];
  for (let k = 0; k < d; k++) succs.push([k + 1, merge(k)]);
  succs.push([merge(d - 1)]);
  for (let k = d - 1; k >= 0; k--) succs.push(k === 0 ? [] : [merge(k - 1)]);
  assert.throws(
    () => liftModule(graph(succs), 'DXIL', 0),
    (e: unknown) =>
      e instanceof IridiaError &&
      e.code === 'E601_LIFT_UNSUPPORTED' &&
      /control flow nested too deeply/.test(e.message),
  );
});
