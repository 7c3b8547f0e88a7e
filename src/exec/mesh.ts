// Running a mesh or amplification program lifted as a stage function (lift/dxil/mesh.ts): one thread
// group, one lane per thread, as a compute group runs (lockstep, groupshared memory, barriers). The
// thread ids are the function's arguments by builtin name; what the group writes is in workgroup
// globals read back after it (lift/dxil/ops-mesh.ts): a mesh program's output counts, vertices and
// primitives (register files of 128 words, the signatures in the interface place the elements) and
// indices; an amplification program's DispatchMesh group counts and payload. A mesh program's
// payload is given (the words an amplification group passed).

import type { Module } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import { IridiaError } from '../errors.js';
import { Invocation } from './invocation.js';
import { layoutOf } from './layout.js';
import { makeContext, type ExecBindings } from './run.js';
import { V } from './values.js';
import { withDenormals } from './ops.js';
import { checkLanes, reserveWords, startRun } from './budget.js';
import { FILE_WORDS } from './stages.js';

function fail(why: string): never {
  throw new IridiaError('E701_EXEC_ERROR', why);
}

export interface GroupRun extends ExecBindings {
  /** SV_GroupID of the group run; default (0, 0, 0). */
  readonly group?: readonly [number, number, number];
  /** Groups dispatched (SV_DispatchThreadID is group * size + thread); default (1, 1, 1). */
  readonly groups?: readonly [number, number, number];
}

export interface MeshRun extends GroupRun {
  /** The payload's words, one a scalar field (as runAmplification returns them); zeros past the end. */
  readonly payload?: Uint32Array;
}

export interface MeshResult {
  /** SetMeshOutputCounts' counts, each at most the declared maximum (0 when it was not called). */
  readonly vertexCount: number;
  readonly primitiveCount: number;
  /** The vertices' register files (vertexCount × 128 words). */
  readonly vertices: Uint32Array;
  /** The primitives' register files (primitiveCount × 128 words). */
  readonly primitives: Uint32Array;
  /** The indices (primitiveCount × 3 for triangles, × 2 for lines). */
  readonly indices: Uint32Array;
  readonly topology: 'triangle' | 'line';
  readonly laneStatements: number;
}

export interface AmplificationResult {
  /** DispatchMesh's thread group counts ((0, 0, 0) when it was not called). */
  readonly dispatch: [number, number, number];
  /** The payload's words. */
  readonly payload: Uint32Array;
  readonly laneStatements: number;
}

function groupOf(p: Program, stage: 'mesh' | 'amplification') {
  const sf = p.stageFunctions;
  if (p.stage !== stage || !sf?.threadGroup)
    fail(`the program is not ${stage === 'mesh' ? 'a mesh' : 'an amplification'} program`);
  return sf;
}

/** Runs one group; the named workgroup globals (mesh_*) are the arrays given, read back after it. */
function runGroup(
  p: Program,
  run: GroupRun,
  fixed: ReadonlyMap<string, Uint32Array>,
): { laneStatements: number; mem: (name: string) => Uint32Array } {
  const sf = p.stageFunctions!;
  const m: Module = p.module;
  const [sx, sy, sz] = sf.threadGroup!;
  const n = sx * sy * sz;
  startRun(run);
  checkLanes(n, `a thread group of ${sx} × ${sy} × ${sz}`);
  const group = run.group ?? [0, 0, 0];
  const groups = run.groups ?? [1, 1, 1];
  const { ctx } = makeContext(m, run);
  const mems = new Map<number, Uint32Array>();
  const byName = new Map<string, Uint32Array>();
  m.globals.forEach((g, id) => {
    if (g.space !== 'workgroup' || !g.name.startsWith('mesh_')) return;
    const t = m.types[g.type];
    const words = t ? layoutOf(m, t).size : 0;
    reserveWords(words, `groupshared ${g.name}`);
    const mem = new Uint32Array(words);
    const given = fixed.get(g.name);
    if (given) mem.set(given.subarray(0, words));
    mems.set(id, mem);
    byName.set(g.name, mem);
  });
  const base = ctx.globalMem.bind(ctx);
  const zeros = new Int32Array(n);
  ctx.globalMem = (id, lanes) => {
    const mem = mems.get(id);
    return mem ? { mem, mems: [], base: lanes === n ? zeros : new Int32Array(lanes) } : base(id, lanes);
  };
  const local = (l: number) => [l % sx, Math.floor(l / sx) % sy, Math.floor(l / (sx * sy))];
  const size = [sx, sy, sz];
  const f = m.functions[sf.main] ?? fail(`function ${sf.main} out of range`);
  const args = f.args.map((a) => {
    const vec3 = (g: (l: number, k: number) => number): V => {
      const v = new V(n, 3);
      for (let k = 0; k < 3; k++) for (let l = 0; l < n; l++) v.u[k * n + l] = g(l, k) >>> 0;
      return v;
    };
    const scalar = (g: (l: number) => number): V => {
      const v = new V(n, 1);
      for (let l = 0; l < n; l++) v.u[l] = g(l) >>> 0;
      return v;
    };
    const name = a.binding?.kind === 'builtin' ? a.binding.builtin : a.name;
    switch (name) {
      case 'local_invocation_index':
        return scalar((l) => l);
      case 'local_invocation_id':
        return vec3((l, k) => local(l)[k]!);
      case 'global_invocation_id':
        return vec3((l, k) => group[k]! * size[k]! + local(l)[k]!);
      case 'workgroup_id':
        return vec3((_l, k) => group[k]!);
      case 'num_workgroups':
        return vec3((_l, k) => groups[k]!);
      default:
        return fail(`a ${p.stage} program's argument ${a.name}`);
    }
  });
  const budget = ctx.budget;
  ctx.trace?.batch(0);
  const inv = new Invocation(ctx, sf.main, args, new Uint8Array(n));
  inv.run(new Uint8Array(n).fill(1));
  return {
    laneStatements: n * (budget - ctx.budget),
    mem: (name) => byName.get(name) ?? new Uint32Array(0),
  };
}

/** Runs one thread group of a mesh program: the vertices, primitives and indices it outputs. */
export function runMesh(p: Program, run: MeshRun = {}): MeshResult {
  return withDenormals(run.denormals ?? 'flush', () => {
    const sf = groupOf(p, 'mesh');
    const fixed = new Map<string, Uint32Array>();
    if (run.payload) fixed.set('mesh_payload', run.payload);
    const r = runGroup(p, run, fixed);
    const counts = r.mem('mesh_counts');
    const vertexCount = Math.min(counts[0] ?? 0, sf.maxVertexCount ?? 0);
    const primitiveCount = Math.min(counts[1] ?? 0, sf.maxPrimitiveCount ?? 0);
    const topology = sf.outputTopology ?? 'triangle';
    const per = topology === 'line' ? 2 : 3;
    return {
      vertexCount,
      primitiveCount,
      vertices: r.mem('mesh_vertices').slice(0, vertexCount * FILE_WORDS),
      primitives: r.mem('mesh_primitives').slice(0, primitiveCount * FILE_WORDS),
      indices: r.mem('mesh_indices').slice(0, primitiveCount * per),
      topology,
      laneStatements: r.laneStatements,
    };
  });
}

/** Runs one thread group of an amplification program: the mesh groups it dispatches and their payload. */
export function runAmplification(p: Program, run: GroupRun = {}): AmplificationResult {
  return withDenormals(run.denormals ?? 'flush', () => {
    const sf = groupOf(p, 'amplification');
    const r = runGroup(p, run, new Map());
    const d = r.mem('mesh_dispatch');
    return {
      dispatch: [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0],
      payload: r.mem('mesh_payload').slice(0, (sf.payloadBytes ?? 0) / 4),
      laneStatements: r.laneStatements,
    };
  });
}
