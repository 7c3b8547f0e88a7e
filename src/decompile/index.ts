// iridia's decompiler (docs/decompile.md): a lifted program made readable. The IR→IR passes
// (passes.ts) give a readable IR module that the executor runs and that is proven equivalent to the
// lifted one by running both; two printers write it: HLSL (hlsl.ts) and readable WGSL (the WGSL
// emitter over the readable module, with the container's names).

import type { Container } from '../container/container.js';
import { parseContainer } from '../container/container.js';
import { liftContainer } from '../lift/lift.js';
import { readRdef, type Rdef } from '../parts/rdef.js';
import { readSignature, type SignatureElement, type SignatureKind } from '../parts/signature.js';
import { IridiaError } from '../errors.js';
import type { Program } from '../ir/program.js';
import { emitWgsl, emitWgslWithMap, retryingViews, type GlobalView, type WgslWithMap } from '../wgsl/index.js';
import { constantBufferViews } from './wgsl-structs.js';
import { readableProgram, type PassOptions } from './passes.js';
import { printHlsl, printHlslWithMap } from './hlsl.js';
import { containerSourceLines, withSourceLines, type SourceLines } from './lines.js';
import { containerDebugNames } from './names.js';
import { functionShapes } from './shapes.js';

export { readableProgram, readableModule } from './passes.js';
export { printHlsl, printHlslWithMap } from './hlsl.js';
export { DecompileRefusal } from './refuse.js';
export { containerSourceLines, withSourceLines, type SourceLines } from './lines.js';
export { containerDebugNames, type DebugNames } from './names.js';

export interface Decompiled {
  /** The lifted program. */
  readonly lifted: Program;
  /** The same program with its readable module (same interface, bindings and stage). */
  readonly readable: Program;
  readonly rdef: Rdef | undefined;
  /** The input signature (ISGN/ISG1), when the container has one that reads. */
  readonly inputSignature?: readonly SignatureElement[];
  /** The source line of each instruction, from the container's SPDB or SDBG (a /Zi build): both
   * printers then write a `// FILE:LINE` comment above each statement (lines.ts). */
  readonly sourceLines?: SourceLines;
}

/** The container's RDEF, or undefined when it has none or it cannot be read (register names then). */
export function containerRdef(c: Container): Rdef | undefined {
  const part = c.parts.find((p) => p.kind === 'RDEF');
  if (!part) return undefined;
  try {
    return readRdef(part.data, part.offset + 8);
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    return undefined;
  }
}

export function decompile(bytes: Uint8Array, options: PassOptions = {}): Decompiled {
  const c = parseContainer(bytes);
  const lifted = liftContainer(c);
  return {
    lifted,
    readable: readableProgram(lifted, options, containerDebugNames(c)),
    rdef: containerRdef(c),
    inputSignature: inputSignature(c),
    ...withLines(containerSourceLines(c)),
  };
}

function withLines(sourceLines: SourceLines | undefined): { sourceLines?: SourceLines } {
  return sourceLines ? { sourceLines } : {};
}

export function decompiledHlsl(d: Decompiled): string {
  if (d.sourceLines) return decompiledHlslWithMap(d).text;
  return printHlsl(d.readable, { rdef: d.rdef, inputSignature: d.inputSignature });
}

/** decompiledHlsl's text with the origins of each line (the lifter's instruction indices, kept
 * through the passes: a folded statement carries those of the statements folded into it). */
export function decompiledHlslWithMap(d: Decompiled): WgslWithMap {
  const w = printHlslWithMap(d.readable, { rdef: d.rdef, inputSignature: d.inputSignature });
  return d.sourceLines ? withSourceLines(w.text, w.origins, d.sourceLines) : w;
}

/** Emits with the constant buffers as structs (wgsl-structs.ts); a buffer the emitter meets other
 * than through its struct's reads (ViewMiss) keeps its register array. */
function withViews<T>(d: Decompiled, emit: (views: ReadonlyMap<number, GlobalView>) => T): T {
  const views = constantBufferViews(d.readable, d.rdef);
  return retryingViews(
    () => emit(views),
    (g) => views.delete(g),
  );
}

function inputSignature(c: Container): readonly SignatureElement[] {
  const part = c.parts.find((p) => p.kind === 'ISGN' || p.kind === 'ISG1');
  if (!part) return [];
  try {
    return readSignature(part.kind as SignatureKind, part.data, part.offset + 8).elements;
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    return [];
  }
}

export function decompiledWgsl(d: Decompiled): string {
  if (d.sourceLines) return decompiledWgslWithMap(d).text;
  return withViews(d, (views) => emitWgsl(d.readable, { shapes: functionShapes, views })).replace(
    /^\/\/ lifted by iridia/,
    '// decompiled by iridia',
  );
}

/** decompiledWgsl's text with the origins of each line (as decompiledHlslWithMap). */
export function decompiledWgslWithMap(d: Decompiled): WgslWithMap {
  const w = withViews(d, (views) => emitWgslWithMap(d.readable, { shapes: functionShapes, views }));
  const text = w.text.replace(/^\/\/ lifted by iridia/, '// decompiled by iridia');
  return d.sourceLines ? withSourceLines(text, w.origins, d.sourceLines) : { text, origins: w.origins };
}
