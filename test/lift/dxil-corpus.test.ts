// The DXIL lifter over every DXIL container of ../shared/corpus/dxil (issue 20, "Done when"): each
// program lifts or is refused by name — an IridiaError E601 (refused, the stable reason key before
// the ':' of its message) or E602 (invalid); anything else is a crash and fails the test. Every
// lifted module passes the IR validator (also after the WGSL-only passes); the census of refusals by
// reason is printed; the lifted count and the share of non-library programs lifted are held to
// floors (MIN_LIFTED, MIN_SHARE below; the issue's target is 95% of the non-library programs).
//
// test/known/dxil-lift.txt names every refused program (its path under corpus/dxil) under its
// reason key, checked both ways: a refusal that is not listed, or listed under another reason, fails
// the test, and so does a listed program that lifts (take it off the list). The detail after each
// name ('# ...') is a comment, not checked. When programs start to lift (or refuse differently),
// rewrite the list from a run and read its diff:
//
//   IRIDIA_UPDATE_KNOWN=1 node --import tsx --test test/lift/dxil-corpus.test.ts
//
// (then raise MIN_LIFTED and MIN_SHARE to the printed figures). When WebGPU is here (npm `webgpu`,
// SwiftShader's Vulkan driver), Tint compiles every lifted module's WGSL, sharded over child
// processes (test/helpers/webgpu.ts compileWgsl, front end only: no pipelines, whose per-stage
// limits are the adapter's); every module must compile. Without ../shared (a fresh clone) both
// tests skip naming the folder; under IRIDIA_STRICT=1 a missing folder or driver fails the run. The
// whole file takes about 25 s on 2 cores (12 s lifting, 12 s Tint).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { readBytes, sharedPath, skipUnlessShared, walk } from '../helpers/shared.js';
import { knownPath, reportAgainstKnown } from '../helpers/known.js';
import { compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { parseContainer, type Container } from '../../src/container/container.js';
import { liftContainer } from '../../src/lift/lift.js';
import { validateModule } from '../../src/ir/validate.js';
import { emitWgsl, lowerForWgsl } from '../../src/wgsl/index.js';
import { IridiaError } from '../../src/errors.js';
import { LiftRefusal } from '../../src/lift/refuse.js';
import { readProgramHeader } from '../../src/dxil/program-header.js';
import { readModule } from '../../src/dxil/module.js';
import { readDxilInfo } from '../../src/dxil/dxil-metadata.js';

const ROOT = 'corpus/dxil';
const SUITE = 'dxil-lift';
/** Floors: the figures measured when they were last raised (lifted programs; share of non-library
 * programs lifted). */
const MIN_LIFTED = 875;
const MIN_SHARE = 0.961;

interface Refusal {
  /** 'E601 <reason key>' or 'E602 invalid'. */
  readonly key: string;
  /** The message without its location prefix. */
  readonly message: string;
}

interface Census {
  programs: number;
  libraries: number;
  lifted: number;
  liftedNonLibrary: number;
  readonly refused: Map<string, Refusal>;
  /** Not an E601/E602, or an IR that does not validate: never allowed. */
  readonly failures: Map<string, string>;
  readonly wgsl: { name: string; code: string }[];
  /** Lifted programs emitWgsl refuses (E601, its message), by name. */
  readonly noWgsl: Map<string, string>;
}

/** The shader kind of a DXIL program ('lib', 'ps', ...), or undefined when the reader cannot tell. */
function shaderKind(c: Container): string | undefined {
  try {
    const part = c.parts.find((p) => p.kind === 'DXIL') ?? c.parts.find((p) => p.kind === 'ILDB');
    if (!part) return undefined;
    const header = readProgramHeader(part.data, part.kind, part.offset + 8);
    return readDxilInfo(readModule(header.bitcode, { part: part.kind, offset: part.offset + 8 })).shaderKind;
  } catch (e) {
    if (e instanceof IridiaError) return undefined; // the census counts it as refused below
    throw e;
  }
}

/** The stable key of a refusal: E601's reason before its first ':', E602 as 'invalid'. */
export function refusalKey(e: IridiaError): string {
  if (e.code === 'E601_LIFT_UNSUPPORTED') return `E601 ${e.reason.split(':')[0]!.trim()}`;
  return `${e.code.slice(0, 4)} invalid`;
}

function runCensus(dir: string): Census {
  const c: Census = {
    programs: 0,
    libraries: 0,
    lifted: 0,
    liftedNonLibrary: 0,
    refused: new Map(),
    failures: new Map(),
    wgsl: [],
    noWgsl: new Map(),
  };
  for (const f of walk(dir)) {
    if (!f.endsWith('.dxil')) continue;
    const name = relative(dir, f);
    let container: Container;
    try {
      container = parseContainer(readBytes(f));
    } catch (e) {
      if (e instanceof IridiaError) continue; // not a container: not a program of this census
      throw e;
    }
    if (!container.parts.some((p) => p.kind === 'DXIL' || p.kind === 'ILDB')) continue; // a root signature alone
    c.programs++;
    const library = shaderKind(container) === 'lib';
    if (library) c.libraries++;
    try {
      const p = liftContainer(container);
      const problems = validateModule(p.module);
      problems.push(...validateModule(lowerForWgsl(p.module, { maxVertices: p.stageFunctions?.maxVertexCount ?? 1 })));
      if (problems.length) {
        c.failures.set(name, `IR does not validate: ${problems[0]}`);
        continue;
      }
      c.lifted++;
      if (!library) c.liftedNonLibrary++;
      // emitWgsl refuses by name what WGSL cannot carry (mesh and amplification programs, 64-bit
      // atomics other than add/and/or/xor with an unused result): those lift and run on the executor
      try {
        c.wgsl.push({ name, code: emitWgsl(p) });
      } catch (e) {
        if (!(e instanceof LiftRefusal)) throw e;
        c.noWgsl.set(name, e.reason);
      }
    } catch (e) {
      if (e instanceof IridiaError && (e.code === 'E601_LIFT_UNSUPPORTED' || e.code === 'E602_LIFT_INVALID'))
        c.refused.set(name, { key: refusalKey(e), message: e.reason });
      else
        c.failures.set(
          name,
          `crash: ${e instanceof IridiaError ? `${e.code} ` : ''}${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
        );
    }
  }
  return c;
}

/** The known list's text for a run: every refused program under its reason key, its detail a comment. */
function knownText(c: Census): string {
  const byKey = new Map<string, [string, Refusal][]>();
  for (const [name, r] of [...c.refused].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    byKey.set(r.key, [...(byKey.get(r.key) ?? []), [name, r]]);
  const lines = [
    '# Every DXIL program of ../shared/corpus/dxil the lifter refuses (E601, by reason key) or finds',
    '# invalid (E602), by its path under corpus/dxil: test/lift/dxil-corpus.test.ts checks it both ways.',
    '# The text after "#" on an entry is the refusal message (not checked). Rewrite from a run with',
    '#   IRIDIA_UPDATE_KNOWN=1 node --import tsx --test test/lift/dxil-corpus.test.ts',
    `# ${c.refused.size} refused of ${c.programs} programs (${c.libraries} libraries); ${c.lifted} lift.`,
  ];
  for (const [key, entries] of [...byKey].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
    lines.push('', `@reason ${key}`);
    for (const [name, r] of entries) lines.push(`${name}  # ${r.message.replace(/\s+/g, ' ').slice(0, 160)}`);
  }
  return `${lines.join('\n')}\n`;
}

const dir = sharedPath(ROOT);
const skip = skipUnlessShared(ROOT);
let census: Census | undefined;
const getCensus = (): Census => (census ??= runCensus(dir!));

test(
  `every DXIL program of ../shared/${ROOT} lifts or is refused by name; refusals listed in test/known/${SUITE}.txt`,
  { skip },
  () => {
    const c = getCensus();
    const nonLibrary = c.programs - c.libraries;
    const share = c.liftedNonLibrary / nonLibrary;
    console.log(
      `dxil lift census: ${c.programs} programs (${c.libraries} libraries), ${c.lifted} lifted, ${c.refused.size} refused, ${c.failures.size} failed; non-library programs lifted: ${c.liftedNonLibrary} of ${nonLibrary} (${(100 * share).toFixed(1)}%; the issue's target is 95%)`,
    );
    const byKey = new Map<string, number>();
    for (const r of c.refused.values()) byKey.set(r.key, (byKey.get(r.key) ?? 0) + 1);
    for (const [key, n] of [...byKey].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)} ${key}`);
    for (const [name, why] of c.failures) console.log(`  FAILED ${name}: ${why.split('\n').slice(0, 3).join(' | ')}`);

    assert.equal(
      c.failures.size,
      0,
      `crashes or invalid IR:\n${[...c.failures].map(([n, w]) => `${n}: ${w.split('\n')[0]}`).join('\n')}`,
    );
    if (process.env['IRIDIA_UPDATE_KNOWN'] === '1') {
      writeFileSync(knownPath(SUITE), knownText(c));
      console.log(`  wrote ${relative(process.cwd(), knownPath(SUITE))} (${c.refused.size} entries)`);
    }
    reportAgainstKnown(
      SUITE,
      {
        total: c.programs,
        failures: new Map([...c.refused].map(([n, r]) => [n, `${r.key}: ${r.message}`])),
      },
      { log: (l) => !l.startsWith('  known miss') && console.log(l) },
    );
    assert.ok(c.lifted >= MIN_LIFTED, `${c.lifted} lifted, the floor is ${MIN_LIFTED}`);
    assert.ok(
      share >= MIN_SHARE,
      `${(100 * share).toFixed(1)}% of non-library programs lift, the floor is ${100 * MIN_SHARE}%`,
    );
  },
);

test(
  `Tint compiles the WGSL of every DXIL program of ../shared/${ROOT} that lifts`,
  { skip: skip || webgpuSkip() },
  async () => {
    const c = getCensus();
    const results = await compileWgsl(c.wgsl.map((w) => w.code));
    const failures: string[] = [];
    results.forEach((r, i) => {
      if (!r.ok)
        failures.push(
          `${c.wgsl[i]!.name}: ${r.crashed ? 'compiler crashed' : (r.messages.find((m) => m.startsWith('error')) ?? '?')}`,
        );
    });
    console.log(
      `dxil lift WGSL: ${results.length - failures.length} of ${results.length} modules compile; ${c.noWgsl.size} lifted programs emit no WGSL (emitWgsl refuses them by name; the executor runs them):`,
    );
    const why = new Map<string, { n: number; example: string }>();
    for (const r of c.noWgsl.values()) {
      const key = r.split(':')[0]!;
      why.set(key, { n: (why.get(key)?.n ?? 0) + 1, example: why.get(key)?.example ?? r });
    }
    for (const [k, { n, example }] of [...why].sort((a, b) => b[1].n - a[1].n))
      console.log(`  ${String(n).padStart(5)} ${k} (e.g. ${example.slice(k.length + 2, k.length + 120)})`);
    assert.equal(results.length + c.noWgsl.size, c.lifted);
    assert.equal(results.length, c.wgsl.length);
    assert.deepEqual(failures, [], `Tint refuses ${failures.length} modules:\n${failures.slice(0, 30).join('\n')}`);
  },
);
