// The executor's core: one IR function run over n lanes in lockstep (SIMT). Expressions are
// evaluated for every lane of the batch (they are pure, ir.ts "Evaluation"); statements act on the
// lanes of an execution mask, which `if`, `loop`, `switch`, `break`, `continue`, `return` and `kill`
// narrow and widen. Lockstep gives the semantics the stages need: a compute batch is one thread
// group, so a barrier is every lane reaching the same statement (nothing to wait for) and groupshared
// memory is shared; a pixel batch is whole 2x2 quads (lanes 4q..4q+3: top-left, top-right,
// bottom-left, bottom-right), so derivatives difference neighbours that ran the same statements, and a
// discarded lane goes on as a helper whose writes are dropped. Atomics apply lane by lane in lane
// order, so a run is deterministic.

import type { Block, Expr, Function as IrFunction, Module, Scalar, Stmt, SubgroupReduce, Type } from '../ir/ir.js';
import { IrTypeError, resolveFunction, scalarOf, type Resolved } from '../ir/typeof.js';
import { budgetError, reserveWords } from './budget.js';
import { IridiaError } from '../errors.js';
import { layoutOf, memberOffset, memberType } from './layout.js';
import { binary, bitcast, convert, math, unary } from './ops.js';
import {
  V,
  isV,
  type ExecTexture,
  type Handle,
  type Item,
  type Ptr,
  type SampleCallback,
  type SampleRequest,
} from './values.js';
import { f32ToBits, bitsToF32, d3dMax, d3dMin, f32, f16BitsToF32, f32ToF16Bits } from './float.js';
import type { AccessKind, AccessTrace } from './races.js';

function fail(why: string): never {
  throw new IridiaError('E701_EXEC_ERROR', why);
}

/** Everything a run shares between its invocations: the module, bound memory, callbacks. */
export interface Context {
  readonly module: Module;
  /** Global storage by GlobalId: for uniform/storage/workgroup a single memory; private: per lane. */
  globalMem(global: number, n: number): { mem?: Uint32Array; mems: Uint32Array[]; base: Int32Array } | undefined;
  /** A buffer of a binding array element, by binding key. */
  bufferAt(key: string): Uint32Array | undefined;
  textureAt(key: string): ExecTexture | undefined;
  readonly sample: SampleCallback | undefined;
  /** Lanes in a wave (ir.ts "Subgroups"); default WAVE_SIZE. */
  readonly waveSize?: number;
  /** Geometry emit/cut, with the lanes doing it. */
  emit?(stream: number, mask: Uint8Array): void;
  cut?(stream: number, mask: Uint8Array): void;
  /** Statement budget: a run past it is an error (a program that never ends). */
  budget: number;
  /** Told every access to shared memory (storage buffers and images, groupshared) and every barrier:
   * races.ts finds data races with it. */
  readonly trace?: AccessTrace | undefined;
}

const resolvedCache = new WeakMap<IrFunction, Resolved[]>();

function resolved(m: Module, f: IrFunction): Resolved[] {
  let r = resolvedCache.get(f);
  if (!r) {
    try {
      r = resolveFunction(m, f);
    } catch (e) {
      // a module that does not type-check (one built by hand: the lifters' output validates)
      if (e instanceof IrTypeError) fail(`function ${f.name} does not type-check: ${e.message}`);
      throw e;
    }
    resolvedCache.set(f, r);
  }
  return r;
}

/** Atomics whose order changes neither the memory nor (results unused) anything else. */
const COMMUTATIVE = new Set(['add', 'and', 'or', 'xor', 'min', 'max', 'min_s', 'max_s', 'min_u', 'max_u']);

function any(mask: Uint8Array): boolean {
  for (let l = 0; l < mask.length; l++) if (mask[l]) return true;
  return false;
}

/** Flow state of the innermost loop/switch while its body runs. */
interface Frame {
  readonly isLoop: boolean;
  readonly broke: Uint8Array;
  readonly continued: Uint8Array;
}

export class Invocation {
  readonly n: number;
  private readonly f: IrFunction;
  private readonly types: Resolved[];
  private readonly lets = new Map<number, V>();
  private readonly locals: Uint32Array[];
  private readonly frames: Frame[] = [];
  /** Lanes that have returned, and the value each returned. */
  readonly returned: Uint8Array;
  result: V | undefined;
  /** The execution mask of the statement being run (the lanes whose loads an access trace sees). */
  private cur: Uint8Array | undefined;

  constructor(
    private readonly ctx: Context,
    fnId: number,
    private readonly args: readonly V[],
    /** Lanes that are helpers (or discarded): their writes to shared memory are dropped. */
    readonly helper: Uint8Array,
  ) {
    const f = ctx.module.functions[fnId];
    if (!f) fail(`function ${fnId} out of range`);
    this.f = f;
    this.n = helper.length;
    this.types = resolved(ctx.module, f);
    this.returned = new Uint8Array(this.n);
    const m = ctx.module;
    const sizes = f.locals.map((l) => layoutOf(m, this.typeOf(l.type)).size * this.n);
    reserveWords(
      sizes.reduce((a, b) => a + b, 0),
      `the locals of function ${f.name} over ${this.n} lanes`,
    );
    this.locals = sizes.map((w) => new Uint32Array(w));
    const all = new Uint8Array(this.n).fill(1);
    f.locals.forEach((l, i) => {
      if (l.init !== undefined) this.storeTo(this.localPtr(i), this.value(l.init), all);
    });
    if (f.result) {
      this.result = new V(this.n, layoutOf(m, this.typeOf(f.result.type)).size);
    }
  }

  private typeOf(id: number): Type {
    const t = this.ctx.module.types[id];
    if (!t) fail(`type ${id} out of range`);
    return t;
  }

  /** Runs the body for the lanes of `mask` (1 = runs). */
  run(mask: Uint8Array): void {
    this.block(this.f.body, mask.slice());
  }

  // ---- statements ----

  private block(b: Block, mask: Uint8Array): void {
    for (const s of b) {
      if (!any(mask)) return;
      if (--this.ctx.budget < 0) throw budgetError('statement', 'a batch ran on (a loop that does not end?)');
      this.stmt(s, mask);
    }
  }

  private stmt(s: Stmt, mask: Uint8Array): void {
    const n = this.n;
    this.cur = mask;
    switch (s.op) {
      case 'let':
        this.lets.set(s.let, this.value(s.value));
        return;
      case 'store': {
        const p = this.item(s.pointer);
        if (p.kind !== 'ptr') fail('store through a non-pointer');
        this.storeTo(p, this.value(s.value), mask);
        return;
      }
      case 'if': {
        const c = this.value(s.cond);
        const a = new Uint8Array(n);
        const r = new Uint8Array(n);
        for (let l = 0; l < n; l++) if (mask[l]) (c.u[l] ? a : r)[l] = 1;
        this.block(s.accept, a);
        this.block(s.reject, r);
        for (let l = 0; l < n; l++) mask[l] = a[l]! | r[l]!;
        return;
      }
      case 'loop': {
        const live = mask.slice();
        const frame: Frame = { isLoop: true, broke: new Uint8Array(n), continued: new Uint8Array(n) };
        this.frames.push(frame);
        while (any(live)) {
          // an iteration counts as a statement, so that an empty loop meets the budget too
          if (--this.ctx.budget < 0) throw budgetError('statement', 'a batch ran on (a loop that does not end?)');
          frame.continued.fill(0);
          this.block(s.body, live);
          for (let l = 0; l < n; l++) live[l] = live[l]! | frame.continued[l]!;
        }
        this.frames.pop();
        mask.set(frame.broke);
        return;
      }
      case 'switch': {
        const sel = this.value(s.selector);
        const frame: Frame = { isLoop: false, broke: new Uint8Array(n), continued: new Uint8Array(n) };
        this.frames.push(frame);
        const taken = new Uint8Array(n);
        const after = new Uint8Array(n);
        const runCase = (body: Block, lanes: Uint8Array): void => {
          this.block(body, lanes);
          for (let l = 0; l < n; l++) after[l] = after[l]! | lanes[l]!;
        };
        for (const c of s.cases) {
          if (c.isDefault) continue;
          const lanes = new Uint8Array(n);
          for (let l = 0; l < n; l++)
            if (mask[l] && !taken[l] && c.values.includes(sel.u[l]!)) {
              lanes[l] = 1;
              taken[l] = 1;
            }
          if (any(lanes)) runCase(c.body, lanes);
        }
        const dflt = s.cases.find((c) => c.isDefault);
        if (dflt) {
          const lanes = new Uint8Array(n);
          for (let l = 0; l < n; l++) if (mask[l] && !taken[l]) lanes[l] = 1;
          if (any(lanes)) runCase(dflt.body, lanes);
        } else for (let l = 0; l < n; l++) if (mask[l] && !taken[l]) after[l] = 1;
        this.frames.pop();
        // A `continue` inside a switch belongs to the enclosing loop (already recorded there).
        for (let l = 0; l < n; l++) mask[l] = after[l]! | frame.broke[l]!;
        return;
      }
      case 'break': {
        const fr = this.frames[this.frames.length - 1];
        if (!fr) fail('break outside a loop or switch');
        for (let l = 0; l < n; l++) if (mask[l]) fr.broke[l] = 1;
        mask.fill(0);
        return;
      }
      case 'continue': {
        const fr = [...this.frames].reverse().find((x) => x.isLoop);
        if (!fr) fail('continue outside a loop');
        for (let l = 0; l < n; l++) if (mask[l]) fr.continued[l] = 1;
        mask.fill(0);
        return;
      }
      case 'return': {
        if (s.value !== undefined && this.result) {
          const v = this.value(s.value);
          const r = this.result;
          for (let l = 0; l < n; l++) if (mask[l]) for (let k = 0; k < r.w; k++) r.u[k * n + l] = v.u[k * n + l]!;
        }
        for (let l = 0; l < n; l++) if (mask[l]) this.returned[l] = 1;
        mask.fill(0);
        return;
      }
      case 'kill':
        // The lane's outputs are dropped; it goes on as a helper so its quad's derivatives stay defined.
        for (let l = 0; l < n; l++) if (mask[l]) this.helper[l] = 1;
        return;
      case 'barrier':
        // Lockstep: every lane of the group is at this statement with its earlier writes done.
        this.ctx.trace?.barrier();
        return;
      case 'atomic':
        this.atomic(s, mask);
        return;
      case 'atomic64':
        this.atomic64(s, mask);
        return;
      case 'image_store':
        this.imageStore(s, mask);
        return;
      case 'subgroup':
        this.lets.set(s.result, this.subgroup(s, mask));
        return;
      case 'call': {
        const args = s.args.map((a) => this.value(a));
        const inv = new Invocation(this.ctx, s.fn, args, this.helper);
        inv.run(mask);
        if (s.result !== undefined) {
          if (!inv.result) fail('call result of a function without one');
          this.lets.set(s.result, inv.result);
        }
        return;
      }
      case 'emit':
        if (!this.ctx.emit) fail('emit outside a geometry run');
        this.ctx.emit(s.stream, mask);
        return;
      case 'cut':
        if (!this.ctx.cut) fail('cut outside a geometry run');
        this.ctx.cut(s.stream, mask);
        return;
    }
  }

  private atomic(s: Extract<Stmt, { op: 'atomic' }>, mask: Uint8Array): void {
    const p = this.item(s.pointer);
    if (p.kind !== 'ptr') fail('atomic on a non-pointer');
    const signed = scalarOf(p.type) === 'i32';
    const v = s.value !== undefined ? this.value(s.value) : undefined;
    const c = s.compare !== undefined ? this.value(s.compare) : undefined;
    const out = new V(this.n, 1);
    const trace = p.shared ? this.ctx.trace : undefined;
    const kind: AccessKind =
      s.fn === 'load' ? 'read' : s.result === undefined && COMMUTATIVE.has(s.fn) ? 'atomic' : 'ordered_atomic';
    for (let l = 0; l < this.n; l++) {
      if (!mask[l]) continue;
      const a = p.addr[l]!;
      if (a < 0) continue;
      const mem = (p.mem ?? p.mems[l])!;
      const old = mem[a]!;
      out.u[l] = old;
      if (this.helper[l] && p.shared) continue;
      if (trace && a < mem.length) trace.access(mem, a, l, kind);
      const x = v ? v.u[l]! : 0;
      let nw = old;
      switch (s.fn) {
        case 'add':
          nw = (old + x) >>> 0;
          break;
        case 'and':
          nw = old & x;
          break;
        case 'or':
          nw = old | x;
          break;
        case 'xor':
          nw = old ^ x;
          break;
        case 'min':
          nw = signed ? Math.min(old | 0, x | 0) : Math.min(old, x);
          break;
        case 'max':
          nw = signed ? Math.max(old | 0, x | 0) : Math.max(old, x);
          break;
        case 'exchange':
          nw = x;
          break;
        case 'compare_exchange':
          if (old === c!.u[l]) nw = x;
          break;
        case 'load':
          break;
      }
      mem[a] = nw >>> 0;
    }
    if (s.result !== undefined) this.lets.set(s.result, out);
  }

  /** A 64-bit atomic (ir.ts atomic64): each lane in turn reads both words, computes and writes both,
   * so no other lane's access comes between (the lanes run one at a time). */
  private atomic64(s: Extract<Stmt, { op: 'atomic64' }>, mask: Uint8Array): void {
    const lo = this.item(s.low);
    const hi = this.item(s.high);
    if (lo.kind !== 'ptr' || hi.kind !== 'ptr') fail('atomic64 on a non-pointer');
    const n = this.n;
    const v = this.value(s.value);
    const c = s.compare !== undefined ? this.value(s.compare) : undefined;
    const out = new V(n, 2);
    const kind: AccessKind = s.result === undefined && COMMUTATIVE.has(s.fn) ? 'atomic' : 'ordered_atomic';
    const word = (l: number, k: number): bigint => BigInt(v.u[k * n + l]!);
    for (let l = 0; l < n; l++) {
      if (!mask[l]) continue;
      const a = lo.addr[l]!;
      const b = hi.addr[l]!;
      const memA = (lo.mem ?? lo.mems[l])!;
      const memB = (hi.mem ?? hi.mems[l])!;
      if (a < 0 || b < 0 || a >= memA.length || b >= memB.length) continue;
      const old = BigInt(memA[a]!) | (BigInt(memB[b]!) << 32n);
      out.u[l] = memA[a]!;
      out.u[n + l] = memB[b]!;
      if (this.helper[l] && (lo.shared || hi.shared)) continue;
      if (lo.shared) this.ctx.trace?.access(memA, a, l, kind);
      if (hi.shared) this.ctx.trace?.access(memB, b, l, kind);
      const x = word(l, 0) | (word(l, 1) << 32n);
      const sx = BigInt.asIntN(64, x);
      const so = BigInt.asIntN(64, old);
      let nw = old;
      switch (s.fn) {
        case 'add':
          nw = old + x;
          break;
        case 'and':
          nw = old & x;
          break;
        case 'or':
          nw = old | x;
          break;
        case 'xor':
          nw = old ^ x;
          break;
        case 'min_s':
          nw = sx < so ? x : old;
          break;
        case 'max_s':
          nw = sx > so ? x : old;
          break;
        case 'min_u':
          nw = x < old ? x : old;
          break;
        case 'max_u':
          nw = x > old ? x : old;
          break;
        case 'exchange':
          nw = x;
          break;
        case 'compare_exchange':
          if (old === (BigInt(c!.u[l]!) | (BigInt(c!.u[n + l]!) << 32n))) nw = x;
          break;
      }
      nw = BigInt.asUintN(64, nw);
      memA[a] = Number(nw & 0xffffffffn);
      memB[b] = Number(nw >> 32n);
    }
    if (s.result !== undefined) this.lets.set(s.result, out);
  }

  /** A wave or quad operation over the lanes of `mask` (ir.ts "Subgroups"): waves are WAVE_SIZE
   * lanes in batch order, quads 4 lanes (4q..4q+3); helper lanes take no part in wave operations. */
  private subgroup(s: Extract<Stmt, { op: 'subgroup' }>, mask: Uint8Array): V {
    const n = this.n;
    const a = s.argument !== undefined ? this.value(s.argument) : undefined;
    const index = s.index !== undefined ? this.value(s.index) : undefined;
    const quad = { quad_broadcast: -1, quad_swap_x: 1, quad_swap_y: 2, quad_swap_diagonal: 3 }[s.fn as string];
    if (quad !== undefined) {
      // Quad lanes are read whether active or helper: the operand as evaluated in that lane.
      const out = new V(n, a!.w);
      for (let l = 0; l < n; l++) {
        const from = (l & ~3) | (quad < 0 ? index!.u[l]! & 3 : (l & 3) ^ quad);
        if (from < n) for (let k = 0; k < out.w; k++) out.u[k * n + l] = a!.u[k * n + from]!;
      }
      return out;
    }
    const active = new Uint8Array(n);
    for (let l = 0; l < n; l++) active[l] = mask[l] && !this.helper[l] ? 1 : 0;
    const w = s.fn === 'ballot' ? 4 : s.fn === 'elect' || s.fn === 'all' || s.fn === 'any' ? 1 : a!.w;
    const out = new V(n, w);
    const fold = s.reduce !== undefined ? folder(s.reduce, this.scalarAt(s.argument!)) : undefined;
    const size = this.ctx.waveSize ?? WAVE_SIZE;
    for (let base = 0; base < n; base += size) {
      const end = Math.min(n, base + size);
      let first = -1;
      for (let l = base; l < end; l++)
        if (active[l]) {
          first = l;
          break;
        }
      if (first < 0) continue;
      switch (s.fn) {
        case 'elect':
          out.u[first] = 1;
          break;
        case 'all':
        case 'any': {
          let all = 1;
          let some = 0;
          for (let l = base; l < end; l++)
            if (active[l]) {
              if (a!.u[l]) some = 1;
              else all = 0;
            }
          for (let l = base; l < end; l++) if (active[l]) out.u[l] = s.fn === 'all' ? all : some;
          break;
        }
        case 'ballot': {
          const bits = [0, 0, 0, 0];
          for (let l = base; l < end; l++)
            if (active[l] && a!.u[l]) bits[(l - base) >> 5] = (bits[(l - base) >> 5]! | (1 << ((l - base) & 31))) >>> 0;
          for (let l = base; l < end; l++) if (active[l]) for (let k = 0; k < 4; k++) out.u[k * n + l] = bits[k]!;
          break;
        }
        case 'broadcast_first':
          for (let l = base; l < end; l++)
            if (active[l]) for (let k = 0; k < w; k++) out.u[k * n + l] = a!.u[k * n + first]!;
          break;
        case 'shuffle':
          for (let l = base; l < end; l++) {
            if (!active[l]) continue;
            const id = index!.u[l]!;
            const from = base + id;
            if (id >= size || from >= end || !active[from]) continue; // unspecified: zero
            for (let k = 0; k < w; k++) out.u[k * n + l] = a!.u[k * n + from]!;
          }
          break;
        case 'reduce':
        case 'exclusive_scan':
        case 'inclusive_scan':
          for (let k = 0; k < w; k++) {
            const at = k * n;
            if (s.fn === 'reduce') {
              let acc: number | undefined;
              for (let l = base; l < end; l++)
                if (active[l]) acc = acc === undefined ? a!.u[at + l]! : fold!(acc, a!.u[at + l]!);
              for (let l = base; l < end; l++) if (active[l]) out.u[at + l] = acc!;
            } else {
              let acc = identityOf(s.reduce!, this.scalarAt(s.argument!));
              for (let l = base; l < end; l++) {
                if (!active[l]) continue;
                const next = fold!(acc, a!.u[at + l]!);
                out.u[at + l] = s.fn === 'inclusive_scan' ? next : acc;
                acc = next;
              }
            }
          }
          break;
        case 'quad_broadcast':
        case 'quad_swap_x':
        case 'quad_swap_y':
        case 'quad_swap_diagonal':
          break; // handled above
      }
    }
    return out;
  }

  private storeTo(p: Ptr, v: V, mask: Uint8Array): void {
    const n = this.n;
    const w = v.w;
    for (let l = 0; l < n; l++) {
      if (!mask[l]) continue;
      const a = p.addr[l]!;
      if (a < 0 || (p.shared && this.helper[l])) continue;
      const mem = (p.mem ?? p.mems[l])!;
      if (a + w > mem.length) continue;
      if (p.shared && this.ctx.trace)
        for (let k = 0; k < w; k++) this.ctx.trace.access(mem, a + k, l, 'write', mem[a + k]!, v.u[k * n + l]!);
      for (let k = 0; k < w; k++) mem[a + k] = v.u[k * n + l]!;
    }
  }

  // ---- expressions ----

  /** The expression as a value (fails on a pointer or handle). */
  value(e: number): V {
    const x = this.item(e);
    if (!isV(x)) fail(`expression %${e} is a ${x.kind}, not a value`);
    return x;
  }

  private handle(e: number): Handle {
    const x = this.item(e);
    if (isV(x) || x.kind !== 'handle') fail(`expression %${e} is not a texture or sampler`);
    return x;
  }

  private typeAt(e: number): Type {
    const r = this.types[e];
    if (!r) fail(`expression %${e} out of range`);
    return r.type;
  }

  private scalarAt(e: number): Scalar {
    return scalarOf(this.typeAt(e)) ?? 'u32';
  }

  private wordsOf(t: Type): number {
    return layoutOf(this.ctx.module, t).size;
  }

  private readonly localPtrs: Array<Ptr | undefined> = [];

  private localPtr(i: number): Ptr {
    const hit = this.localPtrs[i];
    if (hit) return hit;
    const type = this.typeOf(this.f.locals[i]!.type);
    const size = layoutOf(this.ctx.module, type).size;
    const addr = new Int32Array(this.n);
    for (let l = 0; l < this.n; l++) addr[l] = l * size;
    const p: Ptr = { kind: 'ptr', type, mem: this.locals[i]!, mems: [], addr, shared: false };
    this.localPtrs[i] = p;
    return p;
  }

  item(e: number): Item {
    const x = this.f.exprs[e];
    if (!x) fail(`expression %${e} out of range`);
    return this.evalExpr(x, e);
  }

  private evalExpr(x: Expr, e: number): Item {
    const n = this.n;
    const m = this.ctx.module;
    switch (x.op) {
      case 'literal': {
        const v = new V(n, 1);
        v.u.fill(x.bits >>> 0);
        return v;
      }
      case 'zero':
        return new V(n, this.wordsOf(this.typeOf(x.type)));
      case 'constant': {
        const c = m.constants[x.constant];
        if (!c) fail(`constant ${x.constant} out of range`);
        const w = this.wordsOf(this.typeOf(c.type));
        const v = new V(n, w);
        for (let k = 0; k < w; k++) v.u.fill((c.words[k] ?? 0) >>> 0, k * n, (k + 1) * n);
        return v;
      }
      case 'compose': {
        const t = this.typeOf(x.type);
        const v = new V(n, this.wordsOf(t));
        let off = 0;
        x.parts.forEach((p, i) => {
          const pv = this.value(p);
          const at = t.kind === 'vector' ? off : memberOffset(m, t, i);
          v.u.set(pv.u, at * n);
          off += pv.w;
        });
        return v;
      }
      case 'splat': {
        const a = this.value(x.value);
        const v = new V(n, x.size);
        for (let k = 0; k < x.size; k++) v.u.set(a.u, k * n);
        return v;
      }
      case 'swizzle': {
        const a = this.value(x.vector);
        const v = new V(n, x.pattern.length);
        x.pattern.forEach((c, k) => v.u.set(a.u.subarray(c * n, (c + 1) * n), k * n));
        return v;
      }
      case 'arg': {
        const a = this.args[x.index];
        if (!a) fail(`argument ${x.index} not given`);
        return a;
      }
      case 'global': {
        const g = m.globals[x.global];
        if (!g) fail(`global ${x.global} out of range`);
        const t = this.typeOf(g.type);
        if (g.space === 'handle') {
          const key = g.binding ? `${g.binding.group}:${g.binding.binding}` : `global:${x.global}`;
          return { kind: 'handle', type: t, keys: new Array<string>(n).fill(key) };
        }
        const mem = this.ctx.globalMem(x.global, n);
        if (!mem)
          fail(`global ${g.name} (${g.binding ? `${g.binding.group}:${g.binding.binding}` : g.space}) is not bound`);
        return {
          kind: 'ptr',
          type: t,
          ...(mem.mem ? { mem: mem.mem } : {}),
          mems: mem.mems,
          addr: mem.base,
          shared: g.space === 'storage' || g.space === 'workgroup',
        };
      }
      case 'local':
        return this.localPtr(x.local);
      case 'let': {
        const v = this.lets.get(x.let);
        if (!v) fail(`let ${x.let} read before it is bound`);
        return v;
      }
      case 'access':
      case 'member':
        return this.access(x, e);
      case 'load': {
        const p = this.item(x.pointer);
        if (p.kind !== 'ptr') fail('load of a non-pointer');
        const w = this.wordsOf(p.type);
        const v = new V(n, w);
        const trace = p.shared ? this.ctx.trace : undefined;
        for (let l = 0; l < n; l++) {
          const a = p.addr[l]!;
          if (a < 0) continue;
          const mem = (p.mem ?? p.mems[l])!;
          for (let k = 0; k < w; k++) v.u[k * n + l] = mem[a + k] ?? 0;
          if (trace && this.cur?.[l] && !this.helper[l])
            for (let k = 0; k < w && a + k < mem.length; k++) trace.access(mem, a + k, l, 'read');
        }
        return v;
      }
      case 'unary':
        return unary(x.fn, this.scalarAt(x.arg), this.value(x.arg));
      case 'binary':
        return binary(x.fn, this.scalarAt(x.left), this.value(x.left), this.value(x.right));
      case 'select': {
        const c = this.value(x.cond);
        const a = this.value(x.accept);
        const r = this.value(x.reject);
        const v = new V(n, a.w);
        for (let k = 0; k < a.w; k++)
          for (let l = 0; l < n; l++) {
            const cond = c.w === 1 ? c.u[l] : c.u[k * n + l];
            v.u[k * n + l] = cond ? a.u[k * n + l]! : r.u[k * n + l]!;
          }
        return v;
      }
      case 'math': {
        const args = x.args.map((a) => this.value(a));
        return math(x.fn, this.scalarAt(x.args[0]!), args, this.wordsOf(this.typeAt(e)));
      }
      case 'bitcast':
        return bitcast(this.value(x.value));
      case 'convert':
        return convert(this.scalarAt(x.value), x.to, this.value(x.value));
      case 'derivative':
        return this.derivative(x.axis, x.control, this.value(x.value));
      case 'sample':
        return this.sample(x, e);
      case 'image_load':
        return this.imageLoad(x);
      case 'image_query':
        return this.imageQuery(x);
      case 'array_length': {
        const p = this.item(x.pointer);
        if (p.kind !== 'ptr') fail('array_length of a non-pointer');
        if (p.type.kind !== 'array') fail('array_length of a non-array');
        const stride = layoutOf(m, p.type).stride!;
        const v = new V(n, 1);
        for (let l = 0; l < n; l++) {
          const mem = p.mem ?? p.mems[l];
          v.u[l] = mem && p.addr[l]! >= 0 ? Math.max(0, Math.floor((mem.length - p.addr[l]!) / stride)) : 0;
        }
        return v;
      }
    }
  }

  private access(x: Extract<Expr, { op: 'access' } | { op: 'member' }>, e: number): Item {
    const n = this.n;
    const m = this.ctx.module;
    const base = this.item(x.base);
    let idx: Uint32Array | undefined;
    if (x.op === 'access') idx = this.value(x.index).u;
    const at = (l: number): number => (idx ? idx[l]! : (x as { index: number }).index);
    const t = this.typeAt(x.base);
    const count =
      t.kind === 'array' || t.kind === 'binding_array'
        ? t.kind === 'array'
          ? t.length
          : t.size
        : t.kind === 'vector'
          ? t.size
          : null;
    if (base.kind === 'handle') {
      const keys = base.keys.map((k, l) => (k && (count === null || at(l) < count) ? `${k}:${at(l)}` : ''));
      return { kind: 'handle', type: memberType(m, t, 0), keys };
    }
    if (base.kind === 'ptr' && t.kind === 'binding_array') {
      // A binding array of buffers: each lane's element is a buffer of its own.
      const g = this.f.exprs[x.base];
      const gl = g && g.op === 'global' ? m.globals[g.global] : undefined;
      const key = gl?.binding ? `${gl.binding.group}:${gl.binding.binding}` : '';
      const mems: Uint32Array[] = [];
      const addr = new Int32Array(n);
      const empty = new Uint32Array(0);
      for (let l = 0; l < n; l++) {
        const buf = count === null || at(l) < count ? this.ctx.bufferAt(`${key}:${at(l)}`) : undefined;
        mems.push(buf ?? empty);
        addr[l] = buf ? 0 : -1;
      }
      return { kind: 'ptr', type: memberType(m, t, 0), mems, addr, shared: base.shared };
    }
    const et = memberType(m, t, x.op === 'member' ? x.index : 0);
    if (isV(base)) {
      const w = this.wordsOf(et);
      const v = new V(n, w);
      for (let l = 0; l < n; l++) {
        const i = at(l);
        if (count !== null && i >= count) continue;
        const off = t.kind === 'struct' ? memberOffset(m, t, i) : t.kind === 'array' ? memberOffset(m, t, i) : i;
        for (let k = 0; k < w; k++) v.u[k * n + l] = base.u[(off + k) * n + l] ?? 0;
      }
      void e;
      return v;
    }
    const addr = new Int32Array(n);
    const stride = t.kind === 'array' ? layoutOf(m, t).stride! : 1;
    for (let l = 0; l < n; l++) {
      const a = base.addr[l]!;
      const i = at(l);
      if (a < 0) {
        addr[l] = -1;
        continue;
      }
      let limit = count;
      if (limit === null) limit = Math.floor(((base.mem ?? base.mems[l])!.length - a) / stride);
      if (t.kind !== 'struct' && i >= limit) {
        addr[l] = -1;
        continue;
      }
      addr[l] = a + memberOffset(m, t, i);
    }
    return {
      kind: 'ptr',
      type: et,
      ...(base.mem ? { mem: base.mem } : {}),
      mems: base.mems,
      addr,
      shared: base.shared,
    };
  }

  private derivative(axis: 'x' | 'y' | 'width', control: 'coarse' | 'fine' | 'none', v: V): V {
    const n = this.n;
    const o = new V(n, v.w);
    const fine = control === 'fine';
    const src = v.f;
    for (let k = 0; k < v.w; k++) {
      const base = k * n;
      for (let l = 0; l < n; l++) {
        const q = base + (l & ~3);
        const p = l & 3;
        // coarse: the quad's top-left pixel against its right and lower neighbours; fine: this
        // pixel's own row (for x) or column (for y) of the quad
        const dx = fine ? src[q + ((p & 2) | 1)]! - src[q + (p & 2)]! : src[q + 1]! - src[q]!;
        const dy = fine ? src[q + ((p & 1) | 2)]! - src[q + (p & 1)]! : src[q + 2]! - src[q]!;
        o.f[base + l] = axis === 'x' ? f32(dx) : axis === 'y' ? f32(dy) : f32(Math.abs(f32(dx)) + Math.abs(f32(dy)));
      }
    }
    return o;
  }

  private sample(x: Extract<Expr, { op: 'sample' }>, e: number): V {
    const n = this.n;
    const cb = this.ctx.sample;
    if (!cb) fail('a sample instruction ran but no sampling callback was given');
    const img = this.handle(x.image);
    const smp = this.handle(x.sampler);
    const coord = this.value(x.coord);
    const arr = x.arrayIndex !== undefined ? this.value(x.arrayIndex) : undefined;
    const off = x.offset !== undefined ? this.value(x.offset) : undefined;
    const dref = x.depthRef !== undefined ? this.value(x.depthRef) : undefined;
    const clamp = x.clamp !== undefined ? this.value(x.clamp) : undefined;
    const lvl = x.level;
    const lvlV = lvl.kind === 'exact' ? this.value(lvl.level) : lvl.kind === 'bias' ? this.value(lvl.bias) : undefined;
    const gx = lvl.kind === 'gradient' ? this.value(lvl.x) : undefined;
    const gy = lvl.kind === 'gradient' ? this.value(lvl.y) : undefined;
    const implicit = lvl.kind === 'auto' || lvl.kind === 'bias';
    const ddx = implicit ? this.derivative('x', 'coarse', coord) : undefined;
    const ddy = implicit ? this.derivative('y', 'coarse', coord) : undefined;
    const floats = (v: V | undefined, l: number): number[] => {
      const out: number[] = [];
      if (v) for (let k = 0; k < v.w; k++) out.push(v.f[k * n + l]!);
      return out;
    };
    const scalarResult = this.wordsOf(this.typeAt(e)) === 1;
    const o = new V(n, scalarResult ? 1 : 4);
    for (let l = 0; l < n; l++) {
      let level: SampleRequest['level'];
      switch (lvl.kind) {
        case 'auto':
          level = { kind: 'auto', ddx: floats(ddx, l), ddy: floats(ddy, l) };
          break;
        case 'zero':
          level = { kind: 'zero' };
          break;
        case 'exact':
          level = { kind: 'exact', level: levelVal(l) };
          break;
        case 'bias':
          level = { kind: 'bias', bias: levelVal(l), ddx: floats(ddx, l), ddy: floats(ddy, l) };
          break;
        case 'gradient':
          level = { kind: 'gradient', ddx: floats(gx, l), ddy: floats(gy, l) };
          break;
      }
      const req: SampleRequest = {
        texture: img.keys[l]!,
        sampler: smp.keys[l]!,
        coord: floats(coord, l),
        level,
        lane: l,
        ...(arr ? { arrayIndex: arr.w === 1 ? arr.i[l]! : 0 } : {}),
        ...(off ? { offset: Array.from({ length: off.w }, (_, k) => off.i[k * n + l]!) } : {}),
        ...(dref ? { depthRef: dref.f[l]! } : {}),
        ...(x.gather !== undefined ? { gather: x.gather } : {}),
        ...(clamp ? { clamp: clamp.f[l]! } : {}),
      };
      const words = cb(req);
      for (let k = 0; k < o.w; k++) o.u[k * n + l] = (words[k] ?? 0) >>> 0;
    }
    return o;
    function levelVal(l: number): number {
      return lvlV ? (lvlV.f[l] ?? 0) : 0;
    }
  }

  private texel(
    img: Handle,
    l: number,
    coord: V,
    arr: V | undefined,
    level: number,
  ): { tex: ExecTexture; index: number } | undefined {
    const tex = this.ctx.textureAt(img.keys[l]!);
    if (!tex) return undefined;
    const t = img.type;
    if (t.kind !== 'image') return undefined;
    const n = this.n;
    const lv = tex.levels[level];
    if (!lv || level < 0) return undefined;
    const w = Math.max(1, tex.width >> level);
    const h = t.dim === '1d' ? 1 : Math.max(1, tex.height >> level);
    const d = t.dim === '3d' ? Math.max(1, tex.depthOrLayers >> level) : tex.depthOrLayers;
    const x = coord.i[l]!;
    const y = coord.w > 1 ? coord.i[n + l]! : 0;
    let z = t.dim === '3d' ? coord.i[2 * n + l]! : 0;
    if (t.arrayed && arr) z = arr.i[l]!;
    if (x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d) return undefined;
    return { tex, index: ((z * h + y) * w + x) * 4 };
  }

  private imageLoad(x: Extract<Expr, { op: 'image_load' }>): V {
    const n = this.n;
    const img = this.handle(x.image);
    const coord = this.value(x.coord);
    const arr = x.arrayIndex !== undefined ? this.value(x.arrayIndex) : undefined;
    const lvl = x.level !== undefined ? this.value(x.level) : undefined;
    const t = img.type;
    const o = new V(n, t.kind === 'image' && t.class.kind === 'depth' ? 1 : 4);
    const r32 = t.kind === 'image' && t.class.kind === 'storage' && t.class.format.startsWith('r32');
    const trace = t.kind === 'image' && t.class.kind === 'storage' ? this.ctx.trace : undefined;
    for (let l = 0; l < n; l++) {
      const at = this.texel(img, l, coord, arr, lvl ? lvl.i[l]! : 0);
      if (!at) continue;
      const lv = at.tex.levels[lvl ? lvl.i[l]! : 0]!;
      for (let k = 0; k < o.w; k++) o.u[k * n + l] = lv[at.index + k] ?? 0;
      if (trace && this.cur?.[l] && !this.helper[l])
        for (let k = 0; k < (r32 ? 1 : 4); k++) trace.access(lv, at.index + k, l, 'read');
      if (r32) {
        o.u[n + l] = 0;
        o.u[2 * n + l] = 0;
        const one =
          t.kind === 'image' && t.class.kind === 'storage' && t.class.format === 'r32float' ? f32ToBits(1) : 1;
        o.u[3 * n + l] = one;
      }
    }
    return o;
  }

  private imageStore(s: Extract<Stmt, { op: 'image_store' }>, mask: Uint8Array): void {
    const n = this.n;
    const img = this.handle(s.image);
    const coord = this.value(s.coord);
    const arr = s.arrayIndex !== undefined ? this.value(s.arrayIndex) : undefined;
    const v = this.value(s.value);
    const t = img.type;
    const r32 = t.kind === 'image' && t.class.kind === 'storage' && t.class.format.startsWith('r32');
    const format = t.kind === 'image' && t.class.kind === 'storage' ? t.class.format : 'rgba32uint';
    for (let l = 0; l < n; l++) {
      if (!mask[l] || this.helper[l]) continue;
      const at = this.texel(img, l, coord, arr, 0);
      if (!at) continue;
      const lv = at.tex.levels[0]!;
      for (let k = 0; k < (r32 ? 1 : 4); k++) {
        const w = quantize(format, v.u[k * n + l]!) >>> 0;
        this.ctx.trace?.access(lv, at.index + k, l, 'write', lv[at.index + k]!, w);
        lv[at.index + k] = w;
      }
    }
  }

  private imageQuery(x: Extract<Expr, { op: 'image_query' }>): V {
    const n = this.n;
    const img = this.handle(x.image);
    const lvl = x.level !== undefined ? this.value(x.level) : undefined;
    const t = img.type;
    const dims = t.kind === 'image' ? (t.dim === '1d' ? 1 : t.dim === '3d' ? 3 : 2) : 1;
    const o = new V(n, x.query === 'size' ? dims : 1);
    for (let l = 0; l < n; l++) {
      const tex = this.ctx.textureAt(img.keys[l]!);
      if (!tex) continue;
      const level = lvl ? lvl.u[l]! : 0;
      switch (x.query) {
        case 'size': {
          const sz = [tex.width, tex.height, tex.depthOrLayers];
          for (let k = 0; k < dims; k++) {
            const full = sz[k]!;
            const s = t.kind === 'image' && (k < 2 || t.dim === '3d') ? Math.max(1, full >> level) : full;
            o.u[k * n + l] = level < tex.levels.length ? s : 0;
          }
          break;
        }
        case 'levels':
          o.u[l] = tex.levels.length;
          break;
        case 'samples':
          o.u[l] = tex.samples ?? 1;
          break;
        case 'layers':
          o.u[l] = t.kind === 'image' && t.dim === 'cube' ? tex.depthOrLayers / 6 : tex.depthOrLayers;
          break;
      }
    }
    return o;
  }
}

/** Lanes in a wave (the executor's subgroup_size; ir.ts "Subgroups"). */
export const WAVE_SIZE = 32;

/** The fold of a subgroup reduce or scan over 32-bit patterns of `scalar`. */
function folder(fn: SubgroupReduce, scalar: Scalar): (x: number, y: number) => number {
  if (scalar === 'f32') {
    const F = (x: number, y: number, g: (a: number, b: number) => number): number =>
      f32ToBits(f32(g(bitsToF32(x), bitsToF32(y))));
    switch (fn) {
      case 'add':
        return (x, y) => F(x, y, (a, b) => a + b);
      case 'mul':
        return (x, y) => F(x, y, (a, b) => a * b);
      case 'min':
        return (x, y) => F(x, y, d3dMin);
      case 'max':
        return (x, y) => F(x, y, d3dMax);
      default:
        return fail(`subgroup ${fn} of f32`);
    }
  }
  const signed = scalar === 'i32';
  switch (fn) {
    case 'add':
      return (x, y) => (x + y) >>> 0;
    case 'mul':
      return (x, y) => Math.imul(x, y) >>> 0;
    case 'min':
      return signed ? (x, y) => ((x | 0) < (y | 0) ? x : y) : (x, y) => (x < y ? x : y);
    case 'max':
      return signed ? (x, y) => ((x | 0) > (y | 0) ? x : y) : (x, y) => (x > y ? x : y);
    case 'and':
      return (x, y) => (x & y) >>> 0;
    case 'or':
      return (x, y) => (x | y) >>> 0;
    case 'xor':
      return (x, y) => (x ^ y) >>> 0;
  }
}

/** An empty scan's value: 0 for add, 1 for mul. */
function identityOf(fn: SubgroupReduce, scalar: Scalar): number {
  if (fn === 'mul') return scalar === 'f32' ? 0x3f800000 : 1;
  return 0;
}

/** A stored channel as the view's format keeps it (texels stay 4 raw words, so a later load reads the
 * format's value back): unorm8 and snorm8 round to their 255 or 127 steps after clamping (NaN is 0),
 * float16 rounds to binary16; 32-bit formats keep the bits. */
function quantize(format: string, bits: number): number {
  if (format === 'rgba8unorm' || format === 'rgba8snorm') {
    const x = bitsToF32(bits);
    if (x !== x) return 0;
    const q =
      format === 'rgba8unorm'
        ? Math.round(Math.min(1, Math.max(0, x)) * 255) / 255
        : Math.round(Math.min(1, Math.max(-1, x)) * 127) / 127;
    return f32ToBits(q);
  }
  if (format === 'rgba16float') return f32ToBits(f16BitsToF32(f32ToF16Bits(bitsToF32(bits))));
  return bits;
}

// Re-exported for tests of the float rules through the executor's own helpers.
export const floatRules = { f32ToBits, bitsToF32, d3dMin, d3dMax };
