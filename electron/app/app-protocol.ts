// The renderer is served from `loupe-app://renderer/`, a privileged standard scheme, not
// file://: the page gets a real origin that the IPC guard can check (file:// pages share
// the opaque origin "file://" with every other local file), and only files inside
// dist/renderer can ever be loaded. Each answer carries the app's Content-Security-Policy.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Protocol } from 'electron';
import { CONTENT_SECURITY_POLICY } from './csp.js';
import { contentTypeOf } from '../../shared/mime-types.js';

export const APP_SCHEME = 'loupe-app';
export const APP_HOST = 'renderer';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Registered before `ready` (Electron's rule); `standard` gives the scheme an origin and relative URLs. */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: true,
  codeCache: true,
} as const;

export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

export function serveRenderer(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request.url, request.method));
}

/** The app's own page and nothing else: this scheme, this host, no credentials in the URL. */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
  } catch {
    return false;
  }
}

const headers = (type: string) => ({
  'content-type': type,
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

export async function rendererResponse(rendererDir: string, url: string, method = 'GET'): Promise<Response> {
  if (!isAppUrl(url)) return new Response('not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
  if (method !== 'GET' && method !== 'HEAD')
    return new Response('method not allowed', { status: 405, headers: headers('text/plain; charset=utf-8') });
  const { pathname } = new URL(url);
  let rel: string;
  try {
    rel = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  } catch {
    return new Response('bad path', { status: 400, headers: headers('text/plain; charset=utf-8') });
  }
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, rel);
  if (!file.startsWith(root + path.sep))
    return new Response('not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    if (rel === 'index.html')
      return new Response(notBuiltPage(root), { status: 503, headers: headers(contentTypeOf('index.html')) });
    return new Response('not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
  }
  return new Response(method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: headers(contentTypeOf(file)),
  });
}

function notBuiltPage(dir: string): string {
  const escaped = dir.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>Loupe</title><body style="font:14px system-ui;margin:2em">
<h1>Loupe</h1><p>The UI is not built (no ${escaped}/index.html). Run <code>npm run build</code> in the Loupe folder and restart.
The proxy records meanwhile.</p>`;
}
