// The in-process peer (issue 17): vkd3d-shader's DXBC (or DXIL) to SPIR-V called through its library
// in one process (bench/peer/vkd3d-peer.c), so the bench's ratio is against the compiler's own rate in
// the same run, not against a process start or a figure from another machine. It is built here with
// the system's C compiler against Debian's libvkd3d-dev (`apt-get install gcc libvkd3d-dev`: 1.2,
// DXBC only), or against the vkd3d build that IRIDIA_VKD3D_PREFIX names (its include/vkd3d and lib;
// tools/vkd3d-peer.sh builds one that reads DXIL from a vkd3d checkout). Without either, each bench
// says so and prints its fixed figure.

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

/** How to get a vkd3d-shader that reads DXIL and has d3d-asm (Debian's 1.2 has neither). */
const NEWER = 'a newer vkd3d-shader: tools/vkd3d-peer.sh, then IRIDIA_VKD3D_PREFIX';

/** The source types the harness can be asked for. */
export type PeerSource = 'dxbc-tpf' | 'dxbc-dxil';
/** The target types: SPIR-V (the translation) or vkd3d's disassembly. */
export type PeerTarget = 'spirv-binary' | 'd3d-asm';

/** Where vkd3d-shader's header and library are: IRIDIA_VKD3D_PREFIX's build, or the system's. */
function library(): { headers: string; lib: string | undefined; where: string } {
  const prefix = process.env['IRIDIA_VKD3D_PREFIX'];
  if (prefix)
    return { headers: join(prefix, 'include/vkd3d'), lib: join(prefix, 'lib'), where: `IRIDIA_VKD3D_PREFIX=${prefix}` };
  return { headers: '/usr/include/vkd3d', lib: undefined, where: 'apt-get install libvkd3d-dev' };
}
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

/** The harness's executable, built once per source text and library; or why there is none. */
function harness(source: PeerSource, target: PeerTarget): { path: string } | { why: string } {
  if (SOURCE === undefined) return { why: 'bench/peer/vkd3d-peer.c is missing' };
  const { headers, lib, where } = library();
  const header = join(headers, 'vkd3d_shader.h');
  if (!existsSync(header)) {
    const needsNewer = source === 'dxbc-dxil' || target === 'd3d-asm';
    const how = needsNewer && lib === undefined ? NEWER : where;
    return { why: `vkd3d-shader's headers are not installed (${headers}: ${how})` };
  }
  const text = readFileSync(header, 'utf8');
  const dxil = text.includes('VKD3D_SHADER_SOURCE_DXBC_DXIL');
  const asm = text.includes('VKD3D_SHADER_TARGET_D3D_ASM');
  if (source === 'dxbc-dxil' && !dxil)
    return { why: `the vkd3d-shader of ${headers} has no DXIL source type (${NEWER})` };
  if (target === 'd3d-asm' && !asm) return { why: `the vkd3d-shader of ${headers} has no d3d-asm target (${NEWER})` };
  const key = createHash('sha256')
    .update(readFileSync(SOURCE))
    .update(`\0${headers}\0${lib ?? ''}`)
    .digest('hex')
    .slice(0, 12);
  const path = join(tmpdir(), `iridia-vkd3d-peer-${key}`);
  if (existsSync(path)) return { path };
  mkdirSync(dirname(path), { recursive: true });
  const args = ['-O2', '-I', headers, ...(dxil ? ['-DPEER_DXIL'] : []), ...(asm ? ['-DPEER_D3D_ASM'] : [])];
  args.push('-o', path, SOURCE);
  if (lib !== undefined) args.push('-L', lib, `-Wl,-rpath,${lib}`);
  const cc = spawnSync('cc', [...args, '-lvkd3d-shader'], { encoding: 'utf8' });
  if (cc.error) return { why: `no C compiler (cc: ${cc.error.message}; apt-get install gcc)` };
  if (cc.status !== 0) return { why: `the harness did not build: ${cc.stderr.trim().split('\n')[0] ?? ''}` };
  return { path };
}

/**
 * vkd3d-shader's DXBC (or, with `source` dxbc-dxil, DXIL) to SPIR-V (or, with `target` d3d-asm, to its
 * disassembly) over `files` (container paths), `passes` timed passes in one process after a
 * screening of every file; or the reason it cannot run here (a library that compiles none of the
 * files counts as one that cannot).
 */
export function inProcessPeer(
  files: readonly string[],
  passes = 3,
  source: PeerSource = 'dxbc-tpf',
  target: PeerTarget = 'spirv-binary',
): InProcessPeer | { why: string } {
  const h = harness(source, target);
  if ('why' in h) return h;
  const r = spawnSync(h.path, [String(passes), source, target], {
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
  if (j.files === 0)
    return {
      why:
        `${j.version} compiled none of the ${files.length} files as ${source} to ${target}` +
        (source === 'dxbc-dxil'
          ? ' (vkd3d-shader 1.14 compiles DXIL only if built with -DVKD3D_SHADER_UNSUPPORTED_DXIL)'
          : ''),
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

/** Rounds of inTurns: each a run of the harness and a pass of each of iridia's sides. */
export const TURNS = 5;

/**
 * A target's two sides timed in turns (issue 17, docs/benchmarks.md, the twentieth session). Timed one
 * after the other, the peer's passes and iridia's met different spells of this machine's speed, which
 * moves by up to two times from minute to minute: the module read's ratio read 1.43 to 1.56 in one
 * session's runs and 2.29 in the next's, the code unchanged, as the peer's own rate went from 15,564
 * to 12,721 a CPU-second. Here the harness runs again `rounds` times, `passes` timed passes each,
 * over the files it compiled the first time (`first`, from inProcessPeer), and after each run every
 * pass of `ours` (iridia's sides of the ratios, on the same files, as lift.bench.ts's `whole` makes
 * them) runs once, after one warm-up each. Returned: the peer with every round's passes in cpuMs and
 * wallMs (the best is the least), and each of `ours` as its least CPU milliseconds. A later run of
 * the harness that fails, or compiles other files than the first, is an error: the first run
 * screened them.
 */
export function inTurns(
  first: InProcessPeer,
  files: readonly string[],
  ours: readonly (() => { cpu: number })[],
  passes: number,
  source: PeerSource = 'dxbc-tpf',
  target: PeerTarget = 'spirv-binary',
  rounds = TURNS,
): { peer: InProcessPeer; ours: number[] } {
  const compiled = files.filter((_, i) => first.ok[i]);
  const cpuMs = [...first.cpuMs];
  const wallMs = [...first.wallMs];
  for (const pass of ours) pass();
  const best = ours.map(() => Infinity);
  for (let r = 0; r < rounds; r++) {
    ours.forEach((pass, k) => (best[k] = Math.min(best[k] as number, pass().cpu)));
    const again = inProcessPeer(compiled, passes, source, target);
    if ('why' in again) throw new Error(`the peer's run ${r + 2} failed: ${again.why}`);
    if (again.files !== compiled.length)
      throw new Error(
        `the peer's run ${r + 2} compiled ${again.files} of the ${compiled.length} files it compiled before`,
      );
    cpuMs.push(...again.cpuMs);
    wallMs.push(...again.wallMs);
  }
  return { peer: { ...first, cpuMs, wallMs }, ours: best };
}
