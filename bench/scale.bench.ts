// Time and memory against program size (issue 19): cs_5_0 programs of 10^4, 10^5 and 10^6
// instructions (alternating iadd and mov over 8 temporaries, one store) decoded, disassembled, lifted,
// validated, printed, emitted as WGSL and run for one thread. Each stage's time grows linearly (the
// per-instruction figures stay flat as the size grows by 100) and so does the peak memory. Run with
// `node --import tsx bench/run.ts scale` (figures in docs/reliability.md).

import { decodeProgram } from '../src/sm4/decode.js';
import { disassemble } from '../src/disasm/disassemble.js';
import { lift } from '../src/lift/lift.js';
import { validateModule } from '../src/ir/validate.js';
import { printModule } from '../src/ir/print.js';
import { emitWgsl } from '../src/wgsl/index.js';
import { runCompute } from '../src/exec/index.js';
import { parseContainer } from '../src/container/container.js';
import { OP, computeProgram, imm, ins, r, rs, storeRaw, threadIndex } from '../test/exec/asm.js';

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
    stages.push([
      'run',
      () =>
        runCompute(p!, {
          workgroups: [1, 1, 1],
          buffers: { '0:0': new Uint32Array(32), '3:0': new Uint32Array(4) },
          budget: 1 << 26,
        }),
    ]);
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
}
