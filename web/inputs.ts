// The Run view's editable inputs: over the seeded inputs of `iridia run --seed S`, each constant
// buffer's words as a table of its members (from the D3DReflect-shaped reflection's RDEF members:
// each word of a member, edited as the member's type — float, int, uint — and written as its word;
// `0x` and eight hex digits write the bits themselves), and a 2D texture's texels from a picked image
// (decoded by the browser, createImageBitmap, without premultiplying or colour conversion; see
// run.ts imageWords for the view's format). The form gives run.ts's RunInputs; the executor and the
// WebGPU run are both given what it gives.

import { IridiaError, type Container, type Json, type LiftedProgram } from '../src/index.js';
import { seedBindings } from '../src/exec/index.js';
import { d3dReflectAnyJson } from '../src/reflect/dxil.js';
import { BIND_PREFIX } from '../src/disasm/header.js';
import { MAX_IMAGE_TEXELS, takesImage, type PickedImage, type RunInputs } from './run.js';

type Obj = { readonly [key: string]: Json };
const num = (v: Json | undefined): number => (typeof v === 'number' ? v : 0);
const list = (v: Json | undefined): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** How a word is shown and parsed: as its member's scalar type, or as bits (hex). */
export type WordType = 'float' | 'int' | 'uint' | 'bits';

/** One word of a constant buffer member: its label (`Tint.x`, `M._m12`, `A[3]`), type and word index in the buffer. */
export interface MemberWord {
  readonly label: string;
  readonly type: WordType;
  readonly word: number;
}

/** D3D_SHADER_VARIABLE_TYPE to how its words are edited: float and the min-precision floats;
 * int and min12int/min16int; uint, bool and min16uint; anything else (double, 16- and 64-bit) as bits. */
function wordType(svt: number): WordType {
  if (svt === 3 || svt === 50 || svt === 51 || svt === 52) return 'float';
  if (svt === 2 || svt === 53 || svt === 54) return 'int';
  if (svt === 19 || svt === 1 || svt === 55) return 'uint';
  return 'bits';
}

/** D3D_SVT_DOUBLE, INT64, UINT64: two words a component. */
const wide = (svt: number): boolean => svt === 39 || svt === 61 || svt === 62;

/**
 * The words of a variable of type `t` at word `base`, by the constant buffer packing rules: an array
 * element starts on a 16-byte boundary, a row-major matrix takes a register a row, a column-major
 * one a register a column, a struct's members at their offsets (an array of structs strides by the
 * struct's extent rounded up to a register).
 */
export function typeWords(t: Obj, base: number, label: string, out: MemberWord[] = []): MemberWord[] {
  const cls = num(t['Class']);
  const elements = num(t['Elements']);
  const count = Math.max(1, elements);
  if (cls === 5) {
    const one: MemberWord[] = [];
    for (const m of list(t['MemberList'])) {
      const mt = (m['Type'] ?? {}) as Obj;
      typeWords(mt, num(mt['Offset']) / 4, `.${String(m['MemberName'] ?? '')}`, one);
    }
    const extent = one.reduce((x, w) => Math.max(x, w.word + 1), 0);
    const stride = Math.ceil(extent / 4) * 4;
    for (let e = 0; e < count; e++)
      for (const w of one)
        out.push({ ...w, label: `${label}${elements ? `[${e}]` : ''}${w.label}`, word: base + e * stride + w.word });
    return out;
  }
  const rows = Math.max(1, num(t['Rows']));
  const cols = Math.max(1, num(t['Columns']));
  const svt = num(t['Type']);
  const type = wordType(svt);
  const per = wide(svt) ? 2 : 1;
  // registers an element takes, components a register
  const [regs, lanes] = cls === 2 ? [rows, cols] : cls === 3 ? [cols, rows] : [1, cols];
  for (let e = 0; e < count; e++)
    for (let r = 0; r < regs; r++)
      for (let l = 0; l < lanes; l++)
        for (let k = 0; k < per; k++) {
          const at = elements ? `[${e}]` : '';
          const comp = cls === 2 ? `._m${r}${l}` : cls === 3 ? `._m${l}${r}` : cls === 1 ? `.${'xyzw'[l] ?? l}` : '';
          const half = per === 2 ? (k === 0 ? ' (low)' : ' (high)') : '';
          out.push({ label: `${label}${at}${comp}${half}`, type, word: base + e * regs * 4 + r * 4 + l * per + k });
        }
  return out;
}

/** Each constant buffer's member words by Direct3D name ("cb0", "cb1,space2"), from D3DReflect's JSON. */
export function constantBufferWords(
  refl: Obj,
): Record<string, { readonly name: string; readonly words: MemberWord[] }> {
  const out: Record<string, { name: string; words: MemberWord[] }> = {};
  const bound = list(refl['BoundResources']).filter((b) => num(b['Type']) === 0);
  for (const cb of list(refl['ConstantBuffers'])) {
    if (num(cb['Type']) !== 0) continue; // a tbuffer or a resource-bind-info buffer is not a cbuffer
    const b = bound.find((x) => x['Name'] === cb['Name']);
    if (!b) continue;
    const space = num(b['Space']);
    const words: MemberWord[] = [];
    for (const v of list(cb['VariableList']))
      typeWords((v['Type'] ?? {}) as Obj, num(v['StartOffset']) / 4, String(v['Name'] ?? ''), words);
    out[`cb${num(b['BindPoint'])}${space ? `,space${space}` : ''}`] = { name: String(cb['Name'] ?? ''), words };
  }
  return out;
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** A word as its type shows it: a float the shortest decimal that reads back as its f32. */
export function showWord(w: number, type: WordType): string {
  w >>>= 0;
  if (type === 'uint') return String(w);
  if (type === 'int') return String(w | 0);
  if (type === 'bits') return `0x${w.toString(16).padStart(8, '0')}`;
  U32[0] = w;
  const f = F32[0]!;
  if (!Number.isFinite(f)) return `0x${w.toString(16).padStart(8, '0')}`; // NaN payloads, infinities: exact bits
  if (Object.is(f, -0)) return '-0';
  for (let p = 1; p <= 9; p++) {
    const s = String(Number(f.toPrecision(p)));
    if (Math.fround(Number(s)) === f) return s;
  }
  return String(f);
}

/** A typed value back to its word, or why it is not one. `0x` and 1-8 hex digits: the bits themselves. */
export function parseWord(text: string, type: WordType): number | string {
  const s = text.trim();
  if (/^0x[0-9a-f]{1,8}$/i.test(s)) return Number.parseInt(s.slice(2), 16) >>> 0;
  if (type === 'bits') return `${JSON.stringify(text)} is not 0x and 1 to 8 hex digits`;
  if (type === 'float') {
    const f = Number(s);
    if (s === '' || Number.isNaN(f)) return `${JSON.stringify(text)} is not a number`;
    F32[0] = f;
    return U32[0]!;
  }
  if (!/^[-+]?\d+$/.test(s)) return `${JSON.stringify(text)} is not an integer`;
  const n = Number(s);
  if (type === 'int' ? n < -0x80000000 || n > 0x7fffffff : n < 0 || n > 0xffffffff)
    return `${s} is outside the range of ${type === 'int' ? 'an int' : 'a uint'}`;
  return n >>> 0;
}

/** A picked image decoded by the browser: its texels as RGBA bytes, not premultiplied, no colour conversion. */
export async function decodeImage(file: Blob): Promise<PickedImage> {
  const bmp = await createImageBitmap(file, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  try {
    const { width, height } = bmp;
    if (width * height > MAX_IMAGE_TEXELS)
      throw new RangeError(`the image is ${width} x ${height}, more than ${MAX_IMAGE_TEXELS} texels`);
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('the browser gives no 2D canvas to decode the image');
    ctx.drawImage(bmp, 0, 0);
    return { width, height, rgba: ctx.getImageData(0, 0, width, height).data };
  } finally {
    bmp.close();
  }
}

function h(tag: string, attrs: Readonly<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/** The form of a program's editable inputs, and what it gives. */
export interface InputsForm {
  readonly element: HTMLElement;
  /** The inputs as the form holds them (once its images are decoded), or why they are not valid. */
  read(seed: number): Promise<{ inputs: RunInputs; edited: string[] } | { error: string }>;
  /** Shows the seeded words of a seed in every cell that is not edited. */
  reseed(seed: number): void;
}

/** Member words a constant buffer's table offers at most (a 4096-register buffer keeps the rest seeded). */
export const EDITABLE_WORDS = 1024;

/** An id part from a Direct3D name ("cb0,space1" -> "cb0-space1"). */
const idOf = (name: string): string => name.replace(/[^A-Za-z0-9]+/g, '-');

export function inputsForm(p: LiftedProgram, c: Container, prefix: string, seed: number): InputsForm {
  const element = h('div', { class: 'run-inputs', id: `${prefix}run-inputs` });
  let refl: Obj = {};
  try {
    refl = d3dReflectAnyJson(c);
  } catch (e) {
    // no reflection: the words are shown by index, as bits
    if (!(e instanceof IridiaError)) throw e;
  }
  const cbs = constantBufferWords(refl);
  const names = new Map<string, string>();
  for (const b of list(refl['BoundResources'])) {
    const cls = BIND_PREFIX[num(b['Type'])] ?? '?';
    const space = num(b['Space']);
    names.set(`${cls}${num(b['BindPoint'])}${space ? `,space${space}` : ''}`, String(b['Name'] ?? ''));
  }
  const seeded = seedBindings(p, seed);
  const cells: { cb: string; input: HTMLInputElement; word: MemberWord }[] = [];
  const images = new Map<string, Promise<PickedImage | undefined>>();
  for (const r of seeded.resources) {
    if (r.kind === 'uniform') {
      const n = r.words!.length;
      const known = cbs[r.name]?.words.filter((w) => w.word < n);
      const words =
        known && known.length
          ? known
          : Array.from({ length: n }, (_, k) => ({
              label: `[${k >> 2}].${'xyzw'[k & 3]}`,
              type: 'bits' as const,
              word: k,
            }));
      const rows = words.slice(0, EDITABLE_WORDS).map((w) => {
        const id = `${prefix}cb-${idOf(r.name)}-w${w.word}`;
        const input = h('input', {
          type: 'text',
          id,
          value: showWord(r.words![w.word]!, w.type),
          spellcheck: 'false',
          'data-cb': r.name,
          'data-word': String(w.word),
          'data-type': w.type,
          'aria-label': `${r.name} ${w.label} (${w.type}), word ${w.word}`,
        }) as HTMLInputElement;
        input.addEventListener('input', () => (input.dataset['edited'] = '1'));
        cells.push({ cb: r.name, input, word: w });
        return h('tr', {}, h('td', {}, w.label), h('td', {}, w.type), h('td', {}, `${w.word * 4}`), h('td', {}, input));
      });
      const title = cbs[r.name]?.name ?? names.get(r.name);
      element.append(
        h(
          'table',
          { class: 'grid inputs', 'data-cb': r.name },
          h(
            'caption',
            {},
            `${r.name}${title ? ` (${title})` : ''}: ${n} words; edit a member, as its type or as 0x bits` +
              (words.length > EDITABLE_WORDS ? ` (the first ${EDITABLE_WORDS} member words; the rest seeded)` : ''),
          ),
          h('thead', {}, h('tr', {}, ...['Member', 'Type', 'Byte', 'Value'].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', {}, ...rows),
        ),
      );
    } else if (
      takesImage(r) &&
      !(r.texture!.image.class.kind === 'storage' && r.texture!.image.class.access === 'write')
    ) {
      const id = `${prefix}image-${idOf(r.name)}`;
      const title = names.get(r.name);
      const what = h('span', { class: 'note', id: `${id}-state` }, `seeded, ${r.texture!.width}×${r.texture!.height}`);
      const input = h('input', { type: 'file', id, accept: 'image/*', 'data-texture': r.name }) as HTMLInputElement;
      input.addEventListener('change', () => {
        const file = input.files?.[0];
        if (!file) {
          images.delete(r.name);
          what.textContent = `seeded, ${r.texture!.width}×${r.texture!.height}`;
          return;
        }
        what.textContent = `decoding ${file.name}…`;
        const decoded = decodeImage(file).then(
          (img) => {
            what.textContent = `${file.name}, ${img.width}×${img.height}`;
            return img;
          },
          (e: unknown) => {
            what.textContent = `${file.name} could not be decoded (${e instanceof Error ? e.message : String(e)}): seeded`;
            images.delete(r.name);
            return undefined;
          },
        );
        images.set(r.name, decoded);
      });
      element.append(
        h(
          'p',
          { class: 'note', 'data-texture': r.name },
          h('label', { for: id }, `Image for ${r.name}${title ? ` (${title})` : ''} `),
          input,
          ' ',
          what,
        ),
      );
    }
  }
  return {
    element,
    reseed(s: number): void {
      const b = seedBindings(p, s);
      for (const { cb, input, word } of cells) {
        if (input.dataset['edited']) continue;
        const words = b.resources.find((r) => r.name === cb)?.words;
        if (words) input.value = showWord(words[word.word]!, word.type);
      }
    },
    async read(s: number) {
      const b = seedBindings(p, s);
      const constants: Record<string, Uint32Array> = {};
      const edited = new Map<string, number>();
      for (const { cb, input, word } of cells) {
        if (!input.dataset['edited']) continue;
        const w = parseWord(input.value, word.type);
        if (typeof w === 'string') return { error: `${cb} ${word.label}: ${w}` };
        constants[cb] ??= b.resources.find((r) => r.name === cb)!.words!.slice();
        constants[cb]![word.word] = w;
        edited.set(cb, (edited.get(cb) ?? 0) + 1);
      }
      const picked: Record<string, PickedImage> = {};
      for (const [name, img] of images) {
        const x = await img;
        if (x) picked[name] = x;
      }
      const notes = [
        ...[...edited].map(([cb, n]) => `${cb} (${n} ${n === 1 ? 'word' : 'words'})`),
        ...Object.entries(picked).map(([t, x]) => `${t} (a ${x.width}×${x.height} image)`),
      ];
      return { inputs: { seed: s, constants, images: picked }, edited: notes };
    },
  };
}
