// What every dx.op handler shares (ops.ts and the tables beside it): the handler type, the lifter's
// per-program context, operand access by DXIL's numbering, lanes to and from the overload type,
// entry builtins made on first use, and resource handles.

import type { ExprId, Scalar } from '../../ir/ir.js';
import type { Instruction, Type, Value } from '../../dxil/ir.js';
import { type DxilLifter, type HandleVal, type Val, isExpr } from './lifter.js';
import type { DxResources, DxResource } from './resources.js';
import { readElement, writeElement, type IoElement } from './io.js';
import type { StageIo } from './ops-stage.js';
import type { MeshIo } from './ops-mesh.js';

export interface OpContext {
  readonly resources: DxResources;
  readonly inputs: ReadonlyMap<number, IoElement>;
  readonly outputs: ReadonlyMap<number, IoElement>;
  /** Entry arguments made on first use (thread ids, coverage...), by builtin name. */
  readonly builtins: Map<string, ExprId>;
  /** A hull, domain or geometry function's stage context (stage.ts), a mesh or amplification
   * program's (mesh.ts): fields rather than WeakMaps keyed by the context, read by every
   * loadInput and storeOutput. */
  readonly stageIo: StageIo | undefined;
  readonly meshIo: MeshIo | undefined;
}

export type Handler = (L: DxilLifter, c: Instruction, x: OpContext) => Val | undefined;

/** Operand k (DXIL's numbering: 0 is the opcode). */
export const arg = (L: DxilLifter, c: Instruction, k: number): Value =>
  c.ops[k] ?? L.invalid(`operand ${k} is missing`);
export const num = (L: DxilLifter, c: Instruction, k: number): ExprId => L.num(arg(L, c, k));
export const u32 = (L: DxilLifter, c: Instruction, k: number): ExprId => L.u(arg(L, c, k));
export const undef = (L: DxilLifter, c: Instruction, k: number): boolean => {
  const v = c.ops[k];
  return v === undefined || L.isUndef(v);
};

export function element(L: DxilLifter, map: ReadonlyMap<number, IoElement>, id: number, what: string): IoElement {
  return map.get(id) ?? L.invalid(`${what} element ${id} is not in the signature`);
}

/** A raw 32-bit lane as a value of the overload type. */
export function fromLane(L: DxilLifter, raw: ExprId, t: Type): ExprId {
  const s = L.scalarOf(t);
  if (s === 'f32') return L.roundHalf(L.bitcast('f32', raw), t);
  if (s === 'bool') return L.bin('ne', raw, L.u32(0));
  return L.wrap(raw, t);
}

export function toLane(L: DxilLifter, v: ExprId, t: Type): ExprId {
  const s = L.scalarOf(t);
  if (s === 'f32') return L.bitcast('u32', v);
  if (s === 'bool') return L.sel(v, L.u32(1), L.u32(0));
  if (t.kind === 'int' && t.width < 32 && t.width > 1) return L.bitcast('u32', L.signed(v, t));
  return v;
}

export function handleOf(L: DxilLifter, v: Value): HandleVal {
  const h = L.val(v);
  if (isExpr(h) || h.kind !== 'handle') return L.invalid('a resource operand that is not a handle');
  return h;
}

export function resourceOf(
  L: DxilLifter,
  c: Instruction,
  k: number,
  x: OpContext,
): { h: HandleVal; res: DxResource; e: ExprId } {
  const h = handleOf(L, arg(L, c, k));
  return { h, res: h.res, e: x.resources.expr(h) };
}

/** The sampler operand `k` of a sample, gather or lod: a handle of a sampler (class 3), else E602. */
export function samplerOf(
  L: DxilLifter,
  c: Instruction,
  k: number,
  x: OpContext,
  comparison: boolean | undefined,
): { res: DxResource; e: ExprId } {
  const r = resourceOf(L, c, k, x);
  if (r.res.cls !== 's') return L.invalid(`a sampler operand that is a handle of class ${r.res.cls}, not a sampler`);
  // DXIL's validation (InstrSamplerModeForSampleC, InstrSamplerModeForSample): a comparison sample
  // or gather takes a sampler declared in comparison mode, every other sample or gather one in default
  // mode; `undefined`: either (CalculateLOD: vkd3d-proton's ps_sample_cmp_grad_bias, built by dxc,
  // takes the level of a comparison sampler)
  if (comparison !== undefined && (r.res.dx.samplerKind === 1) !== comparison)
    return L.invalid(
      `${comparison ? 'a comparison' : 'a'} sampling operation through a sampler declared in ${comparison ? 'default' : 'comparison'} mode`,
    );
  return r;
}

export function vec(L: DxilLifter, s: Scalar, parts: ExprId[]): ExprId {
  return parts.length === 1 ? parts[0]! : L.e({ op: 'compose', type: L.m.vec(s, parts.length), parts });
}

export function retType(c: Instruction): Type {
  return c.type.kind === 'struct' ? c.type.elts[0]! : c.type;
}

/** An entry argument bound to a builtin, made on first use. */
export function builtinArg(
  L: DxilLifter,
  x: OpContext,
  builtin:
    | 'global_invocation_id'
    | 'workgroup_id'
    | 'local_invocation_id'
    | 'local_invocation_index'
    | 'sample_mask'
    | 'sample_index'
    | 'vertex_index'
    | 'instance_index'
    | 'front_facing'
    | 'subgroup_invocation_id'
    | 'subgroup_size',
): ExprId {
  const known = x.builtins.get(builtin);
  if (known !== undefined) return known;
  // the signature may have made it already (SV_SampleIndex, SV_VertexID...)
  const had = L.f.args.findIndex((a) => a.binding?.kind === 'builtin' && a.binding.builtin === builtin);
  if (had >= 0) {
    const e = L.e({ op: 'arg', index: had });
    x.builtins.set(builtin, e);
    return e;
  }
  const type =
    builtin === 'global_invocation_id' || builtin === 'workgroup_id' || builtin === 'local_invocation_id'
      ? L.m.vec('u32', 3)
      : builtin === 'front_facing'
        ? L.tBool
        : L.tU32;
  const index = L.f.arg({ name: builtin, type, binding: { kind: 'builtin', builtin } });
  const e = L.e({ op: 'arg', index });
  x.builtins.set(builtin, e);
  return e;
}

/** loadInput of a program with no stage context (vertex, pixel, compute): the element's local (io.ts). */
export const entryLoadInput: Handler = (L, c, x) => {
  const io = element(L, x.inputs, L.imm(arg(L, c, 1), 'an input id'), 'input');
  const col = L.imm(arg(L, c, 3), 'an input column');
  return fromLane(L, readElement(L, io, u32(L, c, 2), col), c.type);
};

/** storeOutput of a program with no stage context: the element's local (io.ts). */
export const entryStoreOutput: Handler = (L, c, x) => {
  const io = element(L, x.outputs, L.imm(arg(L, c, 1), 'an output id'), 'output');
  const v = arg(L, c, 4);
  writeElement(L, io, u32(L, c, 2), L.imm(arg(L, c, 3), 'an output column'), toLane(L, L.num(v), v.type));
  return undefined;
};
