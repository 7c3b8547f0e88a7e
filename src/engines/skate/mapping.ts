// The register mapping of skate.'s census (../shared/spec/skate-bindings.md, "Register mapping and
// exceptions"): each space-0 declaration of a program gets its candidate source from the two binding
// sets and the pass binding beside it, and the agreement the spec's table counts is measured: a
// constant buffer's declared size (rounded up to sixteen bytes) against its group's buffer size, a
// resource's register (less the band's base) against its group's entry indexes. The rule assigns
// nothing to b2, b3, the other b registers, samplers or UAVs: those are listed as without source.

import type { BindingGroup, BindingSet, PassBinding } from './binding-set.js';
import { CONSTANT_MARKER } from './binding-set.js';
import type { Declaration } from './program.js';

export type SourceName = 'set 0' | 'set 1' | 'pass binding';

export interface Source {
  readonly structure: SourceName;
  readonly group: number;
  /** Resources: the first entry index the declaration needs (register less the band's base). */
  readonly index?: number;
}

export type MapStatus =
  'size matches' | 'size differs' | 'entries found' | 'entries missing' | 'source absent' | 'no source' | 'not space 0';

export interface MappedDeclaration {
  readonly declaration: Declaration;
  /** The rule's candidate, or null where the rule assigns none. */
  readonly source: Source | null;
  readonly status: MapStatus;
  /** Constant buffers: the declared size rounded up to 16 and the group's buffer size. */
  readonly declaredSize?: number;
  readonly groupSize?: number;
  /** Resources: the entry indexes looked for and those not found. */
  readonly missingIndexes?: readonly number[];
}

/** The candidate source of a space-0 declaration by the spec's rule, or null. */
export function candidateSource(d: Declaration): Source | null {
  if (d.registerClass === 'b') {
    if (d.register === 0) return { structure: 'set 1', group: 0 };
    if (d.register === 1) return { structure: 'set 0', group: 0 };
    if (d.register === 4) return { structure: 'pass binding', group: 0 };
    return null;
  }
  if (d.registerClass === 't') {
    if (d.register < 32) return { structure: 'set 1', group: 1, index: d.register };
    if (d.register < 64) return { structure: 'set 0', group: 1, index: d.register - 32 };
    return { structure: 'pass binding', group: 1, index: d.register - 64 };
  }
  return null;
}

export interface MapSources {
  readonly sets: readonly [BindingSet | undefined, BindingSet | undefined];
  readonly pass: PassBinding | undefined;
}

function groupOf(src: Source, s: MapSources): BindingGroup | undefined {
  const owner = src.structure === 'set 0' ? s.sets[0] : src.structure === 'set 1' ? s.sets[1] : s.pass;
  return owner?.groups[src.group];
}

const round16 = (n: number): number => Math.ceil(n / 16) * 16;

export function mapDeclaration(d: Declaration, s: MapSources): MappedDeclaration {
  if (d.space !== 0) return { declaration: d, source: null, status: 'not space 0' };
  const source = candidateSource(d);
  if (source === null) return { declaration: d, source, status: 'no source' };
  const group = groupOf(source, s);
  if (group === undefined) return { declaration: d, source, status: 'source absent' };
  if (d.registerClass === 'b') {
    const declaredSize = round16(d.bufferSize ?? 0);
    const groupSize = group.bufferSizeOrResourceCount;
    return {
      declaration: d,
      source,
      status: declaredSize === groupSize ? 'size matches' : 'size differs',
      declaredSize,
      groupSize,
    };
  }
  // A resource entry is any entry that is not a constant-buffer one (marker 0xffff); the other
  // markers' meanings are unresolved. A bounded range needs an entry for each of its registers; an
  // unbounded one for its first.
  const have = new Set(group.entries.filter((e) => e.marker !== CONSTANT_MARKER).map((e) => e.offsetOrIndex));
  const first = source.index ?? 0;
  const n = d.count === null ? 1 : Math.max(1, Math.min(d.count, 1 << 16));
  const missingIndexes: number[] = [];
  for (let i = 0; i < n; i++) if (!have.has(first + i)) missingIndexes.push(first + i);
  return {
    declaration: d,
    source,
    status: missingIndexes.length === 0 ? 'entries found' : 'entries missing',
    missingIndexes,
  };
}

export interface MapCounts {
  /** b0, b1, b4: declarations and those whose size matches their group's. */
  readonly b0: { declarations: number; matching: number };
  readonly b1: { declarations: number; matching: number };
  readonly b4: { declarations: number; matching: number };
  /** Every t declaration of space 0 (the three bands combined, as the spec reports them). */
  readonly resources: { declarations: number; withEntries: number };
  /** Space-0 declarations the rule gives no source, by register (b2, b3, ...) or class (s, u). */
  readonly unassigned: Record<string, number>;
  /** Declarations whose candidate group is not in the structures given. */
  sourceAbsent: number;
  /** Declarations outside space 0 (not part of the census). */
  otherSpaces: number;
}

export function emptyCounts(): MapCounts {
  return {
    b0: { declarations: 0, matching: 0 },
    b1: { declarations: 0, matching: 0 },
    b4: { declarations: 0, matching: 0 },
    resources: { declarations: 0, withEntries: 0 },
    unassigned: {},
    sourceAbsent: 0,
    otherSpaces: 0,
  };
}

/** Adds mapped declarations to the counts (in place) and returns them. */
export function countMapped(counts: MapCounts, mapped: readonly MappedDeclaration[]): MapCounts {
  for (const m of mapped) {
    const d = m.declaration;
    if (m.status === 'not space 0') {
      counts.otherSpaces++;
      continue;
    }
    if (m.status === 'no source') {
      const key = d.registerClass === 'b' ? `b${d.register}` : d.registerClass;
      counts.unassigned[key] = (counts.unassigned[key] ?? 0) + 1;
      continue;
    }
    if (m.status === 'source absent') counts.sourceAbsent++;
    if (d.registerClass === 'b') {
      const c = d.register === 0 ? counts.b0 : d.register === 1 ? counts.b1 : counts.b4;
      c.declarations++;
      if (m.status === 'size matches') c.matching++;
    } else {
      counts.resources.declarations++;
      if (m.status === 'entries found') counts.resources.withEntries++;
    }
  }
  return counts;
}

export function mapProgram(
  declarations: readonly Declaration[],
  s: MapSources,
): { declarations: MappedDeclaration[]; counts: MapCounts } {
  const mapped = declarations.map((d) => mapDeclaration(d, s));
  return { declarations: mapped, counts: countMapped(emptyCounts(), mapped) };
}
