// Refusals of the decompiler: what its passes or printers cannot yet make readable, by name
// (UnsupportedError E603). A refused program is never printed as something that computes else.

import { UnsupportedError } from '../errors.js';

export type DecompileReason =
  | 'stage not handled'
  | 'resource kind not handled'
  | 'constant buffer layout'
  | 'dynamically indexed constant buffer'
  | 'operation not handled'
  | 'statement not handled'
  | 'system value not handled';

export class DecompileRefusal extends UnsupportedError {
  readonly category: DecompileReason;
  constructor(category: DecompileReason, detail: string) {
    super('E603_DECOMPILE_UNSUPPORTED', `${category}: ${detail}`);
    this.category = category;
  }
}

export function refuse(category: DecompileReason, detail: string): never {
  throw new DecompileRefusal(category, detail);
}

/**
 * `f`, with the stack overflowing turned into a refusal: the passes and the printers walk an
 * expression by recursion, and inlining a long chain of values (an accumulator updated 1,000 times)
 * makes one expression as deep as the chain. A typed refusal, not a RangeError out of the caller.
 */
export function withinStack<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message))
      return refuse(
        'statement not handled',
        `${what}: an expression nested too deeply (a long chain of folded values)`,
      );
    throw e;
  }
}
