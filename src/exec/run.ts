// Running a lifted program's entry point on the CPU: compute (thread group by thread group, each a
// lockstep batch with its own groupshared memory), pixel (the whole target as 2x2 quads, one batch)
// and vertex (all vertices as one batch). Resources are bound by 'group:binding' (the IR globals'
// bindings, see the lifter's resource table) from typed arrays that the run reads and writes in place;
// sampling is the caller's callback (values.ts SampleRequest). Spec: lifter-dxbc.md, "iridia-exec".

import type { Binding, Builtin, EntryPoint, Module, Type } from '../ir/ir.js';
import type { Program } from '../ir/program.js';
import { IridiaError } from '../errors.js';
import { layoutOf } from './layout.js';
import { Invocation, WAVE_SIZE, type Context } from './invocation.js';
import { V, type ExecTexture, type SampleCallback } from './values.js';
import { f32ToBits } from './float.js';
import { withDenormals } from './ops.js';
import { currentTrace, type AccessTrace } from './races.js';
import { checkLanes, reserveWords, startBatch, startRun, DEFAULT_STATEMENT_BUDGET } from './budget.js';

function fail(why: string): never {
  throw new IridiaError('E701_EXEC_ERROR', why);
}

/** A resource bound to the run: key 'group:binding', or 'group:binding:index' inside a binding array. */
export interface ExecBindings {
  /** Uniform and storage buffers, as words. Storage buffers are written in place. */
  readonly buffers?: Readonly<Record<string, Uint32Array>>;
  /** Textures and storage images (written in place). */
  readonly textures?: Readonly<Record<string, ExecTexture>>;
  readonly sample?: SampleCallback;
  /** Statements (per batch) a run may execute before it is refused as not ending; default 2^24. */
  readonly budget?: number;
  /** Bytes the run may allocate (locals, private and groupshared memory, constant-buffer copies,
   * values); default 2^30 (budget.ts). */
  readonly memoryBudget?: number;
  /** Lanes the run may dispatch in all; default 2^24 (budget.ts). */
  readonly dispatchBudget?: number;
  /** Lanes in a wave (subgroup_size; ir.ts "Subgroups"): a power of two from 4 to 128, default 32
   * (WAVE_SIZE). Set it to a device's subgroup size to compare wave programs with that device. */
  readonly waveSize?: number;
  /** 'flush' (Direct3D's rule, the default) or 'preserve' (as Vulkan drivers such as SwiftShader). */
  readonly denormals?: 'flush' | 'preserve';
  /** Told every shared-memory access, barrier and batch (races.ts RaceDetector finds data races);
   * default: the one set by traceAccesses, if any. */
  readonly trace?: AccessTrace;
}

function entry(m: Module, stage: EntryPoint['stage']): EntryPoint {
  const ep = m.entryPoints.find((e) => e.stage === stage);
  if (!ep) fail(`the module has no ${stage} entry point`);
  return ep;
}

function moduleOf(p: Program | Module): Module {
  return 'module' in p ? p.module : p;
}

const zeroCache = new Map<number, Int32Array>();

/** Zero addresses for n lanes (shared: pointers never write into their address arrays). */
function zeros(n: number): Int32Array {
  let z = zeroCache.get(n);
  if (!z) zeroCache.set(n, (z = new Int32Array(n)));
  return z;
}

export function makeContext(
  m: Module,
  b: ExecBindings,
  /** Private globals every lane shares (a hull program's patch constants across phase instances). */
  sharedPrivate: ReadonlyMap<number, Uint32Array> = new Map(),
): {
  ctx: Context;
  newGroup(): void;
  privateOf(id: number, n: number): { mem: Uint32Array; size: number } | undefined;
} {
  startBatch();
  let workgroup = new Map<number, Uint32Array>();
  const privates = new Map<number, { n: number; mem: Uint32Array }>();
  const buffers = b.buffers ?? {};
  const textures = b.textures ?? {};
  const uniformCopies = new Map<number, Uint32Array>();
  const waveSize = b.waveSize ?? WAVE_SIZE;
  if (!(waveSize >= 4 && waveSize <= 128 && (waveSize & (waveSize - 1)) === 0))
    fail(`wave size ${waveSize} is not a power of two from 4 to 128`);
  const ctx: Context = {
    module: m,
    waveSize,
    sample: b.sample,
    budget: b.budget ?? DEFAULT_STATEMENT_BUDGET,
    trace: b.trace ?? currentTrace(),
    bufferAt: (key) => buffers[key],
    textureAt: (key) => textures[key],
    globalMem(id, n) {
      const g = m.globals[id]!;
      const t = m.types[g.type]!;
      const shared = (mem: Uint32Array) => ({ mem, mems: [], base: zeros(n) });
      if (t.kind === 'binding_array') return { mems: [], base: new Int32Array(n) };
      const size = layoutOf(m, t).size;
      switch (g.space) {
        case 'uniform': {
          let mem = uniformCopies.get(id);
          if (!mem) {
            const bound = g.binding ? buffers[`${g.binding.group}:${g.binding.binding}`] : undefined;
            if (!bound) return undefined;
            // A constant buffer bound with fewer rows than declared reads zero past its end.
            reserveWords(Math.max(size, bound.length), `a copy of constant buffer ${g.name}`);
            mem = new Uint32Array(Math.max(size, bound.length));
            mem.set(bound);
            uniformCopies.set(id, mem);
          }
          return shared(mem);
        }
        case 'storage': {
          const bound = g.binding ? buffers[`${g.binding.group}:${g.binding.binding}`] : undefined;
          return bound ? shared(bound) : undefined;
        }
        case 'workgroup': {
          let mem = workgroup.get(id);
          if (!mem) {
            reserveWords(size, `groupshared ${g.name}`);
            workgroup.set(id, (mem = new Uint32Array(size)));
          }
          return shared(mem);
        }
        case 'private': {
          const sp = sharedPrivate.get(id);
          if (sp) return shared(sp);
          let p = privates.get(id);
          if (!p || p.n !== n) {
            reserveWords(size * n, `private ${g.name} over ${n} lanes`);
            const mem = new Uint32Array(size * n);
            const c = g.init !== undefined ? m.constants[g.init] : undefined;
            if (c)
              for (let l = 0; l < n; l++) for (let k = 0; k < size; k++) mem[l * size + k] = (c.words[k] ?? 0) >>> 0;
            privates.set(id, (p = { n, mem }));
          }
          const base = new Int32Array(n);
          for (let l = 0; l < n; l++) base[l] = l * size;
          return { mem: p.mem, mems: [], base };
        }
        case 'handle':
          return undefined;
      }
    },
  };
  return {
    ctx,
    newGroup: () => {
      startBatch();
      workgroup = new Map();
      privates.clear();
    },
    privateOf: (id, n) => {
      const p = privates.get(id);
      const g = m.globals[id];
      return p && p.n === n && g ? { mem: p.mem, size: layoutOf(m, typeOf(m, g.type)).size } : undefined;
    },
  };
}

function typeOf(m: Module, id: number): Type {
  const t = m.types[id];
  if (!t) fail(`type ${id} out of range`);
  return t;
}

function words(m: Module, id: number): number {
  return layoutOf(m, typeOf(m, id)).size;
}

export interface ComputeResult {
  readonly lanes: number;
  /** Lanes × statements executed (each batch's statements times its lanes): the work done. */
  readonly laneStatements: number;
}

export interface ComputeRun {
  /** Thread groups dispatched in x, y, z. */
  readonly workgroups: readonly [number, number, number];
}

/** Runs a compute program's entry point; storage buffers and images are written in place. */
function runComputeImpl(program: Program | Module, run: ComputeRun & ExecBindings): ComputeResult {
  startRun(run);
  const m = moduleOf(program);
  const ep = entry(m, 'compute');
  const f = m.functions[ep.function]!;
  const [sx, sy, sz] = ep.workgroupSize ?? [1, 1, 1];
  const n = sx * sy * sz;
  const [gx, gy, gz] = run.workgroups;
  checkLanes(n, `a thread group of ${sx} × ${sy} × ${sz}`);
  checkLanes(n * gx * gy * gz, `a dispatch of ${gx} × ${gy} × ${gz} groups of ${n} threads`);
  const { ctx, newGroup } = makeContext(m, run);
  const budget = ctx.budget;
  let statements = 0;
  const builtin = (b: Builtin, wg: readonly number[]): V => {
    const vec3 = (g: (l: number, k: number) => number): V => {
      const v = new V(n, 3);
      for (let k = 0; k < 3; k++) for (let l = 0; l < n; l++) v.u[k * n + l] = g(l, k);
      return v;
    };
    const local = (l: number): number[] => [l % sx, Math.floor(l / sx) % sy, Math.floor(l / (sx * sy))];
    const size = [sx, sy, sz];
    switch (b) {
      case 'local_invocation_index': {
        const v = new V(n, 1);
        for (let l = 0; l < n; l++) v.u[l] = l;
        return v;
      }
      case 'local_invocation_id':
        return vec3((l, k) => local(l)[k]!);
      case 'global_invocation_id':
        return vec3((l, k) => wg[k]! * size[k]! + local(l)[k]!);
      case 'workgroup_id':
        return vec3((_l, k) => wg[k]!);
      case 'num_workgroups':
        return vec3((_l, k) => run.workgroups[k]!);
      case 'subgroup_invocation_id':
      case 'subgroup_size':
        return subgroupBuiltin(b, n, ctx.waveSize ?? WAVE_SIZE);
      case 'position':
      case 'vertex_index':
      case 'instance_index':
      case 'front_facing':
      case 'frag_depth':
      case 'sample_index':
      case 'sample_mask':
        return fail(`compute builtin ${b}`);
    }
  };
  let group = 0;
  for (let z = 0; z < gz; z++)
    for (let y = 0; y < gy; y++)
      for (let x = 0; x < gx; x++) {
        newGroup();
        ctx.trace?.batch(group++);
        ctx.budget = budget;
        const args = f.args.map((a) => {
          if (a.binding?.kind !== 'builtin') fail(`compute argument ${a.name} is not a builtin`);
          return builtin(a.binding.builtin, [x, y, z]);
        });
        const inv = new Invocation(ctx, ep.function, args, new Uint8Array(n));
        inv.run(new Uint8Array(n).fill(1));
        statements += n * (budget - ctx.budget);
      }
  return { lanes: n * gx * gy * gz, laneStatements: statements };
}

export interface PixelRun {
  readonly width: number;
  readonly height: number;
  /** Varyings by location: 4 words per pixel, row by row (width × height × 4). Absent: zero. */
  readonly inputs?: Readonly<Record<number, Uint32Array>>;
  /** SV_Position's z and w (x and y are the pixel centre); default 0.5 and 1. */
  readonly positionZW?: readonly [number, number];
  readonly frontFacing?: boolean;
}

export interface PixelResult {
  /** Colour outputs by location: 4 words per pixel (zero where discarded). */
  readonly targets: Record<number, Uint32Array>;
  /** frag_depth per pixel, when the program writes it. */
  readonly depth?: Float32Array;
  /** 1 where the pixel was written (not discarded). */
  readonly written: Uint8Array;
  readonly lanes: number;
  /** Lanes × statements executed (each batch's statements times its lanes): the work done. */
  readonly laneStatements: number;
}

function bindingsOfResult(
  m: Module,
  t: Type,
  b: Binding | undefined,
): Array<{ binding: Binding; offset: number; w: number }> {
  if (t.kind === 'struct') {
    const offs = layoutOf(m, t).offsets!;
    return t.members.flatMap((mem, i) =>
      mem.binding ? [{ binding: mem.binding, offset: offs[i]!, w: words(m, mem.type) }] : [],
    );
  }
  return b ? [{ binding: b, offset: 0, w: layoutOf(m, t).size }] : [];
}

/** Runs a pixel program over every pixel of a width × height target, as 2x2 quads. */
function runPixelImpl(program: Program | Module, run: PixelRun & ExecBindings): PixelResult {
  startRun(run);
  const m = moduleOf(program);
  const ep = entry(m, 'fragment');
  const f = m.functions[ep.function]!;
  const { width, height } = run;
  const qw = Math.ceil(width / 2);
  const qh = Math.ceil(height / 2);
  const n = qw * qh * 4;
  checkLanes(n, `a ${width} × ${height} target (as 2x2 quads)`);
  // Lane l: quad q = l >> 2 at (2 * (q % qw), 2 * floor(q / qw)), position in quad l & 3.
  const px = new Int32Array(n);
  const py = new Int32Array(n);
  const helper = new Uint8Array(n);
  for (let l = 0; l < n; l++) {
    const q = l >> 2;
    px[l] = 2 * (q % qw) + (l & 1);
    py[l] = 2 * Math.floor(q / qw) + ((l >> 1) & 1);
    if (px[l]! >= width || py[l]! >= height) helper[l] = 1;
  }
  const outside = helper.slice();
  const [pz, pw] = run.positionZW ?? [0.5, 1];
  const args = f.args.map((a) => {
    const w = words(m, a.type);
    const v = new V(n, w);
    const b = a.binding;
    if (!b) fail(`pixel argument ${a.name} has no binding`);
    if (b.kind === 'location') {
      const src = run.inputs?.[b.location];
      if (src)
        for (let l = 0; l < n; l++) {
          if (outside[l]) continue;
          const p = (py[l]! * width + px[l]!) * 4;
          for (let k = 0; k < w; k++) v.u[k * n + l] = src[p + k] ?? 0;
        }
      return v;
    }
    if (b.builtin === 'subgroup_invocation_id' || b.builtin === 'subgroup_size')
      return subgroupBuiltin(b.builtin, n, run.waveSize ?? WAVE_SIZE);
    for (let l = 0; l < n; l++) {
      const vals: number[] =
        b.builtin === 'position'
          ? [px[l]! + 0.5, py[l]! + 0.5, pz, pw].map(f32ToBits)
          : b.builtin === 'front_facing'
            ? [run.frontFacing === false ? 0 : 1]
            : b.builtin === 'sample_mask'
              ? [1]
              : b.builtin === 'sample_index'
                ? [0]
                : fail(`pixel builtin ${b.builtin}`);
      for (let k = 0; k < w; k++) v.u[k * n + l] = vals[k] ?? 0;
    }
    return v;
  });
  const { ctx } = makeContext(m, run);
  const budget = ctx.budget;
  ctx.trace?.batch(0);
  const inv = new Invocation(ctx, ep.function, args, helper);
  inv.run(new Uint8Array(n).fill(1));
  const targets: Record<number, Uint32Array> = {};
  let depth: Float32Array | undefined;
  const written = new Uint8Array(width * height);
  const outs = f.result ? bindingsOfResult(m, typeOf(m, f.result.type), f.result.binding) : [];
  for (const o of outs) {
    if (o.binding.kind === 'location') targets[o.binding.location] = new Uint32Array(width * height * 4);
    else if (o.binding.builtin === 'frag_depth') depth = new Float32Array(width * height);
  }
  const r = inv.result;
  // An output coverage mask without sample 0 discards the pixel (one sample per pixel here).
  const coverage = outs.find((o) => o.binding.kind === 'builtin' && o.binding.builtin === 'sample_mask');
  for (let l = 0; l < n; l++) {
    if (helper[l]) continue;
    if (r && coverage && (r.u[coverage.offset * n + l]! & 1) === 0) continue;
    const p = py[l]! * width + px[l]!;
    written[p] = 1;
    if (!r) continue;
    for (const o of outs) {
      if (o.binding.kind === 'location') {
        const t = targets[o.binding.location]!;
        for (let k = 0; k < o.w; k++) t[p * 4 + k] = r.u[(o.offset + k) * n + l]!;
      } else if (o.binding.builtin === 'frag_depth' && depth) depth[p] = r.f[o.offset * n + l]!;
    }
  }
  return {
    targets,
    ...(depth ? { depth } : {}),
    written,
    lanes: width * height,
    laneStatements: n * (budget - ctx.budget),
  };
}

export interface VertexRun {
  readonly vertexCount: number;
  /** vertex_index of the first vertex (WebGPU's firstVertex, or an indexed draw's baseVertex;
   * default 0): vertex l has vertex_index firstVertex + l. */
  readonly firstVertex?: number;
  /** instance_index (WebGPU's: firstInstance included; default 0). */
  readonly instanceIndex?: number;
  /** Vertex inputs by location: 4 words per vertex. */
  readonly inputs?: Readonly<Record<number, Uint32Array>>;
}

export interface VertexResult {
  /** Outputs by location (4 words per vertex) and 'position'. */
  readonly outputs: Record<string, Uint32Array>;
  readonly lanes: number;
  /** Lanes × statements executed (each batch's statements times its lanes): the work done. */
  readonly laneStatements: number;
}

/** Runs a vertex program's entry point over `vertexCount` vertices. */
function runVertexImpl(program: Program | Module, run: VertexRun & ExecBindings): VertexResult {
  startRun(run);
  const m = moduleOf(program);
  const ep = entry(m, 'vertex');
  const f = m.functions[ep.function]!;
  const n = run.vertexCount;
  checkLanes(n, `${n} vertices`);
  const args = f.args.map((a) => {
    const w = words(m, a.type);
    const v = new V(n, w);
    const b = a.binding;
    if (!b) fail(`vertex argument ${a.name} has no binding`);
    for (let l = 0; l < n; l++) {
      if (b.kind === 'location') {
        const src = run.inputs?.[b.location];
        for (let k = 0; k < w; k++) v.u[k * n + l] = src?.[l * 4 + k] ?? 0;
      } else if (b.builtin === 'vertex_index') v.u[l] = ((run.firstVertex ?? 0) + l) >>> 0;
      else if (b.builtin === 'instance_index') v.u[l] = run.instanceIndex ?? 0;
      else fail(`vertex builtin ${b.builtin}`);
    }
    return v;
  });
  const { ctx } = makeContext(m, run);
  const budget = ctx.budget;
  const inv = new Invocation(ctx, ep.function, args, new Uint8Array(n));
  inv.run(new Uint8Array(n).fill(1));
  const outputs: Record<string, Uint32Array> = {};
  const r = inv.result;
  if (r && f.result)
    for (const o of bindingsOfResult(m, typeOf(m, f.result.type), f.result.binding)) {
      const name = o.binding.kind === 'location' ? String(o.binding.location) : o.binding.builtin;
      const out = new Uint32Array(n * 4);
      for (let l = 0; l < n; l++) for (let k = 0; k < o.w; k++) out[l * 4 + k] = r.u[(o.offset + k) * n + l]!;
      outputs[name] = out;
    }
  return { outputs, lanes: n, laneStatements: n * (budget - ctx.budget) };
}

/** Runs a compute program's entry point; storage buffers and images are written in place. */
export function runCompute(program: Program | Module, run: ComputeRun & ExecBindings): ComputeResult {
  return withDenormals(run.denormals ?? 'flush', () => runComputeImpl(program, run));
}

/** Runs a pixel program over every pixel of a width × height target, as 2x2 quads. */
export function runPixel(program: Program | Module, run: PixelRun & ExecBindings): PixelResult {
  return withDenormals(run.denormals ?? 'flush', () => runPixelImpl(program, run));
}

/** Runs a vertex program's entry point over `vertexCount` vertices. */
export function runVertex(program: Program | Module, run: VertexRun & ExecBindings): VertexResult {
  return withDenormals(run.denormals ?? 'flush', () => runVertexImpl(program, run));
}

/** A lane's id in its wave and the wave's size (ir.ts "Subgroups": waves of `size` lanes in batch order). */
function subgroupBuiltin(b: 'subgroup_invocation_id' | 'subgroup_size', n: number, size: number): V {
  const v = new V(n, 1);
  for (let l = 0; l < n; l++) v.u[l] = b === 'subgroup_size' ? size : l % size;
  return v;
}
