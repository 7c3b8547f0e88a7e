// The 96 twins of ../shared/corpus/pairs/vkd3d-proton (issue 20, "Done when"): the same HLSL built
// by fxc (NAME.dxbc) and by dxc (NAME.dxil). Both are lifted and run on the same seeded inputs
// (test/lift/twins-harness.ts: every resource bound by its Direct3D identity — register class,
// register, space — never by WGSL binding numbers, which may differ between the two lifts; pixel
// varyings by location from their semantic's stream), and every output word of the DXBC build is
// compared with the DXIL build's: on the executor (src/exec) for every stage it runs (compute, pixel,
// vertex; hull, domain and geometry once both lifts give stage functions), and on Dawn
// (test/helpers/webgpu.ts) for compute and pixel programs. Figures (agree / differ / refused / not
// run, per stage and per side) are printed.
//
// Every twin that does not agree is listed in test/known/dxil-twins.txt — NAME for the executor,
// NAME@dawn for Dawn — under a reason 'KIND: why', checked both ways (a listed twin that agrees fails
// the test, as does an unlisted one that differs) and by kind:
//
//   precision: ...   the words differ by at most the entry's bound in ULP (Direct3D leaves the
//                    precision open); a difference past the bound fails
//   differ: ...      the words differ past precision (a lifter bug or an order Direct3D leaves
//                    open); the bound, when given, is the largest ULP measured ('Infinity' for NaN
//                    against a number)
//   shape: ...       an output only one build has, or at another length
//   refused: ...     a lifter refuses one build; the text must be in the refusal (e.g. 'DXIL E601
//                    stage not handled')
//   harness: ...     the harness cannot run it (text in the message)
//
// When the lifters change, rewrite the list from a run (entries whose reason still holds keep it;
// new ones get a generated reason to edit — a 'differ' needs its cause found):
//
//   IRIDIA_UPDATE_KNOWN=1 node --import tsx --test test/lift/dxil-twins.test.ts
//
// The default run uses seed 1 and takes about 15 s on 2 cores; IRIDIA_TWINS_SEEDS=N runs seeds 1..N
// (16: about a minute), a search rather than a gate: the list is kept for seed 1, and more seeds can
// reach what Direct3D leaves undefined (seed 12 gives tessellation__dcl_index_range_hs_complex an
// input row index of 4 into its 4-row index range: the DXBC build reads the next register, the DXIL
// build zero). IRIDIA_TWINS_FILTER=substring runs some twins.
// Without ../shared the test skips naming the folder (IRIDIA_STRICT=1 fails instead); without
// WebGPU the Dawn half skips.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { readBytes, readManifest, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import {
  boundCheck,
  knownPath,
  readKnownEntries,
  reportAgainstKnown,
  type Failure,
  type KnownEntry,
} from '../helpers/known.js';
import { closeWebgpu, webgpuSkip } from '../helpers/webgpu.js';
import { lift } from '../../src/lift/lift.js';
import { IridiaError } from '../../src/errors.js';
import { validateModule } from '../../src/ir/validate.js';
import type { Program } from '../../src/ir/program.js';
import {
  compareOutputs,
  HarnessLimit,
  OVER_LIMIT,
  UNBOUNDED_FALLBACK,
  runOnDawn,
  runOnExecutor,
  type Comparison,
  type Outputs,
} from './twins-harness.js';

const ROOT = 'corpus/pairs/vkd3d-proton';
const SUITE = 'dxil-twins';
/** A difference of at most this many ULP is generated as 'precision' by IRIDIA_UPDATE_KNOWN. */
const PRECISION_ULP = 64;
const SEEDS = Math.max(1, Number(process.env['IRIDIA_TWINS_SEEDS'] ?? '1') || 1);
const FILTER = process.env['IRIDIA_TWINS_FILTER'];

type Kind = 'precision' | 'differ' | 'shape' | 'refused' | 'harness';

interface TwinFailure extends Failure {
  /** What kinds of entry may list it: a difference is 'precision' or 'differ'. */
  readonly kinds: readonly Kind[];
  readonly measure?: number;
}

interface Twin {
  readonly name: string;
  readonly paths: readonly [string, string];
  readonly stage: string;
  readonly dxbc: Program | string;
  readonly dxil: Program | string;
}

const STAGES: Record<string, string> = {
  cs: 'compute',
  ps: 'pixel',
  vs: 'vertex',
  hs: 'hull',
  ds: 'domain',
  gs: 'geometry',
};

function liftOne(path: string, side: string): Program | string {
  try {
    const p = lift(readBytes(path));
    const problems = validateModule(p.module);
    if (problems.length) return `crash: ${side} lift does not validate: ${problems[0]}`;
    return p;
  } catch (e) {
    if (e instanceof IridiaError && (e.code === 'E601_LIFT_UNSUPPORTED' || e.code === 'E602_LIFT_INVALID'))
      return `refused: ${side} ${e.code.slice(0, 4)} ${e.reason}`;
    return `crash: ${side} lift: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function loadTwins(dir: string): Twin[] {
  return readManifest(join(dir, 'MANIFEST.tsv'))
    .filter((row) => !FILTER || row['name']!.includes(FILTER))
    .map((row) => {
      const name = row['name']!;
      return {
        name,
        paths: [join(dir, `${name}.dxbc`), join(dir, `${name}.dxil`)] as const,
        stage: STAGES[row['fxc_profile']!.slice(0, 2)] ?? row['fxc_profile']!,
        dxbc: liftOne(join(dir, `${name}.dxbc`), 'DXBC'),
        dxil: liftOne(join(dir, `${name}.dxil`), 'DXIL'),
      };
    });
}

/** The failure of a comparison over all seeds (merged), or undefined when every word agrees. */
function judge(cmp: Comparison[]): TwinFailure | undefined {
  const shape = cmp.flatMap((c) => c.shape);
  if (shape.length) return { message: `shape: ${shape[0]}`, kinds: ['shape'] };
  const words = cmp.reduce((a, c) => a + c.words, 0);
  if (words === 0) return { message: 'harness: no output word to compare', kinds: ['harness'] };
  const differing = cmp.reduce((a, c) => a + c.differing, 0);
  if (differing === 0) return undefined;
  const maxUlp = Math.max(...cmp.map((c) => c.maxUlp));
  const first = cmp.find((c) => c.first)!.first;
  return {
    message: `${differing} of ${words} words differ, max ${maxUlp} ULP; first ${first}`,
    measure: maxUlp,
    kinds: ['precision', 'differ'],
  };
}

const asFailure = (why: string): TwinFailure => {
  const kind = why.startsWith('refused:') ? 'refused' : why.startsWith('harness') ? 'harness' : undefined;
  return { message: why, kinds: kind ? [kind] : [] };
};

/** The check of an entry 'KIND: why' against a failure (see the header). */
function check(entry: KnownEntry, f: TwinFailure): string | undefined {
  const m = /^(\w+):\s*(.*)$/.exec(entry.reason ?? '');
  const kind = m?.[1] as Kind | undefined;
  if (!kind || !['precision', 'differ', 'shape', 'refused', 'harness'].includes(kind))
    return `its reason "${entry.reason ?? ''}" does not start with precision:, differ:, shape:, refused: or harness:`;
  if (!f.kinds.includes(kind)) return `listed as ${kind}, but: ${f.message}`;
  if (kind === 'precision') {
    if (entry.bound === undefined) return 'a precision entry needs its bound (the largest ULP)';
    return boundCheck(entry, f.measure);
  }
  if (kind === 'differ') return entry.bound === undefined ? undefined : boundCheck(entry, f.measure);
  const text = m![2]!.trim();
  return text && !f.message.includes(text) ? `the message does not say "${text}": ${f.message}` : undefined;
}

/** The list's entry for a failure: the existing one when it holds, else a generated reason. */
function entryFor(name: string, f: TwinFailure, known: Map<string, KnownEntry>): { reason: string; bound?: string } {
  const e = known.get(name);
  if (e && check(e, f) === undefined) return { reason: e.reason!, ...(e.bound ? { bound: e.bound } : {}) };
  if (f.kinds.includes('precision') && f.measure !== undefined && f.measure <= PRECISION_ULP)
    return { reason: 'precision: transcendental or rounding', bound: String(f.measure) };
  if (f.kinds.includes('differ')) return { reason: 'differ: not yet explained', bound: String(f.measure) };
  if (f.kinds.includes('refused')) {
    const r = /^refused: (\w+ E60\d [^:]+)/.exec(f.message);
    return { reason: `refused: ${r?.[1] ?? ''}`.trim() };
  }
  if (f.kinds.includes('shape')) return { reason: 'shape:' };
  return { reason: `harness: ${f.message.replace(/^harness( limit)?:\s*/, '').split(':')[0]}` };
}

function writeKnown(failures: Map<string, TwinFailure>, total: number): void {
  const known = readKnownEntries(SUITE);
  const groups = new Map<string, string[]>();
  for (const [name, f] of [...failures].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const { reason, bound } = entryFor(name, f, known);
    groups.set(reason, [
      ...(groups.get(reason) ?? []),
      `${name}${bound ? ` ${bound}` : ''}  # ${f.message.replace(/\s+/g, ' ').slice(0, 150)}`,
    ]);
  }
  const lines = [
    '# The vkd3d-proton twins (../shared/corpus/pairs/vkd3d-proton) whose DXBC and DXIL builds do not',
    '# give the same words: NAME on the executor, NAME@dawn on Dawn. test/lift/dxil-twins.test.ts checks',
    '# it both ways and by kind (see its header); the text after "#" is the last run\'s message.',
    '#   IRIDIA_UPDATE_KNOWN=1 node --import tsx --test test/lift/dxil-twins.test.ts',
    `# ${failures.size} entries over ${total} runs (seed${SEEDS > 1 ? `s 1..${SEEDS}` : ' 1'}).`,
  ];
  for (const [reason, entries] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    lines.push('', `@reason ${reason}`, ...entries);
  writeFileSync(knownPath(SUITE), `${lines.join('\n')}\n`);
  console.log(`  wrote test/known/${SUITE}.txt (${failures.size} entries)`);
}

type Verdict = 'agree' | 'differ' | 'refused' | 'not run';
interface Row {
  readonly stage: string;
  readonly verdict: Verdict;
  /** Words compared (all seeds). */
  readonly words: number;
}

function verdictOf(f: TwinFailure | undefined): Verdict {
  if (!f) return 'agree';
  if (f.kinds.includes('refused')) return 'refused';
  if (f.kinds.includes('harness')) return 'not run';
  return 'differ';
}

function printFigures(side: string, rows: readonly Row[]): void {
  const stages = ['compute', 'pixel', 'vertex', 'hull', 'domain', 'geometry'];
  const verdicts: Verdict[] = ['agree', 'differ', 'refused', 'not run'];
  const of = (s: string | undefined): Row[] => rows.filter((r) => s === undefined || r.stage === s);
  const line = (s: string | undefined): string => {
    const rs = of(s);
    const agreed = rs.filter((r) => r.verdict === 'agree').reduce((a, r) => a + r.words, 0);
    return `${verdicts.map((v) => `${rs.filter((r) => r.verdict === v).length} ${v}`).join(', ')} (${agreed} words agree)`;
  };
  console.log(`twins on ${side} (seed${SEEDS > 1 ? `s 1..${SEEDS}` : ' 1'}): ${rows.length} — ${line(undefined)}`);
  for (const s of stages)
    if (of(s).length) console.log(`  ${s.padEnd(9)} ${String(of(s).length).padStart(3)}: ${line(s)}`);
}

after(() => closeWebgpu());

const dir = sharedPath(ROOT);
const skip = skipUnlessShared(ROOT);
let twins: Twin[] | undefined;
const getTwins = (): Twin[] => (twins ??= loadTwins(dir!));

const failures = new Map<string, TwinFailure>();
const scope = new Set<string>();

test(`the ${ROOT} twins: DXBC and DXIL builds give the same words on the executor`, { skip }, () => {
  const rows: Row[] = [];
  const crashes: string[] = [];
  const unwritten: string[] = [];
  for (const t of getTwins()) {
    scope.add(t.name);
    let f: TwinFailure | undefined;
    let words = 0;
    let changed = 0;
    const bad = [t.dxbc, t.dxil].find((x) => typeof x === 'string');
    if (bad !== undefined) {
      if (bad.startsWith('crash')) crashes.push(`${t.name}: ${bad}`);
      f = asFailure(bad);
    } else {
      try {
        const cmp: Comparison[] = [];
        for (let seed = 1; seed <= SEEDS; seed++) {
          const a = runOnExecutor(t.dxbc as Program, seed);
          const b = runOnExecutor(t.dxil as Program, seed);
          cmp.push(compareOutputs(a.outputs, b.outputs));
          changed += a.changed;
        }
        f = judge(cmp);
        words = cmp.reduce((a, c) => a + c.words, 0);
      } catch (e) {
        if (e instanceof HarnessLimit) f = asFailure(e.message);
        else f = asFailure(`harness: the executor stopped: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (f) failures.set(t.name, f);
    rows.push({ stage: t.stage, verdict: verdictOf(f), words });
    if (!f && changed === 0 && (t.stage === 'compute' || (t.dxbc as Program).interface.outputs.length === 0))
      unwritten.push(t.name);
  }
  printFigures('the executor', rows);
  // Agreement on words the seed wrote is no agreement on what the program computes: named here.
  if (unwritten.length)
    console.log(`  agreeing twins whose run wrote no resource word and has no other output: ${unwritten.join(', ')}`);
  assert.deepEqual(crashes, [], 'a lifter crashed or gave an IR that does not validate');
});

test(
  `the ${ROOT} twins: DXBC and DXIL builds give the same words on Dawn`,
  { skip: skip || webgpuSkip() },
  async () => {
    const rows: Row[] = [];
    {
      for (const t of getTwins()) {
        if (t.stage !== 'compute' && t.stage !== 'pixel') continue;
        if (typeof t.dxbc === 'string' || typeof t.dxil === 'string') continue; // listed once, without @dawn
        const name = `${t.name}@dawn`;
        scope.add(name);
        let f: TwinFailure | undefined;
        let words = 0;
        try {
          let [pa, pb] = [t.dxbc, t.dxil];
          const cmp: Comparison[] = [];
          for (let seed = 1; seed <= SEEDS; seed++) {
            let a: Outputs;
            try {
              a = await runOnDawn(pa, seed);
            } catch (e) {
              // WebGPU has no binding arrays (each element is a binding): ranges of 16 can put a program
              // over the adapter's per-stage limits; both builds are lifted again with 4 a range.
              if (!(e instanceof HarnessLimit && OVER_LIMIT.test(e.message)) || seed > 1) throw e;
              [pa, pb] = t.paths.map((x) => lift(readBytes(x), { unboundedCount: UNBOUNDED_FALLBACK })) as [
                Program,
                Program,
              ];
              a = await runOnDawn(pa, seed);
            }
            cmp.push(compareOutputs(a, await runOnDawn(pb, seed)));
          }
          f = judge(cmp);
          words = cmp.reduce((a, c) => a + c.words, 0);
        } catch (e) {
          f = asFailure(
            e instanceof HarnessLimit ? e.message : `harness: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
        if (f) failures.set(name, f);
        rows.push({ stage: t.stage, verdict: verdictOf(f), words });
      }
    }
    printFigures('Dawn', rows);
  },
);

test(`the ${ROOT} twins that do not agree are those listed in test/known/${SUITE}.txt`, { skip }, () => {
  if (process.env['IRIDIA_UPDATE_KNOWN'] === '1') writeKnown(failures, scope.size);
  reportAgainstKnown<TwinFailure>(SUITE, { total: scope.size, failures, scope }, { check });
});
