// A UAV's hidden counter, the same for both lifters (ir/program.ts HiddenCounter): an atomic<u32>
// storage global in the UAV's group at COUNTER_BINDING_OFFSET + the UAV's binding (a range of UAVs
// with counters: a binding array of counters beside it), and Direct3D's two operations on it:
// - increment (imm_atomic_alloc, BufferUpdateCounter +1, IncrementCounter, Append): the counter
//   goes up by one and the value before is returned (the element an Append writes);
// - decrement (imm_atomic_consume, BufferUpdateCounter -1, DecrementCounter, Consume): the counter
//   goes down by one and the value after is returned (the element a Consume reads).
// Both wrap modulo 2^32 (Direct3D leaves a consume of an empty buffer to the application: the
// counter then reads 0xffffffff, an index past any buffer, so the read gives zero).

import type { ExprId, GlobalId } from '../ir/ir.js';
import type { ModuleBuilder, FunctionBuilder } from '../ir/builder.js';
import { COUNTER_BINDING_OFFSET, type HiddenCounter } from '../ir/program.js';

/** The most bindings a group may use in WebGPU (maxBindingsPerBindGroup's default, 1000). */
const MAX_BINDING = 1000;

export const COUNTER_NOTE = (name: string, group: number, binding: number): string =>
  `${name}: the UAV's hidden counter is ${name}_counter, an atomic<u32> at @group(${group}) @binding(${binding}) whose value the caller sets before the run (Direct3D's initial count) and reads after it`;

/** Adds the counter global of a UAV bound at (group, binding); `count`: the elements of a range
 * (undefined: a single view). Returns undefined when the binding would pass WebGPU's limit. */
export function addCounter(
  m: ModuleBuilder,
  uavName: string,
  group: number,
  binding: number,
  count: number | undefined,
): HiddenCounter | undefined {
  const at = COUNTER_BINDING_OFFSET + binding;
  if (at + (count ?? 1) > MAX_BINDING) return undefined;
  const atomic = m.type({ kind: 'atomic', scalar: 'u32' });
  const type = count === undefined ? atomic : m.type({ kind: 'binding_array', base: atomic, size: count });
  const name = `${uavName}_counter`;
  const global: GlobalId = m.addGlobal({
    name,
    space: 'storage',
    access: 'read_write',
    type,
    binding: { group, binding: at },
  });
  return { name, global, group, binding: at };
}

/** The counter's update: `pointer` is the counter (an atomic<u32>); returns the value Direct3D gives
 * (the value before an increment, after a decrement). */
export function updateCounter(f: FunctionBuilder, pointer: ExprId, increment: boolean): ExprId {
  const r = f.newLet(increment ? 'alloc' : 'consumed');
  f.stmt({ op: 'atomic', pointer, fn: 'add', value: f.u32(increment ? 1 : 0xffffffff), result: r });
  const old = f.expr({ op: 'let', let: r });
  if (increment) return old;
  return f.expr({ op: 'binary', fn: 'sub', left: old, right: f.u32(1) });
}
