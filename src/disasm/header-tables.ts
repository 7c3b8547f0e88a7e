// The header's tables from IFCE (class types, class instances, interface slots) and from Aon9
// (constant buffer, int/bool, runtime and sampler mappings onto Direct3D 9 registers), in
// D3DDisassemble's layout (containers.md, "Class linkage part (IFCE)" and "Feature level 9 part").

import type { Ifce } from '../parts/ifce.js';
import type { Aon9, Aon9ScalarRow } from '../parts/aon9.js';

const num = (n: number, w: number): string => String(n).padStart(w);
const orDash = (n: number, w: number): string => (n === 0xffff ? '-' : String(n)).padStart(w);

export function printClassLinkage(ifce: Ifce, out: string[]): void {
  out.push('//');
  out.push('// Available Class Types:');
  out.push('//');
  out.push('// Name                             ID CB Stride Texture Sampler');
  out.push('// ------------------------------ ---- --------- ------- -------');
  ifce.classTypes.forEach((c, i) => {
    out.push(
      `// ${c.name.padEnd(30)} ${num(i, 4)} ${num(c.constantBufferStride, 9)} ${num(c.textureCount, 7)} ${num(c.samplerCount, 7)}`,
    );
  });
  out.push('//');
  if (ifce.instances.length) {
    out.push('// Available Class Instances:');
    out.push('//');
    out.push('// Name                        Type CB CB Offset Texture Sampler');
    out.push('// --------------------------- ---- -- --------- ------- -------');
    for (const inst of ifce.instances) {
      const name = inst.count > 1 ? `${inst.name}[${inst.count}]` : inst.name;
      out.push(
        `// ${name.padEnd(27)} ${num(inst.classType, 4)} ${orDash(inst.constantBuffer, 2)} ${orDash(inst.bufferRegister, 9)} ${orDash(inst.firstTexture, 7)} ${orDash(inst.firstSampler, 7)}`,
      );
    }
    out.push('//');
  }
  out.push(`// Interface slots, ${ifce.interfaceSlotCount} total:`);
  out.push('//');
  out.push('//             Slots');
  const rule = '// +----------+---------+---------------------------------------';
  out.push(rule);
  // D3DDisassemble's quirk, kept: after each full line of 8 entries it skips one entry, and each
  // extra line moves the slot number on by one.
  let slot = 0;
  for (const rec of ifce.slotRecords) {
    const span = rec.slotSpan > 1 ? `${slot}-${slot + rec.slotSpan - 1}` : String(slot);
    let lines = 0;
    for (let i = 0; i < rec.classTypes.length || i === 0; i += 9) {
      lines++;
      const ids = (list: readonly number[]): string =>
        list
          .slice(i, i + 8)
          .map((n) => String(n).padEnd(5))
          .join('');
      out.push(`// | Type ID  |${i === 0 ? `   ${span.padEnd(6)}` : '         '}|${ids(rec.classTypes)}`);
      out.push(`// | Table ID |         |${ids(rec.functionTables)}`);
      if (rec.classTypes.length === 0) break;
    }
    out.push(rule);
    slot += rec.slotSpan + lines - 1;
  }
}

const CONVERSIONS: readonly string[] = [' FLT', 'BOOL', ' INT', 'UINT'];

export function printLevel9Tables(aon9: Aon9, out: string[]): void {
  const anyConstants = aon9.constantRanges.length + aon9.intRows.length + aon9.boolRows.length > 0;
  if (anyConstants) {
    out.push('//');
    out.push('// Constant buffer to DX9 shader constant mappings:');
    out.push('//');
  }
  const scalars = (rows: readonly Aon9ScalarRow[], prefix: string): void => {
    if (rows.length === 0) return;
    out.push('// Target Reg Buffer  Source Reg Component');
    out.push('// ---------- ------- ---------- ---------');
    for (const r of rows) {
      out.push(
        `// ${`${prefix}${r.target}`.padEnd(10)} ${`cb${r.buffer}`.padEnd(7)} ${num(r.register, 10)} ${num(r.component, 9)}`,
      );
    }
    out.push('//');
  };
  scalars(aon9.intRows, 'i');
  scalars(aon9.boolRows, 'b');
  if (aon9.constantRanges.length) {
    out.push('// Target Reg Buffer  Start Reg # of Regs        Data Conversion');
    out.push('// ---------- ------- --------- --------- ----------------------');
  }
  for (const c of aon9.constantRanges) {
    // Targets from 0x1000 are the level 9 clip planes.
    const target = c.target >= 0x1000 ? `clip${c.target - 0x1000}` : `c${c.target}`;
    const conv = c.conversion.map((k) => CONVERSIONS[k] ?? `  ${k} `).join(',');
    out.push(
      `// ${target.padEnd(10)} ${`cb${c.buffer}`.padEnd(7)} ${num(c.firstRegister, 9)} ${num(c.registerCount, 9)}  (${conv})`,
    );
  }
  if (aon9.constantRanges.length) out.push('//');
  if (aon9.runtime.length) {
    out.push('//');
    out.push('// Runtime generated constant mappings:');
    out.push('//');
    out.push('// Target Reg                               Constant Description');
    out.push('// ---------- --------------------------------------------------');
    for (const r of aon9.runtime) {
      const what = r.kind === 0 ? 'Vertex Shader position offset' : `Unknown runtime constant ${r.kind}`;
      out.push(`// ${`c${r.target}`.padEnd(10)} ${what.padStart(50)}`);
    }
    out.push('//');
  }
  if (aon9.samplers.length) {
    out.push('//');
    out.push('// Sampler/Resource to DX9 shader sampler mappings:');
    out.push('//');
    out.push('// Target Sampler Source Sampler  Source Resource');
    out.push('// -------------- --------------- ----------------');
    for (const s of aon9.samplers) {
      out.push(`// ${`s${s.d3d9Sampler}`.padEnd(14)} ${`s${s.sampler}`.padEnd(15)} ${`t${s.resource}`.padEnd(16)} `);
    }
    out.push('//');
  }
  out.push('//');
  out.push('// Level9 shader bytecode:');
  out.push('//');
}
