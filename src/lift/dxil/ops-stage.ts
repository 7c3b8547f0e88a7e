// The dx.ops of hull, domain and geometry programs (stage.ts lifts those as stage functions):
// inputs and outputs are raw register files (32 registers of four u32 lanes), an element's row r
// and column k at register startRow + r, lane startCol + k, as the SM4/5 lifter's stage functions
// hold them (lift/stage.ts), so the executor fills and reads both builds alike.
//
//   loadInput (4)               the input file (v_in, vicp) of vertex / control point operand 4
//   storeOutput (5)             the output file (`o`: a local returned, a private global in a
//                               geometry program)
//   EmitStream, CutStream, EmitThenCutStream (97-99)   emit / cut of the stream (0 to 3)
//   GSInstanceID (100), OutputControlPointID (107), PrimitiveID (108), DomainLocation (105)
//                               the stage function's arguments
//   LoadOutputControlPoint (103) vocp; LoadPatchConstant (104) vpc; StorePatchConstant (106) `pc`
//
// Other programs (vertex, pixel, compute) have no stage context: their loadInput and storeOutput
// are the per-element locals of io.ts (entryLoadInput, entryStoreOutput in ops-common.ts).

import type { ExprId } from '../../ir/ir.js';
import type { DxilSignatureElement } from '../../dxil/dxil-metadata.js';
import type { DxilLifter } from './lifter.js';
import { type Handler, arg, entryLoadInput, entryStoreOutput, fromLane, toLane, u32, undef } from './ops-common.js';

/** Registers in a register file. */
export const REGS = 32;

/** A register file, or an array of them (one per vertex or control point). */
export interface FileRef {
  /** A pointer to the file (or to the array of files). */
  readonly ptr: () => ExprId;
  /** Files in the array; undefined: a single file. */
  readonly count?: number;
}

/** What a stage function's body reads and writes (one per lifted function). */
export interface StageIo {
  readonly stage: 'hull' | 'domain' | 'geometry';
  readonly inputs: ReadonlyMap<number, DxilSignatureElement>;
  readonly outputs: ReadonlyMap<number, DxilSignatureElement>;
  readonly patch: ReadonlyMap<number, DxilSignatureElement>;
  /** v_in or vicp. */
  readonly inFile?: FileRef;
  /** The output file (storeOutput). */
  readonly outFile?: FileRef;
  /** vocp (a hull program's patch-constant function). */
  readonly ocpFile?: FileRef;
  /** The patch constants read (vpc) and written (pc). */
  readonly pcRead?: FileRef;
  readonly pcWrite?: FileRef;
  /** The function's scalar arguments by name (primitive_id, instance_id, control_point_id, domain). */
  readonly specials: ReadonlyMap<string, number>;
}

function signatureElement(
  L: DxilLifter,
  map: ReadonlyMap<number, DxilSignatureElement>,
  c: Parameters<Handler>[1],
  what: string,
): DxilSignatureElement {
  const id = L.imm(arg(L, c, 1), `an ${what} id`);
  const el = map.get(id) ?? L.invalid(`${what} element ${id} is not in the signature`);
  if (el.startRow < 0)
    L.refuse('system value not handled', `${el.name} is not in a register (a system value without a dx.op)`);
  if (el.startRow + el.rows > REGS || el.startCol + el.cols > 4)
    L.invalid(`signature element ${el.name} at row ${el.startRow}, column ${el.startCol} is outside the register file`);
  return el;
}

function fileOf(L: DxilLifter, f: FileRef, index: ExprId | undefined): ExprId {
  const base = f.ptr();
  if (f.count === undefined) return base;
  const last = Math.max(1, f.count) - 1;
  const ix = index ?? L.u32(0);
  const e = L.f.exprs[ix];
  if (e && e.op === 'literal') return L.member(base, Math.min(e.bits, last));
  return L.access(base, L.math('min', ix, L.u32(last)));
}

/** Lane `col` of row `row` of an element in a file: u32, zero past the element's rows. */
function readLane(L: DxilLifter, file: ExprId, el: DxilSignatureElement, row: ExprId, col: number): ExprId {
  if (col >= el.cols) return L.invalid(`column ${col} of the ${el.cols}-column element ${el.name}`);
  const lane = el.startCol + col;
  const e = L.f.exprs[row];
  if (e && e.op === 'literal') {
    if (e.bits >= el.rows) return L.u32(0);
    return L.load(L.member(L.member(file, el.startRow + e.bits), lane));
  }
  const r = L.once(row, 'row');
  const reg = L.bin('add', L.math('min', r, L.u32(el.rows - 1)), L.u32(el.startRow));
  return L.sel(L.bin('lt', r, L.u32(el.rows)), L.load(L.member(L.access(file, reg), lane)), L.u32(0));
}

/** Writes lane `col` of row `row` of an element in a file (nothing past the element's rows). */
function writeLane(L: DxilLifter, file: ExprId, el: DxilSignatureElement, row: ExprId, col: number, value: ExprId) {
  if (col >= el.cols) return L.invalid(`column ${col} of the ${el.cols}-column element ${el.name}`);
  const lane = el.startCol + col;
  const e = L.f.exprs[row];
  if (e && e.op === 'literal') {
    if (e.bits < el.rows)
      L.f.stmt({ op: 'store', pointer: L.member(L.member(file, el.startRow + e.bits), lane), value });
    return;
  }
  const r = L.once(row, 'row');
  const reg = L.bin('add', L.math('min', r, L.u32(el.rows - 1)), L.u32(el.startRow));
  const at = L.once(reg, 'register');
  const old = L.load(L.member(L.access(file, at), lane));
  L.f.stmt({
    op: 'store',
    pointer: L.member(L.access(file, at), lane),
    value: L.sel(L.bin('lt', r, L.u32(el.rows)), value, old),
  });
}

function need<T>(L: DxilLifter, v: T | undefined, what: string): T {
  return v ?? L.invalid(what);
}

const loadInput: Handler = (L, c, x) => {
  const s = x.stageIo;
  if (!s) {
    if (!undef(L, c, 4)) L.invalid('loadInput with a vertex index outside a geometry program');
    return entryLoadInput(L, c, x);
  }
  const el = signatureElement(L, s.inputs, c, 'input');
  const file = fileOf(L, need(L, s.inFile, 'loadInput in a function without input control points'), indexOf(L, c, 4));
  return fromLane(L, readLane(L, file, el, u32(L, c, 2), L.imm(arg(L, c, 3), 'an input column')), c.type);
};

const storeOutput: Handler = (L, c, x) => {
  const s = x.stageIo;
  if (!s) return entryStoreOutput(L, c, x);
  const v = arg(L, c, 4);
  const col = L.imm(arg(L, c, 3), 'an output column');
  const el = signatureElement(L, s.outputs, c, 'output');
  const file = fileOf(L, need(L, s.outFile, 'storeOutput in a patch-constant function'), undefined);
  writeLane(L, file, el, u32(L, c, 2), col, toLane(L, L.num(v), v.type));
  return undefined;
};

/** A vertex or control point index operand (undef: 0). */
function indexOf(L: DxilLifter, c: Parameters<Handler>[1], k: number): ExprId {
  return undef(L, c, k) ? L.u32(0) : u32(L, c, k);
}

function special(name: string, what: string): Handler {
  return (L, _c, x) => {
    const s = x.stageIo;
    const a = s?.specials.get(name);
    if (a === undefined) return L.refuse('system value not handled', `${what} in a ${s?.stage ?? L.stage} program`);
    return L.e({ op: 'arg', index: a });
  };
}

function emitCut(emit: boolean, cut: boolean): Handler {
  return (L, c, x) => {
    const s = x.stageIo;
    if (s?.stage !== 'geometry') return L.invalid('emit/cut outside a geometry program');
    const stream = L.imm(arg(L, c, 1), 'a stream id');
    if (stream > 3) return L.invalid(`stream ${stream} (Direct3D has four)`);
    if (emit) L.f.stmt({ op: 'emit', stream });
    if (cut) L.f.stmt({ op: 'cut', stream });
    return undefined;
  };
}

const loadOutputControlPoint: Handler = (L, c, x) => {
  const s = x.stageIo;
  const f = s?.ocpFile;
  if (!s || !f) return L.invalid('LoadOutputControlPoint outside a hull program\u2019s patch-constant function');
  const el = signatureElement(L, s.outputs, c, 'output');
  const file = fileOf(L, f, indexOf(L, c, 4));
  return fromLane(L, readLane(L, file, el, u32(L, c, 2), L.imm(arg(L, c, 3), 'a column')), c.type);
};

const loadPatchConstant: Handler = (L, c, x) => {
  const s = x.stageIo;
  const f = s?.pcRead;
  if (!s || !f) return L.invalid('LoadPatchConstant outside a domain or hull program');
  const el = signatureElement(L, s.patch, c, 'patch constant');
  return fromLane(L, readLane(L, f.ptr(), el, u32(L, c, 2), L.imm(arg(L, c, 3), 'a column')), c.type);
};

const storePatchConstant: Handler = (L, c, x) => {
  const s = x.stageIo;
  const f = s?.pcWrite;
  if (!s || !f) return L.invalid('StorePatchConstant outside a hull program\u2019s patch-constant function');
  const el = signatureElement(L, s.patch, c, 'patch constant');
  const v = arg(L, c, 4);
  writeLane(L, f.ptr(), el, u32(L, c, 2), L.imm(arg(L, c, 3), 'a column'), toLane(L, L.num(v), v.type));
  return undefined;
};

const domainLocation: Handler = (L, c, x) => {
  const a = x.stageIo?.specials.get('domain');
  if (a === undefined) return L.invalid('DomainLocation outside a domain program');
  const k = L.imm(arg(L, c, 1), 'a domain component');
  if (k > 2) return L.invalid(`component ${k} of the domain location`);
  return L.swz(L.e({ op: 'arg', index: a }), [k]);
};

export const STAGE_OPS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [4, loadInput],
  [5, storeOutput],
  [97, emitCut(true, false)],
  [98, emitCut(false, true)],
  [99, emitCut(true, true)],
  [100, special('gs_instance', 'GSInstanceID')],
  [103, loadOutputControlPoint],
  [104, loadPatchConstant],
  [105, domainLocation],
  [106, storePatchConstant],
  [107, special('control_point_id', 'OutputControlPointID')],
  [108, special('primitive_id', 'PrimitiveID')],
]);
