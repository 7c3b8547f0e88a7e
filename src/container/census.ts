// Census of many containers (containers.md, first page: the counts by game, the table of part sets
// in file order, the header invariants): counts by container kind, program kind and version, part
// sets, findings, digest states and refusals by error code. No Node API: the CLI reads the files and
// hands each one's bytes to Census.add.
//
// Extension point: a census is a list of CensusSection objects, each fed every parsed container and
// asked for its JSON and text at the end. A later layer adds its own section (a DXIL reader counting
// dx.op calls, the SM4 decoder counting opcodes under `census --decode`) by implementing
// CensusSection and listing its factory in src/cli/commands/census.ts's SECTION_FACTORIES; the
// container layer never imports the layers above it.

import { IridiaError } from '../errors.js';
import { digestState, parseContainer, printableKind, type Container, type DigestState } from './container.js';
import { programInfo, type ProgramInfo } from './program.js';

/** One section of a census: fed every container, printed at the end. */
export interface CensusSection {
  /** Key of the section in the census JSON (camelCase). */
  readonly name: string;
  /** Heading of the section in the text report. */
  readonly title: string;
  /** Called once per container that parsed. `program` is programInfo(container), computed once. */
  add(container: Container, path: string, program: ProgramInfo): void;
  /** Called once per input refused with a typed error (optional). */
  addError?(error: IridiaError, path: string): void;
  toJSON(): unknown;
  /** The section's lines, without its heading. */
  toText(): string[];
}

/** Options a section factory may use (the CLI's flags). */
export interface CensusOptions {
  /** `census --decode`: sections that decode programs (opcode counts) take part. */
  readonly decode?: boolean;
}

/** Makes a section for a run, or undefined when the options leave it out. */
export type CensusSectionFactory = (options: CensusOptions) => CensusSection | undefined;

/** A counter keyed by string, printed largest first (ties by key) or in key order. */
export class Tally {
  private readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  get size(): number {
    return this.counts.size;
  }
  /** Entries, largest count first, ties in key order. */
  entries(): [string, number][] {
    return [...this.counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  }
  toJSON(): Record<string, number> {
    return Object.fromEntries(this.entries());
  }
  /** Two-column lines: the count right-aligned, then the key. */
  toText(empty = '(none)'): string[] {
    const rows = this.entries();
    if (rows.length === 0) return [`  ${empty}`];
    const width = Math.max(...rows.map(([, n]) => String(n).length));
    return rows.map(([k, n]) => `  ${String(n).padStart(width)}  ${k}`);
  }
}

/** Container kind (dxbc, dxil, effect, root-signature, other). */
export function kindSection(): CensusSection {
  const t = new Tally();
  return {
    name: 'kinds',
    title: 'Container kinds',
    add: (_c, _p, prog) => t.add(prog.kind),
    toJSON: () => t.toJSON(),
    toText: () => t.toText(),
  };
}

/** Program kind and version: the stage, the target (from the version token or DXIL program header), DXIL versions. */
export function programSection(): CensusSection {
  const stages = new Tally();
  const targets = new Tally();
  const dxil = new Tally();
  return {
    name: 'programs',
    title: 'Programs (stage; target from the version token or DXIL program header; DXIL version)',
    add(_c, _p, prog) {
      stages.add(prog.stage ?? `(no program: ${prog.kind})`);
      targets.add(prog.target ?? `(no program: ${prog.kind})`);
      if (prog.dxilVersion !== undefined) dxil.add(prog.dxilVersion);
    },
    toJSON: () => ({ stages: stages.toJSON(), targets: targets.toJSON(), dxilVersions: dxil.toJSON() }),
    toText: () => [
      ' stages',
      ...stages.toText().map((l) => `  ${l}`),
      ' targets',
      ...targets.toText().map((l) => `  ${l}`),
      ' DXIL versions',
      ...dxil.toText().map((l) => `  ${l}`),
    ],
  };
}

/** The part sets in file order (the table on containers.md's first page). */
export function partSetSection(): CensusSection {
  const t = new Tally();
  return {
    name: 'partSets',
    title: 'Part sets (in file order)',
    add(c) {
      const inFileOrder = [...c.parts].sort((x, y) => x.offset - y.offset);
      t.add(inFileOrder.map((p) => printableKind(p.kind)).join(' ') || '(no part)');
    },
    toJSON: () => t.entries().map(([parts, containers]) => ({ parts, containers })),
    toText: () => t.toText(),
  };
}

/** Findings (deviations from what fxc/dxc always write), counted by kind, and containers with any. */
export function findingSection(): CensusSection {
  const t = new Tally();
  let containers = 0;
  return {
    name: 'findings',
    title: 'Findings (deviations from what fxc/dxc write)',
    add(c) {
      if (c.findings.length > 0) containers++;
      for (const f of c.findings) t.add(f.kind);
    },
    toJSON: () => ({ containers, byKind: t.toJSON() }),
    toText: () => [`  containers with a finding: ${containers}`, ...t.toText('(no finding)')],
  };
}

/** Digest states: valid, unsigned (zero), stale. */
export function digestSection(): CensusSection {
  const counts: Record<DigestState, number> = { valid: 0, unsigned: 0, stale: 0 };
  return {
    name: 'digests',
    title: 'Digests',
    add: (c) => void counts[digestState(c)]++,
    toJSON: () => ({ ...counts }),
    toText: () => (Object.keys(counts) as DigestState[]).map((k) => `  ${String(counts[k]).padStart(8)}  ${k}`),
  };
}

/** Inputs refused, by error code. */
export function errorSection(): CensusSection {
  const t = new Tally();
  return {
    name: 'errors',
    title: 'Refused, by error code',
    add: () => undefined,
    addError: (e) => t.add(e.code),
    toJSON: () => t.toJSON(),
    toText: () => t.toText(),
  };
}

/** The sections every census has, in report order. */
export const BUILTIN_SECTIONS: readonly CensusSectionFactory[] = [
  kindSection,
  programSection,
  partSetSection,
  findingSection,
  digestSection,
  errorSection,
];

/** Totals and sections of a census run. */
export class Census {
  readonly sections: readonly CensusSection[];
  containers = 0;
  refused = 0;
  bytes = 0;

  constructor(factories: readonly CensusSectionFactory[] = BUILTIN_SECTIONS, options: CensusOptions = {}) {
    const sections: CensusSection[] = [];
    for (const f of factories) {
      const s = f(options);
      if (s !== undefined) sections.push(s);
    }
    this.sections = sections;
  }

  /**
   * Parses one container's bytes and feeds every section. Returns the typed error when the input is
   * refused (it is counted, not thrown); anything else thrown is a bug and propagates.
   */
  add(bytes: Uint8Array, path: string): IridiaError | undefined {
    let c: Container;
    try {
      c = parseContainer(bytes);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      this.refused++;
      for (const s of this.sections) s.addError?.(e, path);
      return e;
    }
    this.containers++;
    this.bytes += bytes.byteLength;
    const prog = programInfo(c);
    for (const s of this.sections) s.add(c, path, prog);
    return undefined;
  }

  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { containers: this.containers, refused: this.refused, bytes: this.bytes };
    for (const s of this.sections) out[s.name] = s.toJSON();
    return out;
  }

  toText(): string {
    const lines = [`${this.containers} containers (${this.bytes} bytes), ${this.refused} refused`];
    for (const s of this.sections) lines.push('', `${s.title}:`, ...s.toText());
    return `${lines.join('\n')}\n`;
  }
}
