// A dx.op call checked against its signature (dxop-signatures.ts, hctdb.py's facts): the overload
// the call's types give is one the operation allows, the callee is named dx.op.<class>.<overload>
// (dxc's OP::ConstructOverloadName: the class name, then the overload's type name unless the
// operation has none), and the result and every parameter are of the types the signature says.
// A program that breaks any of these is not one dxc makes or its validator accepts.

import { DX_OP_SIGNATURES, type DxOpSignature } from './dxop-signatures.js';
import { dxOp } from './dxop.js';
import { sameType, type Type } from './ir.js';

const BY_OPCODE = new Map<number, DxOpSignature>(DX_OP_SIGNATURES.map((r) => [r[0], r]));

export function dxOpSignature(opcode: number): DxOpSignature | undefined {
  return BY_OPCODE.get(opcode);
}

/** Class names of older dxc releases, still in shipped programs: CreateHandleForLib (160) was
 * CreateHandleFromResourceStructForLib (a lib_6_1 library of ../shared/corpus/dxil/RayTraceG5-Kinc). */
export const LEGACY_CLASS: Readonly<Record<number, string>> = { 160: 'createHandleFromResourceStructForLib' };

/** The %dx.types structs a signature names by code (DxilOperations.cpp's names). */
const NAMED: Readonly<Record<string, string>> = {
  res: 'dx.types.Handle',
  dims: 'dx.types.Dimensions',
  SamplePos: 'dx.types.SamplePos',
  splitdouble: 'dx.types.splitdouble',
  twoi32: 'dx.types.twoi32',
  fouri32: 'dx.types.fouri32',
  i32c: 'dx.types.i32c',
  resbind: 'dx.types.ResBind',
  resproperty: 'dx.types.ResourceProperties',
  nodehandle: 'dx.types.NodeHandle',
  noderecordhandle: 'dx.types.NodeRecordHandle',
  nodeproperty: 'dx.types.NodeInfo',
  noderecordproperty: 'dx.types.NodeRecordInfo',
  hit_object: 'dx.types.HitObject',
};

const INT_WIDTH: Readonly<Record<string, number>> = {
  i1: 1,
  i8: 8,
  u8: 8,
  i16: 16,
  i32: 32,
  u32: 32,
  i64: 64,
  u64: 64,
};
const FLOAT_KIND: Readonly<Record<string, Type['kind']>> = { h: 'half', f: 'float', d: 'double' };

/** The overload character of a scalar type (hctdb's: h f d 1 8 w i l), or undefined. */
function scalarChar(t: Type): string | undefined {
  if (t.kind === 'half') return 'h';
  if (t.kind === 'float') return 'f';
  if (t.kind === 'double') return 'd';
  if (t.kind !== 'int') return undefined;
  return ({ 1: '1', 8: '8', 16: 'w', 32: 'i', 64: 'l' } as Record<number, string>)[t.width];
}

/** dxc's type name of an overload (OP::GetTypeName): f32, i16, v4f32, a struct's name. */
export function dxOpTypeName(t: Type): string | undefined {
  if (t.kind === 'int') return `i${t.width}`;
  if (t.kind === 'half') return 'f16';
  if (t.kind === 'float') return 'f32';
  if (t.kind === 'double') return 'f64';
  if (t.kind === 'vector' && t.elt) {
    const e = dxOpTypeName(t.elt);
    return e && `v${t.count}${e}`;
  }
  if (t.kind === 'ptr' && t.elt?.kind === 'struct') return t.elt.name;
  if (t.kind === 'struct') return t.name;
  return undefined;
}

function describe(t: Type): string {
  if (t.kind === 'struct') return t.name ? `%${t.name}` : 'a literal struct';
  if (t.kind === 'ptr') return `a pointer to ${t.elt ? describe(t.elt) : 'nothing'}`;
  return dxOpTypeName(t) ?? t.kind;
}

/** A struct named `name`, or the name LLVM gives a second struct of that name (name.N). */
function isNamed(t: Type, name: string): boolean {
  if (t.kind !== 'struct' || t.name === undefined) return false;
  return t.name === name || (t.name.startsWith(`${name}.`) && /^\d+$/.test(t.name.slice(name.length + 1)));
}

/** Whether overload `o` is in one dimension of oload_types (`hf<hf`, `o`, `u`...). */
function allowed(o: Type, dim: string): boolean {
  const [scalars = '', vectors] = dim.split('<');
  if (o.kind === 'vector')
    return vectors !== undefined && o.elt !== undefined && vectors.includes(scalarChar(o.elt) ?? '?');
  if (o.kind === 'struct') return scalars.includes('o') || scalars.includes('u');
  if (o.kind === 'ptr') return scalars.includes('u') && o.elt?.kind === 'struct';
  return scalars.includes(scalarChar(o) ?? '?');
}

/** The overload a slot of code `code` and type `t` gives, or undefined when the slot gives none. */
function overloadOf(code: string, t: Type): Type | undefined {
  if (code === '$o' || code === '$obj' || code === '$udt') return t;
  if ((code === '$r' || code === '$cb' || code === '$vec4') && t.kind === 'struct') return t.elts[0];
  if (code === '$vec9' && t.kind === 'vector') return t.elt;
  return undefined;
}

/** The expected overload-shaped type of `code` given overload `o` holds for `t`, or a fault. */
function slotFault(code: string, t: Type, o: Type | undefined): string | undefined {
  const want = (what: string) => `${describe(t)}, not ${what}`;
  const w = INT_WIDTH[code];
  if (w !== undefined) return t.kind === 'int' && t.width === w ? undefined : want(`i${w}`);
  const f = FLOAT_KIND[code];
  if (f !== undefined) return t.kind === f ? undefined : want(f);
  if (code === 'v') return t.kind === 'void' ? undefined : want('void');
  const named = NAMED[code];
  if (named !== undefined) return isNamed(t, named) ? undefined : want(`%${named}`);
  if (code === 'pf32') return t.kind === 'ptr' && t.elt?.kind === 'float' ? undefined : want('float*');
  if (code === 'int2')
    return t.kind === 'vector' && t.count === 2 && t.elt?.kind === 'int' && t.elt.width === 32
      ? undefined
      : want('<2 x i32>');
  if (/^\$x(_gs)?\d$/.test(code)) return undefined; // an extended overload's dimension: checked by the caller
  if (o === undefined) return `${describe(t)} where the operation has no overload`;
  const on = dxOpTypeName(o) ?? o.kind;
  switch (code) {
    case '$o':
    case '$obj':
    case '$udt':
      return sameType(t, o) ? undefined : want(`the overload ${on}`);
    case '$o_i1':
    case '$o_i32': {
      const width = code === '$o_i1' ? 1 : 32;
      const lane = o.kind === 'vector' ? t.elt : t;
      const shape = o.kind === 'vector' ? t.kind === 'vector' && t.count === o.count : t.kind === 'int';
      return shape && lane?.kind === 'int' && lane.width === width
        ? undefined
        : want(o.kind === 'vector' ? `<${o.count} x i${width}>` : `i${width}`);
    }
    case '$elt':
      return o.kind === 'vector' && o.elt && sameType(t, o.elt) ? undefined : want(`the element of ${on}`);
    case '$r': {
      const lanes = o.kind === 'vector' ? 1 : 4;
      const ok =
        isNamed(t, `dx.types.ResRet.${on}`) &&
        t.elts.length === lanes + 1 &&
        t.elts.slice(0, lanes).every((e) => sameType(e, o)) &&
        t.elts[lanes]!.kind === 'int' &&
        t.elts[lanes]!.width === 32;
      return ok ? undefined : want(`%dx.types.ResRet.${on}`);
    }
    case '$cb': {
      const ok =
        (isNamed(t, `dx.types.CBufRet.${on}`) || isNamed(t, `dx.types.CBufRet.${on}.8`)) &&
        [2, 4, 8].includes(t.elts.length) &&
        t.elts.every((e) => sameType(e, o));
      return ok ? undefined : want(`%dx.types.CBufRet.${on}`);
    }
    case '$vec4': {
      const name = o.kind === 'int' && o.width === 16 ? 'dx.types.fouri16' : 'dx.types.fouri32';
      return isNamed(t, name) && t.elts.length === 4 && t.elts.every((e) => sameType(e, o))
        ? undefined
        : want(`%${name}`);
    }
    case '$vec9':
      return t.kind === 'vector' && t.count === 9 && t.elt && sameType(t.elt, o) ? undefined : want(`<9 x ${on}>`);
  }
  return `${describe(t)} for the unknown signature type ${code}`;
}

/** A signature row taken apart once per opcode: the slots' codes (the result's first), the overload
 * dimensions, each slot's extended-overload dimension (-1: none) and whether it is a groupshared
 * pointer's, and the callee names it allows (before the overloads' type names). */
interface Shape {
  readonly sig: DxOpSignature;
  readonly codes: readonly string[];
  readonly dims: readonly string[];
  readonly ext: readonly number[];
  readonly groupshared: readonly boolean[];
  readonly expected: string;
  readonly legacy: string | undefined;
}

const SHAPES = new Map<number, Shape | null>();

function shapeOf(opcode: number): Shape | undefined {
  let shape = SHAPES.get(opcode);
  if (shape === undefined) {
    const sig = BY_OPCODE.get(opcode);
    const row = dxOp(opcode);
    if (!sig || !row) shape = null;
    else {
      const codes = sig[2].split(' ');
      const ext = codes.map((c) => /^\$x(_gs)?(\d)$/.exec(c));
      shape = {
        sig,
        codes,
        dims: sig[1] === 'v' ? [] : sig[1].split(','),
        ext: ext.map((m) => (m ? Number(m[2]) : -1)),
        groupshared: ext.map((m) => m?.[1] !== undefined),
        expected: `dx.op.${row[2]}`,
        legacy: LEGACY_CLASS[opcode] && `dx.op.${LEGACY_CLASS[opcode]}`,
      };
    }
    SHAPES.set(opcode, shape);
  }
  return shape ?? undefined;
}

/**
 * What is wrong with a call of dx.op `opcode` through the function `callee` with result type `ret`
 * and operand types `args` (the operands after the opcode), or undefined when it fits the
 * operation's signature. An opcode without a signature row is left to the caller.
 */
export function dxOpSignatureFault(
  opcode: number,
  callee: string | undefined,
  ret: Type,
  args: readonly Type[],
): string | undefined {
  const shape = shapeOf(opcode);
  if (!shape) return undefined;
  const { codes, dims } = shape;
  if (args.length !== codes.length - 1) return `${args.length} operands after the opcode, not ${codes.length - 1}`;
  const typeAt = (k: number): Type => (k === 0 ? ret : args[k - 1]!);
  // the overloads: one (the first slot that gives it), or one per dimension of an extended overload
  const overloads: Type[] = [];
  if (dims.length === 1) {
    let o: Type | undefined;
    for (let k = 0; k < codes.length && o === undefined; k++) o = overloadOf(codes[k]!, typeAt(k));
    // QuadVote's only overloaded slot is its $o_i1 result: the overload is that type itself
    if (o === undefined) {
      const k = codes.findIndex((code) => code === '$o_i1' || code === '$o_i32');
      if (k >= 0) o = typeAt(k);
    }
    if (o) overloads.push(o);
  } else
    for (let k = 0; k < codes.length; k++) {
      const d = shape.ext[k]!;
      if (d < 0) continue;
      const t = typeAt(k);
      const o = shape.groupshared[k] ? (t.kind === 'ptr' && t.addrSpace === 3 ? t.elt : undefined) : t;
      if (!o) return `${describe(t)} where a groupshared pointer belongs`;
      overloads[d] = o;
    }
  if (overloads.length !== dims.length || overloads.some((o) => o === undefined)) return 'no overload in its types';
  for (let k = 0; k < dims.length; k++)
    if (!allowed(overloads[k]!, dims[k]!)) return `overload ${describe(overloads[k]!)}, not one of '${shape.sig[1]}'`;
  let names = '';
  for (const o of overloads) names += `.${dxOpTypeName(o) ?? describe(o)}`;
  const expected = `${shape.expected}${names}`.toLowerCase();
  const legacy = shape.legacy && `${shape.legacy}${names}`.toLowerCase();
  const called = callee?.toLowerCase();
  if (called !== undefined && called !== expected && called !== legacy)
    return `called through @${callee}, not @${expected}`;
  for (let k = 0; k < codes.length; k++) {
    const fault = slotFault(codes[k]!, typeAt(k), dims.length === 1 ? overloads[0] : undefined);
    if (fault) return `${k === 0 ? 'the result' : `operand ${k}`} is ${fault}`;
  }
  return undefined;
}
