// Independent check: Debian's llvm-dis-14 reads the same bitcode (the DXIL, STAT and ILDB parts'
// bytes at their program header's bitcode offset); its module must agree with iridia's (functions, instruction
// sequences, operands, types, metadata), allowing only the LLVM 3.7 / 14 syntax differences listed
// in docs/dxil.md and applied by llvm14-compare.ts. llvm-dis-14 runs once per container in a pool
// of two processes. By default a sample (every 8th container) runs; IRIDIA_DXIL_LLVM_DIS=all runs
// all 1,120 (about a minute on two cores).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { readProgramHeader } from '../../src/dxil/program-header.js';
import { readModule } from '../../src/dxil/module.js';
import { ModulePrinter } from '../../src/dxil/printer.js';
import { FIXTURES, readBytes, sharedPath } from '../helpers/shared.js';
import { needs } from '../helpers/strict.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { compareWithLlvm14 } from './llvm14-compare.js';

const LLVM_DIS = 'llvm-dis-14';
const present = spawnSync(LLVM_DIS, ['--version'], { stdio: 'ignore' }).status === 0;
const full = process.env['IRIDIA_DXIL_LLVM_DIS'] === 'all';

function llvmDis(bitcode: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(LLVM_DIS, ['-', '-o', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (b: Buffer) => out.push(b));
    p.stderr.on('data', (b: Buffer) => err.push(b));
    p.on('error', reject);
    p.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out).toString('latin1'))
        : reject(new Error(`llvm-dis-14 exited ${code}: ${Buffer.concat(err).toString()}`)),
    );
    p.stdin.end(bitcode);
  });
}

async function compareFiles(
  files: readonly [string, string][],
): Promise<{ failures: Map<string, string>; compared: number }> {
  const failures = new Map<string, string>();
  let compared = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const [name, path] = files[next++]!;
      const c = parseContainer(readBytes(path));
      // The program's module, the reflection module (STAT) and the debug module (ILDB), whose
      // debug information LLVM 14 upgrades: its code is compared, not its metadata.
      for (const kind of ['DXIL', 'STAT', 'ILDB'] as const) {
        const part = c.parts.find((p) => p.kind === kind);
        if (!part) continue; // a root signature alone, or no reflection part
        compared++;
        const h = readProgramHeader(part.data, kind, part.offset + 8);
        const ours = new ModulePrinter(
          readModule(h.bitcode, { part: kind, offset: part.offset + 8 + h.bitcodeStart }),
        ).print();
        const label = kind === 'DXIL' ? name : `${name} (${kind})`;
        try {
          const d = compareWithLlvm14(ours, await llvmDis(h.bitcode), { debug: kind === 'ILDB' });
          if (d) failures.set(label, d);
        } catch (e) {
          failures.set(label, (e as Error).message);
        }
      }
    }
  };
  await Promise.all([worker(), worker()]);
  return { failures, compared };
}

test(
  'dxil: fixture modules agree with llvm-dis-14',
  { skip: needs(present ? false : `${LLVM_DIS} is absent`) },
  async () => {
    const dir = join(FIXTURES, 'dxil');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.dxil'))
      .map((f): [string, string] => [f, join(dir, f)]);
    const { failures, compared } = await compareFiles(files);
    assert.ok(compared >= 5);
    assert.deepEqual([...failures], []);
  },
);

const corpusSkip = needs(
  !present
    ? `${LLVM_DIS} is absent`
    : sharedPath('corpus/dxil') === undefined
      ? '../shared/corpus/dxil is absent'
      : false,
);

test('dxil: corpus modules agree with llvm-dis-14', { skip: corpusSkip }, async () => {
  const root = sharedPath('corpus/dxil')!;
  const all: [string, string][] = [];
  for (const d of readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(root, d.name)).sort())
      if (f.endsWith('.dxil')) all.push([`${d.name}/${f}`, join(root, d.name, f)]);
  }
  const files = full ? all : all.filter((_, i) => i % 8 === 0);
  console.log(
    `dxil llvm-dis-14: ${full ? 'all' : 'a sample of'} ${files.length} of ${all.length} containers (${full ? '' : 'set IRIDIA_DXIL_LLVM_DIS=all for every one; '}pool of 2)`,
  );
  const { failures, compared } = await compareFiles(files);
  reportAgainstKnown('dxil-llvm-dis', { total: compared, failures });
});
