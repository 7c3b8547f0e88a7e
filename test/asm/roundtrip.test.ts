// The assembler's round trip over every SM4/5/5.1 program of ../shared/oracle, ../shared/corpus/dxbc
// and ../shared/corpus/dxbc-sm51 (a fixed sample by default: every IRIDIA_ASM_EVERY-th, 16 unless
// set; IRIDIA_ASM_EVERY=1 runs them all, about a minute), and the committed
// fixtures in full:
// - assemble(disassemble(c, 0x80)) gives back the token stream word for word;
// - disassemble(assemble(listing)) gives back the listing byte for byte, under 0x80 and under 0;
// - assemble(disassemble(c, 0)) gives back the words where the listing prints every literal
//   exactly; the others (a float printed with fewer digits than it needs, which reassembles to the
//   nearest float of the printed decimal) are counted apart.
// - without --like, the signature parts written from the listing's header tables are fxc's, byte for byte.
// Misses are named by cause in test/known/asm-roundtrip.txt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { parseContainer, type Container } from '../../src/container/container.js';
import { decodeContainerProgram } from '../../src/sm4/census.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { OPCODES } from '../../src/sm4/opcodes.js';
import type { Program } from '../../src/sm4/types.js';
import { assemble } from '../../src/asm/index.js';
import { PADDED_OPCODES } from '../../src/asm/padding.js';
import { carveContainers } from '../../src/container/carve.js';
import { IridiaError } from '../../src/errors.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { strictMode } from '../helpers/strict.js';
import { FIXTURES, REPO, SHARED, firstDifference, readBytes, sharedPath, walk } from '../helpers/shared.js';

const SUITE = 'asm-roundtrip';
const env = process.env['IRIDIA_ASM_EVERY'];
const every = env ? Math.max(1, Number(env) || 1) : strictMode() ? 1 : 16;

const SIGNATURES: ReadonlySet<string> = new Set(['ISGN', 'OSGN', 'PCSG', 'OSG5', 'ISG1', 'OSG1', 'PSG1']);

interface Case {
  readonly name: string;
  readonly path: string;
}

function cases(): { all: Case[]; fixtures: Case[] } {
  const all: Case[] = [];
  for (const sub of ['oracle', 'corpus/dxbc', 'corpus/dxbc-sm51']) {
    const root = sharedPath(sub);
    if (root === undefined) continue;
    for (const f of walk(root)) if (f.endsWith('.dxbc')) all.push({ name: relative(SHARED, f), path: f });
  }
  const fixtures = walk(FIXTURES)
    .filter((f) => f.endsWith('.dxbc'))
    .map((f) => ({ name: relative(REPO, f), path: f }));
  return { all, fixtures };
}

/** The container and program of some bytes, or undefined when they hold no SM4/5 program the disassembler lists. */
function programOf(bytes: Uint8Array): { c: Container; p: Program } | undefined {
  try {
    const c = parseContainer(bytes);
    if (c.parts.some((x) => x.kind === 'LIBH')) return undefined;
    const p = decodeContainerProgram(c);
    return p === undefined ? undefined : { c, p };
  } catch (e) {
    if (e instanceof IridiaError) return undefined;
    throw e;
  }
}

function libraryOf(bytes: Uint8Array): Container | undefined {
  try {
    const c = parseContainer(bytes);
    return c.parts.some((x) => x.kind === 'LIBH') ? c : undefined;
  } catch (e) {
    if (e instanceof IridiaError) return undefined;
    throw e;
  }
}

function programWords(p: Program): Uint32Array {
  return p.words.subarray(0, p.lengthWords);
}

/** Where two streams part: undefined when equal, else the instruction and why. */
function difference(p: Program, got: Uint32Array): string | undefined {
  const w = programWords(p);
  let equal = w.length === got.length;
  for (let i = 0; equal && i < w.length; i++) equal = w[i] === got[i];
  if (equal) return undefined;
  for (const ins of p.instructions) {
    let d = false;
    for (let i = 0; i < ins.length && !d; i++) d = w[ins.word + i] !== got[ins.word + i];
    if (!d) continue;
    const name = ins.customData ? `customdata ${ins.customData.dataClass}` : (OPCODES[ins.opcode]?.name ?? '?');
    if (PADDED_OPCODES.has(ins.opcode) && ins.values.length === 1 && ins.customData === undefined)
      return `padding word: ${name} at word ${ins.word} carries a word after its operands that --like did not give back`;
    return `differs at instruction ${ins.index} (${name}, word ${ins.word})`;
  }
  return `differs in length (${got.length} words, not ${w.length})`;
}

/** Whether `got` differs from the program only inside literals: immediate operands' values (`l(...)`) and immediate constant buffers. */
function literalsOnly(p: Program, got: Uint32Array): boolean {
  const w = programWords(p);
  if (w.length !== got.length) return false;
  const literal = new Set<number>();
  for (const ins of p.instructions) {
    // an immediate constant buffer's words: printed as floats under flag 0, as hex under 0x80
    if (ins.customData?.dataClass === 3) for (let i = 2; i < ins.length; i++) literal.add(ins.word + i);
    for (const op of ins.operands) {
      if (op.values === undefined) continue;
      const at = op.word + 1 + op.extended.length;
      for (let i = 0; i < op.values.length; i++) literal.add(at + i);
    }
  }
  for (let i = 0; i < w.length; i++) if (w[i] !== got[i] && !literal.has(i)) return false;
  return true;
}

interface Tally {
  programs: number;
  words: number;
  exact80: number;
  exact0: number;
  digits0: number;
  signatures: number;
  libraries: number;
  librariesExact: number;
  embedded: number;
}

/** A file: a program, a library (assembled whole, against itself), or an effect whose programs are
 * the containers it embeds (each assembled as a program). */
function check(k: Case, failures: Map<string, string>, t: Tally): void {
  const bytes = readBytes(k.path);
  const x = programOf(bytes);
  if (x !== undefined) return checkProgram(k.name, x, failures, t);
  const lib = libraryOf(bytes);
  if (lib !== undefined) return checkLibrary(k.name, bytes, lib, failures, t);
  for (const found of carveContainers(bytes).found) {
    const inner = programOf(found.bytes);
    if (inner === undefined) continue;
    t.embedded++;
    checkProgram(`${k.name}@${found.offset}`, inner, failures, t);
  }
}

/** A library listing under 0x80 and 0 gives back the library container byte for byte, and its listing. */
function checkLibrary(name: string, bytes: Uint8Array, c: Container, failures: Map<string, string>, t: Tally): void {
  t.libraries++;
  try {
    let exact = true;
    for (const flags of [0x80, 0]) {
      const listing = disassemble(c, flags);
      const a = assemble(listing, { like: c });
      if (!Buffer.from(a.container).equals(Buffer.from(bytes))) {
        exact = false;
        failures.set(name, `library under 0x${flags.toString(16)}: the container differs`);
      }
      const back = firstDifference(disassemble(a.container, flags), listing);
      if (back !== undefined)
        failures.set(name, `library listing 0x${flags.toString(16)}: ${back.replace(/\n/g, ' | ')}`);
    }
    if (exact) t.librariesExact++;
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    failures.set(name, `library: error ${e.code}: ${e.message.split('\n')[0]}`);
  }
}

function checkProgram(
  name: string,
  { c, p }: { c: Container; p: Program },
  failures: Map<string, string>,
  t: Tally,
): void {
  t.programs++;
  t.words += p.lengthWords;
  let l80: string;
  let l0: string;
  try {
    l80 = disassemble(c, 0x80);
    l0 = disassemble(c, 0);
  } catch (e) {
    // the disassembler's own misses are test/disasm's
    if (e instanceof IridiaError) {
      t.programs--;
      t.words -= p.lengthWords;
      return;
    }
    throw e;
  }
  try {
    const a = assemble(l80, { like: c });
    const d = difference(p, a.program.words);
    if (d === undefined) t.exact80++;
    else failures.set(name, `0x80: ${d}`);
    const back = firstDifference(disassemble(a.container, 0x80), l80);
    if (back !== undefined) failures.set(name, `0x80 listing: ${back.replace(/\n/g, ' | ')}`);
    const a0 = assemble(l0, { like: c });
    const back0 = firstDifference(disassemble(a0.container, 0), l0);
    if (back0 !== undefined) failures.set(name, `flag 0 listing: ${back0.replace(/\n/g, ' | ')}`);
    const d0 = difference(p, a0.program.words);
    if (d0 === undefined) t.exact0++;
    else if (d === undefined && literalsOnly(p, a0.program.words)) t.digits0++;
    else if (d === undefined) failures.set(name, `flag 0: ${d0} outside the literals`);
    // Without --like the signatures come from the listing's tables: fxc's parts, byte for byte.
    const own = parseContainer(assemble(l0).container).parts.filter((x) => SIGNATURES.has(x.kind));
    const want = c.parts.filter((x) => SIGNATURES.has(x.kind));
    const same =
      own.length === want.length &&
      own.every((x, i) => x.kind === want[i]!.kind && Buffer.from(x.data).equals(Buffer.from(want[i]!.data)));
    if (same) t.signatures++;
    else
      failures.set(
        name,
        `signatures: ${want.map((x) => x.kind).join(',')} written as ${own.map((x) => x.kind).join(',')} or with other bytes`,
      );
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    failures.set(name, `error ${e.code}: ${e.message.split('\n')[0]}`);
  }
}

test(
  every === 1
    ? 'assemble(disassemble(c)) gives back every program of ../shared word for word, and the listing byte for byte'
    : `assemble(disassemble(c)) on every ${every}th program of ../shared and every fixture (IRIDIA_ASM_EVERY=1 runs all)`,
  () => {
    const { all, fixtures } = cases();
    const sampled = all.filter((_, i) => i % every === 0);
    const run = [...sampled, ...fixtures];
    const failures = new Map<string, string>();
    const t: Tally = {
      programs: 0,
      words: 0,
      exact80: 0,
      exact0: 0,
      digits0: 0,
      signatures: 0,
      libraries: 0,
      librariesExact: 0,
      embedded: 0,
    };
    for (const k of run) check(k, failures, t);
    console.log(
      `asm round trip: ${t.programs} programs, ${t.words} words; 0x80 listing: ${t.exact80} word for word; ` +
        `flag 0 listing: ${t.exact0} word for word, ${t.digits0} apart for float digits (every listing back byte for byte but the misses); ` +
        `without --like: ${t.signatures} with fxc's signature parts byte for byte; ` +
        `libraries: ${t.librariesExact} of ${t.libraries} back byte for byte under 0x80 and 0; ` +
        `${t.embedded} of the programs are embedded in effects`,
    );
    if (all.length === 0) console.log(`${SUITE}: ../shared is absent: the fixtures alone`);
    const scope = every === 1 && all.length > 0 ? undefined : new Set(run.map((k) => k.name));
    reportAgainstKnown(SUITE, { total: run.length, failures, ...(scope ? { scope } : {}) });
    assert.ok(t.exact80 > 0, 'no program assembled');
  },
);
