// The FXLVM expressions of Direct3D 10 effects (eval(...) in state assignments): a small container
// with an FXLC part (the instructions), CLI4 (literal table) and CTAB (the constants' names), as
// fxc's effect listing prints them. Layout facts from vkd3d's fx.c; spelling from the listings:
// the output register prints as `expr` at address 0 and `expr0` elsewhere, temporaries as r<n>,
// constants by name, literals through the untyped lane rule, and instructions after the first on
// lines indented by 24 spaces.

import { ByteReader } from '../binary/reader.js';
import { parseContainer } from '../container/container.js';
import { UnsupportedError } from '../errors.js';
import { formatUntyped } from './literal.js';

const OPCODES: Readonly<Record<number, string>> = {
  0x100: 'mov',
  0x101: 'neg',
  0x103: 'rcp',
  0x104: 'frc',
  0x105: 'exp',
  0x106: 'log',
  0x107: 'rsq',
  0x108: 'sin',
  0x109: 'cos',
  0x10a: 'asin',
  0x10b: 'acos',
  0x10c: 'atan',
  0x112: 'sqrt',
  0x120: 'ineg',
  0x121: 'not',
  0x130: 'itof',
  0x131: 'utof',
  0x133: 'ftou',
  0x137: 'ftob',
  0x139: 'floor',
  0x13a: 'ceil',
  0x200: 'min',
  0x201: 'max',
  0x202: 'lt',
  0x203: 'ge',
  0x204: 'add',
  0x205: 'mul',
  0x206: 'atan2',
  0x208: 'div',
  0x210: 'bilt',
  0x211: 'bige',
  0x212: 'bieq',
  0x213: 'bine',
  0x214: 'buge',
  0x215: 'bult',
  0x216: 'iadd',
  0x219: 'imul',
  0x21a: 'udiv',
  0x21b: 'umod',
  0x21d: 'imin',
  0x21e: 'imax',
  0x21f: 'umin',
  0x220: 'umax',
  0x230: 'and',
  0x231: 'or',
  0x233: 'xor',
  0x234: 'ishl',
  0x235: 'ishr',
  0x236: 'ushr',
  0x301: 'movc',
  0x500: 'dot',
  0x502: 'noise',
  0x70e: 'd3ds_dotswiz',
  0x711: 'd3ds_noiseswiz',
};

interface Arg {
  readonly type: number;
  readonly address: number;
  readonly index?: { readonly type: number; readonly address: number };
}

interface Constant {
  readonly name: string;
  readonly register: number;
  readonly count: number;
}

function unsupported(what: string): UnsupportedError {
  return new UnsupportedError('E208_PART_UNSUPPORTED', `effect expressions with ${what} are not printed yet`, {
    part: 'FX10',
  });
}

/** The instructions of an expression blob, one string each. */
export function expressionLines(blob: Uint8Array): string[] {
  const c = parseContainer(blob);
  const part = (k: string): Uint8Array | undefined => c.parts.find((p) => p.kind === k)?.data;
  const fxlc = part('FXLC');
  if (fxlc === undefined) throw unsupported('no FXLC part');
  const literals: number[] = [];
  const cli = part('CLI4');
  if (cli) {
    const r = new ByteReader(cli, { where: 'CLI4', code: 'E201_PART_TRUNCATED' });
    const n = r.u32At(0);
    for (let i = 0; i < n; i++) literals.push(r.u32At(4 + i * 4));
  }
  const constants: Constant[] = [];
  const ctab = part('CTAB');
  if (ctab) {
    const r = new ByteReader(ctab, { where: 'CTAB', code: 'E201_PART_TRUNCATED' });
    const n = r.u32At(12);
    const at = r.u32At(16);
    for (let i = 0; i < n; i++) {
      const e = at + i * 20;
      constants.push({ name: r.cstringAt(r.u32At(e)), register: r.u16At(e + 6), count: r.u16At(e + 8) });
    }
  }
  const r = new ByteReader(fxlc, { where: 'FXLC', code: 'E201_PART_TRUNCATED' });
  let pos = 0;
  const u32 = (): number => {
    const v = r.u32At(pos);
    pos += 4;
    return v;
  };
  const readArg = (): Arg => {
    const indexed = u32();
    const index = indexed ? { type: u32(), address: u32() } : undefined;
    const type = u32();
    const address = u32();
    return index ? { type, address, index } : { type, address };
  };
  const lines: string[] = [];
  const count = u32();
  for (let i = 0; i < count; i++) {
    const token = u32();
    const nsrc = u32();
    if (nsrc > 8) throw unsupported(`${nsrc} sources`);
    const args: Arg[] = [];
    for (let j = 0; j <= nsrc; j++) args.push(readArg());
    const comps = token & 0xffff;
    const scalar = (token & 0x80000000) !== 0;
    const op = OPCODES[(token >>> 20) & 0x7ff];
    if (op === undefined) throw unsupported(`opcode ${(token >>> 20) & 0x7ff}`);
    const parts = [printArg(args[nsrc]!, comps, false, literals, constants)];
    // The scalar flag applies to the first source only.
    for (let j = 0; j < nsrc; j++) parts.push(printArg(args[j]!, comps, j === 0 && scalar, literals, constants));
    lines.push(`${op} ${parts.join(', ')}`);
  }
  return lines;
}

function swizzle(address: number, n: number): string {
  return n < 4 ? `.${'xyzw'.slice(address % 4, (address % 4) + n)}` : '';
}

function printArg(
  a: Arg,
  comps: number,
  scalar: boolean,
  literals: readonly number[],
  constants: readonly Constant[],
): string {
  if (a.index !== undefined) throw unsupported('indexed registers');
  const n = scalar ? 1 : comps;
  switch (a.type) {
    case 1: {
      // A literal prints every lane, a scalar one repeated.
      const lanes: string[] = [];
      for (let i = 0; i < comps; i++) {
        const v = literals[a.address + (scalar ? 0 : i)];
        if (v === undefined) throw unsupported('a literal past the table');
        lanes.push(formatUntyped(v));
      }
      return `(${lanes.join(', ')})`;
    }
    case 2: {
      const reg = a.address >>> 2;
      const c = constants.find((k) => reg >= k.register && reg - k.register < k.count);
      if (c === undefined) return `c${reg}${swizzle(a.address, n)}`;
      const offset = a.address - c.register * 4;
      return `${c.name}${offset >>> 2 ? `[${offset >>> 2}]` : ''}${swizzle(offset, n)}`;
    }
    case 3:
      return `i${a.address >>> 2}${swizzle(a.address, n)}`;
    case 4:
      return `expr${a.address ? a.address >>> 2 : ''}${swizzle(a.address, n)}`;
    case 7:
      return `r${a.address >>> 2}${swizzle(a.address, n)}`;
    default:
      throw unsupported(`register type ${a.type}`);
  }
}
