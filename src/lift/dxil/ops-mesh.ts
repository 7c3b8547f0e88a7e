// The dx.ops of mesh and amplification programs (mesh.ts lifts those as stage functions). What a
// thread group writes is group memory (workgroup globals the executor reads back after the group):
//
//   SetMeshOutputCounts (168)   mesh_counts[0] vertices, [1] primitives
//   EmitIndices (169)           mesh_indices[prim * K + j] (K: 3 for triangles, 2 for lines)
//   GetMeshPayload (170)        a pointer to mesh_payload (the words the amplification group passed)
//   StoreVertexOutput (171)     mesh_vertices[v * 128 + register * 4 + lane]
//   StorePrimitiveOutput (172)  mesh_primitives[p * 128 + register * 4 + lane]
//   DispatchMesh (173)          mesh_dispatch[0..2] the group counts, mesh_payload the payload's words
//
// Each vertex and primitive is a register file of 32 registers of four u32 lanes, an element's row r
// and column k at register startRow + r, lane startCol + k (as the stage functions of ops-stage.ts
// and lift/stage.ts hold theirs); elements outside the packed signature (SV_CullPrimitive) are given
// the registers after the packed ones (the interface's varyings say which). A write to a vertex or
// primitive past the declared maximum, or to a row past the element's rows, writes nothing
// (Direct3D leaves it undefined).

import type { ExprId, GlobalId } from '../../ir/ir.js';
import type { DxilSignatureElement } from '../../dxil/dxil-metadata.js';
import type { DxilLifter, Memory, PtrVal } from './lifter.js';
import { isExpr } from './lifter.js';
import { loadFrom, wordsOf } from './inst.js';
import { Type } from '../../dxil/ir.js';
import { type Handler, type OpContext, arg, toLane, u32 } from './ops-common.js';

/** Words in a vertex's or primitive's register file (32 registers of 4 words). */
export const FILE_WORDS = 128;

/** A signature element of a mesh program's vertex or primitive outputs, with its register. */
export interface MeshElement {
  readonly el: DxilSignatureElement;
  /** The register of row 0 (startRow, or one after the packed registers). */
  readonly register: number;
  /** The lane of column 0. */
  readonly lane: number;
}

/** What a mesh or amplification program's body writes (mesh.ts sets it). */
export interface MeshIo {
  readonly stage: 'mesh' | 'amplification';
  readonly vertices: ReadonlyMap<number, MeshElement>;
  readonly primitives: ReadonlyMap<number, MeshElement>;
  readonly maxVertices: number;
  readonly maxPrimitives: number;
  /** Indices per primitive: 3 (triangles) or 2 (lines). */
  readonly indicesPer: number;
  readonly payloadWords: number;
  /** The group memory, made on first use. */
  readonly global: (name: 'counts' | 'vertices' | 'primitives' | 'indices' | 'payload' | 'dispatch') => GlobalId;
}

function meshIo(L: DxilLifter, x: OpContext, stage: MeshIo['stage'], what: string): MeshIo {
  const s = x.meshIo;
  if (!s || s.stage !== stage)
    return L.invalid(`${what} outside ${stage === 'mesh' ? 'a mesh' : 'an amplification'} program`);
  return s;
}

/** Stores `value` at word `index` of a group array where `inRange` holds (nothing elsewhere). */
function storeGuarded(L: DxilLifter, g: GlobalId, index: ExprId, inRange: ExprId | undefined, value: ExprId): void {
  const store = { op: 'store' as const, pointer: L.access(L.global(g), index), value };
  const e = inRange !== undefined ? L.f.exprs[inRange] : undefined;
  if (inRange === undefined || (e?.op === 'literal' && e.bits !== 0)) L.f.stmt(store);
  else if (e?.op === 'literal') return;
  else L.f.stmtIf(inRange, [store]);
}

const setMeshOutputCounts: Handler = (L, c, x) => {
  const s = meshIo(L, x, 'mesh', 'SetMeshOutputCounts');
  const g = s.global('counts');
  L.f.stmt({ op: 'store', pointer: L.member(L.global(g), 0), value: u32(L, c, 1) });
  L.f.stmt({ op: 'store', pointer: L.member(L.global(g), 1), value: u32(L, c, 2) });
  return undefined;
};

const emitIndices: Handler = (L, c, x) => {
  const s = meshIo(L, x, 'mesh', 'EmitIndices');
  const g = s.global('indices');
  const prim = L.once(u32(L, c, 1), 'primitive');
  const inRange = L.once(L.bin('lt', prim, L.u32(s.maxPrimitives)), 'in_range');
  const base = L.once(L.bin('mul', prim, L.u32(s.indicesPer)), 'first');
  for (let j = 0; j < s.indicesPer; j++) {
    const v = L.once(u32(L, c, 2 + j), 'vertex');
    storeGuarded(L, g, j === 0 ? base : L.bin('add', base, L.u32(j)), inRange, v);
  }
  return undefined;
};

function storeMeshOutput(kind: 'vertices' | 'primitives'): Handler {
  return (L, c, x) => {
    const what = kind === 'vertices' ? 'StoreVertexOutput' : 'StorePrimitiveOutput';
    const s = meshIo(L, x, 'mesh', what);
    const map = kind === 'vertices' ? s.vertices : s.primitives;
    const max = kind === 'vertices' ? s.maxVertices : s.maxPrimitives;
    const id = L.imm(arg(L, c, 1), 'an output id');
    const me = map.get(id) ?? L.invalid(`${what}: element ${id} is not in the signature`);
    const col = L.imm(arg(L, c, 3), 'an output column');
    if (col >= me.el.cols) return L.invalid(`column ${col} of the ${me.el.cols}-column element ${me.el.name}`);
    const v = arg(L, c, 4);
    const value = L.once(toLane(L, L.num(v), v.type), 'value');
    const row = L.once(u32(L, c, 2), 'row');
    const item = L.once(u32(L, c, 5), kind === 'vertices' ? 'vertex' : 'primitive');
    let cond = L.bin('lt', item, L.u32(max));
    let word: ExprId;
    const re = L.f.exprs[row];
    if (re?.op === 'literal') {
      if (re.bits >= me.el.rows) return undefined; // a constant row past the element: nothing
      word = L.u32((me.register + re.bits) * 4 + me.lane + col);
    } else {
      cond = L.bin('and', cond, L.bin('lt', row, L.u32(me.el.rows)));
      word = L.bin('add', L.bin('mul', L.bin('add', row, L.u32(me.register)), L.u32(4)), L.u32(me.lane + col));
    }
    const index = L.bin('add', L.bin('mul', item, L.u32(FILE_WORDS)), word);
    storeGuarded(L, s.global(kind), index, cond, value);
    return undefined;
  };
}

/** The payload is held one word a scalar (inst.ts); one with narrower fields (16-bit types) takes
 * more words than its declared bytes: refused, its words would not be Direct3D's. */
function payloadFits(L: DxilLifter, words: number, s: MeshIo): void {
  if (words > s.payloadWords)
    L.refuse(
      'mesh and amplification',
      `a payload of ${words} scalars in ${s.payloadWords * 4} declared bytes (fields narrower than 32 bits)`,
    );
}

const getMeshPayload: Handler = (L, c, x) => {
  const s = meshIo(L, x, 'mesh', 'GetMeshPayload');
  const t = c.type.kind === 'ptr' ? c.type.elt : undefined;
  if (!t) return L.invalid('GetMeshPayload without a pointer result');
  payloadFits(L, wordsOf(L, t), s);
  const mem: Memory = {
    name: 'mesh_payload',
    global: s.global('payload'),
    words: s.payloadWords,
    atomic: false,
    space: 'workgroup',
  };
  return { kind: 'ptr', mem, offset: L.u32(0), type: t } satisfies PtrVal;
};

const dispatchMesh: Handler = (L, c, x) => {
  const s = meshIo(L, x, 'amplification', 'DispatchMesh');
  const d = s.global('dispatch');
  for (let k = 0; k < 3; k++) L.f.stmt({ op: 'store', pointer: L.member(L.global(d), k), value: u32(L, c, 1 + k) });
  const p = L.val(arg(L, c, 4));
  if (isExpr(p) || p.kind !== 'ptr') return L.invalid('DispatchMesh with a payload that is not memory');
  const words = wordsOf(L, p.type);
  payloadFits(L, words, s);
  if (!words) return undefined;
  const out = s.global('payload');
  const base = L.once(p.offset, 'payload_word');
  const word = new Type('int');
  word.width = 32;
  for (let k = 0; k < words; k++) {
    const at: PtrVal = { ...p, offset: k === 0 ? base : L.bin('add', base, L.u32(k)) };
    const w = L.once(loadFrom(L, at, word), 'payload');
    L.f.stmt({ op: 'store', pointer: L.member(L.global(out), k), value: w });
  }
  return undefined;
};

export const MESH_OPS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [168, setMeshOutputCounts],
  [169, emitIndices],
  [170, getMeshPayload],
  [171, storeMeshOutput('vertices')],
  [172, storeMeshOutput('primitives')],
  [173, dispatchMesh],
]);
