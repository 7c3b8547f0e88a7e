// SDBG: the older debug information of fxc 9.x (/Zi) builds. (Work in progress.)

import type { ListingAnnotations } from '../disasm/annotations.js';
import { UnsupportedError } from '../errors.js';
import type { DebugInfo } from './model.js';

export interface Sdbg extends DebugInfo {
  readonly format: 'SDBG';
  annotate(instructions: readonly { offset: number; next: number; opcode: number }[]): ListingAnnotations;
}

export function readSdbg(_bytes: Uint8Array, base = 0): Sdbg {
  throw new UnsupportedError('E504_DEBUG_BAD', 'SDBG is not read yet', { offset: base, part: 'SDBG' });
}
