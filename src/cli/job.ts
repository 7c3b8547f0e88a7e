// The job of `iridia run FILE --input JOB.json`: read and checked before anything runs. Every key is
// checked by name; a value of the wrong shape (a string where words are expected, null, an array
// mixing numbers and other things, a count out of range) is an IridiaError (E109_BAD_ARGUMENT) naming
// the key path, e.g. `buffers.u0[2]`. Resource keys must name a resource of the program: its IR name,
// its RDEF name, its Direct3D register (b0/cb0, t0, s0, u0, with `,spaceN` past space 0) or
// `group:binding`; an unknown one is refused with the list of those the program accepts. The run's
// size is bounded (RUN_LIMITS), so a dispatch of 10^9 thread groups is refused at once, not run.
// docs/cli.md, "run jobs".

import { IridiaError } from '../errors.js';
import type { Program, Resource } from '../ir/program.js';

/** The bounds a job is held to (docs/cli.md). */
export const RUN_LIMITS = {
  /** Thread groups per dimension: Direct3D 11's D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION. */
  groupsPerDimension: 65535,
  /** Thread groups of one run (all dimensions together), on the CPU executor or WebGPU. */
  groups: 65536,
  /** Target width and height: Direct3D 11's largest 2D texture (16384). */
  targetSide: 16384,
  /** Pixels of one target (width x height). */
  pixels: 1 << 20,
  /** Vertices of one vertex run. */
  vertices: 1 << 20,
  /** Statements one thread group (or pixel or vertex batch) may run; default 2^24 (the executor's). */
  budget: 1 << 28,
  /** Words of one buffer, texture or varying given in the job. */
  words: 1 << 26,
} as const;

export type Words = number[] | { f32: number[] } | { u32: number[] } | { i32: number[] };

export interface RunJob {
  workgroups?: [number, number, number];
  width?: number;
  height?: number;
  vertexCount?: number;
  budget?: number;
  buffers?: Record<string, Words>;
  textures?: Record<string, { width: number; height?: number; layers?: number; words: Words }>;
  inputs?: Record<string, Words>;
}

const JOB_KEYS = ['workgroups', 'width', 'height', 'vertexCount', 'budget', 'buffers', 'textures', 'inputs'];
const TEXTURE_KEYS = ['width', 'height', 'layers', 'words'];

function bad(key: string, reason: string): IridiaError {
  return new IridiaError('E109_BAD_ARGUMENT', `job key ${key}: ${reason}`);
}

const what = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : `the ${typeof v} ${JSON.stringify(v)}`;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function count(key: string, v: unknown, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(key, `takes a whole number, not ${what(v)}`);
  if (v < 1 || v > max) throw bad(key, `${v} is not from 1 to ${max}`);
  return v;
}

function unknownKeys(key: string, o: Record<string, unknown>, accepted: readonly string[]): void {
  for (const k of Object.keys(o))
    if (!accepted.includes(k))
      throw bad(key ? `${key}.${k}` : k, `is not a key of ${key || 'the job'} (it takes ${accepted.join(', ')})`);
}

/** Words as the job gives them: numbers (u32 words; negative ones as i32), or {f32|u32|i32: [...]}. */
function words(key: string, v: unknown): Words {
  let list: unknown = v;
  let form = 'words';
  if (isObject(v)) {
    const ks = Object.keys(v);
    if (ks.length !== 1 || !['f32', 'u32', 'i32'].includes(ks[0]!))
      throw bad(key, `an object of words has one key, f32, u32 or i32 (it has ${ks.join(', ') || 'none'})`);
    form = ks[0]!;
    list = v[form];
    key = `${key}.${form}`;
  }
  if (!Array.isArray(list)) throw bad(key, `takes an array of numbers, not ${what(list)}`);
  if (list.length > RUN_LIMITS.words) throw bad(key, `${list.length} words, more than ${RUN_LIMITS.words}`);
  list.forEach((x, i) => {
    if (typeof x !== 'number') throw bad(`${key}[${i}]`, `is ${what(x)}; every element is a number`);
    if (form === 'f32') return;
    if (!Number.isInteger(x)) throw bad(`${key}[${i}]`, `${x} is not a whole number (floats go in {"f32": [...]})`);
    const [lo, hi] =
      form === 'u32' ? [0, 0xffffffff] : form === 'i32' ? [-0x80000000, 0x7fffffff] : [-0x80000000, 0xffffffff];
    if (x < lo || x > hi) throw bad(`${key}[${i}]`, `${x} is not a 32-bit ${form === 'words' ? 'word' : form}`);
  });
  return form === 'words' ? (list as number[]) : ({ [form]: list } as Words);
}

/** Parses and checks a job's JSON text (shape and bounds; resource names are checked by checkNames). */
export function parseJob(text: string, source: string): RunJob {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new IridiaError('E109_BAD_ARGUMENT', `${source} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObject(v)) throw bad('(the job)', `is ${what(v)}; a job is a JSON object`);
  unknownKeys('', v, JOB_KEYS);
  const job: RunJob = {};
  if (v['workgroups'] !== undefined) {
    const w = v['workgroups'];
    if (!Array.isArray(w) || w.length !== 3) throw bad('workgroups', `takes [x, y, z], not ${what(w)}`);
    const g = w.map((x, i) => count(`workgroups[${i}]`, x, RUN_LIMITS.groupsPerDimension)) as [number, number, number];
    const total = g[0] * g[1] * g[2];
    if (total > RUN_LIMITS.groups)
      throw bad('workgroups', `${g.join(' x ')} = ${total} thread groups, more than a run's ${RUN_LIMITS.groups}`);
    job.workgroups = g;
  }
  if (v['width'] !== undefined) job.width = count('width', v['width'], RUN_LIMITS.targetSide);
  if (v['height'] !== undefined) job.height = count('height', v['height'], RUN_LIMITS.targetSide);
  if ((job.width ?? 1) * (job.height ?? 1) > RUN_LIMITS.pixels)
    throw bad('width', `${job.width} x ${job.height} pixels, more than ${RUN_LIMITS.pixels}`);
  if (v['vertexCount'] !== undefined) job.vertexCount = count('vertexCount', v['vertexCount'], RUN_LIMITS.vertices);
  if (v['budget'] !== undefined) job.budget = count('budget', v['budget'], RUN_LIMITS.budget);
  for (const table of ['buffers', 'inputs'] as const) {
    const t = v[table];
    if (t === undefined) continue;
    if (!isObject(t)) throw bad(table, `takes an object of words by name, not ${what(t)}`);
    const out: Record<string, Words> = {};
    for (const [k, x] of Object.entries(t)) {
      if (table === 'inputs' && !/^\d+$/.test(k)) throw bad(`inputs.${k}`, 'inputs are keyed by location (0, 1, ...)');
      out[k] = words(`${table}.${k}`, x);
    }
    job[table] = out;
  }
  if (v['textures'] !== undefined) {
    const t = v['textures'];
    if (!isObject(t)) throw bad('textures', `takes an object of textures by name, not ${what(t)}`);
    const out: NonNullable<RunJob['textures']> = {};
    for (const [k, x] of Object.entries(t)) {
      const key = `textures.${k}`;
      if (!isObject(x)) throw bad(key, `takes {width, height, layers, words}, not ${what(x)}`);
      unknownKeys(key, x, TEXTURE_KEYS);
      const width = count(`${key}.width`, x['width'], RUN_LIMITS.targetSide);
      const height = x['height'] === undefined ? 1 : count(`${key}.height`, x['height'], RUN_LIMITS.targetSide);
      const layers = x['layers'] === undefined ? 1 : count(`${key}.layers`, x['layers'], 2048);
      if (x['words'] === undefined) throw bad(`${key}.words`, 'is missing (4 words a texel)');
      const w = words(`${key}.words`, x['words']);
      const n = Array.isArray(w) ? w.length : Object.values(w)[0]!.length;
      if (n !== width * height * layers * 4)
        throw bad(
          `${key}.words`,
          `${n} words; ${width} x ${height} x ${layers} texels take ${width * height * layers * 4}`,
        );
      out[k] = { width, height, layers, words: w };
    }
    job.textures = out;
  }
  return job;
}

/** The keys a job may name this resource by. */
export function resourceKeys(r: Resource): string[] {
  const space = r.space ? `,space${r.space}` : '';
  const keys = [r.name, `${r.registerClass}${r.register}${space}`, `${r.registerClass}${r.register}`];
  if (r.registerClass === 'b') keys.push(`cb${r.register}${space}`, `cb${r.register}`);
  keys.push(`${r.group}:${r.binding}`);
  if (r.reflectedName) keys.push(r.reflectedName);
  return [...new Set(keys)];
}

/** Every key of buffers and textures names a resource of the program (else the accepted names are listed). */
export function checkNames(job: RunJob, p: Program): void {
  const accepted = p.interface.resources.map(resourceKeys);
  for (const table of ['buffers', 'textures'] as const)
    for (const k of Object.keys(job[table] ?? {}))
      if (!accepted.some((keys) => keys.includes(k)))
        throw bad(
          `${table}.${k}`,
          accepted.length
            ? `names no resource of the program; it takes ${accepted.map((keys) => keys.join(' / ')).join('; ')}`
            : 'names no resource: the program declares none',
        );
}

/** The job's entry for a resource, by any of its keys. */
export function lookup<T>(table: Record<string, T> | undefined, r: Resource): T | undefined {
  if (!table) return undefined;
  for (const k of resourceKeys(r)) if (table[k] !== undefined) return table[k];
  return undefined;
}
