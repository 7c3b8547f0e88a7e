// Calls of a module's own functions (dxc leaves them with `noinline`; hand-written DXIL has them)
// are inlined where they are called: the callee's body is lifted in the caller's IR function, its
// arguments bound to the call's operands (numbers and vectors by value, evaluated once at the
// call; pointers to memory and resource handles as they are, so a callee writes the caller's
// locals and groupshared memory through them), its returns a jump to the call's end that sets the
// result. Each call lifts the body afresh (its own allocas, lets and phis), so nothing is shared
// between two calls but what the program shares. Refused by name (`function calls`): recursion
// (DXIL forbids it), a call of a declaration that is not a dx.op or an LLVM intrinsic the lifter
// knows, and inlining past the lifter's instruction bound (MAX_INLINED: calls that nest, each
// calling the next many times, could grow the program exponentially).

import type { LocalId } from '../../ir/ir.js';
import { Func, Instruction, sameType, type Value } from '../../dxil/ir.js';
import type { SNode } from './cfg.js';
import { type DxilLifter, type Val, isExpr, valueTypeName } from './lifter.js';

/** LLVM instructions lifted through inlining in one program, at most. */
export const MAX_INLINED = 1 << 20;

/** Where a lifted body goes when it returns: the entry's return, or the end of an inlined call. */
export interface InlineExit {
  /** Lifts the value the `ret` instruction returns into the call's result (nothing for `ret void`). */
  onReturn(ret: Instruction): void;
}

/** `fns` and every function with a body they call, directly or through others (each once). */
export function withCallees(fns: readonly Func[]): Func[] {
  const out = [...fns];
  for (let k = 0; k < out.length; k++)
    for (const b of out[k]!.blocks)
      for (const i of b.insts) {
        const c = i.op === 'call' ? i.callee : undefined;
        if (c instanceof Func && !c.isProto && !out.includes(c)) out.push(c);
      }
  return out;
}

/**
 * The structured tree of an inlined body: each return (and unreachable) becomes the edge to the
 * pseudo-block `end` (its result stored there), a jump out of a block that ends where the body
 * does, unless the one return is the body's last node (then it needs no block).
 */
export function inlineTree(tree: readonly SNode[], end: number): SNode[] {
  let returns = 0;
  const map = (list: readonly SNode[]): SNode[] =>
    list.map((s): SNode => {
      switch (s.k) {
        case 'return':
        case 'unreachable':
          returns++;
          return { k: 'jump', from: s.block, to: end, kind: 'exit' };
        case 'if':
          return { ...s, accept: map(s.accept), reject: map(s.reject) };
        case 'switch':
          return { ...s, cases: s.cases.map((c) => ({ ...c, body: map(c.body) })) };
        case 'loop':
          return { ...s, body: map(s.body) };
        case 'block':
          return { ...s, body: map(s.body) };
        default:
          return s;
      }
    });
  const body = map(tree);
  const last = body[body.length - 1];
  if (returns === 1 && last?.k === 'jump' && last.to === end)
    return [...body.slice(0, -1), { k: 'edge', from: last.from, to: end }];
  return [{ k: 'block', label: end, body }];
}

export type BodyLifter = (L: DxilLifter, fn: Func, exit: InlineExit) => number;

/** A call of one of the module's functions, inlined; its result (undefined: void). */
export function inlineCall(L: DxilLifter, call: Instruction, callee: Func, liftBody: BodyLifter): Val | undefined {
  const name = callee.name ?? '?';
  if (L.callStack.includes(callee))
    return L.refuse('function calls', `recursion: @${name} is called while it runs (DXIL forbids recursion)`);
  if (callee.args.length !== call.ops.length)
    return L.invalid(`a call of @${name} with ${call.ops.length} arguments for ${callee.args.length}`);
  const count = callee.blocks.reduce((n, b) => n + b.insts.length, 0);
  if (L.inlined + count > MAX_INLINED)
    return L.refuse('function calls', `inlining @${name} passes ${MAX_INLINED} instructions`);
  L.inlined += count;

  // arguments: by value, evaluated once here
  const bound = new Map<Value, Val>();
  callee.args.forEach((a, k) => {
    const v = L.val(call.ops[k]!);
    const t = call.ops[k]!.type;
    if (a.type.kind !== t.kind || a.type.width !== t.width || a.type.count !== t.count)
      L.invalid(`argument ${k} of @${name} is of another type`);
    if (isExpr(v)) bound.set(a, L.once(v, 'arg'));
    else if (v.kind === 'vec') bound.set(a, { kind: 'vec', lanes: v.lanes.map((l) => L.once(l, 'arg')) });
    else if (v.kind === 'ptr') bound.set(a, { ...v, offset: L.once(v.offset, 'arg') });
    else bound.set(a, v);
  });

  // the result: a local (one a lane for a vector), set where the body returns
  const rt = callee.fnType.elt;
  if (!rt) return L.invalid(`@${name} has no return type`);
  let result: LocalId[] = [];
  if (rt.kind === 'vector') {
    const t = L.irType(L.laneType(rt));
    result = Array.from({ length: rt.count }, (_, k) => L.f.local(`ret_${k}`, t));
  } else if (rt.kind !== 'void') result = [L.f.local('ret', L.irType(rt))];

  const saved = {
    fnName: L.fnName,
    ins: L.ins,
    insIndex: L.insIndex,
    originBase: L.originBase,
    crossScope: L.crossScope,
    usedValues: L.usedValues,
  };
  L.callStack.push(callee);
  for (const [a, v] of bound) L.values.set(a, v);
  L.fnName = name;
  try {
    liftBody(L, callee, {
      onReturn: (ret) => {
        if (rt.kind === 'void') return;
        const v = ret.ops[0] ?? L.invalid('a return without the value its function returns');
        // LLVM's rule: the value is of the function's return type (the result's locals are made of it)
        if (!sameType(v.type, rt))
          L.invalid(`@${name} returns ${valueTypeName(rt)}, and a return gives ${valueTypeName(v.type)}`);
        const lanes = rt.kind === 'vector' ? L.lanes(v) : [L.num(v)];
        lanes.forEach((x, k) => L.f.stmt({ op: 'store', pointer: L.local(result[k]!), value: x }));
      },
    });
  } finally {
    L.callStack.pop();
    for (const a of callee.args) L.values.delete(a);
    for (const b of callee.blocks) for (const i of b.insts) L.values.delete(i);
    L.fnName = saved.fnName;
    L.ins = saved.ins;
    L.originBase = saved.originBase;
    L.insIndex = saved.insIndex;
    L.crossScope = saved.crossScope;
    L.usedValues = saved.usedValues;
  }
  if (rt.kind === 'void') return undefined;
  const reads = result.map((l) => L.load(L.local(l)));
  return rt.kind === 'vector' ? { kind: 'vec', lanes: reads } : reads[0]!;
}
