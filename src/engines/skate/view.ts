// The JSON and text views of skate.'s structures, as `iridia skate ...` prints them. JSON field
// names are the spec's in camelCase (src/engines/skate/README.md lists them); u64 values (hashes,
// resource ids, unknown words) are 16-digit hex strings, offsets numbers. The text view is a table
// per group with hex offsets and every unknown field marked "unknown".

import type { Json } from '../../reflect/d3d.js';
import { hex } from '../../errors.js';
import { hex64, type UnknownBytes } from './bytes.js';
import type { BindingGroup, BindingSet, PassBinding } from './binding-set.js';
import { dxgiName } from './dxgi.js';
import { elementFormat, type InputLayout } from './input-layout.js';
import { depthStencilBits, f32FromBits, rasterizerBits, writeMaskOf, type RenderState } from './render-state.js';

const unknownJson = (u: readonly UnknownBytes[]): Json => u.map((x) => ({ offset: x.offset, bytes: x.bytes }));

function groupJson(g: BindingGroup): Json {
  return {
    nameHash: hex64(g.nameHash),
    bufferSizeOrResourceCount: g.bufferSizeOrResourceCount,
    unknownFlags: g.unknownFlags,
    parameterCount: g.parameterCount,
    unknownWords: [...g.unknownWords],
    unknown18: hex64(g.unknown18),
    allParametersOffset: g.allParametersOffset,
    groupParametersOffset: g.groupParametersOffset,
    groupEntryTableOffset: g.groupEntryTableOffset,
    endOfTablesOffset: g.endOfTablesOffset,
    parameters: g.parameters.map((p) => ({ name: hex64(p.name), type: p.type, count: p.count, extra: p.extra })),
    entries: g.entries.map((e) => ({ offsetOrIndex: e.offsetOrIndex, marker: e.marker, kind: e.kind })),
  };
}

export function bindingSetJson(s: BindingSet): Json {
  return {
    structure: s.structure,
    size: s.size,
    groupCount: s.groupCount,
    groupTableOffset: s.groupTableOffset,
    unknown08: hex64(s.unknown08),
    resourceId: hex64(s.resourceId),
    unknown18: s.unknown18,
    parameterCount: s.parameterCount,
    groups: s.groups.map(groupJson),
    unknown: unknownJson(s.unknown),
  };
}

export function passBindingJson(p: PassBinding): Json {
  return {
    structure: p.structure,
    size: p.size,
    version: p.version,
    groupCount: p.groupCount,
    groupOffset: p.groupOffset,
    zero0c: p.zero0c,
    resourceId: hex64(p.resourceId),
    zero18: hex64(p.zero18),
    groups: p.groups.map(groupJson),
    unknown: unknownJson(p.unknown),
  };
}

export function dxgiJson(format: number): Json {
  const n = dxgiName(format);
  return { value: format, name: n === undefined ? null : `DXGI_FORMAT_${n}` };
}

export function inputLayoutJson(l: InputLayout): Json {
  return {
    structure: l.structure,
    size: l.size,
    elementCount: l.elementCount,
    elementTablePointer: l.elementTablePointer,
    usageTablePointer: l.usageTablePointer,
    unknown14: l.unknown14,
    elements: l.elements.map((e) => ({
      semanticIndex: e.semanticIndex,
      inputSlot: e.inputSlot,
      byteOffset: e.byteOffset,
      slotClass: e.slotClass,
      formatWord: e.formatWord,
      dxgiFormat: dxgiJson(elementFormat(e)),
      usage: e.usage,
    })),
    unknown: unknownJson(l.unknown),
  };
}

export function renderStateJson(s: RenderState): Json {
  const ras = rasterizerBits(s.rasterizerBits);
  const ds = depthStencilBits(s.depthStencilBits);
  return {
    structure: s.structure,
    size: s.size,
    slopeScaledDepthBias: f32FromBits(s.slopeScaledDepthBiasBits),
    slopeScaledDepthBiasBits: s.slopeScaledDepthBiasBits,
    depthBias: s.depthBias,
    forcedSampleCount: s.forcedSampleCount,
    rasterizerBits: s.rasterizerBits,
    fillModeBit: ras.fillModeBit,
    cullMode: ras.cullMode,
    frontCounterClockwise: ras.frontCounterClockwise,
    depthClip: ras.depthClip,
    rasterizerUnknownBits: ras.unknownBits,
    depthStencilBits: s.depthStencilBits,
    depthTest: ds.depthTest,
    depthWrite: ds.depthWrite,
    stencilTest: ds.stencilTest,
    depthFunc: ds.depthFunc,
    depthStencilUnknownBits: ds.unknownBits,
    stencilReadMask: s.stencilReadMask,
    stencilWriteMask: s.stencilWriteMask,
    blendBits: s.blendBits,
    renderTargets: s.renderTargets.map((t) => ({ index: t.index, bytes: t.bytes, writeMask: writeMaskOf(t) })),
    unknown: unknownJson(s.unknown),
  };
}

const pad = (s: string, n: number): string => s.padEnd(n);

function unknownText(u: readonly UnknownBytes[]): string[] {
  if (u.length === 0) return ['  unknown bytes: none'];
  return [
    '  unknown bytes:',
    ...u.map(
      (x) =>
        `    ${hex(x.offset)}  ${x.bytes.length / 2} bytes  ${x.bytes.length > 64 ? `${x.bytes.slice(0, 64)}...` : x.bytes}`,
    ),
  ];
}

function groupText(g: BindingGroup, n: number): string[] {
  const lines = [
    `  group ${n}`,
    `    name hash                     ${hex64(g.nameHash)}`,
    `    buffer size or resource count ${g.bufferSizeOrResourceCount}`,
    `    unknown flags                 ${g.unknownFlags} (unknown)`,
    `    parameter count               ${g.parameterCount}`,
    `    unknown words                 ${g.unknownWords.map((w) => hex(w)).join(' ')} (unknown)`,
    `    unknown 0x18                  ${hex64(g.unknown18)} (unknown)`,
    `    all-parameters offset         ${hex(g.allParametersOffset)}`,
    `    group-parameters offset       ${hex(g.groupParametersOffset)}`,
    `    group-entry table offset      ${hex(g.groupEntryTableOffset)}`,
    `    end-of-tables offset          ${hex(g.endOfTablesOffset)}`,
  ];
  if (g.parameterCount > 0) {
    lines.push(
      `    ${pad('#', 4)}${pad('parameter', 18)}${pad('type', 12)}${pad('count', 7)}${pad('extra', 7)}${pad('offset/index', 14)}${pad('marker', 8)}kind`,
    );
    g.parameters.forEach((p, i) => {
      const e = g.entries[i]!;
      lines.push(
        `    ${pad(String(i), 4)}${pad(hex64(p.name), 18)}${pad(hex(p.type), 12)}${pad(String(p.count), 7)}${pad(String(p.extra), 7)}${pad(hex(e.offsetOrIndex), 14)}${pad(hex(e.marker), 8)}${e.kind}${e.marker === 0xffff ? ` (constant, ${e.kind / 4} bytes)` : ''}`,
      );
    });
  }
  return lines;
}

export function bindingSetText(s: BindingSet): string {
  return [
    `binding set, ${s.size} bytes`,
    `  group count         ${s.groupCount}`,
    `  group table offset  ${hex(s.groupTableOffset)}`,
    `  unknown 0x8         ${hex64(s.unknown08)} (unknown)`,
    `  resource id         ${hex64(s.resourceId)}`,
    `  unknown 0x18        ${hex(s.unknown18)} (unknown)`,
    `  parameter count     ${s.parameterCount}`,
    ...s.groups.flatMap(groupText),
    ...unknownText(s.unknown),
    '',
  ].join('\n');
}

export function passBindingText(p: PassBinding): string {
  return [
    `pass binding, ${p.size} bytes`,
    `  version       ${hex(p.version)}`,
    `  group count   ${p.groupCount}`,
    `  group offset  ${hex(p.groupOffset)}`,
    `  zero 0xc      ${p.zero0c}`,
    `  resource id   ${hex64(p.resourceId)}`,
    `  zero 0x18     ${hex64(p.zero18)}`,
    ...p.groups.flatMap(groupText),
    ...unknownText(p.unknown),
    '',
  ].join('\n');
}

export function inputLayoutText(l: InputLayout): string {
  return [
    `input layout, ${l.size} bytes`,
    `  element count          ${l.elementCount}`,
    `  element table pointer  ${hex(l.elementTablePointer)}`,
    `  usage table pointer    ${hex(l.usageTablePointer)}`,
    `  unknown 0x14           ${l.unknown14} (unknown)`,
    `  ${pad('#', 4)}${pad('index', 7)}${pad('slot', 6)}${pad('offset', 8)}${pad('class', 7)}${pad('format word', 13)}${pad('usage', 7)}dxgi format`,
    ...l.elements.map((e, i) => {
      const f = elementFormat(e);
      return `  ${pad(String(i), 4)}${pad(String(e.semanticIndex), 7)}${pad(String(e.inputSlot), 6)}${pad(hex(e.byteOffset), 8)}${pad(String(e.slotClass), 7)}${pad(hex(e.formatWord), 13)}${pad(hex(e.usage), 7)}${f} ${dxgiName(f) === undefined ? '(not a DXGI format)' : `DXGI_FORMAT_${dxgiName(f)}`}`;
    }),
    ...unknownText(l.unknown),
    '',
  ].join('\n');
}

export function renderStateText(s: RenderState): string {
  const ras = rasterizerBits(s.rasterizerBits);
  const ds = depthStencilBits(s.depthStencilBits);
  return [
    `render state, ${s.size} bytes`,
    `  0x78 slope-scaled depth bias  ${f32FromBits(s.slopeScaledDepthBiasBits)} (${hex(s.slopeScaledDepthBiasBits)})`,
    `  0x7c depth bias               ${s.depthBias}`,
    `  0x7e forced sample count      ${s.forcedSampleCount}`,
    `  0x7f rasterizer bits          ${hex(s.rasterizerBits)}: fill-mode bit ${ras.fillModeBit} (meaning unknown), cull ${ras.cullMode}, front ${ras.frontCounterClockwise ? 'counter-clockwise' : 'clockwise'}, depth clip ${ras.depthClip ? 'on' : 'off'}${ras.unknownBits ? `, unknown bits ${hex(ras.unknownBits)}` : ''}`,
    `  0x80 depth-stencil bits       ${hex(s.depthStencilBits)}: depth test ${ds.depthTest ? 'on' : 'off'}, depth write ${ds.depthWrite ? 'on' : 'off'}, stencil test ${ds.stencilTest ? 'on' : 'off'}, depth function ${ds.depthFunc}${ds.unknownBits ? `, unknown bits ${hex(ds.unknownBits)}` : ''}`,
    `  0x81 stencil read mask        ${hex(s.stencilReadMask)}`,
    `  0x82 stencil write mask       ${hex(s.stencilWriteMask)}`,
    `  0x87 blend bits               ${hex(s.blendBits)} (no established decode)`,
    '  render-target blend records (bytes 0-3 blend, not anchored; byte 4 write mask):',
    ...s.renderTargets.map(
      (t) =>
        `    ${t.index}  ${hex(0x8c + 5 * t.index)}  ${t.bytes.match(/../g)!.join(' ')}  write mask ${hex(writeMaskOf(t))}`,
    ),
    ...unknownText(s.unknown),
    '',
  ].join('\n');
}
