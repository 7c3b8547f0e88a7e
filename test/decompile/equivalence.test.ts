// Equivalence is the test (issue 11): every program that lifts decompiles to a readable module that
// validates and writes the same words as the lifted program on the executor, with seeded inputs
// (harness.ts); the HLSL printed for it is accepted by glslang's HLSL front end
// (`glslangValidator -D -V -e main -S <stage>`), or refused by name. Over the committed fixtures
// always, and over ../shared/oracle/own and a sample of ../shared/corpus when it is present; the
// counts are printed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';
import { census, describeCensus, glslang, glslangFailures } from './census.js';

const dxbc = (dir: string): string[] => walk(dir).filter((f) => f.endsWith('.dxbc'));

/** HLSL glslang cannot take for reasons of its own (Shader Model 5 features its front end lacks), by name. */
const GLSLANG_LACKS: readonly { name: string; pattern: RegExp }[] = [
  // GatherCmpGreen/Blue/Alpha: glslang implements only GatherCmpRed (and GatherCmp)
  { name: 'component-level gather compare', pattern: /unimplemented: component-level gather compare/ },
  // [partitioning("pow2")] (fxc's and Direct3D's; SPIR-V's tessellation has no power-of-two spacing)
  { name: 'pow2 partitioning', pattern: /'pow2' : unsupported partitioning type/ },
  // SV_ClipDistance/SV_CullDistance in a geometry program: glslang crashes (its own source, gs_clip_cull's
  // source.hlsl, crashes it the same way)
  { name: 'clip or cull distances in a geometry program', pattern: /exit SIGSEGV \(geometry, SV_(Clip|Cull)Distance/ },
];

function ownFailures(failures: readonly string[], say: (s: string) => void): string[] {
  const counts = new Map<string, number>();
  const rest = failures.filter((f) => {
    const lack = GLSLANG_LACKS.find((l) => l.pattern.test(f));
    if (lack) counts.set(lack.name, (counts.get(lack.name) ?? 0) + 1);
    return !lack;
  });
  for (const [n, c] of counts) say(`glslang lacks ${n}: ${c} programs`);
  return rest;
}
const tool = glslang();

test('fixtures: every program that lifts is equivalent after decompiling, and its HLSL is accepted by glslang', (t) => {
  const c = census(dxbc(FIXTURES));
  t.diagnostic(describeCensus('test/fixtures', c));
  assert.deepEqual(c.differences, []);
  assert.ok(c.equivalent > 50, `${c.equivalent} equivalent`);
  assert.ok(c.hlsl > 40, `${c.hlsl} printed as HLSL`);
  if (tool) {
    const g = glslangFailures(tool, c.entries);
    t.diagnostic(`glslang accepts ${g.checked - g.failures.length} of ${g.checked}`);
    assert.deepEqual(
      ownFailures(g.failures, (x) => t.diagnostic(x)),
      [],
    );
  }
});

test(
  'glslang is installed for the HLSL checks',
  { skip: needs(tool ? false : 'glslangValidator is not installed (Debian: glslang-tools)') },
  () => {
    assert.ok(tool);
  },
);

/**
 * Every Nth build of ../shared/oracle/own (IRIDIA_DECOMPILE_EVERY=N; default 6, 1 for all of them):
 * the whole oracle runs the executor twice for each of its 732 lifted programs, over ten minutes
 * on CI's 2 cores, so a default run samples it, every build landing in some N-way split.
 */
const every = Number(process.env['IRIDIA_DECOMPILE_EVERY'] ?? '6');

test(
  '../shared/oracle/own: every program that lifts is equivalent after decompiling, and its HLSL is accepted by glslang (every Nth build: IRIDIA_DECOMPILE_EVERY=N, 1 for all)',
  { skip: skipUnlessShared('oracle/own') },
  (t) => {
    assert.ok(Number.isInteger(every) && every >= 1, `IRIDIA_DECOMPILE_EVERY=${every} is not a count`);
    // one seed over the oracle (the fixtures run two): the run is the executor's, twice a program
    const builds = dxbc(sharedPath('oracle/own')!).filter((_, i) => i % every === 0);
    t.diagnostic(`every ${every === 1 ? '' : `${every}th `}build: ${builds.length}`);
    const c = census(builds, true, [1]);
    t.diagnostic(describeCensus('../shared/oracle/own', c));
    for (const l of c.limits) t.diagnostic(`limit: ${l}`);
    assert.deepEqual(c.differences, []);
    if (tool) {
      const g = glslangFailures(tool, c.entries);
      t.diagnostic(`glslang accepts ${g.checked - g.failures.length} of ${g.checked}`);
      assert.deepEqual(
        ownFailures(g.failures, (x) => t.diagnostic(x)),
        [],
      );
    }
  },
);

/**
 * A sample of ../shared/corpus's SM4/5/5.1 programs (dxbc and dxbc-sm51: real programs of public
 * projects, every era of fxc): every Nth of them in path order (IRIDIA_DECOMPILE_CORPUS_EVERY=N;
 * default 60, 1 for all), one seed. Every program that lifts must be equivalent after decompiling
 * or be named by the harness's limits; the HLSL printed must be accepted by glslang.
 */
const corpusEvery = Number(process.env['IRIDIA_DECOMPILE_CORPUS_EVERY'] ?? '60');

test(
  '../shared/corpus (dxbc, dxbc-sm51): every program of the sample that lifts is equivalent after decompiling, and its HLSL is accepted by glslang (every Nth: IRIDIA_DECOMPILE_CORPUS_EVERY=N, 1 for all)',
  { skip: skipUnlessShared('corpus/dxbc') },
  (t) => {
    assert.ok(
      Number.isInteger(corpusEvery) && corpusEvery >= 1,
      `IRIDIA_DECOMPILE_CORPUS_EVERY=${corpusEvery} is not a count`,
    );
    const files = ['corpus/dxbc', 'corpus/dxbc-sm51']
      .flatMap((d) => {
        const root = sharedPath(d);
        return root ? dxbc(root) : [];
      })
      .sort();
    const builds = files.filter((_, i) => i % corpusEvery === 0);
    t.diagnostic(`every ${corpusEvery === 1 ? '' : `${corpusEvery}th `}program: ${builds.length} of ${files.length}`);
    const c = census(builds, true, [1]);
    t.diagnostic(describeCensus('../shared/corpus', c));
    for (const l of c.limits) t.diagnostic(`limit: ${l}`);
    assert.deepEqual(c.differences, []);
    assert.ok(c.equivalent > builds.length / 2, `${c.equivalent} of ${builds.length} equivalent`);
    if (tool) {
      const g = glslangFailures(tool, c.entries);
      t.diagnostic(`glslang accepts ${g.checked - g.failures.length} of ${g.checked}`);
      assert.deepEqual(
        ownFailures(g.failures, (x) => t.diagnostic(x)),
        [],
      );
    }
  },
);
