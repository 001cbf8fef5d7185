// A minimal headless page until the full UI lands: the proxy URL and the latest exchanges,
// refreshed every second. It already follows the headless rules the UI server will keep:
// loopback only, a random token per start carried in the URL, and a Host check against
// DNS rebinding.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../store/db.js';

export interface StatusServer {
  url: string;
  close(): Promise<void>;
}

interface Row {
  id: number;
  method: string;
  path: string;
  label: string | null;
  status: number | null;
  state: string | null;
  duration_us: number | null;
}

export async function startStatusServer(db: Db, proxyUrl: string, port = 0): Promise<StatusServer> {
  const token = crypto.randomBytes(18).toString('base64url');
  const recent = db.prepare(
    `SELECT e.id, e.method, e.path, e.label, h.status, x.state, x.t_us AS duration_us
     FROM exchanges e LEFT JOIN response_heads h ON h.exchange_id = e.id LEFT JOIN exchange_ends x ON x.exchange_id = e.id
     ORDER BY e.id DESC LIMIT 200`,
  );
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (host !== '127.0.0.1' && host !== 'localhost') return deny(res, 403, 'bad Host');
    if (url.searchParams.get('token') !== token) return deny(res, 401, 'missing or wrong token');
    const rows = recent.all() as Row[];
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(page(proxyUrl, rows));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/?token=${token}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function deny(res: http.ServerResponse, status: number, why: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(`Loupe: ${why}. Open the URL that \`loupe serve\` printed.\n`);
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(proxyUrl: string, rows: Row[]): string {
  const body = rows.length
    ? rows
        .map(
          (r) =>
            `<tr><td>${r.id}</td><td>${escape(r.label ?? '')}</td><td>${escape(r.method)} ${escape(r.path)}</td>` +
            `<td>${r.status ?? ''}</td><td>${escape(r.state ?? 'in flight')}</td>` +
            `<td>${r.duration_us === null ? '' : (r.duration_us / 1000).toFixed(1) + ' ms'}</td></tr>`,
        )
        .join('')
    : `<tr><td colspan="6">Nothing recorded yet. Point a client at the proxy: <code>OPENAI_BASE_URL=${escape(proxyUrl)}</code></td></tr>`;
  return `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="1"><title>Loupe</title>
<style>body{font:14px system-ui;margin:2em;color-scheme:light dark}td,th{padding:2px 10px;text-align:left}code{background:#8882;padding:2px 4px}</style>
<h1>Loupe</h1><p>Proxy: <code>${escape(proxyUrl)}</code></p>
<table><tr><th>#</th><th>run</th><th>request</th><th>status</th><th>state</th><th>duration</th></tr>${body}</table>`;
}
