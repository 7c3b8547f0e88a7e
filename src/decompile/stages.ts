// HLSL for the stages lifted as stage functions (src/lift/stage.ts; src/ir/program.ts
// StageFunctions): geometry, domain and hull programs, whose inputs and outputs the IR holds as
// register files (32 registers of four u32 lanes: `v_in[vertex][register]`, `vicp`, `vpc`, `vocp`,
// the geometry program's private `o`, the hull program's private `pc`, a function's `outputs`), and
// a vertex program that feeds a tessellator (lifted as a function without bindings).
//
// The HLSL has structs of the signature elements instead of register files: a lane of a register
// is the field component of the element that covers it (docs/decompile.md "Stages"). A read of a
// register prints as its fields (`input[i].position`, `float4(cp[0].normal, 0.0f)`), a store to an
// output register writes the fields that cover its lanes (a lane no element covers is not an
// output and no later stage reads it), and the IR's `emit`/`cut` are `stream.Append(output)` and
// `stream.RestartStrip()`. What does not fit this (a register read at a computed index, a whole
// register file used as a value) is refused by name.

import { makeFunction, moduleWith, ownArg } from '../ir/nodes.js';
import type { Binding, Expr, ExprId, Function, Scalar, Stmt, Type } from '../ir/ir.js';
import type { Program, Varying } from '../ir/program.js';
import { refuse } from './refuse.js';

const SCALAR: Readonly<Record<Scalar, string>> = { f32: 'float', i32: 'int', u32: 'uint', bool: 'bool' };
const COMP = 'xyzw';

/** The binding a signature element has as an entry argument or result member (the interface keeps
 * it where the function, lifted without bindings, does not). */
function bindingOf(v: Varying | undefined): Binding | undefined {
  if (!v) return undefined;
  if (v.builtin !== undefined)
    return { kind: 'builtin', builtin: v.builtin as Extract<Binding, { kind: 'builtin' }>['builtin'] };
  if (v.location !== undefined) return { kind: 'location', location: v.location };
  return undefined;
}

/**
 * A vertex program lifted as a stage function (it feeds a tessellator, or writes UAVs) as the
 * vertex entry point it is: the same function, its arguments and result members bound as the
 * interface's varyings are. The executor runs it (runVertex) and the HLSL printer prints it as an
 * ordinary vertex program; only bindings are added, so every word it computes is the same.
 */
export function vertexEntry(p: Program): Program {
  const sf = p.stageFunctions;
  if (p.stage !== 'vertex' || !sf) return p;
  const m = p.module;
  const fn = m.functions[sf.main];
  if (!fn) return refuse('stage not handled', 'a vertex program without its function');
  const inputs = new Map(p.interface.inputs.map((v) => [v.name, v]));
  const outputs = new Map(p.interface.outputs.map((v) => [v.name, v]));
  const types = [...m.types];
  const args = fn.args.map((a) => {
    const b = a.binding ?? bindingOf(inputs.get(a.name));
    return b ? ownArg({ name: a.name, type: a.type, binding: b }) : a;
  });
  let result = fn.result;
  if (result) {
    const rt = types[result.type]!;
    if (rt.kind === 'struct') {
      types.push({
        ...rt,
        members: rt.members.map((mb) => {
          const b = mb.binding ?? bindingOf(outputs.get(mb.name));
          return b ? { ...mb, binding: b } : mb;
        }),
      });
      result = { type: types.length - 1 };
    } else if (!result.binding) {
      const b = bindingOf([...outputs.values()][0]);
      result = b ? { ...result, binding: b } : result;
    }
  }
  const functions = m.functions.map((f, i) =>
    i === sf.main ? makeFunction(fn.name, args, fn.locals, fn.lets, fn.exprs, fn.body, result) : f,
  );
  const module = moduleWith(m, {
    types,
    functions,
    entryPoints: [{ name: 'main', stage: 'vertex', function: sf.main }],
  });
  const { stageFunctions: _dropped, ...rest } = p;
  void _dropped;
  return { ...rest, module };
}

/** One lane of a register file as HLSL: the field (`position`, `tessfactor[1]`) and its component. */
export interface FieldLane {
  readonly field: string;
  readonly scalar: Scalar;
  /** The component of a vector field (0..3); -1 for a scalar field. */
  readonly comp: number;
}

/** A struct of signature elements and where each register lane is in it. */
export interface Layout {
  readonly name: string;
  readonly lines: readonly string[];
  /** By register * 4 + lane. */
  readonly lanes: ReadonlyMap<number, FieldLane>;
  /** Array fields (tessellation factors, a patch's arrays of one semantic): the field, its lanes and
   * the register of each index. */
  readonly arrays: readonly { readonly field: string; readonly mask: number; readonly registers: readonly number[] }[];
}

const TESS: Readonly<Record<string, readonly [number, number]>> = { tri: [3, 1], quad: [4, 2], isoline: [2, 0] };

function scalarOfComponent(c: number): Scalar {
  if (c === 1) return 'u32';
  if (c === 2) return 'i32';
  if (c === 3) return 'f32';
  return refuse('system value not handled', `a signature element of component type ${c}`);
}

function lanesOf(mask: number): number[] {
  return [0, 1, 2, 3].filter((k) => mask & (1 << k));
}

/** The HLSL semantic of an element: a system value without its index 0 (`SV_Position`). */
function semanticText(v: Varying): string {
  return /^SV_/i.test(v.semantic) && v.semanticIndex === 0 ? v.semantic : `${v.semantic}${v.semanticIndex}`;
}

/** Names for the fields of one struct: `want` made an identifier, not a reserved word, and unique
 * in the struct (`color`, `color_1`). */
export function fieldNames(reserved: ReadonlySet<string>): (want: string) => string {
  const fields = new Set<string>();
  return (want) => {
    let n = want.replace(/[^A-Za-z0-9_]/g, '_');
    if (reserved.has(n)) n = `${n}_`;
    let k = n;
    for (let i = 1; fields.has(k); i++) k = `${n}_${i}`;
    fields.add(k);
    return k;
  };
}

/** A struct of signature elements, fields named after their semantics (as the printer's entry
 * structs); the tessellation factors of a patch as the arrays HLSL declares them with. */
export function layout(
  name: string,
  elements: readonly Varying[],
  domain: string | undefined,
  reserved: ReadonlySet<string>,
  patch = false,
): Layout {
  const lines: string[] = [];
  const lanes = new Map<number, FieldLane>();
  const arrays: { field: string; mask: number; registers: number[] }[] = [];
  const field = fieldNames(reserved);
  const done = new Set<Varying>();
  for (const v of elements) {
    if (done.has(v)) continue;
    const s = scalarOfComponent(v.componentType);
    const ls = lanesOf(v.mask);
    if (ls.length === 0) continue;
    const tess = /^SV_(Inside)?TessFactor$/i.test(v.semantic);
    if (tess) {
      const inside = /^SV_Inside/i.test(v.semantic);
      const group = elements.filter((w) => w.semantic.toUpperCase() === v.semantic.toUpperCase());
      const expected = domain ? TESS[domain]?.[inside ? 1 : 0] : undefined;
      const count = expected ?? Math.max(...group.map((w) => w.semanticIndex)) + 1;
      const registers: number[] = [];
      for (const w of group) {
        const wl = lanesOf(w.mask);
        if (wl.length !== 1 || w.semanticIndex >= count || wl[0] !== ls[0])
          refuse(
            'system value not handled',
            `${w.semantic}${w.semanticIndex} is not one lane of a ${count}-factor array`,
          );
        registers[w.semanticIndex] = w.register;
        done.add(w);
      }
      const f = field(inside ? 'inside' : 'edges');
      const scalar = count === 1 && inside;
      lines.push(`    ${SCALAR[s]} ${f}${scalar ? '' : `[${count}]`} : ${v.semantic};`);
      group.forEach((w) =>
        lanes.set(w.register * 4 + ls[0]!, { field: scalar ? f : `${f}[${w.semanticIndex}]`, scalar: s, comp: -1 }),
      );
      if (!scalar) arrays.push({ field: f, mask: v.mask, registers });
      continue;
    }
    // a patch constant of one semantic at indices 0..n-1 in consecutive registers: an array
    const run = patch
      ? elements.filter(
          (w) =>
            w.semantic.toUpperCase() === v.semantic.toUpperCase() &&
            w.mask === v.mask &&
            w.componentType === v.componentType &&
            w.register - w.semanticIndex === v.register - v.semanticIndex,
        )
      : [];
    if (
      v.semanticIndex === 0 &&
      run.length > 1 &&
      run.every((w, k) => run.findIndex((x) => x.semanticIndex === k) >= 0)
    ) {
      const f = field(v.semantic.replace(/^SV_/i, '').toLowerCase());
      lines.push(`    ${SCALAR[s]}${ls.length > 1 ? ls.length : ''} ${f}[${run.length}] : ${v.semantic};`);
      const registers: number[] = [];
      for (const w of run) {
        done.add(w);
        registers[w.semanticIndex] = w.register;
        ls.forEach((lane, k) =>
          lanes.set(w.register * 4 + lane, {
            field: `${f}[${w.semanticIndex}]`,
            scalar: s,
            comp: ls.length > 1 ? k : -1,
          }),
        );
      }
      arrays.push({ field: f, mask: v.mask, registers });
      continue;
    }
    done.add(v);
    const base = v.semantic.replace(/^SV_/i, '').toLowerCase();
    const f = field(v.semanticIndex ? `${base}${v.semanticIndex}` : base);
    lines.push(`    ${SCALAR[s]}${ls.length > 1 ? ls.length : ''} ${f} : ${semanticText(v)};`);
    ls.forEach((lane, k) => lanes.set(v.register * 4 + lane, { field: f, scalar: s, comp: ls.length > 1 ? k : -1 }));
  }
  return { name, lines: [`struct ${name}`, '{', ...lines, '};', ''], lanes, arrays };
}

/** A register file of the IR and the HLSL that holds it. */
export interface File {
  readonly layout: Layout;
  /** The HLSL value (`input`, `cp`, `patch`, `output`). */
  readonly text: string;
  /** An array of register files, one a vertex or control point (indexed first). */
  readonly perVertex: boolean;
  /** Written by the program (its outputs): stores go to its fields. */
  readonly output: boolean;
  /** A lane no element covers reads as zero (an input: nothing supplies it); else it is refused. */
  readonly zeroUncovered: boolean;
}

/** What the printer gives the files: the function's expressions and types, and its expression text. */
export interface Printer {
  exprs(id: ExprId): Expr;
  type(id: ExprId): Type;
  ex(id: ExprId, prec?: number): string;
  exAs(id: ExprId, s: Scalar): string;
}

/** A place in a register file: the vertex (an expression), the register (a number, or an
 * expression where it is computed) and the lane. Every key is always present: a place is refined by
 * a new literal, not by a spread that adds a key (V8's slow path, ir.ts copyWithOrigin). */
interface Place {
  readonly file: File;
  /** The vertex or control point's index, as HLSL. */
  readonly vertex: string | undefined;
  readonly register: number | ExprId | undefined;
  readonly lane: number | undefined;
  readonly dynamic: boolean;
}

function castText(from: Scalar, to: Scalar, text: string): string {
  if (from === to) return text;
  return `${to === 'f32' ? 'asfloat' : to === 'i32' ? 'asint' : 'asuint'}(${text})`;
}

function zeroOf(s: Scalar): string {
  return s === 'f32' ? '0.0f' : s === 'i32' ? '0' : s === 'bool' ? 'false' : '0u';
}

/** The register files of one function: reads and stores through the structs. */
export class Files {
  readonly byLocal = new Map<number, File>();
  readonly byGlobal = new Map<number, File>();
  readonly byArg = new Map<number, File>();
  /** The range of values a computed register index takes, where the printer knows it. */
  range: (index: ExprId) => readonly [number, number] | undefined = () => undefined;

  constructor(private readonly p: Printer) {}

  /** Where a pointer (or a value read through loads) is in a register file, or undefined. */
  private place(id: ExprId): Place | undefined {
    const e = this.p.exprs(id);
    if (e.op === 'local' || e.op === 'global' || e.op === 'arg') {
      const file =
        e.op === 'local'
          ? this.byLocal.get(e.local)
          : e.op === 'global'
            ? this.byGlobal.get(e.global)
            : this.byArg.get(e.index);
      return file ? { file, vertex: undefined, register: undefined, lane: undefined, dynamic: false } : undefined;
    }
    if (e.op === 'load') return this.place(e.pointer);
    if (e.op !== 'member' && e.op !== 'access') return undefined;
    const b = this.place(e.base);
    if (!b) return undefined;
    let index: number | ExprId = e.op === 'member' ? e.index : e.index;
    let dynamic = e.op === 'access';
    if (e.op === 'access') {
      const x = this.p.exprs(e.index);
      if (x.op === 'literal') {
        index = x.bits >>> 0;
        dynamic = false;
      }
    }
    if (b.file.perVertex && b.vertex === undefined) {
      const v = dynamic ? this.p.ex(index as ExprId) : String(index);
      return { file: b.file, vertex: v, register: b.register, lane: b.lane, dynamic: b.dynamic };
    }
    if (b.register === undefined) return { file: b.file, vertex: b.vertex, register: index, lane: b.lane, dynamic };
    if (b.lane === undefined && !dynamic)
      return { file: b.file, vertex: b.vertex, register: b.register, lane: index as number, dynamic: b.dynamic };
    return refuse('operation not handled', 'a register lane at a computed index');
  }

  /** The vertex or control point a place's field is read through: `input[i]`, `patch`. */
  private owner(pl: Place): string {
    if (!pl.file.perVertex) return pl.file.text;
    if (pl.vertex === undefined)
      return refuse('operation not handled', `a whole ${pl.file.text} array used as a value`);
    return `${pl.file.text}[${pl.vertex}]`;
  }

  /** A lane's field text and scalar, or undefined where no element covers it. */
  private lane(pl: Place, register: number, lane: number): FieldLane | undefined {
    return pl.file.layout.lanes.get(register * 4 + lane);
  }

  /**
   * The HLSL of a read of register lanes (a `load` of a register, through swizzles, lane members and
   * bitcasts), as scalar `want` (default: the outermost bitcast's, else u32). Undefined when `id`
   * reads no register file.
   */
  read(id: ExprId, want?: Scalar, native = false): string | undefined {
    let e = this.p.exprs(id);
    let to: Scalar | undefined = want;
    let pick: number[] | undefined;
    let at = id;
    for (;;) {
      if (e.op === 'bitcast') {
        to ??= e.to;
        at = e.value;
      } else if (e.op === 'swizzle') {
        const pattern: readonly number[] = e.pattern;
        pick = pick ? pick.map((k) => pattern[k]!) : [...pattern];
        at = e.vector;
      } else break;
      e = this.p.exprs(at);
    }
    if (e.op === 'let') {
      // a let bound to a register read in its fields' scalar (bind): the let, cast back where read as bits
      const n = this.nativeLets.get(e.let);
      if (!n || native) return undefined;
      return castText(n.scalar, to ?? 'u32', pick ? `${n.name}.${pick.map((c) => COMP[c]).join('')}` : n.name);
    }
    if (e.op !== 'load' && e.op !== 'member' && e.op !== 'access' && e.op !== 'arg' && e.op !== 'local')
      return undefined;
    const pl = this.place(at);
    if (!pl) return undefined;
    const t = this.p.type(at);
    if (pl.register === undefined)
      return refuse('operation not handled', `a whole register file of ${pl.file.text} used as a value`);
    const lanes = pl.lane !== undefined ? [pl.lane] : t.kind === 'vector' ? [0, 1, 2, 3].slice(0, t.size) : [0];
    const picked = pick ? pick.map((k) => lanes[k]!) : lanes;
    let s = to ?? 'u32';
    const owner = this.owner(pl);
    let fls: (FieldLane | undefined)[];
    let named: string | undefined; // the field as the lanes map names it (an array's element 0)
    if (pl.dynamic || typeof pl.register !== 'number') {
      // a computed register: an element of an array field (a join phase's `patch.mid[instance_id]`)
      const a = this.arrayAt(pl, picked);
      if (!a) return refuse('operation not handled', `a register of ${pl.file.text} read at a computed index`);
      named = this.lane(pl, a.base, picked[0]!)?.field;
      fls = picked.map((l) => {
        const f = this.lane(pl, a.base, l);
        return f && { ...f, field: a.field };
      });
    } else {
      const reg = pl.register;
      fls = picked.map((l) => this.lane(pl, reg, l));
    }
    if (fls.some((f) => f === undefined) && !pl.file.zeroUncovered)
      return refuse('operation not handled', `a lane of ${pl.file.text} that no signature element covers`);
    const first = fls[0];
    if (native) {
      if (!first || fls.some((f) => f?.scalar !== first.scalar)) return undefined;
      s = first.scalar;
    }
    if (first && fls.every((f) => f?.field === first.field && f.scalar === first.scalar)) {
      const comps = fls.map((f) => f!.comp);
      const width = [...pl.file.layout.lanes.values()].filter((f) => f.field === (named ?? first.field)).length;
      const whole = first.comp === -1 || (comps.length === width && comps.every((c, k) => c === k));
      const text = `${owner}.${first.field}${whole ? '' : `.${comps.map((c) => COMP[c]).join('')}`}`;
      if (first.comp === -1 && fls.length > 1)
        return castText(first.scalar, s, `((${SCALAR[first.scalar]}${fls.length})${text})`);
      return castText(first.scalar, s, text);
    }
    const parts = fls.map((f) =>
      f ? castText(f.scalar, s, `${owner}.${f.field}${f.comp >= 0 ? `.${COMP[f.comp]}` : ''}`) : zeroOf(s),
    );
    return parts.length === 1 ? parts[0]! : `${SCALAR[s]}${parts.length}(${parts.join(', ')})`;
  }

  /** Lets bound to a register read in the scalar of its fields (`float2 t0 = ip[i].texcoord;`). */
  readonly nativeLets = new Map<number, { name: string; scalar: Scalar }>();

  /** A let whose value is a register read of fields of one scalar other than u32: its declaration in
   * that scalar (the let is then read through it, the bitcasts back cancelled where they meet). */
  bind(let_: number, value: ExprId, name: (t: Type) => string): string | undefined {
    const t = this.p.type(value);
    if (t.kind !== 'scalar' && t.kind !== 'vector') return undefined;
    if (t.scalar !== 'u32') return undefined;
    const e = this.p.exprs(value);
    if (e.op === 'bitcast') return undefined; // read as the bitcast's scalar already
    const text = this.read(value, undefined, true);
    if (text === undefined) return undefined;
    const sc = this.nativeScalar(value);
    if (!sc || sc === 'u32') return undefined;
    const n = name(t);
    this.nativeLets.set(let_, { name: n, scalar: sc });
    return `${SCALAR[sc]}${t.kind === 'vector' ? t.size : ''} ${n} = ${text};`;
  }

  /** The one scalar of the fields a register read covers (through swizzles), or undefined. */
  private nativeScalar(id: ExprId): Scalar | undefined {
    let at = id;
    let pick: number[] | undefined;
    for (let e = this.p.exprs(at); e.op === 'swizzle'; e = this.p.exprs(at)) {
      const pattern: readonly number[] = e.pattern;
      pick = pick ? pick.map((k) => pattern[k]!) : [...pattern];
      at = e.vector;
    }
    const pl = this.place(at);
    if (!pl || pl.dynamic || typeof pl.register !== 'number') return undefined;
    const t = this.p.type(at);
    const lanes = pl.lane !== undefined ? [pl.lane] : t.kind === 'vector' ? [0, 1, 2, 3].slice(0, t.size) : [0];
    const reg = pl.register;
    const fls = (pick ? pick.map((k) => lanes[k]!) : lanes).map((l) => this.lane(pl, reg, l));
    const s = fls[0]?.scalar;
    return s && fls.every((f) => f?.scalar === s) ? s : undefined;
  }

  /** A value written to a field of scalar `s`: a register read as `s`, a bitcast to u32 of an `s`
   * value as that value, else the printer's cast. */
  private valueAs(id: ExprId, s: Scalar, pick?: readonly number[]): string {
    const t = this.p.type(id);
    const width = t.kind === 'vector' ? t.size : 1;
    const swz = pick && !(pick.length === width && pick.every((c, k) => c === k)) ? pick : undefined;
    if (!swz) return this.read(id, s) ?? this.p.exAs(id, s);
    const r = this.read(id, s);
    if (r !== undefined) return `(${r}).${swz.map((c) => COMP[c]).join('')}`;
    const e = this.p.exprs(id);
    const sw = `.${swz.map((c) => COMP[c]).join('')}`;
    if (e.op === 'bitcast') {
      const inner = this.p.type(e.value);
      const sc = inner.kind === 'vector' || inner.kind === 'scalar' ? inner.scalar : undefined;
      if (sc === s) return `${this.p.ex(e.value, 20)}${sw}`;
    }
    return castText('u32', s, `${this.p.ex(id, 20)}${sw}`);
  }

  /** The array field whose elements a computed register index reaches, for every lane of `lanes`, where
   * the printer knows the index's range: the field's element at that index (`patch.mid[i - 4u]`),
   * and the register of its element 0 (whose lanes name the field's components). */
  private arrayAt(pl: Place, lanes: readonly number[]): { owner: string; field: string; base: number } | undefined {
    const index = pl.register as ExprId;
    const range = this.range(index);
    if (!range) return undefined;
    const a = pl.file.layout.arrays.find((x) => {
      if (!lanes.every((l) => x.mask & (1 << l))) return false;
      for (let r = range[0]; r < range[1]; r++) if (x.registers[r - x.registers[0]!] !== r) return false;
      return true;
    });
    if (!a) return undefined;
    const base = a.registers[0]!;
    const ie = this.p.exprs(index);
    const offset = ie.op === 'binary' && ie.fn === 'add' ? this.p.exprs(ie.right) : undefined;
    const idx =
      base === 0
        ? this.p.ex(index)
        : ie.op === 'binary' && offset?.op === 'literal' && offset.bits >>> 0 === base
          ? this.p.ex(ie.left)
          : `${this.p.ex(index, 12)} - ${base}u`;
    const first = pl.file.layout.lanes.get(base * 4 + lanes[0]!)!.field;
    // the lanes map names element 0; the element at the index replaces its `[0]`
    return { owner: this.owner(pl), field: `${first.slice(0, first.lastIndexOf('['))}[${idx}]`, base };
  }

  /** A store to an output register (its fields), or false when the store writes no register file. */
  store(s: Extract<Stmt, { op: 'store' }>, pad: string, out: string[]): boolean {
    const pl = this.place(s.pointer);
    if (!pl) return false;
    const f = pl.file;
    if (!f.output) return refuse('statement not handled', `a store to the input ${f.text}`);
    if (pl.register === undefined) return refuse('statement not handled', `a store of the whole ${f.text}`);
    const t = this.p.type(s.value);
    const lanes = pl.lane !== undefined ? [pl.lane] : t.kind === 'vector' ? [0, 1, 2, 3].slice(0, t.size) : [0];
    if (pl.dynamic || typeof pl.register !== 'number') {
      // a computed register (a hull fork phase's `pc[instance]`): an element of an array field
      const a = lanes.length === 1 ? this.arrayAt(pl, lanes) : undefined;
      if (!a) return refuse('statement not handled', `a store to ${f.text} at a computed register`);
      const fl = f.layout.lanes.get(a.base * 4 + lanes[0]!)!;
      const comp = fl.comp >= 0 ? `.${COMP[fl.comp]}` : '';
      out.push(`${pad}${a.owner}.${a.field}${comp} = ${this.valueAs(s.value, fl.scalar)};`);
      return true;
    }
    const reg = pl.register;
    // the fields the written lanes cover, in lane order
    const groups: { field: FieldLane; comps: number[]; picks: number[] }[] = [];
    lanes.forEach((lane, k) => {
      const fl = this.lane(pl, reg, lane);
      if (!fl) return;
      const g = groups.find((x) => x.field.field === fl.field);
      if (g) {
        g.comps.push(fl.comp);
        g.picks.push(k);
      } else groups.push({ field: fl, comps: [fl.comp], picks: [k] });
    });
    for (const g of groups) {
      const width = [...f.layout.lanes.values()].filter((x) => x.field === g.field.field).length;
      const whole = g.field.comp === -1 || (g.comps.length === width && g.comps.every((c, k) => c === k));
      const target = `${f.text}.${g.field.field}${whole ? '' : `.${g.comps.map((c) => COMP[c]).join('')}`}`;
      const value =
        lanes.length === 1 ? this.valueAs(s.value, g.field.scalar) : this.valueAs(s.value, g.field.scalar, g.picks);
      out.push(`${pad}${target} = ${value};`);
    }
    return true;
  }

  /** Whether `id` is a load of the whole output file `file` (a function's `return load(outputs)`). */
  isWhole(id: ExprId, file: File): boolean {
    const e = this.p.exprs(id);
    if (e.op !== 'load') return false;
    const ptr = this.p.exprs(e.pointer);
    return ptr.op === 'local' && this.byLocal.get(ptr.local) === file;
  }
}

/** Arguments of a stage function the body reads (a file argument copied to its local counts as not read). */
export function argsRead(fn: Function): Set<number> {
  const read = new Set<number>();
  fn.exprs.forEach((e) => {
    if (e.op === 'arg') read.add(e.index);
  });
  return read;
}

/** The local a stage function copies a file argument into (`var vicp = vicp`), by argument. */
export function fileLocals(fn: Function): Map<number, number> {
  const out = new Map<number, number>();
  fn.locals.forEach((l, i) => {
    if (l.init === undefined) return;
    const e = fn.exprs[l.init];
    if (e?.op === 'arg') out.set(e.index, i);
  });
  return out;
}

/** Geometry input and output primitives (StageFunctions.primitive, `triangle->triangle_strip`). */
export function geometryPrimitives(primitive: string | undefined): { input: string; vertices: number; stream: string } {
  const [input = '', output = ''] = (primitive ?? '').split('->');
  const inputs: Record<string, [string, number]> = {
    point: ['point', 1],
    line: ['line', 2],
    triangle: ['triangle', 3],
    line_adj: ['lineadj', 4],
    triangle_adj: ['triangleadj', 6],
  };
  const streams: Record<string, string> = {
    point_list: 'PointStream',
    line_strip: 'LineStream',
    triangle_strip: 'TriangleStream',
  };
  const i = inputs[input];
  if (!i) return refuse('stage not handled', `a geometry program of ${input || 'no'} input primitive`);
  const s = streams[output];
  if (!s) return refuse('stage not handled', `a geometry program of ${output || 'no'} output topology`);
  return { input: i[0], vertices: i[1], stream: s };
}

/** The control-point function of a hull program without a control-point phase: each output
 * control point is its input one, field by field (lane by lane where the two signatures differ). */
export function passThrough(inL: Layout, outL: Layout, cpIn: number): string[] {
  const lines = [
    `${outL.name} main(InputPatch<${inL.name}, ${cpIn}> ip, uint control_point_id : SV_OutputControlPointID)`,
    '{',
    `    ${outL.name} output;`,
  ];
  const fields = new Map<string, { key: number; lane: FieldLane }[]>();
  for (const [key, lane] of outL.lanes) {
    const list = fields.get(lane.field) ?? [];
    list.push({ key, lane });
    fields.set(lane.field, list);
  }
  const src = (key: number): FieldLane =>
    inL.lanes.get(key) ?? refuse('stage not handled', 'a pass-through hull output that no input element covers');
  for (const [field, list] of fields) {
    const ins = list.map((x) => src(x.key));
    const first = ins[0]!;
    const same =
      ins.every((x, k) => x.field === first.field && x.comp === list[k]!.lane.comp) &&
      [...inL.lanes.values()].filter((x) => x.field === first.field).length === list.length;
    if (same)
      lines.push(
        `    output.${field} = ${castText(first.scalar, list[0]!.lane.scalar, `ip[control_point_id].${first.field}`)};`,
      );
    else
      list.forEach((x, k) => {
        const i = ins[k]!;
        const from = `ip[control_point_id].${i.field}${i.comp >= 0 ? `.${COMP[i.comp]}` : ''}`;
        lines.push(
          `    output.${field}${x.lane.comp >= 0 ? `.${COMP[x.lane.comp]}` : ''} = ${castText(i.scalar, x.lane.scalar, from)};`,
        );
      });
  }
  lines.push('    return output;', '}');
  return lines;
}
