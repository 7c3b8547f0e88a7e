// A child process that owns one WebGPU device (npm `webgpu`: Dawn with Tint) and answers requests
// from test/helpers/webgpu.ts, one JSON line each way (wire.ts encodes typed arrays). Running Dawn in a
// child keeps the test process alive when SwiftShader aborts in one of its threads.
//
// In:  {"id":1,"op":"compile","sources":[...],"options":{...}}  -> {"id":1,"index":i,"result":{...}} per
//      module, then {"id":1,"done":true}
//      {"id":2,"op":"compute","job":{...}} | {"id":2,"op":"pixel","job":{...}} -> {"id":2,"result":{...}}
// First line out: {"ready":true,"adapter":"..."} or {"ready":false,"error":"..."}.

import { createInterface } from 'node:readline';
import { openGpu, type GpuSession } from '../../src/gpu/session.js';
import { decodeWire, encodeWire } from '../../src/gpu/wire.js';
import type { CompileOptions, ComputeJob, PixelJob } from '../../src/gpu/types.js';

type Request =
  | { id: number; op: 'compile'; sources: string[]; options?: CompileOptions }
  | { id: number; op: 'compute'; job: ComputeJob }
  | { id: number; op: 'pixel'; job: PixelJob };

function send(v: unknown): void {
  process.stdout.write(`${encodeWire(v)}\n`);
}

async function main(): Promise<void> {
  let session: GpuSession;
  try {
    const webgpu = (await import('webgpu')) as { create(options: string[]): GPU; globals: object };
    session = await openGpu(webgpu.create([]));
  } catch (e) {
    send({ ready: false, error: e instanceof Error ? e.message : String(e) });
    process.exit(0);
  }
  send({ ready: true, adapter: session.adapterInfo });
  const rl = createInterface({ input: process.stdin });
  // Requests are answered one at a time, in order.
  let chain = Promise.resolve();
  rl.on('line', (line) => {
    if (!line.trim()) return;
    chain = chain.then(async () => {
      const req = decodeWire<Request>(line);
      try {
        switch (req.op) {
          case 'compile':
            for (let i = 0; i < req.sources.length; i++) {
              // A test hook: a module holding this comment kills the process, as a SwiftShader abort would.
              if (req.sources[i]!.includes('// iridia-webgpu-worker: die')) process.exit(134);
              const [r] = await session.compile([req.sources[i]!], req.options ?? {});
              send({ id: req.id, index: i, result: r });
            }
            send({ id: req.id, done: true });
            break;
          case 'compute':
            send({ id: req.id, result: await session.runCompute(req.job) });
            break;
          case 'pixel':
            send({ id: req.id, result: await session.runPixel(req.job) });
            break;
        }
      } catch (e) {
        send({ id: req.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    });
  });
  rl.on('close', () => {
    void chain.then(() => {
      session.destroy();
      process.exit(0);
    });
  });
}

void main();
