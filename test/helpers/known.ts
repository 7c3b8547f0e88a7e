// Known failures: listed in test/known/<suite>.txt, each with a reason the test checks, and kept true:
// a case that fails and is not listed fails the test, and so does a listed case that passes, one that
// fails for another reason than its list gives, and one whose measured figure is past its bound.
//
// The list's syntax, one item a line ('#' starts a comment):
//
//   @reason TEXT        the reason of the entries that follow (until the next @reason line)
//   NAME [BOUND]        an entry: the case's name and, where its reason has one, its bound
//   @total N            the number of cases a whole run checks (not a filtered or sampled one): a
//                       run over more or fewer fails, so shared data that went missing or grew is seen
//
// What a reason and a bound mean is the test's: `reportAgainstKnown` takes a check that is given the
// entry and the failure and says what is wrong with the pair. The default check, for suites whose
// failures are messages: the message must contain the reason's TEXT, BOUND (a number) must be at
// least the failure's measure, and a BOUND 'line N' must be the line a listing's first difference
// is on (firstDifference's '(line N, column M)').

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { REPO } from './shared.js';

export interface KnownEntry {
  readonly name: string;
  /** The text of the last @reason line above the entry; undefined before the first. */
  readonly reason: string | undefined;
  /** The rest of the entry's line after the name; undefined when there is none. */
  readonly bound: string | undefined;
  /** 1-based line in the list file. */
  readonly line: number;
}

export function knownPath(suite: string): string {
  return join(REPO, 'test/known', `${suite}.txt`);
}

/** The @total of a parsed list, when it has one. */
export const TOTAL = Symbol('total');
type KnownList = Map<string, KnownEntry> & { [TOTAL]?: number };

/** Parses a list's text (see the header). A name listed twice is an error. */
export function parseKnown(text: string, file = 'list'): KnownList {
  const out: KnownList = new Map<string, KnownEntry>();
  let reason: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const l = raw.replace(/#.*/, '').trim();
    if (l.length === 0) return;
    if (l.startsWith('@total')) {
      const n = Number(l.slice('@total'.length).trim());
      if (!Number.isInteger(n) || n < 0) throw new Error(`${file}:${i + 1}: @total needs a count`);
      out[TOTAL] = n;
      return;
    }
    if (l.startsWith('@reason')) {
      const r = l.slice('@reason'.length).trim();
      reason = r.length > 0 ? r : undefined;
      return;
    }
    const m = /^(\S+)(?:\s+(.*))?$/.exec(l)!;
    const name = m[1]!;
    if (out.has(name)) throw new Error(`${file}:${i + 1}: ${name} is listed twice`);
    out.set(name, { name, reason, bound: m[2]?.trim() || undefined, line: i + 1 });
  });
  return out;
}

export function readKnownEntries(suite: string): KnownList {
  const p = knownPath(suite);
  if (!existsSync(p)) return new Map();
  return parseKnown(readFileSync(p, 'utf8'), `test/known/${suite}.txt`);
}

export function readKnown(suite: string): Set<string> {
  return new Set(readKnownEntries(suite).keys());
}

/** A failure as a test reports it: a message, and what its check reads. */
export interface Failure {
  readonly message: string;
  /** The figure a numeric bound limits (e.g. the largest ULP difference), or a value it must equal. */
  readonly measure?: number | string;
  readonly [fact: string]: unknown;
}

export interface Outcome<F extends Failure = Failure> {
  readonly total: number;
  /** name -> reason (a message, or a Failure), for every case that failed. */
  readonly failures: ReadonlyMap<string, string | F>;
  /** The names the run covered (a filtered or sampled run): listed entries outside it are not checked.
   * Default: every listed entry. */
  readonly scope?: ReadonlySet<string>;
}

/** What is wrong with a listed entry's failure, or undefined when the entry holds. */
export type KnownCheck<F extends Failure = Failure> = (entry: KnownEntry, failure: F) => string | undefined;

/** The default check: the message contains the reason's text; a numeric bound is at least the measure. */
export function messageCheck(entry: KnownEntry, failure: Failure): string | undefined {
  if (entry.reason !== undefined && !failure.message.includes(entry.reason))
    return `fails for another reason than its list's "${entry.reason}"`;
  // A listing's first difference: the bound "line N" is the line firstDifference names.
  const line = /\(line (\d+), column \d+\)/.exec(failure.message);
  if (failure.measure === undefined && entry.bound?.startsWith('line ') && line)
    return boundCheck(entry, `line ${line[1]}`);
  return boundCheck(entry, failure.measure);
}

/** A numeric bound at least the measure, or a text bound equal to it; no bound: nothing to check. */
export function boundCheck(entry: KnownEntry, measure: number | string | undefined): string | undefined {
  if (entry.bound === undefined) return undefined;
  if (measure === undefined) return `its bound ${entry.bound} cannot be checked: the failure measures nothing`;
  if (typeof measure === 'number') {
    const b = Number(entry.bound);
    if (!Number.isFinite(b)) return `its bound "${entry.bound}" is not a number (measured ${measure})`;
    return measure <= b ? undefined : `measured ${measure}, past its bound ${b}`;
  }
  return measure === entry.bound ? undefined : `measured "${measure}", not its bound "${entry.bound}"`;
}

const asFailure = (f: string | Failure): Failure => (typeof f === 'string' ? { message: f } : f);

/**
 * Prints the match count and every miss with its list entry, then fails when a case fails that is not
 * listed in test/known/<suite>.txt, when a listed case (in the run's scope) passes, and when a listed
 * failure does not hold to its reason or bound (`check`; default messageCheck). Every problem is named
 * in the one assertion, after all of them are printed.
 */
export function reportAgainstKnown<F extends Failure>(
  suite: string,
  outcome: Outcome<F>,
  options: { log?: (s: string) => void; check?: KnownCheck<F> } = {},
): void {
  const log = options.log ?? console.log;
  const check = (options.check ?? messageCheck) as KnownCheck<F>;
  const known = readKnownEntries(suite);
  const list = `test/known/${suite}.txt`;
  const problems: string[] = [];
  const failures = new Map([...outcome.failures].map(([n, f]) => [n, asFailure(f) as F]));
  const ok = outcome.total - failures.size;
  log(`${suite}: ${ok}/${outcome.total} match; ${failures.size} miss (${known.size} listed as known)`);
  for (const [name, f] of failures) {
    const e = known.get(name);
    const first = f.message.split('\n')[0];
    if (!e) {
      log(`  NEW   miss ${name}: ${first}`);
      problems.push(`${name}: fails and is not listed in ${list}: ${first}`);
      continue;
    }
    const why = check(e, f);
    const measured = f.measure !== undefined ? ` [measured ${f.measure}${e.bound ? `, bound ${e.bound}` : ''}]` : '';
    log(`  ${why ? 'WRONG' : 'known'} miss ${name}: ${first}${measured}`);
    if (why) problems.push(`${name} (${list}:${e.line}, reason ${e.reason ?? 'none'}): ${why}; ${first}`);
  }
  const total = known[TOTAL];
  if (outcome.total === 0) problems.push('the run checked no case');
  else if (total !== undefined && !outcome.scope && outcome.total !== total)
    problems.push(`the run checked ${outcome.total} cases, not the @total ${total} of ${list}`);
  for (const [name, e] of known) {
    if (failures.has(name) || (outcome.scope && !outcome.scope.has(name))) continue;
    log(`  PASS  listed ${name}`);
    problems.push(`${name} (${list}:${e.line}) is listed as a failure and passes: take it off the list`);
  }
  assert.equal(
    problems.length,
    0,
    `${suite}: ${problems.length} problems with ${list}:\n${problems.slice(0, 40).join('\n')}${
      problems.length > 40 ? `\n... and ${problems.length - 40} more` : ''
    }`,
  );
}
