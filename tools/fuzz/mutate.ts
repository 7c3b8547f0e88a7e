// Mutations of seed files, as replayable data: a mutant is a seed and a list of operations, each
// holding raw random words that are resolved against the bytes at the time it applies (a position is
// `r % length`), so an operation list still applies after the shrinker drops some of its members.
// Everything is a pure function of (campaign seed, target, mutant index): a campaign is reproducible.

import { containerDigest } from '../../src/container/digest.js';

/** mulberry32: a small, fast, deterministic generator of 32-bit words. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A 32-bit hash of words (FNV-1a over their bytes), to derive a mutant's generator. */
export function hashWords(...words: number[]): number {
  let h = 0x811c9dc5;
  for (const w of words)
    for (let k = 0; k < 4; k++) {
      h ^= (w >>> (8 * k)) & 0xff;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  return h >>> 0;
}

export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i) & 0xff;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** One mutation. `r*` are raw random words resolved when it applies; `part` picks the focus region. */
export type Op =
  | { readonly op: 'flip'; readonly part: number; readonly r: number; readonly bits: number }
  | { readonly op: 'byte'; readonly part: number; readonly r: number; readonly value: number }
  | { readonly op: 'word'; readonly part: number; readonly r: number; readonly value: number }
  | { readonly op: 'add'; readonly part: number; readonly r: number; readonly delta: number }
  | { readonly op: 'truncate'; readonly part: number; readonly r: number }
  | {
      readonly op: 'splice';
      readonly part: number;
      readonly r: number;
      readonly from: number;
      readonly r2: number;
      readonly len: number;
    }
  | {
      readonly op: 'insert';
      readonly part: number;
      readonly r: number;
      readonly from: number;
      readonly r2: number;
      readonly len: number;
    }
  | { readonly op: 'cut'; readonly part: number; readonly r: number; readonly len: number }
  | { readonly op: 'shuffle'; readonly r: number }
  | { readonly op: 'drop-part'; readonly r: number }
  | { readonly op: 'dup-part'; readonly r: number }
  | { readonly op: 'swap-part'; readonly r: number; readonly from: number; readonly r2: number }
  | { readonly op: 'sign' };

export interface Mutant {
  readonly seed: number;
  readonly ops: readonly Op[];
}

const INTERESTING = [0, 0xffffffff, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0x10000, 0xffff, 0x100, 0xff, 0x40000000];

/** The parts of a container as [start, end) of their payloads, read leniently (clipped; none when the
 * header is not a container's). */
export function partRanges(b: Uint8Array): { kind: string; header: number; start: number; end: number }[] {
  if (b.byteLength < 32 || b[0] !== 0x44 || b[1] !== 0x58 || b[2] !== 0x42 || b[3] !== 0x43) return [];
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const count = Math.min(dv.getUint32(28, true), (b.byteLength - 32) >>> 2, 64);
  const out: { kind: string; header: number; start: number; end: number }[] = [];
  for (let i = 0; i < count; i++) {
    const off = dv.getUint32(32 + 4 * i, true);
    if (off + 8 > b.byteLength) continue;
    const size = dv.getUint32(off + 4, true);
    const kind = String.fromCharCode(b[off]!, b[off + 1]!, b[off + 2]!, b[off + 3]!);
    out.push({ kind, header: off, start: off + 8, end: Math.min(b.byteLength, off + 8 + size) });
  }
  return out;
}

/** The region an operation works in: the whole file (part 0), or the payload of a part whose kind is in
 * `focus` (part = 1 + which of them), falling back to the whole file. */
function region(b: Uint8Array, part: number, focus: readonly string[]): [number, number] {
  if (part === 0 || focus.length === 0) return [0, b.byteLength];
  const ps = partRanges(b).filter((p) => focus.includes(p.kind) && p.end > p.start);
  if (ps.length === 0) return [0, b.byteLength];
  const p = ps[(part - 1) % ps.length]!;
  return [p.start, p.end];
}

interface RawPart {
  kind: string;
  data: Uint8Array;
}

/** The parts, read as the container's writer would (for the part-level operations); undefined when the
 * directory is not readable. */
function rawParts(b: Uint8Array): RawPart[] | undefined {
  const ps = partRanges(b);
  if (ps.length === 0) return undefined;
  return ps.map((p) => ({ kind: p.kind, data: b.slice(p.start, p.end) }));
}

/** A container from parts (the layout fxc and dxc write), keeping the header's digest and version. */
function build(template: Uint8Array, parts: readonly RawPart[]): Uint8Array {
  const dir = 32 + 4 * parts.length;
  const total = parts.reduce((n, p) => n + 8 + p.data.byteLength, dir);
  const out = new Uint8Array(total);
  out.set(template.subarray(0, 24));
  const dv = new DataView(out.buffer);
  dv.setUint32(24, total, true);
  dv.setUint32(28, parts.length, true);
  let at = dir;
  parts.forEach((p, i) => {
    dv.setUint32(32 + 4 * i, at, true);
    for (let k = 0; k < 4; k++) out[at + k] = p.kind.charCodeAt(k) & 0xff;
    dv.setUint32(at + 4, p.data.byteLength, true);
    out.set(p.data, at + 8);
    at += 8 + p.data.byteLength;
  });
  return out;
}

/** Applies one operation (a new array; the input is not changed). */
export function applyOp(b: Uint8Array, op: Op, seeds: readonly Uint8Array[], focus: readonly string[]): Uint8Array {
  return apply(b, op, seeds, focus, false);
}

/** One operation; with `owned` (b is a copy of the caller's, seen by no one else) the operations that
 * keep the length change b in place instead of copying it: the same bytes, one copy fewer. */
function apply(
  b: Uint8Array,
  op: Op,
  seeds: readonly Uint8Array[],
  focus: readonly string[],
  owned: boolean,
): Uint8Array {
  const copy = (): Uint8Array => (owned ? b : b.slice());
  switch (op.op) {
    case 'flip': {
      const [s, e] = region(b, op.part, focus);
      if (e <= s) return b;
      const out = copy();
      const at = s + (op.r % (e - s));
      out[at] = out[at]! ^ (op.bits & 0xff || 1);
      return out;
    }
    case 'byte': {
      const [s, e] = region(b, op.part, focus);
      if (e <= s) return b;
      const out = copy();
      out[s + (op.r % (e - s))] = op.value & 0xff;
      return out;
    }
    case 'word':
    case 'add': {
      const [s, e] = region(b, op.part, focus);
      if (e - s < 4) return b;
      const out = copy();
      // word-aligned within the region (the token streams are words from the region's start)
      const at = s + 4 * (op.r % ((e - s) >>> 2));
      const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
      const v = op.op === 'word' ? op.value : dv.getUint32(at, true) + op.delta;
      dv.setUint32(at, v >>> 0, true);
      return out;
    }
    case 'truncate': {
      const [s, e] = region(b, op.part, focus);
      if (s === 0 && e === b.byteLength) return b.slice(0, op.r % (b.byteLength + 1));
      // inside a part: the part's payload loses its tail, the size word and the container follow
      const ps = rawParts(b);
      if (!ps) return b;
      const i = partRanges(b).findIndex((p) => p.start === s);
      const p = ps[i];
      if (!p) return b;
      p.data = p.data.slice(0, op.r % (p.data.byteLength + 1));
      return build(b, ps);
    }
    case 'splice':
    case 'insert': {
      const src = seeds[op.from % seeds.length]!;
      const [s, e] = region(b, op.part, focus);
      if (e <= s || src.byteLength === 0) return b;
      const at = s + (op.r % (e - s));
      const from = op.r2 % src.byteLength;
      const chunk = src.subarray(from, Math.min(src.byteLength, from + 1 + (op.len % 256)));
      if (op.op === 'splice') {
        const out = copy();
        out.set(chunk.subarray(0, out.byteLength - at), at);
        return out;
      }
      const out = new Uint8Array(b.byteLength + chunk.byteLength);
      out.set(b.subarray(0, at));
      out.set(chunk, at);
      out.set(b.subarray(at), at + chunk.byteLength);
      return out;
    }
    case 'cut': {
      const [s, e] = region(b, op.part, focus);
      if (e <= s) return b;
      const at = s + (op.r % (e - s));
      const len = Math.min(e - at, 1 + (op.len % 64));
      const out = new Uint8Array(b.byteLength - len);
      out.set(b.subarray(0, at));
      out.set(b.subarray(at + len), at);
      return out;
    }
    case 'shuffle': {
      const ps = rawParts(b);
      if (!ps || ps.length < 2) return b;
      const r = rng(op.r);
      for (let i = ps.length - 1; i > 0; i--) {
        const j = r() % (i + 1);
        [ps[i], ps[j]] = [ps[j]!, ps[i]!];
      }
      return build(b, ps);
    }
    case 'drop-part': {
      const ps = rawParts(b);
      if (!ps) return b;
      ps.splice(op.r % ps.length, 1);
      return build(b, ps);
    }
    case 'dup-part': {
      const ps = rawParts(b);
      if (!ps) return b;
      const i = op.r % ps.length;
      ps.splice(i, 0, { kind: ps[i]!.kind, data: ps[i]!.data });
      return build(b, ps);
    }
    case 'swap-part': {
      // splicing between files at the part level: a part of this kind from another seed
      const ps = rawParts(b);
      const other = rawParts(seeds[op.from % seeds.length]!);
      if (!ps || !other) return b;
      const i = op.r % ps.length;
      const same = other.filter((p) => p.kind === ps[i]!.kind);
      const pick = same.length ? same[op.r2 % same.length]! : other[op.r2 % other.length]!;
      ps[i] = pick;
      return build(b, ps);
    }
    case 'sign': {
      if (b.byteLength < 32 || partRanges(b).length === 0) return b;
      const out = copy();
      const total = new DataView(out.buffer, out.byteOffset, out.byteLength).getUint32(24, true);
      if (total > out.byteLength || total < 32) return out;
      try {
        out.set(containerDigest(out.subarray(0, total)), 4);
      } catch {
        // a header the digest cannot cover stays stale
      }
      return out;
    }
  }
}

export function applyOps(
  seed: Uint8Array,
  ops: readonly Op[],
  seeds: readonly Uint8Array[],
  focus: readonly string[],
): Uint8Array {
  let b = seed;
  // every array but the seed is this call's own: later operations may change it in place
  for (const op of ops) b = apply(b, op, seeds, focus, b !== seed);
  return b;
}

/** The mutant `index` of a campaign: a seed, 1 to 4 byte-level operations (sometimes a part-level one
 * first), re-signed half of the time. */
export function makeMutant(
  campaign: number,
  target: string,
  index: number,
  seedCount: number,
  containers: boolean,
): Mutant {
  const r = rng(hashWords(campaign, hashString(target), index));
  const seed = r() % seedCount;
  const ops: Op[] = [];
  const part = (): number => (containers && r() % 4 !== 0 ? 1 + (r() % 8) : 0);
  if (containers && r() % 6 === 0) {
    const k = r() % 4;
    if (k === 0) ops.push({ op: 'shuffle', r: r() });
    else if (k === 1) ops.push({ op: 'drop-part', r: r() });
    else if (k === 2) ops.push({ op: 'dup-part', r: r() });
    else ops.push({ op: 'swap-part', r: r(), from: r(), r2: r() });
  }
  for (let n = 1 + (r() % 4); n > 0; n--) {
    const k = r() % 100;
    if (k < 30) ops.push({ op: 'flip', part: part(), r: r(), bits: 1 << (r() % 8) });
    else if (k < 40) ops.push({ op: 'byte', part: part(), r: r(), value: r() });
    else if (k < 60) {
      const v = r() % 3;
      const value = v === 0 ? INTERESTING[r() % INTERESTING.length]! : v === 1 ? (1 << (r() % 32)) >>> 0 : r();
      ops.push({ op: 'word', part: part(), r: r(), value });
    } else if (k < 75) ops.push({ op: 'add', part: part(), r: r(), delta: r() % 2 ? 1 : -1 });
    else if (k < 80) ops.push({ op: 'truncate', part: part(), r: r() });
    else if (k < 88) ops.push({ op: 'splice', part: part(), r: r(), from: r(), r2: r(), len: r() });
    else if (k < 94) ops.push({ op: 'insert', part: part(), r: r(), from: r(), r2: r(), len: r() });
    else ops.push({ op: 'cut', part: part(), r: r(), len: r() });
  }
  if (containers && r() % 2 === 0) ops.push({ op: 'sign' });
  return { seed, ops };
}
