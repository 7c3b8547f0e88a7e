// `iridia lift [--wgsl | --ir] FILE`: lift a DXBC program (lifter-dxbc.md) and print its WGSL, its
// IR, or (neither flag) a summary: stage, target, interface, resources and notes.
// `iridia lift --wgsl FILE... --out-dir DIR [--root R] [--json]`: one .wgsl per lifted input (folders
// give their containers that hold a program); --json prints the batch summary with refusals counted
// by reason.

import { parseArgs, flag, value, UsageError } from '../args.js';
import {
  OUTPUT_FLAGS,
  batchInputs,
  outDirSlice,
  progressBar,
  readInput,
  runBatch,
  writeJson,
  writeText,
} from '../io.js';
import { JOBS_FLAG, PARALLEL_FILES, defaultJobs, jobsOption, outDirOnThreads } from '../pool.js';
import type { LiftTask, LiftAnswer } from '../worker.js';
import { hasContainerMagic, parseContainer } from '../../container/container.js';
import { lift } from '../../lift/lift.js';
import { LiftRefusal } from '../../lift/refuse.js';
import { printModule } from '../../ir/print.js';
import { validateModule } from '../../ir/validate.js';
import { emitWgsl } from '../../wgsl/index.js';
import type { Program } from '../../ir/program.js';
import { IridiaError } from '../../errors.js';

export const help = `usage: iridia lift [--wgsl | --ir] [--json] [-o OUT] FILE
       iridia lift --wgsl FILE... --out-dir DIR [--root R] [--jobs N] [--json]

Lifts a program to iridia's IR (docs/lift.md for DXBC, docs/dxil-lift.md for DXIL) and prints a
summary (stage, target, interface, resources with their WebGPU bindings, notes), its WGSL or its IR.
DXBC (Shader Model 4/5/5.1) and DXIL (Shader Model 6) containers lift alike; what is not lifted yet is
refused by name (E601_LIFT_UNSUPPORTED with its reason).

options:
  FILE            the input; - reads standard input
  --wgsl          print the WGSL module
  --ir            print the IR (src/ir/print.ts's text)
  --json          one JSON object (schema iridia.lift/1, docs/json.md): the summary's facts, and the
                  WGSL or IR text under "wgsl" / "ir" when asked; with --out-dir, the batch summary
                  with refusals counted by reason
  -o, --output OUT  write to OUT instead of standard output
  --out-dir DIR   with --wgsl: one DIR/<input relative to the root>.wgsl per input (folders give
                  their containers); a refused input is reported and the run goes on
  --root R        the folder the inputs' paths are taken relative to (default: .)
  --jobs N        with --out-dir, worker threads that lift and write (-j N; 1: all on this thread;
                  default: one a core, at most 8, from ${PARALLEL_FILES} inputs); the files and the
                  summary are those of one thread

example:
  iridia lift --wgsl examples/vertex-color.dxbc
`;

const maskText = (mask: number): string =>
  'xyzw'
    .split('')
    .filter((_, k) => mask & (1 << k))
    .join('');

/** The summary's facts as JSON (iridia.lift/1). */
function summaryJson(p: Program): Record<string, unknown> {
  const varying = (list: Program['interface']['inputs']) =>
    list.map((v) => ({
      name: v.name,
      semantic: v.semantic,
      semanticIndex: v.semanticIndex,
      register: v.register,
      mask: maskText(v.mask),
      location: v.location ?? null,
      builtin: v.builtin ?? null,
    }));
  return {
    stage: p.stage,
    target: p.provenance.target,
    part: p.provenance.part,
    instructions: p.provenance.instructions,
    inputs: varying(p.interface.inputs),
    outputs: varying(p.interface.outputs),
    patchConstants: varying(p.interface.patchConstants),
    resources: p.interface.resources.map((r) => ({
      name: r.name,
      reflectedName: r.reflectedName,
      registerClass: r.registerClass,
      register: r.register,
      count: r.count,
      space: r.space,
      kind: r.kind.kind,
      group: r.group,
      binding: r.binding,
    })),
    notes: [...p.notes],
  };
}

function summary(p: Program): string {
  const out: string[] = [
    `stage ${p.stage}  target ${p.provenance.target}  (${p.provenance.part}, ${p.provenance.instructions} instructions)`,
  ];
  const varying = (label: string, list: Program['interface']['inputs']) => {
    for (const v of list) {
      const at =
        v.builtin !== undefined ? `@builtin(${v.builtin})` : v.location !== undefined ? `@location(${v.location})` : '';
      out.push(
        `${label} ${v.name}: ${v.semantic}${v.semanticIndex} register ${v.register} mask ${maskText(v.mask)} ${at}`.trimEnd(),
      );
    }
  };
  varying('input ', p.interface.inputs);
  varying('output', p.interface.outputs);
  varying('patch ', p.interface.patchConstants);
  for (const r of p.interface.resources) {
    const range =
      r.count === 1
        ? `${r.registerClass}${r.register}`
        : `${r.registerClass}${r.register}..${r.count === null ? '' : r.register + r.count - 1}`;
    const bind = r.group >= 0 ? ` @group(${r.group}) @binding(${r.binding})` : '';
    out.push(
      `resource ${r.name} = ${range} space ${r.space}${r.reflectedName ? ` "${r.reflectedName}"` : ''} ${r.kind.kind}${bind}`,
    );
    if (r.kind.kind === 'constantBuffer')
      for (const c of r.kind.layout.constants) out.push(`  ${c.name} +${c.offset} (${c.size} bytes)`);
    if (r.counter)
      out.push(
        `  hidden counter ${r.counter.name}: atomic<u32> @group(${r.counter.group}) @binding(${r.counter.binding})`,
      );
    if (r.kind.kind === 'uav' && r.kind.texels)
      out.push(
        r.kind.samples !== undefined
          ? `  words: width, height, layers, samples (${r.kind.samples}); sample s of (x, y, layer z) at 4 + x + width * (y + height * (s + samples * z))`
          : r.kind.elementWords === 2
            ? '  words: width, height, depth-or-layers, 0; texel (x, y, z) at 4 + 2 (x + width * (y + height * z)), low word first'
            : '  words: width, height, depth-or-layers, 0; texel (x, y, z) at 4 + x + width * (y + height * z)',
      );
    else if (r.kind.kind === 'uav' && r.kind.elementWords === 2)
      out.push('  words: element i at 2 i (low) and 2 i + 1 (high)');
  }
  for (const n of p.notes) out.push(`note: ${n}`);
  return out.join('\n') + '\n';
}

function checked(bytes: Uint8Array): Program {
  if (hasContainerMagic(bytes)) {
    const kinds = new Set(parseContainer(bytes).parts.map((x) => x.kind));
    if (kinds.has('RTS0') && !['SHEX', 'SHDR', 'DXIL', 'ILDB'].some((k) => kinds.has(k)))
      throw new IridiaError(
        'E108_PART_MISSING',
        'the container holds a root signature alone (RTS0): there is no program to lift (iridia disasm prints it)',
      );
  }
  const p = lift(bytes);
  const problems = validateModule(p.module);
  if (problems.length) throw new Error(`the lifted IR does not validate (an iridia bug): ${problems[0]}`);
  return p;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    '--wgsl': {},
    '--ir': {},
    '--out-dir': { value: true },
    '--root': { value: true },
    ...JOBS_FLAG,
    ...OUTPUT_FLAGS,
  });
  const outDir = value(args, '--out-dir');
  const out = value(args, '-o');
  const json = flag(args, '--json');
  if (flag(args, '--wgsl') && flag(args, '--ir')) throw new UsageError('lift takes --wgsl or --ir, not both');
  if (args.positional.length === 0) throw new UsageError('lift takes a FILE');
  if (outDir === undefined) {
    if (args.positional.length !== 1) throw new UsageError('lift takes one FILE (or --wgsl FILE... --out-dir DIR)');
    const path = args.positional[0]!;
    const p = checked(readInput(path));
    if (json) {
      const text = flag(args, '--ir')
        ? { ir: printModule(p.module) }
        : flag(args, '--wgsl')
          ? { wgsl: emitWgsl(p) }
          : {};
      writeJson('lift', { path, ...summaryJson(p), ...text }, out);
    } else writeText(out, flag(args, '--ir') ? printModule(p.module) : flag(args, '--wgsl') ? emitWgsl(p) : summary(p));
    return 0;
  }
  if (!flag(args, '--wgsl')) throw new UsageError('lift writes a folder with --wgsl only');
  if (out !== undefined) throw new UsageError('-o names one output; with --out-dir the outputs are DIR/...');
  const inputs = batchInputs(args.positional);
  const root = value(args, '--root') ?? '.';
  const jobs = jobsOption(args) ?? (inputs.length < PARALLEL_FILES ? 1 : defaultJobs());
  const refusals = new Map<string, number>();
  const count = (reason: string): void => void refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
  const bar = progressBar('lift');
  const result =
    jobs === 1 || inputs.includes('-')
      ? runBatch(inputs, { outDir, root, ext: '.wgsl', progress: bar }, (b) => batchWgsl(b, count))
      : await outDirOnThreads(
          inputs,
          { outDir, root, ext: '.wgsl', jobs, progress: bar },
          LIFT_SLICE,
          (paths, outputs): LiftTask => ({ op: 'lift', paths, outputs }),
          // each slice names what refused each of its failures: counted in the order one thread meets them
          (a) => a.reasons.forEach(count),
        );
  bar.end();
  const byReason = Object.fromEntries([...refusals].sort((a, b) => b[1] - a[1]));
  if (json) writeJson('lift', { outDir, ...result, refusals: byReason });
  else {
    for (const f of result.failed) process.stderr.write(`iridia lift: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${result.written} of ${result.inputs} lifted into ${outDir}\n`);
    for (const [r, n] of Object.entries(byReason)) process.stdout.write(`  ${n} ${r}\n`);
  }
  return result.failed.length ? 1 : 0;
}

/** An input of the batch as WGSL; what refuses it is counted by reason (`count`) and thrown. */
function batchWgsl(b: Uint8Array, count: (reason: string) => void): string {
  try {
    return emitWgsl(checked(b));
  } catch (e) {
    count(e instanceof LiftRefusal ? e.category : e instanceof IridiaError ? e.code : 'internal error');
    throw e;
  }
}

/** Files one worker thread lifts in one task. */
const LIFT_SLICE = 32;

/** A worker thread's task (src/cli/worker.ts): lifts and writes one slice of a batch. */
export function liftSlice(t: LiftTask): LiftAnswer {
  const reasons: string[] = [];
  const failed = outDirSlice(t.paths, t.outputs, (b) => batchWgsl(b, (r) => reasons.push(r)));
  return { failed, reasons };
}
