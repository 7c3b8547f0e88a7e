// The WGSL emitter's output: text written into one buffer of bytes, a byte per UTF-16 code unit, and
// made a string once, when the module is done.
//
// Why (issue 17, docs/benchmarks.md, the twelfth session): appending to a string makes V8 keep a
// rope, a tree of every piece appended. A function's rope lived until the module was joined, so each
// young collection on the way copied it (a large function's text is a hundred thousand pieces and
// more), the old generation took it in, and the join walked the tree again. Bytes in one buffer,
// lent from one module to the next, are neither copied by the collector nor made again.
//
// The bytes of code units up to 0x7F are the text itself. A piece that holds a code unit above
// 0x7F (only the caller's header comments can, in practice) is kept as a string beside the bytes,
// with zero bytes in place of those code units: text() puts the piece back, so the string made is
// the one written, code unit for code unit.

/** A piece written with a code unit above 0x7F, kept whole: it covers bytes at to at + text.length. */
interface WidePiece {
  at: number;
  readonly text: string;
}

/** Makes the string of bytes `from` to `to` of `bytes`, each byte 0x7F or below. */
export type AsciiDecoder = (bytes: Uint8Array, from: number, to: number) => string;

// The bytes are all 0x7F or below (see above), so UTF-8 and Latin-1 read them as the same characters.
// TextDecoder's Latin-1 (windows-1252) is slower than its UTF-8: it converts the bytes to UTF-8 in a
// buffer of its own, then decodes that (2,035 to 40,000 bytes: 1.3 to 1.6 times as long).
const UTF8 = new TextDecoder('utf-8');
/** Every platform's decoder: TextDecoder's UTF-8. */
export const decodeWithTextDecoder: AsciiDecoder = (bytes, from, to) => UTF8.decode(bytes.subarray(from, to));

/** The part of Node's Buffer used here (the library names no Node module: it runs in browsers too). */
interface NodeBufferClass {
  from(
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ): { toString(encoding: 'latin1', start: number, end: number): string };
}
const NODE_BUFFER = (globalThis as unknown as { Buffer?: NodeBufferClass }).Buffer;

/**
 * Node's decoder, where there is one: a Buffer's Latin-1 text, made by copying the bytes into a
 * one-byte string. TextDecoder's UTF-8 checks and converts them first (issue 17, docs/benchmarks.md,
 * the twentieth session): 1.1 to 3 times as long from 300 to 100,000 bytes, and 12 times as long for
 * the corpus's largest WGSL text (1.1 MB). Over the corpus's own sizes that is about a twentieth of
 * the decode, whose cost is mostly the new string's memory. A Buffer is a view of the same memory,
 * no copy.
 */
export const decodeWithNodeBuffer: AsciiDecoder | undefined =
  NODE_BUFFER === undefined
    ? undefined
    : (bytes, from, to) =>
        NODE_BUFFER.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', from, to);

/** The decoder a sink uses unless told: Node's where there is one. */
export const defaultDecoder: AsciiDecoder = decodeWithNodeBuffer ?? decodeWithTextDecoder;

export class TextSink {
  /** Where the next write goes: the length of the text written. */
  pos = 0;
  private wide: WidePiece[] = [];

  constructor(
    private bytes: Uint8Array,
    private readonly decode: AsciiDecoder = defaultDecoder,
  ) {}

  /** Appends `s`. */
  write(s: string): void {
    const n = s.length;
    const p = this.pos;
    if (p + n > this.bytes.length) this.grow(p + n);
    const b = this.bytes;
    let high = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      b[p + i] = c;
      high |= c;
    }
    if (high > 0x7f) this.keepWide(s, p);
    this.pos = p + n;
  }

  /** The character code at `at` (0 for a code unit above 0x7F). */
  byteAt(at: number): number {
    return this.bytes[at] ?? 0;
  }

  /**
   * Puts `pieces.join(separator) + last` before everything written so far, without making that
   * string: the emitter's module header is dozens of lines, and their join was flattened again
   * character by character as it was written.
   */
  prependJoined(pieces: readonly string[], separator: string, last: string): void {
    let n = last.length;
    for (let k = 0; k < pieces.length; k++) n += (pieces[k] as string).length + (k ? separator.length : 0);
    if (n === 0) return;
    const end = this.pos;
    if (end + n > this.bytes.length) this.grow(end + n);
    this.bytes.copyWithin(n, 0, end);
    for (const w of this.wide) w.at += n;
    const wide = this.wide;
    this.wide = [];
    this.pos = 0;
    for (let k = 0; k < pieces.length; k++) {
      if (k) this.write(separator);
      this.write(pieces[k] as string);
    }
    this.write(last);
    this.wide.push(...wide);
    this.pos = end + n;
  }

  /** The text written from `from` to `to`, as a string. */
  text(from = 0, to = this.pos): string {
    if (this.wide.length === 0) return this.decode(this.bytes, from, to);
    let out = '';
    let at = from;
    for (const w of this.wide) {
      const end = w.at + w.text.length;
      if (end <= at || w.at >= to) continue;
      if (w.at > at) out += this.decode(this.bytes, at, w.at);
      out += w.text.slice(Math.max(at, w.at) - w.at, Math.min(to, end) - w.at);
      at = Math.min(to, end);
    }
    if (at < to) out += this.decode(this.bytes, at, to);
    return out;
  }

  /** The buffer, for the next taker (SinkBuffer.give). */
  get buffer(): Uint8Array {
    return this.bytes;
  }

  private keepWide(s: string, p: number): void {
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) this.bytes[p + i] = 0;
    this.wide.push({ at: p, text: s });
  }

  private grow(need: number): void {
    let size = Math.max(this.bytes.length * 2, 1024);
    while (size < need) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.bytes.subarray(0, this.pos));
    this.bytes = b;
  }
}

/**
 * One buffer kept for reuse, lent to one sink at a time (a second taker while it is out gets a new
 * one), as ScratchList (src/ir/scratch.ts) keeps the emitter's lists: a buffer made for each module
 * would be new pages for a large one. A buffer over `keepAtMost` bytes (4 MiB unless told: twice
 * the corpus's largest WGSL text, 1.1 MB) is not kept, so that one huge module does not hold its
 * memory for the rest of the process.
 */
export class SinkBuffer {
  private kept: Uint8Array | undefined = undefined;

  constructor(private readonly keepAtMost = 1 << 22) {}

  /** A sink with nothing written, writing into the kept buffer when it is free. */
  take(): TextSink {
    const b = this.kept ?? new Uint8Array(1 << 16);
    this.kept = undefined;
    return new TextSink(b);
  }

  /** Takes back a sink's buffer (the sink is not to be written again). */
  give(sink: TextSink): void {
    const b = sink.buffer;
    if (b.length > this.keepAtMost) return;
    if (this.kept !== undefined && this.kept.length >= b.length) return;
    this.kept = b;
  }
}
