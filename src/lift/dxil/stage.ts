// Hull, domain and geometry programs from DXIL as stage functions, in the shapes the SM4/5 lifter
// gives them (lift/stage.ts; lifter-dxbc.md: a stage that is not a WGSL entry point lifts as
// functions, which the executor runs, exec/stages.ts):
//
//   geometry: main(v_in: array<array<vec4<u32>, 32>, V>, primitive_id: u32, instance_id: u32);
//             EmitStream snapshots the private global `o`.
//   hull:     control_point(vicp: array<array<vec4<u32>, 32>, CPin>, control_point_id: u32,
//                           primitive_id: u32) -> array<vec4<u32>, 32>   (the entry function)
//             fork_0(vicp, vocp: array<array<vec4<u32>, 32>, CPout>, instance_id: u32,
//                    primitive_id: u32): the patch-constant function (dx.entryPoints' HS state,
//                    tag 3), writing the private global `pc`; it runs once per patch.
//   domain:   main(vicp: array<array<vec4<u32>, 32>, CP>, vpc: array<vec4<u32>, 32>,
//                  domain: vec3<f32>, primitive_id: u32) -> array<vec4<u32>, 32>
//
// Signature element e's row r, column k is register e.startRow + r, lane e.startCol + k of a file
// (the DXIL signature's packing; ops-stage.ts reads and writes it), and the interface lists each
// row as a varying with that register and mask, as the SM4/5 lifter lists the DXBC signature's.
// Properties come from the entry's tags: 1 GS state (input primitive, max vertex count, stream
// mask, output topology, instance count), 2 DS state (domain, input control points), 3 HS state
// (patch-constant function, input and output control points, domain, partitioning, output
// primitive, max tessellation factor).

import { STREAMS_NOTE } from '../stage.js';
import { FunctionBuilder } from '../../ir/builder.js';
import type { ExprId, FunctionId, TypeId } from '../../ir/ir.js';
import type { LiftOptions, Program, StageFunctions, Varying } from '../../ir/program.js';
import type { DxilEntryPoint, DxilInfo, DxilSignatureElement } from '../../dxil/dxil-metadata.js';
import { Constant, Func, type Metadata, type Module } from '../../dxil/ir.js';
import { DxilLifter, listingBases } from './lifter.js';
import { DxResources } from './resources.js';
import { declareHeaps } from './heap.js';
import { withCallees } from './calls.js';
import type { OpContext } from './ops-common.js';
import { D3D_NAME, SK, varyingScalar } from './io.js';
import { REGS, type FileRef, type StageIo } from './ops-stage.js';

/** What lift.ts lends: the body lifter and the globals' declaration, for more than one function. */
export interface BodyLifting {
  readonly liftBody: (L: DxilLifter, fn: Func, ctx: OpContext, ret: { build: () => ExprId | undefined }) => number;
  readonly declareGlobals: (L: DxilLifter, m: Module, info: DxilInfo, fns: readonly Func[]) => void;
}

type TessStage = 'hull' | 'domain' | 'geometry';

const PRIMITIVES: Readonly<Record<number, string>> = {
  1: 'point',
  2: 'line',
  3: 'triangle',
  6: 'line_adj',
  7: 'triangle_adj',
};
const PRIMITIVE_VERTICES: Readonly<Record<number, number>> = { 1: 1, 2: 2, 3: 3, 6: 4, 7: 6 };
const TOPOLOGIES: Readonly<Record<number, string>> = { 1: 'point_list', 3: 'line_strip', 5: 'triangle_strip' };
const DOMAINS: Readonly<Record<number, string>> = { 1: 'isoline', 2: 'tri', 3: 'quad' };

/** Metadata reading over the module's table (a node's operands are ids + 1, 0 for null). */
function mdReader(m: Module) {
  const ops = (x: Metadata | undefined): (Metadata | undefined)[] =>
    x && x.k === 'node' && !x.di ? x.ops.map((id) => (id === 0 ? undefined : m.metadata[id - 1])) : [];
  const int = (x: Metadata | undefined): number | undefined =>
    x?.k === 'value' && x.v instanceof Constant && x.v.ck === 'int' ? Number(BigInt.asUintN(32, x.v.bits)) : undefined;
  return { ops, int };
}

/** D3D_NAME of an element (tessellation factors by domain, as the DXBC signature names them). */
function systemValue(el: DxilSignatureElement, row: number, domain: string | undefined): number {
  if (el.semanticKind === SK.tessFactor) {
    if (domain === 'quad') return 11;
    if (domain === 'tri') return 13;
    if (domain === 'isoline') return (el.indices[row] ?? row) === 0 ? 16 : 15;
  }
  if (el.semanticKind === SK.insideTessFactor) {
    if (domain === 'quad') return 12;
    if (domain === 'tri') return 14;
  }
  return D3D_NAME[el.semanticKind] ?? 0;
}

function varyings(els: readonly DxilSignatureElement[], domain: string | undefined): Varying[] {
  const out: Varying[] = [];
  for (const el of els) {
    for (let r = 0; r < el.rows; r++) {
      const index = el.indices[r] ?? r;
      out.push({
        name: `${el.name}${index}`,
        semantic: el.name,
        semanticIndex: index,
        register: el.startRow < 0 ? -1 : el.startRow + r,
        mask: ((1 << el.cols) - 1) << Math.max(0, el.startCol),
        systemValue: systemValue(el, r, domain),
        componentType: varyingScalar(el.compType).d3d,
        ...(el.stream ? { stream: el.stream } : {}),
      });
    }
  }
  return out.sort((a, b) => (a.register < 0 ? 99 : a.register) - (b.register < 0 ? 99 : b.register));
}

function byId(els: readonly DxilSignatureElement[]): Map<number, DxilSignatureElement> {
  return new Map(els.map((e) => [e.id, e]));
}

/** Lifts a hull, domain or geometry program's entry (and patch-constant) function. */
export function liftStageProgram(
  m: Module,
  info: DxilInfo,
  ep: DxilEntryPoint,
  fn: Func,
  stage: TessStage,
  target: string,
  partKind: string,
  offset: number,
  options: LiftOptions,
  body: BodyLifting,
): Program {
  const L = new DxilLifter(stage, partKind, offset);
  L.originBases = listingBases(m.functions);
  L.fnName = fn.name ?? 'main';
  L.native16 = (ep.shaderFlags & (1n << 23n)) !== 0n;
  const md = mdReader(m);
  const sf: { -readonly [K in keyof StageFunctions]?: StageFunctions[K] } = {};
  let inputCp = 1;
  let outputCp = 1;
  let gsVertices = 1;
  let pcFn: Func | undefined;
  const count = (x: number | undefined, what: string, max: number): number => {
    if (x === undefined || x > max) return L.invalid(`${what} ${x ?? '(missing)'} (Direct3D allows ${max})`);
    return x;
  };
  if (stage === 'geometry') {
    const gs = md.ops(ep.properties.get(1));
    if (!gs.length) L.invalid('a geometry program without its GS state (dx.entryPoints tag 1)');
    const prim = md.int(gs[0]) ?? 0;
    gsVertices = PRIMITIVE_VERTICES[prim] ?? (prim >= 8 && prim <= 39 ? prim - 7 : 0);
    if (!gsVertices) L.invalid(`geometry input primitive ${prim}`);
    const topology = TOPOLOGIES[md.int(gs[3]) ?? 0];
    sf.primitive = `${PRIMITIVES[prim] ?? `patch${gsVertices}`}${topology ? `->${topology}` : ''}`;
    sf.maxVertexCount = count(md.int(gs[1]), 'a maximum vertex count of', 1024);
    // as the SM4/5 lifter: an instance count only where the program is instanced (dcl_gsinstances)
    const instances = count(md.int(gs[4]) ?? 1, 'a geometry instance count of', 32);
    if (instances > 1) sf.instanceCount = instances;
    const streams = md.int(gs[2]) ?? 1;
    if (streams & ~1) L.note(STREAMS_NOTE([0, 1, 2, 3].filter((k) => streams & (1 << k) || k === 0)));
  } else if (stage === 'domain') {
    const ds = md.ops(ep.properties.get(2));
    if (!ds.length) L.invalid('a domain program without its DS state (dx.entryPoints tag 2)');
    const d = DOMAINS[md.int(ds[0]) ?? 0];
    if (d) sf.domain = d;
    inputCp = count(md.int(ds[1]), 'an input control point count of', 32);
    sf.inputControlPoints = inputCp;
  } else {
    const hs = md.ops(ep.properties.get(3));
    if (!hs.length) L.invalid('a hull program without its HS state (dx.entryPoints tag 3)');
    const f = hs[0]?.k === 'value' ? hs[0].v : undefined;
    if (!(f instanceof Func) || f.isProto)
      return L.invalid('the HS state names no patch-constant function with a body');
    pcFn = f;
    inputCp = count(md.int(hs[1]), 'an input control point count of', 32);
    outputCp = count(md.int(hs[2]), 'an output control point count of', 32);
    const d = DOMAINS[md.int(hs[3]) ?? 0];
    if (d) sf.domain = d;
    sf.inputControlPoints = inputCp;
    sf.outputControlPoints = outputCp;
    sf.phaseInstances = [1];
  }

  const fns = withCallees(pcFn && pcFn !== fn ? [fn, pcFn] : [fn]);
  const resources = new DxResources(L, info, options.unboundedCount ?? 16, L.native16);
  resources.declareAll(fns);
  declareHeaps(L, resources, fns, options.unboundedCount ?? 16);
  body.declareGlobals(L, m, info, fns);

  const file = L.m.array(L.tVec4, REGS);
  const cpArray = (n: number): TypeId => L.m.array(file, Math.max(1, n));
  const oGlobal = stage === 'geometry' ? L.m.addGlobal({ name: 'o', space: 'private', type: file }) : undefined;
  const pcGlobal = stage === 'hull' ? L.m.addGlobal({ name: 'pc', space: 'private', type: file }) : undefined;
  const inputs = byId(ep.inputs);
  const outputs = byId(ep.outputs);
  const patch = byId(ep.patchConstant);

  let instructions = 0;
  /** Lifts one LLVM function as the stage function `name`. */
  const liftFunction = (
    f: Func,
    name: string,
    make: (
      fileArg: (argName: string, type: TypeId, n?: number) => FileRef,
      scalarArg: (argName: string, type?: TypeId) => number,
    ) => Omit<StageIo, 'stage' | 'inputs' | 'outputs' | 'patch'> & { returns?: FileRef },
  ): FunctionId => {
    L.f = new FunctionBuilder(L.m, name);
    L.fnName = f.name ?? name;
    L.values.clear();
    L.crossScope = new Set();
    const fileArg = (argName: string, type: TypeId, n?: number): FileRef => {
      const a = L.f.arg({ name: argName, type });
      const local = L.f.local(argName, type, L.e({ op: 'arg', index: a }));
      return { ptr: () => L.local(local), ...(n !== undefined ? { count: Math.max(1, n) } : {}) };
    };
    const scalarArg = (argName: string, type: TypeId = L.tU32): number => L.f.arg({ name: argName, type });
    const io = make(fileArg, scalarArg);
    const ctx: OpContext = {
      resources,
      inputs: new Map(),
      outputs: new Map(),
      builtins: new Map(),
      stageIo: { stage, inputs, outputs, patch, ...io },
      meshIo: undefined,
    };
    const returns = io.returns;
    instructions += body.liftBody(L, f, ctx, { build: () => (returns ? L.load(returns.ptr()) : undefined) });
    return L.m.addFunction(L.f.finish(returns ? { type: file } : undefined));
  };

  let main: FunctionId;
  const patchConstant: FunctionId[] = [];
  const global = (g: number | undefined): FileRef => ({ ptr: () => L.global(g as number) });
  if (stage === 'geometry') {
    main = liftFunction(fn, 'main', (fileArg, scalarArg) => {
      const inFile = fileArg('v_in', cpArray(gsVertices), gsVertices);
      const prim = scalarArg('primitive_id');
      const inst = scalarArg('instance_id');
      return {
        inFile,
        outFile: global(oGlobal),
        specials: new Map([
          ['primitive_id', prim],
          ['gs_instance', inst],
        ]),
      };
    });
  } else if (stage === 'domain') {
    main = liftFunction(fn, 'main', (fileArg, scalarArg) => {
      const inFile = fileArg('vicp', cpArray(inputCp), inputCp);
      const pcRead = fileArg('vpc', file);
      const domain = scalarArg('domain', L.m.vec('f32', 3));
      const prim = scalarArg('primitive_id');
      const o = L.f.local('o', file);
      const out: FileRef = { ptr: () => L.local(o) };
      return {
        inFile,
        pcRead,
        outFile: out,
        returns: out,
        specials: new Map([
          ['domain', domain],
          ['primitive_id', prim],
        ]),
      };
    });
  } else {
    main = liftFunction(fn, 'control_point', (fileArg, scalarArg) => {
      const inFile = fileArg('vicp', cpArray(inputCp), inputCp);
      const cp = scalarArg('control_point_id');
      const prim = scalarArg('primitive_id');
      const o = L.f.local('o', file);
      const out: FileRef = { ptr: () => L.local(o) };
      return {
        inFile,
        outFile: out,
        returns: out,
        specials: new Map([
          ['control_point_id', cp],
          ['primitive_id', prim],
        ]),
      };
    });
    patchConstant.push(
      liftFunction(pcFn as Func, 'fork_0', (fileArg, scalarArg) => {
        const inFile = fileArg('vicp', cpArray(inputCp), inputCp);
        const ocpFile = fileArg('vocp', cpArray(outputCp), outputCp);
        scalarArg('instance_id');
        const prim = scalarArg('primitive_id');
        return {
          inFile,
          ocpFile,
          pcRead: global(pcGlobal),
          pcWrite: global(pcGlobal),
          specials: new Map([['primitive_id', prim]]),
        };
      }),
    );
  }
  L.ins = undefined;
  L.note(`a ${stage} program is lifted as stage functions (raw register arrays in, see docs/lift.md)`);
  if (stage === 'hull')
    L.note('the patch-constant function is lifted as the one patch-constant phase (fork_0), run once per patch');
  return {
    stage,
    interface: {
      inputs: varyings(ep.inputs, sf.domain),
      outputs: varyings(ep.outputs, sf.domain),
      patchConstants: varyings(ep.patchConstant, sf.domain),
      resources: resources.list,
    },
    provenance: { target, bytecode: 'DXIL', part: partKind, instructions },
    notes: L.notes,
    module: L.m.finish(),
    stageFunctions: { main, patchConstant, ...sf },
  };
}
