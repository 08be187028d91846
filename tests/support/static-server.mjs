// A static file server on 127.0.0.1 for browser tests: serves a directory as
// any web server would (wasm as application/wasm), plus fixed pages by path.

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.css': 'text/css' };

/** Serves `dir` (and `pages`: path → HTML); resolves with `{url, close}`. */
export function serveDirectory(dir, { pages = {} } = {}) {
  return new Promise((resolve) => {
    const http = createServer(async (req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      if (pages[path] !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(pages[path]);
        return;
      }
      try {
        const body = await readFile(join(dir, path.endsWith('/') ? `${path}index.html` : path));
        res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? (path.endsWith('/') ? 'text/html' : 'application/octet-stream') });
        res.end(body);
      } catch {
        res.writeHead(404);
        res.end();
      }
    });
    http.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${http.address().port}`,
      close: () => new Promise((done) => { http.closeAllConnections(); http.close(done); }),
    }));
  });
}
