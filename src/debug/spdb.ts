// Reads an SPDB part (a PDB in MSF 7.00) into the tools' model of debug information (spec:
// containers.md, "Debug information in Shader Model 4 and 5 (SPDB)"): stream 1 names /names and
// the embedded sources, stream 2 (TPI) holds the types, stream 4 (IPI) the inlined functions'
// names, stream 3 (DBI) names the module stream, whose symbols and C13 subsections give the
// scopes, variables, locations and lines.

import { ByteReader } from '../binary/reader.js';
import { IridiaError } from '../errors.js';
import { readC13, type C13 } from './c13.js';
import { readDbi } from './dbi.js';
import type { DebugInfo, LineInfo, Scope, SourceFile, Variable, VariableLocation } from './model.js';
import { readMsf } from './msf.js';
import { readPdbInfo, readStringTable } from './pdbinfo.js';
import { namedWhole, namedWithoutComponent, registerName } from './registers.js';
import { readSymbols, type ScopeSymbol } from './symbols.js';
import { readTypeStream, type TypeStream } from './tpi.js';
import { memberPath, typeName } from './typepath.js';

const PDB_INFO = 1;
const TPI = 2;
const DBI = 3;
const IPI = 4;

export interface Spdb extends DebugInfo {
  readonly format: 'SPDB';
  readonly types: TypeStream;
  readonly c13: C13;
}

function required(stream: Uint8Array | undefined, index: number, where: string): Uint8Array {
  if (!stream) throw new IridiaError('E503_MSF_BAD', `stream ${index} is missing`, { offset: 0, part: where });
  return stream;
}

/** Reads an SPDB part's bytes. `base` is the part data's offset in the container (for errors). */
export function readSpdb(bytes: Uint8Array, base = 0): Spdb {
  const msf = readMsf(bytes, 'SPDB', base);
  const info = readPdbInfo(required(msf.stream(PDB_INFO), PDB_INFO, 'SPDB'));
  const namesIndex = info.namedStreams.get('/names');
  if (namesIndex === undefined)
    throw new IridiaError('E504_DEBUG_BAD', 'the named-stream map names no /names', {
      offset: 0,
      part: 'SPDB stream 1',
    });
  const names = readStringTable(required(msf.stream(namesIndex), namesIndex, 'SPDB'), `SPDB stream ${namesIndex}`);
  const types = readTypeStream(required(msf.stream(TPI), TPI, 'SPDB'), 'SPDB stream 2');
  const ipiBytes = msf.stream(IPI);
  const ids = ipiBytes ? readTypeStream(ipiBytes, 'SPDB stream 4') : undefined;
  const dbi = readDbi(required(msf.stream(DBI), DBI, 'SPDB'));
  const module = dbi.modules[0];
  if (!module || module.stream === undefined)
    throw new IridiaError('E504_DEBUG_BAD', 'the DBI stream lists no module with a stream', {
      offset: 0,
      part: 'SPDB stream 3',
    });
  const where = `SPDB stream ${module.stream}`;
  const modBytes = required(msf.stream(module.stream), module.stream, 'SPDB');
  const mod = new ByteReader(modBytes, { where, code: 'E504_DEBUG_BAD' });
  mod.require(0, module.symbolBytes, 'the module symbols');
  mod.require(module.symbolBytes + module.c11Bytes, module.c13Bytes, 'the module C13 lines');
  const roots = readSymbols(mod.slice(4, Math.max(0, module.symbolBytes - 4)), where, 4);
  const c13Start = module.symbolBytes + module.c11Bytes;
  const c13 = readC13(mod.slice(c13Start, module.c13Bytes), where, c13Start);

  // Files, in checksum order, with their embedded text (stream /src/files/<lowercase path>).
  const fileIndex = new Map<number, number>();
  const files: SourceFile[] = c13.checksums.map((c, i) => {
    fileIndex.set(c.id, i);
    const path = names.at(c.nameOffset);
    const textStream = info.namedStreams.get(`/src/files/${path.toLowerCase()}`);
    // The text is decoded when asked for: listings need only the paths.
    let text: string | undefined | null = null;
    return {
      path,
      get text(): string | undefined {
        if (text === null) text = textStream === undefined ? undefined : decodeText(msf.stream(textStream));
        return text;
      },
    };
  });
  const fileOf = (id: number | undefined): number => (id === undefined ? 0 : (fileIndex.get(id) ?? 0));

  const inlineeLine = new Map(c13.inlinees.map((e) => [e.inlinee, e]));
  const inlineeName = (id: number): string => {
    const leaf = ids?.leaf(id);
    return leaf && leaf.kind === 'funcId' ? leaf.name : '';
  };

  const rowSpans: { start: number; end: number; line: number; file: number; depth: number }[] = [];
  const build = (s: ScopeSymbol, functionStart: number, depth: number): Scope => {
    const start = s.kind === 'function' ? s.offset : functionStart;
    let rows: Scope['rows'] = [];
    if (s.kind === 'inline') {
      const first = inlineeLine.get(s.inlinee);
      rows = s.annotations.map((row, i) => {
        const next = s.annotations[i + 1];
        const length = row.length ?? (next ? next.offset - row.offset : 0);
        const line = (first?.line ?? 0) + row.line;
        const file = fileOf(row.file ?? first?.file);
        return { start: start + row.offset, end: start + row.offset + length, line, file };
      });
      for (const r of rows) rowSpans.push({ start: r.start, end: r.end, line: r.line, file: r.file, depth });
    }
    const variables: Variable[] = s.locals.map((l) => ({
      name: l.name,
      typeName: typeName(types, l.type),
      locations: l.ranges.map((d): VariableLocation => {
        const whole = namedWhole(d.registerType);
        const first = d.indices[0] ?? 0;
        const indices = whole ? [first, ...d.indices.slice(1)] : [first >>> 4, ...d.indices.slice(1)];
        const component = whole ? undefined : (first >>> 2) & 3;
        const name = registerName(d.registerType, indices);
        return {
          register:
            component === undefined || namedWithoutComponent(d.registerType) ? name : `${name}.${'xyzw'[component]!}`,
          registerType: d.registerType,
          indices,
          component,
          offset: d.offset,
          size: d.size,
          member: memberPath(types, l.type, d.offset),
          start: d.start,
          end: d.start + d.length,
          gaps: d.gaps.map((g) => ({ start: d.start + g.start, end: d.start + g.start + g.length })),
        };
      }),
    }));
    return {
      kind: s.kind,
      name: s.kind === 'inline' ? inlineeName(s.inlinee) : s.name,
      rows,
      variables,
      children: s.children.map((c) => build(c, start, depth + 1)),
    };
  };
  const scopes = roots.map((s) => build(s, s.offset, 0));

  const lineTable = new Map<number, LineInfo>();
  for (const l of c13.lines)
    if (!lineTable.has(l.offset)) lineTable.set(l.offset, { file: fileOf(l.file), line: l.line });
  // The innermost inlined call's row wins (the deepest; among equals, the first read).
  rowSpans.sort((a, b) => b.depth - a.depth);
  let rowAt: ((offset: number) => LineInfo | undefined) | undefined;
  return {
    format: 'SPDB',
    files,
    scopes,
    types,
    c13,
    lineAt(offset) {
      rowAt ??= rowIndex(rowSpans);
      return rowAt(offset) ?? lineTable.get(offset);
    },
  };
}

/**
 * The row each offset falls in, first in `rows`' order among those that hold it: the rows' starts
 * and ends cut the offsets into stretches, each stretch is given the first row that covers it
 * (rows in order, each painting only stretches not yet painted, found by skipping painted runs, so
 * the build is near-linear in the rows however they overlap), and an offset is looked up by binary
 * search. Was a scan of every row per instruction (a fifth of a debug listing's time).
 */
export function rowIndex(
  rows: readonly { start: number; end: number; line: number; file: number }[],
): (offset: number) => LineInfo | undefined {
  if (rows.length === 0) return () => undefined;
  const cuts: number[] = [];
  for (const r of rows) if (r.end > r.start) cuts.push(r.start, r.end);
  cuts.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < cuts.length; i++) if (i === 0 || cuts[i] !== cuts[n - 1]) cuts[n++] = cuts[i]!;
  cuts.length = n;
  const stretches = Math.max(0, n - 1);
  const owner = new Int32Array(stretches).fill(-1);
  // next[i]: the first stretch at or after i not yet painted (a union-find with path halving).
  const next = new Int32Array(stretches + 1);
  for (let i = 0; i <= stretches; i++) next[i] = i;
  const find = (i: number): number => {
    while (next[i] !== i) {
      next[i] = next[next[i]!]!;
      i = next[i]!;
    }
    return i;
  };
  const firstCut = (x: number): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cuts[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    if (!(r.end > r.start)) continue;
    const hi = firstCut(r.end);
    for (let i = find(firstCut(r.start)); i < hi; i = find(i + 1)) {
      owner[i] = k;
      next[i] = i + 1;
    }
  }
  const infos: (LineInfo | undefined)[] = new Array<LineInfo | undefined>(rows.length).fill(undefined);
  return (offset) => {
    // The last cut at or before the offset starts its stretch.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cuts[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    if (i < 0 || i >= stretches) return undefined;
    const k = owner[i]!;
    if (k < 0) return undefined;
    const r = rows[k]!;
    return (infos[k] ??= { file: r.file, line: r.line });
  };
}

/** Embedded source text: bytes as Latin-1 (the listing prints paths and text as the bytes are). */
function decodeText(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  let end = bytes.byteLength;
  while (end > 0 && bytes[end - 1] === 0) end--;
  let s = '';
  for (let i = 0; i < end; i += 4096) s += String.fromCharCode(...bytes.subarray(i, Math.min(end, i + 4096)));
  return s;
}
