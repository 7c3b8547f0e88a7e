// The listing D3DDisassemble prints for a Direct3D 10 effect (fx_4_0 / fx_4_1, an FX10 part): the
// version and pool lines, then each constant buffer with its variables, offsets, sizes, semantics,
// packoffsets and default values. Layout of the part (facts from vkd3d's fx.c and Wine's d3d10
// effect reader): a 19-word header (version, buffer, numeric-variable and object counts, shared
// counts, technique count, unstructured size, ...), the unstructured data (strings, types, default
// values), then the buffers, each followed by its annotations and variables. Effects with objects,
// techniques, annotations or shared (pool) data are refused as unsupported: iridia does not print
// them yet.

import type { Container } from '../container/container.js';
import { ByteReader } from '../binary/reader.js';
import { UnsupportedError } from '../errors.js';
import { bitsToFloat, formatHex } from './literal.js';

const VERSIONS: Readonly<Record<number, string>> = { 0xfeff1001: 'fx_4_0', 0xfeff1011: 'fx_4_1' };

/** The effect part of a container, if any. */
export function effectPart(c: Container): Container['parts'][number] | undefined {
  return c.parts.find((p) => p.kind === 'FX10');
}

function unsupported(what: string): UnsupportedError {
  return new UnsupportedError('E208_PART_UNSUPPORTED', `effect listings with ${what} are not printed yet`, {
    part: 'FX10',
  });
}

/** printf's %.9g of a float. */
export function formatG9(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  if (!Number.isFinite(v)) return Number.isNaN(v) ? '1.#QNAN' : v < 0 ? '-1.#INF' : '1.#INF';
  const exp = Math.floor(Math.log10(Math.abs(Number(v.toPrecision(9)))));
  if (exp < -4 || exp >= 9) {
    const [m, e] = v.toExponential(8).split('e') as [string, string];
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const n = Number(e);
    return `${mant}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  const s = v.toFixed(Math.max(0, 8 - exp));
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

interface FxType {
  readonly name: string;
  readonly cls: number;
  readonly elements: number;
  readonly unpacked: number;
  readonly packed: number;
  readonly typeinfo: number;
}

export function effectListing(c: Container): string {
  const part = effectPart(c);
  if (part === undefined) throw unsupported('no FX10 part');
  const r = new ByteReader(part.data, { base: part.offset + 8, where: 'FX10', code: 'E201_PART_TRUNCATED' });
  const h: number[] = [];
  for (let i = 0; i < 19; i++) h.push(r.u32At(i * 4, 'the effect header'));
  const [version, buffers, , objects, sharedBuffers, , sharedObjects, techniques, unstructured] = h as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const name = VERSIONS[version];
  if (name === undefined) throw unsupported(`version ${formatHex(version)}`);
  if (objects || sharedBuffers || sharedObjects || techniques) throw unsupported('objects, techniques or a pool');
  const base = 19 * 4;
  r.require(base, unstructured, 'the unstructured data');
  const data = new ByteReader(part.data.subarray(base, base + unstructured), {
    base: part.offset + 8 + base,
    where: 'FX10',
    code: 'E201_PART_TRUNCATED',
  });
  const str = (off: number): string => data.cstringAt(off);
  const typeAt = (off: number): FxType => ({
    name: str(data.u32At(off)),
    cls: data.u32At(off + 4),
    elements: data.u32At(off + 8),
    unpacked: data.u32At(off + 12),
    packed: data.u32At(off + 20),
    typeinfo: data.u32At(off + 24),
  });
  const out = ['//', `// FX Version: ${name}`, '// Child effect (requires effect pool): false', '//'];
  out.push(`// ${buffers} local buffer(s)`, '//');
  let pos = base + unstructured;
  const u32 = (): number => {
    const v = r.u32At(pos, 'the effect');
    pos += 4;
    return v;
  };
  for (let b = 0; b < buffers; b++) {
    const bname = str(u32());
    u32(); // size
    const flags = u32();
    const count = u32();
    const bind = u32();
    if (u32() !== 0) throw unsupported('annotations');
    out.push(`${flags & 1 ? 'tbuffer' : 'cbuffer'} ${bname}${bind !== 0xffffffff ? ` : register(b${bind})` : ''}`, '{');
    for (let v = 0; v < count; v++) {
      const vname = str(u32());
      const type = typeAt(u32());
      const semantic = u32();
      const offset = u32();
      const value = u32();
      const vflags = u32();
      if (u32() !== 0) throw unsupported('annotations');
      let decl = `${vname}${type.elements ? `[${type.elements}]` : ''}`;
      if (semantic) decl += ` : ${str(semantic)}`;
      if (vflags & 4) decl += ` : packoffset(c${offset >>> 4}.${'xyzw'[(offset >>> 2) & 3]})`;
      if (value) decl += ` = ${defaultValue(data, value, type)}`;
      const tname = type.name === '' ? '<unnamed>' : type.name;
      const text = `    ${tname.padEnd(7)} ${decl};`;
      out.push(
        `${text.padEnd(40)}// Offset: ${String(offset).padStart(4)}, size: ${String(type.unpacked).padStart(4)}`,
      );
    }
    out.push('}', '');
  }
  return `${out.join('\n')}\n`;
}

function defaultValue(data: ByteReader, at: number, type: FxType): string {
  const n = type.packed >>> 2;
  const base = (type.typeinfo >>> 3) & 0xf;
  const lanes: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = data.u32At(at + i * 4, 'a default value');
    if (type.cls !== 1) lanes.push(formatHex(w));
    else if (base === 1) lanes.push(formatG9(bitsToFloat(w)));
    else if (base === 2) lanes.push(String(w | 0));
    else if (base === 3) lanes.push(String(w >>> 0));
    else if (base === 4) lanes.push(w ? 'true' : 'false');
    else lanes.push(formatHex(w));
  }
  return n === 1 ? lanes[0]! : `{ ${lanes.join(', ')} }`;
}
