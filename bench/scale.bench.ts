// Time and memory against program size (issue 19): cs_5_0 programs of 10^4, 10^5 and 10^6
// instructions (alternating iadd and mov over 8 temporaries, one store) decoded, disassembled, lifted,
// validated, printed, emitted as WGSL and run for one thread. Each stage's time grows linearly (the
// per-instruction figures stay flat as the size grows by 100) and so does the peak memory. Then
// programs whose size is their control flow (a switch of many cases, long runs of if, of if/else and
// of loops) at two sizes eight times apart, through the same stages and the decompiler: a stage whose
// cost an instruction grows with the program (growth well above 1) is superlinear in that shape. A
// switch of 16,000 cases took the lifter 36 s (a walk of every case before at each case), and a run
// of 8,000 ifs the decompiler 41 s (a copy of every definition that reached at each branch). Run with
// `npm run bench -- scale` (figures in docs/reliability.md).

import { decodeProgram } from '../src/sm4/decode.js';
import { disassemble } from '../src/disasm/disassemble.js';
import { lift } from '../src/lift/lift.js';
import { validateModule } from '../src/ir/validate.js';
import { printModule } from '../src/ir/print.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { runCompute } from '../src/exec/index.js';
import { parseContainer } from '../src/container/container.js';
import { decompile, decompiledHlsl } from '../src/decompile/index.js';
import { OP, cb, computeProgram, imm, ins, insNZ, r, rs, storeRaw, threadIndex } from '../test/exec/asm.js';

function program(n: number): Uint8Array {
  const body: number[][] = [];
  for (let k = 0; k < n; k++)
    body.push(
      k % 2 ? ins(OP.iadd, [r(k % 8, 'x'), rs((k + 3) % 8, 'x'), imm(k)]) : ins(OP.mov, [r(k % 8), rs((k + 1) % 8)]),
    );
  body.push(storeRaw(imm(0), rs(0, 'x'), 'x'));
  void threadIndex;
  return computeProgram(body);
}

/** Control-flow shapes of `n` units each (a case, an if, an if/else, an instruction of a chain, a loop),
 * conditions read from cb0 so that no pass folds them away, then one store of r1.x. */
const SHAPES: Readonly<Record<string, (n: number) => number[][]>> = {
  'switch cases': (n) => {
    const b = [ins(OP.switch, [cb(0, 0, 'x')])];
    for (let k = 0; k < n; k++) b.push(ins(OP.case, [imm(k)]), ins(OP.mov, [r(1, 'x'), imm(k)]), ins(OP.break));
    b.push(ins(OP.default), ins(OP.break), ins(OP.endswitch));
    return b;
  },
  ifs: (n) =>
    Array.from({ length: n }, (_, k) => [
      insNZ(OP.if, [cb(0, k % 8, 'x')]),
      ins(OP.iadd, [r(1, 'x'), rs(1, 'x'), imm(k)]),
      ins(OP.endif),
    ]).flat(),
  'if/else': (n) =>
    Array.from({ length: n }, (_, k) => [
      insNZ(OP.if, [cb(0, k % 8, 'x')]),
      ins(OP.iadd, [r(1, 'x'), rs(1, 'x'), imm(k)]),
      ins(OP.else),
      ins(OP.iadd, [r(2, 'x'), rs(2, 'x'), imm(k)]),
      ins(OP.endif),
    ]).flat(),
  // each value read by the next: the decompiler inlines it, with the origins of all it folds
  'chains of values': (n) =>
    Array.from({ length: n }, (_, k) => ins(OP.iadd, [r(k % 8, 'x'), rs((k + 3) % 8, 'x'), imm(k)])),
  loops: (n) =>
    Array.from({ length: n }, () => [
      ins(OP.loop),
      insNZ(OP.breakc, [rs(0, 'x')]),
      ins(OP.iadd, [r(0, 'x'), rs(0, 'x'), imm(1)]),
      ins(OP.endloop),
    ]).flat(),
};

/** Each stage of one program, timed once (ms), the lift's result feeding the stages after it. */
function stageTimes(bytes: Uint8Array, withDecompiler: boolean): [string, number][] {
  let p: ReturnType<typeof lift> | undefined;
  const stages: [string, () => unknown][] = [
    ['disassemble', () => disassemble(bytes)],
    ['lift', () => (p = lift(bytes))],
    ['wgsl', () => emitWgsl(p!)],
    ['run', () => runOnce(p!)],
  ];
  if (withDecompiler) stages.push(['decompile', () => decompiledHlsl(decompile(bytes))]);
  return stages.map(([name, f]) => {
    const t0 = performance.now();
    f();
    return [name, performance.now() - t0];
  });
}

function runOnce(p: ReturnType<typeof lift>): unknown {
  return runCompute(p, {
    workgroups: [1, 1, 1],
    buffers: { '0:0': new Uint32Array(32), '3:0': new Uint32Array(4) },
    budget: 1 << 26,
  });
}

export async function bench(report: (line: string) => void): Promise<void> {
  for (const n of [10_000, 100_000, 1_000_000]) {
    const bytes = program(n);
    const stages: [string, () => unknown][] = [];
    let p: ReturnType<typeof lift> | undefined;
    const shex = parseContainer(bytes).parts.find((x) => x.kind === 'SHEX')!;
    stages.push(['decode', () => decodeProgram(shex.data)]);
    stages.push(['disassemble', () => disassemble(bytes)]);
    stages.push(['lift', () => (p = lift(bytes))]);
    stages.push(['validate', () => validateModule(p!.module)]);
    stages.push(['print', () => printModule(p!.module)]);
    stages.push(['wgsl', () => emitWgsl(p!)]);
    stages.push(['run', () => runOnce(p!)]);
    const parts: string[] = [];
    for (const [name, f] of stages) {
      const t0 = performance.now();
      f();
      const ms = performance.now() - t0;
      parts.push(`${name} ${((ms * 1000) / n).toFixed(2)}`);
    }
    // the process's peak resident memory so far (each size runs after the smaller ones)
    const rss = process.resourceUsage().maxRSS / 1024;
    report(
      `${n} instructions (${bytes.byteLength} bytes), µs per instruction: ${parts.join(', ')}; peak RSS ${rss.toFixed(0)} MiB`,
    );
    await new Promise((res) => setImmediate(res));
  }

  // Control flow: each shape at `small` and at eight times as many units, the small one once untimed
  // first (the code warmed up), each stage the best of two; growth is the larger program's cost an
  // instruction over the smaller's. A linear stage reads about 1 (up to 3 or so where the larger
  // program's young collections copy more of it, as in the lift of any large program), a quadratic
  // one about 8: the switch's lift read about 30 before the fix (2026-12-08).
  const small = 500;
  for (const [name, shape] of Object.entries(SHAPES)) {
    const sizes = [small, small * 8].map((n) => {
      const body = shape(n);
      body.push(storeRaw(imm(0), rs(1, 'x'), 'x'));
      return { n, instructions: body.length + 1, bytes: computeProgram(body) };
    });
    stageTimes(sizes[0]!.bytes, true);
    const perInstruction = sizes.map(({ instructions, bytes }) => {
      const runs = [stageTimes(bytes, true), stageTimes(bytes, true)];
      return runs[0]!.map(([stage], k) => ({
        stage,
        us: (Math.min(...runs.map((t) => t[k]![1])) * 1000) / instructions,
      }));
    });
    const [a, b] = perInstruction as [{ stage: string; us: number }[], { stage: string; us: number }[]];
    report(
      `${name}, ${sizes.map((x) => `${x.n} (${x.instructions} instructions)`).join(' and ')}, µs per instruction ` +
        `and growth: ${a.map((x, k) => `${x.stage} ${x.us.toFixed(2)} / ${b[k]!.us.toFixed(2)} (${(b[k]!.us / x.us).toFixed(2)})`).join(', ')}`,
    );
    await new Promise((res) => setImmediate(res));
  }
}
