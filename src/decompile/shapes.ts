// Loop and branch shapes as written (docs/decompile.md "Shapes"), recognised over the readable IR
// and shared by both printers (the HLSL printer and the WGSL emitter's readable mode). Nothing
// here changes the IR: it tells a printer how to write a statement it already has.
//
// - A condition reads as its comparison: `select(c, K, 0) != 0` (a Direct3D boolean tested
//   against zero, K a nonzero integer) is `c`, `== 0` is `!c`; a negated integer comparison is
//   the opposite comparison (`!(i >= n)` is `i < n`; a float one stays `!(x >= y)`, since NaN
//   makes both false).
// - `loop { if (C) break; BODY }` is `while (!C) { BODY }`: both test C before each pass, and a
//   `continue` in either goes back to the test.
// - It is `for (INIT; !C; UPDATE) { BODY' }` when C compares a local i (the counter) with a value
//   the loop does not change; UPDATE is `i = i OP step` (OP one of + - * << >>, step unchanged
//   by the loop; or `i = t` where the let t is bound to that at the top of BODY before it, i
//   unchanged between them), the last store to i at the top of BODY, followed only by lets and local stores that do not mention i (so running UPDATE after
//   them instead is the same); every `continue` of this loop comes right after the same UPDATE
//   (a `for` runs UPDATE on `continue`, so the copy before it is dropped), i is stored nowhere
//   else in the loop, and INIT is the store to i before the loop, with only lets and stores to
//   other locals between them (none mentioning i, none writing a local INIT reads). The counter is
//   declared in the header where nothing outside the loop and INIT mentions it.

import {
  mergeOrigins,
  type BinaryOp,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type LocalId,
  type Module,
  type Origin,
  type Stmt,
  type SwitchCase,
} from '../ir/ir.js';
import type { Resolved } from '../ir/typeof.js';
import { childrenOf, stmtExprs } from './ssa.js';

type Store = Extract<Stmt, { op: 'store' }>;
type If = Extract<Stmt, { op: 'if' }>;
type Loop = Extract<Stmt, { op: 'loop' }>;

/** How a printer writes a condition: the expression, its negation `!(e)`, or a comparison. */
export type Condition =
  | { readonly kind: 'expr'; readonly expr: ExprId }
  | { readonly kind: 'not'; readonly expr: ExprId }
  | { readonly kind: 'compare'; readonly fn: BinaryOp; readonly left: ExprId; readonly right: ExprId };

export type LoopShape =
  | { readonly kind: 'while'; readonly cond: Condition; readonly origin: Origin | undefined }
  | {
      readonly kind: 'for';
      readonly counter: LocalId;
      /** The counter is declared in the header (`for (int i = 0; ...)`), not before. */
      readonly declare: boolean;
      readonly init: Store;
      readonly cond: Condition;
      readonly update: Store;
      /** The value the header assigns: UPDATE's, or where UPDATE stores a let bound at the top of
       * the body to `i + step`, that let's value (i does not change between them). */
      readonly next: ExprId;
      /** UPDATE is `i = i + 1` on an integer: printed `i++`. */
      readonly increment: boolean;
      /** The origins of the loop, its test, INIT and every UPDATE (the header runs them all). */
      readonly origin: Origin | undefined;
    };

export interface Shapes {
  /** The shape a loop statement prints as; undefined: `loop` / `for (;;)`. */
  loop(s: Stmt): LoopShape | undefined;
  /** A statement a shape prints in a header (the test, INIT, UPDATE and its copies before `continue`). */
  skipped(s: Stmt): boolean;
  /** A local declared in a `for` header. */
  declared(local: LocalId): boolean;
  /** The `if` an `else` block consists of (printed `else if`), if any. */
  elseIf(s: If): If | undefined;
  /** The switch an if/else-if chain is (see switchShape), printed in the if's place. */
  switchOf(s: If): Extract<Stmt, { op: 'switch' }> | undefined;
  /** How to print a branch's condition `e` (or its negation): condition() below. */
  condition(e: ExprId, negate?: boolean): Condition;
}

const INVERSE: Partial<Record<BinaryOp, BinaryOp>> = { lt: 'ge', ge: 'lt', le: 'gt', gt: 'le', eq: 'ne', ne: 'eq' };
const COMPARE = new Set<BinaryOp>(['lt', 'le', 'gt', 'ge', 'eq', 'ne']);
/** The operations an UPDATE `i = i OP step` may do (`i += 8u`, `i >>= 1u`, ...). */
const STEPS = new Set<BinaryOp>(['add', 'sub', 'mul', 'shl', 'shr']);

function scalarOf(types: readonly Resolved[], e: ExprId): string | undefined {
  const t = types[e];
  return t?.kind === 'value' && t.type.kind === 'scalar' ? t.type.scalar : undefined;
}

const isInteger = (types: readonly Resolved[], e: ExprId): boolean => {
  const s = scalarOf(types, e);
  return s === 'i32' || s === 'u32';
};

/** An integer literal or zero: its bits; undefined for anything else. */
function intConstant(fn: Function, types: readonly Resolved[], e: ExprId): number | undefined {
  const x = fn.exprs[e]!;
  if (!isInteger(types, e)) return undefined;
  if (x.op === 'literal') return x.bits;
  if (x.op === 'zero') return 0;
  return undefined;
}

/** `select(c, A, B) ==/!= 0` with one of A, B zero and the other a nonzero integer: c and whether
 * the test is c's negation; undefined for another expression. */
function maskTest(
  fn: Function,
  types: readonly Resolved[],
  x: Extract<Expr, { op: 'binary' }>,
): { cond: ExprId; negated: boolean } | undefined {
  if (x.fn !== 'eq' && x.fn !== 'ne') return undefined;
  for (const [sel, zero] of [
    [x.left, x.right],
    [x.right, x.left],
  ] as const) {
    if (intConstant(fn, types, zero) !== 0) continue;
    const s = fn.exprs[sel]!;
    if (s.op !== 'select' || scalarOf(types, s.cond) !== 'bool') continue;
    const a = intConstant(fn, types, s.accept);
    const r = intConstant(fn, types, s.reject);
    if (a === undefined || r === undefined || (a === 0) === (r === 0)) continue;
    // ne: true where the select gives its nonzero arm
    return { cond: s.cond, negated: (a === 0) !== (x.fn === 'eq') };
  }
  return undefined;
}

/** How to print the boolean `e` (or its negation): through Direct3D boolean tests and `not`s. */
export function condition(fn: Function, types: readonly Resolved[], e: ExprId, negate = false): Condition {
  let neg = negate;
  for (;;) {
    const x = fn.exprs[e]!;
    if (x.op === 'unary' && x.fn === 'not' && scalarOf(types, x.arg) === 'bool') {
      e = x.arg;
      neg = !neg;
      continue;
    }
    const m = x.op === 'binary' ? maskTest(fn, types, x) : undefined;
    if (m) {
      e = m.cond;
      neg = neg !== m.negated;
      continue;
    }
    break;
  }
  if (!neg) return { kind: 'expr', expr: e };
  const x = fn.exprs[e]!;
  // integers are ordered: the opposite comparison is the negation (not so for floats and NaN)
  if (x.op === 'binary' && INVERSE[x.fn] && isInteger(types, x.left) && isInteger(types, x.right))
    return { kind: 'compare', fn: INVERSE[x.fn]!, left: x.left, right: x.right };
  return { kind: 'not', expr: e };
}

/** The comparison a condition tests (its operands), if it is one. */
function comparison(fn: Function, c: Condition): { left: ExprId; right: ExprId } | undefined {
  if (c.kind === 'compare') return c;
  const x = fn.exprs[c.expr]!;
  return x.op === 'binary' && COMPARE.has(x.fn) ? x : undefined;
}

function walk(b: Block, visit: (s: Stmt, block: Block, index: number, inLoop: boolean) => void, inLoop = false): void {
  b.forEach((s, k) => {
    visit(s, b, k, inLoop);
    if (s.op === 'if') {
      walk(s.accept, visit, inLoop);
      walk(s.reject, visit, inLoop);
    } else if (s.op === 'loop') walk(s.body, visit, true);
    else if (s.op === 'switch') for (const c of s.cases) walk(c.body, visit, inLoop);
  });
}

/** The shapes of one function's statements. `avoid`: statements a printer must write as they are
 * (the WGSL emitter's branches through workgroupUniformLoad): no shape takes them into a header. */
export function functionShapes(
  m: Module,
  fn: Function,
  types: readonly Resolved[],
  avoid: (s: Stmt) => boolean = () => false,
): Shapes {
  // the locals each expression mentions (as a pointer or through a load), memoised
  const memo: (readonly LocalId[] | undefined)[] = [];
  const localsOf = (e: ExprId): readonly LocalId[] => {
    const known = memo[e];
    if (known) return known;
    const x = fn.exprs[e]!;
    let out: readonly LocalId[];
    if (x.op === 'local') out = [x.local];
    else {
      const set = new Set<LocalId>();
      for (const c of childrenOf(x)) for (const l of localsOf(c)) set.add(l);
      out = [...set];
    }
    memo[e] = out;
    return out;
  };
  const mentions = (s: Stmt, l: LocalId): boolean => stmtExprs(s).some((e) => localsOf(e).includes(l));
  // statements by identity: how often each occurs (a shape skips a statement by identity, so it
  // takes only statements that occur once), and how many statements mention each local
  const occurs = new Map<Stmt, number>();
  const mentioned = new Map<LocalId, number>();
  walk(fn.body, (s) => {
    occurs.set(s, (occurs.get(s) ?? 0) + 1);
    for (const l of new Set(stmtExprs(s).flatMap(localsOf))) mentioned.set(l, (mentioned.get(l) ?? 0) + 1);
  });
  const once = (s: Stmt): boolean => occurs.get(s) === 1;

  const loops = new Map<Stmt, LoopShape>();
  const skipped = new Set<Stmt>();
  const declared = new Set<LocalId>();

  /** A load of the whole local (through bitcasts and conversions): its local. */
  const counterRead = (e: ExprId): LocalId | undefined => {
    let x = fn.exprs[e]!;
    while (x.op === 'bitcast' || x.op === 'convert') x = fn.exprs[x.value]!;
    if (x.op !== 'load') return undefined;
    const p = fn.exprs[x.pointer]!;
    return p.op === 'local' ? p.local : undefined;
  };
  const isLoadOf = (e: ExprId, l: LocalId): boolean => {
    const x = fn.exprs[e]!;
    if (x.op !== 'load') return false;
    const p = fn.exprs[x.pointer]!;
    return p.op === 'local' && p.local === l;
  };
  /** A statement that can move past a store to `l` (or it past it): a let, or a store to another
   * local, neither mentioning l. */
  const straight = (s: Stmt, l: LocalId): boolean =>
    (s.op === 'let' || (s.op === 'store' && fn.exprs[s.pointer]!.op === 'local')) && !mentions(s, l);

  /** What the loop's statements change: the locals stored, the lets bound, and whether memory is written. */
  const changes = (body: Block): { locals: Set<LocalId>; lets: Set<number>; memory: boolean } => {
    const locals = new Set<LocalId>();
    const lets = new Set<number>();
    let memory = false;
    walk(body, (s) => {
      if (s.op === 'let') lets.add(s.let);
      if ((s.op === 'atomic' || s.op === 'subgroup' || s.op === 'call') && s.result !== undefined) lets.add(s.result);
      if (s.op === 'store' || s.op === 'atomic') {
        const ls = localsOf(s.pointer);
        if (ls.length) for (const l of ls) locals.add(l);
        else memory = true;
      }
      if (s.op === 'atomic' || s.op === 'atomic64' || s.op === 'image_store' || s.op === 'call') memory = true;
    });
    return { locals, lets, memory };
  };
  /** Whether `e` reads nothing the loop changes (locals, lets bound in it, and memory it writes). */
  const invariant = (e: ExprId, ch: ReturnType<typeof changes>): boolean => {
    const seen = new Set<ExprId>();
    const stack = [e];
    while (stack.length) {
      const h = stack.pop()!;
      if (seen.has(h)) continue;
      seen.add(h);
      const x = fn.exprs[h]!;
      if (x.op === 'local' && ch.locals.has(x.local)) return false;
      if (x.op === 'let' && ch.lets.has(x.let)) return false;
      if (x.op === 'global') {
        // constant buffers and resources stay; a private global where the loop writes no memory;
        // groupshared and storage memory other threads may write
        const space = m.globals[x.global]?.space;
        if (space !== 'uniform' && space !== 'handle' && (space !== 'private' || ch.memory)) return false;
      }
      stack.push(...childrenOf(x));
    }
    return true;
  };

  const forShape = (
    block: Block,
    k: number,
    loop: Loop,
    head: If,
    cond: Condition,
  ):
    | (Omit<Extract<LoopShape, { kind: 'for' }>, 'origin'> & { moved: Stmt[]; origins: Origin | undefined })
    | undefined => {
    const cmp = comparison(fn, cond);
    if (!cmp) return undefined;
    const l = counterRead(cmp.left) ?? counterRead(cmp.right);
    if (l === undefined || scalarOf(types, cmp.left) === undefined) return undefined;
    const other = counterRead(cmp.left) === l ? cmp.right : cmp.left;
    if (localsOf(other).includes(l)) return undefined;
    const ch = changes(loop.body);
    if (!invariant(other, ch)) return undefined;
    // UPDATE: the last store to i at the top of the body, only straight statements after it
    const body = loop.body;
    let p = body.length - 1;
    while (p > 0 && straight(body[p]!, l)) p--;
    const update = body[p];
    if (p < 1 || update?.op !== 'store' || fn.exprs[update.pointer]!.op !== 'local') return undefined;
    if (localsOf(update.pointer)[0] !== l) return undefined;
    // UPDATE's value, or the value of the let it stores, bound at the top of the body before it
    let next = update.value;
    const stored = fn.exprs[next]!;
    if (stored.op === 'let') {
      const bound = body.slice(1, p).find((x) => x.op === 'let' && x.let === stored.let);
      if (bound?.op === 'let') next = bound.value;
    }
    const v = fn.exprs[next]!;
    if (v.op !== 'binary' || !STEPS.has(v.fn)) return undefined;
    const step = isLoadOf(v.left, l)
      ? v.right
      : (v.fn === 'add' || v.fn === 'mul') && isLoadOf(v.right, l)
        ? v.left
        : undefined;
    if (step === undefined || localsOf(step).includes(l) || !invariant(step, ch)) return undefined;
    // every continue of this loop right after a copy of UPDATE; i stored nowhere else
    const copies: Stmt[] = [];
    let ok = true;
    walk(body, (s, b, j, inner) => {
      if (s.op !== 'continue' || inner) return;
      let q = j - 1;
      while (q >= 0 && straight(b[q]!, l)) q--;
      const u = b[q];
      if (u?.op === 'store' && u.pointer === update.pointer && u.value === update.value) copies.push(u);
      else ok = false;
    });
    walk(body, (s) => {
      if (
        (s.op === 'store' || s.op === 'atomic') &&
        localsOf(s.pointer).includes(l) &&
        s !== update &&
        !copies.includes(s)
      )
        ok = false;
    });
    if (!ok) return undefined;
    // INIT: the store to i before the loop, past straight statements that write nothing INIT reads
    let q = k - 1;
    const written = new Set<LocalId>();
    while (q >= 0 && straight(block[q]!, l)) {
      const s = block[q]!;
      if (s.op === 'store') written.add(localsOf(s.pointer)[0]!);
      q--;
    }
    const init = block[q];
    if (init?.op !== 'store' || init.pointer !== update.pointer) return undefined;
    if (localsOf(init.value).some((x) => written.has(x))) return undefined;
    const moved = [head, init, update, ...copies];
    if (!moved.every(once) || moved.some((s) => skipped.has(s))) return undefined;
    // declared in the header: nothing outside the loop and INIT mentions i, and INIT does not read it
    let inside = 0;
    walk([loop], (s) => {
      if (mentions(s, l)) inside++;
    });
    const declare =
      fn.locals[l]!.init === undefined && !localsOf(init.value).includes(l) && mentioned.get(l) === inside + 1;
    const one = v.fn === 'add' && isInteger(types, step) && intConstant(fn, types, step) === 1;
    const origins = [init, update, ...copies].reduce<Origin | undefined>(
      (o, s) => mergeOrigins(o, s.origin),
      undefined,
    );
    return { kind: 'for', counter: l, declare, init, cond, update, next, increment: one, moved, origins };
  };

  walk(fn.body, (s, block, k) => {
    if (s.op !== 'loop') return;
    const head = s.body[0];
    if (head?.op !== 'if' || head.reject.length || head.accept.length !== 1 || head.accept[0]!.op !== 'break') return;
    if (avoid(head) || !once(head) || skipped.has(head)) return;
    const cond = condition(fn, types, head.cond, true);
    const origin = [head, head.accept[0]!].reduce<Origin | undefined>((o, x) => mergeOrigins(o, x.origin), s.origin);
    const f = forShape(block, k, s, head, cond);
    if (f) {
      const { moved, origins, ...shape } = f;
      for (const x of moved) skipped.add(x);
      if (shape.declare) declared.add(shape.counter);
      loops.set(s, { ...shape, origin: mergeOrigins(origin, origins) });
      return;
    }
    skipped.add(head);
    loops.set(s, { kind: 'while', cond, origin });
  });

  const elseIf = (s: If): If | undefined => {
    const r = s.reject;
    return r.length === 1 && r[0]!.op === 'if' && !avoid(r[0]!) ? r[0] : undefined;
  };
  const switches = new Map<If, Extract<Stmt, { op: 'switch' }> | undefined>();
  return {
    loop: (s) => loops.get(s),
    switchOf: (s) => {
      if (!switches.has(s)) switches.set(s, switchShape(fn, types, s, elseIf, avoid));
      return switches.get(s);
    },
    skipped: (s) => skipped.has(s),
    condition: (e, negate = false) => condition(fn, types, e, negate),
    declared: (l) => declared.has(l),
    elseIf,
  };
}

/** Whether a block holds a break or continue that leaves it (not one of a loop nested in it). */
function leaves(b: Block): boolean {
  let found = false;
  walk(b, (s, _b, _k, inLoop) => {
    if ((s.op === 'break' || s.op === 'continue') && !inLoop) found = true;
  });
  return found;
}

/**
 * `if (x == c1) A else if (x == c2) B ... else R`, two tests or more of one integer x against
 * different constants, is `switch (x) { case c1: A; case c2: B; ... default: R }` (the IR's cases
 * do not fall through): x is evaluated once instead of once per test, with no statement between
 * the tests, so it has the same value each time. A block that breaks or continues is left as it is
 * (in a switch its break would leave the switch).
 */
function switchShape(
  fn: Function,
  types: readonly Resolved[],
  s: If,
  elseIf: (s: If) => If | undefined,
  avoid: (s: Stmt) => boolean,
): Extract<Stmt, { op: 'switch' }> | undefined {
  if (avoid(s)) return undefined;
  let selector: ExprId | undefined;
  const cases: SwitchCase[] = [];
  const values = new Set<number>();
  let origin: Origin | undefined;
  let at: If | undefined = s;
  let rest: Block = [];
  while (at) {
    const c = condition(fn, types, at.cond);
    const x = c.kind === 'expr' ? fn.exprs[c.expr]! : undefined;
    let arm: { x: ExprId; value: number } | undefined;
    if (x?.op === 'binary' && x.fn === 'eq' && isInteger(types, x.left) && isInteger(types, x.right)) {
      const r = intConstant(fn, types, x.right);
      const l = intConstant(fn, types, x.left);
      if (r !== undefined && l === undefined) arm = { x: x.left, value: r >>> 0 };
      else if (l !== undefined && r === undefined) arm = { x: x.right, value: l >>> 0 };
    }
    if (!arm || (selector !== undefined && arm.x !== selector) || values.has(arm.value) || leaves(at.accept)) {
      if (at === s) return undefined;
      rest = [at];
      break;
    }
    selector = arm.x;
    values.add(arm.value);
    cases.push({ values: [arm.value], isDefault: false, body: at.accept });
    origin = mergeOrigins(origin, at.origin);
    const next = elseIf(at);
    if (!next) rest = at.reject;
    at = next;
  }
  if (cases.length < 2 || selector === undefined || leaves(rest)) return undefined;
  cases.push({ values: [], isDefault: true, body: rest });
  return { op: 'switch', selector, cases, ...(origin !== undefined ? { origin } : {}) };
}
