// What program a container holds, read from the SHDR/SHEX version token or the DXIL program
// header (containers.md; DxilContainer.h's DxilProgramHeader): enough for census and info
// without decoding the program.

import { ByteReader } from '../binary/reader.js';
import type { Container } from './container.js';

export type ContainerKind = 'dxbc' | 'dxil' | 'effect' | 'root-signature' | 'other';

/** Program types of the version token's bits 16..31 (SM4/5) and of the DXIL program header. */
export const PROGRAM_TYPES = ['ps', 'vs', 'gs', 'hs', 'ds', 'cs', 'lib', 'ms', 'as'] as const;
// DXIL numbers its kinds as D3D12_SHVER_PROGRAM_TYPE: 0 pixel .. 5 compute, 6 library, 7..14 ray
// tracing stages, 13 mesh, 14 amplification; see programTypeName.

export interface ProgramInfo {
  readonly kind: ContainerKind;
  /** The part holding the program ('SHEX', 'SHDR', 'DXIL'), if any. */
  readonly part?: string;
  /** 'ps', 'vs', ... ; undefined when there is no program. */
  readonly stage?: string;
  readonly major?: number;
  readonly minor?: number;
  /** e.g. 'ps_5_0', 'lib_6_3'. */
  readonly target?: string;
  /** DXIL only: the DXIL version (major.minor) of the program header. */
  readonly dxilVersion?: string;
}

const DXIL_KINDS: Readonly<Record<number, string>> = {
  0: 'ps',
  1: 'vs',
  2: 'gs',
  3: 'hs',
  4: 'ds',
  5: 'cs',
  6: 'lib',
  7: 'raygeneration',
  8: 'intersection',
  9: 'anyhit',
  10: 'closesthit',
  11: 'miss',
  12: 'callable',
  13: 'ms',
  14: 'as',
  15: 'node',
};

export function programTypeName(type: number): string {
  return DXIL_KINDS[type] ?? `type${type}`;
}

/** Reads the version word of an SM4/5 token stream or the DXIL program header. Never throws. */
export function programInfo(c: Container): ProgramInfo {
  const has = (k: string): boolean => c.parts.some((p) => p.kind === k);
  for (const kind of ['DXIL', 'SHEX', 'SHDR'] as const) {
    const part = c.parts.find((p) => p.kind === kind);
    if (!part || part.data.byteLength < 4) continue;
    const r = new ByteReader(part.data);
    const v = r.u32At(0);
    const minor = v & 0xf;
    const major = (v >>> 4) & 0xf;
    const stage = programTypeName(v >>> 16);
    const base = { part: kind, stage, major, minor, target: `${stage}_${major}_${minor}` };
    if (kind === 'DXIL') {
      if (part.data.byteLength >= 16) {
        const dv = r.u32At(12);
        return { kind: 'dxil', ...base, dxilVersion: `${(dv >>> 8) & 0xff}.${dv & 0xff}` };
      }
      return { kind: 'dxil', ...base };
    }
    return { kind: 'dxbc', ...base };
  }
  if (c.parts.some((p) => p.kind === 'FX10' || p.kind === '\x01\x10\xff\xfe' || p.kind === '\x11\x10\xff\xfe')) {
    return { kind: 'effect' };
  }
  if (has('RTS0')) return { kind: 'root-signature' };
  return { kind: 'other' };
}
