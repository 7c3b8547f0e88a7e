// `iridia run FILE --input JSON [--gpu]`: lifts a container and runs it on the CPU executor (or,
// with --gpu, its WGSL through WebGPU: npm `webgpu`, Dawn), reading the dispatch size, target size,
// bindings and varyings from a JSON file and printing every output word as JSON.
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

import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs, flag, UsageError } from '../args.js';
import { readInput } from '../io.js';
import { lift } from '../../lift/lift.js';
import type { Program, Resource } from '../../ir/program.js';
import { runCompute, runPixel, runVertex, nearestClampSampler, type ExecTexture } from '../../exec/index.js';
import { emitWgsl } from '../../wgsl/index.js';
import { openGpu } from '../../gpu/session.js';
import type { GpuBinding } from '../../gpu/types.js';
import type { Binding, Type } from '../../ir/ir.js';

/** A full-screen triangle whose varyings are constant: each location's first pixel of the input (the
 * GPU run cannot be handed per-pixel values; the CPU run takes them all). */
function constantVaryings(p: Program, input: RunInput): string {
  const m = p.module;
  const fn = m.functions[m.entryPoints.find((e) => e.stage === 'fragment')!.function]!;
  const members = ['@builtin(position) pos: vec4<f32>'];
  const sets: string[] = [];
  for (const a of fn.args) {
    const b = a.binding;
    const t = m.types[a.type];
    if (!b || b.kind !== 'location' || !t || (t.kind !== 'vector' && t.kind !== 'scalar')) continue;
    const w = t.kind === 'vector' ? t.size : 1;
    const ty = w === 1 ? t.scalar : `vec${w}<${t.scalar}>`;
    const interp = b.interpolation ? ` @interpolate(${b.interpolation}${b.sampling ? `, ${b.sampling}` : ''})` : '';
    members.push(`@location(${b.location})${interp} v${b.location}: ${ty}`);
    const src = input.inputs?.[String(b.location)];
    const ws = src ? words(src) : new Uint32Array(4);
    const lits = Array.from({ length: w }, (_, k) => `${ws[k] ?? 0}u`);
    const u = w === 1 ? lits[0]! : `vec${w}<u32>(${lits.join(', ')})`;
    sets.push(`o.v${b.location} = bitcast<${ty}>(${u});`);
  }
  return `struct VOut { ${members.join(', ')} }
@vertex fn iridia_vs(@builtin(vertex_index) i: u32) -> VOut {
  var o: VOut;
  o.pos = vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.5, 1.0);
  ${sets.join('\n  ')}
  return o;
}
`;
}

type Words = number[] | { f32: number[] } | { u32: number[] } | { i32: number[] };

interface RunInput {
  workgroups?: [number, number, number];
  width?: number;
  height?: number;
  vertexCount?: number;
  buffers?: Record<string, Words>;
  textures?: Record<string, { width: number; height?: number; layers?: number; words: Words }>;
  inputs?: Record<string, Words>;
}

function words(w: Words): Uint32Array {
  if (Array.isArray(w)) return new Uint32Array(w.map((x) => x >>> 0));
  if ('f32' in w) return new Uint32Array(new Float32Array(w.f32).buffer);
  if ('i32' in w) return new Uint32Array(new Int32Array(w.i32).buffer);
  return new Uint32Array(w.u32.map((x) => x >>> 0));
}

/** The input key that names this resource, if any. */
function lookup<T>(table: Record<string, T> | undefined, r: Resource): T | undefined {
  if (!table) return undefined;
  const cls = r.registerClass === 'b' ? 'cb' : r.registerClass;
  return (
    table[r.name] ??
    table[`${r.registerClass}${r.register}`] ??
    table[`${cls}${r.register}`] ??
    table[`${r.group}:${r.binding}`]
  );
}

function writable(r: Resource): boolean {
  return r.kind.kind === 'uav';
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { '--input': { value: true }, '--gpu': {} });
  if (args.positional.length !== 1) throw new UsageError('run takes one FILE');
  const inputPath = args.flags.get('--input')?.[0];
  let input: RunInput = {};
  if (inputPath !== undefined) {
    try {
      input = JSON.parse(readFileSync(inputPath, 'utf8')) as RunInput;
    } catch (e) {
      throw new UsageError(`--input ${inputPath}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const program = lift(readInput(args.positional[0]!));
  const result = flag(args, '--gpu') ? await onGpu(program, input) : onCpu(program, input);
  if (result === undefined) return 1;
  process.stdout.write(`${JSON.stringify({ stage: program.stage, ...result })}\n`);
  return 0;
}

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
  const base = { buffers, textures, sample: nearestClampSampler(textures) };
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
  let webgpu: { create(o: string[]): GPU };
  try {
    webgpu = (await import('webgpu' as string)) as { create(o: string[]): GPU };
  } catch {
    process.stderr.write('iridia run --gpu: the npm package `webgpu` is not installed\n');
    return undefined;
  }
  const session = await openGpu(webgpu.create([]));
  try {
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
    const code = emitWgsl(p);
    const outputsOf = (o: Record<string, Uint32Array>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [names.get(k) ?? k, Array.from(v)]));
    if (p.stage === 'compute') {
      const r = await session.runCompute({ code, workgroups: input.workgroups ?? [1, 1, 1], bindings });
      if (!r.ok) throw new UsageError(`WebGPU ${r.stage}: ${r.messages.join('; ')}`);
      return { outputs: outputsOf(r.outputs) };
    }
    if (p.stage === 'pixel') {
      const width = input.width ?? 1;
      const height = input.height ?? 1;
      const vertexCode = constantVaryings(p, input);
      const fn = p.module.functions[p.module.entryPoints.find((e) => e.stage === 'fragment')!.function]!;
      const res = fn.result ? p.module.types[fn.result.type] : undefined;
      const locs: Array<{ location: number; format: GPUTextureFormat }> = [];
      const addTarget = (t: Type | undefined, b: Binding | undefined) => {
        if (!t || !b || b.kind !== 'location') return;
        const s = t.kind === 'vector' || t.kind === 'scalar' ? t.scalar : 'u32';
        const w = t.kind === 'vector' ? t.size : 1;
        if (w === 3) throw new UsageError('--gpu: a 3-component colour output has no WebGPU target format');
        const base = s === 'f32' ? 'float' : s === 'i32' ? 'sint' : 'uint';
        locs.push({
          location: b.location,
          format: `${w === 1 ? 'r' : w === 2 ? 'rg' : 'rgba'}32${base}` as GPUTextureFormat,
        });
      };
      if (res?.kind === 'struct') for (const m of res.members) addTarget(p.module.types[m.type], m.binding);
      else addTarget(res, fn.result?.binding);
      const max = locs.reduce((x, l) => Math.max(x, l.location), -1);
      const targets = Array.from({ length: Math.max(1, max + 1) }, (_, i) => {
        const l = locs.find((x) => x.location === i);
        return l ? { format: l.format } : { format: 'r32uint' as GPUTextureFormat, writeMask: 0 };
      });
      const r = await session.runPixel({
        code,
        vertexCode,
        width,
        height,
        targets,
        bindings,
        fragmentOnlyBindings: true,
      });
      if (!r.ok) throw new UsageError(`WebGPU ${r.stage}: ${r.messages.join('; ')}`);
      return {
        outputs: outputsOf(r.outputs),
        targets: Object.fromEntries(locs.map((l) => [String(l.location), Array.from(r.targets[l.location]!)])),
      };
    }
    throw new UsageError(`--gpu runs compute and pixel programs; this is a ${p.stage} program`);
  } finally {
    session.destroy();
  }
}
