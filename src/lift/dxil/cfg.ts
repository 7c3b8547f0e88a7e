// Structured control flow from a DXIL function's control-flow graph, after Ramsey's "Beyond
// Relooper" (2022): for a reducible graph, the dominator tree says where each block's code goes.
// A block's code is followed by the code of the dominator-tree children that are merge nodes (two
// or more forward in-edges), each behind a labelled `block` whose end it is; a loop header's code
// is wrapped in a labelled `loop`. A branch is then one of three things: a back edge (continue the
// loop it heads), a forward edge to a merge node (exit the block that ends there), or an edge to a
// child with one in-edge (its code inline). Every CFG edge is translated exactly once, where its
// phi copies go.
//
// Afterwards `simplify` removes exits that are already in tail position (control falls to the end
// of their block anyway) and dissolves blocks no exit names any more: on the graphs dxc writes
// (from structured HLSL) almost every block dissolves into plain if/else and switch. What remains
// is lowered with the IR's break/continue (lower.ts). An irreducible graph (a retreating edge whose
// target does not dominate its source) is refused by name, never mis-lifted.

export interface CfgInput {
  /** Successors of each block (index into the function's blocks), in terminator order. */
  readonly succs: readonly (readonly number[])[];
}

export type SNode =
  /** The block's instructions before its terminator (phis excepted). */
  | { readonly k: 'code'; readonly block: number }
  /** A two-way branch at the end of `block`: its condition, then the two edges. */
  | { readonly k: 'if'; readonly block: number; readonly accept: SNode[]; readonly reject: SNode[] }
  /** A switch at the end of `block`; each case is one distinct successor (`succ`, an index into succs). */
  | {
      readonly k: 'switch';
      readonly block: number;
      readonly cases: { readonly target: number; readonly body: SNode[] }[];
    }
  /** The edge from→to taken here: its phi copies, then control goes on with what follows. */
  | { readonly k: 'edge'; readonly from: number; readonly to: number }
  /** The edge from→to, then a jump: to the end of block `to` (exit) or the start of loop `to`. */
  | { readonly k: 'jump'; readonly from: number; readonly to: number; readonly kind: 'exit' | 'continue' }
  | { readonly k: 'block'; readonly label: number; body: SNode[] }
  | { readonly k: 'loop'; readonly label: number; readonly body: SNode[] }
  | { readonly k: 'return'; readonly block: number }
  | { readonly k: 'unreachable'; readonly block: number };

export class IrreducibleError extends Error {
  constructor(
    readonly from: number,
    readonly to: number,
  ) {
    super(`the edge from block ${from} to block ${to} enters a loop other than through its header`);
  }
}

/** Blocks times the loops around each that the structuring holds at most (a block is in the body of
 * each loop around it): 2^22, about a thousand loops nested around four thousand blocks. dxc's loops
 * nest a few deep; 32,768 loops nested around one another (65,536 blocks) would hold about 2^30. */
const MAX_LOOP_MEMBERSHIPS = 1 << 22;

/** Loops nested too deep for the structuring's bound (MAX_LOOP_MEMBERSHIPS). */
export class NestingError extends Error {
  constructor(readonly blocks: number) {
    super(`loops nested too deeply to structure (${blocks} blocks)`);
  }
}

export interface Structured {
  readonly body: SNode[];
  /** Reverse postorder number of each reachable block (-1: unreachable). */
  readonly rpo: readonly number[];
  readonly idom: readonly number[];
}

/** Structures the graph (block 0 is the entry). Unreachable blocks are left out. */
export function structure(g: CfgInput, terminator: (b: number) => 'br' | 'switch' | 'ret' | 'unreachable'): Structured {
  const n = g.succs.length;
  // Reverse postorder by an iterative depth-first search.
  const order: number[] = [];
  const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  const stack: [number, number][] = [[0, 0]];
  state[0] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const [b, k] = top;
    const ss = g.succs[b]!;
    if (k < ss.length) {
      top[1] = k + 1;
      const s = ss[k]!;
      if (state[s] === 0) {
        state[s] = 1;
        stack.push([s, 0]);
      }
    } else {
      state[b] = 2;
      order.push(b);
      stack.pop();
    }
  }
  order.reverse();
  const rpo = new Array<number>(n).fill(-1);
  order.forEach((b, i) => (rpo[b] = i));
  // Predecessors among reachable blocks, each distinct edge once.
  const preds: number[][] = emptyLists(n);
  for (const b of order) for (const s of new Set(g.succs[b])) preds[s]!.push(b);
  // Dominators (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm").
  const idom = new Array<number>(n).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rpo[a]! > rpo[b]!) a = idom[a]!;
      while (rpo[b]! > rpo[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const b of order) {
      if (b === 0) continue;
      let d = -1;
      for (const p of preds[b]!) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== idom[b]) {
        idom[b] = d;
        changed = true;
      }
    }
  }
  const dominates = (a: number, b: number): boolean => {
    for (let x = b; ; x = idom[x]!) {
      if (x === a) return true;
      if (x === 0) return false;
    }
  };
  // Back edges (their targets dominate their sources, or the graph is irreducible), forward in-edges.
  const forwardIn = new Uint32Array(n);
  for (const b of order)
    for (const s of new Set(g.succs[b])) {
      if (rpo[s]! <= rpo[b]!) {
        if (!dominates(s, b)) throw new IrreducibleError(b, s);
      } else forwardIn[s]!++;
    }
  // Loop bodies: the header and every block that reaches one of its back edges without it. A block
  // is in the body of each loop around it, so the bodies hold the blocks times their nesting: bounded.
  const bodies = new Map<number, Set<number>>();
  let held = 0;
  for (const b of order)
    for (const s of new Set(g.succs[b]))
      if (rpo[s]! <= rpo[b]!) {
        const body = bodies.get(s) ?? new Set([s]);
        bodies.set(s, body);
        const work = [b];
        while (work.length) {
          const x = work.pop()!;
          if (body.has(x)) continue;
          body.add(x);
          if (++held > MAX_LOOP_MEMBERSHIPS) throw new NestingError(n);
          for (const p of preds[x]!) work.push(p);
        }
      }
  // The innermost loop holding a block (its header), and the loop around a header. Reducible loops
  // with different headers are nested or apart, so the bodies from the largest to the smallest each
  // overwrite the innermost of their blocks, and a header's innermost before its own body is the loop
  // around it (a search of every loop for each block was quadratic in a run of loops).
  const innerLoop = new Int32Array(n).fill(-1);
  const loopAround = new Int32Array(n).fill(-1);
  for (const [h, body] of [...bodies].sort((x, y) => y[1].size - x[1].size)) {
    loopAround[h] = innerLoop[h]!;
    for (const x of body) innerLoop[x] = h;
  }
  /** The innermost loop holding `b`; `outside`: the innermost one other than b's own (b a header). */
  const innermost = (b: number, outside = false): number => (outside ? loopAround[b]! : innerLoop[b]!);
  // Where a block's code goes: after its immediate dominator's code, except that a block outside a
  // loop its dominator is in goes after that loop (after its header's code, outside the loop).
  const place = new Array<number>(n).fill(-1);
  const exitsLoop = new Uint8Array(n);
  for (const b of order) {
    if (b === 0) continue;
    let d = idom[b]!;
    let h = innermost(d);
    while (h !== -1 && !bodies.get(h)!.has(b)) {
      d = h;
      exitsLoop[b] = 1;
      h = innermost(h, true);
    }
    place[b] = d;
  }
  const children: number[][] = emptyLists(n);
  for (const b of order) if (b !== 0) children[place[b]!]!.push(b);

  // Reached by jumps (its code is not nested in its one predecessor's): two or more forward
  // in-edges, or the target of an edge that leaves a loop.
  const isMerge = (b: number): boolean => forwardIn[b]! >= 2 || exitsLoop[b] === 1;

  // A list of nodes ends, more often than not, in a block's tree: the tree of the merge after a
  // construct, or of the block an unconditional edge goes on to. Those tails are taken in a loop
  // (`run`) rather than by recursion: a function of thousands of ifs one after another is a chain of
  // thousands of such tails, and its recursion overflowed the stack (6,000 if/else diamonds). The
  // recursion that is left follows the constructs' nesting.

  /** Nodes, then (`next`) the block whose tree follows them, if any. */
  interface Tail {
    readonly head: SNode[];
    readonly next: number | undefined;
  }
  const END = undefined;

  /** The nodes of `t`, then the tree of each block that follows, in turn. */
  const run = (t: Tail): SNode[] => {
    const out = t.head;
    for (let next = t.next; next !== END;) {
      const u = treeTail(next);
      for (const s of u.head) out.push(s);
      next = u.next;
    }
    return out;
  };
  const tree = (x: number): SNode[] => run(treeTail(x));

  const branchTail = (from: number, to: number): Tail => {
    if (rpo[to]! <= rpo[from]!) return { head: [{ k: 'jump', from, to, kind: 'continue' }], next: END };
    if (isMerge(to)) return { head: [{ k: 'jump', from, to, kind: 'exit' }], next: END };
    return { head: [{ k: 'edge', from, to }], next: to };
  };
  const branch = (from: number, to: number): SNode[] => run(branchTail(from, to));

  /** x's code and its terminator's nodes (an unconditional edge's target as the tail). */
  const codeTail = (x: number): Tail => {
    const code: SNode = { k: 'code', block: x };
    const t = terminator(x);
    const ss = g.succs[x]!;
    if (t === 'ret') return { head: [code, { k: 'return', block: x }], next: END };
    if (t === 'unreachable') return { head: [code, { k: 'unreachable', block: x }], next: END };
    if (t === 'br') {
      if (ss.length === 1 || ss[0] === ss[1]) {
        const b = branchTail(x, ss[0]!);
        return { head: [code, ...b.head], next: b.next };
      }
      return { head: [code, { k: 'if', block: x, accept: branch(x, ss[0]!), reject: branch(x, ss[1]!) }], next: END };
    }
    const seen = new Set<number>();
    const cases: { target: number; body: SNode[] }[] = [];
    for (const s of ss) {
      if (seen.has(s)) continue;
      seen.add(s);
      cases.push({ target: s, body: branch(x, s) });
    }
    return { head: [code, { k: 'switch', block: x, cases }], next: END };
  };

  /** `inner` inside a block for each of the merge nodes `merges` (highest reverse postorder first: the
   * outermost), each merge's tree after its block: the outermost's as the tail. */
  const withinTail = (merges: readonly number[], at: number, inner: () => Tail): Tail => {
    if (at === merges.length) return inner();
    const y = merges[at]!;
    return { head: [{ k: 'block', label: y, body: run(withinTail(merges, at + 1, inner)) }], next: y };
  };

  const treeTail = (x: number): Tail => {
    const merges = children[x]!.filter(isMerge).sort((a, b) => rpo[b]! - rpo[a]!);
    const body = bodies.get(x);
    if (!body) return withinTail(merges, 0, () => codeTail(x));
    // A loop header: the merge nodes inside the loop go in it, the loop's exits after it.
    const inside = merges.filter((m) => body.has(m));
    const outside = merges.filter((m) => !body.has(m));
    return withinTail(outside, 0, () => ({
      head: [{ k: 'loop', label: x, body: run(withinTail(inside, 0, () => codeTail(x))) }],
      next: END,
    }));
  };

  const body = tree(0);
  simplify(body);
  return { body, rpo, idom };
}

/** Removes exits in tail position and dissolves the blocks no exit names any more (in place). A
 * dissolved block's nodes, already simplified, go where it was: the list is made again once, not
 * spliced at each block (a splice moved every node after it: a long run of blocks was quadratic). */
function simplify(list: SNode[]): void {
  let out: SNode[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    if (s.k === 'if') {
      simplify(s.accept);
      simplify(s.reject);
    } else if (s.k === 'switch') {
      for (const c of s.cases) simplify(c.body);
    } else if (s.k === 'loop') {
      simplify(s.body);
    } else if (s.k === 'block') {
      simplify(s.body);
      dropTailExits(s.body, s.label);
      if (!names(s.body, s.label)) {
        out ??= list.slice(0, i);
        for (const x of s.body) out.push(x);
        continue;
      }
    }
    out?.push(s);
  }
  if (out) {
    list.length = 0;
    for (const x of out) list.push(x);
  }
}

/** Turns exits to `label` that control reaches the end of the list from into plain edges. */
function dropTailExits(list: SNode[], label: number): void {
  const last = list[list.length - 1];
  if (!last) return;
  if (last.k === 'jump' && last.kind === 'exit' && last.to === label) {
    list[list.length - 1] = { k: 'edge', from: last.from, to: last.to };
  } else if (last.k === 'if') {
    dropTailExits(last.accept, label);
    dropTailExits(last.reject, label);
  } else if (last.k === 'switch') {
    for (const c of last.cases) dropTailExits(c.body, label);
  }
}

/** Whether any exit in the list (nested constructs included) goes to the end of block `label`. */
function names(list: readonly SNode[], label: number): boolean {
  for (const s of list) {
    if (s.k === 'jump' && s.kind === 'exit' && s.to === label) return true;
    if (s.k === 'if' && (names(s.accept, label) || names(s.reject, label))) return true;
    if (s.k === 'switch' && s.cases.some((c) => names(c.body, label))) return true;
    if ((s.k === 'loop' || s.k === 'block') && names(s.body, label)) return true;
  }
  return false;
}

/** n empty lists (a loop: Array.from with a mapping function is V8's slow generic path). */
function emptyLists(n: number): number[][] {
  const out: number[][] = new Array<number[]>(n);
  for (let k = 0; k < n; k++) out[k] = [];
  return out;
}
