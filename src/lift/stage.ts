// Hull, domain and geometry programs as stage functions (lifter-dxbc.md: "a stage that is not an
// entry point in WGSL ... lifts as functions, which iridia-exec runs"). Their inputs arrive as raw
// register arrays (four 32-bit lanes per register, 32 registers), the executor's to fill from the
// previous stage's outputs through the signatures in the interface; their outputs are returned
// (control points, domain points) or left in private globals (geometry `o` at each `emit`, hull
// patch constants `pc` after the fork and join phases).
//
//   geometry: main(v_in: array<array<vec4<u32>, 32>, V>, primitive_id: u32, instance_id: u32)
//             emit/cut statements: the private global `o` holds the vertex emitted.
//   hull:     control_point(vicp: array<array<vec4<u32>, 32>, CPin>, control_point_id: u32,
//                           primitive_id: u32) -> array<vec4<u32>, 32>
//             fork_<k>/join_<k>(vicp, vocp: array<array<vec4<u32>, 32>, CPout>, instance_id: u32,
//                           primitive_id: u32): write the private global `pc` (patch constants).
//   domain:   main(vicp: array<array<vec4<u32>, 32>, CP>, vpc: array<vec4<u32>, 32>,
//                  domain: vec3<f32>, primitive_id: u32) -> array<vec4<u32>, 32>

import { FunctionBuilder } from '../ir/builder.js';
import type { Builtin, ExprId, FunctionId, TypeId } from '../ir/ir.js';
import type { LiftOptions, Program, Stage, StageFunctions, Varying } from '../ir/program.js';
import type { Rdef } from '../parts/rdef.js';
import type { Signature } from '../parts/signature.js';
import type { Instruction, Program as TokenProgram } from '../sm4/types.js';
import { Flow, fallsThrough } from './flow.js';
import { declareIcb, liftInstruction } from './lift.js';
import { Subroutines } from './subroutines.js';
import type { Ifce } from '../parts/ifce.js';
import { Resources, scanUsage } from './resources.js';
import { Lifter, OT } from './state.js';
import { checkIoDecl } from './io.js';

/** Instances of one hull fork or join phase iridia reads (dcl_hs_*_phase_instance_count). */
const MAX_PHASE_INSTANCES = 128;

const REGS = 32;

interface Sigs {
  readonly inSig: Signature | undefined;
  readonly outSig: Signature | undefined;
  readonly pcSig: Signature | undefined;
  readonly rdef: Rdef | undefined;
  /** The class linkage part (class interfaces, interfaces.ts). */
  readonly ifce?: Ifce;
}

const PRIMITIVE_VERTICES: Readonly<Record<number, number>> = { 1: 1, 2: 2, 3: 3, 6: 4, 7: 6 };
const PRIMITIVES: Readonly<Record<number, string>> = {
  1: 'point',
  2: 'line',
  3: 'triangle',
  6: 'line_adj',
  7: 'triangle_adj',
};
const TOPOLOGIES: Readonly<Record<number, string>> = { 1: 'point_list', 3: 'line_strip', 5: 'triangle_strip' };
const DOMAINS: Readonly<Record<number, string>> = { 1: 'isoline', 2: 'tri', 3: 'quad' };
const PARTITIONINGS: Readonly<Record<number, string>> = {
  1: 'integer',
  2: 'pow2',
  3: 'fractional_odd',
  4: 'fractional_even',
};
const TESSELLATOR_OUTPUTS: Readonly<Record<number, string>> = {
  1: 'point',
  2: 'line',
  3: 'triangle_cw',
  4: 'triangle_ccw',
};

/** The elements of a signature; a geometry program's outputs of every stream (OSG5), each marked with
 * its stream when not 0. */
function varyings(sig: Signature | undefined): Varying[] {
  return (sig?.elements ?? []).map((e) => ({
    name: `${e.semanticName}${e.semanticIndex}`,
    semantic: e.semanticName,
    semanticIndex: e.semanticIndex,
    register: e.register,
    mask: e.mask,
    systemValue: e.systemValue,
    componentType: e.componentType,
    ...(e.stream ? { stream: e.stream } : {}),
  }));
}

export function liftStage(
  tokens: TokenProgram,
  part: string,
  sigs: Sigs,
  options: LiftOptions,
  stage: Stage,
  target: string,
): Program {
  const v = tokens.version;
  const is51 = v.major > 5 || (v.major === 5 && v.minor >= 1);
  const L = new Lifter(stage, part, is51);
  L.resources = new Resources(L, scanUsage(tokens.instructions, is51), sigs.rdef, options);
  const tVec4 = L.tVec4;
  const file = L.m.array(tVec4, REGS);
  const ins = tokens.instructions;
  const info: {
    -readonly [K in keyof StageFunctions]?: StageFunctions[K];
  } = {};
  let inputCp = 1;
  let outputCp = 0;
  let gsVertices = 1;
  const patchConstant: FunctionId[] = [];
  let main: FunctionId | undefined;
  // Private globals shared by the functions: outputs of a geometry program, patch constants of a hull.
  const oGlobal = stage === 'geometry' ? L.m.addGlobal({ name: 'o', space: 'private', type: file }) : undefined;
  const pcGlobal = stage === 'hull' ? L.m.addGlobal({ name: 'pc', space: 'private', type: file }) : undefined;

  // Global declarations (before the first phase or the first instruction of the body).
  const sections: { kind: 'main' | 'cp' | 'fork' | 'join'; from: number; to: number }[] = [];
  let cur: { kind: 'main' | 'cp' | 'fork' | 'join'; from: number } | undefined =
    stage === 'hull' ? undefined : { kind: 'main', from: 0 };
  const subs = Subroutines.of(L, ins);
  ins.forEach((i, k) => {
    if (k >= subs.end) return;
    if (i.opcode === 0x72 || i.opcode === 0x73 || i.opcode === 0x74) {
      if (cur) sections.push({ kind: cur.kind, from: cur.from, to: k });
      cur = { kind: i.opcode === 0x72 ? 'cp' : i.opcode === 0x73 ? 'fork' : 'join', from: k + 1 };
    }
  });
  if (cur) {
    const last = cur as { kind: 'main' | 'cp' | 'fork' | 'join'; from: number };
    sections.push({ kind: last.kind, from: last.from, to: subs.end });
  }
  const firstPhase = stage === 'hull' ? (sections[0]?.from ?? ins.length) - 1 : 0;
  for (let k = 0; k < firstPhase; k++) globalDecl(ins[k] as Instruction);

  function globalDecl(i: Instruction): boolean {
    L.ins = i;
    if (i.opcode === 0x35) {
      if (i.customData?.dataClass === 3) declareIcb(L, i);
      return true;
    }
    if (L.resources.declare(i)) return true;
    switch (i.opcode) {
      case 0x93:
        inputCp = (i.token >>> 11) & 0x3f;
        info.inputControlPoints = inputCp;
        return true;
      case 0x94:
        outputCp = (i.token >>> 11) & 0x3f;
        info.outputControlPoints = outputCp;
        return true;
      case 0x95: {
        const d = DOMAINS[(i.token >>> 11) & 3];
        if (d) info.domain = d;
        return true;
      }
      case 0x5d: {
        const p = (i.token >>> 11) & 0x3f;
        gsVertices = PRIMITIVE_VERTICES[p] ?? (p >= 8 && p <= 39 ? p - 7 : 1);
        info.primitive = PRIMITIVES[p] ?? `patch${gsVertices}`;
        return true;
      }
      case 0x5c: {
        const t = TOPOLOGIES[(i.token >>> 11) & 0x7f];
        if (t) info.primitive = `${info.primitive ?? ''}->${t}`;
        return true;
      }
      case 0x5e:
        info.maxVertexCount = i.values[0] ?? 0;
        if ((i.values[0] ?? 0) > 1024) L.invalid(`dcl_maxout ${i.values[0]} (Direct3D allows 1024)`);
        return true;
      case 0xce:
        info.instanceCount = i.values[0] ?? 1;
        if ((i.values[0] ?? 0) > 32) L.invalid(`dcl_gsinstances ${i.values[0]} (Direct3D allows 32)`);
        return true;
      case 0x6a:
        return true;
      case 0x96: {
        const p = PARTITIONINGS[(i.token >>> 11) & 7];
        if (p) info.partitioning = p;
        return true;
      }
      case 0x97: {
        const t = TESSELLATOR_OUTPUTS[(i.token >>> 11) & 7];
        if (t) info.tessellatorOutput = t;
        return true;
      }
      case 0x98:
        if (i.values[0] !== undefined) info.maxTessFactor = i.values[0] >>> 0;
        return true;
      case 0x71:
      case 0x8f:
      case 0x5b:
        return true;
    }
    if (i.opcode >= 0x5f && i.opcode <= 0x67) {
      checkIoDecl(L, i);
      return true; // I/O sizes are fixed at 32 registers
    }
    if (i.opcode === 0x99 || i.opcode === 0x9a) return true;
    if (i.opcode === 0x90 || i.opcode === 0x91 || i.opcode === 0x92) return L.classes.declare(L, i);
    return false;
  }

  const cpArray = (n: number): TypeId => L.m.array(file, Math.max(1, n));

  // The input arrays are sized before any function is built: a geometry or domain program declares
  // its primitive and control-point count inside its body (the hull program before its phases), and
  // an array declared with one element would clamp every vertex index to 0.
  const phaseInstances: number[] = [];
  let phase: number | undefined;
  for (const i of ins) {
    if (i.opcode === 0x5d) {
      const p = (i.token >>> 11) & 0x3f;
      gsVertices = PRIMITIVE_VERTICES[p] ?? (p >= 8 && p <= 39 ? p - 7 : 1);
    } else if (i.opcode === 0x93) inputCp = (i.token >>> 11) & 0x3f;
    else if (i.opcode === 0x94) outputCp = (i.token >>> 11) & 0x3f;
    else if (i.opcode === 0x73 || i.opcode === 0x74) {
      phase = phaseInstances.length;
      phaseInstances.push(1);
    } else if (i.opcode === 0x72) phase = undefined;
    else if ((i.opcode === 0x99 || i.opcode === 0x9a) && phase !== undefined) {
      const n = i.values[0] ?? 1;
      // Each instance of a fork or join phase writes patch constants: more instances than the 32
      // registers of 4 components a patch has is not a program (iridia's bound; a lane each).
      if (n < 1 || n > MAX_PHASE_INSTANCES) {
        L.ins = i;
        L.invalid(`a hull phase of ${n} instances (iridia reads 1 to ${MAX_PHASE_INSTANCES})`);
      }
      phaseInstances[phase] = n;
    }
  }
  if (stage === 'hull' && phaseInstances.length > 0) info.phaseInstances = phaseInstances;

  /** Geometry streams other than 0 the program emits to or cuts. */
  const streams = new Set<number>();
  /** Lifts one instruction of a phase or of a subroutine body it calls. */
  const one = (flow: Flow, i: Instruction): void => {
    if (i.opcode === 0x68) {
      const n = i.values[0] ?? 0;
      if (n > 4096) L.invalid(`dcl_temps ${n} (Direct3D allows 4096)`);
      for (let r = L.temps.length; r < n; r++) L.temps.push(L.f.local(`r${r}`, tVec4));
      return;
    }
    if (i.opcode === 0x69) {
      const [reg = 0, count = 0] = i.values;
      if (count === 0 || count > 4096) L.invalid(`dcl_indexableTemp of ${count} registers`);
      L.indexable.set(reg, { local: L.f.local(`x${reg}`, L.m.array(tVec4, count)), count });
      return;
    }
    if (i.opcode === 0x13 || i.opcode === 0x14 || i.opcode === 0x09 || (i.opcode >= 0x75 && i.opcode <= 0x77)) {
      if (stage !== 'geometry') L.invalid('emit/cut outside a geometry program');
      const stream = i.opcode >= 0x75 ? (i.operands[0]?.indices[0]?.imm ?? 0) : 0;
      if (stream > 3) L.invalid(`stream ${stream} (Direct3D has four)`);
      if (stream !== 0) streams.add(stream);
      if (i.opcode !== 0x09 && i.opcode !== 0x76) L.f.stmt({ op: 'emit', stream, origin: i.index });
      if (i.opcode === 0x09 || i.opcode === 0x76 || i.opcode === 0x14 || i.opcode === 0x77)
        L.f.stmt({ op: 'cut', stream, origin: i.index });
      return;
    }
    if (globalDecl(i)) return;
    liftInstruction(L, flow, i);
  };
  L.subroutines = { table: subs, liftOne: one };

  for (const sec of sections) {
    const kind = sec.kind;
    const name = stage === 'hull' ? (kind === 'cp' ? 'control_point' : `${kind}_${patchConstant.length}`) : 'main';
    L.f = new FunctionBuilder(L.m, name);
    L.temps.length = 0;
    L.indexable.clear();
    L.inputFiles.clear();
    L.special.clear();
    const addFile = (argName: string, opType: number, type: TypeId, count: number, outer?: number) => {
      const a = L.f.arg({ name: argName, type });
      const local = L.f.local(argName, type, L.e({ op: 'arg', index: a }));
      L.inputFiles.set(opType, { local, count, ...(outer !== undefined ? { outer } : {}) });
    };
    const addSpecial = (argName: string, opType: number, float = false, lanes = 1) => {
      const a = L.f.arg({ name: argName, type: float ? L.m.vec('f32', lanes) : L.tU32 });
      const local = L.f.local(`v_${argName}`, tVec4);
      L.special.set(opType, local);
      const arg = L.e({ op: 'arg', index: a });
      const raw = float ? L.bitcast('u32', arg) : arg;
      const parts: ExprId[] = [raw];
      for (let k = lanes; k < 4; k++) parts.push(L.u32(0));
      L.f.stmt({ op: 'store', pointer: L.local(local), value: L.e({ op: 'compose', type: tVec4, parts }) });
    };
    let returnsFile = false;
    if (stage === 'geometry') {
      addFile('v_in', OT.input, cpArray(gsVertices), REGS, Math.max(1, gsVertices));
      addSpecial('primitive_id', OT.primitiveId);
      addSpecial('instance_id', OT.gsInstanceId);
      L.outputs = { local: oGlobal as number, count: REGS, global: true };
    } else if (stage === 'domain') {
      addFile('vicp', OT.inputControlPoint, cpArray(inputCp), REGS, Math.max(1, inputCp));
      addFile('vpc', OT.inputPatchConstant, file, REGS);
      addSpecial('domain', OT.domainPoint, true, 3);
      addSpecial('primitive_id', OT.primitiveId);
      L.outputs = { local: L.f.local('o', file), count: REGS };
      returnsFile = true;
    } else if (kind === 'cp') {
      addFile('vicp', OT.input, cpArray(inputCp), REGS, Math.max(1, inputCp));
      L.inputFiles.set(
        OT.inputControlPoint,
        L.inputFiles.get(OT.input) as { local: number; count: number; outer: number },
      );
      addSpecial('control_point_id', OT.outputControlPointId);
      addSpecial('primitive_id', OT.primitiveId);
      L.outputs = { local: L.f.local('o', file), count: REGS };
      returnsFile = true;
    } else {
      addFile('vicp', OT.inputControlPoint, cpArray(inputCp), REGS, Math.max(1, inputCp));
      addFile('vocp', OT.outputControlPoint, cpArray(outputCp || inputCp), REGS, Math.max(1, outputCp || inputCp));
      addSpecial('instance_id', kind === 'fork' ? OT.forkInstanceId : OT.joinInstanceId);
      addSpecial('primitive_id', OT.primitiveId);
      L.inputFiles.set(OT.inputPatchConstant, { local: pcGlobal as number, count: REGS, global: true });
      L.outputs = { local: pcGlobal as number, count: REGS, global: true };
    }
    const outputs = L.outputs;
    const ret = () =>
      returnsFile ? { op: 'return' as const, value: L.load(L.fileBase(outputs)) } : { op: 'return' as const };
    const flow = new Flow(L, ret);
    for (let k = sec.from; k < sec.to; k++) {
      const i = ins[k] as Instruction;
      L.ins = i;
      one(flow, i);
    }
    L.ins = undefined;
    flow.finish();
    if (fallsThrough(L.f.openBlock())) L.f.stmt(ret());
    const id = L.m.addFunction(L.f.finish(returnsFile ? { type: file } : undefined));
    if (kind === 'fork' || kind === 'join') patchConstant.push(id);
    else main = id;
  }
  if (stage === 'hull' && main === undefined)
    L.note('the hull program has no control point phase: its input control points pass through');
  if (stage !== 'hull' && main === undefined) L.invalid('the program has no body');
  L.note(`a ${stage} program is lifted as stage functions (raw register arrays in, see docs/lift.md)`);
  if (streams.size) L.note(STREAMS_NOTE([0, ...streams].sort()));
  return {
    stage,
    interface: {
      inputs: varyings(sigs.inSig),
      outputs: varyings(sigs.outSig),
      patchConstants: varyings(sigs.pcSig),
      resources: L.resources.list,
      ...(L.classes.declared ? { classLinkage: L.classes.linkage(sigs.ifce)! } : {}),
    },
    provenance: { target, bytecode: 'DXBC', part, instructions: ins.length },
    notes: L.notes,
    module: L.m.finish(),
    stageFunctions: { main: main ?? -1, patchConstant, ...info },
  };
}

export type { Builtin };

/** The note of a geometry program writing several streams (both lifters). */
export const STREAMS_NOTE = (streams: readonly number[]): string =>
  `the geometry program writes streams ${streams.join(', ')}: each emitted vertex carries its stream, and which ` +
  "stream is rasterized is the pipeline's (RasterizedStream of its stream-output description, 0 by default)";
