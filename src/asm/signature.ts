// Signature parts from the listing's header tables, for a container assembled without --like: the
// "Input signature", "Output signature" and "Patch Constant signature" tables header.ts prints
// (Name, Index, Mask, Register, SysValue, Format, Used) read back into ISGN/OSGN/PCSG records, OSG5
// when the rows name streams (`m1:COLOR`), ISG1/OSG1/PSG1 when a row has a minimum precision. The
// layout is containers.md's ("Signature parts"): a count, the record offset 8, the records, then
// the names (each once, NUL-terminated, in first-use order, the part padded to 4 bytes).

import type { PartInput } from '../container/container.js';

/** SysValue column names to D3D_NAME (header.ts's table, inverted). */
const SYSTEM_VALUES: Readonly<Record<string, number>> = {
  NONE: 0,
  POS: 1,
  CLIPDST: 2,
  CULLDST: 3,
  RTINDEX: 4,
  VPINDEX: 5,
  VERTID: 6,
  PRIMID: 7,
  INSTID: 8,
  FFACE: 9,
  SAMPLE: 10,
  QUADEDGE: 11,
  QUADINT: 12,
  TRIEDGE: 13,
  TRIINT: 14,
  LINEDET: 15,
  LINEDEN: 16,
  INNERCOV: 23,
  TARGET: 64,
  DEPTH: 65,
  COVERAGE: 66,
  DEPTHGE: 67,
  DEPTHLE: 68,
  STENCILREF: 69,
};
const COMPONENT_TYPES = ['unknown', 'uint', 'int', 'float', 'uint16', 'int16', 'float16', 'uint64', 'int64', 'double'];
const MIN_PRECISION: Readonly<Record<string, [number, number]>> = {
  // name: [component type, minimum precision]
  min16f: [3, 1],
  min2_8f: [3, 2],
  min16i: [2, 4],
  min16u: [1, 5],
};

interface Row {
  name: string;
  index: number;
  sv: number;
  type: number;
  register: number;
  mask: number;
  rw: number;
  stream: number;
  precision: number;
}

const lanes = (t: string): number => {
  let m = 0;
  for (let i = 0; i < 4; i++) if (t[i] !== undefined && t[i] !== ' ') m |= 1 << i;
  return m;
};

/** The rows of one table (`title`), undefined when the header has no such table. */
function table(lines: readonly string[], title: string, output: boolean): Row[] | undefined {
  const at = lines.indexOf(`// ${title}:`);
  if (at < 0) return undefined;
  const head = lines[at + 2] ?? '';
  const fw = head.includes('SysValue  Format') ? 7 : 6;
  const rows: Row[] = [];
  for (let i = at + 4; i < lines.length; i++) {
    const l = lines[i]!;
    if (!l.startsWith('// ') || l.startsWith('// no ')) break;
    const nameEnd = l.indexOf(' ', 3);
    const shift = Math.max(0, nameEnd - 23);
    const col = (a: number, b: number): string => l.slice(a + shift, b + shift);
    let name = l.slice(3, nameEnd);
    let stream = 0;
    const m = /^m([0-3]):(.*)$/.exec(name);
    if (m) {
      stream = Number(m[1]);
      name = m[2]!;
    }
    const index = Number(col(24, 29).trim());
    const scalar = col(32, 36).trim() === 'N/A';
    // A register-less row (oDepth, oMask, oStencilRef, ...) has a register name of its own width:
    // its SysValue, Format and Used are its last three words.
    const tail = l.trim().split(/ +/).slice(-3);
    const svText = scalar ? tail[0]! : col(46, 54).trim();
    const sv = SYSTEM_VALUES[svText] ?? Number(svText.replace(/^SV/, ''));
    const format = scalar ? tail[1]! : col(55, 55 + fw).trim();
    const mp = MIN_PRECISION[format];
    const type = mp ? mp[0] : Math.max(0, COMPONENT_TYPES.indexOf(format));
    if (scalar) {
      // one lane, used or not
      const yes = tail[2] === 'YES';
      rows.push({
        name,
        index,
        sv,
        type,
        register: 0xffffffff,
        mask: 1,
        rw: output ? (yes ? 0xe : 0xf) : yes ? 1 : 0,
        stream,
        precision: mp?.[1] ?? 0,
      });
      continue;
    }
    const mask = lanes(col(32, 36));
    const used = lanes(col(58 + fw, 62 + fw));
    rows.push({
      name,
      index,
      sv,
      type,
      register: Number(col(37, 45).trim()),
      mask,
      rw: output ? ~used & 0xf : used,
      stream,
      precision: mp?.[1] ?? 0,
    });
  }
  return rows;
}

/** Stored system values: a pixel program's outputs store 0 for SV_Target, SV_Depth and the like. */
function stored(sv: number, pixelOutputs: boolean): number {
  return pixelOutputs && sv >= 64 ? 0 : sv;
}

function part(kind: string, rows: readonly Row[], pixelOutputs: boolean): PartInput {
  const size = kind === 'OSG5' ? 28 : kind.endsWith('1') ? 32 : 24;
  const names: string[] = [];
  for (const r of rows) if (!names.includes(r.name)) names.push(r.name);
  const recordsEnd = 8 + rows.length * size;
  const nameAt = new Map<string, number>();
  let at = recordsEnd;
  for (const n of names) {
    nameAt.set(n, at);
    at += n.length + 1;
  }
  const total = (at + 3) & ~3;
  // fxc pads the names to a word with 0xAB
  const out = new Uint8Array(total).fill(0xab, at);
  const v = new DataView(out.buffer);
  v.setUint32(0, rows.length, true);
  v.setUint32(4, 8, true);
  rows.forEach((r, i) => {
    let o = 8 + i * size;
    if (size !== 24) {
      v.setUint32(o, r.stream, true);
      o += 4;
    }
    v.setUint32(o, nameAt.get(r.name)!, true);
    v.setUint32(o + 4, r.index, true);
    v.setUint32(o + 8, stored(r.sv, pixelOutputs), true);
    v.setUint32(o + 12, r.type, true);
    v.setUint32(o + 16, r.register >>> 0, true);
    out[o + 20] = r.mask;
    out[o + 21] = r.rw;
    if (size === 32) v.setUint32(o + 24, r.precision, true);
  });
  for (const [n, a] of nameAt) for (let k = 0; k < n.length; k++) out[a + k] = n.charCodeAt(k) & 0xff;
  return { kind, data: out };
}

/** The signature parts the listing's header describes (none when it has no tables: a 0x40 listing). */
export function signatureParts(listing: string, stage: string, major: number): PartInput[] {
  const lines = listing.split('\n').map((l) => l.replace(/\r$/, ''));
  const out: PartInput[] = [];
  const tables: [string, string, string, boolean][] = [
    ['Input signature', 'ISGN', 'ISG1', false],
    ['Output signature', 'OSGN', 'OSG1', true],
    ['Patch Constant signature', 'PCSG', 'PSG1', stage === 'hs'],
  ];
  // A domain program's patch constants are inputs, listed before its outputs.
  if (stage === 'ds') tables.splice(1, 0, tables.pop()!);
  const read = tables.map(([title, , , output]) => table(lines, title, output));
  // A program that uses minimum precision (its global flag, or a row's format) has every signature
  // in the 32-byte form; a Shader Model 5 geometry program's outputs are OSG5 (with their streams).
  const precise =
    /^ *(?:0x[0-9A-Fa-f]{8}: )?dcl_globalFlags .*enableMinimumPrecision/m.test(listing) ||
    read.some((rows) => rows?.some((r) => r.precision !== 0));
  tables.forEach(([, kind, kind1, output], i) => {
    const rows = read[i];
    if (rows === undefined) return;
    const k = precise ? kind1 : kind === 'OSGN' && stage === 'gs' && major >= 5 ? 'OSG5' : kind;
    out.push(part(k, rows, output && stage === 'ps'));
  });
  return out;
}
