// Test helper: rewrites the source positions of an SDBG part (D3D10_SHADER_DEBUG_INFO) in a copy of a
// container, so that a test can ask how a listing's `#line` directives follow the lines. A probe
// sets a token's line, file or column, points an instruction record at another token, and can add
// a second file entry (the part is the container's last: it grows by one file table at its end,
// whose first entry is the part's file 0 and whose second names the same path less its first three
// characters). The container's digest is computed again, as Microsoft's disassembler checks it.

import { parseContainer } from '../../src/container/container.js';
import { containerDigest } from '../../src/container/digest.js';

const HEADER_SIZE = 84;
const TOKEN_SIZE = 20;
const INSTRUCTION_SIZE = 396;
const INSTRUCTION_TOKEN = 372;
const FILE_SIZE = 16;

/** One rewrite: `tN.line=V`, `tN.file=V`, `tN.col=V` (token N), `iN.tok=V` (record N's token), or `file2`. */
export type Probe = string;

/** The container with the probes applied, its digest redone. */
export function probeContainer(original: Uint8Array, probes: readonly Probe[]): Uint8Array {
  let bytes: Uint8Array = new Uint8Array(original);
  if (probes.includes('file2')) bytes = withSecondFile(bytes);
  const sdbg = sdbgAt(bytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = (i: number): number => dv.getUint32(sdbg + 4 * i, true);
  const data = sdbg + HEADER_SIZE;
  for (const p of probes) {
    if (p === 'file2') continue;
    const m = /^([ti])(\d+)\.(line|file|col|tok)=(\d+)$/.exec(p);
    if (!m) throw new Error(`bad probe ${p}`);
    const n = Number(m[2]);
    const value = Number(m[4]) >>> 0;
    if (m[1] === 't') {
      const field = { file: 0, line: 4, col: 8 }[m[3] as 'file' | 'line' | 'col'];
      if (field === undefined) throw new Error(`bad probe ${p}`);
      dv.setUint32(data + header(14) + n * TOKEN_SIZE + field, value, true);
    } else {
      if (m[3] !== 'tok') throw new Error(`bad probe ${p}`);
      dv.setUint32(data + header(8) + n * INSTRUCTION_SIZE + INSTRUCTION_TOKEN, value, true);
    }
  }
  bytes.set(containerDigest(bytes), 4);
  return bytes;
}

/** The byte offset of the SDBG part's data. */
function sdbgAt(bytes: Uint8Array): number {
  const part = parseContainer(bytes).parts.find((p) => p.kind === 'SDBG');
  if (!part) throw new Error('no SDBG part');
  return part.offset + 8;
}

function withSecondFile(bytes: Uint8Array): Uint8Array {
  const c = parseContainer(bytes);
  const last = c.parts[c.parts.length - 1]!;
  if (last.kind !== 'SDBG') throw new Error('the SDBG part is not the last');
  const out = new Uint8Array(bytes.byteLength + 2 * FILE_SIZE);
  out.set(bytes);
  const dv = new DataView(out.buffer);
  const sdbg = last.offset + 8;
  const end = last.data.byteLength - HEADER_SIZE;
  const fileAt = dv.getUint32(sdbg + 24, true);
  const entry = [0, 1, 2, 3].map((k) => dv.getUint32(sdbg + HEADER_SIZE + fileAt + 4 * k, true));
  const second = [entry[0]! + 3, entry[1]! - 3, entry[2]!, entry[3]!];
  [...entry, ...second].forEach((v, k) => dv.setUint32(sdbg + HEADER_SIZE + end + 4 * k, v, true));
  dv.setUint32(sdbg + 20, 2, true); // Files
  dv.setUint32(sdbg + 24, end, true); // FileInfo
  dv.setUint32(last.offset + 4, last.data.byteLength + 2 * FILE_SIZE, true);
  dv.setUint32(24, out.byteLength, true);
  return out;
}

/** A listing's `#line` directives by the instruction they stand before: `k:N`, or `k:N "#f"` where the
 * directive names `paths[f]`; k counts the program's lines after the last declaration. */
export function directives(listing: string, paths: readonly string[]): string[] {
  const lines = listing.split('\n');
  let k = 0;
  lines.forEach((l, i) => {
    if (l.startsWith('dcl_')) k = i;
  });
  const out: string[] = [];
  let n = 0;
  for (const l of lines.slice(k + 1)) {
    if (l === '' || l.startsWith('// Approximately')) continue;
    if (!l.startsWith('#line ')) {
      n++;
      continue;
    }
    let text = l.slice(6);
    paths.forEach((path, f) => {
      text = text.replace(` "${path}"`, ` "#${f}"`);
    });
    out.push(`${n}:${text}`);
  }
  return out;
}

const LANE_FIELDS: Readonly<Record<string, readonly [number, 'u' | 'i' | 'f']>> = {
  umin: [4, 'u'],
  umax: [8, 'u'],
  imin: [12, 'i'],
  imax: [16, 'i'],
  fmin: [20, 'f'],
  fmax: [24, 'f'],
  nan: [28, 'u'],
  inf: [32, 'u'],
};

/** The container with the first variable lane of instruction record `record` rewritten
 * (D3D10_SHADER_DEBUG_OUTPUTVAR: `umin=V`, `umax`, `imin`, `imax`, `fmin`, `fmax` (`inf`, `-inf`,
 * `nan` allowed), `nan`, `inf`), its digest redone. */
export function probeLane(original: Uint8Array, record: number, sets: readonly string[]): Uint8Array {
  const bytes = new Uint8Array(original);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const data = sdbgAt(bytes) + HEADER_SIZE;
  const at = data + dv.getUint32(sdbgAt(bytes) + 32, true) + record * INSTRUCTION_SIZE;
  let lane = -1;
  for (let o = 0; o < dv.getUint32(at + 8, true) && lane < 0; o++)
    for (let k = 0; k < 4 && lane < 0; k++) {
      const out = at + 12 + o * 180;
      if (dv.getUint32(out + 12 + 4 * k, true) !== 0xffffffff && dv.getUint32(out + 28 + k * 36, true) !== 0xffffffff)
        lane = out + 28 + k * 36;
    }
  if (lane < 0) throw new Error(`record ${record} writes no variable`);
  for (const s of sets) {
    const [key, text] = s.split('=') as [string, string];
    const field = LANE_FIELDS[key];
    if (!field) throw new Error(`bad lane field ${s}`);
    const v = text === 'inf' ? Infinity : text === '-inf' ? -Infinity : text === 'nan' ? NaN : Number(text);
    if (field[1] === 'f') dv.setFloat32(lane + field[0], v, true);
    else if (field[1] === 'i') dv.setInt32(lane + field[0], v, true);
    else dv.setUint32(lane + field[0], v >>> 0, true);
  }
  bytes.set(containerDigest(bytes), 4);
  return bytes;
}
