// Byte-identity harness for the decompiler (issues 11 and 17): for every container under test/fixtures,
// ../shared/oracle and every `--every`-th (default 10th) of ../shared/corpus/dxbc and dxbc-sm51 in
// path order, one line with the SHA-256 (first 16 hex digits) of its decompiled HLSL and readable
// WGSL, or of the refusal. A speed change to src/decompile must leave every line as it was:
//
//   node --import tsx tools/decompile-snapshot.ts > before.txt      (unchanged tree)
//   node --import tsx tools/decompile-snapshot.ts > after.txt       (changed tree)
//   diff before.txt after.txt                                       (empty: byte-identical)
//
// The CPU seconds spent decompiling (the snapshot's own hashing and file reads not counted) go to
// standard error. Without ../shared only the fixtures are read.

import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { decompile, decompiledHlsl, decompiledWgsl } from '../src/decompile/index.js';
import { FIXTURES, REPO, SHARED, isContainerFile, readBytes, sharedPath, walk } from '../test/helpers/shared.js';

const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** What the decompiler makes of one container: its HLSL and its readable WGSL, or why not. */
function decompiled(bytes: Uint8Array): string {
  let d;
  try {
    d = decompile(bytes);
  } catch (e) {
    return `refused ${message(e)}`;
  }
  let out = '';
  try {
    out += decompiledHlsl(d);
  } catch (e) {
    out += `HLSL refused ${message(e)}`;
  }
  try {
    out += decompiledWgsl(d);
  } catch (e) {
    out += `WGSL refused ${message(e)}`;
  }
  return out;
}

function main(argv: readonly string[]): void {
  const at = argv.indexOf('--every');
  const every = at >= 0 ? Number(argv[at + 1]) : 10;
  if (!(Number.isInteger(every) && every >= 1)) {
    process.stderr.write('decompile-snapshot: --every takes a whole number of at least 1\n');
    process.exitCode = 2;
    return;
  }
  const files = walk(FIXTURES).filter(isContainerFile);
  const oracle = sharedPath('oracle');
  if (oracle) files.push(...walk(oracle).filter(isContainerFile));
  for (const c of ['corpus/dxbc', 'corpus/dxbc-sm51']) {
    const root = sharedPath(c);
    if (root)
      files.push(
        ...walk(root)
          .filter(isContainerFile)
          .filter((_, i) => i % every === 0),
      );
  }
  let cpu = 0;
  const lines: string[] = [];
  for (const f of files) {
    const bytes = readBytes(f);
    const c0 = process.cpuUsage();
    const text = decompiled(bytes);
    const c1 = process.cpuUsage(c0);
    cpu += (c1.user + c1.system) / 1e6;
    lines.push(`${relative(f.startsWith(FIXTURES) ? REPO : SHARED, f)}\t${hash(text)}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  process.stderr.write(`decompile-snapshot: ${lines.length} containers, ${cpu.toFixed(1)} s of CPU decompiling\n`);
}

main(process.argv.slice(2));
