// npm run fuzz -- TARGET[,TARGET...]|all [--seconds N | --count N | --campaign [--scale F]] [--seed S] [--out DIR]
//                 [--jobs J] [--shared N] [--timeout MS (default: the target's, 5000)] [--memory MB] [--no-shrink] [--json]
// --campaign runs issue 19's campaign: 10,000,000 mutants for the container, SM4/5 and DXIL readers,
// 1,000,000 for every other target (CAMPAIGN in targets.ts), times --scale (default 1).
// A campaign in parts (tools/fuzz/parts.ts): --part K/N runs part K of N of each target's range (the
// campaign's count with --campaign, else --count); --from A --count B (with --campaign) the mutants
// A..A+B-1 of it. Each part is written as OUT/parts/TARGET.FROM-TO.json (so is each target of a
// --campaign run); a part already written there is skipped.
// npm run fuzz -- merge [--all] DIR...     (adds the parts up, checks they cover each range once on one
//                                          seed set and seed, prints the table; --all: every target)
// npm run fuzz -- TARGET --replay FILE      (runs one reproducer in this process, prints its outcome)
// npm run fuzz -- --list
// Exit status: 0 when every mutant gave only typed errors or none, 1 when any failed, 2 for usage (and
// for parts that are not one campaign).

import { availableParallelism } from 'node:os';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCampaign, Worker, type TargetReport } from './campaign.js';
import { FAILURES, runOne } from './outcome.js';
import { campaignTable, mergeParts, partRange, readParts, runPart } from './parts.js';
import { CAMPAIGN, TARGETS, targetNamed } from './targets.js';

function usage(why: string): never {
  process.stderr.write(
    `fuzz: ${why}\nusage: npm run fuzz -- TARGET|all [--seconds N | --count N] [--seed S] [--out DIR]\n`,
  );
  process.exit(2);
}

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined) usage(`${name} needs a value`);
  argv.splice(i, 2);
  return v;
};
const flag = (name: string): boolean => {
  const i = argv.indexOf(name);
  if (i >= 0) argv.splice(i, 1);
  return i >= 0;
};
const num = (name: string, text: string | undefined, dflt: number): number => {
  if (text === undefined) return dflt;
  const n = /^0x[0-9a-f]+$/i.test(text) ? parseInt(text, 16) : Number(text);
  if (!Number.isFinite(n) || n < 0) usage(`${name} takes a number, not ${text}`);
  return n;
};

if (flag('--list')) {
  for (const t of TARGETS) process.stdout.write(`${t.name.padEnd(16)} ${t.about}\n`);
  process.exit(0);
}
if (argv[0] === 'merge') {
  const all = flag('--all');
  const dirs = argv.slice(1);
  if (dirs.length === 0) usage('merge takes the directories of the parts');
  let merged;
  try {
    merged = mergeParts(readParts(dirs));
  } catch (e) {
    usage((e as Error).message);
  }
  const missing = all ? TARGETS.map((t) => t.name).filter((t) => !merged.targets.some((m) => m.target === t)) : [];
  const problems = [...merged.problems, ...(missing.length ? [`no parts of ${missing.join(', ')}`] : [])];
  process.stdout.write(campaignTable(merged));
  for (const p of problems) process.stderr.write(`merge: ${p}\n`);
  const failed = merged.targets.some((t) => t.failures.length > 0);
  process.exit(problems.length ? 2 : failed ? 1 : 0);
}
const replay = opt('--replay');
const secondsText = opt('--seconds');
const countText = opt('--count');
const scaleText = opt('--scale');
const campaign = flag('--campaign');
const partText = opt('--part');
const fromText = opt('--from');
const seed = num('--seed', opt('--seed'), 1) >>> 0;
const out = opt('--out') ?? 'out/fuzz';
const jobs = num('--jobs', opt('--jobs'), Math.min(2, availableParallelism()));
const shared = num('--shared', opt('--shared'), 0);
/** A mutant's time-out: --timeout, or the target's own (targets.ts), or 5 s of CPU. */
const timeoutText = opt('--timeout');
const timeoutOf = (name: string): number => num('--timeout', timeoutText, targetNamed(name)?.timeoutMs ?? 5000);
const memoryMb = num('--memory', opt('--memory'), 512);
const shrink = !flag('--no-shrink');
const json = flag('--json');
if (argv.length !== 1) usage('give one target (or all); --list names them');
const which = argv[0]!;

if (replay !== undefined) {
  const t = targetNamed(which);
  if (!t) usage(`no target ${which}`);
  const b = readFileSync(replay);
  const r = runOne(t, new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  process.exit(FAILURES.includes(r.outcome) ? 1 : 0);
}

const names = which === 'all' ? TARGETS.map((t) => t.name) : which.split(',');
for (const n of names) if (!targetNamed(n)) usage(`no target ${n}; --list names them`);
const part = partText === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(partText);
if (partText !== undefined && (!part || !(Number(part[1]) >= 1 && Number(part[1]) <= Number(part[2]))))
  usage(`--part takes K/N with 1 <= K <= N, not ${partText}`);
if (partText !== undefined && fromText !== undefined) usage('give --part or --from, not both');
if (fromText !== undefined && !(campaign && countText !== undefined))
  usage('--from A --count B is a range of the campaign: give --campaign');
if (partText !== undefined && !campaign && countText === undefined) usage('--part splits --campaign or --count');
const scale = num('--scale', scaleText, 1);
/** Runs that are parts of a counted campaign write their summaries (and skip those already written). */
const parts = campaign || partText !== undefined;
if (parts && secondsText !== undefined) usage('a part runs its whole range: no --seconds');
const reports: TargetReport[] = [];
const workers = Array.from({ length: Math.max(1, jobs) }, () => new Worker());
for (const name of names) {
  // the target's range [0, total), and this run's piece of it
  let range: { from: number; to: number } | undefined;
  let total = 0;
  if (campaign || countText !== undefined) {
    if (campaign && CAMPAIGN[name] === undefined) usage(`${name} is in no campaign`);
    total = campaign ? Math.max(1, Math.round(CAMPAIGN[name]! * scale)) : num('--count', countText, 1000);
    if (part) range = partRange(total, Number(part[1]), Number(part[2]));
    else if (fromText !== undefined) {
      const from = num('--from', fromText, 0);
      range = { from, to: Math.min(total, from + num('--count', countText, 1000)) };
      if (from >= total) usage(`--from ${from} is past ${name}'s range of ${total}`);
    } else range = { from: 0, to: total };
  }
  const common = {
    target: name,
    seed,
    out,
    jobs,
    shared,
    timeoutMs: timeoutOf(name),
    memoryMb,
    shrink,
    log: (l: string) => process.stderr.write(`${l}\n`),
  };
  let r: TargetReport;
  if (parts && range) {
    let ran;
    try {
      ran = await runPart(common, out, { ...range, total }, workers);
    } catch (e) {
      usage((e as Error).message);
    }
    r = ran.part;
    if (ran.skipped) {
      process.stderr.write(`${name.padEnd(16)} mutants ${range.from}-${range.to}: already written, skipped\n`);
      reports.push(r);
      continue;
    }
  } else
    r = await runCampaign(
      {
        ...common,
        ...(secondsText !== undefined ? { seconds: num('--seconds', secondsText, 10) } : {}),
        ...(range ? { from: range.from, count: range.to - range.from } : {}),
      },
      workers,
    );
  reports.push(r);
  const o = r.outcomes;
  process.stderr.write(
    `${name.padEnd(16)} ${String(r.mutants).padStart(8)} mutants in ${r.seconds.toFixed(1)} s, ${r.cpuSeconds.toFixed(1)} s of CPU (${r.seeds} seeds): ` +
      `ok ${o.ok}, typed ${o.typed}, untyped ${o.untyped}, invalid-ir ${o['invalid-ir']}, memory ${o.memory}, ` +
      `crash ${o.crash}, oom ${o.oom}, timeout ${o.timeout}; ${r.failures.length} distinct failures\n`,
  );
  for (const f of r.failures)
    process.stderr.write(`  ${f.count}× ${f.key}${f.reproducer ? `\n     ${f.reproducer}` : ''}\n`);
}
workers.forEach((w) => w.close());
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(reports, null, 2)}\n`);
if (json) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
process.exit(reports.some((r) => r.failures.length > 0) ? 1 : 0);
