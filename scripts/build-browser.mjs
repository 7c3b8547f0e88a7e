// Bundles the library (src/index.ts, the root export) into one browser ES module,
// dist/browser/iridia.js (with its source map), for pages that load iridia without a bundler:
// <script type="module">import { parseContainer } from './iridia.js'</script>. Platform 'browser': an
// import of a Node module anywhere in the core fails the build. `npm run build` runs it after tsc;
// the package ships the file as `iridia/browser` (package.json "exports").
import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export async function buildBrowser({ minify = true } = {}) {
  return build({
    entryPoints: [join(ROOT, 'src/index.ts')],
    outfile: join(ROOT, 'dist/browser/iridia.js'),
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
  const result = await buildBrowser({ minify: !process.argv.includes('--no-minify') });
  const out = Object.entries(result.metafile.outputs).find(([f]) => f.endsWith('iridia.js'));
  console.log(
    `dist/browser/iridia.js: ${out ? out[1].bytes : '?'} bytes from ${Object.keys(result.metafile.inputs).length} modules`,
  );
}
