// `bash -c SCRIPT ARGS...` without the user's shell start-up files, for the places that time a
// shell's children (bench/cli.bench.ts, bench/lift.bench.ts) or compare what it prints
// (test/cli/readme.test.ts; scripts/readme-console.mjs does the same in its own JavaScript):
// - standard input /dev/null, not Node's default pipe: that is a socket, and Debian's bash, finding
//   a socket on its standard input and a shell level under 2 (npm runs scripts with SHLVL=0), takes
//   itself to be run by a remote shell daemon and reads ~/.bashrc first. Under `npm run bench` that
//   ran pyenv's init before every timed CLI process, about 500 ms of CPU that `times` counted as the
//   CLI's (docs/benchmarks.md, the sixteenth session);
// - no BASH_ENV, the file a non-interactive bash reads first whatever its input.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

export function bash(
  script: string,
  args: readonly string[] = [],
  options: { cwd?: string; maxBuffer?: number } = {},
): SpawnSyncReturns<string> {
  return spawnSync('bash', ['-c', script, 'bash', ...args], {
    ...options,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BASH_ENV: undefined },
  });
}
