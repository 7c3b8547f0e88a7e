// Seeded runs of hull, domain and geometry programs on the executor, printed by element (the same
// shape as `iridia run --seed`): inputs seeded by semantic into each build's own registers, outputs
// read back by semantic, so a DXBC and a DXIL build of one HLSL that pack their signatures
// differently give the same record when they compute the same words. Used by dxil-stages.test.ts.

import type { Program } from '../../src/ir/program.js';
import {
  FILE_WORDS,
  SEED_DOMAIN_POINTS,
  elementWords,
  nearestClampSampler,
  runDomain,
  runGeometry,
  runHull,
  seedBindings,
  seedRegisterFiles,
} from '../../src/exec/index.js';

export interface StageRecord {
  readonly stage: string;
  /** Per output element (SEMANTICn), its components of each vertex, control point or domain point. */
  readonly outputs: Record<string, number[]>;
  /** Hull: the patch constants by element, each patch in turn. */
  readonly patchConstants?: Record<string, number[]>;
  /** Geometry: primitive, instance and strip of each emitted vertex. */
  readonly emitted?: number[][];
  /** Writable resources' words after the run, by Direct3D name. */
  readonly resources: Record<string, number[]>;
}

/** Runs a program lifted as stage functions on seeded inputs: `items` primitives or patches. */
export function runStageSeeded(p: Program, seed: number, items = 2): StageRecord {
  const sf = p.stageFunctions;
  if (!sf) throw new Error(`a ${p.stage} program without stage functions`);
  const b = seedBindings(p, seed);
  const base = {
    buffers: b.buffers,
    textures: b.textures,
    sample: nearestClampSampler(b.textures, { views: b.views, compare: b.compare }),
  };
  let rec: Omit<StageRecord, 'resources'>;
  if (p.stage === 'geometry') {
    const main = p.module.functions[sf.main]!;
    const vIn = main.args.find((a) => a.name === 'v_in');
    const vt = vIn ? p.module.types[vIn.type] : undefined;
    const per = vt?.kind === 'array' && vt.length !== null ? vt.length : 1;
    const inputs = seedRegisterFiles(p.interface.inputs, seed, items * per);
    const r = runGeometry(p, { ...base, primitives: items, inputs });
    const files = new Uint32Array(r.vertices.length * FILE_WORDS);
    r.vertices.forEach((v, i) => files.set(v.registers, i * FILE_WORDS));
    rec = {
      stage: p.stage,
      outputs: elementWords(p.interface.outputs, files, r.vertices.length),
      emitted: r.vertices.map((v) => [v.primitive, v.instance, v.strip]),
    };
  } else if (p.stage === 'hull') {
    const cpIn = sf.inputControlPoints ?? 1;
    const cpOut = sf.main >= 0 ? (sf.outputControlPoints ?? cpIn) : cpIn;
    const r = runHull(p, {
      ...base,
      patches: items,
      inputs: seedRegisterFiles(p.interface.inputs, seed, items * cpIn),
      ...(sf.phaseInstances ? { phaseInstances: sf.phaseInstances } : {}),
    });
    rec = {
      stage: p.stage,
      outputs: elementWords(p.interface.outputs, r.controlPoints, items * cpOut),
      patchConstants: elementWords(p.interface.patchConstants, r.patchConstants, items),
    };
  } else if (p.stage === 'domain') {
    const cp = sf.inputControlPoints ?? 1;
    const r = runDomain(p, {
      ...base,
      patches: items,
      controlPoints: seedRegisterFiles(p.interface.inputs, seed, items * cp),
      patchConstants: seedRegisterFiles(p.interface.patchConstants, seed, items, 'pc'),
      domainPoints: SEED_DOMAIN_POINTS,
    });
    rec = { stage: p.stage, outputs: elementWords(p.interface.outputs, r, items * SEED_DOMAIN_POINTS.length) };
  } else throw new Error(`not a hull, domain or geometry program: ${p.stage}`);
  const resources: Record<string, number[]> = {};
  for (const r of b.resources) {
    if (!r.writable) continue;
    if (r.kind === 'storage') resources[r.name] = Array.from(b.buffers[r.key]!);
    else resources[r.name] = Array.from(b.textures[r.key]!.levels[0]!);
  }
  return { ...rec, resources };
}
