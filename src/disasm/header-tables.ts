// The header's tables from IFCE (class types, class instances, interface slots), in D3DDisassemble's
// layout (containers.md, "Class linkage part (IFCE)"). The Aon9 mapping tables are level9.ts's.

import type { Ifce } from '../parts/ifce.js';

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
