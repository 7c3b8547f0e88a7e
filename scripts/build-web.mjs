// Bundles the web inspector (web/main.ts and the core it imports from src/) into web/dist/main.js
// with esbuild, for browsers: platform 'browser', so an import of a Node module anywhere in the core
// fails the build (the core must run in a browser). `node scripts/build-web.mjs [--minify]`.
import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds web/dist/main.js; resolves to esbuild's result (its metafile lists the bundled inputs). */
export async function buildWeb({ minify = false } = {}) {
  return build({
    entryPoints: [join(ROOT, 'web/main.ts')],
    outfile: join(ROOT, 'web/dist/main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    minify,
    metafile: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await buildWeb({ minify: process.argv.includes('--minify') });
  const out = Object.entries(result.metafile.outputs).find(([f]) => f.endsWith('main.js'));
  const inputs = Object.keys(result.metafile.inputs).length;
  console.log(`web/dist/main.js: ${out ? out[1].bytes : '?'} bytes from ${inputs} modules`);
}
