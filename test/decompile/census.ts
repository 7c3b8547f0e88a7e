// Decompiles every program of a list of containers and tallies what happened: lifted or not,
// readable module valid, equivalent on the executor (harness.ts), HLSL printed or refused by name,
// glslang's verdict on the HLSL (when glslangValidator is installed). Used by the equivalence and
// readability tests; every figure they print comes from here.

import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decompile, decompiledHlsl, DecompileRefusal, type Decompiled } from '../../src/decompile/index.js';
import { validateModule } from '../../src/ir/validate.js';
import { IridiaError } from '../../src/errors.js';
import { equivalence } from './harness.js';

export interface Entry {
  readonly path: string;
  readonly d?: Decompiled;
  readonly hlsl?: string;
  readonly refusal?: string;
}

export interface Census {
  readonly entries: Entry[];
  readonly lifted: number;
  readonly notLifted: number;
  readonly equivalent: number;
  /** Programs the harness cannot run (named), not counted as equivalent. */
  readonly limits: string[];
  /** Programs whose readable module is invalid or writes other words: each must be named. */
  readonly differences: string[];
  readonly hlsl: number;
  readonly refusals: Map<string, number>;
}

export function census(paths: readonly string[], runEquivalence = true, seeds?: number[]): Census {
  const entries: Entry[] = [];
  let lifted = 0;
  let notLifted = 0;
  let equivalent = 0;
  let hlsl = 0;
  const limits: string[] = [];
  const differences: string[] = [];
  const refusals = new Map<string, number>();
  for (const path of paths) {
    let d: Decompiled;
    try {
      d = decompile(new Uint8Array(readFileSync(path)));
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      notLifted++;
      continue;
    }
    lifted++;
    const problems = validateModule(d.readable.module);
    if (problems.length) differences.push(`${path}: the readable module does not validate: ${problems[0]}`);
    else if (runEquivalence) {
      const v = equivalence(d.lifted, d.readable, seeds);
      if (v.kind === 'same') equivalent++;
      else if (v.kind === 'limit') limits.push(`${path}: ${v.why}`);
      else differences.push(`${path}: ${v.first}`);
    }
    try {
      const text = decompiledHlsl(d);
      hlsl++;
      entries.push({ path, d, hlsl: text });
    } catch (e) {
      if (!(e instanceof DecompileRefusal)) throw e;
      refusals.set(e.category, (refusals.get(e.category) ?? 0) + 1);
      entries.push({ path, d, refusal: e.message });
    }
  }
  return { entries, lifted, notLifted, equivalent, limits, differences, hlsl, refusals };
}

const STAGES: Readonly<Record<string, string>> = {
  vertex: 'vert',
  pixel: 'frag',
  compute: 'comp',
  geometry: 'geom',
  hull: 'tesc',
  domain: 'tese',
};

/** glslangValidator's path, or undefined when it is not installed. */
export function glslang(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v glslangValidator'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : undefined;
}

/** Runs `glslangValidator -D -V -e main -S <stage>` on each printed HLSL: the failures, with glslang's first error. */
export function glslangFailures(tool: string, entries: readonly Entry[]): { checked: number; failures: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-decompile-'));
  const failures: string[] = [];
  let checked = 0;
  try {
    for (const e of entries) {
      if (!e.hlsl || !e.d) continue;
      const file = join(dir, 'program.hlsl');
      writeFileSync(file, e.hlsl);
      const r = spawnSync(
        tool,
        ['-D', '-V', '-e', 'main', '-S', STAGES[e.d.lifted.stage]!, file, '-o', join(dir, 'out.spv')],
        {
          encoding: 'utf8',
        },
      );
      checked++;
      if (r.status !== 0) {
        // a crash names the stage and the clip or cull distances it has (glslang crashes on those of a
        // geometry program, its source too: equivalence.test.ts GLSLANG_LACKS)
        const distances = [...new Set(e.hlsl.match(/SV_(Clip|Cull)Distance/g) ?? [])].join(', ');
        const crash = r.signal ? ` (${e.d.lifted.stage}${distances ? `, ${distances}` : ''})` : '';
        const first =
          `${r.stdout}${r.stderr}`.split('\n').find((l) => /ERROR/.test(l)) ?? `exit ${r.status ?? r.signal}${crash}`;
        failures.push(`${e.path}: ${first}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { checked, failures };
}

export function describeCensus(label: string, c: Census): string {
  const refused = [...c.refusals].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`);
  return (
    `${label}: ${c.lifted} programs lift (${c.notLifted} do not); ${c.equivalent} equivalent on the executor, ` +
    `${c.limits.length} the harness cannot run, ${c.differences.length} differ; ${c.hlsl} printed as HLSL, ` +
    `${c.lifted - c.hlsl} refused (${refused.join(', ') || 'none'})`
  );
}

/** The classes of bitcast lines (asfloat/asint/asuint) of printed HLSL, as docs/decompile.md "Not yet"
 * names them, each line in the first class whose rule it meets (rules over the text, in this order):
 *   buffer view helper   a line of a structured view's `X_word`/`X_store` helper (its member reads and writes);
 *   buffer view word     a read or write of a view's word: `X_word(`, `X_store(`, a `loaded` local, `X[...]`
 *                        of a view declared in the program;
 *   groupshared          a read or write of a `groupshared` array;
 *   constant buffer      a bitcast of a constant-buffer member (the members declared in the program's cbuffers);
 *   mask and float bits  `&`, `|`, `^` or `~` inside the cast (booleans and-ed with float bits, bit tricks);
 *   local                a bitcast of a kept local (`merged`, `indexed`);
 *   other                the rest. */
export function bitcastClasses(
  hlsl: string,
  into = new Map<string, number>(),
  each?: (cls: string, line: string) => void,
): Map<string, number> {
  const lines = hlsl.replace(/\/\/.*$/gm, '').split('\n');
  const cbMembers = new Set<string>();
  const views = new Set<string>();
  const shared = new Set<string>();
  let inCb = false;
  for (const l of lines) {
    if (/^cbuffer\b/.test(l)) inCb = true;
    else if (inCb && /^};/.test(l)) inCb = false;
    else if (inCb) {
      const m = /(\w+)(\[\d+\])?(\s*:.*)?;\s*$/.exec(l);
      if (m) cbMembers.add(m[1]!);
    }
    const v = /^(RW)?(Structured)?Buffer<[^>]*> (\w+)/.exec(l);
    if (v) views.add(v[3]!);
    const g = /^groupshared \w+ (\w+)\[/.exec(l);
    if (g) shared.add(g[1]!);
  }
  const word = (l: string): boolean =>
    /\w+_(word|store)\(/.test(l) || /\bloaded\w*\b/.test(l) || [...views].some((v) => new RegExp(`\\b${v}\\[`).test(l));
  let helper = false;
  let line = '';
  const add = (k: string): void => {
    into.set(k, (into.get(k) ?? 0) + 1);
    each?.(k, line);
  };
  for (const l of lines) {
    line = l;
    const head = /^\w+ (\w+)\(/.exec(l);
    if (head) helper = [...views].some((v) => head[1] === `${v}_word` || head[1] === `${v}_store`);
    if (!/\bas(float|int|uint)\(/.test(l)) continue;
    if (helper) add('buffer view helper');
    else if (word(l)) add('buffer view word');
    else if ([...shared].some((g) => new RegExp(`\\b${g}\\[`).test(l))) add('groupshared');
    else if ([...cbMembers].some((c) => new RegExp(`\\bas(float|int|uint)\\(${c}\\b`).test(l))) add('constant buffer');
    else if (/\bas(float|int|uint)\([^;]*[&|^~]/.test(l)) add('mask and float bits');
    else if (/\bas(float|int|uint)\((merged|indexed)\w*\b/.test(l)) add('local');
    else add('other');
  }
  return into;
}
