// Serves the built renderer (Vite's output in dist/renderer). Only files inside that folder,
// hashed assets cached for good, index.html never cached, and a strict CSP on the page.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentTypeOf } from '../../../shared/mime-types.js';

/** dist/renderer, whether this module runs compiled (dist/electron/core/headless) or from source. */
export function defaultRendererDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = here.split(path.sep).includes('dist');
  return compiled ? path.resolve(here, '../../../renderer') : path.resolve(here, '../../../dist/renderer');
}

export function pageHeaders(port: number): http.OutgoingHttpHeaders {
  const ws = `ws://127.0.0.1:${port} ws://localhost:${port}`;
  return {
    'content-security-policy':
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; ` +
      `connect-src 'self' ${ws}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // The page URL carries the token; never send it to anyone in a Referer.
    'referrer-policy': 'no-referrer',
  };
}

/**
 * Answers a GET for `decodedPath` (percent-decoded already) from `dir`; false when there is
 * no such file. A file that fails to read once its head went out can only cut the answer
 * short: the connection is closed and `onReadError` told.
 */
export function serveStatic(
  dir: string,
  decodedPath: string,
  res: http.ServerResponse,
  port: number,
  onReadError: (rel: string, err: Error) => void,
): boolean {
  const rel = decodedPath === '/' ? 'index.html' : decodedPath.replace(/^\/+/, '');
  const file = path.resolve(dir, rel);
  if (!file.startsWith(path.resolve(dir) + path.sep)) return false;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;
  const isPage = rel === 'index.html';
  res.writeHead(200, {
    ...pageHeaders(port),
    'content-type': contentTypeOf(file),
    'content-length': stat.size,
    'cache-control': isPage || !rel.startsWith('assets/') ? 'no-store' : 'public, max-age=31536000, immutable',
  });
  const stream = fs.createReadStream(file);
  stream.on('error', (err) => {
    onReadError(rel, err);
    res.destroy();
  });
  // A reader gone mid-file stops the read.
  res.on('close', () => stream.destroy());
  stream.pipe(res);
  return true;
}

export function notBuiltPage(dir: string): string {
  return `<!doctype html><meta charset="utf-8"><title>Loupe</title><body style="font:14px system-ui;margin:2em">
<h1>Loupe</h1><p>The UI is not built (no ${dir}/index.html). Run <code>npm run build</code> in the Loupe folder,
then reload. The API and the proxy work meanwhile.</p>`;
}
