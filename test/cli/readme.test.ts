// README.md's console examples are real: every ```console block is run (in a folder holding the
// repository's examples/ and test/, `npx iridia` being the CLI over src/), command by command, and each
// command's output compared with the text shown under it (a line `...` stands for any number of
// lines), so the figures the README shows (fixture counts, sizes, digests) are the commands' own.
// `npm run readme` (scripts/readme-console.mjs) rewrites the shown text from the commands when it changes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bash } from '../helpers/bash.js';
import { REPO } from '../helpers/shared.js';

const BIN = join(REPO, 'test/cli/bin.ts');
const TSX = import.meta.resolve('tsx');
const readme = readFileSync(join(REPO, 'README.md'), 'utf8');

/** Each block: its commands ($ lines, with continuation lines while parentheses are open) and the text shown after each. */
const blocks = [...readme.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => {
  const steps: { command: string; shown: string[] }[] = [];
  let open = 0;
  for (const line of m[1]!.replace(/\n$/, '').split('\n')) {
    if (open > 0) {
      steps[steps.length - 1]!.command += `\n${line}`;
    } else if (line.startsWith('$ ')) {
      steps.push({ command: line.slice(2), shown: [] });
    } else {
      steps[steps.length - 1]!.shown.push(line);
      continue;
    }
    const c = steps[steps.length - 1]!.command;
    open = (c.match(/\(/g) ?? []).length - (c.match(/\)/g) ?? []).length;
  }
  return steps;
});

function matches(actual: string[], shown: string[]): boolean {
  const go = (i: number, j: number): boolean => {
    if (j === shown.length) return i === actual.length;
    if (shown[j] === '...') {
      for (let k = i; k <= actual.length; k++) if (go(k, j + 1)) return true;
      return false;
    }
    return i < actual.length && actual[i] === shown[j] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

test('README.md has console examples', () => {
  assert.ok(blocks.length >= 5, `${blocks.length} blocks`);
  assert.ok(blocks.every((b) => b.length > 0 && b.some((s) => s.command.includes('npx iridia'))));
});

blocks.forEach((steps, n) => {
  test(`README.md console block ${n + 1}: ${steps[0]!.command.slice(0, 70)}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'iridia-readme-'));
    try {
      symlinkSync(join(REPO, 'examples'), join(dir, 'examples'));
      symlinkSync(join(REPO, 'test'), join(dir, 'test'));
      // one shell for the block, a marker line before each command (keeping $? for `echo $?`)
      const script = [
        `iridia() { "${process.execPath}" --import "${TSX}" "${BIN}" "$@"; }`,
        ...steps.map((s, i) => `__s=$?; echo "@@@ ${i}"; (exit $__s); ${s.command.replace(/npx iridia/g, 'iridia')}`),
      ].join('\n');
      const r = bash(script, [], { cwd: dir, maxBuffer: 1 << 26 });
      const outputs = r.stdout.split(/^@@@ \d+\n/m).slice(1);
      assert.equal(outputs.length, steps.length, r.stderr);
      steps.forEach((s, i) => {
        const actual = outputs[i]!.replace(/\n$/, '')
          .split('\n')
          .filter((l, k, a) => !(a.length === 1 && l === ''));
        assert.ok(
          matches(actual, s.shown),
          `README: $ ${s.command}\nshown:\n${s.shown.join('\n')}\nprinted:\n${outputs[i]}`,
        );
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
