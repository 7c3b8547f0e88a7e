// Structured control flow of SM4/5 (if/else/endif, loop/endloop, switch/case/default/endswitch,
// break(c), continue(c), ret(c), discard) mapped onto the IR's nested blocks. Conditions test one
// 32-bit lane against zero (bit 18 of the opcode token: non-zero). A switch case whose body falls
// into the next is refused by name (the IR has no fall-through).
//
// A subroutine body inlined at a call site (subroutines.ts) runs under a Flow of its own whose `ret`
// leaves the subroutine only: the body is wrapped in `loop { ... break; }`, a `ret` outside the
// body's own loops and switches is a `break` of that wrapper, and one inside them sets a flag and
// breaks, each enclosing loop or switch of the body then breaking again while the flag is set.

import type { ExprId, LocalId, Stmt, SwitchCase } from '../ir/ir.js';
import type { Instruction, Operand } from '../sm4/types.js';
import type { Lifter } from './state.js';
import { fallsThrough } from '../ir/builder.js';

// Each frame keeps the index of the instruction that opened it (`origin`): the if, loop or switch
// statement made at its end carries that (ir.ts Origin), not the endif's.
type Frame =
  | { kind: 'if'; cond: ExprId; accept: Stmt[] | undefined; origin: number }
  | { kind: 'loop'; rets: number; origin: number }
  | {
      kind: 'switch';
      origin: number;
      selector: ExprId;
      cases: SwitchCase[];
      current: { values: number[]; isDefault: boolean } | undefined;
      /** Every case value the switch has taken so far, and whether it has taken a default: the
       * duplicate check is one look-up a label, not a walk of every label before it. */
      taken: Set<number>;
      defaulted: boolean;
      rets: number;
    };

/** How a subroutine's `ret` leaves its inlined body (see the header). */
export interface SubroutineExit {
  /** The flag local a `ret` inside a loop or switch of the body sets (made on first use). */
  flag(): LocalId;
}

const TERMINAL = new Set(['break', 'return', 'continue']);

/** Levels of each of if, loop and switch Direct3D 10/11 allow. */
const MAX_NESTING = 64;

export class Flow {
  private readonly frames: Frame[] = [];
  /** `ret`s lifted inside a loop or switch of a subroutine body so far. */
  private nestedRets = 0;

  constructor(
    private readonly L: Lifter,
    /** The statement a `ret` becomes (the entry point's outputs). */
    private readonly ret: () => Stmt,
    /** Set when this Flow lifts an inlined subroutine body: `ret` leaves the subroutine only. */
    private readonly sub?: SubroutineExit,
  ) {}

  /** The statement a `ret` becomes here. */
  private leave(): Stmt {
    if (!this.sub) return this.ret();
    if (!this.frames.some((f) => f.kind !== 'if')) return { op: 'break' };
    // Inside the body's own loop or switch: set the flag; each enclosing one breaks again.
    this.nestedRets++;
    const L = this.L;
    L.f.stmt({ op: 'store', pointer: L.local(this.sub.flag()), value: L.f.bool(true) });
    return { op: 'break' };
  }

  /** After a loop or switch of a subroutine body that held a nested `ret`: leave it too. */
  private propagate(rets: number): void {
    if (!this.sub || this.nestedRets === rets) return;
    const L = this.L;
    this.guarded(L.load(L.local(this.sub.flag())), { op: 'break' });
  }

  get depth(): number {
    return this.frames.length;
  }

  private cond(ins: Instruction): ExprId {
    const o = ins.operands[0] as Operand;
    return this.L.test(o, ((ins.token >>> 18) & 1) === 1);
  }

  private guarded(cond: ExprId, s: Stmt): void {
    const L = this.L;
    L.f.stmtIf(cond, [s]);
  }

  private inLoop(): boolean {
    return this.frames.some((f) => f.kind === 'loop');
  }

  /** Direct3D 10/11 nest if, loop and switch 64 deep each (the assembly reference of each): a
   * program deeper than that is refused by name, before the IR, the printer or the executor recurse
   * over it. */
  private nest(kind: 'if' | 'loop' | 'switch'): void {
    let n = 0;
    for (const f of this.frames) if (f.kind === kind) n++;
    if (n >= MAX_NESTING)
      this.L.invalid(`${kind} nested more than ${MAX_NESTING} deep (Direct3D allows ${MAX_NESTING})`);
  }

  /** Lifts one flow instruction; false when `ins` is not one. */
  handle(ins: Instruction): boolean {
    const L = this.L;
    switch (ins.opcode) {
      case 0x1f: // if
        this.nest('if');
        this.frames.push({ kind: 'if', cond: this.cond(ins), accept: undefined, origin: ins.index });
        L.f.open();
        return true;
      case 0x12: {
        // else
        const top = this.frames[this.frames.length - 1];
        if (top?.kind !== 'if' || top.accept !== undefined) return L.invalid('else without if');
        top.accept = [...L.f.close()];
        L.f.open();
        return true;
      }
      case 0x15: {
        // endif
        const top = this.frames.pop();
        if (top?.kind !== 'if') return L.invalid('endif without if');
        const body = [...L.f.close()];
        L.f.stmt(
          top.accept === undefined
            ? { op: 'if', cond: top.cond, accept: body, reject: [], origin: top.origin }
            : { op: 'if', cond: top.cond, accept: top.accept, reject: body, origin: top.origin },
        );
        return true;
      }
      case 0x30: // loop
        this.nest('loop');
        this.frames.push({ kind: 'loop', rets: this.nestedRets, origin: ins.index });
        L.f.open();
        return true;
      case 0x16: {
        // endloop
        const top = this.frames.pop();
        if (top?.kind !== 'loop') return L.invalid('endloop without loop');
        L.f.stmt({ op: 'loop', body: L.f.close(), origin: top.origin });
        this.propagate(top.rets);
        return true;
      }
      case 0x02: // break
        if (!this.frames.some((f) => f.kind !== 'if')) return L.invalid('break outside a loop or switch');
        L.f.stmt({ op: 'break' });
        return true;
      case 0x03:
        if (!this.frames.some((f) => f.kind !== 'if')) return L.invalid('breakc outside a loop or switch');
        this.guarded(this.cond(ins), { op: 'break' });
        return true;
      case 0x07:
        if (!this.inLoop()) return L.invalid('continue outside a loop');
        L.f.stmt({ op: 'continue' });
        return true;
      case 0x08:
        if (!this.inLoop()) return L.invalid('continuec outside a loop');
        this.guarded(this.cond(ins), { op: 'continue' });
        return true;
      case 0x3e: // ret
        L.f.stmt(this.leave());
        return true;
      case 0x3f: {
        const cond = this.cond(ins);
        if (this.sub && this.frames.some((f) => f.kind !== 'if')) {
          // set the flag and break, both under the condition
          L.f.open();
          L.f.stmt(this.leave());
          L.f.stmt({ op: 'if', cond, accept: L.f.close(), reject: [] });
        } else this.guarded(cond, this.leave());
        return true;
      }
      case 0x0d: // discard
        this.guarded(this.cond(ins), { op: 'kill' });
        return true;
      case 0x4c: {
        // switch
        this.nest('switch');
        const selector = L.src(ins.operands[0] as Operand, 'u32', [0]);
        this.frames.push({
          kind: 'switch',
          selector,
          cases: [],
          current: undefined,
          taken: new Set(),
          defaulted: false,
          rets: this.nestedRets,
          origin: ins.index,
        });
        L.f.open();
        return true;
      }
      case 0x06:
      case 0x0a: {
        // case / default
        const top = this.frames[this.frames.length - 1];
        if (top?.kind !== 'switch') return L.invalid('case outside a switch');
        const isDefault = ins.opcode === 0x0a;
        const value = isDefault ? undefined : (ins.operands[0]?.values?.[0] ?? 0) >>> 0;
        // a switch takes each case value once and one default (the IR's switch, like WGSL's)
        if (value !== undefined) {
          if (top.taken.has(value)) return L.invalid(`case ${value} appears twice in one switch`);
          top.taken.add(value);
        } else {
          if (top.defaulted) return L.invalid('a switch with two defaults');
          top.defaulted = true;
        }
        if (top.current && L.f.openLength() === 0) {
          if (value !== undefined) top.current.values.push(value);
          else top.current.isDefault = true;
          return true;
        }
        this.finishCase(top, false);
        top.current = { values: value !== undefined ? [value] : [], isDefault };
        L.f.open();
        return true;
      }
      case 0x17: {
        // endswitch
        const top = this.frames.pop();
        if (top?.kind !== 'switch') return L.invalid('endswitch without switch');
        this.finishCase(top, true);
        L.f.close();
        const cases = top.cases;
        if (!cases.some((c) => c.isDefault)) cases.push({ values: [], isDefault: true, body: [] });
        L.f.stmt({ op: 'switch', selector: top.selector, cases, origin: top.origin });
        this.propagate(top.rets);
        return true;
      }
      default:
        return false;
    }
  }

  private finishCase(top: Extract<Frame, { kind: 'switch' }>, last: boolean): void {
    const L = this.L;
    if (!top.current) {
      // Statements before the first case are unreachable in Direct3D; a well-formed program has none.
      if (L.f.openLength() !== 0) L.invalid('statements before the first case');
      return;
    }
    const body = L.f.close();
    const leaves = leavesCase(body);
    if (!last && body.length > 0 && !leaves)
      L.refuse('switch fall-through', 'a case body falls through into the next case');
    // no value is in two cases: the case label was refused (taken above)
    top.cases.push({ values: top.current.values, isDefault: top.current.isDefault, body });
    top.current = undefined;
  }

  finish(): void {
    if (this.frames.length) this.L.invalid('the program ends inside a block');
  }
}

export { fallsThrough };

/** Whether every path through a case body ends in break, continue or return (no fall-through). */
function leavesCase(b: readonly Stmt[]): boolean {
  const last = b[b.length - 1];
  if (!last) return false;
  if (TERMINAL.has(last.op)) return true;
  if (last.op === 'if') return leavesCase(last.accept) && leavesCase(last.reject);
  return !fallsThrough(b);
}
