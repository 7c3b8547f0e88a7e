// Lists that a pass fills with one entry per expression of the function it is working on and drops
// when that function is done (the WGSL emitter's resolved types and text caches, and the list a
// FunctionBuilder builds its expression arena in, ir/builder.ts): one list is kept and lent again to
// the next function, instead of a new list made for each.
//
// Why (issue 17, docs/benchmarks.md, the ninth session): a new list costs more than its allocation
// when it is first written. V8 puts a list of over 16K entries (128 KiB of elements) in its
// large-object space, on pages mapped for that list alone, and the first write to each page is a
// page fault. On the benchmark machine a new list of 61,000 entries took 34.6 ns an entry to fill
// and a list filled before 4.0 ns (`node --import tsx tools/fresh-lists.ts`); a function of 8,000
// SM4/5 instructions has about 61,000 expressions, and the emitter made four such lists for it.

/** One list kept for reuse, lent to one taker at a time (a second taker while it is out gets a new one). */
export class ScratchList<T> {
  /** The kept list, every entry undefined; undefined while it is lent, or before the first return. */
  private kept: (T | undefined)[] | undefined = undefined;

  /** `keepAtMost`: a longer list is not kept, so that one huge function does not hold its memory.
   * `fresh`: makes the list that take(n) gives when none is kept, or the kept one is too short. */
  constructor(
    private readonly keepAtMost = 1 << 18,
    private readonly fresh: (n: number) => (T | undefined)[] = (n) => new Array<T | undefined>(n),
  ) {}

  /** A list whose entries 0 to n - 1 are undefined. It may be longer than n: its other entries are
   * undefined too. Give it back with give(list, n) when the function is done. */
  take(n: number): (T | undefined)[] {
    const a = this.kept;
    if (a !== undefined && a.length >= n) {
      this.kept = undefined;
      return a;
    }
    return this.fresh(n);
  }

  /** Takes back a list that take(n) gave: its first n entries are cleared, so that nothing the
   * function made stays reachable from it, and it is kept when it is the longest offered so far
   * (and not over the bound). A list that is not kept is cleared too: one that has lived long
   * enough to be in the old generation (a long function's, or any list over 16K entries, which V8
   * makes there) would otherwise keep what it holds alive through young collections until the next
   * full one, as a root of each (ir.ts, blockHolds's table, docs/benchmarks.md, the twenty-first
   * session). */
  give(a: (T | undefined)[], n: number): void {
    a.fill(undefined, 0, n);
    if (a.length > this.keepAtMost) return;
    if (this.kept !== undefined && this.kept.length >= a.length) return;
    this.kept = a;
  }
}
