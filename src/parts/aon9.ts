// Aon9, the feature level 9 part (containers.md, "Feature level 9 part (Aon9)"): header words and
// the tables that map the Shader Model 4 program's constant buffers, samplers and resources onto
// Direct3D 9 registers, and the embedded Direct3D 9 program as bytes (decoded elsewhere).
// Every count and offset of a table is a u16 pair: the count, then the offset in the part.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';
import { requireTable } from './common.js';

export interface Aon9ConstantRange {
  readonly buffer: number;
  readonly firstRegister: number;
  readonly registerCount: number;
  /** The first float constant (c#) it goes to. */
  readonly target: number;
  /** Per component x..w: 0 float, 1 bool, 2 int, 3 uint. */
  readonly conversion: readonly [number, number, number, number];
}

export interface Aon9ScalarRow {
  readonly buffer: number;
  readonly register: number;
  /** 0..3 for x..w. */
  readonly component: number;
  /** The i# or b# register. */
  readonly target: number;
}

export interface Aon9SamplerRow {
  readonly resource: number;
  readonly sampler: number;
  readonly d3d9Sampler: number;
  readonly reserved: number;
}

export interface Aon9RuntimeRow {
  /** 0: the vertex shader position offset. */
  readonly kind: number;
  readonly target: number;
}

export interface Aon9 {
  readonly size: number;
  /** The program's version at the feature level's minimum (vs_2_0 for a vs_2_x program). */
  readonly version: number;
  /** The embedded Direct3D 9 program (a view). */
  readonly program: Uint8Array;
  readonly programOffset: number;
  /** The embedded program's own version token (minor 1: a 2_x program, feature level 9_3). */
  readonly programVersion: number;
  readonly constantRanges: readonly Aon9ConstantRange[];
  readonly intRows: readonly Aon9ScalarRow[];
  readonly boolRows: readonly Aon9ScalarRow[];
  readonly samplers: readonly Aon9SamplerRow[];
  readonly runtime: readonly Aon9RuntimeRow[];
}

export function readAon9(data: Uint8Array, base = 0): Aon9 {
  const r = new ByteReader(data, { base, where: 'Aon9', code: 'E201_PART_TRUNCATED' });
  const size = r.u32At(0, 'the size word');
  const version = r.u32At(4, 'the version word');
  const programSize = r.u32At(8, 'the program size');
  const programOffset = r.u32At(12, 'the program offset');
  if (!(programOffset <= data.byteLength && programSize <= data.byteLength - programOffset)) {
    throw r.fail(
      'E202_PART_BAD_OFFSET',
      `the Direct3D 9 program (${programSize} bytes at ${hex(programOffset)}) runs past the part (size ${hex(data.byteLength)})`,
      8,
    );
  }
  const program = r.slice(programOffset, programSize);
  const programVersion = programSize >= 4 ? r.u32At(programOffset) : 0;
  const table = (word: number, rowSize: number, what: string): { count: number; offset: number } => {
    const count = r.u16At(16 + 4 * word, `the ${what} count`);
    const offset = r.u16At(18 + 4 * word, `the ${what} offset`);
    requireTable(r, offset, count, rowSize, what, 16 + 4 * word);
    return { count, offset };
  };
  const cr = table(0, 12, 'constant buffer range');
  const ir = table(1, 8, 'int constant');
  const br = table(2, 8, 'bool constant');
  const sr = table(3, 4, 'sampler');
  const rr = table(4, 4, 'runtime constant');
  const constantRanges: Aon9ConstantRange[] = [];
  for (let i = 0; i < cr.count; i++) {
    const at = cr.offset + 12 * i;
    constantRanges.push({
      buffer: r.u16At(at),
      firstRegister: r.u16At(at + 2),
      registerCount: r.u16At(at + 4),
      target: r.u16At(at + 6),
      conversion: [r.u8At(at + 8), r.u8At(at + 9), r.u8At(at + 10), r.u8At(at + 11)],
    });
  }
  const scalars = (t: { count: number; offset: number }): Aon9ScalarRow[] => {
    const rows: Aon9ScalarRow[] = [];
    for (let i = 0; i < t.count; i++) {
      const at = t.offset + 8 * i;
      rows.push({
        buffer: r.u16At(at),
        register: r.u16At(at + 2),
        component: r.u16At(at + 4),
        target: r.u16At(at + 6),
      });
    }
    return rows;
  };
  const samplers: Aon9SamplerRow[] = [];
  for (let i = 0; i < sr.count; i++) {
    const at = sr.offset + 4 * i;
    samplers.push({
      resource: r.u8At(at),
      sampler: r.u8At(at + 1),
      d3d9Sampler: r.u8At(at + 2),
      reserved: r.u8At(at + 3),
    });
  }
  const runtime: Aon9RuntimeRow[] = [];
  for (let i = 0; i < rr.count; i++) {
    const at = rr.offset + 4 * i;
    runtime.push({ kind: r.u16At(at), target: r.u16At(at + 2) });
  }
  return {
    size,
    version,
    program,
    programOffset,
    programVersion,
    constantRanges,
    intRows: scalars(ir),
    boolRows: scalars(br),
    samplers,
    runtime,
  };
}
