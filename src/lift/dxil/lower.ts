// The structured tree of cfg.ts as IR statements. IR loops and switches are the only constructs a
// `break` leaves (and a `continue` only loops), so a jump is lowered against a stack of them:
// - a `loop` node is an IR loop; continuing it is `continue`;
// - a `block` whose body ends in a loop and is exited only from inside that loop is that loop's
//   break (the block's end is the loop's end); any other block that is still exited is an IR loop
//   run once (`loop { body; break; }`);
// - a jump across other loops or switches sets the function's exit flag to the target's code and
//   breaks; after each construct, a test of the flag takes the jump one level further out.
// Before each jump, the edge's phi copies (lift.ts) are made where the jump starts.

import type { Block, ExprId, LocalId, Stmt } from '../../ir/ir.js';
import type { SNode } from './cfg.js';
import type { DxilLifter } from './lifter.js';

export interface Emitter {
  /** Straight-line code of a block (its phis read, its instructions lifted). */
  code(block: number): void;
  /** Phi copies of the edge from -> to. */
  edge(from: number, to: number): void;
  /** The condition of a two-way branch at the end of `block` (bool). */
  condition(block: number): ExprId;
  /** A switch's selector (u32) and each successor's case values (32-bit patterns); `isDefault` marks the default's. */
  switchOf(block: number): { selector: ExprId; cases: Map<number, { values: number[]; isDefault: boolean }> };
  /** The statement that returns (entry outputs built). */
  ret(block: number): Stmt;
  /** Makes the terminator of `block` the instruction being lifted (the origin of what follows). */
  terminator(block: number): void;
}

type Frame =
  | { readonly kind: 'loop'; readonly label: number; readonly aliases: Set<number>; readonly pending: Set<number> }
  | { readonly kind: 'block'; readonly label: number; readonly pending: Set<number> }
  | { readonly kind: 'switch'; readonly pending: Set<number> };

/** A jump's code in the exit flag: exits are 2 * label + 1, continues 2 * label + 2. */
const codeOf = (label: number, kind: 'exit' | 'continue'): number => 2 * label + (kind === 'exit' ? 1 : 2);

export class Lowering {
  private readonly stack: Frame[] = [];
  private flag: LocalId | undefined;

  constructor(
    private readonly L: DxilLifter,
    private readonly em: Emitter,
  ) {}

  run(list: readonly SNode[]): void {
    this.list(list);
  }

  private list(list: readonly SNode[]): void {
    for (const s of list) {
      if (this.L.f.unreachable()) return;
      this.node(s);
    }
  }

  private node(s: SNode): void {
    const L = this.L;
    const f = L.f;
    switch (s.k) {
      case 'code':
        this.em.code(s.block);
        return;
      case 'edge':
        this.em.edge(s.from, s.to);
        return;
      case 'jump':
        this.em.edge(s.from, s.to);
        this.em.terminator(s.from);
        this.jump(s.to, s.kind);
        return;
      case 'return':
        this.em.terminator(s.block);
        f.stmt(this.em.ret(s.block));
        return;
      case 'unreachable':
        L.note('an unreachable terminator returns');
        this.em.terminator(s.block);
        f.stmt(this.em.ret(s.block));
        return;
      case 'if': {
        const cond = this.em.condition(s.block);
        const accept = this.nested(s.accept);
        const reject = this.nested(s.reject);
        this.em.terminator(s.block);
        f.stmt({ op: 'if', cond, accept, reject });
        return;
      }
      case 'switch': {
        const { selector, cases } = this.em.switchOf(s.block);
        const frame: Frame = { kind: 'switch', pending: new Set() };
        this.stack.push(frame);
        const out = s.cases.map((c) => {
          const info = cases.get(c.target) ?? { values: [], isDefault: false };
          return { values: info.values, isDefault: info.isDefault, body: this.nested(c.body) };
        });
        this.stack.pop();
        this.em.terminator(s.block);
        f.stmt({ op: 'switch', selector, cases: out });
        this.dispatch(frame);
        return;
      }
      case 'loop': {
        const frame: Frame = { kind: 'loop', label: s.label, aliases: new Set(), pending: new Set() };
        this.loop(frame, s.body);
        return;
      }
      case 'block': {
        const last = s.body[s.body.length - 1];
        if (last?.k === 'loop' && !exits(s.body.slice(0, -1), s.label)) {
          // The block's end is the loop's end: exits from inside the loop are its breaks.
          this.list(s.body.slice(0, -1));
          if (f.unreachable()) return;
          const frame: Frame = { kind: 'loop', label: last.label, aliases: new Set([s.label]), pending: new Set() };
          this.loop(frame, last.body);
          return;
        }
        const frame: Frame = { kind: 'block', label: s.label, pending: new Set() };
        this.stack.push(frame);
        f.open();
        this.list(s.body);
        if (!leaves(f.openBlock())) this.own({ op: 'break' });
        const body = f.close();
        this.stack.pop();
        this.own({ op: 'loop', body });
        this.dispatch(frame);
        return;
      }
    }
  }

  private loop(frame: Frame & { kind: 'loop' }, body: readonly SNode[]): void {
    const f = this.L.f;
    this.stack.push(frame);
    f.open();
    this.list(body);
    // Every path of a loop body ends in a jump; should one fall off the end, it leaves the loop.
    if (!leaves(f.openBlock())) this.own({ op: 'break' });
    const out = f.close();
    this.stack.pop();
    this.own({ op: 'loop', body: out });
    this.dispatch(frame);
  }

  /** Appends a statement of the lowering's own (a loop, the break closing a block): no
   * instruction is its origin (ir.ts Origin). */
  private own(s: Stmt): void {
    const f = this.L.f;
    const origin = f.origin;
    f.origin = undefined;
    f.stmt(s);
    f.origin = origin;
  }

  private nested(list: readonly SNode[]): Block {
    const f = this.L.f;
    f.open();
    this.list(list);
    return f.close();
  }

  /** Jumps to the end of block `label` (exit) or the start of loop `label` (continue). */
  private jump(label: number, kind: 'exit' | 'continue'): void {
    const f = this.L.f;
    const top = this.stack[this.stack.length - 1];
    if (!top) return this.L.invalid(`a jump to block ${label} outside every construct`);
    const lands = (fr: Frame): boolean =>
      kind === 'exit'
        ? (fr.kind === 'block' && fr.label === label) || (fr.kind === 'loop' && fr.aliases.has(label))
        : fr.kind === 'loop' && fr.label === label;
    if (lands(top)) {
      f.stmt({ op: kind === 'exit' ? 'break' : 'continue' });
      return;
    }
    if (kind === 'continue') {
      // continue passes through switches
      let k = this.stack.length - 1;
      while (k >= 0 && this.stack[k]!.kind === 'switch') k--;
      const fr = this.stack[k];
      if (fr && lands(fr)) {
        f.stmt({ op: 'continue' });
        return;
      }
    }
    if (!this.stack.some(lands)) return this.L.invalid(`a jump to block ${label} that no enclosing construct ends`);
    const flag = (this.flag ??= f.local('iridia_exit', this.L.tU32));
    const code = codeOf(label, kind);
    f.stmt({ op: 'store', pointer: this.L.local(flag), value: this.L.u32(code) });
    top.pending.add(code);
    f.stmt({ op: 'break' });
  }

  /** After a construct: each jump that left it through the flag goes on from here. */
  private dispatch(frame: Frame): void {
    const L = this.L;
    const f = L.f;
    if (!frame.pending.size || this.flag === undefined) return;
    // the dispatch is the lowering's own: no origin (ir.ts Origin)
    const origin = f.origin;
    f.origin = undefined;
    for (const code of frame.pending) {
      const label = (code - 1) >> 1;
      const kind = code % 2 === 1 ? 'exit' : 'continue';
      f.open();
      f.stmt({ op: 'store', pointer: L.local(this.flag), value: L.u32(0) });
      this.jump(label, kind);
      const accept = f.close();
      const cond = L.bin('eq', L.load(L.local(this.flag)), L.u32(code));
      f.stmt({ op: 'if', cond, accept, reject: [] });
    }
    f.origin = origin;
  }
}

/** Whether control never reaches the end of a block: every path ends in break, continue or return. */
function leaves(b: readonly Stmt[]): boolean {
  const last = b[b.length - 1];
  if (!last) return false;
  if (last.op === 'break' || last.op === 'continue' || last.op === 'return') return true;
  if (last.op === 'if') return leaves(last.accept) && leaves(last.reject);
  return false;
}

/** Whether a list exits block `label` anywhere (nested constructs included). */
function exits(list: readonly SNode[], label: number): boolean {
  for (const s of list) {
    if (s.k === 'jump' && s.kind === 'exit' && s.to === label) return true;
    if (s.k === 'if' && (exits(s.accept, label) || exits(s.reject, label))) return true;
    if (s.k === 'switch' && s.cases.some((c) => exits(c.body, label))) return true;
    if ((s.k === 'loop' || s.k === 'block') && exits(s.body, label)) return true;
  }
  return false;
}
