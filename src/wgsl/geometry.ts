// Pass: geometry output for WGSL (passes.ts). WGSL has no geometry stage, so `emit` and `cut`
// become calls of two generated functions that record what the executor would see: `emit` copies
// the output registers (the private global `o`) into iridia_gs_vertices[iridia_gs_count] (up to
// the program's maximum vertex count, as Direct3D drops vertices past it); `cut` records the vertex
// count at which a strip ends in iridia_gs_cut_at. Each vertex's stream goes into
// iridia_gs_vertex_stream and each cut's into iridia_gs_cut_stream (the maximum vertex count is
// Direct3D's over all streams together); one pair of functions per stream the program uses.

import { functionWith, makeFunction, moduleWith, ownBlock, ownExpr, ownGlobal } from '../ir/nodes.js';
import {
  blockHolds,
  HOLDS_EMIT,
  withOrigin,
  type Block,
  type Expr,
  type Function,
  type Global,
  type Module,
  type Stmt,
} from '../ir/ir.js';

export function lowerGeometry(m: Module, maxVertices: number): Module {
  const uses = m.functions.some((f) => blockHolds(f.body, HOLDS_EMIT));
  if (!uses) return m;
  const oIndex = m.globals.findIndex((g) => g.name === 'o' && g.space === 'private');
  if (oIndex < 0) throw new Error('geometry lowering: no output global `o`');
  const types = [...m.types];
  const type = (t: (typeof types)[number]): number => {
    const key = JSON.stringify(t);
    const k = types.findIndex((x) => JSON.stringify(x) === key);
    if (k >= 0) return k;
    types.push(t);
    return types.length - 1;
  };
  const u32 = type({ kind: 'scalar', scalar: 'u32' });
  const oType = (m.globals[oIndex] as Global).type;
  const max = Math.max(1, maxVertices);
  const globals: Global[] = [...m.globals];
  const add = (g: Global) => (globals.push(ownGlobal(g)), globals.length - 1);
  const verts = add({
    name: 'iridia_gs_vertices',
    space: 'private',
    type: type({ kind: 'array', base: oType, length: max }),
  });
  const count = add({ name: 'iridia_gs_count', space: 'private', type: u32 });
  const cutAt = add({
    name: 'iridia_gs_cut_at',
    space: 'private',
    type: type({ kind: 'array', base: u32, length: max }),
  });
  const cuts = add({ name: 'iridia_gs_cuts', space: 'private', type: u32 });
  const vertexStream = add({
    name: 'iridia_gs_vertex_stream',
    space: 'private',
    type: type({ kind: 'array', base: u32, length: max }),
  });
  const cutStream = add({
    name: 'iridia_gs_cut_stream',
    space: 'private',
    type: type({ kind: 'array', base: u32, length: max }),
  });
  const recorder = (
    name: string,
    arr: number,
    n: number,
    value: (e: Expr[]) => number,
    streamArr: number,
    stream: number,
  ): Function => {
    const exprs: Expr[] = [];
    const e = (x: Expr) => (exprs.push(x), exprs.length - 1);
    const nPtr = e({ op: 'global', global: n });
    const nVal = e({ op: 'load', pointer: nPtr });
    const inRange = e({ op: 'binary', fn: 'lt', left: nVal, right: e({ op: 'literal', scalar: 'u32', bits: max }) });
    const slot = e({ op: 'access', base: e({ op: 'global', global: arr }), index: nVal });
    const v = value(exprs);
    const streamSlot = e({ op: 'access', base: e({ op: 'global', global: streamArr }), index: nVal });
    const streamValue = e({ op: 'literal', scalar: 'u32', bits: stream });
    const next = e({ op: 'binary', fn: 'add', left: nVal, right: e({ op: 'literal', scalar: 'u32', bits: 1 }) });
    const body: Stmt[] = [
      {
        op: 'if',
        cond: inRange,
        accept: [
          { op: 'store', pointer: slot, value: v },
          { op: 'store', pointer: streamSlot, value: streamValue },
          { op: 'store', pointer: nPtr, value: next },
        ],
        reject: [],
      },
    ];
    return makeFunction(name, [], [], [], exprs.map(ownExpr), ownBlock(body));
  };
  const streams = [...new Set(m.functions.flatMap((f) => streamsOf(f.body)))].sort((a, b) => a - b);
  const added: Function[] = [];
  const emitFn = new Map<number, number>();
  const cutFn = new Map<number, number>();
  for (const k of streams) {
    const suffix = k === 0 ? '' : `_stream${k}`;
    emitFn.set(k, m.functions.length + added.length);
    added.push(
      recorder(
        `iridia_emit${suffix}`,
        verts,
        count,
        (ex) => {
          ex.push({ op: 'global', global: oIndex });
          ex.push({ op: 'load', pointer: ex.length - 1 });
          return ex.length - 1;
        },
        vertexStream,
        k,
      ),
    );
    cutFn.set(k, m.functions.length + added.length);
    added.push(
      recorder(
        `iridia_cut${suffix}`,
        cutAt,
        cuts,
        (ex) => {
          ex.push({ op: 'global', global: count });
          ex.push({ op: 'load', pointer: ex.length - 1 });
          return ex.length - 1;
        },
        cutStream,
        k,
      ),
    );
  }
  const rewrite = (b: Block): Stmt[] =>
    b.map((s): Stmt => {
      if (s.op === 'emit') return withOrigin({ op: 'call', fn: emitFn.get(s.stream)!, args: [] }, s);
      if (s.op === 'cut') return withOrigin({ op: 'call', fn: cutFn.get(s.stream)!, args: [] }, s);
      if (s.op === 'if') return { ...s, accept: rewrite(s.accept), reject: rewrite(s.reject) };
      if (s.op === 'loop') return { ...s, body: rewrite(s.body) };
      if (s.op === 'switch') return { ...s, cases: s.cases.map((c) => ({ ...c, body: rewrite(c.body) })) };
      return s;
    });
  const functions = [...m.functions.map((f) => functionWith(f, { body: ownBlock(rewrite(f.body)) })), ...added];
  return moduleWith(m, { types, globals, functions });
}

function streamsOf(b: Block): number[] {
  return b.flatMap((s): number[] =>
    s.op === 'emit' || s.op === 'cut'
      ? [s.stream]
      : s.op === 'if'
        ? [...streamsOf(s.accept), ...streamsOf(s.reject)]
        : s.op === 'loop'
          ? streamsOf(s.body)
          : s.op === 'switch'
            ? s.cases.flatMap((c) => streamsOf(c.body))
            : [],
  );
}
