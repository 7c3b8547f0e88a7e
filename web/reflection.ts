// The inspector's Reflection view: tables built from what the core reads. Constant buffers, bindings
// and signatures come from the core's D3DReflect-shaped reflection (d3dReflectAnyJson: SM4/5 through
// reflect(), DXIL through reflectDxil()), so DXBC and DXIL show the same tables; STAT by the
// D3D11_SHADER_DESC names of its words (readStat, STAT_WORDS), SFI0 by feature name (readSfi0), the
// root signature (readRts0) as a tree and as dxc's text (rootSignatureText), PSV0 (readPsv0) and
// RDAT (readRdat). The raw JSON is one click away, in a <details>. Display only.

import { IridiaError, type Container, type Json } from '../src/index.js';
import { readStat, STAT_WORDS } from '../src/parts/stat.js';
import { readSfi0 } from '../src/parts/sfi0.js';
import { readRts0, type RootParameter, type RootSignature } from '../src/dxil/rts0.js';
import { readPsv0 } from '../src/dxil/psv0.js';
import { readRdat } from '../src/dxil/rdat.js';
import { rootSignatureText } from '../src/disasm/rts0.js';
import { BIND_PREFIX, COMPONENT_TYPES, SYSTEM_VALUES, bindingColumns } from '../src/disasm/header.js';
import type { RdefBinding } from '../src/parts/rdef.js';
import { shapeName } from '../src/disasm/header-types.js';
import { d3dReflectAnyJson } from '../src/reflect/dxil.js';

type Obj = { readonly [key: string]: Json };

const ROOT_PARAMETER = { table: 'DescriptorTable', constants: 'RootConstants', cbv: 'CBV', srv: 'SRV', uav: 'UAV' };
const RANGE_TYPES = ['SRV', 'UAV', 'CBV', 'Sampler'];
const VISIBILITY = ['all', 'vertex', 'hull', 'domain', 'geometry', 'pixel', 'amplification', 'mesh'];

const mask = (m: number): string =>
  'xyzw'
    .split('')
    .filter((_, i) => m & (1 << i))
    .join('') || '-';
const num = (v: Json | undefined): number => (typeof v === 'number' ? v : 0);
const str = (v: Json | undefined): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
const list = (v: Json | undefined): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
/** A type's name: D3DReflect's, or (4.x RDEF stores none) the one its class and shape spell. */
const typeName = (t: Obj): string =>
  typeof t['Name'] === 'string'
    ? t['Name']
    : shapeName(num(t['Class']), num(t['Type']), num(t['Rows']), num(t['Columns']));

function h(tag: string, attrs: Readonly<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/** A table with a caption, column heads and rows of text. */
export function table(
  id: string,
  caption: string,
  heads: readonly string[],
  rows: readonly (readonly string[])[],
): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'none', 'data-table': id }, `${caption}: none`);
  const thead = h('thead', {}, h('tr', {}, ...heads.map((x) => h('th', { scope: 'col' }, x))));
  const tbody = h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c)))));
  return h('table', { class: 'grid', 'data-table': id }, h('caption', {}, caption), thead, tbody);
}

/** The constant buffers' rows: each variable, and its struct members indented below it. */
export function constantBufferRows(refl: Obj): string[][] {
  const rows: string[][] = [];
  const members = (t: Obj, base: number, prefix: string): void => {
    for (const m of list(t['MemberList'])) {
      const mt = (m['Type'] ?? {}) as Obj;
      rows.push(['', `${prefix}.${str(m['MemberName'])}`, typeName(mt), String(base + num(mt['Offset'])), '', '']);
      members(mt, base + num(mt['Offset']), `${prefix}.${str(m['MemberName'])}`);
    }
  };
  for (const cb of list(refl['ConstantBuffers'])) {
    for (const v of list(cb['VariableList'])) {
      const t = (v['Type'] ?? {}) as Obj;
      rows.push([
        str(cb['Name']),
        str(v['Name']),
        typeName(t),
        String(num(v['StartOffset'])),
        String(num(v['Size'])),
        num(v['uFlags']) & 2 ? 'yes' : 'no',
      ]);
      members(t, num(v['StartOffset']), `  ${str(v['Name'])}`);
    }
  }
  return rows;
}

/** Each binding: its name, the listing's type, format and dimension columns, register, space, count. */
export function bindingRows(refl: Obj): string[][] {
  return list(refl['BoundResources']).map((b) => {
    const type = num(b['Type']);
    const count = num(b['BindCount']);
    // The Resource Bindings columns of the listing, from the fields D3DReflect reports.
    const columns = bindingColumns({
      type,
      flags: num(b['uFlags']),
      returnType: num(b['ReturnType']),
      dimension: num(b['Dimension']),
      numSamples: num(b['NumSamples']),
    } as RdefBinding);
    return [
      str(b['Name']),
      ...columns,
      `${BIND_PREFIX[type] ?? '?'}${num(b['BindPoint'])}`,
      String(num(b['Space'])),
      count === 0 ? 'unbounded' : String(count),
    ];
  });
}

export function signatureRows(params: readonly Obj[]): string[][] {
  return params.map((p) => [
    str(p['SemanticName']),
    String(num(p['SemanticIndex'])),
    String(num(p['Register'])),
    SYSTEM_VALUES[num(p['SystemValueType'])] ?? String(p['SystemValueType']),
    COMPONENT_TYPES[num(p['ComponentType'])] ?? String(p['ComponentType']),
    mask(num(p['Mask'])),
    mask(num(p['ReadWriteMask'])),
  ]);
}

function rootParameterNode(p: RootParameter, i: number): HTMLElement {
  const vis = VISIBILITY[p.visibility] ?? String(p.visibility);
  const label = `${i}: ${ROOT_PARAMETER[p.type]} (visibility ${vis})`;
  if (p.type === 'table') {
    const ranges = p.ranges.map((r) =>
      h(
        'li',
        {},
        `${RANGE_TYPES[r.rangeType] ?? r.rangeType} ${r.numDescriptors === 0xffffffff ? 'unbounded' : r.numDescriptors} from register ${r.baseShaderRegister}, space ${r.registerSpace}, offset ${r.offsetInDescriptorsFromTableStart === 0xffffffff ? 'append' : r.offsetInDescriptorsFromTableStart}, flags 0x${r.flags.toString(16)}`,
      ),
    );
    return h('li', { role: 'treeitem', 'aria-expanded': 'true' }, label, h('ul', { role: 'group' }, ...ranges));
  }
  const detail =
    p.type === 'constants'
      ? `b${p.shaderRegister}, space ${p.registerSpace}, ${p.num32BitValues} 32-bit values`
      : `register ${p.shaderRegister}, space ${p.registerSpace}, flags 0x${p.flags.toString(16)}`;
  return h('li', { role: 'treeitem' }, `${label}: ${detail}`);
}

/** The root signature as a tree: version, flags, parameters with their ranges, static samplers. */
export function rootSignatureTree(rs: RootSignature, id: string): HTMLElement {
  const samplers = rs.staticSamplers.map((s) =>
    h(
      'li',
      { role: 'treeitem' },
      `s${s.shaderRegister}, space ${s.registerSpace} (visibility ${VISIBILITY[s.visibility] ?? s.visibility}): filter 0x${s.filter.toString(16)}, address ${s.addressU}/${s.addressV}/${s.addressW}, LOD ${s.minLOD}..${s.maxLOD}`,
    ),
  );
  return h(
    'ul',
    { role: 'tree', class: 'tree', 'aria-label': 'Root signature', id },
    h('li', { role: 'treeitem' }, `version ${rs.versionText}, flags 0x${rs.flags.toString(16)}`),
    h(
      'li',
      { role: 'treeitem', 'aria-expanded': 'true' },
      `Parameters (${rs.parameters.length})`,
      h('ul', { role: 'group' }, ...rs.parameters.map(rootParameterNode)),
    ),
    h(
      'li',
      { role: 'treeitem', 'aria-expanded': 'true' },
      `Static samplers (${rs.staticSamplers.length})`,
      h('ul', { role: 'group' }, ...samplers),
    ),
  );
}

/** Runs a reader; its IridiaError becomes a line in the view instead of stopping the others. */
function section(title: string, build: () => (Node | string)[], onError: (e: unknown) => HTMLElement): HTMLElement {
  const box = h('section', { class: 'refl', 'aria-label': title });
  try {
    const body = build();
    // A table's caption names it; other sections get a heading.
    if (!(body[0] instanceof HTMLTableElement)) box.append(h('h3', {}, title));
    box.append(...body);
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    box.append(h('h3', {}, title), onError(e));
  }
  return box;
}

/**
 * The Reflection view of a container: the sections that apply, then the raw D3DReflect JSON in a
 * <details> (its <pre> is PREFIXreflect-output, PREFIX the pane's id prefix). The JSON's refusal (a root signature alone, a library) shows in
 * `failure` while the part tables still show.
 */
export function reflectionView(
  c: Container,
  prefix: string,
  onError: (e: unknown) => HTMLElement,
): { readonly element: HTMLElement; readonly json: string; readonly error: unknown } {
  const root = h('div', { class: 'reflection' });
  const part = (kind: string): { data: Uint8Array; base: number } | undefined => {
    const p = c.parts.find((q) => q.kind === kind);
    return p && { data: p.data, base: p.offset + 8 };
  };
  let refl: Obj | undefined;
  let error: unknown;
  try {
    refl = d3dReflectAnyJson(c);
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    error = e;
  }
  if (refl) {
    const r = refl;
    root.append(
      section(
        'Constant buffers',
        () => [
          table(
            'cbuffers',
            'Constant buffers',
            ['Buffer', 'Member', 'Type', 'Offset', 'Size', 'Used'],
            constantBufferRows(r),
          ),
        ],
        onError,
      ),
      section(
        'Bindings',
        () => [
          table(
            'bindings',
            'Bindings',
            ['Name', 'Type', 'Format', 'Dimension', 'Register', 'Space', 'Count'],
            bindingRows(r),
          ),
        ],
        onError,
      ),
      section(
        'Signatures',
        () =>
          (
            [
              ['inputs', 'Input signature', 'InputParameters'],
              ['outputs', 'Output signature', 'OutputParameters'],
              ['patch', 'Patch-constant signature', 'PatchConstantParameters'],
            ] as const
          )
            .filter(([id, , key]) => id !== 'patch' || list(r[key]).length > 0)
            .map(([id, caption, key]) =>
              table(
                id,
                caption,
                ['Semantic', 'Index', 'Register', 'System value', 'Format', 'Mask', 'Used'],
                signatureRows(list(r[key])),
              ),
            ),
        onError,
      ),
    );
  }
  const stat = part('STAT');
  if (stat && !c.parts.some((p) => p.kind === 'DXIL' || p.kind === 'ILDB')) {
    root.append(
      section(
        'Statistics (STAT)',
        () => {
          const s = readStat(stat.data, stat.base);
          return [
            table(
              'stat',
              `STAT: ${s.wordCount} words, named by D3D11_SHADER_DESC`,
              ['Word', 'Name', 'Value'],
              s.words.map((w, i) => [String(i), STAT_WORDS[i] ?? `word ${i}`, String(w)]),
            ),
          ];
        },
        onError,
      ),
    );
  }
  const sfi0 = part('SFI0');
  if (sfi0) {
    root.append(
      section(
        'Features (SFI0)',
        () => {
          const f = readSfi0(sfi0.data, sfi0.base);
          const mask64 = `0x${f.high.toString(16).padStart(8, '0')}${f.low.toString(16).padStart(8, '0')}`;
          return [
            h('p', {}, `mask ${mask64}`),
            h(
              'ul',
              { id: 'sfi0-features' },
              ...(f.names.length ? f.names.map((n) => h('li', {}, n)) : [h('li', {}, 'none')]),
            ),
          ];
        },
        onError,
      ),
    );
  }
  const rts0 = part('RTS0');
  if (rts0) {
    root.append(
      section(
        'Root signature (RTS0)',
        () => {
          const rs = readRts0(rts0.data, rts0.base);
          return [
            rootSignatureTree(rs, `${prefix}rts0-tree`),
            h('pre', { class: 'code', id: `${prefix}rts0-text` }, rootSignatureText(rs)),
          ];
        },
        onError,
      ),
    );
  }
  const psv0 = part('PSV0');
  if (psv0) {
    root.append(
      section(
        'Pipeline state validation (PSV0)',
        () => {
          const p = readPsv0(psv0.data, psv0.base);
          const facts: string[][] = [
            ['version', String(p.version)],
            ['runtime info size', String(p.infoSize)],
            ['wave lanes', `${p.minWaveLanes}..${p.maxWaveLanes}`],
          ];
          if (p.shaderStage !== undefined) facts.push(['shader stage', String(p.shaderStage)]);
          if (p.usesViewID !== undefined) facts.push(['uses ViewID', String(p.usesViewID)]);
          if (p.numThreads) facts.push(['threads', p.numThreads.join(' × ')]);
          if (p.entryFunctionName !== undefined) facts.push(['entry', p.entryFunctionName]);
          if (p.sigInputElements !== undefined)
            facts.push([
              'signature elements',
              `${p.sigInputElements} in, ${p.sigOutputElements} out, ${p.sigPatchConstOrPrimElements} patch/primitive`,
            ]);
          return [
            table('psv0', 'PSV0 runtime info', ['Field', 'Value'], facts),
            table(
              'psv0-resources',
              'PSV0 resources',
              ['Type', 'Space', 'Registers', 'Kind'],
              p.resources.map((r) => [
                String(r.type),
                String(r.space),
                `${r.lowerBound}..${r.upperBound === 0xffffffff ? '∞' : r.upperBound}`,
                String(r.kind ?? ''),
              ]),
            ),
          ];
        },
        onError,
      ),
    );
  }
  const rdat = part('RDAT');
  if (rdat) {
    root.append(
      section(
        'Runtime data (RDAT)',
        () => {
          const d = readRdat(rdat.data, rdat.base);
          return [
            table(
              'rdat-tables',
              `RDAT version 0x${d.version.toString(16)}`,
              ['Table', 'Records'],
              d.tables.map((t) => [t.name, String(t.recordCount)]),
            ),
            table(
              'rdat-functions',
              'RDAT functions',
              ['Name', 'Unmangled', 'Shader kind'],
              d.functions.map((f) => [f.name, f.unmangledName, String(f.shaderKind)]),
            ),
          ];
        },
        onError,
      ),
    );
  }
  const json = refl ? `${JSON.stringify(refl, null, 2)}\n` : '';
  const raw = h(
    'details',
    { class: 'raw' },
    h('summary', {}, 'D3DReflect JSON'),
    h('pre', { id: `${prefix}reflect-output`, class: 'code' }),
  );
  root.append(raw);
  return { element: root, json, error };
}
