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
import { reflect } from '../../src/reflect/reflection.js';
import { census } from './census.js';

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

test(
  'readability over ../shared/oracle/own: names, registers, bitcasts, statements (printed)',
  { skip: skipUnlessShared('oracle/own') },
  (t) => {
    const files = walk(sharedPath('oracle/own')!).filter((f) => f.endsWith('.dxbc'));
    const c = census(files, false);
    let programs = 0;
    let allNames = 0;
    const missing: string[] = [];
    let registerFree = 0;
    let registerChecked = 0;
    const withRegisters: string[] = [];
    let lines = 0;
    let bitcastLines = 0;
    const ratios: number[] = [];
    for (const e of c.entries) {
      if (!e.hlsl || !e.d) continue;
      programs++;
      const refl = reflect(parseContainer(new Uint8Array(readFileSync(e.path))));
      const names = new Set<string>();
      for (const cb of refl.rdef?.constantBuffers ?? [])
        if (cb.type === 0) for (const v of cb.variables) names.add(v.name);
      for (const b of refl.rdef?.bindings ?? []) names.add(b.name);
      for (const p of [...refl.inputs, ...refl.outputs]) names.add(p.semanticName);
      const absent = [...names].filter(
        (n) => !e.hlsl!.toLowerCase().includes(n.toLowerCase().replace(/[^a-z0-9_]/g, '_')),
      );
      if (absent.length === 0) allNames++;
      else missing.push(`${e.path}: ${absent.join(', ')}`);
      const code = e.hlsl.replace(/\/\/.*$/gm, '');
      if (!/\bindexed\d+\b/.test(code)) {
        registerChecked++;
        if (/\b(r\d+|v|o|x\d+|cb\d+)\b/.test(code)) withRegisters.push(e.path);
        else registerFree++;
      }
      const ls = code.split('\n').filter((l) => l.trim());
      lines += ls.length;
      bitcastLines += ls.filter((l) => /\bas(float|int|uint)\(/.test(l)).length;
      const src = join(dirname(dirname(e.path)), 'source.hlsl');
      if (existsSync(src)) {
        const s = statementCount(readFileSync(src, 'utf8'));
        if (s > 0) ratios.push(statementCount(e.hlsl) / s);
      }
    }
    const share = (100 * bitcastLines) / Math.max(1, lines);
    t.diagnostic(`${programs} programs printed as HLSL (of ${c.lifted} that lift)`);
    t.diagnostic(`names: every RDEF and signature name appears in ${allNames} of ${programs}`);
    for (const m of missing.slice(0, 10)) t.diagnostic(`  missing: ${m}`);
    t.diagnostic(
      `registers: ${registerFree} of ${registerChecked} programs without indexable temporaries have no register names`,
    );
    for (const w of withRegisters.slice(0, 10)) t.diagnostic(`  register names: ${w}`);
    t.diagnostic(`bitcasts: ${bitcastLines} of ${lines} lines (${share.toFixed(2)}%)`);
    t.diagnostic(`statements: decompiled / source, median ${median(ratios).toFixed(2)} over ${ratios.length} programs`);
    assert.ok(programs > 0);
    assert.equal(allNames, programs, missing.slice(0, 5).join('\n'));
    assert.equal(registerFree, registerChecked, withRegisters.slice(0, 5).join('\n'));
    assert.ok(share < 2, `bitcast lines ${share.toFixed(2)}%`);
    assert.ok(median(ratios) <= 2, `median statement ratio ${median(ratios)}`);
  },
);
