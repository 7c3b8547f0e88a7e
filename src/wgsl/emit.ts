// The WGSL emitter: a direct printer of an IR module (after the WGSL-only passes of passes.ts have
// run). Rules, so the output is predictable:
// - Identifiers come from the namer (namer.ts): unique per scope, never a WGSL reserved word.
// - Temporaries: an IR `let` becomes a WGSL `let` (named from its hint); nothing else introduces a
//   temporary. Every other expression is printed inline where its statement uses it, binary
//   operations fully parenthesised (WGSL refuses some mixes of operators without them).
// - Constant evaluation: WGSL evaluates constant expressions at shader creation and refuses a
//   result that overflows or is not finite, which Direct3D programs may legitimately compute at
//   run time. So an operation whose operands are all literals prints its literals through
//   `iridia_rt_<type>(x)` (an identity function: a call is never a constant expression), and an
//   f32 literal that is an infinity or NaN prints as `bitcast<f32>(iridia_rt_u32(bits))`.
// - f32 literals print as the shortest decimal that reads back to the same bits; i32 MIN as a
//   bitcast.
// - `diagnostic(off, derivative_uniformity)`: Direct3D lets a pixel program take derivatives in
//   control flow that depends on per-pixel values (the result is defined by the quad's lanes).
// - Subgroups (ir.ts "Subgroups"): a module with a `subgroup` statement or a subgroup builtin opens
//   with `enable subgroups;` (the device needs WebGPU's 'subgroups' feature) and
//   `diagnostic(off, subgroup_uniformity)`: Direct3D defines wave operations in divergent control
//   flow by the active lanes, as WGSL does once the uniformity rule is off. elect, all, any,
//   ballot, broadcast_first, shuffle, reduce and the add/mul scans are subgroupElect, subgroupAll,
//   subgroupAny, subgroupBallot, subgroupBroadcastFirst, subgroupShuffle, subgroupAdd...Xor,
//   subgroupExclusiveAdd/Mul and subgroupInclusiveAdd/Mul; quad_broadcast and the swaps are
//   quadBroadcast (its index a constant) and quadSwapX/Y/Diagonal.
// - Provenance: statement origins (ir.ts Origin) never reach the text; emitModuleWgslWithMap gives
//   the same text with the origins of each line (WgslWithMap), from the offsets where each
//   statement's own text starts and resumes, turned into lines once the function is written.

import {
  blockHolds,
  forgetBlockHolds,
  HOLDS_SUBGROUP,
  originList,
  type Binding,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type ImageQuery,
  type Module,
  type Origin,
  type Scalar,
  type Stmt,
  type Type,
} from '../ir/ir.js';
import { resolveFunctionInto, type Resolved } from '../ir/typeof.js';
import { ScratchList } from '../ir/scratch.js';
import { Namer } from './namer.js';
import { SinkBuffer, TextSink } from './text-sink.js';
import { planUniformConditions, type UniformPlan } from './uniformity.js';
import { LiftRefusal } from '../lift/refuse.js';
import type { Condition, LoopShape, Shapes } from '../decompile/shapes.js';

export interface WgslOptions {
  /** Print `//` comments (provenance lines) given by the caller at the top. */
  readonly header?: readonly string[];
  /** Globals the caller declares as a struct and whose reads it prints (readable WGSL's constant
   * buffers, src/decompile/wgsl-structs.ts), by global index. Without it nothing changes. */
  readonly views?: ReadonlyMap<number, GlobalView>;
  /** The readable mode (the decompiler's, src/decompile/shapes.ts): loops and branches as the
   * shapes it finds (`for`, `while`, `else if`, conditions as their comparisons). Without it the
   * text is the lifter's, `loop` and nested `else`. */
  readonly shapes?: ShapesOf;
}

/** A uniform global declared as a struct of the caller's members, read through `read`. */
export interface GlobalView {
  /** Name hints of the struct type and of the variable. */
  readonly typeName: string;
  readonly varName: string;
  /** The struct's member lines, `name: type` with any attributes. */
  readonly members: readonly string[];
  /** The text of expression `id` of `f` when it reads the global (its variable named `name`),
   * undefined when it does not or cannot. */
  read(f: Function, id: ExprId, name: string): string | undefined;
}

/** Thrown when a viewed global is met other than through its view's `read` (the caller then emits
 * that global as it is). */
export class ViewMiss extends Error {
  constructor(readonly global: number) {
    super(`global ${global} is read other than through its view`);
  }
}

/** `print`'s result, printed again after each ViewMiss that `drop` takes (the printer then writes
 * that global in its register form); a miss `drop` does not take (a global already dropped) is
 * thrown. The HLSL printer and readable WGSL both fall back this way. */
export function retryingViews<T>(print: () => T, drop: (global: number) => boolean): T {
  for (;;) {
    try {
      return print();
    } catch (e) {
      if (!(e instanceof ViewMiss) || !drop(e.global)) throw e;
    }
  }
}

/** The shapes of a function's statements; `avoid`: statements to print as they are. */
export type ShapesOf = (m: Module, f: Function, types: readonly Resolved[], avoid: (s: Stmt) => boolean) => Shapes;

export function emitModuleWgsl(m: Module, options: WgslOptions = {}): string {
  try {
    return new Emitter(m, false).module(options);
  } finally {
    forgetBlockHolds();
  }
}

/**
 * WGSL with its line map: `text` is emitModuleWgsl's text, byte for byte; `origins[n]` holds the
 * origins (ir.ts Origin: instruction indices, ascending) of WGSL line n (0-based), empty for a line
 * no statement with an origin wrote. A statement's lines are every line it writes but those of the
 * statements nested in it (an `if`'s header, `} else {` and closing brace, a uniform condition's
 * lines before it); a nested statement without an origin gives its lines to the innermost
 * enclosing one that has one.
 */
export interface WgslWithMap {
  readonly text: string;
  readonly origins: readonly (readonly number[])[];
}

export function emitModuleWgslWithMap(m: Module, options: WgslOptions = {}): WgslWithMap {
  try {
    const e = new Emitter(m, true);
    const text = e.module(options);
    return { text, origins: e.lineOrigins(text) };
  } finally {
    forgetBlockHolds();
  }
}

const NO_ORIGINS: readonly number[] = [];

/** The sink's buffer, lent to one module at a time. */
const SINK_BUFFER = new SinkBuffer();
/** The sink of an emitter not printing a module. */
const NO_SINK = new TextSink(new Uint8Array(0));

class Emitter {
  private readonly names = new Namer();
  private readonly typeNames = new Map<number, string>();
  private readonly globalNames: string[] = [];
  private readonly fnNames: string[] = [];
  private readonly rt = new Set<Scalar>();
  private readonly entryFns = new Set<number>();
  /** The module's text (its functions, then what comes before them), lent by SINK_BUFFER. */
  private out: TextSink = NO_SINK;
  /** The branches whose condition goes through workgroupUniformLoad (uniformity.ts). */
  private readonly uniformPlan: UniformPlan;
  /** The workgroup word those conditions pass through (named when the plan has any). */
  private uniformVar = '';

  /** With a line map: each function's segments (text offset where a statement's own text starts
   * or resumes, and its origin), and where each function's text sits among the module's parts. */
  private segments: { pos: number; origin: Origin | undefined }[] | undefined;
  private readonly fnSegments: { text: string; segments: { pos: number; origin: Origin | undefined }[] }[] = [];
  private parts: readonly string[] = [];
  /** The origin of the statement being written (with a line map). */
  private current: Origin | undefined;
  private views: ReadonlyMap<number, GlobalView> | undefined;
  private readonly viewTypeNames = new Map<number, string>();

  constructor(
    private readonly m: Module,
    private readonly withMap: boolean,
  ) {
    for (const ep of m.entryPoints) this.entryFns.add(ep.function);
    this.uniformPlan = planUniformConditions(m);
  }

  /** Starts a segment of the current function's text owned by `origin` (with a line map). */
  private mark(origin: Origin | undefined): void {
    this.current = origin;
    this.segments?.push({ pos: this.out.pos - this.fnStart, origin });
  }

  /** The origins of each line of the module text `text` (see WgslWithMap). */
  lineOrigins(text: string): (readonly number[])[] {
    const out: (readonly number[])[] = [];
    let line = 0;
    let fn = 0;
    for (const part of this.parts) {
      const owned = this.fnSegments[fn];
      if (owned && owned.text === part) {
        fn++;
        let seg = -1;
        let pos = 0;
        for (;;) {
          const segs = owned.segments;
          while (seg + 1 < segs.length && segs[seg + 1]!.pos <= pos) seg++;
          const o = seg >= 0 ? segs[seg]!.origin : undefined;
          out[line++] = o === undefined ? NO_ORIGINS : originList(o);
          const nl = part.indexOf('\n', pos);
          if (nl < 0) break;
          pos = nl + 1;
        }
      } else {
        let pos = part.indexOf('\n');
        out[line++] = NO_ORIGINS;
        while (pos >= 0) {
          out[line++] = NO_ORIGINS;
          pos = part.indexOf('\n', pos + 1);
        }
      }
    }
    const lines = text.split('\n').length;
    out.length = lines;
    for (let k = 0; k < lines; k++) out[k] ??= NO_ORIGINS;
    return out;
  }

  /** The readable mode's shapes (WgslOptions.shapes). */
  private shapesOf: ShapesOf | undefined;

  module(options: WgslOptions): string {
    this.out = SINK_BUFFER.take();
    try {
      return this.moduleText(options);
    } finally {
      SINK_BUFFER.give(this.out);
    }
  }

  private moduleText(options: WgslOptions): string {
    const m = this.m;
    this.shapesOf = options.shapes;
    const head: string[] = [...(options.header ?? []).map((l) => `// ${l}`)];
    let planned = 0;
    for (const set of this.uniformPlan.values()) planned += set.size;
    if (planned)
      head.push(
        `// note: ${planned} branch condition${planned === 1 ? '' : 's'} around group barriers pass${planned === 1 ? 'es' : ''} through workgroupUniformLoad (Direct3D requires every thread of the group to take the same path there; WGSL's uniformity analysis cannot see it)`,
      );
    if (usesSubgroups(m)) head.push('enable subgroups;', 'diagnostic(off, subgroup_uniformity);');
    head.push('diagnostic(off, derivative_uniformity);', '');
    // Names: entry functions first so they keep their IR names where possible.
    m.functions.forEach((f, i) => (this.fnNames[i] = this.names.name(f.name)));
    m.types.forEach((t, i) => {
      if (t.kind === 'struct') this.typeNames.set(i, this.names.name(t.name));
    });
    const views = (this.views = options.views?.size ? options.views : undefined);
    if (views) for (const [g, v] of views) this.viewTypeNames.set(g, this.names.name(v.typeName));
    m.globals.forEach((g, i) => (this.globalNames[i] = this.names.name(views?.get(i)?.varName ?? g.name)));
    if (this.uniformPlan.size) this.uniformVar = this.names.name('iridia_uniform');
    const body: string[] = [];
    m.types.forEach((t, i) => {
      if (t.kind !== 'struct') return;
      const mn = new Namer();
      body.push(`struct ${this.typeNames.get(i)} {`);
      for (const mem of t.members)
        body.push(`  ${bindingAttr(mem.binding)}${mn.name(mem.name)}: ${this.type(mem.type)},`);
      body.push('}', '');
    });
    for (const [g, v] of views ?? [])
      body.push(`struct ${this.viewTypeNames.get(g)} {`, ...v.members.map((l) => `  ${l},`), '}', '');
    m.globals.forEach((g, i) => {
      const attr = g.binding ? `@group(${g.binding.group}) @binding(${g.binding.binding}) ` : '';
      const space =
        g.space === 'handle' ? '' : g.space === 'storage' ? `<storage, ${g.access ?? 'read'}>` : `<${g.space}>`;
      const init = g.init !== undefined ? ` = ${this.constant(g.init)}` : '';
      const type = this.viewTypeNames.get(i) ?? this.type(g.type);
      body.push(`${attr}var${space} ${this.globalNames[i]}: ${type}${init};`);
    });
    if (this.uniformVar) body.push(`var<workgroup> ${this.uniformVar}: u32;`);
    if (m.globals.length || this.uniformVar) body.push('');
    // The functions are written to the sink, each followed by an empty line: as if each were a part
    // followed by an empty part, joined by newlines with the parts before them.
    const out = this.out;
    m.functions.forEach((f, i) => {
      if (i) out.write('\n');
      this.fn(f, i);
      out.write('\n');
    });
    const helpers: string[] = [];
    for (const s of [...this.rt].sort()) helpers.push(`fn iridia_rt_${s}(x: ${s}) -> ${s} {`, '  return x;', '}', '');
    helpers.push(...this.mulHiHelpers());
    const before = [...head, ...helpers, ...body];
    if (this.withMap) this.parts = [...before, ...this.fnSegments.flatMap((f) => [f.text, ''])];
    out.prependJoined(before, '\n', before.length && m.functions.length ? '\n' : '');
    // its trailing newlines, if it has any, made one
    let end = out.pos;
    while (end > 0 && out.byteAt(end - 1) === 10) end--;
    return out.text(0, end < out.pos ? end + 1 : end);
  }

  /** Type texts by TypeId, made once each. */
  private readonly typeById: (string | undefined)[] = [];
  /** Type texts of resolved types (shared objects, see typeof.ts), made once each. */
  private readonly typeByObject = new Map<Type, string>();

  type(id: number): string {
    const known = this.typeById[id];
    if (known !== undefined) return known;
    const t = this.m.types[id];
    if (!t) throw new Error(`type ${id} out of range`);
    return (this.typeById[id] = this.typeText(t, id));
  }

  private typeOf(t: Type): string {
    let text = this.typeByObject.get(t);
    if (text === undefined) {
      text = this.typeText(t);
      this.typeByObject.set(t, text);
    }
    return text;
  }

  /** `T(` and `bitcast<T>(` of resolved types, and `T(` of a type by id, made once each: a
   * constructor, conversion or bitcast opens a tenth of a lifted program's expressions. (By id
   * apart: a struct by id prints the namer's name, a resolved one its own.) */
  private readonly opens = new Map<Type, { readonly value: string; readonly bitcast: string }>();
  private readonly idOpens: (string | undefined)[] = [];

  private opening(t: Type): { readonly value: string; readonly bitcast: string } {
    let o = this.opens.get(t);
    if (o === undefined) {
      const text = this.typeOf(t);
      o = { value: `${text}(`, bitcast: `bitcast<${text}>(` };
      this.opens.set(t, o);
    }
    return o;
  }

  private typeText(t: Type, id?: number): string {
    switch (t.kind) {
      case 'scalar':
        return t.scalar;
      case 'vector':
        return `vec${t.size}<${t.scalar}>`;
      case 'array':
        return t.length === null ? `array<${this.type(t.base)}>` : `array<${this.type(t.base)}, ${t.length}>`;
      case 'struct':
        return this.typeNames.get(id ?? -1) ?? t.name;
      case 'atomic':
        return `atomic<${t.scalar}>`;
      case 'sampler':
        return t.comparison ? 'sampler_comparison' : 'sampler';
      case 'image': {
        const arr = t.arrayed ? '_array' : '';
        const c = t.class;
        if (c.kind === 'storage') return `texture_storage_${t.dim}${arr}<${c.format}, ${c.access}>`;
        if (c.kind === 'depth')
          return c.multisampled ? 'texture_depth_multisampled_2d' : `texture_depth_${t.dim}${arr}`;
        return c.multisampled ? `texture_multisampled_2d<${c.scalar}>` : `texture_${t.dim}${arr}<${c.scalar}>`;
      }
      case 'binding_array':
        return t.size === null
          ? `binding_array<${this.type(t.base)}>`
          : `binding_array<${this.type(t.base)}, ${t.size}>`;
    }
  }

  private constant(id: number): string {
    const c = this.m.constants[id];
    if (!c) throw new Error(`constant ${id} out of range`);
    const t = this.m.types[c.type];
    // Constants are arrays of vec4<u32> rows (the immediate constant buffer) or flat u32 arrays.
    if (t?.kind === 'array') {
      const base = this.m.types[t.base];
      const per = base?.kind === 'vector' ? base.size : 1;
      const rows: string[] = [];
      for (let k = 0; k < c.words.length; k += per) {
        const w = c.words.slice(k, k + per).map((x) => `${x >>> 0}u`);
        rows.push(per === 1 ? (w[0] ?? '0u') : `${this.type(t.base)}(${w.join(', ')})`);
      }
      return `${this.type(c.type)}(${rows.join(', ')})`;
    }
    return `${this.type(c.type)}(${c.words.map((x) => `${x >>> 0}u`).join(', ')})`;
  }

  /**
   * Writes a function's text to the sink, its lines joined by newlines (no newline after the
   * closing brace). Lines and expressions are written as they are made (text-sink.ts), rather than
   * each expression returning a string its parent pastes into a longer one.
   */
  private fn(f: Function, index: number): void {
    const entry = this.m.entryPoints.find((e) => e.function === index);
    this.fnStart = this.out.pos;
    if (this.withMap) {
      this.segments = [];
      this.current = undefined;
    }
    if (entry) {
      if (entry.stage === 'compute')
        this.w(`@compute @workgroup_size(${(entry.workgroupSize ?? [1, 1, 1]).join(', ')})\n`);
      else this.w(`@${entry.stage}\n`);
    }
    const scope = this.names.child();
    const argNames = f.args.map((a) => scope.name(a.name));
    const localNames = f.locals.map((l) => scope.name(l.name));
    const letNames = f.lets.map((l) => scope.name(l.name));
    const args = f.args.map((a, k) => `${entry ? bindingAttr(a.binding) : ''}${argNames[k]}: ${this.type(a.type)}`);
    const res = f.result ? ` -> ${entry ? bindingAttr(f.result.binding) : ''}${this.type(f.result.type)}` : '';
    this.w(`fn ${this.fnNames[index]}(${args.join(', ')})${res} {\n`);
    const n = f.exprs.length;
    // The lists by expression are lent for this function and given back at its end (scratch.ts).
    // Each is at least n long: a first write far past an empty array's end turns it into a dictionary.
    const typeList = TYPES.take(n);
    const litPlain = LIT_PLAIN.take(n);
    const litRuntime = LIT_RUNTIME.take(n);
    const refs = REFS.take(n);
    try {
      const types = resolveFunctionInto(this.m, f, typeList);
      const uniform = this.uniformPlan.get(index);
      const shapes = this.shapesOf?.(this.m, f, types, (s) => uniform?.has(s) ?? false);
      // one memo for every function of every module (they are printed one at a time), cleared for each
      const isConst = constMemo(n);
      const ctx: FnCtx = {
        shapes,
        scope,
        uniform,
        x: (h: ExprId): string => this.expr(ctx, h, false),
        xr: (h: ExprId): string => this.expr(ctx, h, true),
        f,
        argNames,
        localNames,
        letNames,
        types,
        isConst,
        litPlain,
        litRuntime,
        refs,
      };
      for (let k = 0; k < f.locals.length; k++) {
        const l = f.locals[k] as (typeof f.locals)[number];
        if (shapes?.declared(k)) continue; // declared in its for header
        this.w(`  var ${String(localNames[k])}: ${this.type(l.type)}`);
        if (l.init !== undefined) {
          this.w(' = ');
          this.put(ctx, l.init, false);
        }
        this.w(';\n');
      }
      this.block(ctx, f.body, '  ');
    } finally {
      TYPES.give(typeList, n);
      LIT_PLAIN.give(litPlain, n);
      LIT_RUNTIME.give(litRuntime, n);
      REFS.give(refs, n);
    }
    this.w('}');
    if (this.segments) {
      this.fnSegments.push({ text: this.out.text(this.fnStart), segments: this.segments });
      this.segments = undefined;
    }
  }

  /** Where the function being printed starts in the sink. */
  private fnStart = 0;
  /** While expr() or ref() makes an expression's text: the text so far (written to a string, not
   * the sink); undefined otherwise. */
  private cap: string | undefined = undefined;

  /** Appends `text` to the function being printed, or to the text expr() or ref() is making. */
  private w(text: string): void {
    if (this.cap === undefined) this.out.write(text);
    else this.cap += text;
  }

  private block(ctx: FnCtx, b: Block, ind: string): void {
    for (const written of b) {
      if (ctx.shapes?.skipped(written)) continue; // printed in a loop's header
      // readable: an if/else-if chain of tests of one integer is its switch
      const s = (written.op === 'if' && ctx.shapes?.switchOf(written)) || written;
      const outer = this.current;
      if (this.segments) this.mark(s.origin ?? outer);
      // (stores and lets first: most statements are one or the other)
      switch (s.op) {
        case 'store':
          this.w(ind);
          this.putRef(ctx, s.pointer);
          this.w(' = ');
          this.put(ctx, s.value, false);
          this.w(';\n');
          break;
        case 'let':
          this.w(ind);
          this.w('let ');
          this.w(String(ctx.letNames[s.let]));
          this.w(' = ');
          this.put(ctx, s.value, false);
          this.w(';\n');
          break;
        case 'if':
          if (ctx.uniform?.has(s)) {
            const c = this.uniformLoad(ctx, ind, 'select(0u, 1u, ', s.cond, ')');
            this.w(`${ind}if (${c} != 0u) {\n`);
          } else {
            this.w(ind);
            this.w('if ');
            this.putCondition(ctx, s.cond);
            this.w(' {\n');
          }
          this.block(ctx, s.accept, ind + '  ');
          // readable: an else block that is one if is `} else if ... {`, its lines the inner if's
          for (let at = ctx.shapes?.elseIf(s), from = s; ; at = ctx.shapes?.elseIf(from)) {
            if (at) {
              if (this.segments) this.mark(at.origin ?? outer);
              this.w(`${ind}} else if `);
              this.putCondition(ctx, at.cond);
              this.w(' {\n');
              this.block(ctx, at.accept, ind + '  ');
              from = at;
              continue;
            }
            if (from.reject.length) {
              this.line(ind, '} else {');
              this.block(ctx, from.reject, ind + '  ');
            }
            break;
          }
          if (this.segments && ctx.shapes?.elseIf(s)) this.mark(s.origin ?? outer);
          this.line(ind, '}');
          break;
        case 'loop': {
          const shape = ctx.shapes?.loop(s);
          if (shape) {
            if (this.segments) this.mark(shape.origin ?? outer);
            this.loopHeader(ctx, shape, ind);
          } else this.line(ind, 'loop {');
          this.block(ctx, s.body, ind + '  ');
          this.line(ind, '}');
          break;
        }
        case 'switch':
          this.switchStmt(ctx, s, ind);
          break;
        case 'break':
          this.line(ind, 'break;');
          break;
        case 'continue':
          this.line(ind, 'continue;');
          break;
        case 'kill':
          this.line(ind, 'discard;');
          break;
        case 'return':
          if (s.value === undefined) this.line(ind, 'return;');
          else {
            this.w(ind);
            this.w('return ');
            this.put(ctx, s.value, false);
            this.w(';\n');
          }
          break;
        case 'barrier':
          this.barrierStmt(s, ind);
          break;
        case 'atomic':
          this.atomicStmt(ctx, s, ind);
          break;
        case 'atomic64':
          this.atomic64Stmt(ctx, s, ind);
          break;
        case 'subgroup':
          this.line(ind, `let ${ctx.letNames[s.result]} = ${subgroupCall(s, ctx.x)};`);
          break;
        case 'image_store':
          this.imageStoreStmt(ctx, s, ind);
          break;
        case 'call':
          this.callStmt(ctx, s, ind);
          break;
        case 'emit':
        case 'cut':
          throw new Error(`${s.op} must be lowered before WGSL emission`);
      }
      if (this.segments) this.mark(outer);
    }
  }

  /** One line of the function's text at indent `ind`. */
  private line(ind: string, text: string): void {
    this.w(ind);
    this.w(text);
    this.w('\n');
  }

  // Statements other than the common ones (let, store, if, loop, return) are each printed by a
  // method of its own: a statement kind seen late in a batch (a switch with a case value past a
  // small integer, an atomic) then changes the feedback of that method alone, and V8 does not
  // recompile all of `block` for it.

  private switchStmt(ctx: FnCtx, s: Extract<Stmt, { op: 'switch' }>, ind: string): void {
    const st = ctx.types[s.selector];
    const suffix = st?.kind === 'value' && st.type.kind === 'scalar' && st.type.scalar === 'i32' ? 'i' : 'u';
    if (ctx.uniform?.has(s)) {
      const c = this.uniformLoad(ctx, ind, suffix === 'i' ? 'bitcast<u32>(' : '(', s.selector, ')');
      this.w(`${ind}switch ${suffix === 'i' ? `bitcast<i32>(${c})` : c} {\n`);
    } else {
      this.w(`${ind}switch `);
      this.put(ctx, s.selector, false);
      this.w(' {\n');
    }
    for (const c of s.cases) {
      const labels = c.values.map((v) => (suffix === 'i' ? i32Text(v) : `${v >>> 0}u`));
      if (c.isDefault) labels.push('default');
      this.line(ind, `  case ${labels.join(', ')}: {`);
      this.block(ctx, c.body, ind + '    ');
      this.line(ind, '  }');
    }
    this.line(ind, '}');
  }

  private barrierStmt(s: Extract<Stmt, { op: 'barrier' }>, ind: string): void {
    if (s.workgroup || (!s.storage && !s.texture)) this.line(ind, 'workgroupBarrier();');
    if (s.storage) this.line(ind, 'storageBarrier();');
    if (s.texture) this.line(ind, 'textureBarrier();');
  }

  private atomicStmt(ctx: FnCtx, s: Extract<Stmt, { op: 'atomic' }>, ind: string): void {
    const x = ctx.x;
    const ptr = `&${this.ref(ctx, s.pointer)}`;
    const v = s.value !== undefined ? x(s.value) : '';
    let call: string;
    if (s.fn === 'load') call = `atomicLoad(${ptr})`;
    else if (s.fn === 'compare_exchange') call = `atomicCompareExchangeWeak(${ptr}, ${x(s.compare as ExprId)}, ${v})`;
    else if (s.fn === 'exchange')
      call = s.result === undefined ? `atomicStore(${ptr}, ${v})` : `atomicExchange(${ptr}, ${v})`;
    else {
      const name = { add: 'Add', and: 'And', or: 'Or', xor: 'Xor', min: 'Min', max: 'Max' }[s.fn];
      call = `atomic${name}(${ptr}, ${v})`;
    }
    if (s.result !== undefined)
      this.line(ind, `let ${ctx.letNames[s.result]} = ${call}${s.fn === 'compare_exchange' ? '.old_value' : ''};`);
    else this.line(ind, `${s.fn === 'load' || s.fn === 'compare_exchange' ? '_ = ' : ''}${call};`);
  }

  private atomic64Stmt(ctx: FnCtx, s: Extract<Stmt, { op: 'atomic64' }>, ind: string): void {
    // ir.ts atomic64: the word atomics WGSL has give the exact final memory for these
    // (they commute); a previous value would be assembled from two moments, so none is used
    if (s.result !== undefined || !(s.fn === 'add' || s.fn === 'and' || s.fn === 'or' || s.fn === 'xor'))
      throw atomic64Refusal(s);
    const x = ctx.x;
    const lo = `&${this.ref(ctx, s.low)}`;
    const hi = `&${this.ref(ctx, s.high)}`;
    if (s.fn !== 'add') {
      const name = { and: 'And', or: 'Or', xor: 'Xor' }[s.fn];
      this.line(
        ind,
        `{ let iridia_v = ${x(s.value)}; atomic${name}(${lo}, iridia_v.x); atomic${name}(${hi}, iridia_v.y); }`,
      );
    } else
      this.line(
        ind,
        `{ let iridia_v = ${x(s.value)}; let iridia_o = atomicAdd(${lo}, iridia_v.x); atomicAdd(${hi}, iridia_v.y + select(0u, 1u, iridia_o + iridia_v.x < iridia_o)); }`,
      );
  }

  private imageStoreStmt(ctx: FnCtx, s: Extract<Stmt, { op: 'image_store' }>, ind: string): void {
    const x = ctx.x;
    const args = [x(s.image), x(s.coord)];
    if (s.arrayIndex !== undefined) args.push(x(s.arrayIndex));
    args.push(x(s.value));
    this.line(ind, `textureStore(${args.join(', ')});`);
  }

  private callStmt(ctx: FnCtx, s: Extract<Stmt, { op: 'call' }>, ind: string): void {
    const call = `${this.fnNames[s.fn]}(${s.args.map(ctx.x).join(', ')})`;
    this.line(ind, s.result !== undefined ? `let ${ctx.letNames[s.result]} = ${call};` : `${call};`);
  }

  /**
   * Direct3D's promise that a branch around a barrier goes the same way in every thread of the
   * group, written in WGSL: every invocation stores the condition (as a u32) to the workgroup word,
   * `workgroupUniformLoad` reads it back as a uniform value, and a barrier after the load keeps the
   * next such store (a later branch, the next iteration) from reaching the word before every
   * invocation has read it (WGSL describes the barrier before the load only). Returns the let that
   * holds the loaded word.
   */
  private uniformLoad(ctx: FnCtx, ind: string, open: string, cond: ExprId, close: string): string {
    const name = ctx.scope.name('uniform_cond');
    this.w(`${ind}${this.uniformVar} = ${open}`);
    this.put(ctx, cond, false);
    this.w(`${close};\n${ind}let ${name} = workgroupUniformLoad(&${this.uniformVar});\n${ind}workgroupBarrier();\n`);
    return name;
  }

  /** A pointer expression as a WGSL reference (no `&`). */
  private ref(ctx: FnCtx, h: ExprId): string {
    return this.capture(ctx, h, false, true);
  }

  /** The text put (or putRef, when `asRef`) writes for expression h, as a string: what it writes
   * goes to `cap` meanwhile, not to the sink (captures nest). */
  private capture(ctx: FnCtx, h: ExprId, runtime: boolean, asRef: boolean): string {
    const saved = this.cap;
    this.cap = '';
    if (asRef) this.putRef(ctx, h);
    else this.put(ctx, h, runtime);
    const text = this.cap;
    this.cap = saved;
    return text;
  }

  /** Appends a pointer expression as a WGSL reference (no `&`). */
  private putRef(ctx: FnCtx, h: ExprId): void {
    const text = this.refText(ctx, h);
    if (text !== undefined) {
      this.w(text);
      return;
    }
    const e = ctx.f.exprs[h] as Expr;
    if (e.op === 'access') {
      this.putRef(ctx, e.base);
      this.w('[');
      this.put(ctx, e.index, false);
      this.w(']');
    } else if (e.op === 'member') {
      this.putRef(ctx, e.base);
      this.w(this.memberText(ctx, e.base, e.index));
    } else throw new Error(`expression %${h} (${e.op}) is not a reference`);
  }

  /**
   * The whole text of a reference that holds no computed index (a variable, or constant-indexed
   * parts of one: `r0.x`, `o[1].y`), made once per expression; undefined for any other (an
   * `access`, or a part of one, is printed piece by piece). A viewed global is never cached: its
   * reads go through the view, and any other use of it is the view's miss.
   */
  private refText(ctx: FnCtx, h: ExprId): string | undefined {
    const known = ctx.refs[h];
    if (known !== undefined) return known;
    const e = ctx.f.exprs[h] as Expr;
    let text: string | undefined;
    if (e.op === 'local') text = ctx.localNames[e.local] ?? '?';
    else if (e.op === 'global') {
      if (this.views?.has(e.global)) throw new ViewMiss(e.global);
      text = this.globalNames[e.global] ?? '?';
    } else if (e.op === 'member') {
      const base = this.refText(ctx, e.base);
      if (base === undefined) return undefined;
      text = base + this.memberText(ctx, e.base, e.index);
    } else return undefined;
    if (this.views === undefined) ctx.refs[h] = text;
    return text;
  }

  private memberText(ctx: FnCtx, base: ExprId, index: number): string {
    const r = ctx.types[base] as Resolved;
    const t = r.type;
    if (t.kind === 'vector') return LANE_MEMBER[index] ?? `.${'xyzw'[index]}`;
    if (t.kind === 'struct') {
      let names = this.memberNames.get(t);
      if (names === undefined) {
        const mn = new Namer();
        names = t.members.map((mm) => `.${mn.name(mm.name)}`);
        this.memberNames.set(t, names);
      }
      return names[index] ?? '.undefined';
    }
    return `[${index}]`;
  }

  /** `.name` of each member of a struct type, as printed after a value of it. */
  private readonly memberNames = new Map<Type, string[]>();

  private lit(scalar: Scalar, bits: number, runtime: boolean): string {
    let text: string;
    switch (scalar) {
      case 'bool':
        text = bits ? 'true' : 'false';
        break;
      case 'u32':
        text = `${bits >>> 0}u`;
        break;
      case 'i32':
        text = i32Text(bits);
        break;
      case 'f32': {
        const t = f32Text(bits);
        if (t === undefined) {
          this.rt.add('u32');
          return `bitcast<f32>(iridia_rt_u32(${bits >>> 0}u))`;
        }
        text = t;
      }
    }
    if (!runtime) return text;
    this.rt.add(scalar);
    return `iridia_rt_${scalar}(${text})`;
  }

  /** An expression's text (see put). */
  expr(ctx: FnCtx, h: ExprId, runtime: boolean): string {
    return this.capture(ctx, h, runtime, false);
  }

  /** Appends a branch's condition: in the readable mode as shapes.ts's condition() reads it. */
  private putCondition(ctx: FnCtx, cond: ExprId, negate = false): void {
    if (!ctx.shapes) this.put(ctx, cond, false);
    else this.putShapeCondition(ctx, ctx.shapes.condition(cond, negate));
  }

  private putShapeCondition(ctx: FnCtx, c: Condition): void {
    if (c.kind === 'expr') return this.put(ctx, c.expr, false);
    if (c.kind === 'not') {
      // put writes an operation in parentheses
      this.w('!');
      return this.put(ctx, c.expr, false);
    }
    this.w('(');
    this.put(ctx, c.left, false);
    this.w(BINARY_SPACED[c.fn] ?? ' undefined ');
    this.put(ctx, c.right, false);
    this.w(')');
  }

  /** A shaped loop's header line: `while c {` or `for (INIT; c; UPDATE) {` (shapes.ts). */
  private loopHeader(ctx: FnCtx, shape: LoopShape, ind: string): void {
    if (shape.kind === 'while') {
      this.w(`${ind}while `);
      this.putShapeCondition(ctx, shape.cond);
      this.w(' {\n');
      return;
    }
    const i = String(ctx.localNames[shape.counter]);
    this.w(`${ind}for (${shape.declare ? `var ${i}: ${this.type(ctx.f.locals[shape.counter]!.type)}` : i} = `);
    this.put(ctx, shape.init.value, false);
    this.w('; ');
    this.putShapeCondition(ctx, shape.cond);
    if (shape.increment) this.w(`; ${i}++) {\n`);
    else {
      this.w(`; ${i} = `);
      this.put(ctx, shape.next, false);
      this.w(') {\n');
    }
  }

  /** Appends an expression's text; `runtime`: literals through the identity helper. */
  private put(ctx: FnCtx, h: ExprId, runtime: boolean): void {
    const e = ctx.f.exprs[h] as Expr;
    if (this.views) {
      const text = this.viewRead(ctx, h);
      if (text !== undefined) {
        this.w(text);
        return;
      }
    }
    // An operation on constants only: print its literals through the identity helper. (`op` is read
    // once: expressions come in many shapes, and each read of a field shared by all is a lookup.)
    const { op } = e;
    const rt = runtime || (isOperation(e, op) && isConstExpr(ctx.f, ctx.isConst, h));
    // (cases in order of how often they are printed: a switch on strings tests them in turn)
    switch (op) {
      case 'swizzle':
        this.put(ctx, e.vector, rt);
        this.w(swizzleText(e.pattern));
        return;
      case 'load':
        this.putRef(ctx, e.pointer);
        return;
      case 'bitcast': {
        const t = ctx.types[h] as Resolved;
        this.w(this.opening(t.type).bitcast);
        this.put(ctx, e.value, rt);
        this.w(')');
        return;
      }
      case 'binary':
        // On bools `and`/`or` are WGSL's non-short-circuit `&`/`|`, the same symbols as on integers.
        this.w('(');
        this.put(ctx, e.left, rt);
        this.w(BINARY_SPACED[e.fn] ?? ' undefined ');
        this.put(ctx, e.right, rt);
        this.w(')');
        return;
      case 'let':
        this.w(ctx.letNames[e.let] ?? '?');
        return;
      case 'literal': {
        // Literals are shared in the arena and printed many times: their text is made once.
        const cache = runtime ? ctx.litRuntime : ctx.litPlain;
        this.w((cache[h] ??= this.lit(e.scalar, e.bits, runtime)));
        return;
      }
      case 'access':
      case 'member': {
        const r = ctx.types[h] as Resolved;
        if (r.kind === 'pointer' || r.kind === 'handle') this.putRef(ctx, h);
        else if (e.op === 'access') {
          this.put(ctx, e.base, rt);
          this.w('[');
          this.put(ctx, e.index, rt);
          this.w(']');
        } else {
          this.put(ctx, e.base, rt);
          this.w(this.memberText(ctx, e.base, e.index));
        }
        return;
      }
      case 'splat': {
        const t = ctx.types[h] as Resolved;
        this.w(this.opening(t.type).value);
        this.put(ctx, e.value, rt);
        this.w(')');
        return;
      }
      case 'compose':
        this.w((this.idOpens[e.type] ??= `${this.type(e.type)}(`));
        this.putList(ctx, e.parts, rt);
        this.w(')');
        return;
      case 'select':
        this.w('select(');
        this.put(ctx, e.reject, rt);
        this.w(', ');
        this.put(ctx, e.accept, rt);
        this.w(', ');
        this.put(ctx, e.cond, rt);
        this.w(')');
        return;
      case 'math':
        if (e.fn === 'mul_hi') this.w(this.mulHi(ctx, h, e.args, rt ? ctx.xr : ctx.x));
        else {
          this.w(MATH_OPEN[e.fn] ?? 'undefined(');
          this.putList(ctx, e.args, rt);
          this.w(')');
        }
        return;
      case 'local':
        // A local or a global is always a reference (a pointer, or a handle): its name.
        this.w(ctx.localNames[e.local] ?? '?');
        return;
      case 'unary':
        if (e.fn === 'neg') {
          // WGSL has no unary minus on u32: 0 - x wraps the same way.
          const t = (ctx.types[e.arg] as Resolved).type;
          if ((t.kind === 'scalar' || t.kind === 'vector') && t.scalar === 'u32') this.w(`(${this.typeOf(t)}() - `);
          else this.w('(-');
        } else this.w(isBoolTyped(ctx, e.arg) ? '(!' : '(~');
        this.put(ctx, e.arg, rt);
        this.w(')');
        return;
      case 'convert': {
        const t = ctx.types[h] as Resolved;
        this.w(this.opening(t.type).value);
        this.put(ctx, e.value, rt);
        this.w(')');
        return;
      }
      case 'zero':
        this.w(`${this.type(e.type)}()`);
        return;
      case 'constant':
        this.w(this.constant(e.constant));
        return;
      case 'global':
        if (this.views?.has(e.global)) throw new ViewMiss(e.global);
        this.w(this.globalNames[e.global] ?? '?');
        return;
      case 'arg':
        this.w(ctx.argNames[e.index] ?? '?');
        return;
      case 'derivative': {
        const base = e.axis === 'width' ? 'fwidth' : e.axis === 'x' ? 'dpdx' : 'dpdy';
        const suffix = e.control === 'coarse' ? 'Coarse' : e.control === 'fine' ? 'Fine' : '';
        this.w(`${base}${suffix}(`);
        this.put(ctx, e.value, rt);
        this.w(')');
        return;
      }
      case 'sample':
      case 'image_load':
      case 'image_query':
      case 'array_length':
        this.putImage(ctx, e, rt);
    }
  }

  /** A viewed global's read at `h`, as its view prints it. */
  private viewRead(ctx: FnCtx, h: ExprId): string | undefined {
    const e = ctx.f.exprs[h] as Expr;
    if (e.op !== 'load' && e.op !== 'swizzle' && e.op !== 'bitcast') return undefined;
    for (const [g, v] of this.views!) {
      const text = v.read(ctx.f, h, this.globalNames[g]!);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** Appends expressions separated by commas. */
  private putList(ctx: FnCtx, hs: readonly ExprId[], runtime: boolean): void {
    for (let k = 0; k < hs.length; k++) {
      if (k > 0) this.w(', ');
      this.put(ctx, hs[k] as ExprId, runtime);
    }
  }

  /**
   * The texture and buffer-length expressions, written in place as put writes the others: each
   * operand by put, not made a string first (capture's text, an array of them and its join, then a
   * template around it, which the sink flattened again to copy it).
   */
  private putImage(
    ctx: FnCtx,
    e: Extract<Expr, { op: 'sample' | 'image_load' | 'image_query' | 'array_length' }>,
    rt: boolean,
  ): void {
    switch (e.op) {
      case 'sample':
        this.putSample(ctx, e, rt);
        return;
      case 'image_load':
        this.w('textureLoad(');
        this.put(ctx, e.image, rt);
        this.putArg(ctx, e.coord, rt);
        this.putArg(ctx, e.arrayIndex, rt);
        this.putArg(ctx, e.sample ?? e.level, rt);
        this.w(')');
        return;
      case 'image_query':
        this.w(QUERY_OPEN[e.query]);
        this.put(ctx, e.image, rt);
        this.putArg(ctx, e.level, rt);
        this.w(')');
        return;
      case 'array_length':
        this.w('arrayLength(&');
        this.putRef(ctx, e.pointer);
        this.w(')');
        return;
    }
  }

  /** `, ` and the operand (nothing for an absent one). */
  private putArg(ctx: FnCtx, h: ExprId | undefined, rt: boolean): void {
    if (h === undefined) return;
    this.w(', ');
    this.put(ctx, h, rt);
  }

  /**
   * A sample or gather: the builtin for its level, comparison and gather, then the image, sampler,
   * coordinates and array index, what the builtin takes after them (reference, level, bias,
   * gradients), and the constant offset last. A depth image's level is an i32, a depth image
   * sampled with a bias or gradients is sampled at the implicit level or level 0.
   */
  private putSample(ctx: FnCtx, e: Extract<Expr, { op: 'sample' }>, rt: boolean): void {
    const img = ctx.types[e.image] as Resolved;
    const depth = img.type.kind === 'image' && img.type.class.kind === 'depth';
    const l = e.level;
    // the builtin, and what it takes after the array index: fixed text, then operands a and b (a
    // depth image's exact level, a, as an i32)
    let open: string;
    let fixed = '';
    let a: ExprId | undefined;
    let b: ExprId | undefined;
    let levelI32 = false;
    if (e.gather !== undefined) {
      open =
        e.depthRef !== undefined ? 'textureGatherCompare(' : depth ? 'textureGather(' : `textureGather(${e.gather}, `;
      a = e.depthRef;
    } else if (e.depthRef !== undefined) {
      open = l.kind === 'zero' || l.kind === 'exact' ? 'textureSampleCompareLevel(' : 'textureSampleCompare(';
      a = e.depthRef;
    } else
      switch (l.kind) {
        case 'auto':
          open = 'textureSample(';
          break;
        case 'zero':
          open = 'textureSampleLevel(';
          fixed = depth ? ', 0i' : ', 0.0f';
          break;
        case 'exact':
          open = 'textureSampleLevel(';
          a = l.level;
          levelI32 = depth;
          break;
        case 'bias':
          open = depth ? 'textureSample(' : 'textureSampleBias(';
          if (!depth) a = l.bias;
          break;
        case 'gradient':
          open = depth ? 'textureSampleLevel(' : 'textureSampleGrad(';
          if (depth) fixed = ', 0i';
          else {
            a = l.x;
            b = l.y;
          }
          break;
      }
    this.w(open);
    this.put(ctx, e.image, rt);
    this.putArg(ctx, e.sampler, rt);
    this.putArg(ctx, e.coord, rt);
    this.putArg(ctx, e.arrayIndex, rt);
    if (fixed) this.w(fixed);
    if (levelI32) {
      this.w(', i32(');
      this.put(ctx, a as ExprId, rt);
      this.w(')');
    } else this.putArg(ctx, a, rt);
    this.putArg(ctx, b, rt);
    this.putArg(ctx, e.offset, rt);
    this.w(')');
  }

  private mulHiUsed = new Set<string>();

  /** WGSL has no high-half multiply: a helper per scalar type, applied lane by lane. */
  private mulHi(ctx: FnCtx, h: ExprId, args: readonly ExprId[], x: (h: ExprId) => string): string {
    const t = (ctx.types[h] as Resolved).type;
    const s = t.kind === 'vector' || t.kind === 'scalar' ? t.scalar : 'u32';
    this.mulHiUsed.add('u32');
    this.mulHiUsed.add(s);
    const [a, b] = args.map(x);
    if (t.kind !== 'vector') return `iridia_mul_hi_${s}(${a}, ${b})`;
    const lanes = [0, 1, 2, 3]
      .slice(0, t.size)
      .map((k) => `iridia_mul_hi_${s}((${a}).${'xyzw'[k]}, (${b}).${'xyzw'[k]})`);
    return `vec${t.size}<${s}>(${lanes.join(', ')})`;
  }

  private mulHiHelpers(): string[] {
    const out: string[] = [];
    if (this.mulHiUsed.has('u32'))
      out.push(
        'fn iridia_mul_hi_u32(a: u32, b: u32) -> u32 {',
        '  let al = a & 0xffffu;',
        '  let ah = a >> 16u;',
        '  let bl = b & 0xffffu;',
        '  let bh = b >> 16u;',
        '  let lh = al * bh;',
        '  let hl = ah * bl;',
        '  let mid = ((al * bl) >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);',
        '  return ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);',
        '}',
        '',
      );
    if (this.mulHiUsed.has('i32'))
      out.push(
        'fn iridia_mul_hi_i32(a: i32, b: i32) -> i32 {',
        '  var h = iridia_mul_hi_u32(bitcast<u32>(a), bitcast<u32>(b));',
        '  if (a < 0i) { h = h - bitcast<u32>(b); }',
        '  if (b < 0i) { h = h - bitcast<u32>(a); }',
        '  return bitcast<i32>(h);',
        '}',
        '',
      );
    return out;
  }
}

interface FnCtx {
  /** The readable mode's loop and branch shapes of this function (WgslOptions.shapes). */
  readonly shapes?: Shapes | undefined;
  /** The function's names (a name made while printing, as uniformLoad's, comes from it). */
  readonly scope: Namer;
  /** The branches of this function whose condition goes through workgroupUniformLoad. */
  readonly uniform: ReadonlySet<Stmt> | undefined;
  /** Prints an expression (xr: with its literals through the identity helper); made once per function. */
  readonly x: (h: ExprId) => string;
  readonly xr: (h: ExprId) => string;
  readonly f: Function;
  readonly argNames: string[];
  readonly localNames: string[];
  readonly letNames: string[];
  readonly types: Resolved[];
  /** Whether WGSL would evaluate an expression as a constant expression (see isConstExpr). */
  readonly isConst: Uint8Array;
  /** Literal texts by expression, plain and through the identity helper. */
  readonly litPlain: (string | undefined)[];
  readonly litRuntime: (string | undefined)[];
  /** Reference texts by expression: a variable's name and its constant-indexed parts (`r0.x`,
   * `o[1]`), made once each (the IR builder shares these expressions between their readers). */
  readonly refs: (string | undefined)[];
}

const LANE_MEMBER: readonly string[] = ['.x', '.y', '.z', '.w'];

/** The builtins of the image queries, with their opening parenthesis. */
const QUERY_OPEN: Readonly<Record<ImageQuery, string>> = {
  size: 'textureDimensions(',
  levels: 'textureNumLevels(',
  samples: 'textureNumSamples(',
  layers: 'textureNumLayers(',
};

/** `.` and the swizzle letters, by pattern, for patterns of one to four lanes (the common case,
 * cached: a swizzle is a fifth of a lifted program's expressions). */
const SWIZZLES = new Map<number, string>();

function swizzleText(pattern: readonly number[]): string {
  let key = 0;
  for (let k = 0; k < pattern.length; k++) {
    const c = pattern[k] as number;
    if (!(c >= 0 && c <= 3)) return `.${pattern.map((k) => 'xyzw'[k]).join('')}`;
    key = key * 5 + c + 1;
  }
  let text = SWIZZLES.get(key);
  if (text === undefined) {
    text = `.${pattern.map((k) => 'xyzw'[k]).join('')}`;
    SWIZZLES.set(key, text);
  }
  return text;
}

const BINARY: Readonly<Record<string, string>> = {
  add: '+',
  sub: '-',
  mul: '*',
  div: '/',
  rem: '%',
  and: '&',
  or: '|',
  xor: '^',
  shl: '<<',
  shr: '>>',
  eq: '==',
  ne: '!=',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
};

/** The binary operators with the spaces around them. */
const BINARY_SPACED: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BINARY).map(([k, v]) => [k, ` ${v} `]),
);

const MATH: Readonly<Record<string, string>> = {
  min: 'min',
  max: 'max',
  clamp: 'clamp',
  saturate: 'saturate',
  floor: 'floor',
  ceil: 'ceil',
  trunc: 'trunc',
  round: 'round',
  fract: 'fract',
  sqrt: 'sqrt',
  inverse_sqrt: 'inverseSqrt',
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
  fma: 'fma',
  dot: 'dot',
  mul_hi: 'iridia_mul_hi',
  count_one_bits: 'countOneBits',
  reverse_bits: 'reverseBits',
  first_leading_bit: 'firstLeadingBit',
  first_trailing_bit: 'firstTrailingBit',
  extract_bits: 'extractBits',
  insert_bits: 'insertBits',
  pack2x16float: 'pack2x16float',
  unpack2x16float: 'unpack2x16float',
  all: 'all',
  any: 'any',
  abs: 'abs',
};

/** `name(` of each math function, made once (the emitter writes it as one piece). */
const MATH_OPEN: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(MATH).map(([k, v]) => [k, `${v}(`]),
);

/** Operations whose constant evaluation can fail in WGSL (overflow, non-finite results, domain);
 * `op` is e's op, read once by the caller. */
function isOperation(e: Expr, op: Expr['op']): boolean {
  switch (op) {
    case 'binary':
      return OPERATION_BINARY.has((e as ExprOf<'binary'>).fn);
    case 'unary':
      return (e as ExprOf<'unary'>).fn === 'neg';
    case 'math':
      return !NON_OPERATION_MATH.has((e as ExprOf<'math'>).fn);
    case 'bitcast':
      return (e as ExprOf<'bitcast'>).to === 'f32';
    case 'convert':
      return true;
    default:
      return false;
  }
}

type ExprOf<K extends Expr['op']> = Extract<Expr, { op: K }>;

const OPERATION_BINARY: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'div', 'rem', 'shl', 'shr']);
const NON_OPERATION_MATH: ReadonlySet<string> = new Set([
  'min',
  'max',
  'clamp',
  'all',
  'any',
  'abs',
  'count_one_bits',
  'reverse_bits',
]);

function isBoolTyped(ctx: FnCtx, h: ExprId): boolean {
  const t = ctx.types[h];
  return t?.kind === 'value' && (t.type.kind === 'scalar' || t.type.kind === 'vector') && t.type.scalar === 'bool';
}

// Which expressions WGSL would evaluate as constant expressions, asked only of the operations
// whose constant evaluation can fail (isOperation): memo[h] is 0 while unknown, 1 no, 2 yes. The
// recursion stops at the first operand that is not constant (a load, mostly); a chain deeper than
// CONST_DEPTH is settled by a forward pass over the arena instead (operands precede their users).
const CONST_DEPTH = 256;

function isConstExpr(f: Function, memo: Uint8Array, h: ExprId, depth = 0): boolean {
  const known = memo[h];
  if (known !== 0) return known === 2;
  if (depth > CONST_DEPTH) {
    for (let k = 0; k <= h; k++) if (memo[k] === 0) memo[k] = constStep(f.exprs[k] as Expr, f, memo, SETTLED) ? 2 : 1;
    return memo[h] === 2;
  }
  const c = constStep(f.exprs[h] as Expr, f, memo, depth + 1);
  memo[h] = c ? 2 : 1;
  return c;
}

/** The lists by expression of the function being printed (FnCtx.types, litPlain, litRuntime and
 * refs), lent by fn for each function and given back cleared (scratch.ts). */
const TYPES = new ScratchList<Resolved>();
const LIT_PLAIN = new ScratchList<string>();
const LIT_RUNTIME = new ScratchList<string>();
const REFS = new ScratchList<string>();

/** The constant-expression memo of the function being printed (FnCtx.isConst), cleared: one buffer
 * for every function of every module while it is small (a typed array is costly to make, and small
 * programs printed one after another each made one), a fresh one for a function of over 64K
 * expressions (not kept: the buffer stays at that size). */
let CONST_MEMO = new Uint8Array(1024);
const CONST_MEMO_KEPT = 1 << 16;

function constMemo(n: number): Uint8Array {
  if (n > CONST_MEMO_KEPT) return new Uint8Array(n);
  if (CONST_MEMO.length < n) CONST_MEMO = new Uint8Array(CONST_MEMO_KEPT);
  else CONST_MEMO.fill(0, 0, n);
  return CONST_MEMO;
}

/** constStep's depth for the forward pass: an operand is constant when the memo says so already. */
const SETTLED = -1;

/** Whether operand `k` is a constant expression: from the memo (SETTLED) or by recursion at `depth`. */
function constOperand(f: Function, memo: Uint8Array, k: ExprId, depth: number): boolean {
  return depth === SETTLED ? memo[k] === 2 : isConstExpr(f, memo, k, depth);
}

/** Whether `e` is a constant expression given its operands' answers (no closure: called per expression). */
function constStep(e: Expr, f: Function, memo: Uint8Array, depth: number): boolean {
  switch (e.op) {
    case 'literal':
    case 'zero':
      return true;
    case 'compose':
      return constAll(e.parts, f, memo, depth);
    case 'splat':
    case 'bitcast':
    case 'convert':
      return constOperand(f, memo, e.value, depth);
    case 'swizzle':
      return constOperand(f, memo, e.vector, depth);
    case 'unary':
      return constOperand(f, memo, e.arg, depth);
    case 'binary':
      return constOperand(f, memo, e.left, depth) && constOperand(f, memo, e.right, depth);
    case 'select':
      return (
        constOperand(f, memo, e.cond, depth) &&
        constOperand(f, memo, e.accept, depth) &&
        constOperand(f, memo, e.reject, depth)
      );
    case 'math':
      return e.fn !== 'mul_hi' && constAll(e.args, f, memo, depth);
    default:
      return false;
  }
}

function constAll(list: readonly ExprId[], f: Function, memo: Uint8Array, depth: number): boolean {
  for (let k = 0; k < list.length; k++) if (!constOperand(f, memo, list[k]!, depth)) return false;
  return true;
}

function bindingAttr(b: Binding | undefined): string {
  if (!b) return '';
  if (b.kind === 'builtin') return `@builtin(${b.builtin}) `;
  let s = `@location(${b.location}) `;
  if (b.interpolation) s += `@interpolate(${b.interpolation}${b.sampling ? `, ${b.sampling}` : ''}) `;
  return s;
}

function i32Text(bits: number): string {
  const v = bits | 0;
  if (v === -2147483648) return 'bitcast<i32>(2147483648u)';
  return `${v}i`;
}

const f32buf = new DataView(new ArrayBuffer(4));

/**
 * f32Text's answers by bit pattern (as an int32: a small integer for V8), for every program of the
 * process: the same constants (0.5, 1.0, 255.0, ...) come back in program after program, and the
 * search below parses up to nine decimals a pattern. Numbers and strings only, nothing of a
 * program; emptied when it holds F32_TEXTS_MAX, so a stream of new patterns keeps it bounded.
 */
const F32_TEXTS = new Map<number, string>();
const F32_TEXTS_MAX = 4096;

/** The shortest decimal that reads back as these f32 bits; undefined for infinities and NaNs. */
export function f32Text(bits: number): string | undefined {
  const key = bits | 0;
  const known = F32_TEXTS.get(key);
  if (known !== undefined) return known;
  f32buf.setUint32(0, bits >>> 0, true);
  const v = f32buf.getFloat32(0, true);
  if (!Number.isFinite(v)) return undefined;
  const text = shortestF32(v);
  if (F32_TEXTS.size >= F32_TEXTS_MAX) F32_TEXTS.clear();
  F32_TEXTS.set(key, text);
  return text;
}

function shortestF32(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0.0f' : '0.0f';
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return `${wgslDecimal(s)}f`;
  }
  return `${wgslDecimal(v.toPrecision(9))}f`;
}

function wgslDecimal(s: string): string {
  // toPrecision gives "1", "1.5", "1.5e+30", "-2e-7": WGSL needs a '.' or an exponent; both are fine.
  const [mant = '0', exp] = s.split('e');
  const m = mant.includes('.') ? mant : `${mant}.0`;
  return exp === undefined ? m : `${m}e${exp.replace('+', '')}`;
}

const FOLD_NAMES = { add: 'Add', mul: 'Mul', min: 'Min', max: 'Max', and: 'And', or: 'Or', xor: 'Xor' } as const;

/** A subgroup statement's WGSL call (ir.ts "Subgroups"). */
/** emitWgsl's refusal of a 64-bit atomic WGSL cannot write exactly (ir.ts atomic64). */
export function atomic64Refusal(s: Extract<Stmt, { op: 'atomic64' }>): LiftRefusal {
  return new LiftRefusal(
    '64-bit integers',
    `a 64-bit atomic ${s.fn}${s.result !== undefined ? ' whose previous value is used' : ''}: WGSL has 32-bit atomics only, and two word atomics give the exact result only for add, and, or and xor with the previous value unused (the executor runs the program)`,
  );
}

function subgroupCall(s: Extract<Stmt, { op: 'subgroup' }>, x: (h: ExprId) => string): string {
  const a = s.argument !== undefined ? x(s.argument) : '';
  const fold = s.reduce !== undefined ? FOLD_NAMES[s.reduce] : '';
  switch (s.fn) {
    case 'elect':
      return 'subgroupElect()';
    case 'all':
      return `subgroupAll(${a})`;
    case 'any':
      return `subgroupAny(${a})`;
    case 'ballot':
      return `subgroupBallot(${a})`;
    case 'broadcast_first':
      return `subgroupBroadcastFirst(${a})`;
    case 'shuffle':
      return `subgroupShuffle(${a}, ${x(s.index as ExprId)})`;
    case 'reduce':
      return `subgroup${fold}(${a})`;
    case 'exclusive_scan':
      return `subgroupExclusive${fold}(${a})`;
    case 'inclusive_scan':
      return `subgroupInclusive${fold}(${a})`;
    case 'quad_broadcast':
      return `quadBroadcast(${a}, ${x(s.index as ExprId)})`;
    case 'quad_swap_x':
      return `quadSwapX(${a})`;
    case 'quad_swap_y':
      return `quadSwapY(${a})`;
    case 'quad_swap_diagonal':
      return `quadSwapDiagonal(${a})`;
  }
}

/** Whether a module needs WGSL's subgroups extension: a subgroup statement or builtin anywhere. */
export function usesSubgroups(m: Module): boolean {
  const sub = (b: Binding | undefined): boolean => b?.kind === 'builtin' && b.builtin.startsWith('subgroup_');
  return m.functions.some(
    (f) =>
      blockHolds(f.body, HOLDS_SUBGROUP) ||
      f.args.some((a) => {
        const t = m.types[a.type];
        return sub(a.binding) || (t?.kind === 'struct' && t.members.some((mm) => sub(mm.binding)));
      }),
  );
}
