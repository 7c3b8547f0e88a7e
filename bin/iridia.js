#!/usr/bin/env node
// The iridia command line (built from src/cli by `npm run build`, which `npm install` runs).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';

// Each command is one short process, and most of a batch's time was V8 compiling: with the default
// tier-up budget (66 KB of bytecode run per function) TurboFan optimised code before its type
// feedback had settled, then threw much of it away. The budget is 16 times the default: over the
// 5,680 files of ../shared/corpus/dxbc, `disasm --out-dir` compiled 306 functions with 99
// deoptimisations under the default, 126 with 36 at 8 times, 88 with 26 at 16 times (2 to 3% less
// CPU than at 8); `lift --wgsl --out-dir` over the 1,120 of corpus/dxil compiled 178 functions (61
// deoptimisations, 1,165 ms of compiling) at 8 times and 104 (24, 516 ms) at 16, about a tenth less
// CPU (docs/benchmarks.md, the fifteenth session). A budget given on node's own command line is
// left as it is. Its cost is a later steady state: lifting corpus/dxil over and over in one process
// (`tools/cpu-where.ts budget 30 --dxil --times=1,4,16`), 16 times led until about 15,000 programs,
// then 4 times the default did better (its passes as cheap as the default's from about the tenth,
// 16 times' still a fifth dearer over the last five of 30); over corpus/dxbc, 16 times led through all
// 10 passes (56,000 programs). For a batch of tens of thousands of DXIL programs a thread:
// `node --interrupt-budget=270336 bin/iridia.js ...` (docs/benchmarks.md, the sixteenth session).
if (!process.execArgv.some((a) => a.startsWith('--interrupt-budget'))) setFlagsFromString('--interrupt-budget=1081344');

// The command line as the package's build joins it (dist/node/cli.js, scripts/build-node.mjs: a few
// files instead of about a hundred modules: 35 to 45 ms less CPU to start `disasm` or `lift` of one
// file), unless tsc has written dist/src since it was made or it is absent: then tsc's own modules,
// which hold the same code as of now.
const { main } = await import(bundleIsCurrent() ? '../dist/node/cli.js' : '../dist/src/cli/main.js');

function bundleIsCurrent() {
  const at = (f) => statSync(join(import.meta.dirname, f), { throwIfNoEntry: false })?.mtimeMs;
  const bundle = at('../dist/node/cli.js');
  const modules = at('../dist/src/cli/main.js');
  return bundle !== undefined && (modules === undefined || bundle >= modules);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`iridia: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 3;
  },
);
