// Test helper: checks the debug annotations against Microsoft's listings without the disassembler.
// It takes a listing printed with debug information, removes the lines that come from debug
// information (the initial-locations block, `#line` lines with the blank line before them, the
// `  // ...` remarks on instruction lines, SDBG's internal-error lines and every blank line of the body), then puts back the lines the provider produces, placed
// by the hook's rules (src/disasm/annotations.ts), and returns the result for a byte-exact
// comparison with the original. Instruction lines are matched to the decoded program in order.

import type { ListingAnnotations } from '../../src/disasm/annotations.js';
import { isDeclaration, type AnnotatedInstruction } from '../../src/debug/instructions.js';

const INTERNAL_ERROR = '// <internal error> incorrect instruction offset in debug info';
const VERSION = /^\s*(\d+\s+)?(0x[0-9A-F]{8}: )?(ps|vs|gs|hs|ds|cs)_[45]_[01]$/;

export function splice(
  listing: string,
  instructions: readonly AnnotatedInstruction[],
  annotations: ListingAnnotations | undefined,
): string {
  const all = listing.split('\n');
  // Only the Shader Model 4/5 program's part (a level-9 listing prints the Direct3D 9 program first).
  const sm4At = all.findIndex((l) => VERSION.test(l));
  if (sm4At < 0) throw new Error('no version line');
  const src = all.slice(sm4At);
  // 1. Strip.
  const kept: string[] = [];
  for (let i = 0; i < src.length; i++) {
    const l = src[i]!;
    if (l === '//' && src[i + 1] === '// Initial variable locations:') {
      i += 2;
      while (i < src.length && src[i] !== '//') i++;
      continue;
    }
    // A listing's body has no blank line of its own: every one comes from debug information.
    if (i > 0 && i < src.length - 1 && (l.startsWith('#line ') || l === '' || l === INTERNAL_ERROR)) continue;
    kept.push(l);
  }
  // 2. Find the instruction lines: after the version line, not comments, not blank, not '{' continuations.
  const versionAt = 0;
  const out: string[] = [...all.slice(0, sm4At), kept[0]!];
  let k = 0;
  let firstDone = false;
  for (let i = versionAt + 1; i < kept.length; i++) {
    const raw = kept[i]!;
    const isInstruction =
      raw !== '' &&
      !raw.startsWith('//') &&
      !/^\s*\{/.test(raw.replace(/^(\s*\d+\s+)?(0x[0-9A-F]{8}: )?/, '')) &&
      k < instructions.length;
    if (!isInstruction) {
      out.push(raw);
      continue;
    }
    const ins = instructions[k++]!;
    const line = raw.replace(/ {2}\/\/ .*$/, '');
    if (!firstDone && !isDeclaration(ins.opcode, ins.dataClass)) {
      firstDone = true;
      if (annotations?.initial) out.push(...annotations.initial);
    }
    out.push(...(annotations?.before?.get(ins.offset) ?? []));
    out.push(line + (annotations?.suffix?.get(ins.offset) ?? ''));
    out.push(...(annotations?.after?.get(ins.offset) ?? []));
  }
  if (k !== instructions.length)
    throw new Error(`matched ${k} instruction lines to ${instructions.length} instructions`);
  return out.join('\n');
}
