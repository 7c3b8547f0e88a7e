// What a list costs the first time it is written, against a list written before (issue 17,
// docs/benchmarks.md, the ninth session): the measurement behind src/ir/scratch.ts. V8 keeps a list
// of over 16K entries (128 KiB of elements) in its large-object space, on pages mapped for it alone;
// the first write to each page is a page fault, and on a virtual machine a fault can cost more than
// filling the page. Run with `node --import tsx tools/fresh-lists.ts [rounds]`; it prints, for lists
// of several sizes, the time per entry to make and fill a new list, to clear and fill a kept one and
// to grow a new list by push (as an arena does: each growth past 16K entries is a new large object),
// and the minor page faults the process took in each (process.resourceUsage); then the same for a
// text joined from parts, below and above the large-object size.

const rounds = Number(process.argv[2] ?? 200);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node --import tsx tools/fresh-lists.ts [rounds]');
  process.exit(2);
}

const value = { entry: 1 };

function fillNew(n: number): unknown[] {
  const a = new Array<unknown>(n);
  for (let i = 0; i < n; i++) a[i] = value;
  return a;
}

function fillKept(a: unknown[], n: number): unknown[] {
  a.fill(undefined, 0, n);
  for (let i = 0; i < n; i++) a[i] = value;
  return a;
}

function fillPushed(n: number): unknown[] {
  const a: unknown[] = [];
  for (let i = 0; i < n; i++) a.push(value);
  return a;
}

/** ns an entry and minor page faults a round of `f` over `rounds` rounds (after one warm-up round). */
function time(n: number, f: () => unknown[]): { ns: number; faults: number } {
  let keep = f();
  const faults0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) keep = f();
  const ms = performance.now() - t0;
  const faults = process.resourceUsage().minorPageFault - faults0;
  // Reading the last list keeps the loop's work from being dropped as dead code.
  if (keep.length < n) throw new Error(`a list of ${keep.length} entries where ${n} were made`);
  return { ns: (ms * 1e6) / rounds / n, faults: faults / rounds };
}

console.log(
  `fresh-lists: ${rounds} rounds a size; a new list made at its size and filled, a kept list cleared and filled, a new list grown by push`,
);
for (const n of [4_000, 15_000, 17_000, 61_000, 250_000]) {
  const kept = new Array<unknown>(n);
  const fresh = time(n, () => fillNew(n));
  const reused = time(n, () => fillKept(kept, n));
  const pushed = time(n, () => fillPushed(n));
  console.log(
    `  ${String(n).padStart(7)} entries (${((n * 8) / 1024).toFixed(0)} KiB of elements): new ${fresh.ns.toFixed(1)} ns an entry (${fresh.faults.toFixed(0)} page faults a list), kept ${reused.ns.toFixed(1)} ns an entry (${reused.faults.toFixed(0)}), pushed ${pushed.ns.toFixed(1)} ns an entry (${pushed.faults.toFixed(0)})`,
  );
}

// A text is the same: a string of over 128 KiB (the WGSL of a program of about 1,500 instructions)
// is made in the large-object space. Joined from a few parts, as the emitter joins a module's, a new
// text of each size is made `rounds` times; the first line's figure is the copy alone.
const textRounds = Math.max(1, Math.ceil(rounds / 4));
console.log(`fresh-lists: ${textRounds} rounds a size; a text joined from a header, a body and a tail`);
for (const kib of [64, 120, 136, 280, 600]) {
  const body = Buffer.alloc(kib * 1024, 'abcdefg\n').toString('latin1');
  const parts = ['// header', body, 'fn tail() {}'];
  let length = parts.join('\n').length;
  const faults0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  for (let r = 0; r < textRounds; r++) length = Math.min(length, parts.join('\n').length);
  const ms = performance.now() - t0;
  const faults = (process.resourceUsage().minorPageFault - faults0) / textRounds;
  if (length < kib * 1024) throw new Error(`a text of ${length} characters where ${kib} KiB were joined`);
  console.log(
    `  ${String(kib).padStart(4)} KiB: ${((ms * 1e6) / textRounds / (kib * 1024)).toFixed(2)} ns a character (${faults.toFixed(0)} page faults a text)`,
  );
}
