// Reflection throughput: reflect() + the D3DReflect-shaped JSON, and the listing header, over the
// containers of ../shared/oracle (falls back to test/fixtures), in containers/s and MB/s of container
// bytes; parseContainer alone beside them as the floor. Files are read first so the figures are
// iridia's own work.

import { readFileSync } from 'node:fs';
import { hasContainerMagic, parseContainer } from '../src/container/container.js';
import { reflect } from '../src/reflect/reflection.js';
import { d3dReflectJson } from '../src/reflect/d3d.js';
import { listingHeader } from '../src/disasm/header.js';
import { FIXTURES, sharedPath, walk } from '../test/helpers/shared.js';

function best(f: () => void, runs: number): number {
  f();
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

export async function bench(report: (line: string) => void): Promise<void> {
  const root = sharedPath('oracle') ?? FIXTURES;
  const inputs = walk(root)
    .filter((f) => f.endsWith('/shader.dxbc'))
    .map((f) => {
      const b = readFileSync(f);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    })
    // what reflect() reads: a container with a program (the oracle's bare effects, fx_5_0 binaries
    // under the same name, are not containers; its shader libraries hold LIBF functions instead)
    .filter((b) => hasContainerMagic(b) && parseContainer(b).parts.some((p) => p.kind === 'SHEX' || p.kind === 'SHDR'));
  const bytes = inputs.reduce((n, b) => n + b.byteLength, 0);
  const line = (what: string, ms: number): void =>
    report(
      `${what.padEnd(28)} ${((inputs.length / ms) * 1000).toFixed(0).padStart(7)} containers/s  ${((bytes / 1e6 / ms) * 1000).toFixed(1).padStart(6)} MB/s`,
    );
  report(`${inputs.length} containers, ${(bytes / 1e6).toFixed(1)} MB, from ${root}`);
  line(
    'parseContainer',
    best(() => inputs.forEach((b) => parseContainer(b)), 3),
  );
  line(
    'reflect + D3D JSON',
    best(() => inputs.forEach((b) => JSON.stringify(d3dReflectJson(reflect(parseContainer(b))))), 3),
  );
  line(
    'listingHeader',
    best(() => inputs.forEach((b) => listingHeader(parseContainer(b), 0)), 3),
  );
  await Promise.resolve();
}
