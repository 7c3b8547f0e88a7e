// iridia's own views of a reflection: a JSON form (richer than D3DReflect's: the parts as read,
// the STAT words by name, the SFI0 bit names, the IFCE and Aon9 tables, the Sekiro member-offset
// reading) and a short text summary for `iridia reflect FILE`.

import type { Json } from './d3d.js';
import { d3dReflectJson } from './d3d.js';
import type { Reflection } from './reflection.js';
import { memberOffsetBase, type RdefType } from '../parts/rdef.js';
import { STAT_WORDS } from '../parts/stat.js';
import { BIND_PREFIX, bindingColumns } from '../disasm/header.js';

const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Plain JSON of every value (bigints as hex strings, bytes as hex), types expanded once per offset. */
export function reflectionJson(refl: Reflection): { [key: string]: Json } {
  const typeRef = (t: RdefType): Json => ({ offset: t.offset, name: t.name ?? null });
  const types = new Map<number, RdefType>();
  const collect = (t: RdefType): void => {
    if (types.has(t.offset)) return;
    types.set(t.offset, t);
    for (const m of t.members) collect(m.type);
    if (t.subType) collect(t.subType);
    if (t.baseClass) collect(t.baseClass);
    t.interfaces.forEach(collect);
  };
  const rdef = refl.rdef;
  rdef?.constantBuffers.forEach((cb) => cb.variables.forEach((v) => collect(v.type)));
  return {
    d3d: d3dReflectJson(refl),
    rdef: rdef
      ? {
          layout: rdef.layout,
          target: rdef.target,
          flags: rdef.flags,
          creator: rdef.creator,
          rd11Extra: rdef.rd11Extra ?? null,
          constantBuffers: rdef.constantBuffers.map((cb) => ({
            name: cb.name,
            type: cb.type,
            size: cb.size,
            flags: cb.flags,
            variables: cb.variables.map((v) => ({
              name: v.name,
              startOffset: v.startOffset,
              size: v.size,
              flags: v.flags,
              type: typeRef(v.type),
              memberOffsets: memberOffsetBase(v),
              defaultValue: v.defaultValue ? hexBytes(v.defaultValue) : null,
              startTexture: v.startTexture,
              textureSize: v.textureSize,
              startSampler: v.startSampler,
              samplerSize: v.samplerSize,
            })),
          })),
          types: [...types.values()].map((t) => ({
            offset: t.offset,
            class: t.class,
            type: t.type,
            rows: t.rows,
            columns: t.columns,
            elements: t.elements,
            name: t.name ?? null,
            members: t.members.map((m) => ({ name: m.name, offset: m.offset, type: typeRef(m.type) })),
            subType: t.subType ? typeRef(t.subType) : null,
            baseClass: t.baseClass ? typeRef(t.baseClass) : null,
            interfaces: t.interfaces.map(typeRef),
          })),
          bindings: rdef.bindings.map((b) => ({ ...b, id: b.id ?? null })),
        }
      : null,
    signatures: refl.signatures.map((s) => ({ kind: s.kind, elements: s.elements.map((e) => ({ ...e })) })),
    stat: refl.stat ? Object.fromEntries(refl.stat.words.map((w, i) => [STAT_WORDS[i] ?? `word${i}`, w])) : null,
    features: refl.features
      ? { mask: `0x${refl.features.mask.toString(16).padStart(16, '0')}`, names: [...refl.features.names] }
      : null,
    ifce: refl.ifce ? (JSON.parse(JSON.stringify(refl.ifce)) as Json) : null,
    aon9: refl.aon9
      ? {
          size: refl.aon9.size,
          version: refl.aon9.version,
          programVersion: refl.aon9.programVersion,
          programOffset: refl.aon9.programOffset,
          programSize: refl.aon9.program.byteLength,
          constantRanges: refl.aon9.constantRanges.map((c) => ({ ...c, conversion: [...c.conversion] })),
          intRows: refl.aon9.intRows.map((r) => ({ ...r })),
          boolRows: refl.aon9.boolRows.map((r) => ({ ...r })),
          samplers: refl.aon9.samplers.map((r) => ({ ...r })),
          runtime: refl.aon9.runtime.map((r) => ({ ...r })),
        }
      : null,
    declarations: JSON.parse(JSON.stringify(refl.declarations)) as Json,
  };
}

const STAGES = ['ps', 'vs', 'gs', 'hs', 'ds', 'cs'];

/** D3D_FEATURE_LEVEL as written in Direct3D's names: 0xb000 is 11_0, 0x9300 is 9_3, 0xc100 is 12_1. */
export function featureLevelName(level: number): string {
  return `${level >>> 12}_${(level >>> 8) & 0xf}`;
}

/** A short text summary. */
export function reflectionText(refl: Reflection): string {
  const d = refl.desc;
  const v = refl.version;
  const lines = [
    `program   ${STAGES[refl.programType] ?? `type${refl.programType}`}_${(v >>> 4) & 0xf}_${v & 0xf}`,
    `creator   ${d.Creator ?? '(no RDEF)'}`,
    `feature   level ${featureLevelName(refl.minFeatureLevel)}, requires 0x${refl.requiresFlags.toString(16)}`,
    `counts    ${d.InstructionCount} instructions, ${d.TempRegisterCount} temps, ${d.DclCount} declarations`,
  ];
  if (refl.threadGroupSize[0]) lines.push(`threads   ${refl.threadGroupSize.join(' x ')}`);
  for (const cb of refl.rdef?.constantBuffers ?? []) {
    lines.push(`cbuffer   ${cb.name} (${cb.size} bytes, ${cb.variables.length} variables)`);
    for (const x of cb.variables)
      lines.push(`            ${String(x.startOffset).padStart(5)} ${String(x.size).padStart(5)}  ${x.name}`);
  }
  for (const b of refl.rdef?.bindings ?? []) {
    // the listing's words (header.ts): type, then format and dimension where they apply, the HLSL bind
    const [type, format, dim] = bindingColumns(b);
    const shape = [format, dim].filter((x) => x !== 'NA').join(' ');
    const bind = `${BIND_PREFIX[b.type] ?? `type${b.type}:`}${b.bindPoint}${b.space ? `,space${b.space}` : ''}`;
    const count = b.bindCount === 1 ? '' : ` count ${b.bindCount === 0 ? 'unbounded' : b.bindCount}`;
    lines.push(`binding   ${b.name}: ${type}${shape ? ` ${shape}` : ''} ${bind}${count}`);
  }
  const sig = (label: string, ps: Reflection['inputs']): void => {
    for (const p of ps)
      lines.push(`${label} ${p.semanticName}${p.semanticIndex} r${p.register} mask 0x${p.mask.toString(16)}`);
  };
  sig('input    ', refl.inputs);
  sig('output   ', refl.outputs);
  sig('patch    ', refl.patchConstants);
  return `${lines.join('\n')}\n`;
}
