// The lifter over every SM4/5/5.1 program of ../shared (oracle, corpus/dxbc, corpus/dxbc-sm51): each
// lifts or is refused by name; at least 95% lift; every lifted program passes the IR validator; the
// census of refusals by reason is printed. When the WebGPU package and a driver are present, Tint
// (Dawn's WGSL compiler) compiles every emitted module, in shards (test/helpers/webgpu.ts).
// Misses (a crash, an IR that does not validate, a module Tint refuses) are listed by name in
// test/known/lift.txt and test/known/lift-wgsl.txt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { SHARED, readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { parseContainer } from '../../src/container/container.js';
import { liftContainer } from '../../src/lift/lift.js';
import { LiftRefusal } from '../../src/lift/refuse.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl, lowerForWgsl } from '../../src/wgsl/index.js';
import { IridiaError } from '../../src/errors.js';

const ROOTS = ['oracle', 'corpus/dxbc', 'corpus/dxbc-sm51'];

interface Census {
  programs: number;
  lifted: number;
  readonly refusals: Map<string, number>;
  readonly failures: Map<string, string>;
  readonly wgsl: { name: string; code: string }[];
}

function runCensus(): Census {
  const c: Census = { programs: 0, lifted: 0, refusals: new Map(), failures: new Map(), wgsl: [] };
  for (const root of ROOTS) {
    const dir = sharedPath(root);
    if (!dir) continue;
    for (const f of walk(dir)) {
      if (!f.endsWith('.dxbc')) continue;
      const name = relative(SHARED, f);
      let container;
      try {
        container = parseContainer(readBytes(f));
      } catch (e) {
        // not a container the container layer reads (a typed refusal): not a program of this census;
        // anything else is a crash of the container layer, which fails the test
        if (!(e instanceof IridiaError)) throw e;
        continue;
      }
      if (!container.parts.some((p) => p.kind === 'SHEX' || p.kind === 'SHDR')) continue;
      c.programs++;
      try {
        const p = liftContainer(container);
        const problems = validateModule(p.module);
        // The WGSL-only passes must keep the module valid too.
        problems.push(
          ...validateModule(lowerForWgsl(p.module, { maxVertices: p.stageFunctions?.maxVertexCount ?? 1 })),
        );
        if (problems.length) {
          c.failures.set(name, `IR does not validate: ${problems[0]}`);
          continue;
        }
        c.lifted++;
        c.wgsl.push({ name, code: emitWgsl(p) });
      } catch (e) {
        const reason =
          e instanceof LiftRefusal
            ? `refused: ${e.category}`
            : e instanceof IridiaError
              ? `invalid: ${e.code}`
              : undefined;
        if (reason === undefined) {
          c.failures.set(name, `crash: ${e instanceof Error ? e.message : String(e)}`);
          continue;
        }
        c.refusals.set(reason, (c.refusals.get(reason) ?? 0) + 1);
      }
    }
  }
  return c;
}

let census: Census | undefined;
const getCensus = (): Census => (census ??= runCensus());

test(
  'every SM4/5/5.1 program of ../shared lifts or is refused by name; at least 95% lift',
  { skip: skipUnlessShared('oracle') },
  () => {
    const c = getCensus();
    const refused = [...c.refusals.values()].reduce((a, b) => a + b, 0);
    console.log(
      `lift census: ${c.programs} programs, ${c.lifted} lifted (${((100 * c.lifted) / c.programs).toFixed(2)}%), ${refused} refused, ${c.failures.size} failed`,
    );
    for (const [reason, n] of [...c.refusals].sort((a, b) => b[1] - a[1]))
      console.log(`  ${String(n).padStart(5)} ${reason}`);
    reportAgainstKnown('lift', { total: c.programs, failures: c.failures });
    assert.ok(c.lifted >= 0.95 * c.programs, `${c.lifted} of ${c.programs} lift`);
  },
);

const gpuSkip = skipUnlessShared('oracle') || webgpuSkip();

test("Tint compiles every emitted WGSL module of ../shared's programs", { skip: gpuSkip }, async () => {
  const c = getCensus();
  const results = await compileWgsl(c.wgsl.map((w) => w.code));
  const failures = new Map<string, string>();
  results.forEach((r, i) => {
    if (!r.ok)
      failures.set(
        c.wgsl[i]!.name,
        r.crashed ? 'compiler crashed' : (r.messages.find((m) => m.startsWith('error')) ?? '?'),
      );
  });
  // Barriers in data-dependent control flow (src/wgsl/uniformity.ts): how many modules hold a
  // barrier, and how many pass a branch condition through workgroupUniformLoad (docs/lift.md).
  const barriers = c.wgsl.filter((w) => /\b(workgroup|storage|texture)Barrier\(/.test(w.code));
  const uniform = barriers.filter((w) => w.code.includes('workgroupUniformLoad('));
  const refusedBarrier = barriers.filter((w) => failures.has(w.name)).length;
  console.log(
    `barriers: ${barriers.length} modules hold a barrier, ${uniform.length} pass conditions through workgroupUniformLoad, Tint refuses ${refusedBarrier} of them`,
  );
  reportAgainstKnown('lift-wgsl', { total: results.length, failures });
  assert.equal(results.length, c.wgsl.length);
});
