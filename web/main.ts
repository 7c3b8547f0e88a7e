// iridia's web inspector, a shader workbench: opens a DirectX container (or a bare Direct3D 9
// program) picked, dropped or linked (?example=NAME) and shows what iridia's core reads from it in
// one to three panes side by side: the container and its parts (with a hex view), D3DDisassemble's
// listing under a flag word, the reflection as tables, the lifted WGSL, the decompiled HLSL, dxc's
// DXIL listing and the HLSL source the debug information carries. Listings are highlighted
// (highlight.ts), searchable in a pane or across panes, and linked: selecting an instruction lights
// up its WGSL lines, its source line and its registers in every pane (link.ts). Many files dropped
// at once give a census table. Display only: every format fact comes from src/.

import {
  IridiaError,
  UnsupportedError,
  parseContainer,
  digestState,
  programInfo,
  printableKind,
  hasContainerMagic,
  isD3D9Program,
  disassemble,
  disassembleD3D9,
  disassembleDxil,
  liftContainer,
  emitWgslWithMap,
  decompile,
  decompiledHlslWithMap,
  decodeContainerProgram,
  readContainerDebugInfo,
  readDxilSources,
  readPartModule,
  type Container,
  type ContainerDebugInfo,
} from '../src/index.js';
import { instructionLocations, strippedIndices } from '../src/dxil/debug-lines.js';
import { highlight, type Language } from './highlight.js';
import { reflectionView } from './reflection.js';
import {
  dxilInstructionLines,
  dxilLinks,
  instructionsByOffset,
  lineOffsets,
  linesByOrigin,
  samePath,
  wgslLines,
  type InstructionLink,
} from './link.js';
import { executorRun, webgpuRun, imageShapes, outputImage, SHOWN_WORDS, type RunOutputs } from './run.js';
import { inputsForm, type InputsForm } from './inputs.js';

/** What the page holds: a parsed container, or a bare Direct3D 9 program (no container). */
type Loaded =
  | { readonly kind: 'container'; readonly name: string; readonly bytes: Uint8Array; readonly container: Container }
  | { readonly kind: 'd3d9'; readonly name: string; readonly bytes: Uint8Array };

type ViewId = 'container' | 'disasm' | 'reflect' | 'wgsl' | 'hlsl' | 'dxil' | 'source' | 'run';
type TextId = Exclude<ViewId, 'container' | 'reflect' | 'run'>;

const $ = <T extends HTMLElement>(selector: string): T => {
  const el = document.querySelector<T>(selector);
  if (el === null) throw new Error(`the page lacks ${selector}`);
  return el;
};
function h(tag: string, attrs: Readonly<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

const hasPart = (f: Loaded, ...kinds: string[]): boolean =>
  f.kind === 'container' && f.container.parts.some((p) => kinds.includes(p.kind));
const hasSm4 = (f: Loaded): boolean => hasPart(f, 'SHEX', 'SHDR');
const hasDxil = (f: Loaded): boolean => hasPart(f, 'DXIL', 'ILDB');
const hex = (n: number): string => `0x${n.toString(16)}`;
const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

interface ViewDef {
  readonly id: ViewId;
  readonly label: string;
  readonly applies: (f: Loaded) => boolean;
}

/** The views, in tab order: when each shows. */
const VIEWS: readonly ViewDef[] = [
  { id: 'container', label: 'Container', applies: () => true },
  { id: 'disasm', label: 'Disassembly', applies: (f) => f.kind === 'd3d9' || hasSm4(f) },
  { id: 'reflect', label: 'Reflection', applies: (f) => hasPart(f, 'SHEX', 'SHDR', 'DXIL', 'ILDB', 'RTS0') },
  { id: 'wgsl', label: 'WGSL', applies: (f) => hasSm4(f) || hasDxil(f) },
  { id: 'hlsl', label: 'HLSL', applies: (f) => hasSm4(f) || hasDxil(f) },
  { id: 'dxil', label: 'DXIL', applies: hasDxil },
  { id: 'source', label: 'Source', applies: (f) => hasPart(f, 'SPDB', 'SDBG', 'SRCI', 'ILDB') },
  { id: 'run', label: 'Run', applies: (f) => hasSm4(f) || hasDxil(f) },
];

/** The flag word the checkboxes spell. */
function disasmFlags(): number {
  let flags = 0;
  for (const box of document.querySelectorAll<HTMLInputElement>('#flags input[type=checkbox]'))
    if (box.checked) flags |= Number(box.value);
  return flags;
}

/** An error as the page shows it: IridiaError's code, location and reason; anything else is a bug. */
function errorElement(e: unknown): HTMLElement {
  const box = document.createElement('p');
  box.className = 'error';
  if (e instanceof IridiaError) {
    box.dataset['code'] = e.code;
    const code = document.createElement('strong');
    code.textContent = e.code;
    const where: string[] = [];
    // Part kinds are FourCCs; readers of the container itself name a region ('header') instead.
    if (e.part !== undefined) where.push(e.part.length === 4 ? `part ${printableKind(e.part)}` : e.part);
    if (e.instruction !== undefined) where.push(`instruction ${e.instruction}`);
    if (e.word !== undefined) where.push(`word ${e.word}`);
    if (e.offset !== undefined) where.push(`offset ${hex(e.offset)}`);
    const kind = e instanceof UnsupportedError ? 'not supported yet' : 'invalid input';
    box.append(code, ` (${kind})${where.length ? ` at ${where.join(', ')}` : ''}: ${e.reason}`);
  } else {
    box.dataset['code'] = 'internal';
    box.textContent = `internal error (a bug in iridia, please report it): ${e instanceof Error ? e.message : String(e)}`;
  }
  return box;
}

// ---------------------------------------------------------------------------------------------
// The loaded file and what is computed from it (each text once per file, shared by the panes).

type Computed =
  | { readonly text: string; readonly language: Language; readonly origins?: readonly (readonly number[])[] }
  | { readonly error: unknown };

let loaded: Loaded | undefined;
let generation = 0;
const computed = new Map<string, Computed>();
let debugInfo: { info: ContainerDebugInfo | undefined } | undefined;

function debugOf(f: Loaded): ContainerDebugInfo | undefined {
  if (debugInfo === undefined) {
    let info: ContainerDebugInfo | undefined;
    try {
      info = f.kind === 'container' ? readContainerDebugInfo(f.container) : undefined;
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      info = undefined;
    }
    debugInfo = { info };
  }
  return debugInfo.info;
}

/** A DXIL container's embedded sources (SRCI or the debug module's dx.source.*), or why not. */
let dxilSources: { files: readonly { path: string; text: string }[]; error?: unknown } | undefined;

function dxilSourcesOf(f: Loaded): NonNullable<typeof dxilSources> {
  if (dxilSources === undefined) {
    try {
      dxilSources = { files: (f.kind === 'container' && readDxilSources(f.container)?.files) || [] };
    } catch (e) {
      dxilSources = { files: [], error: e };
    }
  }
  return dxilSources;
}

/** The source files the debug information embeds (their text), by index: SPDB/SDBG's, else DXIL's. */
function sourceFiles(f: Loaded): { path: string; text: string }[] {
  const dxbc = (debugOf(f)?.files ?? []).flatMap((s) => (s.text === undefined ? [] : [{ path: s.path, text: s.text }]));
  return dxbc.length || !hasPart(f, 'SRCI', 'ILDB') ? dxbc : [...dxilSourcesOf(f).files];
}

let sourceFile = 0;

function compute(id: TextId, f: Loaded): Computed {
  const key = id === 'disasm' ? `disasm:${disasmFlags()}` : id === 'source' ? `source:${sourceFile}` : id;
  const hit = computed.get(key);
  if (hit) return hit;
  let out: Computed;
  try {
    const c = f.kind === 'container' ? f.container : undefined;
    switch (id) {
      case 'disasm':
        out = {
          text: c ? disassemble(c, disasmFlags()) : disassembleD3D9(f.bytes, disasmFlags()),
          language: 'asm',
        };
        break;
      case 'wgsl':
        out = { ...emitWgslWithMap(liftContainer(c!)), language: 'wgsl' };
        break;
      case 'hlsl':
        out = { ...decompiledHlslWithMap(decompile(f.bytes)), language: 'hlsl' };
        break;
      case 'dxil':
        out = { text: disassembleDxil(c!), language: 'dxil' };
        break;
      case 'source': {
        const files = sourceFiles(f);
        const dxilError = files.length || !hasPart(f, 'SRCI', 'ILDB') ? undefined : dxilSourcesOf(f).error;
        out = files.length
          ? { text: files[Math.min(sourceFile, files.length - 1)]!.text, language: 'hlsl' }
          : dxilError !== undefined
            ? { error: dxilError }
            : {
                error: new UnsupportedError(
                  'E208_PART_UNSUPPORTED',
                  'the debug information embeds no source text',
                  debugOf(f) || hasPart(f, 'SRCI', 'ILDB') ? {} : { part: 'SPDB' },
                ),
              };
        break;
      }
    }
  } catch (e) {
    out = { error: e };
  }
  computed.set(key, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Links: the instruction a listing line prints, its registers, WGSL lines and source line.

interface Links {
  /** The listing whose lines are linked. */
  readonly listing: 'disasm' | 'dxil';
  readonly lineOffsets: readonly (number | undefined)[];
  readonly byOffset: Map<number, InstructionLink>;
  readonly wgsl: Map<number, number[]> | undefined;
  /** The decompiled HLSL lines of each instruction (the decompiler keeps the provenance),
   * decompiled when first asked. */
  readonly hlsl: () => Map<number, number[]> | undefined;
  /** An instruction's (by key) source file (its path) and line, from the debug information. */
  readonly source: (key: number) => { readonly path: string; readonly line: number } | undefined;
}
let links: { flags: number; value: Links | undefined } | undefined;

function linksOf(f: Loaded): Links | undefined {
  const flags = disasmFlags();
  if (links?.flags === flags) return links.value;
  let value: Links | undefined;
  if (f.kind === 'container' && hasSm4(f)) {
    try {
      const listing = compute('disasm', f);
      const program = decodeContainerProgram(f.container);
      const offsets =
        'text' in listing && program ? lineOffsets(listing.text, disassemble(f.container, flags | 0x20)) : undefined;
      if (offsets && program) {
        const byOffset = instructionsByOffset(program);
        const wgsl = compute('wgsl', f);
        const at = (k: number): number | undefined => {
          const i = program.instructions[k];
          return i && i.word * 4;
        };
        value = {
          listing: 'disasm',
          lineOffsets: offsets,
          byOffset,
          wgsl: !('text' in wgsl)
            ? undefined
            : wgsl.origins
              ? linesByOrigin(wgsl.origins, at)
              : wgslLines([...byOffset.values()], wgsl.text),
          hlsl: once(() => mappedLines(compute('hlsl', f), at)),
          source: (offset) => {
            const info = debugOf(f);
            const at = info?.lineAt(offset);
            return at && { path: info!.files[at.file]?.path ?? `file ${at.file}`, line: at.line };
          },
        };
      }
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
    }
  } else if (f.kind === 'container' && hasPart(f, 'DXIL', 'ILDB')) {
    // DXIL: the listing prints the debug module (ILDB) when there is one, else the module the
    // lifter reads (DXIL). A debug module's instructions are the DXIL part's and its llvm.dbg.*
    // calls (strippedIndices): the lifter's origins are mapped onto the listing's through them.
    const listing = compute('dxil', f);
    const wgsl = compute('wgsl', f);
    if ('text' in listing) {
      const lineKeys = dxilInstructionLines(listing.text);
      let locations: ReturnType<typeof instructionLocations> = [];
      let toListing: (k: number) => number | undefined = (k) => k;
      try {
        const ildb = readPartModule(f.container, 'ILDB');
        const dxil = readPartModule(f.container, 'DXIL');
        locations = instructionLocations(ildb ?? dxil!);
        if (ildb) {
          const stripped = dxil && strippedIndices(ildb, dxil);
          const back: number[] = [];
          stripped?.forEach((j, k) => {
            if (j !== undefined) back[j] = k;
          });
          toListing = (k) => back[k];
        }
      } catch (e) {
        if (!(e instanceof IridiaError)) throw e;
      }
      value = {
        listing: 'dxil',
        lineOffsets: lineKeys,
        byOffset: dxilLinks(lineKeys),
        wgsl: mappedLines(wgsl, toListing),
        hlsl: once(() => mappedLines(compute('hlsl', f), toListing)),
        source: (k) => {
          const at = locations[k];
          return at && { path: at.file, line: at.line };
        },
      };
    }
  }
  links = { flags, value };
  return value;
}

/** `make`'s value, made on the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** The lines of each instruction (by key) of a view computed with a line map. */
function mappedLines(c: Computed, keyOf: (index: number) => number | undefined): Map<number, number[]> | undefined {
  return 'origins' in c && c.origins ? linesByOrigin(c.origins, keyOf) : undefined;
}

interface Selection {
  /** The instruction's byte offset. */
  readonly offset: number;
  readonly link: InstructionLink;
}
let selection: Selection | undefined;

// ---------------------------------------------------------------------------------------------
// Panes: one to three, each with its own tabs (WAI-ARIA tabs) over the same views.

interface Pane {
  readonly index: number;
  /** The prefix of its element ids: '' for the first pane, 'p1-' and 'p2-' for the others. */
  readonly prefix: string;
  readonly root: HTMLElement;
  view: ViewId;
  /** What each panel shows now (generation and key), so a panel is rebuilt only when that changes. */
  readonly shown: Map<ViewId, string>;
}
const panes: Pane[] = [];

const paneId = (p: Pane, rest: string): string => `${p.prefix}${rest}`;
const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page lacks #${id}`);
  return el as T;
};

function buildPane(index: number): Pane {
  const prefix = index === 0 ? '' : `p${index}-`;
  const tabs = h('div', { role: 'tablist', id: `${prefix}tabs`, 'aria-label': `Views of the file, pane ${index + 1}` });
  const panels: HTMLElement[] = [];
  for (const v of VIEWS) {
    tabs.append(
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `${prefix}tab-${v.id}`,
          'aria-controls': `${prefix}panel-${v.id}`,
          tabindex: '-1',
        },
        v.label,
      ),
    );
    const panel = h('section', {
      role: 'tabpanel',
      id: `${prefix}panel-${v.id}`,
      'aria-labelledby': `${prefix}tab-${v.id}`,
      tabindex: '0',
      hidden: '',
    });
    panel.append(h('div', { class: 'failure', hidden: '' }));
    if (v.id === 'container') {
      panel.append(
        h('dl', { id: `${prefix}header` }),
        h(
          'table',
          { id: `${prefix}parts`, class: 'grid parts' },
          h('caption', {}, 'Parts (choose one for its bytes)'),
          h('thead', {}, h('tr', {}, ...['#', 'Kind', 'Offset', 'Size'].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody'),
        ),
        h('h3', { id: `${prefix}findings-head` }, 'Findings'),
        h('ul', { id: `${prefix}findings`, class: 'findings' }),
        h('h3', { id: `${prefix}hex-head`, hidden: '' }, 'Bytes'),
        h('pre', { id: `${prefix}hex-output`, class: 'out code hex', tabindex: '0', hidden: '' }),
      );
    } else if (v.id === 'reflect') {
      panel.append(h('div', { class: 'reflect-body' }));
    } else if (v.id === 'run') {
      panel.append(
        h(
          'p',
          { class: 'note' },
          'The lifted program run with the seeded inputs of ',
          h('code', {}, 'iridia run --seed'),
          ' (one thread group, or an 8×8 target), with the constants and images edited below, on the CPU executor and on this browser’s WebGPU. ',
          h('label', { for: `${prefix}seed` }, 'Seed '),
          h('input', { type: 'number', id: `${prefix}seed`, min: '0', max: '4294967295', value: '1' }),
          ' ',
          h('button', { type: 'button', id: `${prefix}run` }, 'Run'),
        ),
        h('div', { id: `${prefix}run-inputs-host` }),
        h('p', { id: `${prefix}run-status`, class: 'note', 'aria-live': 'polite' }),
        h('div', { id: `${prefix}run-output` }),
      );
    } else {
      if (v.id === 'source') {
        const label = h('label', { for: `${prefix}source-file` }, 'File ');
        panel.append(h('p', { class: 'note' }, label, h('select', { id: `${prefix}source-file` })));
      }
      panel.append(
        h('pre', {
          id: `${prefix}${v.id}-output`,
          class: 'out code',
          tabindex: '0',
          'aria-label': `${v.label} listing`,
          'data-view': v.id,
        }),
      );
    }
    panels.push(panel);
  }
  const tools = h(
    'div',
    { class: 'tools' },
    h('label', { for: `${prefix}search`, class: 'sr-only' }, `Search in pane ${index + 1}`),
    h('input', {
      type: 'search',
      id: `${prefix}search`,
      placeholder: 'Search this pane',
      'aria-describedby': `${prefix}search-count`,
    }),
    h('span', { id: `${prefix}search-count`, class: 'count', 'aria-live': 'polite' }),
    h('button', { type: 'button', id: `${prefix}copy`, title: 'Copy this view' }, 'Copy'),
    h('button', { type: 'button', id: `${prefix}download`, title: 'Download this view' }, 'Download'),
  );
  const root = h(
    'section',
    { class: 'pane', id: `pane${index}`, 'aria-label': `Pane ${index + 1}` },
    h('div', { class: 'pane-bar' }, tabs, tools),
    ...panels,
  );
  const pane: Pane = { index, prefix, root, view: 'container', shown: new Map() };
  wirePane(pane);
  return pane;
}

function visibleTabs(p: Pane): HTMLButtonElement[] {
  return Array.from(byId(`${p.prefix}tabs`).querySelectorAll<HTMLButtonElement>('[role=tab]')).filter((t) => !t.hidden);
}

/** Shows a view in a pane; its panel is (re)built when the file, the flags or the source file changed. */
function select(p: Pane, id: ViewId, focus = false): void {
  p.view = id;
  for (const v of VIEWS) {
    const tab = byId<HTMLButtonElement>(paneId(p, `tab-${v.id}`));
    const on = v.id === id;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    byId(paneId(p, `panel-${v.id}`)).hidden = !on;
  }
  if (focus) byId(paneId(p, `tab-${id}`)).focus();
  render(p);
  // a panel built before shows the selection made while another view was up
  applySelection();
}

function panelKey(id: ViewId): string {
  return `${generation}:${id === 'disasm' ? disasmFlags() : id === 'source' ? sourceFile : ''}`;
}

function render(p: Pane, id: ViewId = p.view): void {
  const f = loaded;
  if (!f) return;
  const key = panelKey(id);
  if (p.shown.get(id) === key) return;
  p.shown.set(id, key);
  const panel = byId(paneId(p, `panel-${id}`));
  const failure = panel.querySelector<HTMLElement>('.failure')!;
  failure.replaceChildren();
  failure.hidden = true;
  const fail = (e: unknown): void => {
    failure.append(errorElement(e));
    failure.hidden = false;
  };
  if (id === 'container') {
    renderContainer(p, f);
  } else if (id === 'run') {
    byId(paneId(p, 'run-output')).replaceChildren();
    byId(paneId(p, 'run-status')).textContent = '';
    renderInputs(p, f);
  } else if (id === 'reflect') {
    const body = panel.querySelector<HTMLElement>('.reflect-body')!;
    body.replaceChildren();
    if (f.kind !== 'container') return;
    try {
      const view = reflectionView(f.container, p.prefix, errorElement);
      body.append(view.element);
      byId(paneId(p, 'reflect-output')).innerHTML = highlight(view.json, 'json');
      if (view.error !== undefined) fail(view.error);
    } catch (e) {
      fail(e);
    }
  } else {
    if (id === 'source') fillSourceFiles(p, f);
    const out = byId(paneId(p, `${id}-output`));
    const c = compute(id, f);
    if ('error' in c) {
      out.textContent = '';
      fail(c.error);
    } else {
      out.innerHTML = highlight(c.text, c.language);
    }
  }
  applySelection();
  applySearch(p);
}

function fillSourceFiles(p: Pane, f: Loaded): void {
  const box = byId<HTMLSelectElement>(paneId(p, 'source-file'));
  const files = sourceFiles(f);
  box.replaceChildren(...files.map((s, i) => h('option', { value: String(i) }, s.path)));
  box.value = String(Math.min(sourceFile, Math.max(files.length - 1, 0)));
  box.disabled = files.length < 2;
}

function renderContainer(p: Pane, f: Loaded): void {
  const entries: [string, string | HTMLElement][] = [
    ['File', f.name],
    ['Size', `${f.bytes.byteLength} bytes`],
  ];
  const parts = byId(paneId(p, 'parts')).querySelector('tbody')!;
  const findings = byId(paneId(p, 'findings'));
  parts.replaceChildren();
  findings.replaceChildren();
  byId(paneId(p, 'hex-output')).hidden = true;
  byId(paneId(p, 'hex-head')).hidden = true;
  if (f.kind === 'container') {
    const c = f.container;
    const state = digestState(c);
    const badge = h('span', { class: `badge ${state}` }, state);
    const digest = h('span', {}, `${hexBytes(c.digest)} `, badge);
    const prog = programInfo(c);
    entries.push(
      ['Stored size', `${c.totalSize} bytes`],
      ['Version', String(c.version)],
      ['Digest', digest],
      ['Program', `${prog.target ?? prog.kind}${prog.dxilVersion ? ` (DXIL ${prog.dxilVersion})` : ''}`],
      ['Parts', String(c.parts.length)],
    );
    c.parts.forEach((part, i) => {
      const kind = h(
        'button',
        {
          type: 'button',
          class: 'link',
          'data-part': String(i),
          'aria-label': `part ${i}, ${printableKind(part.kind)}: show its bytes`,
        },
        printableKind(part.kind),
      );
      parts.append(
        h(
          'tr',
          {},
          h('td', {}, String(i)),
          h('td', {}, kind),
          h('td', {}, hex(part.offset)),
          h('td', {}, String(part.data.byteLength)),
        ),
      );
    });
    for (const finding of c.findings)
      findings.append(h('li', {}, `${finding.kind} at ${hex(finding.offset)}: ${finding.message}`));
    if (c.findings.length === 0)
      findings.append(h('li', { class: 'none' }, 'none: laid out as fxc and dxc write containers'));
  } else {
    // A bare program has no container: its version token says what it is (vs/ps, major, minor).
    const stage = (f.bytes[2]! | (f.bytes[3]! << 8)) === 0xfffe ? 'vs' : 'ps';
    entries.push(['Program', `${stage}_${f.bytes[1]}_${f.bytes[0]} (a Direct3D 9 program, not a container)`]);
  }
  byId(paneId(p, 'parts')).hidden = f.kind !== 'container';
  findings.hidden = f.kind !== 'container';
  byId(paneId(p, 'findings-head')).hidden = f.kind !== 'container';
  const dl = byId(paneId(p, 'header'));
  dl.replaceChildren();
  for (const [term, value] of entries) dl.append(h('dt', {}, term), h('dd', {}, value));
}

/** Shown bytes of a part at most; the rest is one download away. */
const HEX_LIMIT = 64 * 1024;

/** The hex view of bytes at a file offset: offset, 16 bytes, their printable characters. */
export function hexDump(bytes: Uint8Array, at: number): string {
  const lines: string[] = [];
  const n = Math.min(bytes.byteLength, HEX_LIMIT);
  for (let i = 0; i < n; i += 16) {
    const row = bytes.subarray(i, Math.min(i + 16, n));
    const cells = Array.from(row, (b) => b.toString(16).padStart(2, '0'));
    const text = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${(at + i).toString(16).padStart(8, '0')}  ${cells.join(' ').padEnd(47)}  ${text}`);
  }
  if (bytes.byteLength > n) lines.push(`… ${bytes.byteLength - n} more bytes (Download gives them all)`);
  return `${lines.join('\n')}\n`;
}

let selectedPart: number | undefined;

function showPart(p: Pane, i: number): void {
  const f = loaded;
  if (f?.kind !== 'container') return;
  const part = f.container.parts[i];
  if (!part) return;
  selectedPart = i;
  const out = byId(paneId(p, 'hex-output'));
  // The part's bytes with its 8-byte header (FourCC and size), at their offsets in the file.
  const whole = f.bytes.subarray(part.offset, part.offset + 8 + part.data.byteLength);
  out.textContent = hexDump(whole, part.offset);
  out.hidden = false;
  const head = byId(paneId(p, 'hex-head'));
  head.textContent = `Bytes of part ${i} (${printableKind(part.kind)}, ${part.data.byteLength} bytes after its 8-byte header)`;
  head.hidden = false;
  for (const b of byId(paneId(p, 'parts')).querySelectorAll('[data-part]'))
    b.closest('tr')!.classList.toggle('sel', b.getAttribute('data-part') === String(i));
}

// ---------------------------------------------------------------------------------------------
// Selection: light up the instruction, its WGSL lines, its source line and its registers everywhere.

/** A highlighted listing's lines (inside its chunks), in order. */
function lines(pre: HTMLElement): HTMLElement[] {
  return Array.from(pre.querySelectorAll<HTMLElement>('.ln'));
}

function applySelection(): void {
  for (const el of document.querySelectorAll('#panes .sel-line, #panes .link-line, #panes .lit, #panes .lit-w'))
    el.classList.remove('sel-line', 'link-line', 'lit', 'lit-w');
  const f = loaded;
  const s = selection;
  if (!f || !s) {
    $('#selection').textContent = '';
    return;
  }
  const L = linksOf(f);
  const written = new Set(s.link.written.map((w) => w.key));
  const read = new Set(s.link.read);
  const source = L?.source(s.offset);
  for (const p of panes) {
    const root = p.root;
    if (p.view === L?.listing) {
      const pre = byId(paneId(p, `${L.listing}-output`));
      lines(pre).forEach((ln, i) => {
        if (L.lineOffsets[i] === s.offset) ln.classList.add('sel-line');
      });
    }
    if (p.view === 'wgsl' || p.view === 'hlsl') {
      const want = new Set((p.view === 'wgsl' ? L?.wgsl : L?.hlsl())?.get(s.offset) ?? []);
      for (const ln of lines(byId(paneId(p, `${p.view}-output`))))
        if (want.has(Number(ln.dataset['line']))) ln.classList.add('link-line');
    }
    if (p.view === 'source' && source) {
      // The pane shows one file; the line lights up when it is the instruction's file.
      const shownPath = sourceFiles(f)[sourceFile]?.path;
      if (shownPath !== undefined && samePath(source.path, shownPath)) {
        const ln = byId(paneId(p, 'source-output')).querySelector(`.ln[data-line="${source.line - 1}"]`);
        ln?.classList.add('link-line');
      }
    }
    for (const r of root.querySelectorAll<HTMLElement>('.t-reg')) {
      const key = r.dataset['r'] ?? '';
      if (written.has(key)) r.classList.add('lit-w');
      else if (read.has(key)) r.classList.add('lit');
    }
  }
  const where = source ? `, ${source.path} line ${source.line}` : '';
  const regs = [...s.link.written.map((w) => `${w.key} (written)`), ...s.link.read].join(', ');
  $('#selection').textContent =
    `instruction ${s.link.index}${s.link.dxil ? '' : ` at byte ${hex(s.offset)}`}${where}${regs ? `; registers ${regs}` : ''}`;
}

/** Selects the first instruction (in listing order) whose source line is this line of the shown source file. */
function selectSourceLine(line: number): boolean {
  const f = loaded;
  const L = f && linksOf(f);
  const shownPath = f && sourceFiles(f)[sourceFile]?.path;
  if (!L || shownPath === undefined) return false;
  for (const key of L.lineOffsets) {
    if (key === undefined) continue;
    const at = L.source(key);
    const link = L.byOffset.get(key);
    if (link && at && at.line === line + 1 && samePath(at.path, shownPath)) {
      selection = { offset: key, link };
      applySelection();
      for (const el of document.querySelectorAll('#panes .sel-line')) el.scrollIntoView({ block: 'nearest' });
      return true;
    }
  }
  return false;
}

/** Selects the instruction a listing line prints (none for a line that prints none). */
function selectLine(line: number): boolean {
  const f = loaded;
  if (!f) return false;
  const L = linksOf(f);
  const offset = L?.lineOffsets[line];
  const link = offset === undefined ? undefined : L!.byOffset.get(offset);
  if (offset === undefined || !link) return false;
  selection = { offset, link };
  applySelection();
  return true;
}

/** Selects the instruction whose write a WGSL (or decompiled HLSL) line carries (the same links, the other way). */
function selectWgslLine(line: number, view: 'wgsl' | 'hlsl' = 'wgsl'): boolean {
  const f = loaded;
  const L = f && linksOf(f);
  const map = view === 'wgsl' ? L?.wgsl : L?.hlsl();
  if (!L || !map) return false;
  for (const [offset, lines] of map) {
    const link = L.byOffset.get(offset);
    if (link && lines.includes(line)) {
      selection = { offset, link };
      applySelection();
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Search: in one pane (its input) or across the panes (the top input). Hits are whole lines or rows.

function searchables(p: Pane): HTMLElement[] {
  const panel = byId(paneId(p, `panel-${p.view}`));
  const pres = Array.from(panel.querySelectorAll<HTMLElement>('pre'));
  const rows = Array.from(panel.querySelectorAll<HTMLElement>('tbody tr, .tree li, .findings li, dd'));
  return [...rows, ...pres.flatMap((pre) => (pre.querySelector('.ln') ? lines(pre) : []))];
}

function applySearch(p: Pane): number {
  const own = byId<HTMLInputElement>(paneId(p, 'search')).value;
  const all = $<HTMLInputElement>('#search-all').value;
  const query = (own || all).toLowerCase();
  let hits = 0;
  for (const el of p.root.querySelectorAll('.hit, .hit-current')) el.classList.remove('hit', 'hit-current');
  if (query) {
    for (const el of searchables(p)) {
      if ((el.textContent ?? '').toLowerCase().includes(query)) {
        el.classList.add('hit');
        hits++;
      }
    }
  }
  byId(paneId(p, 'search-count')).textContent = query ? `${hits} ${hits === 1 ? 'match' : 'matches'}` : '';
  return hits;
}

function searchAll(): void {
  let total = 0;
  const per: string[] = [];
  for (const p of panes) {
    const n = applySearch(p);
    total += n;
    per.push(`pane ${p.index + 1}: ${n}`);
  }
  const q = $<HTMLInputElement>('#search-all').value;
  $('#search-all-count').textContent = q ? `${total} ${total === 1 ? 'match' : 'matches'} (${per.join(', ')})` : '';
}

/** Moves to the next (or previous) hit of a pane and scrolls it into view. */
function nextHit(p: Pane, back: boolean): void {
  const hits = Array.from(p.root.querySelectorAll<HTMLElement>('.hit, .hit-current'));
  if (!hits.length) return;
  const at = hits.findIndex((el) => el.classList.contains('hit-current'));
  hits[at]?.classList.replace('hit-current', 'hit');
  const next = hits[(at + (back ? -1 : 1) + hits.length) % hits.length]!;
  next.classList.replace('hit', 'hit-current');
  next.scrollIntoView({ block: 'nearest' });
}

// ---------------------------------------------------------------------------------------------
// Run: the seeded run on the executor and on WebGPU, word by word.

const hex8 = (w: number): string => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

function runTable(
  name: string,
  cpu: Uint32Array,
  gpu: Uint32Array | undefined,
): { table: HTMLElement; differ: number } {
  let differ = 0;
  const n = Math.max(cpu.length, gpu?.length ?? 0);
  for (let i = 0; i < n; i++) if (gpu && cpu[i] !== gpu[i]) differ++;
  const rows: HTMLElement[] = [];
  for (let i = 0; i < Math.min(n, SHOWN_WORDS); i++) {
    const a = cpu[i];
    const b = gpu?.[i];
    const cells = [h('td', {}, String(i)), h('td', {}, a === undefined ? '—' : hex8(a))];
    if (gpu) cells.push(h('td', {}, b === undefined ? '—' : hex8(b)));
    rows.push(h('tr', gpu && a !== b ? { class: 'diff' } : {}, ...cells));
  }
  const heads = ['Word', 'Executor', ...(gpu ? ['WebGPU'] : [])];
  const more = n > SHOWN_WORDS ? `, the first ${SHOWN_WORDS} shown` : '';
  const caption = `${name}: ${n} words${more}${gpu ? `, ${differ} differ` : ''}`;
  const table = h(
    'table',
    { class: 'grid run', 'data-output': name },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...heads.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, ...rows),
  );
  return { table, differ };
}

/** The seed box's value, or undefined when it is not a 32-bit seed. */
function seedOf(p: Pane): number | undefined {
  const seed = Number(byId<HTMLInputElement>(paneId(p, 'seed')).value);
  return Number.isSafeInteger(seed) && seed >= 0 && seed <= 0xffffffff ? seed : undefined;
}

/** Each pane's form of editable inputs for the open file (rebuilt when another file opens). */
const forms = new Map<Pane, InputsForm>();

function renderInputs(p: Pane, f: Loaded): void {
  const host = byId(paneId(p, 'run-inputs-host'));
  forms.delete(p);
  host.replaceChildren();
  if (f.kind !== 'container') return;
  try {
    const program = liftContainer(f.container);
    if (program.stage !== 'compute' && program.stage !== 'pixel') return;
    const form = inputsForm(program, f.container, p.prefix, seedOf(p) ?? 1);
    forms.set(p, form);
    host.append(form.element);
  } catch (e) {
    // the run says why (a refused lift) when it is asked for
    if (!(e instanceof IridiaError)) throw e;
  }
}

async function runView(p: Pane): Promise<void> {
  const f = loaded;
  if (f?.kind !== 'container') return;
  const status = byId(paneId(p, 'run-status'));
  const out = byId(paneId(p, 'run-output'));
  out.replaceChildren();
  const seed = seedOf(p);
  if (seed === undefined) {
    status.textContent = 'the seed is an integer from 0 to 4294967295';
    return;
  }
  const at = generation;
  const form = forms.get(p);
  const read = form ? await form.read(seed) : { inputs: { seed }, edited: [] };
  if (at !== generation) return;
  if ('error' in read) {
    status.textContent = `not run: ${read.error}`;
    return;
  }
  const { inputs, edited } = read;
  status.textContent = 'running on the executor…';
  let cpu: RunOutputs;
  let program;
  let shapes;
  try {
    program = liftContainer(f.container);
    cpu = executorRun(program, inputs);
    shapes = imageShapes(program, inputs);
  } catch (e) {
    status.textContent = '';
    out.append(errorElement(e));
    return;
  }
  status.textContent = 'running on WebGPU…';
  const nav = navigator as Navigator & { gpu?: GPU };
  const gpu = await webgpuRun(program, inputs, nav.gpu);
  if (at !== generation) return; // another file was opened meanwhile
  const gpuOutputs = 'outputs' in gpu ? gpu.outputs : undefined;
  let differ = 0;
  for (const [name, words] of Object.entries(cpu)) {
    const t = runTable(name, words, gpuOutputs?.[name]);
    differ += t.differ;
    // A colour target or a 2D storage texture is also shown as an image, the executor's beside WebGPU's.
    const gpuWords = gpuOutputs?.[name];
    const shape = shapes[name];
    const images = shape
      ? [outputImage(shape, name, words, 'executor'), gpuWords && outputImage(shape, name, gpuWords, 'WebGPU')]
      : [];
    const shown = images.filter((x): x is HTMLElement => x !== undefined);
    if (shown.length) out.append(h('div', { class: 'run-images', 'data-output': name }, ...shown));
    out.append(t.table);
  }
  const what = `seed ${seed}${edited.length ? ` with ${edited.join(', ')} edited` : ''}, ${program.stage} program, ${Object.keys(cpu).length} outputs`;
  status.textContent =
    'why' in gpu ? `${what} on the executor; ${gpu.why}` : `${what} on the executor and WebGPU: ${differ} words differ`;
  status.dataset['differ'] = 'why' in gpu ? '' : String(differ);
}

// ---------------------------------------------------------------------------------------------
// Copy and download the pane's view.

function viewContent(p: Pane): { text: string; bytes?: Uint8Array; name: string } | undefined {
  const f = loaded;
  if (!f) return undefined;
  const base = f.name.replace(/\.[^.]*$/, '');
  if (p.view === 'container') {
    if (f.kind === 'container' && selectedPart !== undefined) {
      const part = f.container.parts[selectedPart]!;
      return {
        text: byId(paneId(p, 'hex-output')).textContent ?? '',
        bytes: part.data,
        name: `${base}.${printableKind(part.kind).trim()}.bin`,
      };
    }
    return { text: byId(paneId(p, 'header')).innerText, bytes: f.bytes, name: f.name };
  }
  if (p.view === 'reflect')
    return { text: byId(paneId(p, 'reflect-output')).textContent ?? '', name: `${base}.reflect.json` };
  if (p.view === 'run') {
    const text = Array.from(byId(paneId(p, 'run-output')).querySelectorAll('table'), (t) => t.innerText).join('\n\n');
    return { text, name: `${base}.run.txt` };
  }
  const c = compute(p.view, f);
  if ('error' in c) return undefined;
  const ext = { disasm: 'asm', wgsl: 'wgsl', hlsl: 'hlsl', dxil: 'll', source: 'hlsl' }[p.view];
  return { text: c.text, name: `${base}.${ext}` };
}

function say(text: string): void {
  $('#status').textContent = text;
}

async function copyView(p: Pane): Promise<void> {
  const v = viewContent(p);
  if (!v) return;
  try {
    await navigator.clipboard.writeText(v.text);
    say(`copied ${v.text.length} characters from pane ${p.index + 1}`);
  } catch {
    say('the browser refused the clipboard (select the text and copy it instead)');
  }
}

function downloadView(p: Pane): void {
  const v = viewContent(p);
  if (!v) return;
  const blob = new Blob([v.bytes ? new Uint8Array(v.bytes) : v.text], {
    type: v.bytes ? 'application/octet-stream' : 'text/plain',
  });
  const a = h('a', { href: URL.createObjectURL(blob), download: v.name }) as HTMLAnchorElement;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---------------------------------------------------------------------------------------------
// Wiring.

function wirePane(p: Pane): void {
  const root = p.root;
  const tabs = root.querySelector<HTMLElement>('[role=tablist]')!;
  tabs.addEventListener('click', (e) => {
    const tab = (e.target as HTMLElement).closest<HTMLButtonElement>('[role=tab]');
    if (tab) select(p, tab.id.slice(paneId(p, 'tab-').length) as ViewId);
  });
  // The arrow keys, Home and End (WAI-ARIA tabs pattern, automatic activation).
  tabs.addEventListener('keydown', (e) => {
    const list = visibleTabs(p);
    const at = list.findIndex((t) => t.getAttribute('aria-selected') === 'true');
    const next: Readonly<Record<string, number>> = {
      ArrowRight: (at + 1) % list.length,
      ArrowLeft: (at - 1 + list.length) % list.length,
      Home: 0,
      End: list.length - 1,
    };
    const to = list[next[e.key] ?? -1];
    if (!to) return;
    e.preventDefault();
    select(p, to.id.slice(paneId(p, 'tab-').length) as ViewId, true);
  });
  root.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const part = target.closest<HTMLElement>('[data-part]');
    if (part) return showPart(p, Number(part.dataset['part']));
    const ln = target.closest<HTMLElement>('#panes pre[data-view=disasm] .ln, #panes pre[data-view=dxil] .ln');
    if (ln) selectLine(Number(ln.dataset['line']));
    const wgslLine = target.closest<HTMLElement>('#panes pre[data-view=wgsl] .ln');
    if (wgslLine) selectWgslLine(Number(wgslLine.dataset['line']));
    const hlslLine = target.closest<HTMLElement>('#panes pre[data-view=hlsl] .ln');
    if (hlslLine) selectWgslLine(Number(hlslLine.dataset['line']), 'hlsl');
    const sourceLine = target.closest<HTMLElement>('#panes pre[data-view=source] .ln');
    if (sourceLine) selectSourceLine(Number(sourceLine.dataset['line']));
  });
  // In a listing: ↑/↓ select the previous or next instruction.
  root.addEventListener('keydown', (e) => {
    const pre = (e.target as HTMLElement).closest<HTMLElement>('pre[data-view=disasm], pre[data-view=dxil]');
    if (!pre || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    const L = loaded && linksOf(loaded);
    if (!L) return;
    const from = selection ? L.lineOffsets.indexOf(selection.offset) : -1;
    const step = e.key === 'ArrowDown' ? 1 : -1;
    for (let i = from + step; i >= 0 && i < L.lineOffsets.length; i += step) {
      if (selectLine(i)) {
        e.preventDefault();
        pre.querySelector('.sel-line')?.scrollIntoView({ block: 'nearest' });
        return;
      }
    }
  });
  const search = root.querySelector<HTMLInputElement>('input[type=search]')!;
  search.addEventListener('input', () => applySearch(p));
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      nextHit(p, e.shiftKey);
    }
  });
  root.querySelector(`[id="${paneId(p, 'run')}"]`)!.addEventListener('click', () => void runView(p));
  root.querySelector(`[id="${paneId(p, 'seed')}"]`)!.addEventListener('input', () => {
    const seed = seedOf(p);
    if (seed !== undefined) forms.get(p)?.reseed(seed);
  });
  root.querySelector(`[id="${paneId(p, 'copy')}"]`)!.addEventListener('click', () => void copyView(p));
  root.querySelector(`[id="${paneId(p, 'download')}"]`)!.addEventListener('click', () => downloadView(p));
  root.addEventListener('change', (e) => {
    const box = e.target as HTMLElement;
    if (box.id !== paneId(p, 'source-file')) return;
    sourceFile = Number((box as HTMLSelectElement).value);
    for (const q of panes) if (q.view === 'source') render(q);
  });
}

/** The default view of pane i for a file: container, then the listing, then the WGSL. */
function defaultView(i: number, f: Loaded): ViewId {
  const order: ViewId[][] = [
    ['container'],
    ['disasm', 'dxil', 'reflect', 'container'],
    ['wgsl', 'hlsl', 'reflect', 'container'],
  ];
  return (order[i] ?? ['container']).find((id) => VIEWS.find((v) => v.id === id)!.applies(f)) ?? 'container';
}

function setPaneCount(n: number): void {
  const host = $('#panes');
  const added: Pane[] = [];
  while (panes.length < n) {
    const p = buildPane(panes.length);
    panes.push(p);
    added.push(p);
  }
  while (panes.length > n) panes.pop()!.root.remove();
  host.replaceChildren();
  panes.forEach((p, i) => {
    if (i > 0) host.append(splitter(i));
    p.root.style.flexGrow = '';
    host.append(p.root);
  });
  host.dataset['panes'] = String(n);
  if (loaded) {
    for (const p of added) {
      applyTabs(p, loaded);
      p.view = defaultView(p.index, loaded);
    }
  }
  for (const p of panes) select(p, p.view);
}

/** A separator between panes: drag it or use ←/→ on it to share the width. */
function splitter(i: number): HTMLElement {
  const bar = h('div', {
    class: 'splitter',
    role: 'separator',
    'aria-orientation': 'vertical',
    'aria-label': `Resize panes ${i} and ${i + 1}`,
    tabindex: '0',
    'aria-valuemin': '10',
    'aria-valuemax': '90',
    'aria-valuenow': '50',
  });
  // The two panes share their flex-grow total (each starts at 1), so the other panes keep their width.
  const grow = (el: HTMLElement): number => Number(el.style.flexGrow || '1');
  const resize = (left: HTMLElement, right: HTMLElement, share: number): void => {
    const total = grow(left) + grow(right);
    const clamped = Math.min(0.9, Math.max(0.1, share));
    left.style.flexGrow = String(clamped * total);
    right.style.flexGrow = String((1 - clamped) * total);
    bar.setAttribute('aria-valuenow', String(Math.round(clamped * 100)));
  };
  bar.addEventListener('pointerdown', (e) => {
    const left = panes[i - 1]!.root;
    const right = panes[i]!.root;
    const start = left.getBoundingClientRect().left;
    const width = left.getBoundingClientRect().width + right.getBoundingClientRect().width;
    bar.setPointerCapture(e.pointerId);
    const move = (m: PointerEvent): void => resize(left, right, (m.clientX - start) / width);
    bar.addEventListener('pointermove', move);
    bar.addEventListener('pointerup', () => bar.removeEventListener('pointermove', move), { once: true });
  });
  bar.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const now = Number(bar.getAttribute('aria-valuenow')) / 100;
    resize(panes[i - 1]!.root, panes[i]!.root, now + (e.key === 'ArrowLeft' ? -0.05 : 0.05));
  });
  return bar;
}

function applyTabs(p: Pane, f: Loaded): void {
  for (const v of VIEWS) byId(paneId(p, `tab-${v.id}`)).hidden = !v.applies(f);
}

function showError(e: unknown): void {
  const box = $('#error');
  box.replaceChildren(errorElement(e));
  box.hidden = false;
}

function readLoaded(name: string, bytes: Uint8Array): Loaded {
  return !hasContainerMagic(bytes) && isD3D9Program(bytes)
    ? { kind: 'd3d9', name, bytes }
    : { kind: 'container', name, bytes, container: parseContainer(bytes) };
}

/** Reads a file's bytes into the page: parses it, resets what was computed, renders the panes. */
function open(name: string, bytes: Uint8Array): void {
  $('#error').hidden = true;
  $('#view').hidden = true;
  loaded = undefined;
  generation++;
  computed.clear();
  debugInfo = undefined;
  dxilSources = undefined;
  links = undefined;
  selection = undefined;
  selectedPart = undefined;
  sourceFile = 0;
  const start = performance.now();
  let f: Loaded;
  try {
    f = readLoaded(name, bytes);
  } catch (e) {
    say(`${name}: ${bytes.byteLength} bytes, not readable`);
    showError(e);
    return;
  }
  loaded = f;
  $('#flags').hidden = !VIEWS[1]!.applies(f);
  $('#view').hidden = false;
  for (const p of panes) {
    applyTabs(p, f);
    const keep = VIEWS.find((v) => v.id === p.view)!.applies(f) && !firstFile;
    // The container panel is cheap and never stale, even behind another tab.
    render(p, 'container');
    select(p, keep ? p.view : defaultView(p.index, f));
  }
  firstFile = false;
  const ms = performance.now() - start;
  document.body.dataset['openMs'] = ms.toFixed(1);
  say(`${name}: ${bytes.byteLength} bytes, read in ${ms.toFixed(1)} ms`);
}
let firstFile = true;

// ---------------------------------------------------------------------------------------------
// Many files: a census table, sortable; a row opens its file.

interface CensusRow {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly cells: readonly (string | number)[];
}
let census: CensusRow[] = [];
const CENSUS_HEADS = ['File', 'Size', 'Program', 'Digest', 'Parts', 'Status'];

function censusRow(name: string, bytes: Uint8Array): CensusRow {
  try {
    const f = readLoaded(name, bytes);
    if (f.kind === 'd3d9') return { name, bytes, cells: [name, bytes.byteLength, 'Direct3D 9', '', 0, 'ok'] };
    const c = f.container;
    const prog = programInfo(c);
    return {
      name,
      bytes,
      cells: [name, bytes.byteLength, prog.target ?? prog.kind, digestState(c), c.parts.length, 'ok'],
    };
  } catch (e) {
    const code = e instanceof IridiaError ? e.code : 'internal';
    return { name, bytes, cells: [name, bytes.byteLength, '', '', 0, code] };
  }
}

/** The census, in the order the files came (sortBy -1) or sorted by a column. */
function renderCensus(sortBy = -1, descending = false): void {
  const rows = [...census];
  if (sortBy >= 0)
    rows.sort((a, b) => {
      const x = a.cells[sortBy]!;
      const y = b.cells[sortBy]!;
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return descending ? -order : order;
    });
  const heads = CENSUS_HEADS.map((name, i) => {
    const sort = i === sortBy ? (descending ? 'descending' : 'ascending') : 'none';
    const button = h('button', { type: 'button', 'data-sort': String(i) }, name);
    return h('th', { scope: 'col', 'aria-sort': sort }, button);
  });
  const body = rows.map((r) =>
    h(
      'tr',
      {},
      ...r.cells.map((c, i) =>
        h(
          'td',
          {},
          i === 0 ? h('button', { type: 'button', class: 'link', 'data-open': r.name }, String(c)) : String(c),
        ),
      ),
    ),
  );
  const table = h(
    'table',
    { class: 'grid', id: 'census-table' },
    h('caption', {}, `${census.length} files (choose a column to sort, a file to open it)`),
    h('thead', {}, h('tr', {}, ...heads)),
    h('tbody', {}, ...body),
  );
  $('#census').replaceChildren(table);
  $('#census').hidden = false;
}

async function openFiles(files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  if (files.length === 1) {
    say(`reading ${files[0]!.name}…`);
    open(files[0]!.name, new Uint8Array(await files[0]!.arrayBuffer()));
    return;
  }
  say(`reading ${files.length} files…`);
  census = [];
  for (const file of files) census.push(censusRow(file.name, new Uint8Array(await file.arrayBuffer())));
  renderCensus();
  say(`${files.length} files read: choose one in the census`);
}

/** The bundled examples (copied into dist/examples by scripts/build-web.mjs). */
const EXAMPLE = 'vertex-color';

async function openExample(name: string): Promise<void> {
  if (!/^[\w-]+$/.test(name)) {
    say(`no example is called ${name}`);
    return;
  }
  say(`fetching the example ${name}…`);
  const res = await fetch(`dist/examples/${name}.dxbc`);
  if (!res.ok) {
    say(`no example is called ${name} (${res.status})`);
    return;
  }
  open(`${name}.dxbc`, new Uint8Array(await res.arrayBuffer()));
}

function setTheme(theme: 'light' | 'dark'): void {
  document.documentElement.dataset['theme'] = theme;
  const button = $('#theme');
  button.setAttribute('aria-pressed', String(theme === 'dark'));
  button.textContent = theme === 'dark' ? 'Light theme' : 'Dark theme';
  try {
    localStorage.setItem('iridia-theme', theme);
  } catch {
    // Storage can be refused (private windows); the theme then lasts for the page.
  }
}

function wire(): void {
  const input = $<HTMLInputElement>('#file');
  input.addEventListener('change', () => void openFiles(Array.from(input.files ?? [])));
  // Drop anywhere on the page; the drop zone lights up while a file is over the page.
  const zone = $('#drop');
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  document.addEventListener('dragleave', (e) => {
    if (e.relatedTarget === null) zone.classList.remove('over');
  });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    void openFiles(Array.from(e.dataTransfer?.files ?? []));
  });
  $('#example').addEventListener('click', () => void openExample(EXAMPLE));
  $('#census').addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const sort = target.closest<HTMLElement>('[data-sort]');
    if (sort) {
      const i = Number(sort.dataset['sort']);
      const th = sort.closest('th')!;
      renderCensus(i, th.getAttribute('aria-sort') === 'ascending');
      return;
    }
    const row = target.closest<HTMLElement>('[data-open]');
    const hit = row && census.find((r) => r.name === row.dataset['open']);
    if (hit) open(hit.name, hit.bytes);
  });
  // The flag word changes the listing: re-render the panes that show it.
  $('#flags').addEventListener('change', () => {
    $('#flags-value').textContent = hex(disasmFlags());
    selection = undefined;
    for (const p of panes) if (p.view === 'disasm') render(p);
    applySelection();
  });
  $('#pane-count').addEventListener('change', (e) => setPaneCount(Number((e.target as HTMLSelectElement).value)));
  $('#search-all').addEventListener('input', searchAll);
  $('#theme').addEventListener('click', () =>
    setTheme(document.documentElement.dataset['theme'] === 'dark' ? 'light' : 'dark'),
  );
  let stored: string | null;
  try {
    stored = localStorage.getItem('iridia-theme');
  } catch {
    stored = null;
  }
  setTheme(
    stored === 'dark' || stored === 'light'
      ? stored
      : matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light',
  );
  // '/' focuses the search of the pane that holds the focus (or the search across panes).
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || (e.target as HTMLElement).closest('input, select, textarea')) return;
    e.preventDefault();
    const pane = (e.target as HTMLElement).closest<HTMLElement>('.pane');
    (pane ? pane.querySelector<HTMLInputElement>('input[type=search]')! : $<HTMLInputElement>('#search-all')).focus();
  });
  const count = window.innerWidth >= 1000 ? 2 : 1;
  $<HTMLSelectElement>('#pane-count').value = String(count);
  setPaneCount(count);
  const example = new URLSearchParams(location.search).get('example');
  if (example !== null) void openExample(example);
}

wire();
