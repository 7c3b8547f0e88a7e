// assemble(listing, options): a D3DDisassemble-style Shader Model 4/5/5.1 listing back into a
// container (docs/assemble.md). The program is read by program.ts; with `like`, every other part
// comes from that container, its SHEX/SHDR is replaced, STAT's count words are recomputed
// (stat.ts) and the rest of STAT kept, and the container is re-signed. Without `like` the
// signatures are written from the listing's header tables (signature.ts) beside the program (SHEX,
// SHDR for 4.x), and the rest is left out.

import { parseContainer, serializeContainer, type Container, type PartInput } from '../container/container.js';
import { IridiaError } from '../errors.js';
import { decodeProgram } from '../sm4/decode.js';
import { programPart } from '../sm4/census.js';
import { assembleProgram, type AssembledProgram } from './program.js';
import { updateStat } from './stat.js';
import { checkProgram } from './check.js';
import { signatureParts } from './signature.js';
import { carryPadding } from './padding.js';
import { assembleLibraryWith, isLibraryContainer, libraryFunctionCount } from './library.js';
import { AsmError } from './text.js';

export { checkProgram } from './check.js';

export { AsmError } from './text.js';
export { assembleProgram, type AssembledProgram } from './program.js';
export {
  assembleD3D9,
  isD3D9Listing,
  d3d9Losses,
  type AssembleD3D9Options,
  type AssembleD3D9Result,
} from './d3d9/index.js';

export interface AssembleOptions {
  /** The container whose other parts (RDEF, signatures, STAT, SFI0, IFCE, debug parts) the result takes. */
  readonly like?: Uint8Array | Container;
}

export interface AssembleResult {
  readonly program: AssembledProgram;
  /** The SHEX/SHDR payload (the token stream's bytes). */
  readonly part: Uint8Array;
  /** The signed container. */
  readonly container: Uint8Array;
  /** What the result could not take over or recompute (STAT words kept from `like`, parts left out). */
  readonly notes: readonly string[];
  /** A library (--like a lib_* container): each function's result, in LIBF order; `program` and `part` are the first's. */
  readonly functions?: readonly AssembleResult[];
}

/** The listing's program as a SHEX/SHDR payload. */
export function programBytes(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const v = new DataView(out.buffer);
  for (let i = 0; i < words.length; i++) v.setUint32(i * 4, words[i]!, true);
  return out;
}

/** Assembles a listing into a container. AsmError (E9xx) for a line it cannot read. */
export function assemble(listing: string, options: AssembleOptions = {}): AssembleResult {
  const like =
    options.like === undefined || !(options.like instanceof Uint8Array) ? options.like : parseContainer(options.like);
  if (like !== undefined && isLibraryContainer(like)) {
    const lib = assembleLibraryWith(listing, like, (l, c) => assemble(l, { like: c }));
    const first = lib.functions[0]!;
    return {
      ...first,
      container: lib.container,
      notes: lib.functions.flatMap((f, k) => f.notes.map((n) => `function ${k}: ${n}`)),
      functions: lib.functions,
    };
  }
  if (like === undefined) {
    const n = libraryFunctionCount(listing);
    if (n > 1)
      throw new AsmError(
        'E907_ASM_PROGRAM',
        `a library listing (${n} functions) is assembled with --like its library container: the function table (LIBH) and each function's parameters (LFS0) are not in the listing`,
        1,
        1,
        listing.split('\n', 1)[0] ?? '',
      );
  }

  let program = assembleProgram(listing);
  let part = programBytes(program.words);
  // The decoder's checks (operand slots, lengths) hold for what was written.
  let decoded = decodeProgram(part);
  const notes: string[] = checkProgram(decoded).map((x) => `check: ${x}`);
  let parts: PartInput[];
  let version = 1;
  if (like !== undefined) {
    const old = programPart(like);
    if (old === undefined)
      throw new IridiaError('E108_PART_MISSING', 'the --like container holds no SHEX or SHDR program to replace');
    const original = decodeProgram(old.data, old.kind);
    const padding = carryPadding(decoded, original);
    if (padding.carried > 0) {
      program = { ...program, words: padding.words };
      part = programBytes(padding.words);
      decoded = decodeProgram(part);
      notes.push(
        `padding: ${padding.carried} word(s) after samplepos/sample_*_s taken from the --like container (no listing shows them)`,
      );
    }
    const same = sameBytes(old.data, part);
    const was = original.version;
    if (was.stage !== program.stage || was.major !== program.major || was.minor !== program.minor)
      notes.push(
        `the --like container's program is ${was.stage}_${was.major}_${was.minor}, the listing's ${program.stage}_${program.major}_${program.minor}: its other parts may not fit`,
      );
    parts = like.parts.map((p) => {
      if (p === old) return { kind: p.kind, data: part };
      if (p.kind === 'STAT' && !same) {
        const s = updateStat(p.data, decoded);
        if (s.changed.length) notes.push(`STAT: recomputed ${s.changed.join(', ')}`);
        notes.push(
          'STAT: the instruction-slot estimate and the per-class instruction counts are kept from the --like container',
        );
        return { kind: p.kind, data: s.data };
      }
      return { kind: p.kind, data: p.data };
    });
    version = like.version;
  } else {
    parts = [
      ...signatureParts(listing, program.stage, program.major),
      { kind: program.major >= 5 ? 'SHEX' : 'SHDR', data: part },
    ];
    notes.push(
      parts.length > 1
        ? "no --like container: the signatures are written from the listing's tables; no RDEF, STAT or other parts"
        : 'no --like container and no signature tables in the listing: the result holds the program alone',
    );
  }
  return { program, part, container: serializeContainer(parts, { version }), notes };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
