#!/usr/bin/env node
// The iridia command line (built from src/cli by `npm run build`, which `npm install` runs).
import { setFlagsFromString } from 'node:v8';

// Each command is one short process, and most of a batch's time was V8 compiling: with the default
// tier-up budget (66 KB of bytecode run per function) TurboFan optimised the listing code before its
// type feedback had settled, then threw much of it away. `disasm --out-dir` over the 5,680 files of
// ../shared/corpus/dxbc compiled 306 functions with 99 deoptimisations; with 8 times the budget 131
// with 37, and the run took about a quarter less CPU (the figures: git log of this line). Steady
// state is unchanged (a function is optimised a little later, with the same code); a budget given on
// node's own command line is left as it is.
if (!process.execArgv.some((a) => a.startsWith('--interrupt-budget'))) setFlagsFromString('--interrupt-budget=540672');

const { main } = await import('../dist/src/cli/main.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`iridia: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 3;
  },
);
