// Readability of the decompiled HLSL (issue 11, "Done when"), measured over ../shared/oracle/own,
// whose HLSL sources are there to compare with, and printed:
//   names      every RDEF constant-buffer variable, every RDEF binding and every signature semantic
//              appears in the program's HLSL;
//   registers  no register name (r0, v, o, cb0, x0 as an identifier) remains in a program without
//              indexable temporaries;
//   bitcasts   lines with asfloat/asint/asuint, as a share of all lines of the programs;
//   statements the decompiled program's statements (`;` inside function bodies) against its
//              source's (the same count over source.hlsl, every function of it: a source with several
//              entry points counts them all), the median of the ratio.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { parseContainer } from '../../src/container/container.js';
import { containerDebugNames } from '../../src/decompile/names.js';
import { reflect } from '../../src/reflect/reflection.js';
import type { RdefType } from '../../src/parts/rdef.js';
import { bitcastClasses, census } from './census.js';

/** Statements inside function bodies: `;` at brace depth >= 1 outside cbuffer/struct blocks. */
export function statementCount(source: string): number {
  const text = source.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  let depth = 0;
  let declBlock = -1; // the depth at which a cbuffer/struct block opened
  let n = 0;
  let head = '';
  for (const ch of text) {
    if (ch === '{') {
      if (declBlock < 0 && /\b(cbuffer|tbuffer|struct)\b[^;{}]*$/.test(head)) declBlock = depth;
      depth++;
      head = '';
    } else if (ch === '}') {
      depth--;
      if (depth === declBlock) declBlock = -1;
      head = '';
    } else if (ch === ';') {
      if (depth >= 1 && declBlock < 0) n++;
      head = '';
    } else head += ch;
  }
  return n;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};

interface Figures {
  programs: number;
  lifted: number;
  /** Refusals by category, most first (`stage not handled 144`). */
  refused: string[];
  allNames: number;
  missing: string[];
  registerFree: number;
  registerChecked: number;
  withRegisters: string[];
  lines: number;
  bitcastLines: number;
  /** Bitcast lines by class (census.ts bitcastClasses). */
  classes: Map<string, number>;
  ratios: number[];
}

function measure(): Figures {
  const files = walk(sharedPath('oracle/own')!).filter((f) => f.endsWith('.dxbc'));
  const c = census(files, false);
  const f: Figures = {
    programs: 0,
    lifted: c.lifted,
    refused: [...c.refusals].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`),
    allNames: 0,
    missing: [],
    registerFree: 0,
    registerChecked: 0,
    withRegisters: [],
    lines: 0,
    bitcastLines: 0,
    classes: new Map(),
    ratios: [],
  };
  for (const e of c.entries) {
    if (!e.hlsl || !e.d) continue;
    f.programs++;
    const refl = reflect(parseContainer(new Uint8Array(readFileSync(e.path))));
    const names = new Set<string>();
    for (const cb of refl.rdef?.constantBuffers ?? [])
      if (cb.type === 0) for (const v of cb.variables) names.add(v.name);
    for (const b of refl.rdef?.bindings ?? []) names.add(b.name);
    for (const p of [...refl.inputs, ...refl.outputs]) names.add(p.semanticName);
    const lower = e.hlsl.toLowerCase();
    const absent = [...names].filter((n) => !lower.includes(n.toLowerCase().replace(/[^a-z0-9_]/g, '_')));
    if (absent.length === 0) f.allNames++;
    else f.missing.push(`${e.path}: ${absent.join(', ')}`);
    const code = e.hlsl.replace(/\/\/.*$/gm, '');
    if (!/\bindexed\d+\b/.test(code)) {
      f.registerChecked++;
      // a register name that is not one of the container's own names (a cbuffer member `o`, a semantic `V`)
      const own = new Set([...names].map((n) => n.toLowerCase()));
      for (const p of [...refl.inputs, ...refl.outputs])
        own.add(`${p.semanticName}${p.semanticIndex || ''}`.toLowerCase());
      // the members of a structured buffer's element struct (its RDEF resource-bind-info type) and
      // of a constant buffer's structs
      const members = (t: RdefType): void => {
        for (const m of t.members) {
          own.add(m.name.toLowerCase());
          members(m.type);
        }
      };
      for (const cb of refl.rdef?.constantBuffers ?? [])
        if (cb.type === 3 || cb.type === 0) for (const v of cb.variables) members(v.type);
      // a /Zi build's source variables, which name its lets (src/decompile/names.ts): `float4 v`
      for (const name of containerDebugNames(parseContainer(new Uint8Array(readFileSync(e.path))))?.values() ?? [])
        own.add(name.toLowerCase());
      const regs = [...code.matchAll(/\b(r\d+|v|o|x\d+|cb\d+)\b/g)]
        .map((m) => m[1]!)
        .filter((n) => !own.has(n.toLowerCase()));
      if (regs.length) f.withRegisters.push(`${e.path}: ${[...new Set(regs)].join(', ')}`);
      else f.registerFree++;
    }
    const ls = code.split('\n').filter((l) => l.trim());
    f.lines += ls.length;
    f.bitcastLines += ls.filter((l) => /\bas(float|int|uint)\(/.test(l)).length;
    bitcastClasses(e.hlsl, f.classes);
    const src = join(dirname(dirname(e.path)), 'source.hlsl');
    if (existsSync(src)) {
      const s = statementCount(readFileSync(src, 'utf8'));
      if (s > 0) f.ratios.push(statementCount(e.hlsl) / s);
    }
  }
  return f;
}

const skip = skipUnlessShared('oracle/own');
let figures: Figures | undefined;
const get = (): Figures => (figures ??= measure());

test('readability over ../shared/oracle/own: the figures (printed)', { skip }, (t) => {
  const f = get();
  const share = (100 * f.bitcastLines) / Math.max(1, f.lines);
  t.diagnostic(`${f.programs} programs printed as HLSL (of ${f.lifted} that lift)`);
  t.diagnostic(`refused: ${f.refused.join(', ') || 'none'}`);
  t.diagnostic(`names: every RDEF and signature name appears in ${f.allNames} of ${f.programs}`);
  for (const m of f.missing.slice(0, 10)) t.diagnostic(`  missing: ${m}`);
  t.diagnostic(
    `registers: ${f.registerFree} of ${f.registerChecked} programs without indexable temporaries have no register names`,
  );
  for (const w of f.withRegisters.slice(0, 10)) t.diagnostic(`  register names: ${w}`);
  t.diagnostic(`bitcasts: ${f.bitcastLines} of ${f.lines} lines (${share.toFixed(2)}%)`);
  const classes = [...f.classes].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`);
  t.diagnostic(`bitcast lines by class: ${classes.join(', ')}`);
  t.diagnostic(
    `statements: decompiled / source, median ${median(f.ratios).toFixed(2)} over ${f.ratios.length} programs`,
  );
  assert.ok(f.programs > 0);
});

test('readability: the statement count is within 2x of the source on the median', { skip }, () => {
  assert.ok(median(get().ratios) <= 2, `median ${median(get().ratios)}`);
});

test('readability: every RDEF and signature name appears', { skip }, () => {
  const f = get();
  assert.equal(f.allNames, f.programs, f.missing.slice(0, 5).join('\n'));
});

test('readability: no register names in programs without indexable temporaries', { skip }, () => {
  const f = get();
  assert.equal(f.registerFree, f.registerChecked, f.withRegisters.slice(0, 5).join('\n'));
});

test('readability: bitcasts are under 2% of the lines', { skip }, () => {
  const f = get();
  assert.ok(f.bitcastLines / Math.max(1, f.lines) < 0.02, `${f.bitcastLines} of ${f.lines}`);
});
