// The listing's era: the spellings and column layouts by which the D3DDisassemble of older compilers
// differs from today's (d3dcompiler_47 10.x, the default). Read from the listings those compilers
// printed (../shared/corpus/dxbc, NAME.asm beside NAME.ms.asm, the README's "NAME.asm against
// NAME.ms.asm, by compiler"): fxc 9.29.952 (DirectX SDK June 2010), 9.30.9200 (Windows 8 SDK) and
// 6.3.9600 (Windows 8.1 SDK). Each era is one row of data; the printers read its fields.
//
// Era 10.0 is today's layout with msvcrt's float digits: 26 listings of ../shared/corpus/dxbc
// (directxtex and directxtk builds with /Qstrip_reflect, so no RDEF names their compiler) print
// `dcl_constantbuffer CB0[2]` as 10.x does and floats as the msvcrt eras do, which neither era 10
// nor 6.3 reproduces. The one compiler of the corpus between 6.3.9600 and 10.1 is 10.0.10011.16384
// (the RDEF creator of 219 containers, none with a listing beside it), so a 10.0 creator is read as
// this era; no listing of the corpus confirms that mapping.
//
// The SDBG rows (`sdbg`) and 9.29's `discardTest` were measured on the eras' own disassemblers
// (D3DCompiler_43 9.29.952, d3dcompiler_46 9.30.9200.16384, run under Wine) printing 9.29 /Zi
// builds and rewritten copies of them (test/debug/sdbg-era.test.ts, test/fixtures/era-sdbg).
//
// What no era can reproduce: the comment an old fxc passed (its command line, wrapped in `//   `
// lines after the creator line, or the `///` some projects left in its place). The container does not
// hold it; a comparison sets those lines apart (see test/disasm/era.test.ts).

import { IridiaError } from '../errors.js';
import type { Crt } from './literal.js';

export type EraName = '10' | '10.0' | '6.3' | '9.30' | '9.29';

/** fxc 9.29's and 9.30's bounds on the moves of an SDBG line that print no `#line`. */
export interface SdbgLineMoves {
  readonly near: number;
  readonly drift: number;
}

/** What an SDBG program's listing prints (src/debug/sdbg.ts, `sdbgAnnotations`) where eras differ. */
export interface SdbgEra {
  /** `#line` in the same file: where the line moves by more than `near` from the previous record's
   * or by more than `drift` from the last directive's; undefined: wherever the line changes. */
  readonly lineMoves: SdbgLineMoves | undefined;
  /** A hull program's phase start (hs_control_point_phase, hs_fork_phase, hs_join_phase) takes its
   * record's `#line` and remark (9.29), or only counts it (later eras). */
  readonly annotatesPhases: boolean;
  /** The lines before and after an instruction past the last record. */
  readonly pastRecords: { readonly before: readonly string[]; readonly after: readonly string[] };
}

const PAST_RECORDS = '// <internal error> incorrect instruction offset in debug info';
/** Today's: every change of line, phase starts counted only, `<internal error>` past the records. */
export const SDBG_10: SdbgEra = {
  lineMoves: undefined,
  annotatesPhases: false,
  pastRecords: { before: ['', PAST_RECORDS], after: ['', PAST_RECORDS, ''] },
};
const SDBG_930: SdbgEra = { ...SDBG_10, lineMoves: { near: 2, drift: 10 } };
const PAST_RECORDS_929 = '// incorrect instruction offset in debug info';
const SDBG_929: SdbgEra = {
  lineMoves: { near: 2, drift: 10 },
  annotatesPhases: true,
  pastRecords: { before: ['', PAST_RECORDS_929], after: [PAST_RECORDS_929, ''] },
};

export interface Era {
  readonly name: EraName;
  /** Resource Bindings: `bind` (`Dim      HLSL Bind  Count`, t0/s0/cb0, a trailing space) or `slot`
   * (`Dim Slot Elements`, bare slot numbers, no trailing space). */
  readonly bindings: 'bind' | 'slot';
  /** The signature tables' Format column: 7 wide (`SysValue  Format`) or 6 (`SysValue Format`). */
  readonly signatureFormatWidth: 6 | 7;
  /** `dcl_constantbuffer CB0[4]` or `cb0[4]`. */
  readonly upperCaseConstantBufferDecl: boolean;
  /** `dcl_input_ps_sgv constant v1.x, ...`: the interpolation mode of a pixel system value input. */
  readonly sgvInterpolation: boolean;
  /** `dcl_resource_structured t0, 16 ` ends in a space. */
  readonly structuredResourceSpace: boolean;
  /** The C runtime whose printf writes floats (literal.ts): ucrt, or msvcrt before 10.x. */
  readonly crt: Crt;
  /** `sample_l_aoffimmi_indexable(...)`: the immediate-offset suffix is printed (9.29: `sample_l_indexable(...)`). */
  readonly aoffimmiSuffix: boolean;
  /** `discard_nz r0.x` / `discard_z r0.x`: the test is printed (9.29: `discard r0.x` for both). */
  readonly discardTest: boolean;
  /** An SDBG program's debug lines (src/debug/sdbg.ts): `#line`, phase starts, past the records. */
  readonly sdbg: SdbgEra;
}

export const ERAS: Readonly<Record<EraName, Era>> = {
  '10': {
    name: '10',
    bindings: 'bind',
    signatureFormatWidth: 7,
    upperCaseConstantBufferDecl: true,
    sgvInterpolation: true,
    structuredResourceSpace: false,
    crt: 'ucrt',
    aoffimmiSuffix: true,
    discardTest: true,
    sdbg: SDBG_10,
  },
  '10.0': {
    name: '10.0',
    bindings: 'bind',
    signatureFormatWidth: 7,
    upperCaseConstantBufferDecl: true,
    sgvInterpolation: true,
    structuredResourceSpace: false,
    crt: 'msvcrt',
    aoffimmiSuffix: true,
    discardTest: true,
    sdbg: SDBG_10,
  },
  '6.3': {
    name: '6.3',
    bindings: 'slot',
    signatureFormatWidth: 7,
    upperCaseConstantBufferDecl: false,
    sgvInterpolation: false,
    structuredResourceSpace: true,
    crt: 'msvcrt',
    aoffimmiSuffix: true,
    discardTest: true,
    sdbg: SDBG_10,
  },
  '9.30': {
    name: '9.30',
    bindings: 'slot',
    signatureFormatWidth: 7,
    upperCaseConstantBufferDecl: false,
    sgvInterpolation: false,
    structuredResourceSpace: true,
    crt: 'msvcrt',
    aoffimmiSuffix: true,
    discardTest: true,
    sdbg: SDBG_930,
  },
  '9.29': {
    name: '9.29',
    bindings: 'slot',
    signatureFormatWidth: 6,
    upperCaseConstantBufferDecl: false,
    sgvInterpolation: false,
    structuredResourceSpace: true,
    crt: 'msvcrt',
    aoffimmiSuffix: false,
    discardTest: false,
    sdbg: SDBG_929,
  },
};

export const ERA_10: Era = ERAS['10'];

/** The era of a compiler's creator string (`Microsoft (R) HLSL Shader Compiler 9.29.952.3111`); 10 otherwise. */
export function eraOfCreator(creator: string | undefined): Era {
  const m = /Compiler (\d+)\.(\d+)/.exec(creator ?? '');
  if (!m) return ERA_10;
  const key = `${m[1]}.${m[2]}`;
  if (key === '10.1') return ERA_10;
  return key in ERAS ? ERAS[key as EraName] : ERA_10;
}

/** An era by its name (`10`, `10.0`, `6.3`, `9.30`, `9.29`); a bad name is E109. */
export function eraNamed(name: string): Era {
  if (name in ERAS) return ERAS[name as EraName];
  throw new IridiaError(
    'E109_BAD_ARGUMENT',
    `no listing era ${JSON.stringify(name)} (10, 10.0, 6.3, 9.30, 9.29 or auto)`,
  );
}
