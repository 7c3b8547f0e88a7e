// Which branch conditions the WGSL emitter passes through `workgroupUniformLoad` (emit.ts, "Barriers
// in data-dependent control flow").
//
// Direct3D requires a group barrier with sync (GroupMemoryBarrierWithGroupSync, sync_g_t...) to be
// reached by every thread of the group, or by none: the condition of every branch, loop exit and
// switch around one is the same in all threads of the group, though it may be read from groupshared
// memory, a UAV or a register the program computed from them. WGSL's uniformity analysis does not
// know that promise: a value read from workgroup or read_write storage memory, or computed from
// one, is non-uniform to it, and a barrier under it is refused ("must only be called from uniform
// control flow"). `workgroupUniformLoad` is the promise written in WGSL: every invocation gets the
// same value, and Tint treats it as uniform.
//
// The plan, per function that holds a synchronisation point (a barrier statement, or a call of a
// function that holds one, transitively):
// 1. The statements whose condition must be uniform (structurally): an `if` or `switch` that
//    - holds a synchronisation point in one of its blocks, or
//    - holds a `break`/`continue` that leaves it for a loop (or, for `break`, a switch) whose body
//      holds a synchronisation point (the loop's next iterations, or the rest of the switch case,
//      would run in divergent flow), or
//    - holds a `return` (or `kill`) while a synchronisation point may run after it in the function
//      (later in a block around it, or in a later iteration of a loop around it).
//    Each such statement sits inside others of the same kind (they hold it, so they hold what it
//    holds), so the loads the emitter adds are themselves in uniform control flow.
// 2. Of those, the ones whose condition is not already uniform by a conservative analysis in the
//    manner of WGSL's (one that never calls uniform what WGSL would not): literals, constants,
//    uniform-buffer and read-only storage reads at uniform indices, the workgroup_id and
//    num_workgroups builtins, lets and locals only ever given uniform values at positions of uniform
//    control flow (a fixed point over the function, the statements of step 1 counted uniform).
//    Everything else (workgroup and read_write storage memory, private globals, per-invocation
//    builtins, atomic, subgroup and call results, image loads, a function's arguments) is
//    non-uniform. A condition that is uniform is printed as it is: cbuffer-bounded loops and
//    branches on a read-only buffer keep their WGSL.
// Subgroup operations and derivatives are not planned here: Direct3D defines them in divergent flow
// (by the active lanes, by the quad), which is not a value every invocation shares; the emitter keeps
// WGSL's subgroup_uniformity and derivative_uniformity diagnostics off for them (docs/lift.md).

import {
  blockHolds,
  HOLDS_BARRIER,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type Module,
  type Stmt,
} from '../ir/ir.js';

/** Per function index: the if/switch statements whose condition the emitter loads uniformly. */
export type UniformPlan = ReadonlyMap<number, ReadonlySet<Stmt>>;

export function planUniformConditions(m: Module): UniformPlan {
  const sync = syncFunctions(m);
  const plan = new Map<number, Set<Stmt>>();
  m.functions.forEach((f, i) => {
    if (!sync[i]) return;
    const entry = m.entryPoints.some((e) => e.function === i);
    const set = new FunctionPlan(m, f, sync, entry).run();
    if (set.size) plan.set(i, set);
  });
  return plan;
}

/** Whether each function holds a barrier or calls (transitively) a function that does. */
function syncFunctions(m: Module): boolean[] {
  const direct = m.functions.map((f) => blockHolds(f.body, HOLDS_BARRIER));
  // Without a barrier anywhere no function is one (the call graph only spreads barriers).
  if (!direct.includes(true)) return direct;
  const calls = m.functions.map((f) => {
    const out: number[] = [];
    blockHas(f.body, (s) => {
      if (s.op === 'call') out.push(s.fn);
      return false;
    });
    return out;
  });
  const sync = [...direct];
  for (let changed = true; changed;) {
    changed = false;
    sync.forEach((v, i) => {
      if (!v && (calls[i] ?? []).some((c) => sync[c])) {
        sync[i] = true;
        changed = true;
      }
    });
  }
  return sync;
}

/** Whether `pred` holds for some statement of `b`, nested blocks included. */
function blockHas(b: Block, pred: (s: Stmt) => boolean): boolean {
  for (const s of b) {
    if (pred(s)) return true;
    if (s.op === 'if' && (blockHas(s.accept, pred) || blockHas(s.reject, pred))) return true;
    if (s.op === 'loop' && blockHas(s.body, pred)) return true;
    if (s.op === 'switch' && s.cases.some((c) => blockHas(c.body, pred))) return true;
  }
  return false;
}

function subBlocks(s: Stmt): readonly Block[] {
  if (s.op === 'if') return [s.accept, s.reject];
  if (s.op === 'loop') return [s.body];
  if (s.op === 'switch') return s.cases.map((c) => c.body);
  return [];
}

/** The innermost loop of `frames` (innermost last), if any. */
function innermostLoop(frames: readonly Frame[]): Frame | undefined {
  for (let k = frames.length - 1; k >= 0; k--) if ((frames[k] as Frame).target.op === 'loop') return frames[k];
  return undefined;
}

type Branch = Extract<Stmt, { op: 'if' | 'switch' }>;
type Target = Extract<Stmt, { op: 'loop' | 'switch' }>;

/** Which locals may hold a non-uniform value at a point (true: may); null where no path reaches. */
type State = boolean[] | null;

function join(a: State, b: State): State {
  if (a === null || a === b) return b;
  if (b === null) return a;
  // the same state when b adds nothing (kept: the expression memo is made per state object)
  let k = 0;
  while (k < a.length && (a[k] === true || b[k] !== true)) k++;
  return k === a.length ? a : a.map((v, j) => v || b[j] === true);
}

function same(a: State, b: State): boolean {
  if (a === null || b === null) return a === b;
  return a.every((v, k) => v === b[k]);
}

/** What pointerRoot finds at the root of a pointer: no variable, a local, a global. */
const ROOT_NONE = 0;
const ROOT_LOCAL = 1;
const ROOT_GLOBAL = 2;

/** Where a break or continue sends its state: the loop or switch it leaves for. */
interface Frame {
  readonly target: Target;
  breaks: State;
  continues: State;
}

class FunctionPlan {
  private readonly syncMemo = new Map<Block, boolean>();
  private readonly leaves = new Map<Block, Leaves>();
  /** Section 1: the if/switch statements that must be uniform. */
  private readonly required = new Set<Stmt>();
  /** Each branch's escapes (loops/switches outside it that its breaks/continues leave for; returns). */
  private readonly escapes = new Map<Stmt, { readonly targets: readonly Target[]; readonly exits: boolean }>();
  // Section 2, a fixed point over whole walks: every flag only goes one way.
  /** Lets that may be non-uniform. */
  private readonly letNonUniform: boolean[];
  /** Branches whose condition was non-uniform at some walk. */
  private readonly condNonUniform = new Set<Stmt>();
  /** Loops and switches left in divergent flow (a non-uniform break or continue). */
  private readonly diverged = new Set<Target>();
  /** A non-uniform return or kill: everything may run in divergent flow. */
  private functionDiverged = false;
  private changed = false;
  /** The state the expression memo was made for, and the memo: expression h's answer is memoValue[h]
   * where memoStamp[h] is memoGeneration (a new state is a new generation, not a new array: a sparse
   * array made per state went to V8's dictionary elements on a large function, and was remade at
   * every store that changed the state). */
  private memoState: State = null;
  private memoGeneration = 0;
  private readonly memoStamp: Uint32Array;
  private readonly memoValue: Uint8Array;

  constructor(
    private readonly m: Module,
    private readonly f: Function,
    private readonly sync: readonly boolean[],
    private readonly entry: boolean,
  ) {
    this.letNonUniform = f.lets.map(() => false);
    this.memoStamp = new Uint32Array(f.exprs.length);
    this.memoValue = new Uint8Array(f.exprs.length);
  }

  run(): Set<Stmt> {
    this.gather(this.f.body, [], false);
    // Bounded: each walk that changes something turns at least one flag, and there are finitely many.
    for (;;) {
      this.changed = false;
      const init: boolean[] = this.f.locals.map(() => false);
      this.f.locals.forEach((l, k) => {
        if (l.init !== undefined) init[k] = !this.uniform(l.init, init);
      });
      this.walk(this.f.body, init, !this.functionDiverged, []);
      if (!this.changed) break;
    }
    const out = new Set<Stmt>();
    for (const s of this.required) if (this.condNonUniform.has(s)) out.add(s);
    return out;
  }

  /** Whether a block holds a synchronisation point, its nested blocks answered from the memo too. */
  private hasSync(b: Block): boolean {
    let v = this.syncMemo.get(b);
    if (v === undefined) {
      v = false;
      for (const s of b) if (this.stmtHasSync(s)) v = true;
      this.syncMemo.set(b, v);
    }
    return v;
  }

  private stmtHasSync(s: Stmt): boolean {
    switch (s.op) {
      case 'barrier':
        return true;
      case 'call':
        return this.sync[s.fn] === true;
      case 'if':
        return this.hasSync(s.accept) || this.hasSync(s.reject);
      case 'loop':
        return this.hasSync(s.body);
      case 'switch':
        for (const c of s.cases) if (this.hasSync(c.body)) return true;
        return false;
      default:
        return false;
    }
  }

  /**
   * Section 1: marks the branches that must be uniform. `targets`: the loops and switches around
   * the block, innermost last; `after`: whether a synchronisation point may run after the block.
   */
  private gather(b: Block, targets: readonly Target[], after: boolean): void {
    const afterAt: boolean[] = new Array<boolean>(b.length);
    let later = after;
    for (let i = b.length - 1; i >= 0; i--) {
      afterAt[i] = later;
      if (this.stmtHasSync(b[i] as Stmt)) later = true;
    }
    b.forEach((s, i) => {
      const a = afterAt[i] === true;
      if (s.op === 'loop') this.gather(s.body, [...targets, s], a || this.hasSync(s.body));
      else if (s.op === 'if' || s.op === 'switch') {
        const inner = s.op === 'switch' ? [...targets, s] : targets;
        for (const blk of subBlocks(s)) this.gather(blk, inner, a);
        const esc = escapesOf(s, targets, this.leaves);
        this.escapes.set(s, esc);
        if (this.stmtHasSync(s) || (esc.exits && a) || esc.targets.some((t) => this.stmtHasSync(t)))
          this.required.add(s);
      }
    });
  }

  private flag(set: Set<Stmt>, s: Stmt): void {
    if (!set.has(s)) {
      set.add(s);
      this.changed = true;
    }
  }

  /**
   * Section 2: one forward walk of a block from `state` in control flow that is uniform when `cf`;
   * `frames` are the loops and switches around it, innermost last. Returns the state at its end.
   */
  private walk(b: Block, state: State, cf: boolean, frames: Frame[]): State {
    let st = state;
    for (const s of b) {
      if (st === null) return null; // nothing after a break, continue or return runs
      switch (s.op) {
        case 'let':
          if (!(cf && this.uniform(s.value, st))) this.setLet(s.let);
          break;
        case 'store': {
          if (this.pointerRoot(s.pointer, st) !== ROOT_LOCAL) break;
          const id = this.rootId;
          const whole = this.rootWhole;
          const ok = cf && this.rootUniform && this.uniform(s.value, st);
          // a whole local is replaced; a part of one keeps what the rest may hold
          const nonUniform = whole ? !ok : !ok || st[id] === true;
          // a store that leaves the local as it was keeps the state (and the expression memo made for it)
          if (st[id] !== nonUniform) {
            const next = [...st];
            next[id] = nonUniform;
            st = next;
          }
          break;
        }
        case 'atomic':
        case 'atomic64':
        case 'subgroup':
        case 'call':
          if (s.result !== undefined) this.setLet(s.result);
          break;
        case 'if':
        case 'switch': {
          const cond = s.op === 'if' ? s.cond : s.selector;
          const uniformCond = this.uniform(cond, st);
          if (!uniformCond) {
            this.flag(this.condNonUniform, s);
            const esc = this.escapes.get(s);
            if (!this.required.has(s) && esc) {
              for (const t of esc.targets) this.flag(this.diverged as Set<Stmt>, t);
              if (esc.exits && !this.functionDiverged) {
                this.functionDiverged = true;
                this.changed = true;
              }
            }
          }
          const inner = cf && (uniformCond || this.required.has(s));
          if (s.op === 'if') {
            st = join(this.walk(s.accept, st, inner, frames), this.walk(s.reject, st, inner, frames));
          } else {
            const frame: Frame = { target: s, breaks: null, continues: null };
            const fr = [...frames, frame];
            const caseCf = inner && !this.diverged.has(s);
            let out: State = null;
            for (const c of s.cases) out = join(out, this.walk(c.body, st, caseCf, fr));
            // a switch without a default case may run none
            if (!s.cases.some((c) => c.isDefault)) out = join(out, st);
            // continues inside the switch belong to the loop around it
            const loop = innermostLoop(frames);
            if (loop) loop.continues = join(loop.continues, frame.continues);
            st = join(out, frame.breaks);
          }
          break;
        }
        case 'loop': {
          const inner = cf && !this.diverged.has(s);
          let head: State = st;
          let frame: Frame;
          for (;;) {
            frame = { target: s, breaks: null, continues: null };
            const end = this.walk(s.body, head, inner, [...frames, frame]);
            const next = join(join(st, end), frame.continues);
            if (same(next, head)) break;
            head = next;
          }
          st = frame.breaks;
          break;
        }
        case 'break': {
          const fr = frames[frames.length - 1];
          if (fr) fr.breaks = join(fr.breaks, st);
          st = null;
          break;
        }
        case 'continue': {
          const fr = innermostLoop(frames);
          if (fr) fr.continues = join(fr.continues, st);
          st = null;
          break;
        }
        case 'return':
          st = null;
          break;
        default:
          break;
      }
    }
    return st;
  }

  private setLet(id: number): void {
    if (!this.letNonUniform[id]) {
      this.letNonUniform[id] = true;
      this.changed = true;
      this.memoState = null;
    }
  }

  /** pointerRoot's answer beside its kind: the variable's index, whether every index on the way is
   * uniform, whether the pointer is the whole variable (fields, not an object made per question).
   * Read them before the next uniform() call: it may trace another pointer and overwrite them. */
  private rootId = 0;
  private rootUniform = true;
  private rootWhole = true;

  /** The kind of variable a pointer expression names (ROOT_*), the rest in rootId, rootUniform and
   * rootWhole. */
  private pointerRoot(h: ExprId, st: boolean[]): number {
    let uniform = true;
    let whole = true;
    let cur = h;
    for (;;) {
      const e = this.f.exprs[cur] as Expr | undefined;
      if (!e) return ROOT_NONE;
      if (e.op === 'local' || e.op === 'global') {
        this.rootId = e.op === 'local' ? e.local : e.global;
        this.rootUniform = uniform;
        this.rootWhole = whole;
        return e.op === 'local' ? ROOT_LOCAL : ROOT_GLOBAL;
      }
      if (e.op === 'access') {
        if (!this.uniform(e.index, st)) uniform = false;
        whole = false;
        cur = e.base;
      } else if (e.op === 'member') {
        whole = false;
        cur = e.base;
      } else return ROOT_NONE;
    }
  }

  /** Whether an expression's value is the same in every invocation (locals as `st` says), as WGSL's analysis would see it. */
  private uniform(h: ExprId, st: boolean[]): boolean {
    if (this.memoState !== st) {
      this.memoState = st;
      this.memoGeneration++;
    }
    // an id outside the function's expressions is not memoised (compute() answers false for it)
    if (h >= this.memoStamp.length) return this.compute(h, st);
    if (this.memoStamp[h] === this.memoGeneration) return this.memoValue[h] === 1;
    const v = this.compute(h, st);
    this.memoStamp[h] = this.memoGeneration;
    this.memoValue[h] = v ? 1 : 0;
    return v;
  }

  /** uniform() of an optional operand (absent: uniform). */
  private opt(x: ExprId | undefined, st: boolean[]): boolean {
    return x === undefined || this.uniform(x, st);
  }

  /** Whether every expression of a list is uniform. */
  private all(list: readonly ExprId[], st: boolean[]): boolean {
    for (const x of list) if (!this.uniform(x, st)) return false;
    return true;
  }

  private compute(h: ExprId, st: boolean[]): boolean {
    const e = this.f.exprs[h] as Expr | undefined;
    if (!e) return false;
    switch (e.op) {
      case 'literal':
      case 'zero':
      case 'constant':
        return true;
      case 'compose':
        return this.all(e.parts, st);
      case 'splat':
      case 'bitcast':
      case 'convert':
        return this.uniform(e.value, st);
      case 'swizzle':
        return this.uniform(e.vector, st);
      case 'unary':
        return this.uniform(e.arg, st);
      case 'binary':
        return this.uniform(e.left, st) && this.uniform(e.right, st);
      case 'select':
        return this.uniform(e.cond, st) && this.uniform(e.accept, st) && this.uniform(e.reject, st);
      case 'math':
        return this.all(e.args, st);
      case 'arg': {
        const a = this.f.args[e.index];
        if (!this.entry || a?.binding?.kind !== 'builtin') return false;
        return a.binding.builtin === 'workgroup_id' || a.binding.builtin === 'num_workgroups';
      }
      case 'let':
        return this.letNonUniform[e.let] === false;
      case 'global':
        // a handle (texture, sampler) used as a value
        return this.m.globals[e.global]?.space === 'handle';
      case 'local':
        return false;
      case 'access':
      case 'member': {
        const root = this.pointerRoot(h, st);
        // an element of a range of textures or samplers: a handle, uniform when its index is
        if (root === ROOT_GLOBAL && this.m.globals[this.rootId]?.space === 'handle') return this.rootUniform;
        if (root !== ROOT_NONE) return false; // a pointer, not a value: only a load reads it
        return e.op === 'access' ? this.uniform(e.base, st) && this.uniform(e.index, st) : this.uniform(e.base, st);
      }
      case 'load': {
        const root = this.pointerRoot(e.pointer, st);
        if (root === ROOT_NONE || !this.rootUniform) return false;
        if (root === ROOT_LOCAL) return st[this.rootId] === false;
        const g = this.m.globals[this.rootId];
        if (!g) return false;
        return g.space === 'uniform' || (g.space === 'storage' && (g.access ?? 'read') === 'read');
      }
      case 'image_query':
        return this.opt(e.image, st) && this.opt(e.level, st);
      case 'array_length':
        return true;
      case 'derivative':
      case 'sample':
      case 'image_load':
        return false;
    }
  }
}

/** What leaves a block: a break or continue for a loop or switch around it, a return or kill. */
interface Leaves {
  /** A break not inside a loop or switch of the block. */
  readonly breaks: boolean;
  /** A continue not inside a loop of the block (a switch's continue is its loop's). */
  readonly continues: boolean;
  /** A return or kill anywhere in it. */
  readonly exits: boolean;
}

const NOTHING_LEAVES: Leaves = { breaks: false, continues: false, exits: false };

/** leavesOf(b), made once per block (nested blocks from `memo`): each block is visited once, where
 * visiting every branch's blocks anew cost the program's size times its depth of nesting. */
function leavesOf(b: Block, memo: Map<Block, Leaves>): Leaves {
  const known = memo.get(b);
  if (known) return known;
  let breaks = false;
  let continues = false;
  let exits = false;
  for (const x of b) {
    if (x.op === 'break') breaks = true;
    else if (x.op === 'continue') continues = true;
    else if (x.op === 'return' || x.op === 'kill') exits = true;
    else if (x.op === 'loop') exits ||= leavesOf(x.body, memo).exits;
    else if (x.op === 'switch')
      for (const c of x.cases) {
        const l = leavesOf(c.body, memo);
        continues ||= l.continues;
        exits ||= l.exits;
      }
    else if (x.op === 'if')
      for (const l of [leavesOf(x.accept, memo), leavesOf(x.reject, memo)]) {
        breaks ||= l.breaks;
        continues ||= l.continues;
        exits ||= l.exits;
      }
  }
  const out = breaks || continues || exits ? { breaks, continues, exits } : NOTHING_LEAVES;
  memo.set(b, out);
  return out;
}

/**
 * The loops and switches outside `s` (from `targets`, innermost last) that a break or continue
 * inside it leaves for, and whether it holds a return or kill.
 */
function escapesOf(
  s: Branch,
  targets: readonly Target[],
  memo: Map<Block, Leaves>,
): { targets: Target[]; exits: boolean } {
  let breaks = false;
  let continues = false;
  let exits = false;
  for (const b of subBlocks(s)) {
    const l = leavesOf(b, memo);
    // a switch's own breaks end it; a continue inside a switch inside s still leaves for the loop around s
    if (s.op === 'if') breaks ||= l.breaks;
    continues ||= l.continues;
    exits ||= l.exits;
  }
  const found: Target[] = [];
  const innermost = targets[targets.length - 1];
  if (breaks && innermost) found.push(innermost);
  if (continues) {
    let loop: Target | undefined;
    for (let k = targets.length - 1; k >= 0 && !loop; k--) if (targets[k]?.op === 'loop') loop = targets[k];
    if (loop && loop !== found[0]) found.push(loop);
  }
  return { targets: found, exits };
}
