// Resources of a lifted DXIL program, with the SM4/5 lifter's conventions (lift/resources.ts) so
// that a DXBC and a DXIL build of one HLSL bind alike: constant buffers are uniform
// array<vec4<u32>, rows> in group 0; textures and buffer views in group 1 (typed buffers as
// array<vec4<u32>>, raw and structured as array<u32>); samplers in group 2; UAVs in group 3
// (typed texture views as storage images: r32 when the program loads them, else rgba32). A class
// whose ranges are all single registers of space 0 is bound at binding = register (as SM5.0);
// otherwise its ranges are numbered in declaration order, each taking as many bindings as it has
// registers (as SM5.1). A range of several registers is a binding array. The dx.resources
// metadata gives class, range id, space, lower bound, size, shape and element type.

import type { ImageDim, StorageFormat, TypeId } from '../../ir/ir.js';
import type { Resource, ResourceKind } from '../../ir/program.js';
import type { DxilInfo, DxilResource } from '../../dxil/dxil-metadata.js';
import { Constant, Instruction, GlobalVar, type Func, type Value } from '../../dxil/ir.js';
import type { DxilLifter, HandleVal } from './lifter.js';
import { imageOf as sm4ImageOf } from '../resources.js';
import { addCounter, COUNTER_NOTE } from '../counter.js';
import { TEXELS64_NOTE, TEXELS_MS_NOTE, TEXELS_NOTE } from '../texels.js';

export type Shape =
  | '1d'
  | '2d'
  | '2dms'
  | '3d'
  | 'cube'
  | '1darray'
  | '2darray'
  | '2dmsarray'
  | 'cubearray'
  | 'buffer'
  | 'raw'
  | 'structured'
  | 'cbuffer'
  | 'sampler';

/** DXIL::ResourceKind to a shape (13 CBuffer, 14 Sampler apart). */
const SHAPES: Readonly<Record<number, Shape>> = {
  1: '1d',
  2: '2d',
  3: '2dms',
  4: '3d',
  5: 'cube',
  6: '1darray',
  7: '2darray',
  8: '2dmsarray',
  9: 'cubearray',
  10: 'buffer',
  11: 'raw',
  12: 'structured',
  13: 'cbuffer',
  14: 'sampler',
};

export interface DxResource {
  readonly cls: 'b' | 't' | 's' | 'u';
  readonly dx: DxilResource;
  readonly global: number;
  readonly shape: Shape;
  readonly scalar: 'f32' | 'i32' | 'u32';
  readonly depth: boolean;
  readonly format?: StorageFormat;
  /** Structured element stride in bytes. */
  readonly stride: number;
  readonly atomic: boolean;
  /** Buffer elements are single words (raw, structured, typed UAVs loaded or used atomically). */
  readonly scalarElements: boolean;
  /** Constant buffer rows. */
  readonly rows: number;
  readonly isArray: boolean;
  /** Bindings given (an unbounded range gets `unboundedCount`). */
  readonly count: number;
  /** A UAV with a hidden counter: the counter's global (lift/counter.ts). */
  readonly counter?: number;
  /** A typed texture view used atomically, held as words (lift/texels.ts). */
  readonly texels?: true;
  /** A typed view a 64-bit atomic uses: two words a texel or element, low first (atomic64.ts). */
  readonly wide?: true;
}

const CLASS_OF = { CBuffer: 'b', SRV: 't', Sampler: 's', UAV: 'u' } as const;
const CLASS_NAME = { b: 'constant buffer', t: 'SRV', s: 'sampler', u: 'UAV' } as const;
const GROUP = { b: 0, t: 1, s: 2, u: 3 } as const;
/** Register classes in alphabetical order (b, s, t, u; one letter each: no locale's collation needed). */
const byClass = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** DXIL component type to the scalar a view reads. */
function compScalar(L: DxilLifter, ct: number): 'f32' | 'i32' | 'u32' {
  if (ct === 2 || ct === 4) return 'i32';
  if (ct === 1 || ct === 3 || ct === 5) return 'u32';
  if (ct === 6 || ct === 7) return L.refuse('64-bit integers', 'a view of 64-bit integer elements');
  if (ct === 10 || ct === 15 || ct === 16) return L.refuse('double precision', 'a view of double elements');
  return 'f32';
}

/** What the program does with each resource (by class and range id), found before declaring. */
export interface Usage {
  readonly comparison: Set<string>;
  readonly atomic: Set<string>;
  readonly typedLoad: Set<string>;
  /** Views a 64-bit atomic (AtomicBinOp.i64, AtomicCompareExchange.i64) uses. */
  readonly atomic64: Set<string>;
  /** The highest constant register a handle names, by class and range id (unbounded ranges reach it). */
  readonly maxIndex: Map<string, number>;
}

// dx.op opcodes that say how a handle is used.
const COMPARE = new Set([64, 65, 74, 224, 254, 255]);
const ATOMIC = new Set([78, 79]);
const TYPED_LOAD = new Set([66, 68]);

function is16Type(t: import('../../dxil/ir.js').Type | undefined, native16: boolean): boolean {
  return !!t && ((t.kind === 'int' && t.width === 16) || (t.kind === 'half' && native16));
}

export class DxResources {
  readonly list: Resource[] = [];
  readonly byKey = new Map<string, DxResource>();
  private readonly all: DxilResource[];
  /** heap.ts: each heap annotation's array and each createHandleFromHeap call's first (undefined
   * until declareHeaps runs). */
  heaps: { byAnnotation: Map<Instruction, DxilResource>; byCall: Map<Instruction, DxilResource> } | undefined =
    undefined;

  constructor(
    private readonly L: DxilLifter,
    private readonly info: DxilInfo,
    private readonly unboundedCount: number,
    private readonly native16 = false,
  ) {
    this.all = [...info.cbuffers, ...info.srvs, ...info.samplers, ...info.uavs];
  }

  /** The metadata resource a handle-creating call names, found without lifting (for the usage scan). */
  resourceOf(v: Value | undefined, depth = 0): DxilResource | undefined {
    if (!(v instanceof Instruction) || depth > 8) return undefined;
    if (v.op !== 'call') return undefined;
    const op = v.ops[0];
    const opcode = op instanceof Constant && op.ck === 'int' ? Number(op.bits) : -1;
    // annotateHandle: the descriptor-heap array it selects (heap.ts), else its handle's
    if (opcode === 216) return this.heaps?.byAnnotation.get(v) ?? this.resourceOf(v.ops[1], depth + 1);
    if (opcode === 57) {
      // createHandle(class, rangeId, index, nonUniform)
      const cls = ['SRV', 'UAV', 'CBuffer', 'Sampler'][this.L.imm(v.ops[1], 'a handle class')];
      const id = this.L.imm(v.ops[2], 'a range id');
      return this.all.find((r) => r.cls === cls && r.id === id);
    }
    if (opcode === 217) {
      // createHandleFromBinding(ResBind {lower, upper, space, class}, index, nonUniform)
      const b = v.ops[1];
      if (!(b instanceof Constant) || (b.ck !== 'aggregate' && b.ck !== 'null')) return undefined;
      const fields =
        b.ck === 'null'
          ? [0, 0, 0, 0]
          : b.ops.map((x) => (x instanceof Constant ? Number(BigInt.asUintN(32, x.bits)) : 0));
      const [lo, , space, cls] = fields;
      const name = ['SRV', 'UAV', 'CBuffer', 'Sampler'][cls ?? 0];
      return this.all.find(
        (r) =>
          r.cls === name &&
          r.space === space &&
          (lo ?? 0) >= r.lowerBound &&
          (r.rangeSize === 0xffffffff || (lo ?? 0) < r.lowerBound + r.rangeSize),
      );
    }
    if (opcode === 160) {
      // createHandleForLib(load of the resource's global, or of an element of it)
      const ld = v.ops[1];
      if (!(ld instanceof Instruction) || ld.op !== 'load') return undefined;
      let p = ld.ops[0];
      if (p instanceof Instruction && p.op === 'gep') p = p.ops[0];
      if (p instanceof Constant && p.ck === 'ce-gep') p = p.ops[0];
      return this.all.find((r) => r.symbol !== undefined && r.symbol === p);
    }
    return undefined;
  }

  scan(fns: readonly Func[]): Usage {
    const u: Usage = {
      comparison: new Set(),
      atomic: new Set(),
      typedLoad: new Set(),
      atomic64: new Set(),
      maxIndex: new Map(),
    };
    const key = (r: DxilResource) => `${r.cls}:${r.id}`;
    for (const f of fns)
      for (const b of f.blocks)
        for (const i of b.insts) {
          if (i.op !== 'call' || !i.callee?.name?.startsWith('dx.op.')) continue;
          const c = i.ops[0];
          const opcode = c instanceof Constant && c.ck === 'int' ? Number(c.bits) : -1;
          if (opcode === 57 || opcode === 217) {
            const r = this.resourceOf(i);
            const ix = i.ops[opcode === 57 ? 3 : 2];
            if (r && ix instanceof Constant && ix.ck === 'int') {
              const k = Number(BigInt.asUintN(32, ix.bits));
              u.maxIndex.set(key(r), Math.max(u.maxIndex.get(key(r)) ?? 0, k));
            }
          }
          const stored = i.ops[4]?.type;
          const storedElt = stored?.kind === 'vector' ? stored.elt : stored; // RawBufferVectorStore: its lanes
          if ((opcode === 140 || opcode === 69 || opcode === 304) && is16Type(storedElt, this.native16)) {
            const r = this.resourceOf(i.ops[1]);
            if (r) u.atomic.add(key(r));
            continue;
          }
          const set = COMPARE.has(opcode)
            ? u.comparison
            : ATOMIC.has(opcode)
              ? u.atomic
              : TYPED_LOAD.has(opcode)
                ? u.typedLoad
                : undefined;
          if (!set) continue;
          const r = this.resourceOf(i.ops[1]);
          if (r) set.add(key(r));
          if (r && set === u.atomic && i.type.kind === 'int' && i.type.width === 64) u.atomic64.add(key(r));
        }
    return u;
  }

  /**
   * DXIL's rule (the validator's "resource overlaps"): two ranges of one register class in one space
   * share no register. Malformed metadata that breaks it is refused here, before two globals could
   * take one binding.
   */
  private checkOverlaps(): void {
    const end = (r: (typeof this.all)[number]): number =>
      r.rangeSize === 0xffffffff || r.rangeSize === 0 ? Infinity : r.lowerBound + r.rangeSize;
    const sorted = [...this.all].sort(
      (a, b) => byClass(CLASS_OF[a.cls], CLASS_OF[b.cls]) || a.space - b.space || a.lowerBound - b.lowerBound,
    );
    for (let k = 1; k < sorted.length; k++) {
      const a = sorted[k - 1]!;
      const b = sorted[k]!;
      if (CLASS_OF[a.cls] === CLASS_OF[b.cls] && a.space === b.space && b.lowerBound < end(a))
        this.L.invalid(
          `${a.name || `${a.cls}${a.id}`} and ${b.name || `${b.cls}${b.id}`} overlap at ${CLASS_OF[b.cls]}${b.lowerBound} (space ${b.space})`,
        );
    }
  }

  /** Declares every resource of the metadata as a global. */
  declareAll(fns: readonly Func[]): void {
    this.checkOverlaps();
    const usage = this.scan(fns);
    const next = [0, 0, 0, 0];
    const simple = new Set<string>();
    for (const cls of ['b', 't', 's', 'u'] as const) {
      const rs = this.all.filter((r) => CLASS_OF[r.cls] === cls);
      if (rs.every((r) => r.rangeSize === 1 && r.space === 0)) simple.add(cls);
    }
    for (const r of this.all) {
      const cls = CLASS_OF[r.cls];
      const group = GROUP[cls];
      const unbounded = r.rangeSize === 0xffffffff || r.rangeSize === 0;
      // An unbounded range gets `unboundedCount` bindings, or more when a constant index reaches further.
      const reach = (usage.maxIndex.get(`${r.cls}:${r.id}`) ?? 0) - r.lowerBound + 1;
      const count = unbounded ? Math.max(this.unboundedCount, reach) : r.rangeSize;
      if (count > 4096)
        this.L.refuse('resource kind not handled', `a range of ${count} registers (iridia binds at most 4096)`);
      const binding = simple.has(cls) ? r.lowerBound : next[group]!;
      next[group] = binding + count;
      this.declare(r, cls, group, binding, count, unbounded, usage);
    }
  }

  /** Declares one resource as a global (heap.ts declares its descriptor-heap arrays through it, by `name`). */
  declare(
    r: DxilResource,
    cls: 'b' | 't' | 's' | 'u',
    group: number,
    binding: number,
    count: number,
    unbounded: boolean,
    usage: Usage,
    name = `${cls === 'b' ? 'cb' : cls}${r.id}`,
  ): void {
    const L = this.L;
    const key = `${r.cls}:${r.id}`;
    const shape = SHAPES[r.kind];
    // DXIL's ResourceKind belongs to the record's class: CBuffer (13) only in the constant buffers,
    // Sampler (14) only in the samplers, and neither a cube (5, 9) nor a tbuffer (15) or an
    // acceleration structure (16) among the UAVs
    const classKind = cls === 'b' ? r.kind === 13 : cls === 's' ? r.kind === 14 : r.kind !== 13 && r.kind !== 14;
    if (!classKind || (cls === 'u' && [5, 9, 15, 16].includes(r.kind)))
      return L.invalid(`${r.name || name}: resource kind ${r.kind} in the ${CLASS_NAME[cls]} records`);
    if (r.kind === 16) L.refuse('raytracing', `${r.name}: a raytracing acceleration structure`);
    if (r.kind === 17 || r.kind === 18)
      L.refuse('resource kind not handled', `${r.name || r.id}: a sampler feedback texture`);
    if (r.kind === 15) L.refuse('resource kind not handled', `${r.name}: a tbuffer`);
    if (!shape) return L.invalid(`${r.name}: resource kind ${r.kind}`);
    let elem: TypeId;
    let space: 'uniform' | 'storage' | 'handle' = 'handle';
    let access: 'read' | 'read_write' | undefined;
    let kind: ResourceKind;
    let scalar: 'f32' | 'i32' | 'u32' = 'u32';
    let depth = false;
    let format: StorageFormat | undefined;
    let atomic = false;
    let scalarElements = false;
    let rows = 0;
    let texels = false;
    // a typed view a 64-bit atomic uses: two words a texel or element (R32G32_UINT, low first)
    const wide = cls === 'u' && usage.atomic64.has(key) && shape !== 'raw' && shape !== 'structured';
    if (cls === 'b') {
      rows = Math.max(1, Math.ceil(r.size / 16));
      if (rows > 4096) L.invalid(`${r.name}: a constant buffer of ${rows} rows (Direct3D allows 4096)`);
      elem = L.m.array(L.tVec4, rows);
      space = 'uniform';
      kind = { kind: 'constantBuffer', rows, layout: { constants: [] } };
    } else if (cls === 's') {
      if (r.samplerKind === 2) L.refuse('mono sampler', `${r.name}: a mono sampler`);
      const comparison = r.samplerKind === 1;
      elem = L.m.type({ kind: 'sampler', comparison });
      kind = { kind: 'sampler', comparison };
    } else if (shape === 'buffer' || shape === 'raw' || shape === 'structured') {
      const uav = cls === 'u';
      atomic = uav && usage.atomic.has(key);
      const typedLoaded = usage.typedLoad.has(key);
      scalarElements = shape !== 'buffer' || (uav && (atomic || typedLoaded));
      if (shape === 'buffer') {
        scalar = compScalar(L, r.compType);
        L.note(
          wide
            ? `${name}: a typed buffer view a 64-bit atomic uses holds two 32-bit words per element (an R32G32_UINT format, the low word first)`
            : scalarElements
              ? `${name}: a typed buffer view that is loaded or used atomically holds one 32-bit word per element (an R32 format)`
              : `${name}: a typed buffer view is read and written as four raw 32-bit lanes per element (the view's format is the caller's)`,
        );
      }
      const base = atomic ? L.m.type({ kind: 'atomic', scalar: 'u32' }) : scalarElements ? L.tU32 : L.tVec4;
      elem = L.m.array(base, null);
      space = 'storage';
      access = uav ? 'read_write' : 'read';
      const view = shape === 'buffer' ? 'typed' : shape;
      kind = uav
        ? {
            kind: 'uav',
            view,
            dimension: 'buffer',
            ...(shape === 'structured' ? { stride: r.stride } : {}),
            ...(wide ? { elementWords: 2 as const } : {}),
          }
        : { kind: 'buffer', view, ...(shape === 'structured' ? { stride: r.stride } : {}) };
      if (shape === 'structured' && (r.stride % 2 !== 0 || r.stride === 0 || r.stride > 2048))
        L.refuse('resource kind not handled', `${name} (${r.name}): a structure stride of ${r.stride} bytes`);
    } else if (cls === 't') {
      scalar = compScalar(L, r.compType);
      depth = usage.comparison.has(key);
      if (depth && scalar !== 'f32') L.refuse('resource kind not handled', 'comparison sampling of an integer texture');
      if (shape === '2dmsarray') L.refuse('resource kind not handled', 'Texture2DMSArray has no WGSL counterpart');
      if (shape === '1d' || shape === '1darray')
        L.note(
          `${name}: a 1D texture is bound as a 2D texture of height 1 (WGSL samples 1D textures only with implicit level)`,
        );
      if (depth) L.note(`${name}: read through a comparison sampler, so bound as a depth texture`);
      const img = imageOf(shape);
      elem = L.m.type({
        kind: 'image',
        dim: img.dim,
        arrayed: img.arrayed,
        class: depth ? { kind: 'depth', multisampled: img.ms } : { kind: 'sampled', scalar, multisampled: img.ms },
      });
      kind = {
        kind: 'texture',
        dimension: shape,
        returnType: scalar === 'f32' ? 'float' : scalar === 'i32' ? 'sint' : 'uint',
      };
    } else if (
      (usage.atomic.has(key) &&
        (shape === '1d' || shape === '1darray' || shape === '2d' || shape === '2darray' || shape === '3d')) ||
      shape === '2dms' ||
      shape === '2dmsarray'
    ) {
      // A multisampled UAV (SM6.7 RWTexture2DMS[Array]): WebGPU has no multisampled storage textures,
      // so it is held as the texel buffer too, one word a sample (a scalar element only)
      if ((shape === '2dms' || shape === '2dmsarray') && !scalarElement(r))
        L.refuse('resource kind not handled', `${name}: a ${shape} storage texture of more than one component`);
      const samples = shape === '2dms' || shape === '2dmsarray' ? sampleCountOf(r) : undefined;
      if ((shape === '2dms' || shape === '2dmsarray') && !(samples !== undefined && samples >= 1 && samples <= 32))
        L.refuse('resource kind not handled', `${name}: a multisampled UAV whose sample count is not 1 to 32`);
      // WebGPU has no texture atomics: one word a texel in a storage buffer (lift/texels.ts)
      scalar = compScalar(L, r.compType);
      if (samples !== undefined) L.note(TEXELS_MS_NOTE(name));
      else if (wide) {
        if (scalar === 'f32') L.refuse('64-bit integers', `${name}: a 64-bit atomic on a float view`);
        L.note(TEXELS64_NOTE(name));
      } else {
        if (scalar === 'f32')
          L.note(`${name}: a float view used atomically holds its texels' bits (exchange and compare-exchange only)`);
        L.note(TEXELS_NOTE(name));
      }
      elem = L.m.array(L.m.type({ kind: 'atomic', scalar: scalar === 'i32' ? 'i32' : 'u32' }), null);
      space = 'storage';
      access = 'read_write';
      atomic = true;
      scalarElements = true;
      texels = true;
      kind = {
        kind: 'uav',
        view: 'typed',
        dimension: shape,
        texels: true,
        ...(samples !== undefined ? { samples } : {}),
        ...(wide ? { elementWords: 2 as const } : {}),
      };
    } else {
      scalar = compScalar(L, r.compType);
      if (usage.atomic.has(key)) L.refuse('texture atomics', `${name}: atomics on a ${shape} typed texture view`);
      if (shape === 'cube' || shape === 'cubearray')
        L.refuse('resource kind not handled', `${name}: a ${shape} storage texture`);
      const wide = !usage.typedLoad.has(key);
      format = wide
        ? scalar === 'u32'
          ? 'rgba32uint'
          : scalar === 'i32'
            ? 'rgba32sint'
            : 'rgba32float'
        : scalar === 'u32'
          ? 'r32uint'
          : scalar === 'i32'
            ? 'r32sint'
            : 'r32float';
      L.note(
        wide
          ? `${name}: a typed texture view only written is a write-only ${format} storage texture`
          : `${name}: a typed texture view that is read is a read-write ${format} storage texture (one lane, as Direct3D's typed loads)`,
      );
      if (shape === '1d' || shape === '1darray') L.note(`${name}: a 1D view is bound as a 2D texture of height 1`);
      const img = imageOf(shape);
      elem = L.m.type({
        kind: 'image',
        dim: img.dim,
        arrayed: img.arrayed,
        class: { kind: 'storage', format, access: wide ? 'write' : 'read_write' },
      });
      kind = { kind: 'uav', view: 'typed', dimension: shape };
    }
    const isArray = count !== 1 || unbounded;
    const type = isArray ? L.m.type({ kind: 'binding_array', base: elem, size: count }) : elem;
    const global = L.m.addGlobal({
      name,
      space,
      type,
      ...(access ? { access } : {}),
      binding: { group, binding },
    });
    // A hidden counter (the metadata's flag; a heap annotation's): beside the view, as the SM4/5 lifter's.
    const counter =
      cls === 'u' && r.hasCounter && (shape === 'structured' || shape === 'raw')
        ? (addCounter(L.m, name, group, binding, isArray ? count : undefined) ??
          L.refuse(
            'append/consume counter',
            `${name}: its counter's binding would pass WebGPU's 1000 bindings a group`,
          ))
        : undefined;
    if (counter) L.note(COUNTER_NOTE(name, counter.group, counter.binding));
    if (unbounded)
      L.note(`${name}: the unbounded range ${cls}${r.lowerBound}.. (space ${r.space}) is given ${count} bindings`);
    const res: DxResource = {
      cls,
      dx: r,
      global,
      shape,
      scalar,
      depth,
      ...(format ? { format } : {}),
      stride: shape === 'structured' ? r.stride : shape === 'raw' ? 4 : 16,
      atomic,
      scalarElements,
      rows,
      isArray,
      count,
      ...(counter ? { counter: counter.global } : {}),
      ...(texels ? { texels: true as const } : {}),
      ...(wide ? { wide: true as const } : {}),
    };
    this.byKey.set(key, res);
    this.list.push({
      name,
      global,
      reflectedName: r.name,
      registerClass: cls,
      register: r.lowerBound,
      count: unbounded ? null : r.rangeSize,
      space: r.space,
      id: r.id,
      group,
      binding,
      kind,
      ...(counter ? { counter } : {}),
    });
  }

  /** The lifted handle of a handle-creating call. */
  handle(call: Instruction, opcode: number): HandleVal {
    const L = this.L;
    const r =
      this.resourceOf(call) ?? L.refuse('handle not resolvable', 'a handle whose resource is not in dx.resources');
    const res = this.byKey.get(`${r.cls}:${r.id}`) ?? L.invalid(`${r.name} is used but not declared`);
    // The register index the call names (absolute: createHandle's index is the register, as is
    // createHandleFromBinding's), relative to the range's start.
    let index: Value | undefined;
    let nonUniform: Value | undefined;
    if (opcode === 57) {
      index = call.ops[3];
      nonUniform = call.ops[4];
    } else if (opcode === 217) {
      index = call.ops[2];
      nonUniform = call.ops[3];
    } else if (opcode === 160) {
      const ld = call.ops[1] as Instruction;
      const p = ld.ops[0];
      // an element of a global array of resources: gep [N x %res]* @g, 0, i
      if (p instanceof Instruction && p.op === 'gep') {
        const ix = p.ops[2];
        if (!res.isArray) return { kind: 'handle', res, index: undefined, nonUniform: false };
        return { kind: 'handle', res, index: ix ? L.u(ix) : L.u32(0), nonUniform: false };
      }
      return { kind: 'handle', res, index: res.isArray ? L.u32(0) : undefined, nonUniform: false };
    }
    const nu = nonUniform instanceof Constant && nonUniform.ck === 'int' && nonUniform.bits !== 0n;
    if (!res.isArray) return { kind: 'handle', res, index: undefined, nonUniform: false };
    const abs = index ? L.u(index) : L.u32(r.lowerBound);
    const rel = r.lowerBound === 0 ? abs : L.bin('sub', abs, L.u32(r.lowerBound));
    if (nu) L.note(`${res.cls}${r.id}: indexed by a non-uniform value (needs non-uniform binding-array indexing)`);
    return { kind: 'handle', res, index: L.once(rel, 'element'), nonUniform: nu };
  }

  /** The hidden counter of the view a handle names (the element of a range's counters). */
  counterExpr(h: HandleVal): number {
    const L = this.L;
    if (h.res.counter === undefined)
      return L.invalid(`${h.res.dx.name || h.res.dx.id}: a counter update on a view without a counter`);
    const g = L.global(h.res.counter);
    if (h.index === undefined) return g;
    const e = L.f.exprs[h.index];
    if (e && e.op === 'literal') {
      if (e.bits >= h.res.count) return L.invalid(`${h.res.dx.name}[${e.bits}] is outside its range`);
      return L.member(g, e.bits);
    }
    return L.access(g, h.index);
  }

  /** The global (or binding-array element) a handle names, as an IR expression. */
  expr(h: HandleVal): number {
    const L = this.L;
    const g = L.global(h.res.global);
    if (h.index === undefined) return g;
    const e = L.f.exprs[h.index];
    if (e && e.op === 'literal') {
      if (e.bits >= h.res.count) return L.invalid(`${h.res.dx.name}[${e.bits}] is outside its range`);
      return L.member(g, e.bits);
    }
    return L.access(g, h.index);
  }
}

/** A multisampled view's sample count: the metadata's (SRVs), else its class's template argument
 * (`RWTexture2DMS<float, 4>`: the UAV metadata has no sample count). */
function sampleCountOf(r: DxilResource): number | undefined {
  if (r.sampleCount) return r.sampleCount;
  let t = r.symbolType;
  while (t && (t.kind === 'ptr' || t.kind === 'array')) t = t.elt;
  const m = t?.kind === 'struct' ? /,\s*(\d+)\s*>$/.exec(t.name ?? '') : null;
  return m ? Number(m[1]) : undefined;
}

/** Whether a view's element (its symbol's struct's first member) is a scalar, not a vector. */
function scalarElement(r: DxilResource): boolean {
  let t = r.symbolType;
  while (t && (t.kind === 'ptr' || t.kind === 'array')) t = t.elt;
  const first = t && t.kind === 'struct' ? t.elts[0] : undefined;
  return first !== undefined && first.kind !== 'vector';
}

/** The IR image of a texture shape (the SM4/5 lifter's; a buffer, constant buffer or sampler is none). */
export function imageOf(shape: Shape): { dim: ImageDim; arrayed: boolean; ms: boolean } {
  return shape === 'cbuffer' || shape === 'sampler' ? sm4ImageOf('2d') : sm4ImageOf(shape);
}

export { GlobalVar };
