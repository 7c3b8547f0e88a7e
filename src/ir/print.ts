// A readable printer for the IR (ir.ts), for tests, snapshots and `iridia lift --ir`. Expressions
// print inline as trees (they are pure, see "Evaluation"); lets print as `let %name.N = ...`;
// literals print as their type and bit pattern (f32 also with its value), so nothing is rounded;
// `load(p)` reads through a pointer, `p[k]`/`p.x`/`p.name` select an element, lane or member.
// Statement origins (ir.ts Origin) print only with `{ origins: true }`, as ` @12` (or ` @3,4`)
// after the statement's first line.

export interface PrintOptions {
  /** Print each statement's origin after its first line. */
  readonly origins?: boolean;
}

import {
  originList,
  type Binding,
  type Block,
  type Expr,
  type ExprId,
  type Function,
  type Module,
  type Stmt,
  type Type,
} from './ir.js';
import { resolveFunction, type Resolved } from './typeof.js';

export function printModule(m: Module, options: PrintOptions = {}): string {
  const out: string[] = [];
  const tn = (id: number): string => typeName(m, id);
  m.constants.forEach((c, i) => {
    out.push(`const ${c.name} (#${i}): ${tn(c.type)} = [${c.words.map((w) => hex(w)).join(', ')}]`);
  });
  m.globals.forEach((g, i) => {
    const b = g.binding ? ` @group(${g.binding.group}) @binding(${g.binding.binding})` : '';
    const acc = g.access ? `, ${g.access}` : '';
    const init = g.init !== undefined ? ` = ${m.constants[g.init]?.name ?? '?'}` : '';
    out.push(`global ${g.name} (#${i}): <${g.space}${acc}> ${tn(g.type)}${b}${init}`);
  });
  for (const ep of m.entryPoints) {
    const ws = ep.workgroupSize ? ` workgroup_size(${ep.workgroupSize.join(', ')})` : '';
    const early = ep.earlyFragmentTests ? ' early_fragment_tests' : '';
    out.push(`entry ${ep.stage} ${ep.name} = fn ${m.functions[ep.function]?.name ?? '?'}${ws}${early}`);
  }
  for (const f of m.functions) {
    out.push('');
    // one line at a time: spreading a function of 10^5 lines into push() overflows the stack
    for (const line of printFunction(m, f, options)) out.push(line);
  }
  return out.join('\n') + '\n';
}

export function typeName(m: Module, id: number): string {
  const t = m.types[id];
  return t ? typeText(m, t) : `#${id}?`;
}

export function typeText(m: Module, t: Type): string {
  switch (t.kind) {
    case 'scalar':
      return t.scalar;
    case 'vector':
      return `vec${t.size}<${t.scalar}>`;
    case 'array':
      return `array<${typeName(m, t.base)}${t.length === null ? '' : `, ${t.length}`}>`;
    case 'struct':
      return t.name;
    case 'atomic':
      return `atomic<${t.scalar}>`;
    case 'image': {
      const c = t.class;
      const what =
        c.kind === 'sampled'
          ? `${c.scalar}${c.multisampled ? ', ms' : ''}`
          : c.kind === 'depth'
            ? `depth${c.multisampled ? ', ms' : ''}`
            : `${c.format}, ${c.access}`;
      return `image_${t.dim}${t.arrayed ? '_array' : ''}<${what}>`;
    }
    case 'sampler':
      return t.comparison ? 'sampler_comparison' : 'sampler';
    case 'binding_array':
      return `binding_array<${typeName(m, t.base)}${t.size === null ? '' : `, ${t.size}`}>`;
  }
}

function bindingText(b: Binding | undefined): string {
  if (!b) return '';
  if (b.kind === 'builtin') return ` @builtin(${b.builtin})`;
  const interp = b.interpolation ? ` @interpolate(${b.interpolation}${b.sampling ? `, ${b.sampling}` : ''})` : '';
  return ` @location(${b.location})${interp}`;
}

export function printFunction(m: Module, f: Function, options: PrintOptions = {}): string[] {
  const out: string[] = [];
  const structs = new Set<number>();
  const noteStruct = (id: number) => {
    const t = m.types[id];
    if (t?.kind === 'struct') structs.add(id);
  };
  f.args.forEach((a) => noteStruct(a.type));
  if (f.result) noteStruct(f.result.type);
  for (const id of structs) {
    const t = m.types[id];
    if (t?.kind !== 'struct') continue;
    out.push(`struct ${t.name} {`);
    for (const mm of t.members) out.push(`  ${mm.name}: ${typeName(m, mm.type)}${bindingText(mm.binding)}`);
    out.push('}');
  }
  const args = f.args.map((a) => `${a.name}: ${typeName(m, a.type)}${bindingText(a.binding)}`).join(', ');
  const res = f.result ? ` -> ${typeName(m, f.result.type)}${bindingText(f.result.binding)}` : '';
  out.push(`fn ${f.name}(${args})${res} {`);
  const p = new ExprPrinter(m, f);
  f.locals.forEach((l) => {
    out.push(`  var ${l.name}: ${typeName(m, l.type)}${l.init !== undefined ? ` = ${p.expr(l.init)}` : ''}`);
  });
  printBlock(p, f.body, '  ', out, options.origins === true);
  out.push('}');
  return out;
}

function printBlock(p: ExprPrinter, b: Block, ind: string, out: string[], origins: boolean): void {
  for (const s of b) {
    const first = out.length;
    statement(p, s, ind, out, origins);
    if (origins && s.origin !== undefined) out[first] += ` @${originList(s.origin).join(',')}`;
  }
}

function statement(p: ExprPrinter, s: Stmt, ind: string, out: string[], origins: boolean): void {
  switch (s.op) {
    case 'let':
      out.push(`${ind}let ${p.letName(s.let)} = ${p.expr(s.value)}`);
      break;
    case 'store':
      out.push(`${ind}store ${p.expr(s.pointer)} = ${p.expr(s.value)}`);
      break;
    case 'if':
      out.push(`${ind}if ${p.expr(s.cond)} {`);
      printBlock(p, s.accept, ind + '  ', out, origins);
      if (s.reject.length) {
        out.push(`${ind}} else {`);
        printBlock(p, s.reject, ind + '  ', out, origins);
      }
      out.push(`${ind}}`);
      break;
    case 'loop':
      out.push(`${ind}loop {`);
      printBlock(p, s.body, ind + '  ', out, origins);
      out.push(`${ind}}`);
      break;
    case 'switch':
      out.push(`${ind}switch ${p.expr(s.selector)} {`);
      for (const c of s.cases) {
        const labels = [...c.values.map((v) => hex(v)), ...(c.isDefault ? ['default'] : [])].join(', ');
        out.push(`${ind}  case ${labels} {`);
        printBlock(p, c.body, ind + '    ', out, origins);
        out.push(`${ind}  }`);
      }
      out.push(`${ind}}`);
      break;
    case 'break':
    case 'continue':
    case 'kill':
      out.push(`${ind}${s.op}`);
      break;
    case 'return':
      out.push(`${ind}return${s.value !== undefined ? ` ${p.expr(s.value)}` : ''}`);
      break;
    case 'barrier': {
      const what = [
        s.workgroup && 'workgroup',
        s.storage && 'storage',
        s.texture && 'texture',
        s.execution && 'execution',
      ]
        .filter(Boolean)
        .join(' ');
      out.push(`${ind}barrier ${what}`);
      break;
    }
    case 'atomic': {
      const ops = [s.value, s.compare].filter((x): x is number => x !== undefined).map((x) => p.expr(x));
      const r = s.result !== undefined ? `let ${p.letName(s.result)} = ` : '';
      out.push(`${ind}${r}atomic_${s.fn}(${[p.expr(s.pointer), ...ops].join(', ')})`);
      break;
    }
    case 'atomic64': {
      const ops = [s.value, s.compare].filter((x): x is number => x !== undefined).map((x) => p.expr(x));
      const r = s.result !== undefined ? `let ${p.letName(s.result)} = ` : '';
      out.push(`${ind}${r}atomic64_${s.fn}(${[p.expr(s.low), p.expr(s.high), ...ops].join(', ')})`);
      break;
    }
    case 'subgroup': {
      const ops = [s.argument, s.index].filter((x): x is number => x !== undefined).map((x) => p.expr(x));
      const fold = s.reduce !== undefined ? `_${s.reduce}` : '';
      out.push(`${ind}let ${p.letName(s.result)} = subgroup_${s.fn}${fold}(${ops.join(', ')})`);
      break;
    }
    case 'image_store': {
      const ai = s.arrayIndex !== undefined ? `, layer ${p.expr(s.arrayIndex)}` : '';
      out.push(`${ind}image_store(${p.expr(s.image)}, ${p.expr(s.coord)}${ai}, ${p.expr(s.value)})`);
      break;
    }
    case 'call':
      out.push(
        `${ind}${s.result !== undefined ? `let ${p.letName(s.result)} = ` : ''}call #${s.fn}(${s.args.map((a) => p.expr(a)).join(', ')})`,
      );
      break;
    case 'emit':
    case 'cut':
      out.push(`${ind}${s.op} stream ${s.stream}`);
      break;
  }
}

class ExprPrinter {
  /** Resolved types, for `.x` on vectors, `.name` on structs and `[k]` on arrays (absent when the IR does not type). */
  private readonly types: Resolved[] | undefined;

  constructor(
    readonly m: Module,
    readonly f: Function,
  ) {
    try {
      this.types = resolveFunction(m, f);
    } catch {
      this.types = undefined;
    }
  }

  letName(id: number): string {
    return `%${this.f.lets[id]?.name ?? 'let'}.${id}`;
  }

  expr(h: ExprId): string {
    const e = this.f.exprs[h];
    if (!e) return `%?${h}`;
    return this.text(e);
  }

  private text(e: Expr): string {
    const x = (h: ExprId) => this.expr(h);
    switch (e.op) {
      case 'literal':
        return literalText(e.scalar, e.bits);
      case 'zero':
        return `zero<${typeName(this.m, e.type)}>`;
      case 'constant':
        return this.m.constants[e.constant]?.name ?? `const#${e.constant}`;
      case 'compose':
        return `${typeName(this.m, e.type)}(${e.parts.map(x).join(', ')})`;
      case 'splat':
        return `splat${e.size}(${x(e.value)})`;
      case 'swizzle':
        return `${x(e.vector)}.${e.pattern.map((c) => 'xyzw'[c]).join('')}`;
      case 'arg':
        return this.f.args[e.index]?.name ?? `arg${e.index}`;
      case 'global':
        return this.m.globals[e.global]?.name ?? `global#${e.global}`;
      case 'local':
        return this.f.locals[e.local]?.name ?? `local#${e.local}`;
      case 'let':
        return this.letName(e.let);
      case 'access':
        return `${x(e.base)}[${x(e.index)}]`;
      case 'member': {
        const t = this.types?.[e.base]?.type;
        if (t?.kind === 'vector') return `${x(e.base)}.${'xyzw'[e.index]}`;
        if (t?.kind === 'struct') return `${x(e.base)}.${t.members[e.index]?.name ?? e.index}`;
        return `${x(e.base)}[${e.index}]`;
      }
      case 'load':
        return `load(${x(e.pointer)})`;
      case 'unary':
        return `${e.fn}(${x(e.arg)})`;
      case 'binary':
        return `${e.fn}(${x(e.left)}, ${x(e.right)})`;
      case 'select':
        return `select(${x(e.cond)} ? ${x(e.accept)} : ${x(e.reject)})`;
      case 'math':
        return `${e.fn}(${e.args.map(x).join(', ')})`;
      case 'bitcast':
        return `bitcast<${e.to}>(${x(e.value)})`;
      case 'convert':
        return `convert<${e.to}>(${x(e.value)})`;
      case 'derivative':
        return `d${e.axis}_${e.control}(${x(e.value)})`;
      case 'sample': {
        const bits = [x(e.image), x(e.sampler), x(e.coord)];
        if (e.arrayIndex !== undefined) bits.push(`layer ${x(e.arrayIndex)}`);
        const l = e.level;
        if (l.kind === 'exact') bits.push(`level ${x(l.level)}`);
        else if (l.kind === 'bias') bits.push(`bias ${x(l.bias)}`);
        else if (l.kind === 'gradient') bits.push(`grad ${x(l.x)} ${x(l.y)}`);
        else bits.push(`level ${l.kind}`);
        if (e.depthRef !== undefined) bits.push(`ref ${x(e.depthRef)}`);
        if (e.offset !== undefined) bits.push(`offset ${x(e.offset)}`);
        if (e.clamp !== undefined) bits.push(`clamp ${x(e.clamp)}`);
        return `${e.gather !== undefined ? `gather${'xyzw'[e.gather]}` : 'sample'}(${bits.join(', ')})`;
      }
      case 'image_load': {
        const bits = [x(e.image), x(e.coord)];
        if (e.arrayIndex !== undefined) bits.push(`layer ${x(e.arrayIndex)}`);
        if (e.sample !== undefined) bits.push(`sample ${x(e.sample)}`);
        if (e.level !== undefined) bits.push(`level ${x(e.level)}`);
        return `image_load(${bits.join(', ')})`;
      }
      case 'image_query':
        return `image_${e.query}(${x(e.image)}${e.level !== undefined ? `, ${x(e.level)}` : ''})`;
      case 'array_length':
        return `array_length(${x(e.pointer)})`;
    }
  }
}

export function literalText(scalar: string, bits: number): string {
  switch (scalar) {
    case 'bool':
      return bits ? 'true' : 'false';
    case 'u32':
      return `${bits >>> 0}u`;
    case 'i32':
      return `${bits | 0}i`;
    default: {
      const dv = new DataView(new ArrayBuffer(4));
      dv.setUint32(0, bits, true);
      return `f32(${hex(bits)} ${dv.getFloat32(0, true)})`;
    }
  }
}

function hex(n: number): string {
  return `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
}
