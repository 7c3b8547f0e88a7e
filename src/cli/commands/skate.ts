// `iridia skate ...`: skate.'s engine structures beside its programs (src/engines/skate,
// ../shared/spec/skate-bindings.md).
//   skate binding-set|pass-binding|input-layout|render-state FILE [--json]   one decoded structure
//   skate map PROGRAM --sets SET0 SET1 --pass PASS [--layout L [--usage N=NAME,...]] [--state S] [--json]
//   skate census DIR... [--json]   the map's counts over raster-permutation folders (set0.bin,
//                                  set1.bin, pass.bin and the containers beside them)

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, fileStartsWith, readInput, walkPaths, writeJson, writeText } from '../io.js';
import { liftContainer } from '../../lift/lift.js';
import { parseContainer } from '../../container/container.js';
import { IridiaError } from '../../errors.js';
import { readBindingSet, readPassBinding } from '../../engines/skate/binding-set.js';
import { readInputLayout } from '../../engines/skate/input-layout.js';
import { readRenderState } from '../../engines/skate/render-state.js';
import { programFacts } from '../../engines/skate/program.js';
import {
  countMapped,
  emptyCounts,
  mapProgram,
  type MapCounts,
  type MappedDeclaration,
} from '../../engines/skate/mapping.js';
import { checkInputLayout, type InputCheck } from '../../engines/skate/input-check.js';
import { describePipeline } from '../../engines/skate/pipeline.js';
import {
  bindingSetJson,
  bindingSetText,
  inputLayoutJson,
  inputLayoutText,
  passBindingJson,
  passBindingText,
  renderStateJson,
  renderStateText,
} from '../../engines/skate/view.js';
import type { Json } from '../../reflect/d3d.js';

const STRUCTURES: Readonly<Record<string, { json: (b: Uint8Array) => Json; text: (b: Uint8Array) => string }>> = {
  'binding-set': { json: (b) => bindingSetJson(readBindingSet(b)), text: (b) => bindingSetText(readBindingSet(b)) },
  'pass-binding': {
    json: (b) => passBindingJson(readPassBinding(b)),
    text: (b) => passBindingText(readPassBinding(b)),
  },
  'input-layout': {
    json: (b) => inputLayoutJson(readInputLayout(b)),
    text: (b) => inputLayoutText(readInputLayout(b)),
  },
  'render-state': {
    json: (b) => renderStateJson(readRenderState(b)),
    text: (b) => renderStateText(readRenderState(b)),
  },
};

/** The --json object: schema iridia.skate/1, the subcommand, then the subcommand's members. */
const out = (subcommand: string, j: Json, path: string | undefined): void =>
  writeJson('skate', { subcommand, ...(j as Record<string, Json>) }, path);

export const help = `usage: iridia skate binding-set|pass-binding|input-layout|render-state FILE [-o OUT] [--json]
       iridia skate map PROGRAM --sets SET0 SET1 --pass PASS [--layout L [--usage N=NAME,...]] [--state S] [-o OUT] [--json]
       iridia skate census DIR... [-o OUT] [--json]

skate.'s engine structures beside its programs (docs/skate.md, src/engines/skate/README.md; the format
is ../shared/spec/skate-bindings.md). Checked on constructed data only: no skate. file is public.

subcommands:
  binding-set FILE    a binding set: header, groups, parameters and their entries
  pass-binding FILE   a pass binding (version 1 or 0x101) and its groups
  input-layout FILE   an input layout: elements (DXGI formats by name) and usage bytes
  render-state FILE   a RasterPermutationSharedData payload: depth bias, rasterizer, depth-stencil, blend
  map PROGRAM         each space-0 declaration of a DXBC or DXIL program with its source under the
                      spec's register rule, the agreement counts, and with --layout / --state the input
                      check and the pipeline in WebGPU's and D3D12's terms
  census DIR...       the map's counts over raster-permutation folders (set0.bin, set1.bin, pass.bin and
                      the containers beside them)

options:
  FILE, PROGRAM       the input; - reads standard input
  --sets SET0 SET1    map: the two binding sets (set 0, set 1)
  --pass PASS         map: the pass binding
  --layout L          map: an input layout to check against the vertex program's inputs
  --usage N=NAME,...  map: the semantic name of each usage byte (the byte's meaning is unknown)
  --state S           map: a render state, described as a WebGPU / D3D12 pipeline
  -o, --output OUT    write the output to OUT instead of standard output
  --json              one JSON object (schema iridia.skate/1, docs/json.md), the spec's field names in camelCase

example:
  iridia skate render-state test/fixtures/skate/constructed/decal-state.bin
`;

export function run(argv: string[]): number {
  const [sub, ...rest] = argv;
  if (sub === undefined)
    throw new UsageError(
      'skate takes a subcommand: binding-set, pass-binding, input-layout, render-state, map or census',
    );
  const structure = STRUCTURES[sub];
  if (structure) {
    const args = parseArgs(rest, { ...OUTPUT_FLAGS });
    if (args.positional.length !== 1) throw new UsageError(`skate ${sub} takes one FILE`);
    const bytes = readInput(args.positional[0]!);
    if (flag(args, '--json')) out(sub, structure.json(bytes), value(args, '-o'));
    else writeText(value(args, '-o'), structure.text(bytes));
    return 0;
  }
  if (sub === 'map') return runMap(rest);
  if (sub === 'census') return runCensus(rest);
  throw new UsageError(`unknown skate subcommand '${sub}'`);
}

function parseUsage(spec: string | undefined): Map<number, string> {
  const names = new Map<number, string>();
  if (spec === undefined) return names;
  for (const item of spec.split(',')) {
    const m = /^(0x[0-9a-f]+|\d+)=([A-Za-z_][A-Za-z0-9_]*)$/i.exec(item);
    if (!m) throw new UsageError(`--usage takes N=NAME pairs separated by commas, not ${JSON.stringify(item)}`);
    const n = Number(m[1]);
    if (n > 255) throw new UsageError(`--usage: a usage is a byte, not ${m[1]}`);
    names.set(n, m[2]!);
  }
  return names;
}

function mappedJson(m: MappedDeclaration): Json {
  const d = m.declaration;
  return {
    name: d.name,
    register: `${d.registerClass}${d.register}`,
    count: d.count,
    space: d.space,
    ...(d.bufferSize !== undefined ? { bufferSize: d.bufferSize } : {}),
    source: m.source === null ? null : { ...m.source },
    status: m.status,
    ...(m.declaredSize !== undefined ? { declaredSize: m.declaredSize, groupSize: m.groupSize ?? null } : {}),
    ...(m.missingIndexes !== undefined ? { missingIndexes: [...m.missingIndexes] } : {}),
  };
}

function mappedText(m: MappedDeclaration): string {
  const d = m.declaration;
  const src =
    m.source === null
      ? '-'
      : `${m.source.structure} group ${m.source.group}${m.source.index !== undefined ? ` index ${m.source.index}` : ''}`;
  const extra =
    m.declaredSize !== undefined
      ? ` (declared ${m.declaredSize}, group ${m.groupSize})`
      : m.missingIndexes && m.missingIndexes.length
        ? ` (missing ${m.missingIndexes.join(', ')})`
        : '';
  return `  ${`${d.registerClass}${d.register}`.padEnd(6)}${`space${d.space}`.padEnd(8)}${(d.name || '-').padEnd(20)}${src.padEnd(32)}${m.status}${extra}`;
}

const countsJson = (c: MapCounts): Json => JSON.parse(JSON.stringify(c)) as Json;

function countsText(c: MapCounts): string[] {
  const un = Object.entries(c.unassigned).map(([k, n]) => `${n} ${k}`);
  return [
    `  b0 (set 1, group 0): matching buffer size in ${c.b0.matching} of ${c.b0.declarations}`,
    `  b1 (set 0, group 0): matching size in ${c.b1.matching} of ${c.b1.declarations}`,
    `  b4 (pass binding, group 0): matching size in ${c.b4.matching} of ${c.b4.declarations}`,
    `  t (set 1 / set 0 / pass binding, group 1): ${c.resources.withEntries} of ${c.resources.declarations} resource declarations have entries`,
    `  no source under the rule: ${un.length ? un.join(', ') : 'none'}`,
    `  source absent: ${c.sourceAbsent}; outside space 0: ${c.otherSpaces}`,
  ];
}

function checkJson(c: InputCheck): Json {
  return {
    inputs: c.inputs.map((i) => ({
      semanticName: i.input.semanticName,
      semanticIndex: i.input.semanticIndex,
      width: i.width,
      element: i.element,
      match: i.match,
    })),
    unusedElements: [...c.unusedElements],
    counts: { ...c.counts },
  };
}

function runMap(argv: string[]): number {
  // `--sets A B` takes two values.
  const i = argv.indexOf('--sets');
  let sets: [string, string] | undefined;
  const rest = [...argv];
  if (i >= 0) {
    const a = argv[i + 1];
    const b = argv[i + 2];
    if (a === undefined || b === undefined || a.startsWith('--') || b.startsWith('--'))
      throw new UsageError('--sets takes two files: SET0 SET1');
    sets = [a, b];
    rest.splice(i, 3);
  }
  const args = parseArgs(rest, {
    ...OUTPUT_FLAGS,
    '--pass': { value: true },
    '--layout': { value: true },
    '--state': { value: true },
    '--usage': { value: true },
  });
  if (args.positional.length !== 1) throw new UsageError('skate map takes one PROGRAM');
  if (sets === undefined) throw new UsageError('skate map needs --sets SET0 SET1');
  const passPath = value(args, '--pass');
  if (passPath === undefined) throw new UsageError('skate map needs --pass PASS');
  const programBytes = readInput(args.positional[0]!);
  const facts = programFacts(programBytes);
  const sources = {
    sets: [readBindingSet(readInput(sets[0])), readBindingSet(readInput(sets[1]))] as const,
    pass: readPassBinding(readInput(passPath)),
  };
  const mapped = mapProgram(facts.declarations, sources);
  const layoutPath = value(args, '--layout');
  const layout = layoutPath === undefined ? undefined : readInputLayout(readInput(layoutPath));
  const check = layout ? checkInputLayout(layout, facts.inputs, parseUsage(value(args, '--usage'))) : undefined;
  const statePath = value(args, '--state');
  let pipeline: ReturnType<typeof describePipeline> | undefined;
  if (statePath !== undefined) {
    const state = readRenderState(readInput(statePath));
    // The lifted program gives the vertex attributes their WGSL locations (a vertex program) or
    // limits the colour targets to those it writes (a pixel program). A program the lifter refuses
    // is described without it, and the notes say what that leaves out.
    let lifted;
    try {
      lifted = liftContainer(parseContainer(programBytes));
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      lifted = undefined;
    }
    pipeline = describePipeline(state, {
      ...(layout ? { inputLayout: layout } : {}),
      ...(check ? { check } : {}),
      ...(lifted?.stage === 'vertex' ? { vertexProgram: lifted } : {}),
      ...(lifted?.stage === 'pixel' ? { pixelProgram: lifted } : {}),
    });
  }
  if (flag(args, '--json')) {
    out(
      'map',
      {
        program: args.positional[0]!,
        bytecode: facts.bytecode,
        declarations: mapped.declarations.map(mappedJson),
        counts: countsJson(mapped.counts),
        inputCheck: check ? checkJson(check) : null,
        pipeline: pipeline ? (JSON.parse(JSON.stringify(pipeline)) as Json) : null,
      },
      value(args, '-o'),
    );
    return 0;
  }
  const lines = [`${args.positional[0]!} (${facts.bytecode}): ${mapped.declarations.length} declarations`];
  lines.push(...mapped.declarations.map(mappedText), 'counts:', ...countsText(mapped.counts));
  if (check) {
    lines.push('input layout check:');
    for (const c of check.inputs)
      lines.push(
        `  ${`${c.input.semanticName}${c.input.semanticIndex}`.padEnd(16)}width ${c.width}  ${c.element === null ? 'unmapped' : `element ${c.element}, ${c.match}`}`,
      );
    const k = check.counts;
    lines.push(
      `  ${k.inputs} inputs: ${k.nameAndWidth} by name/index and width, ${k.eliminationAndWidth} by elimination and width, ${k.nameWider} by name with a wider read, ${k.nameNarrower} by name with a narrower read, ${k.unmapped} unmapped`,
    );
  }
  if (pipeline) {
    lines.push(
      'pipeline (WebGPU):',
      ...JSON.stringify(pipeline.webgpu, null, 2)
        .split('\n')
        .map((l) => `  ${l}`),
    );
    lines.push(
      'pipeline (D3D12):',
      ...JSON.stringify(pipeline.d3d12, null, 2)
        .split('\n')
        .map((l) => `  ${l}`),
    );
    lines.push('notes:', ...pipeline.notes.map((n) => `  - ${n}`));
  }
  writeText(value(args, '-o'), `${lines.join('\n')}\n`);
  return 0;
}

const PERMUTATION_FILES = ['set0.bin', 'set1.bin', 'pass.bin'] as const;

function runCensus(argv: string[]): number {
  const args = parseArgs(argv, { ...OUTPUT_FLAGS });
  if (args.positional.length === 0) throw new UsageError('skate census takes DIR...');
  const counts = emptyCounts();
  const failed: { path: string; error: string }[] = [];
  let permutations = 0;
  let programs = 0;
  const folders = new Set<string>();
  for (const p of args.positional) {
    if (!statSync(p).isDirectory()) throw new UsageError(`skate census takes folders; ${p} is not one`);
    folders.add(p);
    for (const f of walkPaths([p])) folders.add(f.slice(0, f.lastIndexOf('/')));
  }
  for (const dir of [...folders].sort()) {
    const names = readdirSync(dir);
    if (!PERMUTATION_FILES.every((n) => names.includes(n))) continue;
    let sources;
    try {
      sources = {
        sets: [
          readBindingSet(readInput(join(dir, 'set0.bin'))),
          readBindingSet(readInput(join(dir, 'set1.bin'))),
        ] as const,
        pass: readPassBinding(readInput(join(dir, 'pass.bin'))),
      };
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      failed.push({ path: dir, error: `${e.message} [${e.code}]` });
      continue;
    }
    permutations++;
    for (const n of names.sort()) {
      const path = join(dir, n);
      if (!statSync(path).isFile()) continue;
      const bytes = readInput(path);
      if (!fileStartsWith(bytes, 'DXBC')) continue;
      try {
        countMapped(counts, mapProgram(programFacts(bytes).declarations, sources).declarations);
        programs++;
      } catch (e) {
        if (!(e instanceof IridiaError)) throw e;
        failed.push({ path, error: `${e.message} [${e.code}]` });
      }
    }
  }
  if (flag(args, '--json'))
    out('census', { permutations, programs, counts: countsJson(counts), errors: failed }, value(args, '-o'));
  else {
    for (const f of failed) process.stderr.write(`iridia skate census: ${f.path}: ${f.error}\n`);
    writeText(
      value(args, '-o'),
      [`${permutations} raster permutations, ${programs} programs`, ...countsText(counts), ''].join('\n'),
    );
  }
  return failed.length ? 1 : 0;
}
