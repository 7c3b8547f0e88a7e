// One shard of a differential run (test/exec/diff-run.ts starts it as a child process): reads a job
// as JSON on stdin ({ root, names, seed, small, smallCheck }), runs each named build
// (root/NAME/shader.dxbc) through diffTraced and writes one line per build, '@@diff ' and the JSON of
// { name, result }, in order, after '@@ready' once its modules have loaded. Nothing else it prints
// starts with '@@'.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lift } from '../../src/lift/lift.js';
import { isIridiaError } from '../../src/errors.js';
import type { Program } from '../../src/ir/program.js';
import { closeWebgpu } from '../helpers/webgpu.js';
import { diffProgram, diffTraced } from './diff-harness.js';
import { encodeResult, type ShardJob, type ShardResult } from './diff-run.js';

async function one(job: ShardJob, name: string): Promise<ShardResult> {
  const b = readFileSync(join(job.root, name, 'shader.dxbc'));
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  let p: Program;
  try {
    p = lift(bytes);
  } catch (e) {
    if (isIridiaError(e)) return { kind: 'refused', code: e.code, message: e.message.split('\n')[0]! };
    return { kind: 'fail', message: `lift threw ${String(e)}` };
  }
  if (p.stage !== 'compute' && p.stage !== 'pixel') return { kind: 'other', stage: p.stage };
  const small = job.small.includes(name);
  const o = await diffTraced(p, bytes, job.seed, { small });
  const r: ShardResult = small ? { ...o, small: true } : o;
  if (o.kind === 'fail' && job.smallCheck.includes(name)) {
    // The claim that the difference is an index past a resource range's end: with every word below 3
    // (every index in range) the program must agree.
    const v = await diffProgram(p, bytes, job.seed, { small: true });
    return { ...r, smallVerdict: v.kind === 'agree' ? `agree (${v.words} words)` : v.kind };
  }
  return r;
}

process.stdout.write('@@ready\n');
const input = readFileSync(0, 'utf8');
const job = JSON.parse(input) as ShardJob;
for (const name of job.names) {
  let result: ShardResult;
  try {
    result = await one(job, name);
  } catch (e) {
    result = { kind: 'fail', message: `threw ${e instanceof Error ? e.message : String(e)}` };
  }
  process.stdout.write(`@@diff ${encodeResult(name, result)}\n`);
}
await closeWebgpu();
