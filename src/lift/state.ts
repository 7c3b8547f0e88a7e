// The SM4/5 lifter's state and operand access (lifter-dxbc.md, conventions): every register is
// four raw 32-bit lanes (vec4<u32>); a source is read by swizzling the register and bitcasting to
// the type the instruction implies (then negate/absolute value in that type); a destination is
// written lane by lane under its write mask, bitcast back to u32, saturated first when asked.
// Dynamically indexed register files and buffers read zero out of range (Direct3D's rule), written
// out as a `select` so the WGSL says so too.

import { FunctionBuilder, ModuleBuilder } from '../ir/builder.js';
import type { BinaryOp, ExprId, GlobalId, LocalId, MathFn, Scalar, TypeId } from '../ir/ir.js';
import type { Instruction, Operand, OperandIndex } from '../sm4/types.js';
import type { Stage } from '../ir/program.js';
import { invalid, refuse } from './refuse.js';
import type { Resources } from './resources.js';
import { samplePositionWords } from './memory.js';
import type { Subroutines } from './subroutines.js';
import { ClassInterfaces } from './interfaces.js';
import type { Flow } from './flow.js';
import type { Soft64 } from './f64.js';

/** Operand types (D3D10_SB_OPERAND_TYPE). */
export const OT = {
  temp: 0,
  input: 1,
  output: 2,
  indexableTemp: 3,
  imm32: 4,
  imm64: 5,
  sampler: 6,
  resource: 7,
  constantBuffer: 8,
  immConstantBuffer: 9,
  label: 10,
  primitiveId: 11,
  outputDepth: 12,
  null: 13,
  rasterizer: 14,
  outputCoverage: 15,
  stream: 16,
  functionBody: 17,
  functionTable: 18,
  interface: 19,
  outputControlPointId: 22,
  forkInstanceId: 23,
  joinInstanceId: 24,
  inputControlPoint: 25,
  outputControlPoint: 26,
  inputPatchConstant: 27,
  domainPoint: 28,
  thisPointer: 29,
  uav: 30,
  tgsm: 31,
  threadId: 32,
  threadGroupId: 33,
  threadIdInGroup: 34,
  inputCoverage: 35,
  threadIdInGroupFlattened: 36,
  gsInstanceId: 37,
  outputDepthGE: 38,
  outputDepthLE: 39,
  cycleCounter: 40,
  outputStencilRef: 41,
  innerCoverage: 42,
} as const;

/** A register file held as one local array (inputs, outputs, indexable temporaries). */
export interface RegisterArray {
  readonly local: LocalId;
  readonly count: number;
  /** For two-dimensional files (geometry/hull inputs): vertices/control points. */
  readonly outer?: number;
  /** `local` is a GlobalId (a private global shared by stage functions), not a LocalId. */
  readonly global?: boolean;
}

export class Lifter {
  readonly m = new ModuleBuilder();
  f: FunctionBuilder;
  readonly notes: string[] = [];
  ins: Instruction | undefined;
  readonly tU32: TypeId;
  readonly tVec4: TypeId;
  readonly temps: LocalId[] = [];
  readonly indexable = new Map<number, RegisterArray>();
  /** Input register files by operand type (v#, vicp, vocp, vpc). */
  readonly inputFiles = new Map<number, RegisterArray>();
  outputs: RegisterArray | undefined;
  /** Registers with no file of their own (vThreadID, oDepth, ...), by operand type. */
  readonly special = new Map<number, LocalId>();
  resources!: Resources;
  /** SM5.0 class interfaces (interfaces.ts). */
  readonly classes = new ClassInterfaces();
  /** The program's subroutine bodies, and how the stage lifts one instruction of them. */
  subroutines: { readonly table: Subroutines; readonly liftOne: (flow: Flow, i: Instruction) => void } | undefined;
  private positions: GlobalId | undefined;

  /** The private table of standard sample positions (made on first use). */
  samplePositions(): GlobalId {
    if (this.positions !== undefined) return this.positions;
    const words = samplePositionWords();
    const type = this.m.array(this.tVec4, words.length / 4);
    const constant = this.m.addConstant({ name: 'iridia_sample_positions_data', type, words });
    this.positions = this.m.addGlobal({ name: 'iridia_sample_positions', space: 'private', type, init: constant });
    return this.positions;
  }

  /** Immediate constant buffer (icb) global and its rows. */
  icb: { global: GlobalId; rows: number } | undefined;

  /** The program's double-precision helper functions (double.ts), made on first use. Kept here, not
   * in a module-level WeakMap keyed by the program's builder: V8 kept such a map's young keys, and
   * what they reach, alive through its young collections (docs/benchmarks.md, the eleventh session). */
  soft64: Soft64 | undefined = undefined;
  /** The locals buffer reads go through, by function (memory.ts readSlot), made on first use. */
  readSlots: Map<FunctionBuilder, { word?: LocalId; vec?: LocalId }> | undefined = undefined;

  constructor(
    readonly stage: Stage,
    readonly part: string,
    readonly is51: boolean,
  ) {
    this.tU32 = this.m.scalar('u32');
    this.tVec4 = this.m.vec('u32', 4);
    this.f = new FunctionBuilder(this.m, 'main');
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  refuse(category: Parameters<typeof refuse>[0], detail: string): never {
    return refuse(category, detail, this.ins, this.part);
  }
  invalid(detail: string): never {
    return invalid(detail, this.ins, this.part);
  }

  // ---- small expression helpers -------------------------------------------------------------

  e = (x: Parameters<FunctionBuilder['expr']>[0]): ExprId => this.f.expr(x);
  u32 = (v: number): ExprId => this.f.u32(v);
  bin = (fn: BinaryOp, l: ExprId, r: ExprId): ExprId => this.f.binary(fn, l, r);
  sel = (cond: ExprId, accept: ExprId, reject: ExprId): ExprId => this.f.select(cond, accept, reject);
  bitcast = (to: Scalar, value: ExprId): ExprId => this.f.bitcast(to, value);
  math = (fn: MathFn, ...args: ExprId[]): ExprId => this.f.math(fn, args);
  swz = (vector: ExprId, pattern: readonly number[]): ExprId => this.f.swizzle(vector, pattern);
  load = (pointer: ExprId): ExprId => this.f.load(pointer);
  member = (base: ExprId, index: number): ExprId => this.f.member(base, index);
  access = (base: ExprId, index: ExprId): ExprId => this.f.access(base, index);
  local = (local: LocalId): ExprId => this.e({ op: 'local', local });
  global = (global: GlobalId): ExprId => this.e({ op: 'global', global });

  /** A literal of `scalar` repeated over `n` lanes. */
  splat(scalar: Scalar, bits: number, n: number): ExprId {
    const one = this.f.literal(scalar, bits >>> 0);
    return n === 1 ? one : this.e({ op: 'splat', size: n as 2 | 3 | 4, value: one });
  }

  zeroVec4(): ExprId {
    return this.e({ op: 'zero', type: this.tVec4 });
  }

  // ---- indices ------------------------------------------------------------------------------

  /** An operand index as a u32 expression; `dynamic` when it has a relative part. */
  index(ix: OperandIndex | undefined): { expr: ExprId; dynamic: boolean; imm: number } {
    if (!ix) return this.invalid('an operand lacks an index its register type needs');
    if (ix.rep === 1 || ix.rep === 4) {
      if (ix.immHi !== 0) this.refuse('register type not handled', '64-bit register index');
    }
    if (ix.rep === 0 || ix.rep === 1) return { expr: this.u32(ix.imm), dynamic: false, imm: ix.imm };
    if (!ix.rel) return this.invalid('a relative index without its register');
    const rel = this.src(ix.rel, 'u32', [0]);
    const expr = ix.imm === 0 ? rel : this.bin('add', rel, this.u32(ix.imm));
    return { expr, dynamic: true, imm: ix.imm };
  }

  /** Reads element `ix` of a local or global array of vec4<u32> rows with Direct3D's out-of-range rule. */
  readRow(base: ExprId, count: number, ix: { expr: ExprId; dynamic: boolean; imm: number }, what: string): ExprId {
    if (!ix.dynamic) {
      if (ix.imm >= count) {
        this.note(`${what}[${ix.imm}] is read past its ${count} declared rows: it reads zero`);
        return this.zeroVec4();
      }
      return this.load(this.member(base, ix.imm));
    }
    const clamped = this.math('min', ix.expr, this.u32(count - 1));
    return this.sel(this.bin('lt', ix.expr, this.u32(count)), this.load(this.access(base, clamped)), this.zeroVec4());
  }

  // ---- sources ------------------------------------------------------------------------------

  /** The register an operand names, as a vec4<u32> value. */
  registerValue(op: Operand): ExprId {
    switch (op.type) {
      case OT.temp:
        return this.load(this.local(this.temp(op)));
      case OT.input:
      case OT.inputControlPoint:
      case OT.outputControlPoint:
      case OT.inputPatchConstant:
        return this.resources.readInput(op);
      case OT.output:
        return this.load(this.outputPointer(op).pointer);
      case OT.indexableTemp: {
        const arr = this.indexableFile(op);
        return this.readRow(this.local(arr.local), arr.count, this.index(op.indices[1]), `x${op.indices[0]?.imm ?? 0}`);
      }
      case OT.constantBuffer:
        return this.resources.readConstantBuffer(op);
      case OT.thisPointer:
        return this.classes.readThis(this, op);
      case OT.immConstantBuffer: {
        if (!this.icb) return this.invalid('icb read without an immediate constant buffer');
        return this.readRow(this.global(this.icb.global), this.icb.rows, this.index(op.indices[0]), 'icb');
      }
      default: {
        const local = this.special.get(op.type);
        if (local === undefined)
          return this.refuse('register type not handled', `operand type ${op.type} is not available in this program`);
        return this.load(this.local(local));
      }
    }
  }

  temp(op: Operand): LocalId {
    const n = op.indices[0]?.imm ?? 0;
    const l = this.temps[n];
    if (l === undefined) return this.invalid(`r${n} is used but only ${this.temps.length} temporaries are declared`);
    return l;
  }

  indexableFile(op: Operand): RegisterArray {
    const n = op.indices[0]?.imm ?? 0;
    const arr = this.indexable.get(n);
    if (!arr) return this.invalid(`x${n} is used but not declared`);
    return arr;
  }

  /**
   * Reads a source operand as `type`, taking swizzle lanes `lanes` (the destination's lanes, or
   * fixed lanes for dot products and addresses). One lane gives a scalar.
   */
  src(op: Operand, type: Scalar, lanes: readonly number[]): ExprId {
    let v: ExprId;
    if (op.type === OT.imm32) {
      const vals = op.values ?? [];
      const lit: ExprId[] = [];
      for (const l of lanes) {
        const b = (op.numComponents === 1 ? vals[0] : vals[l]) ?? 0;
        lit.push(this.f.literal(type, b >>> 0));
      }
      v =
        lit.length === 1
          ? (lit[0] as ExprId)
          : this.e({ op: 'compose', type: this.m.vec(type, lit.length), parts: lit });
    } else if (op.type === OT.imm64) {
      return this.refuse('double precision', '64-bit immediate');
    } else {
      const reg = this.registerValue(op);
      // The lanes read, as a shared pattern (no array made a read: see PATTERNS).
      let key = 0;
      let identity = lanes.length === 4;
      for (let k = 0; k < lanes.length; k++) {
        const c = op.numComponents === 1 ? 0 : (op.swizzle[lanes[k] as number] ?? 0);
        key = key * 5 + c + 1;
        if (c !== k) identity = false;
      }
      const raw = identity ? reg : this.swz(reg, sharedPattern(key));
      v = type === 'u32' ? raw : this.bitcast(type, raw);
    }
    return this.modifiers(op, type, v);
  }

  private modifiers(op: Operand, type: Scalar, v: ExprId): ExprId {
    let out = v;
    if (op.modifier & 2)
      out = type === 'u32' ? this.bitcast('u32', this.math('abs', this.bitcast('i32', out))) : this.math('abs', out);
    if (op.modifier & 1) out = this.e({ op: 'unary', fn: 'neg', arg: out });
    return out;
  }

  // ---- destinations -------------------------------------------------------------------------

  /** The lanes a destination writes (one-lane registers write lane 0). */
  lanes(op: Operand): number[] {
    if (op.numComponents !== 2) return [0];
    // A destination names its components by a write mask (selection mode 0), never an empty one.
    if (op.selectionMode !== 0)
      return this.invalid(
        `a destination selects its components by ${op.selectionMode === 1 ? 'a swizzle' : 'one component'}, not a write mask`,
      );
    const out: number[] = [];
    for (let k = 0; k < 4; k++) if (op.mask & (1 << k)) out.push(k);
    if (out.length === 0) return this.invalid('a destination with an empty write mask');
    return out;
  }

  /** The pointer to a register file's array (a local, or a private global for stage functions). */
  fileBase(arr: RegisterArray): ExprId {
    return arr.global ? this.global(arr.local) : this.local(arr.local);
  }

  outputPointer(op: Operand): { pointer: ExprId; guard?: ExprId } {
    const o = this.outputs;
    if (!o) return this.invalid('an output register is used but no output is declared');
    const ix = this.index(op.indices[0]);
    if (!ix.dynamic && ix.imm >= o.count) return this.invalid(`o${ix.imm} is used but not declared`);
    if (!ix.dynamic) return { pointer: this.member(this.fileBase(o), ix.imm) };
    return {
      pointer: this.access(this.fileBase(o), ix.expr),
      guard: this.bin('lt', ix.expr, this.u32(o.count)),
    };
  }

  /** The vec4<u32> storage a destination operand names (and a guard for dynamic indices). */
  destination(op: Operand): { pointer: ExprId; guard?: ExprId } | undefined {
    switch (op.type) {
      case OT.null:
        return undefined;
      case OT.temp:
        return { pointer: this.local(this.temp(op)) };
      case OT.output:
        return this.outputPointer(op);
      case OT.indexableTemp: {
        const arr = this.indexableFile(op);
        const ix = this.index(op.indices[1]);
        if (!ix.dynamic) {
          if (ix.imm >= arr.count) return this.invalid(`x${op.indices[0]?.imm}[${ix.imm}] past its declaration`);
          return { pointer: this.member(this.local(arr.local), ix.imm) };
        }
        return {
          pointer: this.access(this.local(arr.local), ix.expr),
          guard: this.bin('lt', ix.expr, this.u32(arr.count)),
        };
      }
      default: {
        const local = this.special.get(op.type);
        if (local === undefined)
          return this.refuse('register type not handled', `destination operand type ${op.type} is not available`);
        return { pointer: this.local(local) };
      }
    }
  }

  /**
   * Writes `value` (lanes.length lanes of `type`) to a destination, lane by lane under its mask.
   * `saturate` clamps f32 to [0, 1] with NaN giving 0 (Direct3D's _sat).
   */
  write(op: Operand, value: ExprId, type: Scalar, lanes: readonly number[], saturate = false): void {
    const dest = this.destination(op);
    if (!dest) return;
    let v = value;
    if (saturate && type === 'f32') v = this.saturate(v, lanes.length);
    if (type !== 'u32') v = this.bitcast('u32', v);
    if (dest.guard === undefined) this.storeLanes(op, dest.pointer, v, lanes);
    else {
      this.f.open();
      this.storeLanes(op, dest.pointer, v, lanes);
      this.f.stmt({ op: 'if', cond: dest.guard, accept: this.f.close(), reject: [] });
    }
  }

  /** Stores `v` (one value per lane in `lanes`) to the lanes of the vec4<u32> at `pointer`. */
  private storeLanes(op: Operand, pointer: ExprId, v: ExprId, lanes: readonly number[]): void {
    if (lanes.length === 4 && lanes[0] === 0 && lanes[1] === 1 && lanes[2] === 2 && lanes[3] === 3) {
      this.f.store(pointer, v);
      return;
    }
    if (lanes.length === 1) {
      this.f.store(this.member(pointer, lanes[0] as number), v);
      return;
    }
    const t = this.f.bind(regName(op), v);
    for (let k = 0; k < lanes.length; k++)
      this.f.store(this.member(pointer, lanes[k] as number), this.swz(t, sharedPattern(k + 1)));
  }

  /**
   * A value read more than once by a guard: bound to a `let` unless it is cheap to repeat (a
   * literal, or a load, swizzle or bitcast of one).
   */
  once(v: ExprId, name = 'value'): ExprId {
    let e = this.f.exprs[v];
    while (e && (e.op === 'bitcast' || e.op === 'swizzle' || e.op === 'splat'))
      e = this.f.exprs[e.op === 'swizzle' ? e.vector : e.value];
    if (!e || e.op === 'literal' || e.op === 'load' || e.op === 'let' || e.op === 'arg' || e.op === 'compose') return v;
    return this.f.bind(name, v);
  }

  /** Direct3D's saturate: clamp to [0, 1], NaN to 0. */
  saturate(value: ExprId, n: number): ExprId {
    const v = this.once(value, 'sat');
    const zero = this.splat('f32', 0, n);
    const one = this.splat('f32', 0x3f800000, n);
    return this.sel(this.bin('ne', v, v), zero, this.math('clamp', v, zero, one));
  }

  /** A Direct3D boolean (0xffffffff or 0) from an IR bool of n lanes. */
  d3dBool(b: ExprId, n: number): ExprId {
    return this.sel(b, this.splat('u32', 0xffffffff, n), this.splat('u32', 0, n));
  }

  /** An IR bool from a 32-bit lane tested against zero (`nz`: true where non-zero). */
  test(op: Operand, nonZero: boolean): ExprId {
    const x = this.src(op, 'u32', [0]);
    return this.bin(nonZero ? 'ne' : 'eq', x, this.u32(0));
  }
}

/**
 * Swizzle patterns of one to four lanes, each 0 to 3, shared between expressions (an IR pattern is
 * read-only), by key: the lanes in base 5, first lane first (`key * 5 + lane + 1`, so no digit is 0
 * and lengths stay apart). A source read makes one in most lifted instructions.
 */
const PATTERNS: (readonly number[] | undefined)[] = [];

/** The shared pattern of a key (see PATTERNS), made from its digits the first time. */
function sharedPattern(key: number): readonly number[] {
  let p = PATTERNS[key];
  if (p === undefined) {
    const lanes: number[] = [];
    for (let k = key; k > 0; k = Math.floor(k / 5)) lanes.unshift((k % 5) - 1);
    p = PATTERNS[key] = lanes;
  }
  return p;
}

export function regName(op: Operand): string {
  const n = op.indices[0]?.imm ?? 0;
  switch (op.type) {
    case OT.temp:
      return `r${n}`;
    case OT.output:
      return `o${n}`;
    case OT.indexableTemp:
      return `x${n}`;
    default:
      return 'v';
  }
}
