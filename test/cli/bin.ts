// The CLI run from source (no build needed): `node --import tsx test/cli/bin.ts COMMAND ...`, as
// bin/iridia.js runs the built one. Used by the CLI tests.
import { main } from '../../src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`iridia: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 3;
  },
);
