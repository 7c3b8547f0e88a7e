// The level-9 section of a Shader Model 4 listing (containers.md, "Feature level 9 part (Aon9)"): for a
// container compiled for feature level 9 (ps_4_0_level_9_1 and the like), D3DDisassemble prints, after the
// comment header (buffer definitions, resource bindings, signatures) and before the Shader Model 4 version line,
// the Aon9 part's mapping tables and its embedded Direct3D 9 program, then the same for XNAP ("XNA Prepass")
// and XNAS ("XNA") parts when the container has them (older compilers wrote them; they share Aon9's layout).
//
// THE HOOK: src/disasm/disassemble.ts prints
//     header + level9Listing(container, flags) + <the Shader Model 4 program>
// level9Listing returns '' for a container without these parts and under flag 0x40 (instructions only), so
// it can be called for every container. Flags 0x04, 0x10, 0x20 and 0x80 apply to the embedded program as they
// do to a bare Direct3D 9 program (0x20 prints offsets from the embedded program's own version token).
//
// Each part's text is "//", then each mapping block that has rows ("// Title:", "//", its tables each followed
// by "//", then "//"), then "// Level9 shader bytecode:", "//" and the Direct3D 9 listing (src/d3d9/disasm.ts).

import type { Container } from '../container/container.js';
import { readAon9, type Aon9, type Aon9ScalarRow } from '../parts/aon9.js';
import { decodeD3D9 } from '../d3d9/decode.js';
import { printD3D9, D3D9_FLAGS, type D3D9ListingOptions } from '../d3d9/disasm.js';

/** Parts with Aon9's layout, in the order D3DDisassemble prints them, with the program block's title. */
const LEVEL9_PARTS: readonly (readonly [string, string])[] = [
  ['Aon9', 'Level9'],
  ['XNAP', 'XNA Prepass'],
  ['XNAS', 'XNA'],
];

/** The data conversions of a constant buffer range, per component. */
const CONVERSIONS: readonly string[] = ['FLT', 'BOOL', 'INT', 'UINT'];

/** Targets from 4096 up are clip planes (clip0 is 4096). */
const CLIP_BASE = 4096;

/** The level-9 section of the container's listing ('' when it has none). */
export function level9Listing(container: Container, flags: number, options: D3D9ListingOptions = {}): string {
  if (flags & D3D9_FLAGS.instructionOnly) return '';
  let out = '';
  for (const [kind, title] of LEVEL9_PARTS) {
    // A library function compiled for level 9 holds one Aon9 part per program (vertex, pixel).
    for (const part of container.parts) {
      if (part.kind !== kind) continue;
      const aon9 = readAon9(part.data, part.offset + 8);
      out += `//\n${mappingTables(aon9)}// ${title} shader bytecode:\n//\n`;
      const program = decodeD3D9(aon9.program);
      out += printD3D9(program, flags, options);
    }
  }
  return out;
}

/** The three mapping blocks (constants, samplers, runtime constants), each only when it has rows. */
export function mappingTables(aon9: Aon9): string {
  let out = '';
  const constantTables: string[] = [];
  if (aon9.intRows.length) constantTables.push(scalarTable(aon9.intRows, 'i'));
  if (aon9.boolRows.length) constantTables.push(scalarTable(aon9.boolRows, 'b'));
  if (aon9.constantRanges.length) {
    let t = '// Target Reg Buffer  Start Reg # of Regs        Data Conversion\n';
    t += '// ---------- ------- --------- --------- ----------------------\n';
    for (const r of aon9.constantRanges) {
      const target = r.target >= CLIP_BASE ? `clip${r.target - CLIP_BASE}` : `c${r.target}`;
      const conv = r.conversion.map((c) => (CONVERSIONS[c] ?? `?${c}`).padStart(4)).join(',');
      t += `// ${target.padEnd(10)} ${`cb${r.buffer}`.padEnd(7)} ${String(r.firstRegister).padStart(9)} ${String(r.registerCount).padStart(9)}  (${conv})\n`;
    }
    constantTables.push(t);
  }
  if (constantTables.length) out += block('Constant buffer to DX9 shader constant mappings', constantTables);
  if (aon9.samplers.length) {
    let t = '// Target Sampler Source Sampler  Source Resource\n';
    t += '// -------------- --------------- ----------------\n';
    for (const s of aon9.samplers)
      t += `// ${`s${s.d3d9Sampler}`.padEnd(14)} ${`s${s.sampler}`.padEnd(15)} ${`t${s.resource}`.padEnd(16)} \n`;
    out += block('Sampler/Resource to DX9 shader sampler mappings', [t]);
  }
  if (aon9.runtime.length) {
    let t = '// Target Reg                               Constant Description\n';
    t += '// ---------- --------------------------------------------------\n';
    for (const r of aon9.runtime)
      t += `// ${`c${r.target}`.padEnd(10)} ${(RUNTIME_KINDS[r.kind] ?? `Unknown constant ${r.kind}`).padStart(50)}\n`;
    out += block('Runtime generated constant mappings', [t]);
  }
  return out;
}

const RUNTIME_KINDS: readonly string[] = ['Vertex Shader position offset'];

function scalarTable(rows: readonly Aon9ScalarRow[], letter: string): string {
  let t = '// Target Reg Buffer  Source Reg Component\n';
  t += '// ---------- ------- ---------- ---------\n';
  for (const r of rows)
    t += `// ${`${letter}${r.target}`.padEnd(10)} ${`cb${r.buffer}`.padEnd(7)} ${String(r.register).padStart(10)} ${String(r.component).padStart(9)}\n`;
  return t;
}

function block(title: string, tables: readonly string[]): string {
  return `// ${title}:\n//\n${tables.map((t) => `${t}//\n`).join('')}//\n`;
}
