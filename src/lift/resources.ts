// Resources of a lifted SM4/5/5.1 program as module globals (lifter-dxbc.md, conventions): cb<n> a
// uniform array<vec4<u32>, rows> in group 0; textures and buffer views t<n> in group 1; samplers
// s<n> in group 2; UAVs u<n> in group 3; thread-group memory g<n> as workgroup arrays of words.
// SM4/5.0 bindings are the register; SM5.1 ranges are numbered by declaration, each range taking
// as many bindings as it has registers, so no two bindings collide. A range (SM5.1 arrays, bounded
// or not) is a binding array; its Direct3D register, space and id are kept on the Resource.

import type { ExprId, GlobalId, ImageDim, StorageFormat, TypeId } from '../ir/ir.js';
import type { Resource, ResourceKind, LiftOptions } from '../ir/program.js';
import type { Rdef } from '../parts/rdef.js';
import type { Instruction, Operand } from '../sm4/types.js';
import { OT, type Lifter } from './state.js';
import { OPCODES } from '../sm4/opcodes.js';
import { addCounter, COUNTER_NOTE } from './counter.js';
import { TEXELS_NOTE } from './texels.js';

export type TextureShape =
  | 'buffer'
  | '1d'
  | '2d'
  | '2dms'
  | '3d'
  | 'cube'
  | '1darray'
  | '2darray'
  | '2dmsarray'
  | 'cubearray'
  | 'raw'
  | 'structured';

/** D3D10_SB_RESOURCE_DIMENSION, bits 11-15 of the declaration token. */
const DIMENSIONS: readonly (TextureShape | undefined)[] = [
  undefined,
  'buffer',
  '1d',
  '2d',
  '2dms',
  '3d',
  'cube',
  '1darray',
  '2darray',
  '2dmsarray',
  'cubearray',
  'raw',
  'structured',
];

export interface BoundResource {
  readonly cls: 'b' | 't' | 's' | 'u' | 'g';
  readonly global: GlobalId;
  /** First register of the range (SM5.1) or the register. */
  readonly lower: number;
  /** Registers in the range; 1 for SM4/5.0; null unbounded. */
  readonly count: number | null;
  readonly isArray: boolean;
  readonly shape: TextureShape;
  /** Texture sampled scalar, or the storage format of a typed UAV. */
  readonly scalar: 'f32' | 'i32' | 'u32';
  /** Textures: read through a comparison sampler (bound as a depth texture); samplers: mode_comparison. */
  readonly depth: boolean;
  readonly format?: StorageFormat;
  /** Buffers: words per element (typed: 4 or 1), structure stride in bytes. */
  readonly stride: number;
  readonly atomic: boolean;
  /** Typed buffer views held as one word per element. */
  readonly scalarElements: boolean;
  readonly rows: number;
  /** A UAV with a hidden counter: the counter's global (a binding array beside a range's). */
  readonly counter?: GlobalId;
  /** A typed texture view used atomically, held as words (texels.ts). */
  readonly texels?: true;
}

/** What the program does with each resource, found before declaring (depth use, atomics, loads). */
export interface Usage {
  readonly comparison: Set<number>;
  readonly atomic: Set<string>;
  readonly typedLoad: Set<number>;
  readonly typedStore: Set<number>;
  /** UAVs whose hidden counter imm_atomic_alloc / imm_atomic_consume update. */
  readonly counter: Set<number>;
  /** SM5.1: the highest constant register index an instruction names, by class and range id. */
  readonly maxIndex: Map<string, number>;
}

const COMPARE_OPS = [0x46, 0x47, 0x7e, 0x80, 0xdc, 0xde, 0xe5, 0xe9];
const ATOMIC_OPS = [
  0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd,
];
// What an opcode tells scanUsage, as bits of one byte per opcode (one read an instruction, where
// five set look-ups and comparisons were made for each of a program's instructions).
const USE_COMPARE = 1;
const USE_ATOMIC = 2;
const USE_TYPED_LOAD = 4;
const USE_TYPED_STORE = 8;
const USE_COUNTER = 16;
const USES = new Uint8Array(256);
const uses = (ops: readonly number[], bit: number): void => {
  for (const op of ops) USES[op] = (USES[op] as number) | bit;
};
uses(COMPARE_OPS, USE_COMPARE);
uses(ATOMIC_OPS, USE_ATOMIC);
uses([0xa3, 0xe1], USE_TYPED_LOAD);
uses([0xa4], USE_TYPED_STORE);
uses([0xb2, 0xb3], USE_COUNTER);
/** SM5.1's register classes whose constant indices scanUsage records, by operand type. */
const INDEXED_CLASSES: Readonly<Record<number, string>> = {
  [OT.constantBuffer]: 'b',
  [OT.resource]: 't',
  [OT.sampler]: 's',
  [OT.uav]: 'u',
};

export function scanUsage(instructions: readonly Instruction[], is51: boolean): Usage {
  const u: Usage = {
    comparison: new Set(),
    atomic: new Set(),
    typedLoad: new Set(),
    typedStore: new Set(),
    counter: new Set(),
    maxIndex: new Map(),
  };
  const key = (op: Operand) => op.indices[0]?.imm ?? 0;
  // Indexed loops: this runs over every operand of every program before lifting it.
  for (let i = 0; i < instructions.length; i++) {
    const ins = instructions[i] as Instruction;
    const ops = ins.operands;
    if (is51 && !OPCODES[ins.opcode]?.decl)
      for (let k = 0; k < ops.length; k++) {
        const op = ops[k] as Operand;
        const cls = INDEXED_CLASSES[op.type];
        const ix = op.indices[1];
        if (cls === undefined || !ix || ix.rep !== 0) continue;
        const key = `${cls}${op.indices[0]?.imm ?? 0}`;
        u.maxIndex.set(key, Math.max(u.maxIndex.get(key) ?? 0, ix.imm));
      }
    const use = ins.opcode < 256 ? (USES[ins.opcode] as number) : 0;
    if (use === 0) continue;
    if (use & USE_COMPARE) for (const op of ops) if (op.type === OT.resource) u.comparison.add(key(op));
    if (use & USE_ATOMIC)
      for (const op of ops) if (op.type === OT.uav || op.type === OT.tgsm) u.atomic.add(`${op.type}:${key(op)}`);
    if (use & USE_TYPED_LOAD) for (const op of ops) if (op.type === OT.uav) u.typedLoad.add(key(op));
    if (use & USE_TYPED_STORE) for (const op of ops) if (op.type === OT.uav) u.typedStore.add(key(op));
    if (use & USE_COUNTER) for (const op of ops) if (op.type === OT.uav) u.counter.add(key(op));
  }
  return u;
}

/** Return type nibble (D3D10_SB_RESOURCE_RETURN_TYPE) to a scalar. */
function returnScalar(token: number): { scalar: 'f32' | 'i32' | 'u32'; name: string } {
  const t = token & 0xf;
  if (t === 3) return { scalar: 'i32', name: 'sint' };
  if (t === 4) return { scalar: 'u32', name: 'uint' };
  if (t === 1) return { scalar: 'f32', name: 'unorm' };
  if (t === 2) return { scalar: 'f32', name: 'snorm' };
  if (t === 6) return { scalar: 'f32', name: 'mixed' };
  return { scalar: 'f32', name: 'float' };
}

export class Resources {
  readonly bound = new Map<string, BoundResource>();
  readonly list: Resource[] = [];
  private readonly nextBinding = [0, 0, 0, 0];

  constructor(
    private readonly L: Lifter,
    private readonly usage: Usage,
    private readonly rdef: Rdef | undefined,
    readonly options: LiftOptions,
  ) {}

  /** Range of a declaration operand: [id, lower, upper] in 5.1, [register] (and rows) before. */
  private range(op: Operand): { id: number; lower: number; count: number | null } {
    if (!this.L.is51) {
      const r = op.indices[0]?.imm ?? 0;
      return { id: r, lower: r, count: 1 };
    }
    const id = op.indices[0]?.imm ?? 0;
    const lower = op.indices[1]?.imm ?? 0;
    const upper = op.indices[2]?.imm ?? lower;
    if (upper === 0xffffffff) return { id, lower, count: null };
    if (upper < lower) {
      // fxc writes T1[1:0] for some single resources (an upper bound below the lower): one register.
      this.L.note(`the range ${lower}:${upper} of id ${id} has its upper bound below its lower: read as one register`);
      return { id, lower, count: 1 };
    }
    if (upper - lower >= 1 << 20) this.L.invalid(`range ${lower}..${upper} is too large`);
    return { id, lower, count: upper - lower + 1 };
  }

  private allocate(group: number, reg: number, count: number): number {
    if (!this.L.is51) return reg;
    const n = count;
    const b = this.nextBinding[group] ?? 0;
    this.nextBinding[group] = b + n;
    return b;
  }

  unbounded(): number {
    return this.options.unboundedCount ?? 16;
  }

  private reflected(cls: string, reg: number, space: number): string {
    const types: Record<string, number[]> = { b: [0], t: [1, 2, 5, 7], s: [3], u: [4, 6, 8, 9, 10, 11] };
    const want = types[cls] ?? [];
    const hit = this.rdef?.bindings.find((b) => want.includes(b.type) && b.bindPoint === reg && b.space === space);
    return hit?.name ?? '';
  }

  private add(
    cls: BoundResource['cls'],
    ins: Instruction,
    op: Operand,
    space: number,
    elem: TypeId,
    space_: 'uniform' | 'storage' | 'handle' | 'workgroup',
    access: 'read' | 'read_write' | undefined,
    kind: ResourceKind,
    info: Omit<BoundResource, 'cls' | 'global' | 'lower' | 'count' | 'isArray'>,
  ): void {
    const L = this.L;
    const { id, lower, count } = cls === 'g' ? { id: op.indices[0]?.imm ?? 0, lower: 0, count: 1 } : this.range(op);
    const isArray = count !== 1;
    const group = { b: 0, t: 1, s: 2, u: 3, g: -1 }[cls];
    const name = `${cls === 'b' ? 'cb' : cls}${id}`;
    // A register (5.1: a range id) is declared once: two declarations would be two globals on one binding.
    if (this.bound.has(`${cls}${id}`)) L.invalid(`${name} is declared twice`);
    // An unbounded range gets `unboundedCount` bindings, or more when a constant index reaches further.
    const given = count ?? Math.max(this.unbounded(), (this.usage.maxIndex.get(`${cls}${id}`) ?? 0) - lower + 1);
    if (given > 4096)
      L.refuse('resource kind not handled', `a range of ${given} registers (iridia binds at most 4096)`);
    const type = isArray ? L.m.type({ kind: 'binding_array', base: elem, size: given }) : elem;
    const binding = group >= 0 ? { group, binding: this.allocate(group, lower, given) } : undefined;
    const global = L.m.addGlobal({
      name,
      space: space_,
      type,
      ...(access ? { access } : {}),
      ...(binding ? { binding } : {}),
    });
    this.bound.set(`${cls}${id}`, { cls, global, lower, count: given, isArray, ...info });
    if (count === null)
      L.note(`${name}: the unbounded range ${cls}${lower}.. (space ${space}) is given ${given} bindings`);
    this.list.push({
      name,
      global,
      reflectedName: cls === 'g' ? '' : this.reflected(cls, lower, space),
      registerClass: cls,
      register: lower,
      count,
      space,
      id,
      group: binding?.group ?? -1,
      binding: binding?.binding ?? -1,
      kind,
    });
    void ins;
  }

  /** Declares a resource from its dcl_* instruction. Returns false when `ins` is not one. */
  declare(ins: Instruction): boolean {
    const L = this.L;
    const op = ins.operands[0];
    const is51 = L.is51;
    const spaceWord = (k: number) => (is51 ? (ins.values[k] ?? 0) : 0);
    switch (ins.opcode) {
      case 0x59: {
        // dcl_constantbuffer: 5.0 cb#[rows]; 5.1 cb#[lo:hi][rows] with the size and space words.
        if (!op) return L.invalid('dcl_constantBuffer without an operand');
        const declared = is51 ? (ins.values[0] ?? 0) : (op.indices[1]?.imm ?? 0);
        if (declared > 4096) L.invalid(`a constant buffer of ${declared} rows (Direct3D allows 4096)`);
        const id = op.indices[0]?.imm ?? 0;
        const bound = this.options.boundSizes?.[id];
        const rows = Math.max(1, declared, bound !== undefined ? Math.min(bound, 4096) : 0);
        if (bound !== undefined && bound > declared)
          L.note(`cb${id} is bound with ${rows} rows (declared ${declared})`);
        const elem = L.m.array(L.tVec4, rows);
        const layout = { constants: this.cbLayout(op) };
        this.add(
          'b',
          ins,
          op,
          spaceWord(1),
          elem,
          'uniform',
          undefined,
          { kind: 'constantBuffer', rows, layout },
          {
            shape: 'buffer',
            scalar: 'u32',
            depth: false,
            stride: 16,
            atomic: false,
            scalarElements: false,
            rows,
          },
        );
        return true;
      }
      case 0x58: {
        if (!op) return L.invalid('dcl_resource without an operand');
        const shape = DIMENSIONS[(ins.token >>> 11) & 0x1f];
        if (!shape) return L.invalid('dcl_resource of an unknown dimension');
        const rt = returnScalar(ins.values[0] ?? 5);
        const key = op.indices[0]?.imm ?? 0;
        if (shape === 'buffer') {
          L.note(
            `t${key}: a typed buffer view is read as four raw 32-bit lanes per element (the view's format is the caller's)`,
          );
          const elem = L.m.array(L.tVec4, null);
          this.add(
            't',
            ins,
            op,
            spaceWord(1),
            elem,
            'storage',
            'read',
            { kind: 'buffer', view: 'typed' },
            {
              shape,
              scalar: rt.scalar,
              depth: false,
              stride: 16,
              atomic: false,
              scalarElements: false,
              rows: 0,
            },
          );
          return true;
        }
        const depth = this.usage.comparison.has(key);
        if (depth && rt.scalar !== 'f32')
          L.refuse('resource kind not handled', 'comparison sampling of an integer texture');
        if (shape === '2dmsarray') L.refuse('resource kind not handled', 'Texture2DMSArray has no WGSL counterpart');
        if (shape === '1d' || shape === '1darray')
          L.note(
            `t${key}: a 1D texture is bound as a 2D texture of height 1 (WGSL samples 1D textures only with implicit level)`,
          );
        if (depth) L.note(`t${key}: read through a comparison sampler, so bound as a depth texture`);
        if (rt.name === 'mixed') L.note(`t${key}: a texture of mixed return types is read as float`);
        const img = imageOf(shape);
        const cls = depth
          ? { kind: 'depth' as const, multisampled: img.ms }
          : { kind: 'sampled' as const, scalar: rt.scalar, multisampled: img.ms };
        const elem = L.m.type({ kind: 'image', dim: img.dim, arrayed: img.arrayed, class: cls });
        this.add(
          't',
          ins,
          op,
          spaceWord(1),
          elem,
          'handle',
          undefined,
          { kind: 'texture', dimension: shape, returnType: rt.name },
          {
            shape,
            scalar: rt.scalar,
            depth,
            stride: 0,
            atomic: false,
            scalarElements: false,
            rows: 0,
          },
        );
        return true;
      }
      case 0xa1:
      case 0xa2: {
        if (!op) return L.invalid('dcl_resource_raw/structured without an operand');
        const structured = ins.opcode === 0xa2;
        const stride = structured ? (ins.values[0] ?? 0) : 4;
        if (structured && (stride === 0 || stride % 4 !== 0 || stride > 2048)) L.invalid(`structure stride ${stride}`);
        const elem = L.m.array(L.tU32, null);
        this.add(
          't',
          ins,
          op,
          spaceWord(structured ? 1 : 0),
          elem,
          'storage',
          'read',
          structured ? { kind: 'buffer', view: 'structured', stride } : { kind: 'buffer', view: 'raw' },
          {
            shape: structured ? 'structured' : 'raw',
            scalar: 'u32',
            depth: false,
            stride,
            atomic: false,
            scalarElements: true,
            rows: 0,
          },
        );
        return true;
      }
      case 0x5a: {
        if (!op) return L.invalid('dcl_sampler without an operand');
        const mode = (ins.token >>> 11) & 0xf;
        if (mode === 2) L.refuse('mono sampler', 'a mono sampler (dcl_sampler mode_mono)');
        const comparison = mode === 1;
        const elem = L.m.type({ kind: 'sampler', comparison });
        this.add(
          's',
          ins,
          op,
          spaceWord(0),
          elem,
          'handle',
          undefined,
          { kind: 'sampler', comparison },
          {
            shape: 'buffer',
            scalar: 'f32',
            depth: comparison,
            stride: 0,
            atomic: false,
            scalarElements: false,
            rows: 0,
          },
        );
        return true;
      }
      case 0x9c: {
        if (!op) return L.invalid('dcl_uav_typed without an operand');
        const shape = DIMENSIONS[(ins.token >>> 11) & 0x1f];
        if (!shape) return L.invalid('dcl_uav_typed of an unknown dimension');
        const key = op.indices[0]?.imm ?? 0;
        const rt = returnScalar(ins.values[0] ?? 5);
        const atomic = this.usage.atomic.has(`${OT.uav}:${key}`);
        const loaded = this.usage.typedLoad.has(key);
        if (shape === 'buffer') {
          const scalarElements = atomic || loaded;
          if (scalarElements)
            L.note(
              `u${key}: a typed buffer view that is loaded or used atomically holds one 32-bit word per element (an R32 format)`,
            );
          else L.note(`u${key}: a typed buffer view is written as four raw 32-bit lanes per element`);
          const base = atomic ? L.m.type({ kind: 'atomic', scalar: 'u32' }) : scalarElements ? L.tU32 : L.tVec4;
          const elem = L.m.array(base, null);
          this.add(
            'u',
            ins,
            op,
            spaceWord(1),
            elem,
            'storage',
            'read_write',
            { kind: 'uav', view: 'typed', dimension: shape },
            {
              shape,
              scalar: rt.scalar,
              depth: false,
              stride: scalarElements ? 4 : 16,
              atomic,
              scalarElements,
              rows: 0,
            },
          );
          return true;
        }
        if (atomic && shape !== '2dms' && shape !== '2dmsarray' && shape !== 'cube' && shape !== 'cubearray') {
          // WebGPU has no texture atomics: the view is a storage buffer of one word a texel (texels.ts)
          const scalar = rt.scalar === 'i32' ? 'i32' : 'u32';
          if (rt.scalar === 'f32')
            L.note(`u${key}: a float view used atomically holds its texels' bits (exchange and compare-exchange only)`);
          L.note(TEXELS_NOTE(`u${key}`));
          const elem = L.m.array(L.m.type({ kind: 'atomic', scalar }), null);
          this.add(
            'u',
            ins,
            op,
            spaceWord(1),
            elem,
            'storage',
            'read_write',
            { kind: 'uav', view: 'typed', dimension: shape, texels: true },
            {
              shape,
              scalar: rt.scalar,
              depth: false,
              stride: 4,
              atomic: true,
              scalarElements: true,
              rows: 0,
              texels: true,
            },
          );
          return true;
        }
        // Direct3D has no multisampled or cube UAVs (the D3D11.3 functional spec's UAV dimensions:
        // buffer, 1D, 2D and their arrays, 3D); the atomic views of the others are texel words above
        if (shape === '2dms' || shape === '2dmsarray' || shape === 'cube' || shape === 'cubearray')
          L.invalid(`dcl_uav_typed u${key} of dimension ${shape} (a UAV is a buffer, 1D, 2D or 3D view)`);
        const wide = !loaded;
        const format: StorageFormat = wide
          ? rt.scalar === 'u32'
            ? 'rgba32uint'
            : rt.scalar === 'i32'
              ? 'rgba32sint'
              : 'rgba32float'
          : rt.scalar === 'u32'
            ? 'r32uint'
            : rt.scalar === 'i32'
              ? 'r32sint'
              : 'r32float';
        L.note(
          wide
            ? `u${key}: a typed texture view only written is a write-only ${format} storage texture`
            : `u${key}: a typed texture view that is read is a read-write ${format} storage texture (one lane, as Direct3D's typed loads)`,
        );
        if (shape === '1d' || shape === '1darray') L.note(`u${key}: a 1D view is bound as a 2D texture of height 1`);
        const img = imageOf(shape);
        const elem = L.m.type({
          kind: 'image',
          dim: img.dim,
          arrayed: img.arrayed,
          class: { kind: 'storage', format, access: wide ? 'write' : 'read_write' },
        });
        this.add(
          'u',
          ins,
          op,
          spaceWord(1),
          elem,
          'handle',
          undefined,
          { kind: 'uav', view: 'typed', dimension: shape },
          {
            shape,
            scalar: rt.scalar,
            depth: false,
            format,
            stride: 0,
            atomic: false,
            scalarElements: false,
            rows: 0,
          },
        );
        return true;
      }
      case 0x9d:
      case 0x9e: {
        if (!op) return L.invalid('dcl_uav_raw/structured without an operand');
        const structured = ins.opcode === 0x9e;
        const stride = structured ? (ins.values[0] ?? 0) : 4;
        if (structured && (stride === 0 || stride % 4 !== 0 || stride > 2048)) L.invalid(`structure stride ${stride}`);
        const key = op.indices[0]?.imm ?? 0;
        const atomic = this.usage.atomic.has(`${OT.uav}:${key}`);
        const base = atomic ? L.m.type({ kind: 'atomic', scalar: 'u32' }) : L.tU32;
        const elem = L.m.array(base, null);
        this.add(
          'u',
          ins,
          op,
          spaceWord(structured ? 1 : 0),
          elem,
          'storage',
          'read_write',
          structured
            ? { kind: 'uav', view: 'structured', dimension: 'buffer', stride }
            : { kind: 'uav', view: 'raw', dimension: 'buffer' },
          {
            shape: structured ? 'structured' : 'raw',
            scalar: 'u32',
            depth: false,
            stride,
            atomic,
            scalarElements: true,
            rows: 0,
          },
        );
        // A hidden counter: the declaration's flag (D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER, bit
        // 23) or an imm_atomic_alloc/consume of the view (fxc flags only append/consume buffers).
        if (ins.token & (1 << 23) || this.usage.counter.has(key)) this.addCounter(`u${key}`);
        return true;
      }
      case 0x9f:
      case 0xa0: {
        if (!op) return L.invalid('dcl_tgsm without an operand');
        const structured = ins.opcode === 0xa0;
        const bytes = structured ? (ins.values[0] ?? 0) * (ins.values[1] ?? 0) : (ins.values[0] ?? 0);
        const stride = structured ? (ins.values[0] ?? 4) : 4;
        if (bytes === 0 || bytes > 32768 || bytes % 4 !== 0) L.invalid(`thread group memory of ${bytes} bytes`);
        const key = op.indices[0]?.imm ?? 0;
        const atomic = this.usage.atomic.has(`${OT.tgsm}:${key}`);
        const base = atomic ? L.m.type({ kind: 'atomic', scalar: 'u32' }) : L.tU32;
        const elem = L.m.array(base, bytes / 4);
        this.add(
          'g',
          ins,
          op,
          0,
          elem,
          'workgroup',
          undefined,
          { kind: 'groupshared', bytes },
          {
            shape: structured ? 'structured' : 'raw',
            scalar: 'u32',
            depth: false,
            stride,
            atomic,
            scalarElements: true,
            rows: bytes / 4,
          },
        );
        return true;
      }
      default:
        return false;
    }
  }

  /** Gives the UAV just declared as `key` its hidden counter (counter.ts), beside its binding. */
  private addCounter(key: string): void {
    const L = this.L;
    const res = this.bound.get(key);
    const k = this.list.length - 1;
    const entry = this.list[k];
    if (!res || !entry || entry.name !== key) return L.invalid(`${key}: a counter for a view not declared`);
    const count = res.isArray ? (res.count ?? this.unbounded()) : undefined;
    const counter = addCounter(L.m, entry.name, entry.group, entry.binding, count);
    if (!counter)
      return L.refuse(
        'append/consume counter',
        `${key}: its counter's binding would pass WebGPU's 1000 bindings a group`,
      );
    this.bound.set(key, { ...res, counter: counter.global });
    this.list[k] = { ...entry, counter };
    L.note(COUNTER_NOTE(entry.name, counter.group, counter.binding));
  }

  /** The hidden counter of the UAV an operand names (an element of a range's counters). */
  findCounter(op: Operand): ExprId {
    const L = this.L;
    const { res } = this.find('u', op);
    if (res.counter === undefined) return L.invalid(`u${op.indices[0]?.imm ?? 0}: a counter of a view without one`);
    const g = L.global(res.counter);
    if (!res.isArray) return g;
    const ix = L.index(op.indices[1]);
    if (!ix.dynamic) return L.member(g, ix.imm - res.lower);
    return L.access(g, res.lower === 0 ? ix.expr : L.bin('sub', ix.expr, L.u32(res.lower)));
  }

  private cbLayout(op: Operand): { name: string; offset: number; size: number }[] {
    const id = op.indices[0]?.imm ?? 0;
    const reg = this.L.is51 ? (op.indices[1]?.imm ?? 0) : id;
    const space = this.L.is51 ? 0 : 0;
    const b = this.rdef?.bindings.find(
      (x) => x.type === 0 && x.bindPoint === reg && (this.L.is51 ? x.id === id : x.space === space),
    );
    if (!b || !this.rdef) return [];
    const cb = this.rdef.constantBuffers.find((c) => c.name === b.name);
    return cb ? cb.variables.map((v) => ({ name: v.name, offset: v.startOffset, size: v.size })) : [];
  }

  /** The resource an instruction operand names: its record and, for ranges, the element handle. */
  find(cls: BoundResource['cls'], op: Operand): { res: BoundResource; handle: ExprId; nonUniform: boolean } {
    const L = this.L;
    // SM5.0 class interfaces: a body's texture or sampler chosen by the instance (t[r1.x + 0])
    if (!L.is51 && op.indices[0] !== undefined && op.indices[0].rep !== 0)
      L.refuse(
        'interfaces',
        `a class member ${cls}# indexed by the instance (${cls}[r# + n]): one statement per binding is not lifted`,
      );
    const id = op.indices[0]?.imm ?? 0;
    const res = this.bound.get(`${cls}${id}`);
    if (!res) return L.invalid(`${cls}${id} is used but not declared`);
    const g = L.global(res.global);
    if (!res.isArray) return { res, handle: g, nonUniform: false };
    const ix = L.index(op.indices[1]);
    if (op.nonUniform) L.note(`${cls}${id}: indexed by a non-uniform value (needs non-uniform binding-array indexing)`);
    if (!ix.dynamic) {
      const k = ix.imm - res.lower;
      const n = res.count ?? this.unbounded();
      if (k < 0 || k >= n) return L.invalid(`${cls}${id}[${ix.imm}] is outside its range`);
      return { res, handle: L.member(g, k), nonUniform: false };
    }
    const k = res.lower === 0 ? ix.expr : L.bin('sub', ix.expr, L.u32(res.lower));
    return { res, handle: L.access(g, k), nonUniform: op.nonUniform };
  }

  /** Reads a row of a constant buffer operand (5.0: cb#[row]; 5.1: cb#[reg][row]). */
  readConstantBuffer(op: Operand): ExprId {
    const L = this.L;
    const slotIndex = op.indices[0];
    if (!L.is51 && slotIndex !== undefined && slotIndex.rep !== 0) {
      // SM5.0 class interfaces: cb[r# + n][row], the buffer the instance's data is in (this[].x):
      // the declared buffer of that register, zero for any other (interfaces.ts)
      const slot = L.index(slotIndex);
      const row = L.index(op.indices[1]);
      const declared = [...this.bound].filter(([, res]) => res.cls === 'b' && !res.isArray);
      // a register the program does not declare (an instance made by CreateClassInstance): cbi
      const cbi = L.classes.instanceBuffer(L);
      let value = L.readRow(L.global(cbi.global), cbi.rows, row, 'cbi');
      for (const [key, res] of declared) {
        const reg = Number(key.slice(1));
        const read = L.readRow(L.global(res.global), res.rows, row, `cb${reg}`);
        value = L.sel(L.bin('eq', slot.expr, L.u32(reg)), read, value);
      }
      return value;
    }
    const { res, handle } = this.find('b', op);
    const row = L.index(op.indices[L.is51 ? 2 : 1]);
    return L.readRow(handle, res.rows, row, `cb${op.indices[0]?.imm ?? 0}`);
  }

  /** Reads an input register (v#, vicp, vocp, vpc). */
  readInput(op: Operand): ExprId {
    const L = this.L;
    const file = L.inputFiles.get(op.type);
    if (!file) return L.invalid(`input register type ${op.type} is used but not declared`);
    if (file.outer === undefined) {
      return L.readRow(L.fileBase(file), file.count, L.index(op.indices[0]), 'v');
    }
    // Two-dimensional: [vertex or control point][register].
    const outer = L.index(op.indices[0]);
    const inner = L.index(op.indices[1]);
    const base = outer.dynamic
      ? L.access(L.fileBase(file), L.math('min', outer.expr, L.u32(file.outer - 1)))
      : L.member(L.fileBase(file), Math.min(outer.imm, file.outer - 1));
    return L.readRow(base, file.count, inner, 'v');
  }
}

export function imageOf(shape: TextureShape): { dim: ImageDim; arrayed: boolean; ms: boolean } {
  switch (shape) {
    case '1d':
    case '2d':
      return { dim: '2d', arrayed: false, ms: false };
    case '1darray':
    case '2darray':
      return { dim: '2d', arrayed: true, ms: false };
    case '2dms':
      return { dim: '2d', arrayed: false, ms: true };
    case '2dmsarray':
      return { dim: '2d', arrayed: true, ms: true };
    case '3d':
      return { dim: '3d', arrayed: false, ms: false };
    case 'cube':
      return { dim: 'cube', arrayed: false, ms: false };
    case 'cubearray':
      return { dim: 'cube', arrayed: true, ms: false };
    case 'buffer':
    case 'raw':
    case 'structured':
      return { dim: '2d', arrayed: false, ms: false };
  }
}
