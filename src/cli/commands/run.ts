// `iridia run FILE --input JSON [--gpu]`: lifts a container and runs it on the CPU executor (or,
// with --gpu, its WGSL through WebGPU: npm `webgpu`, Dawn), reading the dispatch size, target size,
// bindings and varyings from a JSON file and printing every output word as JSON.
//
// `iridia run --seed S FILE [--json] [--gpu] [--workgroups X,Y,Z] [--size WxH] [--vertices N]`:
// binds every resource the program declares, and its varyings, with words from the seeded generator
// of src/exec/seed.ts (from S and each resource's register class, register and space, so a DXBC and
// a DXIL build of one HLSL get the same bytes), runs one thread group (compute), an 8x8 target
// (pixel) or 3 vertices (vertex) unless told otherwise, and prints every output word: each writable
// resource under its Direct3D name (u0, u1,space2), a pixel program's targets by location. Text by
// default, JSON with --json. docs/exec.md, "Seeded runs".
//
// Input JSON (every field optional but the size of the run):
//   { "workgroups": [x, y, z]            compute: thread groups dispatched
//     "width": W, "height": H             pixel: the target, drawn as one full-screen triangle
//     "vertexCount": N                    vertex: vertices run
//     "buffers": { "cb0": [...], "u0": [...], "t1": [...] }   words (numbers; floats given as
//               {"f32": [...]}), by the resource's name, its Direct3D register (b0, t0, u0) or group:binding
//     "textures": { "t0": { "width": W, "height": H, "layers": L, "words": [...] } }  4 words a texel
//     "inputs": { "0": [...] }            varyings by location: 4 words per pixel or vertex }
// Output: { "stage", "outputs": { name: [words] } } with every writable buffer and texture, and for a
// pixel program "targets" by location (4 words a pixel) and "written" (1 where not discarded).
// Sampling is nearest, clamp to edge, level 0 on both (nearestClampSampler). --gpu runs compute and
// pixel programs (storage textures bound read-write: r32 formats only on WebGPU); a pixel program's
// varyings are then constant: each location's first pixel of "inputs".

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { OUTPUT_FLAGS, readInput, readTextInput, setCurrentInput, writeJson, writeText } from '../io.js';
import { RUN_LIMITS, checkNames, lookup, parseJob, type RunJob, type Words } from '../job.js';
import { lift } from '../../lift/lift.js';
import type { Program, Resource } from '../../ir/program.js';
import {
  runCompute,
  runPixel,
  runVertex,
  nearestClampSampler,
  seedBindings,
  seedVaryings,
  seedRegisterFiles,
  elementWords,
  runGeometry,
  runHull,
  runDomain,
  runMesh,
  runAmplification,
  seededWords,
  SEED_DOMAIN_POINTS,
  type ExecTexture,
  type SeededBindings,
  type SeededResource,
} from '../../exec/index.js';
import { emitWgsl } from '../../wgsl/index.js';
import { openGpu } from '../../gpu/session.js';
import { colourOutputs, seededGpuBindings, seededPixelJob, targetComponents } from '../../gpu/seeded.js';
import { FILE_WORDS } from '../../exec/index.js';
import type { GpuBinding } from '../../gpu/types.js';
import type { BudgetOptions } from '../../exec/budget.js';

function words(w: Words): Uint32Array {
  if (Array.isArray(w)) return new Uint32Array(w.map((x) => x >>> 0));
  if ('f32' in w) return new Uint32Array(new Float32Array(w.f32).buffer);
  if ('i32' in w) return new Uint32Array(new Int32Array(w.i32).buffer);
  return new Uint32Array(w.u32.map((x) => x >>> 0));
}

type RunInput = RunJob;

function writable(r: Resource): boolean {
  return r.kind.kind === 'uav';
}

export const help = `usage: iridia run FILE --input JOB [--gpu] [-o OUT]
       iridia run --seed S FILE [--workgroups X,Y,Z] [--size WxH] [--vertices N] [--primitives N]
                  [--patches N] [--json] [--gpu] [-o OUT]

Lifts a program and runs it on iridia's CPU executor (or, with --gpu, its WGSL through WebGPU: npm
\`webgpu\`, Dawn), then prints every output word.

options:
  FILE            the container; - reads standard input
  --input JOB     the run's job, a JSON file (- for standard input); the output is JSON (schema
                  iridia.run/1, docs/json.md): "outputs" by resource name as words, "floats" the same
                  words as IEEE floats, and for a pixel program "targets" and "written"
  --seed S        bind every resource and varying from the seeded generator (docs/exec.md, "Seeded
                  runs"), S from 0 to 4294967295; text by default, JSON with --json
  --workgroups X,Y,Z  thread groups of a seeded compute run (default 1,1,1)
  --size WxH      the target of a seeded pixel run (default 8x8)
  --vertices N    vertices of a seeded vertex run (default 3)
  --primitives N  primitives of a seeded geometry run (default 1)
  --patches N     patches of a seeded hull or domain run (default 1)
  --gpu           run through WebGPU instead (compute and pixel programs)
  --json          JSON output for a seeded run (a job's output is always JSON)
  -o, --output OUT  write to OUT instead of standard output

the job (every key optional; any other key is refused, naming it):
  {
    "workgroups": [x, y, z],     compute: thread groups, each 1..${RUN_LIMITS.groupsPerDimension}, ${RUN_LIMITS.groups} in all at most
    "width": W, "height": H,     pixel: the target (1..${RUN_LIMITS.targetSide} each, ${RUN_LIMITS.pixels} pixels at most)
    "vertexCount": N,            vertex: vertices run (1..${RUN_LIMITS.vertices})
    "budget": N,                 statements a thread group (or batch) may run, 1..${RUN_LIMITS.budget} (default 2^24)
    "buffers": {"u0": [1, 2], "cb0": {"f32": [0.5]}},
                                 words by resource: its IR name, its RDEF name, its register (b0 or cb0,
                                 t0, u0, u0,space1) or group:binding; words are numbers (u32, or i32
                                 when negative) or {"f32"|"u32"|"i32": [...]}
    "textures": {"t0": {"width": 2, "height": 2, "layers": 1, "words": [...]}},   4 words a texel
    "inputs": {"0": [...]}       varyings by location, 4 words a pixel or vertex
  }
  A job naming no resource of the program is refused with the names the program takes.

examples:
  iridia run --seed 1 test/fixtures/oracle/own/cs_basic/main-cs_5_0/shader.dxbc
  echo '{"workgroups":[1,1,1],"buffers":{"u0":[0,0,0,0]}}' | iridia run --input - test/fixtures/oracle/own/cs_basic/main-cs_5_0/shader.dxbc
`;

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    '--input': { value: true },
    '--gpu': {},
    '--seed': { value: true },
    ...OUTPUT_FLAGS,
    '--workgroups': { value: true },
    '--size': { value: true },
    '--vertices': { value: true },
    '--primitives': { value: true },
    '--patches': { value: true },
  });
  if (args.positional.length !== 1) throw new UsageError('run takes one FILE');
  const inputPath = args.flags.get('--input')?.[0];
  const seedText = value(args, '--seed');
  if (seedText !== undefined) {
    if (inputPath !== undefined) throw new UsageError('--seed and --input are alternatives: give one');
    const seed = parseSeed(seedText);
    const size = runSize(args);
    const path = args.positional[0]!;
    const program = lift(readInput(path));
    const result = flag(args, '--gpu') ? await seededGpu(program, seed, size) : seededCpu(program, seed, size);
    if (result === undefined) return 1;
    if (flag(args, '--json'))
      writeJson('run', { path, ...result, ...asFloats(result.outputs, result.targets) }, value(args, '-o'), true);
    else writeText(value(args, '-o'), seededText(result));
    return 0;
  }
  for (const f of ['--workgroups', '--size', '--vertices', '--primitives', '--patches'])
    if (args.flags.has(f)) throw new UsageError(`${f} goes with --seed (with --input the JSON gives the size)`);
  const path = args.positional[0]!;
  if (inputPath === '-' && path === '-') throw new UsageError('the program and the job cannot both be standard input');
  const input: RunInput = inputPath !== undefined ? parseJob(readTextInput(inputPath), inputPath) : {};
  const program = lift(readInput(path));
  if (inputPath !== undefined) setCurrentInput(inputPath);
  checkNames(input, program);
  setCurrentInput(path);
  const result = flag(args, '--gpu') ? await onGpu(program, input) : onCpu(program, input);
  if (result === undefined) return 1;
  const outputs = result['outputs'] as Record<string, number[]>;
  const targets = result['targets'] as Record<string, number[]> | undefined;
  writeJson('run', { path, stage: program.stage, ...result, ...asFloats(outputs, targets) }, value(args, '-o'), true);
  return 0;
}

/** `floats` (the outputs' words as floats) and, for a pixel program, `targetFloats` (its targets'). */
function asFloats(
  outputs: Record<string, number[]>,
  targets: Record<string, number[]> | undefined,
): { floats: Record<string, (number | string)[]>; targetFloats?: Record<string, (number | string)[]> } {
  return { floats: floatsOf(outputs), ...(targets ? { targetFloats: floatsOf(targets) } : {}) };
}

/** Each output's words read as IEEE binary32 (NaN and the infinities as the strings "NaN", "Infinity", "-Infinity"). */
export function floatsOf(outputs: Record<string, number[]>): Record<string, (number | string)[]> {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  return Object.fromEntries(
    Object.entries(outputs).map(([k, ws]) => [
      k,
      ws.map((w) => {
        u[0] = w;
        const x = f[0]!;
        return Number.isFinite(x) ? x : String(x);
      }),
    ]),
  );
}

// ---- --seed ----

/** The default size of a seeded run: one thread group, an 8x8 target, one triangle's vertices, one
 * primitive (geometry), one patch (hull, domain). */
export const SEEDED_DEFAULTS = {
  workgroups: [1, 1, 1] as [number, number, number],
  width: 8,
  height: 8,
  vertices: 3,
  primitives: 1,
  patches: 1,
};

export interface RunSize {
  readonly workgroups: [number, number, number];
  readonly width: number;
  readonly height: number;
  readonly vertices: number;
  readonly primitives: number;
  readonly patches: number;
}

function parseSeed(text: string): number {
  const n = /^0x[0-9a-f]+$/i.test(text) ? parseInt(text, 16) : /^\d+$/.test(text) ? parseInt(text, 10) : NaN;
  if (!Number.isSafeInteger(n) || n > 0xffffffff)
    throw new UsageError(
      `--seed takes an integer from 0 to 4294967295 (decimal or 0x hex), not ${JSON.stringify(text)}`,
    );
  return n;
}

function positive(name: string, text: string): number {
  const n = /^\d+$/.test(text) ? parseInt(text, 10) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 65535)
    throw new UsageError(`${name}: ${JSON.stringify(text)} is not a count from 1 to 65535`);
  return n;
}

function runSize(args: ReturnType<typeof parseArgs>): RunSize {
  let { workgroups, width, height, vertices, primitives, patches } = SEEDED_DEFAULTS;
  const wg = value(args, '--workgroups');
  if (wg !== undefined) {
    const parts = wg.split(',');
    if (parts.length < 1 || parts.length > 3) throw new UsageError('--workgroups takes X[,Y[,Z]]');
    const [x, y, z] = [...parts, '1', '1'].map((t) => positive('--workgroups', t));
    workgroups = [x!, y!, z!];
  }
  const sz = value(args, '--size');
  if (sz !== undefined) {
    const m = /^(\d+)x(\d+)$/.exec(sz);
    if (!m) throw new UsageError(`--size takes WxH (e.g. 8x8), not ${JSON.stringify(sz)}`);
    width = positive('--size', m[1]!);
    height = positive('--size', m[2]!);
  }
  const vs = value(args, '--vertices');
  if (vs !== undefined) vertices = positive('--vertices', vs);
  const pr = value(args, '--primitives');
  if (pr !== undefined) primitives = positive('--primitives', pr);
  const pa = value(args, '--patches');
  if (pa !== undefined) patches = positive('--patches', pa);
  const groups = workgroups[0] * workgroups[1] * workgroups[2];
  if (groups > RUN_LIMITS.groups)
    throw new UsageError(
      `--workgroups: ${workgroups.join(' x ')} = ${groups} thread groups, more than ${RUN_LIMITS.groups}`,
    );
  if (width * height > RUN_LIMITS.pixels)
    throw new UsageError(`--size: ${width} x ${height} pixels, more than ${RUN_LIMITS.pixels}`);
  return { workgroups, width, height, vertices, primitives, patches };
}

/** What a seeded run printed: the run's size and every output word. */
interface SeededResult {
  seed: number;
  stage: string;
  target: string;
  on: 'executor' | 'webgpu';
  workgroups?: [number, number, number];
  width?: number;
  height?: number;
  vertices?: number;
  /** Every writable resource, by Direct3D name: its words (a storage texture's texels, its format's words each). */
  outputs: Record<string, number[]>;
  /** Pixel: colour targets by location, the output's components a pixel. */
  targets?: Record<string, number[]>;
  /** Pixel (executor): 1 where the pixel was not discarded. */
  written?: number[];
  depth?: number[];
  /** Vertex: outputs by location (4 words a vertex) and position. */
  vertexOutputs?: Record<string, number[]>;
  /** Geometry, hull and domain: the run's size. */
  primitives?: number;
  patches?: number;
  domainPoints?: number[][];
  /** Geometry (emitted vertices), hull (output control points), domain (points): each output
   * element by semantic, its components of each item in turn. */
  stageOutputs?: Record<string, number[]>;
  /** Hull: the patch constants by semantic, each patch in turn. */
  patchConstants?: Record<string, number[]>;
  /** Geometry: each emitted vertex's primitive, instance and strip (the strip within its stream). */
  emitted?: number[][];
  /** Geometry writing streams other than 0: each emitted vertex's stream. */
  streams?: number[];
  /** Mesh and amplification: the one thread group run (numthreads) and the payload passed in
   * (mesh: its words from the seed's `payload` stream) or out (amplification). */
  threadGroup?: number[];
  payload?: number[];
  /** Mesh: SetMeshOutputCounts' vertex and primitive counts, the indices, the primitive outputs by
   * semantic (each primitive in turn; the vertex outputs are stageOutputs). */
  meshCounts?: number[];
  indices?: number[];
  primitiveOutputs?: Record<string, number[]>;
  /** Amplification: DispatchMesh's thread group counts. */
  dispatch?: number[];
  /** Resources left unbound, with why. */
  unbound?: string[];
}

function seededHead(p: Program, seed: number, b: SeededBindings, on: SeededResult['on'], size: RunSize): SeededResult {
  const head: SeededResult = { seed, stage: p.stage, target: p.provenance.target, on, outputs: {} };
  if (p.stage === 'compute') head.workgroups = size.workgroups;
  else if (p.stage === 'pixel') {
    head.width = size.width;
    head.height = size.height;
  } else if (p.stage === 'vertex') head.vertices = size.vertices;
  else if (p.stage === 'geometry') head.primitives = size.primitives;
  else if (p.stage === 'hull') head.patches = size.patches;
  else if (p.stage === 'domain') {
    head.patches = size.patches;
    head.domainPoints = SEED_DOMAIN_POINTS.map((x) => [...x]);
  } else if (p.stage === 'mesh' || p.stage === 'amplification')
    head.threadGroup = [...(p.stageFunctions?.threadGroup ?? [1, 1, 1])];
  if (b.unbound.length) head.unbound = [...b.unbound];
  return head;
}

/** A writable resource's words after the run: a storage texture's `perTexel` words of each texel. */
function outputWords(b: SeededBindings, r: SeededResource): number[] {
  if (r.kind === 'storage') return Array.from(b.buffers[r.key]!);
  const four = b.textures[r.key]!.levels[0]!;
  const per = r.texture!.perTexel;
  const out: number[] = [];
  for (let i = 0; i < four.length / 4; i++) for (let k = 0; k < per; k++) out.push(four[i * 4 + k]!);
  return out;
}

/** A seeded run on the executor (exported for the fuzz target `exec`, which gives small budgets). */
export function seededCpu(p: Program, seed: number, size: RunSize, limits: BudgetOptions = {}): SeededResult {
  const b = seedBindings(p, seed);
  const out = seededHead(p, seed, b, 'executor', size);
  const base = {
    buffers: b.buffers,
    textures: b.textures,
    sample: nearestClampSampler(b.textures, { views: b.views, compare: b.compare }),
    ...limits,
  };
  if (p.stage === 'compute') runCompute(p, { ...base, workgroups: size.workgroups });
  else if (p.stage === 'pixel') {
    const n = size.width * size.height;
    const r = runPixel(p, { ...base, width: size.width, height: size.height, inputs: seedVaryings(p, seed, n, false) });
    const targets: Record<string, number[]> = {};
    for (const c of colourOutputs(p)) {
      const four = r.targets[c.location];
      if (four) targets[String(c.location)] = Array.from(targetComponents(four, c.width));
    }
    out.targets = targets;
    out.written = Array.from(r.written);
    if (r.depth) out.depth = Array.from(new Uint32Array(r.depth.buffer, r.depth.byteOffset, r.depth.length));
  } else if (p.stage === 'vertex' && !p.stageFunctions) {
    const r = runVertex(p, { ...base, vertexCount: size.vertices, inputs: seedVaryings(p, seed, size.vertices, true) });
    out.vertexOutputs = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, Array.from(v)]));
  } else if (p.stageFunctions && p.stage === 'geometry') {
    const main = p.module.functions[p.stageFunctions.main]!;
    const vIn = main.args.find((a) => a.name === 'v_in');
    const vt = vIn ? p.module.types[vIn.type] : undefined;
    const perPrimitive = vt?.kind === 'array' && vt.length !== null ? vt.length : 1;
    const inputs = seedRegisterFiles(p.interface.inputs, seed, size.primitives * perPrimitive);
    const r = runGeometry(p, { ...base, primitives: size.primitives, inputs });
    // each stream's vertices by its own elements; a stream other than 0 as SEMANTICn@stream
    out.stageOutputs = {};
    for (const stream of [0, 1, 2, 3]) {
      const vs = r.vertices.filter((v) => v.stream === stream);
      if (stream > 0 && !vs.length) continue;
      const files = new Uint32Array(vs.length * FILE_WORDS);
      vs.forEach((v, i) => files.set(v.registers, i * FILE_WORDS));
      const els = p.interface.outputs.filter((e) => (e.stream ?? 0) === stream);
      for (const [k, w] of Object.entries(elementWords(els, files, vs.length)))
        out.stageOutputs[stream ? `${k}@${stream}` : k] = w;
    }
    out.emitted = r.vertices.map((v) => [v.primitive, v.instance, v.strip]);
    if (r.vertices.some((v) => v.stream !== 0)) out.streams = r.vertices.map((v) => v.stream);
  } else if (p.stageFunctions && p.stage === 'hull') {
    const sf = p.stageFunctions;
    const cpIn = sf.inputControlPoints ?? 1;
    const cpOut = sf.main >= 0 ? (sf.outputControlPoints ?? cpIn) : cpIn;
    const r = runHull(p, {
      ...base,
      patches: size.patches,
      inputs: seedRegisterFiles(p.interface.inputs, seed, size.patches * cpIn),
      ...(sf.phaseInstances ? { phaseInstances: sf.phaseInstances } : {}),
    });
    out.stageOutputs = elementWords(p.interface.outputs, r.controlPoints, size.patches * cpOut);
    out.patchConstants = elementWords(p.interface.patchConstants, r.patchConstants, size.patches);
  } else if (p.stageFunctions && p.stage === 'domain') {
    const cp = p.stageFunctions.inputControlPoints ?? 1;
    const r = runDomain(p, {
      ...base,
      patches: size.patches,
      controlPoints: seedRegisterFiles(p.interface.inputs, seed, size.patches * cp),
      patchConstants: seedRegisterFiles(p.interface.patchConstants, seed, size.patches, 'pc'),
      domainPoints: SEED_DOMAIN_POINTS,
    });
    out.stageOutputs = elementWords(p.interface.outputs, r, size.patches * SEED_DOMAIN_POINTS.length);
  } else if (p.stageFunctions && p.stage === 'mesh') {
    // one thread group, SV_GroupID (0, 0, 0); the payload an amplification group would pass
    const payload = seededWords(seed, 'payload', (p.stageFunctions.payloadBytes ?? 0) / 4);
    const r = runMesh(p, { ...base, payload });
    if (payload.length) out.payload = Array.from(payload);
    out.meshCounts = [r.vertexCount, r.primitiveCount];
    out.indices = Array.from(r.indices);
    out.stageOutputs = elementWords(p.interface.outputs, r.vertices, r.vertexCount);
    out.primitiveOutputs = elementWords(p.interface.patchConstants, r.primitives, r.primitiveCount);
  } else if (p.stageFunctions && p.stage === 'amplification') {
    const r = runAmplification(p, base);
    out.dispatch = [...r.dispatch];
    out.payload = Array.from(r.payload);
  } else throw new UsageError(`running a ${p.stage} program from the command line is not supported yet`);
  for (const r of b.resources) if (r.writable) out.outputs[r.name] = outputWords(b, r);
  return out;
}

async function seededGpu(p: Program, seed: number, size: RunSize): Promise<SeededResult | undefined> {
  const b = seedBindings(p, seed);
  const out = seededHead(p, seed, b, 'webgpu', size);
  const bindings = seededGpuBindings(b, (name, format) => {
    throw new UsageError(`--gpu: ${name} is a ${format} storage texture; WebGPU runs r32 and rgba32 formats only`);
  });
  const inputs = p.stage === 'pixel' ? seedVaryings(p, seed, 1, false) : {};
  const r = await gpuRun(p, bindings, {
    workgroups: size.workgroups,
    width: size.width,
    height: size.height,
    inputs: Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, Array.from(v)])),
  });
  if (r === undefined) return undefined;
  const byBinding = new Map(b.resources.map((x) => [`${x.group}:${x.binding}`, x]));
  for (const [k, words] of Object.entries(r.outputs)) {
    const res = byBinding.get(k);
    if (res?.writable) out.outputs[res.name] = Array.from(words);
  }
  out.outputs = Object.fromEntries(
    b.resources.filter((x) => x.writable && out.outputs[x.name]).map((x) => [x.name, out.outputs[x.name]!]),
  );
  if (r.targets) out.targets = Object.fromEntries(Object.entries(r.targets).map(([k, v]) => [k, Array.from(v)]));
  return out;
}

const hex8 = (w: number): string => (w >>> 0).toString(16).padStart(8, '0');

function wordLines(words: readonly number[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < words.length; i += 8)
    lines.push(
      `  ${String(i).padStart(6)}  ${words
        .slice(i, i + 8)
        .map(hex8)
        .join(' ')}`,
    );
  return lines;
}

/** The text form: the run, then each output's words in hex, eight a line after the index of the first. */
function seededText(r: SeededResult): string {
  const size =
    r.threadGroup !== undefined
      ? `one thread group of ${r.threadGroup.join(' x ')} threads`
      : r.workgroups !== undefined
        ? `${r.workgroups.join(' x ')} thread groups`
        : r.width !== undefined
          ? `${r.width} x ${r.height} pixels`
          : r.vertices !== undefined
            ? `${r.vertices} vertices`
            : r.primitives !== undefined
              ? `${r.primitives} primitive${r.primitives === 1 ? '' : 's'}`
              : `${r.patches} patch${r.patches === 1 ? '' : 'es'}${r.domainPoints ? `, ${r.domainPoints.length} domain points each` : ''}`;
  const lines = [`${r.target} (${r.stage}) on the ${r.on}, seed ${r.seed}, ${size}`];
  for (const u of r.unbound ?? []) lines.push(`unbound ${u}`);
  for (const [name, words] of Object.entries(r.outputs))
    lines.push(`${name} (${words.length} words)`, ...wordLines(words));
  for (const [loc, words] of Object.entries(r.targets ?? {}))
    lines.push(`target ${loc} (${words.length} words)`, ...wordLines(words));
  if (r.written) lines.push(`written ${r.written.filter((x) => x).length} of ${r.written.length} pixels`);
  if (r.depth) lines.push(`depth (${r.depth.length} words)`, ...wordLines(r.depth));
  for (const [name, words] of Object.entries(r.vertexOutputs ?? {}))
    lines.push(`vertex ${name} (${words.length} words)`, ...wordLines(words));
  if (r.emitted)
    lines.push(
      `emitted ${r.emitted.length} vertices (primitive, instance, strip): ${r.emitted.map((e) => e.join(',')).join(' ')}`,
      ...(r.streams ? [`streams of the emitted vertices: ${r.streams.join(' ')}`] : []),
    );
  for (const [name, words] of Object.entries(r.stageOutputs ?? {}))
    lines.push(`output ${name} (${words.length} words)`, ...wordLines(words));
  for (const [name, words] of Object.entries(r.patchConstants ?? {}))
    lines.push(`patch constant ${name} (${words.length} words)`, ...wordLines(words));
  if (r.meshCounts) lines.push(`mesh output counts: ${r.meshCounts[0]} vertices, ${r.meshCounts[1]} primitives`);
  if (r.indices) lines.push(`indices (${r.indices.length} words)`, ...wordLines(r.indices));
  for (const [name, words] of Object.entries(r.primitiveOutputs ?? {}))
    lines.push(`primitive ${name} (${words.length} words)`, ...wordLines(words));
  if (r.dispatch) lines.push(`dispatch ${r.dispatch.join(' x ')} mesh thread groups`);
  if (r.payload) lines.push(`payload (${r.payload.length} words)`, ...wordLines(r.payload));
  return `${lines.join('\n')}\n`;
}

// ---- --input ----

function onCpu(p: Program, input: RunInput): Record<string, unknown> {
  const buffers: Record<string, Uint32Array> = {};
  const textures: Record<string, ExecTexture> = {};
  const outputs: Record<string, number[]> = {};
  const after: Array<() => void> = [];
  for (const r of p.interface.resources) {
    const key = `${r.group}:${r.binding}`;
    const b = lookup(input.buffers, r);
    if (b !== undefined) {
      const w = words(b);
      buffers[key] = w;
      if (writable(r)) after.push(() => (outputs[r.name] = Array.from(w)));
    }
    const t = lookup(input.textures, r);
    if (t !== undefined) {
      const w = words(t.words);
      textures[key] = { width: t.width, height: t.height ?? 1, depthOrLayers: t.layers ?? 1, levels: [w] };
      if (writable(r)) after.push(() => (outputs[r.name] = Array.from(w)));
    }
  }
  const inputs: Record<number, Uint32Array> = {};
  for (const [k, v] of Object.entries(input.inputs ?? {})) inputs[Number(k)] = words(v);
  const base = {
    buffers,
    textures,
    sample: nearestClampSampler(textures),
    ...(input.budget !== undefined ? { budget: input.budget } : {}),
  };
  const extra: Record<string, unknown> = {};
  if (p.stage === 'compute') {
    const r = runCompute(p, { ...base, workgroups: input.workgroups ?? [1, 1, 1] });
    extra['laneStatements'] = r.laneStatements;
  } else if (p.stage === 'pixel') {
    const r = runPixel(p, { ...base, width: input.width ?? 1, height: input.height ?? 1, inputs });
    extra['targets'] = Object.fromEntries(Object.entries(r.targets).map(([k, v]) => [k, Array.from(v)]));
    extra['written'] = Array.from(r.written);
    if (r.depth) extra['depth'] = Array.from(r.depth);
  } else if (p.stage === 'vertex' && !p.stageFunctions) {
    const r = runVertex(p, { ...base, vertexCount: input.vertexCount ?? 1, inputs });
    extra['vertexOutputs'] = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, Array.from(v)]));
  } else throw new UsageError(`running a ${p.stage} program from the command line is not supported yet`);
  for (const f of after) f();
  return { outputs, ...extra };
}

const CHROMIUM = '/usr/lib/chromium';

async function onGpu(p: Program, input: RunInput): Promise<Record<string, unknown> | undefined> {
  const bindings: GpuBinding[] = [];
  const names = new Map<string, string>();
  for (const r of p.interface.resources) {
    const at = { group: r.group, binding: r.binding };
    const b = lookup(input.buffers, r);
    if (r.kind.kind === 'constantBuffer' && b) bindings.push({ ...at, type: 'uniform', words: words(b) });
    else if (b) bindings.push({ ...at, type: 'storage', words: words(b), readOnly: !writable(r) });
    const t = lookup(input.textures, r);
    const g = p.module.globals[r.global];
    const ty = g ? p.module.types[g.type] : undefined;
    if (t && ty?.kind === 'image') {
      const spec = { width: t.width, height: t.height ?? 1, depthOrLayers: t.layers ?? 1, words: words(t.words) };
      if (ty.class.kind === 'storage')
        bindings.push({
          ...at,
          type: 'storage-texture',
          texture: { ...spec, format: ty.class.format },
          access: 'read-write',
        });
      else {
        const s = ty.class.kind === 'sampled' ? ty.class.scalar : 'f32';
        const format = s === 'f32' ? 'rgba32float' : s === 'i32' ? 'rgba32sint' : 'rgba32uint';
        bindings.push({
          ...at,
          type: 'texture',
          texture: { ...spec, format, ...(ty.arrayed ? { viewDimension: '2d-array' as const } : {}) },
        });
      }
    }
    if (r.kind.kind === 'sampler')
      bindings.push({
        ...at,
        type: 'sampler',
        sampler: { magFilter: 'nearest', minFilter: 'nearest' },
        comparison: r.kind.comparison,
      });
    names.set(`${r.group}:${r.binding}`, r.name);
  }
  const r = await gpuRun(p, bindings, {
    workgroups: input.workgroups ?? [1, 1, 1],
    width: input.width ?? 1,
    height: input.height ?? 1,
    inputs: input.inputs ?? {},
  });
  if (r === undefined) return undefined;
  const outputs = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [names.get(k) ?? k, Array.from(v)]));
  if (!r.targets) return { outputs };
  return { outputs, targets: Object.fromEntries(Object.entries(r.targets).map(([k, v]) => [k, Array.from(v)])) };
}

interface GpuRunSize {
  readonly workgroups: readonly [number, number, number];
  readonly width: number;
  readonly height: number;
  /** A pixel program's varyings by location: the first 4 words of each are used (constant over the target). */
  readonly inputs: Record<string, Words>;
}

/** Runs a compute or pixel program's WGSL through WebGPU: the writable bindings' words by
 * 'group:binding', and a pixel program's colour targets by location. */
async function gpuRun(
  p: Program,
  bindings: GpuBinding[],
  size: GpuRunSize,
): Promise<{ outputs: Record<string, Uint32Array>; targets?: Record<string, Uint32Array> } | undefined> {
  // Without a GPU, Dawn needs SwiftShader's Vulkan driver and a Vulkan loader (Debian's chromium
  // package has both); the loader is found only through LD_LIBRARY_PATH set before start, so the
  // command runs itself again with it set.
  if (!process.env['IRIDIA_GPU_CHILD'] && existsSync(`${CHROMIUM}/libvulkan.so.1`)) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      IRIDIA_GPU_CHILD: '1',
      LD_LIBRARY_PATH: [process.env['LD_LIBRARY_PATH'], CHROMIUM].filter((x) => x).join(':'),
      VK_ICD_FILENAMES: process.env['VK_ICD_FILENAMES'] ?? `${CHROMIUM}/vk_swiftshader_icd.json`,
      XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'] ?? '/tmp',
    };
    const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: 'inherit' });
    process.exit(r.status ?? 3);
  }
  if (p.stage !== 'compute' && p.stage !== 'pixel')
    throw new UsageError(`--gpu runs compute and pixel programs; this is a ${p.stage} program`);
  let webgpu: { create(o: string[]): GPU };
  try {
    webgpu = (await import('webgpu' as string)) as { create(o: string[]): GPU };
  } catch {
    process.stderr.write('iridia run --gpu: the npm package `webgpu` is not installed\n');
    return undefined;
  }
  const session = await openGpu(webgpu.create([]));
  try {
    const code = emitWgsl(p);
    if (p.stage === 'compute') {
      const r = await session.runCompute({ code, workgroups: size.workgroups, bindings });
      if (!r.ok) throw new UsageError(`WebGPU ${r.stage}: ${r.messages.join('; ')}`);
      return { outputs: r.outputs };
    }
    const { job, outputs } = seededPixelJob(
      p,
      code,
      bindings,
      size,
      (location) => {
        const src = size.inputs?.[String(location)];
        return src ? words(src) : undefined;
      },
      (why) => {
        throw new UsageError(`--gpu: ${why}`);
      },
    );
    const r = await session.runPixel(job);
    if (!r.ok) throw new UsageError(`WebGPU ${r.stage}: ${r.messages.join('; ')}`);
    return {
      outputs: r.outputs,
      targets: Object.fromEntries(outputs.map((c) => [String(c.location), r.targets[c.location]!])),
    };
  } finally {
    session.destroy();
  }
}
