// Runs a lifted program on seeded inputs (src/exec/seed.ts) on the executor and on Dawn, and gives
// its outputs by Direct3D name, so that a DXBC and a DXIL build of one HLSL — whose WGSL bindings may
// be numbered differently — are given the same bytes and compared output by output:
//
//   resources   every writable resource by d3dResourceName ('u0', 'u1,space2'): bound by register
//               class, register and space (seedBindings), never by WGSL binding numbers
//   pixel       'target<L>' the colour target at location L (4 words a pixel on the executor, the
//               output's lanes on Dawn); 'depth'; 'written' (executor); varyings by location, from
//               their semantic's stream: pixel n gets words 4n..4n+3 on the executor (so derivatives
//               see differences), every pixel the first four on Dawn (as `iridia run --seed --gpu`)
//   vertex      'out<L>' each output location (4 words a vertex), 'position'
//   hull        'cp:NAMEn' output control points and 'pc:NAMEn' patch constants, by semantic
//   domain      'out:NAMEn' by semantic, at SEED_DOMAIN_POINTS
//   geometry    'out:NAMEn' by semantic over the emitted vertices, 'emitted' (primitive, instance, strip)
//
// The run sizes are `iridia run --seed`'s defaults (one thread group, an 8x8 target, 3 vertices,
// one primitive or patch), so a twin's figures here are those the CLI prints.

import type { Program } from '../../src/ir/program.js';
import {
  FILE_WORDS,
  SEED_DOMAIN_POINTS,
  elementWords,
  nearestClampSampler,
  runCompute,
  runDomain,
  runGeometry,
  runHull,
  runPixel,
  runVertex,
  seedBindings,
  seedRegisterFiles,
  seedVaryings,
  type SeededBindings,
  type SeededResource,
} from '../../src/exec/index.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { colourOutputs, constantVaryings, seededGpuBindings } from '../../src/gpu/seeded.js';
import { runCompute as gpuCompute, runPixel as gpuPixel } from '../helpers/webgpu.js';
import { isNaNWord, ulpDistance, widenThreeLaneTargets } from '../exec/diff-harness.js';

export { OVER_LIMIT, UNBOUNDED_FALLBACK } from '../exec/diff-harness.js';

export const WORKGROUPS: [number, number, number] = [1, 1, 1];
export const WIDTH = 8;
export const HEIGHT = 8;
export const VERTICES = 3;
/** Statements a run may execute (a program that does not end is stopped). */
const BUDGET = 1 << 22;

export type Outputs = Record<string, Uint32Array>;

/** A run that could not be made, and why ('harness limit: ...'). */
export class HarnessLimit extends Error {}

function writableWords(b: SeededBindings, r: SeededResource): Uint32Array {
  if (r.kind === 'storage') return b.buffers[r.key]!.slice();
  const four = b.textures[r.key]!.levels[0]!;
  const per = r.texture!.perTexel;
  const out = new Uint32Array((four.length / 4) * per);
  for (let i = 0; i < four.length / 4; i++) for (let k = 0; k < per; k++) out[i * per + k] = four[i * 4 + k]!;
  return out;
}

/** Each colour output of a pixel program: location, lanes and scalar (the CLI's and the web page's). */
export { colourOutputs };

/** The program's outputs on the executor, by name (see the header), and how many words of its writable
 * resources the run changed (0 with no colour target: nothing was written that differs from the seed). */
export function runOnExecutor(p: Program, seed: number): { outputs: Outputs; changed: number } {
  const b = seedBindings(p, seed);
  const before = new Map(b.resources.filter((r) => r.writable).map((r) => [r.name, writableWords(b, r)]));
  const base = {
    buffers: b.buffers,
    textures: b.textures,
    sample: nearestClampSampler(b.textures, { views: b.views, compare: b.compare }),
    budget: BUDGET,
  };
  const out: Outputs = {};
  const sf = p.stageFunctions;
  if (p.stage === 'compute') runCompute(p, { ...base, workgroups: WORKGROUPS });
  else if (p.stage === 'pixel') {
    const r = runPixel(p, {
      ...base,
      width: WIDTH,
      height: HEIGHT,
      // per pixel on the executor (so derivatives see differences), constant over the target on Dawn
      inputs: seedVaryings(p, seed, WIDTH * HEIGHT, true),
    });
    for (const [loc, words] of Object.entries(r.targets)) out[`target${loc}`] = words;
    out['written'] = Uint32Array.from(r.written);
    if (r.depth) out['depth'] = new Uint32Array(r.depth.buffer, r.depth.byteOffset, r.depth.length).slice();
  } else if (p.stage === 'vertex' && !sf) {
    const r = runVertex(p, { ...base, vertexCount: VERTICES, inputs: seedVaryings(p, seed, VERTICES, true) });
    for (const [k, v] of Object.entries(r.outputs)) out[k === 'position' ? k : `out${k}`] = v;
  } else if (sf && p.stage === 'geometry') {
    const main = p.module.functions[sf.main]!;
    const vIn = main.args.find((a) => a.name === 'v_in');
    const vt = vIn ? p.module.types[vIn.type] : undefined;
    const perPrimitive = vt?.kind === 'array' && vt.length !== null ? vt.length : 1;
    const r = runGeometry(p, {
      ...base,
      primitives: 1,
      inputs: seedRegisterFiles(p.interface.inputs, seed, perPrimitive),
    });
    // each stream's vertices by its own elements (two streams may pack elements into one register)
    for (const stream of [...new Set(r.vertices.map((v) => v.stream))].sort()) {
      const vs = r.vertices.filter((v) => v.stream === stream);
      const files = new Uint32Array(vs.length * FILE_WORDS);
      vs.forEach((v, i) => files.set(v.registers, i * FILE_WORDS));
      const els = p.interface.outputs.filter((e) => (e.stream ?? 0) === stream);
      for (const [k, w] of Object.entries(elementWords(els, files, vs.length)))
        out[`out${stream ? `@${stream}` : ''}:${k}`] = Uint32Array.from(w);
    }
    out['emitted'] = Uint32Array.from(r.vertices.flatMap((v) => [v.primitive, v.instance, v.stream, v.strip]));
  } else if (sf && p.stage === 'hull') {
    const cpIn = sf.inputControlPoints ?? 1;
    const cpOut = sf.main >= 0 ? (sf.outputControlPoints ?? cpIn) : cpIn;
    const r = runHull(p, {
      ...base,
      patches: 1,
      inputs: seedRegisterFiles(p.interface.inputs, seed, cpIn),
      ...(sf.phaseInstances ? { phaseInstances: sf.phaseInstances } : {}),
    });
    for (const [k, w] of Object.entries(elementWords(p.interface.outputs, r.controlPoints, cpOut)))
      out[`cp:${k}`] = Uint32Array.from(w);
    for (const [k, w] of Object.entries(elementWords(p.interface.patchConstants, r.patchConstants, 1)))
      out[`pc:${k}`] = Uint32Array.from(w);
  } else if (sf && p.stage === 'domain') {
    const cp = sf.inputControlPoints ?? 1;
    const r = runDomain(p, {
      ...base,
      patches: 1,
      controlPoints: seedRegisterFiles(p.interface.inputs, seed, cp),
      patchConstants: seedRegisterFiles(p.interface.patchConstants, seed, 1, 'pc'),
      domainPoints: SEED_DOMAIN_POINTS,
    });
    for (const [k, w] of Object.entries(elementWords(p.interface.outputs, r, SEED_DOMAIN_POINTS.length)))
      out[`out:${k}`] = Uint32Array.from(w);
  } else throw new HarnessLimit(`harness limit: a ${p.stage} program lifted as stage functions is not run`);
  let changed = 0;
  for (const r of b.resources) {
    if (!r.writable) continue;
    const words = writableWords(b, r);
    const was = before.get(r.name)!;
    for (let i = 0; i < words.length; i++) if (words[i] !== was[i]) changed++;
    out[r.name] = words;
  }
  return { outputs: out, changed };
}

/** The program's outputs on Dawn (compute and pixel), by name; a pixel target holds the output's
 * lanes a pixel (a 3-lane output's three, drawn into a 4-lane target). */
export async function runOnDawn(p: Program, seed: number): Promise<Outputs> {
  const b = seedBindings(p, seed);
  const bindings = seededGpuBindings(b, (name, format) => {
    throw new HarnessLimit(`harness limit: ${name} is a ${format} storage texture (Dawn runs r32 and rgba32)`);
  });
  const byBinding = new Map(b.resources.map((x) => [`${x.group}:${x.binding}`, x]));
  const out: Outputs = {};
  const take = (outputs: Record<string, Uint32Array>): void => {
    for (const [k, words] of Object.entries(outputs)) {
      const res = byBinding.get(k);
      if (res?.writable) out[res.name] = words;
    }
  };
  if (p.stage === 'compute') {
    const r = await gpuCompute({ code: emitWgsl(p), workgroups: WORKGROUPS, bindings });
    if (!r.ok) throw new HarnessLimit(`harness limit: Dawn ${r.stage}: ${r.messages[0] ?? ''}`);
    take(r.outputs);
    return out;
  }
  if (p.stage !== 'pixel' || p.stageFunctions)
    throw new HarnessLimit(`harness limit: Dawn runs compute and pixel programs, not ${p.stage}`);
  const inputs = seedVaryings(p, seed, 1, false);
  const colours = colourOutputs(p);
  const wide = widenThreeLaneTargets(p);
  const locs = colours.map((c) => {
    const base = c.scalar === 'f32' ? 'float' : c.scalar === 'i32' ? 'sint' : 'uint';
    const lanes = c.width === 3 ? 4 : c.width;
    return {
      ...c,
      lanes,
      format: `${lanes === 1 ? 'r' : lanes === 2 ? 'rg' : 'rgba'}32${base}` as GPUTextureFormat,
    };
  });
  const fn = p.module.functions[p.module.entryPoints.find((e) => e.stage === 'fragment')!.function]!;
  const res = fn.result ? p.module.types[fn.result.type] : undefined;
  const builtins = res?.kind === 'struct' ? res.members.map((m) => m.binding) : [fn.result?.binding];
  const depth = builtins.some((b) => b?.kind === 'builtin' && b.builtin === 'frag_depth');
  const max = locs.reduce((x, l) => Math.max(x, l.location), -1);
  // A program with no colour output still needs an attachment to draw into, unless it writes depth.
  const targets = Array.from({ length: Math.max(depth ? 0 : 1, max + 1) }, (_, i) => {
    const l = locs.find((x) => x.location === i);
    return l ? { format: l.format } : { format: 'r32uint' as GPUTextureFormat, writeMask: 0 };
  });
  const r = await gpuPixel({
    code: emitWgsl(wide),
    vertexCode: constantVaryings(p, (location) => inputs[location]),
    width: WIDTH,
    height: HEIGHT,
    targets,
    ...(depth ? { depth: { format: 'depth32float' as const } } : {}),
    bindings,
    fragmentOnlyBindings: true,
  });
  if (!r.ok) throw new HarnessLimit(`harness limit: Dawn ${r.stage}: ${r.messages[0] ?? ''}`);
  take(r.outputs);
  for (const l of locs) {
    const t = r.targets[l.location]!;
    const words = new Uint32Array(WIDTH * HEIGHT * l.width);
    for (let i = 0; i < WIDTH * HEIGHT; i++)
      for (let k = 0; k < l.width; k++) words[i * l.width + k] = t[i * l.lanes + k]!;
    out[`target${l.location}`] = words;
  }
  if (r.depth) out['depth'] = new Uint32Array(r.depth.buffer, r.depth.byteOffset, r.depth.length).slice();
  return out;
}

export interface Comparison {
  /** Words compared, and how many differ. */
  readonly words: number;
  readonly differing: number;
  readonly maxUlp: number;
  /** Outputs only one side has, or has at another length. */
  readonly shape: string[];
  /** The first differing word, 'name[i]: dxbc 0x.., dxil 0x..'. */
  readonly first: string;
}

/** Every output word of the two builds (NaN equals NaN). */
export function compareOutputs(dxbc: Outputs, dxil: Outputs): Comparison {
  let words = 0;
  let differing = 0;
  let maxUlp = 0;
  let first = '';
  const shape: string[] = [];
  for (const name of [...new Set([...Object.keys(dxbc), ...Object.keys(dxil)])].sort()) {
    const a = dxbc[name];
    const b = dxil[name];
    if (!a || !b || a.length !== b.length) {
      shape.push(
        `${name}: ${a ? `${a.length} words` : 'absent'} from DXBC, ${b ? `${b.length} words` : 'absent'} from DXIL`,
      );
      continue;
    }
    for (let i = 0; i < a.length; i++) {
      words++;
      const x = a[i]!;
      const y = b[i]!;
      if (x === y || (isNaNWord(x) && isNaNWord(y))) continue;
      differing++;
      maxUlp = Math.max(maxUlp, ulpDistance(x, y));
      if (!first) first = `${name}[${i}]: dxbc 0x${x.toString(16)}, dxil 0x${y.toString(16)}`;
    }
  }
  return { words, differing, maxUlp, shape, first };
}
