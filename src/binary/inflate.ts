// Inflate (RFC 1951 DEFLATE, inside RFC 1950's zlib wrapper), synchronous and browser-safe, for
// the compressed parts of containers (SRCI's source contents, which dxc writes with zlib's
// deflate). Every read is bounded by the input, every write by the size the caller declares, and
// the output grows with what the stream really holds (never a buffer sized by the declared field
// alone). A stream that breaks a rule of the RFCs gets a typed error naming the byte it was at.

import { IridiaError, hex, type ErrorCode } from '../errors.js';

export interface InflateOptions {
  /** The most bytes the stream may produce (the container's declared uncompressed size). */
  readonly limit: number;
  /** Added to reported offsets (the stream's offset in the file). */
  readonly base?: number;
  /** The part named in errors. */
  readonly part?: string;
}

/** Deflate's best ratio: a 258-byte match costs at least two bits (RFC 1951, 3.2.5). */
export const MAX_INFLATE_RATIO = 1032;

// Lengths 257..285 and distances 0..29 (RFC 1951, 3.2.5): bases and extra bits.
const LEN_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order the code-length code's lengths are stored in (RFC 1951, 3.2.7). */
const CLEN_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A canonical Huffman code: how many codes of each length 1..15, and the symbols in code order. */
interface Code {
  readonly counts: Uint16Array;
  readonly symbols: Uint16Array;
}

class Inflater {
  private pos = 0;
  private bits = 0;
  private nbits = 0;
  private out: Uint8Array;
  private len = 0;
  constructor(
    private readonly input: Uint8Array,
    private readonly o: InflateOptions,
  ) {
    this.out = new Uint8Array(Math.min(o.limit, input.byteLength * 4 + 1024));
  }

  fail(code: ErrorCode, reason: string, at = this.pos): IridiaError {
    const offset = (this.o.base ?? 0) + at;
    return new IridiaError(code, reason, this.o.part === undefined ? { offset } : { offset, part: this.o.part });
  }

  private need(n: number): number {
    while (this.nbits < n) {
      if (this.pos >= this.input.byteLength)
        throw this.fail('E201_PART_TRUNCATED', `the deflate stream ends inside a block`);
      this.bits |= this.input[this.pos++]! << this.nbits;
      this.nbits += 8;
    }
    const v = this.bits & ((1 << n) - 1);
    this.bits >>>= n;
    this.nbits -= n;
    return v;
  }

  private emit(b: number): void {
    if (this.len >= this.o.limit)
      throw this.fail('E207_PART_BAD_VALUE', `the deflate stream holds more than the declared ${this.o.limit} bytes`);
    if (this.len === this.out.byteLength) {
      const bigger = new Uint8Array(Math.min(this.o.limit, this.out.byteLength * 2 + 256));
      bigger.set(this.out);
      this.out = bigger;
    }
    this.out[this.len++] = b;
  }

  /** Builds a canonical code; `complete` says whether an incomplete set of lengths is refused. */
  private code(lengths: ArrayLike<number>, what: string, complete: boolean): Code {
    const counts = new Uint16Array(16);
    for (let i = 0; i < lengths.length; i++) counts[lengths[i]!]!++;
    counts[0] = 0;
    let left = 1;
    let max = 0;
    for (let l = 1; l <= 15; l++) {
      left = left * 2 - counts[l]!;
      if (left < 0) throw this.fail('E207_PART_BAD_VALUE', `the ${what} code is over-subscribed`);
      if (counts[l]) max = l;
    }
    // zlib's rule: an incomplete code-length code is refused; an incomplete literal/length or
    // distance code only where it is more than one code of one bit (or none, never decoded from).
    if (left > 0 && (complete || max > 1)) throw this.fail('E207_PART_BAD_VALUE', `the ${what} code is incomplete`);
    const offs = new Uint16Array(16);
    for (let l = 1; l < 15; l++) offs[l + 1] = offs[l]! + counts[l]!;
    const symbols = new Uint16Array(lengths.length);
    for (let i = 0; i < lengths.length; i++) if (lengths[i]) symbols[offs[lengths[i]!]!++] = i;
    return { counts, symbols };
  }

  /** Decodes one symbol, a bit at a time (codes are stored most significant bit first). */
  private decode(c: Code, what: string): number {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let l = 1; l <= 15; l++) {
      code |= this.need(1);
      const count = c.counts[l]!;
      if (code - first < count) return c.symbols[index + code - first]!;
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw this.fail('E207_PART_BAD_VALUE', `no ${what} code matches the bits`);
  }

  private stored(): void {
    this.bits = 0;
    this.nbits = 0;
    if (this.pos + 4 > this.input.byteLength)
      throw this.fail('E201_PART_TRUNCATED', 'the deflate stream ends inside a stored block header');
    const i = this.input;
    const len = i[this.pos]! | (i[this.pos + 1]! << 8);
    const nlen = i[this.pos + 2]! | (i[this.pos + 3]! << 8);
    if ((len ^ 0xffff) !== nlen)
      throw this.fail('E207_PART_BAD_VALUE', `a stored block's length ${len} and its complement ${nlen} disagree`);
    this.pos += 4;
    if (len > i.byteLength - this.pos)
      throw this.fail('E201_PART_TRUNCATED', `a stored block of ${len} bytes runs past the end of the stream`);
    for (let k = 0; k < len; k++) this.emit(i[this.pos + k]!);
    this.pos += len;
  }

  private codes(lit: Code, dist: Code): void {
    for (;;) {
      const sym = this.decode(lit, 'literal/length');
      if (sym < 256) this.emit(sym);
      else if (sym === 256) return;
      else {
        const li = sym - 257;
        if (li >= 29) throw this.fail('E207_PART_BAD_VALUE', `length code ${sym} is not used by deflate`);
        const length = LEN_BASE[li]! + this.need(LEN_EXTRA[li]!);
        const di = this.decode(dist, 'distance');
        if (di >= 30) throw this.fail('E207_PART_BAD_VALUE', `distance code ${di} is not used by deflate`);
        const distance = DIST_BASE[di]! + this.need(DIST_EXTRA[di]!);
        if (distance > this.len)
          throw this.fail('E207_PART_BAD_VALUE', `a match reaches ${distance} bytes back, before the stream's start`);
        for (let k = 0; k < length; k++) this.emit(this.out[this.len - distance]!);
      }
    }
  }

  private fixed(): [Code, Code] {
    const l = new Uint8Array(288);
    l.fill(8, 0, 144);
    l.fill(9, 144, 256);
    l.fill(7, 256, 280);
    l.fill(8, 280, 288);
    return [this.code(l, 'literal/length', true), this.code(new Uint8Array(32).fill(5), 'distance', true)];
  }

  private dynamic(): [Code, Code] {
    const nlen = this.need(5) + 257;
    const ndist = this.need(5) + 1;
    const nclen = this.need(4) + 4;
    if (nlen > 286) throw this.fail('E207_PART_BAD_VALUE', `a dynamic block declares ${nlen} literal/length codes`);
    if (ndist > 30) throw this.fail('E207_PART_BAD_VALUE', `a dynamic block declares ${ndist} distance codes`);
    const cl = new Uint8Array(19);
    for (let k = 0; k < nclen; k++) cl[CLEN_ORDER[k]!] = this.need(3);
    const clc = this.code(cl, 'code-length', true);
    const lengths = new Uint8Array(nlen + ndist);
    for (let k = 0; k < nlen + ndist;) {
      const sym = this.decode(clc, 'code-length');
      if (sym < 16) {
        lengths[k++] = sym;
        continue;
      }
      let value = 0;
      let repeat: number;
      if (sym === 16) {
        if (k === 0) throw this.fail('E207_PART_BAD_VALUE', 'a code-length repeat has no length before it');
        value = lengths[k - 1]!;
        repeat = 3 + this.need(2);
      } else if (sym === 17) repeat = 3 + this.need(3);
      else repeat = 11 + this.need(7);
      if (k + repeat > nlen + ndist)
        throw this.fail('E207_PART_BAD_VALUE', 'a code-length repeat runs past the declared codes');
      lengths.fill(value, k, k + repeat);
      k += repeat;
    }
    if (lengths[256] === 0) throw this.fail('E207_PART_BAD_VALUE', 'a dynamic block has no end-of-block code');
    return [
      this.code(lengths.subarray(0, nlen), 'literal/length', false),
      this.code(lengths.subarray(nlen), 'distance', false),
    ];
  }

  /** The raw deflate blocks, up to the final one; returns the output. */
  run(start: number): Uint8Array {
    this.pos = start;
    for (let last = 0; !last;) {
      last = this.need(1);
      const type = this.need(2);
      if (type === 0) this.stored();
      else if (type === 1) this.codes(...this.fixed());
      else if (type === 2) this.codes(...this.dynamic());
      else throw this.fail('E207_PART_BAD_VALUE', 'a deflate block has the reserved type 3');
    }
    this.bits = 0;
    this.nbits = 0;
    return this.out.subarray(0, this.len);
  }

  get end(): number {
    return this.pos;
  }
}

function checkLimit(input: Uint8Array, o: InflateOptions): void {
  if (!(Number.isInteger(o.limit) && o.limit >= 0 && o.limit <= input.byteLength * MAX_INFLATE_RATIO + 1024))
    throw new IridiaError(
      'E202_PART_BAD_OFFSET',
      `a deflate stream of ${input.byteLength} bytes cannot hold the declared ${o.limit} bytes`,
      o.part === undefined ? { offset: o.base ?? 0 } : { offset: o.base ?? 0, part: o.part },
    );
}

/** Inflates a raw RFC 1951 stream; its output is at most `limit` bytes. */
export function inflateRaw(input: Uint8Array, o: InflateOptions): Uint8Array {
  checkLimit(input, o);
  return new Inflater(input, o).run(0);
}

/** Adler-32 (RFC 1950, 8.2). */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.byteLength;) {
    const end = Math.min(data.byteLength, i + 5552);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Inflates an RFC 1950 zlib stream (header, deflate blocks, Adler-32 of the output). */
export function inflateZlib(input: Uint8Array, o: InflateOptions): Uint8Array {
  checkLimit(input, o);
  const inf = new Inflater(input, o);
  if (input.byteLength < 2) throw inf.fail('E201_PART_TRUNCATED', 'the zlib stream ends inside its header', 0);
  const cmf = input[0]!;
  const flg = input[1]!;
  if ((cmf & 15) !== 8 || cmf >> 4 > 7)
    throw inf.fail('E207_PART_BAD_VALUE', `the zlib header's method byte ${hex(cmf)} is not deflate`, 0);
  if ((cmf * 256 + flg) % 31 !== 0)
    throw inf.fail('E207_PART_BAD_VALUE', `the zlib header ${hex(cmf * 256 + flg)} fails its check`, 0);
  if (flg & 0x20) throw inf.fail('E207_PART_BAD_VALUE', 'the zlib stream needs a preset dictionary', 1);
  const out = inf.run(2);
  const at = inf.end;
  if (at + 4 > input.byteLength)
    throw inf.fail('E201_PART_TRUNCATED', 'the zlib stream ends before its Adler-32 check', at);
  const want = ((input[at]! << 24) | (input[at + 1]! << 16) | (input[at + 2]! << 8) | input[at + 3]!) >>> 0;
  const got = adler32(out);
  if (want !== got)
    throw inf.fail(
      'E207_PART_BAD_VALUE',
      `the zlib stream's Adler-32 ${hex(want)} is not its output's ${hex(got)}`,
      at,
    );
  return out;
}
