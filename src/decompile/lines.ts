// Source lines in readable programs: a container built with /Zi carries the source line of each
// instruction (SPDB or SDBG, src/debug); a readable statement knows the instructions it came from
// (its origins). Both printers' texts (HLSL and readable WGSL, with their line maps) get a comment
// `// FILE:LINE` above each statement whose source lines differ from the last comment's, indented as
// the statement: the lines of its origins, in order of first appearance, at most MAX_LINES of them.

import type { Container } from '../container/container.js';
import { annotatedInstructions, readDebugInfo } from '../debug/annotations.js';
import { IridiaError } from '../errors.js';

/** The source line of each instruction index (declarations included), by file name. */
export interface SourceLines {
  /** The files' names as the debug information gives them (path components dropped). */
  readonly files: readonly string[];
  /** By instruction index: [file, line], or undefined where the debug information gives none. */
  readonly lines: readonly (readonly [number, number] | undefined)[];
}

const MAX_LINES = 4;

/** The container's source lines, or undefined when it has no debug information or it does not read. */
export function containerSourceLines(c: Container): SourceLines | undefined {
  try {
    const info = readDebugInfo(c);
    const instructions = info && annotatedInstructions(c);
    if (!info || !instructions) return undefined;
    const lines = instructions.map((ins): readonly [number, number] | undefined => {
      const at = info.lineAt(ins.offset);
      return at && at.file < info.files.length ? [at.file, at.line] : undefined;
    });
    if (lines.every((l) => l === undefined)) return undefined;
    return { files: info.files.map((f) => f.path.split(/[\\/]/).pop() ?? f.path), lines };
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    return undefined;
  }
}

/** What the comment above a line with these origins says, or undefined when they have no source line. */
function commentFor(origins: readonly number[], src: SourceLines): string | undefined {
  const seen: string[] = [];
  let file: number | undefined;
  let sameFile = true;
  for (const i of origins) {
    const at = src.lines[i];
    if (!at) continue;
    if (file === undefined) file = at[0];
    else if (at[0] !== file) sameFile = false;
    const key = `${at[0]}:${at[1]}`;
    if (!seen.includes(key)) seen.push(key);
  }
  if (file === undefined) return undefined;
  const shown = seen.slice(0, MAX_LINES).map((k) => k.split(':').map(Number) as [number, number]);
  const more = seen.length > MAX_LINES ? ', ...' : '';
  if (sameFile) return `${src.files[file]}:${shown.map(([, l]) => l).join(', ')}${more}`;
  return shown.map(([f, l]) => `${src.files[f]}:${l}`).join(', ') + more;
}

/**
 * The text with a source-line comment above each run of lines that starts a statement with other
 * source lines than the last comment's, and its line map with an empty entry for each comment.
 * `origins` has an entry per line of `text` (and one for the line after its final newline).
 */
export function withSourceLines(
  text: string,
  origins: readonly (readonly number[])[],
  src: SourceLines,
): { readonly text: string; readonly origins: readonly (readonly number[])[] } {
  const lines = text.split('\n');
  const outLines: string[] = [];
  const outOrigins: (readonly number[])[] = [];
  let previous: readonly number[] | undefined;
  let said: string | undefined;
  lines.forEach((line, k) => {
    const o = origins[k] ?? [];
    if (o.length > 0 && o !== previous) {
      const comment = commentFor(o, src);
      if (comment !== undefined && comment !== said) {
        outLines.push(`${/^\s*/.exec(line)![0]}// ${comment}`);
        outOrigins.push([]);
        said = comment;
      }
    }
    // a function's end forgets the last comment: the next function's first statement says its own
    if (line === '}') said = undefined;
    previous = o;
    outLines.push(line);
    outOrigins.push(o);
  });
  for (let k = lines.length; k < origins.length; k++) outOrigins.push(origins[k]!);
  return { text: outLines.join('\n'), origins: outOrigins };
}
