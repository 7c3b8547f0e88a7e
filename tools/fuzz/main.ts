// npm run fuzz -- TARGET|all [--seconds N | --count N | --campaign [--scale F]] [--seed S] [--out DIR]
//                 [--jobs J] [--shared N] [--timeout MS] [--memory MB] [--no-shrink] [--json]
// --campaign runs issue 19's campaign: 10,000,000 mutants for the container, SM4/5 and DXIL readers,
// 1,000,000 for every other target (CAMPAIGN in targets.ts), times --scale (default 1).
// npm run fuzz -- TARGET --replay FILE      (runs one reproducer in this process, prints its outcome)
// npm run fuzz -- --list
// Exit status: 0 when every mutant gave only typed errors or none, 1 when any failed, 2 for usage.

import { availableParallelism } from 'node:os';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCampaign, Worker, type TargetReport } from './campaign.js';
import { FAILURES, runOne } from './outcome.js';
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
const replay = opt('--replay');
const secondsText = opt('--seconds');
const countText = opt('--count');
const scaleText = opt('--scale');
const campaign = flag('--campaign');
const seed = num('--seed', opt('--seed'), 1) >>> 0;
const out = opt('--out') ?? 'out/fuzz';
const jobs = num('--jobs', opt('--jobs'), Math.min(2, availableParallelism()));
const shared = num('--shared', opt('--shared'), 0);
const timeoutMs = num('--timeout', opt('--timeout'), 5000);
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

const names = which === 'all' ? TARGETS.map((t) => t.name) : [which];
for (const n of names) if (!targetNamed(n)) usage(`no target ${n}; --list names them`);
const reports: TargetReport[] = [];
const workers = Array.from({ length: Math.max(1, jobs) }, () => new Worker());
for (const name of names) {
  const r = await runCampaign(
    {
      target: name,
      ...(secondsText !== undefined ? { seconds: num('--seconds', secondsText, 10) } : {}),
      ...(countText !== undefined ? { count: num('--count', countText, 1000) } : {}),
      ...(campaign ? { count: Math.max(1, Math.round(CAMPAIGN[name]! * num('--scale', scaleText, 1))) } : {}),
      seed,
      out,
      jobs,
      shared,
      timeoutMs,
      memoryMb,
      shrink,
      log: (l) => process.stderr.write(`${l}\n`),
    },
    workers,
  );
  reports.push(r);
  const o = r.outcomes;
  process.stderr.write(
    `${name.padEnd(16)} ${String(r.mutants).padStart(8)} mutants in ${r.seconds.toFixed(1)} s (${r.seeds} seeds): ` +
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
