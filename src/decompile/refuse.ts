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
