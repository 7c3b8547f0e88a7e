// The fuzz targets: one per entry point of iridia. A target takes the mutated bytes and calls its entry
// point; its property is that it returns, or throws an IridiaError, and nothing else (a lifted program
// must also validate: invalid IR from any input is the lifter's bug). `seeds` picks the seed files it
// mutates and `focus` the part kinds its byte-level mutations aim at (most of the time).

import { parseContainer, digestState, rewriteContainer } from '../../src/container/container.js';
import { carveContainers } from '../../src/container/carve.js';
import { readSignature, isSignatureKind } from '../../src/parts/signature.js';
import { readRdef } from '../../src/parts/rdef.js';
import { readStat } from '../../src/parts/stat.js';
import { readSfi0 } from '../../src/parts/sfi0.js';
import { readIfce } from '../../src/parts/ifce.js';
import { readAon9 } from '../../src/parts/aon9.js';
import { decodeProgram } from '../../src/sm4/decode.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { decodeD3D9 } from '../../src/d3d9/decode.js';
import { disassembleD3D9 } from '../../src/d3d9/disasm.js';
import { debugAnnotationResult, readDebugInfo } from '../../src/debug/annotations.js';
import { readBitcode } from '../../src/dxil/bitstream.js';
import { readProgramHeader } from '../../src/dxil/program-header.js';
import { readPartModule, disassembleDxil } from '../../src/dxil/disassemble.js';
import { readDxilInfo } from '../../src/dxil/dxil-metadata.js';
import { readPsv0 } from '../../src/dxil/psv0.js';
import { readRts0 } from '../../src/dxil/rts0.js';
import { readRdat } from '../../src/dxil/rdat.js';
import { readIldn, readHash, readVers, readSrci } from '../../src/dxil/parts.js';
import { readDxilSources } from '../../src/dxil/sources.js';
import { reflect } from '../../src/reflect/reflection.js';
import { d3dReflectJson } from '../../src/reflect/d3d.js';
import { reflectDxil } from '../../src/dxil/reflect.js';
import { lift } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { printModule } from '../../src/ir/print.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { decompile, decompiledHlsl } from '../../src/decompile/index.js';
import { seededCpu, SEEDED_DEFAULTS } from '../../src/cli/commands/run.js';
import type { Program } from '../../src/ir/program.js';
import { assemble, assembleD3D9 } from '../../src/asm/index.js';
import { hashWords, rng } from './mutate.js';
import { IridiaError } from '../../src/errors.js';

export type SeedKind = 'dxbc' | 'dxil' | 'd3d9' | 'any';

export interface Target {
  readonly name: string;
  readonly about: string;
  /** Which seed files it mutates (and a filter on them: a seed must hold what the target reads). */
  readonly seeds: SeedKind;
  readonly needs?: readonly string[];
  readonly focus: readonly string[];
  /** Its time-out in ms of CPU where the default (main.ts: 5,000) is below what its own seeds take. */
  readonly timeoutMs?: number;
  run(bytes: Uint8Array): void;
}

/** A lifted program that does not validate: the lifter built invalid IR (the property's failure). */
export class InvalidIrError extends Error {
  override readonly name = 'InvalidIrError';
}

/** Pieces of listing text the asm target splices in: punctuation, register names, lanes, numbers, mnemonics. */
const LISTING_PIECES = [
  ',',
  ', ',
  '.',
  '.x',
  '.xyzw',
  '.yx',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  '|',
  '-',
  ' + ',
  ' ',
  '\n',
  '"',
  '\\',
  'r0',
  'v1',
  'o2',
  'x0[1]',
  'cb0[3]',
  'icb[r0.x + 2]',
  't0',
  's0',
  'u1',
  'g0',
  'T0[0:3]',
  'vThreadID',
  'null',
  'l(1.000000)',
  'l(0x7f800000)',
  'l(4294967296)',
  'l(-2147483649)',
  'd(1.0l)',
  '99999999999',
  '-8',
  '7',
  '0x',
  'mov',
  'add_sat',
  'if_nz',
  'sample_indexable(texture2d)(float,float,float,float)',
  '_aoffimmi(1,2,3)',
  ' [precise(xy)]',
  'dcl_temps ',
  'dcl_immediateConstantBuffer { { 1, 2, 3, 4} }',
  'dcl_resource_texture2d ',
  '{min16f as def32}',
  ' { nonuniform }',
  'printf "a%d"',
  'ps_5_0',
  'cs_5_1',
  '//',
  '#line 1',
];

/** Pieces of Direct3D 9 listing text the asm-d3d9 target splices in. */
const D3D9_PIECES = [
  ', ',
  '.',
  '.x',
  '.xy',
  '.wzyx',
  '[a0.x]',
  '[aL]',
  '(p0.x) ',
  '(!p0) ',
  '+',
  '-',
  '1 - ',
  '!',
  '_abs',
  '_bx2',
  '_dz',
  '_mod14',
  '_sat',
  '_x2',
  '_pp',
  '_centroid',
  ' {min16f}',
  'r31',
  'c8191',
  'oT0',
  'o0',
  'oDepth',
  'vFace',
  'aL',
  's15',
  'p0',
  'b0',
  'i0',
  'half0',
  '?16_3',
  'texld',
  'texcrd',
  'tex',
  'phase',
  'if_gt',
  'setp_cmp7',
  'dcl_texcoord15',
  'dcl_usage201',
  'dcl_type9',
  'def c0, 1.#QNAN, -0, 1e+039, 0x7f800001',
  'defi i0, 2147483648',
  'defb b0, true',
  'vs_1_1',
  'ps_1_4',
  'ps_3_sw',
  'lib_4_0_ps_2_0',
  'ps_4_0',
  '99999',
  '\n',
  '//',
  '#line 1',
];

/** A few edits of a listing's text, from a generator seeded by the mutant's bytes (deterministic). */
export function mutateListing(text: string, seed: number, pieces: readonly string[] = LISTING_PIECES): string {
  const next = rng(seed);
  let t = text;
  const n = 1 + (next() % 4);
  for (let k = 0; k < n; k++) {
    const at = t.length === 0 ? 0 : next() % t.length;
    const len = 1 + (next() % 12);
    switch (next() % 5) {
      case 0: // delete a run of characters
        t = t.slice(0, at) + t.slice(at + len);
        break;
      case 1: // splice a piece in
        t = t.slice(0, at) + pieces[next() % pieces.length]! + t.slice(at);
        break;
      case 2: // replace a run with a piece
        t = t.slice(0, at) + pieces[next() % pieces.length]! + t.slice(at + len);
        break;
      case 3: {
        // duplicate a line
        const lines = t.split('\n');
        const i = next() % lines.length;
        lines.splice(i, 0, lines[i]!);
        t = lines.join('\n');
        break;
      }
      default: // one character replaced by any byte
        t = t.slice(0, at) + String.fromCharCode(next() & 0xff) + t.slice(at + 1);
    }
  }
  return t;
}

const SIGNATURES = ['ISGN', 'OSGN', 'PCSG', 'ISG1', 'OSG1', 'PSG1', 'OSG5'];

function parts(
  bytes: Uint8Array,
  kinds: readonly string[],
  read: (data: Uint8Array, at: number, kind: string) => void,
) {
  const c = parseContainer(bytes);
  for (const p of c.parts) if (kinds.includes(p.kind)) read(p.data, p.offset + 8, p.kind);
}

function checked(p: Program): Program {
  const errors = validateModule(p.module);
  if (errors.length) throw new InvalidIrError(`the lifted IR does not validate: ${errors.slice(0, 3).join('; ')}`);
  return p;
}

/** The executor's budgets for a fuzzed run: small, so a program that loops is refused quickly and one
 * that allocates by a declared size is refused before it allocates. */
export const FUZZ_LIMITS = { budget: 1 << 14, memoryBudget: 64 << 20, dispatchBudget: 1 << 12 };

export const TARGETS: readonly Target[] = [
  {
    name: 'container',
    about: 'parseContainer, the digest state and the round trip',
    seeds: 'any',
    focus: [],
    run(b) {
      const c = parseContainer(b);
      digestState(c);
      rewriteContainer(c);
    },
  },
  {
    name: 'part-signature',
    about: 'readSignature of every ISGN/OSGN/PCSG/ISG1/OSG1/PSG1/OSG5 part',
    seeds: 'any',
    focus: SIGNATURES,
    run: (b) =>
      parts(b, SIGNATURES, (d, at, k) => {
        if (isSignatureKind(k)) readSignature(k, d, at);
      }),
  },
  {
    name: 'part-rdef',
    about: 'readRdef',
    seeds: 'any',
    needs: ['RDEF'],
    focus: ['RDEF'],
    run: (b) => parts(b, ['RDEF'], (d, at) => readRdef(d, at)),
  },
  {
    name: 'part-stat',
    about: 'readStat (DXBC STAT), readSfi0, readIfce',
    seeds: 'dxbc',
    focus: ['STAT', 'SFI0', 'IFCE'],
    run: (b) =>
      parts(b, ['STAT', 'SFI0', 'IFCE'], (d, at, k) => {
        if (k === 'STAT') readStat(d, at);
        else if (k === 'SFI0') readSfi0(d, at);
        else readIfce(d, at);
      }),
  },
  {
    name: 'part-aon9',
    about: 'readAon9 (the Direct3D 9 program of a level-9 container)',
    seeds: 'dxbc',
    needs: ['Aon9'],
    focus: ['Aon9'],
    run: (b) => parts(b, ['Aon9'], (d, at) => readAon9(d, at)),
  },
  {
    name: 'part-dxil',
    about: 'readPsv0, readRts0, readRdat, readIldn, readHash, readVers, readSrci, readSfi0',
    seeds: 'dxil',
    focus: ['PSV0', 'RTS0', 'RDAT', 'ILDN', 'HASH', 'VERS', 'SRCI', 'SFI0'],
    run: (b) =>
      parts(b, ['PSV0', 'RTS0', 'RDAT', 'ILDN', 'HASH', 'VERS', 'SRCI', 'SFI0'], (d, at, k) => {
        if (k === 'PSV0') readPsv0(d, at);
        else if (k === 'RTS0') readRts0(d, at);
        else if (k === 'RDAT') readRdat(d, at);
        else if (k === 'ILDN') readIldn(d, at);
        else if (k === 'HASH') readHash(d, at);
        else if (k === 'VERS') readVers(d, at);
        else if (k === 'SRCI') readSrci(d, at);
        else readSfi0(d, at);
      }),
  },
  {
    name: 'sm4',
    about: 'decodeProgram of the SHEX/SHDR part',
    seeds: 'dxbc',
    needs: ['SHEX|SHDR'],
    focus: ['SHEX', 'SHDR'],
    run: (b) => parts(b, ['SHEX', 'SHDR'], (d, _at, k) => decodeProgram(d, k)),
  },
  {
    name: 'disasm',
    about: 'disassemble (the D3DDisassemble listing) with instruction numbers and offsets',
    seeds: 'dxbc',
    focus: ['SHEX', 'SHDR', 'RDEF', 'ISGN', 'OSGN', 'STAT', 'SFI0', 'IFCE'],
    run(b) {
      disassemble(b, 0);
      disassemble(b, 0x04 | 0x20);
    },
  },
  {
    name: 'asm',
    about:
      "assemble (src/asm) of the mutant's listing with a few text edits, --like the mutant; what assembles disassembles",
    seeds: 'dxbc',
    focus: ['SHEX', 'SHDR'],
    run(b) {
      const c = parseContainer(b);
      let h = 0;
      for (let i = 0; i < b.length; i += 4) h = hashWords(h, b[i]! | ((b[i + 1] ?? 0) << 8));
      const listing = mutateListing(disassemble(c, h & 1 ? 0x80 : 0x04 | 0x20), h);
      const r = assemble(listing, { like: c });
      disassemble(r.container, 0);
    },
  },
  {
    name: 'asm-d3d9',
    about:
      "assembleD3D9 (src/asm/d3d9) of the mutant's listing with a few text edits, like the mutant; what assembles disassembles",
    seeds: 'd3d9',
    focus: [],
    run(b) {
      let h = 0;
      for (let i = 0; i < b.length; i += 4) h = hashWords(h, b[i]! | ((b[i + 1] ?? 0) << 8));
      const listing = mutateListing(disassembleD3D9(b, h & 1 ? 0x80 : 0x04 | 0x20), h, D3D9_PIECES);
      const r = assembleD3D9(listing, { like: b });
      disassembleD3D9(r.bytes, 0);
    },
  },
  {
    name: 'd3d9',
    about: 'decodeD3D9 and disassembleD3D9 of a Direct3D 9 program',
    seeds: 'd3d9',
    focus: [],
    run(b) {
      decodeD3D9(b);
      disassembleD3D9(b, 0);
    },
  },
  {
    name: 'debug',
    about: 'the SPDB/SDBG readers and the listing annotations',
    seeds: 'dxbc',
    needs: ['SPDB|SDBG'],
    focus: ['SPDB', 'SDBG'],
    run(b) {
      const c = parseContainer(b);
      readDebugInfo(c);
      debugAnnotationResult(c);
    },
  },
  {
    name: 'dxil-sources',
    about: "readDxilSources: SRCI (its zlib contents inflated) or the debug module's dx.source.*",
    seeds: 'any',
    needs: ['SRCI|ILDB'],
    focus: ['SRCI', 'ILDB'],
    run: (b) => void readDxilSources(parseContainer(b)),
  },
  {
    name: 'dxil-bitstream',
    about: 'readBitcode of the DXIL part',
    seeds: 'dxil',
    needs: ['DXIL'],
    focus: ['DXIL'],
    run: (b) =>
      parts(b, ['DXIL'], (d, at) => {
        const h = readProgramHeader(d, 'DXIL', at);
        readBitcode(h.bitcode, at + h.bitcodeStart);
      }),
  },
  {
    name: 'dxil-module',
    about: 'the DXIL module (readModule) and its dx.* metadata (readDxilInfo)',
    seeds: 'dxil',
    needs: ['DXIL'],
    focus: ['DXIL'],
    run(b) {
      const m = readPartModule(parseContainer(b), 'DXIL');
      if (m) readDxilInfo(m);
    },
  },
  {
    name: 'dxil-listing',
    about: "disassembleDxil (dxc's /Fc text)",
    seeds: 'dxil',
    needs: ['DXIL'],
    focus: ['DXIL', 'PSV0', 'ISG1', 'OSG1', 'RDAT', 'STAT'],
    run: (b) => void disassembleDxil(parseContainer(b)),
  },
  {
    name: 'reflect',
    about: 'reflect and the D3DReflect JSON (DXBC), reflectDxil (DXIL)',
    seeds: 'any',
    focus: ['RDEF', 'ISGN', 'OSGN', 'STAT', 'SHEX', 'SHDR', 'PSV0', 'DXIL', 'ISG1', 'OSG1'],
    run(b) {
      const c = parseContainer(b);
      if (c.parts.some((p) => p.kind === 'DXIL')) reflectDxil(c);
      else d3dReflectJson(reflect(c));
    },
  },
  {
    name: 'lift-dxbc',
    about: 'lift of an SM4/5 container; the IR must validate and print',
    seeds: 'dxbc',
    needs: ['SHEX|SHDR'],
    focus: ['SHEX', 'SHDR'],
    run: (b) => void printModule(checked(lift(b)).module),
  },
  {
    name: 'lift-dxil',
    about: 'lift of a DXIL container; the IR must validate and print',
    seeds: 'dxil',
    needs: ['DXIL'],
    focus: ['DXIL'],
    run: (b) => void printModule(checked(lift(b)).module),
  },
  {
    name: 'wgsl',
    about: 'emitWgsl of what lifts (DXBC and DXIL)',
    seeds: 'any',
    needs: ['SHEX|SHDR|DXIL'],
    focus: ['SHEX', 'SHDR', 'DXIL'],
    run: (b) => void emitWgsl(checked(lift(b))),
  },
  {
    name: 'decompile',
    about: 'decompile of what lifts: the readable IR must validate, and HLSL is printed or refused by name (E603)',
    seeds: 'any',
    needs: ['SHEX|SHDR|DXIL'],
    focus: ['SHEX', 'SHDR', 'DXIL'],
    // The decompiler is linear in a function's size but with a large factor: up to SIMPLIFY_ROUNDS
    // (64) rounds of plan and rebuild over the whole function. The largest seeds, xenia's 3x
    // resolve programs of 4,131 to 5,356 instructions (30,000 to 52,000 IR expressions), take 4 to
    // 12 s of CPU unmutated in 20 to 23 rounds, so 5 s would call a seed itself a hang.
    timeoutMs: 30_000,
    run: (b) => {
      const d = decompile(b);
      checked(d.readable);
      decompiledHlsl(d);
    },
  },
  {
    name: 'exec',
    about: `the executor on what lifts, seeded bindings, budgets of ${FUZZ_LIMITS.budget} statements, ${FUZZ_LIMITS.memoryBudget >> 20} MiB, ${FUZZ_LIMITS.dispatchBudget} lanes`,
    seeds: 'any',
    needs: ['SHEX|SHDR|DXIL'],
    focus: ['SHEX', 'SHDR', 'DXIL'],
    run(b) {
      const p = checked(lift(b));
      // the seeded run of the command line covers a vertex program only as an entry point
      if (p.stage === 'vertex' && p.stageFunctions) return;
      seededCpu(p, 1, { ...SEEDED_DEFAULTS, width: 4, height: 4 }, FUZZ_LIMITS);
    },
  },
  {
    name: 'carve',
    about: 'carveContainers over the mutant between junk bytes',
    seeds: 'any',
    focus: [],
    run(b) {
      const data = new Uint8Array(b.byteLength + 64);
      data.set([0x44, 0x58, 0x42, 0x43], 8);
      data.set(b, 32);
      data.set([0x44, 0x58, 0x42, 0x43], data.byteLength - 6);
      carveContainers(data);
    },
  },
];

/** What the self-test target does with a mutant: from a hash of its bytes (test/fuzz/campaign.test.ts). */
export function selfTestVerdict(bytes: Uint8Array): 'hang' | 'crash' | 'typed' | 'ok' {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  return h % 211 === 0 ? 'hang' : h % 199 === 1 ? 'crash' : h % 2 ? 'typed' : 'ok';
}

/** Targets that check the campaign itself (its time-outs and deaths), not iridia: never in `all`. */
const SELF_TEST: readonly Target[] = [
  {
    name: 'self-test',
    about: 'the campaign machinery: hangs, dies or throws by a hash of the mutant (test/fuzz/campaign.test.ts)',
    seeds: 'dxbc',
    focus: [],
    run(b) {
      const v = selfTestVerdict(b);
      if (v === 'hang') for (;;);
      if (v === 'crash') process.exit(9);
      if (v === 'typed') throw new IridiaError('E101_TRUNCATED', 'self-test');
    },
  },
  {
    name: 'self-test-wait',
    about:
      'the campaign machinery: every mutant waits IRIDIA_FUZZ_WAIT_MS (default 1500) without running (test/fuzz/campaign.test.ts)',
    seeds: 'dxbc',
    focus: [],
    run() {
      const ms = Number(process.env.IRIDIA_FUZZ_WAIT_MS ?? 1500);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    },
  },
];

export function targetNamed(name: string): Target | undefined {
  return TARGETS.find((t) => t.name === name) ?? SELF_TEST.find((t) => t.name === name);
}

/** Mutants per target of issue 19's campaign (`npm run fuzz -- all --campaign`): 10,000,000 for the
 * container, SM4/5 and DXIL readers, 1,000,000 for the others. */
export const CAMPAIGN: Readonly<Record<string, number>> = Object.fromEntries(
  TARGETS.map((t) => [
    t.name,
    ['container', 'sm4', 'dxil-bitstream', 'dxil-module'].includes(t.name) ? 10_000_000 : 1_000_000,
  ]),
);
