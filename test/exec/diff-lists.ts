// How the differential tests (diff.test.ts, diff-public.test.ts) check their known lists: each
// entry's reason is a claim about the run that the test checks, with its bound.
//
//   race WHERE            the detector finds a race, first on WHERE ('buffer 3:0 word 17',
//                         'workgroup memory word 5')
//   precision ULP         words differ, every one by at most ULP units in the last place (as f32)
//   zero-sign [N]         the differing words are all +0 against -0 (at most N of them)
//   differ N              at most N words differ (a reason the harness cannot check more closely)
//   descriptor-range      words differ, and the program agrees once every word is small (every
//                         resource index in range): the difference is an index past a range's end
//   workgroup-limit SIZE  Dawn refuses the workgroup: SIZE invocations, over the adapter's 256
//   timeout               the GPU job ran past the runner's limit (a program that does not end)
//   dawn TEXT             Dawn refuses the program (compile or pipeline) with a message containing TEXT
//
// The refused lists: the lifter's error code and message contain the reason's text. The unbound
// lists: the harness's reason contains it, and an adapter limit's count is at most the bound.

import {
  boundCheck,
  messageCheck,
  readKnown,
  readKnownEntries,
  reportAgainstKnown,
  type Failure,
  type KnownEntry,
} from '../helpers/known.js';
import { runDifferential, type ShardResult } from './diff-run.js';

export type DiffFailure = Failure & { readonly result: ShardResult };

const ADAPTER_WORKGROUP = 256;

export function diffCheck(e: KnownEntry, f: DiffFailure): string | undefined {
  const r = f.result;
  const compared = r.kind === 'fail' ? r.compared : undefined;
  switch (e.reason) {
    case 'race':
      if (r.kind !== 'race') return 'is listed as a race and is none';
      return boundCheck(e, r.where);
    case 'precision':
      if (!compared) return 'is listed for precision and compared no differing words';
      if (e.bound === undefined) return 'a precision entry needs its bound (the largest ULP difference)';
      return boundCheck(e, compared.maxUlp);
    case 'zero-sign':
      if (!compared?.zeroSign) return 'is listed for the sign of zero and differs in more than that';
      return boundCheck(e, compared.differing);
    case 'differ':
      if (!compared) return 'is listed as differing words and compared none';
      if (e.bound === undefined) return 'a differ entry needs its bound (the number of differing words)';
      return boundCheck(e, compared.differing);
    case 'descriptor-range':
      if (!compared) return 'is listed for an index out of range and compared no differing words';
      if (!(r.kind === 'fail' && r.smallVerdict?.startsWith('agree')))
        return `does not agree with every index in range (small words: ${r.kind === 'fail' ? (r.smallVerdict ?? 'not run') : r.kind})`;
      return undefined;
    case 'workgroup-limit':
      if (r.kind !== 'fail' || r.limit === undefined)
        return 'is listed for the workgroup limit and Dawn did not refuse one';
      if (r.limit <= ADAPTER_WORKGROUP)
        return `its workgroup of ${r.limit} is within the adapter's ${ADAPTER_WORKGROUP}`;
      return boundCheck(e, String(r.limit));
    case 'dawn':
      if (e.bound === undefined) return "a dawn entry needs its bound (the text of Dawn's message)";
      return r.kind === 'fail' && r.message.startsWith('Dawn') && r.message.includes(e.bound)
        ? undefined
        : `Dawn did not refuse it with "${e.bound}"`;
    case 'timeout':
      return r.kind === 'fail' && /ran past \d+ s/.test(r.message) ? undefined : 'is listed for a time-out and ended';
    case undefined:
    default:
      return `its reason "${e.reason ?? ''}" is none the differential checks (test/exec/diff-lists.ts)`;
  }
}

/** The counts a differential run prints. */
export interface Tally {
  builds: number;
  agree: number;
  words: number;
  outputs: number;
  race: number;
  fail: number;
  refused: number;
  unbound: number;
  other: number;
  small: number;
}

/**
 * Runs `names` (builds under `root`) sharded, then checks the four lists of `suite`: `suite` (races and
 * failures, diffCheck), `suite`-refused (the lifter's refusals), `suite`-unbound (what the harness
 * cannot bind) and `suite`-small (the builds run with small words, which must all run). Listed names
 * outside `scope` (a sampled or filtered run) are not checked. Throws the first list's failure after
 * every report is printed.
 */
export async function checkDifferential(
  suite: string,
  root: string,
  names: readonly string[],
  scope: ReadonlySet<string> | undefined,
  seed: number,
): Promise<Tally> {
  const small = [...readKnown(`${suite}-small`)];
  const smallCheck = [...readKnownEntries(suite).values()]
    .filter((e) => e.reason === 'descriptor-range')
    .map((e) => e.name);
  const results = await runDifferential({ root, names, seed, small, smallCheck });
  const t: Tally = {
    builds: names.length,
    agree: 0,
    words: 0,
    outputs: 0,
    race: 0,
    fail: 0,
    refused: 0,
    unbound: 0,
    other: 0,
    small: 0,
  };
  const failures = new Map<string, DiffFailure>();
  const refused = new Map<string, Failure>();
  const unbound = new Map<string, Failure>();
  const groups = new Map<string, number>();
  const ranSmall = new Set<string>();
  for (const [name, r] of results) {
    if (r.kind === 'refused') {
      t.refused++;
      refused.set(name, { message: `${r.code}: ${r.message}` });
      continue;
    }
    if (r.kind === 'other') {
      t.other++;
      continue;
    }
    if (r.small) {
      t.small++;
      ranSmall.add(name);
    }
    if (r.kind === 'agree') {
      t.agree++;
      t.words += r.words;
      t.outputs += r.outputs.length;
    } else if (r.kind === 'unbound') {
      t.unbound++;
      groups.set(r.group, (groups.get(r.group) ?? 0) + 1);
      unbound.set(name, { message: r.reason, ...(r.limit !== undefined ? { measure: r.limit } : {}) });
    } else {
      if (r.kind === 'race') t.race++;
      else t.fail++;
      failures.set(name, { message: r.message, result: r });
    }
  }
  console.log(
    `${suite}: ${t.builds} compute/pixel builds: ${t.agree} agree (${t.words} words over ${t.outputs} outputs, every output at least one word), ${t.fail} differ or fail, ${t.race} race (listed whether or not they agree), ${t.refused} refused by the lifter, ${t.unbound} not bindable${t.other ? `, ${t.other} of another stage` : ''}; ${t.small} run with small words`,
  );
  for (const [g, n] of groups) console.log(`  not bound: ${n} × ${g}`);
  const errors: unknown[] = [];
  const report = <F extends Failure>(
    list: string,
    total: number,
    f: Map<string, F>,
    check?: (e: KnownEntry, x: F) => string | undefined,
  ): void => {
    try {
      reportAgainstKnown(list, { total, failures: f, ...(scope ? { scope } : {}) }, check ? { check } : {});
    } catch (e) {
      errors.push(e);
    }
  };
  const lifted = t.builds - t.refused - t.other;
  report(suite, lifted, failures, diffCheck);
  report(`${suite}-unbound`, lifted, unbound, messageCheck);
  report(`${suite}-refused`, t.builds, refused, messageCheck);
  // The small-word list: every build on it was run (lifted, of a compute or pixel stage) that way.
  const smallMiss = new Map<string, Failure>();
  for (const n of small)
    if ((!scope || scope.has(n)) && !ranSmall.has(n))
      smallMiss.set(n, { message: 'listed to run with small words and did not run' });
  if (smallMiss.size) errors.push(new Error(`${suite}-small: ${[...smallMiss.keys()].join(', ')} did not run`));
  if (errors.length) throw errors[0];
  return t;
}
