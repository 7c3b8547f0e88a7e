// iridia's web inspector: opens a DirectX container (or a bare Direct3D 9 program) picked or dropped
// into the page and shows what iridia's core reads from it: the header, digest state, part table and
// findings (containers.md, "Container"), D3DDisassemble's listing under a flag word, D3DReflect's
// JSON, and the WGSL and DXIL views when the core exports them. Bad input shows the typed
// IridiaError (code, offset, part). Display only: every format fact comes from src/.

import * as iridia from '../src/index.js';
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
  type Container,
} from '../src/index.js';
import { d3dReflectAnyJson } from '../src/reflect/dxil.js';

/** What the page holds: a parsed container, or a bare Direct3D 9 program (no container). */
type Loaded =
  | { readonly kind: 'container'; readonly name: string; readonly bytes: Uint8Array; readonly container: Container }
  | { readonly kind: 'd3d9'; readonly name: string; readonly bytes: Uint8Array };

type ViewId = 'container' | 'disasm' | 'reflect' | 'wgsl' | 'dxil';

/**
 * Exports other layers are still adding (the lifter, the WGSL writer, the DXIL disassembler). They
 * are looked up by name so that the page builds before they land and shows their tab once they do.
 */
function optionalExport<T>(name: string): T | undefined {
  const value = (iridia as unknown as Readonly<Record<string, unknown>>)[name];
  return typeof value === 'function' ? (value as T) : undefined;
}
const lift = optionalExport<(bytes: Uint8Array) => unknown>('lift');
const emitWgsl = optionalExport<(program: unknown) => string>('emitWgsl');
const disassembleDxil = optionalExport<(container: Container) => string>('disassembleDxil');

const $ = <T extends HTMLElement>(selector: string): T => {
  const el = document.querySelector<T>(selector);
  if (el === null) throw new Error(`the page lacks ${selector}`);
  return el;
};

const hasPart = (f: Loaded, ...kinds: string[]): boolean =>
  f.kind === 'container' && f.container.parts.some((p) => kinds.includes(p.kind));
const hasProgram = (f: Loaded): boolean => f.kind === 'd3d9' || hasPart(f, 'SHEX', 'SHDR');
const hex = (n: number): string => `0x${n.toString(16)}`;
const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** The flag word the checkboxes spell. */
function disasmFlags(): number {
  let flags = 0;
  for (const box of document.querySelectorAll<HTMLInputElement>('#flags input[type=checkbox]'))
    if (box.checked) flags |= Number(box.value);
  return flags;
}

interface TextView {
  readonly id: Exclude<ViewId, 'container'>;
  readonly applies: (f: Loaded) => boolean;
  readonly text: (f: Loaded) => string;
}

/** The text views, one row each: when the tab shows and what its <pre> holds. */
const TEXT_VIEWS: readonly TextView[] = [
  {
    id: 'disasm',
    applies: hasProgram,
    text: (f) =>
      f.kind === 'd3d9' ? disassembleD3D9(f.bytes, disasmFlags()) : disassemble(f.container, disasmFlags()),
  },
  {
    id: 'reflect',
    applies: (f) => hasPart(f, 'SHEX', 'SHDR', 'DXIL', 'ILDB'),
    text: (f) => (f.kind === 'container' ? `${JSON.stringify(d3dReflectAnyJson(f.container), null, 2)}\n` : ''),
  },
  {
    id: 'wgsl',
    applies: (f) => lift !== undefined && emitWgsl !== undefined && hasPart(f, 'SHEX', 'SHDR'),
    text: (f) => (lift && emitWgsl ? emitWgsl(lift(f.bytes)) : ''),
  },
  {
    id: 'dxil',
    applies: (f) => disassembleDxil !== undefined && hasPart(f, 'DXIL', 'ILDB'),
    text: (f) => (disassembleDxil && f.kind === 'container' ? disassembleDxil(f.container) : ''),
  },
];

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

let loaded: Loaded | undefined;
const rendered = new Set<ViewId>();

function tabOf(id: ViewId): HTMLButtonElement {
  return $<HTMLButtonElement>(`#tab-${id}`);
}
function visibleTabs(): HTMLButtonElement[] {
  return Array.from(document.querySelectorAll<HTMLButtonElement>('#tabs [role=tab]')).filter((t) => !t.hidden);
}

function renderText(view: TextView, f: Loaded): void {
  const panel = $(`#panel-${view.id}`);
  const failure = panel.querySelector<HTMLElement>('.failure')!;
  const out = panel.querySelector<HTMLElement>('pre')!;
  failure.replaceChildren();
  failure.hidden = true;
  try {
    out.textContent = view.text(f);
  } catch (e) {
    out.textContent = '';
    failure.append(errorElement(e));
    failure.hidden = false;
  }
}

/** Shows a tab; text views are computed the first time they show for a file. */
function select(id: ViewId, focus = false): void {
  for (const tab of document.querySelectorAll<HTMLButtonElement>('#tabs [role=tab]')) {
    const on = tab.id === `tab-${id}`;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(`#${tab.getAttribute('aria-controls') ?? ''}`).hidden = !on;
  }
  if (focus) tabOf(id).focus();
  const view = TEXT_VIEWS.find((v) => v.id === id);
  if (view && loaded && !rendered.has(id)) {
    renderText(view, loaded);
    rendered.add(id);
  }
}

function selectedView(): ViewId {
  const tab = document.querySelector('#tabs [aria-selected=true]');
  return (tab?.id.slice('tab-'.length) as ViewId | undefined) ?? 'container';
}

function row(cells: readonly string[]): HTMLTableRowElement {
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement('td');
    td.textContent = c;
    tr.append(td);
  }
  return tr;
}

function renderContainerPanel(f: Loaded): void {
  const entries: [string, string | HTMLElement][] = [
    ['File', f.name],
    ['Size', `${f.bytes.byteLength} bytes`],
  ];
  const parts = $('#parts tbody');
  const findings = $('#findings');
  parts.replaceChildren();
  findings.replaceChildren();
  if (f.kind === 'container') {
    const c = f.container;
    const state = digestState(c);
    const badge = document.createElement('span');
    badge.className = `badge ${state}`;
    badge.textContent = state;
    const digest = document.createElement('span');
    digest.append(`${hexBytes(c.digest)} `, badge);
    const prog = programInfo(c);
    entries.push(
      ['Stored size', `${c.totalSize} bytes`],
      ['Version', String(c.version)],
      ['Digest', digest],
      ['Program', `${prog.target ?? prog.kind}${prog.dxilVersion ? ` (DXIL ${prog.dxilVersion})` : ''}`],
      ['Parts', String(c.parts.length)],
    );
    c.parts.forEach((p, i) =>
      parts.append(row([String(i), printableKind(p.kind), hex(p.offset), String(p.data.byteLength)])),
    );
    for (const finding of c.findings) {
      const li = document.createElement('li');
      li.textContent = `${finding.kind} at ${hex(finding.offset)}: ${finding.message}`;
      findings.append(li);
    }
    if (c.findings.length === 0) {
      const li = document.createElement('li');
      li.className = 'none';
      li.textContent = 'none: laid out as fxc and dxc write containers';
      findings.append(li);
    }
  } else {
    // A bare program has no container: its version token says what it is (vs/ps, major, minor).
    const stage = (f.bytes[2]! | (f.bytes[3]! << 8)) === 0xfffe ? 'vs' : 'ps';
    entries.push(['Program', `${stage}_${f.bytes[1]}_${f.bytes[0]} (a Direct3D 9 program, not a container)`]);
  }
  $('#parts').hidden = f.kind !== 'container';
  findings.hidden = f.kind !== 'container';
  $('#panel-container h3').hidden = f.kind !== 'container';
  const dl = $('#header');
  dl.replaceChildren();
  for (const [term, value] of entries) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.append(value);
    dl.append(dt, dd);
  }
}

function showError(e: unknown): void {
  const box = $('#error');
  box.replaceChildren(errorElement(e));
  box.hidden = false;
}

/** Reads a file's bytes into the page: parses, fills the container panel, resets the text views. */
function open(name: string, bytes: Uint8Array): void {
  $('#error').hidden = true;
  $('#view').hidden = true;
  loaded = undefined;
  rendered.clear();
  const start = performance.now();
  let f: Loaded;
  try {
    f =
      !hasContainerMagic(bytes) && isD3D9Program(bytes)
        ? { kind: 'd3d9', name, bytes }
        : { kind: 'container', name, bytes, container: parseContainer(bytes) };
  } catch (e) {
    $('#status').textContent = `${name}: ${bytes.byteLength} bytes, not readable`;
    showError(e);
    return;
  }
  loaded = f;
  renderContainerPanel(f);
  for (const view of TEXT_VIEWS) tabOf(view.id).hidden = !view.applies(f);
  $('#view').hidden = false;
  const current = selectedView();
  select(tabOf(current).hidden ? 'container' : current);
  $('#status').textContent = `${name}: ${bytes.byteLength} bytes, read in ${(performance.now() - start).toFixed(1)} ms`;
}

async function openFile(file: File): Promise<void> {
  $('#status').textContent = `reading ${file.name}…`;
  open(file.name, new Uint8Array(await file.arrayBuffer()));
}

function wire(): void {
  const input = $<HTMLInputElement>('#file');
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void openFile(file);
  });
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
    const file = e.dataTransfer?.files[0];
    if (file) void openFile(file);
  });
  // Tabs: click, or the arrow keys, Home and End (WAI-ARIA tabs pattern, automatic activation).
  const tabs = $('#tabs');
  tabs.addEventListener('click', (e) => {
    const tab = (e.target as HTMLElement).closest<HTMLButtonElement>('[role=tab]');
    if (tab) select(tab.id.slice('tab-'.length) as ViewId);
  });
  tabs.addEventListener('keydown', (e) => {
    const list = visibleTabs();
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
    select(to.id.slice('tab-'.length) as ViewId, true);
  });
  // The flag word changes the listing: recompute it now.
  $('#flags').addEventListener('change', () => {
    const flags = disasmFlags();
    $('#flags-value').textContent = hex(flags);
    const view = TEXT_VIEWS.find((v) => v.id === 'disasm')!;
    if (loaded && view.applies(loaded)) {
      renderText(view, loaded);
      rendered.add('disasm');
    }
  });
  select('container');
}

wire();
