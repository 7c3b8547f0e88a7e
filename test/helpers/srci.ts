// SRCI (DxilSourceInfo) written as dxcshadersourceinfo.cpp's SourceInfoWriter lays it out
// (DxilContainer.h's structures): source names, contents (zlib-compressed by node:zlib, or
// stored), and the arguments as name/value pairs. For the tests of src/dxil/sources.ts and the
// web page's Source pane; no corpus container with SRCI has a licence to commit it under.

import * as zlib from 'node:zlib';

export const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
export const u16 = (n: number): number[] => [n & 0xff, n >>> 8];
const pad4 = (b: number[]): number[] => [...b, ...new Array<number>((4 - (b.length % 4)) % 4).fill(0)];
const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];

function section(type: number, body: number[]): number[] {
  const b = pad4(body);
  return [...u32(8 + b.length), ...u16(0), ...u16(type), ...b];
}

export function srci(files: { path: string; text: string }[], args: [string, string][], compress: boolean): Uint8Array {
  const nameEntries = files.flatMap((f) => {
    const name = [...utf8(f.path), 0];
    return pad4([
      ...u32(pad4([...new Array<number>(16), ...name]).length),
      ...u32(0),
      ...u32(name.length),
      ...u32(utf8(f.text).length + 1),
      ...name,
    ]);
  });
  const names = section(1, [...u32(0), ...u32(files.length), ...u16(nameEntries.length), ...nameEntries]);
  const contentEntries = files.flatMap((f) => {
    const body = [...utf8(f.text), 0];
    return pad4([...u32(pad4([...new Array<number>(12), ...body]).length), ...u32(0), ...u32(body.length), ...body]);
  });
  const stored = compress ? [...zlib.deflateSync(Uint8Array.from(contentEntries))] : contentEntries;
  const contents = section(0, [
    ...u32(0),
    ...u16(0),
    ...u16(compress ? 1 : 0),
    ...u32(stored.length),
    ...u32(contentEntries.length),
    ...u32(files.length),
    ...stored,
  ]);
  const argBytes = args.flatMap(([n, v]) => [...utf8(n), 0, ...utf8(v), 0]);
  const argSection = section(2, [...u32(0), ...u32(argBytes.length), ...u32(args.length), ...argBytes]);
  const body = [...names, ...contents, ...argSection];
  return Uint8Array.from([...u32(8 + body.length), ...u16(0), ...u16(3), ...body]);
}
