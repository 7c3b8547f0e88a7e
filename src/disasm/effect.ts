// The listing D3DDisassemble prints for a Direct3D 10 effect (fx_4_0 / fx_4_1, an FX10 part): the
// version and pool lines, then each constant buffer with its variables, offsets, sizes, semantics,
// packoffsets and default values. Layout of the part (facts from vkd3d's fx.c and Wine's d3d10
// effect reader): a 19-word header (version, buffer, numeric-variable and object counts, shared
// counts, technique count, unstructured size, ...), the unstructured data (strings, types, default
// values), then the buffers, each followed by its annotations and variables, the objects (strings,
// resources, state blocks, shaders), the pool's shared buffers and objects, and the techniques.
// What is not known yet (an unknown state, assignment kind or expression opcode) is refused by name.

import type { Container } from '../container/container.js';
import { ByteReader } from '../binary/reader.js';
import { UnsupportedError } from '../errors.js';
import { bitsToFloat, formatHex, formatInt } from './literal.js';
import { FX_STATES, type FxState } from './effect-states.js';
import { expressionLines } from './effect-expr.js';
import { formatG } from '../d3d9/literal.js';

const VERSIONS: Readonly<Record<number, string>> = { 0xfeff1001: 'fx_4_0', 0xfeff1011: 'fx_4_1', 0xfeff2001: 'fx_5_0' };

/** fx_5_0's version word: fxc writes such an effect bare, not in a DXBC container. */
export const FX5_MAGIC = 0xfeff2001;

/** Is this a bare fx_5_0 effect binary (its first word 0xFEFF2001)? */
export function isBareEffect(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= 4 && (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0 === FX5_MAGIC
  );
}

/** The listing of a bare fx_5_0 effect, as D3DDisassemble prints it. */
export function bareEffectListing(
  bytes: Uint8Array,
  flags = 0,
  embedded: (bytes: Uint8Array, flags: number) => string = () => '',
): string {
  return new EffectPrinter(bytes, 0, flags, embedded).print();
}

/** The effect part of a container, if any. */
export function effectPart(c: Container): Container['parts'][number] | undefined {
  return c.parts.find((p) => p.kind === 'FX10');
}

function unsupported(what: string): UnsupportedError {
  return new UnsupportedError('E208_PART_UNSUPPORTED', `effect listings with ${what} are not printed yet`, {
    part: 'FX10',
  });
}

/** printf's %.9g of a float, as the Microsoft C runtime writes it (three exponent digits: 1e+010). */
export function formatG9(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  if (!Number.isFinite(v)) return Number.isNaN(v) ? '1.#QNAN' : v < 0 ? '-1.#INF' : '1.#INF';
  return formatG(v, 9);
}

interface FxType {
  readonly name: string;
  readonly cls: number;
  readonly elements: number;
  readonly unpacked: number;
  readonly packed: number;
  readonly typeinfo: number;
}

/** Options for the shaders an effect embeds (their listings follow the outer flag word). */
export function effectListing(
  c: Container,
  flags = 0,
  embedded: (bytes: Uint8Array, flags: number) => string = () => '',
): string {
  const part = effectPart(c);
  if (part === undefined) throw unsupported('no FX10 part');
  return new EffectPrinter(part.data, part.offset + 8, flags, embedded).print();
}

/** Shader objects: 4.x pixel, vertex, geometry, geometry with stream output; 5.0 pixel, vertex,
 * geometry, compute, hull, domain (Effects11's EObjectType). */
const OBJECT_SHADERS: ReadonlySet<number> = new Set([5, 6, 7, 8, 24, 25, 26, 27, 28, 29]);
const OBJECT_SHADERS5: ReadonlySet<number> = new Set([24, 25, 26, 27, 28, 29]);
const OBJECT_STATES: ReadonlySet<number> = new Set([2, 3, 4, 0x15]);

class EffectPrinter {
  private readonly r: ByteReader;
  private data!: ByteReader;
  private pos = 0;
  private readonly out: string[] = [];

  constructor(
    bytes: Uint8Array,
    private readonly base: number,
    private readonly flags: number,
    private readonly embedded: (bytes: Uint8Array, flags: number) => string,
  ) {
    this.r = new ByteReader(bytes, { base, where: 'FX10', code: 'E201_PART_TRUNCATED' });
  }

  private u32(): number {
    const v = this.r.u32At(this.pos, 'the effect');
    this.pos += 4;
    return v;
  }

  private str(off: number): string {
    return this.data.cstringAt(off);
  }

  private typeAt(off: number): FxType {
    const d = this.data;
    return {
      name: this.str(d.u32At(off)),
      cls: d.u32At(off + 4),
      elements: d.u32At(off + 8),
      unpacked: d.u32At(off + 12),
      packed: d.u32At(off + 20),
      typeinfo: d.u32At(off + 24),
    };
  }

  print(): string {
    const h: number[] = [];
    // fx_5_0's header adds five counts: groups, UAVs, interface variables, their elements, class
    // instance elements (Effects11's SBinaryHeader5).
    const fx5 = this.r.u32At(0, 'the version') === FX5_MAGIC;
    for (let i = 0; i < (fx5 ? 24 : 19); i++) h.push(this.u32());
    const [version, buffers, , objects, sharedBuffers, , sharedObjects, techniques, unstructured] = h as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const name = VERSIONS[version];
    if (name === undefined) throw unsupported(`version ${formatHex(version)}`);
    this.r.require(this.pos, unstructured, 'the unstructured data');
    this.data = new ByteReader(this.r.bytes.subarray(this.pos, this.pos + unstructured), {
      base: this.base + this.pos,
      where: 'FX10',
      code: 'E201_PART_TRUNCATED',
    });
    this.pos += unstructured;
    const out = this.out;
    const child = sharedBuffers > 0 || sharedObjects > 0;
    out.push('//', `// FX Version: ${name}`);
    if (!fx5) out.push(`// Child effect (requires effect pool): ${child}`);
    if (buffers) {
      out.push('//', `// ${buffers} local buffer(s)`, '//');
      for (let b = 0; b < buffers; b++) this.buffer();
    }
    if (objects) {
      out.push('//', `// ${objects} local object(s)`, '//');
      for (let o = 0; o < objects; o++) this.object();
      out.push('');
    }
    // A child effect's shared (pool) buffers and objects: names and types only.
    if (sharedBuffers) {
      out.push('//', `// ${sharedBuffers} shared buffer(s)`, '//');
      for (let b = 0; b < sharedBuffers; b++) this.buffer(true);
    }
    if (sharedObjects) {
      out.push('//', `// ${sharedObjects} shared object(s)`, '//');
      for (let o = 0; o < sharedObjects; o++) this.sharedObject();
      out.push('');
    }
    if (fx5) {
      const interfaces = h[21]!;
      if (interfaces) {
        out.push('//', `// ${interfaces} local interface(s)`, '//');
        for (let i = 0; i < interfaces; i++) this.interfaceVariable();
        out.push('');
      }
      const groups = h[19]!;
      if (groups) {
        out.push('//', `// ${groups} groups(s)`, '//');
        for (let g = 0; g < groups; g++) this.group();
      }
    } else if (techniques) {
      out.push('//', `// ${techniques} technique(s)`, '//');
      for (let t = 0; t < techniques; t++) this.technique();
    }
    return `${out.join('\n')}\n`;
  }

  private sharedObject(): void {
    const name = this.str(this.u32());
    const type = this.typeAt(this.u32());
    const semantic = this.u32();
    this.u32(); // bind point
    const array = type.elements > 1;
    this.out.push(
      `${type.name} ${name}${array ? `[${type.elements}]` : ''}${semantic ? ` : ${this.str(semantic)}` : ''};`,
    );
  }

  private buffer(shared = false): void {
    const bname = this.str(this.u32());
    this.u32(); // size
    const flags = this.u32();
    const count = this.u32();
    const bind = this.u32();
    const notes = shared ? [] : this.annotations('');
    this.out.push(`${flags & 1 ? 'tbuffer' : 'cbuffer'} ${bname}${bind !== 0xffffffff ? ` : register(b${bind})` : ''}`);
    this.out.push(...notes, '{');
    for (let v = 0; v < count; v++) {
      const vname = this.str(this.u32());
      const type = this.typeAt(this.u32());
      const semantic = this.u32();
      const offset = this.u32();
      const value = this.u32();
      const vflags = this.u32();
      // A shared variable has no annotation block.
      const vnotes = shared ? [] : this.annotations('    ');
      let decl = `${vname}${type.elements ? `[${type.elements}]` : ''}`;
      if (semantic) decl += ` : ${this.str(semantic)}`;
      if (vflags & 4) decl += ` : packoffset(c${offset >>> 4}.${'xyzw'[(offset >>> 2) & 3]})`;
      // The default value follows the annotations, when there are some (`> = { 1, 0 };`).
      const init = value ? ` = ${defaultValue(this.data, value, type)}` : '';
      const tname = type.name === '' ? '<unnamed>' : type.name;
      let text = `    ${tname.padEnd(7)} ${decl}`;
      if (vnotes.length) {
        this.out.push(text, ...vnotes.slice(0, -1));
        text = vnotes[vnotes.length - 1]!;
      }
      text += init;
      this.out.push(
        `${`${text};`.padEnd(40)}// Offset: ${String(offset).padStart(4)}, size: ${String(type.unpacked).padStart(4)}`,
      );
    }
    this.out.push('}', '');
  }

  /** Reads an annotation block; returns its lines ('<', entries, '>') at `indent`, or none. */
  private annotations(indent: string): string[] {
    const count = this.u32();
    if (count === 0) return [];
    const lines = [`${indent}<`];
    for (let i = 0; i < count; i++) {
      const name = this.str(this.u32());
      const type = this.typeAt(this.u32());
      let value: string;
      if (type.cls === 1) value = defaultValue(this.data, this.u32(), type);
      else if (type.cls === 2 && type.typeinfo === 1) {
        const n = Math.max(1, type.elements);
        const parts: string[] = [];
        for (let j = 0; j < n; j++) parts.push(`"${this.str(this.u32())}"`);
        value = n > 1 || type.elements ? `{ ${parts.join(', ')} }` : parts[0]!;
      } else throw unsupported('annotations of this type');
      lines.push(`${indent}    ${type.name} ${name}${type.elements ? `[${type.elements}]` : ''} = ${value};`);
    }
    lines.push(`${indent}>`);
    return lines;
  }

  private object(): void {
    const name = this.str(this.u32());
    const type = this.typeAt(this.u32());
    const semantic = this.u32();
    this.u32(); // bind point
    // A one-element array prints as a single object.
    const array = type.elements > 1;
    // The type name is padded to seven characters, as a buffer variable's is (`Buffer  colorBuffer`).
    const head = `${type.name.padEnd(7)} ${name}${array ? `[${type.elements}]` : ''}${semantic ? ` : ${this.str(semantic)}` : ''}`;
    const n = Math.max(1, type.elements);
    const body: string[] = [];
    if (OBJECT_STATES.has(type.typeinfo)) {
      if (array) {
        body.push('{');
        for (let i = 0; i < n; i++) {
          const count = this.u32();
          body.push('    {', ...this.assignments(count, '        '), `    }${i < n - 1 ? ',' : ''}`);
        }
        body.push('};');
      } else {
        for (let i = 0; i < n; i++) {
          const count = this.u32();
          body.push('{', ...this.assignments(count, '    '), '};');
        }
      }
    } else if (OBJECT_SHADERS.has(type.typeinfo)) {
      const items: string[][] = [];
      for (let i = 0; i < n; i++) {
        if (OBJECT_SHADERS5.has(type.typeinfo)) {
          items.push(this.shader5(this.r, this.pos, '    '));
          this.pos += 36;
          continue;
        }
        const offset = this.u32();
        const so = type.typeinfo === 8 ? this.u32() : 0;
        items.push(this.shader(offset, '    ', so));
      }
      if (array) {
        body.push('{');
        items.forEach((it, i) => {
          body.push(...it.slice(0, -1), `${it[it.length - 1]}${i < items.length - 1 ? ',' : ''}`);
        });
        body.push('};');
      } else {
        const it = items[0]!;
        body.push(...it.slice(0, -1), `${it[it.length - 1]};`);
      }
    }
    // A string's value: one string offset an element, quoted as it is (fxc keeps the escapes' characters).
    let value: string | undefined;
    if (type.typeinfo === 1) {
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(`"${this.str(this.u32())}"`);
      value = array ? `{ ${parts.join(', ')} }` : parts[0]!;
    }
    const notes = this.annotations('');
    const lines = [head, ...notes];
    if (value !== undefined) lines[lines.length - 1] += ` = ${value};`;
    else if (body.length === 0) lines[lines.length - 1] += ';';
    else if (OBJECT_SHADERS.has(type.typeinfo)) lines[lines.length - 1] += ' = ';
    this.out.push(...lines, ...body);
  }

  /**
   * The comments after a 5.0 shader (Effects11's SBinaryShaderData5 at `at` in `r`: shader offset,
   * four stream-output declarations, their count, the rasterized stream, the interface bindings):
   * one stream's declaration, or each stream's and the stream sent to the rasterizer, then each
   * interface parameter's class instance.
   */
  private shader5(r: ByteReader, at: number, indent: string): string[] {
    const u = (k: number, what: string): number => r.u32At(at + 4 * k, what);
    const offset = u(0, 'a 5.0 shader');
    const decls = u(5, 'a stream-output declaration count');
    const rasterized = u(6, 'the rasterized stream');
    const bindings = u(7, 'an interface binding count');
    const bindingsAt = u(8, 'the interface bindings');
    if (decls > 4) throw unsupported(`${decls} stream-output declarations`);
    const notes: string[] = [];
    const c = indent.slice(4);
    if (decls === 1) {
      const d = u(1, 'a stream-output declaration');
      if (d) notes.push(`${c}/* Stream out decl: "${this.str(d)}" */`);
    } else {
      for (let i = 0; i < decls; i++) {
        const d = u(1 + i, 'a stream-output declaration');
        if (d) notes.push(`${c}/* Stream ${i} out decl: "${this.str(d)}" */`);
      }
      if (decls > 1 && rasterized !== 0) notes.push(`${c}/* Stream ${rasterized} to rasterizer */`);
    }
    this.data.require(bindingsAt, bindings * 8, 'the interface bindings');
    for (let i = 0; i < bindings; i++) {
      const name = this.str(this.data.u32At(bindingsAt + i * 8, 'an interface binding'));
      const index = this.data.u32At(bindingsAt + i * 8 + 4, 'an interface binding');
      // 0xFFFFFFFF: not an array element; an element is named with its index (none in the oracle yet)
      notes.push(`${c}/* Interface parameter ${i} bound to: ${name}${index !== 0xffffffff ? `[${index}]` : ''} */`);
    }
    return this.shader(offset, indent, 0, notes);
  }

  /** A shader at an unstructured offset: NULL, or its listing in `asm { }` at `indent`. */
  private shader(offset: number, indent: string, soDecl: number, notes: readonly string[] = []): string[] {
    if (offset === 0) return [`${indent}NULL`];
    const size = this.data.u32At(offset, 'a shader size');
    this.data.require(offset + 4, size, 'a shader');
    // Embedded shaders print as at flag word 0, whatever the effect's flags.
    const text = this.embedded(this.data.bytes.subarray(offset + 4, offset + 4 + size), 0);
    const inner = `${indent}    `;
    const lines = [`${indent}asm {`];
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    for (const l of body.split('\n')) lines.push(inner + l);
    lines.push(inner + indent, `${indent}}`);
    if (soDecl) lines.push(`${indent.slice(4)}/* Stream out decl: "${this.str(soDecl)}" */`);
    lines.push(...notes);
    return lines;
  }

  /** eval(...) of the expression blob at an unstructured offset; its later lines 16 past the assignment's indent. */
  private expression(offset: number, indent: string): string {
    const size = this.data.u32At(offset, 'an expression size');
    this.data.require(offset + 4, size, 'an expression');
    const lines = expressionLines(this.data.bytes.subarray(offset + 4, offset + 4 + size));
    return `eval(${lines.join(`\n${' '.repeat(indent.length + 16)}`)})`;
  }

  /** An interface variable (fx_5_0): name, type, initializer offset, flags, then its annotations. */
  private interfaceVariable(): void {
    const name = this.str(this.u32());
    const type = this.typeAt(this.u32());
    const init = this.u32();
    this.u32(); // flags
    const array = type.elements > 1;
    const lines = [`${type.name.padEnd(7)} ${name}${array ? `[${type.elements}]` : ''}`, ...this.annotations('')];
    if (init !== 0) throw unsupported('initialised interface variables');
    lines[lines.length - 1] += ';';
    this.out.push(...lines);
  }

  /** An fx_5_0 group: its name ('' for the techniques outside any), annotations and techniques. */
  private group(): void {
    const nameAt = this.u32();
    const name = nameAt ? this.str(nameAt) : '';
    const techniques = this.u32();
    this.out.push(name ? `fxgroup ${name}` : 'fxgroup', ...this.annotations(''), '{');
    this.out.push('    //', `    // ${techniques} technique(s)`, '    //');
    for (let t = 0; t < techniques; t++) this.technique('    ', 'technique11');
    this.out.push('}', '');
  }

  private technique(indent = '', keyword = 'technique10'): void {
    const name = this.str(this.u32());
    const passes = this.u32();
    this.out.push(`${indent}${keyword} ${name}`, ...this.annotations(indent), `${indent}{`);
    for (let p = 0; p < passes; p++) {
      const pname = this.str(this.u32());
      const count = this.u32();
      const notes = this.annotations(`${indent}    `);
      this.out.push(
        `${indent}    pass ${pname}`,
        ...notes,
        `${indent}    {`,
        ...this.assignments(count, `${indent}        `),
        `${indent}    }`,
        '',
      );
    }
    this.out.push(`${indent}}`, '');
  }

  private assignments(count: number, indent: string): string[] {
    const lines: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = this.u32();
      const index = this.u32();
      const kind = this.u32();
      const value = this.u32();
      const state = FX_STATES[id];
      if (state === undefined) throw unsupported(`state id ${id}`);
      const lhs = `${state.name}${state.indexed ? `[${index}]` : ''}`.padEnd(8);
      const d = this.data;
      let rhs: string;
      if (kind === 1) {
        const n = d.u32At(value);
        if (state.kind === 'o') rhs = 'NULL';
        else {
          const parts: string[] = [];
          for (let j = 0; j < n; j++) {
            const t = d.u32At(value + 4 + j * 8);
            const w = d.u32At(value + 8 + j * 8);
            parts.push(stateValue(state, storedNumber(t, w), n, t));
          }
          const tname = { b: 'bool', f: 'float', u: 'uint', y: 'byte' }[state.kind];
          rhs = `${tname}${state.dim > 1 ? state.dim : ''}(${parts.join(', ')})`;
        }
      } else if (kind === 2) rhs = this.str(value);
      else if (kind === 3) rhs = `${this.str(d.u32At(value))}[${d.u32At(value + 4)}]`;
      // an object indexed by a variable: the array's name, then the index variable's (shaders[gPick])
      else if (kind === 4) rhs = `${this.str(d.u32At(value))}[${this.str(d.u32At(value + 4))}]`;
      else if (kind === 7 || kind === 8) {
        // 7: an inline 4.x shader (shader, stream-output declaration); 8: a 5.0 one (SBinaryShaderData5)
        const sh =
          kind === 7 ? this.shader(d.u32At(value), indent, d.u32At(value + 4)) : this.shader5(d, value, indent);
        lines.push(`${indent}${lhs} = ${sh[0]!.trimStart()}`, ...sh.slice(1, -1), `${sh[sh.length - 1]};`);
        continue;
      } else if (kind === 6) rhs = this.expression(value, indent);
      else if (kind === 5) rhs = `${this.str(d.u32At(value))}[${this.expression(d.u32At(value + 4), indent)}]`;
      else throw unsupported(`assignments of kind ${kind}`);
      lines.push(`${indent}${lhs} = ${rhs};`);
    }
    return lines;
  }
}

/** A constant's value from its stored type (1 float, 2 int, 3 uint, 4 bool). */
function storedNumber(type: number, w: number): number {
  if (type === 1) return bitsToFloat(w);
  if (type === 2) return w | 0;
  if (type === 4) return w ? 1 : 0;
  return w >>> 0;
}

/**
 * A state's constant converted to the state's type, as fxc prints it. A named value's comment is the
 * constant as stored: `true`/`false` for a bool (`DepthEnable = true`), the number for an integer
 * (`DepthEnable = TRUE`: fxc's TRUE is the int 1, and the comment is 1).
 */
function stateValue(state: FxState, v: number, n: number, storedType: number): string {
  const w = state.kind === 'f' ? 0 : Math.trunc(v) | 0;
  if (state.kind === 'f') return formatG9(v);
  if (n === 1 && state.values !== undefined) {
    const named = state.values[w];
    if (named !== undefined) return `${named} /* ${storedType === 4 ? (w ? 'true' : 'false') : w} */`;
  }
  if (state.kind === 'b') return w ? 'true' : 'false';
  if (state.kind === 'y') return `0x${(w >>> 0).toString(16).padStart(2, '0')}`;
  // an unsigned constant prints unsigned (AB_SampleMask = 0xFFFFFFFF: 0xffffffff), a signed one
  // signed (DepthBias = -12: uint(-12))
  if (storedType === 3) return w >>> 0 > 10000 ? formatHex(w) : String(w >>> 0);
  return formatInt(w);
}

function defaultValue(data: ByteReader, at: number, type: FxType): string {
  const n = type.packed >>> 2;
  const base = (type.typeinfo >>> 3) & 0xf;
  const lanes: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = data.u32At(at + i * 4, 'a default value');
    if (type.cls !== 1) lanes.push(formatHex(w));
    else if (base === 1) lanes.push(formatG9(bitsToFloat(w)));
    else if (base === 2) lanes.push(String(w | 0));
    else if (base === 3) lanes.push(w >>> 0 > 10000 ? formatHex(w) : String(w >>> 0));
    else if (base === 4) lanes.push(w ? 'true' : 'false');
    else lanes.push(formatHex(w));
  }
  // A value whose lanes are all one word prints that lane once (`float4 fogColor = 1;` is `{ 1 }`):
  // no listing holds a repeated lane written out.
  if (n > 1 && lanes.every((l) => l === lanes[0])) return `{ ${lanes[0]!} }`;
  return n === 1 ? lanes[0]! : `{ ${lanes.join(', ')} }`;
}
