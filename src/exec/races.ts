// Data races of a run: every access an invocation makes to memory other invocations can see (storage
// buffers, storage images, groupshared memory) reported word by word, and a detector that finds two
// invocations whose accesses to one word Direct3D does not order. The executor runs lanes in a fixed
// order, so a program with such a race gives one of the results Direct3D allows; a GPU may give
// another (Direct3D orders UAV and groupshared accesses of different invocations only through a
// barrier of their thread group, sync_*_t; pixels are never ordered with each other).
//
// Ordering used here: two accesses are ordered when they come from the same invocation, or from one
// thread group with a barrier between them (any barrier: the detector does not tell a groupshared-only
// barrier from a device one, so it can miss a UAV race a groupshared barrier does not order). Thread
// groups (batches) are never ordered with each other. Benign cases are not races: two writes of the
// same value, a write that leaves the word as it was, and commutative atomics (add, and, or, xor, min,
// max) whose results the program does not use.

/** What an access does: read, write, an atomic whose order does not change the memory or any result
 * (commutative, result unused), or any other atomic (exchange, compare-exchange, a result used). */
export type AccessKind = 'read' | 'write' | 'atomic' | 'ordered_atomic';

/** The executor's hook: told each shared-memory access, each barrier and each new batch. */
export interface AccessTrace {
  /** A new batch: a thread group (compute) or the whole target (pixel). */
  batch(id: number): void;
  /** Every lane of the batch passed a barrier. */
  barrier(): void;
  /** Lane `lane` of the batch accessed word `word` of `mem`; for a write, `before` and `after` are the
   * word's value before and after it. */
  access(mem: object, word: number, lane: number, kind: AccessKind, before?: number, after?: number): void;
}

interface Seen {
  readonly inv: number;
  readonly batch: number;
  readonly epoch: number;
  readonly kind: AccessKind;
  /** A write: the value written, and whether it changed the word. */
  readonly value: number;
  readonly changed: boolean;
}

/** Invocations per batch in the invocation key (Direct3D's thread groups hold at most 1024). */
const LANES = 1 << 16;

/** Finds the first unordered conflicting pair of accesses of a run (then stops watching). */
export class RaceDetector implements AccessTrace {
  /** The first race found: the word, and the two accesses. */
  first: string | undefined;
  /** The memory (the array the run reads and writes) and the index of the first race's word. */
  firstMemory: object | undefined;
  firstWord: number | undefined;
  private batchId = 0;
  private epoch = 0;
  private readonly memories = new WeakMap<object, Map<number, Seen[]>>();
  private readonly names = new WeakMap<object, number>();
  private nextName = 0;

  get raced(): boolean {
    return this.first !== undefined;
  }

  batch(id: number): void {
    this.batchId = id;
    this.epoch = 0;
  }

  barrier(): void {
    this.epoch++;
  }

  access(mem: object, word: number, lane: number, kind: AccessKind, before = 0, after = 0): void {
    if (this.first !== undefined) return;
    let words = this.memories.get(mem);
    if (!words) {
      this.memories.set(mem, (words = new Map()));
      this.names.set(mem, this.nextName++);
    }
    let seen = words.get(word);
    if (!seen) words.set(word, (seen = []));
    const inv = this.batchId * LANES + lane;
    const me: Seen = { inv, batch: this.batchId, epoch: this.epoch, kind, value: after, changed: before !== after };
    for (const p of seen) {
      if (p.inv === inv) continue;
      if (p.batch === me.batch && p.epoch < me.epoch) continue;
      if (conflict(p, me)) {
        const who = (s: Seen) => `batch ${s.batch} lane ${s.inv % LANES} ${s.kind}`;
        this.first = `memory ${this.names.get(mem)} word ${word}: ${who(p)}, then ${who(me)}`;
        this.firstMemory = mem;
        this.firstWord = word;
        return;
      }
    }
    // One record per invocation, kind and epoch is enough to find a later conflict (a write's value is
    // kept current so that equal writes stay benign).
    const same = seen.findIndex((p) => p.inv === inv && p.kind === kind && p.epoch === me.epoch);
    if (same < 0) seen.push(me);
    else if (kind === 'write') seen[same] = me;
  }
}

function conflict(p: Seen, q: Seen): boolean {
  const pw = p.kind === 'write';
  const qw = q.kind === 'write';
  if (pw && qw) return p.value !== q.value;
  if (pw) return q.kind === 'read' ? p.changed : true;
  if (qw) return p.kind === 'read' ? q.changed : true;
  if (p.kind === 'read' && q.kind === 'read') return false;
  if (p.kind === 'atomic' && q.kind === 'atomic') return false;
  return true;
}

// The hook a run uses when its bindings name none: for a caller that cannot reach the run's
// bindings (a comparison harness that calls runCompute/runPixel itself). Set, run, then clear.
let defaultTrace: AccessTrace | undefined;

/** Sets (or clears, with undefined) the access trace of every later run that names none. */
export function traceAccesses(trace: AccessTrace | undefined): void {
  defaultTrace = trace;
}

export function currentTrace(): AccessTrace | undefined {
  return defaultTrace;
}
