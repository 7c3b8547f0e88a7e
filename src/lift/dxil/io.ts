// Varyings of a lifted DXIL program, as the SM4/5 lifter lays them out (lift/io.ts): one entry
// argument or result member per signature element row, with its register (the element's start row
// plus the row) and lanes kept on the interface. Inside, each element is a local
// array<vec4<u32>, rows> of raw lanes (lane k is the element's column k): loadInput reads it,
// storeOutput writes it, and the result is composed from the output elements at each return.
// Locations are given in register order to the elements that are not builtins (pixel targets:
// their render target, as SV_Target's index); interpolation comes from the element's mode.

import type { Binding, Builtin, ExprId, LocalId, Scalar, StructMember, TypeId } from '../../ir/ir.js';
import type { Varying } from '../../ir/program.js';
import type { DxilSignatureElement } from '../../dxil/dxil-metadata.js';
import type { DxilLifter } from './lifter.js';
import { drawIdBuiltin, interpolation } from '../io.js';
import { drawOptions } from './pipeline.js';

/** DXIL::SemanticKind values used here. */
export const SK = {
  arbitrary: 0,
  vertexId: 1,
  instanceId: 2,
  position: 3,
  renderTargetArrayIndex: 4,
  viewportArrayIndex: 5,
  clipDistance: 6,
  cullDistance: 7,
  outputControlPointId: 8,
  domainLocation: 9,
  primitiveId: 10,
  gsInstanceId: 11,
  sampleIndex: 12,
  isFrontFace: 13,
  coverage: 14,
  innerCoverage: 15,
  target: 16,
  depth: 17,
  depthLessEqual: 18,
  depthGreaterEqual: 19,
  stencilRef: 20,
  tessFactor: 25,
  insideTessFactor: 26,
  viewId: 27,
  barycentrics: 28,
  shadingRate: 29,
  cullPrimitive: 30,
} as const;

/** DXIL semantic kind to D3D_NAME (the SM4/5 interface's systemValue). */
export const D3D_NAME: Readonly<Record<number, number>> = {
  [SK.position]: 1,
  [SK.clipDistance]: 2,
  [SK.cullDistance]: 3,
  [SK.renderTargetArrayIndex]: 4,
  [SK.viewportArrayIndex]: 5,
  [SK.vertexId]: 6,
  [SK.primitiveId]: 7,
  [SK.instanceId]: 8,
  [SK.isFrontFace]: 9,
  [SK.sampleIndex]: 10,
  [SK.tessFactor]: 11,
  [SK.insideTessFactor]: 15,
  [SK.target]: 64,
  [SK.depth]: 65,
  [SK.coverage]: 66,
  [SK.depthGreaterEqual]: 67,
  [SK.depthLessEqual]: 68,
  [SK.stencilRef]: 69,
  [SK.innerCoverage]: 70,
};

/** DXIL component type: the scalar a varying is held in, and D3D_REGISTER_COMPONENT_TYPE. */
export function varyingScalar(ct: number): { scalar: Scalar; d3d: number } {
  if (ct === 2 || ct === 4) return { scalar: 'i32', d3d: 2 };
  if (ct === 1 || ct === 3 || ct === 5) return { scalar: 'u32', d3d: 1 };
  return { scalar: 'f32', d3d: 3 };
}

/** One signature element as the lifter holds it. */
export interface IoElement {
  readonly el: DxilSignatureElement;
  readonly local: LocalId;
}

const identName = (el: DxilSignatureElement, row: number): string =>
  `${el.name.replace(/[^A-Za-z0-9_]/g, '_')}${el.indices[row] ?? row}`;

/** Rows in register order (elements apart from the packed signature, start row -1, last). */
function byRegister(els: readonly DxilSignatureElement[]): DxilSignatureElement[] {
  const key = (e: DxilSignatureElement) => (e.startRow < 0 ? 1 << 20 : e.startRow * 4 + e.startCol);
  return [...els].sort((a, b) => key(a) - key(b));
}

function rowsOf(L: DxilLifter, el: DxilSignatureElement): number {
  if (el.rows < 1 || el.rows > 32 || el.cols < 1 || el.cols > 4)
    return L.invalid(`signature element ${el.name} of ${el.rows} rows and ${el.cols} columns`);
  return el.rows;
}

/**
 * Declares the entry arguments of the input elements and the prologue that copies them into their
 * locals. `entry`: bindings are given (a stage function's arguments have none).
 */
export function buildInputs(
  L: DxilLifter,
  els: readonly DxilSignatureElement[],
  entry: boolean,
): { inputs: Map<number, IoElement>; varyings: Varying[] } {
  const inputs = new Map<number, IoElement>();
  const varyings: Varying[] = [];
  let location = 0;
  for (const el of byRegister(els)) {
    const rows = rowsOf(L, el);
    const local = L.f.local(`in_${el.name}${el.indices[0] ?? 0}`, L.m.array(L.tVec4, rows));
    inputs.set(el.id, { el, local });
    const { scalar, d3d } = varyingScalar(el.compType);
    for (let r = 0; r < rows; r++) {
      const name = identName(el, r);
      let binding: Binding;
      let type: TypeId;
      let lanes: (a: ExprId) => ExprId[];
      const builtin = inputBuiltin(L, el.semanticKind);
      if (builtin) {
        binding = { kind: 'builtin', builtin: builtin.builtin };
        type = builtin.type;
        lanes = builtin.lanes;
      } else {
        if (
          el.semanticKind === SK.primitiveId ||
          el.semanticKind === SK.renderTargetArrayIndex ||
          el.semanticKind === SK.viewportArrayIndex
        )
          L.note(
            `${el.name} has no WGSL builtin here: it is read from @location(${location}), the previous stage's to supply`,
          );
        const flat = scalar !== 'f32' && L.stage === 'pixel';
        const ip = L.stage === 'pixel' ? interpolation(el.interpMode) : {};
        binding = {
          kind: 'location',
          location,
          ...(flat ? { interpolation: 'flat' as const } : ip.interpolation ? { interpolation: ip.interpolation } : {}),
          ...(!flat && ip.sampling ? { sampling: ip.sampling } : {}),
        };
        location++;
        type = L.m.vec(scalar, el.cols);
        lanes = (a) => {
          const raw = scalar === 'u32' ? a : L.bitcast('u32', a);
          return el.cols === 1 ? [raw] : Array.from({ length: el.cols }, (_, k) => L.swz(raw, [k]));
        };
      }
      const argIndex = L.f.arg({ name, type, ...(entry ? { binding } : {}) });
      const parts = lanes(L.e({ op: 'arg', index: argIndex }));
      const row = L.member(L.local(local), r);
      parts.forEach((v, k) => L.f.stmt({ op: 'store', pointer: L.member(row, k), value: v }));
      varyings.push(varyingOf(name, el, r, d3d, binding));
    }
  }
  return { inputs, varyings };
}

function inputBuiltin(
  L: DxilLifter,
  sk: number,
): { builtin: Builtin; type: TypeId; lanes: (a: ExprId) => ExprId[] } | undefined {
  const u = (b: Builtin) => ({ builtin: b, type: L.tU32, lanes: (a: ExprId) => [a] });
  if (L.stage === 'pixel') {
    if (sk === SK.position)
      return {
        builtin: 'position',
        type: L.m.vec('f32', 4),
        lanes: (a) => {
          const raw = L.bitcast('u32', a);
          return [0, 1, 2, 3].map((k) => L.swz(raw, [k]));
        },
      };
    if (sk === SK.isFrontFace)
      return { builtin: 'front_facing', type: L.tBool, lanes: (a) => [L.sel(a, L.u32(0xffffffff), L.u32(0))] };
    if (sk === SK.sampleIndex) return u('sample_index');
  }
  if (L.stage === 'vertex' && (sk === SK.vertexId || sk === SK.instanceId))
    return drawIdBuiltin(L, sk === SK.vertexId, drawOptions(L));
  return undefined;
}

export interface OutputPlan {
  readonly outputs: Map<number, IoElement>;
  readonly type: TypeId | undefined;
  readonly build: () => ExprId | undefined;
  readonly varyings: Varying[];
  readonly hasPosition: boolean;
}

export function buildOutputs(L: DxilLifter, els: readonly DxilSignatureElement[], entry: boolean): OutputPlan {
  const outputs = new Map<number, IoElement>();
  const varyings: Varying[] = [];
  const members: StructMember[] = [];
  const values: (() => ExprId)[] = [];
  let hasPosition = false;
  let location = 0;
  for (const el of byRegister(els)) {
    const rows = rowsOf(L, el);
    const local = L.f.local(`out_${el.name}${el.indices[0] ?? 0}`, L.m.array(L.tVec4, rows));
    outputs.set(el.id, { el, local });
    const vs = varyingScalar(el.compType);
    let scalar = vs.scalar;
    const sk = el.semanticKind;
    if (sk === SK.stencilRef) L.refuse('system value not handled', 'SV_StencilRef has no WGSL counterpart');
    for (let r = 0; r < rows; r++) {
      let name = identName(el, r);
      let binding: Binding;
      let type: TypeId;
      let value: () => ExprId;
      const row = () => L.load(L.member(L.local(local), r));
      const lanes = (n: number) => {
        const v = row();
        return n === 4
          ? v
          : n === 1
            ? L.swz(v, [0])
            : L.swz(
                v,
                Array.from({ length: n }, (_, k) => k),
              );
      };
      if (L.stage === 'pixel' && (sk === SK.depth || sk === SK.depthGreaterEqual || sk === SK.depthLessEqual)) {
        if (sk !== SK.depth)
          L.note('a conservative depth output (SV_DepthGreaterEqual/LessEqual) is written as frag_depth');
        name = 'SV_Depth';
        binding = { kind: 'builtin', builtin: 'frag_depth' };
        type = L.tF32;
        value = () => L.bitcast('f32', lanes(1));
      } else if (L.stage === 'pixel' && sk === SK.coverage) {
        name = 'SV_Coverage';
        binding = { kind: 'builtin', builtin: 'sample_mask' };
        type = L.tU32;
        value = () => lanes(1);
      } else if (sk === SK.position && L.stage !== 'pixel') {
        if (el.cols !== 4) L.invalid('a position output of fewer than four lanes');
        binding = { kind: 'builtin', builtin: 'position' };
        scalar = 'f32';
        hasPosition = true;
        type = L.m.vec('f32', 4);
        value = () => L.bitcast('f32', lanes(4));
      } else {
        if (sk === SK.clipDistance || sk === SK.cullDistance)
          L.note(`${name} is written to a location (clip and cull distances are the pipeline's to apply)`);
        if (sk === SK.renderTargetArrayIndex || sk === SK.viewportArrayIndex || sk === SK.primitiveId)
          L.note(`${el.name} has no WGSL builtin: it is written to a location`);
        const loc = L.stage === 'pixel' ? (el.startRow < 0 ? 0 : el.startRow + r) : location++;
        binding = {
          kind: 'location',
          location: loc,
          ...(scalar !== 'f32' && L.stage !== 'pixel' ? { interpolation: 'flat' as const } : {}),
        };
        type = L.m.vec(scalar, el.cols);
        const s = scalar;
        value = () => {
          const raw = lanes(el.cols);
          return s === 'u32' ? raw : L.bitcast(s, raw);
        };
      }
      members.push({ name, type, ...(entry ? { binding } : {}) });
      values.push(value);
      varyings.push(varyingOf(name, el, r, vs.d3d, binding));
    }
  }
  if (!members.length) return { outputs, type: undefined, build: () => undefined, varyings, hasPosition };
  const type = L.m.type({ kind: 'struct', name: `${L.stage}_out`, members });
  let cached: ExprId | undefined;
  return {
    outputs,
    type,
    build: () => (cached ??= L.e({ op: 'compose', type, parts: values.map((v) => v()) })),
    varyings,
    hasPosition,
  };
}

function varyingOf(name: string, el: DxilSignatureElement, row: number, d3d: number, binding: Binding): Varying {
  return {
    name,
    semantic: el.name,
    semanticIndex: el.indices[row] ?? row,
    register: el.startRow < 0 ? -1 : el.startRow + row,
    mask: el.startCol < 0 ? (1 << el.cols) - 1 : ((1 << el.cols) - 1) << el.startCol,
    systemValue: D3D_NAME[el.semanticKind] ?? 0,
    componentType: d3d,
    ...(binding.kind === 'location' ? { location: binding.location } : { builtin: binding.builtin }),
  };
}

/** Reads lane `col` of row `row` (u32; zero past the element's rows) of an element's local. */
export function readElement(L: DxilLifter, io: IoElement, row: ExprId, col: number): ExprId {
  const rows = io.el.rows;
  if (col >= io.el.cols) return L.invalid(`column ${col} of the ${io.el.cols}-column element ${io.el.name}`);
  const e = L.f.exprs[row];
  const base = L.local(io.local);
  if (e && e.op === 'literal') {
    if (e.bits >= rows) return L.u32(0);
    return L.load(L.member(L.member(base, e.bits), col));
  }
  const clamped = L.math('min', row, L.u32(rows - 1));
  return L.sel(L.bin('lt', row, L.u32(rows)), L.load(L.member(L.access(base, clamped), col)), L.u32(0));
}

/** Writes lane `col` of row `row` of an element's local (nothing past its rows). */
export function writeElement(L: DxilLifter, io: IoElement, row: ExprId, col: number, value: ExprId): void {
  if (col >= io.el.cols) return L.invalid(`column ${col} of the ${io.el.cols}-column element ${io.el.name}`);
  const base = L.local(io.local);
  const e = L.f.exprs[row];
  if (e && e.op === 'literal') {
    if (e.bits < io.el.rows) L.f.stmt({ op: 'store', pointer: L.member(L.member(base, e.bits), col), value });
    return;
  }
  L.f.stmt({ op: 'store', pointer: L.member(L.access(base, row), col), value });
}
