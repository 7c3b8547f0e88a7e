// Readable WGSL's constant buffers as structs of their RDEF variables (docs/decompile.md "Readable
// WGSL"): `struct Transform { WorldViewProj: mat4x4<f32>, Tint: vec4<f32>, }` and
// `var<uniform> transform: Transform;`, read as `transform.Tint.xy` where the IR reads register
// lanes. Each RDEF variable is placed at its HLSL offset under WGSL's uniform layout rules (a vec2
// aligned to 8 bytes, vec3 and vec4 and matrix columns to 16, arrays of a 16-byte stride); a gap
// HLSL packing leaves is an explicit pad member (`_pad0: u32`, `_pad1: vec4<u32>`), so every word
// before the last variable's end is a member's. A buffer whose variables WGSL cannot place there
// (a vec2 at 4 bytes, a member after a float3x3 inside its last column's 16 bytes), or of a type it
// cannot hold as HLSL does (bool, double, min precision, a 2-row column-major matrix, an array of
// scalars or of vectors narrower than 4, a struct), keeps its `array<vec4<u32>, N>` form, and so does
// one read other than by a constant register (the emitter says so with ViewMiss) or through a word
// no member holds.

import type { ExprId, Function, Module, Scalar } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import type { Rdef, RdefConstantBuffer, RdefType } from '../parts/rdef.js';
import { Namer } from '../wgsl/namer.js';
import type { GlobalView } from '../wgsl/emit.js';

/** D3D_SHADER_VARIABLE_TYPE -> the WGSL scalar that holds it as HLSL does (int, float, uint). */
const SCALARS: Readonly<Record<number, Scalar>> = { 2: 'i32', 3: 'f32', 19: 'u32' };
const COMPONENTS = 'xyzw';

/** A word of the buffer: the member vector (or scalar) holding it, and its lane there. */
interface Word {
  readonly base: string;
  readonly lane: number;
  /** Lanes of `base` (1: a scalar). */
  readonly size: number;
  readonly scalar: Scalar;
}

interface Layout {
  readonly members: string[];
  readonly words: Map<number, Word>;
}

/** The views of the program's constant buffers that a struct can hold, by global. */
export function constantBufferViews(p: Program, rdef: Rdef | undefined): Map<number, GlobalView> {
  const views = new Map<number, GlobalView>();
  if (!rdef) return views;
  for (const r of p.interface.resources) {
    if (r.kind.kind !== 'constantBuffer' || r.count !== 1 || !r.reflectedName) continue;
    const cb = rdef.constantBuffers.find((c) => c.name === r.reflectedName && c.type === 0);
    const g = p.module.globals[r.global];
    const t = g && p.module.types[g.type];
    if (!cb || !t || t.kind !== 'array' || g.space !== 'uniform') continue;
    const layout = structLayout(cb);
    if (!layout) continue;
    const name = g.name;
    const upper = name.charAt(0).toUpperCase() + name.slice(1);
    const lower = name.charAt(0).toLowerCase() + name.slice(1);
    views.set(r.global, {
      typeName: upper === lower ? `${name}_t` : upper,
      varName: lower,
      members: layout.members,
      read: (f, id, varName) => readText(p.module, f, id, r.global, layout.words, varName),
    });
  }
  return views;
}

/** The member lines and words of a struct holding the buffer's variables at their offsets; undefined where none can. */
function structLayout(cb: RdefConstantBuffer): Layout | undefined {
  const names = new Namer();
  const members: string[] = [];
  const words = new Map<number, Word>();
  let at = 0;
  let pads = 0;
  const pad = (to: number): void => {
    while (at < to) {
      const name = names.name(`_pad${pads++}`);
      const vec = at % 16 === 0 && to - at >= 16;
      members.push(`${name}: ${vec ? 'vec4<u32>' : 'u32'}`);
      for (let k = 0; k < (vec ? 4 : 1); k++)
        words.set(at / 4 + k, { base: name, lane: k, size: vec ? 4 : 1, scalar: 'u32' });
      at += vec ? 16 : 4;
    }
  };
  for (const v of [...cb.variables].sort((a, b) => a.startOffset - b.startOffset)) {
    const shape = wgslShape(v.type);
    if (!shape || v.startOffset % shape.align !== 0 || v.startOffset < at) return undefined;
    // WGSL places the member at the next multiple of its alignment; a longer gap is padding
    if (v.startOffset > Math.ceil(at / shape.align) * shape.align) pad(v.startOffset);
    const name = names.name(v.name);
    members.push(`${name}: ${shape.type}`);
    for (const [w, word] of shape.words(name)) words.set(v.startOffset / 4 + w, word);
    at = v.startOffset + shape.size;
  }
  return members.length ? { members, words } : undefined;
}

interface Shape {
  readonly type: string;
  readonly align: number;
  readonly size: number;
  /** The words it holds, by word offset from its start. */
  words(name: string): [number, Word][];
}

/** The WGSL type holding an RDEF type as HLSL lays it out in a constant buffer, or undefined. */
function wgslShape(t: RdefType): Shape | undefined {
  const scalar = SCALARS[t.type];
  if (scalar === undefined) return undefined;
  let one: Shape | undefined;
  if (t.class === 0)
    one = { type: scalar, align: 4, size: 4, words: (n) => [[0, { base: n, lane: 0, size: 1, scalar }]] };
  else if (t.class === 1 && t.columns >= 2 && t.columns <= 4) {
    const c = t.columns;
    one = {
      type: `vec${c}<${scalar}>`,
      align: c === 2 ? 8 : 16,
      size: 4 * c,
      words: (n) => Array.from({ length: c }, (_, k) => [k, { base: n, lane: k, size: c, scalar }]),
    };
  } else if ((t.class === 2 || t.class === 3) && scalar === 'f32') {
    // register i holds a row (row_major) or a column (column_major): WGSL column i, of that many lanes
    const regs = t.class === 2 ? t.rows : t.columns;
    const lanes = t.class === 2 ? t.columns : t.rows;
    if (regs < 2 || regs > 4 || lanes < 3 || lanes > 4) return undefined;
    one = {
      type: `mat${regs}x${lanes}<f32>`,
      align: 16,
      size: 16 * regs,
      words: (n) => {
        const out: [number, Word][] = [];
        for (let i = 0; i < regs; i++)
          for (let k = 0; k < lanes; k++) out.push([i * 4 + k, { base: `${n}[${i}]`, lane: k, size: lanes, scalar }]);
        return out;
      },
    };
  }
  if (!one || t.elements === 0) return one;
  // arrays: each element 16-byte aligned in both languages where it fills its registers
  if (one.size % 16 !== 0) return undefined;
  const el = one;
  return {
    type: `array<${el.type}, ${t.elements}>`,
    align: 16,
    size: el.size * t.elements,
    words: (n) => {
      const out: [number, Word][] = [];
      for (let e = 0; e < t.elements; e++)
        for (const [w, word] of el.words(`${n}[${e}]`)) out.push([e * (el.size / 4) + w, word]);
      return out;
    },
  };
}

/**
 * The text of `id` when it is a read of register lanes of global `g` (swizzles and bitcasts of
 * `load(g[row])`, row a constant): the members holding them, a run of lanes of one member as its
 * swizzle, bitcast to the scalar the expression has; undefined otherwise.
 */
function readText(
  m: Module,
  f: Function,
  id: ExprId,
  g: number,
  words: ReadonlyMap<number, Word>,
  varName: string,
): string | undefined {
  let comps: number[] | undefined;
  let scalar: Scalar | undefined;
  let e = f.exprs[id]!;
  for (;;) {
    if (e.op === 'swizzle') {
      const inner = e.pattern;
      comps = comps ? comps.map((k) => inner[k]!) : [...inner];
      e = f.exprs[e.vector]!;
    } else if (e.op === 'bitcast') {
      scalar ??= e.to;
      e = f.exprs[e.value]!;
    } else break;
  }
  if (e.op !== 'load') return undefined;
  const ptr = f.exprs[e.pointer]!;
  if (ptr.op !== 'access' && ptr.op !== 'member') return undefined;
  const base = f.exprs[ptr.base]!;
  if (base.op !== 'global' || base.global !== g) return undefined;
  const index = ptr.op === 'member' ? ptr.index : f.exprs[ptr.index]!;
  const row = typeof index === 'number' ? index : index.op === 'literal' && index.scalar !== 'f32' ? index.bits : -1;
  const t = m.types[m.globals[g]!.type]!;
  if (row < 0 || t.kind !== 'array' || t.length === null || row >= t.length) return undefined;
  const want = scalar ?? 'u32';
  const lanes = (comps ?? [0, 1, 2, 3]).map((k) => words.get(row * 4 + k));
  if (lanes.some((w) => w === undefined)) return undefined;
  // runs of lanes of one member
  const runs: { word: Word; lanes: number[] }[] = [];
  for (const w of lanes as Word[]) {
    const last = runs[runs.length - 1];
    if (last && last.word.base === w.base && w.size > 1 && last.lanes.length < 4) last.lanes.push(w.lane);
    else runs.push({ word: w, lanes: [w.lane] });
  }
  const parts = runs.map(({ word, lanes: ls }) => {
    const whole = ls.length === word.size && ls.every((l, k) => l === k);
    const text = `${varName}.${word.base}${whole || word.size === 1 ? '' : `.${ls.map((l) => COMPONENTS[l]).join('')}`}`;
    if (word.scalar === want) return text;
    return `bitcast<${ls.length === 1 ? want : `vec${ls.length}<${want}>`}>(${text})`;
  });
  return parts.length === 1 ? parts[0] : `vec${lanes.length}<${want}>(${parts.join(', ')})`;
}
