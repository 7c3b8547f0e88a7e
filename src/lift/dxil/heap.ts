// Shader Model 6.6 descriptor heaps (ResourceDescriptorHeap[i], SamplerDescriptorHeap[i]): a
// createHandleFromHeap(index, samplerHeap, nonUniform) call, typed by the AnnotateHandle that
// follows it (its ResourceProperties: DXIL::ResourceKind, UAV, comparison sampler or hidden
// counter, component type or structure stride, constant buffer size; DxilResourceProperties.h).
//
// WGSL has no heap, so each kind of view the program takes from a heap becomes one binding array
// indexed by the heap index, declared as resources.ts declares a range (same element types and
// usage rules: depth textures for comparison sampling, atomic or single-word buffers, r32 storage
// textures when loaded). The convention, written on the Program's notes and in docs/lift.md:
// - one array per (heap, class, kind, component type or stride, comparison) the program uses, named
//   `rheap_<class><k>` (ResourceDescriptorHeap) or `sheap_s<k>` (SamplerDescriptorHeap), k counting
//   the arrays of that heap in the order below;
// - in its class's group (constant buffers 0, views 1, samplers 2, UAVs 3), at the bindings after
//   every binding the program's own ranges take in that group, arrays ordered by heap (resources
//   first), class (b, t, s, u), resource kind, component type and stride;
// - each of `unboundedCount` bindings (default 16), or more when a constant heap index reaches
//   further (at most 4096): element i of every array is descriptor i of its heap;
// - in the Program's resources as register class, register 0, count null (unbounded), space
//   0xfffffff0 (ResourceDescriptorHeap) or 0xfffffff1 (SamplerDescriptorHeap) — spaces Direct3D 12
//   reserves, so no range of the program has them — ids from 65536, and the heap's name as the
//   reflected name.
// A UAV with a hidden counter is refused as the SM4/5 lifter refuses counters.

import { Constant, Instruction, type Func, type Value } from '../../dxil/ir.js';
import type { DxilResource } from '../../dxil/dxil-metadata.js';
import type { DxilLifter } from './lifter.js';
import type { DxResources } from './resources.js';
import { arg, handleOf, type Handler } from './ops-common.js';

/** Register spaces of the heaps' arrays in the Program's resources (Direct3D 12 reserves 0xfffffff0 and up). */
export const RESOURCE_HEAP_SPACE = 0xfffffff0;
export const SAMPLER_HEAP_SPACE = 0xfffffff1;
/** Range ids of the heaps' arrays start here (above any id of dx.resources). */
export const HEAP_ID_BASE = 65536;

const GROUP = { b: 0, t: 1, s: 2, u: 3 } as const;
const CLASS_ORDER = ['b', 't', 's', 'u'] as const;

const opcodeOf = (v: Value | undefined): number => {
  if (!(v instanceof Instruction) || v.op !== 'call' || !v.callee?.name?.startsWith('dx.op.')) return -1;
  const c = v.ops[0];
  return c instanceof Constant && c.ck === 'int' ? Number(c.bits) : -1;
};

/** The two words of a ResourceProperties constant. */
function propertyWords(L: DxilLifter, v: Value | undefined): [number, number] {
  if (v instanceof Constant && (v.ck === 'null' || v.ck === 'undef')) return [0, 0];
  if (v instanceof Constant && v.ck === 'aggregate' && v.ops.length === 2) {
    const w = v.ops.map((x) =>
      x instanceof Constant && x.ck === 'int'
        ? Number(BigInt.asUintN(32, x.bits))
        : x instanceof Constant && (x.ck === 'null' || x.ck === 'undef')
          ? 0
          : -1,
    );
    if (w[0]! >= 0 && w[1]! >= 0) return [w[0]!, w[1]!];
  }
  return L.invalid('annotateHandle properties that are not a constant {i32, i32}');
}

interface HeapKind {
  readonly sampler: boolean;
  readonly cls: 'b' | 't' | 's' | 'u';
  readonly kind: number;
  readonly compType: number;
  readonly stride: number;
  readonly flag: boolean;
  size: number;
  maxIndex: number;
}

/** What an annotation says: class, kind, component type or stride, comparison or counter. */
function kindOf(L: DxilLifter, sampler: boolean, [w0, w1]: [number, number]): Omit<HeapKind, 'maxIndex'> {
  const kind = w0 & 0xff;
  const uav = (w0 & 0x1000) !== 0;
  const flag = (w0 & 0x8000) !== 0;
  if (kind === 0 || kind > 18) return L.invalid(`a heap handle annotated with resource kind ${kind}`);
  const cls = kind === 13 ? 'b' : kind === 14 ? 's' : uav ? 'u' : 't';
  if (sampler !== (cls === 's'))
    return L.invalid(
      sampler ? 'a SamplerDescriptorHeap handle annotated as a view' : 'a sampler from ResourceDescriptorHeap',
    );
  const typed = kind <= 10;
  return {
    sampler,
    cls,
    kind,
    compType: typed ? w1 & 0xff : 0,
    stride: kind === 12 ? w1 : 0,
    flag: (kind === 14 || kind === 12) && flag,
    size: kind === 13 ? w1 : 0,
  };
}

/** Declares the heaps' binding arrays the program uses (after resources.declareAll). */
export function declareHeaps(L: DxilLifter, resources: DxResources, fns: readonly Func[], unboundedCount = 16): void {
  const kinds = new Map<string, HeapKind>();
  const byAnnotation = new Map<Instruction, string>();
  for (const f of fns)
    for (const b of f.blocks)
      for (const i of b.insts) {
        if (opcodeOf(i) !== 216) continue;
        const create = i.ops[1];
        if (!(create instanceof Instruction) || opcodeOf(create) !== 218) continue;
        const sampler = L.imm(create.ops[2], 'a heap selector') !== 0;
        const k = kindOf(L, sampler, propertyWords(L, i.ops[2]));
        const key = `${+k.sampler}|${CLASS_ORDER.indexOf(k.cls)}|${k.kind}|${k.compType}|${k.stride}|${+k.flag}`;
        byAnnotation.set(i, key);
        const ix = create.ops[1];
        const constant = ix instanceof Constant && ix.ck === 'int' ? Number(BigInt.asUintN(32, ix.bits)) : 0;
        const had = kinds.get(key);
        if (had) {
          had.size = Math.max(had.size, k.size);
          had.maxIndex = Math.max(had.maxIndex, constant);
        } else kinds.set(key, Object.assign({}, k, { maxIndex: constant })); // (not a spread adding a key: ir.ts copyWithOrigin)
      }
  if (kinds.size === 0) {
    resources.heaps = { byAnnotation: new Map(), byCall: new Map() };
    return;
  }
  const order = [...kinds.keys()].sort((a, b) => {
    const x = a.split('|').map(Number);
    const y = b.split('|').map(Number);
    for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
    return 0;
  });
  // the next free binding of each group, after the program's own ranges
  const counts = new Map<number, number>();
  for (const r of resources.byKey.values()) counts.set(r.global, r.count);
  const next = [0, 0, 0, 0];
  for (const r of resources.list)
    next[r.group] = Math.max(next[r.group] ?? 0, r.binding + (counts.get(r.global) ?? r.count ?? 1));
  const synthetic = new Map<string, DxilResource>();
  order.forEach((key, n) => {
    const k = kinds.get(key)!;
    const heapName = k.sampler ? 'SamplerDescriptorHeap' : 'ResourceDescriptorHeap';
    synthetic.set(key, {
      cls: k.cls === 'b' ? 'CBuffer' : k.cls === 's' ? 'Sampler' : k.cls === 'u' ? 'UAV' : 'SRV',
      id: HEAP_ID_BASE + n,
      symbolType: undefined,
      symbol: undefined,
      name: heapName,
      space: k.sampler ? SAMPLER_HEAP_SPACE : RESOURCE_HEAP_SPACE,
      lowerBound: 0,
      rangeSize: 0xffffffff,
      kind: k.kind,
      sampleCount: 0,
      compType: k.compType,
      stride: k.stride,
      globallyCoherent: false,
      hasCounter: k.cls === 'u' && k.flag,
      rasterizerOrdered: false,
      size: k.size,
      samplerKind: k.cls === 's' && k.flag ? 1 : 0,
    });
  });
  // one createHandleFromHeap may be annotated as several kinds (dxc merges equal calls): each
  // annotation selects its own array, the call itself the first one's
  const annotations = new Map<Instruction, DxilResource>();
  const calls = new Map<Instruction, DxilResource>();
  for (const [a, key] of byAnnotation) {
    annotations.set(a, synthetic.get(key)!);
    const call = a.ops[1] as Instruction;
    if (!calls.has(call)) calls.set(call, synthetic.get(key)!);
  }
  resources.heaps = { byAnnotation: annotations, byCall: calls };
  const usage = resources.scan(fns);
  let resourceArrays = 0;
  let samplerArrays = 0;
  for (const key of order) {
    const k = kinds.get(key)!;
    const r = synthetic.get(key)!;
    const count = Math.max(unboundedCount, k.maxIndex + 1);
    if (count > 4096)
      L.refuse('resource kind not handled', `a descriptor heap index of ${k.maxIndex} (iridia binds at most 4096)`);
    const group = GROUP[k.cls];
    const binding = next[group]!;
    next[group] = binding + count;
    const name = k.sampler ? `sheap_s${samplerArrays++}` : `rheap_${k.cls}${resourceArrays++}`;
    resources.declare(r, k.cls, group, binding, count, true, usage, name);
    L.note(
      `${name}: ${r.name} elements of one kind of ${k.cls === 's' ? 'sampler' : 'view'}, a binding array in group ` +
        `${group} from binding ${binding} (${count} bindings), indexed by the heap index; in resources as space ` +
        `0x${r.space.toString(16)}`,
    );
  }
}

/** createHandleFromHeap(index, samplerHeap, nonUniform): an element of the array its (first) annotation selects. */
const createHandleFromHeap: Handler = (L, c, x) => {
  const heaps = x.resources.heaps;
  const r = heaps?.byCall.get(c);
  if (!r)
    return L.refuse(
      'handle not resolvable',
      heaps
        ? 'a descriptor-heap handle without an annotation of its kind'
        : 'a descriptor-heap handle in a program whose heaps were not declared (declareHeaps runs for vertex, pixel and compute programs)',
    );
  const res = x.resources.byKey.get(`${r.cls}:${r.id}`) ?? L.invalid('a descriptor-heap array that is not declared');
  const nu = arg(L, c, 3);
  const nonUniform = nu instanceof Constant && nu.ck === 'int' && nu.bits !== 0n;
  if (nonUniform) L.note(`${r.name}: indexed by a non-uniform value (needs non-uniform binding-array indexing)`);
  return { kind: 'handle', res, index: L.once(L.u(arg(L, c, 1)), 'heap_index'), nonUniform };
};

/** annotateHandle(handle, properties): a heap handle moves to the array of this annotation's kind. */
const annotateHandle: Handler = (L, c, x) => {
  const h = handleOf(L, arg(L, c, 1));
  const r = x.resources.heaps?.byAnnotation.get(c);
  if (!r) return h;
  const res = x.resources.byKey.get(`${r.cls}:${r.id}`) ?? L.invalid('a descriptor-heap array that is not declared');
  return res === h.res ? h : { ...h, res };
};

export const HEAP_OPS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [216, annotateHandle],
  [218, createHandleFromHeap],
]);
