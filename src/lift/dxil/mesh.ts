// Mesh and amplification programs (ms_6_5+, as_6_5+) as stage functions: WGSL has no mesh pipeline,
// so, as the hull, domain and geometry programs of the SM4/5 lifter (lift/stage.ts), they lift to a
// function the executor runs (src/exec/mesh.ts: runMesh, runAmplification), one lane per thread of
// one thread group, and emitWgsl refuses them by name.
//
//   main(<thread ids made on first use, by builtin name: workgroup_id, local_invocation_id,
//         global_invocation_id, local_invocation_index>)
//   workgroup globals (ops-mesh.ts): mesh_counts, mesh_vertices, mesh_primitives, mesh_indices and,
//   read by a mesh program and written by an amplification program, mesh_payload; an amplification
//   program's mesh_dispatch (DispatchMesh's group counts).
//
// The body computes as a compute program's does (thread ids, groupshared memory, barriers: the
// lifter's own stage is 'compute' for the dx.ops, the program's is 'mesh' or 'amplification'). The
// entry's properties give the rest (DxilMetadataHelper: tag 9, the MS state {numthreads,
// max vertices, max primitives, topology (1 line, 2 triangle), payload bytes}; tag 10, the AS state
// {numthreads, payload bytes}). Vertex outputs are the entry's output signature, primitive outputs
// its third signature (the patch-constant slot of other stages).

import { setThreadGroup } from './quad.js';
import type { GlobalId } from '../../ir/ir.js';
import type { LiftOptions, Program, StageFunctions, Varying } from '../../ir/program.js';
import type { DxilEntryPoint, DxilInfo, DxilSignatureElement } from '../../dxil/dxil-metadata.js';
import { Constant, Func, type Metadata, type Module } from '../../dxil/ir.js';
import { DxilLifter, listingBases } from './lifter.js';
import { DxResources } from './resources.js';
import { declareHeaps } from './heap.js';
import { withCallees } from './calls.js';
import { SK, varyingScalar, type OutputPlan } from './io.js';
import type { OpContext } from './ops-common.js';
import { FILE_WORDS, type MeshElement, type MeshIo } from './ops-mesh.js';

const REGS = FILE_WORDS / 4;

/** DXIL semantic kind to D3D_NAME for the elements a mesh program writes. */
const D3D_NAME: Readonly<Record<number, number>> = {
  [SK.position]: 1,
  [SK.clipDistance]: 2,
  [SK.cullDistance]: 3,
  [SK.renderTargetArrayIndex]: 4,
  [SK.viewportArrayIndex]: 5,
  [SK.primitiveId]: 7,
  [SK.shadingRate]: 24,
  [SK.cullPrimitive]: 25,
};

interface MeshState {
  readonly threadGroup: [number, number, number];
  readonly maxVertices: number;
  readonly maxPrimitives: number;
  readonly topology: 'triangle' | 'line';
  readonly payloadBytes: number;
}

/** The MS (tag 9) or AS (tag 10) state of the entry's properties. */
function readState(L: DxilLifter, m: Module, ep: DxilEntryPoint, mesh: boolean): MeshState {
  const md = (id: number): Metadata | undefined => (id === 0 ? undefined : m.metadata[id - 1]);
  const ops = (x: Metadata | undefined): (Metadata | undefined)[] =>
    x && x.k === 'node' && !x.di ? x.ops.map(md) : [];
  const int = (x: Metadata | undefined, what: string): number => {
    if (x?.k === 'value' && x.v instanceof Constant && x.v.ck === 'null') return 0; // LLVM's zero
    if (x?.k !== 'value' || !(x.v instanceof Constant) || x.v.ck !== 'int')
      return L.invalid(`the ${mesh ? 'MS' : 'AS'} state's ${what} is not an integer`);
    return Number(BigInt.asUintN(32, x.v.bits));
  };
  const tag = mesh ? 9 : 10;
  const o = ops(ep.properties.get(tag));
  if (!o.length) return L.invalid(`a${mesh ? ' mesh' : 'n amplification'} program without its state (tag ${tag})`);
  const nt = ops(o[0]);
  if (nt.length !== 3) return L.invalid('the thread group is not three numbers');
  const [x, y, z] = [int(nt[0], 'numthreads'), int(nt[1], 'numthreads'), int(nt[2], 'numthreads')];
  // Direct3D: at most 128 threads in a mesh or amplification group
  if (x * y * z === 0 || x * y * z > 128 || z > 128) L.invalid(`thread group ${x}x${y}x${z}`);
  const threadGroup: [number, number, number] = [x, y, z];
  if (!mesh) {
    const payloadBytes = int(o[1], 'payload size');
    if (payloadBytes > 16384 || payloadBytes % 4) L.invalid(`a payload of ${payloadBytes} bytes`);
    return { threadGroup, maxVertices: 0, maxPrimitives: 0, topology: 'triangle', payloadBytes };
  }
  const maxVertices = int(o[1], 'vertex count');
  const maxPrimitives = int(o[2], 'primitive count');
  const top = int(o[3], 'topology');
  const payloadBytes = int(o[4], 'payload size');
  if (maxVertices > 256 || maxPrimitives > 256)
    L.invalid(`${maxVertices} vertices and ${maxPrimitives} primitives (Direct3D allows 256 each)`);
  if (payloadBytes > 16384 || payloadBytes % 4) L.invalid(`a payload of ${payloadBytes} bytes`);
  if (top !== 1 && top !== 2) L.invalid(`output topology ${top}`);
  return { threadGroup, maxVertices, maxPrimitives, topology: top === 1 ? 'line' : 'triangle', payloadBytes };
}

/** The elements with their registers (unpacked ones after the packed ones) and their varyings. */
function placeElements(
  L: DxilLifter,
  els: readonly DxilSignatureElement[],
  what: string,
): { map: Map<number, MeshElement>; varyings: Varying[] } {
  const map = new Map<number, MeshElement>();
  const varyings: Varying[] = [];
  let next = 0;
  for (const el of els) {
    if (el.rows < 1 || el.rows > REGS || el.cols < 1 || el.cols > 4)
      L.invalid(`${what} element ${el.name} of ${el.rows} rows and ${el.cols} columns`);
    if (el.startRow >= 0) {
      if (el.startRow + el.rows > REGS || el.startCol < 0 || el.startCol + el.cols > 4)
        L.invalid(
          `${what} element ${el.name} at row ${el.startRow}, column ${el.startCol} is outside the register file`,
        );
      next = Math.max(next, el.startRow + el.rows);
    }
  }
  for (const el of els) {
    let register = el.startRow;
    let lane = el.startCol;
    if (register < 0) {
      if (next + el.rows > REGS) L.invalid(`${what} element ${el.name} has no register left`);
      register = next;
      lane = 0;
      next += el.rows;
      L.note(`${el.name} is outside the packed signature: it is held in register ${register} of each file`);
    }
    if (map.has(el.id)) L.invalid(`${what} element id ${el.id} is listed twice`);
    map.set(el.id, { el, register, lane });
    for (let r = 0; r < el.rows; r++)
      varyings.push({
        name: `${el.name.replace(/[^A-Za-z0-9_]/g, '_')}${el.indices[r] ?? r}`,
        semantic: el.name,
        semanticIndex: el.indices[r] ?? r,
        register: register + r,
        mask: ((1 << el.cols) - 1) << lane,
        systemValue: D3D_NAME[el.semanticKind] ?? 0,
        componentType: varyingScalar(el.compType).d3d,
      });
  }
  return { map, varyings };
}

/** lift.ts's body lifting, passed in (lift.ts calls this module). */
export interface BodyLifting {
  readonly liftBody: (L: DxilLifter, fn: Func, ctx: OpContext, plan: OutputPlan) => number;
  readonly declareGlobals: (L: DxilLifter, m: Module, info: DxilInfo, fn: Func | readonly Func[]) => void;
}

export function liftMeshModule(
  m: Module,
  info: DxilInfo,
  kind: 'ms' | 'as',
  target: string,
  partKind: string,
  offset: number,
  options: LiftOptions,
  { liftBody, declareGlobals }: BodyLifting,
): Program {
  const mesh = kind === 'ms';
  const stage = mesh ? 'mesh' : 'amplification';
  // The dx.ops compute as in a compute program (thread ids, barriers); see the header.
  const L = new DxilLifter('compute', partKind, offset);
  L.originBases = listingBases(m.functions);
  const ep = info.entryPoints[0];
  const fn = ep?.function;
  if (!ep || !(fn instanceof Func) || fn.isProto) return L.invalid('dx.entryPoints names no function with a body');
  L.fnName = fn.name ?? 'main';
  L.native16 = (ep.shaderFlags & (1n << 23n)) !== 0n;
  const state = readState(L, m, ep, mesh);
  setThreadGroup(L, state.threadGroup, [info.shaderMajor, info.shaderMinor]); // derivatives over the group's quads (quad.ts), as in compute
  if (ep.inputs.length) L.invalid(`a${mesh ? ' mesh' : 'n amplification'} program with an input signature`);
  if (!mesh && (ep.outputs.length || ep.patchConstant.length))
    L.invalid('an amplification program with an output signature');
  const resources = new DxResources(L, info, options.unboundedCount ?? 16, L.native16);
  const fns = withCallees([fn]);
  resources.declareAll(fns);
  declareHeaps(L, resources, fns, options.unboundedCount ?? 16);
  declareGlobals(L, m, info, fns);

  const vertices = placeElements(L, ep.outputs, 'vertex output');
  const primitives = placeElements(L, ep.patchConstant, 'primitive output');
  const indicesPer = state.topology === 'line' ? 2 : 3;
  const globals = new Map<string, GlobalId>();
  const sizes: Readonly<Record<string, number>> = {
    counts: 2,
    vertices: state.maxVertices * FILE_WORDS,
    primitives: state.maxPrimitives * FILE_WORDS,
    indices: state.maxPrimitives * indicesPer,
    payload: state.payloadBytes / 4,
    dispatch: 3,
  };
  const io: MeshIo = {
    stage,
    vertices: vertices.map,
    primitives: primitives.map,
    maxVertices: state.maxVertices,
    maxPrimitives: state.maxPrimitives,
    indicesPer,
    payloadWords: state.payloadBytes / 4,
    global: (name) => {
      let g = globals.get(name);
      if (g === undefined) {
        const words = Math.max(1, sizes[name] ?? 1);
        g = L.m.addGlobal({ name: `mesh_${name}`, space: 'workgroup', type: L.m.array(L.tU32, words) });
        globals.set(name, g);
      }
      return g;
    },
  };
  // What the executor reads back is there whether or not the program writes it.
  if (mesh) for (const n of ['counts', 'vertices', 'primitives', 'indices'] as const) io.global(n);
  else io.global('dispatch');
  if (state.payloadBytes) io.global('payload');

  const ctx: OpContext = {
    resources,
    inputs: new Map(),
    outputs: new Map(),
    builtins: new Map(),
    stageIo: undefined,
    meshIo: io,
  };
  const plan: OutputPlan = {
    outputs: new Map(),
    type: undefined,
    build: () => undefined,
    varyings: [],
    hasPosition: false,
  };
  const count = liftBody(L, fn, ctx, plan);
  const fnId = L.m.addFunction(L.f.finish());
  L.note(
    `a${mesh ? ' mesh' : 'n amplification'} program is lifted as a stage function (WGSL has no mesh pipeline): the executor runs one thread group of it`,
  );
  const stageFunctions: StageFunctions = {
    main: fnId,
    patchConstant: [],
    threadGroup: state.threadGroup,
    payloadBytes: state.payloadBytes,
    ...(mesh
      ? { maxVertexCount: state.maxVertices, maxPrimitiveCount: state.maxPrimitives, outputTopology: state.topology }
      : {}),
  };
  return {
    stage,
    interface: {
      inputs: [],
      outputs: vertices.varyings,
      patchConstants: primitives.varyings,
      resources: resources.list,
    },
    provenance: { target, bytecode: 'DXIL', part: partKind, instructions: count },
    notes: L.notes,
    module: L.m.finish(),
    stageFunctions,
  };
}
