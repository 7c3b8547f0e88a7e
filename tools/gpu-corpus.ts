// Every lifted program of ../shared compiled by Dawn on a real GPU's driver (a machine lent for a
// session, where ../shared does not travel): the modules are emitted here, packed into one file, and
// compiled there.
//
//   node --import tsx tools/gpu-corpus.ts pack OUT.jsonl.gz
//       Lifts every container under ../shared (corpus/dxbc, dxbc-sm51, dxil, pairs, oracle), emits
//       WGSL, and writes one JSON line per distinct module: { path, code } (the first path that emitted
//       it; the count of paths is in the header line). Prints the census to stderr.
//   node --import tsx tools/gpu-corpus.ts check IN.jsonl.gz [REPORT.json]
//       Compiles each module with Dawn (test/helpers/webgpu.ts compileWgsl, one child process per
//       CPU) and creates a compute pipeline for each @compute entry point, which runs Tint's backend
//       and the driver's own compiler. Prints the adapter, the counts and every failure (path and
//       first error), writes them as JSON to REPORT.json when given, and exits 1 when a module fails
//       for any reason but the adapter's limits (threads a group, buffers a stage: the device's, and
//       counted apart).
//
// The driver is the one VK_ICD_FILENAMES names (test/helpers/webgpu.ts: SwiftShader's by default,
// IRIDIA_WEBGPU_ICD=system for the machine's own). scripts/device-check.sh runs this on a lent GPU.

import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseContainer } from '../src/container/container.js';
import { liftContainer } from '../src/lift/lift.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { SHARED, isContainerFile, readBytes, sharedPath, walk } from '../test/helpers/shared.js';
import { compileWgsl, closeWebgpu, webgpuAdapter, webgpuSkip } from '../test/helpers/webgpu.js';
import { SHARED_ROOTS } from './wgsl-snapshot.js';

/** Dawn's message when a pipeline needs more than the adapter gives (threads a group, buffers a
 * stage): a property of the device, reported apart from errors in the WGSL. */
const LIMIT = /exceeds the maximum/;

interface Header {
  readonly containers: number;
  readonly emitted: number;
  readonly modules: number;
}

interface Module {
  readonly path: string;
  readonly code: string;
}

function pack(out: string): number {
  const roots = SHARED_ROOTS.map((r) => sharedPath(r)).filter((r): r is string => r !== undefined);
  if (roots.length === 0) {
    process.stderr.write(`gpu-corpus: ${SHARED} is absent\n`);
    return 1;
  }
  const seen = new Set<string>();
  const modules: Module[] = [];
  let containers = 0;
  let emitted = 0;
  for (const root of roots)
    for (const f of walk(root)) {
      if (!isContainerFile(f)) continue;
      containers++;
      let code: string;
      try {
        code = emitWgsl(liftContainer(parseContainer(readBytes(f))));
      } catch {
        continue; // refusals are test/lift's business (known lists); only emitted modules travel
      }
      emitted++;
      if (seen.has(code)) continue;
      seen.add(code);
      modules.push({ path: relative(SHARED, f), code });
    }
  const header: Header = { containers, emitted, modules: modules.length };
  const text = [header, ...modules].map((x) => JSON.stringify(x)).join('\n') + '\n';
  writeFileSync(out, gzipSync(text, { level: 9 }));
  process.stderr.write(
    `gpu-corpus: ${containers} containers, ${emitted} emit WGSL, ${modules.length} distinct modules -> ${out}\n`,
  );
  return 0;
}

async function check(input: string, report: string | undefined): Promise<number> {
  const lines = gunzipSync(readFileSync(input)).toString('utf8').split('\n').filter(Boolean);
  const header = JSON.parse(lines[0]!) as Header;
  const modules = lines.slice(1).map((l) => JSON.parse(l) as Module);
  if (modules.length !== header.modules)
    throw new Error(`${input}: ${modules.length} modules, header says ${header.modules}`);
  const adapter = webgpuAdapter();
  if (adapter === undefined) {
    process.stderr.write(`gpu-corpus: ${String(webgpuSkip())}\n`);
    return 1;
  }
  const t0 = performance.now();
  const computeModules = modules.filter((m) => m.code.includes('@compute')).length;
  const results = await compileWgsl(
    modules.map((m) => m.code),
    { pipelines: true },
  );
  const seconds = (performance.now() - t0) / 1000;
  await closeWebgpu();
  const failures = results.flatMap((r, i) =>
    r.ok
      ? []
      : [
          {
            path: modules[i]!.path,
            crashed: r.crashed === true,
            overLimit: !r.crashed && r.messages.some((m) => LIMIT.test(m)),
            error: r.crashed
              ? 'compiler crashed'
              : (r.messages.find((m) => m.startsWith('error')) ?? r.messages[0] ?? '?'),
          },
        ],
  );
  const summary = {
    adapter,
    containers: header.containers,
    emitted: header.emitted,
    modules: modules.length,
    computeModules,
    failed: failures.length,
    crashed: failures.filter((f) => f.crashed).length,
    overLimit: failures.filter((f) => f.overLimit).length,
    seconds: Math.round(seconds * 10) / 10,
    failures,
  };
  process.stdout.write(
    `gpu-corpus: adapter ${adapter}\n` +
      `gpu-corpus: ${modules.length} distinct modules (${header.emitted} of ${header.containers} containers emit WGSL), ` +
      `${computeModules} with compute pipelines; ${failures.length} failed in ${summary.seconds} s: ` +
      `${summary.overLimit} past the adapter's limits, ${summary.crashed} crashed, ` +
      `${failures.length - summary.overLimit - summary.crashed} errors\n`,
  );
  for (const f of failures)
    process.stdout.write(`  ${f.path}: ${f.overLimit ? '(limit) ' : ''}${f.error.split('\n')[0]}\n`);
  if (report) writeFileSync(report, JSON.stringify(summary, null, 1) + '\n');
  return failures.some((f) => !f.overLimit) ? 1 : 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const [verb, a, b] = argv;
  if (verb === 'pack' && a) return pack(a);
  if (verb === 'check' && a) return check(a, b);
  process.stderr.write('usage: gpu-corpus pack OUT.jsonl.gz | check IN.jsonl.gz [REPORT.json]\n');
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
