// The HLSL source a DXIL container embeds (dxc /Zi with -Qembed_debug), from either of the two
// places dxc writes it (DxilContainer.h, dxcshadersourceinfo.cpp):
// - SRCI (DxilSourceInfo): sections of source names, source contents (zlib-compressed when dxc's
//   deflate made them smaller) and the compiler's arguments as name/value pairs;
// - the debug module (ILDB) of a container without SRCI: the named metadata dx.source.contents
//   (a node of file name and text a file), dx.source.mainFileName, dx.source.args and
//   dx.source.defines. A container that has SRCI carries these with empty strings.
// Every size is bounded by the part; a section that does not fit is a typed error.

import { ByteReader } from '../binary/reader.js';
import { inflateZlib } from '../binary/inflate.js';
import type { Container } from '../container/container.js';
import { hex } from '../errors.js';
import type { Metadata, Module } from './ir.js';
import { readModule } from './module.js';
import { readProgramHeader } from './program-header.js';

export interface DxilSourceFile {
  /** The file name as the compiler recorded it (`src\hlsl\frag.hlsl`, `.\common.hlsli`). */
  readonly path: string;
  readonly text: string;
}

export interface DxilSources {
  /** The part the text came from. */
  readonly from: 'SRCI' | 'ILDB';
  /** The files, the main file first (dxc writes it first, then the others sorted by name). */
  readonly files: readonly DxilSourceFile[];
  /** dx.source.mainFileName; for SRCI, the first file's name. */
  readonly mainFile: string | undefined;
  /**
   * The compiler's arguments: dx.source.args as stored; for SRCI each name/value pair as a command
   * line spells it (`-E`, `main`; `-Zi`; a positional value alone).
   */
  readonly args: readonly string[];
  /** SRCI's argument pairs as stored (name without its dash, '' for a positional one). */
  readonly argPairs?: readonly { readonly name: string; readonly value: string }[];
  /** dx.source.defines; for SRCI the values of the `D` arguments. */
  readonly defines: readonly string[];
}

const utf8 = new TextDecoder('utf-8');

/** Text stored as bytes (UTF-8, as dxc writes it). */
function text(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/** A metadata string, held by the module reader one byte a character, decoded as UTF-8. */
export function latin1Utf8(s: string): string {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 0xff;
  return text(b);
}

const SECTION_CONTENTS = 0;
const SECTION_NAMES = 1;
const SECTION_ARGS = 2;

/** A zero-terminated string of `size` bytes (terminator included) at `at`. */
function terminated(r: ByteReader, at: number, size: number, what: string): string {
  if (size === 0) return '';
  const bytes = r.slice(at, size, what);
  if (bytes[size - 1] !== 0) throw r.fail('E204_PART_BAD_STRING', `${what} is not zero-terminated`, at + size - 1);
  return text(bytes.subarray(0, size - 1));
}

/** Entries of `count` records with an aligned size at their start, inside `r` from `at` for `size` bytes. */
function entries(
  r: ByteReader,
  at: number,
  size: number,
  count: number,
  header: number,
  what: string,
  read: (entry: number, end: number) => string,
): string[] {
  const out: string[] = [];
  const end = at + size;
  let e = at;
  for (let i = 0; i < count; i++) {
    if (header > end - e)
      throw r.fail('E201_PART_TRUNCATED', `${what} ${i} of ${count} starts past the entries' end`, e);
    const aligned = r.u32At(e, `the size of ${what} ${i}`);
    if (aligned < header || aligned > end - e)
      throw r.fail('E202_PART_BAD_OFFSET', `${what} ${i} declares ${aligned} bytes, ${end - e} are left`, e);
    out.push(read(e, e + aligned));
    e += aligned;
  }
  return out;
}

/** SRCI's sources (DxilSourceInfo); `base` is the part data's offset in the file. */
export function readSrciSources(data: Uint8Array, base = 0): DxilSources {
  const r = new ByteReader(data, { base, where: 'SRCI', code: 'E201_PART_TRUNCATED' });
  const total = r.u32At(0, 'the source info size');
  const count = r.u16At(6, 'the section count');
  if (total > data.byteLength || total < 8)
    throw r.fail('E202_PART_BAD_OFFSET', `the source info declares ${total} bytes in a part of ${data.byteLength}`, 0);
  let names: string[] | undefined;
  let contents: string[] | undefined;
  const pairs: { name: string; value: string }[] = [];
  let at = 8;
  for (let i = 0; i < count; i++) {
    if (8 > total - at)
      throw r.fail('E201_PART_TRUNCATED', `source info section ${i} of ${count} starts past the end`, at);
    const size = r.u32At(at, 'a section size');
    if (size < 8 || size > total - at)
      throw r.fail(
        'E202_PART_BAD_OFFSET',
        `source info section ${i} declares ${size} bytes, ${total - at} are left`,
        at,
      );
    const type = r.u16At(at + 6, 'a section type');
    const s = r.sub(at + 8, size - 8, 'a section');
    if (type === SECTION_NAMES) names = sourceNames(s);
    else if (type === SECTION_CONTENTS) contents = sourceContents(s);
    else if (type === SECTION_ARGS) pairs.push(...argPairs(s));
    at += size;
  }
  if (names && contents && names.length !== contents.length)
    throw r.fail('E203_PART_BAD_COUNT', `the source info names ${names.length} files and holds ${contents.length}`, 8);
  const n = Math.max(names?.length ?? 0, contents?.length ?? 0);
  const files: DxilSourceFile[] = [];
  for (let i = 0; i < n; i++) files.push({ path: names?.[i] ?? '', text: contents?.[i] ?? '' });
  const args: string[] = [];
  for (const p of pairs) {
    if (p.name !== '') args.push(`-${p.name}`);
    if (p.value !== '') args.push(p.value);
  }
  return {
    from: 'SRCI',
    files,
    mainFile: files[0]?.path,
    args,
    argPairs: pairs,
    defines: pairs.filter((p) => p.name === 'D').map((p) => p.value),
  };
}

/** DxilSourceInfo_SourceNames: flags, count, entries size (u16), then the entries. */
function sourceNames(s: ByteReader): string[] {
  const count = s.u32At(4, 'the source name count');
  const size = s.u16At(8, 'the source names size');
  s.require(10, size, 'the source name entries');
  return entries(s, 10, size, count, 16, 'source name', (e, end) => {
    const nameSize = s.u32At(e + 8, 'a name size');
    if (nameSize > end - e - 16)
      throw s.fail(
        'E202_PART_BAD_OFFSET',
        `a source name of ${nameSize} bytes overruns its entry at ${hex(s.base + e)}`,
        e,
      );
    return terminated(s, e + 16, nameSize, 'a source name');
  });
}

/** DxilSourceInfo_SourceContents: size, flags, compression, entries size, uncompressed size, count. */
function sourceContents(s: ByteReader): string[] {
  const compress = s.u16At(6, 'the compression type');
  const stored = s.u32At(8, 'the entries size');
  const size = s.u32At(12, 'the uncompressed size');
  const count = s.u32At(16, 'the source count');
  const packed = s.slice(20, stored, 'the source contents');
  let r: ByteReader;
  if (compress === 1) {
    const bytes = inflateZlib(packed, { limit: size, base: s.base + 20, part: 'SRCI' });
    if (bytes.byteLength !== size)
      throw s.fail(
        'E202_PART_BAD_OFFSET',
        `the source contents inflate to ${bytes.byteLength} bytes, not the declared ${size}`,
        12,
      );
    // Offsets inside the inflated entries are reported from the compressed stream's start.
    r = new ByteReader(bytes, { base: s.base + 20, where: 'SRCI', code: 'E201_PART_TRUNCATED' });
  } else if (compress === 0) {
    if (stored !== size)
      throw s.fail('E202_PART_BAD_OFFSET', `uncompressed source contents of ${stored} bytes declare ${size}`, 12);
    r = s.sub(20, stored, 'the source contents');
  } else
    throw s.fail('E207_PART_BAD_VALUE', `the source contents use compression ${compress}, not none (0) or zlib (1)`, 6);
  const what = compress === 1 ? 'inflated source content' : 'source content';
  return entries(r, 0, r.length, count, 12, what, (e, end) => {
    const contentSize = r.u32At(e + 8, 'a content size');
    if (contentSize > end - e - 12)
      throw r.fail('E202_PART_BAD_OFFSET', `a source text of ${contentSize} bytes overruns its entry`, e);
    return terminated(r, e + 12, contentSize, 'a source text');
  });
}

/** DxilSourceInfo_Args: flags, size, count, then name\0value\0 pairs. */
function argPairs(s: ByteReader): { name: string; value: string }[] {
  const size = s.u32At(4, 'the arguments size');
  const bytes = s.slice(12, size, 'the arguments');
  const out: { name: string; value: string }[] = [];
  const next = (i: number): [string, number] => {
    let e = i;
    while (e < bytes.byteLength && bytes[e] !== 0) e++;
    return [text(bytes.subarray(i, e)), Math.min(e + 1, bytes.byteLength)];
  };
  for (let i = 0; i < bytes.byteLength;) {
    const [name, j] = next(i);
    const [value, k] = next(j);
    // dxc's reader keeps a pair where either half is non-empty (trailing padding zeros are not pairs).
    if (name !== '' || value !== '') out.push({ name, value });
    i = k;
  }
  return out;
}

/** The ILDB module's named metadata dx.source.*, or undefined when it has no dx.source.contents. */
export function moduleSources(m: Module): DxilSources | undefined {
  const named = (name: string): Metadata[] => {
    const n = m.named.find((x) => x.name === name);
    return (n?.ops ?? []).map((id) => m.metadata[id]).filter((x): x is Metadata => x !== undefined);
  };
  const strings = (md: Metadata | undefined): string[] =>
    md?.k === 'node' ? md.ops.map((o) => m.metadata[o - 1]).map((x) => (x?.k === 'string' ? latin1Utf8(x.s) : '')) : [];
  const contents = named('dx.source.contents');
  if (contents.length === 0) return undefined;
  const files: DxilSourceFile[] = [];
  for (const node of contents) {
    const [path = '', body = ''] = strings(node);
    files.push({ path, text: body });
  }
  const main = named('dx.source.mainFileName');
  return {
    from: 'ILDB',
    files,
    mainFile: main.length ? strings(main[0])[0] : undefined,
    args: named('dx.source.args').flatMap(strings),
    defines: named('dx.source.defines').flatMap(strings),
  };
}

/**
 * The HLSL source a DXIL container embeds: SRCI's when it has one with text, else the debug
 * module's dx.source.contents; undefined when neither holds any text. Throws IridiaError for a
 * part that cannot be read.
 */
export function readDxilSources(c: Container): DxilSources | undefined {
  const srci = c.parts.find((p) => p.kind === 'SRCI');
  if (srci) {
    const s = readSrciSources(srci.data, srci.offset + 8);
    if (s.files.some((f) => f.text !== '')) return s;
  }
  const ildb = c.parts.find((p) => p.kind === 'ILDB');
  if (!ildb) return undefined;
  const at = ildb.offset + 8;
  const header = readProgramHeader(ildb.data, 'ILDB', at);
  const m = readModule(header.bitcode, { part: 'ILDB', offset: at + header.bitcodeStart });
  const s = moduleSources(m);
  return s && s.files.some((f) => f.text !== '') ? s : undefined;
}
