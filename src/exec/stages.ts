// Running the stages lifted as functions (Program.stageFunctions; the lifter's stage.ts gives their
// shapes): geometry (one lane per primitive and instance; `emit` snapshots the private global `o`,
// `cut` ends the strip of its stream; each vertex carries its stream, 0 to 3), hull (the control-point phase, one lane per output control
// point, then each fork and join phase with one lane per instance, all instances of a patch sharing
// the patch constants `pc`) and domain (one lane per domain point). Inputs and outputs are register
// files: 32 registers of 4 words for each vertex or control point, as the signatures in the
// program's interface place the elements.

import type { Module } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import { IridiaError } from '../errors.js';
import { layoutOf } from './layout.js';
import { Invocation } from './invocation.js';
import { makeContext, type ExecBindings } from './run.js';
import { V } from './values.js';
import { withDenormals } from './ops.js';
import { checkLanes, reserveWords, startRun } from './budget.js';
import { f32ToBits } from './float.js';
import { parseContainer } from '../container/container.js';
import { decodeProgram } from '../sm4/decode.js';

/** Words in one register file (32 registers of 4 words). */
export const FILE_WORDS = 128;

function fail(why: string): never {
  throw new IridiaError('E701_EXEC_ERROR', why);
}

function stageFns(p: Program, stage: Program['stage']) {
  if (p.stage !== stage || !p.stageFunctions) fail(`the program is not a ${stage} program lifted as stage functions`);
  return p.stageFunctions;
}

/** Arguments by name: each lane's words from `fill(name, lane)`. */
function argsFor(m: Module, fnId: number, n: number, fill: (name: string, lane: number) => ArrayLike<number>): V[] {
  const f = m.functions[fnId];
  if (!f) fail(`function ${fnId} out of range`);
  return f.args.map((a) => {
    const w = layoutOf(m, m.types[a.type]!).size;
    const v = new V(n, w);
    for (let l = 0; l < n; l++) {
      const src = fill(a.name, l);
      for (let k = 0; k < w; k++) v.u[k * n + l] = (src[k] ?? 0) >>> 0;
    }
    return v;
  });
}

function globalNamed(m: Module, name: string): number {
  const i = m.globals.findIndex((g) => g.name === name && g.space === 'private');
  if (i < 0) fail(`the program has no private global ${name}`);
  return i;
}

export interface GeometryRun extends ExecBindings {
  readonly primitives: number;
  /** Per primitive, its input vertices' register files (vertices × 128 words). */
  readonly inputs: Uint32Array;
}

export interface EmittedVertex {
  readonly primitive: number;
  readonly instance: number;
  /** The stream it was emitted to (emit_stream / EmitStream; 0 for emit). */
  readonly stream: number;
  /** Strip number within the lane and stream (a cut of the stream starts the next one). */
  readonly strip: number;
  /** The output register file (128 words). */
  readonly registers: Uint32Array;
}

export function runGeometry(p: Program, run: GeometryRun): { vertices: EmittedVertex[]; laneStatements: number } {
  return withDenormals(run.denormals ?? 'flush', () => {
    startRun(run);
    const sf = stageFns(p, 'geometry');
    const m = p.module;
    const instances = sf.instanceCount ?? 1;
    const n = run.primitives * instances;
    checkLanes(n, `${run.primitives} primitives × ${instances} instances`);
    const fn = m.functions[sf.main]!;
    const vIn = fn.args.find((a) => a.name === 'v_in');
    const inWords = vIn ? layoutOf(m, m.types[vIn.type]!).size : 0;
    const { ctx, privateOf } = makeContext(m, run);
    const o = globalNamed(m, 'o');
    const perLane: EmittedVertex[][] = Array.from({ length: n }, () => []);
    const strip = new Int32Array(n * 4);
    ctx.emit = (stream, mask) => {
      const mem = privateOf(o, n);
      for (let l = 0; l < n; l++) {
        if (!mask[l]) continue;
        const regs = new Uint32Array(FILE_WORDS);
        if (mem) regs.set(mem.mem.subarray(l * mem.size, l * mem.size + Math.min(mem.size, FILE_WORDS)));
        perLane[l]!.push({
          primitive: Math.floor(l / instances),
          instance: l % instances,
          stream,
          strip: strip[l * 4 + stream]!,
          registers: regs,
        });
      }
    };
    ctx.cut = (stream, mask) => {
      for (let l = 0; l < n; l++) if (mask[l]) strip[l * 4 + stream]!++;
    };
    const args = argsFor(m, sf.main, n, (name, l) => {
      const prim = Math.floor(l / instances);
      if (name === 'primitive_id') return [prim];
      if (name === 'instance_id') return [l % instances];
      return run.inputs.subarray(prim * inWords, (prim + 1) * inWords);
    });
    const budget = ctx.budget;
    const inv = new Invocation(ctx, sf.main, args, new Uint8Array(n));
    inv.run(new Uint8Array(n).fill(1));
    return { vertices: perLane.flat(), laneStatements: n * (budget - ctx.budget) };
  });
}

/** The instance count of each fork and join phase of a hull program's container, in program order
 * (dcl_hs_fork_phase_instance_count / dcl_hs_join_phase_instance_count; 1 when undeclared). */
export function hullPhaseInstances(container: Uint8Array): number[] {
  const c = parseContainer(container);
  const part = c.parts.find((x) => x.kind === 'SHEX') ?? c.parts.find((x) => x.kind === 'SHDR');
  if (!part) fail('the container has no SHEX or SHDR part');
  const out: number[] = [];
  for (const i of decodeProgram(part.data, part.kind).instructions) {
    if (i.opcode === 0x73 || i.opcode === 0x74) out.push(1);
    else if ((i.opcode === 0x99 || i.opcode === 0x9a) && out.length) out[out.length - 1] = i.values[0] ?? 1;
  }
  return out;
}

export interface HullRun extends ExecBindings {
  readonly patches: number;
  /** Per patch, the input control points' register files (CPin × 128 words). */
  readonly inputs: Uint32Array;
  /** Instances of each fork/join phase, in order (dcl_hs_fork/join_phase_instance_count); default 1. */
  readonly phaseInstances?: readonly number[];
}

export interface HullResult {
  /** Per patch, the output control points (CPout × 128 words). */
  readonly controlPoints: Uint32Array;
  /** Per patch, the patch constants (128 words). */
  readonly patchConstants: Uint32Array;
}

export function runHull(p: Program, run: HullRun): HullResult {
  return withDenormals(run.denormals ?? 'flush', () => {
    startRun(run);
    const sf = stageFns(p, 'hull');
    const m = p.module;
    const cpIn = sf.inputControlPoints ?? 1;
    const cpOut = sf.main >= 0 ? (sf.outputControlPoints ?? cpIn) : cpIn;
    const inWords = cpIn * FILE_WORDS;
    checkLanes(run.patches * cpOut, `${run.patches} patches × ${cpOut} control points`);
    for (const k of run.phaseInstances ?? [])
      checkLanes(run.patches * k, `${run.patches} patches × ${k} phase instances`);
    reserveWords(run.patches * (cpOut + 1) * FILE_WORDS, 'the control points and patch constants');
    const controlPoints = new Uint32Array(run.patches * cpOut * FILE_WORDS);
    if (sf.main >= 0) {
      const n = run.patches * cpOut;
      const { ctx } = makeContext(m, run);
      const args = argsFor(m, sf.main, n, (name, l) => {
        const patch = Math.floor(l / cpOut);
        if (name === 'control_point_id') return [l % cpOut];
        if (name === 'primitive_id') return [patch];
        return run.inputs.subarray(patch * inWords, (patch + 1) * inWords);
      });
      const inv = new Invocation(ctx, sf.main, args, new Uint8Array(n));
      inv.run(new Uint8Array(n).fill(1));
      const r = inv.result;
      if (r) for (let l = 0; l < n; l++) controlPoints.set(r.lane(l).slice(0, FILE_WORDS), l * FILE_WORDS);
    } else controlPoints.set(run.inputs.subarray(0, controlPoints.length));
    const patchConstants = new Uint32Array(run.patches * FILE_WORDS);
    const pc = sf.patchConstant.length ? globalNamed(m, 'pc') : -1;
    for (let patch = 0; patch < run.patches; patch++) {
      const pcMem = new Uint32Array(FILE_WORDS);
      sf.patchConstant.forEach((fnId, phase) => {
        const n = run.phaseInstances?.[phase] ?? 1;
        const { ctx } = makeContext(m, run, new Map([[pc, pcMem]]));
        const args = argsFor(m, fnId, n, (name, l) => {
          if (name === 'instance_id') return [l];
          if (name === 'primitive_id') return [patch];
          if (name === 'vocp')
            return controlPoints.subarray(patch * cpOut * FILE_WORDS, (patch + 1) * cpOut * FILE_WORDS);
          return run.inputs.subarray(patch * inWords, (patch + 1) * inWords);
        });
        new Invocation(ctx, fnId, args, new Uint8Array(n)).run(new Uint8Array(n).fill(1));
      });
      patchConstants.set(pcMem, patch * FILE_WORDS);
    }
    return { controlPoints, patchConstants };
  });
}

export interface DomainRun extends ExecBindings {
  readonly patches: number;
  /** Per patch, the control points (CP × 128 words) and the patch constants (128 words). */
  readonly controlPoints: Uint32Array;
  readonly patchConstants: Uint32Array;
  /** Domain points (u, v, w), three floats each, run for every patch. */
  readonly domainPoints: readonly (readonly [number, number, number])[];
}

/** Per patch and domain point, the output register file (128 words). */
export function runDomain(p: Program, run: DomainRun): Uint32Array {
  return withDenormals(run.denormals ?? 'flush', () => {
    startRun(run);
    const sf = stageFns(p, 'domain');
    const m = p.module;
    const cp = sf.inputControlPoints ?? 1;
    const k = run.domainPoints.length;
    const n = run.patches * k;
    checkLanes(n, `${run.patches} patches × ${k} domain points`);
    const { ctx } = makeContext(m, run);
    const args = argsFor(m, sf.main, n, (name, l) => {
      const patch = Math.floor(l / k);
      if (name === 'primitive_id') return [patch];
      if (name === 'domain') return run.domainPoints[l % k]!.map(f32ToBits);
      if (name === 'vpc') return run.patchConstants.subarray(patch * FILE_WORDS, (patch + 1) * FILE_WORDS);
      return run.controlPoints.subarray(patch * cp * FILE_WORDS, (patch + 1) * cp * FILE_WORDS);
    });
    const inv = new Invocation(ctx, sf.main, args, new Uint8Array(n));
    inv.run(new Uint8Array(n).fill(1));
    const out = new Uint32Array(n * FILE_WORDS);
    const r = inv.result;
    if (r) for (let l = 0; l < n; l++) out.set(r.lane(l).slice(0, FILE_WORDS), l * FILE_WORDS);
    return out;
  });
}
