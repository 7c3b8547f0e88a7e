// dx.op calls (DXIL.rst, hctdb.py: the operation table, opcode first) as IR, with Direct3D's
// results written out as the SM4/5 lifter writes them (alu.ts, memory.ts, semantics.ts): NaN rules
// of min/max and saturate, guarded exp/log/sqrt/rsqrt/frc, firstbit counts, bit-field edges, zero
// for reads out of range and nothing for writes out of range. Each handler reads its operands by
// DXIL's numbering (operand 0 is the opcode). An operation not listed is refused by name.

import { makeStmt } from '../../ir/nodes.js';
import type { Expr, ExprId, SampleLevel, Scalar, Stmt } from '../../ir/ir.js';
import { numberList, objectList } from '../../binary/lists.js';
import { Constant, type Instruction, type Type, type Value } from '../../dxil/ir.js';
import { dxOp, dxOpName } from '../../dxil/dxop.js';
import { LEGACY_CLASS, dxOpSignatureFault, dxOpTypeName } from '../../dxil/dxop-check.js';
import { resourceKindRule } from './kinds.js';
import { guardedExp2, guardedFrc, guardedLog2, guardedRsq, guardedSqrt, msad, udivBy } from '../semantics.js';
import type { DxilLifter, Val } from './lifter.js';
import type { DxResource } from './resources.js';
import { EXTRA_OPS } from './ops-extra.js';
import { cbufferLoad64, cbufferRow64, fabs64, loadWords64, minMax64, saturate64, storeWords64 } from './ops-f64.js';
import { coordLayout } from '../memory.js';
import { texelAtomic, texelDimensions, texelLoad, texelStore, textureStoreSample, wordsAtomic64 } from './texels.js';
import { computeDerivative } from './quad.js';
import { liftVectorDxOp } from './ops-vector.js';
import { hasVector } from './vector.js';
import { constantOffsets, switchedSample } from './offsets.js';
import {
  arg,
  builtinArg,
  fromLane,
  handleOf,
  num,
  resourceOf,
  samplerOf,
  retType,
  toLane,
  u32,
  undef,
  vec,
  type Handler,
  type OpContext,
} from './ops-common.js';

export type { Handler, OpContext } from './ops-common.js';

function unaryF(fn: (L: DxilLifter, x: ExprId, t: Type) => ExprId): Handler {
  return (L, c) => L.roundHalf(fn(L, num(L, c, 1), c.type), c.type);
}

/** Direct3D's min/max: a NaN operand yields the other operand. */
function nanMinMax(fn: 'min' | 'max'): Handler {
  return (L, c) => {
    if (c.type.kind === 'double') return minMax64(L, c, fn);
    const x = L.once(num(L, c, 1));
    const y = L.once(num(L, c, 2));
    return L.roundHalf(L.sel(L.isNaN(x), y, L.sel(L.isNaN(y), x, L.math(fn, x, y))), c.type);
  };
}

function intMinMax(fn: 'min' | 'max', signed: boolean): Handler {
  return (L, c) => {
    const t = c.type;
    const a = num(L, c, 1);
    const b = num(L, c, 2);
    if (!signed) return L.math(fn, a, b);
    return L.wrap(L.bitcast('u32', L.math(fn, L.signed(a, t), L.signed(b, t))), t);
  };
}

function saturate(L: DxilLifter, x: ExprId): ExprId {
  const v = L.once(x, 'sat');
  return L.sel(L.isNaN(v), L.f32bits(0), L.math('clamp', v, L.f32bits(0), L.f32bits(0x3f800000)));
}

function bitTest(kind: 'nan' | 'inf' | 'finite' | 'normal'): Handler {
  return (L, c) => {
    const bits = L.once(L.bin('and', L.bitcast('u32', num(L, c, 1)), L.u32(0x7fffffff)), 'magnitude');
    const exp = L.bin('and', bits, L.u32(0x7f800000));
    switch (kind) {
      case 'nan':
        return L.bin('gt', bits, L.u32(0x7f800000));
      case 'inf':
        return L.bin('eq', bits, L.u32(0x7f800000));
      case 'finite':
        return L.bin('lt', bits, L.u32(0x7f800000));
      case 'normal':
        // a half is held as the f32 of its value: binary16's normals are those from 2^-14 up
        if (c.type.kind !== 'half' && c.ops[1]?.type.kind === 'half')
          return L.bin('and', L.bin('ge', bits, L.u32(0x38800000)), L.bin('lt', bits, L.u32(0x7f800000)));
        return L.bin('and', L.bin('ne', exp, L.u32(0)), L.bin('ne', exp, L.u32(0x7f800000)));
    }
  };
}

/** An IR math function of every float operand, NaN and range rules left to the function. */
const mathF =
  (fn: Parameters<DxilLifter['math']>[0]): Handler =>
  (L, c) =>
    L.roundHalf(L.math(fn, ...c.ops.slice(1).map((o) => L.num(o))), c.type);

const guarded = (g: (L: DxilLifter, a: ExprId[], n: number) => ExprId): Handler => unaryF((L, x) => g(L, [x], 1));

function dot(n: number): Handler {
  return (L, c) => {
    const a = c.ops.slice(1, 1 + n).map((o) => L.num(o));
    const b = c.ops.slice(1 + n, 1 + 2 * n).map((o) => L.num(o));
    const vt = L.m.vec('f32', n);
    return L.roundHalf(
      L.math('dot', L.e({ op: 'compose', type: vt, parts: a }), L.e({ op: 'compose', type: vt, parts: b })),
      c.type,
    );
  };
}

/** firstbit_hi (from the top bit down, as Direct3D counts) and firstbit_shi. */
function firstbitHi(signed: boolean): Handler {
  return (L, c) => {
    const x = u32(L, c, 1);
    if (!signed) {
      const v = L.once(x);
      return L.sel(
        L.bin('eq', v, L.u32(0)),
        L.u32(0xffffffff),
        L.bin('sub', L.u32(31), L.math('first_leading_bit', v)),
      );
    }
    const r = L.once(L.bitcast('u32', L.math('first_leading_bit', L.bitcast('i32', x))));
    return L.sel(L.bin('eq', r, L.u32(0xffffffff)), L.u32(0xffffffff), L.bin('sub', L.u32(31), r));
  };
}

/** ibfe/ubfe (width, offset, value) with Direct3D's edges: width and offset their low 5 bits. */
function bfe(signed: boolean): Handler {
  return (L, c) => {
    const width = L.once(L.bin('and', u32(L, c, 1), L.u32(31)), 'width');
    const offset = L.once(L.bin('and', u32(L, c, 2), L.u32(31)), 'offset');
    const value = u32(L, c, 3);
    const count = L.math('min', width, L.bin('sub', L.u32(32), offset));
    const v = signed ? L.bitcast('i32', value) : value;
    const ex = L.math('extract_bits', v, offset, count);
    const r = signed ? L.bitcast('u32', ex) : ex;
    // width 0 gives 0; width + offset past 32 takes the bits up to the top (Direct3D's rule), which
    // for ibfe sign-extends from bit 31
    const widthZero = L.bin('eq', width, L.u32(0));
    if (!signed) return L.sel(widthZero, L.u32(0), r);
    const past = L.bin('ge', L.bin('add', width, offset), L.u32(32));
    const top = L.bitcast('u32', L.bin('shr', L.bitcast('i32', value), offset));
    return L.sel(widthZero, L.u32(0), L.sel(past, top, r));
  };
}

const bfi: Handler = (L, c) => {
  const width = L.once(L.bin('and', u32(L, c, 1), L.u32(31)), 'width');
  const offset = L.once(L.bin('and', u32(L, c, 2), L.u32(31)), 'offset');
  const value = u32(L, c, 3);
  const replaced = u32(L, c, 4);
  const count = L.math('min', width, L.bin('sub', L.u32(32), offset));
  return L.math('insert_bits', replaced, value, offset, count);
};

/** uaddc / usubb: {result, carry or borrow}. */
function carry(sub: boolean): Handler {
  return (L, c) => {
    const a = L.once(u32(L, c, 1));
    const b = L.once(u32(L, c, 2));
    const r = L.once(L.bin(sub ? 'sub' : 'add', a, b));
    const flag = sub ? L.bin('lt', a, b) : L.bin('lt', r, a);
    return { kind: 'tuple', parts: [r, L.sel(flag, L.u32(1), L.u32(0))] };
  };
}

function deriv(axis: 'x' | 'y', control: 'coarse' | 'fine'): Handler {
  return (L, c, x) => {
    // Shader Model 6.6 compute: across the thread group's quads (quad.ts)
    if (L.stage === 'compute')
      return L.roundHalf(
        computeDerivative(
          L,
          x,
          num(L, c, 1),
          1,
          axis,
          control,
          `Deriv${control === 'coarse' ? 'Coarse' : 'Fine'}${axis.toUpperCase()}`,
        ),
        c.type,
      );
    if (L.stage !== 'pixel') {
      L.note('a derivative outside a pixel program is 0');
      return L.f32bits(0);
    }
    return L.roundHalf(L.e({ op: 'derivative', axis, control, value: num(L, c, 1) }), c.type);
  };
}

// ---- inputs, outputs and system values ---------------------------------------------------

function threadVector(builtin: 'global_invocation_id' | 'workgroup_id' | 'local_invocation_id'): Handler {
  return (L, c, x) => {
    if (L.stage !== 'compute') return L.refuse('system value not handled', `${builtin} outside a compute program`);
    const comp = L.imm(arg(L, c, 1), 'a component');
    if (comp > 2) return L.invalid(`component ${comp} of a thread id`);
    return L.swz(builtinArg(L, x, builtin), [comp]);
  };
}

// ---- resources ----------------------------------------------------------------------------

const createHandle: Handler = (L, c, x) => x.resources.handle(c, L.imm(c.ops[0], 'an opcode'));
const annotateHandle: Handler = (L, c) => handleOf(L, arg(L, c, 1));

/** A ResRet of four lanes of the overload scalar, status last. */
function resRet(L: DxilLifter, c: Instruction, lanes: ExprId[], status: ExprId = L.u32(0)): Val {
  const t = c.type.kind === 'struct' ? c.type.elts[0] : undefined;
  const parts = lanes.map((v) => (t ? fromLane(L, v, t) : v));
  return { kind: 'tuple', parts: [...parts, status] };
}

/** Lanes of a vec4<u32> (or a single word and zeros). */
/** The four lanes of a typed buffer element `idx`: a vec4's, or of a one-word element its word and
 * Direct3D's defaults for the components the format lacks (0, 0, and 1 in the view's type for
 * alpha; every component 0 out of range), as the SM4/5 lifter's bufferRead gives them. */
function typedLanes(L: DxilLifter, res: DxResource, handle: ExprId, idx: ExprId): ExprId[] {
  if (res.wide) return L.refuse('64-bit integers', 'a typed load of a buffer view a 64-bit atomic uses');
  const ix = L.once(idx, 'index');
  const v = bufferRead(L, res, handle, ix);
  if (!res.scalarElements) return [0, 1, 2, 3].map((k) => L.swz(v, [k]));
  if (res.shape !== 'buffer') return [v, L.u32(0), L.u32(0), L.u32(0)];
  const inRange = L.bin('lt', ix, L.e({ op: 'array_length', pointer: handle }));
  const one = L.u32(res.scalar === 'f32' ? 0x3f800000 : 1);
  return [v, L.u32(0), L.u32(0), L.sel(inRange, one, L.u32(0))];
}

/** Reads element `idx` of a buffer (zero out of range): through an `if`, so that a read at a clamped
 * address is never made (an access trace would count it). */
function bufferRead(L: DxilLifter, res: DxResource, handle: ExprId, idx: ExprId): ExprId {
  const vec = !res.atomic && !res.scalarElements;
  const type = vec ? L.tVec4 : L.tU32;
  const slot = L.f.local('loaded', type);
  const ix = L.once(idx, 'index');
  const length = L.e({ op: 'array_length', pointer: handle });
  L.f.open();
  if (res.atomic) {
    const r = L.f.newLet('word');
    L.f.stmt({ op: 'atomic', pointer: L.access(handle, ix), fn: 'load', result: r });
    L.f.stmt({ op: 'store', pointer: L.local(slot), value: L.e({ op: 'let', let: r }) });
  } else L.f.stmt({ op: 'store', pointer: L.local(slot), value: L.load(L.access(handle, ix)) });
  const accept = L.f.close();
  L.f.stmt({ op: 'if', cond: L.bin('lt', ix, length), accept, reject: [] });
  return L.f.bind('loaded', L.load(L.local(slot)));
}

/** Writes a word or vec4 element (nothing out of range). */
function bufferWrite(L: DxilLifter, res: DxResource, handle: ExprId, idx: ExprId, value: ExprId): void {
  const ix = L.once(idx, 'index');
  const length = L.e({ op: 'array_length', pointer: handle });
  const pointer = L.access(handle, ix);
  const s: Stmt = res.atomic ? { op: 'atomic', pointer, fn: 'exchange', value } : { op: 'store', pointer, value };
  L.f.stmtIf(L.bin('lt', ix, length), [s]);
}

/** Whether a buffer element type is 16 bits wide (i16, or half with native 16-bit types). */
export function is16(L: DxilLifter, t: Type): boolean {
  return (t.kind === 'int' && t.width === 16) || (t.kind === 'half' && L.native16);
}

/** A 16-bit value's bits (a half held as f32 rounded to binary16). */
function halfBits(L: DxilLifter, v: ExprId, t: Type): ExprId {
  if (t.kind !== 'half') return L.bin('and', v, L.u32(0xffff));
  const packed = L.math('pack2x16float', L.e({ op: 'compose', type: L.m.vec('f32', 2), parts: [v, L.f32bits(0)] }));
  return L.bin('and', packed, L.u32(0xffff));
}

/** The byte address of a raw or structured access (structured: index * stride + offset). */
function byteAddress(L: DxilLifter, res: DxResource, index: ExprId, offset: ExprId | undefined): ExprId {
  if (res.shape !== 'structured') return index;
  const start = L.bin('mul', index, L.u32(res.stride));
  return offset === undefined ? start : L.bin('add', start, offset);
}

/** The word index of a raw or structured access (byte address / 4; structured: index * stride + offset). */
function wordIndex(L: DxilLifter, res: DxResource, index: ExprId, offset: ExprId | undefined): ExprId {
  if (res.shape === 'structured') {
    const byte =
      offset === undefined
        ? L.bin('mul', index, L.u32(res.stride))
        : L.bin('add', L.bin('mul', index, L.u32(res.stride)), offset);
    return L.bin('shr', byte, L.u32(2));
  }
  return L.bin('shr', index, L.u32(2));
}

/** bufferLoad and rawBufferLoad: typed elements, or words of raw and structured buffers. */
function loadBuffer(raw: boolean): Handler {
  return (L, c, x) => {
    const { res, e } = resourceOf(L, c, 1, x);
    if (res.shape !== 'buffer' && res.shape !== 'raw' && res.shape !== 'structured')
      return L.invalid('a buffer load from a texture');
    const t = c.type.kind === 'struct' ? c.type.elts[0] : undefined;
    if (t && L.is64(t) && res.shape === 'buffer')
      return L.refuse(t.kind === 'double' ? 'double precision' : '64-bit integers', 'a 64-bit typed buffer load');
    if (res.shape === 'buffer') return resRet(L, c, typedLanes(L, res, e, u32(L, c, 2)));
    const mask = raw ? L.imm(arg(L, c, 4), 'a load mask') : 0xf;
    if (t && L.is64(t)) {
      const base = wordIndex(L, res, u32(L, c, 2), undef(L, c, 3) ? undefined : u32(L, c, 3));
      return loadWords64(L, base, mask, (w) => bufferRead(L, res, e, w));
    }
    if (t && is16(L, t)) {
      // 16-bit elements: component k at byte address + 2k, in the low or high half of its word
      const byte = L.once(byteAddress(L, res, u32(L, c, 2), undef(L, c, 3) ? undefined : u32(L, c, 3)), 'byte');
      const parts = [0, 1, 2, 3].map((k) => {
        // a lane the mask leaves out is undefined in DXIL: zero, of the lane's type (a half is an f32)
        if (!(mask & (1 << k))) return t.kind === 'half' ? L.f32bits(0) : L.u32(0);
        const b = L.once(k === 0 ? byte : L.bin('add', byte, L.u32(2 * k)), 'byte');
        const word = bufferRead(L, res, e, L.bin('shr', b, L.u32(2)));
        const half = L.bin('and', L.bin('shr', word, L.bin('mul', L.bin('and', b, L.u32(2)), L.u32(8))), L.u32(0xffff));
        return t.kind === 'half' ? L.swz(L.math('unpack2x16float', half), [0]) : half;
      });
      return { kind: 'tuple', parts: [...parts, L.u32(0)] };
    }
    const base = L.once(wordIndex(L, res, u32(L, c, 2), undef(L, c, 3) ? undefined : u32(L, c, 3)), 'word');
    const lanes = [0, 1, 2, 3].map((k) =>
      mask & (1 << k) ? bufferRead(L, res, e, k === 0 ? base : L.bin('add', base, L.u32(k))) : L.u32(0),
    );
    return resRet(L, c, lanes);
  };
}

function storeBuffer(raw: boolean): Handler {
  return (L, c, x) => {
    const { res, e } = resourceOf(L, c, 1, x);
    if (res.cls !== 'u') return L.invalid('a buffer store to a view that is not a UAV');
    const vt = arg(L, c, 4).type;
    const mask = L.imm(arg(L, c, 8), 'a write mask');
    if (L.is64(vt)) {
      if (res.shape !== 'raw' && res.shape !== 'structured')
        return L.refuse(vt.kind === 'double' ? 'double precision' : '64-bit integers', 'a 64-bit typed buffer store');
      const base = wordIndex(L, res, u32(L, c, 2), undef(L, c, 3) ? undefined : u32(L, c, 3));
      storeWords64(L, c, base, mask, (w, v) => bufferWrite(L, res, e, w, v));
      return undefined;
    }
    if (is16(L, vt) && res.shape !== 'buffer') {
      // 16-bit elements: each half of a word written with two atomics (clear it, then set it), so
      // another invocation's write of the word's other half is kept (the usage scan made it atomic)
      if (!res.atomic) return L.invalid('a 16-bit store to a buffer the usage scan did not find');
      const byte = L.once(byteAddress(L, res, u32(L, c, 2), undef(L, c, 3) ? undefined : u32(L, c, 3)), 'byte');
      for (let k = 0; k < 4; k++) {
        if (!(mask & (1 << k))) continue;
        const b = L.once(k === 0 ? byte : L.bin('add', byte, L.u32(2 * k)), 'byte');
        const shift = L.once(L.bin('mul', L.bin('and', b, L.u32(2)), L.u32(8)), 'shift');
        const bits = halfBits(L, num(L, c, 4 + k), vt);
        const ix = L.once(L.bin('shr', b, L.u32(2)), 'index');
        const pointer = L.access(e, ix);
        const keep = L.e({ op: 'unary', fn: 'not', arg: L.bin('shl', L.u32(0xffff), shift) });
        L.f.stmt({
          op: 'if',
          cond: L.bin('lt', ix, L.e({ op: 'array_length', pointer: e })),
          accept: [
            { op: 'atomic', pointer, fn: 'and', value: keep },
            { op: 'atomic', pointer, fn: 'or', value: L.bin('shl', bits, shift) },
          ],
          reject: [],
        });
      }
      return undefined;
    }
    const values = [4, 5, 6, 7].map((k) => (mask & (1 << (k - 4)) ? toLane(L, num(L, c, k), vt) : L.u32(0)));
    if (res.shape === 'buffer') {
      if (res.wide) return L.refuse('64-bit integers', 'a typed store to a buffer view a 64-bit atomic uses');
      if (res.scalarElements) bufferWrite(L, res, e, u32(L, c, 2), values[0]!);
      else {
        if (mask !== 0xf)
          L.note('a typed buffer store of fewer than four lanes writes zeros to the others (the view holds raw lanes)');
        bufferWrite(L, res, e, u32(L, c, 2), L.e({ op: 'compose', type: L.tVec4, parts: values }));
      }
      return undefined;
    }
    if (res.shape !== 'raw' && res.shape !== 'structured') return L.invalid('a buffer store to a texture');
    const base = L.once(wordIndex(L, res, u32(L, c, 2), undef(L, c, 3) ? undefined : u32(L, c, 3)), 'word');
    for (let k = 0; k < 4; k++)
      if (mask & (1 << k)) bufferWrite(L, res, e, k === 0 ? base : L.bin('add', base, L.u32(k)), values[k]!);
    void raw;
    return undefined;
  };
}

const cbufferLoadLegacy: Handler = (L, c, x) => {
  const { res, e } = resourceOf(L, c, 1, x);
  if (res.cls !== 'b') return L.invalid('cbufferLoadLegacy on a view that is not a constant buffer');
  const t = c.type.kind === 'struct' ? c.type.elts[0] : undefined;
  if (!t) return L.invalid('cbufferLoadLegacy without its result type');
  const row = readRow(L, e, res.rows, u32(L, c, 2));
  if (L.is64(t)) return cbufferRow64(L, row);
  const r = L.once(row, 'row');
  if (c.type.kind === 'struct' && c.type.elts.length === 8) {
    // 16-bit lanes: each 32-bit lane holds two
    const parts: ExprId[] = [];
    for (let k = 0; k < 8; k++) {
      const w = L.swz(r, [k >> 1]);
      const h = k & 1 ? L.bin('shr', w, L.u32(16)) : L.bin('and', w, L.u32(0xffff));
      parts.push(t.kind === 'half' ? L.swz(L.math('unpack2x16float', h), [0]) : h);
    }
    return { kind: 'tuple', parts };
  }
  return { kind: 'tuple', parts: [0, 1, 2, 3].map((k) => fromLane(L, L.swz(r, [k]), t)) };
};

/** Row `row` of a constant buffer, zero past its rows. */
function readRow(L: DxilLifter, base: ExprId, rows: number, row: ExprId): ExprId {
  const e = L.f.exprs[row];
  if (e && e.op === 'literal') {
    if (e.bits >= rows) {
      L.note(`a constant buffer is read past its ${rows} rows: it reads zero`);
      return L.e({ op: 'zero', type: L.tVec4 });
    }
    return L.load(L.member(base, e.bits));
  }
  const clamped = L.math('min', row, L.u32(rows - 1));
  return L.sel(L.bin('lt', row, L.u32(rows)), L.load(L.access(base, clamped)), L.e({ op: 'zero', type: L.tVec4 }));
}

const cbufferLoad: Handler = (L, c, x) => {
  const { res, e } = resourceOf(L, c, 1, x);
  if (res.cls !== 'b') return L.invalid('cbufferLoad on a view that is not a constant buffer');
  if (L.is64(c.type)) return cbufferLoad64(L, u32(L, c, 2), (row) => readRow(L, e, res.rows, row));
  const byte = L.once(u32(L, c, 2), 'offset');
  const word = L.bin('shr', byte, L.u32(2));
  const row = L.once(readRow(L, e, res.rows, L.bin('shr', word, L.u32(2))), 'row');
  let w = L.access(row, L.bin('and', word, L.u32(3)));
  if ((c.type.kind === 'int' && c.type.width === 16) || c.type.kind === 'half') {
    w = L.bin('and', L.bin('shr', w, L.bin('mul', L.bin('and', byte, L.u32(2)), L.u32(8))), L.u32(0xffff));
    if (c.type.kind === 'half') return L.swz(L.math('unpack2x16float', w), [0]);
  }
  return fromLane(L, w, c.type);
};

/** Float coordinates (operands k..k+3) and the array layer (rounded, clamped, as an i32). */
export function floatCoords(
  L: DxilLifter,
  c: Instruction,
  k: number,
  res: DxResource,
): { coord: ExprId; layer?: ExprId } {
  const { coords, layer } = coordLayout(res.shape);
  const parts = [0, 1, 2].slice(0, coords).map((j) => num(L, c, k + j));
  if (res.shape === '1d' || res.shape === '1darray') parts.push(L.f32bits(0x3f000000));
  const coord = vec(L, 'f32', parts);
  if (layer === undefined) return { coord };
  const z = num(L, c, k + layer);
  const rounded = L.math('clamp', L.math('round', z), L.f32bits(0), L.f32bits(0x44ffe000));
  return { coord, layer: L.convert('i32', rounded) };
}

/** Constant texel offsets (operands k..k+n-1; undef is 0); undefined when all are zero. */
export function offsets(L: DxilLifter, c: Instruction, k: number, n: number, res: DxResource): ExprId | undefined {
  const vals: number[] = [];
  for (let j = 0; j < n; j++) {
    const v = c.ops[k + j];
    if (v === undefined || L.isUndef(v) || (v instanceof Constant && v.ck === 'null')) vals.push(0);
    else if (v instanceof Constant && v.ck === 'int') vals.push(Number(BigInt.asIntN(32, v.bits)));
    else return L.refuse('computed texel offset', 'a texel offset that is not a constant');
  }
  if (vals.every((v) => v === 0)) return undefined;
  if (res.shape === 'cube' || res.shape === 'cubearray') {
    L.note('a texel offset on a cube texture is ignored (Direct3D ignores it too)');
    return undefined;
  }
  const dims = res.shape === '3d' ? 3 : 2;
  const parts = [0, 1, 2]
    .slice(0, dims)
    .map((j) => L.i32(res.shape.startsWith('1d') && j === 1 ? 0 : ((vals[j] ?? 0) << 28) >> 28));
  return vec(L, 'i32', parts);
}

type SampleKind = 'sample' | 'bias' | 'level' | 'grad' | 'cmp' | 'cmpLevelZero' | 'cmpLevel' | 'cmpGrad' | 'cmpBias';

function sample(kind: SampleKind): Handler {
  return (L, c, x) => {
    const { res, e: image } = resourceOf(L, c, 1, x);
    const { e: sampler } = samplerOf(L, c, 2, x, kind.startsWith('cmp'));
    if (res.cls !== 't' || res.shape === 'buffer' || res.shape === 'raw' || res.shape === 'structured')
      return L.invalid('sampling a view that is not a texture');
    if (res.scalar !== 'f32')
      return L.refuse(
        'resource kind not handled',
        `${res.dx.name || res.cls + res.dx.id}: a filtered sample of an integer texture (WGSL samples float textures only)`,
      );
    const { coord, layer } = floatCoords(L, c, 3, res);
    const computed = !constantOffsets(L, c, 7, 3);
    const offset = computed ? undefined : offsets(L, c, 7, 3, res);
    const fragment = L.stage === 'pixel';
    let level: SampleLevel = { kind: 'auto' };
    let depthRef: ExprId | undefined;
    let clamp: Value | undefined;
    const gradients = (k: number): SampleLevel => {
      const n =
        res.shape === '3d' || res.shape === 'cube' || res.shape === 'cubearray'
          ? 3
          : res.shape.startsWith('1d')
            ? 1
            : 2;
      const g = (b: number) => {
        const parts = [0, 1, 2].slice(0, n).map((j) => num(L, c, b + j));
        if (n === 1) parts.push(L.f32bits(0));
        return vec(L, 'f32', parts);
      };
      return { kind: 'gradient', x: g(k), y: g(k + 3) };
    };
    switch (kind) {
      case 'sample':
        clamp = c.ops[10];
        break;
      case 'bias':
        level = fragment ? { kind: 'bias', bias: num(L, c, 10) } : { kind: 'zero' };
        clamp = c.ops[11];
        break;
      case 'level':
        level = { kind: 'exact', level: num(L, c, 10) };
        break;
      case 'grad':
        level = gradients(10);
        clamp = c.ops[16];
        break;
      case 'cmp':
        depthRef = num(L, c, 10);
        clamp = c.ops[11];
        break;
      case 'cmpLevelZero':
        depthRef = num(L, c, 10);
        level = { kind: 'zero' };
        break;
      case 'cmpLevel':
        depthRef = num(L, c, 10);
        level = { kind: 'exact', level: num(L, c, 11) };
        break;
      case 'cmpGrad':
        depthRef = num(L, c, 10);
        level = gradients(11);
        clamp = c.ops[17];
        break;
      case 'cmpBias':
        depthRef = num(L, c, 10);
        level = fragment ? { kind: 'bias', bias: num(L, c, 11) } : { kind: 'zero' };
        clamp = c.ops[12];
        break;
    }
    if (level.kind === 'auto' && L.stage === 'compute') {
      // Shader Model 6.6: the implicit level of a compute program's sample comes from its quads'
      // coarse derivatives of the coordinates (quad.ts), passed as the sample's gradients
      const n = res.shape === '3d' || res.shape === 'cube' || res.shape === 'cubearray' ? 3 : 2;
      const d = (axis: 'x' | 'y') => computeDerivative(L, x, coord, n, axis, 'coarse', 'an implicit-level sample');
      level = { kind: 'gradient', x: d('x'), y: d('y') };
    } else if (level.kind === 'auto' && !fragment) {
      level = { kind: 'zero' };
      L.note('an implicit-level sample outside a pixel program samples level 0');
    }
    if (clamp && !L.isUndef(clamp)) L.note('a level-of-detail clamp is ignored (WGSL has none)');
    if (depthRef !== undefined && !res.depth)
      return L.invalid('a comparison sample of a texture not found by the usage scan');
    const made = (off: ExprId | undefined): Expr => ({
      op: 'sample',
      image,
      sampler,
      coord,
      level,
      ...(layer !== undefined ? { arrayIndex: layer } : {}),
      ...(off !== undefined ? { offset: off } : {}),
      ...(depthRef !== undefined ? { depthRef } : {}),
    });
    // Shader Model 6.7's computed offsets: a switch over the constant ones (offsets.ts)
    let value = computed
      ? switchedSample(
          L,
          c,
          7,
          res,
          depthRef !== undefined || res.depth ? L.tF32 : L.m.vec('f32', 4),
          fragment && (level.kind === 'auto' || level.kind === 'bias'),
          made,
        )
      : L.e(made(offset));
    if (depthRef !== undefined)
      return {
        kind: 'tuple',
        parts: [value, value, value, value, L.u32(0)].map((v, k) => (k < 4 ? L.roundHalf(v, retType(c)) : v)),
      };
    if (res.depth) {
      value = L.once(value, 'depth');
      return { kind: 'tuple', parts: [value, L.f32bits(0), L.f32bits(0), L.f32bits(0x3f800000), L.u32(0)] };
    }
    const v = L.once(value, 'texel');
    return texelTuple(L, c, v, res.scalar);
  };
}

/** A vec4 of the texture's scalar as a ResRet of the overload type. */
export function texelTuple(L: DxilLifter, c: Instruction, v: ExprId, scalar: Scalar): Val {
  const t = retType(c);
  const parts = [0, 1, 2, 3].map((k) => {
    const lane = L.swz(v, [k]);
    const want = L.scalarOf(t);
    if (want === scalar) return want === 'f32' ? L.roundHalf(lane, t) : L.wrap(lane, t);
    if (want === 'f32') return L.bitcast('f32', lane);
    return L.wrap(L.bitcast('u32', lane), t);
  });
  return { kind: 'tuple', parts: [...parts, L.u32(0)] };
}

const gather =
  (cmp: boolean): Handler =>
  (L, c, x) => {
    const { res, e: image } = resourceOf(L, c, 1, x);
    const { e: sampler } = samplerOf(L, c, 2, x, cmp);
    if (res.cls !== 't' || res.shape.startsWith('1d') || res.shape === 'buffer')
      return L.invalid('a gather of a view that is not a 2D, cube or 3D texture');
    const fc = floatCoords(L, c, 3, res);
    const layer = fc.layer;
    let coord = fc.coord;
    const constant = [7, 8].every((k) => {
      const v = c.ops[k];
      return v === undefined || v instanceof Constant;
    });
    let offset: ExprId | undefined;
    if (constant) offset = offsets(L, c, 7, 2, res);
    else {
      // WGSL takes only constant offsets: the offset (Direct3D's low six bits, signed) moves the
      // coordinates by whole texels of level 0, where a gather reads (as the SM4/5 lifter's gather4_po)
      if (res.shape !== '2d' && res.shape !== '2darray')
        return L.refuse('computed texel offset', 'a gather with a computed offset on a texture that is not 2D');
      L.note('a gather offset WGSL cannot take as a constant moves the coordinates by that many texels of level 0');
      const raw = L.e({
        op: 'compose',
        type: L.m.vec('i32', 2),
        parts: [7, 8].map((k) => L.bitcast('i32', u32(L, c, k))),
      });
      const six = L.e({ op: 'splat', size: 2, value: L.u32(26) });
      const signed = L.bin('shr', L.bin('shl', raw, six), six);
      const size = L.convert('f32', L.e({ op: 'image_query', image, query: 'size', level: L.i32(0) }));
      coord = L.bin('add', coord, L.bin('div', L.convert('f32', signed), size));
    }
    const channel = L.imm(arg(L, c, 9), 'a gather channel');
    if (channel > 3) return L.invalid(`gather channel ${channel}`);
    const depthRef = cmp ? num(L, c, 10) : undefined;
    if (res.depth && !cmp && channel !== 0) {
      L.note('a gather of a depth texture for green or blue gives zeros, for alpha ones (a single-channel view)');
      const one = L.f32bits(channel === 3 ? 0x3f800000 : 0);
      return { kind: 'tuple', parts: [one, one, one, one, L.u32(0)] };
    }
    const value = L.once(
      L.e({
        op: 'sample',
        image,
        sampler,
        coord,
        level: { kind: 'zero' },
        gather: channel,
        ...(layer !== undefined ? { arrayIndex: layer } : {}),
        ...(offset !== undefined ? { offset } : {}),
        ...(depthRef !== undefined ? { depthRef } : {}),
      }),
      'gathered',
    );
    return texelTuple(L, c, value, res.depth ? 'f32' : res.scalar);
  };

/** Whether a texel address is inside the texture (each coordinate, the level, layer and sample). */
function texelInRange(
  L: DxilLifter,
  image: ExprId,
  coord: ExprId,
  coords: number,
  extra: { level?: ExprId; layer?: ExprId; sample?: ExprId },
): ExprId {
  const u = (v: ExprId): ExprId => L.bitcast('u32', v);
  const conds: ExprId[] = [];
  let levelArg: ExprId | undefined;
  if (extra.level !== undefined) {
    const ok = L.bin('lt', u(extra.level), L.e({ op: 'image_query', image, query: 'levels' }));
    conds.push(ok);
    levelArg = L.sel(ok, extra.level, L.i32(0));
  }
  const size = L.e({ op: 'image_query', image, query: 'size', ...(levelArg !== undefined ? { level: levelArg } : {}) });
  const inside = L.bin('lt', u(coord), size);
  conds.push(coords > 1 ? L.math('all', inside) : inside);
  if (extra.layer !== undefined)
    conds.push(L.bin('lt', u(extra.layer), L.e({ op: 'image_query', image, query: 'layers' })));
  if (extra.sample !== undefined)
    conds.push(L.bin('lt', u(extra.sample), L.e({ op: 'image_query', image, query: 'samples' })));
  return conds.reduce((a, b) => L.bin('and', a, b));
}

/** Integer texel coordinates (operands k..k+2, plus constant offsets) and layer. */
function intCoords(
  L: DxilLifter,
  c: Instruction,
  k: number,
  res: DxResource,
  off?: ExprId,
): { coord: ExprId; layer?: ExprId; n: number } {
  const { coords, layer } = coordLayout(res.shape);
  const parts = [0, 1, 2].slice(0, coords).map((j) => L.bitcast('i32', u32(L, c, k + j)));
  let coord = vec(L, 'i32', parts);
  if (off !== undefined) coord = L.bin('add', coord, res.shape.startsWith('1d') ? L.swz(off, [0]) : off);
  if (res.shape === '1d' || res.shape === '1darray')
    coord = L.e({ op: 'compose', type: L.m.vec('i32', 2), parts: [coord, L.i32(0)] });
  const n = res.shape.startsWith('1d') ? 2 : coords;
  if (layer === undefined) return { coord, n };
  return { coord, layer: L.bitcast('i32', u32(L, c, k + layer)), n };
}

const textureLoad: Handler = (L, c, x) => {
  const { res, e: image } = resourceOf(L, c, 1, x);
  if (res.texels) return texelLoad(L, c, res, image);
  if (res.shape === 'buffer' || res.shape === 'raw' || res.shape === 'structured')
    return resRet(L, c, typedLanes(L, res, image, u32(L, c, 3)));
  const off = res.shape === '3d' ? offsets(L, c, 6, 3, res) : offsets(L, c, 6, 2, res);
  const { coord, layer, n } = intCoords(L, c, 3, res, off);
  const ms = res.shape === '2dms' || res.shape === '2dmsarray';
  const storage = res.cls === 'u';
  const extra: { level?: ExprId; sample?: ExprId } = {};
  if (ms) extra.sample = L.bitcast('i32', u32(L, c, 2));
  else if (!storage) extra.level = undef(L, c, 2) ? L.i32(0) : L.bitcast('i32', u32(L, c, 2));
  let value = L.e({ op: 'image_load', image, coord, ...(layer !== undefined ? { arrayIndex: layer } : {}), ...extra });
  const scalar = res.depth ? 'f32' : res.scalar;
  if (res.depth)
    value = L.e({
      op: 'compose',
      type: L.m.vec('f32', 4),
      parts: [value, L.f32bits(0), L.f32bits(0), L.f32bits(0x3f800000)],
    });
  if (storage && res.format && res.format.startsWith('r32')) {
    // a one-lane view: the loaded texel's x, and Direct3D's defaults for the components the format
    // lacks (0, 0, and 1 for alpha), as the SM4/5 lifter's load of the same view gives
    const zero = L.f.literal(scalar, 0);
    const one = L.f.literal(scalar, scalar === 'f32' ? 0x3f800000 : 1);
    value = L.e({ op: 'compose', type: L.m.vec(scalar, 4), parts: [L.swz(value, [0]), zero, zero, one] });
  }
  const inRange = texelInRange(L, image, coord, n, { ...extra, ...(layer !== undefined ? { layer } : {}) });
  value = L.once(L.sel(inRange, value, L.e({ op: 'zero', type: L.m.vec(scalar, 4) })), 'texel');
  return texelTuple(L, c, value, scalar);
};

const textureStore: Handler = (L, c, x) => {
  const { res, e: image } = resourceOf(L, c, 1, x);
  if (res.texels) return texelStore(L, c, res, image);
  if (res.cls !== 'u' || !res.format) return L.invalid('a texture store to a view that is not a typed texture UAV');
  const { coord, layer, n } = intCoords(L, c, 2, res);
  const vt = arg(L, c, 5).type;
  const mask = L.imm(arg(L, c, 9), 'a write mask');
  if (mask !== 0xf && !res.format.startsWith('r32'))
    return L.refuse('partial-mask store through a view', `a store of mask ${mask} to an ${res.format} view`);
  const s = res.scalar;
  const parts = [5, 6, 7, 8].map((k) => {
    const raw = toLane(L, num(L, c, k), vt);
    return s === 'u32' ? raw : L.bitcast(s, raw);
  });
  const value = L.e({ op: 'compose', type: L.m.vec(s, 4), parts });
  const inRange = texelInRange(L, image, coord, n, layer !== undefined ? { layer } : {});
  L.f.stmt({
    op: 'if',
    cond: inRange,
    accept: [{ op: 'image_store', image, coord, ...(layer !== undefined ? { arrayIndex: layer } : {}), value }],
    reject: [],
  });
  return undefined;
};

const getDimensions: Handler = (L, c, x) => {
  const { res, e: image } = resourceOf(L, c, 1, x);
  if (res.texels) return texelDimensions(L, c, res, image);
  const z = L.u32(0);
  if (res.shape === 'buffer' || res.shape === 'raw' || res.shape === 'structured') {
    const words = L.e({ op: 'array_length', pointer: image });
    const n =
      res.shape === 'raw'
        ? L.bin('mul', words, L.u32(4))
        : res.shape === 'structured'
          ? L.bin('div', L.bin('mul', words, L.u32(4)), L.u32(res.stride))
          : words;
    return { kind: 'tuple', parts: [n, z, z, z] };
  }
  if (res.cls !== 't' && res.cls !== 'u') return L.invalid('getDimensions of a sampler or constant buffer');
  const storage = res.cls === 'u';
  const ms = res.shape === '2dms' || res.shape === '2dmsarray';
  const levels = storage || ms ? L.u32(1) : L.once(L.e({ op: 'image_query', image, query: 'levels' }), 'levels');
  const mip = undef(L, c, 2) ? L.u32(0) : L.once(u32(L, c, 2), 'mip');
  const inRange = L.once(L.bin('lt', mip, levels), 'in_range');
  const lvl = L.math('min', mip, L.bin('sub', levels, L.u32(1)));
  const size = L.once(
    L.e({ op: 'image_query', image, query: 'size', ...(storage || ms ? {} : { level: lvl }) }),
    'size',
  );
  const sz = (k: number) => L.sel(inRange, L.swz(size, [k]), z);
  const layers = () => L.sel(inRange, L.e({ op: 'image_query', image, query: 'layers' }), z);
  const last = ms ? L.e({ op: 'image_query', image, query: 'samples' }) : levels;
  switch (res.shape) {
    case '1d':
      return { kind: 'tuple', parts: [sz(0), z, z, last] };
    case '1darray':
      return { kind: 'tuple', parts: [sz(0), layers(), z, last] };
    case '2d':
    case '2dms':
    case 'cube':
      return { kind: 'tuple', parts: [sz(0), sz(1), z, last] };
    case '3d':
      return { kind: 'tuple', parts: [sz(0), sz(1), sz(2), last] };
    default:
      return { kind: 'tuple', parts: [sz(0), sz(1), layers(), last] };
  }
};

// AtomicBinOp's operations: Add And Or Xor IMin IMax UMin UMax Exchange.
const ATOMIC_OPS = ['add', 'and', 'or', 'xor', 'min', 'max', 'min', 'max', 'exchange'] as const;

function atomicOnBuffer(cmpxchg: boolean): Handler {
  return (L, c, x) => {
    const { res, e } = resourceOf(L, c, 1, x);
    if (!res.atomic) return L.invalid('an atomic on a view the usage scan did not find atomic');
    if (res.texels) return texelAtomic(L, c, res, e, cmpxchg);
    const base = cmpxchg ? 2 : 3;
    if (c.type.kind === 'int' && c.type.width === 64) return bufferAtomic64(L, c, res, e, cmpxchg);
    if (res.wide) return L.refuse('64-bit integers', 'a 32-bit atomic on a typed view a 64-bit atomic uses');
    const idx =
      res.shape === 'structured' || res.shape === 'raw'
        ? wordIndex(L, res, u32(L, c, base), undef(L, c, base + 1) ? undefined : u32(L, c, base + 1))
        : u32(L, c, base);
    let fn: (typeof ATOMIC_OPS)[number] | 'compare_exchange' = 'compare_exchange';
    if (!cmpxchg) {
      const op = L.imm(arg(L, c, 2), 'an atomic operation');
      fn = ATOMIC_OPS[op] ?? L.invalid(`atomic operation ${op}`);
      if (op === 4 || op === 5)
        L.note('a signed atomic min/max on an unsigned view compares as Direct3D does only for values of one sign');
    } else L.note("compare-exchange is WGSL's weak form (it may fail spuriously)");
    const value = cmpxchg ? u32(L, c, 6) : u32(L, c, 6);
    const compare = cmpxchg ? u32(L, c, 5) : undefined;
    const ix = L.once(idx, 'index');
    const slot = L.f.local('old', L.tU32);
    const r = L.f.newLet('old');
    const accept: Stmt[] = [
      { op: 'atomic', pointer: L.access(e, ix), fn, value, ...(compare !== undefined ? { compare } : {}), result: r },
      makeStmt.store(L.local(slot), L.e({ op: 'let', let: r })),
    ];
    L.f.stmt({ op: 'if', cond: L.bin('lt', ix, L.e({ op: 'array_length', pointer: e })), accept, reject: [] });
    return L.load(L.local(slot));
  };
}

/** AtomicBinOp.i64 / AtomicCompareExchange.i64 on a raw or structured view (the element's two
 * words, both in range) or a typed buffer a 64-bit atomic uses (two words an element): the atomic64
 * statement (atomic64.ts); the previous value (0 outside the view). */
function bufferAtomic64(L: DxilLifter, c: Instruction, res: DxResource, e: ExprId, cmpxchg: boolean): Val | undefined {
  const base = cmpxchg ? 2 : 3;
  const length = L.e({ op: 'array_length', pointer: e });
  if (res.shape === 'buffer') {
    if (!res.wide) return L.invalid('a 64-bit atomic on a typed view the usage scan did not find');
    const i = L.once(u32(L, c, base), 'element');
    return wordsAtomic64(L, c, e, L.bin('mul', i, L.u32(2)), L.bin('lt', i, L.bin('div', length, L.u32(2))), cmpxchg);
  }
  const ix = L.once(
    wordIndex(L, res, u32(L, c, base), undef(L, c, base + 1) ? undefined : u32(L, c, base + 1)),
    'index',
  );
  const inRange = L.bin('and', L.bin('lt', ix, length), L.bin('lt', L.bin('add', ix, L.u32(1)), length));
  return wordsAtomic64(L, c, e, ix, inRange, cmpxchg);
}

const barrier: Handler = (L, c) => {
  const mode = L.imm(arg(L, c, 1), 'a barrier mode');
  if (L.stage !== 'compute') {
    L.note('a memory barrier outside a compute program is dropped (WGSL has barriers in compute only)');
    return undefined;
  }
  const execution = (mode & 1) !== 0;
  const storage = (mode & 6) !== 0;
  const workgroup = (mode & 8) !== 0;
  if (!execution) L.note('a memory fence without a group sync is written as a barrier (WGSL has no bare fence)');
  L.f.stmt({ op: 'barrier', workgroup: workgroup || !storage, storage, texture: storage, execution: true });
  return undefined;
};

const discard: Handler = (L, c) => {
  const cond = num(L, c, 1);
  L.f.stmt({ op: 'if', cond, accept: [{ op: 'kill' }], reject: [] });
  return undefined;
};

const TABLE = new Map<number, Handler>([
  [6, unaryF((L, v, t) => (t.kind === 'double' ? fabs64(L, v) : L.math('abs', v)))],
  [7, unaryF((L, v, t) => (t.kind === 'double' ? saturate64(L, v) : saturate(L, v)))],
  [8, bitTest('nan')],
  [9, bitTest('inf')],
  [10, bitTest('finite')],
  [11, bitTest('normal')],
  [12, mathF('cos')],
  [13, mathF('sin')],
  [14, mathF('tan')],
  [15, mathF('acos')],
  [16, mathF('asin')],
  [17, mathF('atan')],
  [18, mathF('cosh')],
  [19, mathF('sinh')],
  [20, mathF('tanh')],
  [21, guarded(guardedExp2)],
  [22, guarded(guardedFrc)],
  [23, guarded(guardedLog2)],
  [24, guarded(guardedSqrt)],
  [25, guarded(guardedRsq)],
  [26, mathF('round')],
  [27, mathF('floor')],
  [28, mathF('ceil')],
  [29, mathF('trunc')],
  [30, (L, c) => L.math('reverse_bits', u32(L, c, 1))],
  [31, (L, c) => L.math('count_one_bits', u32(L, c, 1))],
  [32, (L, c) => L.math('first_trailing_bit', u32(L, c, 1))],
  [33, firstbitHi(false)],
  [34, firstbitHi(true)],
  [35, nanMinMax('max')],
  [36, nanMinMax('min')],
  [37, intMinMax('max', true)],
  [38, intMinMax('min', true)],
  [39, intMinMax('max', false)],
  [40, intMinMax('min', false)],
  [
    41,
    (L, c) => {
      const a = L.once(L.bitcast('i32', u32(L, c, 1)));
      const b = L.once(L.bitcast('i32', u32(L, c, 2)));
      return { kind: 'tuple', parts: [L.bitcast('u32', L.math('mul_hi', a, b)), L.bitcast('u32', L.bin('mul', a, b))] };
    },
  ],
  [
    42,
    (L, c) => {
      const a = L.once(u32(L, c, 1));
      const b = L.once(u32(L, c, 2));
      return { kind: 'tuple', parts: [L.math('mul_hi', a, b), L.bin('mul', a, b)] };
    },
  ],
  [
    43,
    (L, c) => {
      const a = L.once(u32(L, c, 1));
      const b = L.once(u32(L, c, 2));
      return { kind: 'tuple', parts: [udivBy(L, a, b, 1, 'div'), udivBy(L, a, b, 1, 'rem')] };
    },
  ],
  [44, carry(false)],
  [45, carry(true)],
  [46, (L, c) => L.roundHalf(L.bin('add', L.bin('mul', num(L, c, 1), num(L, c, 2)), num(L, c, 3)), c.type)],
  // Fma is of doubles only (hctdb.py's overloads 'd': the signature check refuses the rest)
  [47, (L, c) => L.soft('f64_fma', num(L, c, 1), num(L, c, 2), num(L, c, 3))],
  [48, (L, c) => L.wrap(L.bin('add', L.bin('mul', num(L, c, 1), num(L, c, 2)), num(L, c, 3)), c.type)],
  [49, (L, c) => L.wrap(L.bin('add', L.bin('mul', num(L, c, 1), num(L, c, 2)), num(L, c, 3)), c.type)],
  [50, (L, c) => msad(L, [u32(L, c, 1), u32(L, c, 2), u32(L, c, 3)], 1)],
  [51, bfe(true)],
  [52, bfe(false)],
  [53, bfi],
  [54, dot(2)],
  [55, dot(3)],
  [56, dot(4)],
  [57, createHandle],
  [58, cbufferLoad],
  [59, cbufferLoadLegacy],
  [60, sample('sample')],
  [61, sample('bias')],
  [62, sample('level')],
  [63, sample('grad')],
  [64, sample('cmp')],
  [65, sample('cmpLevelZero')],
  [66, textureLoad],
  [67, textureStore],
  [
    225,
    (L, c, x) => {
      const { res, e } = resourceOf(L, c, 1, x);
      return textureStoreSample(L, c, res, e);
    },
  ],
  [68, loadBuffer(false)],
  [69, storeBuffer(false)],
  [
    71,
    (L, c) => {
      L.note('residency feedback reports every access as fully mapped');
      return L.bin('eq', u32(L, c, 1), L.u32(0));
    },
  ],
  [72, getDimensions],
  [73, gather(false)],
  [74, gather(true)],
  [78, atomicOnBuffer(false)],
  [79, atomicOnBuffer(true)],
  [80, barrier],
  [82, discard],
  [83, deriv('x', 'coarse')],
  [84, deriv('y', 'coarse')],
  [85, deriv('x', 'fine')],
  [86, deriv('y', 'fine')],
  [
    90,
    (L, c, x) => {
      void c;
      if (L.stage !== 'pixel') return L.refuse('system value not handled', 'SampleIndex outside a pixel program');
      return builtinArg(L, x, 'sample_index');
    },
  ],
  [
    91,
    (L, c, x) => {
      void c;
      if (L.stage !== 'pixel') return L.refuse('system value not handled', 'Coverage outside a pixel program');
      return builtinArg(L, x, 'sample_mask');
    },
  ],
  [92, (L) => L.refuse('system value not handled', 'InnerCoverage has no WGSL counterpart')],
  [93, threadVector('global_invocation_id')],
  [94, threadVector('workgroup_id')],
  [95, threadVector('local_invocation_id')],
  [
    96,
    (L, c, x) => {
      void c;
      if (L.stage !== 'compute')
        return L.refuse('system value not handled', 'FlattenedThreadIdInGroup outside a compute program');
      return builtinArg(L, x, 'local_invocation_index');
    },
  ],
  [
    130,
    (L, c) =>
      L.bin(
        'and',
        L.math('pack2x16float', L.e({ op: 'compose', type: L.m.vec('f32', 2), parts: [num(L, c, 1), L.f32bits(0)] })),
        L.u32(0xffff),
      ),
  ],
  [131, (L, c) => L.swz(L.math('unpack2x16float', L.bin('and', u32(L, c, 1), L.u32(0xffff))), [0])],
  [139, loadBuffer(true)],
  [140, storeBuffer(true)],
  [160, createHandle],
  [216, annotateHandle],
  [217, createHandle],
  [
    221,
    (L) => {
      L.note('IsHelperLane is false: the lifted program is not run for helper lanes');
      return L.bool(false);
    },
  ],
  [224, sample('cmpLevel')],
  [254, sample('cmpGrad')],
  [255, sample('cmpBias')],
]);

// The tables beside this one (wave and quad operations, descriptor heaps, the other stages...).
for (const table of EXTRA_OPS) for (const [k, h] of table) TABLE.set(k, h);

/** dx.op opcodes of each refusal reason the DXIL lifter gives (the rest: 'dx.op not handled'). */
function reasonOf(op: number): Parameters<DxilLifter['refuse']>[0] {
  if ((op >= 110 && op <= 122) || (op >= 165 && op <= 167) || op === 123 || op === 222) return 'wave operations';
  if ((op >= 143 && op <= 161) || (op >= 178 && op <= 215) || (op >= 258 && op <= 289) || op === 253)
    return 'raytracing';
  if (op >= 168 && op <= 173) return 'mesh and amplification';
  if (op >= 226 && op <= 252) return 'work graphs';
  return 'dx.op not handled';
}

export function liftDxOp(L: DxilLifter, c: Instruction, x: OpContext): Val | undefined {
  const opcode = L.imm(c.ops[0], 'a dx.op opcode');
  const fault = callFault(L, opcode, c);
  if (fault) return L.invalid(fault);
  return liftChecked(L, c, x, opcode);
}

// The records and lists below are made by classes and copies, not literals: they live as long as
// the module's lifter and point at its young types and functions, and a literal's allocation site
// may be switched to the old generation (binary/lists.ts, src/ir/nodes.ts).

/** A checked call shape: the opcode, the result's and the operands' types, and the fault (if any). */
class Checked {
  constructor(
    readonly opcode: number,
    readonly ret: Type,
    readonly args: readonly Type[],
    readonly fault: string | undefined,
  ) {}
}

/** One module's answers, kept by its lifter (L.signatureCache; plain Maps, dropped with the lifter:
 * a WeakMap's entries cost more to make than the check they save on a small program).
 * - byCallee: each callee's checked call shapes. The check is a function of the callee's name, the
 *   opcode and the types (the module's own objects, compared by identity), and a module calls one
 *   function with one opcode many times: the answer is taken again only for the same opcode and
 *   the very same types.
 * - typeNumbers: each type object's number (typeNumber). */
class SignatureCache {
  readonly byCallee = new Map<object, Checked[]>();
  readonly typeNumbers = new Map<Type, number>();
}

/** A call shape checked for another module (CHECKED_BY_NAME). */
class CheckedByName {
  constructor(
    readonly opcode: number,
    readonly types: readonly number[],
    readonly fault: string | undefined,
  ) {}
}

/** The answers for other modules, by callee name: the opcode, the types (by typeId) and the answer.
 * Programs of one compiler call the same few overloads, so a batch checks each shape once. Bounded:
 * cleared when full. */
const CHECKED_BY_NAME = new Map<string, CheckedByName[]>();
let checkedShapes = 0;
const CHECKED_MAX = 4096;

/** Numbers of type texts (typeText); each module's type objects get theirs through the module's
 * cache. Two types with one number are alike to the check; numbers are never reused (the table is
 * cleared when full, and a type numbered before then keeps a number no later text gets). */
const TYPE_NUMBERS = new Map<string, number>();
let typeNumbers = 0;

function typeNumber(cache: SignatureCache, t: Type): number {
  let n = cache.typeNumbers.get(t);
  if (n === undefined) {
    const text = typeText(t);
    n = TYPE_NUMBERS.get(text);
    if (n === undefined) {
      if (TYPE_NUMBERS.size >= CHECKED_MAX) TYPE_NUMBERS.clear();
      n = typeNumbers++;
      TYPE_NUMBERS.set(text, n);
    }
    cache.typeNumbers.set(t, n);
  }
  return n;
}

/**
 * A text that tells apart every two types the signature check tells apart: the kind, width, count
 * and address space, a struct's name and its elements, and what a pointer or a vector holds. A
 * named struct behind a pointer is its name only (the check reads no further there, and LLVM's
 * recursive types go through pointers); a literal struct is its elements everywhere.
 */
function typeText(t: Type, behindPointer = false): string {
  switch (t.kind) {
    case 'int':
      return `i${t.width}`;
    case 'ptr':
      return `p${t.addrSpace}(${t.elt ? typeText(t.elt, true) : ''})`;
    case 'vector':
    case 'array':
      return `${t.kind}${t.count}(${t.elt ? typeText(t.elt) : ''})`;
    case 'struct': {
      const name = t.name !== undefined ? `%${t.name.length}:${t.name}` : '';
      return t.name !== undefined && behindPointer ? name : `${name}{${t.elts.map((e) => typeText(e)).join(',')}}`;
    }
    case 'fn':
      return `fn(${t.elt ? typeText(t.elt, true) : ''};${t.elts.map((e) => typeText(e, true)).join(',')})`;
    default:
      return t.kind;
  }
}

/** What is wrong with dx.op call c of `opcode` (the message the lifter refuses it with), or undefined. */
function callFault(L: DxilLifter, opcode: number, c: Instruction): string | undefined {
  const cache = (L.signatureCache ??= new SignatureCache()) as SignatureCache;
  const callee = c.callee;
  const ops = c.ops;
  const shapes = callee === undefined ? undefined : cache.byCallee.get(callee);
  if (shapes)
    for (const k of shapes) {
      if (k.opcode !== opcode || k.ret !== c.type || k.args.length !== ops.length - 1) continue;
      let same = true;
      for (let i = 1; i < ops.length && same; i++) same = k.args[i - 1] === (ops[i] as Value).type;
      if (same) return k.fault;
    }
  const args = objectList<Type>();
  const types = numberList();
  types.push(typeNumber(cache, c.type));
  for (let i = 1; i < ops.length; i++) {
    const t = (ops[i] as Value).type;
    args.push(t);
    types.push(typeNumber(cache, t));
  }
  const name = (callee as { name?: string } | undefined)?.name;
  const byName = name === undefined ? undefined : CHECKED_BY_NAME.get(name);
  let known: { fault: string | undefined } | undefined;
  if (byName)
    for (const k of byName) {
      if (k.opcode !== opcode || k.types.length !== types.length) continue;
      let same = true;
      for (let j = 0; j < types.length && same; j++) same = k.types[j] === types[j];
      if (same) {
        known = k;
        break;
      }
    }
  let fault: string | undefined;
  if (known) fault = known.fault;
  else {
    fault = uncachedCallFault(opcode, name, c.type, args);
    if (name !== undefined) {
      if (checkedShapes >= CHECKED_MAX) {
        CHECKED_BY_NAME.clear();
        checkedShapes = 0;
      }
      const list = CHECKED_BY_NAME.get(name) ?? objectList<CheckedByName>();
      if (list.length === 0) CHECKED_BY_NAME.set(name, list);
      list.push(new CheckedByName(opcode, types, fault));
      checkedShapes++;
    }
  }
  if (callee !== undefined) {
    const list = shapes ?? objectList<Checked>();
    if (!shapes) cache.byCallee.set(callee, list);
    list.push(new Checked(opcode, c.type, args, fault));
  }
  return fault;
}

function uncachedCallFault(
  opcode: number,
  name: string | undefined,
  ret: Type,
  args: readonly Type[],
): string | undefined {
  // The function called is the opcode's class (dx.op.<class>[.<overload>], hctdb.py's class names;
  // dxc spells the first letters in lower case): another function has another signature.
  const row = dxOp(opcode);
  const fn = name?.toLowerCase();
  const legacy = LEGACY_CLASS[opcode]?.toLowerCase();
  const cls = row ? `dx.op.${row[2].toLowerCase()}` : undefined;
  const ofClass = (c: string) => fn === c || fn!.startsWith(`${c}.`);
  if (row && fn !== undefined && cls !== undefined && !ofClass(cls) && !(legacy && ofClass(`dx.op.${legacy}`)))
    return `dx.op ${opcode} (${row[1]}, class ${row[2]}) called through @${name}`;
  const shape = resultShapeFault(ret);
  if (shape) return `dx.op ${opcode} (${row?.[1] ?? 'unknown'}) returns ${shape}`;
  // The whole signature (dxop-signatures.ts): the overload allowed, the callee's name, the result's
  // and every operand's type, before any handler reads them.
  const fault = dxOpSignatureFault(opcode, name, ret, args);
  if (fault) return `dx.op ${opcode} (${row?.[1] ?? 'unknown'}): ${fault}`;
  return undefined;
}

/** A dx.op call whose signature was checked (or a lane of one: the vector overloads' scalar calls). */
function liftChecked(L: DxilLifter, c: Instruction, x: OpContext, opcode: number): Val | undefined {
  // the vector path's callback is made only for a call with a vector (liftVectorDxOp answers
  // 'scalar' exactly when hasVector does not hold)
  if (hasVector(c)) {
    const v = liftVectorDxOp(L, c, x, opcode, (lane) => liftChecked(L, lane, x, opcode), TABLE);
    if (v !== 'scalar') return v;
  }
  const h = TABLE.get(opcode);
  if (!h) return L.refuse(reasonOf(opcode), `${dxOpName(opcode) ?? 'an unknown operation'} (dx.op ${opcode})`);
  resourceKindRule(L, c, opcode);
  return h(L, c, x);
}

/** What is wrong with a dx.op's result struct of DXIL's value-returning kinds (`dx.types.ResRet.T`:
 * lanes of T and an i32 status; `dx.types.CBufRet.T`: lanes of T), or undefined when it is well
 * formed: every lane of one type, the overload the struct's name says. The handlers read a lane's
 * type from the first lane, so a struct whose lanes disagree is malformed, not lifted. */
function resultShapeFault(t: Type): string | undefined {
  if (t.kind !== 'struct' || !t.name) return undefined;
  const m = /^dx\.types\.(ResRet|CBufRet)\.([a-z0-9]+)/.exec(t.name);
  if (!m) return undefined;
  const lanes = m[1] === 'ResRet' ? t.elts.slice(0, -1) : t.elts;
  if (m[1] === 'ResRet') {
    const status = t.elts[t.elts.length - 1];
    if (!status || status.kind !== 'int' || status.width !== 32) return `a %${t.name} without its i32 status`;
  }
  if (lanes.length === 0) return `a %${t.name} without lanes`;
  if (lanes.some((e) => e !== lanes[0] && dxOpTypeName(e) !== dxOpTypeName(lanes[0]!)))
    return `a %${t.name} whose lanes are not of one type`;
  const suffix = dxOpTypeName(lanes[0]!);
  if (suffix !== m[2]) return `a %${t.name} whose lanes are ${suffix ?? `of kind ${lanes[0]!.kind}`}`;
  return undefined;
}

/** The dx.op opcodes the lifter carries (tests and the census read it). */
export const LIFTED_DX_OPS: readonly number[] = [...TABLE.keys()].sort((a, b) => a - b);
