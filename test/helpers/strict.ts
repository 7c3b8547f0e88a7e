// Strict mode (IRIDIA_STRICT=1, set by .ci/run): a test that would skip because a tool, a driver or
// ../shared is missing fails instead, so a CI machine that lost one (a moved driver file, a probe that
// timed out) cannot stay green with the checks that need it skipped. Without it (a user's clone) such
// tests skip with a message saying what is missing.

import { test } from 'node:test';

/** Whether missing prerequisites fail the tests that need them (IRIDIA_STRICT=1). */
export function strictMode(): boolean {
  return process.env['IRIDIA_STRICT'] === '1';
}

const failed = new Set<string>();

/**
 * The `skip` option of a test that needs a tool, driver or shared data: `reason` (why it is absent) or
 * false. Under strict mode an absent prerequisite also adds a test, once per reason and file, that
 * fails with the reason, so the run fails; the test that needed it is still skipped (it cannot run).
 */
export function needs(reason: string | false): string | false {
  if (reason === false || !strictMode()) return reason;
  if (!failed.has(reason)) {
    failed.add(reason);
    test(`strict mode (IRIDIA_STRICT=1): a prerequisite is missing: ${reason}`, () => {
      throw new Error(`IRIDIA_STRICT=1 and a prerequisite is missing: ${reason}`);
    });
  }
  return `${reason} (and IRIDIA_STRICT=1 fails the run for it)`;
}
