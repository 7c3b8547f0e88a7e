// A campaign in parts that add up: each target's mutant range [0, total) split into parts (`--part K/N`
// or `--from A --count B`), each part run anywhere (another run, session or machine) and written as
// DIR/parts/TARGET.FROM-TO.json with what makes it a part of one campaign (the campaign seed, the
// seed set's digest, the target's whole range) and what it found. `merge` checks that the parts of
// each target cover its range exactly once, on the same seeds and seed, and prints the campaign's
// table. A part already written is skipped when its run is asked again (resume).

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCampaign, type CampaignOptions, type TargetReport, type Worker } from './campaign.js';
import { FAILURES, type Outcome } from './outcome.js';
import { loadSeeds, REPO, seedsFor, type Seed } from './seeds.js';
import { TARGETS, targetNamed } from './targets.js';

/** A part's summary file: the run's report and what ties it to its campaign. */
export interface PartReport extends TargetReport {
  readonly kind: 'iridia-fuzz-part';
  /** The mutants [from, to) of the target's range [0, total). */
  readonly from: number;
  readonly to: number;
  readonly total: number;
  /** Files sampled from each ../shared folder (--shared). */
  readonly shared: number;
  /** sha256 of the target's seeds, in order (their lengths and bytes: what the mutants are made of). */
  readonly seedsDigest: string;
  /** The commit whose code ran the part (`-dirty` when the work tree had changes). */
  readonly commit: string;
}

/** The range of part `k` (1-based) of `n` of [0, total): the parts tile the range, sizes differing by at most 1. */
export function partRange(total: number, k: number, n: number): { from: number; to: number } {
  if (!(Number.isInteger(k) && Number.isInteger(n) && n >= 1 && k >= 1 && k <= n))
    throw new Error(`part ${k}/${n}: K must be 1 to N`);
  return { from: Math.floor((total * (k - 1)) / n), to: Math.floor((total * k) / n) };
}

/** sha256 of the seeds a target mutates, in order: two campaigns with the same digest make the same mutants. */
export function seedsDigest(seeds: readonly Seed[]): string {
  const h = createHash('sha256');
  const len = new Uint8Array(4);
  for (const s of seeds) {
    new DataView(len.buffer).setUint32(0, s.bytes.byteLength, true);
    h.update(len);
    h.update(s.bytes);
  }
  return h.digest('hex');
}

let commitCache: string | undefined;
/** The repository's commit, `-dirty` when tracked files changed; `unknown` outside a git work tree. */
export function currentCommit(): string {
  if (commitCache === undefined) {
    try {
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
      const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
        cwd: REPO,
        encoding: 'utf8',
      }).trim();
      commitCache = dirty ? `${head}-dirty` : head;
    } catch {
      commitCache = 'unknown';
    }
  }
  return commitCache;
}

export function partPath(dir: string, target: string, from: number, to: number): string {
  return join(dir, 'parts', `${target}.${from}-${to}.json`);
}

/** The identity of a part: a written part with another one belongs to another campaign. */
export interface PartKey {
  readonly target: string;
  readonly seed: number;
  readonly shared: number;
  readonly seedsDigest: string;
  readonly from: number;
  readonly to: number;
  readonly total: number;
}

function sameKey(p: PartReport, k: PartKey): string | undefined {
  for (const f of ['target', 'seed', 'shared', 'seedsDigest', 'from', 'to', 'total'] as const)
    if (p[f] !== k[f]) return `${f} ${String(p[f])}, not ${String(k[f])}`;
  return undefined;
}

/** The part already written for this key, if any; an error when the file is another campaign's. */
export function writtenPart(dir: string, k: PartKey): PartReport | undefined {
  const path = partPath(dir, k.target, k.from, k.to);
  if (!existsSync(path)) return undefined;
  const p = readPart(path);
  const differs = sameKey(p, k);
  if (differs) throw new Error(`${path} is a part of another campaign (${differs}); move it away or use another --out`);
  return p;
}

export function writePart(dir: string, k: PartKey, r: TargetReport): PartReport {
  const part: PartReport = {
    kind: 'iridia-fuzz-part',
    ...r,
    ...k,
    commit: currentCommit(),
  };
  const path = partPath(dir, k.target, k.from, k.to);
  mkdirSync(join(dir, 'parts'), { recursive: true });
  // written whole or not at all: a run stopped while writing leaves no part that looks finished
  writeFileSync(`${path}.tmp`, `${JSON.stringify(part, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return part;
}

/** Runs the mutants [from, to) of a target's range [0, total) as a part written under `dir`, or, when
 * that part is already written there (by this campaign), reads it back instead. */
export async function runPart(
  opts: Omit<CampaignOptions, 'from' | 'count' | 'seconds'>,
  dir: string,
  range: { readonly from: number; readonly to: number; readonly total: number },
  workers: Worker[] = [],
): Promise<{ part: PartReport; skipped: boolean }> {
  const target = targetNamed(opts.target);
  if (!target) throw new Error(`no fuzz target ${opts.target}`);
  const key: PartKey = {
    target: target.name,
    seed: opts.seed,
    shared: opts.shared,
    seedsDigest: seedsDigest(seedsFor(target, loadSeeds(opts.shared))),
    ...range,
  };
  const done = writtenPart(dir, key);
  if (done) return { part: done, skipped: true };
  // each part's reproducers in a folder of its own (DIR/parts/FROM-TO/TARGET/KEY.bin): the parts of one
  // target find failures of the same key, and one part's file must not overwrite another's
  const out = opts.out === undefined ? {} : { out: join(dir, 'parts', `${range.from}-${range.to}`) };
  const r = await runCampaign({ ...opts, ...out, from: range.from, count: range.to - range.from }, workers);
  return { part: writePart(dir, key, r), skipped: false };
}

function readPart(path: string): PartReport {
  const p = JSON.parse(readFileSync(path, 'utf8')) as PartReport;
  if (p.kind !== 'iridia-fuzz-part') throw new Error(`${path} is not a fuzz part`);
  return p;
}

/** Every part file under DIR/parts of each directory. */
export function readParts(dirs: readonly string[]): { path: string; part: PartReport }[] {
  const out: { path: string; part: PartReport }[] = [];
  for (const d of dirs) {
    const pd = join(d, 'parts');
    if (!existsSync(pd)) throw new Error(`${d} holds no parts (no ${pd})`);
    for (const f of readdirSync(pd).sort())
      if (f.endsWith('.json')) out.push({ path: join(pd, f), part: readPart(join(pd, f)) });
  }
  return out;
}

/** A target's parts added up: a run's report (without one campaign seed: the merge's) and how many parts. */
export interface MergedTarget extends Omit<TargetReport, 'seed' | 'failures'> {
  readonly total: number;
  readonly parts: number;
  readonly failures: readonly { key: string; count: number; index: number; reproducer?: string }[];
}

export interface Merged {
  readonly seed: number;
  readonly shared: number;
  readonly commits: readonly string[];
  readonly targets: readonly MergedTarget[];
  /** Why the parts are not one campaign (empty when they are). */
  readonly problems: readonly string[];
}

/** Adds the parts up, target by target, checking that they are one campaign: one campaign seed and
 * --shared, and for each target one seed set and one range, covered exactly once. */
export function mergeParts(parts: readonly { path: string; part: PartReport }[]): Merged {
  const problems: string[] = [];
  if (parts.length === 0) problems.push('no parts');
  const first = parts[0]?.part;
  for (const { path, part } of parts) {
    if (part.seed !== first!.seed) problems.push(`${path}: campaign seed ${part.seed}, not ${first!.seed}`);
    if (part.shared !== first!.shared) problems.push(`${path}: --shared ${part.shared}, not ${first!.shared}`);
    if (part.mutants !== part.to - part.from)
      problems.push(`${path}: ${part.mutants} mutants ran of its range ${part.from}-${part.to}`);
  }
  const byTarget = new Map<string, { path: string; part: PartReport }[]>();
  for (const p of parts) byTarget.set(p.part.target, [...(byTarget.get(p.part.target) ?? []), p]);
  const order = (t: string) => {
    const i = TARGETS.findIndex((x) => x.name === t);
    return i < 0 ? TARGETS.length : i;
  };
  const targets: MergedTarget[] = [];
  for (const [target, list] of [...byTarget].sort((a, b) => order(a[0]) - order(b[0]) || (a[0] < b[0] ? -1 : 1))) {
    const sorted = [...list].sort((a, b) => a.part.from - b.part.from || a.part.to - b.part.to);
    const p0 = sorted[0]!.part;
    let at = 0;
    for (const { path, part } of sorted) {
      if (part.seedsDigest !== p0.seedsDigest) problems.push(`${path}: another seed set than ${sorted[0]!.path}`);
      if (part.total !== p0.total) problems.push(`${path}: a range of ${part.total}, not ${p0.total}`);
      if (part.from > at) problems.push(`${target}: mutants ${at}-${part.from} are in no part`);
      else if (part.from < at)
        problems.push(`${target}: mutants ${part.from}-${Math.min(at, part.to)} are in two parts`);
      at = Math.max(at, part.to);
    }
    if (at < p0.total) problems.push(`${target}: mutants ${at}-${p0.total} are in no part`);
    const outcomes = Object.fromEntries(Object.keys(p0.outcomes).map((k) => [k, 0])) as Record<Outcome, number>;
    const codes: Record<string, number> = {};
    const failures = new Map<string, { key: string; count: number; index: number; reproducer?: string }>();
    for (const { part } of sorted) {
      for (const [k, v] of Object.entries(part.outcomes)) outcomes[k as Outcome] = (outcomes[k as Outcome] ?? 0) + v;
      for (const [k, v] of Object.entries(part.codes)) codes[k] = (codes[k] ?? 0) + v;
      for (const f of part.failures) {
        const had = failures.get(f.key);
        if (had) had.count += f.count;
        else
          failures.set(f.key, {
            key: f.key,
            count: f.count,
            index: f.index,
            ...(f.reproducer ? { reproducer: f.reproducer } : {}),
          });
      }
    }
    targets.push({
      target,
      seeds: p0.seeds,
      mutants: sorted.reduce((n, p) => n + p.part.mutants, 0),
      total: p0.total,
      parts: sorted.length,
      seconds: sorted.reduce((n, p) => n + p.part.seconds, 0),
      cpuSeconds: sorted.reduce((n, p) => n + (p.part.cpuSeconds ?? 0), 0),
      outcomes,
      codes,
      failures: [...failures.values()],
    });
  }
  return {
    seed: first?.seed ?? 0,
    shared: first?.shared ?? 0,
    commits: [...new Set(parts.map((p) => p.part.commit))].sort(),
    targets,
    problems,
  };
}

const COLUMNS: readonly [Outcome, string][] = [
  ['ok', 'ok'],
  ['typed', 'typed'],
  ['untyped', 'untyped'],
  ['invalid-ir', 'invalid-ir'],
  ['memory', 'memory'],
  ['crash', 'crash'],
  ['oom', 'oom'],
  ['timeout', 'time-out'],
];

const n = (v: number) => v.toLocaleString('en-US');

/** The campaign's figures as docs/reliability.md prints them: a line of totals and the most frequent
 * codes, then one row a target. */
export function campaignTable(m: Merged): string {
  const total = m.targets.reduce((s, t) => s + t.mutants, 0);
  const failed = m.targets.reduce((s, t) => s + FAILURES.reduce((f, o) => f + t.outcomes[o], 0), 0);
  const codes: Record<string, number> = {};
  for (const t of m.targets) for (const [k, v] of Object.entries(t.codes)) codes[k] = (codes[k] ?? 0) + v;
  const top = Object.entries(codes)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 8)
    .map(([k, v]) => `${k} ${n(v)}`);
  const lines = [
    `${n(total)} mutants of ${m.targets.length} targets (campaign seed ${m.seed}, --shared ${m.shared}; ` +
      `${m.commits.length === 1 ? `commit ${m.commits[0]}` : `commits ${m.commits.join(', ')}`}): ` +
      (failed === 0 ? 'only typed errors' : `${n(failed)} failures`) +
      `. The most frequent codes: ${top.join(', ')}.`,
    '',
    `| target | seeds | mutants | ${COLUMNS.map((c) => c[1]).join(' | ')} | seconds |`,
    `| --- | --- | --- | ${COLUMNS.map(() => '---').join(' | ')} | --- |`,
    ...m.targets.map(
      (t) =>
        `| ${t.target} | ${t.seeds} | ${n(t.mutants)} | ${COLUMNS.map((c) => n(t.outcomes[c[0]])).join(' | ')} | ${t.seconds.toFixed(1)} |`,
    ),
  ];
  for (const t of m.targets)
    for (const f of t.failures)
      lines.push(
        `\n${t.target}: ${f.count}× ${f.key} (first: mutant ${f.index}${f.reproducer ? `; ${f.reproducer}` : ''})`,
      );
  return `${lines.join('\n')}\n`;
}
