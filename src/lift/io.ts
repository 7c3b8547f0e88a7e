// Varyings of a lifted program (lifter-dxbc.md, conventions): the signature registers are unpacked
// into one entry argument or result member per signature element, with its register and lanes in
// provenance. Inside, the program keeps Direct3D's register files: inputs are copied at entry into
// `v: array<vec4<u32>, N>` (raw lanes), outputs are collected from `o: array<vec4<u32>, N>` at every
// return. A pixel input's interpolation comes from its dcl_input_ps declaration.

import type { Binding, Builtin, ExprId, Interpolation, Sampling, Scalar, StructMember, TypeId } from '../ir/ir.js';
import type { Varying } from '../ir/program.js';
import type { Signature, SignatureElement } from '../parts/signature.js';
import type { Instruction, Operand } from '../sm4/types.js';
import { OT, type Lifter } from './state.js';

export interface IoDecl {
  readonly opType: number;
  readonly register: number;
  readonly mask: number;
  readonly sv: number;
  readonly interp: number;
  /** Outer dimension for two-dimensional inputs (geometry vertices, control points). */
  readonly outer: number | undefined;
}

/** D3D10_SB_NAME values used here. */
const SV = {
  position: 1,
  clipDistance: 2,
  cullDistance: 3,
  renderTargetArrayIndex: 4,
  viewportArrayIndex: 5,
  vertexId: 6,
  primitiveId: 7,
  instanceId: 8,
  isFrontFace: 9,
  sampleIndex: 10,
} as const;

const SPECIAL_INPUTS: Readonly<Record<number, { builtin: Builtin; lanes: number }>> = {
  [OT.threadId]: { builtin: 'global_invocation_id', lanes: 3 },
  [OT.threadGroupId]: { builtin: 'workgroup_id', lanes: 3 },
  [OT.threadIdInGroup]: { builtin: 'local_invocation_id', lanes: 3 },
  [OT.threadIdInGroupFlattened]: { builtin: 'local_invocation_index', lanes: 1 },
  [OT.inputCoverage]: { builtin: 'sample_mask', lanes: 1 },
};

export function ioDecl(ins: Instruction): IoDecl | undefined {
  if (ins.opcode < 0x5f || ins.opcode > 0x67) return undefined;
  const op = ins.operands[0];
  if (!op) return undefined;
  const twoD =
    op.indices.length === 2 &&
    (op.type === OT.input || op.type === OT.inputControlPoint || op.type === OT.outputControlPoint);
  const sv =
    ins.opcode === 0x60 ||
    ins.opcode === 0x61 ||
    ins.opcode === 0x63 ||
    ins.opcode === 0x64 ||
    ins.opcode === 0x66 ||
    ins.opcode === 0x67
      ? (ins.values[0] ?? 0)
      : 0;
  const interp = ins.opcode >= 0x62 && ins.opcode <= 0x64 ? (ins.token >>> 11) & 0xf : 0;
  return {
    opType: op.type,
    register: twoD ? (op.indices[1]?.imm ?? 0) : (op.indices[0]?.imm ?? 0),
    mask: op.numComponents === 2 ? op.mask : 1,
    sv,
    interp,
    outer: twoD ? (op.indices[0]?.imm ?? 0) : undefined,
  };
}

/** The register files a declaration sizes (v#, o#, vicp, vocp, vpc): 32 registers in Direct3D 11. */
const FILE_TYPES: ReadonlySet<number> = new Set([
  OT.input,
  OT.output,
  OT.inputControlPoint,
  OT.outputControlPoint,
  OT.inputPatchConstant,
]);

/** An input or output declaration as Direct3D accepts it, checked where it is read: a four-component
 * register named by a non-empty write mask, a register below 32, at most 32 vertices or control
 * points. */
export function checkIoDecl(L: Lifter, ins: Instruction): void {
  const o = ins.operands[0];
  const d = ioDecl(ins);
  if (!o || !d) return;
  if (o.numComponents === 2 && (o.selectionMode !== 0 || o.mask === 0))
    L.invalid(
      `a register declared with ${o.selectionMode !== 0 ? 'a swizzle' : 'an empty write mask'}, not a write mask`,
    );
  if (!FILE_TYPES.has(d.opType)) return;
  if (d.register >= 32) L.invalid(`register ${d.register} declared, past Direct3D's 32 registers`);
  if (d.outer !== undefined && d.outer > 32)
    L.invalid(`an array of ${d.outer} vertices or control points declared (Direct3D allows 32)`);
}

export function isOutputDecl(ins: Instruction): boolean {
  return ins.opcode >= 0x65 && ins.opcode <= 0x67;
}

function scalarOfComponent(ct: number): Scalar {
  return ct === 1 ? 'u32' : ct === 2 ? 'i32' : 'f32';
}

function lanesOf(mask: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < 4; k++) if (mask & (1 << k)) out.push(k);
  return out;
}

export function interpolation(mode: number): { interpolation?: Interpolation; sampling?: Sampling } {
  switch (mode) {
    case 1:
      return { interpolation: 'flat' };
    case 3:
      return { interpolation: 'perspective', sampling: 'centroid' };
    case 4:
      return { interpolation: 'linear' };
    case 5:
      return { interpolation: 'linear', sampling: 'centroid' };
    case 6:
      return { interpolation: 'perspective', sampling: 'sample' };
    case 7:
      return { interpolation: 'linear', sampling: 'sample' };
    default:
      return {};
  }
}

function elementsFor(sig: Signature | undefined, d: IoDecl, fallbackName: string): SignatureElement[] {
  const hits =
    sig?.elements.filter((e) => e.register === d.register && (e.mask & d.mask) !== 0 && e.stream === 0) ?? [];
  if (hits.length) return hits;
  return [
    {
      semanticName: fallbackName,
      semanticIndex: d.register,
      systemValue: d.sv,
      componentType:
        d.sv === SV.vertexId ||
        d.sv === SV.instanceId ||
        d.sv === SV.primitiveId ||
        d.sv === SV.sampleIndex ||
        d.sv === SV.isFrontFace ||
        d.sv === SV.renderTargetArrayIndex ||
        d.sv === SV.viewportArrayIndex
          ? 1
          : 3,
      register: d.register,
      mask: d.mask,
      readWriteMask: d.mask,
      stream: 0,
      minPrecision: 0,
    },
  ];
}

const identName = (e: SignatureElement): string => `${e.semanticName.replace(/[^A-Za-z0-9_]/g, '_')}${e.semanticIndex}`;

/**
 * Declares the entry function's arguments from the input declarations and writes the prologue
 * that copies them into the register files. Returns the varyings for the interface.
 */
export function buildInputs(
  L: Lifter,
  decls: readonly IoDecl[],
  sig: Signature | undefined,
  entry: boolean,
): Varying[] {
  const out: Varying[] = [];
  const vdecls = decls.filter((d) => d.opType === OT.input && d.outer === undefined);
  if (vdecls.length) {
    const count = Math.max(...vdecls.map((d) => d.register)) + 1;
    const local = L.f.local('v', L.m.array(L.tVec4, count));
    L.inputFiles.set(OT.input, { local, count });
    const seen = new Set<string>();
    let location = 0;
    for (const d of vdecls) {
      for (const el of elementsFor(sig, d, 'V')) {
        const key = `${el.register}:${el.mask}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const sv = d.sv || el.systemValue;
        const lanes = lanesOf(el.mask);
        let binding: Binding;
        let type: TypeId;
        let toLanes: (a: ExprId) => ExprId[];
        const builtin = inputBuiltin(L, sv);
        if (builtin) {
          binding = { kind: 'builtin', builtin: builtin.builtin };
          type = builtin.type;
          toLanes = builtin.lanes;
        } else {
          let s = scalarOfComponent(el.componentType);
          if (sv === SV.primitiveId || sv === SV.renderTargetArrayIndex || sv === SV.viewportArrayIndex) {
            s = 'u32';
            L.note(
              `${el.semanticName} has no WGSL builtin here: it is read from @location(${location}), the previous stage's to supply`,
            );
          }
          const ip = L.stage === 'pixel' ? interpolation(d.interp) : {};
          const flat = s !== 'f32' && L.stage === 'pixel';
          binding = {
            kind: 'location',
            location,
            ...(flat
              ? { interpolation: 'flat' as const }
              : ip.interpolation
                ? { interpolation: ip.interpolation }
                : {}),
            ...(!flat && ip.sampling ? { sampling: ip.sampling } : {}),
          };
          location++;
          type = L.m.vec(s, lanes.length);
          toLanes = (a) => {
            const raw = s === 'u32' ? a : L.bitcast('u32', a);
            return lanes.length === 1 ? [raw] : lanes.map((_, k) => L.swz(raw, [k]));
          };
        }
        const name = identName(el);
        const argIndex = L.f.arg({ name, type, ...(entry ? { binding } : {}) });
        const value = L.e({ op: 'arg', index: argIndex });
        const parts = toLanes(value);
        const reg = L.member(L.local(local), el.register);
        lanes.forEach((lane, k) => {
          const v = parts[k];
          if (v !== undefined) L.f.stmt({ op: 'store', pointer: L.member(reg, lane), value: v });
        });
        out.push(varyingOf(name, el, sv, binding));
      }
    }
  }
  // Registers that are system values of their own (vThreadID, vCoverage, ...).
  for (const d of decls) {
    const sp = SPECIAL_INPUTS[d.opType];
    if (!sp || L.special.has(d.opType)) continue;
    const type = L.m.vec('u32', sp.lanes);
    const argIndex = L.f.arg({
      name: sp.builtin,
      type,
      ...(entry ? { binding: { kind: 'builtin', builtin: sp.builtin } } : {}),
    });
    const local = L.f.local(`v_${sp.builtin}`, L.tVec4);
    L.special.set(d.opType, local);
    const a = L.e({ op: 'arg', index: argIndex });
    const parts = sp.lanes === 1 ? [a, L.u32(0), L.u32(0), L.u32(0)] : [a, L.u32(0)];
    L.f.stmt({ op: 'store', pointer: L.local(local), value: L.e({ op: 'compose', type: L.tVec4, parts }) });
    out.push({
      name: sp.builtin,
      semantic: sp.builtin,
      semanticIndex: 0,
      register: 0,
      mask: (1 << sp.lanes) - 1,
      systemValue: 0,
      componentType: 1,
      builtin: sp.builtin,
    });
  }
  return out;
}

/** The note a lift makes when a program reads SV_VertexID/SV_InstanceID with a start given, or
 * Shader Model 6.8's StartVertexLocation/StartInstanceLocation (LiftOptions.startVertexLocation). */
export function drawStartNote(vertex: number, instance: number, given: boolean): string {
  return `the draw's start vertex is ${vertex} and its start instance ${instance} (the lift options startVertexLocation and startInstanceLocation${given ? '' : ', by default'}): WGSL's vertex_index and instance_index include them, so draw with firstVertex (baseVertex) ${vertex} and firstInstance ${instance}; SV_VertexID and SV_InstanceID are vertex_index - ${vertex} and instance_index - ${instance}`;
}

/** SV_VertexID or SV_InstanceID from WGSL's vertex_index or instance_index: less the draw's start
 * (LiftOptions.startVertexLocation/startInstanceLocation; Direct3D's ids exclude it, WGSL's include it). */
export function drawIdBuiltin(
  L: { u32(v: number): ExprId; bin(fn: 'sub', a: ExprId, b: ExprId): ExprId; note(text: string): void; tU32: TypeId },
  vertex: boolean,
  options: { readonly startVertexLocation?: number; readonly startInstanceLocation?: number },
): { builtin: Builtin; type: TypeId; lanes: (a: ExprId) => ExprId[] } {
  const v = options.startVertexLocation;
  const i = options.startInstanceLocation;
  const start = (vertex ? v : i) ?? 0;
  if (v !== undefined || i !== undefined) L.note(drawStartNote(v ?? 0, i ?? 0, true));
  return {
    builtin: vertex ? 'vertex_index' : 'instance_index',
    type: L.tU32,
    lanes: (a) => [start === 0 ? a : L.bin('sub', a, L.u32(start))],
  };
}

function inputBuiltin(
  L: Lifter,
  sv: number,
): { builtin: Builtin; type: TypeId; lanes: (a: ExprId) => ExprId[] } | undefined {
  const u = (b: Builtin) => ({ builtin: b, type: L.tU32, lanes: (a: ExprId) => [a] });
  if (L.stage === 'pixel') {
    if (sv === SV.position) {
      const type = L.m.vec('f32', 4);
      return {
        builtin: 'position',
        type,
        lanes: (a) => {
          const raw = L.bitcast('u32', a);
          return [0, 1, 2, 3].map((k) => L.swz(raw, [k]));
        },
      };
    }
    if (sv === SV.isFrontFace)
      return {
        builtin: 'front_facing',
        type: L.m.scalar('bool'),
        lanes: (a) => [L.sel(a, L.u32(0xffffffff), L.u32(0))],
      };
    if (sv === SV.sampleIndex) return u('sample_index');
  }
  if (L.stage === 'vertex' && (sv === SV.vertexId || sv === SV.instanceId))
    return drawIdBuiltin(L, sv === SV.vertexId, L.resources.options);
  return undefined;
}

export interface OutputPlan {
  readonly type: TypeId | undefined;
  readonly build: () => ExprId | undefined;
  readonly varyings: Varying[];
  readonly hasPosition: boolean;
}

/** Declares the output register files and the result struct built from them at each return. */
export function buildOutputs(
  L: Lifter,
  decls: readonly IoDecl[],
  sig: Signature | undefined,
  entry: boolean,
): OutputPlan {
  const odecls = decls.filter((d) => d.opType === OT.output);
  const varyings: Varying[] = [];
  const members: StructMember[] = [];
  const values: (() => ExprId)[] = [];
  let hasPosition = false;
  let oLocal: number | undefined;
  if (odecls.length) {
    const count = Math.max(...odecls.map((d) => d.register)) + 1;
    oLocal = L.f.local('o', L.m.array(L.tVec4, count));
    L.outputs = { local: oLocal, count };
  }
  let location = 0;
  const seen = new Set<string>();
  for (const d of odecls) {
    for (const el of elementsFor(sig, d, L.stage === 'pixel' ? 'SV_Target' : 'O')) {
      const key = `${el.register}:${el.mask}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const sv = d.sv || el.systemValue;
      const lanes = lanesOf(el.mask);
      let s = scalarOfComponent(el.componentType);
      let binding: Binding;
      if (sv === SV.position && L.stage !== 'pixel') {
        binding = { kind: 'builtin', builtin: 'position' };
        s = 'f32';
        hasPosition = true;
        if (lanes.length !== 4) L.invalid('a position output of fewer than four lanes');
      } else {
        if (sv === SV.clipDistance || sv === SV.cullDistance)
          L.note(
            `${el.semanticName}${el.semanticIndex} is written to @location(${L.stage === 'pixel' ? el.register : location}) (clip and cull distances are the pipeline's to apply)`,
          );
        if (sv === SV.renderTargetArrayIndex || sv === SV.viewportArrayIndex || sv === SV.primitiveId)
          L.note(`${el.semanticName} has no WGSL builtin: it is written to a location`);
        const loc = L.stage === 'pixel' ? el.register : location++;
        binding = {
          kind: 'location',
          location: loc,
          ...(s !== 'f32' && L.stage !== 'pixel' ? { interpolation: 'flat' as const } : {}),
        };
      }
      const name = identName(el);
      const type = L.m.vec(s, lanes.length);
      members.push({ name, type, ...(entry ? { binding } : {}) });
      const reg = el.register;
      values.push(() => {
        const row = L.load(L.member(L.local(oLocal as number), reg));
        const raw = lanes.length === 4 ? row : L.swz(row, lanes);
        return s === 'u32' ? raw : L.bitcast(s, raw);
      });
      varyings.push(varyingOf(name, el, sv, binding));
    }
  }
  // One-lane output registers.
  for (const d of decls) {
    if (d.opType === OT.outputStencilRef) L.refuse('system value not handled', 'SV_StencilRef has no WGSL counterpart');
    const depth = d.opType === OT.outputDepth || d.opType === OT.outputDepthGE || d.opType === OT.outputDepthLE;
    if (!depth && d.opType !== OT.outputCoverage) continue;
    if (L.special.has(d.opType)) continue;
    const local = L.f.local(depth ? 'oDepth' : 'oMask', L.tVec4);
    L.special.set(d.opType, local);
    if (d.opType !== OT.outputDepth && depth)
      L.note('a conservative depth output (SV_DepthGreaterEqual/LessEqual) is written as frag_depth');
    const builtin: Builtin = depth ? 'frag_depth' : 'sample_mask';
    const type = depth ? L.m.scalar('f32') : L.tU32;
    members.push({
      name: depth ? 'SV_Depth' : 'SV_Coverage',
      type,
      ...(entry ? { binding: { kind: 'builtin', builtin } } : {}),
    });
    values.push(() => {
      const x = L.swz(L.load(L.local(local)), [0]);
      return depth ? L.bitcast('f32', x) : x;
    });
    // the semantic as the signature spells it (SV_DepthGreaterEqual, SV_DepthLessEqual keep their promise
    // in the interface although WGSL writes frag_depth)
    const spelled = sig?.elements.find((el) =>
      depth ? /^SV_Depth(GreaterEqual|LessEqual)?$/i.test(el.semanticName) : /^SV_Coverage$/i.test(el.semanticName),
    )?.semanticName;
    varyings.push({
      name: depth ? 'SV_Depth' : 'SV_Coverage',
      semantic: spelled ?? (depth ? 'SV_Depth' : 'SV_Coverage'),
      semanticIndex: 0,
      register: 0,
      mask: 1,
      systemValue: 0,
      componentType: depth ? 3 : 1,
      builtin,
    });
  }
  if (!members.length) return { type: undefined, build: () => undefined, varyings, hasPosition };
  const type = L.m.type({ kind: 'struct', name: `${L.stage}_out`, members });
  let cached: ExprId | undefined;
  return {
    type,
    build: () => (cached ??= L.e({ op: 'compose', type, parts: values.map((v) => v()) })),
    varyings,
    hasPosition,
  };
}

export type { Operand };

/** The interface record of one signature element lifted as an argument or result member. */
function varyingOf(name: string, el: SignatureElement, systemValue: number, binding: Binding): Varying {
  return {
    name,
    semantic: el.semanticName,
    semanticIndex: el.semanticIndex,
    register: el.register,
    mask: el.mask,
    systemValue,
    componentType: el.componentType,
    ...(binding.kind === 'location' ? { location: binding.location } : { builtin: binding.builtin }),
  };
}
