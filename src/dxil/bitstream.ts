// The LLVM bitstream container (LLVM's "Bitstream Format" document; the reader DXIL needs for its
// LLVM 3.7 bitcode): abbreviation ids of a per-block width, ENTER_SUBBLOCK / END_BLOCK /
// DEFINE_ABBREV / UNABBREV_RECORD, BLOCKINFO, and abbreviated records whose operands are literal,
// fixed, VBR, array, char6 or blob. The inner loop never throws: it keeps a sticky failure (a code
// and a reason) and the block reader turns it into one IridiaError at the end.
//
// Two ways to read: readBitcode makes a tree of every block and record, and a BitCursor hands the
// records out one at a time in stream order, making no object for each (the module reader's way:
// issue 17, docs/benchmarks.md, the twenty-third session). Both read through one step function.

import { IridiaError, hex, type ErrorCode } from '../errors.js';

/** One record: its code, its operands and (for a blob operand) the bytes. */
export interface BitRecord {
  readonly code: number;
  /** Operands as numbers; values of 2^53 or more are approximate here, exact in `big`. */
  readonly ops: number[];
  /** Exact values of the operands at or above 2^53 (sparse, by operand index). */
  big?: Map<number, bigint> | undefined;
  blob?: Uint8Array | undefined;
  /** The abbreviation id it was written with (3 for unabbreviated). */
  readonly abbrev: number;
}

export interface BitBlock {
  readonly id: number;
  /** Records and sub-blocks in stream order. */
  readonly items: (BitRecord | BitBlock)[];
  /** Bit offset of the block's first word in the stream. */
  readonly bitOffset: number;
}

export function isBlock(x: BitRecord | BitBlock): x is BitBlock {
  return 'items' in x;
}

/**
 * Records handed out one at a time, in stream order: what the module reader reads (issue 17: no
 * object made for each record or block). The cursor is itself the record read last. BitCursor reads
 * them from the bytes; TreeCursor from records already read (readBitcode's tree, changed or not).
 */
export interface RecordCursor extends BitRecord {
  /** The id of the block `next` or `nextTop` met last. */
  readonly blockId: number;
  /** The next top-level block: BLOCK (`blockId`; enter, skip or drain it next) or END. */
  nextTop(): number;
  /** The open block's next record (RECORD), sub-block (BLOCK) or its end (END: it is closed). */
  next(): number;
  /** The open block's next record (true), sub-blocks drained on the way; false at its end. */
  nextRecord(): boolean;
  /** Opens the block met last. */
  enter(): void;
  /** Passes over the block met last, reading nothing in it. */
  skipBlock(): void;
  /** Reads the block met last through (checking it) and keeps nothing of it. */
  drain(): void;
  /** At most how many records (and sub-blocks) the open block holds after the record read last. */
  recordsLeft(): number;
}

/** The exact 64-bit value of an operand (as an unsigned bigint). */
export function opBig(r: BitRecord, i: number): bigint {
  const b = r.big?.get(i);
  if (b !== undefined) return b;
  return BigInt(r.ops[i] ?? 0);
}

const enum Enc {
  Literal = 0,
  Fixed = 1,
  VBR = 2,
  Array = 3,
  Char6 = 4,
  Blob = 5,
}

/**
 * An abbreviation as the record reader uses it: its scalar operands (the record code first) as two
 * parallel lists, then at most one array (of one scalar element encoding) or blob, which the
 * definition's checks put last.
 */
interface Abbrev {
  readonly encs: readonly Enc[];
  readonly values: readonly number[];
  /** Enc.Array, Enc.Blob, or Enc.Literal for none. */
  readonly tail: Enc;
  readonly eltEnc: Enc;
  readonly eltValue: number;
}

const NO_SKIP: ReadonlySet<number> = new Set();
/** The abbreviations of a block that has none (never pushed to: a block's own list is a copy). */
const NO_ABBREVS: Abbrev[] = [];
const POW2 = Array.from({ length: 64 }, (_, i) => 2 ** i);
/** MASK[n]: the low n bits (0..32). */
const MASK = Array.from({ length: 33 }, (_, n) => (n === 0 ? 0 : 0xffffffff >>> (32 - n)));
const CHAR6 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._';
const CHAR6_CODES = Array.from(CHAR6, (c) => c.charCodeAt(0));

/** Nesting deeper than this is refused: DXIL modules nest four or five deep. */
const MAX_DEPTH = 64;

/** What a step through an open block met (BitCursor.next, BitstreamReader.step). */
export const END = 0;
export const RECORD = 1;
export const BLOCK = 2;
/** The sticky failure is set: the block cannot be read on. */
const FAILED = -1;
const NO_OPS: number[] = [];

/** A block being read: its header and the abbreviations it reads records with. */
class Frame {
  /** BLOCKINFO's SETBID target (in a BLOCKINFO block). */
  curBID = -1;
  abbrevs: Abbrev[];
  constructor(
    readonly id: number,
    readonly width: number,
    /** Bit offset of its ENTER_SUBBLOCK's block id. */
    readonly start: number,
    /** Bit offset of its end (after END_BLOCK's alignment). */
    readonly end: number,
    readonly depth: number,
    /** BLOCKINFO's list for its id, shared until the block defines an abbreviation of its own. */
    readonly inherited: Abbrev[] | undefined,
  ) {
    this.abbrevs = inherited ?? NO_ABBREVS;
  }
}

/** Records and blocks as the reader makes them: one shape each, whatever their operands. */
class Rec implements BitRecord {
  readonly code: number;
  readonly ops: number[];
  big: Map<number, bigint> | undefined;
  blob: Uint8Array | undefined;
  readonly abbrev: number;
  constructor(code: number, ops: number[], abbrev: number, big: Map<number, bigint> | undefined) {
    this.code = code;
    this.ops = ops;
    this.big = big;
    this.blob = undefined;
    this.abbrev = abbrev;
  }
}

class Blk implements BitBlock {
  readonly id: number;
  readonly items: (BitRecord | BitBlock)[];
  readonly bitOffset: number;
  constructor(id: number, items: (BitRecord | BitBlock)[], bitOffset: number) {
    this.id = id;
    this.items = items;
    this.bitOffset = bitOffset;
  }
}

export class BitstreamReader {
  /** The stream's bytes (blobs are views of these). */
  private readonly bytes: Uint8Array;
  protected readonly endBit: number;
  /** Fields that end at or before this bit have four bytes from their first one in the stream. */
  private readonly fastEnd: number;
  protected bit = 0;
  /** Sticky failure: set once, never cleared; every read after it returns 0. */
  failCode: ErrorCode | undefined;
  failReason = '';
  failBit = 0;
  private readonly blockInfo = new Map<number, Abbrev[]>();
  /** BLOCKINFO lists that blocks have taken as their own abbreviations (never pushed to again). */
  private readonly lent = new Set<Abbrev[]>();
  /** The scalar operands of an abbreviated record read before its array. */
  private readonly head: number[] = [];
  /** Byte offset of the stream in the container, for error messages. */
  private readonly base: number;
  private readonly part: string;

  /** Block ids whose contents are skipped by their length (never read, never checked). */
  protected readonly skip: ReadonlySet<number>;

  constructor(bytes: Uint8Array, base = 0, part = 'DXIL', skip: ReadonlySet<number> = NO_SKIP) {
    this.skip = skip;
    this.bytes = bytes;
    this.endBit = bytes.byteLength * 8;
    this.fastEnd = Math.max(0, bytes.byteLength - 4) * 8;
    this.base = base;
    this.part = part;
  }

  /** Moves to bit `pos` (at most the end of the stream). */
  protected seek(pos: number): void {
    this.bit = pos;
  }

  protected fail(code: ErrorCode, reason: string): void {
    if (this.failCode !== undefined) return;
    this.failCode = code;
    this.failReason = reason;
    this.failBit = this.bit;
    this.bit = this.endBit;
  }

  get atEnd(): boolean {
    return this.bit >= this.endBit;
  }

  get position(): number {
    return this.bit;
  }

  /** Reads `n` (0..32) bits, least significant first. */
  read(n: number): number {
    const pos = this.bit;
    const end = pos + n;
    if (end > this.fastEnd || n > 24) return this.readSlow(n);
    this.bit = end;
    const b = this.bytes;
    const i = pos >>> 3;
    // Four bytes hold any 24-bit field at any bit offset.
    return ((b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> (pos & 7)) & MASK[n]!;
  }

  /** A field in the last four bytes or past the end of the stream (a failure), or one of 25 to 32 bits. */
  private readSlow(n: number): number {
    const pos = this.bit;
    if (pos + n > this.endBit) {
      if (n === 0) return 0;
      this.fail('E401_BITCODE_TRUNCATED', `a ${n}-bit field at bit ${pos} runs past the end of the stream`);
      return 0;
    }
    const lo = this.word(pos) & 0xffff;
    const hi = n > 16 ? this.word(pos + 16) & MASK[n - 16]! : 0;
    this.bit = pos + n;
    return (n >= 16 ? lo : lo & MASK[n]!) + hi * 65536;
  }

  /** The 32 bits from bit `pos` on, bytes past the end read as 0 (low 25 bits at least are exact). */
  private word(pos: number): number {
    const b = this.bytes;
    const i = pos >>> 3;
    let w = 0;
    for (let k = 0; k < 4 && i + k < b.length; k++) w |= b[i + k]! << (8 * k);
    return w >>> (pos & 7);
  }

  /** A VBR field of chunk width `n`; returns a number (exact below 2^53) and sets `lastBig` above. */
  lastBig: bigint | undefined;
  vbr(n: number): number {
    const pos = this.bit;
    if (n <= 12 && pos + 2 * n <= this.fastEnd) {
      // One or two chunks (most fields) from one read of four bytes.
      const b = this.bytes;
      const i = pos >>> 3;
      const w = (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> (pos & 7);
      const hi = 1 << (n - 1);
      const p0 = w & MASK[n]!;
      if (p0 < hi) {
        this.bit = pos + n;
        this.lastBig = undefined;
        return p0;
      }
      const p1 = (w >>> n) & MASK[n]!;
      if (p1 < hi) {
        this.bit = pos + 2 * n;
        this.lastBig = undefined;
        return (p0 & (hi - 1)) | (p1 << (n - 1));
      }
    }
    const piece = this.read(n);
    // The continuation bit as a number (1 << 31 is negative: a VBR32 chunk would never end).
    const hi = 2 ** (n - 1);
    if (piece < hi) {
      this.lastBig = undefined;
      return piece;
    }
    return this.vbrLong(n, piece, hi);
  }

  private vbrLong(n: number, first: number, hi: number): number {
    this.lastBig = undefined;
    const mask = hi - 1;
    const step = n - 1;
    let value = first & mask;
    let shift = step;
    let piece = first;
    // Exact in a double while the value stays under 2^53; the rest goes through bigint.
    while (piece >= hi) {
      if (shift + step > 53) return this.vbrBig(n, value, shift);
      piece = this.read(n);
      // Small-integer arithmetic while the value fits in 30 bits, doubles above.
      value += shift + step <= 30 ? (piece & mask) << shift : (piece & mask) * POW2[shift]!;
      shift += step;
    }
    return value;
  }

  private vbrBig(n: number, low: number, shift0: number): number {
    const hi = 2 ** (n - 1);
    let big = BigInt(low);
    let shift = shift0;
    for (;;) {
      if (shift > 70) {
        this.fail('E403_BITCODE_VBR', `a VBR${n} field at bit ${this.bit} continues past 64 bits`);
        return 0;
      }
      const piece = this.read(n);
      if (this.failCode !== undefined) return 0;
      big |= BigInt(piece & (hi - 1)) << BigInt(shift);
      shift += n - 1;
      if (piece < hi) break;
    }
    big &= 0xffffffffffffffffn;
    if (big >= 2n ** 53n) this.lastBig = big;
    return Number(big);
  }

  private align32(): void {
    const r = this.bit & 31;
    if (r) this.bit += 32 - r;
    if (this.bit > this.endBit) this.bit = this.endBit;
  }

  /** Reads every top-level block of the stream (after the 'BC' 0xC0DE magic the caller checked). */
  readTopLevel(): BitBlock[] {
    const blocks: BitBlock[] = [];
    while (this.atTopBlock()) {
      const b = this.readBlock(0);
      if (b) blocks.push(b);
    }
    this.throwIfFailed();
    return blocks;
  }

  /**
   * Reads the next top-level abbreviation id: true where a block starts (ENTER_SUBBLOCK); false at
   * the stream's end, and on a failure (anything else there).
   */
  protected atTopBlock(): boolean {
    if (this.bit + 32 > this.endBit || this.failCode !== undefined) return false;
    const id = this.read(2);
    if (id === 1) return true;
    // Top-level padding of zero bits ends the stream (LLVM writes words, then may pad).
    if (id !== 0 || !this.restIsZero())
      this.fail('E404_BITCODE_RECORD', `abbreviation id ${id} at the top level, where only blocks may start`);
    return false;
  }

  private restIsZero(): boolean {
    for (let i = this.bit >>> 3; i < this.bytes.byteLength; i++) if (this.bytes[i] !== 0) return false;
    return true;
  }

  throwIfFailed(): void {
    if (this.failCode !== undefined) {
      throw new IridiaError(this.failCode, `bitcode: ${this.failReason}`, {
        part: this.part,
        offset: this.base + (this.failBit >>> 3),
      });
    }
  }

  /**
   * Reads a block's header after its ENTER_SUBBLOCK abbreviation id: its id, abbreviation width and
   * length in words, each checked. The block's abbreviations are BLOCKINFO's for its id, shared
   * until the block defines its own.
   */
  protected openBlock(depth: number): Frame | undefined {
    const start = this.bit;
    const id = this.vbr(8);
    const width = this.vbr(4);
    this.align32();
    const words = this.read(32);
    if (this.failCode !== undefined) return undefined;
    if (width < 1 || width > 32) {
      this.fail('E402_BITCODE_ABBREV', `block ${id} declares an abbreviation width of ${width} bits`);
      return undefined;
    }
    if (words * 32 > this.endBit - this.bit) {
      this.fail(
        'E401_BITCODE_TRUNCATED',
        `block ${id} at byte ${hex(start >>> 3)} claims ${words} words, past the end of the stream`,
      );
      return undefined;
    }
    if (depth >= MAX_DEPTH) {
      this.fail('E406_BITCODE_NESTING', `blocks nest deeper than ${MAX_DEPTH} (block ${id})`);
      return undefined;
    }
    const inherited = this.blockInfo.get(id);
    if (inherited) this.lent.add(inherited);
    return new Frame(id, width, start, this.bit + words * 32, depth, inherited);
  }

  /** Reads a block after its ENTER_SUBBLOCK abbreviation id, with every record and sub-block. */
  private readBlock(depth: number): BitBlock | undefined {
    const f = this.openBlock(depth);
    if (f === undefined) return undefined;
    if (this.skip.has(f.id)) {
      this.seek(f.end);
      return undefined;
    }
    return this.readBody(f);
  }

  /** The rest of an open block: its records (objects of their own) and sub-blocks, as a tree. */
  protected readBody(f: Frame): BitBlock | undefined {
    const items: (BitRecord | BitBlock)[] = [];
    const block = new Blk(f.id, items, f.start);
    for (;;) {
      const s = this.step(f);
      if (s === RECORD) {
        const rec = new Rec(this.code, this.ops, this.abbrev, this.big);
        if (this.blob !== undefined) rec.blob = this.blob;
        items.push(rec);
      } else if (s === BLOCK) {
        const sub = this.readBlock(f.depth + 1);
        if (sub) items.push(sub);
        if (this.failCode !== undefined) return undefined;
      } else if (s === END) return block;
      else return undefined;
    }
  }

  // The record `step` read last: its code, operands, exact large operands, blob and abbreviation id.
  protected code = 0;
  protected ops: number[] = NO_OPS;
  protected big: Map<number, bigint> | undefined = undefined;
  protected blob: Uint8Array | undefined = undefined;
  protected abbrev = 0;

  /**
   * Reads an open block on to its next record (RECORD: the fields above hold it), its next
   * sub-block (BLOCK: its ENTER_SUBBLOCK id read, its header not) or its end (END: END_BLOCK read
   * and the block's length checked). Abbreviation definitions are taken on the way, and BLOCKINFO's
   * records (SETBID and names) are kept to itself. FAILED: the sticky failure is set.
   */
  protected step(f: Frame): number {
    const id = f.id;
    const width = f.width;
    const blockEnd = f.end;
    for (;;) {
      if (this.failCode !== undefined) return FAILED;
      if (this.bit + width > blockEnd) {
        this.fail('E406_BITCODE_NESTING', `block ${id} at byte ${hex(f.start >>> 3)} has no END_BLOCK before its end`);
        return FAILED;
      }
      const a = this.read(width);
      if (a > 3) {
        const abbrevs = f.abbrevs;
        const ab = abbrevs[a - 4];
        if (!ab) {
          this.fail(
            'E402_BITCODE_ABBREV',
            `abbreviation id ${a} in block ${id} is not defined (${abbrevs.length} are)`,
          );
          return FAILED;
        }
        if (!this.readAbbreviated(ab, a, blockEnd)) return FAILED;
        if (id === 0) {
          if (this.code === 1) f.curBID = this.ops[0] ?? -1; // SETBID
          continue; // BLOCKNAME / SETRECORDNAME carry only names
        }
        return RECORD;
      }
      if (a === 3) {
        const code = this.vbr(6);
        const n = this.vbr(6);
        if (n * 6 > blockEnd - this.bit) {
          this.fail('E404_BITCODE_RECORD', `record ${code} claims ${n} operands, more than the block holds`);
          return FAILED;
        }
        const ops = sized(n);
        let big: Map<number, bigint> | undefined;
        const buf = this.bytes;
        // VBR6 operands: one read of two bytes for those under 32, the general reader for the rest.
        for (let i = 0; i < n; i++) {
          const pos = this.bit;
          if (pos + 6 <= this.fastEnd) {
            const at = pos >>> 3;
            const piece = ((buf[at]! | (buf[at + 1]! << 8)) >>> (pos & 7)) & 63;
            if (piece < 32) {
              this.bit = pos + 6;
              ops[i] = piece;
              continue;
            }
          }
          ops[i] = this.vbr(6);
          if (this.lastBig !== undefined) (big ??= new Map()).set(i, this.lastBig);
        }
        if (id === 0) {
          if (code === 1) f.curBID = ops[0] ?? -1; // SETBID
          continue;
        }
        this.code = code;
        this.ops = ops;
        this.big = big;
        this.blob = undefined;
        this.abbrev = 3;
        return RECORD;
      }
      if (a === 0) {
        this.align32();
        if (this.bit !== blockEnd) {
          this.fail('E406_BITCODE_NESTING', `block ${id} ends at bit ${this.bit}, not at its declared end ${blockEnd}`);
          return FAILED;
        }
        return END;
      }
      if (a === 1) return BLOCK;
      // a === 2: DEFINE_ABBREV
      const ab = this.readAbbrevDef();
      if (!ab) return FAILED;
      if (id === 0) {
        if (f.curBID < 0) {
          this.fail('E404_BITCODE_RECORD', 'BLOCKINFO defines an abbreviation before SETBID');
          return FAILED;
        }
        let list = this.blockInfo.get(f.curBID);
        // A list an open block reads from is left as it is: later definitions go to a copy.
        if (!list || this.lent.has(list)) this.blockInfo.set(f.curBID, (list = list ? list.slice() : []));
        list.push(ab);
      } else {
        if (f.abbrevs === f.inherited || f.abbrevs === NO_ABBREVS) f.abbrevs = f.abbrevs.slice();
        f.abbrevs.push(ab);
      }
    }
  }

  /** An abbreviation definition's operands as read (encodings and values), before its checks. */
  private readonly defEncs: Enc[] = [];
  private readonly defValues: number[] = [];

  private readAbbrevDef(): Abbrev | undefined {
    const n = this.vbr(5);
    // The operands go to two scratch lists (no object per operand), checked, then copied out.
    const es = this.defEncs;
    const vs = this.defValues;
    let len = 0;
    for (let i = 0; i < n && this.failCode === undefined; i++) {
      if (this.read(1)) {
        es[len] = Enc.Literal;
        vs[len++] = this.vbr(8);
        continue;
      }
      const enc = this.read(3);
      if (enc === Enc.Fixed || enc === Enc.VBR) {
        const value = this.vbr(5);
        if (value > 32 || (enc === Enc.VBR && value < 1)) {
          this.fail('E402_BITCODE_ABBREV', `an abbreviation operand has width ${value}`);
          return undefined;
        }
        es[len] = enc;
        vs[len++] = value;
      } else if (enc === Enc.Array || enc === Enc.Char6 || enc === Enc.Blob) {
        es[len] = enc;
        vs[len++] = 0;
      } else {
        this.fail('E402_BITCODE_ABBREV', `an abbreviation operand has encoding ${enc}`);
        return undefined;
      }
    }
    if (len === 0 && this.failCode === undefined) {
      this.fail('E402_BITCODE_ABBREV', 'an abbreviation has no operands');
      return undefined;
    }
    for (let i = 0; i < len; i++) {
      const e = es[i]!;
      if (e === Enc.Array && (i !== len - 2 || es[i + 1] === Enc.Array || es[i + 1] === Enc.Blob)) {
        this.fail('E402_BITCODE_ABBREV', 'an array operand is not second to last with a scalar element');
        return undefined;
      }
      if (e === Enc.Blob && i !== len - 1) {
        this.fail('E402_BITCODE_ABBREV', 'a blob operand is not last');
        return undefined;
      }
    }
    if (this.failCode !== undefined) return undefined;
    // The checks above leave an array second to last (its element last) or a blob last.
    let tail = Enc.Literal;
    let eltEnc = Enc.Literal;
    let eltValue = 0;
    let k = 0;
    for (; k < len; k++) {
      const e = es[k]!;
      if (e === Enc.Array) {
        tail = Enc.Array;
        eltEnc = es[k + 1]!;
        eltValue = vs[k + 1]!;
        break;
      }
      if (e === Enc.Blob) {
        tail = Enc.Blob;
        break;
      }
    }
    const encs = new Array<Enc>(k);
    const values = new Array<number>(k);
    for (let i = 0; i < k; i++) {
      encs[i] = es[i]!;
      values[i] = vs[i]!;
    }
    return { encs, values, tail, eltEnc, eltValue };
  }

  /** One scalar operand; sets `lastBig` (a VBR at or above 2^53) or clears it. */
  private scalar(enc: Enc, value: number): number {
    switch (enc) {
      case Enc.Literal:
        this.lastBig = undefined;
        return value;
      case Enc.Fixed:
        this.lastBig = undefined;
        return this.read(value);
      case Enc.VBR:
        return this.vbr(value);
      case Enc.Char6:
        this.lastBig = undefined;
        return CHAR6_CODES[this.read(6)]!;
      case Enc.Array:
      case Enc.Blob:
        return 0;
    }
  }

  /** Reads an abbreviated record into the fields of the record last read; false on a failure. */
  private readAbbreviated(ab: Abbrev, id: number, blockEnd: number): boolean {
    const encs = ab.encs;
    const values = ab.values;
    if (encs.length === 0) {
      this.fail('E402_BITCODE_ABBREV', `abbreviation ${id} starts with an array or blob`);
      return false;
    }
    const code = this.scalar(encs[0]!, values[0]!);
    const ns = encs.length - 1;
    let big: Map<number, bigint> | undefined;
    if (ab.tail !== Enc.Array) {
      const ops = sized(ns);
      for (let i = 0; i < ns; i++) {
        ops[i] = this.scalar(encs[i + 1]!, values[i + 1]!);
        if (this.lastBig !== undefined) (big ??= new Map()).set(i, this.lastBig);
      }
      return this.finish(ab, code, ops, id, big, blockEnd);
    }
    // The scalars before the array, then the array's length, then one list of the exact size.
    const head = this.head;
    for (let i = 0; i < ns; i++) {
      head[i] = this.scalar(encs[i + 1]!, values[i + 1]!);
      if (this.lastBig !== undefined) (big ??= new Map()).set(i, this.lastBig);
    }
    const n = this.vbr(6);
    if (n > blockEnd - this.bit) {
      this.fail('E404_BITCODE_RECORD', `an array operand claims ${n} elements, more than the block holds`);
      return false;
    }
    const ops = sized(ns + n);
    for (let i = 0; i < ns; i++) ops[i] = head[i]!;
    const w = ab.eltValue;
    switch (ab.eltEnc) {
      case Enc.Fixed:
        for (let k = ns; k < ns + n; k++) ops[k] = this.read(w);
        break;
      case Enc.Char6:
        for (let k = ns; k < ns + n; k++) ops[k] = CHAR6_CODES[this.read(6)]!;
        break;
      case Enc.Literal:
        for (let k = ns; k < ns + n; k++) ops[k] = w;
        break;
      case Enc.VBR:
      case Enc.Array: // not an element encoding (readAbbrevDef refuses it)
      case Enc.Blob:
        for (let k = ns; k < ns + n; k++) {
          ops[k] = this.vbr(w);
          if (this.lastBig !== undefined) (big ??= new Map()).set(k, this.lastBig);
        }
    }
    this.lastBig = undefined;
    return this.record(code, ops, id, big, undefined);
  }

  /** The rest of an abbreviated record without an array: a blob if it has one. */
  private finish(
    ab: Abbrev,
    code: number,
    ops: number[],
    id: number,
    big: Map<number, bigint> | undefined,
    blockEnd: number,
  ): boolean {
    if (ab.tail !== Enc.Blob) return this.record(code, ops, id, big, undefined);
    const n = this.vbr(6);
    this.align32();
    if (n * 8 > blockEnd - this.bit) {
      this.fail('E404_BITCODE_RECORD', `a blob operand claims ${n} bytes, more than the block holds`);
      return false;
    }
    const at = this.bit >>> 3;
    const blob = this.bytes.subarray(at, at + n);
    this.seek(this.bit + n * 8);
    this.align32();
    return this.record(code, ops, id, big, blob);
  }

  /** Makes the record read the record last read, unless reading it failed. */
  private record(
    code: number,
    ops: number[],
    abbrev: number,
    big: Map<number, bigint> | undefined,
    blob: Uint8Array | undefined,
  ): boolean {
    if (this.failCode !== undefined) return false;
    this.code = code;
    this.ops = ops;
    this.big = big;
    this.blob = blob;
    this.abbrev = abbrev;
    return true;
  }
}

/**
 * The stream read a record at a time, in stream order, with no object made for a record or a block
 * (issue 17: the module reader's way; readBitcode's tree is for callers that want every record
 * kept). The cursor is itself the record read last: its `code`, `ops`, `big`, `blob` and `abbrev`
 * hold it until the next step, and its `ops` list is the record's own (a caller may keep it). A
 * failure throws the IridiaError readBitcode would throw for it; what the stream holds after a
 * failure is never read. Blocks a caller neither enters nor drains are skipped by their length.
 */
export class BitCursor extends BitstreamReader implements RecordCursor {
  declare readonly code: number;
  declare readonly ops: number[];
  declare big: Map<number, bigint> | undefined;
  declare blob: Uint8Array | undefined;
  declare readonly abbrev: number;
  /** The open blocks, innermost last. */
  private readonly frames: Frame[] = [];
  /** The block `next` or `nextTop` met last, its header read, not yet entered, skipped or drained. */
  private pending: Frame | undefined = undefined;
  /** The id of the block `next` or `nextTop` met last. */
  blockId = 0;

  /**
   * Moves to the stream's next top-level block: BLOCK (`blockId` names it; enter, skip or drain it
   * next) or END. BLOCKINFO blocks are read on the way.
   */
  nextTop(): number {
    if (this.pending !== undefined) this.skipBlock();
    while (this.atTopBlock()) if (this.met(this.openBlock(0))) return BLOCK;
    this.throwIfFailed();
    return END;
  }

  /**
   * Moves on in the innermost open block: RECORD (this cursor holds it), BLOCK (`blockId` names it;
   * enter, skip or drain it next) or END (the block is closed and checked; the block around it is
   * the open one now). BLOCKINFO blocks are read on the way.
   */
  next(): number {
    const f = this.frames[this.frames.length - 1];
    if (f === undefined) throw new Error('BitCursor.next: no block is open');
    if (this.pending !== undefined) this.skipBlock();
    for (;;) {
      const s = this.step(f);
      if (s === RECORD) return RECORD;
      if (s === END) {
        this.frames.pop();
        return END;
      }
      if (s === BLOCK && this.met(this.openBlock(f.depth + 1))) return BLOCK;
      this.throwIfFailed();
    }
  }

  /** Whether a block met is one for the caller: BLOCKINFO and blocks the reader skips are dealt with here. */
  private met(sub: Frame | undefined): boolean {
    if (sub === undefined) return false;
    if (this.skip.has(sub.id)) this.seek(sub.end);
    else if (sub.id === 0) this.readBody(sub);
    else {
      this.pending = sub;
      this.blockId = sub.id;
      return true;
    }
    return false;
  }

  private take(): Frame {
    const f = this.pending;
    if (f === undefined) throw new Error('BitCursor: no block was met');
    this.pending = undefined;
    return f;
  }

  /**
   * Moves to the innermost open block's next record (true: this cursor holds it), reading any
   * sub-block on the way through as `drain` does; false at the block's end (the block is closed).
   */
  nextRecord(): boolean {
    return nextRecord(this);
  }

  /** Opens the block met last: `next` reads its records from here on. */
  enter(): void {
    this.frames.push(this.take());
  }

  /** Passes over the block met last by its length: nothing in it is read or checked. */
  skipBlock(): void {
    this.seek(this.take().end);
  }

  /** Reads the block met last through, checking it as readBitcode would, and keeps nothing of it. */
  drain(): void {
    this.readBody(this.take());
    this.throwIfFailed();
  }

  /** At most how many records the innermost open block holds from here on (each takes a width). */
  recordsLeft(): number {
    const f = this.frames[this.frames.length - 1];
    return f === undefined ? 0 : Math.floor((f.end - this.bit) / f.width);
  }
}

/** RecordCursor.nextRecord: the next record of the open block, its sub-blocks drained on the way. */
function nextRecord(c: RecordCursor): boolean {
  for (;;) {
    const s = c.next();
    if (s === RECORD) return true;
    if (s === END) return false;
    c.drain();
  }
}

/** The records of blocks already read (readBitcode's), handed out as BitCursor hands out a stream's. */
export class TreeCursor implements RecordCursor {
  code = 0;
  ops: number[] = NO_OPS;
  big: Map<number, bigint> | undefined = undefined;
  blob: Uint8Array | undefined = undefined;
  abbrev = 0;
  blockId = 0;
  private readonly open: { readonly items: readonly (BitRecord | BitBlock)[]; at: number }[] = [];
  private pending: BitBlock | undefined = undefined;
  private top = 0;

  /** A cursor before the first of `blocks`, or (`entered`) inside the one block given. */
  constructor(
    private readonly blocks: readonly BitBlock[],
    entered = false,
  ) {
    if (entered && blocks[0] !== undefined) {
      this.open.push({ items: blocks[0].items, at: 0 });
      this.top = blocks.length;
    }
  }

  nextTop(): number {
    while (this.top < this.blocks.length) if (this.met(this.blocks[this.top++]!)) return BLOCK;
    return END;
  }

  next(): number {
    const f = this.open[this.open.length - 1];
    if (f === undefined) throw new Error('TreeCursor.next: no block is open');
    while (f.at < f.items.length) {
      const it = f.items[f.at++]!;
      if (isBlock(it)) {
        if (this.met(it)) return BLOCK;
        continue;
      }
      this.code = it.code;
      this.ops = it.ops;
      this.big = it.big;
      this.blob = it.blob;
      this.abbrev = it.abbrev;
      return RECORD;
    }
    this.open.pop();
    return END;
  }

  /** BLOCKINFO (its records are the reader's own) is passed over, as BitCursor does. */
  private met(b: BitBlock): boolean {
    if (b.id === 0) return false;
    this.pending = b;
    this.blockId = b.id;
    return true;
  }

  nextRecord(): boolean {
    return nextRecord(this);
  }

  enter(): void {
    if (this.pending === undefined) throw new Error('TreeCursor: no block was met');
    this.open.push({ items: this.pending.items, at: 0 });
    this.pending = undefined;
  }

  skipBlock(): void {
    this.pending = undefined;
  }

  /** The tree's blocks were checked when it was read: nothing to read through. */
  drain(): void {
    this.skipBlock();
  }

  recordsLeft(): number {
    const f = this.open[this.open.length - 1];
    return f === undefined ? 0 : f.items.length - f.at;
  }
}

/** A list for `n` operands: allocated at its size (filled in order), growing past a large size. */
function sized(n: number): number[] {
  return n <= 65536 ? new Array<number>(n) : [];
}

/** The bitstream of a bitcode file after its magic, and where it starts (behind a wrapper if any). */
function openStream(bytes: Uint8Array, base: number, part: string): { data: Uint8Array; at: number } {
  let data = bytes;
  let at = base;
  if (data.byteLength >= 20 && data[0] === 0xde && data[1] === 0xc0 && data[2] === 0x17 && data[3] === 0x0b) {
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const off = dv.getUint32(8, true);
    const size = dv.getUint32(12, true);
    if (off > data.byteLength || size > data.byteLength - off)
      throw new IridiaError('E401_BITCODE_TRUNCATED', `the bitcode wrapper points past the end`, {
        part,
        offset: base,
      });
    data = data.subarray(off, off + size);
    at += off;
  }
  if (data.byteLength < 4 || data[0] !== 0x42 || data[1] !== 0x43 || data[2] !== 0xc0 || data[3] !== 0xde) {
    throw new IridiaError('E407_BITCODE_MAGIC', `the bitcode does not start with 'BC' 0xC0DE`, { part, offset: at });
  }
  return { data: data.subarray(4), at: at + 4 };
}

/** Parses a bitcode stream (magic 'BC' 0xC0DE, optionally behind the 0x0B17C0DE wrapper). */
export function readBitcode(
  bytes: Uint8Array,
  base = 0,
  part = 'DXIL',
  skip: ReadonlySet<number> = NO_SKIP,
): BitBlock[] {
  const { data, at } = openStream(bytes, base, part);
  return new BitstreamReader(data, at, part, skip).readTopLevel();
}

/** A cursor over a bitcode stream (as readBitcode takes it), before its first top-level block. */
export function bitCursor(bytes: Uint8Array, base = 0, part = 'DXIL', skip: ReadonlySet<number> = NO_SKIP): BitCursor {
  const { data, at } = openStream(bytes, base, part);
  return new BitCursor(data, at, part, skip);
}
