// The debug information of a program as tools see it, whichever part it came from (SPDB or SDBG):
// the source files with their text where it is embedded, the source line of each instruction,
// and the variables with where each lives over which instructions (spec: containers.md, "Debug
// information in Shader Model 4 and 5 (SPDB)").

export interface SourceFile {
  readonly path: string;
  /** The file's text, when the debug information embeds it (an SPDB does). */
  readonly text: string | undefined;
}

/** Where a part of a variable lives: one register component over a range of instructions. */
export interface VariableLocation {
  /** The register as the listing names it: 'r0.x', 'v[0][1].y', 'x0', 'vThreadID.x'. */
  readonly register: string;
  /** The token stream's operand type (0 r#, 1 v#, 2 o#, 3 x#, ...). */
  readonly registerType: number;
  /** The register's index (for r#, v#, o#), the outer index second where there is one. */
  readonly indices: readonly number[];
  /** The component 0-3 (x-w), or undefined where the location names the register alone. */
  readonly component: number | undefined;
  /** Byte of the variable this component holds, and how many bytes. */
  readonly offset: number;
  readonly size: number;
  /** The part of the variable, as the listing names it: '.pos.x', '[2]', '._m01', ''. */
  readonly member: string;
  /** Byte offsets in the token stream: the location holds from `start` up to (not including) `end`. */
  readonly start: number;
  readonly end: number;
  /** Stretches [start, end) inside the range where the register holds something else. */
  readonly gaps: readonly { readonly start: number; readonly end: number }[];
}

export interface Variable {
  readonly name: string;
  /** The type's name where the types give one ('float4', 'VSOut'), else ''. */
  readonly typeName: string;
  readonly locations: readonly VariableLocation[];
}

/** A function or an inlined call, with its variables and nested calls. */
export interface Scope {
  readonly kind: 'function' | 'inline' | 'block';
  readonly name: string;
  /** For an inlined call: the line rows its binary annotations give, in byte offsets of the token stream. */
  readonly rows: readonly {
    readonly start: number;
    readonly end: number;
    readonly line: number;
    readonly file: number;
  }[];
  readonly variables: readonly Variable[];
  readonly children: readonly Scope[];
}

export interface LineInfo {
  /** Index into `files`. */
  readonly file: number;
  readonly line: number;
}

export interface DebugInfo {
  readonly format: 'SPDB' | 'SDBG';
  readonly files: readonly SourceFile[];
  /** The function scopes (one for an SPDB of fxc). */
  readonly scopes: readonly Scope[];
  /** The source line of the instruction at a byte offset of the token stream (innermost inlined call first). */
  lineAt(offset: number): LineInfo | undefined;
}
