// Reproducers of fuzz findings (tools/fuzz): a committed fixture and the shrunk operations the
// campaign wrote, applied as the target applied them; and the check that the entry point now refuses
// the mutant with the expected typed error.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { applyOps, type Op } from '../../tools/fuzz/mutate.js';
import { targetNamed } from '../../tools/fuzz/targets.js';
import { runOne } from '../../tools/fuzz/outcome.js';
import { IridiaError } from '../../src/errors.js';
import { REPO, readBytes } from '../helpers/shared.js';

/** The mutant: `seedFile` (relative to the repository) with `ops` applied as target `target` does. */
export function mutant(target: string, seedFile: string, ops: readonly Op[]): Uint8Array {
  const t = targetNamed(target);
  assert.ok(t, `a fuzz target ${target}`);
  const seed = readBytes(join(REPO, seedFile));
  return applyOps(seed, ops, [seed], t.focus);
}

/** `f(bytes)` throws an IridiaError with this code and a message matching `reason`. */
export function refuses(f: () => unknown, code: string, reason: RegExp): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof IridiaError, `an IridiaError, not ${e instanceof Error ? e.stack : String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, reason);
    return true;
  });
}

/** The target's property holds for the mutant: it returns or throws an IridiaError. */
export function typedOnly(target: string, bytes: Uint8Array): void {
  const r = runOne(targetNamed(target)!, bytes);
  assert.ok(r.outcome === 'ok' || r.outcome === 'typed', `${target}: ${r.outcome} ${r.key ?? ''}\n${r.stack ?? ''}`);
}
