// Bundles the web inspector (web/main.ts and the core it imports from src/) into web/dist/main.js
// with esbuild, for browsers: platform 'browser', so an import of a Node module anywhere in the core
// fails the build (the core must run in a browser). Copies the bundled examples (examples/*.dxbc)
// into web/dist/examples/, which the page's example button and ?example=NAME links fetch.
// `node scripts/build-web.mjs [--minify]` prints the bundle's size, raw and gzipped.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds web/dist/main.js; resolves to esbuild's result (its metafile lists the bundled inputs). */
export async function buildWeb({ minify = false } = {}) {
  const result = await build({
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
  const examples = join(ROOT, 'web/dist/examples');
  mkdirSync(examples, { recursive: true });
  for (const name of readdirSync(join(ROOT, 'examples')))
    if (name.endsWith('.dxbc')) copyFileSync(join(ROOT, 'examples', name), join(examples, name));
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const minify = process.argv.includes('--minify');
  const result = await buildWeb({ minify });
  const inputs = Object.keys(result.metafile.inputs).length;
  const bytes = readFileSync(join(ROOT, 'web/dist/main.js'));
  const gzip = gzipSync(bytes, { level: 9 }).byteLength;
  console.log(
    `web/dist/main.js: ${bytes.byteLength} bytes${minify ? ' minified' : ''}, ${gzip} gzipped, from ${inputs} modules`,
  );
}
