// `iridia lift [--wgsl | --ir] FILE`: lift a DXBC program (lifter-dxbc.md) and print its WGSL, its
// IR, or (neither flag) a summary: stage, target, interface, resources and notes.
// `iridia lift --wgsl FILE... --out-dir DIR [--root R] [--json]`: one .wgsl per lifted input (folders
// give their containers that hold a program); --json prints the batch summary with refusals counted
// by reason.

import { statSync } from 'node:fs';
import { parseArgs, flag, value, UsageError } from '../args.js';
import { fileStartsWith, progressBar, readInput, runBatch, walkPaths } from '../io.js';
import { lift } from '../../lift/lift.js';
import { LiftRefusal } from '../../lift/refuse.js';
import { printModule } from '../../ir/print.js';
import { validateModule } from '../../ir/validate.js';
import { emitWgsl } from '../../wgsl/index.js';
import type { Program } from '../../ir/program.js';
import { IridiaError } from '../../errors.js';

function summary(p: Program): string {
  const out: string[] = [
    `stage ${p.stage}  target ${p.provenance.target}  (${p.provenance.part}, ${p.provenance.instructions} instructions)`,
  ];
  const varying = (label: string, list: Program['interface']['inputs']) => {
    for (const v of list) {
      const at =
        v.builtin !== undefined ? `@builtin(${v.builtin})` : v.location !== undefined ? `@location(${v.location})` : '';
      out.push(
        `${label} ${v.name}: ${v.semantic}${v.semanticIndex} register ${v.register} mask ${'xyzw'
          .split('')
          .filter((_, k) => v.mask & (1 << k))
          .join('')} ${at}`.trimEnd(),
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
          : '  words: width, height, depth-or-layers, 0; texel (x, y, z) at 4 + x + width * (y + height * z)',
      );
  }
  for (const n of p.notes) out.push(`note: ${n}`);
  return out.join('\n') + '\n';
}

function checked(bytes: Uint8Array): Program {
  const p = lift(bytes);
  const problems = validateModule(p.module);
  if (problems.length) throw new Error(`the lifted IR does not validate (an iridia bug): ${problems[0]}`);
  return p;
}

export function run(argv: string[]): number {
  const args = parseArgs(argv, {
    '--wgsl': {},
    '--ir': {},
    '--out-dir': { value: true },
    '--root': { value: true },
    '--json': {},
  });
  const outDir = value(args, '--out-dir');
  if (flag(args, '--wgsl') && flag(args, '--ir')) throw new UsageError('lift takes --wgsl or --ir, not both');
  if (args.positional.length === 0) throw new UsageError('lift takes a FILE');
  if (outDir === undefined) {
    if (args.positional.length !== 1) throw new UsageError('lift takes one FILE (or --wgsl FILE... --out-dir DIR)');
    const p = checked(readInput(args.positional[0]!));
    process.stdout.write(flag(args, '--ir') ? printModule(p.module) : flag(args, '--wgsl') ? emitWgsl(p) : summary(p));
    return 0;
  }
  if (!flag(args, '--wgsl')) throw new UsageError('lift writes a folder with --wgsl only');
  const inputs = args.positional.flatMap((p) =>
    statSync(p).isDirectory() ? [...walkPaths([p])].filter((f) => fileStartsWith(readInput(f), 'DXBC')) : [p],
  );
  const refusals = new Map<string, number>();
  const bar = progressBar('lift');
  const result = runBatch(inputs, { outDir, root: value(args, '--root') ?? '.', ext: '.wgsl', progress: bar }, (b) => {
    try {
      return emitWgsl(checked(b));
    } catch (e) {
      const reason = e instanceof LiftRefusal ? e.category : e instanceof IridiaError ? e.code : 'internal error';
      refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
      throw e;
    }
  });
  bar.end();
  const byReason = Object.fromEntries([...refusals].sort((a, b) => b[1] - a[1]));
  if (flag(args, '--json')) process.stdout.write(`${JSON.stringify({ ...result, refusals: byReason }, null, 2)}\n`);
  else {
    for (const f of result.failed) process.stderr.write(`iridia lift: ${f.path}: ${f.error}\n`);
    process.stdout.write(`${result.written} of ${result.inputs} lifted into ${outDir}\n`);
    for (const [r, n] of Object.entries(byReason)) process.stdout.write(`  ${n} ${r}\n`);
  }
  return result.failed.length ? 1 : 0;
}
