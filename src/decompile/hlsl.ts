// The HLSL printer (Shader Model 5 syntax) over the readable IR (passes.ts). Names come from the
// container: constant buffers are declared with their RDEF variables (types, matrices with their
// majorness, arrays, structs; `packoffset` only where HLSL's packing would put a variable elsewhere)
// and a register read prints as the variables it covers (`Tint`, `WorldViewProj._m00_m10_m20_m30`);
// resources by their RDEF names; inputs and outputs as structs of their semantics. Without an RDEF a
// constant buffer is `uint4 cb0[rows]` read with asfloat/asint.
//
// The text is the IR written in HLSL, expression by expression; where HLSL's operation is
// Direct3D's and the IR spells Direct3D's rule out, the HLSL one is printed (idioms.ts):
// `mul(v, M)` for dot products against the registers of a constant-buffer matrix. What this
// printer cannot yet write is refused by name (refuse.ts), never approximated.

import {
  mergeOrigins,
  originList,
  type Binding,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type Module,
  type Origin,
  type Scalar,
  type Stmt,
  type Type,
  type TypeId,
} from '../ir/ir.js';
import type { Program, Resource, Varying } from '../ir/program.js';
import { functionShapes, type Condition, type LoopShape, type Shapes } from './shapes.js';
import type { Rdef, RdefConstantBuffer, RdefType } from '../parts/rdef.js';
import type { SignatureElement } from '../parts/signature.js';
import { resolveFunction, scalarOf, widthOf, type Resolved } from '../ir/typeof.js';
import { refuse, withinStack } from './refuse.js';
import { localName } from './passes.js';
import { childrenOf, stmtExprs, walkStmts } from './ssa.js';
import { retryingViews, ViewMiss } from '../wgsl/emit.js';
import {
  Files,
  fieldNames,
  fileLocals,
  geometryPrimitives,
  layout,
  passThrough,
  vertexEntry,
  type File,
  type Layout,
} from './stages.js';

const SCALAR: Readonly<Record<Scalar, string>> = { f32: 'float', i32: 'int', u32: 'uint', bool: 'bool' };
const COMP = 'xyzw';

export const RESERVED = new Set(
  (
    'asm asm_fragment break buffer bool cbuffer centroid class column_major compile compile_fragment const continue ' +
    'discard do double else export extern false float for fxgroup groupshared half if in inline inout int interface ' +
    'line lineadj linear matrix min16float min10float min16int min12int min16uint namespace nointerpolation noperspective ' +
    'NULL out packoffset pass pixelfragment point precise return register row_major sample sampler shared snorm stateblock ' +
    'static string struct switch tbuffer technique texture triangle triangleadj true typedef uniform unorm uint unsigned ' +
    'vector vertexfragment void volatile while main input output'
  ).split(' '),
);

function f32Text(bits: number): string {
  const exp = (bits >>> 23) & 0xff;
  if (exp === 0xff || (exp === 0 && (bits & 0x7fffff) !== 0)) return `asfloat(0x${bits.toString(16)}u)`;
  const v = new Float32Array(new Uint32Array([bits]).buffer)[0]!;
  if (Object.is(v, -0)) return '-0.0';
  let s = '';
  for (let p = 1; p <= 9; p++) {
    s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) break;
  }
  s = String(Number(s));
  if (!/[.e]/.test(s)) s += '.0';
  return s;
}

function literalText(scalar: Scalar, bits: number): string {
  switch (scalar) {
    case 'f32':
      return f32Text(bits);
    case 'u32':
      return `${bits >>> 0}u`;
    case 'i32':
      return bits === 0x80000000 ? '(-2147483647 - 1)' : `${bits | 0}`;
    case 'bool':
      return bits ? 'true' : 'false';
  }
}

function typeText(t: Type): string {
  if (t.kind === 'scalar') return SCALAR[t.scalar];
  if (t.kind === 'vector') return `${SCALAR[t.scalar]}${t.size}`;
  return refuse('operation not handled', `a value of type ${t.kind}`);
}

/** One constant-buffer register lane as HLSL: the variable text and its scalar type. */
interface Lane {
  /** The variable element ('Tint', 'M', 'arr[2]', 's.v'). */
  readonly base: string;
  /** A vector's component (0..3), a matrix's `_mRC`, or '' for a scalar. */
  readonly part: number | string;
  readonly scalar: Scalar;
  /** The width of the vector `base` names (1: scalar). */
  readonly width: number;
  readonly matrix: boolean;
}

const RDEF_SCALAR: Readonly<Record<number, Scalar>> = {
  1: 'bool',
  2: 'i32',
  3: 'f32',
  19: 'u32',
  57: 'f32',
  58: 'f32',
  59: 'f32',
  60: 'i32',
  61: 'i32',
  62: 'u32',
};

/**
 * An RDEF type as HLSL. `structName` names a struct (RDEF 4.x structs have no type name: the
 * printer gives them one). A `bool` is `uint` where `bools` says so: a constant buffer's bool is a
 * 32-bit word (0 or 1 on the CPU side) that the program reads as a number, and HLSL has no cast
 * from bool that keeps its bits, so the word is declared as what it is.
 */
function rdefTypeName(t: RdefType, structName: (t: RdefType) => string, bools = false): string {
  const s = RDEF_SCALAR[t.type];
  if (t.class === 5) return structName(t);
  if (s === undefined) return refuse('constant buffer layout', `variable type ${t.type}`);
  const n = SCALAR[bools && s === 'bool' ? 'u32' : s];
  if (t.class === 0) return n;
  if (t.class === 1) return `${n}${t.columns}`;
  if (t.class === 2) return `row_major ${n}${t.rows}x${t.columns}`;
  if (t.class === 3) return `${n}${t.rows}x${t.columns}`;
  return refuse('constant buffer layout', `variable class ${t.class}`);
}

/** Whether an RDEF type holds a bool (declared as uint in a constant buffer: rdefTypeName). */
function holdsBool(t: RdefType): boolean {
  return t.class === 5 ? t.members.some((m) => holdsBool(m.type)) : RDEF_SCALAR[t.type] === 'bool';
}

/** Registers (16 bytes) one element of a type takes, and the bytes of its last register. */
function elementSize(t: RdefType): number {
  if (t.class === 0 || t.class === 1) return t.columns * 4;
  if (t.class === 2) return (t.rows - 1) * 16 + t.columns * 4;
  if (t.class === 3) return (t.columns - 1) * 16 + t.rows * 4;
  if (t.class === 5) {
    let end = 0;
    for (const m of t.members) end = Math.max(end, m.offset + typeSize(m.type));
    return end;
  }
  return 0;
}
function typeSize(t: RdefType): number {
  const one = elementSize(t);
  if (t.elements <= 1) return one;
  return (t.elements - 1) * roundUp(one) + one;
}
const roundUp = (n: number): number => Math.ceil(n / 16) * 16;

/** Bytes a constant buffer can hold (Direct3D's 4,096 registers of 16): no lane lies past them. */
const CB_BYTES = 65536;

/**
 * Whether Direct3D can declare `t`: a scalar, a vector of 1 to 4 lanes, a matrix of 1 to 4 rows and
 * columns, a struct of such members (or an object). The decompiler's walks of RDEF types take lane by
 * lane what the type says, so a mutated `int65535x65535` would be four billion lanes: such a type is
 * not walked, and what reads it prints in the register form.
 */
function declarable(t: RdefType): boolean {
  if (t.class === 0 || t.class === 1) return t.rows <= 4 && t.columns >= 1 && t.columns <= 4;
  if (t.class === 2 || t.class === 3) return t.rows >= 1 && t.rows <= 4 && t.columns >= 1 && t.columns <= 4;
  if (t.class === 5) return t.members.every((m) => declarable(m.type));
  return true;
}

/** The lanes of a constant buffer, by byte offset / 4, from its RDEF variables. */
function laneMap(cb: RdefConstantBuffer): Map<number, Lane> {
  const lanes = new Map<number, Lane>();
  for (const v of cb.variables) placeLanes(v.type, v.startOffset, v.name, lanes);
  return lanes;
}

/** The lanes of a variable of type `t` at byte `offset`, named from `base` (constant-buffer packing:
 * array elements and matrix registers start on 16 bytes). A bool's lane is a uint (rdefTypeName). */
function placeLanes(t: RdefType, offset: number, base: string, lanes: Map<number, Lane>): void {
  if (!declarable(t)) return;
  const count = Math.max(1, t.elements);
  for (let e = 0; e < count; e++) {
    const at = offset + e * roundUp(elementSize(t));
    if (!(at >= 0 && at < CB_BYTES)) return; // past what a constant buffer holds
    const name = t.elements > 0 ? `${base}[${e}]` : base;
    const r = RDEF_SCALAR[t.type];
    const s = r === 'bool' ? 'u32' : r;
    if (t.class === 5) {
      for (const m of t.members) placeLanes(m.type, at + m.offset, `${name}.${m.name}`, lanes);
      continue;
    }
    if (s === undefined) continue;
    if (t.class === 0 || t.class === 1)
      for (let c = 0; c < t.columns; c++)
        lanes.set(at / 4 + c, {
          base: name,
          part: t.class === 0 ? '' : c,
          scalar: s,
          width: t.class === 0 ? 1 : t.columns,
          matrix: false,
        });
    else if (t.class === 2 || t.class === 3) {
      const regs = t.class === 2 ? t.rows : t.columns;
      const per = t.class === 2 ? t.columns : t.rows;
      for (let r = 0; r < regs; r++)
        for (let c = 0; c < per; c++) {
          const [row, col] = t.class === 2 ? [r, c] : [c, r];
          lanes.set(at / 4 + r * 4 + c, { base: name, part: `_m${row}${col}`, scalar: s, width: 1, matrix: true });
        }
    }
  }
}

/** A constant buffer in the register form: `name` is its array of `rows` registers of `scalar`. */
function registerView(gi: number, name: string, body: string[], scalar: Scalar, block?: string): CbView {
  const v = { name, global: gi, lanes: undefined, rdef: undefined, body, matrices: new Map(), scalar };
  return block === undefined ? v : { ...v, block };
}

/** Registers one element of an array of `t` takes in a constant buffer. */
const registerStride = (t: RdefType): number => roundUp(elementSize(t)) / 16;

/** An element of an RDEF array member indexed by a computed value (cbDynamic). */
interface CbElement {
  /** `Lights[i]`, or the register `Lights_registers[ix]` in the register form. */
  readonly element: string;
  /** Its lanes, by word from its first register; undefined in the register form. */
  readonly lanes: Map<number, Lane> | undefined;
  readonly matrix: { name: string; rows: number; columns: number; rowMajor: boolean } | undefined;
}

interface CbView {
  /** The cbuffer's name with its members, or the `uint4 name[rows]` array's in the register form. */
  readonly name: string;
  readonly global: number;
  /** Lanes by word; undefined in the register form (a `uint4 name[rows]` array: no RDEF, or
   * members that cannot show a read: ViewMiss). */
  readonly lanes: Map<number, Lane> | undefined;
  /** The RDEF buffer, with its members declared; undefined in the register form. */
  readonly rdef: RdefConstantBuffer | undefined;
  /** The declaration's lines (the cbuffer's body). */
  readonly body: readonly string[];
  /** The register form's scalar (`uint4 cb0[rows]`; `float4 Name_registers[rows]` where most of the
   * RDEF's words are floats), read as other scalars through asuint/asfloat/asint. */
  readonly scalar: Scalar;
  /** The cbuffer's name in the register form of a buffer with an RDEF. */
  readonly block?: string;
  readonly matrices: Map<number, { name: string; rows: number; columns: number; rowMajor: boolean }>;
}

export interface HlslOptions {
  readonly rdef?: Rdef | undefined;
  /** The input signature's elements (ISGN): those the program does not read become fields too, so
   * the HLSL keeps the program's input signature. */
  readonly inputSignature?: readonly SignatureElement[] | undefined;
}

export function printHlsl(p: Program, options: HlslOptions = {}): string {
  return withinStack('HLSL', () => printed(p, options, false)).parts.join('\n') + '\n';
}

/** The printer's parts, printed again with a constant buffer in the register form each time one
 * cannot be printed through its members (ViewMiss; at most once a buffer): a computed register index
 * not provably inside one array member, a read of padding, a variable type HLSL's packing cannot
 * declare. That buffer is then declared as `uint4 Name_registers[rows]`, exact for every read. */
function printed(p: Program, options: HlslOptions, map: boolean): { printer: HlslPrinter; parts: string[] } {
  const registers = new Set<number>();
  const q = vertexEntry(p);
  let printer!: HlslPrinter;
  const parts = retryingViews(
    () => {
      printer = new HlslPrinter(q, options.rdef, options.inputSignature ?? [], registers);
      if (map) printer.bodyOrigins = [];
      return printer.print();
    },
    (g) => !registers.has(g) && registers.add(g) !== undefined,
  );
  return { printer, parts };
}

/**
 * printHlsl's text, byte for byte, with the origins (src/ir/ir.ts Origin: instruction indices,
 * ascending) of each of its lines (0-based), empty where none: a statement's lines are those it
 * prints but its nested statements' (an `if`'s header, braces and `else`); a nested statement
 * without an origin gives its lines to the enclosing one; a vector let printed for a run of scalar
 * lets (a matrix product) has the run's origins.
 */
export function printHlslWithMap(
  p: Program,
  options: HlslOptions = {},
): { readonly text: string; readonly origins: readonly (readonly number[])[] } {
  const { printer, parts } = withinStack('HLSL', () => printed(p, options, true));
  const origins: (readonly number[])[] = [];
  parts.forEach((part, k) => {
    const o = printer.partOrigins[k];
    const list = o === undefined ? NO_ORIGINS : originList(o);
    for (let n = part.split('\n').length; n > 0; n--) origins.push(list);
  });
  origins.push(NO_ORIGINS); // the line after the final newline
  return { text: parts.join('\n') + '\n', origins };
}

const NO_ORIGINS: readonly number[] = [];

class HlslPrinter {
  private readonly m: Module;
  private readonly out: string[] = [];
  private readonly used = new Set<string>(RESERVED);
  private readonly globalNames = new Map<number, string>();
  private readonly cbs = new Map<number, CbView>();
  private readonly resources = new Map<number, Resource>();
  private readonly helpers = new Set<string>();

  constructor(
    private readonly p: Program,
    private readonly rdef: Rdef | undefined,
    private readonly inputSignature: readonly SignatureElement[],
    /** Constant buffers (globals) printed in the register form (ViewMiss). */
    private readonly asRegisters: ReadonlySet<number> = new Set(),
  ) {
    this.m = p.module;
  }

  private unique(want: string): string {
    let base = want.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
    let n = base;
    for (let k = 1; this.used.has(n) || this.used.has(n.toLowerCase()); k++) n = `${base}_${k}`;
    this.used.add(n);
    return n;
  }

  /** With a line map: the origin of each line of the entry's body (parallel to its lines). */
  bodyOrigins: (Origin | undefined)[] | undefined;
  /** With a line map: the origin of each element print() returns. */
  partOrigins: (Origin | undefined)[] = [];
  /** Where the entry's body starts among the lines entry() returns. */
  private bodyStart = 0;

  /** Gives the body lines [from, to) that no nested statement took the origin `o`. */
  private claim(from: number, to: number, o: Origin | undefined): void {
    const lines = this.bodyOrigins;
    if (!lines || o === undefined) return;
    for (let k = from; k < to; k++) lines[k] ??= o;
  }

  /** The text's lines (elements may hold more than one), joined by print's callers. */
  print(): string[] {
    const p = this.p;
    if (p.stageFunctions) return this.printStage();
    if (p.module.entryPoints.length !== 1)
      refuse('stage not handled', `a ${p.stage} program of ${p.module.entryPoints.length} entry points`);
    const ep = p.module.entryPoints[0]!;
    for (const r of p.interface.resources) this.resources.set(r.global, r);
    const head = [`// decompiled by iridia from ${p.provenance.bytecode} ${p.provenance.target}`];
    const decls = this.declarations();
    const fn = this.m.functions[ep.function]!;
    const body = this.entry(fn, ep);
    const before = [...head, ...decls, ...[...this.helpers]];
    if (this.bodyOrigins) {
      const at = before.length + this.bodyStart;
      this.bodyOrigins.forEach((o, k) => (this.partOrigins[at + k] = o));
    }
    return [...before, ...body];
  }

  // ---- declarations

  private declarations(): string[] {
    const out: string[] = [];
    const structs = new Map<string, RdefType>();
    const collect = (t: RdefType, hint = 'element'): void => {
      if (t.class !== 5) return;
      if (!t.name && !this.anonymous.has(t.offset)) this.anonymous.set(t.offset, this.unique(`${hint}_type`));
      const name = this.structName(t);
      if (structs.has(name)) return;
      for (const m of t.members) collect(m.type, m.name);
      structs.set(name, t);
    };
    this.m.globals.forEach((g, gi) => {
      if (this.fileGlobals.has(gi)) return; // a stage's register file: the HLSL has its struct (printStage)
      const r = this.resources.get(gi);
      const t = this.m.types[g.type]!;
      if (g.space === 'private') {
        out.push(this.constantArrayDecl(gi, g.name, t, g.init));
        return;
      }
      if (g.space === 'workgroup') {
        const name = this.unique(g.name);
        this.globalNames.set(gi, name);
        const [el, dims] = this.arrayDecl(t);
        const s = this.sharedScalar(gi, t);
        if (s) this.sharedScalars.set(gi, s);
        out.push(`groupshared ${s ? SCALAR[s] : el} ${name}${dims};`);
        return;
      }
      if (!r && this.isCounter(gi, t)) return;
      if (!r) return refuse('resource kind not handled', `global ${g.name} without a resource`);
      const reg = `register(${r.registerClass}${r.register}${r.space ? `, space${r.space}` : ''})`;
      if (r.count !== 1) refuse('resource kind not handled', `${g.name}: a range of registers`);
      const k = r.kind;
      if (k.kind === 'constantBuffer') {
        const cb = this.rdef?.constantBuffers.find((c) => c.name === r.reflectedName && c.type === 0);
        const rows = k.rows;
        if (cb && !this.asRegisters.has(gi)) {
          const name = this.unique(cb.name);
          this.globalNames.set(gi, name);
          for (const v of cb.variables) collect(v.type, v.name);
          const body = this.cbMembers(gi, cb);
          const view: CbView = {
            name,
            global: gi,
            lanes: laneMap(cb),
            rdef: cb,
            body,
            matrices: new Map(),
            scalar: 'u32',
          };
          for (const v of cb.variables) {
            const vt = v.type;
            if ((vt.class === 2 || vt.class === 3) && vt.elements === 0 && v.startOffset % 16 === 0)
              view.matrices.set(v.startOffset / 16, {
                name: v.name,
                rows: vt.rows,
                columns: vt.columns,
                rowMajor: vt.class === 2,
              });
          }
          this.cbs.set(gi, view);
        } else if (cb) {
          // the register form of a buffer with an RDEF: its variables named in comments, by register
          const block = this.unique(cb.name);
          const name = this.unique(`${cb.name}_registers`);
          this.globalNames.set(gi, name);
          const counts = new Map<Scalar, number>();
          for (const l of laneMap(cb).values()) counts.set(l.scalar, (counts.get(l.scalar) ?? 0) + 1);
          const scalar = (counts.get('f32') ?? 0) > (counts.get('u32') ?? 0) + (counts.get('i32') ?? 0) ? 'f32' : 'u32';
          const body = [`    ${SCALAR[scalar]}4 ${name}[${rows}];`];
          for (const v of cb.variables) {
            let type: string;
            try {
              type = rdefTypeName(v.type, (t) => t.name ?? 'struct', true);
            } catch {
              type = `type ${v.type.type}`;
            }
            const c = v.startOffset % 16 ? `.${COMP[(v.startOffset % 16) / 4]}` : '';
            body.push(
              `    // ${type} ${v.name}${v.type.elements > 0 ? `[${v.type.elements}]` : ''}: c${Math.floor(v.startOffset / 16)}${c}`,
            );
          }
          this.cbs.set(gi, registerView(gi, name, body, scalar, block));
        } else {
          const name = this.unique(r.reflectedName || `cb${r.register}`);
          this.globalNames.set(gi, name);
          this.cbs.set(gi, registerView(gi, name, [`    uint4 ${name}[${rows}];`], 'u32'));
        }
        return;
      }
      const name = this.unique(r.reflectedName || `${r.registerClass}${r.register}`);
      this.globalNames.set(gi, name);
      if (k.kind === 'sampler')
        out.push(`${k.comparison ? 'SamplerComparisonState' : 'SamplerState'} ${name} : ${reg};`);
      else if (k.kind === 'texture') {
        if (t.kind !== 'image') return refuse('resource kind not handled', `${name}: a ${k.dimension} texture`);
        const tt = this.textureType(k.dimension, t);
        out.push(`${tt} ${name} : ${reg};`);
      } else if ((k.kind === 'buffer' || k.kind === 'uav') && k.view === 'raw') {
        out.push(`${k.kind === 'uav' ? 'RW' : ''}ByteAddressBuffer ${name} : ${reg};`);
      } else if (k.kind === 'uav' && t.kind === 'image' && t.class.kind === 'storage') {
        const s = t.class.format.endsWith('uint') ? 'uint' : t.class.format.endsWith('sint') ? 'int' : 'float';
        const n = t.class.format.startsWith('r32') ? '' : '4';
        const dim = k.dimension;
        const hd = dim === '2d' ? 'Texture2D' : dim === '2darray' ? 'Texture2DArray' : dim === '3d' ? 'Texture3D' : '';
        if (!hd) refuse('resource kind not handled', `${name}: a ${dim} storage texture`);
        out.push(`RW${hd}<${s}${n}> ${name} : ${reg};`);
      } else if (!this.bufferViewDecl(gi, r, t, name, reg, collect, out))
        refuse('resource kind not handled', `${name}: a ${k.kind}${'view' in k ? ` (${k.view})` : ''} view`);
    });
    const head: string[] = [];
    for (const [, s] of structs) {
      head.push(`struct ${this.structName(s)}`, '{');
      for (const m of s.members)
        head.push(
          `    ${rdefTypeName(m.type, this.structName, true)} ${m.name}${m.type.elements > 0 ? `[${m.type.elements}]` : ''};${holdsBool(m.type) && m.type.class !== 5 ? ' // bool' : ''}`,
        );
      head.push('};', '');
    }
    for (const [gi, cb] of this.cbs) {
      const r = this.resources.get(gi)!;
      const reg = `register(b${r.register}${r.space ? `, space${r.space}` : ''})`;
      head.push(
        `cbuffer ${cb.block ?? (cb.rdef ? cb.name : `${cb.name}_registers`)} : ${reg}`,
        '{',
        ...cb.body,
        '};',
        '',
      );
    }
    return [...head, ...out, ...(out.length ? [''] : [])];
  }

  /** Names given to RDEF 4.x structs, which have no type name (by the type's offset in the part). */
  private readonly anonymous = new Map<number, string>();
  private readonly structName = (t: RdefType): string =>
    t.name ?? this.anonymous.get(t.offset) ?? refuse('constant buffer layout', 'a struct without a name');

  /** The member lines of a constant buffer declared with its RDEF variables; ViewMiss where
   * HLSL's packing cannot declare one (a type or class without an HLSL name, an aggregate at an
   * offset packoffset cannot give). */
  private cbMembers(gi: number, cb: RdefConstantBuffer): string[] {
    const lines: string[] = [];
    const declarable = (t: RdefType): boolean =>
      t.class === 5
        ? t.members.every((m) => declarable(m.type))
        : RDEF_SCALAR[t.type] !== undefined && t.class >= 0 && t.class <= 3;
    let at = 0;
    for (const v of cb.variables) {
      if (!declarable(v.type)) throw new ViewMiss(gi);
      const size = typeSize(v.type);
      const aggregate = v.type.elements > 0 || v.type.class >= 2;
      let start = aggregate ? roundUp(at) : at;
      if (!aggregate && (start % 16) + size > 16) start = roundUp(start);
      const pack =
        start === v.startOffset
          ? ''
          : ` : packoffset(c${Math.floor(v.startOffset / 16)}${v.startOffset % 16 ? `.${COMP[(v.startOffset % 16) / 4]}` : ''})`;
      if (pack && aggregate && v.startOffset % 16 !== 0) throw new ViewMiss(gi);
      const type = rdefTypeName(v.type, this.structName, true);
      const bool = holdsBool(v.type) && v.type.class !== 5 ? ' // bool' : '';
      lines.push(`    ${type} ${v.name}${v.type.elements > 0 ? `[${v.type.elements}]` : ''}${pack};${bool}`);
      at = v.startOffset + size;
    }
    return lines;
  }

  private textureType(dimension: string, t: Extract<Type, { kind: 'image' }>): string {
    const names: Record<string, string> = {
      '2d': 'Texture2D',
      '2darray': 'Texture2DArray',
      '3d': 'Texture3D',
      cube: 'TextureCube',
      cubearray: 'TextureCubeArray',
      '2dms': 'Texture2DMS',
    };
    const n = names[dimension];
    if (!n) return refuse('resource kind not handled', `a ${dimension} texture`);
    const s = t.class.kind === 'sampled' ? SCALAR[t.class.scalar] : 'float';
    return `${n}<${s}4>`;
  }

  private arrayDecl(t: Type): [string, string] {
    if (t.kind === 'array' && t.length !== null) {
      const [el, dims] = this.arrayDecl(this.m.types[t.base]!);
      return [el, `[${t.length}]${dims}`];
    }
    if (t.kind === 'atomic') return [SCALAR[t.scalar], ''];
    return [typeText(t), ''];
  }

  // ---- the entry point

  private fn!: Function;
  private types!: Resolved[];
  private argText: string[] = [];
  private letNames: string[] = [];
  private localNames: string[] = [];
  private resultStruct: { name: string; members: string[] } | undefined;

  private entry(fn: Function, ep: Module['entryPoints'][number]): string[] {
    this.fn = fn;
    this.types = resolveFunction(this.m, fn);
    const stage = ep.stage;
    const lines: string[] = [];
    const inputs = new Map(this.p.interface.inputs.map((v) => [v.name, v]));
    const outputs = new Map(this.p.interface.outputs.map((v) => [v.name, v]));
    const inName = stage === 'vertex' ? 'VSInput' : stage === 'fragment' ? 'PSInput' : 'CSInput';
    const outName = stage === 'vertex' ? 'VSOutput' : 'PSOutput';
    // inputs: one struct
    let field = fieldNames(RESERVED);
    const inLines: string[] = [];
    fn.args.forEach((a) => {
      const t = this.m.types[a.type]!;
      const sem = this.semantic(a.binding, inputs.get(a.name), stage, true);
      const f = field(readableField(inputs.get(a.name), a.name));
      inLines.push(`    ${interp(a.binding)}${typeText(t)} ${f} : ${sem};`);
      this.argText.push(`input.${f}`);
    });
    if (stage !== 'compute') {
      // elements the program does not read: fields it ignores, so the input signature is the program's
      const read = new Set(this.p.interface.inputs.map((v) => `${v.semantic.toUpperCase()}${v.semanticIndex}`));
      for (const el of this.inputSignature) {
        if (read.has(`${el.semanticName.toUpperCase()}${el.semanticIndex}`)) continue;
        const width = [1, 2, 4, 8].filter((b) => el.mask & b).length;
        const scalar = el.componentType === 1 ? 'uint' : el.componentType === 2 ? 'int' : 'float';
        if (width === 0) continue;
        const f = field(
          readableField({ semantic: el.semanticName, semanticIndex: el.semanticIndex } as Varying, el.semanticName),
        );
        inLines.push(
          `    ${scalar}${width > 1 ? width : ''} ${f} : ${el.semanticName}${el.semanticIndex}; // not read`,
        );
      }
    }
    if (inLines.length) lines.push(`struct ${inName}`, '{', ...inLines, '};', '');
    // outputs
    let retType = 'void';
    if (fn.result) {
      const rt = this.m.types[fn.result.type]!;
      field = fieldNames(RESERVED);
      if (rt.kind === 'struct') {
        const members = rt.members.map((mb) => field(readableField(outputs.get(mb.name), mb.name)));
        lines.push(`struct ${outName}`, '{');
        rt.members.forEach((mb, i) => {
          const sem = this.semantic(mb.binding, outputs.get(mb.name), stage, false);
          lines.push(`    ${typeText(this.m.types[mb.type]!)} ${members[i]} : ${sem};`);
        });
        lines.push('};', '');
        this.resultStruct = { name: outName, members };
        retType = outName;
      } else {
        retType = typeText(rt);
        this.resultStruct = undefined;
      }
    }
    const attrs: string[] = [];
    if (stage === 'compute') {
      const [x, y, z] = ep.workgroupSize ?? [1, 1, 1];
      attrs.push(`[numthreads(${x}, ${y}, ${z})]`);
    }
    if (ep.earlyFragmentTests) attrs.push('[earlydepthstencil]');
    let sig = `${retType} main(${inLines.length ? `${inName} input` : ''})`;
    if (fn.result && this.resultStruct === undefined)
      sig += ` : ${this.semantic(fn.result.binding, [...outputs.values()][0], stage, false)}`;
    const body = this.declareLocals(fn, new Set());
    this.block(fn.body, 1, body);
    this.bodyStart = lines.length + attrs.length + 2;
    if (this.bodyOrigins) this.bodyOrigins.length = body.length;
    return [...lines, ...attrs, sig, '{', ...body, '}'];
  }

  /** Names the function's locals and lets, and declares its locals but `skip` (a stage's files). */
  private declareLocals(fn: Function, skip: ReadonlySet<number>): string[] {
    this.localNames = fn.locals.map((l) => this.unique(localName(l.name)));
    this.letNames = fn.lets.map(() => '');
    const body: string[] = [];
    for (let i = 0; i < fn.locals.length; i++) {
      if (skip.has(i)) continue;
      const l = fn.locals[i]!;
      if (this.shapes.declared(i)) continue; // declared in its for header
      const [el, dims] = this.arrayDecl(this.m.types[l.type]!);
      body.push(
        `    ${el} ${this.localNames[i]}${dims} = ${l.init !== undefined ? this.ex(l.init) : zeroText(this.m.types[l.type]!, (t) => this.m.types[t]!)};`,
      );
    }
    return body;
  }

  // ---- stages lifted as stage functions (stages.ts): geometry, domain, hull

  private readonly fileGlobals = new Set<number>();
  /** The register files of the function being printed (a stage function), else undefined. */
  private files: Files | undefined;

  private printStage(): string[] {
    const p = this.p;
    const sf = p.stageFunctions!;
    if (p.stage !== 'geometry' && p.stage !== 'domain' && p.stage !== 'hull')
      return refuse('stage not handled', `a ${p.stage} program lifted as stage functions`);
    for (const r of p.interface.resources) this.resources.set(r.global, r);
    const privateFile = (name: string): number | undefined => {
      const gi = this.m.globals.findIndex((g) => g.name === name && g.space === 'private' && g.init === undefined);
      return gi >= 0 ? gi : undefined;
    };
    const fileGlobal = p.stage === 'geometry' ? privateFile('o') : p.stage === 'hull' ? privateFile('pc') : undefined;
    if (fileGlobal !== undefined) this.fileGlobals.add(fileGlobal);
    const head = [`// decompiled by iridia from ${p.provenance.bytecode} ${p.provenance.target}`];
    const decls = this.declarations();
    const ifc = p.interface;
    const lay = (name: string, els: readonly Varying[]): Layout =>
      layout(name, els, sf.domain, RESERVED, els === ifc.patchConstants);
    const parts: { lines: string[]; origins?: (Origin | undefined)[] }[] = [];
    const file = (l: Layout, text: string, perVertex: boolean, output: boolean): File => ({
      layout: l,
      text,
      perVertex,
      output,
      zeroUncovered: !output,
    });
    const structs: Layout[] = [];
    if (p.stage === 'geometry') {
      if (ifc.outputs.some((v) => (v.stream ?? 0) !== 0))
        refuse('stage not handled', 'a geometry program writing several streams');
      const prim = geometryPrimitives(sf.primitive);
      const inL = lay('GSInput', ifc.inputs);
      const outL = lay('GSOutput', ifc.outputs);
      structs.push(inL, outL);
      const fn = this.m.functions[sf.main]!;
      const params = [`${prim.input} GSInput input[${prim.vertices}]`, `inout ${prim.stream}<GSOutput> stream`];
      const attrs = [`[maxvertexcount(${sf.maxVertexCount ?? 1})]`];
      if (sf.instanceCount !== undefined && sf.instanceCount > 1) attrs.push(`[instance(${sf.instanceCount})]`);
      parts.push(
        this.stageFunction(
          fn,
          `void main(`,
          params,
          attrs,
          ['    GSOutput output = (GSOutput)0;'],
          (files, argText) => {
            fn.args.forEach((a, i) => {
              if (a.name === 'v_in') files.byArg.set(i, file(inL, 'input', true, false));
              else if (a.name === 'primitive_id') argText(i, 'primitive_id', 'uint primitive_id : SV_PrimitiveID');
              else if (a.name === 'instance_id') argText(i, 'instance_id', 'uint instance_id : SV_GSInstanceID');
              else refuse('stage not handled', `a geometry argument ${a.name}`);
            });
            if (fileGlobal === undefined) refuse('stage not handled', 'a geometry program without its output file');
            files.byGlobal.set(fileGlobal, file(outL, 'output', false, true));
          },
        ),
      );
    } else if (p.stage === 'domain') {
      const domain = sf.domain ?? refuse('stage not handled', 'a domain program without its domain');
      const cpL = lay('DSControlPoint', ifc.inputs);
      const pcL = lay('DSPatchConstants', ifc.patchConstants);
      const outL = lay('DSOutput', ifc.outputs);
      structs.push(cpL, pcL, outL);
      const fn = this.m.functions[sf.main]!;
      const params = ['DSPatchConstants patch'];
      parts.push(
        this.stageFunction(
          fn,
          'DSOutput main(',
          params,
          [`[domain("${domain}")]`],
          ['    DSOutput output = (DSOutput)0;'],
          (files, argText) => {
            fn.args.forEach((a, i) => {
              if (a.name === 'vicp') files.byArg.set(i, file(cpL, 'cp', true, false));
              else if (a.name === 'vpc') files.byArg.set(i, file(pcL, 'patch', false, false));
              else if (a.name === 'domain')
                argText(
                  i,
                  domain === 'tri' ? 'domain' : 'float3(domain, 0.0f)',
                  `float${domain === 'tri' ? 3 : 2} domain : SV_DomainLocation`,
                );
              else if (a.name === 'primitive_id') argText(i, 'primitive_id', 'uint primitive_id : SV_PrimitiveID');
              else refuse('stage not handled', `a domain argument ${a.name}`);
            });
            params.push(`const OutputPatch<DSControlPoint, ${Math.max(1, sf.inputControlPoints ?? 1)}> cp`);
            this.returnedFile(fn, files, file(outL, 'output', false, true));
          },
        ),
      );
    } else {
      parts.push(...this.hullParts(sf, lay, file, structs, fileGlobal));
    }
    const before = [...head, ...decls, ...structs.flatMap((l) => l.lines), ...[...this.helpers]];
    const out = [...before];
    for (const part of parts) {
      if (out.length > before.length) out.push('');
      if (this.bodyOrigins && part.origins) part.origins.forEach((o, k) => (this.partOrigins[out.length + k] = o));
      out.push(...part.lines);
    }
    return out;
  }

  /** The hull program: the control-point phase as main, each fork and join phase as a function, and
   * the patch-constant function that calls them in order (an instanced phase in a loop). */
  private hullParts(
    sf: NonNullable<Program['stageFunctions']>,
    lay: (name: string, els: readonly Varying[]) => Layout,
    file: (l: Layout, text: string, perVertex: boolean, output: boolean) => File,
    structs: Layout[],
    fileGlobal: number | undefined,
  ): { lines: string[]; origins?: (Origin | undefined)[] }[] {
    const ifc = this.p.interface;
    const domain = sf.domain ?? refuse('stage not handled', 'a hull program without its domain');
    const partitioning = sf.partitioning ?? refuse('stage not handled', 'a hull program without its partitioning');
    const topology = sf.tessellatorOutput ?? refuse('stage not handled', 'a hull program without its output primitive');
    if (fileGlobal === undefined) refuse('stage not handled', 'a hull program without its patch constants');
    const inL = lay('HSInput', ifc.inputs);
    const outL = lay('HSOutput', ifc.outputs);
    const pcL = lay('HSPatchConstants', ifc.patchConstants);
    structs.push(inL, outL, pcL);
    const cpIn = Math.max(1, sf.inputControlPoints ?? 1);
    // without a control-point phase the input control points pass through (the executor's rule)
    const cpOut = sf.main < 0 ? cpIn : Math.max(1, sf.outputControlPoints ?? cpIn);
    const parts: { lines: string[]; origins?: (Origin | undefined)[] }[] = [];
    const patchArgs = `InputPatch<HSInput, ${cpIn}> ip, const OutputPatch<HSOutput, ${cpOut}> op`;
    const calls: string[] = [];
    sf.patchConstant.forEach((id, k) => {
      const fn = this.m.functions[id]!;
      const n = sf.phaseInstances?.[k] ?? 1;
      const name = this.unique(fn.name);
      const params = [
        `inout HSPatchConstants patch`,
        `InputPatch<HSInput, ${cpIn}> ip`,
        `OutputPatch<HSOutput, ${cpOut}> op`,
      ];
      const callArgs = ['patch', 'ip', 'op'];
      parts.push(
        this.stageFunction(fn, `void ${name}(`, params, [], [], (files, argText) => {
          fn.args.forEach((a, i) => {
            if (a.name === 'vicp') files.byArg.set(i, file(inL, 'ip', true, false));
            else if (a.name === 'vocp') files.byArg.set(i, { ...file(outL, 'op', true, false), zeroUncovered: false });
            else if (a.name === 'instance_id') {
              argText(i, 'instance_id', 'uint instance_id');
              callArgs.push(n > 1 ? 'instance_id' : '0u');
              // the registers `instance_id + k` reaches (and `min(instance_id + k, c)` where that clamps none)
              const range = (x: ExprId): readonly [number, number] | undefined => {
                const e = this.exprs(x);
                if (e.op === 'arg' && e.index === i) return [0, n];
                if (e.op === 'binary' && e.fn === 'add') {
                  const l = this.exprs(e.left);
                  const r = this.exprs(e.right);
                  if (l.op === 'arg' && l.index === i && r.op === 'literal') return [r.bits >>> 0, (r.bits >>> 0) + n];
                }
                if (e.op === 'math' && e.fn === 'min' && e.args.length === 2) {
                  const inner = range(e.args[0]!);
                  const c = this.exprs(e.args[1]!);
                  if (inner && c.op === 'literal' && inner[1] - 1 <= c.bits >>> 0) return inner;
                }
                return undefined;
              };
              files.range = range;
            } else if (a.name === 'primitive_id') {
              argText(i, 'primitive_id', 'uint primitive_id');
              callArgs.push('primitive_id');
            } else refuse('stage not handled', `a hull phase argument ${a.name}`);
          });
          files.byGlobal.set(fileGlobal!, file(pcL, 'patch', false, true));
        }),
      );
      const call = `${name}(${callArgs.join(', ')});`;
      if (n > 1) calls.push(`    for (uint instance_id = 0u; instance_id < ${n}u; instance_id++)`, `        ${call}`);
      else calls.push(`    ${call}`);
    });
    const pcName = this.unique('patch_constants');
    parts.push({
      lines: [
        `HSPatchConstants ${pcName}(${patchArgs}, uint primitive_id : SV_PrimitiveID)`,
        '{',
        '    HSPatchConstants patch = (HSPatchConstants)0;',
        ...calls,
        '    return patch;',
        '}',
      ],
    });
    const attrs = [
      `[domain("${domain}")]`,
      `[partitioning("${partitioning}")]`,
      `[outputtopology("${topology}")]`,
      `[outputcontrolpoints(${cpOut})]`,
      `[patchconstantfunc("${pcName}")]`,
    ];
    if (sf.maxTessFactor !== undefined) attrs.push(`[maxtessfactor(${f32Text(sf.maxTessFactor)})]`);
    const params = [`InputPatch<HSInput, ${cpIn}> ip`];
    if (sf.main < 0) {
      parts.push({ lines: [...attrs, ...passThrough(inL, outL, cpIn)] });
      return parts;
    }
    const fn = this.m.functions[sf.main]!;
    parts.push(
      this.stageFunction(
        fn,
        'HSOutput main(',
        params,
        attrs,
        ['    HSOutput output = (HSOutput)0;'],
        (files, argText) => {
          fn.args.forEach((a, i) => {
            if (a.name === 'vicp') files.byArg.set(i, file(inL, 'ip', true, false));
            else if (a.name === 'control_point_id')
              argText(i, 'control_point_id', 'uint control_point_id : SV_OutputControlPointID');
            else if (a.name === 'primitive_id') argText(i, 'primitive_id', 'uint primitive_id : SV_PrimitiveID');
            else refuse('stage not handled', `a hull control-point argument ${a.name}`);
          });
          this.returnedFile(fn, files, file(outL, 'output', false, true));
        },
      ),
    );
    return parts;
  }

  /** The local a stage function returns whole (`return load(outputs)`): its output file. */
  private returnedFile(fn: Function, files: Files, f: File): void {
    let local: number | undefined;
    walkStmts(fn.body, (s) => {
      if (s.op !== 'return' || s.value === undefined) return;
      const e = fn.exprs[s.value]!;
      const ptr = e.op === 'load' ? fn.exprs[e.pointer] : undefined;
      if (ptr?.op !== 'local' || (local !== undefined && local !== ptr.local))
        refuse('statement not handled', 'a stage function that returns other than its output registers');
      local = ptr.local;
    });
    if (local === undefined) return refuse('statement not handled', 'a stage function that returns no outputs');
    files.byLocal.set(local, f);
    this.returned = f;
  }

  private returned: File | undefined;

  /** One stage function: its header, then its body with its files as the structs. */
  private stageFunction(
    fn: Function,
    open: string,
    params: string[],
    attrs: readonly string[],
    prologue: readonly string[],
    setup: (files: Files, argText: (i: number, text: string, param: string) => void) => void,
  ): { lines: string[]; origins?: (Origin | undefined)[] } {
    this.fn = fn;
    this.types = resolveFunction(this.m, fn);
    this.argText = fn.args.map((a) => a.name);
    this.resultStruct = undefined;
    this.returned = undefined;
    this.letAlias.clear();
    const files = new Files({
      exprs: (id) => this.exprs(id),
      type: (id) => this.value(id),
      ex: (id, prec) => this.ex(id, prec),
      exAs: (id, s) => {
        // a register of a constant buffer stored to an output field: its variable, as the field's scalar
        const e = this.exprs(id);
        const cb = e.op === 'swizzle' || e.op === 'load' ? this.cbRead(id) : undefined;
        return cb && cb.scalar === 'u32' ? this.cbText(cb.cb, cb.row, cb.comps, s) : this.exAs(id, s);
      },
    });
    setup(files, (i, text, param) => {
      this.argText[i] = text;
      params.push(param);
    });
    // the locals a file argument is copied into are that file
    for (const [arg, local] of fileLocals(fn)) {
      const f = files.byArg.get(arg);
      if (f) files.byLocal.set(local, f);
    }
    this.files = files;
    const skip = new Set(files.byLocal.keys());
    const origins: (Origin | undefined)[] | undefined = this.bodyOrigins ? [] : undefined;
    const outer = this.bodyOrigins;
    const body = [...prologue, ...this.declareLocals(fn, skip)];
    this.bodyOrigins = origins;
    if (origins) origins.length = body.length;
    this.block(fn.body, 1, body);
    if (origins) origins.length = body.length;
    this.bodyOrigins = outer;
    this.files = undefined;
    const head = [...attrs, `${open}${params.join(', ')})`, '{'];
    const lines = [...head, ...body, '}'];
    return origins ? { lines, origins: [...head.map(() => undefined), ...origins] } : { lines };
  }

  /** The statements of a stage function that are its files': stores to outputs, emit and cut, the
   * return of its outputs; false for the others. */
  private stageStmt(s: Stmt, pad: string, out: string[]): boolean {
    const files = this.files!;
    if (s.op === 'store') return files.store(s, pad, out);
    if (s.op === 'let') {
      const decl = files.bind(s.let, s.value, (t) => this.letName(s.let, t));
      if (decl) out.push(`${pad}${decl}`);
      return decl !== undefined;
    }
    if (s.op === 'emit' || s.op === 'cut') {
      if (s.stream !== 0) refuse('stage not handled', `a geometry program writing stream ${s.stream}`);
      out.push(`${pad}${s.op === 'emit' ? 'stream.Append(output);' : 'stream.RestartStrip();'}`);
      return true;
    }
    if (s.op === 'return' && s.value !== undefined) {
      if (!this.returned || !files.isWhole(s.value, this.returned))
        refuse('statement not handled', 'a stage function that returns other than its output registers');
      out.push(`${pad}return output;`);
      return true;
    }
    return false;
  }

  private semantic(b: Binding | undefined, v: Varying | undefined, stage: string, input: boolean): string {
    if (b?.kind === 'builtin') {
      const map: Record<string, string> = {
        position: 'SV_Position',
        vertex_index: 'SV_VertexID',
        instance_index: 'SV_InstanceID',
        front_facing: 'SV_IsFrontFace',
        frag_depth: 'SV_Depth',
        sample_index: 'SV_SampleIndex',
        sample_mask: 'SV_Coverage',
        local_invocation_id: 'SV_GroupThreadID',
        local_invocation_index: 'SV_GroupIndex',
        global_invocation_id: 'SV_DispatchThreadID',
        workgroup_id: 'SV_GroupID',
      };
      // a conservative depth output keeps its semantic (the interface spells it as the signature does)
      if (b.builtin === 'frag_depth' && v && /^SV_Depth(GreaterEqual|LessEqual)$/i.test(v.semantic)) return v.semantic;
      const s = map[b.builtin];
      if (!s) return refuse('system value not handled', b.builtin);
      return s;
    }
    if (stage === 'fragment' && !input && b?.kind === 'location') return `SV_Target${b.location}`;
    if (!v) return refuse('system value not handled', 'a varying without a signature element');
    return `${v.semantic}${v.semanticIndex}`;
  }

  // ---- statements

  private block(b: Block, depth: number, out: string[]): void {
    const pad = '    '.repeat(depth);
    for (let i = 0; i < b.length; i++) {
      // consecutive scalar lets that are the components of one matrix product: one vector let
      const run: Extract<Stmt, { op: 'let' }>[] = [];
      for (let j = i; j < b.length && run.length < 4; j++) {
        const s = b[j]!;
        if (s.op !== 'let' || this.value(s.value).kind !== 'scalar') break;
        run.push(s);
      }
      let taken = 0;
      for (let n = run.length; n >= 2; n--) {
        const mul = this.mulOf(run.slice(0, n).map((s) => s.value));
        if (!mul) continue;
        const name = this.letName(run[0]!.let, { kind: 'vector', scalar: 'f32', size: n as 2 });
        out.push(`${pad}float${n} ${name} = ${mul};`);
        this.claim(
          out.length - 1,
          out.length,
          run.slice(0, n).reduce<Origin | undefined>((o, s) => mergeOrigins(o, s.origin), undefined),
        );
        run.slice(0, n).forEach((s, k) => this.letAlias.set(s.let, `${name}.${COMP[k]}`));
        taken = n;
        break;
      }
      if (taken) {
        i += taken - 1;
        continue;
      }
      if (this.shapes.skipped(b[i]!)) continue; // printed in a loop's header
      const from = out.length;
      this.stmt(b[i]!, depth, pad, out);
      this.claim(from, out.length, b[i]!.origin);
    }
  }

  private letCounter = 0;
  private readonly letAlias = new Map<number, string>();
  private letName(id: number, t: Type): string {
    if (!this.letNames[id]) {
      const hint = this.fn.lets[id]!.name;
      const named = /^[A-Za-z_][A-Za-z0-9_]*$/.test(hint) && !/^(r|v|o|x|cb|t|u)\d/.test(hint);
      if (named) this.letNames[id] = this.unique(hint);
      else {
        let n: string;
        do n = `${scalarOf(t) === 'bool' ? 'b' : 't'}${this.letCounter++}`;
        while (this.used.has(n));
        this.used.add(n);
        this.letNames[id] = n;
      }
    }
    return this.letNames[id]!;
  }

  private shapesOf: { fn: Function; shapes: Shapes } | undefined;
  /** The loop and branch shapes of the function being printed (shapes.ts). */
  private get shapes(): Shapes {
    if (this.shapesOf?.fn !== this.fn)
      this.shapesOf = { fn: this.fn, shapes: functionShapes(this.m, this.fn, this.types) };
    return this.shapesOf.shapes;
  }

  private condText(e: ExprId, negate = false): string {
    return this.conditionText(this.shapes.condition(e, negate));
  }

  private conditionText(c: Condition): string {
    if (c.kind === 'expr') return this.ex(c.expr);
    if (c.kind === 'not') return `!${this.ex(c.expr, 15)}`;
    return this.binary({ op: 'binary', fn: c.fn, left: c.left, right: c.right }, c.left)[0];
  }

  private loopHeader(shape: LoopShape): string {
    const cond = this.conditionText(shape.cond);
    if (shape.kind === 'while') return `while (${cond})`;
    const i = this.localNames[shape.counter]!;
    const t = this.m.types[this.fn.locals[shape.counter]!.type]!;
    const init = `${shape.declare ? `${typeText(t)} ` : ''}${i} = ${this.ex(shape.init.value)}`;
    return `for (${init}; ${cond}; ${shape.increment ? `${i}++` : `${i} = ${this.ex(shape.next)}`})`;
  }

  private stmt(s: Stmt, depth: number, pad: string, out: string[]): void {
    if (this.files && this.stageStmt(s, pad, out)) return;
    switch (s.op) {
      case 'let': {
        const t = this.value(s.value);
        const el = this.elementLet(s.let); // an element index (cbDynamic)
        out.push(`${pad}${typeText(t)} ${this.letName(s.let, t)} = ${this.ex(el ? el.index : s.value)};`);
        return;
      }
      case 'store': {
        const ptr = this.exprs(s.pointer);
        const view = this.viewAccess(ptr);
        if (view) {
          out.push(`${pad}${this.viewStore(view.v, view.index, s.value)}`);
          return;
        }
        const raw = this.rawBuffer(ptr);
        if (raw) {
          out.push(`${pad}${raw.name}.Store(${this.ex(raw.index, 11)} << 2, ${this.ex(s.value)});`);
          return;
        }
        out.push(`${pad}${this.ex(s.pointer)} = ${this.exAs(s.value, this.sharedElement(s.pointer) ?? 'u32')};`);
        return;
      }
      case 'if': {
        // a chain of tests of one integer: its switch; an else block that is one if: `else if
        // (...)`, its lines the inner if's (shapes.ts)
        const sw = this.shapes.switchOf(s);
        if (sw) return this.stmt(sw, depth, pad, out);
        let at: typeof s | undefined = s;
        out.push(`${pad}if (${this.condText(s.cond)})`, `${pad}{`);
        for (;;) {
          this.block(at.accept, depth + 1, out);
          const next = this.shapes.elseIf(at);
          if (!next) break;
          out.push(`${pad}}`, `${pad}else if (${this.condText(next.cond)})`, `${pad}{`);
          this.claim(out.length - 2, out.length, next.origin);
          at = next;
        }
        if (at.reject.length) {
          out.push(`${pad}}`, `${pad}else`, `${pad}{`);
          this.block(at.reject, depth + 1, out);
        }
        out.push(`${pad}}`);
        return;
      }
      case 'loop': {
        // `while (...)` and `for (...; ...; ...)` where the loop has their shape (shapes.ts)
        const shape = this.shapes.loop(s);
        out.push(`${pad}[loop] ${shape ? this.loopHeader(shape) : 'for (;;)'}`, `${pad}{`);
        if (shape) this.claim(out.length - 2, out.length - 1, shape.origin);
        this.block(s.body, depth + 1, out);
        out.push(`${pad}}`);
        return;
      }
      case 'switch': {
        const st = this.value(s.selector);
        const sc = scalarOf(st)!;
        out.push(`${pad}switch (${this.ex(s.selector)})`, `${pad}{`);
        for (const c of s.cases) {
          if (c.isDefault && !c.values.length && !c.body.length) continue; // an empty default does nothing
          for (const v of c.values) out.push(`${pad}case ${literalText(sc, v)}:`);
          if (c.isDefault) out.push(`${pad}default:`);
          out.push(`${pad}{`);
          this.block(c.body, depth + 1, out);
          // HLSL's cases fall through, the IR's do not: a body that does not end in a jump gets its break
          const last = c.body[c.body.length - 1];
          if (last?.op !== 'break' && last?.op !== 'return' && last?.op !== 'continue') out.push(`${pad}    break;`);
          out.push(`${pad}}`);
        }
        out.push(`${pad}}`);
        return;
      }
      case 'break':
      case 'continue':
        out.push(`${pad}${s.op};`);
        return;
      case 'kill':
        out.push(`${pad}discard;`);
        return;
      case 'return': {
        if (s.value === undefined) {
          out.push(`${pad}return;`);
          return;
        }
        const e = this.fn.exprs[s.value]!;
        if (this.resultStruct && e.op === 'compose') {
          out.push(`${pad}${this.resultStruct.name} output;`);
          e.parts.forEach((part, i) => out.push(`${pad}output.${this.resultStruct!.members[i]} = ${this.ex(part)};`));
          out.push(`${pad}return output;`);
          return;
        }
        if (this.resultStruct) refuse('statement not handled', 'a return of a struct that is not built in place');
        out.push(`${pad}return ${this.ex(s.value)};`);
        return;
      }
      case 'barrier': {
        const mem = s.workgroup && (s.storage || s.texture) ? 'All' : s.workgroup ? 'Group' : 'Device';
        out.push(`${pad}${mem}MemoryBarrier${s.execution ? 'WithGroupSync' : ''}();`);
        return;
      }
      case 'image_store': {
        const coord = this.ex(s.coord);
        const full =
          s.arrayIndex !== undefined
            ? `${typeText({ kind: 'vector', scalar: 'u32', size: (widthOf(this.value(s.coord)) + 1) as 3 })}(${coord}, ${this.ex(s.arrayIndex)})`
            : coord;
        out.push(`${pad}${this.ex(s.image)}[${full}] = ${this.storeValue(s)};`);
        return;
      }
      case 'atomic': {
        if (this.counterUpdate(s, pad, out)) return;
        const fns: Record<string, string> = {
          add: 'InterlockedAdd',
          and: 'InterlockedAnd',
          or: 'InterlockedOr',
          xor: 'InterlockedXor',
          min: 'InterlockedMin',
          max: 'InterlockedMax',
          exchange: 'InterlockedExchange',
          compare_exchange: 'InterlockedCompareExchange',
          load: 'InterlockedOr',
        };
        const raw = this.rawBuffer(this.exprs(s.pointer));
        const view = this.viewAccess(this.exprs(s.pointer));
        const ptr = raw
          ? `${this.ex(raw.index, 11)} << 2`
          : view
            ? this.viewAtomicTarget(view.v, view.index)
            : this.ex(s.pointer);
        const args = [ptr];
        if (s.fn === 'compare_exchange') args.push(this.ex(s.compare!), this.ex(s.value!));
        else if (s.fn === 'load') args.push('0');
        else args.push(this.ex(s.value!));
        if (s.result !== undefined) {
          const t = this.atomicType(s.pointer);
          const n = this.letName(s.result, t);
          out.push(`${pad}${typeText(t)} ${n};`);
          args.push(n);
        } else if (s.fn === 'exchange' || s.fn === 'compare_exchange' || s.fn === 'load') {
          const n = this.unique('ignored');
          out.push(`${pad}${typeText(this.atomicType(s.pointer))} ${n};`);
          args.push(n);
        }
        out.push(
          raw ? `${pad}${raw.name}.${fns[s.fn]}(${args.join(', ')});` : `${pad}${fns[s.fn]}(${args.join(', ')});`,
        );
        return;
      }
      default:
        refuse('statement not handled', s.op);
    }
  }

  private storeValue(s: Extract<Stmt, { op: 'image_store' }>): string {
    const img = this.types[s.image]!;
    const v = this.ex(s.value);
    if (img.type.kind === 'image' && img.type.class.kind === 'storage' && img.type.class.format.startsWith('r32'))
      return `${v}.x`;
    return v;
  }

  private atomicType(ptr: ExprId): Type {
    const t = this.types[ptr]!.type;
    return t.kind === 'atomic' ? { kind: 'scalar', scalar: t.scalar } : t;
  }

  // ---- expressions

  private exprs(id: ExprId): Expr {
    return this.fn.exprs[id]!;
  }
  private value(id: ExprId): Type {
    return this.types[id]!.type;
  }

  /** A raw buffer's word: `access(global, index)` of a ByteAddressBuffer. */
  private rawBuffer(e: Expr): { name: string; index: ExprId } | undefined {
    if (e.op !== 'access') return undefined;
    const b = this.exprs(e.base);
    if (b.op !== 'global') return undefined;
    const r = this.resources.get(b.global);
    if (!r || (r.kind.kind !== 'buffer' && r.kind.kind !== 'uav') || r.kind.view !== 'raw') return undefined;
    return { name: this.globalNames.get(b.global)!, index: e.index };
  }

  /** A constant-buffer register read: `load(cb[k])` with a literal k. */
  private cbRegister(id: ExprId): { cb: CbView; row: number } | undefined {
    const e = this.exprs(id);
    if (e.op !== 'load') return undefined;
    const ptr = this.exprs(e.pointer);
    if (ptr.op !== 'member' && ptr.op !== 'access') return undefined;
    const g = this.exprs(ptr.base);
    if (g.op !== 'global' || !this.cbs.has(g.global)) return undefined;
    const cb = this.cbs.get(g.global)!;
    let row: number;
    if (ptr.op === 'member') row = ptr.index;
    else {
      const ix = this.exprs(ptr.index);
      if (ix.op !== 'literal') {
        // a computed index outside the lifter's guard (cbDynamic): only the register form shows it
        if (cb.lanes) throw new ViewMiss(cb.global);
        return undefined;
      }
      row = ix.bits;
    }
    return { cb, row };
  }

  /** A read of components `comps` of register `row`, as `want`; `inside` for a register of an
   * array element indexed by a computed value (cbDynamic: its lanes, by word from the element's
   * start). */
  private cbText(cb: CbView, row: number, comps: readonly number[], want: Scalar, inside?: CbElement): string {
    const width = comps.length;
    const vec = width === 1 ? SCALAR[want] : `${SCALAR[want]}${width}`;
    if (!cb.lanes) {
      const text = `${inside?.element ?? `${cb.name}[${row}]`}${comps.length === 4 && comps.every((c, i) => c === i) ? '' : `.${comps.map((c) => COMP[c]).join('')}`}`;
      return castText(cb.scalar, want, text);
    }
    const lanes = comps.map((c) => {
      const l = (inside?.lanes ?? cb.lanes!).get(row * 4 + c);
      // padding (or a variable HLSL cannot name): the buffer's registers show it
      if (!l) throw new ViewMiss(cb.global);
      return l;
    });
    // group runs of one vector (consecutive components) or one matrix
    const groups: { text: string; scalar: Scalar; width: number }[] = [];
    let i = 0;
    while (i < lanes.length) {
      const l = lanes[i]!;
      let j = i + 1;
      if (l.matrix) {
        const parts = [l.part as string];
        while (j < lanes.length && lanes[j]!.matrix && lanes[j]!.base === l.base)
          parts.push(lanes[j++]!.part as string);
        // one element at a time: glslang's HLSL front end crashes on multi-element matrix swizzles
        const text =
          parts.length === 1
            ? `${l.base}.${parts[0]}`
            : `${SCALAR[l.scalar]}${parts.length}(${parts.map((x) => `${l.base}.${x}`).join(', ')})`;
        groups.push({ text, scalar: l.scalar, width: parts.length });
      } else if (l.width === 1) groups.push({ text: l.base, scalar: l.scalar, width: 1 });
      else {
        const parts = [l.part as number];
        while (j < lanes.length && lanes[j]!.base === l.base && !lanes[j]!.matrix)
          parts.push(lanes[j++]!.part as number);
        const whole = parts.length === l.width && parts.every((c, k) => c === k);
        groups.push({
          text: whole ? l.base : `${l.base}.${parts.map((c) => COMP[c]).join('')}`,
          scalar: l.scalar,
          width: parts.length,
        });
      }
      i = j;
    }
    const conv = groups.map((g) => {
      if (g.scalar === want) return g.text;
      return `${want === 'f32' ? 'asfloat' : want === 'i32' ? 'asint' : 'asuint'}(${g.text})`;
    });
    return conv.length === 1 ? conv[0]! : `${vec}(${conv.join(', ')})`;
  }

  /** A read of a constant-buffer register, through swizzles and bitcasts: (cb, row, comps, scalar),
   * with `inside` where the register is one of an array element indexed by a computed value. */
  private cbRead(
    id: ExprId,
  ): { cb: CbView; row: number; comps: number[]; scalar: Scalar; inside?: CbElement } | undefined {
    let e = this.exprs(id);
    let comps: number[] | undefined;
    let scalar: Scalar | undefined;
    for (let depth = 0; depth < 4; depth++) {
      if (e.op === 'swizzle') {
        const inner = e.pattern;
        comps = comps ? comps.map((k) => inner[k]!) : [...inner];
        id = e.vector;
      } else if (e.op === 'bitcast') {
        scalar ??= e.to;
        id = e.value;
      } else break;
      e = this.exprs(id);
    }
    // (literals, not `{ ...dyn, comps, scalar }`: a spread that adds keys is V8's slow path, ir.ts
    // copyWithOrigin)
    const dyn = this.cbDynamic(id);
    if (dyn)
      return { cb: dyn.cb, row: dyn.row, inside: dyn.inside, comps: comps ?? [0, 1, 2, 3], scalar: scalar ?? 'u32' };
    const reg = this.cbRegister(id);
    if (!reg) return undefined;
    return { cb: reg.cb, row: reg.row, comps: comps ?? [0, 1, 2, 3], scalar: scalar ?? 'u32' };
  }

  /**
   * A register read with a computed index, as the lifter writes it (`ix < rows ? cb[min(ix, rows -
   * 1)] : 0`, Direct3D's zero past the buffer), through the RDEF array member it falls in: an index
   * `i * stride + c` (or `i << k + c`), with `stride` the member's registers an element and `c`
   * in the member at `base`, is element `i + (c - base) / stride`, register `(c - base) % stride` of
   * it. Exact: fxc compiles `Member[i]` to the register `i * stride + base` in the same wrapping
   * arithmetic, and Direct3D reads zero past the buffer, as the guard does. A buffer in the register
   * form keeps the lifter's expression; an index of another shape is a ViewMiss.
   */
  private cbDynamic(id: ExprId): { cb: CbView; row: number; inside: CbElement } | undefined {
    const read = this.dynamicRead(id);
    if (!read) return undefined;
    const { cb } = read;
    // the register form: the register itself (Direct3D reads zero past the declared rows, as the guard)
    if (!cb.rdef)
      return {
        cb,
        row: 0,
        inside: { element: `${cb.name}[${this.ex(read.index)}]`, lanes: undefined, matrix: undefined },
      };
    const ix = Math.ceil(cb.rdef.size / 16) === read.rows ? this.indexParts(read.index) : undefined;
    if (ix) {
      const c = ix.offset >>> 0;
      for (const v of cb.rdef!.variables) {
        const t = v.type;
        const stride = registerStride(t);
        const base = v.startOffset / 16;
        if (t.elements === 0 || stride !== ix.stride || !Number.isInteger(base) || c < base) continue;
        const k = Math.floor((c - base) / stride);
        if (k >= t.elements) continue;
        const i = ix.index(k ? 12 : 0);
        const suffix = ix.scalar === 'u32' ? 'u' : '';
        const element = `${v.name}[${k ? `${i} + ${k}${suffix}` : i}]`;
        const one: RdefType = { ...t, elements: 0 };
        const lanes = new Map<number, Lane>();
        placeLanes(one, 0, element, lanes);
        const matrix =
          t.class === 2 || t.class === 3
            ? { name: element, rows: t.rows, columns: t.columns, rowMajor: t.class === 2 }
            : undefined;
        return { cb, row: (c - base) % stride, inside: { element, lanes, matrix } };
      }
    }
    // a class instance's data (cb[this[].x][row], the instance chosen by the linkage table,
    // interfaces.ts): its register form is a select of registers read as bitcasts of bitcasts
    if (this.p.interface.classLinkage)
      refuse('dynamically indexed constant buffer', `${cb.name}: a class instance's data`);
    throw new ViewMiss(cb.global);
  }

  /** The lifter's guarded read with a computed index `index` of a buffer declared with its members. */
  private dynamicRead(id: ExprId): { cb: CbView; index: ExprId; rows: number } | undefined {
    const e = this.exprs(id);
    if (e.op !== 'select') return undefined;
    const cond = this.exprs(e.cond);
    const acc = this.exprs(e.accept);
    if (this.exprs(e.reject).op !== 'zero' || acc.op !== 'load' || cond.op !== 'binary' || cond.fn !== 'lt')
      return undefined;
    const ptr = this.exprs(acc.pointer);
    if (ptr.op !== 'access') return undefined;
    const g = this.exprs(ptr.base);
    if (g.op !== 'global' || !this.cbs.has(g.global)) return undefined;
    const cb = this.cbs.get(g.global)!;
    const at = this.m.types[this.m.globals[g.global]!.type]!;
    const clamp = this.exprs(ptr.index);
    if (
      at.kind !== 'array' ||
      at.length === null ||
      this.constBits(cond.right) !== at.length ||
      clamp.op !== 'math' ||
      clamp.fn !== 'min' ||
      clamp.args[0] !== cond.left ||
      this.constBits(clamp.args[1]!) !== at.length - 1
    )
      return undefined;
    return { cb, index: cond.left, rows: at.length };
  }

  /** `x * s` or `x << k` with literal s or k, as (x, s). */
  private scaledIndex(x: Expr): { index: ExprId; stride: number } | undefined {
    if (x.op !== 'binary') return undefined;
    if (x.fn === 'shl') {
      const k = this.constBits(x.right);
      return k === undefined ? undefined : { index: x.left, stride: 2 ** (k & 31) };
    }
    if (x.fn !== 'mul') return undefined;
    const l = this.constBits(x.left);
    const r = this.constBits(x.right);
    return r !== undefined ? { index: x.left, stride: r } : l !== undefined ? { index: x.right, stride: l } : undefined;
  }

  /**
   * Lets `t = x * stride` read only as the index of guarded constant-buffer reads (`t + c`): such a
   * let prints as the element index `t = x` (x evaluated where the let is), and each read as
   * `Member[t]` (cbDynamic). A let read anywhere else keeps its value.
   */
  private elementLet(id: number): { index: ExprId; stride: number } | undefined {
    if (!this.elementLets) {
      const indexLets = new Set<number>();
      const elsewhere = new Set<number>();
      const seen = new Set<ExprId>();
      const visit = (x: ExprId): void => {
        if (seen.has(x)) return;
        seen.add(x);
        const read = this.dynamicRead(x);
        if (read?.cb.rdef) {
          let ix = this.exprs(read.index);
          if (ix.op === 'binary' && ix.fn === 'add' && this.constBits(ix.right) !== undefined) ix = this.exprs(ix.left);
          else if (ix.op === 'binary' && ix.fn === 'add' && this.constBits(ix.left) !== undefined)
            ix = this.exprs(ix.right);
          if (ix.op === 'let') indexLets.add(ix.let);
          else visit(read.index);
          return;
        }
        const e = this.exprs(x);
        if (e.op === 'let') elsewhere.add(e.let);
        for (const c of childrenOf(e)) visit(c);
      };
      walkStmts(this.fn.body, (st) => stmtExprs(st).forEach(visit));
      this.elementLets = new Map();
      for (const l of indexLets) {
        const v = this.letValue(l);
        const sc = v === undefined || elsewhere.has(l) ? undefined : this.scaledIndex(this.exprs(v));
        if (sc && this.value(sc.index).kind === 'scalar') this.elementLets.set(l, sc);
      }
    }
    return this.elementLets.get(id);
  }
  private elementLets: Map<number, { index: ExprId; stride: number }> | undefined;
  /** A register index as `index * stride + offset` (offset and stride literals; a shift by a literal
   * is a power-of-two stride), looking through a let whose value reads no memory (a let is one
   * value; what it reads from a local could have changed by the read), and through the bitcast of
   * a signed index; a lane of a let of a vector product with a splat of the stride is that lane of
   * the vector (`t0.w` of `t0 = indices * 3u` is `indices.w * 3u`). */
  private indexParts(
    id: ExprId,
  ): { index: (prec: number) => string; stride: number; offset: number; scalar: Scalar } | undefined {
    let e = this.exprs(id);
    if (e.op === 'bitcast' && scalarOf(this.value(e.value)) === 'i32') {
      id = e.value;
      e = this.exprs(id);
    }
    const scalar = scalarOf(this.value(id));
    if (scalar !== 'u32' && scalar !== 'i32') return undefined;
    let offset = 0;
    if (e.op === 'binary' && e.fn === 'add') {
      const l = this.constBits(e.left);
      const r = this.constBits(e.right);
      if (r !== undefined) [offset, id] = [r, e.left];
      else if (l !== undefined) [offset, id] = [l, e.right];
      e = this.exprs(id);
    }
    const scaled = (x: Expr): { index: ExprId; stride: number } | undefined => this.scaledIndex(x);
    const s = scaled(e);
    if (s) return { index: (prec) => this.ex(s.index, prec), stride: s.stride, offset, scalar };
    // through a let (or a lane of one) whose value reads no memory
    let lane: number | undefined;
    let at = e;
    if (at.op === 'swizzle' && at.pattern.length === 1) {
      lane = at.pattern[0]!;
      at = this.exprs(at.vector);
      // a lane of a signed vector's bits (`asuint(t0).x`): the same bits, indexed as the int
      if (at.op === 'bitcast' && scalarOf(this.value(at.value)) === 'i32') at = this.exprs(at.value);
    }
    const v = at.op === 'let' ? this.letValue(at.let) : undefined;
    const inner = v === undefined ? undefined : scaled(this.exprs(v));
    if (inner && this.readsNoMemory(inner.index)) {
      const x = inner.index;
      if (lane === undefined) return { index: (prec) => this.ex(x, prec), stride: inner.stride, offset, scalar };
      if (widthOf(this.value(x)) > lane)
        return { index: () => `${this.ex(x, 20)}.${COMP[lane]}`, stride: inner.stride, offset, scalar };
    }
    const el = at.op === 'let' && lane === undefined ? this.elementLet(at.let) : undefined;
    if (el) return { index: (prec) => this.ex(id, prec), stride: el.stride, offset, scalar };
    return { index: (prec) => this.ex(id, prec), stride: 1, offset, scalar };
  }

  private letValues: Map<number, ExprId> | undefined;
  private letValue(id: number): ExprId | undefined {
    if (!this.letValues) {
      const m = new Map<number, ExprId>();
      walkStmts(this.fn.body, (st) => {
        if (st.op === 'let') m.set(st.let, st.value);
      });
      this.letValues = m;
    }
    return this.letValues.get(id);
  }

  /** Whether a value is the same wherever it is evaluated: made of arguments, lets and literals. */
  private readsNoMemory(id: ExprId): boolean {
    const e = this.exprs(id);
    if (e.op === 'literal' || e.op === 'arg' || e.op === 'let' || e.op === 'zero') return true;
    if (!['binary', 'unary', 'math', 'swizzle', 'compose', 'splat', 'bitcast', 'convert', 'select'].includes(e.op))
      return false;
    return childrenOf(e).every((c) => this.readsNoMemory(c));
  }

  /** `mul(v, M)` / `mul(M, v)`: a compose of dot products of one vector with a matrix's registers. */
  private mulIdiom(e: Expr): string | undefined {
    if (e.op !== 'compose') return undefined;
    return this.mulOf(e.parts);
  }

  /** `mul` for scalar dot products, component j the j-th of `parts`; undefined when they are not one. */
  private mulOf(parts: readonly ExprId[]): string | undefined {
    if (parts.length < 2) return undefined;
    let vector: ExprId | undefined;
    const regs: { cb: CbView; row: number; inside?: CbElement }[] = [];
    for (const part of parts) {
      const d = this.exprs(part);
      if (d.op !== 'math' || d.fn !== 'dot') return undefined;
      const [a, b] = d.args as [ExprId, ExprId];
      const rb = this.cbRead(b);
      const ra = this.cbRead(a);
      const [v, r] = rb && rb.scalar === 'f32' ? [a, rb] : ra && ra.scalar === 'f32' ? [b, ra] : [undefined, undefined];
      if (v === undefined || !r) return undefined;
      if (vector !== undefined && vector !== v) return undefined;
      vector = v;
      const width = widthOf(this.value(v));
      if (!r.comps.every((c, k) => c === k) || r.comps.length !== width) return undefined;
      regs.push(r);
    }
    const first = regs[0]!;
    const mat = first.inside ? (first.row === 0 ? first.inside.matrix : undefined) : first.cb.matrices.get(first.row);
    const same = (r: (typeof regs)[number]): boolean =>
      r.cb === first.cb && r.inside?.element === first.inside?.element;
    if (!mat || !regs.every((r, k) => same(r) && r.row === first.row + k)) return undefined;
    const width = widthOf(this.value(vector!));
    const n = regs.length;
    if (mat.rowMajor) {
      // register i is row i: dot(row i, v) = (M v)[i]; fewer rows or columns: the upper-left block
      if (n > mat.rows || width > mat.columns) return undefined;
      const m = n === mat.rows && width === mat.columns ? mat.name : `(float${n}x${width})${mat.name}`;
      return `mul(${m}, ${this.ex(vector!)})`;
    }
    // register j is column j: dot(v, column j) = (v M)[j]
    if (n > mat.columns || width > mat.rows) return undefined;
    const m = n === mat.columns && width === mat.rows ? mat.name : `(float${width}x${n})${mat.name}`;
    return `mul(${this.ex(vector!)}, ${m})`;
  }

  /** The 32-bit pattern every component of a constant has (a literal, splat or compose of one literal), or undefined. */
  private constBits(id: ExprId): number | undefined {
    const e = this.exprs(id);
    if (e.op === 'literal') return e.bits;
    if (e.op === 'splat') return this.constBits(e.value);
    if (e.op === 'compose') {
      const bits = e.parts.map((p) => this.constBits(p));
      return bits.every((b) => b !== undefined && b === bits[0]) ? bits[0] : undefined;
    }
    return undefined;
  }

  /** `x != x` (x is NaN): the x, or undefined. */
  private isNaNTest(id: ExprId): ExprId | undefined {
    const e = this.exprs(id);
    return e.op === 'binary' && e.fn === 'ne' && e.left === e.right ? e.left : undefined;
  }

  /**
   * Direct3D's operations the lifter spells out, printed as the HLSL intrinsic that is Direct3D's
   * operation (their HLSL meaning is Direct3D's rule, which the IR writes out):
   *   x != x ? 0 : clamp(x, 0, 1)                    saturate(x)   (mov_sat: NaN gives 0)
   *   x != x ? y : (y != y ? x : min(x, y))          min(x, y)     (min/max: a NaN operand gives the other)
   */
  private selectIdiom(e: Extract<Expr, { op: 'select' }>): string | undefined {
    const guarded = this.guardIdiom(e);
    if (guarded !== undefined) return guarded;
    const x = this.isNaNTest(e.cond);
    if (x === undefined) return undefined;
    const r = this.exprs(e.reject);
    const F0 = 0;
    const F1 = 0x3f800000;
    if (
      r.op === 'math' &&
      r.fn === 'clamp' &&
      r.args[0] === x &&
      this.constBits(e.accept) === F0 &&
      this.constBits(r.args[1]!) === F0 &&
      this.constBits(r.args[2]!) === F1 &&
      scalarOf(this.value(x)) === 'f32'
    )
      return `saturate(${this.ex(x)})`;
    // ftou / ftoi: NaN gives 0, out of range saturates: (uint)x / (int)x
    if (r.op === 'select' && this.constBits(e.accept) === 0) {
      const ge = this.exprs(r.cond);
      const cv = this.exprs(r.reject);
      const cl = cv.op === 'convert' ? this.exprs(cv.value) : undefined;
      if (
        ge.op === 'binary' &&
        ge.fn === 'ge' &&
        ge.left === x &&
        cv.op === 'convert' &&
        cl?.op === 'math' &&
        cl.fn === 'clamp' &&
        cl.args[0] === x
      ) {
        const limits =
          cv.to === 'u32'
            ? { hi: 0x4f800000, max: 0xffffffff, lo: 0, top: 0x4f7fffff }
            : cv.to === 'i32'
              ? { hi: 0x4f000000, max: 0x7fffffff, lo: 0xcf000000, top: 0x4effffff }
              : undefined;
        if (
          limits &&
          this.constBits(ge.right) === limits.hi &&
          this.constBits(r.accept) === limits.max &&
          this.constBits(cl.args[1]!) === limits.lo &&
          this.constBits(cl.args[2]!) === limits.top
        )
          return `((${typeText(this.value(e.reject))})${this.ex(x, 15)})`;
      }
    }
    if (r.op === 'math' && (r.fn === 'min' || r.fn === 'max') && r.args[0] === x && r.args[1] === e.accept) {
      // the second operand a constant that is not NaN (its own NaN test folded away)
      const c = this.constBits(e.accept);
      const nan = c !== undefined && ((c >>> 23) & 0xff) === 0xff && (c & 0x7fffff) !== 0;
      if (c !== undefined && !nan) return `${r.fn}(${this.ex(x)}, ${this.ex(e.accept)})`;
    }
    if (r.op === 'select') {
      const y = this.isNaNTest(r.cond);
      if (y === undefined || e.accept !== y || r.accept !== x) return undefined;
      const m = this.exprs(r.reject);
      if (m.op === 'math' && (m.fn === 'min' || m.fn === 'max') && m.args[0] === x && m.args[1] === y)
        return `${m.fn}(${this.ex(x)}, ${this.ex(y)})`;
    }
    return undefined;
  }

  /** The text of `id`, a u32 value, as a value of `s`: `x` for `bitcast<u32>(x)` with x of `s` (and
   * `x.yz` for a swizzle of it), a literal as `s`'s literal, a memory word the HLSL declares as `s`
   * (memoryNative) as itself; else the bitcast. A bitcast never changes a bit, so each is the same word. */
  private exAs(id: ExprId, s: Scalar): string {
    if (s === 'u32' || s === 'bool') return this.ex(id);
    const e = this.exprs(id);
    const of = (x: ExprId): boolean => scalarOf(this.value(x)) === s;
    if (e.op === 'bitcast' && of(e.value)) return this.ex(e.value);
    if (e.op === 'swizzle') {
      const v = this.exprs(e.vector);
      if (v.op === 'bitcast' && of(v.value)) return `${this.ex(v.value, 20)}.${e.pattern.map((k) => COMP[k]).join('')}`;
    }
    if (e.op === 'literal') return literalText(s, e.bits);
    const mem = this.memoryNative(id);
    if (mem) return castText(mem.scalar, s, mem.text);
    return castText('u32', s, this.ex(id));
  }

  /** A load of a memory word the HLSL declares with its own scalar (a buffer view's word or element,
   * a groupshared array typed by its uses): its text as declared, and that scalar. */
  private memoryNative(id: ExprId): { text: string; scalar: Scalar } | undefined {
    const e = this.exprs(id);
    if (e.op !== 'load') return undefined;
    const ptr = this.exprs(e.pointer);
    const view = this.viewAccess(ptr);
    if (view) return this.viewNative(view.v, view.index);
    const g = this.sharedElement(e.pointer);
    if (g) return { text: this.ex(e.pointer), scalar: g };
    return undefined;
  }

  /** The scalar of the groupshared array an element pointer (`access` or `member` of the global) is
   * into, where the HLSL declares it as another scalar than the IR's u32. */
  private sharedElement(ptr: ExprId): Scalar | undefined {
    const p = this.exprs(ptr);
    if (p.op !== 'access' && p.op !== 'member') return undefined;
    const b = this.exprs(p.base);
    return b.op === 'global' ? this.sharedScalars.get(b.global) : undefined;
  }

  /** `x` when `id` is `bitcast<to>(x)`, or undefined. */
  private uncast(id: ExprId, to: Scalar): ExprId | undefined {
    const e = this.exprs(id);
    return e.op === 'bitcast' && e.to === to ? e.value : undefined;
  }

  /** `fn(x)` when `id` is math `fn` of the one operand `x`. */
  private isMath(id: ExprId, fn: string, x: ExprId): boolean {
    const e = this.exprs(id);
    return e.op === 'math' && e.fn === fn && e.args.length === 1 && e.args[0] === x;
  }

  /** `x op c` with c's bits: x, or undefined. */
  private compares(id: ExprId, fn: string, bits: number): ExprId | undefined {
    const e = this.exprs(id);
    return e.op === 'binary' && e.fn === fn && this.constBits(e.right) === bits ? e.left : undefined;
  }

  /**
   * The lifter's guards of Direct3D's float rules (src/lift/semantics.ts, alu.ts), each printed as the
   * HLSL intrinsic whose meaning on Direct3D is that rule:
   *   x >= MIN ? rsqrt(x) : x > -MIN ? ±inf of x's sign : NaN      rsqrt(x)   (a denormal is a zero)
   *   x >= MIN ? log2(x) : x > -MIN ? -inf : NaN                   log2(x)
   *   x <= -MIN ? NaN : sqrt(x)                                    sqrt(x)
   *   |x| is NaN ? NaN : x >= 128 ? inf : exp2(x)                  exp2(x)
   *   |x| < inf ? f(x) : NaN                                       frac, sin, cos (of an infinity: NaN)
   *   |x| < MIN ? the zero of x's sign : x                         x          (a float move's flush)
   */
  private guardIdiom(e: Extract<Expr, { op: 'select' }>): string | undefined {
    const MIN = 0x00800000;
    const NEG_MIN = 0x80800000;
    const INF = 0x7f800000;
    const NEG_INF = 0xff800000;
    const NAN = 0x7fc00000;
    const SIGN = 0x80000000;
    const signOf = (id: ExprId, x: ExprId): boolean => {
      const and = this.exprs(id);
      return (
        and.op === 'binary' &&
        and.fn === 'and' &&
        this.uncast(and.left, 'u32') === x &&
        this.constBits(and.right) === SIGN
      );
    };
    const f32 = (x: ExprId) => scalarOf(this.value(x)) === 'f32';
    const r = this.exprs(e.reject);
    // rsqrt and log2: x >= MIN ? f(x) : (x > -MIN ? low : NaN)
    const ge = this.compares(e.cond, 'ge', MIN);
    if (ge !== undefined && f32(ge) && r.op === 'select' && this.compares(r.cond, 'gt', NEG_MIN) === ge) {
      if (this.constBits(r.reject) !== NAN) return undefined;
      if (this.isMath(e.accept, 'log2', ge) && this.constBits(r.accept) === NEG_INF) return `log2(${this.ex(ge)})`;
      const inf = this.uncast(r.accept, 'f32');
      const or = inf === undefined ? undefined : this.exprs(inf);
      if (
        this.isMath(e.accept, 'inverse_sqrt', ge) &&
        or?.op === 'binary' &&
        or.fn === 'or' &&
        signOf(or.left, ge) &&
        this.constBits(or.right) === INF
      )
        return `rsqrt(${this.ex(ge)})`;
      return undefined;
    }
    // sqrt: x <= -MIN ? NaN : sqrt(x)
    const le = this.compares(e.cond, 'le', NEG_MIN);
    if (le !== undefined && f32(le) && this.constBits(e.accept) === NAN && this.isMath(e.reject, 'sqrt', le))
      return `sqrt(${this.ex(le)})`;
    // exp2: (bits(x) & 0x7fffffff) > INF ? NaN : (x >= 128 ? inf : exp2(x))
    const nanTest = this.exprs(e.cond);
    if (nanTest.op === 'binary' && nanTest.fn === 'gt' && this.constBits(nanTest.right) === INF) {
      const and = this.exprs(nanTest.left);
      const x =
        and.op === 'binary' && and.fn === 'and' && this.constBits(and.right) === 0x7fffffff
          ? this.uncast(and.left, 'u32')
          : undefined;
      if (
        x !== undefined &&
        f32(x) &&
        this.constBits(e.accept) === NAN &&
        r.op === 'select' &&
        this.compares(r.cond, 'ge', 0x43000000) === x &&
        this.constBits(r.accept) === INF &&
        this.isMath(r.reject, 'exp2', x)
      )
        return `exp2(${this.ex(x)})`;
      return undefined;
    }
    // |x| < inf ? f(x) : NaN, and |x| < MIN ? zero of x's sign : x
    const lt = this.exprs(e.cond);
    if (lt.op !== 'binary' || lt.fn !== 'lt') return undefined;
    const abs = this.exprs(lt.left);
    if (abs.op !== 'math' || abs.fn !== 'abs' || abs.args.length !== 1) return undefined;
    const x = abs.args[0]!;
    if (!f32(x)) return undefined;
    const limit = this.constBits(lt.right);
    if (limit === INF && this.constBits(e.reject) === NAN) {
      const fn = this.exprs(e.accept);
      const names: Readonly<Record<string, string>> = { fract: 'frac', sin: 'sin', cos: 'cos' };
      const name = fn.op === 'math' ? names[fn.fn] : undefined;
      if (fn.op === 'math' && name && this.isMath(e.accept, fn.fn, x)) return `${name}(${this.ex(x)})`;
    }
    if (limit === MIN && e.reject === x) {
      const zero = this.uncast(e.accept, 'f32');
      if (zero !== undefined && signOf(zero, x)) return this.ex(x);
    }
    return undefined;
  }

  /** Parts that are the components of one vector let printed for a matrix product, in order: that let (swizzled). */
  private aliasRun(parts: readonly ExprId[]): string | undefined {
    const names = parts.map((x) => {
      const e = this.exprs(x);
      return e.op === 'let' ? this.letAlias.get(e.let) : undefined;
    });
    if (names.some((n) => n === undefined)) return undefined;
    const base = names[0]!.slice(0, -2);
    const comps = names.map((n) => n!.slice(-1)).join('');
    if (!names.every((n) => n!.slice(0, -2) === base)) return undefined;
    const width = [...this.letAlias.values()].filter((n) => n.slice(0, -2) === base).length;
    return comps === COMP.slice(0, width) ? base : `${base}.${comps}`;
  }

  /** HLSL text of an expression; `prec` is the binding strength the context needs (higher: tighter). */
  private ex(id: ExprId, prec = 0): string {
    const [text, p] = this.exP(id);
    return p < prec ? `(${text})` : text;
  }

  private exP(id: ExprId): [string, number] {
    const e = this.exprs(id);
    const ATOM = 20;
    const file = this.files?.read(id);
    if (file !== undefined) return [file, ATOM];
    const cb =
      e.op === 'swizzle' || e.op === 'bitcast' || e.op === 'load' || e.op === 'select' ? this.cbRead(id) : undefined;
    if (cb) return [this.cbText(cb.cb, cb.row, cb.comps, cb.scalar, cb.inside), ATOM];
    switch (e.op) {
      case 'literal':
        return [literalText(e.scalar, e.bits), e.scalar === 'i32' && (e.bits | 0) < 0 ? 14 : ATOM];
      case 'zero':
        return [zeroText(this.m.types[e.type]!, (t) => this.m.types[t]!), 14]; // a cast: `((uint4)0).x`
      case 'constant':
        return refuse('operation not handled', 'a module constant');
      case 'compose': {
        const mul = this.mulIdiom(e);
        if (mul) return [mul, ATOM];
        const t = this.m.types[e.type]!;
        const merged = this.aliasRun(e.parts);
        if (merged) return [merged, ATOM];
        if (e.parts.length > 1 && e.parts.every((q) => q === e.parts[0]) && this.value(e.parts[0]!).kind === 'scalar')
          return [`((${typeText(t)})${this.ex(e.parts[0]!, 15)})`, ATOM];
        return [`${typeText(t)}(${e.parts.map((x) => this.ex(x)).join(', ')})`, ATOM];
      }
      case 'splat':
        return [`((${typeText(this.value(id))})${this.ex(e.value, 15)})`, ATOM];
      case 'swizzle':
        return [`${this.ex(e.vector, ATOM)}.${e.pattern.map((k) => COMP[k]).join('')}`, ATOM];
      case 'arg':
        return [this.argText[e.index]!, ATOM];
      case 'global':
        return [this.globalNames.get(e.global) ?? refuse('resource kind not handled', `global ${e.global}`), ATOM];
      case 'local':
        return [this.localNames[e.local]!, ATOM];
      case 'let':
        return [this.letAlias.get(e.let) ?? this.letName(e.let, this.value(id)), ATOM];
      case 'access': {
        const view = this.viewAccess(e);
        if (view) return [this.viewLoad(view.v, view.index), ATOM];
        const raw = this.rawBuffer(e);
        if (raw) return [`${raw.name}.Load(${this.ex(e.index, 11)} << 2)`, ATOM];
        return [`${this.ex(e.base, ATOM)}[${this.ex(e.index)}]`, ATOM];
      }
      case 'member': {
        const bt = this.types[e.base]!.type;
        if (bt.kind === 'vector') return [`${this.ex(e.base, ATOM)}.${COMP[e.index]}`, ATOM];
        if (bt.kind === 'array') return [`${this.ex(e.base, ATOM)}[${e.index}]`, ATOM];
        return refuse('operation not handled', `member of a ${bt.kind}`);
      }
      case 'load': {
        const ptr = this.exprs(e.pointer);
        const g = ptr.op === 'global' ? ptr : undefined;
        if (g && this.cbs.has(g.global)) return refuse('operation not handled', 'a whole constant buffer read');
        const reg = ptr.op === 'access' || ptr.op === 'member' ? this.exprs(ptr.base) : undefined;
        const cbv = reg?.op === 'global' ? this.cbs.get(reg.global) : undefined;
        if (cbv) return [castText(cbv.scalar, 'u32', this.ex(e.pointer)), ATOM]; // a register, as the IR's words
        const shared = this.sharedElement(e.pointer);
        if (shared) return [castText(shared, 'u32', this.ex(e.pointer)), ATOM];
        return this.exP(e.pointer);
      }
      case 'unary': {
        const s = scalarOf(this.value(id));
        const op = e.fn === 'neg' ? '-' : s === 'bool' ? '!' : '~';
        return [`${op}${this.ex(e.arg, 15)}`, 14];
      }
      case 'binary':
        return this.binary(e, id);
      case 'select': {
        const idiom = this.selectIdiom(e);
        if (idiom) return [idiom, ATOM];
        return [`${this.ex(e.cond, 3)} ? ${this.ex(e.accept, 3)} : ${this.ex(e.reject, 2)}`, 2];
      }
      case 'math':
        return [this.math(e, id), ATOM];
      case 'bitcast': {
        const mem = this.memoryNative(e.value);
        if (mem) return [castText(mem.scalar, e.to, mem.text), ATOM];
        return [castText(scalarOf(this.value(e.value)) ?? 'u32', e.to, this.ex(e.value)), ATOM];
      }
      case 'convert': {
        const t = this.value(id);
        const from = scalarOf(this.value(e.value));
        if (e.to === 'bool' || from === 'bool' || from === e.to || from === 'f32' || e.to === 'f32')
          return [`(${typeText(t)})${this.ex(e.value, 15)}`, 14];
        return [`(${typeText(t)})${this.ex(e.value, 15)}`, 14];
      }
      case 'derivative': {
        const base = e.axis === 'width' ? 'fwidth' : `dd${e.axis}`;
        const suffix = e.control === 'none' || e.axis === 'width' ? '' : `_${e.control}`;
        if (e.axis === 'width' && e.control !== 'none') refuse('operation not handled', `fwidth ${e.control}`);
        return [`${base}${suffix}(${this.ex(e.value)})`, ATOM];
      }
      case 'sample':
        return [this.sample(e), ATOM];
      case 'image_load':
        return [this.imageLoad(e), ATOM];
      case 'image_query':
        return [this.imageQuery(e), ATOM];
      case 'array_length': {
        const g = this.exprs(e.pointer);
        const view = g.op === 'global' ? this.views.get(g.global) : undefined;
        if (view) return [this.viewLength(view), ATOM];
        const r = g.op === 'global' ? this.resources.get(g.global) : undefined;
        if (!r || (r.kind.kind !== 'buffer' && r.kind.kind !== 'uav') || r.kind.view !== 'raw')
          return refuse('operation not handled', 'the length of a buffer that is not a raw view');
        const decl = `${r.kind.kind === 'uav' ? 'RW' : ''}ByteAddressBuffer`;
        const fnName = `iridia_words_${decl}`;
        this.helpers.add(
          [
            `uint ${fnName}(${decl} b)`,
            '{',
            '    uint bytes;',
            '    b.GetDimensions(bytes);',
            '    return bytes >> 2;',
            '}',
            '',
          ].join('\n'),
        );
        return [`${fnName}(${this.ex(e.pointer)})`, ATOM];
      }
    }
  }

  private binary(e: Extract<Expr, { op: 'binary' }>, id: ExprId): [string, number] {
    const ops: Record<string, [string, number]> = {
      mul: ['*', 13],
      div: ['/', 13],
      rem: ['%', 13],
      add: ['+', 12],
      sub: ['-', 12],
      shl: ['<<', 11],
      shr: ['>>', 11],
      lt: ['<', 10],
      le: ['<=', 10],
      gt: ['>', 10],
      ge: ['>=', 10],
      eq: ['==', 9],
      ne: ['!=', 9],
      and: ['&', 8],
      xor: ['^', 7],
      or: ['|', 6],
    };
    const s = scalarOf(this.value(e.left));
    let [op, p] = ops[e.fn]!;
    if (s === 'bool' && e.fn === 'and') [op, p] = ['&&', 5];
    if (s === 'bool' && e.fn === 'or') [op, p] = ['||', 4];
    if (s === 'bool' && e.fn === 'xor') [op, p] = ['!=', 9];
    void id;
    return [`${this.ex(e.left, p)} ${op} ${this.ex(e.right, p + 1)}`, p];
  }

  private math(e: Extract<Expr, { op: 'math' }>, id: ExprId): string {
    const a = e.args.map((x) => this.ex(x));
    const names: Record<string, string> = {
      min: 'min',
      max: 'max',
      clamp: 'clamp',
      saturate: 'saturate',
      floor: 'floor',
      ceil: 'ceil',
      trunc: 'trunc',
      round: 'round',
      fract: 'frac',
      sqrt: 'sqrt',
      inverse_sqrt: 'rsqrt',
      exp2: 'exp2',
      log2: 'log2',
      sin: 'sin',
      cos: 'cos',
      tan: 'tan',
      asin: 'asin',
      acos: 'acos',
      atan: 'atan',
      sinh: 'sinh',
      cosh: 'cosh',
      tanh: 'tanh',
      fma: 'mad',
      dot: 'dot',
      count_one_bits: 'countbits',
      reverse_bits: 'reversebits',
      first_leading_bit: 'firstbithigh',
      first_trailing_bit: 'firstbitlow',
      all: 'all',
      any: 'any',
      abs: 'abs',
    };
    if (e.fn === 'pack2x16float') {
      const v = this.ex(e.args[0]!, 20);
      return `(f32tof16(${v}.x) | (f32tof16(${v}.y) << 16))`;
    }
    if (e.fn === 'unpack2x16float') {
      const v = this.ex(e.args[0]!, 11);
      return `float2(f16tof32(${v}), f16tof32(${v} >> 16))`;
    }
    const n = names[e.fn];
    if (!n) return refuse('operation not handled', e.fn);
    void id;
    return `${n}(${a.join(', ')})`;
  }

  private sample(e: Extract<Expr, { op: 'sample' }>): string {
    const img = this.types[e.image]!.type as Extract<Type, { kind: 'image' }>;
    let coord = this.ex(e.coord);
    if (e.arrayIndex !== undefined) {
      const w = widthOf(this.value(e.coord)) + 1;
      coord = `float${w}(${coord}, ${this.ex(e.arrayIndex)})`;
    }
    const tex = this.ex(e.image, 20);
    const smp = this.ex(e.sampler);
    const off = e.offset !== undefined ? `, ${this.ex(e.offset)}` : '';
    if (e.clamp !== undefined) refuse('operation not handled', 'a sample with a level-of-detail clamp');
    if (e.gather !== undefined) {
      const which = ['Red', 'Green', 'Blue', 'Alpha'][e.gather]!;
      if (e.depthRef !== undefined) return `${tex}.GatherCmp${which}(${smp}, ${coord}, ${this.ex(e.depthRef)}${off})`;
      return `${tex}.Gather${which}(${smp}, ${coord}${off})`;
    }
    const l = e.level;
    if (e.depthRef !== undefined) {
      const ref = this.ex(e.depthRef);
      if (l.kind === 'zero') return `${tex}.SampleCmpLevelZero(${smp}, ${coord}, ${ref}${off})`;
      if (l.kind === 'auto') return `${tex}.SampleCmp(${smp}, ${coord}, ${ref}${off})`;
      return refuse('operation not handled', `a comparison sample with level ${l.kind}`);
    }
    const depth = img.class.kind === 'depth' ? '.x' : '';
    switch (l.kind) {
      case 'auto':
        return `${tex}.Sample(${smp}, ${coord}${off})${depth}`;
      case 'zero':
        return `${tex}.SampleLevel(${smp}, ${coord}, 0.0${off})${depth}`;
      case 'exact':
        return `${tex}.SampleLevel(${smp}, ${coord}, ${this.ex(l.level)}${off})${depth}`;
      case 'bias':
        return `${tex}.SampleBias(${smp}, ${coord}, ${this.ex(l.bias)}${off})${depth}`;
      case 'gradient':
        return `${tex}.SampleGrad(${smp}, ${coord}, ${this.ex(l.x)}, ${this.ex(l.y)}${off})${depth}`;
    }
  }

  /** GetDimensions is a statement with out parameters: each query is a small helper function. */
  private imageQuery(e: Extract<Expr, { op: 'image_query' }>): string {
    const img = this.types[e.image]!.type as Extract<Type, { kind: 'image' }>;
    const g = this.exprs(e.image);
    const r = g.op === 'global' ? this.resources.get(g.global) : undefined;
    if (!r) return refuse('operation not handled', 'a query of a texture that is not a global');
    const decl = this.declaredTexture(r, img);
    const storage = img.class.kind === 'storage';
    const ms = img.class.kind !== 'storage' && img.class.multisampled;
    const dims = img.dim === '3d' ? ['w', 'h', 'd'] : ['w', 'h'];
    const outs = [...dims, ...(img.arrayed ? ['layers'] : []), ...(ms ? ['samples'] : storage ? [] : ['levels'])];
    const takesLevel = !storage && !ms;
    if (e.query === 'levels' && !takesLevel) return refuse('operation not handled', `levels of ${decl}`);
    if (e.query === 'samples' && !ms) return refuse('operation not handled', `samples of ${decl}`);
    const fnName = `iridia_${e.query}_${decl.replace(/[^A-Za-z0-9]/g, '')}`;
    const ret = e.query === 'size' ? (dims.length === 1 ? 'uint' : `uint${dims.length}`) : 'uint';
    const result = e.query === 'size' ? `${ret}(${dims.join(', ')})` : e.query;
    const params = `${decl} t${takesLevel ? ', uint level' : ''}`;
    this.helpers.add(
      [
        `${ret} ${fnName}(${params})`,
        '{',
        `    uint ${outs.join(', ')};`,
        `    t.GetDimensions(${[...(takesLevel ? ['level'] : []), ...outs].join(', ')});`,
        `    return ${result};`,
        '}',
        '',
      ].join('\n'),
    );
    const level = takesLevel ? `, ${e.level !== undefined && e.query === 'size' ? this.ex(e.level) : '0u'}` : '';
    return `${fnName}(${this.ex(e.image)}${level})`;
  }

  private declaredTexture(r: Resource, img: Extract<Type, { kind: 'image' }>): string {
    const k = r.kind;
    if (k.kind === 'texture') return this.textureType(k.dimension, img);
    if (k.kind === 'uav' && img.class.kind === 'storage') {
      const f = img.class.format;
      const s = f.endsWith('uint') ? 'uint' : f.endsWith('sint') ? 'int' : 'float';
      const n = f.startsWith('r32') ? '' : '4';
      const hd = k.dimension === '2d' ? 'Texture2D' : k.dimension === '2darray' ? 'Texture2DArray' : 'Texture3D';
      return `RW${hd}<${s}${n}>`;
    }
    return refuse('operation not handled', `a query of a ${k.kind}`);
  }

  // ---- private globals with an initializer (the immediate constant buffer, sample positions)

  /** `static const uint4 icb[3] = { uint4(1u, 2u, 3u, 4u), ... };` (a row a line) for a private global whose value is
   * a module constant: an array of scalars or vectors, its words as literals of the element's type. */
  private constantArrayDecl(gi: number, want: string, t: Type, init: number | undefined): string {
    const c = init === undefined ? undefined : this.m.constants[init];
    const el = t.kind === 'array' && t.length !== null ? this.m.types[t.base]! : undefined;
    if (!c || !el || (el.kind !== 'scalar' && el.kind !== 'vector') || t.kind !== 'array' || t.length === null)
      return refuse('resource kind not handled', `private global ${want}`);
    const width = el.kind === 'vector' ? el.size : 1;
    if (c.words.length !== width * t.length) return refuse('resource kind not handled', `private global ${want}`);
    const name = this.unique(want);
    this.globalNames.set(gi, name);
    const rows = Array.from({ length: t.length }, (_, i) => {
      const lits = c.words.slice(i * width, (i + 1) * width).map((w) => literalText(el.scalar, w));
      return width === 1 ? lits[0]! : `${typeText(el)}(${lits.join(', ')})`;
    });
    return [
      `static const ${typeText(el)} ${name}[${t.length}] =`,
      '{',
      ...rows.map((r, i) => `    ${r}${i < rows.length - 1 ? ',' : ''}`),
      '};',
    ].join('\n');
  }

  // ---- hidden counters (IncrementCounter / DecrementCounter)

  /** Counter globals (lift/counter.ts), by global: the structured UAV whose counter each is. */
  private readonly counters = new Map<number, number>();

  /** Whether global `gi` is the hidden counter of a structured UAV (one atomic<u32>, not a range's). */
  private isCounter(gi: number, t: Type): boolean {
    const owner = [...this.resources.values()].find((x) => x.counter?.global === gi);
    if (!owner || t.kind !== 'atomic') return false;
    if (owner.kind.kind !== 'uav' || owner.kind.view !== 'structured')
      refuse(
        'resource kind not handled',
        `${owner.name}: a hidden counter of a ${owner.kind.kind} that is not a structured UAV`,
      );
    this.counters.set(gi, owner.global);
    return true;
  }

  /** The counter's update (counter.ts updateCounter): an atomic add of 1 is `IncrementCounter()`, whose
   * value is the count before; of 0xffffffff, `DecrementCounter()`, whose value is the count after, so
   * the IR's value before is that + 1. */
  private counterUpdate(s: Extract<Stmt, { op: 'atomic' }>, pad: string, out: string[]): boolean {
    const g = this.exprs(s.pointer);
    const owner = g.op === 'global' ? this.counters.get(g.global) : undefined;
    if (owner === undefined) return false;
    const v = s.value === undefined ? undefined : this.exprs(s.value);
    const step = s.fn === 'add' && v?.op === 'literal' ? v.bits >>> 0 : undefined;
    if (step !== 1 && step !== 0xffffffff)
      return refuse('operation not handled', 'a counter update other than +1 or -1');
    const name = this.globalNames.get(owner)!;
    const call = step === 1 ? `${name}.IncrementCounter()` : `${name}.DecrementCounter() + 1u`;
    if (s.result === undefined) out.push(`${pad}${name}.${step === 1 ? 'IncrementCounter' : 'DecrementCounter'}();`);
    else out.push(`${pad}uint ${this.letName(s.result, { kind: 'scalar', scalar: 'u32' })} = ${call};`);
    return true;
  }

  // ---- structured and typed buffer views

  private readonly views = new Map<number, BufferView>();
  private readonly viewHelpers = new Map<string, string>();
  private readonly wordStructs = new Set<number>();

  /** A structured or typed buffer view's declaration (`RWStructuredBuffer<Particle> Out : register(u0);`,
   * `Buffer<float4> t0 : register(t0);`), or undefined for another kind of resource. The element
   * type is the RDEF's (its struct, declared with the constant buffers' structs); without an RDEF a
   * structured element is `uint`, `uintN` or a struct of `uint w[N]` by stride. */
  private bufferViewDecl(
    gi: number,
    r: Resource,
    t: Type,
    name: string,
    reg: string,
    collect: (t: RdefType, hint?: string) => void,
    out: string[],
  ): boolean {
    const k = r.kind;
    if (k.kind === 'uav' && k.texels)
      refuse('resource kind not handled', `${name}: a typed ${k.dimension} view used atomically (held as texel words)`);
    if (k.kind !== 'buffer' && k.kind !== 'uav') return false;
    if (k.view === 'raw' || (k.kind === 'uav' && (k.dimension !== 'buffer' || k.texels || k.elementWords)))
      return false;
    if (t.kind !== 'array') return false;
    const rw = k.kind === 'uav';
    const reflected = r.reflectedName;
    if (k.view === 'structured') {
      const stride = k.stride ?? 4;
      const n = stride / 4;
      const el = reflected
        ? this.rdef?.constantBuffers.find((c) => c.name === reflected && c.type === 3)?.variables[0]?.type
        : undefined;
      let elType: string;
      let words: ElementWord[];
      if (el) {
        const m = new Map<number, ElementWord>();
        if (
          !structuredWords(el, 0, '', m, stride) ||
          m.size !== n ||
          el.elements > 0 ||
          el.class === 2 ||
          el.class === 3
        )
          refuse(
            'resource kind not handled',
            `${name}: a structured element of ${stride} bytes whose words are not all 32-bit scalars of one member each`,
          );
        words = Array.from(
          { length: n },
          (_, i) => m.get(i) ?? refuse('resource kind not handled', `${name}: word ${i} of its element is padding`),
        );
        if (el.class === 5) collect(el);
        elType = rdefTypeName(el, this.structName);
      } else if (n <= 4) {
        elType = n === 1 ? 'uint' : `uint${n}`;
        words = Array.from({ length: n }, (_, i) => ({ path: n === 1 ? '' : `.${COMP[i]}`, scalar: 'u32' as const }));
      } else {
        elType = `iridia_words${n}`;
        if (!this.wordStructs.has(n)) {
          this.wordStructs.add(n);
          out.push(`struct ${elType}`, '{', `    uint w[${n}];`, '};');
        }
        words = Array.from({ length: n }, (_, i) => ({ path: `.w[${i}]`, scalar: 'u32' as const }));
      }
      out.push(`${rw ? 'RW' : ''}StructuredBuffer<${elType}> ${name} : ${reg};`);
      this.views.set(gi, { name, structured: true, words, scalar: mostWords(words) });
      return true;
    }
    const binding = reflected ? this.rdef?.bindings.find((b) => b.name === reflected) : undefined;
    const s = returnScalar(binding?.returnType);
    const base = this.m.types[t.base]!;
    const lanes = base.kind === 'vector' ? 4 : 1;
    const decl = `${rw ? 'RW' : ''}Buffer<${SCALAR[s]}${lanes === 4 ? '4' : ''}>`;
    out.push(`${decl} ${name} : ${reg};`);
    this.views.set(gi, { name, structured: false, words: [{ path: '', scalar: s }], scalar: s });
    return true;
  }

  /** `access(global, index)` of a structured or typed buffer view. */
  private viewAccess(e: Expr): { v: BufferView; index: ExprId } | undefined {
    if (e.op !== 'access') return undefined;
    const b = this.exprs(e.base);
    if (b.op !== 'global') return undefined;
    const v = this.views.get(b.global);
    return v ? { v, index: e.index } : undefined;
  }

  /** The element (typed) or the word of the element (structured, one word an element) at `index`,
   * as an lvalue; undefined where an element has more words (read and written by helpers). */
  private viewLvalue(v: BufferView, index: ExprId): { text: string; scalar: Scalar } | undefined {
    if (v.words.length !== 1) return undefined;
    const w = v.words[0]!;
    return { text: `${v.name}[${this.ex(index)}]${w.path}`, scalar: w.scalar };
  }

  /** A word (structured) or element (typed) of a view as the HLSL declares it: the member (one word an
   * element), the element (typed), or the `word` helper's call, and the scalar that is. */
  private viewNative(v: BufferView, index: ExprId): { text: string; scalar: Scalar } {
    const l = this.viewLvalue(v, index);
    if (l) return l;
    return { text: `${this.viewHelper(v, 'word')}(${this.ex(index)})`, scalar: v.scalar };
  }

  /** A word (structured) or element (typed) of a view, read as `want` (the IR's u32 lanes unless a
   * bitcast reads them). */
  private viewLoad(v: BufferView, index: ExprId, want: Scalar = 'u32'): string {
    const n = this.viewNative(v, index);
    return castText(n.scalar, want, n.text);
  }

  /** A store of the IR's u32 lanes to a word (structured) or element (typed) of a view, the value
   * written as the view's own scalar. */
  private viewStore(v: BufferView, index: ExprId, value: ExprId): string {
    const l = this.viewLvalue(v, index);
    if (l) return `${l.text} = ${this.exAs(value, l.scalar)};`;
    return `${this.viewHelper(v, 'store')}(${this.ex(index)}, ${this.exAs(value, v.scalar)});`;
  }

  // ---- groupshared arrays typed by their uses

  /** Groupshared arrays the HLSL declares with another scalar than the IR's u32 words. */
  private readonly sharedScalars = new Map<number, Scalar>();

  /**
   * The scalar a groupshared array of u32 words (one dimension) is declared as, by its uses in the
   * entry function, as fold.ts types a local: a store of `bitcast<u32>(x)` (or a swizzle of it) with
   * x of S votes S, a load read through `bitcast<S>` votes S, a literal store none, every other load
   * or store u32; S where it outvotes u32. An array used any other way (an atomic, a whole read)
   * stays u32. The words are the same either way: reads and writes cast where the use is another type.
   */
  private sharedScalar(gi: number, t: Type): Scalar | undefined {
    if (t.kind !== 'array' || this.m.types[t.base]!.kind !== 'scalar') return undefined;
    if ((this.m.types[t.base] as Extract<Type, { kind: 'scalar' }>).scalar !== 'u32') return undefined;
    const ep = this.p.module.entryPoints[0];
    if (!ep) return undefined;
    const fn = this.m.functions[ep.function]!;
    const types = resolveFunction(this.m, fn);
    const scalar = (x: ExprId): Scalar | undefined => scalarOf(types[x]!.type);
    const element = (ptr: ExprId): boolean => {
      const p = fn.exprs[ptr]!;
      if (p.op !== 'access' && p.op !== 'member') return false;
      const b = fn.exprs[p.base]!;
      return b.op === 'global' && b.global === gi;
    };
    const votes = new Map<Scalar, number>();
    const vote = (s: Scalar): void => void votes.set(s, (votes.get(s) ?? 0) + 1);
    let other = false;
    const seen = new Set<ExprId>();
    /** The index of an element pointer (a member's is a constant). */
    const indexOf = (ptr: ExprId): ExprId | undefined => {
      const p = fn.exprs[ptr]!;
      return p.op === 'access' ? p.index : undefined;
    };
    const visit = (id: ExprId): void => {
      if (seen.has(id)) return;
      seen.add(id);
      const e = fn.exprs[id]!;
      const read = e.op === 'bitcast' ? fn.exprs[e.value]! : e;
      if (read.op === 'load' && element(read.pointer)) {
        vote(e.op === 'bitcast' ? e.to : 'u32');
        const ix = indexOf(read.pointer);
        if (ix !== undefined) visit(ix);
        return;
      }
      // the array reached another way than a word's load or store: an atomic, a whole read
      if (element(id) || (e.op === 'global' && e.global === gi)) other = true;
      for (const c of childrenOf(e)) visit(c);
    };
    const stored = (v: ExprId): Scalar | 'none' => {
      const e = fn.exprs[v]!;
      if (e.op === 'literal') return 'none';
      const inner = e.op === 'swizzle' ? fn.exprs[e.vector]! : e;
      return inner.op === 'bitcast' ? (scalar(inner.value) ?? 'u32') : 'u32';
    };
    walkStmts(fn.body, (st) => {
      if (st.op === 'store' && element(st.pointer)) {
        const s = stored(st.value);
        if (s !== 'none') vote(s);
        const ix = indexOf(st.pointer);
        if (ix !== undefined) visit(ix);
        visit(st.value);
        return;
      }
      for (const x of stmtExprs(st)) visit(x);
    });
    if (other) return undefined;
    const plain = votes.get('u32') ?? 0;
    let best: Scalar | undefined;
    for (const s of ['f32', 'i32'] as const)
      if ((votes.get(s) ?? 0) > Math.max(plain, best ? votes.get(best)! : 0)) best = s;
    return best;
  }

  /** The lvalue an atomic on a view's word works on: a u32 word, one an element (an atomic on a
   * signed or float word would compare or add as another type than the IR's u32). */
  private viewAtomicTarget(v: BufferView, index: ExprId): string {
    const l = this.viewLvalue(v, index);
    if (!l)
      return refuse(
        'resource kind not handled',
        `${v.name}: an atomic on a structured element of ${v.words.length} words`,
      );
    if (l.scalar !== 'u32') refuse('resource kind not handled', `${v.name}: an atomic on a ${SCALAR[l.scalar]} word`);
    return l.text;
  }

  /** The IR's array_length of a view: words (structured), elements (typed). */
  private viewLength(v: BufferView): string {
    return `${this.viewHelper(v, 'length')}()`;
  }

  /** A helper function over one view: `word` (read word w of the element array), `store` (write it),
   * `length` (the IR's array_length over GetDimensions). Exact for every w the IR reads: element
   * word / N, word % N of it, as the member that holds it. */
  private viewHelper(v: BufferView, kind: 'word' | 'store' | 'length'): string {
    const key = `${v.name}/${kind}`;
    const have = this.viewHelpers.get(key);
    if (have) return have;
    const fnName = this.unique(`${v.name}_${kind}`);
    this.viewHelpers.set(key, fnName);
    const n = v.words.length;
    const lines: string[] = [];
    if (kind === 'length') {
      if (v.structured)
        lines.push(
          `uint ${fnName}()`,
          '{',
          '    uint count, stride;',
          `    ${v.name}.GetDimensions(count, stride);`,
          `    return count * ${n}u;`,
          '}',
        );
      else
        lines.push(
          `uint ${fnName}()`,
          '{',
          '    uint count;',
          `    ${v.name}.GetDimensions(count);`,
          '    return count;',
          '}',
        );
    } else {
      // words of one scalar are read and written as it; words of several as the IR's u32
      const s = v.scalar;
      lines.push(
        kind === 'word' ? `${SCALAR[s]} ${fnName}(uint word)` : `void ${fnName}(uint word, ${SCALAR[s]} value)`,
        '{',
      );
      lines.push(`    uint element = word / ${n}u;`, `    uint k = word % ${n}u;`);
      v.words.forEach((w, i) => {
        const at = `${v.name}[element]${w.path}`;
        const body =
          kind === 'word' ? `return ${castText(w.scalar, s, at)};` : `${at} = ${castText(s, w.scalar, 'value')};`;
        const cond = i === n - 1 ? (i === 0 ? '' : 'else ') : `${i === 0 ? '' : 'else '}if (k == ${i}u) `;
        lines.push(kind === 'word' && i === n - 1 ? `    ${body}` : `    ${cond}${body}`);
      });
      lines.push('}');
    }
    this.helpers.add([...lines, ''].join('\n'));
    return fnName;
  }

  private imageLoad(e: Extract<Expr, { op: 'image_load' }>): string {
    const img = this.types[e.image]!.type as Extract<Type, { kind: 'image' }>;
    const tex = this.ex(e.image, 20);
    const cw = widthOf(this.value(e.coord));
    const cs = scalarOf(this.value(e.coord))!;
    const parts = [this.ex(e.coord)];
    if (e.arrayIndex !== undefined) parts.push(this.ex(e.arrayIndex));
    const n = cw + (e.arrayIndex !== undefined ? 1 : 0);
    if (img.class.kind === 'storage') {
      const c = n === 1 ? parts[0]! : `${SCALAR[cs]}${n}(${parts.join(', ')})`;
      const one = img.class.format.startsWith('r32');
      const s = img.class.format.endsWith('uint') ? 'uint' : img.class.format.endsWith('sint') ? 'int' : 'float';
      return one ? `${s}4(${tex}[${c}], 0, 0, 0)` : `${tex}[${c}]`;
    }
    if (img.class.multisampled) {
      const c = n === 1 ? parts[0]! : `${SCALAR[cs]}${n}(${parts.join(', ')})`;
      return `${tex}.Load(${c}, ${this.ex(e.sample!)})${img.class.kind === 'depth' ? '.x' : ''}`;
    }
    parts.push(e.level !== undefined ? this.ex(e.level) : '0');
    return `${tex}.Load(${SCALAR[cs]}${n + 1}(${parts.join(', ')}))${img.class.kind === 'depth' ? '.x' : ''}`;
  }
}

function zeroText(t: Type, type: (id: TypeId) => Type): string {
  if (t.kind === 'scalar' || t.kind === 'vector') return `(${typeText(t)})0`;
  if (t.kind === 'array' && t.length !== null) {
    const el = zeroText(type(t.base), type);
    return `{ ${Array.from({ length: t.length }, () => el).join(', ')} }`;
  }
  return refuse('operation not handled', `a zero ${t.kind}`);
}

function interp(b: Binding | undefined): string {
  if (!b || b.kind !== 'location') return '';
  const parts: string[] = [];
  if (b.interpolation === 'flat') parts.push('nointerpolation');
  if (b.interpolation === 'linear') parts.push('noperspective');
  if (b.sampling === 'centroid') parts.push('centroid');
  if (b.sampling === 'sample') parts.push('sample');
  return parts.length ? `${parts.join(' ')} ` : '';
}

/** A field name from a signature element: the semantic in lower case, its index when not 0. */
function readableField(v: Varying | undefined, fallback: string): string {
  if (!v) return fallback;
  const base = v.semantic.replace(/^SV_/i, '').toLowerCase();
  return v.semanticIndex ? `${base}${v.semanticIndex}` : base;
}

/** One 32-bit word of a structured buffer's element: its access path (`.pos.x`, `[2]`, `` for a
 * one-word element) and its scalar type. */
interface ElementWord {
  readonly path: string;
  readonly scalar: Scalar;
}

/** A structured or typed buffer view, as declared: how a word of the IR's word array (structured),
 * or an element (typed), is read, written and used atomically. */
interface BufferView {
  readonly name: string;
  readonly structured: boolean;
  /** Structured: the words of one element, in order (stride / 4 of them). Typed: one entry, the
   * element's scalar, path '' (the IR's element is the view's element). */
  readonly words: readonly ElementWord[];
  /** The scalar most of the words have (u32 where none has more than the others): the helpers
   * read and write the words as it, casting those of another scalar. */
  readonly scalar: Scalar;
}

/** The words of an element of a structured buffer of RDEF type `t` (tightly packed, as structured
 * buffers are: arrays without 16-byte rounding, matrices by row or column), by byte offset / 4;
 * undefined where a word is not a 32-bit scalar of a known type. */
function structuredWords(
  t: RdefType,
  offset: number,
  path: string,
  words: Map<number, ElementWord>,
  stride: number,
): boolean {
  if (!declarable(t)) return false;
  const count = Math.max(1, t.elements);
  const one = structuredSize(t);
  if (one === undefined) return false;
  // a word past the buffer's stride (the lifter's dcl, at most 2,048 bytes) is in no element
  if (!(offset >= 0 && offset + count * one <= stride)) return false;
  for (let e = 0; e < count; e++) {
    const at = offset + e * one;
    const p = t.elements > 0 ? `${path}[${e}]` : path;
    if (t.class === 5) {
      for (const m of t.members)
        if (!structuredWords(m.type, at + m.offset, `${p}.${m.name}`, words, stride)) return false;
      continue;
    }
    const s = RDEF_SCALAR[t.type];
    if (s === undefined || s === 'bool' || t.type >= 57) return false;
    const put = (k: number, q: string): boolean => {
      if (words.has(at / 4 + k)) return false;
      words.set(at / 4 + k, { path: q, scalar: s });
      return true;
    };
    if (t.class === 0) {
      if (!put(0, p)) return false;
    } else if (t.class === 1) {
      for (let c = 0; c < t.columns; c++) if (!put(c, `${p}.${COMP[c]}`)) return false;
    } else if (t.class === 2 || t.class === 3) {
      for (let r = 0; r < t.rows; r++)
        for (let c = 0; c < t.columns; c++)
          if (!put(t.class === 2 ? r * t.columns + c : c * t.rows + r, `${p}._m${r}${c}`)) return false;
    } else return false;
  }
  return true;
}

/** Bytes of one element of `t` in a structured buffer (tightly packed). */
function structuredSize(t: RdefType): number | undefined {
  if (t.class === 0) return 4;
  if (t.class === 1) return 4 * t.columns;
  if (t.class === 2 || t.class === 3) return 4 * t.rows * t.columns;
  if (t.class === 5) {
    let end = 0;
    for (const m of t.members) {
      const n = structuredSize(m.type);
      if (n === undefined) return undefined;
      end = Math.max(end, m.offset + n * Math.max(1, m.type.elements));
    }
    return end;
  }
  return undefined;
}

/** D3D_RESOURCE_RETURN_TYPE as the scalar an HLSL view returns: 3 sint, 4 uint, else float. */
function returnScalar(t: number | undefined): Scalar {
  return t === 3 ? 'i32' : t === 4 ? 'u32' : t === undefined ? 'u32' : 'f32';
}

/** The scalar most words of an element have; u32 on a tie. */
function mostWords(words: readonly ElementWord[]): Scalar {
  const n = new Map<Scalar, number>();
  for (const w of words) n.set(w.scalar, (n.get(w.scalar) ?? 0) + 1);
  const top = Math.max(...n.values());
  const best = [...n].filter(([, k]) => k === top);
  return best.length === 1 ? best[0]![0] : 'u32';
}

/** HLSL's bitcast of `text`, a value of scalar `from`, to `to` (the text itself when they are one). */
function castText(from: Scalar, to: Scalar, text: string): string {
  if (from === to) return text;
  return `${to === 'f32' ? 'asfloat' : to === 'i32' ? 'asint' : 'asuint'}(${text})`;
}
