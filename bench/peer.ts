// The in-process peer (issue 17): vkd3d-shader's DXBC to SPIR-V called through its library in one
// process (bench/peer/vkd3d-peer.c), so the bench's ratio is against the compiler's own rate in the
// same run, not against a process start or a figure from another machine. It is built here with
// the system's C compiler where Debian's libvkd3d-dev is installed
// (`apt-get install gcc libvkd3d-dev`); without them each bench says so and prints its fixed figure.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
// The compiled copy `npm run bench` runs sits in dist-bench/bench, one folder deeper than the source.
const SOURCE = [join(HERE, 'peer/vkd3d-peer.c'), resolve(HERE, '../../bench/peer/vkd3d-peer.c')].find((p) =>
  existsSync(p),
);
const HEADERS = '/usr/include/vkd3d';

export interface InProcessPeer {
  /** vkd3d-shader's own version line. */
  readonly version: string;
  /** Files it compiled (timed) and those it refused or aborted on (left out). */
  readonly files: number;
  readonly failed: number;
  /** Whether it compiled each input, in input order. */
  readonly ok: readonly boolean[];
  /** CPU and wall milliseconds of each timed pass over the files it compiled. */
  readonly cpuMs: readonly number[];
  readonly wallMs: readonly number[];
}

/** The harness's executable, built once per source text; or why there is none. */
function harness(): { path: string } | { why: string } {
  if (SOURCE === undefined) return { why: 'bench/peer/vkd3d-peer.c is missing' };
  if (!existsSync(join(HEADERS, 'vkd3d_shader.h')))
    return { why: `vkd3d-shader's headers are not installed (${HEADERS}: apt-get install libvkd3d-dev)` };
  const text = readFileSync(SOURCE);
  const path = join(tmpdir(), `iridia-vkd3d-peer-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`);
  if (existsSync(path)) return { path };
  mkdirSync(dirname(path), { recursive: true });
  const cc = spawnSync('cc', ['-O2', '-I', HEADERS, '-o', path, SOURCE, '-lvkd3d-shader'], { encoding: 'utf8' });
  if (cc.error) return { why: `no C compiler (cc: ${cc.error.message}; apt-get install gcc)` };
  if (cc.status !== 0) return { why: `the harness did not build: ${cc.stderr.trim().split('\n')[0] ?? ''}` };
  return { path };
}

/**
 * vkd3d-shader's DXBC to SPIR-V over `files` (container paths), `passes` timed passes in one
 * process after a screening of every file; or the reason it cannot run here.
 */
export function inProcessPeer(files: readonly string[], passes = 3): InProcessPeer | { why: string } {
  const h = harness();
  if ('why' in h) return h;
  const r = spawnSync(h.path, [String(passes)], {
    input: files.join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    env: { ...process.env, VKD3D_SHADER_DEBUG: 'none' },
  });
  if (r.status !== 0) return { why: `the harness failed (exit ${r.status}): ${(r.stderr || '').trim()}` };
  const j = JSON.parse(r.stdout) as {
    version: string;
    files: number;
    failed: number;
    ok: number[];
    cpu_ms: number[];
    wall_ms: number[];
  };
  return {
    version: j.version,
    files: j.files,
    failed: j.failed,
    ok: j.ok.map((x) => x === 1),
    cpuMs: j.cpu_ms,
    wallMs: j.wall_ms,
  };
}
