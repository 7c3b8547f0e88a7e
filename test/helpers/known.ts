// Known failures: listed by name in test/known/<suite>.txt (one name per line, '#' comments), counted,
// and reported when they start to pass. A failure not on the list fails the test.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { REPO } from './shared.js';

export function readKnown(suite: string): Set<string> {
  const p = join(REPO, 'test/known', `${suite}.txt`);
  if (!existsSync(p)) return new Set();
  return new Set(
    readFileSync(p, 'utf8')
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter((l) => l.length > 0),
  );
}

export interface Outcome {
  readonly total: number;
  /** name -> reason, for every case that failed. */
  readonly failures: Map<string, string>;
}

/**
 * Prints the match count, names every miss, reports listed failures that now pass, and fails when a
 * case fails that is not listed in test/known/<suite>.txt.
 */
export function reportAgainstKnown(suite: string, outcome: Outcome, log: (s: string) => void = console.log): void {
  const known = readKnown(suite);
  const unexpected = [...outcome.failures.keys()].filter((n) => !known.has(n));
  const nowPass = [...known].filter((n) => !outcome.failures.has(n));
  const ok = outcome.total - outcome.failures.size;
  log(`${suite}: ${ok}/${outcome.total} match; ${outcome.failures.size} miss (${known.size} listed as known)`);
  for (const [name, why] of outcome.failures)
    log(`  ${known.has(name) ? 'known' : 'NEW  '} miss ${name}: ${why.split('\n')[0]}`);
  if (nowPass.length)
    log(
      `${suite}: ${nowPass.length} known failures now pass (remove them from test/known/${suite}.txt):\n  ${nowPass.join('\n  ')}`,
    );
  assert.equal(
    unexpected.length,
    0,
    `${unexpected.length} failures not listed in test/known/${suite}.txt:\n${unexpected
      .slice(0, 20)
      .map((n) => `${n}: ${outcome.failures.get(n)}`)
      .join('\n')}`,
  );
}
