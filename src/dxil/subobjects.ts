// dxc's "Subobjects" section (dxcdisassembler.cpp's PrintSubobjects): the state-object subobjects a
// library's RDAT holds, in name order, with their flags, root signature sizes, associations, hit
// groups and configurations.

import type { RdatSubobject } from './rdat.js';

const SUBOBJECT_KINDS: Readonly<Record<number, string>> = {
  0: 'StateObjectConfig',
  1: 'GlobalRootSignature',
  2: 'LocalRootSignature',
  8: 'SubobjectToExportsAssociation',
  9: 'RaytracingShaderConfig',
  10: 'RaytracingPipelineConfig',
  11: 'HitGroup',
  12: 'RaytracingPipelineConfig1',
};
const STATE_OBJECT_FLAGS: Readonly<Record<number, string>> = {
  1: 'STATE_OBJECT_FLAG_ALLOW_LOCAL_DEPENDENCIES_ON_EXTERNAL_DEFINITIONS',
  2: 'STATE_OBJECT_FLAG_ALLOW_EXTERNAL_DEPENDENCIES_ON_LOCAL_DEFINITIONS',
  4: 'STATE_OBJECT_FLAG_ALLOW_STATE_OBJECT_ADDITIONS',
};
const PIPELINE_FLAGS: Readonly<Record<number, string>> = {
  0x100: 'RAYTRACING_PIPELINE_FLAG_SKIP_TRIANGLES',
  0x200: 'RAYTRACING_PIPELINE_FLAG_SKIP_PROCEDURAL_PRIMITIVES',
  0x400: 'RAYTRACING_PIPELINE_FLAG_ALLOW_OPACITY_MICROMAPS',
};

/** PrintFlags: each set bit, lowest first, joined by " | "; "0" for none. */
function flagsText(flags: number, names: Readonly<Record<number, string>>, invalid: string): string {
  if (!flags) return '0';
  const out: string[] = [];
  for (let f = flags >>> 0; f;) {
    const bit = (f & -f) >>> 0;
    f = (f ^ bit) >>> 0;
    out.push(names[bit] ?? invalid);
  }
  return out.join(' | ');
}

/** "Subobjects" from RDAT, in name order (dxc keeps them in a std::map). */
export function subobjectsText(subobjects: readonly RdatSubobject[]): string {
  if (!subobjects.length) return '';
  let s = ';\n; Subobjects:\n;\n';
  const byName = new Map<string, RdatSubobject>();
  for (const o of subobjects) if (!byName.has(o.name)) byName.set(o.name, o);
  const names = [...byName.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const o = byName.get(name)!;
    const w = o.words;
    s += `;  ${SUBOBJECT_KINDS[o.kind] ?? '<invalid kind>'} ${name} = { `;
    switch (o.kind) {
      case 0:
        s += flagsText(w[0], STATE_OBJECT_FLAGS, '<invalid StateObjectFlag>');
        break;
      case 1:
      case 2:
        s += `<${o.bytes?.byteLength ?? 0} bytes>`;
        break;
      case 8:
        s += `"${o.strings?.[0] ?? ''}", { ${(o.exports ?? []).map((e) => `"${e}"`).join(', ')} } `;
        break;
      case 9:
        s += `MaxPayloadSizeInBytes = ${w[0]}, MaxAttributeSizeInBytes = ${w[1]}`;
        break;
      case 10:
        s += `MaxTraceRecursionDepth = ${w[0]}`;
        break;
      case 11: {
        const t = w[0] === 0 ? 'Triangle' : w[0] === 1 ? 'ProceduralPrimitive' : '<invalid HitGroupType>';
        const [any, closest, inter] = o.strings ?? [];
        s += `HitGroupType = ${t}, Anyhit = "${any}", Closesthit = "${closest}", Intersection = "${inter}"`;
        break;
      }
      case 12:
        s += `MaxTraceRecursionDepth = ${w[0]}, Flags = ${flagsText(w[1], PIPELINE_FLAGS, '<invalid RaytracingPipelineFlags>')}`;
        break;
      default:
        break;
    }
    s += ' };\n';
  }
  return s + ';\n';
}
