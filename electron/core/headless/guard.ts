// Who may talk to the headless server. It listens on 127.0.0.1 only, and a page on any
// other site must not be able to drive it through the user's browser:
// - every request carries the per-start token (query `token`, header `x-loupe-token`, or
//   the cookie the page sets on first load), on WebSocket upgrades too: else 401;
// - Host must name this server on loopback (no DNS rebinding): else 403;
// - Origin, when a browser sends one, must be this server's own origin: else 403.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type Verdict = { ok: true } | { ok: false; status: 401 | 403; why: string };

export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

export function cookieName(port: number): string {
  // Cookies are shared across ports of one host; the port keeps two servers apart.
  return `loupe_token_${port}`;
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function tokenOf(req: IncomingMessage, url: URL, port: number): string | null {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  const header = req.headers['x-loupe-token'];
  if (typeof header === 'string' && header) return header;
  const cookies = req.headers.cookie ?? '';
  const name = cookieName(port);
  for (const part of cookies.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export function check(req: IncomingMessage, url: URL, port: number, token: string): Verdict {
  const host = req.headers.host ?? '';
  if (!allowedHosts(port).includes(host.toLowerCase()))
    return { ok: false, status: 403, why: `Host "${host}" is not this server` };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`)) {
    return { ok: false, status: 403, why: `Origin "${origin}" may not use this server` };
  }
  if (!sameToken(tokenOf(req, url, port), token)) return { ok: false, status: 401, why: 'missing or wrong token' };
  return { ok: true };
}
