// A tiny static server for the web inspector: serves web/ on http://127.0.0.1:PORT (loopback
// only; GET and HEAD; no listing, no path outside web/). `node scripts/serve-web.mjs [--port N]`
// (default $PORT or 8080; 0 picks a free port). Prints the URL on its first line of output.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve, sep } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '../web');
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

const portArg = process.argv.indexOf('--port');
const port = Number(portArg >= 0 ? process.argv[portArg + 1] : (process.env.PORT ?? 8080));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('serve-web: --port takes a number from 0 to 65535');
  process.exit(2);
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let path;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const file = resolve(WEB, `.${path.endsWith('/') ? `${path}index.html` : path}`);
  if (file !== WEB && !file.startsWith(WEB + sep)) {
    res.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}\n`);
  }
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`http://127.0.0.1:${bound}/`);
});
