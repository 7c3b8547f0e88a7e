// Byte-identity harness for the lifter and the WGSL emitter (issue 17): for every container under the
// given folders (default: ../shared/corpus/dxbc, dxbc-sm51, dxil, pairs and ../shared/oracle), one
// line with the SHA-256 (first 16 hex digits) of the lifted module's IR print (ir/print.ts) and of
// its emitted WGSL, or the refusal's message. A speed change must leave every line as it was:
//
//   node --import tsx tools/wgsl-snapshot.ts > before.txt      (unchanged tree)
//   node --import tsx tools/wgsl-snapshot.ts > after.txt       (changed tree)
//   diff before.txt after.txt                                  (empty: byte-identical)
//
// `--dxil` walks only the DXIL lifter's folders (../shared/corpus/dxil and corpus/pairs: seconds, not
// minutes), whose lines are those of the whole run's with these paths.
// `--fixtures` reads test/fixtures instead (what test/lift/snapshot.test.ts compares with its
// committed digest file). Paths are printed relative to the folder walked, so two checkouts agree.

import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { printModule } from '../src/ir/print.js';
import { FIXTURES, SHARED, isContainerFile, readBytes, sharedPath, walk } from '../test/helpers/shared.js';

const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** A one-line message (refusals may name offsets and reasons over several lines). */
const oneLine = (e: unknown): string =>
  (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).replace(/\s*\n\s*/g, ' | ');

/** The snapshot line of one container's bytes (without its path). */
export function snapshotLine(bytes: Uint8Array): string {
  let program;
  try {
    program = liftContainer(parseContainer(bytes));
  } catch (e) {
    return `refused ${oneLine(e)}`;
  }
  const ir = hash(printModule(program.module));
  let wgsl: string;
  try {
    wgsl = hash(emitWgsl(program));
  } catch (e) {
    wgsl = `refused ${oneLine(e)}`;
  }
  return `ir ${ir} wgsl ${wgsl}`;
}

/** `path<TAB>line` for every container file under each root (paths relative to `base`). */
export function snapshot(roots: readonly string[], base: string): string[] {
  const out: string[] = [];
  for (const root of roots)
    for (const f of walk(root)) {
      if (!isContainerFile(f)) continue;
      out.push(`${relative(base, f)}\t${snapshotLine(readBytes(f))}`);
    }
  return out;
}

/** The folders of ../shared the whole run walks. */
export const SHARED_ROOTS = ['corpus/dxbc', 'corpus/dxbc-sm51', 'corpus/dxil', 'corpus/pairs', 'oracle'];

function main(argv: readonly string[]): void {
  let lines: string[];
  if (argv.includes('--fixtures')) lines = snapshot([FIXTURES], FIXTURES);
  else {
    const roots = (argv.includes('--dxil') ? ['corpus/dxil', 'corpus/pairs'] : SHARED_ROOTS)
      .map((r) => sharedPath(r))
      .filter((r): r is string => r !== undefined);
    if (!roots.length) {
      process.stderr.write(`wgsl-snapshot: ${SHARED} is absent; use --fixtures\n`);
      process.exitCode = 1;
      return;
    }
    lines = snapshot(roots, SHARED);
  }
  process.stdout.write(lines.join('\n') + '\n');
  const lifted = lines.filter((l) => l.includes('\tir ')).length;
  const emitted = lines.filter((l) => / wgsl [0-9a-f]{16}$/.test(l)).length;
  process.stderr.write(
    `wgsl-snapshot: ${lines.length} containers, ${lifted} lift (IR printed), ${emitted} emit WGSL, ` +
      `${lines.length - lifted} refused\n`,
  );
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '')) {
  main(process.argv.slice(2));
}
