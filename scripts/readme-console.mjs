// Rewrites the output shown in README.md's ```console blocks from the commands themselves (run as
// test/cli/readme.test.ts runs them: `npx iridia` being the CLI over src/, in a folder holding
// examples/ and test/), so the README's figures are printed, not typed. A command whose shown text
// already matches (a line `...` standing for any number of lines) is left as it is.
//   node scripts/readme-console.mjs          rewrite README.md
//   node scripts/readme-console.mjs --check  exit 1 if a block would change

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'test/cli/bin.ts');
const TSX = import.meta.resolve('tsx');
const check = process.argv.includes('--check');
const path = join(REPO, 'README.md');
const readme = readFileSync(path, 'utf8');

function parse(body) {
  const steps = [];
  let open = 0;
  for (const line of body.replace(/\n$/, '').split('\n')) {
    if (open > 0) steps[steps.length - 1].command += `\n${line}`;
    else if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: [] });
    else {
      steps[steps.length - 1].shown.push(line);
      continue;
    }
    const c = steps[steps.length - 1].command;
    open = (c.match(/\(/g) ?? []).length - (c.match(/\)/g) ?? []).length;
  }
  return steps;
}

function matches(actual, shown) {
  const go = (i, j) => {
    if (j === shown.length) return i === actual.length;
    if (shown[j] === '...') {
      for (let k = i; k <= actual.length; k++) if (go(k, j + 1)) return true;
      return false;
    }
    return i < actual.length && actual[i] === shown[j] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

function run(steps) {
  const dir = mkdtempSync(join(tmpdir(), 'iridia-readme-'));
  try {
    symlinkSync(join(REPO, 'examples'), join(dir, 'examples'));
    symlinkSync(join(REPO, 'test'), join(dir, 'test'));
    const script = [
      `iridia() { "${process.execPath}" --import "${TSX}" "${BIN}" "$@"; }`,
      ...steps.map((s, i) => `__s=$?; echo "@@@ ${i}"; (exit $__s); ${s.command.replace(/npx iridia/g, 'iridia')}`),
    ].join('\n');
    // without the user's shell start-up files, as test/helpers/bash.ts runs test/cli/readme.test.ts's
    const r = spawnSync('bash', ['-c', script], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BASH_ENV: undefined },
    });
    return r.stdout
      .split(/^@@@ \d+\n/m)
      .slice(1)
      .map((o) =>
        o
          .replace(/\n$/, '')
          .split('\n')
          .filter((l, k, a) => !(a.length === 1 && l === '')),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The new output in the shape of the old: the old text's pieces between `...` lines, each as many
 * lines of the new output, the first from the top and each later one from the line that starts it
 * (a heading such as "Part sets (in file order):"), where the new output still has that line.
 */
function abridged(actual, shown) {
  if (!shown.includes('...')) return actual;
  const pieces = [[]];
  for (const line of shown)
    if (line === '...') pieces.push([]);
    else pieces[pieces.length - 1].push(line);
  const out = actual.slice(0, pieces[0].length);
  let at = pieces[0].length;
  for (const piece of pieces.slice(1)) {
    out.push('...');
    if (piece.length === 0) continue;
    const start = actual.indexOf(piece[0], at);
    if (start < 0) continue;
    out.push(...actual.slice(start, start + piece.length));
    at = start + piece.length;
  }
  return out;
}

let changed = 0;
const out = readme.replace(/```console\n([\s\S]*?)```/g, (whole, body) => {
  const steps = parse(body);
  const outputs = run(steps);
  const lines = [];
  steps.forEach((s, i) => {
    const actual = outputs[i] ?? [];
    const keep = matches(actual, s.shown);
    if (!keep) {
      changed++;
      process.stderr.write(`README.md: $ ${s.command.split('\n')[0]}: output rewritten\n`);
    }
    lines.push(`$ ${s.command}`, ...(keep ? s.shown : abridged(actual, s.shown)));
  });
  return `\`\`\`console\n${lines.join('\n')}\n\`\`\``;
});
if (check) process.exit(changed ? 1 : 0);
if (changed) writeFileSync(path, out);
process.stderr.write(`README.md: ${changed} command output(s) rewritten\n`);
