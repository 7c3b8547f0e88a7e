// The symbols of an SPDB's module stream (spec: containers.md, "Debug information in Shader Model 4
// and 5 (SPDB)"): the function (S_GPROC32), its inlined calls (S_INLINESITE .. S_INLINESITE_END,
// with binary annotations), its variables (S_LOCAL) and after each variable the ranges where a
// register holds part of it (S_DEFRANGE_HLSL, 0x1150). Records nest into a scope tree. A record
// whose fields run past its length, or a scope left open at the end, is an E504 error.

import { ByteReader } from '../binary/reader.js';
import { IridiaError } from '../errors.js';

export const S = {
  END: 0x0006,
  BLOCK32: 0x1103,
  OBJNAME: 0x1101,
  LPROC32: 0x110f,
  GPROC32: 0x1110,
  COMPILE3: 0x113c,
  ENVBLOCK: 0x113d,
  LOCAL: 0x113e,
  BUILDINFO: 0x114c,
  INLINESITE: 0x114d,
  INLINESITE_END: 0x114e,
  PROC_ID_END: 0x114f,
  DEFRANGE_HLSL: 0x1150,
} as const;

/** One S_DEFRANGE_HLSL: a register component holding `size` bytes at `offset` of the variable. */
export interface DefRange {
  readonly registerType: number;
  readonly flags: number;
  /** Byte of the variable the register component holds. */
  readonly offset: number;
  readonly size: number;
  /** Byte offset in the token stream of the first instruction the location holds for. */
  readonly start: number;
  readonly section: number;
  readonly length: number;
  /** Stretches, from `start`, where the register holds something else. */
  readonly gaps: readonly { readonly start: number; readonly length: number }[];
  /** The first is register*16 + component*4 (or the register alone for x# and m#); a second is the outer index. */
  readonly indices: readonly number[];
}

export interface LocalSymbol {
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly ranges: DefRange[];
}

/** One row of an inlined call's binary annotations: code offset (from the function's start), length, line delta. */
export interface AnnotationRow {
  readonly offset: number;
  length: number | undefined;
  readonly line: number;
  /** The file, as an offset in the file checksums subsection. */
  readonly file: number | undefined;
}

export interface ScopeSymbol {
  readonly kind: 'function' | 'inline' | 'block';
  /** The function's name, or the inlinee's item id (an IPI index) for an inlined call. */
  readonly name: string;
  readonly inlinee: number;
  /** Byte offset of the function in the token stream (for a function), else 0. */
  readonly offset: number;
  readonly length: number;
  readonly type: number;
  readonly annotations: AnnotationRow[];
  readonly locals: LocalSymbol[];
  readonly children: ScopeSymbol[];
}

type Handler = (r: ByteReader, at: number, state: State) => void;

interface State {
  readonly roots: ScopeSymbol[];
  readonly stack: ScopeSymbol[];
  local: LocalSymbol | undefined;
  readonly where: string;
}

const newScope = (
  kind: ScopeSymbol['kind'],
  name: string,
  fields: Partial<Pick<ScopeSymbol, 'inlinee' | 'offset' | 'length' | 'type' | 'annotations'>> = {},
): ScopeSymbol => ({
  kind,
  name,
  inlinee: fields.inlinee ?? 0,
  offset: fields.offset ?? 0,
  length: fields.length ?? 0,
  type: fields.type ?? 0,
  annotations: fields.annotations ?? [],
  locals: [],
  children: [],
});

/** Deeper nesting than this is refused (fxc nests inlined calls a few levels; the readers recurse). */
const MAX_NESTING = 256;

function open(state: State, scope: ScopeSymbol, r: ByteReader): void {
  if (state.stack.length >= MAX_NESTING) throw r.fail('E504_DEBUG_BAD', `scopes nest more than ${MAX_NESTING} deep`, 0);
  const parent = state.stack[state.stack.length - 1];
  (parent ? parent.children : state.roots).push(scope);
  state.stack.push(scope);
  state.local = undefined;
}

function close(state: State, r: ByteReader, at: number, kinds: readonly ScopeSymbol['kind'][]): void {
  const top = state.stack[state.stack.length - 1];
  if (!top || !kinds.includes(top.kind))
    throw r.fail('E504_DEBUG_BAD', `a scope end at ${at} closes no open ${kinds.join(' or ')}`, 0);
  state.stack.pop();
  state.local = undefined;
}

const cstring = (r: ByteReader, what: string): string => {
  const s = r.cstringAt(r.pos, what);
  r.pos += s.length + 1;
  return s;
};

const HANDLERS: Record<number, Handler> = {
  [S.GPROC32]: procedure,
  [S.LPROC32]: procedure,
  [S.BLOCK32]: (r, _at, state) => open(state, newScope('block', ''), r),
  [S.END]: (r, at, state) => close(state, r, at, ['function', 'block']),
  [S.PROC_ID_END]: (r, at, state) => close(state, r, at, ['function']),
  [S.INLINESITE]: (r, _at, state) => {
    r.u32('the parent');
    r.u32('the end');
    const inlinee = r.u32('the inlinee');
    const functionStart = state.stack[0]?.offset ?? 0;
    const annotations = readBinaryAnnotations(r.sub(r.pos, r.length - r.pos, 'the binary annotations'), functionStart);
    open(state, newScope('inline', '', { inlinee, annotations }), r);
  },
  [S.INLINESITE_END]: (r, at, state) => close(state, r, at, ['inline']),
  [S.LOCAL]: (r, _at, state) => {
    const type = r.u32('the type');
    const flags = r.u16('the flags');
    const name = cstring(r, 'the name');
    const scope = state.stack[state.stack.length - 1];
    if (!scope) throw r.fail('E504_DEBUG_BAD', `variable ${name} is outside any function`, 0);
    const local: LocalSymbol = { name, type, flags, ranges: [] };
    scope.locals.push(local);
    state.local = local;
  },
  [S.DEFRANGE_HLSL]: (r, _at, state) => {
    const registerType = r.u16('the register type');
    const flags = r.u16('the flags');
    const offset = r.u16('the offset in the variable');
    const size = r.u16('the size');
    const start = r.u32('the range start');
    const section = r.u16('the section');
    const length = r.u16('the range length');
    const indexCount = flags & 3;
    const rest = r.length - r.pos;
    if (rest < indexCount * 4 || (rest - indexCount * 4) % 4 !== 0)
      throw r.fail('E504_DEBUG_BAD', `S_DEFRANGE_HLSL has ${rest} bytes for gaps and ${indexCount} register indices`);
    const gaps: { start: number; length: number }[] = [];
    for (let i = 0; i < (rest - indexCount * 4) / 4; i++) gaps.push({ start: r.u16(), length: r.u16() });
    const indices: number[] = [];
    for (let i = 0; i < indexCount; i++) indices.push(r.u32());
    if (!state.local) throw r.fail('E504_DEBUG_BAD', 'S_DEFRANGE_HLSL follows no S_LOCAL', 0);
    state.local.ranges.push({ registerType, flags, offset, size, start, section, length, gaps, indices });
  },
};

function procedure(r: ByteReader, _at: number, state: State): void {
  r.u32('the parent');
  r.u32('the end');
  r.u32('the next');
  const length = r.u32('the length');
  r.u32('the debug start');
  r.u32('the debug end');
  const type = r.u32('the type');
  const offset = r.u32('the offset');
  r.u16('the segment');
  r.u8('the flags');
  const name = cstring(r, 'the name');
  open(state, newScope('function', name, { offset, length, type }), r);
}

/**
 * Reads the symbol records in `bytes` (after the module stream's 4-byte signature). `base` is the
 * offset of `bytes` in the stream, so errors name stream offsets.
 */
export function readSymbols(bytes: Uint8Array, where: string, base: number): ScopeSymbol[] {
  const r = new ByteReader(bytes, { where, base, code: 'E504_DEBUG_BAD' });
  const state: State = { roots: [], stack: [], local: undefined, where };
  let at = 0;
  while (at < bytes.byteLength) {
    const len = r.u16At(at, 'a symbol length');
    if (len < 2 || len > bytes.byteLength - at - 2)
      throw r.fail('E504_DEBUG_BAD', `a symbol record of ${len} bytes runs past the symbols' end`, at);
    const kind = r.u16At(at + 2);
    const handler = HANDLERS[kind];
    if (handler) {
      const body = r.sub(at + 4, len - 2, `symbol 0x${kind.toString(16)}`);
      handler(body, at, state);
    }
    at += 2 + len;
  }
  if (state.stack.length) {
    throw new IridiaError('E504_DEBUG_BAD', `${state.stack.length} scopes are still open at the symbols' end`, {
      offset: base + at,
      part: where,
    });
  }
  return state.roots;
}

/** A compressed unsigned integer of binary annotations (1, 2 or 4 bytes). */
function compressed(r: ByteReader): number {
  const b = r.u8('an annotation operand');
  if ((b & 0x80) === 0) return b;
  if ((b & 0xc0) === 0x80) return ((b & 0x3f) << 8) | r.u8('an annotation operand');
  if ((b & 0xe0) === 0xc0) {
    const b1 = r.u8('an annotation operand');
    const b2 = r.u8('an annotation operand');
    const b3 = r.u8('an annotation operand');
    return (((b & 0x1f) << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0;
  }
  throw r.fail('E504_DEBUG_BAD', `annotation operand byte 0x${b.toString(16)} is not a compressed integer`, r.pos - 1);
}

const signed = (v: number): number => ((v & 1) !== 0 ? -(v >>> 1) : v >>> 1);

/**
 * Decodes binary annotations into rows. Op 4 (code length) sets the last row's length and moves
 * the code offset past it; op 12 (code length and offset) makes a row with its length and does not
 * move the offset past it (the spec's observed reading). Op 1 restarts at an offset of the token
 * stream, given here relative to `functionStart` like the rest. Line numbers are deltas from the
 * inlinee's first line, which the caller adds.
 */
export function readBinaryAnnotations(r: ByteReader, functionStart: number): AnnotationRow[] {
  const state: AnnotationState = { rows: [], offset: 0, line: 0, file: undefined, functionStart };
  while (r.pos < r.length) {
    const op = r.u8('an annotation op');
    if (op === 0) break;
    const handle = ANNOTATION_OPS[op];
    if (!handle) throw r.fail('E504_DEBUG_BAD', `binary annotation op ${op} is not one CodeView defines`, r.pos - 1);
    handle(state, r);
  }
  return state.rows;
}

interface AnnotationState {
  readonly rows: AnnotationRow[];
  offset: number;
  line: number;
  file: number | undefined;
  readonly functionStart: number;
}

const skip = (_s: AnnotationState, r: ByteReader): void => void compressed(r);

/** BinaryAnnotationsOpcode (cvinfo.h) -> what it does to the row state. */
const ANNOTATION_OPS: Record<number, (s: AnnotationState, r: ByteReader) => void> = {
  // CodeOffset: fxc restates a call's code with a second set of columns after op 8 this way, naming
  // an offset of the token stream itself, while the deltas count from the function's start.
  1: (s, r) => {
    s.offset = compressed(r) - s.functionStart;
  },
  2: skip, // ChangeCodeOffsetBase
  3: (s, r) => {
    s.offset += compressed(r);
    s.rows.push({ offset: s.offset, length: undefined, line: s.line, file: s.file });
  },
  // ChangeCodeLength: ends the last row and moves the offset past it.
  4: (s, r) => {
    const length = compressed(r);
    const row = s.rows[s.rows.length - 1];
    if (row) row.length = length;
    s.offset += length;
  },
  5: (s, r) => {
    s.file = compressed(r);
  },
  6: (s, r) => {
    s.line += signed(compressed(r));
  },
  7: skip, // ChangeLineEndDelta
  8: skip, // ChangeRangeKind
  9: skip, // ChangeColumnStart
  10: skip, // ChangeColumnEndDelta
  11: (s, r) => {
    const v = compressed(r);
    s.offset += v & 0xf;
    s.line += signed(v >>> 4);
    s.rows.push({ offset: s.offset, length: undefined, line: s.line, file: s.file });
  },
  // ChangeCodeLengthAndCodeOffset: a row with its length; the offset stays at the row's start.
  12: (s, r) => {
    const length = compressed(r);
    s.offset += compressed(r);
    s.rows.push({ offset: s.offset, length, line: s.line, file: s.file });
  },
  13: skip, // ChangeColumnEnd
};
